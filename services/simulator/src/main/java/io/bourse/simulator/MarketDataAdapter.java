package io.bourse.simulator;

import com.paritytrading.juncture.nasdaq.itch50.ITCH50;
import com.paritytrading.juncture.nasdaq.itch50.ITCH50Exception;
import com.paritytrading.juncture.nasdaq.itch50.ITCH50Listener;
import com.paritytrading.juncture.nasdaq.itch50.ITCH50Parser;
import com.paritytrading.nassau.MessageListener;
import io.bourse.common.config.SymbolDirectory;
import io.bourse.common.config.Symbols;

import java.io.IOException;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;

import static io.bourse.itch.ItchTranslator.TIMESTAMP_OFFSET;
import static io.bourse.itch.ItchTranslator.timeOfDayNs;

/**
 * Decodes the ITCH 5.0 messages of one market-data session and builds its books: Add Order 'A'/'F', Order Executed
 * 'E', Order Executed With Price 'C', Order Cancel 'X', Order Delete 'D' and Order Replace 'U' change the
 * {@link OrderBooks}; trades go to the listener: 'E' at the resting order's price (none for an order the books lack),
 * 'C' at its execution price when printable, known order or not (a non-printable 'C' is part of a cross, reported
 * once by its Cross Trade), Trade 'P' and Cross Trade 'Q' at their prices. Juncture's parser reads everything but
 * 'Q', which juncture-nasdaq 1.0.0 reads with ITCH 4.1's 4-byte Shares: 'Q' is read here at the offsets of ITCH 5.0
 * §4.5.2 (40 bytes, 8-byte Shares). A malformed or unknown message is counted as an error and skipped, so one bad
 * message does not end the session; the first is logged with the session's name. A System Event End of Messages
 * ('C', ITCH 5.0 §4.1) is remembered ({@link #isEndOfMessages}): the server closes its session in order (a stop, or
 * the MoldUDP64 day switch), so its end is no loss. A Stock Directory 'R' (ITCH 5.0 §4.2.1) is checked against the
 * configured symbols: one that names another symbol at its Stock Locate, or a locate they do not have, is counted as
 * {@link SimulatorError#STOCK_DIRECTORY_MISMATCH} (the per-symbol figures, by locate, would be another symbol's).
 * Owned by one thread.
 */
final class MarketDataAdapter implements MessageListener, ITCH50Listener
{
    private static final int CROSS_TRADE_LENGTH = 40;
    private static final byte PRINTABLE = 'Y';

    private final ITCH50Parser parser = new ITCH50Parser(this);
    private final String sessionName;
    private final SymbolDirectory symbols;
    private final SimulatorCounters counters;
    private final OrderBooks books;
    private final MarketDataListener listener;
    private final FeedObserver observer;
    private boolean endOfMessages;
    private volatile long sessionStarts;

    /**
     * @param sessionName the session's name, which the log of a malformed message gives.
     * @param symbols     the configured symbols, which the books and figures are by (their Stock Locates).
     * @param counters    where to count errors.
     * @param books       the books this session builds.
     * @param listener    receives trades and the books' inconsistencies.
     * @param observer    sees every message first.
     */
    MarketDataAdapter(
        final String sessionName,
        final SymbolDirectory symbols,
        final SimulatorCounters counters,
        final OrderBooks books,
        final MarketDataListener listener,
        final FeedObserver observer)
    {
        this.sessionName = sessionName;
        this.symbols = symbols;
        this.counters = counters;
        this.books = books;
        this.listener = listener;
        this.observer = observer;
    }

    /** @return the session's name. */
    String sessionName()
    {
        return sessionName;
    }

    /** @return the books this session builds. */
    OrderBooks books()
    {
        return books;
    }

    /**
     * For a new session of the same feed (a login or join again): empties the books, forgets an End of Messages; on
     * the market-data thread.
     */
    void startSession()
    {
        books.clear();
        endOfMessages = false;
        sessionStarts++; // the one writer's
    }

    /** @return how many times a new session started ({@link #startSession}), emptying the books; any thread. */
    long sessionStarts()
    {
        return sessionStarts;
    }

    /**
     * @return true once the session's System Event End of Messages (ITCH 5.0 §4.1, event code 'C') came, until
     * {@link #startSession}: the server sends nothing more in it and ends it in order.
     */
    boolean isEndOfMessages()
    {
        return endOfMessages;
    }

