package io.bourse.simulator;

import io.bourse.common.metrics.LatencySummary;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.SingleWriterRecorder;

/**
 * One latency measured by the simulator: an agent thread records nanoseconds into an HdrHistogram recorder (and the
 * Prometheus summary), and the progress thread takes interval histograms, which it also adds up for the run's total.
 */
final class LatencyTracker
{
    private static final long HIGHEST_TRACKABLE_NS = 3_600_000_000_000L;
    private static final int SIGNIFICANT_DIGITS = 3;

    private final SingleWriterRecorder recorder = new SingleWriterRecorder(HIGHEST_TRACKABLE_NS, SIGNIFICANT_DIGITS);
    private final Histogram total = new Histogram(HIGHEST_TRACKABLE_NS, SIGNIFICANT_DIGITS);
    private final Histogram window = new Histogram(HIGHEST_TRACKABLE_NS, SIGNIFICANT_DIGITS);
    private final LatencySummary summary;
    private Histogram interval;

    /**
     * @param summary Prometheus summary fed with the same samples.
     */
    LatencyTracker(final LatencySummary summary)
    {
        this.summary = summary;
    }

    /**
     * Records one sample; call from the single recording thread.
     *
     * @param latencyNs nanoseconds; clamped to [0, 1 hour].
     */
    void recordNs(final long latencyNs)
    {
        final long clamped = Math.max(0, Math.min(latencyNs, HIGHEST_TRACKABLE_NS));
        recorder.recordValue(clamped);
        summary.recordNs(clamped);
    }

    /**
     * Takes the samples since the previous call and adds them to the total; call from the progress thread.
     *
     * @return the interval histogram, valid until the next call.
     */
    Histogram sampleInterval()
    {
        interval = recorder.getIntervalHistogram(interval);
        total.add(interval);
        window.add(interval);
        return interval;
    }

    /**
     * Takes the samples taken by {@link #sampleInterval()} since the previous call (e.g. one ramp step); call from
     * the progress thread.
     *
     * @return a copy of those samples.
     */
    Histogram takeWindow()
    {
        final Histogram taken = window.copy();
        window.reset();
        return taken;
    }

    /** @return every sample taken by {@link #sampleInterval()} so far. */
    Histogram total()
    {
        return total;
    }
}
