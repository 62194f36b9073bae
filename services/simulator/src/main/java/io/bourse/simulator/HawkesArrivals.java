package io.bourse.simulator;

import java.util.SplittableRandom;

/**
 * Self-exciting (Hawkes) arrivals with an exponential kernel: the intensity is
 * {@code λ(t) = μ + Σ α·e^{-β(t − tᵢ)}} over the earlier arrivals {@code tᵢ}, so every order raises the rate by
 * {@code α} per second, decaying with rate {@code β} per second: orders come in clusters. With branching ratio
 * {@code α/β < 1} the process is stationary with mean rate {@code μ / (1 − α/β)}; the background rate is chosen as
 * {@code μ = rate·(1 − α/β)} so that the mean is the configured rate. Simulated exactly by Ogata's thinning.
 */
public final class HawkesArrivals implements ArrivalProcess
{
    private final double mu;
    private final double alpha;
    private final double beta;
    private final long seed;
    private SplittableRandom random;
    private long startNs;
    private double t;
    private double excitation;

    /**
     * @param rate  mean orders per second, at least 1.
     * @param alpha jump of the intensity per arrival, 1/s, positive.
     * @param beta  decay rate of the jumps, 1/s, greater than {@code alpha}.
     * @param seed  random seed.
     * @throws IllegalArgumentException if {@code alpha} or {@code beta} is out of range.
     */
    public HawkesArrivals(final long rate, final double alpha, final double beta, final long seed)
    {
        if (!(alpha > 0.0) || !(beta > alpha))
        {
            throw new IllegalArgumentException("Hawkes needs 0 < alpha < beta: alpha=" + alpha + " beta=" + beta);
        }
        this.mu = rate * (1.0 - alpha / beta);
        this.alpha = alpha;
        this.beta = beta;
        this.seed = seed;
    }

    /** @return the background intensity μ in orders per second. */
    public double mu()
    {
        return mu;
    }

    @Override
    public void start(final long startNs)
    {
        this.startNs = startNs;
        t = 0.0;
        excitation = 0.0;
        random = new SplittableRandom(seed);
    }

    @Override
    public long next()
    {
        while (true)
        {
            final double upper = mu + excitation;
            final double gap = PoissonArrivals.exponential(random, 1.0 / upper);
            t += gap;
            excitation *= Math.exp(-beta * gap);
            if (random.nextDouble() * upper <= mu + excitation)
            {
                excitation += alpha;
                return startNs + (long)(t * 1e9);
            }
        }
    }
}
