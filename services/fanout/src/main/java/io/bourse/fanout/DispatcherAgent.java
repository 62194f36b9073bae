package io.bourse.fanout;

import io.aeron.Subscription;
import io.aeron.logbuffer.FragmentHandler;
import io.aeron.logbuffer.Header;
import io.bourse.itch.ItchTranslator;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.ringbuffer.RingBuffer;

import java.nio.ByteBuffer;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Reads the market-data stream, translates each L3 message, each trade against a non-displayed order and each cross
 * trade to ITCH 5.0 once ({@link ItchTranslator}) and writes it to every worker's ring buffer. Never blocks: a worker
 * whose ring buffer is full misses the message, which is counted as a drop (and logged once per run of drops). The
 * first record that fits again is preceded by a {@link #DATA_LOST_MSG_TYPE_ID} marker, so that the worker ends the
 * sessions that missed messages, at the point of the gap, instead of letting their books silently diverge. Messages
 * without an ITCH form are only counted in; untranslatable ones are counted as errors.
 *
 * <p>Ring-buffer record, message type {@link #ITCH_MSG_TYPE_ID}:
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +---------------------------------------------------------------+
 *  |         market-data timestamp, ns since midnight (native)     |
 *  |                                                               |
 *  +---------------------------------------------------------------+
 *  |                  ITCH 5.0 message (big-endian)               ...
 *  +---------------------------------------------------------------+
 * </pre>
 */
final class DispatcherAgent implements Agent, FragmentHandler
{
    /** Ring-buffer message type of an ITCH message. */
    static final int ITCH_MSG_TYPE_ID = 1;
    /** Ring-buffer message type of the marker written after a run of drops (no payload beyond one byte). */
    static final int DATA_LOST_MSG_TYPE_ID = 2;
    /** Offset of the market-data timestamp in a record. */
    static final int TIMESTAMP_OFFSET = 0;
    /** Offset of the ITCH message in a record. */
    static final int ITCH_OFFSET = TIMESTAMP_OFFSET + Long.BYTES;

    private final Subscription subscription;
    private final ItchTranslator translator;
    private final RingBuffer[] workerRings;
    private final boolean[] dropping;
    private final int fragmentLimit;
    private final FanoutMetrics metrics;
    private final AtomicLong errorCount;
    private final ByteBuffer record = ByteBuffer.allocateDirect(ITCH_OFFSET + ItchTranslator.MAX_LENGTH);
    private final UnsafeBuffer recordBuffer = new UnsafeBuffer(record);

    /**
     * @param subscription  the market-data stream.
     * @param translator    SBE to ITCH.
     * @param workerRings   one per worker.
     * @param fragmentLimit most messages read per duty cycle.
     * @param metrics       counters.
     * @param errorCount    incremented for untranslatable messages.
     */
    DispatcherAgent(
        final Subscription subscription, final ItchTranslator translator, final RingBuffer[] workerRings,
        final int fragmentLimit, final FanoutMetrics metrics, final AtomicLong errorCount)
    {
        this.subscription = subscription;
        this.translator = translator;
        this.workerRings = workerRings;
        this.dropping = new boolean[workerRings.length];
        this.fragmentLimit = fragmentLimit;
        this.metrics = metrics;
        this.errorCount = errorCount;
    }

    @Override
    public int doWork()
    {
        return subscription.poll(this, fragmentLimit);
    }

    @Override
    public String roleName()
    {
        return "fanout-dispatcher";
    }

    /** Translates one market-data message and hands it to every worker. */
    @Override
    public void onFragment(final DirectBuffer buffer, final int offset, final int length, final Header header)
    {
        metrics.onMessageIn();
        record.clear().position(ITCH_OFFSET);
        final int itchLength = translator.translate(buffer, offset, length, record);
        if (itchLength > 0)
        {
            recordBuffer.putLong(TIMESTAMP_OFFSET, translator.timestampNs());
            for (int i = 0; i < workerRings.length; i++)
            {
                dispatch(i, ITCH_OFFSET + itchLength);
            }
        }
        else if (ItchTranslator.NOT_TRANSLATED == itchLength)
        {
            errorCount.incrementAndGet();
        }
    }

    private void dispatch(final int workerId, final int recordLength)
    {
        final RingBuffer ring = workerRings[workerId];
        if (dropping[workerId] && ring.write(DATA_LOST_MSG_TYPE_ID, recordBuffer, 0, 1))
        {
            dropping[workerId] = false;
        }
        if (!dropping[workerId] && ring.write(ITCH_MSG_TYPE_ID, recordBuffer, 0, recordLength))
        {
            return;
        }
        metrics.onDrop();
        if (!dropping[workerId])
        {
            dropping[workerId] = true;
            System.err.println("[fanout-dispatcher] worker " + workerId + " ring buffer full: dropping messages");
        }
    }
}
