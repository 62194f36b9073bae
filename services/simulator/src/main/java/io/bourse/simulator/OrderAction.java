package io.bourse.simulator;

/**
 * The next thing a session does, as chosen by {@link OrderFlowGenerator}: one mutable instance reused for every
 * order, so the order path does not allocate.
 */
public final class OrderAction
{
    /** Enter Order, day time in force, priced passively a few ticks away from the mid. */
    public static final int DAY = 0;
    /** Enter Order, time in force 0 (immediate or cancel), priced through the mid so that it executes. */
    public static final int IOC = 1;
    /** Cancel Order of an own open order, whole or down to a smaller size. */
    public static final int CANCEL = 2;
    /** Replace Order of an own open order: new price and/or size under a new token. */
    public static final int REPLACE = 3;

    int type;
    int symbolIndex;
    byte side;
    long price;
    long shares;
    int targetSlot = -1;

    /** @return {@link #DAY}, {@link #IOC}, {@link #CANCEL} or {@link #REPLACE}. */
    public int type()
    {
        return type;
    }

    /** @return index of the symbol in the directory. */
    public int symbolIndex()
    {
        return symbolIndex;
    }

    /** @return 'B' or 'S' (for a cancel or replace, the target's side). */
    public byte side()
    {
        return side;
    }

    /** @return limit price in 1/10000 $ (Enter, Replace); the target's price for a cancel. */
    public long price()
    {
        return price;
    }

    /**
     * @return shares: order size for Enter and Replace; for Cancel the new intended size (0 cancels the whole order,
     * OUCH 4.2 Cancel Order).
     */
    public long shares()
    {
        return shares;
    }

    /** @return slot of the targeted order in {@link OpenOrders} for Cancel and Replace, else -1. */
    public int targetSlot()
    {
        return targetSlot;
    }

    void set(final int type, final int symbolIndex, final byte side, final long price, final long shares,
        final int targetSlot)
    {
        this.type = type;
        this.symbolIndex = symbolIndex;
        this.side = side;
        this.price = price;
        this.shares = shares;
        this.targetSlot = targetSlot;
    }
}
