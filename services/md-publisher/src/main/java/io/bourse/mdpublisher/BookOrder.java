package io.bourse.mdpublisher;

/** One resting order as market data sees it (L3); pooled and owned by the publisher thread. */
final class BookOrder
{
    long orderId;
    SymbolBook book;
    Side side;
    long price;
    long openShares;
    /** Of the Add Order or Order Replace that gave the order its time priority, ns since midnight. */
    long timestampNs;
    /** The firm (MPID) shown, packed as 4 ASCII bytes big-endian, for an attributable order; 0 for an anonymous one. */
    int attribution;
    PriceLevel level;
    /** The order ahead at the same level, null for the first. */
    BookOrder previous;
    /** The order behind at the same level, null for the last. */
    BookOrder next;

    void init(
        final long orderId, final SymbolBook book, final Side side, final long price, final long openShares,
        final long timestampNs, final int attribution)
    {
        this.orderId = orderId;
        this.book = book;
        this.side = side;
        this.price = price;
        this.openShares = openShares;
        this.timestampNs = timestampNs;
        this.attribution = attribution;
        this.level = null;
    }

    void clear()
    {
        book = null;
        level = null;
    }
}
