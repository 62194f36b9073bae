package io.bourse.gateway;

import io.aeron.logbuffer.FragmentHandler;
import io.bourse.common.config.Symbols;
import io.bourse.sbe.engine.BookUpdate;
import io.bourse.sbe.engine.MessageHeaderEncoder;
import io.bourse.sbe.engine.OrderAcceptedEncoder;
import io.bourse.sbe.engine.OrderCanceledEncoder;
import io.bourse.sbe.engine.OrderExecutedEncoder;
import io.bourse.sbe.engine.OrderRejectedEncoder;
import io.bourse.sbe.engine.OrderReplacedEncoder;
import io.bourse.sbe.engine.TradeBrokenEncoder;
import io.bourse.sbe.engine.Side;
import org.agrona.concurrent.UnsafeBuffer;

/** Encodes engine events as the engine does (SBE, engine-schema.xml) and hands them to a fragment handler. */
final class EngineEvents
{
    private final UnsafeBuffer buffer = new UnsafeBuffer(new byte[256]);
    private final MessageHeaderEncoder header = new MessageHeaderEncoder();
    private final FragmentHandler handler;
    private long sequenceNumber;

    EngineEvents(final FragmentHandler handler)
    {
        this.handler = handler;
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
            .takerLeavesQuantity(takerLeaves);
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

    private int deliver(final int bodyLength)
    {
        final int length = MessageHeaderEncoder.ENCODED_LENGTH + bodyLength;
        if (null != handler)
        {
            handler.onFragment(buffer, 0, length, null);
        }
        return length;
    }
}
