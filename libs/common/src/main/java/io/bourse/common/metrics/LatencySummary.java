package io.bourse.common.metrics;

import io.prometheus.metrics.model.registry.Collector;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import io.prometheus.metrics.model.snapshots.Quantile;
import io.prometheus.metrics.model.snapshots.Quantiles;
import io.prometheus.metrics.model.snapshots.SummarySnapshot;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;
import org.agrona.concurrent.NanoClock;
import org.agrona.concurrent.SystemNanoClock;

import java.util.ArrayDeque;
import java.util.concurrent.TimeUnit;

/**
 * A latency metric: any number of threads record nanoseconds into an HdrHistogram {@link Recorder} (wait-free, no
 * allocation, no lock), or one thread into a {@link BatchRecorder} (for an agent's hot path:
 * {@link #registerSingleWriter}; plain histogram increments between {@link #beginBatch} and {@link #endBatch}, no
 * atomic operation per value), exported as a Prometheus summary in seconds with quantiles 0.5, 0.9, 0.99, 0.999,
 * 0.9999 and 1.0 (max).
 * <p>
 * Every scrape takes the interval histogram since the previous scrape, by whichever reader, and keeps it for
 * {@link #WINDOW_NS}; the quantiles are those of every interval taken in that window, its own included. So a second
 * reader of {@code /metrics} (a {@code curl}, another Prometheus) takes no sample from the first: a reader that scrapes
 * at least once per window sees every sample in some scrape's quantiles, and a sample shows in the quantiles of
 * every scrape for about a window after the one that took it. At most {@value #MAX_INTERVALS} intervals are kept apart:
 * a scrape's interval joins the newest one kept when that was taken less than a {@value #MAX_INTERVALS}th of the window
 * before, and then leaves the window with it (so after at least 15/16 of the window; a reader scraping that often sees
 * every sample), which bounds the memory (each interval histogram takes about 0.5 MB) whatever the rate of scrapes.
 * Count and sum are cumulative and count every sample once. Quantiles of a window without samples are NaN, as
 * Prometheus expects for an empty summary.
 */
public final class LatencySummary implements Collector
{
    /** How long a scrape's interval stays in the quantiles of later scrapes, in ns: 10 s. */
    static final long WINDOW_NS = TimeUnit.SECONDS.toNanos(10);
    /** Intervals kept apart in the window: one is taken into the newest when that is younger than the window / 16. */
    static final int MAX_INTERVALS = 16;
    private static final long MIN_INTERVAL_NS = WINDOW_NS / MAX_INTERVALS;

    private static final double[] QUANTILES = {0.5, 0.9, 0.99, 0.999, 0.9999, 1.0};
    private static final long HIGHEST_TRACKABLE_NS = 3_600_000_000_000L;
    private static final int SIGNIFICANT_DIGITS = 3;

    private final String name;
    private final String help;
    /** The recorder of a summary for any number of threads, else null. */
    private final Recorder recorder;
    /** The recorder of a single-writer summary, else null. */
    private final BatchRecorder batchRecorder;
    private final NanoClock clock;
    /** The window's intervals, a ring from {@link #oldest}, each made by the recorder, so it can recycle them. */
    private final Histogram[] intervals = new Histogram[MAX_INTERVALS];
    /** When each of {@link #intervals} was taken, in ns of the clock. */
    private final long[] takenAtNs = new long[MAX_INTERVALS];
    private int oldest;
    private int intervalCount;
    /** Intervals out of the window, for the recorder to reuse. */
    private final ArrayDeque<Histogram> spares = new ArrayDeque<>();
    private final Histogram window = new Histogram(HIGHEST_TRACKABLE_NS, SIGNIFICANT_DIGITS);
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
        this(name, help, SystemNanoClock.INSTANCE);
    }

    /**
     * A summary any number of threads may record into, its window timed by this clock.
     *
     * @param name  metric name ending in {@code _seconds}.
     * @param help  description.
     * @param clock times the intervals' stay in the window.
     */
    LatencySummary(final String name, final String help, final NanoClock clock)
    {
        this(name, help, new Recorder(HIGHEST_TRACKABLE_NS, SIGNIFICANT_DIGITS), null, clock);
    }

    private LatencySummary(
        final String name,
        final String help,
        final Recorder recorder,
        final BatchRecorder batchRecorder,
        final NanoClock clock)
    {
        this.name = name;
        this.help = help;
        this.recorder = recorder;
        this.batchRecorder = batchRecorder;
        this.clock = clock;
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
        final LatencySummary summary = new LatencySummary(
            name, help, null, new BatchRecorder(HIGHEST_TRACKABLE_NS, SIGNIFICANT_DIGITS), SystemNanoClock.INSTANCE);
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

    /**
     * Takes the interval since the previous scrape, drops the intervals taken a window ago or earlier, and exports
     * the quantiles of the window's intervals.
     *
     * @return the summary: cumulative count and sum in seconds, the window's quantiles in seconds (NaN when empty).
     */
    @Override
    public synchronized MetricSnapshot collect()
    {
        final long nowNs = clock.nanoTime();
        final Histogram spare = spares.pollFirst();
        final Histogram interval = null != batchRecorder ?
            batchRecorder.intervalHistogram(spare) : recorder.getIntervalHistogram(spare);
        totalCount += interval.getTotalCount();
        totalSumSeconds += interval.getTotalCount() * interval.getMean() / 1e9;
        while (intervalCount > 0 && nowNs - takenAtNs[oldest] >= WINDOW_NS)
        {
            dropOldest();
        }
        final int newest = (oldest + intervalCount - 1) % MAX_INTERVALS;
        if (intervalCount > 0 && nowNs - takenAtNs[newest] < MIN_INTERVAL_NS)
        {
            // Taken less than MIN_INTERVAL_NS after the newest: with it, leaving the window when it does.
            intervals[newest].add(interval);
            spares.addLast(interval);
        }
        else
        {
            // Every interval kept was taken at least MIN_INTERVAL_NS after the one before, all within the window.
            final int next = (oldest + intervalCount++) % MAX_INTERVALS;
            intervals[next] = interval;
            takenAtNs[next] = nowNs;
        }
        window.reset();
        for (int i = 0; i < intervalCount; i++)
        {
            window.add(intervals[(oldest + i) % MAX_INTERVALS]);
        }

        final long count = window.getTotalCount();
        final Quantiles.Builder quantiles = Quantiles.builder();
        for (final double q : QUANTILES)
        {
            final double seconds = count == 0 ? Double.NaN :
                (q == 1.0 ? window.getMaxValue() : window.getValueAtPercentile(q * 100.0)) / 1e9;
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

    private void dropOldest()
    {
        spares.addLast(intervals[oldest]);
        intervals[oldest] = null;
        oldest = (oldest + 1) % MAX_INTERVALS;
        intervalCount--;
    }
}
