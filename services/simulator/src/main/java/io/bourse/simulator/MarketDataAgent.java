package io.bourse.simulator;

import io.bourse.common.time.MidnightNanoClock;
import org.agrona.CloseHelper;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.NanoClock;

import java.io.IOException;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.IntPredicate;

/**
 * Drives the market-data sessions (SoupBinTCP or MoldUDP64) on one thread: reads each session's ITCH 5.0 messages,
 * stamped with a receive time taken just before each socket read, each datagram's over MoldUDP64 (nanoseconds since
 * midnight UTC, comparable with the exchange's timestamps on the same host). A lost session is counted as an error and
 * closed; the others go on. One the server ended after its System Event End of Messages (ITCH 5.0 §4.1: a stop, or
 * midnight UTC, at which the md-publisher's MoldUDP64 session and the fanout's SoupBinTCP sessions end their day and
 * the next day's opens) ended in order: no error, and it is opened again like a lost one. A lost session that can
 * {@link Relogin log in again} (SoupBinTCP: the fanout ends its sessions with End of Session when its books are no
 * longer the stream's, e.g. after an md-publisher restart, and a new login starts with a fresh snapshot; MoldUDP64: a
 * stopped md-publisher ends its session with End of Session packets, the session is lost once they stop ({@link
 * MoldSession#endOfSession}), and its next run's session is read from Sequence Number 1 by a new join) is opened again
 * on the {@link ReloginSchedule} ({@value ReloginSchedule#RELOGIN_INTERVAL_MS} ms after the loss first, the wait
 * doubling after each failure), each attempt given about {@value ReloginSchedule#RELOGIN_INTERVAL_MS} ms (the other
 * sessions are not read meanwhile); the end-of-run book check asks for attempts at once ({@link #reloginPromptly()}).
 * The feed latency is measured again from the messages stamped after the new login ({@link FeedMeter#rejoined}); the
 * other sessions' messages, delayed by the attempt, are measured as they come.
 */
final class MarketDataAgent implements Agent
{
    /** Opens a lost market-data session again: a new login, its books emptied first. */
    @FunctionalInterface
    interface Relogin
    {
        /**
         * @param index the session's index, as in the list given to the agent.
         * @return the new session, logged in.
         * @throws IOException when it cannot connect or log in within about
         *                     {@value ReloginSchedule#RELOGIN_INTERVAL_MS} ms (tried again later).
         */
        MarketDataSession open(int index) throws IOException;
    }

    /** The current session of each index, null while one that was lost is not yet open again; read on any thread. */
    private final AtomicReferenceArray<MarketDataSession> sessions;
    private final String[] names;
    private final ReloginSchedule schedule;
    private final Relogin relogin;
    private final IntPredicate endOfMessages;
    private final FeedMeter meter;
    private final SimulatorCounters counters;
    private final MidnightNanoClock clock;
    private final NanoClock nanoClock;
    /**
     * Stamps the receive time of the messages the next read of the session being polled delivers, before each read
     * (each datagram, over MoldUDP64): a message cannot seem to arrive before it did, nor be stamped before a read
     * of earlier datagrams in the same poll (before stop 60 a poll of up to 128 datagrams had one stamp).
     */
    private final Runnable stampReceipt = this::stampReceipt;
    private int pollingSession;
    private volatile boolean aborted;
    private volatile boolean reloginPromptly;
    private boolean reloginPromptlySeen;

    /**
     * @param sessions      open market-data sessions, each delivering to its own adapter.
     * @param relogin       opens a lost session again; null when lost sessions stay closed.
     * @param endOfMessages by index, whether the current session had its System Event End of Messages.
     * @param meter         measures the messages of every session.
     * @param counters      where errors are counted.
     * @param clock         receive time source.
     * @param nanoClock     monotonic time of the attempts to log in again.
     */
    MarketDataAgent(
        final List<? extends MarketDataSession> sessions,
        final Relogin relogin,
        final IntPredicate endOfMessages,
        final FeedMeter meter,
        final SimulatorCounters counters,
        final MidnightNanoClock clock,
        final NanoClock nanoClock)
    {
        this.sessions = new AtomicReferenceArray<>(sessions.toArray(new MarketDataSession[0]));
        this.names = sessions.stream().map(MarketDataSession::name).toArray(String[]::new);
        this.schedule = new ReloginSchedule(sessions.size(), nanoClock.nanoTime());
        this.relogin = relogin;
        this.endOfMessages = endOfMessages;
        this.meter = meter;
        this.counters = counters;
        this.clock = clock;
        this.nanoClock = nanoClock;
    }

