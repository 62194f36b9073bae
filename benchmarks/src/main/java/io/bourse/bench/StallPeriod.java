package io.bourse.bench;

/**
 * The stretch of the fanout benchmark's measured window in which one subscriber is stalled and still connected: the
 * messages whose Timestamps run from the window's start up to its end, ns since midnight.
 * <p>
 * It opens with the window: every poll of the fanout {@link #confirm confirms} the stretch up to the poll's time, and
 * the stretch {@link #end ends} at the last confirmed time once a poll finds the stalled subscriber ended as a slow
 * consumer, or at the window's end. In a step with every subscriber reading it is confirmed alike and ends at a
 * planned time, as long after the window's start as in the last step with a stall before it, so that the readers do
 * the same work ({@link StallRecorder}) in both kinds. Set by one thread, read by the reader threads.
 */
final class StallPeriod
{
    private volatile long confirmedNs;
    private volatile boolean ended;

    /** @param windowStartNs first Timestamp of the measured window, ns since midnight: nothing confirmed yet. */
    StallPeriod(final long windowStartNs)
    {
        this.confirmedNs = windowStartNs;
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
