package io.bourse.common.time;

/**
 * A rate limit as a token bucket, kept as GCRA (the generic cell rate algorithm) on a monotonic clock: the bucket holds
 * one second's worth of tokens, so up to {@code perSecond} may be taken at once, then one more every
 * {@code 1 / perSecond} seconds. A rate of 0 means no limit. One long of state, no allocation; not thread-safe.
 */
public final class TokenBucket
{
    private static final long NANOS_PER_SECOND = 1_000_000_000L;

    private final long intervalNs;
    private final long toleranceNs;
    /** When the bucket is next full again, on the caller's clock; far past while it is full. */
    private long theoreticalArrivalNs = Long.MIN_VALUE;

    /**
     * @param perSecond tokens per second, 0 for no limit.
     * @throws IllegalArgumentException when negative.
     */
    public TokenBucket(final long perSecond)
    {
        if (perSecond < 0)
        {
            throw new IllegalArgumentException("a rate of " + perSecond + " per second");
        }
        intervalNs = 0 == perSecond ? 0 : Math.max(1, NANOS_PER_SECOND / perSecond);
        toleranceNs = NANOS_PER_SECOND - intervalNs;
    }

    /**
     * @param nowNs monotonic time in nanoseconds, e.g. {@link System#nanoTime()}.
     * @return true when a token can be taken now: always without a limit.
     */
    public boolean hasToken(final long nowNs)
    {
        return 0 == intervalNs || Math.max(theoreticalArrivalNs, nowNs) - nowNs <= toleranceNs;
    }

    /**
     * Takes a token, whether or not one was there ({@link #hasToken} first for a limit): a caller that admits one
     * request against two buckets checks both, then takes from both.
     *
     * @param nowNs monotonic time in nanoseconds.
     */
    public void take(final long nowNs)
    {
        if (0 != intervalNs)
        {
            theoreticalArrivalNs = Math.max(theoreticalArrivalNs, nowNs) + intervalNs;
        }
    }

    /**
     * @param nowNs monotonic time in nanoseconds.
     * @return true when a token was there, and it is taken; false, and nothing taken, when the bucket is empty.
     */
    public boolean tryTake(final long nowNs)
    {
        if (!hasToken(nowNs))
        {
            return false;
        }
        take(nowNs);
        return true;
    }

    /**
     * @param nowNs monotonic time in nanoseconds.
     * @return true when the bucket holds all its tokens again: it is as if new.
     */
    public boolean isFull(final long nowNs)
    {
        return theoreticalArrivalNs <= nowNs;
    }
}
