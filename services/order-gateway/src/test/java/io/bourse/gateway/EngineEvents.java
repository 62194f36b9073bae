package io.bourse.gateway;

import io.aeron.logbuffer.FragmentHandler;
import io.aeron.logbuffer.Header;
import io.aeron.protocol.DataHeaderFlyweight;
import io.bourse.common.config.Symbols;
import io.bourse.sbe.engine.AdminResponseCode;
import io.bourse.sbe.engine.AdminResponseEncoder;
import io.bourse.sbe.engine.BookUpdate;
import io.bourse.sbe.engine.CancelPendingEncoder;
import io.bourse.sbe.engine.CancelRejectedEncoder;
import io.bourse.sbe.engine.CommandStreamJoinedEncoder;
import io.bourse.sbe.engine.CrossCompletedEncoder;
import io.bourse.sbe.engine.MessageHeaderEncoder;
import io.bourse.sbe.engine.OrderAcceptedEncoder;
import io.bourse.sbe.engine.OrderCanceledEncoder;
import io.bourse.sbe.engine.OrderExecutedEncoder;
import io.bourse.sbe.engine.OrderRejectedEncoder;
import io.bourse.sbe.engine.OrderReplacedEncoder;
import io.bourse.sbe.engine.RunStartedEncoder;
import io.bourse.sbe.engine.TradeBrokenEncoder;
import io.bourse.sbe.engine.Side;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * Encodes engine events as the engine does (SBE, engine-schema.xml, shard sequence numbers from 1) and hands them to a
 * fragment handler with the Aeron frame header of one engine event stream (session id 1), as a run of the engine
 * publishes them.
 */
final class EngineEvents
{
    /** The Aeron session id of the first engine run's event stream. */
    static final int FIRST_ENGINE_STREAM = 1;

    private static final int NOT_SET = -1;

    private final UnsafeBuffer buffer = new UnsafeBuffer(new byte[256]);
    private final MessageHeaderEncoder header = new MessageHeaderEncoder();
    private final FragmentHandler handler;
    private final Header frameHeader;
    private long sequenceNumber;
    private int lastLength;
    private int nextVersion;
    private int nextBlockLength = NOT_SET;
    private int nextLength = NOT_SET;

    /**
     * @param orderEntry the order logic the events go to.
     * @param metrics    counts unknown messages.
     * @return an adapter handing the events to the order logic, as the gateway's first trading day has it.
     */
    static EngineEventAdapter adapter(final OrderEntry orderEntry, final GatewayMetrics metrics)
    {
        final EngineEventAdapter adapter = new EngineEventAdapter(metrics);
        adapter.orderEntry(orderEntry);
        return adapter;
    }

    EngineEvents(final FragmentHandler handler)
    {
        this.handler = handler;
        this.frameHeader = frameHeader(FIRST_ENGINE_STREAM);
    }

    /**
     * Events of a new run of the engine: a new event stream (another Aeron session id), sequence numbers from 1 again.
     *
     * @param handler      where the events go.
     * @param engineStream the Aeron session id of the new run's stream.
     */
    EngineEvents(final FragmentHandler handler, final int engineStream)
    {
        this.handler = handler;
        this.frameHeader = frameHeader(engineStream);
    }

    private static Header frameHeader(final int engineStream)
    {
        final UnsafeBuffer frame = new UnsafeBuffer(new byte[DataHeaderFlyweight.HEADER_LENGTH]);
        frame.putInt(DataHeaderFlyweight.SESSION_ID_FIELD_OFFSET, engineStream);
        return new Header(0, 16).buffer(frame).offset(0);
    }

    /**
     * Events for another handler that go on with the sequence numbers of earlier ones, as one engine's stream goes on
     * when a gateway is restarted.
     */
    EngineEvents(final FragmentHandler handler, final EngineEvents earlier)
    {
        this.handler = handler;
        this.frameHeader = earlier.frameHeader;
        this.sequenceNumber = earlier.sequenceNumber;
    }

