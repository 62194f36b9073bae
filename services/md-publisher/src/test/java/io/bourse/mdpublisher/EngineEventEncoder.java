package io.bourse.mdpublisher;

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
import io.bourse.sbe.engine.OrderAddedEncoder;
import io.bourse.sbe.engine.OrderCanceledEncoder;
import io.bourse.sbe.engine.OrderExecutedEncoder;
import io.bourse.sbe.engine.OrderPriorityUpdatedEncoder;
import io.bourse.sbe.engine.OrderReplacedEncoder;
import io.bourse.sbe.engine.RunStartedEncoder;
import io.bourse.sbe.engine.Side;
import io.bourse.sbe.engine.TradeBrokenEncoder;
import io.bourse.sbe.engine.TradingState;
import io.bourse.sbe.engine.TradingStateChangedEncoder;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteBuffer;

/**
 * Encodes SBE engine events (schemas/engine-schema.xml), as a matching-engine shard does, into one buffer, to feed a
 * real md-publisher in the tests of the md-publisher and of the feeds downstream of it; each method returns the
 * encoded length. Every event takes the next shard sequence number. Prices in 1/10000 $, quantities in shares,
 * timestamps in ns since midnight; client order ids are fixed (maker 1, taker 2). Closing-cross events carry OUCH 4.2
 * Cross Type 'C', every other event 'N'.
 */
public final class EngineEventEncoder
{
    private static final int SYMBOL_OFFSET = MessageHeaderEncoder.ENCODED_LENGTH;
    private static final byte CROSS_TYPE_CONTINUOUS = 'N';
    private static final byte CROSS_TYPE_CLOSING = 'C';

    /** Holds the last event encoded, header first at offset 0. */
    public final UnsafeBuffer buffer = new UnsafeBuffer(ByteBuffer.allocateDirect(256));
    private final MessageHeaderEncoder header = new MessageHeaderEncoder();
    private long sequenceNumber;

    /** @return length of the encoded OrderAccepted of a day order for 300 shares, displayed. */
    public int orderAccepted(
        final long timestampNs, final String symbol, final long orderId, final Side side, final long price)
    {
        final OrderAcceptedEncoder encoder = new OrderAcceptedEncoder().wrapAndApplyHeader(buffer, 0, header)
            .sequenceNumber(++sequenceNumber)
            .timestampNs(timestampNs)
            .clientOrderId(1)
            .orderId(orderId)
            .side(side)
            .quantity(300)
            .price(price)
            .timeInForce(99_998)
            .display((byte)'Y');
        Symbols.unpack(Symbols.pack(symbol), buffer, SYMBOL_OFFSET + OrderAcceptedEncoder.symbolEncodingOffset());
        return MessageHeaderEncoder.ENCODED_LENGTH + encoder.encodedLength();
    }

    /**
     * @return length of the encoded OrderAdded of an order without a firm; display is an OUCH 4.2 Display code (Y, A,
     *         P shown; N, M not).
     */
    public int orderAdded(
        final long timestampNs, final String symbol, final long orderId, final Side side, final long quantity,
        final long price, final char display)
    {
        return orderAdded(timestampNs, symbol, orderId, side, quantity, price, display, "    ");
    }

    /**
     * @param firm the order's firm, 4 characters, all spaces for none.
     * @return length of the encoded OrderAdded.
     */
    public int orderAdded(
        final long timestampNs, final String symbol, final long orderId, final Side side, final long quantity,
        final long price, final char display, final String firm)
    {
        final OrderAddedEncoder encoder = new OrderAddedEncoder().wrapAndApplyHeader(buffer, 0, header)
            .sequenceNumber(++sequenceNumber)
            .timestampNs(timestampNs)
            .orderId(orderId)
            .side(side)
            .quantity(quantity)
            .price(price)
            .display((byte)display)
            .firm(firm);
        Symbols.unpack(Symbols.pack(symbol), buffer, SYMBOL_OFFSET + OrderAddedEncoder.symbolEncodingOffset());
        return MessageHeaderEncoder.ENCODED_LENGTH + encoder.encodedLength();
    }

