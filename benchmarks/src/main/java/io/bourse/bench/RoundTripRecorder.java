package io.bourse.bench;

import org.HdrHistogram.Histogram;

import java.util.concurrent.TimeUnit;

/**
 * Round trips of one rate step, coordinated-omission corrected: each is taken from the request's intended send time on
 * the open-loop schedule (not from when it was actually written) to the receive time of its answer. Answers to
 * requests intended before the end of the warm-up are counted, not recorded. Both paths of {@code bourse bench gateway}
 * record through this class, so the floor and the gateway are measured alike. Single thread: the client's.
 */
final class RoundTripRecorder
{
    /** Largest round trip the histogram holds; longer ones are recorded as this. */
    static final long HIGHEST_TRACKABLE_NS = TimeUnit.SECONDS.toNanos(60);
    /** HdrHistogram precision: 3 significant digits, 0.1% of the value. */
    static final int SIGNIFICANT_DIGITS = 3;

    private final Histogram histogram = new Histogram(HIGHEST_TRACKABLE_NS, SIGNIFICANT_DIGITS);
    private final long measureStartNs;
    private long warmupAnswers;
    private long lastAnswerNs;

    /**
     * @param measureStartNs intended send time from which round trips are recorded, {@link System#nanoTime()} scale.
     */
    RoundTripRecorder(final long measureStartNs)
    {
        this.measureStartNs = measureStartNs;
        this.lastAnswerNs = measureStartNs;
    }

    /**
     * @param intendedNs the request's intended send time.
     * @param receivedNs when its answer was read.
     */
    void record(final long intendedNs, final long receivedNs)
    {
        if (intendedNs - measureStartNs < 0)
        {
            warmupAnswers++;
            return;
        }
        histogram.recordValue(Math.clamp(receivedNs - intendedNs, 0, HIGHEST_TRACKABLE_NS));
        if (receivedNs - lastAnswerNs > 0)
        {
            lastAnswerNs = receivedNs;
        }
    }

    /** @return the measured round trips in nanoseconds. */
    Histogram histogram()
    {
        return histogram;
    }

    /** @return answers to warm-up requests. */
    long warmupAnswers()
    {
        return warmupAnswers;
    }

    /** @return receive time of the latest measured answer, or the start of the measurement when there was none. */
    long lastAnswerNs()
    {
        return lastAnswerNs;
    }
}
