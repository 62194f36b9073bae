package io.bourse.it;

import com.paritytrading.juncture.nasdaq.itch50.ITCH50;
import com.paritytrading.juncture.nasdaq.itch50.ITCH50Listener;
import com.paritytrading.juncture.nasdaq.itch50.ITCH50Parser;
import com.paritytrading.nassau.MessageListener;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Records the ITCH 5.0 order messages a market-data subscriber receives (ITCH 5.0 §4.3.1 Add Order, §4.4.1 Order
 * Executed), in arrival order, and builds the subscriber's order-by-order book from Add Order ('A', 'F'), Order
 * Executed ('E', 'C'), Order Cancel ('X'), Order Delete ('D') and Order Replace ('U'), failing (an
 * {@link IllegalStateException} out of {@link #message}) at an order added twice, or changed while not in the book or
 * by more shares than it has; the tests ignore every other message type. As a {@link MessageListener} it also keeps
 * every message's bytes as received before parsing them.
 */
final class ItchRecorder implements ITCH50Listener, MessageListener
{
    /** A displayed order resting in the book: remaining shares, price in 1/10000 $, packed stock. */
    record BookOrder(long orderReference, byte side, long shares, long stock, long price)
    {
    }

    /** ITCH 5.0 Add Order (No MPID Attribution): price in 1/10000 $, shares, packed stock. */
    record AddOrder(long orderReference, byte side, long shares, long stock, long price)
    {
    }

    /** ITCH 5.0 Add Order with MPID Attribution: the order reference and the Attribution, spaces trimmed. */
    record AttributedOrder(long orderReference, String attribution)
    {
    }

    /** ITCH 5.0 Order Executed: executed shares and match number. */
    record OrderExecuted(long orderReference, long shares, long matchNumber)
    {
    }

    /**
     * Bytes of an ITCH 5.0 Cross Trade 'Q' (40) that juncture-nasdaq 1.0.0's parser leaves unread: it reads Shares as
     * 4 bytes, the ITCH 4.1 layout, where ITCH 5.0 has 8 (so its Shares and the fields after it are not the message's;
     * the tests read none of them).
     */
    private static final int CROSS_TRADE_BYTES_JUNCTURE_LEAVES = 4;

    private final List<AddOrder> addOrders = new ArrayList<>();
    private final List<AttributedOrder> attributedOrders = new ArrayList<>();
    private final List<OrderExecuted> executions = new ArrayList<>();
    private final Map<Long, BookOrder> book = new HashMap<>();
    private final List<byte[]> messages = new ArrayList<>();
    private final ITCH50Parser parser = new ITCH50Parser(this);

    /**
     * Keeps the message's bytes, then parses it.
     *
     * @param message one ITCH 5.0 message, from position to limit.
     * @throws IOException when it is malformed (juncture's parser), or not as long as juncture's layout of its type
     *                     (Cross Trade 'Q': 4 bytes longer, see {@link #CROSS_TRADE_BYTES_JUNCTURE_LEAVES}).
     */
    @Override
    public void message(final ByteBuffer message) throws IOException
    {
        final byte[] bytes = new byte[message.remaining()];
        message.duplicate().get(bytes);
        messages.add(bytes);
        parser.message(message);
        final int leftOver = 'Q' == bytes[0] ? CROSS_TRADE_BYTES_JUNCTURE_LEAVES : 0;
        if (message.remaining() != leftOver)
        {
            throw new IOException("ITCH 5.0 '" + (char)bytes[0] + "' of " + bytes.length + " bytes: " +
                message.remaining() + " left over by juncture's parser, " + leftOver + " expected");
        }
    }

    /** @return every message received through {@link #message}, as received, in arrival order. */
    List<byte[]> messages()
    {
        return messages;
    }

    /**
     * @param stock packed symbol.
     * @return the orders of the stock resting in the book built so far, by Order Reference Number.
     */
    List<BookOrder> book(final long stock)
    {
        return book.values().stream()
            .filter((order) -> order.stock() == stock)
            .sorted(Comparator.comparingLong(BookOrder::orderReference))
            .toList();
    }

    /**
     * @throws IllegalStateException for an Order Reference Number already in the book: a feed that sends an order
     *                               twice (a snapshot overlapping the increments) fails the test.
     */
    private void add(final long orderReference, final byte side, final long shares, final long stock,
        final long price)
    {
        final BookOrder before = book.putIfAbsent(orderReference, new BookOrder(orderReference, side, shares, stock,
            price));
        if (null != before)
        {
            throw new IllegalStateException("ITCH Add Order of order " + orderReference + ", already in the book: " +
                before);
        }
    }

    /** @throws IllegalStateException for an order not in the book or fewer shares than taken off it. */
    private BookOrder resting(final long orderReference, final long shares, final String message)
    {
        final BookOrder order = book.get(orderReference);
        if (null == order || order.shares() < shares)
        {
            throw new IllegalStateException("ITCH " + message + " of " + shares + " shares of order " +
                orderReference + ", " + (null == order ? "not in the book" : "which has " + order.shares()));
        }
        return order;
    }

    private void reduce(final long orderReference, final long shares, final String message)
    {
        final BookOrder order = resting(orderReference, shares, message);
        if (order.shares() == shares)
        {
            book.remove(orderReference);
        }
        else
        {
            book.put(orderReference, new BookOrder(
                orderReference, order.side(), order.shares() - shares, order.stock(), order.price()));
        }
    }

    /** @return Add Order messages in arrival order. */
    List<AddOrder> addOrders()
    {
        return addOrders;
    }

    /** @return Add Order with MPID Attribution messages in arrival order. */
    List<AttributedOrder> attributedOrders()
    {
        return attributedOrders;
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
        add(message.orderReferenceNumber, message.buySellIndicator, message.shares, message.stock, message.price);
    }

    @Override
    public void orderExecuted(final ITCH50.OrderExecuted message)
    {
        executions.add(new OrderExecuted(message.orderReferenceNumber, message.executedShares, message.matchNumber));
        reduce(message.orderReferenceNumber, message.executedShares, "Order Executed");
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
        attributedOrders.add(new AttributedOrder(message.orderReferenceNumber, new String(
            ByteBuffer.allocate(4).putInt(message.attribution).array(), StandardCharsets.US_ASCII).trim()));
        add(message.orderReferenceNumber, message.buySellIndicator, message.shares, message.stock, message.price);
    }

    @Override
    public void orderExecutedWithPrice(final ITCH50.OrderExecutedWithPrice message)
    {
        reduce(message.orderReferenceNumber, message.executedShares, "Order Executed With Price");
    }

    @Override
    public void orderCancel(final ITCH50.OrderCancel message)
    {
        reduce(message.orderReferenceNumber, message.canceledShares, "Order Cancel");
    }

    @Override
    public void orderDelete(final ITCH50.OrderDelete message)
    {
        book.remove(resting(message.orderReferenceNumber, 0, "Order Delete").orderReference());
    }

    @Override
    public void orderReplace(final ITCH50.OrderReplace message)
    {
        final BookOrder order = resting(message.originalOrderReferenceNumber, 0, "Order Replace");
        book.remove(order.orderReference());
        add(message.newOrderReferenceNumber, order.side(), message.shares, order.stock(), message.price);
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
