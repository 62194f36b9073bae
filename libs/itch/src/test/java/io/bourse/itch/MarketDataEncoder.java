package io.bourse.itch;

import io.bourse.common.config.Symbols;
import io.bourse.sbe.md.AddOrderEncoder;
import io.bourse.sbe.md.BooleanType;
import io.bourse.sbe.md.BookSnapshotEncoder;
import io.bourse.sbe.md.BrokenTradeEncoder;
import io.bourse.sbe.md.CrossTradeEncoder;
import io.bourse.sbe.md.CrossType;
import io.bourse.sbe.md.EndOfFeedEncoder;
import io.bourse.sbe.md.MessageHeaderEncoder;
import io.bourse.sbe.md.OrderCancelEncoder;
import io.bourse.sbe.md.OrderDeleteEncoder;
import io.bourse.sbe.md.OrderExecutedEncoder;
import io.bourse.sbe.md.OrderExecutedWithPriceEncoder;
import io.bourse.sbe.md.OrderReplaceEncoder;
import io.bourse.sbe.md.PriceLevelUpdateEncoder;
import io.bourse.sbe.md.Side;
import io.bourse.sbe.md.SnapshotCompleteEncoder;
import io.bourse.sbe.md.StockTradingActionEncoder;
import io.bourse.sbe.md.TradeEncoder;
import io.bourse.sbe.md.TradingState;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteBuffer;

/**
 * Encodes SBE market data (schemas/market-data-schema.xml), as md-publisher does, into one buffer, for the tests of
 * every ITCH feed; each method returns the encoded length. Increments take the feed sequence numbers in turn, from 1;
 * {@link #snapshotComplete} and {@link #endOfFeed} take none. Prices in 1/10000 $, quantities in shares, timestamps
 * in ns since midnight.
 */
public final class MarketDataEncoder
{
    private static final int SYMBOL_OFFSET = MessageHeaderEncoder.ENCODED_LENGTH;

    /** Holds the last message encoded, header first at offset 0. */
    public final UnsafeBuffer buffer = new UnsafeBuffer(ByteBuffer.allocateDirect(1024));
    private final MessageHeaderEncoder header = new MessageHeaderEncoder();
    /** The sequence number of the next message encoded: every increment takes one, from 1, as on one feed. */
    private long nextSequenceNumber = 1;

    /** @return length of the encoded AddOrder of an anonymous order (Attribution all spaces). */
    public int addOrder(
        final long timestampNs, final String symbol, final long orderId, final Side side, final long quantity,
        final long price)
    {
        return addOrder(timestampNs, symbol, orderId, side, quantity, price, "    ");
    }

    /**
     * @param attribution the MPID, 4 characters, or all spaces for an anonymous order.
     * @return length of the encoded AddOrder.
     */
    public int addOrder(
        final long timestampNs, final String symbol, final long orderId, final Side side, final long quantity,
        final long price, final String attribution)
    {
        final AddOrderEncoder encoder = new AddOrderEncoder().wrapAndApplyHeader(buffer, 0, header)
            .sequenceNumber(nextSequenceNumber++)
            .timestampNs(timestampNs)
            .orderId(orderId)
            .side(side)
            .quantity(quantity)
            .price(price)
            .attribution(attribution);
        Symbols.unpack(Symbols.pack(symbol), buffer, SYMBOL_OFFSET + AddOrderEncoder.symbolEncodingOffset());
        return MessageHeaderEncoder.ENCODED_LENGTH + encoder.encodedLength();
    }

    /** @return length of the encoded OrderExecuted. */
    public int orderExecuted(
        final long timestampNs, final String symbol, final long orderId, final long executedQuantity,
        final long matchNumber, final long price)
    {
        final OrderExecutedEncoder encoder = new OrderExecutedEncoder().wrapAndApplyHeader(buffer, 0, header)
            .sequenceNumber(nextSequenceNumber++)
            .timestampNs(timestampNs)
            .orderId(orderId)
            .executedQuantity(executedQuantity)
            .matchNumber(matchNumber)
            .price(price);
        Symbols.unpack(Symbols.pack(symbol), buffer, SYMBOL_OFFSET + OrderExecutedEncoder.symbolEncodingOffset());
        return MessageHeaderEncoder.ENCODED_LENGTH + encoder.encodedLength();
    }

    /** @return length of the encoded OrderExecutedWithPrice. */
    public int orderExecutedWithPrice(
        final long timestampNs, final String symbol, final long orderId, final long executedQuantity,
        final long matchNumber, final BooleanType printable, final long price)
    {
        final OrderExecutedWithPriceEncoder encoder = new OrderExecutedWithPriceEncoder()
            .wrapAndApplyHeader(buffer, 0, header)
            .sequenceNumber(nextSequenceNumber++)
            .timestampNs(timestampNs)
            .orderId(orderId)
            .executedQuantity(executedQuantity)
            .matchNumber(matchNumber)
            .printable(printable)
            .price(price);
        Symbols.unpack(
            Symbols.pack(symbol), buffer, SYMBOL_OFFSET + OrderExecutedWithPriceEncoder.symbolEncodingOffset());
        return MessageHeaderEncoder.ENCODED_LENGTH + encoder.encodedLength();
    }

