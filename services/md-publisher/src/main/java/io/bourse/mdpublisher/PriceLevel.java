package io.bourse.mdpublisher;

/**
 * The aggregate of one price on one side (L2): total open shares and number of orders, and the orders themselves
 * (L3) in time priority, oldest first, as a linked list through {@link BookOrder}. Pooled.
 */
final class PriceLevel
{
    long price;
    long totalShares;
    int orderCount;
    /** The order with the highest time priority, null when none. */
    BookOrder first;
    /** The order with the lowest time priority, null when none. */
    BookOrder last;

    void init(final long price)
    {
        this.price = price;
        this.totalShares = 0;
        this.orderCount = 0;
        this.first = null;
        this.last = null;
    }

    /** Puts an order behind the others: it has the lowest time priority. */
    void append(final BookOrder order)
    {
        order.previous = last;
        order.next = null;
        if (null == last)
        {
            first = order;
        }
        else
        {
            last.next = order;
        }
        last = order;
    }

    /** Takes an order out of the priority list. */
    void unlink(final BookOrder order)
    {
        if (null == order.previous)
        {
            first = order.next;
        }
        else
        {
            order.previous.next = order.next;
        }
        if (null == order.next)
        {
            last = order.previous;
        }
        else
        {
            order.next.previous = order.previous;
        }
        order.previous = null;
        order.next = null;
    }
}
