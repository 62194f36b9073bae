package io.bourse.simulator;

import org.agrona.CloseHelper;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.NanoClock;

import java.io.IOException;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.ToIntFunction;

/**
 * Drives every OUCH session on one thread, open loop: the {@link ArrivalProcess} gives each order its intended send
 * time, the {@link OrderMix} chooses it, orders go round robin over the live sessions, and when the thread falls behind
 * it sends the late orders at once while their round trips still count from the intended time (correcting for
 * coordinated omission). How late each order went out, the send lag, is recorded: the duty cycle's clock reading minus
 * the intended time, a lower bound, as up to {@value #MAX_SENDS_PER_CYCLE} orders go out after that reading. A
 * simulator that falls behind adds it to every round trip it measures; it tells a starved simulator from a slow
 * exchange. After the last order (or a stop request) it waits for the answers to the Enter Orders and Replace Orders in
 * flight (not for a replace of an order that has left the book meanwhile, which OUCH ignores), up to the drain time,
 * then finishes; the Enter Orders still unanswered are counted. The clock is read once per
 * duty cycle, and again after an attempt to log in, which blocks (the messages the login reads are stamped as they
 * come). A session that fails or that the gateway ends is counted as an error and closed; the others go on, and
 * it {@link OrderEntrySession#resume resumes} on the {@link ReloginSchedule}
 * ({@value ReloginSchedule#RELOGIN_INTERVAL_MS} ms after the loss first, the wait doubling after each failure), each
 * attempt given about {@value ReloginSchedule#RELOGIN_INTERVAL_MS} ms (the other sessions are not read meanwhile): a
 * restarted gateway sends it what it missed, and the run goes on. A session the gateway ends after its System Event
 * End of Day is no error: on the same schedule (every {@value ReloginSchedule#MAX_RELOGIN_INTERVAL_MS} ms at most) it
 * logs in to the gateway's current session until that is the next trading day's
 * ({@link OrderEntrySession#openNextDay}), and the run goes on in the new day; so does a lost session whose own
 * session the gateway no longer serves (Login Rejected 'S') when its current one is another (a day ended while the
 * session was lost). Orders whose time comes while no session is logged in are left out and counted
 * ({@code not_sent}), so that the load does not come as a burst when the sessions are back.
 */
final class OrderEntryAgent implements Agent
{
    /** Most orders sent in one duty cycle, so that answers are read in between even when far behind. */
    static final int MAX_SENDS_PER_CYCLE = 64;

    private static final int SENDING = 0;
    private static final int DRAINING = 1;
    private static final int DONE = 2;
    private static final int NONE = -1;

    private final List<OrderEntrySession> sessions;
    private final OrderMix mix;
    private final ArrivalProcess arrivals;
    private final OrderAction action = new OrderAction();
    private final SimulatorCounters counters;
    private final LatencyTracker sendLag;
    private final NanoClock clock;
    private final long totalOrders;
    private final long drainNs;
    private int phase = SENDING;
    private boolean started;
    private long startNs;
    private long nextIntendedNs;
    private long sent;
    private long drainDeadlineNs;
    private int nextSession;
    private final ReloginSchedule reloginSchedule;
    /** Per session: lost by this agent, and to be logged in again (not one the service aborted). */
    private final boolean[] down;
    /** Per session: ended after the gateway's End of Day, to be logged in to the next day's session. */
    private final boolean[] awaitingNextDay;
    private boolean resumeAttempted;
    /** Orders intended before this time are left out: they came due while no session was logged in. */
    private long skipUntilNs;
    private volatile boolean stopRequested;
    private volatile boolean finished;
    private volatile long sendWindowNs;
    /** ITCH messages counted when the sending started; then those counted while it went on. */
    private long mdMessagesAtStart;
    private volatile long mdMessagesWhileSending;
    private volatile long startedAtNs;
    private volatile boolean hasStarted;
    private volatile int sessionsDown;
    private volatile int sessionsClosed;

    /**
     * @param sessions    logged-in sessions, by index.
     * @param mix         chooses each order.
     * @param arrivals    intended send time of each order.
     * @param counters    where to count.
     * @param sendLag     where to record each order's send lag.
     * @param clock       monotonic clock; round trips use its scale.
     * @param totalOrders orders to send, {@link Long#MAX_VALUE} for "until stopped".
     * @param drainNs     longest wait for in-flight answers after the last order.
     */
    OrderEntryAgent(
        final List<OrderEntrySession> sessions,
        final OrderMix mix,
        final ArrivalProcess arrivals,
        final SimulatorCounters counters,
        final LatencyTracker sendLag,
        final NanoClock clock,
        final long totalOrders,
        final long drainNs)
    {
        this.sessions = sessions;
        this.mix = mix;
        this.arrivals = arrivals;
        this.counters = counters;
        this.sendLag = sendLag;
        this.clock = clock;
        this.totalOrders = totalOrders;
        this.drainNs = drainNs;
        this.reloginSchedule = new ReloginSchedule(sessions.size(), clock.nanoTime());
        this.down = new boolean[sessions.size()];
        this.awaitingNextDay = new boolean[sessions.size()];
    }

