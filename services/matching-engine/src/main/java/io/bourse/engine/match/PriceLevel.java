package io.bourse.engine.match;

/** All resting orders at one price on one side, in time priority (a FIFO linked through the orders). */
final class PriceLevel
{
    long price;
    long totalQuantity;
    int orderCount;
    Order head;
    Order tail;
    /** The next unused level while this one waits in its side's free list. */
    PriceLevel nextFree;

    void init(final long price)
    {
        this.price = price;
        this.totalQuantity = 0;
        this.orderCount = 0;
        this.head = null;
        this.tail = null;
    }

    void append(final Order order)
    {
        order.level = this;
        order.prev = tail;
        order.next = null;
        if (null == tail)
        {
            head = order;
        }
        else
        {
            tail.next = order;
        }
        tail = order;
        totalQuantity += order.remaining;
        orderCount++;
    }

    void remove(final Order order)
    {
        if (null == order.prev)
        {
            head = order.next;
        }
        else
        {
            order.prev.next = order.next;
        }
        if (null == order.next)
        {
            tail = order.prev;
        }
        else
        {
            order.next.prev = order.prev;
        }
        totalQuantity -= order.remaining;
        orderCount--;
        order.level = null;
        order.prev = null;
        order.next = null;
    }

    boolean isEmpty()
    {
        return 0 == orderCount;
    }
}