    /**
     * Hands the last event encoded, if any, to a handler again, as a stream heard again after a restart does.
     *
     * @return true when there was one.
     */
    boolean redeliverLast(final FragmentHandler to)
    {
        if (0 == lastLength)
        {
            return false;
        }
        to.onFragment(buffer, 0, lastLength, frameHeader);
        return true;
    }

    UnsafeBuffer buffer()
    {
        return buffer;
    }

    int accepted(
        final long timestampNs, final long clientOrderId, final long orderId, final String symbol, final Side side,
        final long quantity, final long price, final long timeInForce)
    {
        return accepted(timestampNs, clientOrderId, orderId, symbol, side, quantity, price, timeInForce, 'Y');
    }

    int accepted(
        final long timestampNs, final long clientOrderId, final long orderId, final String symbol, final Side side,
        final long quantity, final long price, final long timeInForce, final char display)
    {
        final OrderAcceptedEncoder encoder = new OrderAcceptedEncoder().wrapAndApplyHeader(buffer, 0, header)
            .sequenceNumber(++sequenceNumber)
            .timestampNs(timestampNs)
            .clientOrderId(clientOrderId)
            .orderId(orderId);
        Symbols.unpack(Symbols.pack(symbol), buffer, encoder.offset() + OrderAcceptedEncoder.symbolEncodingOffset());
        encoder.side(side).quantity(quantity).price(price).timeInForce(timeInForce).display((byte)display);
        return deliver(encoder.encodedLength());
    }

    /**
     * A run of the shard started, having recovered that many earlier runs, with that number base: it numbers its orders
     * from {@code (numberBase + 1) x 16} up.
     */
    int runStarted(final long timestampNs, final int shardId, final long recoveredRuns, final long numberBase)
    {
        return deliver(encodeRunStarted(timestampNs, shardId, recoveredRuns, numberBase));
    }

    /**
     * Has the next event go out as one of that schema version with that block length, its fragment holding the
     * header and that block: an older shard's event, or a malformed one when the block is shorter than the fields of
     * the version, whose bytes after the block the gateway must not read.
     *
     * @return this, for the event to encode.
     */
    EngineEvents nextAs(final int version, final int blockLength)
    {
        nextVersion = version;
        nextBlockLength = blockLength;
        return this;
    }

    /**
     * Has the next event's fragment cut to that length, shorter than its header and block.
     *
     * @return this, for the event to encode.
     */
    EngineEvents nextCutTo(final int length)
    {
        nextLength = length;
        return this;
    }

    private int encodeRunStarted(
        final long timestampNs, final int shardId, final long recoveredRuns, final long numberBase)
    {
        return new RunStartedEncoder().wrapAndApplyHeader(buffer, 0, header)
            .sequenceNumber(++sequenceNumber)
            .timestampNs(timestampNs)
            .shard((short)shardId)
            .recoveredRuns(recoveredRuns)
            .numberBase(numberBase)
            .encodedLength();
    }

    int rejected(final long timestampNs, final long clientOrderId, final String symbol, final byte reason)
    {
        final OrderRejectedEncoder encoder = new OrderRejectedEncoder().wrapAndApplyHeader(buffer, 0, header)
            .sequenceNumber(++sequenceNumber)
            .timestampNs(timestampNs)
            .clientOrderId(clientOrderId);
        Symbols.unpack(Symbols.pack(symbol), buffer, encoder.offset() + OrderRejectedEncoder.symbolEncodingOffset());
        encoder.reason(reason);
        return deliver(encoder.encodedLength());
    }

    int executed(
        final long timestampNs, final long matchNumber, final String symbol, final long quantity, final long price,
        final long takerClientOrderId, final long takerOrderId, final Side takerSide, final long makerClientOrderId,
        final long makerOrderId, final long makerLeaves, final long takerLeaves)
    {
        return executed(timestampNs, matchNumber, symbol, quantity, price, takerClientOrderId, takerOrderId, takerSide,
            makerClientOrderId, makerOrderId, makerLeaves, takerLeaves, 'N');
    }

