package io.bourse.bench;

import io.aeron.logbuffer.FragmentHandler;
import io.aeron.logbuffer.Header;
import io.bourse.common.config.Symbols;
import io.bourse.engine.match.BookUpdate;
import io.bourse.engine.match.Display;
import io.bourse.engine.match.Side;
import io.bourse.sbe.engine.AdminResponseDecoder;
import io.bourse.sbe.engine.CommandStreamJoinedDecoder;
import io.bourse.sbe.engine.MessageHeaderDecoder;
import io.bourse.sbe.engine.OrderAcceptedDecoder;
import io.bourse.sbe.engine.OrderAddedDecoder;
import io.bourse.sbe.engine.OrderCanceledDecoder;
import io.bourse.sbe.engine.OrderExecutedDecoder;
import io.bourse.sbe.engine.OrderRejectedDecoder;
import io.bourse.sbe.engine.OrderReplacedDecoder;
import io.bourse.sbe.engine.RunStartedDecoder;
import io.bourse.sbe.engine.SequencedCommandDecoder;
import org.HdrHistogram.Histogram;
import org.agrona.DirectBuffer;

import java.nio.ByteOrder;

/**
 * The benchmark's subscriber: decodes the engine's SBE events (engine-schema.xml) back into the matching core's
 * {@link io.bourse.engine.match.MatchingEngineListener} callbacks for an {@link EventChecksum}, to be compared with the
 * reference core's ({@link SbeCommandStream#checksum()}); checks that their sequence numbers run on without a gap,
 * counts them (the run's RunStarted, before any command's, only in that sequence) and the trades, and tells each
 * command's first event apart by counting the events
 * {@link SbeCommandStream#expectedEvents(int)} says the previous commands make. For a first event it records
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
    private final RunStartedDecoder runStarted = new RunStartedDecoder();
    private final EventChecksum checksum = new EventChecksum();
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
        switch (header.templateId())
        {
            case OrderAcceptedDecoder.TEMPLATE_ID -> onAccepted(buffer, bodyOffset, blockLength, version);
            case OrderRejectedDecoder.TEMPLATE_ID -> onRejected(buffer, bodyOffset, blockLength, version);
            case OrderAddedDecoder.TEMPLATE_ID -> onAdded(buffer, bodyOffset, blockLength, version);
            case OrderExecutedDecoder.TEMPLATE_ID -> onExecuted(buffer, bodyOffset, blockLength, version);
            case OrderCanceledDecoder.TEMPLATE_ID -> onCanceled(buffer, bodyOffset, blockLength, version);
            case OrderReplacedDecoder.TEMPLATE_ID -> onReplaced(buffer, bodyOffset, blockLength, version);
            case RunStartedDecoder.TEMPLATE_ID -> onRunStarted(buffer, bodyOffset, blockLength, version);
            case SequencedCommandDecoder.TEMPLATE_ID, AdminResponseDecoder.TEMPLATE_ID,
                CommandStreamJoinedDecoder.TEMPLATE_ID ->
            {
                // A shard's input log (event archive on), its answer to an admin command, or where a run joined a
                // command publication: no event.
            }
            default -> unexpected++;
        }
    }

    private void onAccepted(final DirectBuffer buffer, final int offset, final int blockLength, final int version)
    {
        final OrderAcceptedDecoder accepted = this.accepted.wrap(buffer, offset, blockLength, version);
        onEvent(accepted.sequenceNumber(), accepted.timestampNs());
        checksum.onOrderAccepted(accepted.clientOrderId(), accepted.orderId(),
            Symbols.pack(buffer, offset + OrderAcceptedDecoder.symbolEncodingOffset()), side(accepted.side()),
            accepted.quantity(), accepted.price(), (int)accepted.timeInForce(), Display.fromCode(accepted.display()));
    }

    private void onRejected(final DirectBuffer buffer, final int offset, final int blockLength, final int version)
    {
        final OrderRejectedDecoder rejected = this.rejected.wrap(buffer, offset, blockLength, version);
        onEvent(rejected.sequenceNumber(), rejected.timestampNs());
        checksum.onOrderRejected(rejected.clientOrderId(),
            Symbols.pack(buffer, offset + OrderRejectedDecoder.symbolEncodingOffset()), rejected.reason());
    }

    private void onAdded(final DirectBuffer buffer, final int offset, final int blockLength, final int version)
    {
        final OrderAddedDecoder added = this.added.wrap(buffer, offset, blockLength, version);
        onEvent(added.sequenceNumber(), added.timestampNs());
        checksum.onOrderAdded(added.orderId(), Symbols.pack(buffer, offset + OrderAddedDecoder.symbolEncodingOffset()),
            side(added.side()), added.quantity(), added.price(), Display.fromCode(added.display()),
            buffer.getInt(offset + OrderAddedDecoder.firmEncodingOffset(), ByteOrder.BIG_ENDIAN));
    }

    private void onExecuted(final DirectBuffer buffer, final int offset, final int blockLength, final int version)
    {
        final OrderExecutedDecoder executed = this.executed.wrap(buffer, offset, blockLength, version);
        onEvent(executed.sequenceNumber(), executed.timestampNs());
        trades++;
        checksum.onOrderExecuted(executed.matchNumber(),
            Symbols.pack(buffer, offset + OrderExecutedDecoder.symbolEncodingOffset()), executed.quantity(),
            executed.price(), executed.takerClientOrderId(), executed.takerOrderId(), side(executed.takerSide()),
            executed.makerClientOrderId(), executed.makerOrderId(), executed.makerLeavesQuantity(),
            executed.takerLeavesQuantity());
    }

    private void onCanceled(final DirectBuffer buffer, final int offset, final int blockLength, final int version)
    {
        final OrderCanceledDecoder canceled = this.canceled.wrap(buffer, offset, blockLength, version);
        onEvent(canceled.sequenceNumber(), canceled.timestampNs());
        checksum.onOrderCanceled(canceled.clientOrderId(), canceled.orderId(),
            Symbols.pack(buffer, offset + OrderCanceledDecoder.symbolEncodingOffset()), canceled.canceledQuantity(),
            canceled.leavesQuantity(), canceled.reason(), 1 == canceled.wasResting());
    }

    private void onReplaced(final DirectBuffer buffer, final int offset, final int blockLength, final int version)
    {
        final OrderReplacedDecoder replaced = this.replaced.wrap(buffer, offset, blockLength, version);
        onEvent(replaced.sequenceNumber(), replaced.timestampNs());
        checksum.onOrderReplaced(replaced.clientOrderId(), replaced.newClientOrderId(), replaced.orderId(),
            replaced.newOrderId(), Symbols.pack(buffer, offset + OrderReplacedDecoder.symbolEncodingOffset()),
            side(replaced.side()), replaced.quantity(), replaced.price(), bookUpdate(replaced.bookUpdate()),
            Display.fromCode(replaced.display()));
    }

    private void onRunStarted(final DirectBuffer buffer, final int offset, final int blockLength, final int version)
    {
        runStarted.wrap(buffer, offset, blockLength, version);
        checkSequence(runStarted.sequenceNumber());
    }

    private void checkSequence(final long sequenceNumber)
    {
        if (sequenceNumber != lastSequenceNumber + 1)
        {
            sequenceGaps++;
        }
        lastSequenceNumber = sequenceNumber;
    }

    private void onEvent(final long sequenceNumber, final long timestampNs)
    {
        checkSequence(sequenceNumber);
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

    /** @return the {@link EventChecksum} of every event received, from the first. */
    long checksum()
    {
        return checksum.checksum();
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

    /** @return the core's side, or null for a value the engine never sends. */
    private static Side side(final io.bourse.sbe.engine.Side side)
    {
        return switch (side)
        {
            case BUY -> Side.BUY;
            case SELL -> Side.SELL;
            case NULL_VAL -> null;
        };
    }

    /** @return the core's book update, or null for a value the engine never sends. */
    private static BookUpdate bookUpdate(final io.bourse.sbe.engine.BookUpdate bookUpdate)
    {
        return switch (bookUpdate)
        {
            case REPLACED -> BookUpdate.REPLACED;
            case REMOVED -> BookUpdate.REMOVED;
            case NULL_VAL -> null;
        };
    }
}