    /** @return length of the encoded OrderExecuted of a continuous-market execution. */
    public int orderExecuted(
        final long timestampNs, final String symbol, final long matchNumber, final long quantity, final long price,
        final Side takerSide, final long takerOrderId, final long makerOrderId, final long makerLeaves)
    {
        return orderExecuted(
            timestampNs, symbol, matchNumber, quantity, price, takerSide, takerOrderId, makerOrderId, makerLeaves,
            CROSS_TYPE_CONTINUOUS);
    }

    /**
     * @return length of the encoded OrderExecuted of a closing-cross execution at the cross price; the taker, always a
     * closing-cross order, buys when the maker sells and the other way round.
     */
    public int crossExecuted(
        final long timestampNs, final String symbol, final long matchNumber, final long quantity, final long price,
        final Side makerSide, final long takerOrderId, final long makerOrderId, final long makerLeaves)
    {
        return orderExecuted(
            timestampNs, symbol, matchNumber, quantity, price, makerSide == Side.BUY ? Side.SELL : Side.BUY,
            takerOrderId, makerOrderId, makerLeaves, CROSS_TYPE_CLOSING);
    }

    /** @return length of the encoded CrossCompleted of a closing cross. */
    public int crossCompleted(
        final long timestampNs, final String symbol, final long price, final long shares, final long matchNumber)
    {
        final CrossCompletedEncoder encoder = new CrossCompletedEncoder().wrapAndApplyHeader(buffer, 0, header)
            .sequenceNumber(++sequenceNumber)
            .timestampNs(timestampNs)
            .price(price)
            .shares(shares)
            .matchNumber(matchNumber)
            .crossType(CROSS_TYPE_CLOSING);
        Symbols.unpack(Symbols.pack(symbol), buffer, SYMBOL_OFFSET + CrossCompletedEncoder.symbolEncodingOffset());
        return MessageHeaderEncoder.ENCODED_LENGTH + encoder.encodedLength();
    }

    /** @return length of the encoded AdminResponse: no sequence number, as the engine sends it. */
    public int adminResponse(
        final long timestampNs, final int commandTemplateId, final String symbol, final AdminResponseCode code)
    {
        final AdminResponseEncoder encoder = new AdminResponseEncoder()
            .wrapAndApplyHeader(buffer, 0, header)
            .timestampNs(timestampNs)
            .commandTemplateId(commandTemplateId)
            .code(code);
        Symbols.unpack(Symbols.pack(symbol), buffer, SYMBOL_OFFSET + AdminResponseEncoder.symbolEncodingOffset());
        return MessageHeaderEncoder.ENCODED_LENGTH + encoder.encodedLength();
    }

    /** @return length of the encoded CommandStreamJoined: no sequence number, as the engine sends it. */
    public int commandStreamJoined(final int shardId, final int commandSessionId, final long joinPosition)
    {
        final CommandStreamJoinedEncoder encoder = new CommandStreamJoinedEncoder()
            .wrapAndApplyHeader(buffer, 0, header)
            .shard((short)shardId)
            .commandSessionId(commandSessionId)
            .joinPosition(joinPosition);
        return MessageHeaderEncoder.ENCODED_LENGTH + encoder.encodedLength();
    }

    /** @return length of the encoded TradingStateChanged. */
    public int tradingStateChanged(final long timestampNs, final String symbol, final TradingState state)
    {
        final TradingStateChangedEncoder encoder = new TradingStateChangedEncoder()
            .wrapAndApplyHeader(buffer, 0, header)
            .sequenceNumber(++sequenceNumber)
            .timestampNs(timestampNs)
            .state(state);
        Symbols.unpack(Symbols.pack(symbol), buffer, SYMBOL_OFFSET + TradingStateChangedEncoder.symbolEncodingOffset());
        return MessageHeaderEncoder.ENCODED_LENGTH + encoder.encodedLength();
    }