    /** @return length of the encoded OrderCancel. */
    public int orderCancel(final long timestampNs, final String symbol, final long orderId, final long canceledQuantity)
    {
        final OrderCancelEncoder encoder = new OrderCancelEncoder().wrapAndApplyHeader(buffer, 0, header)
            .sequenceNumber(nextSequenceNumber++)
            .timestampNs(timestampNs)
            .orderId(orderId)
            .canceledQuantity(canceledQuantity);
        Symbols.unpack(Symbols.pack(symbol), buffer, SYMBOL_OFFSET + OrderCancelEncoder.symbolEncodingOffset());
        return MessageHeaderEncoder.ENCODED_LENGTH + encoder.encodedLength();
    }

    /** @return length of the encoded OrderDelete. */
    public int orderDelete(final long timestampNs, final String symbol, final long orderId)
    {
        final OrderDeleteEncoder encoder = new OrderDeleteEncoder().wrapAndApplyHeader(buffer, 0, header)
            .sequenceNumber(nextSequenceNumber++)
            .timestampNs(timestampNs)
            .orderId(orderId);
        Symbols.unpack(Symbols.pack(symbol), buffer, SYMBOL_OFFSET + OrderDeleteEncoder.symbolEncodingOffset());
        return MessageHeaderEncoder.ENCODED_LENGTH + encoder.encodedLength();
    }

    /** @return length of the encoded OrderReplace. */
    public int orderReplace(
        final long timestampNs, final String symbol, final long originalOrderId, final long newOrderId,
        final long quantity, final long price)
    {
        final OrderReplaceEncoder encoder = new OrderReplaceEncoder().wrapAndApplyHeader(buffer, 0, header)
            .sequenceNumber(nextSequenceNumber++)
            .timestampNs(timestampNs)
            .originalOrderId(originalOrderId)
            .newOrderId(newOrderId)
            .quantity(quantity)
            .price(price);
        Symbols.unpack(Symbols.pack(symbol), buffer, SYMBOL_OFFSET + OrderReplaceEncoder.symbolEncodingOffset());
        return MessageHeaderEncoder.ENCODED_LENGTH + encoder.encodedLength();
    }

    /** @return length of the encoded Trade. */
    public int trade(
        final long timestampNs, final String symbol, final long matchNumber, final Side aggressorSide,
        final long quantity, final long price, final BooleanType makerDisplayed)
    {
        final TradeEncoder encoder = new TradeEncoder().wrapAndApplyHeader(buffer, 0, header)
            .sequenceNumber(nextSequenceNumber++)
            .timestampNs(timestampNs)
            .matchNumber(matchNumber)
            .aggressorSide(aggressorSide)
            .quantity(quantity)
            .price(price)
            .makerDisplayed(makerDisplayed);
        Symbols.unpack(Symbols.pack(symbol), buffer, SYMBOL_OFFSET + TradeEncoder.symbolEncodingOffset());
        return MessageHeaderEncoder.ENCODED_LENGTH + encoder.encodedLength();
    }

    /** @return length of the encoded BrokenTrade. */
    public int brokenTrade(final long timestampNs, final String symbol, final long matchNumber)
    {
        final BrokenTradeEncoder encoder = new BrokenTradeEncoder().wrapAndApplyHeader(buffer, 0, header)
            .sequenceNumber(nextSequenceNumber++)
            .timestampNs(timestampNs)
            .matchNumber(matchNumber);
        Symbols.unpack(Symbols.pack(symbol), buffer, SYMBOL_OFFSET + BrokenTradeEncoder.symbolEncodingOffset());
        return MessageHeaderEncoder.ENCODED_LENGTH + encoder.encodedLength();
    }

    /**
     * @param reason the 4 characters of the ITCH Reason, e.g. "O1  ".
     * @return length of the encoded StockTradingAction.
     */
    public int stockTradingAction(
        final long timestampNs, final String symbol, final TradingState tradingState, final String reason)
    {
        final StockTradingActionEncoder encoder = new StockTradingActionEncoder()
            .wrapAndApplyHeader(buffer, 0, header)
            .sequenceNumber(nextSequenceNumber++)
            .timestampNs(timestampNs)
            .tradingState(tradingState)
            .reason(reason);
        Symbols.unpack(
            Symbols.pack(symbol), buffer, SYMBOL_OFFSET + StockTradingActionEncoder.symbolEncodingOffset());
        return MessageHeaderEncoder.ENCODED_LENGTH + encoder.encodedLength();
    }

