package io.bourse.simulator;

/**
 * Fixed rate: order {@code i} is due at {@code start + i / rate} seconds, computed from the index so that the schedule
 * does not drift over a long run.
 */
public final class SteadyArrivals implements ArrivalProcess
{
    private static final long NANOS_PER_SECOND = 1_000_000_000L;

    private final long rate;
    private long startNs;
    private long index;

    /**
     * @param rate orders per second, at least 1.
     */
    public SteadyArrivals(final long rate)
    {
        this.rate = rate;
    }

    /**
     * @param startNs schedule start in ns.
     * @param rate    orders per second.
     * @param index   order number from 0.
     * @return the intended send time of the order in ns, without overflow for any realistic run.
     */
    public static long intendedNs(final long startNs, final long rate, final long index)
    {
        return startNs + (index / rate) * NANOS_PER_SECOND + ((index % rate) * NANOS_PER_SECOND) / rate;
    }

    @Override
    public void start(final long startNs)
    {
        this.startNs = startNs;
        index = 0;
    }

    @Override
    public long next()
    {
        return intendedNs(startNs, rate, index++);
    }
}