    /**
     * @param shard         the shard that started.
     * @param recoveredRuns earlier runs of the shard the new run recovered; 0: it holds none of their orders.
     * @param numberBase    the run numbers its orders and executions from there up.
     * @return length of the encoded RunStarted.
     */
    public int runStarted(final long timestampNs, final int shard, final long recoveredRuns, final long numberBase)
    {
        final RunStartedEncoder encoder = new RunStartedEncoder()
            .wrapAndApplyHeader(buffer, 0, header)
            .sequenceNumber(++sequenceNumber)
            .timestampNs(timestampNs)
            .shard((short)shard)
            .recoveredRuns(recoveredRuns)
            .numberBase(numberBase);
        return MessageHeaderEncoder.ENCODED_LENGTH + encoder.encodedLength();
    }

    /** @return length of the encoded OrderPriorityUpdated of a midpoint peg (M, client order id 1). */
    public int orderPriorityUpdated(
        final long timestampNs, final String symbol, final long orderId, final Side side, final long price)
    {
        final OrderPriorityUpdatedEncoder encoder = new OrderPriorityUpdatedEncoder()
            .wrapAndApplyHeader(buffer, 0, header)
            .sequenceNumber(++sequenceNumber)
            .timestampNs(timestampNs)
            .clientOrderId(1)
            .orderId(orderId)
            .side(side)
            .price(price)
            .display((byte)'M');
        Symbols.unpack(
            Symbols.pack(symbol), buffer, SYMBOL_OFFSET + OrderPriorityUpdatedEncoder.symbolEncodingOffset());
        return MessageHeaderEncoder.ENCODED_LENGTH + encoder.encodedLength();
    }

    /** @return length of the encoded CancelPending of a closing-cross order (client order id 1). */
    public int cancelPending(final long timestampNs, final String symbol, final long orderId)
    {
        final CancelPendingEncoder encoder = new CancelPendingEncoder().wrapAndApplyHeader(buffer, 0, header)
            .sequenceNumber(++sequenceNumber)
            .timestampNs(timestampNs)
            .clientOrderId(1)
            .orderId(orderId);
        Symbols.unpack(Symbols.pack(symbol), buffer, SYMBOL_OFFSET + CancelPendingEncoder.symbolEncodingOffset());
        return MessageHeaderEncoder.ENCODED_LENGTH + encoder.encodedLength();
    }

    /** @return length of the encoded CancelRejected of a closing-cross order (client order id 1). */
    public int cancelRejected(final long timestampNs, final String symbol, final long orderId)
    {
        final CancelRejectedEncoder encoder = new CancelRejectedEncoder().wrapAndApplyHeader(buffer, 0, header)
            .sequenceNumber(++sequenceNumber)
            .timestampNs(timestampNs)
            .clientOrderId(1)
            .orderId(orderId);
        Symbols.unpack(Symbols.pack(symbol), buffer, SYMBOL_OFFSET + CancelRejectedEncoder.symbolEncodingOffset());
        return MessageHeaderEncoder.ENCODED_LENGTH + encoder.encodedLength();
    }

    private int orderExecuted(
        final long timestampNs, final String symbol, final long matchNumber, final long quantity, final long price,
        final Side takerSide, final long takerOrderId, final long makerOrderId, final long makerLeaves,
        final byte crossType)
    {
        final OrderExecutedEncoder encoder = new OrderExecutedEncoder().wrapAndApplyHeader(buffer, 0, header)
            .sequenceNumber(++sequenceNumber)
            .timestampNs(timestampNs)
            .matchNumber(matchNumber)
            .quantity(quantity)
            .price(price)
            .takerClientOrderId(2)
            .takerOrderId(takerOrderId)
            .takerSide(takerSide)
            .makerClientOrderId(1)
            .makerOrderId(makerOrderId)
            .makerLeavesQuantity(makerLeaves)
            .takerLeavesQuantity(0)
            .crossType(crossType);
        Symbols.unpack(Symbols.pack(symbol), buffer, SYMBOL_OFFSET + OrderExecutedEncoder.symbolEncodingOffset());
        return MessageHeaderEncoder.ENCODED_LENGTH + encoder.encodedLength();
    }

