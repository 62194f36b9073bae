package io.bourse.simulator;

import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * Chooses the order flow: per symbol a mid price doing a random walk in ticks of $0.01 from $100.00 (a tick down or up,
 * 12% each, at each new order), and a {@link Profile mix} of day limit orders resting 1 to 5 ticks away from the mid on
 * their own side, immediate-or-cancel orders priced 1 to 5 ticks through the mid (so they execute against resting
 * orders), cancels of the session's own open orders (whole, or partial: down to half the open size, rounded down to a
 * lot) and replaces (re-priced around the mid as it stands, half of them with a new open size; the Shares sent adds
 * what the order has executed, OUCH 4.2 §2.2). Sizes are round lots of 100 to 1,000 shares. The symbol of a new order
 * is drawn by {@link ZipfPopularity} (uniform by default).
 *
 * <p>The session's book counts its open orders and its Enter Orders in flight. A cancel or replace with no live order
 * to target becomes a day order (immediate-or-cancel when the book is at the tracking capacity). A day order when the
 * book is at the capacity, or at the profile's book target, becomes a cancel; with a book target, a whole cancel below
 * the target becomes a day order, which holds the session's book around the target. Without a target, resting orders
 * that the walk leaves behind are not filled, so in long runs the book of each session grows to the capacity bound
 * and the mix then shifts from day orders to cancels.
 * Deterministic for a seed; no I/O, no clock, no allocation.
 */
public final class OrderFlowGenerator implements OrderMix
{
    /**
     * Proportions of the actions in permille (summing to 1,000) and the resting orders a session aims to hold.
     *
     * @param dayPermille     day limit orders.
     * @param iocPermille     immediate-or-cancel orders.
     * @param cancelPermille  whole cancels.
     * @param reducePermille  partial cancels (down to half the open size; whole when under two lots).
     * @param replacePermille replaces (moves).
     * @param bookTarget      resting orders per session to hold, 0 = no target (bounded by capacity only).
     */
    public record Profile(
        int dayPermille, int iocPermille, int cancelPermille, int reducePermille, int replacePermille, int bookTarget)
    {
        /**
         * @throws IllegalArgumentException if a share is negative, the shares do not sum to 1,000 or the target
         *                                  is negative.
         */
        public Profile
        {
            if (dayPermille < 0 || iocPermille < 0 || cancelPermille < 0 || reducePermille < 0 || replacePermille < 0 ||
                dayPermille + iocPermille + cancelPermille + reducePermille + replacePermille != 1000 || bookTarget < 0)
            {
                throw new IllegalArgumentException("order mix must be non-negative permille summing to 1000 " +
                    "with a non-negative book target: " + this);
            }
        }

        /**
         * @param bookTarget resting orders per session to hold.
         * @return this mix with that target.
         */
        public Profile withBookTarget(final int bookTarget)
        {
            return new Profile(dayPermille, iocPermille, cancelPermille, reducePermille, replacePermille, bookTarget);
        }
    }

    /** The default flow: 55% day, 15% immediate-or-cancel, 20% cancels (a third partial), 10% replaces. */
    public static final Profile DEFAULT = new Profile(550, 150, 133, 67, 100, 0);
    /**
     * exchange-core's benchmark mix (its BENCH phase: GTC 12.6%, IOC and FOK 1.9%, CANCEL 7.2%, REDUCE 7.2%,
     * MOVE 71.1%): move-heavy, mostly replaces and cancels; give it a book target with
     * {@link Profile#withBookTarget(int)}.
     */
    public static final Profile EXCHANGE_CORE = new Profile(126, 19, 72, 72, 711, 0);

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

    /** Chance in percent that a step of the walk moves the mid a tick down; the same chance moves it a tick up. */
    private static final int WALK_STEP_PERCENT = 12;
    private static final int PICK_ATTEMPTS = 4;
    /** Most slots looked at one after the other once the random picks found only orders with a command in flight. */
    private static final int PICK_SCAN = 64;

    private final SplittableRandom random;
    private final long[] mids;
    private final Profile profile;
    private final ZipfPopularity popularity;

    /**
     * The default mix over uniformly popular symbols.
     *
     * @param symbolCount number of symbols, each with its own mid.
     * @param seed        random seed; the same seed gives the same flow for the same responses.
     */
    public OrderFlowGenerator(final int symbolCount, final long seed)
    {
        this(symbolCount, seed, DEFAULT, 0.0);
    }

