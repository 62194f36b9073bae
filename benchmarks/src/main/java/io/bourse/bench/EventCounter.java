package io.bourse.bench;

import io.aeron.logbuffer.FragmentHandler;
import io.aeron.logbuffer.Header;
import io.bourse.sbe.engine.MessageHeaderDecoder;
import io.bourse.sbe.engine.OrderAcceptedDecoder;
import io.bourse.sbe.engine.OrderAddedDecoder;
import io.bourse.sbe.engine.OrderCanceledDecoder;
import io.bourse.sbe.engine.OrderExecutedDecoder;
import io.bourse.sbe.engine.OrderRejectedDecoder;
import io.bourse.sbe.engine.OrderReplacedDecoder;
import org.HdrHistogram.Histogram;
import org.agrona.DirectBuffer;

/**
 * The benchmark's subscriber: decodes the engine's SBE events (engine-schema.xml), checks that their sequence numbers
 * run on without a gap, counts them and the trades, and tells each command's first event apart by counting the
 * events {@link SbeCommandStream#expectedEvents(int)} says the previous commands make. For a first event it records
 * {@code System.nanoTime() - timestampNs}, the command-to-first-event latency, when recording is on. Allocates
 * nothing per event.
 */
final class EventCounter implements FragmentHandler
{
    private final SbeCommandStream stream;
    private final Histogram histogram;
    private final MessageHeaderDecoder header = new MessageHeaderDecoder();
    private final OrderAcceptedDecoder accepted = new OrderAcceptedDecoder();
    private final OrderRejectedDecoder rejected = new OrderRejectedDecoder();
    private final OrderAddedDecoder added = new OrderAddedDecoder();
    private final OrderExecutedDecoder executed = new OrderExecutedDecoder();
    private final OrderCanceledDecoder canceled = new OrderCanceledDecoder();
    private final OrderReplacedDecoder replaced = new OrderReplacedDecoder();
    private boolean recording;
    private int nextCommand;
    private int eventsLeftOfCommand;
    private long lastSequenceNumber;
    private long events;
    private long trades;
    private long sequenceGaps;
    private long unexpected;

    /**
     * @param stream    the commands being sent, in order from the first.
     * @param histogram receives latencies in nanoseconds while recording.
     */
    EventCounter(final SbeCommandStream stream, final Histogram histogram)
    {
        this.stream = stream;
        this.histogram = histogram;
    }

    /**
     * @param recording true to record the latency of each command's first event from now on.
     */
    void recording(final boolean recording)
    {
        this.recording = recording;
    }

    @Override
    public void onFragment(final DirectBuffer buffer, final int offset, final int length, final Header frameHeader)
    {
        header.wrap(buffer, offset);
        if (header.schemaId() != MessageHeaderDecoder.SCHEMA_ID)
        {
            unexpected++;
            return;
        }
        final int bodyOffset = offset + MessageHeaderDecoder.ENCODED_LENGTH;
        final int blockLength = header.blockLength();
        final int version = header.version();
        final long sequenceNumber;
        final long timestampNs;
        switch (header.templateId())
        {
            case OrderAcceptedDecoder.TEMPLATE_ID ->
            {
                accepted.wrap(buffer, bodyOffset, blockLength, version);
                sequenceNumber = accepted.sequenceNumber();
                timestampNs = accepted.timestampNs();
            }
            case OrderRejectedDecoder.TEMPLATE_ID ->
            {
                rejected.wrap(buffer, bodyOffset, blockLength, version);
                sequenceNumber = rejected.sequenceNumber();
                timestampNs = rejected.timestampNs();
            }
            case OrderAddedDecoder.TEMPLATE_ID ->
            {
                added.wrap(buffer, bodyOffset, blockLength, version);
                sequenceNumber = added.sequenceNumber();
                timestampNs = added.timestampNs();
            }
            case OrderExecutedDecoder.TEMPLATE_ID ->
            {
                executed.wrap(buffer, bodyOffset, blockLength, version);
                sequenceNumber = executed.sequenceNumber();
                timestampNs = executed.timestampNs();
                trades++;
            }
            case OrderCanceledDecoder.TEMPLATE_ID ->
            {
                canceled.wrap(buffer, bodyOffset, blockLength, version);
                sequenceNumber = canceled.sequenceNumber();
                timestampNs = canceled.timestampNs();
            }
            case OrderReplacedDecoder.TEMPLATE_ID ->
            {
                replaced.wrap(buffer, bodyOffset, blockLength, version);
                sequenceNumber = replaced.sequenceNumber();
                timestampNs = replaced.timestampNs();
            }
            default ->
            {
                unexpected++;
                return;
            }
        }
        onEvent(sequenceNumber, timestampNs);
    }

    private void onEvent(final long sequenceNumber, final long timestampNs)
    {
        if (sequenceNumber != lastSequenceNumber + 1)
        {
            sequenceGaps++;
        }
        lastSequenceNumber = sequenceNumber;
        events++;
        if (0 == eventsLeftOfCommand)
        {
            if (recording)
            {
                histogram.recordValue(Math.min(Math.max(0, System.nanoTime() - timestampNs),
                    histogram.getHighestTrackableValue()));
            }
            eventsLeftOfCommand = nextCommand < stream.count() ? stream.expectedEvents(nextCommand) : 1;
            nextCommand++;
        }
        eventsLeftOfCommand--;
    }

    /** @return events received. */
    long events()
    {
        return events;
    }

    /** @return OrderExecuted events received. */
    long trades()
    {
        return trades;
    }

    /** @return events whose sequence number did not follow the previous one's (events lost). */
    long sequenceGaps()
    {
        return sequenceGaps;
    }

    /** @return messages of another schema or an unknown template. */
    long unexpected()
    {
        return unexpected;
    }
}