    /**
     * Any thread.
     *
     * @param index the session's index.
     * @return true while the session of that index is open (one opened again after a loss counts).
     */
    boolean isActive(final int index)
    {
        final MarketDataSession session = sessions.get(index);
        return null != session && session.isActive();
    }

    /**
     * Any thread.
     *
     * @param index the session's index.
     * @return true while the session of that index is lost and is to be logged in again.
     */
    boolean isReloginPending(final int index)
    {
        return null != relogin && null == sessions.get(index) && !aborted;
    }

    /**
     * @param index the session's index.
     * @return the name of the session of that index, for messages.
     */
    String name(final int index)
    {
        return names[index];
    }

    /**
     * From now on a lost session is logged in again at once, then every {@value ReloginSchedule#RELOGIN_INTERVAL_MS}
     * ms, without the doubling wait: for the end-of-run book check, which waits a bounded time for the first session.
     * Any thread.
     */
    void reloginPromptly()
    {
        reloginPromptly = true;
    }

    /**
     * Closes every current session without waiting for the peer, and logs none in again: safe from another thread.
     */
    void abort()
    {
        aborted = true;
        for (int i = 0; i < sessions.length(); i++)
        {
            final MarketDataSession session = sessions.get(i);
            if (null != session)
            {
                session.abort();
            }
        }
    }

    @Override
    public int doWork()
    {
        int work = 0;
        if (reloginPromptly && !reloginPromptlySeen)
        {
            reloginPromptlySeen = true;
            schedule.promptly(nanoClock.nanoTime());
        }
        for (int i = 0, n = sessions.length(); i < n; i++)
        {
            final MarketDataSession session = sessions.get(i);
            if (null != session)
            {
                work += poll(i, session);
            }
            else if (null != relogin && !aborted && schedule.isDue(i, nanoClock.nanoTime()))
            {
                work += relogin(i);
            }
        }
        return work;
    }

    private void stampReceipt()
    {
        meter.nowNs(pollingSession, clock.nanosSinceMidnight());
    }

    private int poll(final int index, final MarketDataSession session)
    {
        int bytes = 0;
        IOException failure = null;
        pollingSession = index;
        try
        {
            bytes = session.poll(stampReceipt);
        }
        catch (final IOException ex)
        {
            failure = ex;
        }
        if (!session.isActive())
        {
            final boolean inOrder = null == failure && endOfMessages.test(index);
            if (!inOrder)
            {
                counters.errors().increment(SimulatorError.MD_SESSION_LOST);
            }
            sessions.set(index, null);
            CloseHelper.quietClose(session);
            final long waitNs = schedule.onLost(index, nanoClock.nanoTime());
            final String next =
                null != relogin ? "; logging in again in " + TimeUnit.NANOSECONDS.toMillis(waitNs) + " ms" : "";
            if (inOrder)
            {
                System.out.println(session.name() + " ended by the server after its End of Messages" + next);
            }
            else
            {
                System.err.println(session.name() + " lost: " + (null != failure ? failure : "ended by the server") +
                    next);
            }
        }
        return bytes;
    }

    private int relogin(final int index)
    {
        meter.rejoined(index, clock.nanosSinceMidnight());
        final MarketDataSession session;
        try
        {
            session = relogin.open(index);
        }
        catch (final IOException | RuntimeException ex)
        {
            final long waitNs = schedule.onAttemptFailed(index, nanoClock.nanoTime());
            System.err.println(names[index] + " cannot log in again: " + ex.getMessage() + "; next attempt in " +
                TimeUnit.NANOSECONDS.toMillis(waitNs) + " ms");
            return 1;
        }
        schedule.onOpened(index, nanoClock.nanoTime());
        sessions.set(index, session);
        if (aborted)
        {
            session.abort(); // abort() may have passed this index while the session was being opened
        }
        System.out.println(session.name() + " logged in again");
        return 1;
    }

    @Override
    public void onClose()
    {
        for (int i = 0; i < sessions.length(); i++)
        {
            CloseHelper.quietClose(sessions.getAndSet(i, null));
        }
    }

    @Override
    public String roleName()
    {
        return "simulator-market-data";
    }
}
