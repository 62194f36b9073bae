package io.bourse.simulator;

import java.util.Arrays;
import java.util.concurrent.TimeUnit;

/**
 * When to log each lost session of an agent in again (OUCH or market data): {@value #RELOGIN_INTERVAL_MS} ms after
 * the loss first; the wait doubles, up to {@value #MAX_RELOGIN_INTERVAL_MS} ms, after each attempt that fails and each
 * session lost within {@value #STABLE_SESSION_MS} ms of its opening (a server that ends every new session at once is
 * not hammered), and starts again from {@value #RELOGIN_INTERVAL_MS} ms when a session that was open longer is lost.
 * Once asked to {@link #promptly}, every session due waits {@value #RELOGIN_INTERVAL_MS} ms at most, without the
 * doubling. Times are in ns on the agent's monotonic clock. Single-threaded: the agent's.
 */
final class ReloginSchedule
{
    /** Time between the loss of a session and the first attempt to log in again; also each attempt's time limit. */
    static final long RELOGIN_INTERVAL_MS = 1000;
    /**
     * Longest wait before an attempt to log in again, reached by doubling after each failed attempt and each session
     * lost within {@value #STABLE_SESSION_MS} ms of its opening.
     */
    static final long MAX_RELOGIN_INTERVAL_MS = 32_000;
    /** A session lost after it was open this long is tried again after {@value #RELOGIN_INTERVAL_MS} ms. */
    static final long STABLE_SESSION_MS = 60_000;
    private static final long RELOGIN_INTERVAL_NS = TimeUnit.MILLISECONDS.toNanos(RELOGIN_INTERVAL_MS);
    private static final long MAX_RELOGIN_INTERVAL_NS = TimeUnit.MILLISECONDS.toNanos(MAX_RELOGIN_INTERVAL_MS);
    private static final long STABLE_SESSION_NS = TimeUnit.MILLISECONDS.toNanos(STABLE_SESSION_MS);

    private final long[] reloginAtNs;
    private final long[] reloginIntervalNs;
    private final long[] openedAtNs;
    private boolean promptly;

    /**
     * @param sessions number of sessions, by index from 0.
     * @param nowNs    when they opened.
     */
    ReloginSchedule(final int sessions, final long nowNs)
    {
        reloginAtNs = new long[sessions];
        reloginIntervalNs = new long[sessions];
        openedAtNs = new long[sessions];
        Arrays.fill(reloginIntervalNs, RELOGIN_INTERVAL_NS);
        Arrays.fill(openedAtNs, nowNs);
    }

    /**
     * The session of that index was lost.
     *
     * @param index the session's index.
     * @param nowNs when.
     * @return the wait before its first attempt, in ns.
     */
    long onLost(final int index, final long nowNs)
    {
        if (nowNs - openedAtNs[index] >= STABLE_SESSION_NS)
        {
            reloginIntervalNs[index] = RELOGIN_INTERVAL_NS;
        }
        return schedule(index, nowNs);
    }

    /**
     * An attempt to log the session of that index in again failed.
     *
     * @param index the session's index.
     * @param nowNs when.
     * @return the wait before its next attempt, in ns.
     */
    long onAttemptFailed(final int index, final long nowNs)
    {
        return schedule(index, nowNs);
    }

    /**
     * The session of that index is logged in again.
     *
     * @param index the session's index.
     * @param nowNs when.
     */
    void onOpened(final int index, final long nowNs)
    {
        openedAtNs[index] = nowNs;
    }

    /**
     * @param index the session's index, lost.
     * @param nowNs now.
     * @return true when its next attempt is due.
     */
    boolean isDue(final int index, final long nowNs)
    {
        return nowNs - reloginAtNs[index] >= 0;
    }

    /**
     * From now on a lost session is tried at once, then every {@value #RELOGIN_INTERVAL_MS} ms, without the doubling
     * wait.
     *
     * @param nowNs now.
     */
    void promptly(final long nowNs)
    {
        promptly = true;
        Arrays.fill(reloginAtNs, nowNs);
    }

    /** @return the wait from now, in ns; the one after it is twice as long, at most the longest. */
    private long schedule(final int index, final long nowNs)
    {
        final long waitNs = promptly ? RELOGIN_INTERVAL_NS : reloginIntervalNs[index];
        reloginAtNs[index] = nowNs + waitNs;
        reloginIntervalNs[index] = Math.min(2 * waitNs, MAX_RELOGIN_INTERVAL_NS);
        return waitNs;
    }
}
