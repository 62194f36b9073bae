package io.bourse.simulator;

import com.paritytrading.juncture.nasdaq.itch50.ITCH50;
import io.bourse.common.time.MidnightNanoClock;

import java.util.Arrays;

/**
 * Measures the feed: a count per ITCH 5.0 Message Type and the feed latency, receive time minus the message's Timestamp
 * (ns since midnight), of the order messages of engine events that happened after the simulator joined the feed (or
 * the session last logged in again, each session on its own). Counted but not measured: System Event, Stock Directory
 * and Stock Trading Action (a session's opening and its Trading Action spin carry the opening's time; the rare halt of
 * an operator is left out with them);
 * messages stamped before the simulator joined (a snapshot's Add Orders keep the time of their priority, a MoldUDP64
 * backfill replays the past); and messages that arrive with the Login Accepted, before the market-data thread has
 * stamped a receive time. A Timestamp is the time of day, ns since the latest midnight UTC, while the simulator's
 * clock counts from the midnight of the day it started (past 24 h), so the latency is taken to the nearest whole day
 * ({@link MidnightNanoClock#withinADay}): right for latencies under 12 h; a message is older than the join when its
 * latency is more than the time since the join (both on the simulator's one clock), however long the run.
 * Owned by the market-data thread.
 */
final class FeedMeter implements FeedObserver
{
    private static final long NOT_STAMPED = Long.MIN_VALUE;
    private final SimulatorCounters counters;
    private final LatencyTracker feedLatency;
    /** Per market-data session: when it joined the feed (or last logged in again), ns since midnight UTC. */
    private final long[] joinedNs;
    private int session;
    private long nowNs = NOT_STAMPED;

    /**
     * @param counters    where to count messages.
     * @param feedLatency where to record the feed latency.
     * @param sessions    market-data sessions.
     * @param joinedNs    when the simulator opened its market-data sessions, ns since midnight UTC.
     */
    FeedMeter(final SimulatorCounters counters, final LatencyTracker feedLatency, final int sessions,
        final long joinedNs)
    {
        this.counters = counters;
        this.feedLatency = feedLatency;
        this.joinedNs = new long[sessions];
        Arrays.fill(this.joinedNs, joinedNs);
    }

    /**
     * Sets the session and the receive time of the messages delivered next.
     *
     * @param session the market-data session's index.
     * @param nowNs   nanoseconds since midnight UTC.
     */
    void nowNs(final int session, final long nowNs)
    {
        this.session = session;
        this.nowNs = nowNs;
    }

    /**
     * A market-data session is logged in again: its messages stamped before now (the new session's snapshot) and those
     * that arrive with its Login Accepted are not measured; the other sessions' are, as before.
     *
     * @param session the market-data session's index.
     * @param nowNs   nanoseconds since midnight UTC.
     */
    void rejoined(final int session, final long nowNs)
    {
        joinedNs[session] = nowNs;
        this.session = session;
        this.nowNs = NOT_STAMPED;
    }

    @Override
    public void onMessage(final byte messageType, final long timestampNs)
    {
        counters.onMarketData(messageType);
        if (NOT_STAMPED == nowNs || ITCH50.MESSAGE_TYPE_SYSTEM_EVENT == messageType ||
            ITCH50.MESSAGE_TYPE_STOCK_DIRECTORY == messageType ||
            ITCH50.MESSAGE_TYPE_STOCK_TRADING_ACTION == messageType)
        {
            return;
        }
        final long latencyNs = MidnightNanoClock.withinADay(nowNs - timestampNs);
        // Stamped before the join when older than the join is: the receive and join times are of one clock, so this
        // holds however long ago the join was. Beyond the clocks' skew (recorded as 0), a negative latency is a
        // message 12 to 24 h old.
        if (latencyNs <= nowNs - joinedNs[session] && latencyNs >= -MidnightNanoClock.MAX_CLOCK_SKEW_NS)
        {
            feedLatency.recordNs(latencyNs);
        }
    }
}
