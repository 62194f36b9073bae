package io.bourse.simulator;

import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * Chooses the order flow: per symbol a mid price doing a random walk in ticks of $0.01 from $100.00, and a mix of
 * about 55% day limit orders resting 1 to 5 ticks away from the mid on their own side, 15% immediate-or-cancel
 * orders priced 1 to 5 ticks through the mid (so they execute against resting orders), 20% cancels of the session's
 * own open orders (a third of them partial: down to half the open size, rounded down to a lot) and 10% replaces
 * (re-priced around the mid, half of them with a new size). Sizes are round lots of 100 to 1,000 shares.
 *
 * <p>A cancel or replace with no live order to target becomes a day order. A day order when the session already
 * tracks as many open orders as it can becomes a cancel: resting orders that the walk leaves behind are not filled,
 * so in long runs the book of each session grows to that bound and the mix then shifts from day orders to cancels.
 * Deterministic for a seed; no I/O, no clock, no allocation.
 */
public final class OrderFlowGenerator
{
    /** Starting mid price of every symbol: $100.00 in 1/10000 $. */
    public static final long START_MID = 1_000_000L;
    /** Price tick: $0.01 in 1/10000 $. */
    public static final long TICK = 100L;
    /** Lowest mid price the walk may reach: $1.00 in 1/10000 $. */
    public static final long MIN_MID = 10_000L;
    /** Farthest an order is priced from the mid, in ticks. */
    public static final int MAX_OFFSET_TICKS = 5;
    /** Round lot in shares. */
    public static final long LOT = 100L;
    /** Largest order in lots. */
    public static final int MAX_LOTS = 10;

    private static final int DAY_PERCENT = 55;
    private static final int IOC_PERCENT = 15;
    private static final int CANCEL_PERCENT = 20;
    private static final int WALK_PERCENT = 25;
    private static final int PICK_ATTEMPTS = 4;

    private final SplittableRandom random;
    private final long[] mids;

    /**
     * @param symbolCount number of symbols, each with its own mid.
     * @param seed        random seed; the same seed gives the same flow for the same responses.
     */
    public OrderFlowGenerator(final int symbolCount, final long seed)
    {
        random = new SplittableRandom(seed);
        mids = new long[symbolCount];
        Arrays.fill(mids, START_MID);
    }

    /**
     * @param symbolIndex index of the symbol in the directory.
     * @return its current mid price, 1/10000 $.
     */
    public long mid(final int symbolIndex)
    {
        return mids[symbolIndex];
    }

    /**
     * Chooses the next action of a session.
     *
     * @param openOrders the session's open orders (targets of cancels and replaces).
     * @param action     filled with the choice.
     */
    public void next(final OpenOrders openOrders, final OrderAction action)
    {
        final int roll = random.nextInt(100);
        if (roll < DAY_PERCENT)
        {
            if (!openOrders.isFull() || !cancel(openOrders, action))
            {
                limit(OrderAction.DAY, action);
            }
        }
        else if (roll < DAY_PERCENT + IOC_PERCENT)
        {
            limit(OrderAction.IOC, action);
        }
        else if (roll < DAY_PERCENT + IOC_PERCENT + CANCEL_PERCENT)
        {
            if (!cancel(openOrders, action))
            {
                limit(OrderAction.DAY, action);
            }
        }
        else if (!replace(openOrders, action))
        {
            limit(OrderAction.DAY, action);
        }
    }

    private void limit(final int type, final OrderAction action)
    {
        final int symbolIndex = random.nextInt(mids.length);
        final long mid = walk(symbolIndex);
        final byte side = random.nextBoolean() ? (byte)'B' : (byte)'S';
        final long offset = offset();
        final boolean buy = side == 'B';
        final long price = type == OrderAction.IOC ? (buy ? mid + offset : mid - offset) :
            (buy ? mid - offset : mid + offset);
        action.set(type, symbolIndex, side, price, lots(), -1);
    }

    private boolean cancel(final OpenOrders openOrders, final OrderAction action)
    {
        final int slot = pickLive(openOrders);
        if (slot < 0)
        {
            return false;
        }
        final long open = openOrders.shares(slot);
        final long newSize = open >= 2 * LOT && random.nextInt(3) == 0 ? open / (2 * LOT) * LOT : 0;
        action.set(OrderAction.CANCEL, openOrders.symbolIndex(slot), openOrders.side(slot), openOrders.price(slot),
            newSize, slot);
        return true;
    }

    private boolean replace(final OpenOrders openOrders, final OrderAction action)
    {
        final int slot = pickLive(openOrders);
        if (slot < 0)
        {
            return false;
        }
        final int symbolIndex = openOrders.symbolIndex(slot);
        final byte side = openOrders.side(slot);
        final long mid = walk(symbolIndex);
        final long offset = offset();
        final long price = side == 'B' ? mid - offset : mid + offset;
        final long shares = random.nextBoolean() ? openOrders.shares(slot) : lots();
        action.set(OrderAction.REPLACE, symbolIndex, side, price, shares, slot);
        return true;
    }

    private int pickLive(final OpenOrders openOrders)
    {
        final int size = openOrders.size();
        if (size == 0)
        {
            return -1;
        }
        for (int i = 0; i < PICK_ATTEMPTS; i++)
        {
            final int slot = random.nextInt(size);
            if (!openOrders.isPending(slot))
            {
                return slot;
            }
        }
        return -1;
    }

    private long walk(final int symbolIndex)
    {
        final int roll = random.nextInt(100);
        long mid = mids[symbolIndex];
        if (roll < WALK_PERCENT / 2)
        {
            mid -= TICK;
        }
        else if (roll < WALK_PERCENT)
        {
            mid += TICK;
        }
        mid = Math.max(MIN_MID, mid);
        mids[symbolIndex] = mid;
        return mid;
    }

    private long offset()
    {
        return TICK * (1 + random.nextInt(MAX_OFFSET_TICKS));
    }

    private long lots()
    {
        return LOT * (1 + random.nextInt(MAX_LOTS));
    }
}
