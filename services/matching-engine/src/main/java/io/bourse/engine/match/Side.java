package io.bourse.engine.match;

/** Side of an order. */
public enum Side
{
    /** Buy: rests on the bid side, takes from the offers. */
    BUY,
    /** Sell: rests on the offer side, takes from the bids. */
    SELL;

    /** @return the side this one trades against. */
    public Side opposite()
    {
        return this == BUY ? SELL : BUY;
    }
}
