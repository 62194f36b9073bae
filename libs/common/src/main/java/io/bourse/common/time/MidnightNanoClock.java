package io.bourse.common.time;

import org.agrona.concurrent.EpochNanoClock;

import java.time.LocalDate;

/**
 * Nanoseconds since midnight UTC of the day the clock was created. Values keep growing past 86,400,000,000,000 if the
 * process runs across midnight, so that differences stay correct; the Timestamp of an OUCH 4.2 or ITCH 5.0 message,
 * nanoseconds since the latest midnight, is {@link #timeOfDay(long)} of one. Processes on one host share the wall
 * clock, so their timestamps are comparable (within a day: {@link #withinADay(long)} when their start dates differ).
 */
public final class MidnightNanoClock
{
    /** Nanoseconds in a day. */
    public static final long NANOS_PER_DAY = 86_400_000_000_000L;
    /**
     * Most that two processes' midnight clocks on one host differ by (each set from the wall clock once), in ns: 1 s. A
     * message stamped later than its receipt by more is of an earlier day.
     */
    public static final long MAX_CLOCK_SKEW_NS = 1_000_000_000L;
    private static final long HALF_DAY_NS = NANOS_PER_DAY / 2;

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

    /**
     * The Timestamp field of OUCH 4.2 and ITCH 5.0 ("nanoseconds since midnight"), for a time on a clock counting from
     * an earlier midnight: a process's second day starts again from 0.
     *
     * @param midnightNs nanoseconds since the midnight UTC of some day, e.g. {@link #nanosSinceMidnight()}.
     * @return nanoseconds since the latest midnight UTC: 0 to 86,399,999,999,999.
     */
    public static long timeOfDay(final long midnightNs)
    {
        return midnightNs >= 0 && midnightNs < NANOS_PER_DAY ? midnightNs : Math.floorMod(midnightNs, NANOS_PER_DAY);
    }

    /**
     * The midnight UTC that ends the day of a time on a clock counting from some midnight, e.g. the end of the trading
     * day a clock reading falls in.
     *
     * @param midnightNs nanoseconds since the midnight UTC of some day, e.g. {@link #nanosSinceMidnight()}.
     * @return the first midnight after it, nanoseconds since the same midnight: a whole number of days.
     */
    public static long nextMidnight(final long midnightNs)
    {
        return (Math.floorDiv(midnightNs, NANOS_PER_DAY) + 1) * NANOS_PER_DAY;
    }

    /**
     * The difference of two times since midnight that may count from different midnights: a message's Timestamp (a
     * time of day) and a receipt time of a clock started days before, or two processes started on different dates.
     *
     * @param differenceNs a difference of two times since midnight, each of some day's midnight UTC.
     * @return the difference less the whole days nearest to it: between -12 h and +12 h.
     */
    public static long withinADay(final long differenceNs)
    {
        if (differenceNs >= -HALF_DAY_NS && differenceNs < HALF_DAY_NS)
        {
            return differenceNs;
        }
        return differenceNs - Math.round((double)differenceNs / NANOS_PER_DAY) * NANOS_PER_DAY;
    }

    /**
     * Lays a message's Timestamp on a clock's timeline: the latest time with that time of day that is after a time of
     * the clock (its receipt, say) by no more than {@link #MAX_CLOCK_SKEW_NS}, since a message is stamped before it
     * is received but for the clocks' skew. So a message of 23:59:59 received at 00:00:01 is of the day before, and one
     * of 09:00 received at 22:00 is of that morning, not of the next.
     *
     * @param timestampNs a time since some day's midnight UTC: a time of day, or a clock's time past a day.
     * @param referenceNs a time of the clock, nanoseconds since the midnight it counts from.
     * @return the message's time on that clock, nanoseconds since the same midnight; negative for a time before it.
     */
    public static long atOrBefore(final long timestampNs, final long referenceNs)
    {
        final long sinceReferenceNs = withinADay(timestampNs - referenceNs);
        return referenceNs + sinceReferenceNs - (sinceReferenceNs > MAX_CLOCK_SKEW_NS ? NANOS_PER_DAY : 0);
    }

    /**
     * The Timestamp of a day's closing ITCH 5.0 System Events ('M' End of Market Hours, 'E' End of System Hours, 'C'
     * End of Messages), after every message of the day: the last nanosecond of the day, or, when its last message
     * carries the next day's time already (stamped after midnight, taken before the day was ended), the clock's time
     * or that message's, whichever is later. The message's time is laid on the clock's timeline by {@link #atOrBefore}:
     * processes on one host stamp with the same wall clock.
     *
     * @param lastTimestampNs the day's last message's time since some day's midnight UTC: a time of day, or a clock's
     *                        time past a day.
     * @param nowNs           the clock's time, nanoseconds since the midnight it counts from, at or after
     *                        {@code midnightNs}.
     * @param midnightNs      the midnight that ended the day, on the same clock.
     * @return nanoseconds since the clock's midnight.
     */
    public static long closingTimestamp(final long lastTimestampNs, final long nowNs, final long midnightNs)
    {
        final long lastNs = atOrBefore(lastTimestampNs, nowNs);
        return lastNs >= midnightNs ? Math.max(nowNs, lastNs) : midnightNs - 1;
    }
}
