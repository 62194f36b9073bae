package io.bourse.bench;

import org.HdrHistogram.Histogram;

import java.util.Locale;

/**
 * One row of the benchmark suite's report and one series of its plots: a path at one rate.
 *
 * @param path              what was measured, e.g. "gateway", "TCP floor", "bourse".
 * @param rate              the scheduled rate per second, 0 when the path ran as fast as it could.
 * @param achievedPerSecond what it achieved per second.
 * @param histogram         its latencies, ns.
 */
record SuiteMeasurement(String path, long rate, double achievedPerSecond, Histogram histogram)
{
    /** @return the path and its rate, e.g. {@code gateway 10,000/s}, or the path alone when unthrottled. */
    String label()
    {
        return 0 == rate ? path : String.format(Locale.ROOT, "%s %,d/s", path, rate);
    }

    /**
     * @param percentile 0 to 100; 100 is the maximum.
     * @return the latency at that percentile, ns; 0 when nothing was recorded.
     */
    long percentileNs(final double percentile)
    {
        return BenchReport.percentile(histogram, percentile);
    }
}