    @Override
    public int doWork()
    {
        if (DONE == phase)
        {
            return 0;
        }
        final long nowNs = clock.nanoTime();
        if (!started)
        {
            started = true;
            startNs = nowNs;
            mdMessagesAtStart = counters.get(SimulatorCounter.MD_MESSAGES);
            skipUntilNs = nowNs;
            arrivals.start(nowNs);
            nextIntendedNs = arrivals.next();
            startedAtNs = nowNs;
            hasStarted = true;
        }
        int work = pollSessions(nowNs);
        if (SENDING == phase)
        {
            // After an attempt to log in again, which blocks: the time it took counts.
            work += sendDue(resumeAttempted ? clock.nanoTime() : nowNs);
        }
        else if (0 == sumOverActiveSessions(OrderEntrySession::awaitedAnswers) || nowNs - drainDeadlineNs >= 0)
        {
            int unanswered = 0;
            for (int i = 0, n = sessions.size(); i < n; i++)
            {
                unanswered += sessions.get(i).inFlight(); // a lost session's too
            }
            counters.add(SimulatorCounter.UNANSWERED, unanswered);
            phase = DONE;
            finished = true;
        }
        return work;
    }

    /**
     * Reads the live sessions, and makes at most one attempt to log a lost one in again; the sessions read after the
     * attempt, which blocks, are read at the time after it.
     */
    private int pollSessions(final long cycleNs)
    {
        long nowNs = cycleNs;
        int work = 0;
        resumeAttempted = false;
        for (int i = 0, n = sessions.size(); i < n; i++)
        {
            final OrderEntrySession session = sessions.get(i);
            if (session.isActive())
            {
                IOException failure = null;
                try
                {
                    work += session.poll(nowNs);
                }
                catch (final IOException ex)
                {
                    failure = ex;
                }
                if (!session.isActive())
                {
                    onSessionLost(i, failure);
                }
            }
            else if (!resumeAttempted && (down[i] || awaitingNextDay[i]) && reloginSchedule.isDue(i, nowNs))
            {
                resumeAttempted = true;
                work += down[i] ? resume(i) : openNextDay(i);
                nowNs = clock.nanoTime();
            }
        }
        return work;
    }

    private int sendDue(final long nowNs)
    {
        int sends = 0;
        while (sends < MAX_SENDS_PER_CYCLE && sent < totalOrders && !stopRequested &&
            nextIntendedNs - nowNs <= 0)
        {
            final int index = nextIntendedNs - skipUntilNs < 0 ? NONE : nextLiveSession();
            if (NONE == index)
            {
                counters.increment(SimulatorCounter.NOT_SENT);
            }
            else
            {
                final OrderEntrySession session = sessions.get(index);
                mix.next(session.openOrders(), session.inFlight(), action);
                sendLag.recordNs(nowNs - nextIntendedNs);
                try
                {
                    session.send(action, nextIntendedNs);
                }
                catch (final IOException ex)
                {
                    onSessionLost(index, ex);
                }
            }
            sent++;
            sends++;
            nextIntendedNs = arrivals.next();
        }
        if (sent == totalOrders || stopRequested)
        {
            final long endNs = sent == totalOrders ? Math.max(nowNs, nextIntendedNs) : nowNs;
            mdMessagesWhileSending = counters.get(SimulatorCounter.MD_MESSAGES) - mdMessagesAtStart;
            sendWindowNs = endNs - startNs;
            phase = DRAINING;
            drainDeadlineNs = nowNs + drainNs;
        }
        return sends;
    }

    /** @return the index of the next session logged in, round robin, or {@link #NONE}. */
    private int nextLiveSession()
    {
        final int n = sessions.size();
        for (int i = 0; i < n; i++)
        {
            final int index = nextSession;
            nextSession = nextSession + 1 == n ? 0 : nextSession + 1;
            if (sessions.get(index).isActive())
            {
                return index;
            }
        }
        return NONE;
    }

    private boolean anyLiveSession()
    {
        for (int i = 0, n = sessions.size(); i < n; i++)
        {
            if (sessions.get(i).isActive())
            {
                return true;
            }
        }
        return false;
    }

    /** @return the sum of the count over the sessions still logged in. */
    private int sumOverActiveSessions(final ToIntFunction<OrderEntrySession> count)
    {
        int sum = 0;
        for (int i = 0, n = sessions.size(); i < n; i++)
        {
            final OrderEntrySession session = sessions.get(i);
            if (session.isActive())
            {
                sum += count.applyAsInt(session);
            }
        }
        return sum;
    }

