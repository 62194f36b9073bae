package io.bourse.common.metrics;

import org.HdrHistogram.Histogram;
import org.HdrHistogram.WriterReaderPhaser;

/**
 * An HdrHistogram interval recorder for one writer thread that records in batches, such as an agent's duty cycle.
 * Like HdrHistogram's {@code SingleWriterRecorder}, it records into a plain {@link Histogram} that a reader swaps
 * for a reset one through a {@link WriterReaderPhaser}; but the writer enters the phaser's critical section once per
 * batch ({@link #beginBatch} to {@link #endBatch}), where {@code SingleWriterRecorder} enters and leaves it per value,
 * two atomic increments that each wait for the thread's pending stores (on the gateway's and engine's shared thread at
 * 500,000 orders/s, 7% of its samples were in them). A value recorded outside a batch enters and leaves on its own.
 * <p>
 * One writer thread at a time; {@link #intervalHistogram} from any thread. The reader's swap waits for the batch in
 * progress to end, so a batch must not block (no disk or network I/O that can hang).
 */
final class BatchRecorder
{
    private final WriterReaderPhaser phaser = new WriterReaderPhaser();
    private final long highestTrackableValue;
    private final int significantDigits;
    private volatile Histogram active;
    /** The phaser value of the batch in progress: the writer's only. */
    private long batchPhase;
    /** True between beginBatch and endBatch: the writer's only. */
    private boolean inBatch;

    /**
     * @param highestTrackableValue highest value recorded, in the unit of the values (nanoseconds for a latency).
     * @param significantDigits     of the histogram, 0 to 5.
     */
    BatchRecorder(final long highestTrackableValue, final int significantDigits)
    {
        this.highestTrackableValue = highestTrackableValue;
        this.significantDigits = significantDigits;
        this.active = new Histogram(highestTrackableValue, significantDigits);
    }

    /** Starts a batch: values recorded until {@link #endBatch} cost no atomic operation. Writer thread only. */
    void beginBatch()
    {
        if (inBatch)
        {
            throw new IllegalStateException("batch already begun");
        }
        batchPhase = phaser.writerCriticalSectionEnter();
        inBatch = true;
    }

    /** Ends the batch {@link #beginBatch} started, so that a reader waiting to swap may go on. Writer thread only. */
    void endBatch()
    {
        if (!inBatch)
        {
            throw new IllegalStateException("no batch begun");
        }
        inBatch = false;
        phaser.writerCriticalSectionExit(batchPhase);
    }

    /**
     * Records a value. Writer thread only.
     *
     * @param value 0 to the highest trackable value.
     * @throws ArrayIndexOutOfBoundsException when the value is above the highest trackable value.
     */
    void recordValue(final long value)
    {
        if (inBatch)
        {
            active.recordValue(value);
            return;
        }
        final long phase = phaser.writerCriticalSectionEnter();
        try
        {
            active.recordValue(value);
        }
        finally
        {
            phaser.writerCriticalSectionExit(phase);
        }
    }

    /**
     * Takes the values recorded since the previous call: swaps in a reset histogram for the writer, waits until no
     * batch writes into the one taken, and returns it.
     *
     * @param recycled a histogram taken by an earlier call and no longer used, to reset and reuse; or null.
     * @return the interval's histogram, which the writer no longer touches.
     */
    synchronized Histogram intervalHistogram(final Histogram recycled)
    {
        final Histogram next;
        if (null == recycled)
        {
            next = new Histogram(highestTrackableValue, significantDigits);
        }
        else
        {
            recycled.reset();
            next = recycled;
        }
        phaser.readerLock();
        try
        {
            final Histogram interval = active;
            active = next;
            phaser.flipPhase();
            return interval;
        }
        finally
        {
            phaser.readerUnlock();
        }
    }
}
