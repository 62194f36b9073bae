package io.bourse.itch;

import com.paritytrading.juncture.nasdaq.itch50.ITCH50;
import com.paritytrading.juncture.nasdaq.itch50.ITCH50Listener;
import com.paritytrading.juncture.nasdaq.itch50.ITCH50Parser;
import com.paritytrading.nassau.MessageListener;
import io.bourse.common.config.Symbols;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Records the ITCH 5.0 messages a feed's receiver parses ({@link #parser()}) as values, for the tests of every ITCH
 * feed. Feed-start messages leave out their timestamp, which is the wall clock; any message type no Bourse feed sends
 * fails the test.
 */
public final class ItchEvents implements ITCH50Listener
{
    /** One recorded message. */
    public sealed interface Message
        permits SystemEvent, StockDirectory, AddOrder, AddOrderMpid, OrderExecuted, OrderExecutedWithPrice, OrderCancel,
        OrderDelete, OrderReplace, Trade, CrossTrade, BrokenTrade, StockTradingAction
    {
    }

    /**
     * ITCH 5.0 §4.1 System Event, without its timestamp.
     *
     * @param stockLocate 0.
     * @param eventCode   e.g. 'O' start of messages.
     */
    public record SystemEvent(int stockLocate, char eventCode) implements Message
    {
    }

    /**
     * ITCH 5.0 §4.2.1 Stock Directory, without its timestamp.
     *
     * @param stockLocate         locate code.
     * @param stock               symbol.
     * @param marketCategory      e.g. 'Q'.
     * @param financialStatus     e.g. 'N'.
     * @param roundLotSize        shares.
     * @param issueClassification e.g. 'C'.
     * @param authenticity        e.g. 'T'.
     */
    public record StockDirectory(
        int stockLocate, String stock, char marketCategory, char financialStatus, long roundLotSize,
        char issueClassification, char authenticity) implements Message
    {
    }

    /**
     * ITCH 5.0 §4.3.1 Add Order.
     *
     * @param stockLocate          locate code.
     * @param trackingNumber       0.
     * @param timestampNs          ns since midnight.
     * @param orderReferenceNumber order id.
     * @param buySellIndicator     'B' or 'S'.
     * @param shares               shares.
     * @param stock                symbol.
     * @param price                1/10000 $.
     */
    public record AddOrder(
        int stockLocate, int trackingNumber, long timestampNs, long orderReferenceNumber, char buySellIndicator,
        long shares, String stock, long price) implements Message
    {
    }

    /**
     * ITCH 5.0 §4.3.2 Add Order with MPID Attribution: {@link AddOrder}'s fields, then the MPID.
     *
     * @param stockLocate          locate code.
     * @param trackingNumber       0.
     * @param timestampNs          ns since midnight.
     * @param orderReferenceNumber order id.
     * @param buySellIndicator     'B' or 'S'.
     * @param shares               shares.
     * @param stock                symbol.
     * @param price                1/10000 $.
     * @param attribution          the MPID, 4 characters.
     */
    public record AddOrderMpid(
        int stockLocate, int trackingNumber, long timestampNs, long orderReferenceNumber, char buySellIndicator,
        long shares, String stock, long price, String attribution) implements Message
    {
    }

    /**
     * ITCH 5.0 §4.4.1 Order Executed.
     *
     * @param stockLocate          locate code.
     * @param trackingNumber       0.
     * @param timestampNs          ns since midnight.
     * @param orderReferenceNumber order id.
     * @param executedShares       shares.
     * @param matchNumber          execution id.
     */
    public record OrderExecuted(
        int stockLocate, int trackingNumber, long timestampNs, long orderReferenceNumber, long executedShares,
        long matchNumber) implements Message
    {
    }

    /**
     * ITCH 5.0 §4.4.2 Order Executed With Price.
     *
     * @param stockLocate          locate code.
     * @param trackingNumber       0.
     * @param timestampNs          ns since midnight.
     * @param orderReferenceNumber order id.
     * @param executedShares       shares.
     * @param matchNumber          execution id.
     * @param printable            'Y' or 'N'.
     * @param executionPrice       1/10000 $.
     */
    public record OrderExecutedWithPrice(
        int stockLocate, int trackingNumber, long timestampNs, long orderReferenceNumber, long executedShares,
        long matchNumber, char printable, long executionPrice) implements Message
    {
    }

    /**
     * ITCH 5.0 §4.4.3 Order Cancel.
     *
     * @param stockLocate          locate code.
     * @param timestampNs          ns since midnight.
     * @param orderReferenceNumber order id.
     * @param canceledShares       shares.
     */
    public record OrderCancel(int stockLocate, long timestampNs, long orderReferenceNumber, long canceledShares)
        implements Message
    {
    }

    /**
     * ITCH 5.0 §4.4.4 Order Delete.
     *
     * @param stockLocate          locate code.
     * @param timestampNs          ns since midnight.
     * @param orderReferenceNumber order id.
     */
    public record OrderDelete(int stockLocate, long timestampNs, long orderReferenceNumber) implements Message
    {
    }

