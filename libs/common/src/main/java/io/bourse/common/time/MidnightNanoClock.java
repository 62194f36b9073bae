package io.bourse.common.time;

import org.agrona.concurrent.EpochNanoClock;

import java.time.LocalDate;

/**
 * Nanoseconds since midnight UTC of the day the clock was created (ITCH 5.0 Timestamp). Values keep growing past
 * 86,400,000,000,000 if the process runs across midnight, so that differences stay correct. Processes on one host
 * share the wall clock, so their timestamps are comparable.
 */
public final class MidnightNanoClock
{
    private static final long NANOS_PER_DAY = 86_400_000_000_000L;

    private final EpochNanoClock epochClock;
    private final long midnightEpochNs;

    /** A clock on the monotonic clock, offset to the wall clock once ({@link MonotonicEpochNanoClock}). */
    public MidnightNanoClock()
    {
        this(new MonotonicEpochNanoClock());
    }

    /**
     * @param epochClock source of nanoseconds since the Unix epoch.
     */
    public MidnightNanoClock(final EpochNanoClock epochClock)
    {
        this.epochClock = epochClock;
        final long now = epochClock.nanoTime();
        this.midnightEpochNs = now - (now % NANOS_PER_DAY);
    }

    /** @return the UTC date of the midnight the clock counts from: the day it was created. */
    public LocalDate startDate()
    {
        return LocalDate.ofEpochDay(midnightEpochNs / NANOS_PER_DAY);
    }

    /** @return nanoseconds since midnight UTC. */
    public long nanosSinceMidnight()
    {
        return epochClock.nanoTime() - midnightEpochNs;
    }
}
