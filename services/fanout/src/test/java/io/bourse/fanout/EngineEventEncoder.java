package io.bourse.fanout;

import io.bourse.common.config.Symbols;
import io.bourse.sbe.engine.MessageHeaderEncoder;
import io.bourse.sbe.engine.OrderAddedEncoder;
import io.bourse.sbe.engine.OrderExecutedEncoder;
import io.bourse.sbe.engine.Side;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteBuffer;

/**
 * Encodes SBE engine events, as a matching-engine shard does, into one buffer; each method returns the encoded
 * length. Feeds a real md-publisher, whose market data then reaches the fanout.
 */
final class EngineEventEncoder
{
    private static final int SYMBOL_OFFSET = MessageHeaderEncoder.ENCODED_LENGTH;

    final UnsafeBuffer buffer = new UnsafeBuffer(ByteBuffer.allocateDirect(128));
    private final MessageHeaderEncoder header = new MessageHeaderEncoder();
    private long sequenceNumber;

    int orderAdded(
        final long timestampNs, final String symbol, final long orderId, final Side side, final long quantity,
        final long price, final char display)
    {
        final OrderAddedEncoder encoder = new OrderAddedEncoder().wrapAndApplyHeader(buffer, 0, header)
            .sequenceNumber(++sequenceNumber)
            .timestampNs(timestampNs)
            .orderId(orderId)
            .side(side)
            .quantity(quantity)
            .price(price)
            .display((byte)display);
        Symbols.unpack(Symbols.pack(symbol), buffer, SYMBOL_OFFSET + OrderAddedEncoder.symbolEncodingOffset());
        return MessageHeaderEncoder.ENCODED_LENGTH + encoder.encodedLength();
    }

    int orderExecuted(
        final long timestampNs, final String symbol, final long matchNumber, final long quantity, final long price,
        final Side takerSide, final long takerOrderId, final long makerOrderId, final long makerLeaves)
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
            .takerLeavesQuantity(0);
        Symbols.unpack(Symbols.pack(symbol), buffer, SYMBOL_OFFSET + OrderExecutedEncoder.symbolEncodingOffset());
        return MessageHeaderEncoder.ENCODED_LENGTH + encoder.encodedLength();
    }
}