    @Override
    public void message(final ByteBuffer buffer) throws IOException
    {
        try
        {
            if (buffer.hasRemaining() && ITCH50.MESSAGE_TYPE_CROSS_TRADE == buffer.get(buffer.position()))
            {
                crossTrade(buffer);
            }
            else
            {
                parser.message(buffer);
            }
        }
        catch (final ITCH50Exception | BufferUnderflowException ex)
        {
            counters.errors().error(SimulatorError.MALFORMED_ITCH, sessionName, ex);
        }
    }

    private void crossTrade(final ByteBuffer buffer) throws ITCH50Exception
    {
        if (CROSS_TRADE_LENGTH != buffer.remaining())
        {
            throw new ITCH50Exception("Cross Trade of " + buffer.remaining() + " bytes");
        }
        final int offset = buffer.position();
        final int locate = Short.toUnsignedInt(buffer.getShort(offset + 1));
        final int timestamp = offset + TIMESTAMP_OFFSET;
        final long timestampNs = timeOfDayNs(buffer.getShort(timestamp), buffer.getInt(timestamp + Short.BYTES));
        final long shares = buffer.getLong(offset + 11);
        final long crossPrice = Integer.toUnsignedLong(buffer.getInt(offset + 27));
        final long matchNumber = buffer.getLong(offset + 31);
        buffer.position(buffer.limit());
        observer.onMessage(ITCH50.MESSAGE_TYPE_CROSS_TRADE, timestampNs);
        listener.onTrade(locate, timestampNs, crossPrice, shares, matchNumber);
    }

    private void observe(final byte messageType, final int timestampHigh, final long timestampLow)
    {
        observer.onMessage(messageType, timeOfDayNs(timestampHigh, timestampLow));
    }

    @Override
    public void systemEvent(final ITCH50.SystemEvent message)
    {
        if (ITCH50.EVENT_CODE_END_OF_MESSAGES == message.eventCode)
        {
            endOfMessages = true;
        }
        observe(ITCH50.MESSAGE_TYPE_SYSTEM_EVENT, message.timestampHigh, message.timestampLow);
    }

    @Override
    public void stockDirectory(final ITCH50.StockDirectory message)
    {
        observe(ITCH50.MESSAGE_TYPE_STOCK_DIRECTORY, message.timestampHigh, message.timestampLow);
        final int locate = message.stockLocate;
        final boolean known = locate >= 1 && locate <= symbols.entries().size();
        if ((!known || symbols.entries().get(locate - 1).packed() != message.stock) &&
            counters.errors().errorToLog(SimulatorError.STOCK_DIRECTORY_MISMATCH))
        {
            counters.errors().log(SimulatorError.STOCK_DIRECTORY_MISMATCH, sessionName, "Stock Directory names " +
                Symbols.toString(message.stock).trim() + " at Stock Locate " + locate + ", the configured symbols (" +
                SymbolDirectory.SYMBOLS_PROP_NAME + ") " + (known ? "name " +
                symbols.entries().get(locate - 1).symbol() + " there" : "have no such locate") +
                ": the feed's exchange trades other symbols");
        }
    }

    @Override
    public void stockTradingAction(final ITCH50.StockTradingAction message)
    {
        observe(ITCH50.MESSAGE_TYPE_STOCK_TRADING_ACTION, message.timestampHigh, message.timestampLow);
    }

    @Override
    public void regSHORestriction(final ITCH50.RegSHORestriction message)
    {
        observe(ITCH50.MESSAGE_TYPE_REG_SHO_RESTRICTION, message.timestampHigh, message.timestampLow);
    }

    @Override
    public void marketParticipantPosition(final ITCH50.MarketParticipantPosition message)
    {
        observe(ITCH50.MESSAGE_TYPE_MARKET_PARTICIPANT_POSITION, message.timestampHigh, message.timestampLow);
    }

    @Override
    public void mwcbDeclineLevel(final ITCH50.MWCBDeclineLevel message)
    {
        observe(ITCH50.MESSAGE_TYPE_MWCB_DECLINE_LEVEL, message.timestampHigh, message.timestampLow);
    }

    @Override
    public void mwcbStatus(final ITCH50.MWCBStatus message)
    {
        observe(ITCH50.MESSAGE_TYPE_MWCB_STATUS, message.timestampHigh, message.timestampLow);
    }

    @Override
    public void ipoQuotingPeriodUpdate(final ITCH50.IPOQuotingPeriodUpdate message)
    {
        observe(ITCH50.MESSAGE_TYPE_IPO_QUOTING_PERIOD_UPDATE, message.timestampHigh, message.timestampLow);
    }

