package io.bourse.simulator;

import io.bourse.common.time.MidnightNanoClock;
import org.agrona.CloseHelper;
import org.agrona.concurrent.Agent;

import java.io.IOException;
import java.util.List;

/**
 * Drives the market-data sessions (SoupBinTCP or MoldUDP64) on one thread: reads each session's ITCH 5.0 messages,
 * stamped with one receive time per duty cycle (nanoseconds since midnight UTC, comparable with the exchange's
 * timestamps on the same host). A lost session is counted as an error and closed; the others go on.
 */
final class MarketDataAgent implements Agent
{
    private final List<? extends MarketDataSession> sessions;
    private final boolean[] closed;
    private final FeedMeter meter;
    private final SimulatorCounters counters;
    private final MidnightNanoClock clock;

    /**
     * @param sessions open market-data sessions, each delivering to its own adapter.
     * @param meter    measures the messages of every session.
     * @param counters where errors are counted.
     * @param clock    receive time source.
     */
    MarketDataAgent(
        final List<? extends MarketDataSession> sessions,
        final FeedMeter meter,
        final SimulatorCounters counters,
        final MidnightNanoClock clock)
    {
        this.sessions = sessions;
        this.closed = new boolean[sessions.size()];
        this.meter = meter;
        this.counters = counters;
        this.clock = clock;
    }

    @Override
    public int doWork()
    {
        meter.nowNs(clock.nanosSinceMidnight());
        int work = 0;
        for (int i = 0, n = sessions.size(); i < n; i++)
        {
            if (!closed[i])
            {
                work += poll(i);
            }
        }
        return work;
    }

    private int poll(final int index)
    {
        final MarketDataSession session = sessions.get(index);
        int bytes = 0;
        IOException failure = null;
        try
        {
            bytes = session.poll();
        }
        catch (final IOException ex)
        {
            failure = ex;
        }
        if (!session.isActive())
        {
            counters.increment(SimulatorCounter.MD_ERRORS);
            closed[index] = true;
            CloseHelper.quietClose(session);
            System.err.println(session.name() + " lost: " + (null != failure ? failure : "ended by the server"));
        }
        return bytes;
    }

    @Override
    public void onClose()
    {
        CloseHelper.quietCloseAll(sessions);
    }

    @Override
    public String roleName()
    {
        return "simulator-market-data";
    }
}
