package io.bourse.bench;

import org.HdrHistogram.Histogram;

import java.util.Arrays;

/**
 * What one engine scored in each measured iteration: throughput in million commands per second and, where measured,
 * the per-command service-time percentiles in nanoseconds. Summarised as min, median and max across iterations.
 */
public final class EngineStats
{
    /** Percentiles reported, in the order of {@link #LATENCY_LABELS} (the last label is the maximum). */
    static final double[] PERCENTILES = { 50.0, 90.0, 99.0, 99.9, 99.99 };
    /** Column labels of the latency table: the percentiles, then the maximum. */
    static final String[] LATENCY_LABELS = { "p50", "p90", "p99", "p99.9", "p99.99", "max" };

    /** Which summary of the iterations. */
    public enum Summary
    {
        /** Lowest value across iterations. */
        MIN,
        /** Median across iterations (mean of the middle two for an even count). */
        MEDIAN,
        /** Highest value across iterations. */
        MAX
    }

    private final String name;
    private final double[] throughputMcps;
    private final long[][] latencyNs;
    private final double[] allocatedBytes;
    private final Histogram merged = new Histogram(3);
    private int iterations;

    /**
     * @param name       engine name as printed.
     * @param iterations measured iterations to hold.
     */
    public EngineStats(final String name, final int iterations)
    {
        this.name = name;
        this.throughputMcps = new double[iterations];
        this.latencyNs = new long[LATENCY_LABELS.length][iterations];
        this.allocatedBytes = new double[iterations];
    }

    /** @return engine name as printed. */
    public String name()
    {
        return name;
    }

    /** @return measured iterations added so far. */
    public int iterations()
    {
        return iterations;
    }

    /**
     * Adds one measured iteration.
     *
     * @param commands  commands processed in the timed pass.
     * @param elapsedNs duration of the timed pass in nanoseconds.
     * @param histogram      per-command service times in nanoseconds.
     * @param allocatedBytes bytes the measured thread (the benchmark's, or the engine service's agent) allocated
     *                       during the timed pass.
     * @throws IllegalStateException when all iterations are already in.
     */
    public void add(final long commands, final long elapsedNs, final Histogram histogram, final long allocatedBytes)
    {
        if (iterations == throughputMcps.length)
        {
            throw new IllegalStateException(name + ": all " + iterations + " iterations already added");
        }
        throughputMcps[iterations] = commands * 1_000.0 / Math.max(1, elapsedNs);
        this.allocatedBytes[iterations] = allocatedBytes;
        for (int i = 0; i < PERCENTILES.length; i++)
        {
            latencyNs[i][iterations] = histogram.getValueAtPercentile(PERCENTILES[i]);
        }
        latencyNs[PERCENTILES.length][iterations] = histogram.getMaxValue();
        merged.add(histogram);
        iterations++;
    }

    /** @return the service times of every measured iteration in one histogram, ns, 3 significant digits. */
    public Histogram mergedHistogram()
    {
        return merged;
    }

    /**
     * @param summary which summary.
     * @return throughput in million commands per second.
     */
    public double throughput(final Summary summary)
    {
        return summarise(Arrays.copyOf(throughputMcps, iterations), summary);
    }

    /**
     * @param summary which summary.
     * @return bytes the measured thread allocated during one timed pass.
     */
    public double allocatedBytes(final Summary summary)
    {
        return summarise(Arrays.copyOf(allocatedBytes, iterations), summary);
    }

    /**
     * @param column  index into {@link #LATENCY_LABELS}.
     * @param summary which summary.
     * @return service time in nanoseconds.
     */
    public double latencyNs(final int column, final Summary summary)
    {
        final long[] values = Arrays.copyOf(latencyNs[column], iterations);
        final double[] asDouble = new double[values.length];
        for (int i = 0; i < values.length; i++)
        {
            asDouble[i] = values[i];
        }
        return summarise(asDouble, summary);
    }

    static double summarise(final double[] values, final Summary summary)
    {
        if (0 == values.length)
        {
            throw new IllegalStateException("no measured iteration");
        }
        final double[] sorted = values.clone();
        Arrays.sort(sorted);
        return switch (summary)
        {
            case MIN -> sorted[0];
            case MAX -> sorted[sorted.length - 1];
            case MEDIAN -> 0 == (sorted.length & 1) ?
                (sorted[sorted.length / 2 - 1] + sorted[sorted.length / 2]) / 2.0 : sorted[sorted.length / 2];
        };
    }
}
