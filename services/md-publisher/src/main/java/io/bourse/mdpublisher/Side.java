package io.bourse.mdpublisher;

/** Side of an order or a price level, kept free of the wire codecs' own side types. */
public enum Side
{
    /** Bid. */
    BUY,
    /** Offer. */
    SELL;

    /**
     * @param price a price on this side, in 1/10000 dollars.
     * @param than  another price on this side.
     * @return true when the price has priority over the other: higher for a bid, lower for an offer.
     */
    boolean isBetter(final long price, final long than)
    {
        return this == BUY ? price > than : price < than;
    }
}
