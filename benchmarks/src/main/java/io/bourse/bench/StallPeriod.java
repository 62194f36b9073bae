package io.bourse.bench;

/**
 * The stretch of the fanout benchmark's measured window in which one subscriber is stalled and still connected: the
 * messages whose Timestamps run from the window's start up to {@link #endNs()}, ns since midnight. In a step with a
 * stalled subscriber, the end is found while the step runs, when the fanout's metrics registry first shows the slow
 * consumer ended (the last poll before that one); until then it is open. In a step with every subscriber reading, it
 * is set before the step to as long a stretch as the last stalled step had, so that both kinds compare the same part
 * of their windows. Set by one thread, read by the reader threads.
 */
final class StallPeriod
{
    private volatile long endNs;

    /** @param endNs Timestamps from this one on are after the stretch, ns since midnight; Long.MAX_VALUE for open. */
    StallPeriod(final long endNs)
    {
        this.endNs = endNs;
    }

    /** @param endNs Timestamps from this one on are after the stretch, ns since midnight. */
    void end(final long endNs)
    {
        this.endNs = endNs;
    }

    /** @return Timestamps from this one on are after the stretch, ns since midnight; Long.MAX_VALUE while open. */
    long endNs()
    {
        return endNs;
    }
}
