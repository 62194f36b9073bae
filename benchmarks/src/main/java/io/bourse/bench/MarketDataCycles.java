package io.bourse.bench;

import io.bourse.common.config.Symbols;
import io.bourse.itch.ItchTranslator;
import io.bourse.sbe.md.AddOrderEncoder;
import io.bourse.sbe.md.MessageHeaderEncoder;
import io.bourse.sbe.md.OrderDeleteEncoder;
import io.bourse.sbe.md.OrderExecutedEncoder;
import io.bourse.sbe.md.Side;
import io.bourse.sbe.md.SnapshotCompleteEncoder;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;

/**
 * The fanout benchmark's input: SBE market data (schemas/market-data-schema.xml) as md-publisher publishes it, in
 * cycles of three messages per order: AddOrder (buy 300 shares at $100.00), OrderExecuted (100 shares), OrderDelete;
 * the orders' symbols go round robin, so the book never holds more than one order. The ITCH 5.0 translations are Add
 * Order 'A' (§4.3.1), Order Executed 'E' (§4.4.1) and Order Delete 'D' (§4.4.4). Message i of the schedule is the same
 * in every run; each carries the timestamp it is given (ns since midnight). Not thread-safe; allocation-free.
 */
final class MarketDataCycles
{
    /** Messages per order. */
    static final int MESSAGES_PER_CYCLE = 3;
    /** Price of every order, 1/10000 $. */
    private static final long PRICE = 1_000_000;
    private static final long QUANTITY = 300;
    private static final long EXECUTED_QUANTITY = 100;
    private static final int SYMBOL_OFFSET = MessageHeaderEncoder.ENCODED_LENGTH;

    /** Holds the last message encoded, header first at offset 0. */
    final UnsafeBuffer buffer = new UnsafeBuffer(ByteBuffer.allocateDirect(128));
    private final MessageHeaderEncoder header = new MessageHeaderEncoder();
    private final AddOrderEncoder addOrder = new AddOrderEncoder();
    private final OrderExecutedEncoder orderExecuted = new OrderExecutedEncoder();
    private final OrderDeleteEncoder orderDelete = new OrderDeleteEncoder();
    private final SnapshotCompleteEncoder snapshotComplete = new SnapshotCompleteEncoder();
    private final long[] packedSymbols;

    /**
     * @param symbols the symbols the orders go round robin over, each in the fanout's symbol directory.
     */
    MarketDataCycles(final List<String> symbols)
    {
        packedSymbols = symbols.stream().mapToLong(Symbols::pack).toArray();
    }

    /**
     * Encodes into {@link #buffer} a SnapshotComplete of no book standing before message 0 of the schedule: what
     * md-publisher answers a fanout's snapshot request with when it has published nothing.
     *
     * @return its encoded length.
     */
    int encodeEmptySnapshot()
    {
        return MessageHeaderEncoder.ENCODED_LENGTH + snapshotComplete.wrapAndApplyHeader(buffer, 0, header)
            .sequenceNumber(0)
            .timestampNs(0)
            .snapshotId(0)
            .messageCount(0)
            .encodedLength();
    }

    /**
     * Encodes message {@code index} of the schedule into {@link #buffer}.
     *
     * @param index       0-based position in the schedule.
     * @param timestampNs the message's timestamp, ns since midnight.
     * @return its encoded length.
     */
    int encode(final long index, final long timestampNs)
    {
        final long cycle = index / MESSAGES_PER_CYCLE;
        final long orderId = cycle + 1;
        final long symbol = packedSymbols[(int)(cycle % packedSymbols.length)];
        final int length;
        final int symbolOffset;
        switch ((int)(index % MESSAGES_PER_CYCLE))
        {
            case 0 ->
            {
                length = addOrder.wrapAndApplyHeader(buffer, 0, header)
                    .sequenceNumber(index + 1)
                    .timestampNs(timestampNs)
                    .orderId(orderId)
                    .side(Side.BUY)
                    .quantity(QUANTITY)
                    .price(PRICE)
                    .encodedLength();
                // Anonymous: Attribution all spaces (the buffer holds the other messages' bytes too).
                buffer.putInt(SYMBOL_OFFSET + AddOrderEncoder.attributionEncodingOffset(),
                    ItchTranslator.ANONYMOUS_ATTRIBUTION, ByteOrder.BIG_ENDIAN);
                symbolOffset = AddOrderEncoder.symbolEncodingOffset();
            }
            case 1 ->
            {
                length = orderExecuted.wrapAndApplyHeader(buffer, 0, header)
                    .sequenceNumber(index + 1)
                    .timestampNs(timestampNs)
                    .orderId(orderId)
                    .executedQuantity(EXECUTED_QUANTITY)
                    .matchNumber(orderId)
                    .price(PRICE)
                    .encodedLength();
                symbolOffset = OrderExecutedEncoder.symbolEncodingOffset();
            }
            default ->
            {
                length = orderDelete.wrapAndApplyHeader(buffer, 0, header)
                    .sequenceNumber(index + 1)
                    .timestampNs(timestampNs)
                    .orderId(orderId)
                    .encodedLength();
                symbolOffset = OrderDeleteEncoder.symbolEncodingOffset();
            }
        }
        Symbols.unpack(symbol, buffer, SYMBOL_OFFSET + symbolOffset);
        return MessageHeaderEncoder.ENCODED_LENGTH + length;
    }
}
