package io.bourse.common.metrics;

import io.prometheus.metrics.model.registry.Collector;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import io.prometheus.metrics.model.snapshots.Quantile;
import io.prometheus.metrics.model.snapshots.Quantiles;
import io.prometheus.metrics.model.snapshots.SummarySnapshot;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.IntervalHistogramProvider;
import org.HdrHistogram.Recorder;
import org.HdrHistogram.SingleWriterRecorder;
import org.HdrHistogram.ValueRecorder;

/**
 * A latency metric: any number of threads record nanoseconds into an HdrHistogram {@link Recorder} (wait-free, no
 * allocation, no lock), or one thread into a {@link SingleWriterRecorder} (no atomic read-modify-write either, for an
 * agent's hot path: {@link #registerSingleWriter}), and every scrape takes the interval histogram since the previous
 * scrape and exports it as a Prometheus summary in seconds with quantiles 0.5, 0.9, 0.99, 0.999, 0.9999 and 1.0
 * (max). Count and sum are cumulative. Quantiles of an interval without samples are NaN, as Prometheus expects for an
 * empty summary.
 */
public final class LatencySummary implements Collector
{
    private static final double[] QUANTILES = {0.5, 0.9, 0.99, 0.999, 0.9999, 1.0};
    private static final long HIGHEST_TRACKABLE_NS = 3_600_000_000_000L;

    private final String name;
    private final String help;
    private final ValueRecorder recorder;
    private final IntervalHistogramProvider<Histogram> intervals;
    private Histogram interval;
    private long totalCount;
    private double totalSumSeconds;

    /**
     * @param name metric name ending in {@code _seconds}.
     * @param help description.
     */
    public LatencySummary(final String name, final String help)
    {
        this(name, help, new Recorder(HIGHEST_TRACKABLE_NS, 3));
    }

    private <R extends ValueRecorder & IntervalHistogramProvider<Histogram>> LatencySummary(
        final String name, final String help, final R recorder)
    {
        this.name = name;
        this.help = help;
        this.recorder = recorder;
        this.intervals = recorder;
    }

    /**
     * @param registry where to register.
     * @param name     metric name ending in {@code _seconds}.
     * @param help     description.
     * @return the registered summary, whose {@link #recordNs} only one thread may call.
     */
    public static LatencySummary registerSingleWriter(
        final PrometheusRegistry registry, final String name, final String help)
    {
        final LatencySummary summary =
            new LatencySummary(name, help, new SingleWriterRecorder(HIGHEST_TRACKABLE_NS, 3));
        registry.register(summary);
        return summary;
    }

    /**
     * @param registry where to register.
     * @param name     metric name ending in {@code _seconds}.
     * @param help     description.
     * @return the registered summary.
     */
    public static LatencySummary register(final PrometheusRegistry registry, final String name, final String help)
    {
        final LatencySummary summary = new LatencySummary(name, help);
        registry.register(summary);
        return summary;
    }

    /**
     * Records one latency; call from any thread (wait-free), or from the one writer of a
     * {@link #registerSingleWriter} summary.
     *
     * @param latencyNs nanoseconds; values outside [0, 1 hour] are clamped.
     */
    public void recordNs(final long latencyNs)
    {
        recorder.recordValue(Math.max(0, Math.min(latencyNs, HIGHEST_TRACKABLE_NS)));
    }

    @Override
    public String getPrometheusName()
    {
        return name;
    }

    @Override
    public synchronized MetricSnapshot collect()
    {
        interval = intervals.getIntervalHistogram(interval);
        final long count = interval.getTotalCount();
        totalCount += count;
        totalSumSeconds += count * interval.getMean() / 1e9;
        final Quantiles.Builder quantiles = Quantiles.builder();
        for (final double q : QUANTILES)
        {
            final double seconds = count == 0 ? Double.NaN :
                (q == 1.0 ? interval.getMaxValue() : interval.getValueAtPercentile(q * 100.0)) / 1e9;
            quantiles.quantile(new Quantile(q, seconds));
        }
        return SummarySnapshot.builder()
            .name(name)
            .help(help)
            .dataPoint(SummarySnapshot.SummaryDataPointSnapshot.builder()
                .count(totalCount)
                .sum(totalSumSeconds)
                .quantiles(quantiles.build())
                .build())
            .build();
    }
}
