package io.bourse.bench;

/**
 * The stretch of the fanout benchmark's measured window in which one subscriber is stalled and still connected: the
 * messages whose Timestamps run from the window's start up to its end, ns since midnight.
 * <p>
 * In a step with a stalled subscriber the stretch is open: every poll of the fanout that still finds the subscriber
 * connected {@link #confirm confirms} the stretch up to the poll's time, and the first poll that finds it ended as a
 * slow consumer {@link #end ends} the stretch at the last confirmed time; a stretch not ended when the window ends ends
 * with the window. In a step with every subscriber reading the stretch is {@link #fixed fixed} before the step, as long
 * as that of the last step with a stall before it. Set by one thread, read by the reader threads
 * ({@link StallRecorder}).
 */
final class StallPeriod
{
    private volatile long confirmedNs;
    private volatile boolean ended;

    private StallPeriod(final long confirmedNs, final boolean ended)
    {
        this.confirmedNs = confirmedNs;
        this.ended = ended;
    }

    /**
     * @param windowStartNs first Timestamp of the measured window, ns since midnight.
     * @return an open stretch, nothing confirmed yet.
     */
    static StallPeriod open(final long windowStartNs)
    {
        return new StallPeriod(windowStartNs, false);
    }

    /**
     * @param endNs Timestamps from this one on are after the stretch, ns since midnight.
     * @return a stretch ended from the start.
     */
    static StallPeriod fixed(final long endNs)
    {
        return new StallPeriod(endNs, true);
    }

    /** @param timeNs every Timestamp before this one is in the stretch, ns since midnight. */
    void confirm(final long timeNs)
    {
        confirmedNs = timeNs;
    }

    /** @param endNs Timestamps from this one on are after the stretch, ns since midnight. */
    void end(final long endNs)
    {
        confirmedNs = endNs;
        ended = true;
    }

    /** @return every Timestamp before this one is in the stretch, ns since midnight; read after {@link #isEnded}. */
    long confirmedNs()
    {
        return confirmedNs;
    }

    /** @return true once the stretch's end is known: {@link #confirmedNs()} is then its end. */
    boolean isEnded()
    {
        return ended;
    }

    /** @return Timestamps from this one on are after the stretch, ns since midnight; Long.MAX_VALUE while open. */
    long endNs()
    {
        return ended ? confirmedNs : Long.MAX_VALUE;
    }
}
