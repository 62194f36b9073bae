package io.bourse.it;

import com.paritytrading.juncture.nasdaq.itch50.ITCH50;
import com.paritytrading.juncture.nasdaq.itch50.ITCH50Listener;

import java.util.ArrayList;
import java.util.List;

/**
 * Records the ITCH 5.0 order messages a market-data subscriber receives (ITCH 5.0 §4.3.1 Add Order, §4.4.1 Order
 * Executed), in arrival order; the tests ignore every other message type.
 */
final class ItchRecorder implements ITCH50Listener
{
    /** ITCH 5.0 Add Order (No MPID Attribution): price in 1/10000 $, shares, packed stock. */
    record AddOrder(long orderReference, byte side, long shares, long stock, long price)
    {
    }

    /** ITCH 5.0 Order Executed: executed shares and match number. */
    record OrderExecuted(long orderReference, long shares, long matchNumber)
    {
    }

    private final List<AddOrder> addOrders = new ArrayList<>();
    private final List<OrderExecuted> executions = new ArrayList<>();

    /** @return Add Order messages in arrival order. */
    List<AddOrder> addOrders()
    {
        return addOrders;
    }

    /** @return Order Executed messages in arrival order. */
    List<OrderExecuted> executions()
    {
        return executions;
    }

    @Override
    public void addOrder(final ITCH50.AddOrder message)
    {
        addOrders.add(new AddOrder(message.orderReferenceNumber, message.buySellIndicator, message.shares,
            message.stock, message.price));
    }

    @Override
    public void orderExecuted(final ITCH50.OrderExecuted message)
    {
        executions.add(new OrderExecuted(message.orderReferenceNumber, message.executedShares, message.matchNumber));
    }

    @Override
    public void systemEvent(final ITCH50.SystemEvent message)
    {
        // not needed by these tests
    }

    @Override
    public void stockDirectory(final ITCH50.StockDirectory message)
    {
        // not needed by these tests
    }

    @Override
    public void stockTradingAction(final ITCH50.StockTradingAction message)
    {
        // not needed by these tests
    }

    @Override
    public void regSHORestriction(final ITCH50.RegSHORestriction message)
    {
        // not needed by these tests
    }

    @Override
    public void marketParticipantPosition(final ITCH50.MarketParticipantPosition message)
    {
        // not needed by these tests
    }

    @Override
    public void mwcbDeclineLevel(final ITCH50.MWCBDeclineLevel message)
    {
        // not needed by these tests
    }

    @Override
    public void mwcbStatus(final ITCH50.MWCBStatus message)
    {
        // not needed by these tests
    }

    @Override
    public void ipoQuotingPeriodUpdate(final ITCH50.IPOQuotingPeriodUpdate message)
    {
        // not needed by these tests
    }

    @Override
    public void luldAuctionCollar(final ITCH50.LULDAuctionCollar message)
    {
        // not needed by these tests
    }

    @Override
    public void operationalHalt(final ITCH50.OperationalHalt message)
    {
        // not needed by these tests
    }

    @Override
    public void addOrderMPID(final ITCH50.AddOrderMPID message)
    {
        // not needed by these tests
    }

    @Override
    public void orderExecutedWithPrice(final ITCH50.OrderExecutedWithPrice message)
    {
        // not needed by these tests
    }

    @Override
    public void orderCancel(final ITCH50.OrderCancel message)
    {
        // not needed by these tests
    }

    @Override
    public void orderDelete(final ITCH50.OrderDelete message)
    {
        // not needed by these tests
    }

    @Override
    public void orderReplace(final ITCH50.OrderReplace message)
    {
        // not needed by these tests
    }

    @Override
    public void trade(final ITCH50.Trade message)
    {
        // not needed by these tests
    }

    @Override
    public void crossTrade(final ITCH50.CrossTrade message)
    {
        // not needed by these tests
    }

    @Override
    public void brokenTrade(final ITCH50.BrokenTrade message)
    {
        // not needed by these tests
    }

    @Override
    public void noii(final ITCH50.NOII message)
    {
        // not needed by these tests
    }

    @Override
    public void rpii(final ITCH50.RPII message)
    {
        // not needed by these tests
    }
}
