package io.bourse.gateway;

import com.paritytrading.nassau.Clock;
import io.bourse.common.time.MidnightNanoClock;
import org.agrona.concurrent.NanoClock;
import org.agrona.concurrent.SystemNanoClock;

import java.time.LocalDate;

/**
 * The gateway agent's time, read once per duty cycle and shared by everything that cycle does: a monotonic
 * nanosecond time for latencies and the nassau keep-alive timers (as milliseconds), and nanoseconds since midnight
 * for the timestamps of engine commands and of the OUCH messages the gateway originates. Tests set it by hand.
 */
final class DutyCycleClock implements Clock
{
    private final MidnightNanoClock midnightClock;
    private final NanoClock nanoClock;
    private long nanoTime;
    private long midnightNs;

    /**
     * @param midnightClock source of nanoseconds since midnight, or null for a clock only set by hand.
     */
    DutyCycleClock(final MidnightNanoClock midnightClock)
    {
        this(midnightClock, SystemNanoClock.INSTANCE);
    }

    /**
     * @param midnightClock source of nanoseconds since midnight, or null for a clock only set by hand.
     * @param nanoClock     source of monotonic nanoseconds ({@link System#nanoTime()} but in tests that move time on).
     */
    DutyCycleClock(final MidnightNanoClock midnightClock, final NanoClock nanoClock)
    {
        this.midnightClock = midnightClock;
        this.nanoClock = nanoClock;
    }

    /** Reads the clocks; once at the start of each duty cycle. */
    void update()
    {
        set(nanoClock.nanoTime(), midnightClock.nanosSinceMidnight());
    }

    /**
     * @param nanoTime   monotonic nanoseconds.
     * @param midnightNs nanoseconds since midnight.
     */
    void set(final long nanoTime, final long midnightNs)
    {
        this.nanoTime = nanoTime;
        this.midnightNs = midnightNs;
    }

    /**
     * @return the UTC date of the midnight {@link #midnightNs()} counts from (the gateway's first trading day).
     * @throws NullPointerException for a clock only set by hand.
     */
    LocalDate startDate()
    {
        return midnightClock.startDate();
    }

    /** @return monotonic nanoseconds at the start of the cycle. */
    long nanoTime()
    {
        return nanoTime;
    }

    /** @return nanoseconds since midnight at the start of the cycle. */
    long midnightNs()
    {
        return midnightNs;
    }

    /** @return monotonic milliseconds, for the nassau session timers (only differences matter). */
    @Override
    public long currentTimeMillis()
    {
        return nanoTime / 1_000_000L;
    }
}
