package io.bourse.mdpublisher;

/** The aggregate of one price on one side (L2): total open shares and number of orders. Pooled. */
final class PriceLevel
{
    long price;
    long totalShares;
    int orderCount;

    void init(final long price)
    {
        this.price = price;
        this.totalShares = 0;
        this.orderCount = 0;
    }
}
