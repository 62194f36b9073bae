package io.bourse.fanout;

import com.paritytrading.juncture.nasdaq.itch50.ITCH50;
import com.paritytrading.juncture.nasdaq.itch50.ITCH50Listener;
import io.bourse.common.config.Symbols;

import java.util.ArrayList;
import java.util.List;

/**
 * Records the ITCH 5.0 messages a subscriber receives as values. Session-start messages leave out their timestamp,
 * which is the wall clock; any message type the fanout must not send fails the test.
 */
final class ItchEvents implements ITCH50Listener
{
    sealed interface Message permits SystemEvent, StockDirectory, AddOrder, OrderExecuted, Trade
    {
    }

    record SystemEvent(int stockLocate, char eventCode) implements Message
    {
    }

    record StockDirectory(
        int stockLocate, String stock, char marketCategory, char financialStatus, long roundLotSize,
        char issueClassification, char authenticity) implements Message
    {
    }

    record AddOrder(
        int stockLocate, int trackingNumber, long timestampNs, long orderReferenceNumber, char buySellIndicator,
        long shares, String stock, long price) implements Message
    {
    }

    record OrderExecuted(
        int stockLocate, int trackingNumber, long timestampNs, long orderReferenceNumber, long executedShares,
        long matchNumber) implements Message
    {
    }

    record Trade(
        int stockLocate, int trackingNumber, long timestampNs, long orderReferenceNumber, char buySellIndicator,
        long shares, String stock, long price, long matchNumber) implements Message
    {
    }

    final List<Message> messages = new ArrayList<>();

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
        throw unexpected(message);
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
        throw unexpected(message);
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
        throw unexpected(message);
    }

    @Override
    public void orderCancel(final ITCH50.OrderCancel message)
    {
        throw unexpected(message);
    }

    @Override
    public void orderDelete(final ITCH50.OrderDelete message)
    {
        throw unexpected(message);
    }

    @Override
    public void orderReplace(final ITCH50.OrderReplace message)
    {
        throw unexpected(message);
    }

    @Override
    public void trade(final ITCH50.Trade message)
    {
        messages.add(new Trade(message.stockLocate, message.trackingNumber,
            timestampNs(message.timestampHigh, message.timestampLow), message.orderReferenceNumber,
            (char)message.buySellIndicator, message.shares, Symbols.toString(message.stock), message.price,
            message.matchNumber));
    }

    @Override
    public void crossTrade(final ITCH50.CrossTrade message)
    {
        throw unexpected(message);
    }

    @Override
    public void brokenTrade(final ITCH50.BrokenTrade message)
    {
        throw unexpected(message);
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

    private static long timestampNs(final int timestampHigh, final long timestampLow)
    {
        return ((long)timestampHigh << 32) | timestampLow;
    }

    private static AssertionError unexpected(final ITCH50.Message message)
    {
        return new AssertionError("unexpected ITCH message " + message.getClass().getSimpleName());
    }
}