    /**
     * ITCH 5.0 §4.4.5 Order Replace.
     *
     * @param stockLocate                  locate code.
     * @param timestampNs                  ns since midnight.
     * @param originalOrderReferenceNumber replaced order id.
     * @param newOrderReferenceNumber      new order id.
     * @param shares                       shares.
     * @param price                        1/10000 $.
     */
    public record OrderReplace(
        int stockLocate, long timestampNs, long originalOrderReferenceNumber, long newOrderReferenceNumber,
        long shares, long price) implements Message
    {
    }

    /**
     * ITCH 5.0 §4.5.1 Trade (non-cross).
     *
     * @param stockLocate          locate code.
     * @param trackingNumber       0.
     * @param timestampNs          ns since midnight.
     * @param orderReferenceNumber 0.
     * @param buySellIndicator     'B'.
     * @param shares               shares.
     * @param stock                symbol.
     * @param price                1/10000 $.
     * @param matchNumber          execution id.
     */
    public record Trade(
        int stockLocate, int trackingNumber, long timestampNs, long orderReferenceNumber, char buySellIndicator,
        long shares, String stock, long price, long matchNumber) implements Message
    {
    }

    /**
     * ITCH 5.0 §4.5.2 Cross Trade.
     *
     * @param stockLocate    locate code.
     * @param trackingNumber 0.
     * @param timestampNs    ns since midnight.
     * @param shares         shares executed in the cross.
     * @param stock          symbol.
     * @param crossPrice     1/10000 $.
     * @param matchNumber    the cross's id.
     * @param crossType      e.g. 'C' closing.
     */
    public record CrossTrade(
        int stockLocate, int trackingNumber, long timestampNs, long shares, String stock, long crossPrice,
        long matchNumber, char crossType) implements Message
    {
    }

    /**
     * ITCH 5.0 §4.5.3 Broken Trade.
     *
     * @param stockLocate locate code.
     * @param timestampNs ns since midnight.
     * @param matchNumber the broken execution.
     */
    public record BrokenTrade(int stockLocate, long timestampNs, long matchNumber) implements Message
    {
    }

    /**
     * ITCH 5.0 §4.2.2 Stock Trading Action, without its timestamp (the wall clock in the Trading Action spin that
     * opens a feed).
     *
     * @param stockLocate  locate code.
     * @param stock        symbol.
     * @param tradingState 'H' halted, 'T' trading.
     * @param reason       the 4 characters of the Reason, e.g. "O1  ".
     */
    public record StockTradingAction(int stockLocate, String stock, char tradingState, String reason)
        implements Message
    {
    }

    /** Length of ITCH 5.0 Cross Trade 'Q'. */
    private static final int CROSS_TRADE_LENGTH = 40;

    /** The messages in the order received. */
    public final List<Message> messages = new ArrayList<>();
    private final ITCH50Parser junctureParser = new ITCH50Parser(this);

    /**
     * @return a parser of one ITCH 5.0 message per call that records into this: juncture's {@code ITCH50Parser},
     *         except for Cross Trade 'Q', which juncture-nasdaq 1.0.0 reads with ITCH 4.1's 4-byte Shares and is read
     *         here at the offsets of the ITCH 5.0 table, its length checked.
     */
    public MessageListener parser()
    {
        return (buffer) ->
        {
            if (ITCH50.MESSAGE_TYPE_CROSS_TRADE == buffer.get(buffer.position()))
            {
                crossTrade(buffer);
            }
            else
            {
                junctureParser.message(buffer);
            }
        };
    }

    @Override
    public void systemEvent(final ITCH50.SystemEvent message)
    {
        messages.add(new SystemEvent(message.stockLocate, (char)message.eventCode));
    }

    @Override
    public void stockDirectory(final ITCH50.StockDirectory message)
    {
        messages.add(new StockDirectory(message.stockLocate, Symbols.toString(message.stock),
            (char)message.marketCategory, (char)message.financialStatusIndicator, message.roundLotSize,
            (char)message.issueClassification, (char)message.authenticity));
    }

    @Override
    public void addOrder(final ITCH50.AddOrder message)
    {
        messages.add(new AddOrder(message.stockLocate, message.trackingNumber,
            timestampNs(message.timestampHigh, message.timestampLow), message.orderReferenceNumber,
            (char)message.buySellIndicator, message.shares, Symbols.toString(message.stock), message.price));
    }

    @Override
    public void stockTradingAction(final ITCH50.StockTradingAction message)
    {
        final int reason = message.reason;
        messages.add(new StockTradingAction(message.stockLocate, Symbols.toString(message.stock),
            (char)message.tradingState, new String(new byte[]{(byte)(reason >>> 24), (byte)(reason >>> 16),
                (byte)(reason >>> 8), (byte)reason}, StandardCharsets.US_ASCII)));
    }

    @Override
    public void regSHORestriction(final ITCH50.RegSHORestriction message)
    {
        throw unexpected(message);
    }

    @Override
    public void marketParticipantPosition(final ITCH50.MarketParticipantPosition message)
    {
        throw unexpected(message);
    }

    @Override
    public void mwcbDeclineLevel(final ITCH50.MWCBDeclineLevel message)
    {
        throw unexpected(message);
    }

