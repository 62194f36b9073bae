package io.bourse.common.time;

import org.agrona.concurrent.EpochNanoClock;
import org.agrona.concurrent.SystemEpochNanoClock;

/**
 * Nanoseconds since the Unix epoch read as {@link System#nanoTime()} plus an offset taken once, at construction, from
 * the wall clock at nanosecond precision ({@link SystemEpochNanoClock}): a read allocates nothing and costs one
 * {@code nanoTime}, where {@link SystemEpochNanoClock} builds an {@link java.time.Instant} per read until the JIT's
 * escape analysis removes it, and Agrona's {@code OffsetEpochNanoClock} takes its offset from the millisecond clock,
 * too coarse to compare timestamps of two processes in microseconds. The offset is the sample, of 100, whose two
 * {@code nanoTime} reads around the wall-clock read are closest together, so processes of one host agree to about that
 * window (a fraction of a microsecond). The monotonic clock does not follow a step of the wall clock (an NTP step)
 * after construction: the process's timestamps then stay on the old time until it restarts.
 */
public final class MonotonicEpochNanoClock implements EpochNanoClock
{
    private static final int SAMPLES = 100;

    private final long offsetNs;

    /** Samples the wall clock against the monotonic clock. */
    public MonotonicEpochNanoClock()
    {
        final SystemEpochNanoClock wallClock = new SystemEpochNanoClock();
        long bestWindowNs = Long.MAX_VALUE;
        long bestOffsetNs = 0;
        for (int i = 0; i < SAMPLES; i++)
        {
            final long beforeNs = System.nanoTime();
            final long epochNs = wallClock.nanoTime();
            final long afterNs = System.nanoTime();
            if (afterNs - beforeNs < bestWindowNs)
            {
                bestWindowNs = afterNs - beforeNs;
                bestOffsetNs = epochNs - (beforeNs + ((afterNs - beforeNs) >> 1));
            }
        }
        offsetNs = bestOffsetNs;
    }

    /** @return nanoseconds since the Unix epoch. */
    @Override
    public long nanoTime()
    {
        return System.nanoTime() + offsetNs;
    }
}