    /** An execution in the continuous market (crossType N) or the closing cross (C). */
    int executed(
        final long timestampNs, final long matchNumber, final String symbol, final long quantity, final long price,
        final long takerClientOrderId, final long takerOrderId, final Side takerSide, final long makerClientOrderId,
        final long makerOrderId, final long makerLeaves, final long takerLeaves, final char crossType)
    {
        final OrderExecutedEncoder encoder = new OrderExecutedEncoder().wrapAndApplyHeader(buffer, 0, header)
            .sequenceNumber(++sequenceNumber)
            .timestampNs(timestampNs)
            .matchNumber(matchNumber);
        Symbols.unpack(Symbols.pack(symbol), buffer, encoder.offset() + OrderExecutedEncoder.symbolEncodingOffset());
        encoder.quantity(quantity)
            .price(price)
            .takerClientOrderId(takerClientOrderId)
            .takerOrderId(takerOrderId)
            .takerSide(takerSide)
            .makerClientOrderId(makerClientOrderId)
            .makerOrderId(makerOrderId)
            .makerLeavesQuantity(makerLeaves)
            .takerLeavesQuantity(takerLeaves)
            .crossType((byte)crossType);
        return deliver(encoder.encodedLength());
    }

    int canceled(
        final long timestampNs, final long clientOrderId, final long orderId, final String symbol,
        final long canceledQuantity, final long leavesQuantity, final byte reason)
    {
        return canceled(timestampNs, clientOrderId, orderId, symbol, canceledQuantity, leavesQuantity, reason, true);
    }

    int canceled(
        final long timestampNs, final long clientOrderId, final long orderId, final String symbol,
        final long canceledQuantity, final long leavesQuantity, final byte reason, final boolean wasResting)
    {
        final OrderCanceledEncoder encoder = new OrderCanceledEncoder().wrapAndApplyHeader(buffer, 0, header)
            .sequenceNumber(++sequenceNumber)
            .timestampNs(timestampNs)
            .clientOrderId(clientOrderId)
            .orderId(orderId);
        Symbols.unpack(Symbols.pack(symbol), buffer, encoder.offset() + OrderCanceledEncoder.symbolEncodingOffset());
        encoder.canceledQuantity(canceledQuantity).leavesQuantity(leavesQuantity).reason(reason)
            .wasResting((short)(wasResting ? 1 : 0));
        return deliver(encoder.encodedLength());
    }

    int replaced(
        final long timestampNs, final long clientOrderId, final long newClientOrderId, final long orderId,
        final long newOrderId, final String symbol, final Side side, final long quantity, final long price)
    {
        final OrderReplacedEncoder encoder = new OrderReplacedEncoder().wrapAndApplyHeader(buffer, 0, header)
            .sequenceNumber(++sequenceNumber)
            .timestampNs(timestampNs)
            .clientOrderId(clientOrderId)
            .newClientOrderId(newClientOrderId)
            .orderId(orderId)
            .newOrderId(newOrderId);
        Symbols.unpack(Symbols.pack(symbol), buffer, encoder.offset() + OrderReplacedEncoder.symbolEncodingOffset());
        encoder.side(side).quantity(quantity).price(price).bookUpdate(BookUpdate.REPLACED).display((byte)'Y');
        return deliver(encoder.encodedLength());
    }

    int tradeBroken(
        final long timestampNs, final long matchNumber, final String symbol, final long quantity, final long price,
        final long takerClientOrderId, final long takerOrderId, final long makerClientOrderId,
        final long makerOrderId, final byte reason)
    {
        final TradeBrokenEncoder encoder = new TradeBrokenEncoder().wrapAndApplyHeader(buffer, 0, header)
            .sequenceNumber(++sequenceNumber)
            .timestampNs(timestampNs)
            .matchNumber(matchNumber);
        Symbols.unpack(Symbols.pack(symbol), buffer, encoder.offset() + TradeBrokenEncoder.symbolEncodingOffset());
        encoder.quantity(quantity)
            .price(price)
            .takerClientOrderId(takerClientOrderId)
            .makerClientOrderId(makerClientOrderId)
            .takerOrderId(takerOrderId)
            .makerOrderId(makerOrderId)
            .reason(reason);
        return deliver(encoder.encodedLength());
    }

