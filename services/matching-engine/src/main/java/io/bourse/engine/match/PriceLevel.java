package io.bourse.engine.match;

/**
 * All resting orders at one price on one side, in priority order: a FIFO linked through the orders in which every
 * displayed order comes before every non-displayed one (each group in time order). Also serves as a side's queue of
 * midpoint peg orders, in time order. Quantities in shares.
 */
final class PriceLevel
{
    long price;
    long totalQuantity;
    long displayedQuantity;
    int orderCount;
    Order head;
    Order tail;
    /** The first non-displayed order, or null when there is none. */
    Order firstHidden;
    /** The next unused level while this one waits in its side's free list. */
    PriceLevel nextFree;

    void init(final long price)
    {
        this.price = price;
        this.totalQuantity = 0;
        this.displayedQuantity = 0;
        this.orderCount = 0;
        this.head = null;
        this.tail = null;
        this.firstHidden = null;
    }

    /** Adds an order behind the others of its group: a displayed one before the first non-displayed one. */
    void append(final Order order)
    {
        order.level = this;
        if (order.displayed)
        {
            displayedQuantity += order.remaining;
            if (null != firstHidden)
            {
                insertBefore(order, firstHidden);
                totalQuantity += order.remaining;
                orderCount++;
                return;
            }
        }
        else if (null == firstHidden)
        {
            firstHidden = order;
        }
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

    private void insertBefore(final Order order, final Order successor)
    {
        order.next = successor;
        order.prev = successor.prev;
        if (null == successor.prev)
        {
            head = order;
        }
        else
        {
            successor.prev.next = order;
        }
        successor.prev = order;
    }

    /** Takes shares off a resting order, keeping its place. */
    void reduce(final Order order, final long quantity)
    {
        order.remaining -= quantity;
        totalQuantity -= quantity;
        if (order.displayed)
        {
            displayedQuantity -= quantity;
        }
    }

    void remove(final Order order)
    {
        if (order == firstHidden)
        {
            firstHidden = order.next;
        }
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
        if (order.displayed)
        {
            displayedQuantity -= order.remaining;
        }
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
