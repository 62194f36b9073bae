package io.bourse.simulator;

import org.agrona.collections.Long2LongHashMap;

/**
 * One session's own open orders, kept from its OUCH 4.2 Accepted, Executed, Canceled and Replaced messages so that
 * cancels and replaces target live orders. Orders live in parallel primitive arrays indexed by a dense slot; removal
 * moves the last order into the freed slot, so a uniformly random slot is a uniformly random open order. An order is
 * keyed by its token counter ({@link OrderTokens}). Preallocated: nothing allocates after construction. Not thread
 * safe: the order-entry thread owns it.
 */
public final class OpenOrders
{
    private static final long MISSING = -1;
    /**
     * {@link #cancelTo} and {@link #replacements} of an order with no cancel, or no replace, in flight; returned by
     * {@link #pendingReplacement} when no replace is in flight for the order.
     */
    public static final long NONE = -1;

    private final int capacity;
    private final long[] counters;
    private final int[] symbolIndexes;
    private final byte[] sides;
    private final long[] prices;
    private final long[] shares;
    /** Shares the order/replace chain has executed: a Replace Order's Shares counts them (OUCH 4.2 §2.2). */
    private final long[] executed;
    /** Shares a cancel in flight asks to leave open, or {@link #NONE}. */
    private final long[] cancelTo;
    /** Token counter of the replacement of a replace in flight, or {@link #NONE}. */
    private final long[] replacements;
    private final Long2LongHashMap slotByCounter;
    /** Token counter of the order a replacement in flight replaces, by the replacement's token counter. */
    private final Long2LongHashMap replacedByReplacement;
    private int size;

    /**
     * @param capacity most open orders tracked; orders beyond it are not tracked (and never targeted).
     */
    public OpenOrders(final int capacity)
    {
        this.capacity = capacity;
        counters = new long[capacity];
        symbolIndexes = new int[capacity];
        sides = new byte[capacity];
        prices = new long[capacity];
        shares = new long[capacity];
        executed = new long[capacity];
        cancelTo = new long[capacity];
        replacements = new long[capacity];
        slotByCounter = new Long2LongHashMap(capacity * 2, 0.65f, MISSING);
        replacedByReplacement = new Long2LongHashMap(capacity * 2, 0.65f, MISSING);
    }

    /** @return number of open orders tracked. */
    public int size()
    {
        return size;
    }

    /** Forgets every order: the trading day they belonged to is over, and their tokens with it. */
    public void clear()
    {
        size = 0;
        slotByCounter.clear();
        replacedByReplacement.clear();
    }

    /** @return most open orders tracked: an Accepted beyond them is not tracked. */
    public int capacity()
    {
        return capacity;
    }

    /**
     * Tracks a new open order: one Accepted (OUCH 4.2, order state Live), which has executed nothing, or the new order
     * of a Replaced, which carries on its chain's executions.
     *
     * @param counter        token counter.
     * @param symbolIndex    index of the symbol in the directory.
     * @param side           'B' or 'S'.
     * @param price          limit price, 1/10000 $.
     * @param openShares     open shares.
     * @param executedShares shares the order/replace chain has executed so far.
     * @return false when full or already tracked.
     */
    public boolean add(final long counter, final int symbolIndex, final byte side, final long price,
        final long openShares, final long executedShares)
    {
        if (size == capacity || slotByCounter.get(counter) != MISSING)
        {
            return false;
        }
        final int slot = size++;
        counters[slot] = counter;
        symbolIndexes[slot] = symbolIndex;
        sides[slot] = side;
        prices[slot] = price;
        shares[slot] = openShares;
        executed[slot] = executedShares;
        cancelTo[slot] = NONE;
        replacements[slot] = NONE;
        slotByCounter.put(counter, slot);
        return true;
    }

    /**
     * @param counter token counter.
     * @return the order's slot, or -1 when not tracked.
     */
    public int slotOf(final long counter)
    {
        return (int)slotByCounter.get(counter);
    }

    /**
     * Reduces an order's open shares (OUCH 4.2 Executed, Canceled), removing it when none remain. A cancel in flight
     * that asked for as many shares as are now open or more is no longer pending: either this was its own Canceled,
     * which leaves the shares it asked for, or an execution or another Canceled got there first, and the exchange
     * ignores a cancel to a size at or above the open size (OUCH 4.2 §2.3), so no Canceled will answer it.
     *
     * @param counter token counter.
     * @param decrement shares executed or canceled.
     * @return true when the order was tracked.
     */
    public boolean reduce(final long counter, final long decrement)
    {
        final int slot = slotOf(counter);
        if (slot < 0)
        {
            return false;
        }
        reduceSlot(slot, decrement);
        return true;
    }