    /** @return length of the encoded CrossTrade. */
    public int crossTrade(
        final long timestampNs, final String symbol, final long shares, final long crossPrice, final long matchNumber,
        final CrossType crossType)
    {
        final CrossTradeEncoder encoder = new CrossTradeEncoder().wrapAndApplyHeader(buffer, 0, header)
            .sequenceNumber(nextSequenceNumber++)
            .timestampNs(timestampNs)
            .shares(shares)
            .crossPrice(crossPrice)
            .matchNumber(matchNumber)
            .crossType(crossType);
        Symbols.unpack(Symbols.pack(symbol), buffer, SYMBOL_OFFSET + CrossTradeEncoder.symbolEncodingOffset());
        return MessageHeaderEncoder.ENCODED_LENGTH + encoder.encodedLength();
    }

    /** @return length of the encoded PriceLevelUpdate (bid side, one order). */
    public int priceLevelUpdate(final long timestampNs, final String symbol, final long price, final long quantity)
    {
        final PriceLevelUpdateEncoder encoder = new PriceLevelUpdateEncoder().wrapAndApplyHeader(buffer, 0, header)
            .sequenceNumber(nextSequenceNumber++)
            .timestampNs(timestampNs)
            .side(Side.BUY)
            .price(price)
            .quantity(quantity)
            .orderCount(1);
        Symbols.unpack(Symbols.pack(symbol), buffer, SYMBOL_OFFSET + PriceLevelUpdateEncoder.symbolEncodingOffset());
        return MessageHeaderEncoder.ENCODED_LENGTH + encoder.encodedLength();
    }

    /**
     * @return length of the encoded SnapshotComplete of a snapshot of no book (every book empty), standing after the
     *         last message encoded: what a publisher with nothing published answers.
     */
    public int snapshotComplete(final long snapshotId)
    {
        return snapshotComplete(snapshotId, 0);
    }

    /** @return length of the encoded SnapshotComplete after this many BookSnapshot messages. */
    public int snapshotComplete(final long snapshotId, final int messageCount)
    {
        return MessageHeaderEncoder.ENCODED_LENGTH + new SnapshotCompleteEncoder()
            .wrapAndApplyHeader(buffer, 0, header)
            .sequenceNumber(nextSequenceNumber - 1)
            .timestampNs(0)
            .snapshotId(snapshotId)
            .messageCount(messageCount)
            .encodedLength();
    }

    /**
     * @param lastSequenceNumber the sequence number of the feed's last increment it names.
     * @return length of the encoded EndOfFeed: the publisher ends the feed.
     */
    public int endOfFeed(final long lastSequenceNumber)
    {
        return MessageHeaderEncoder.ENCODED_LENGTH + new EndOfFeedEncoder()
            .wrapAndApplyHeader(buffer, 0, header)
            .sequenceNumber(lastSequenceNumber)
            .timestampNs(0)
            .encodedLength();
    }

    /** @return length of the encoded EndOfFeed after the last increment encoded. */
    public int endOfFeed()
    {
        return endOfFeed(nextSequenceNumber - 1);
    }

    /**
     * @param orders each {order id, side (B or S), quantity, price, timestamp}, in priority order, and optionally
     *               the attribution packed as 4 ASCII bytes big-endian (anonymous without it).
     * @return length of the encoded BookSnapshot of one symbol, trading since the start, standing after the last
     *         message encoded.
     */
    public int bookSnapshot(final long snapshotId, final int messageIndex, final String symbol, final long[]... orders)
    {
        final BookSnapshotEncoder encoder = new BookSnapshotEncoder().wrapAndApplyHeader(buffer, 0, header)
            .sequenceNumber(nextSequenceNumber - 1)
            .timestampNs(0)
            .snapshotId(snapshotId)
            .messageIndex(messageIndex)
            .tradingState(TradingState.TRADING)
            .reason("    ")
            .tradingStateTimestampNs(0);
        Symbols.unpack(Symbols.pack(symbol), buffer, SYMBOL_OFFSET + BookSnapshotEncoder.symbolEncodingOffset());
        final BookSnapshotEncoder.OrdersEncoder group = encoder.ordersCount(orders.length);
        for (final long[] order : orders)
        {
            group.next()
                .orderId(order[0])
                .side(order[1] == 'B' ? Side.BUY : Side.SELL)
                .quantity(order[2])
                .price(order[3])
                .timestampNs(order[4]);
            final int attribution = order.length > 5 ? (int)order[5] : ItchTranslator.ANONYMOUS_ATTRIBUTION;
            for (int i = 0; i < Integer.BYTES; i++)
            {
                group.attribution(i, (byte)(attribution >>> (Byte.SIZE * (Integer.BYTES - 1 - i))));
            }
        }
        return MessageHeaderEncoder.ENCODED_LENGTH + encoder.encodedLength();
    }
}
