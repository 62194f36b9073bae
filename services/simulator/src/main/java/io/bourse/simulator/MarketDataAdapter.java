package io.bourse.simulator;

import com.paritytrading.juncture.nasdaq.itch50.ITCH50;
import com.paritytrading.juncture.nasdaq.itch50.ITCH50Exception;
import com.paritytrading.juncture.nasdaq.itch50.ITCH50Listener;
import com.paritytrading.juncture.nasdaq.itch50.ITCH50Parser;
import com.paritytrading.nassau.MessageListener;

import java.io.IOException;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;

/**
 * Decodes the ITCH 5.0 messages of the market-data sessions (juncture's parser) and measures them: a count per
 * Message Type and the feed latency, receive time minus the message's Timestamp (ITCH 5.0: nanoseconds since
 * midnight, 6 bytes). Messages that arrive with the Login Accepted, before the market-data thread has stamped a
 * receive time, are counted but not measured. A malformed or unknown message is counted as an error and skipped, so
 * one bad message does not end the session. Owned by the market-data thread.
 */
final class MarketDataAdapter implements MessageListener, ITCH50Listener
{
    private static final long NOT_STAMPED = Long.MIN_VALUE;

    private final ITCH50Parser parser = new ITCH50Parser(this);
    private final SimulatorCounters counters;
    private final LatencyTracker feedLatency;
    private long nowNs = NOT_STAMPED;

    /**
     * @param counters    where to count messages and errors.
     * @param feedLatency where to record the feed latency.
     */
    MarketDataAdapter(final SimulatorCounters counters, final LatencyTracker feedLatency)
    {
        this.counters = counters;
        this.feedLatency = feedLatency;
    }

    /**
     * Sets the receive time of the messages delivered next.
     *
     * @param nowNs nanoseconds since midnight UTC.
     */
    void nowNs(final long nowNs)
    {
        this.nowNs = nowNs;
    }

    @Override
    public void message(final ByteBuffer buffer) throws IOException
    {
        try
        {
            parser.message(buffer);
        }
        catch (final ITCH50Exception | BufferUnderflowException ex)
        {
            counters.increment(SimulatorCounter.MD_ERRORS);
        }
    }

    private void onMessage(final byte messageType, final int timestampHigh, final long timestampLow)
    {
        counters.onMarketData(messageType);
        if (NOT_STAMPED != nowNs)
        {
            feedLatency.recordNs(nowNs - (((long)timestampHigh << 32) | timestampLow));
        }
    }

    @Override
    public void systemEvent(final ITCH50.SystemEvent message)
    {
        onMessage(ITCH50.MESSAGE_TYPE_SYSTEM_EVENT, message.timestampHigh, message.timestampLow);
    }

    @Override
    public void stockDirectory(final ITCH50.StockDirectory message)
    {
        onMessage(ITCH50.MESSAGE_TYPE_STOCK_DIRECTORY, message.timestampHigh, message.timestampLow);
    }

    @Override
    public void stockTradingAction(final ITCH50.StockTradingAction message)
    {
        onMessage(ITCH50.MESSAGE_TYPE_STOCK_TRADING_ACTION, message.timestampHigh, message.timestampLow);
    }

    @Override
    public void regSHORestriction(final ITCH50.RegSHORestriction message)
    {
        onMessage(ITCH50.MESSAGE_TYPE_REG_SHO_RESTRICTION, message.timestampHigh, message.timestampLow);
    }

    @Override
    public void marketParticipantPosition(final ITCH50.MarketParticipantPosition message)
    {
        onMessage(ITCH50.MESSAGE_TYPE_MARKET_PARTICIPANT_POSITION, message.timestampHigh, message.timestampLow);
    }

    @Override
    public void mwcbDeclineLevel(final ITCH50.MWCBDeclineLevel message)
    {
        onMessage(ITCH50.MESSAGE_TYPE_MWCB_DECLINE_LEVEL, message.timestampHigh, message.timestampLow);
    }

    @Override
    public void mwcbStatus(final ITCH50.MWCBStatus message)
    {
        onMessage(ITCH50.MESSAGE_TYPE_MWCB_STATUS, message.timestampHigh, message.timestampLow);
    }

    @Override
    public void ipoQuotingPeriodUpdate(final ITCH50.IPOQuotingPeriodUpdate message)
    {
        onMessage(ITCH50.MESSAGE_TYPE_IPO_QUOTING_PERIOD_UPDATE, message.timestampHigh, message.timestampLow);
    }

    @Override
    public void luldAuctionCollar(final ITCH50.LULDAuctionCollar message)
    {
        onMessage(ITCH50.MESSAGE_TYPE_LULD_AUCTION_COLLAR, message.timestampHigh, message.timestampLow);
    }

    @Override
    public void operationalHalt(final ITCH50.OperationalHalt message)
    {
        onMessage(ITCH50.MESSAGE_TYPE_OPERATIONAL_HALT, message.timestampHigh, message.timestampLow);
    }

    @Override
    public void addOrder(final ITCH50.AddOrder message)
    {
        onMessage(ITCH50.MESSAGE_TYPE_ADD_ORDER, message.timestampHigh, message.timestampLow);
    }

    @Override
    public void addOrderMPID(final ITCH50.AddOrderMPID message)
    {
        onMessage(ITCH50.MESSAGE_TYPE_ADD_ORDER_MPID, message.timestampHigh, message.timestampLow);
    }

    @Override
    public void orderExecuted(final ITCH50.OrderExecuted message)
    {
        onMessage(ITCH50.MESSAGE_TYPE_ORDER_EXECUTED, message.timestampHigh, message.timestampLow);
    }

    @Override
    public void orderExecutedWithPrice(final ITCH50.OrderExecutedWithPrice message)
    {
        onMessage(ITCH50.MESSAGE_TYPE_ORDER_EXECUTED_WITH_PRICE, message.timestampHigh, message.timestampLow);
    }

    @Override
    public void orderCancel(final ITCH50.OrderCancel message)
    {
        onMessage(ITCH50.MESSAGE_TYPE_ORDER_CANCEL, message.timestampHigh, message.timestampLow);
    }

    @Override
    public void orderDelete(final ITCH50.OrderDelete message)
    {
        onMessage(ITCH50.MESSAGE_TYPE_ORDER_DELETE, message.timestampHigh, message.timestampLow);
    }

    @Override
    public void orderReplace(final ITCH50.OrderReplace message)
    {
        onMessage(ITCH50.MESSAGE_TYPE_ORDER_REPLACE, message.timestampHigh, message.timestampLow);
    }

    @Override
    public void trade(final ITCH50.Trade message)
    {
        onMessage(ITCH50.MESSAGE_TYPE_TRADE, message.timestampHigh, message.timestampLow);
    }

    @Override
    public void crossTrade(final ITCH50.CrossTrade message)
    {
        onMessage(ITCH50.MESSAGE_TYPE_CROSS_TRADE, message.timestampHigh, message.timestampLow);
    }

    @Override
    public void brokenTrade(final ITCH50.BrokenTrade message)
    {
        onMessage(ITCH50.MESSAGE_TYPE_BROKEN_TRADE, message.timestampHigh, message.timestampLow);
    }

    @Override
    public void noii(final ITCH50.NOII message)
    {
        onMessage(ITCH50.MESSAGE_TYPE_NOII, message.timestampHigh, message.timestampLow);
    }

    @Override
    public void rpii(final ITCH50.RPII message)
    {
        onMessage(ITCH50.MESSAGE_TYPE_RPII, message.timestampHigh, message.timestampLow);
    }
}
