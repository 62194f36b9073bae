package io.bourse.simulator;

import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * Whether the first market-data session's books stand at a point of the stream, so that a snapshot can be compared
 * with them: no message for the quiet period, no login again pending, and over MoldUDP64 every gap filled and a
 * Heartbeat come after the last message (so that the last packet was not lost); a new session (a login or a MoldUDP64
 * join again, which empties the books) starts the quiet period again. The session is read on its own thread until
 * {@link #freeze}. One thread looks.
 */
final class FeedQuiet implements BookCheck.Feed
{
    private final String name;
    private final SimulatorService.FirstFeed feed;
    private final long quietNs;
    private final Supplier<OrderBooks> freeze;
    private long lastCount;
    private long lastStarts;
    private long lastChangeNs;
    private MoldSession moldSession;
    private long heartbeatsBefore;
    private boolean quiet;
    private boolean filled;
    private boolean reloginPending;

    /**
     * @param name    the first session's name.
     * @param feed    what is watched of the first session.
     * @param quietNs how long without a message the feed must be, in nanoseconds.
     * @param freeze  stops the first session's reading, its thread joined, and gives its books.
     * @param nowNs   monotonic time now, in nanoseconds: the quiet period counts from it.
     */
    FeedQuiet(
        final String name, final SimulatorService.FirstFeed feed, final long quietNs, final Supplier<OrderBooks> freeze,
        final long nowNs)
    {
        this.name = name;
        this.feed = feed;
        this.quietNs = quietNs;
        this.freeze = freeze;
        lastCount = feed.messages();
        lastStarts = feed.sessionStarts();
        lastChangeNs = nowNs;
        moldSession = feed.moldSession();
        heartbeatsBefore = null == moldSession ? 0 : moldSession.heartbeats();
    }

    /**
     * Looks at the feed.
     *
     * @param nowNs monotonic time now, in nanoseconds.
     * @return whether the books stand at a point of the stream.
     */
    @Override
    public boolean isComparable(final long nowNs)
    {
        final long count = feed.messages();
        final long starts = feed.sessionStarts();
        final MoldSession current = feed.moldSession();
        if (count != lastCount || starts != lastStarts || current != moldSession)
        {
            lastCount = count;
            lastStarts = starts;
            lastChangeNs = nowNs;
            moldSession = current;
            heartbeatsBefore = null == moldSession ? 0 : moldSession.heartbeats();
        }
        quiet = nowNs - lastChangeNs >= quietNs;
        filled = null == moldSession || (moldSession.heartbeats() > heartbeatsBefore && moldSession.isFilled());
        reloginPending = feed.isReloginPending();
        return quiet && filled && !reloginPending;
    }

    @Override
    public String name()
    {
        return name;
    }

    @Override
    public long messages()
    {
        return feed.messages();
    }

    @Override
    public long messagesAtLastLook()
    {
        return lastCount;
    }

    @Override
    public boolean startedAgainSinceLastLook()
    {
        return feed.sessionStarts() != lastStarts;
    }

    @Override
    public OrderBooks freeze()
    {
        return freeze.get();
    }

    @Override
    public String whyNot(final long timeoutMs)
    {
        if (reloginPending)
        {
            return "was not logged in again";
        }
        if (!filled)
        {
            return (null != moldSession && !moldSession.isFilled() ? "had a MoldUDP64 gap not filled" :
                "had no MoldUDP64 Heartbeat after its last message") + " within " + timeoutMs + " ms";
        }
        return "was not quiet for " + TimeUnit.NANOSECONDS.toMillis(quietNs) + " ms within " + timeoutMs + " ms";
    }
}
