package io.bourse.simulator;

import java.util.SplittableRandom;

/**
 * Poisson arrivals: independent, exponentially distributed gaps with mean {@code 1 / rate} seconds, so the count in
 * any window of {@code t} seconds is Poisson with mean {@code rate * t}.
 */
public final class PoissonArrivals implements ArrivalProcess
{
    private final double meanGapNs;
    private final long seed;
    private SplittableRandom random;
    private long startNs;
    private double offsetNs;

    /**
     * @param rate mean orders per second, at least 1.
     * @param seed random seed.
     */
    public PoissonArrivals(final long rate, final long seed)
    {
        this.meanGapNs = 1e9 / rate;
        this.seed = seed;
    }

    /**
     * @param random source of uniform draws.
     * @param mean   mean of the distribution.
     * @return an exponentially distributed draw with that mean.
     */
    static double exponential(final SplittableRandom random, final double mean)
    {
        return -Math.log(1.0 - random.nextDouble()) * mean;
    }

    @Override
    public void start(final long startNs)
    {
        this.startNs = startNs;
        offsetNs = 0.0;
        random = new SplittableRandom(seed);
    }

    @Override
    public long next()
    {
        offsetNs += exponential(random, meanGapNs);
        return startNs + (long)offsetNs;
    }
}
