package io.bourse.simulator;

import io.bourse.common.time.MidnightNanoClock;

import java.util.Arrays;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Trade analytics of one market-data session, per symbol: trades and volume (shares) of the run, session VWAP (sum of
 * price times shares over sum of shares, every trade of the trading day, midnight to midnight UTC, of the newest trade
 * of any symbol: a day's figure, as NASDAQ's sessions are, however many days the run spans) and rolling VWAP over a
 * window of ITCH 5.0 time that ends at the newest trade of any symbol. The window is kept as a ring of equal buckets
 * (the window's resolution is one bucket), so memory is fixed and a trade does not allocate. A Broken Trade takes its
 * trade out of every figure when the trade is among the {@link RecentTrades recent trades} kept by Match Number; a
 * trade heard again among them (the same Match Number, symbol and time) is not counted twice (a MoldUDP64 join's replay
 * of its session is left out before, whatever its length: {@link MoldReplay}). ITCH times are the time of day, so they
 * are laid on the timeline of the simulator's clock, which goes on across midnight: each trade on the latest day that
 * does not put it after its receipt by more than the clocks' skew ({@link MidnightNanoClock#atOrBefore}): a trade is
 * received after it was made. So the window spans midnight, a late trade of before midnight stays before it, the first
 * trade after a quiet night (a close before midnight) is after the last of the day before, and a trade of 12 to 24
 * hours ago (a MoldUDP64 join's backfill of a session that began yesterday) is in the past, not ahead of every live
 * trade (before stop 60 it was laid on the day nearest its receipt, 12 hours ahead at most, and held the window there).
 * Counts the inconsistencies of its book too. Written by the market-data thread; the VWAPs are also published as
 * dollars for the Prometheus scrapes (every symbol's again whenever the window or the day moves on).
 */
final class FeedAnalytics implements MarketDataListener
{
    private static final double PRICE_SCALE = 10_000.0;

    private final SimulatorCounters counters;
    private final MidnightNanoClock receiptClock;
    private final long bucketNs;
    private final int bucketCount;
    private final long[] trades;
    private final long[] volume;
    /** Of the trades of the session's day. */
    private final long[] sessionVolume;
    /** Of the trades of the session's day. */
    private final long[] sessionNotional;
    private final long[][] bucketEpoch;
    private final long[][] bucketVolume;
    private final long[][] bucketNotional;
    private final AtomicLongArray publishedSessionVwap;
    private final AtomicLongArray publishedRollingVwap;
    private final long[] inconsistencies = new long[Inconsistency.values().length];
    private final RecentTrades recentTrades = new RecentTrades();
    /** On the timeline: the receipt clock's time plus a day, so that every time on it is positive; 0 before any. */
    private long newestTradeNs;
    /** The day on the timeline of the newest trade, whose trades the session VWAP is of. */
    private long sessionDay;

    /**
     * @param symbolCount  Stock Locates 1 to symbolCount.
     * @param windowNs     rolling window in ns of ITCH time.
     * @param bucketCount  buckets of the window; the window is a whole number of buckets of windowNs / bucketCount.
     * @param counters     where inconsistencies are counted.
     * @param receiptClock the clock of the trades' receipt, read per trade: the day each trade's time of day is on.
     */
    FeedAnalytics(
        final int symbolCount,
        final long windowNs,
        final int bucketCount,
        final SimulatorCounters counters,
        final MidnightNanoClock receiptClock)
    {
        this.counters = counters;
        this.receiptClock = receiptClock;
        this.bucketCount = bucketCount;
        this.bucketNs = Math.max(1, windowNs / bucketCount);
        this.trades = new long[symbolCount + 1];
        this.volume = new long[symbolCount + 1];
        this.sessionVolume = new long[symbolCount + 1];
        this.sessionNotional = new long[symbolCount + 1];
        this.bucketEpoch = new long[symbolCount + 1][bucketCount];
        this.bucketVolume = new long[symbolCount + 1][bucketCount];
        this.bucketNotional = new long[symbolCount + 1][bucketCount];
        for (final long[] epochs : bucketEpoch)
        {
            Arrays.fill(epochs, -1);
        }
        this.publishedSessionVwap = nanArray(symbolCount + 1);
        this.publishedRollingVwap = nanArray(symbolCount + 1);
    }

    @Override
    public void onTrade(
        final int locate, final long timeOfDayNs, final long price, final long shares, final long matchNumber)
    {
        if (locate < 1 || locate >= trades.length || shares <= 0)
        {
            return;
        }
        final long timestampNs = MidnightNanoClock.NANOS_PER_DAY +
            MidnightNanoClock.atOrBefore(timeOfDayNs, receiptClock.nanosSinceMidnight());
        if (recentTrades.isKept(matchNumber, locate, timestampNs))
        {
            counters.increment(SimulatorCounter.MD_DUPLICATE_TRADES);
            return;
        }
        recentTrades.keep(matchNumber, locate, timestampNs, price, shares);
        trades[locate]++;
        volume[locate] += shares;
        final boolean dayMoved = addToSession(locate, timestampNs, price * shares, shares);
        final long epoch = timestampNs / bucketNs;
        final int bucket = (int)(epoch % bucketCount);
        // A trade older than the bucket's (a replay, a late message) is a whole window or more older: not in it.
        if (bucketEpoch[locate][bucket] <= epoch)
        {
            if (bucketEpoch[locate][bucket] != epoch)
            {
                bucketEpoch[locate][bucket] = epoch;
                bucketVolume[locate][bucket] = 0;
                bucketNotional[locate][bucket] = 0;
            }
            bucketVolume[locate][bucket] += shares;
            bucketNotional[locate][bucket] += price * shares;
        }
        final boolean windowMoved = timestampNs / bucketNs > newestTradeNs / bucketNs;
        newestTradeNs = Math.max(newestTradeNs, timestampNs);
        if (windowMoved || dayMoved)
        {
            // Every symbol's rolling VWAP, or session VWAP, not this one's only.
            for (int other = 1; other < trades.length; other++)
            {
                publish(other);
            }
        }
        else
        {
            publish(locate);
        }
    }

    @Override
    public void onBrokenTrade(final long matchNumber)
    {
        final int slot = recentTrades.find(matchNumber);
        if (RecentTrades.NOT_KEPT == slot)
        {
            counters.increment(SimulatorCounter.MD_BREAKS_NOT_APPLIED);
            return;
        }
        final long shares = recentTrades.shares(slot);
        if (0 == shares)
        {
            counters.increment(SimulatorCounter.MD_DUPLICATE_TRADES);
            return;
        }
        final int locate = recentTrades.locate(slot);
        final long notional = recentTrades.price(slot) * shares;
        trades[locate]--;
        volume[locate] -= shares;
        addToSession(locate, recentTrades.timestampNs(slot), -notional, -shares);
        final long epoch = recentTrades.timestampNs(slot) / bucketNs;
        final int bucket = (int)(epoch % bucketCount);
        if (bucketEpoch[locate][bucket] == epoch)
        {
            bucketVolume[locate][bucket] -= shares;
            bucketNotional[locate][bucket] -= notional;
        }
        recentTrades.markBroken(slot);
        counters.increment(SimulatorCounter.MD_BROKEN_TRADES);
        publish(locate);
    }

    /**
     * Adds a trade, or takes a broken one out (negative figures), to the session's figures when it is of the session's
     * day; a trade of a later day starts that day's session first (every symbol's session VWAP NaN until its first
     * trade of the day), and one of an earlier day is in no session figure.
     *
     * @return whether the trade started a new day's session: every symbol's VWAPs are to be published again.
     */
    private boolean addToSession(final int locate, final long timestampNs, final long notional, final long shares)
    {
        final long day = timestampNs / MidnightNanoClock.NANOS_PER_DAY;
        final boolean newDay = day > sessionDay;
        if (newDay)
        {
            sessionDay = day;
            Arrays.fill(sessionVolume, 0);
            Arrays.fill(sessionNotional, 0);
        }
        if (day == sessionDay)
        {
            sessionVolume[locate] += shares;
            sessionNotional[locate] += notional;
        }
        return newDay;
    }

    private void publish(final int locate)
    {
        publishedSessionVwap.setRelease(locate, Double.doubleToRawLongBits(sessionVwap(locate)));
        publishedRollingVwap.setRelease(locate, Double.doubleToRawLongBits(rollingVwap(locate)));
    }

    @Override
    public void onInconsistency(final Inconsistency kind, final int locate, final long orderReferenceNumber)
    {
        inconsistencies[kind.ordinal()]++;
        counters.increment(SimulatorCounter.MD_INCONSISTENCIES);
    }

    /**
     * @param locate Stock Locate.
     * @return trades of the symbol so far.
     */
    long trades(final int locate)
    {
        return trades[locate];
    }

    /**
     * @param locate Stock Locate.
     * @return shares traded so far.
     */
    long volume(final int locate)
    {
        return volume[locate];
    }

    /**
     * @param locate Stock Locate.
     * @return shares traded on the newest trade's day (UTC): the session's.
     */
    long sessionVolume(final int locate)
    {
        return sessionVolume[locate];
    }

    /**
     * @param locate Stock Locate.
     * @return session VWAP in dollars: of the trades of the newest trade's day; NaN before the symbol's first of it.
     */
    double sessionVwap(final int locate)
    {
        return vwap(sessionNotional[locate], sessionVolume[locate]);
    }

    /**
     * @param locate Stock Locate.
     * @return VWAP in dollars of the trades in the window that ends at the newest trade, NaN when there are none.
     */
    double rollingVwap(final int locate)
    {
        final long newestEpoch = newestTradeNs / bucketNs;
        long windowVolume = 0;
        long windowNotional = 0;
        for (int bucket = 0; bucket < bucketCount; bucket++)
        {
            final long epoch = bucketEpoch[locate][bucket];
            if (epoch > newestEpoch - bucketCount && epoch <= newestEpoch)
            {
                windowVolume += bucketVolume[locate][bucket];
                windowNotional += bucketNotional[locate][bucket];
            }
        }
        return vwap(windowNotional, windowVolume);
    }

    /**
     * @param kind an inconsistency.
     * @return how many were seen.
     */
    long inconsistencies(final Inconsistency kind)
    {
        return inconsistencies[kind.ordinal()];
    }

    /**
     * Any thread.
     *
     * @param locate Stock Locate.
     * @return the session VWAP in dollars as of the symbol's last trade or the window's last move, whichever came
     * later (as {@link #sessionVwap}: NaN before the symbol's first trade of the day).
     */
    double publishedSessionVwap(final int locate)
    {
        return Double.longBitsToDouble(publishedSessionVwap.getAcquire(locate));
    }

    /**
     * Any thread.
     *
     * @param locate Stock Locate.
     * @return the rolling VWAP in dollars as of the symbol's last trade or the window's last move, whichever came
     * later (as {@link #rollingVwap}: NaN when the window holds none of its trades).
     */
    double publishedRollingVwap(final int locate)
    {
        return Double.longBitsToDouble(publishedRollingVwap.getAcquire(locate));
    }

    /** @return a listener that counts this book's inconsistencies only, for sessions whose trades are not analysed. */
    MarketDataListener inconsistenciesOnly()
    {
        return new MarketDataListener()
        {
            @Override
            public void onTrade(
                final int locate, final long timestampNs, final long price, final long shares, final long matchNumber)
            {
            }

            @Override
            public void onBrokenTrade(final long matchNumber)
            {
            }

            @Override
            public void onInconsistency(final Inconsistency kind, final int locate, final long orderReferenceNumber)
            {
                FeedAnalytics.this.onInconsistency(kind, locate, orderReferenceNumber);
            }
        };
    }

    private static double vwap(final long notional, final long volume)
    {
        return 0 == volume ? Double.NaN : notional / PRICE_SCALE / volume;
    }

    private static AtomicLongArray nanArray(final int length)
    {
        final AtomicLongArray array = new AtomicLongArray(length);
        for (int i = 0; i < length; i++)
        {
            array.set(i, Double.doubleToRawLongBits(Double.NaN));
        }
        return array;
    }
}
