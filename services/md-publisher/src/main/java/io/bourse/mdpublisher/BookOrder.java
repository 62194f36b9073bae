package io.bourse.mdpublisher;

/** One resting order as market data sees it (L3); pooled and owned by the publisher thread. */
final class BookOrder
{
    long orderId;
    SymbolBook book;
    Side side;
    long price;
    long openShares;
    PriceLevel level;

    void init(final long orderId, final SymbolBook book, final Side side, final long price, final long openShares)
    {
        this.orderId = orderId;
        this.book = book;
        this.side = side;
        this.price = price;
        this.openShares = openShares;
        this.level = null;
    }

    void clear()
    {
        book = null;
        level = null;
    }
}
