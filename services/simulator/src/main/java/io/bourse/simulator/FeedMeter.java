package io.bourse.simulator;

import com.paritytrading.juncture.nasdaq.itch50.ITCH50;

/**
 * Measures the feed: a count per ITCH 5.0 Message Type and the feed latency, receive time minus the message's
 * Timestamp (ns since midnight), of the messages that carry an engine event's time. System Event, Stock Directory and
 * Stock Trading Action (whose Timestamp is a session's opening, in the Trading Action spin) are counted but not
 * measured, and so are messages that arrive with the Login Accepted, before the market-data thread has stamped a
 * receive time. Owned by the market-data thread.
 */
final class FeedMeter implements FeedObserver
{
    private static final long NOT_STAMPED = Long.MIN_VALUE;

    private final SimulatorCounters counters;
    private final LatencyTracker feedLatency;
    private long nowNs = NOT_STAMPED;

    /**
     * @param counters    where to count messages.
     * @param feedLatency where to record the feed latency.
     */
    FeedMeter(final SimulatorCounters counters, final LatencyTracker feedLatency)
    {
        this.counters = counters;
        this.feedLatency = feedLatency;
    }

    /**
     * Sets the receive time of the messages delivered next.
     *
     * @param nowNs nanoseconds since midnight UTC.
     */
    void nowNs(final long nowNs)
    {
        this.nowNs = nowNs;
    }

    @Override
    public void onMessage(final byte messageType, final long timestampNs)
    {
        counters.onMarketData(messageType);
        if (NOT_STAMPED != nowNs && ITCH50.MESSAGE_TYPE_SYSTEM_EVENT != messageType &&
            ITCH50.MESSAGE_TYPE_STOCK_DIRECTORY != messageType &&
            ITCH50.MESSAGE_TYPE_STOCK_TRADING_ACTION != messageType)
        {
            feedLatency.recordNs(nowNs - timestampNs);
        }
    }
}