    @Override
    public void luldAuctionCollar(final ITCH50.LULDAuctionCollar message)
    {
        observe(ITCH50.MESSAGE_TYPE_LULD_AUCTION_COLLAR, message.timestampHigh, message.timestampLow);
    }

    @Override
    public void operationalHalt(final ITCH50.OperationalHalt message)
    {
        observe(ITCH50.MESSAGE_TYPE_OPERATIONAL_HALT, message.timestampHigh, message.timestampLow);
    }

    @Override
    public void addOrder(final ITCH50.AddOrder message)
    {
        observe(ITCH50.MESSAGE_TYPE_ADD_ORDER, message.timestampHigh, message.timestampLow);
        books.add(message.stockLocate, message.orderReferenceNumber, message.buySellIndicator, message.shares,
            message.price);
    }

    @Override
    public void addOrderMPID(final ITCH50.AddOrderMPID message)
    {
        observe(ITCH50.MESSAGE_TYPE_ADD_ORDER_MPID, message.timestampHigh, message.timestampLow);
        books.add(message.stockLocate, message.orderReferenceNumber, message.buySellIndicator, message.shares,
            message.price);
    }

    @Override
    public void orderExecuted(final ITCH50.OrderExecuted message)
    {
        observe(ITCH50.MESSAGE_TYPE_ORDER_EXECUTED, message.timestampHigh, message.timestampLow);
        final long price = books.execute(message.stockLocate, message.orderReferenceNumber, message.executedShares);
        if (OrderBooks.NO_PRICE != price)
        {
            listener.onTrade(message.stockLocate, timeOfDayNs(message.timestampHigh, message.timestampLow), price,
                message.executedShares, message.matchNumber);
        }
    }

    @Override
    public void orderExecutedWithPrice(final ITCH50.OrderExecutedWithPrice message)
    {
        observe(ITCH50.MESSAGE_TYPE_ORDER_EXECUTED_WITH_PRICE, message.timestampHigh, message.timestampLow);
        books.execute(message.stockLocate, message.orderReferenceNumber, message.executedShares);
        // A trade at the price it carries, even of an order the books lack (counted by execute as an inconsistency).
        if (PRINTABLE == message.printable)
        {
            listener.onTrade(message.stockLocate, timeOfDayNs(message.timestampHigh, message.timestampLow),
                message.executionPrice, message.executedShares, message.matchNumber);
        }
    }

    @Override
    public void orderCancel(final ITCH50.OrderCancel message)
    {
        observe(ITCH50.MESSAGE_TYPE_ORDER_CANCEL, message.timestampHigh, message.timestampLow);
        books.cancel(message.stockLocate, message.orderReferenceNumber, message.canceledShares);
    }

    @Override
    public void orderDelete(final ITCH50.OrderDelete message)
    {
        observe(ITCH50.MESSAGE_TYPE_ORDER_DELETE, message.timestampHigh, message.timestampLow);
        books.delete(message.stockLocate, message.orderReferenceNumber);
    }

    @Override
    public void orderReplace(final ITCH50.OrderReplace message)
    {
        observe(ITCH50.MESSAGE_TYPE_ORDER_REPLACE, message.timestampHigh, message.timestampLow);
        books.replace(message.stockLocate, message.originalOrderReferenceNumber, message.newOrderReferenceNumber,
            message.shares, message.price);
    }

    @Override
    public void trade(final ITCH50.Trade message)
    {
        observe(ITCH50.MESSAGE_TYPE_TRADE, message.timestampHigh, message.timestampLow);
        listener.onTrade(message.stockLocate, timeOfDayNs(message.timestampHigh, message.timestampLow), message.price,
            message.shares, message.matchNumber);
    }

    @Override
    public void crossTrade(final ITCH50.CrossTrade message)
    {
        // Not reached: Cross Trade is read at ITCH 5.0 offsets before juncture's parser.
        observe(ITCH50.MESSAGE_TYPE_CROSS_TRADE, message.timestampHigh, message.timestampLow);
    }

    @Override
    public void brokenTrade(final ITCH50.BrokenTrade message)
    {
        observe(ITCH50.MESSAGE_TYPE_BROKEN_TRADE, message.timestampHigh, message.timestampLow);
        listener.onBrokenTrade(message.matchNumber);
    }

    @Override
    public void noii(final ITCH50.NOII message)
    {
        observe(ITCH50.MESSAGE_TYPE_NOII, message.timestampHigh, message.timestampLow);
    }

    @Override
    public void rpii(final ITCH50.RPII message)
    {
        observe(ITCH50.MESSAGE_TYPE_RPII, message.timestampHigh, message.timestampLow);
    }
}
