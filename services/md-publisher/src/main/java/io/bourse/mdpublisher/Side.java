package io.bourse.mdpublisher;

/** Side of an order or a price level, kept free of the wire codecs' own side types. */
public enum Side
{
    /** Bid. */
    BUY,
    /** Offer. */
    SELL
}