    /**
     * @param symbolCount  number of symbols, each with its own mid.
     * @param seed         random seed; the same seed gives the same flow for the same responses.
     * @param profile      proportions of the actions and book target.
     * @param zipfExponent popularity of the symbols, 0 = uniform (see {@link ZipfPopularity}).
     */
    public OrderFlowGenerator(final int symbolCount, final long seed, final Profile profile, final double zipfExponent)
    {
        random = new SplittableRandom(seed);
        mids = new long[symbolCount];
        Arrays.fill(mids, START_MID);
        this.profile = profile;
        this.popularity = new ZipfPopularity(symbolCount, zipfExponent);
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
     * {@inheritDoc}
     *
     * <p>The book's size is taken as the open orders plus the Enter Orders in flight, so that orders answered late
     * neither overshoot the book target (or undershoot it, cancels drawn for orders already leaving) nor pass the
     * tracking capacity: at that capacity, an order that would have rested goes as immediate-or-cancel instead, as no
     * Accepted beyond it could be tracked, and an untracked order would rest in the exchange for good.
     */
    @Override
    public void next(final OpenOrders openOrders, final int entriesInFlight, final OrderAction action)
    {
        final int expected = openOrders.size() + entriesInFlight;
        final boolean full = expected >= openOrders.capacity();
        final int resting = full ? OrderAction.IOC : OrderAction.DAY;
        final int roll = random.nextInt(1000);
        int bound = profile.dayPermille();
        if (roll < bound)
        {
            if (!atTarget(expected, full) || !cancel(openOrders, action, false))
            {
                limit(resting, action);
            }
        }
        else if (roll < (bound += profile.iocPermille()))
        {
            limit(OrderAction.IOC, action);
        }
        else if (roll < (bound += profile.cancelPermille()))
        {
            if ((profile.bookTarget() > 0 && expected < profile.bookTarget()) || !cancel(openOrders, action, false))
            {
                limit(resting, action);
            }
        }
        else if (roll < bound + profile.reducePermille())
        {
            if (!cancel(openOrders, action, true))
            {
                limit(resting, action);
            }
        }
        else if (!replace(openOrders, action))
        {
            limit(resting, action);
        }
    }

    private boolean atTarget(final int expected, final boolean full)
    {
        return full || (profile.bookTarget() > 0 && expected >= profile.bookTarget());
    }

    private void limit(final int type, final OrderAction action)
    {
        final int symbolIndex = popularity.sample(random);
        final long mid = walk(symbolIndex);
        final byte side = random.nextBoolean() ? (byte)'B' : (byte)'S';
        final long offset = offset();
        final boolean buy = side == 'B';
        final long price = type == OrderAction.IOC ? (buy ? mid + offset : mid - offset) :
            (buy ? mid - offset : mid + offset);
        action.set(type, symbolIndex, side, price, lots(), -1);
    }

    private boolean cancel(final OpenOrders openOrders, final OrderAction action, final boolean partial)
    {
        final int slot = pickLive(openOrders);
        if (slot < 0)
        {
            return false;
        }
        final long open = openOrders.shares(slot);
        final long newSize = partial && open >= 2 * LOT ? open / (2 * LOT) * LOT : 0;
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
        // Around the mid as it stands, without a step of the walk: most of exchange-core's mix is replaces, and each
        // moving the mid walked it through the other side's resting orders, whose executions drained the book.
        final long mid = mids[symbolIndex];
        final long offset = offset();
        final long price = side == 'B' ? mid - offset : mid + offset;
        // Replace Order Shares is the total the order may execute, what its chain executed included (OUCH 4.2 §2.2).
        final long shares = openOrders.executed(slot) + (random.nextBoolean() ? openOrders.shares(slot) : lots());
        action.set(OrderAction.REPLACE, symbolIndex, side, price, shares, slot);
        return true;
    }

    /**
     * @return a random open order without a cancel or replace in flight: a few random tries, then the first such order
     *         among {@value #PICK_SCAN} slots from a random one on; -1 when none was found.
     */
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
        // Most orders have a cancel or replace in flight (a fast run): the first without one from a random slot on,
        // within a bounded stretch, so that a stalled exchange (every order in flight) costs each draw little.
        final int start = random.nextInt(size);
        for (int i = 0, n = Math.min(size, PICK_SCAN); i < n; i++)
        {
            final int slot = start + i < size ? start + i : start + i - size;
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
        if (roll < WALK_STEP_PERCENT)
        {
            mid -= TICK;
        }
        else if (roll < 2 * WALK_STEP_PERCENT)
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
