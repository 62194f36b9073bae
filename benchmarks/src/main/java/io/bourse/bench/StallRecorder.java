package io.bourse.bench;

import org.HdrHistogram.Histogram;
import org.agrona.collections.LongArrayList;

/**
 * One reader thread's latencies of the messages in the {@link StallPeriod}, ns. A message whose Timestamp is before
 * the stretch's confirmed time is recorded at once; one at or after it, while the stretch is open, is held with its
 * Timestamp until the stretch is confirmed past it (recorded) or ends before it (dropped), so that no message after
 * the stretch's end is counted in it, however late the poll that finds the end. Used by its reader thread only; read
 * once that thread has ended.
 */
final class StallRecorder
{
    private static final int FIRST_SETTLE_AT = 1 << 16;

    private final StallPeriod period;
    private final Histogram histogram;
    private final LongArrayList heldTimestamps = new LongArrayList();
    private final LongArrayList heldLatencies = new LongArrayList();
    private int settleAt = FIRST_SETTLE_AT;

    /**
     * @param period    the stretch, shared by the step's readers.
     * @param histogram where the latencies go, ns.
     */
    StallRecorder(final StallPeriod period, final Histogram histogram)
    {
        this.period = period;
        this.histogram = histogram;
    }

    /**
     * @param timestampNs the message's Timestamp, ns since midnight.
     * @param latencyNs   its latency, ns, at most the histogram's highest trackable value.
     */
    void record(final long timestampNs, final long latencyNs)
    {
        final boolean ended = period.isEnded();
        final long confirmedNs = period.confirmedNs();
        if (timestampNs < confirmedNs)
        {
            histogram.recordValue(latencyNs);
        }
        else if (!ended)
        {
            heldTimestamps.addLong(timestampNs);
            heldLatencies.addLong(latencyNs);
            if (heldTimestamps.size() >= settleAt)
            {
                settle(confirmedNs);
                settleAt = Math.max(settleAt, 2 * heldTimestamps.size());
            }
        }
    }

    /**
     * @return the latencies of the stretch, ns, those held settled against its end; once the reader thread and the
     * stretch have ended.
     * @throws IllegalStateException when the stretch has not ended.
     */
    Histogram histogram()
    {
        if (!period.isEnded())
        {
            throw new IllegalStateException("the stall period has not ended");
        }
        settle(period.confirmedNs());
        heldTimestamps.clear();
        heldLatencies.clear();
        return histogram;
    }

    /** Records the held latencies whose Timestamps are before the time and keeps the others. */
    private void settle(final long confirmedNs)
    {
        int kept = 0;
        for (int i = 0, size = heldTimestamps.size(); i < size; i++)
        {
            final long timestampNs = heldTimestamps.getLong(i);
            if (timestampNs < confirmedNs)
            {
                histogram.recordValue(heldLatencies.getLong(i));
            }
            else
            {
                heldTimestamps.setLong(kept, timestampNs);
                heldLatencies.setLong(kept, heldLatencies.getLong(i));
                kept++;
            }
        }
        while (heldTimestamps.size() > kept)
        {
            heldTimestamps.removeAt(heldTimestamps.size() - 1);
            heldLatencies.removeAt(heldLatencies.size() - 1);
        }
    }
}