    @Override
    public void mwcbStatus(final ITCH50.MWCBStatus message)
    {
        throw unexpected(message);
    }

    @Override
    public void ipoQuotingPeriodUpdate(final ITCH50.IPOQuotingPeriodUpdate message)
    {
        throw unexpected(message);
    }

    @Override
    public void luldAuctionCollar(final ITCH50.LULDAuctionCollar message)
    {
        throw unexpected(message);
    }

    @Override
    public void operationalHalt(final ITCH50.OperationalHalt message)
    {
        throw unexpected(message);
    }

    @Override
    public void addOrderMPID(final ITCH50.AddOrderMPID message)
    {
        final byte[] attribution = ByteBuffer.allocate(Integer.BYTES).putInt(message.attribution).array();
        messages.add(new AddOrderMpid(message.stockLocate, message.trackingNumber,
            timestampNs(message.timestampHigh, message.timestampLow), message.orderReferenceNumber,
            (char)message.buySellIndicator, message.shares, Symbols.toString(message.stock), message.price,
            new String(attribution, StandardCharsets.US_ASCII)));
    }

    @Override
    public void orderExecuted(final ITCH50.OrderExecuted message)
    {
        messages.add(new OrderExecuted(message.stockLocate, message.trackingNumber,
            timestampNs(message.timestampHigh, message.timestampLow), message.orderReferenceNumber,
            message.executedShares, message.matchNumber));
    }

    @Override
    public void orderExecutedWithPrice(final ITCH50.OrderExecutedWithPrice message)
    {
        messages.add(new OrderExecutedWithPrice(message.stockLocate, message.trackingNumber,
            timestampNs(message.timestampHigh, message.timestampLow), message.orderReferenceNumber,
            message.executedShares, message.matchNumber, (char)message.printable, message.executionPrice));
    }

    @Override
    public void orderCancel(final ITCH50.OrderCancel message)
    {
        messages.add(new OrderCancel(message.stockLocate, timestampNs(message.timestampHigh, message.timestampLow),
            message.orderReferenceNumber, message.canceledShares));
    }

    @Override
    public void orderDelete(final ITCH50.OrderDelete message)
    {
        messages.add(new OrderDelete(message.stockLocate, timestampNs(message.timestampHigh, message.timestampLow),
            message.orderReferenceNumber));
    }

    @Override
    public void orderReplace(final ITCH50.OrderReplace message)
    {
        messages.add(new OrderReplace(message.stockLocate, timestampNs(message.timestampHigh, message.timestampLow),
            message.originalOrderReferenceNumber, message.newOrderReferenceNumber, message.shares, message.price));
    }

    @Override
    public void trade(final ITCH50.Trade message)
    {
        messages.add(new Trade(message.stockLocate, message.trackingNumber,
            timestampNs(message.timestampHigh, message.timestampLow), message.orderReferenceNumber,
            (char)message.buySellIndicator, message.shares, Symbols.toString(message.stock), message.price,
            message.matchNumber));
    }

    /** Never called through {@link #parser()}: juncture's Cross Trade has the ITCH 4.1 layout. */
    @Override
    public void crossTrade(final ITCH50.CrossTrade message)
    {
        throw unexpected(message);
    }

    @Override
    public void brokenTrade(final ITCH50.BrokenTrade message)
    {
        messages.add(new BrokenTrade(message.stockLocate, timestampNs(message.timestampHigh, message.timestampLow),
            message.matchNumber));
    }

    @Override
    public void noii(final ITCH50.NOII message)
    {
        throw unexpected(message);
    }

    @Override
    public void rpii(final ITCH50.RPII message)
    {
        throw unexpected(message);
    }

    private void crossTrade(final ByteBuffer buffer)
    {
        if (CROSS_TRADE_LENGTH != buffer.remaining())
        {
            throw new AssertionError("Cross Trade of " + buffer.remaining() + " bytes");
        }
        final int offset = buffer.position();
        final long timestampNs = timestampNs(
            Short.toUnsignedInt(buffer.getShort(offset + 5)), Integer.toUnsignedLong(buffer.getInt(offset + 7)));
        messages.add(new CrossTrade(
            Short.toUnsignedInt(buffer.getShort(offset + 1)),       // Stock Locate
            Short.toUnsignedInt(buffer.getShort(offset + 3)),       // Tracking Number
            timestampNs,                                            // Timestamp, 6 bytes at 5
            buffer.getLong(offset + 11),                            // Shares, 8 bytes
            Symbols.toString(buffer.getLong(offset + 19)),          // Stock
            Integer.toUnsignedLong(buffer.getInt(offset + 27)),     // Cross Price
            buffer.getLong(offset + 31),                            // Match Number
            (char)buffer.get(offset + 39)));                        // Cross Type
        buffer.position(buffer.limit());
    }

    private static long timestampNs(final int timestampHigh, final long timestampLow)
    {
        return ((long)timestampHigh << 32) | timestampLow;
    }

    private static AssertionError unexpected(final ITCH50.Message message)
    {
        return new AssertionError("unexpected ITCH message " + message.getClass().getSimpleName());
    }
}