    /** An AdminResponse: no sequence number, as the engine sends it. */
    int adminResponse(
        final long timestampNs, final int commandTemplateId, final String symbol, final AdminResponseCode code)
    {
        final AdminResponseEncoder encoder = new AdminResponseEncoder().wrapAndApplyHeader(buffer, 0, header)
            .timestampNs(timestampNs)
            .commandTemplateId(commandTemplateId);
        Symbols.unpack(Symbols.pack(symbol), buffer, encoder.offset() + AdminResponseEncoder.symbolEncodingOffset());
        encoder.code(code);
        return deliver(encoder.encodedLength());
    }

    /** A CommandStreamJoined: no sequence number, as the engine sends it. */
    int commandStreamJoined(final int shardId, final int commandSessionId, final long joinPosition)
    {
        final CommandStreamJoinedEncoder encoder = new CommandStreamJoinedEncoder()
            .wrapAndApplyHeader(buffer, 0, header)
            .shard((short)shardId)
            .commandSessionId(commandSessionId)
            .joinPosition(joinPosition);
        return deliver(encoder.encodedLength());
    }

    int cancelPending(final long timestampNs, final long clientOrderId, final long orderId, final String symbol)
    {
        final CancelPendingEncoder encoder = new CancelPendingEncoder().wrapAndApplyHeader(buffer, 0, header)
            .sequenceNumber(++sequenceNumber)
            .timestampNs(timestampNs)
            .clientOrderId(clientOrderId)
            .orderId(orderId);
        Symbols.unpack(Symbols.pack(symbol), buffer, encoder.offset() + CancelPendingEncoder.symbolEncodingOffset());
        return deliver(encoder.encodedLength());
    }

    int cancelRejected(final long timestampNs, final long clientOrderId, final long orderId, final String symbol)
    {
        final CancelRejectedEncoder encoder = new CancelRejectedEncoder().wrapAndApplyHeader(buffer, 0, header)
            .sequenceNumber(++sequenceNumber)
            .timestampNs(timestampNs)
            .clientOrderId(clientOrderId)
            .orderId(orderId);
        Symbols.unpack(Symbols.pack(symbol), buffer, encoder.offset() + CancelRejectedEncoder.symbolEncodingOffset());
        return deliver(encoder.encodedLength());
    }

    int crossCompleted(
        final long timestampNs, final String symbol, final long price, final long shares, final long matchNumber)
    {
        final CrossCompletedEncoder encoder = new CrossCompletedEncoder().wrapAndApplyHeader(buffer, 0, header)
            .sequenceNumber(++sequenceNumber)
            .timestampNs(timestampNs);
        Symbols.unpack(Symbols.pack(symbol), buffer, encoder.offset() + CrossCompletedEncoder.symbolEncodingOffset());
        encoder.price(price).shares(shares).matchNumber(matchNumber).crossType((byte)'C');
        return deliver(encoder.encodedLength());
    }

    private int deliver(final int bodyLength)
    {
        int length = MessageHeaderEncoder.ENCODED_LENGTH + bodyLength;
        if (NOT_SET != nextBlockLength)
        {
            header.wrap(buffer, 0).version(nextVersion).blockLength(nextBlockLength);
            length = MessageHeaderEncoder.ENCODED_LENGTH + nextBlockLength;
            nextBlockLength = NOT_SET;
        }
        if (NOT_SET != nextLength)
        {
            length = nextLength;
            nextLength = NOT_SET;
        }
        lastLength = length;
        if (null != handler)
        {
            handler.onFragment(buffer, 0, length, frameHeader);
        }
        return length;
    }
}
