package io.bourse.simulator;

import org.agrona.collections.Long2LongHashMap;

/**
 * The trades a market-data session counted most recently, by ITCH 5.0 Match Number, so that a Broken Trade can be taken
 * out of the figures it went into and a trade heard twice while it is kept is counted once (what a MoldUDP64 join hears
 * again of its session, however much, is left out before: {@link MoldReplay}). A ring of the last {@link #CAPACITY}
 * trades in the order they came, found by Match Number through a map from Match Number to ring slot (Agrona's
 * open-addressing {@link Long2LongHashMap}, sized so that it never grows), whatever the Match Numbers' layout. Fixed
 * memory; nothing allocates.
 */
final class RecentTrades
{
    /** Trades kept: the last 65,536, 36 bytes each in the ring and up to 32 in the map. */
    static final int CAPACITY = 1 << 16;
    /** {@link #find} of a Match Number not kept: older than the last {@link #CAPACITY} trades, never heard, or 0. */
    static final int NOT_KEPT = -1;

    private final long[] matchNumbers = new long[CAPACITY];
    private final long[] timestamps = new long[CAPACITY];
    private final long[] prices = new long[CAPACITY];
    private final long[] shares = new long[CAPACITY];
    private final int[] locates = new int[CAPACITY];
    private final Long2LongHashMap slotByMatchNumber = new Long2LongHashMap(CAPACITY * 2, 0.65f, NOT_KEPT);
    private long kept;

    /**
     * @param matchNumber ITCH 5.0 Match Number, day-unique, not 0.
     * @param locate      Stock Locate.
     * @param timestampNs the trade's ITCH 5.0 Timestamp on the analytics' timeline (ns, going on across midnight).
     * @return true when that very trade is kept, as counted or as broken: the message is heard again.
     */
    boolean isKept(final long matchNumber, final int locate, final long timestampNs)
    {
        final int slot = find(matchNumber);
        return NOT_KEPT != slot && locates[slot] == locate && timestamps[slot] == timestampNs;
    }

    /**
     * Keeps a counted trade, in place of the oldest kept once {@link #CAPACITY} are.
     *
     * @param matchNumber ITCH 5.0 Match Number; 0 is not kept.
     * @param locate      Stock Locate.
     * @param timestampNs the trade's ITCH 5.0 Timestamp on the analytics' timeline (ns, going on across midnight).
     * @param price       1/10000 $.
     * @param shares      shares, more than 0.
     */
    void keep(final long matchNumber, final int locate, final long timestampNs, final long price, final long shares)
    {
        if (0 == matchNumber)
        {
            return;
        }
        final int slot = (int)(kept++ & (CAPACITY - 1));
        if (0 != matchNumbers[slot] && slotByMatchNumber.get(matchNumbers[slot]) == slot)
        {
            slotByMatchNumber.remove(matchNumbers[slot]);
        }
        slotByMatchNumber.put(matchNumber, slot);
        matchNumbers[slot] = matchNumber;
        locates[slot] = locate;
        timestamps[slot] = timestampNs;
        prices[slot] = price;
        this.shares[slot] = shares;
    }

    /**
     * @param matchNumber ITCH 5.0 Match Number.
     * @return the slot of the trade, or {@link #NOT_KEPT}.
     */
    int find(final long matchNumber)
    {
        return 0 == matchNumber ? NOT_KEPT : (int)slotByMatchNumber.get(matchNumber);
    }

    /**
     * @param slot from {@link #find}.
     * @return the trade's Stock Locate.
     */
    int locate(final int slot)
    {
        return locates[slot];
    }

    /**
     * @param slot from {@link #find}.
     * @return the trade's time as {@link #keep} had it.
     */
    long timestampNs(final int slot)
    {
        return timestamps[slot];
    }

    /**
     * @param slot from {@link #find}.
     * @return the trade's price, 1/10000 $.
     */
    long price(final int slot)
    {
        return prices[slot];
    }

    /**
     * @param slot from {@link #find}.
     * @return the trade's shares; 0 once it is {@link #markBroken broken}.
     */
    long shares(final int slot)
    {
        return shares[slot];
    }

    /**
     * Keeps the trade, as broken: no longer counted, and a Broken Trade heard again finds 0 shares.
     *
     * @param slot from {@link #find}.
     */
    void markBroken(final int slot)
    {
        shares[slot] = 0;
    }
}
