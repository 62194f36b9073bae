package io.bourse.common.metrics;

import io.prometheus.metrics.model.registry.Collector;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import io.prometheus.metrics.model.snapshots.Quantile;
import io.prometheus.metrics.model.snapshots.Quantiles;
import io.prometheus.metrics.model.snapshots.SummarySnapshot;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

/**
 * A latency metric: any number of threads record nanoseconds into an HdrHistogram {@link Recorder} (wait-free, no
 * allocation, no lock), or one thread into a {@link BatchRecorder} (for an agent's hot path:
 * {@link #registerSingleWriter}; plain histogram increments between {@link #beginBatch} and {@link #endBatch}, no
 * atomic operation per value), and every scrape takes the interval histogram since the previous scrape and exports it
 * as a Prometheus summary in seconds with quantiles 0.5, 0.9, 0.99, 0.999, 0.9999 and 1.0 (max). Count and sum are
 * cumulative. Quantiles of an interval without samples are NaN, as Prometheus expects for an empty summary.
 */
public final class LatencySummary implements Collector
{
    private static final double[] QUANTILES = {0.5, 0.9, 0.99, 0.999, 0.9999, 1.0};
    private static final long HIGHEST_TRACKABLE_NS = 3_600_000_000_000L;
    private static final int SIGNIFICANT_DIGITS = 3;

    private final String name;
    private final String help;
    /** The recorder of a summary for any number of threads, else null. */
    private final Recorder recorder;
    /** The recorder of a single-writer summary, else null. */
    private final BatchRecorder batchRecorder;
    private Histogram interval;
    private long totalCount;
    private double totalSumSeconds;

    /**
     * A summary any number of threads may record into.
     *
     * @param name metric name ending in {@code _seconds}.
     * @param help description.
     */
    public LatencySummary(final String name, final String help)
    {
        this(name, help, new Recorder(HIGHEST_TRACKABLE_NS, SIGNIFICANT_DIGITS), null);
    }

    private LatencySummary(
        final String name, final String help, final Recorder recorder, final BatchRecorder batchRecorder)
    {
        this.name = name;
        this.help = help;
        this.recorder = recorder;
        this.batchRecorder = batchRecorder;
    }

    /**
     * @param registry where to register.
     * @param name     metric name ending in {@code _seconds}.
     * @param help     description.
     * @return the registered summary, whose {@link #recordNs}, {@link #beginBatch} and {@link #endBatch} only one
     * thread may call.
     */
    public static LatencySummary registerSingleWriter(
        final PrometheusRegistry registry, final String name, final String help)
    {
        final LatencySummary summary =
            new LatencySummary(name, help, null, new BatchRecorder(HIGHEST_TRACKABLE_NS, SIGNIFICANT_DIGITS));
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
     * {@link #registerSingleWriter} summary, inside or outside a batch.
     *
     * @param latencyNs nanoseconds; values outside [0, 1 hour] are clamped.
     */
    public void recordNs(final long latencyNs)
    {
        final long value = Math.max(0, Math.min(latencyNs, HIGHEST_TRACKABLE_NS));
        if (null != batchRecorder)
        {
            batchRecorder.recordValue(value);
        }
        else
        {
            recorder.recordValue(value);
        }
    }

    /**
     * Starts a batch of {@link #recordNs} calls of the one writer of a {@link #registerSingleWriter} summary, such as
     * one duty cycle of its agent; a scrape waits for the batch to end, so it must not block. A no-op on a summary for
     * any number of threads.
     *
     * @throws IllegalStateException when a batch is already begun.
     */
    public void beginBatch()
    {
        if (null != batchRecorder)
        {
            batchRecorder.beginBatch();
        }
    }

    /**
     * Ends the batch {@link #beginBatch} started. A no-op on a summary for any number of threads.
     *
     * @throws IllegalStateException when no batch is begun.
     */
    public void endBatch()
    {
        if (null != batchRecorder)
        {
            batchRecorder.endBatch();
        }
    }

    @Override
    public String getPrometheusName()
    {
        return name;
    }

    @Override
    public synchronized MetricSnapshot collect()
    {
        interval = null != batchRecorder ?
            batchRecorder.intervalHistogram(interval) : recorder.getIntervalHistogram(interval);
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