    /** @return length of the encoded OrderCanceled of a resting order, reason U (user). */
    public int orderCanceled(
        final long timestampNs, final String symbol, final long orderId, final long canceledQuantity,
        final long leavesQuantity)
    {
        final OrderCanceledEncoder encoder = new OrderCanceledEncoder().wrapAndApplyHeader(buffer, 0, header)
            .sequenceNumber(++sequenceNumber)
            .timestampNs(timestampNs)
            .clientOrderId(1)
            .orderId(orderId)
            .canceledQuantity(canceledQuantity)
            .leavesQuantity(leavesQuantity)
            .reason((byte)'U')
            .wasResting((short)1);
        Symbols.unpack(Symbols.pack(symbol), buffer, SYMBOL_OFFSET + OrderCanceledEncoder.symbolEncodingOffset());
        return MessageHeaderEncoder.ENCODED_LENGTH + encoder.encodedLength();
    }

    /** @return length of the encoded OrderReplaced of a displayed (Y) continuous-market order. */
    public int orderReplaced(
        final long timestampNs, final String symbol, final long orderId, final long newOrderId, final Side side,
        final long quantity, final long price, final BookUpdate bookUpdate)
    {
        return orderReplaced(
            timestampNs, symbol, orderId, newOrderId, side, quantity, price, bookUpdate, CROSS_TYPE_CONTINUOUS);
    }

    /** @return length of the encoded OrderReplaced of a closing-cross order (Y) that lost priority. */
    public int crossOrderReplaced(
        final long timestampNs, final String symbol, final long orderId, final long newOrderId, final Side side,
        final long quantity, final long price)
    {
        return orderReplaced(
            timestampNs, symbol, orderId, newOrderId, side, quantity, price, BookUpdate.REPLACED, CROSS_TYPE_CLOSING);
    }

    private int orderReplaced(
        final long timestampNs, final String symbol, final long orderId, final long newOrderId, final Side side,
        final long quantity, final long price, final BookUpdate bookUpdate, final byte crossType)
    {
        final OrderReplacedEncoder encoder = new OrderReplacedEncoder().wrapAndApplyHeader(buffer, 0, header)
            .sequenceNumber(++sequenceNumber)
            .timestampNs(timestampNs)
            .clientOrderId(1)
            .newClientOrderId(3)
            .orderId(orderId)
            .newOrderId(newOrderId)
            .side(side)
            .quantity(quantity)
            .price(price)
            .bookUpdate(bookUpdate)
            .display((byte)'Y')
            .crossType(crossType);
        Symbols.unpack(Symbols.pack(symbol), buffer, SYMBOL_OFFSET + OrderReplacedEncoder.symbolEncodingOffset());
        return MessageHeaderEncoder.ENCODED_LENGTH + encoder.encodedLength();
    }

    /** @return length of the encoded TradeBroken of a 100-share execution at 150.01 by the operator (reason S). */
    public int tradeBroken(final long timestampNs, final String symbol, final long matchNumber)
    {
        final TradeBrokenEncoder encoder = new TradeBrokenEncoder().wrapAndApplyHeader(buffer, 0, header)
            .sequenceNumber(++sequenceNumber)
            .timestampNs(timestampNs)
            .matchNumber(matchNumber)
            .quantity(100)
            .price(1_500_100)
            .takerClientOrderId(2)
            .makerClientOrderId(1)
            .takerOrderId(49)
            .makerOrderId(17)
            .reason((byte)'S');
        Symbols.unpack(Symbols.pack(symbol), buffer, SYMBOL_OFFSET + TradeBrokenEncoder.symbolEncodingOffset());
        return MessageHeaderEncoder.ENCODED_LENGTH + encoder.encodedLength();
    }
}
