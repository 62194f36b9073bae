package io.bourse.engine.match;

/**
 * A resting or incoming order, linked intrusively into its price level's FIFO queue; a released order waits in the
 * engine's free list, linked through {@link #next}. Mutable and owned by the engine thread.
 */
final class Order
{
    long clientOrderId;
    long orderId;
    Side side;
    long price;
    long remaining;
    /** Packed 4-byte ASCII firm (OUCH 4.2 Firm), 0 for none. */
    int firm;
    OrderBook book;
    PriceLevel level;
    Order prev;
    Order next;

    void init(
        final long clientOrderId, final long orderId, final OrderBook book, final Side side, final long price,
        final long quantity, final int firm)
    {
        this.clientOrderId = clientOrderId;
        this.orderId = orderId;
        this.book = book;
        this.side = side;
        this.price = price;
        this.remaining = quantity;
        this.firm = firm;
        this.level = null;
        this.prev = null;
        this.next = null;
    }

    void clear()
    {
        book = null;
        level = null;
        prev = null;
        next = null;
    }
}