    /**
     * Takes an execution off an order's open shares ({@link #reduce}) and adds it to its chain's executed shares.
     *
     * @param counter token counter.
     * @param shares  shares executed (OUCH 4.2 Executed).
     * @return true when the order was tracked.
     */
    public boolean execute(final long counter, final long shares)
    {
        final int slot = slotOf(counter);
        if (slot < 0)
        {
            return false;
        }
        executed[slot] += shares;
        reduceSlot(slot, shares);
        return true;
    }

    /**
     * Stops tracking an order.
     *
     * @param counter token counter.
     * @return true when the order was tracked.
     */
    public boolean remove(final long counter)
    {
        final int slot = slotOf(counter);
        if (slot < 0)
        {
            return false;
        }
        removeSlot(slot);
        return true;
    }

    /**
     * Marks an order as having a cancel in flight, so that it is not targeted again until answered.
     *
     * @param slot   the order's slot.
     * @param shares the shares the cancel asks to leave open (OUCH 4.2 Cancel Order), 0 for all of them.
     */
    public void markCancelPending(final int slot, final long shares)
    {
        clearSlot(slot);
        cancelTo[slot] = shares;
    }

    /**
     * Marks an order as having a replace in flight, so that it is not targeted again until answered.
     *
     * @param slot        the order's slot.
     * @param replacement the token counter of the replacement order, at least 1.
     */
    public void markReplacePending(final int slot, final long replacement)
    {
        clearSlot(slot);
        replacements[slot] = replacement;
        replacedByReplacement.put(replacement, counters[slot]);
    }

    /**
     * @param counter token counter of an order.
     * @return the token counter of the replacement of the order's replace in flight, or {@link #NONE} when none is or
     *         the order is not tracked.
     */
    public long pendingReplacement(final long counter)
    {
        final int slot = slotOf(counter);
        return slot < 0 ? NONE : replacements[slot];
    }

    /**
     * Clears the pending mark of the order whose replace was refused (OUCH 4.2 Rejected of the replacement token: the
     * order stands as it was).
     *
     * @param replacement the token counter of the rejected replacement; ignored when no order awaits it.
     */
    public void onReplacementRejected(final long replacement)
    {
        final long replaced = replacedByReplacement.get(replacement);
        final int slot = MISSING == replaced ? -1 : slotOf(replaced);
        if (slot >= 0)
        {
            clearSlot(slot);
        }
    }

    private void clearSlot(final int slot)
    {
        if (NONE != replacements[slot])
        {
            replacedByReplacement.remove(replacements[slot]);
        }
        cancelTo[slot] = NONE;
        replacements[slot] = NONE;
    }

    /**
     * @param slot a slot below {@link #size()}.
     * @return true when a cancel or replace is in flight for it.
     */
    public boolean isPending(final int slot)
    {
        return NONE != cancelTo[slot] || NONE != replacements[slot];
    }

    /**
     * @param slot a slot below {@link #size()}.
     * @return the order's token counter.
     */
    public long counter(final int slot)
    {
        return counters[slot];
    }

    /**
     * @param slot a slot below {@link #size()}.
     * @return the order's symbol index.
     */
    public int symbolIndex(final int slot)
    {
        return symbolIndexes[slot];
    }

    /**
     * @param slot a slot below {@link #size()}.
     * @return 'B' or 'S'.
     */
    public byte side(final int slot)
    {
        return sides[slot];
    }

    /**
     * @param slot a slot below {@link #size()}.
     * @return limit price, 1/10000 $.
     */
    public long price(final int slot)
    {
        return prices[slot];
    }

    /**
     * @param slot a slot below {@link #size()}.
     * @return open shares.
     */
    public long shares(final int slot)
    {
        return shares[slot];
    }

    /**
     * @param slot a slot below {@link #size()}.
     * @return shares the order/replace chain has executed: what a Replace Order's Shares adds to the open size.
     */
    public long executed(final int slot)
    {
        return executed[slot];
    }

    private void reduceSlot(final int slot, final long decrement)
    {
        shares[slot] -= decrement;
        if (shares[slot] <= 0)
        {
            removeSlot(slot);
        }
        else if (NONE != cancelTo[slot] && shares[slot] <= cancelTo[slot])
        {
            clearSlot(slot);
        }
    }

    private void removeSlot(final int slot)
    {
        clearSlot(slot);
        slotByCounter.remove(counters[slot]);
        final int last = --size;
        if (slot != last)
        {
            counters[slot] = counters[last];
            symbolIndexes[slot] = symbolIndexes[last];
            sides[slot] = sides[last];
            prices[slot] = prices[last];
            shares[slot] = shares[last];
            executed[slot] = executed[last];
            cancelTo[slot] = cancelTo[last];
            replacements[slot] = replacements[last];
            slotByCounter.put(counters[slot], slot);
        }
    }
}