    private void onSessionLost(final int index, final IOException cause)
    {
        final OrderEntrySession session = sessions.get(index);
        if (session.isDayOver())
        {
            awaitingNextDay[index] = true;
            sessionsClosed = sessionsClosed + 1; // one writer, this thread
            session.awaitNextDay();
            reloginSchedule.onLost(index, clock.nanoTime());
            System.out.println(session.name() + " ended after the gateway's End of Day: the exchange closed the " +
                "trading day; logging in to the next day's session once the gateway opens it");
            return;
        }
        counters.errors().increment(SimulatorError.ORDER_SESSION_LOST);
        down[index] = true;
        sessionsDown = sessionsDown + 1; // one writer, this thread
        CloseHelper.quietClose(session);
        final long waitNs = reloginSchedule.onLost(index, clock.nanoTime());
        System.err.println(session.name() + " lost: " + (null != cause ? cause : "ended by the gateway") +
            "; logging in again in " + TimeUnit.NANOSECONDS.toMillis(waitNs) + " ms");
    }

    /** @return 1: an attempt to log the lost session of that index in again, which blocks for up to about 1 s. */
    private int resume(final int index)
    {
        final OrderEntrySession session = sessions.get(index);
        final boolean noneLive = !anyLiveSession();
        final String nextDay;
        try
        {
            nextDay = session.resume(clock, ReloginSchedule.RELOGIN_INTERVAL_MS);
        }
        catch (final IOException | RuntimeException ex)
        {
            onAttemptFailed(index, "log in again", ex);
            return 1;
        }
        down[index] = false;
        sessionsDown = sessionsDown - 1;
        onLoggedIn(index, noneLive, " logged in again" + (null == nextDay ? "" :
            ", to the gateway's next trading day, session " + nextDay + " (the lost one's day ended meanwhile)"));
        return 1;
    }

    /**
     * @return 1: an attempt to log the session of that index in to the gateway's next trading day, which blocks for up
     * to about 1 s; while the gateway's session is still the closed day's, the next attempt is scheduled (no error).
     */
    private int openNextDay(final int index)
    {
        final OrderEntrySession session = sessions.get(index);
        final boolean noneLive = !anyLiveSession();
        final String day;
        try
        {
            day = session.openNextDay(clock, ReloginSchedule.RELOGIN_INTERVAL_MS);
        }
        catch (final IOException | RuntimeException ex)
        {
            onAttemptFailed(index, "log in to the next trading day", ex);
            return 1;
        }
        if (null == day)
        {
            reloginSchedule.onAttemptFailed(index, clock.nanoTime()); // the day is still closed
            return 1;
        }
        awaitingNextDay[index] = false;
        sessionsClosed = sessionsClosed - 1;
        onLoggedIn(index, noneLive, " logged in to the next trading day, session " + day);
        return 1;
    }

    /** An attempt to log the session of that index in failed: logged, and the next one scheduled. */
    private void onAttemptFailed(final int index, final String attempt, final Exception cause)
    {
        final long waitNs = reloginSchedule.onAttemptFailed(index, clock.nanoTime());
        System.err.println(sessions.get(index).name() + " cannot " + attempt + ": " + cause.getMessage() +
            "; next attempt in " + TimeUnit.NANOSECONDS.toMillis(waitNs) + " ms");
    }

    /**
     * A session of that index is logged in again: its relogin schedule restarts, the orders due while no session was
     * logged in are left out (not a burst now), and one that ended together with its login is lost again.
     */
    private void onLoggedIn(final int index, final boolean noneLive, final String message)
    {
        final OrderEntrySession session = sessions.get(index);
        final long openedNs = clock.nanoTime();
        reloginSchedule.onOpened(index, openedNs);
        System.out.println(session.name() + message);
        if (noneLive)
        {
            skipUntilNs = openedNs;
        }
        if (!session.isActive())
        {
            onSessionLost(index, null); // ended together with its replay
        }
    }

    /**
     * @return OUCH sessions the gateway ended after its End of Day, not logged in to the next day's session yet. Any
     * thread.
     */
    int sessionsClosed()
    {
        return sessionsClosed;
    }

    /** @return OUCH sessions lost and not logged in again yet. Any thread. */
    int sessionsDown()
    {
        return sessionsDown;
    }

    /** Ends the sending phase early; the agent then drains and finishes. Any thread. */
    void requestStop()
    {
        stopRequested = true;
    }

    /** @return true once the run is over: all orders sent (or stopped) and drained. Any thread. */
    boolean isFinished()
    {
        return finished;
    }

    /** @return true once the first duty cycle has started the schedule. Any thread. */
    boolean hasStarted()
    {
        return hasStarted;
    }

    /** @return the schedule's start in ns on the agent's clock, valid once {@link #hasStarted()}. Any thread. */
    long startedAtNs()
    {
        return startedAtNs;
    }

    /** @return length of the sending window in ns, valid once {@link #isFinished()}. Any thread. */
    long sendWindowNs()
    {
        return sendWindowNs;
    }

    /**
     * @return the ITCH messages the market-data sessions received (all of them) in the sending window, valid once
     * {@link #isFinished()}. Any thread.
     */
    long mdMessagesWhileSending()
    {
        return mdMessagesWhileSending;
    }

    @Override
    public void onClose()
    {
        CloseHelper.quietCloseAll(sessions);
    }

    @Override
    public String roleName()
    {
        return "simulator-order-entry";
    }
}
