package io.bourse.gateway;

import io.bourse.ouch.AiqCanceled;
import io.bourse.ouch.BrokenTrade;
import io.bourse.ouch.CancelPending;
import io.bourse.ouch.CancelReject;
import io.bourse.ouch.OrderAccepted;
import io.bourse.ouch.OrderCanceled;
import io.bourse.ouch.OrderExecuted;
import io.bourse.ouch.OrderModified;
import io.bourse.ouch.OrderPriorityUpdate;
import io.bourse.ouch.OrderRejected;
import io.bourse.ouch.OrderReplaced;
import io.bourse.ouch.Ouch42;
import io.bourse.ouch.SystemEvent;
import org.agrona.DirectBuffer;

import java.io.IOException;

/**
 * Rebuilds at start-up, from one session's journal of the day, what the {@link OrderEntry} knew of the session's orders
 * before a restart: replays the journal's records in order through the order life cycle the live gateway went through,
 * without sending anything. The private {@link OrderRecords} create the orders (Order Sent counts an entered order
 * open, Replacement Sent tracks a replacement not yet replaced, Order Rejected ends either) and tie tokens to
 * clientOrderIds (an order's Cross Type among its entered fields); the OUCH messages then move them on as they did the
 * client's view: Accepted sets the order reference number, open shares, price and display; Replaced ends the previous
 * order and opens the replacement; Canceled, AIQ Canceled and Executed (liquidity flag 'C' in the closing cross too)
 * take their shares off (an Executed also records the order for Broken Trade); Order Modified sets the side and open
 * shares; an order left with no shares is done; Cancel Pending and Cancel Reject leave the order as it is (a pending
 * cancel is the engine's to carry out after the cross, and its Canceled reaches the rebuilt gateway like any other
 * event); other message types change nothing rebuilt here. Event Sequences tell the session which engine events it has
 * answered, so that those heard again are not answered twice. A Media Driver record gives the orders sent after it the
 * media driver they went through ({@link OrderEntry#rejectOrdersLostWithTheirMediaDriver}). A System Event End of Day
 * tells the session that its day was closed ({@link MarketClose}), so that a gateway restarted after the close
 * journals none again. Every token in a record or a message is marked used, so that a journal without private records
 * (version 1) still ignores reused tokens. An order sent by another gateway id or to a shard the gateway no longer has
 * is not tracked (no event of it could reach this gateway); its token stays used. Used by the gateway's start-up
 * thread, before the agent runs.
 */
final class OrderRebuild implements SessionJournal.RecordHandler
{
    private final OrderEntry orderEntry;
    private final int shardCount;
    private final OrderAccepted accepted = new OrderAccepted();
    private final OrderReplaced replaced = new OrderReplaced();
    private final OrderCanceled canceled = new OrderCanceled();
    private final AiqCanceled aiqCanceled = new AiqCanceled();
    private final OrderExecuted executed = new OrderExecuted();
    private final OrderModified modified = new OrderModified();
    private UserSession session;
    private int skippedOrders;
    /** The journal's latest Media Driver record so far: the driver its next orders went through; 0 before one. */
    private long mediaDriverStartMs;

    /**
     * @param orderEntry the order logic to rebuild, with nothing tracked yet.
     * @param shardCount the engine shards this gateway sends to.
     */
    OrderRebuild(final OrderEntry orderEntry, final int shardCount)
    {
        this.orderEntry = orderEntry;
        this.shardCount = shardCount;
    }

    /**
     * Replays a session's journal into the order entry.
     *
     * @param session a session just created for a recovered journal (its new session index comes at its first login).
     * @throws IOException when the journal cannot be read, or holds a private record, or an OUCH message of a type
     *                     read here, of a layout the gateway never writes.
     */
    void rebuild(final UserSession session) throws IOException
    {
        this.session = session;
        mediaDriverStartMs = 0;
        try
        {
            session.journal().read(this);
            orderEntry.restoreTokens(session.tokens().size());
        }
        finally
        {
            this.session = null;
        }
    }

    /** @return orders the order entry tracks: open, or sent and not answered yet. */
    int openOrderCount()
    {
        return orderEntry.openOrderCount();
    }

    /** @return Order Sent and Replacement Sent records not tracked: of another gateway id, or of a shard not here. */
    int skippedOrderCount()
    {
        return skippedOrders;
    }

    @Override
    public void onMessage(final DirectBuffer buffer, final int offset, final int length) throws IOException
    {
        final byte type = buffer.getByte(offset);
        final int expectedLength = outboundLength(type);
        if (expectedLength < 0)
        {
            // Another OUCH 4.2 outbound type: nothing of the order state rebuilt here depends on it.
            return;
        }
        if (length != expectedLength)
        {
            throw notWrittenByGateway("message", type, length);
        }
        switch (type)
        {
            case Ouch42.ACCEPTED -> onAccepted(buffer, offset);
            case Ouch42.REPLACED -> onReplaced(buffer, offset);
            case Ouch42.CANCELED -> reduce(buffer, offset + OrderCanceled.ORDER_TOKEN_OFFSET,
                canceled.wrap(buffer, offset).decrementShares());
            case Ouch42.AIQ_CANCELED -> reduce(buffer, offset + AiqCanceled.ORDER_TOKEN_OFFSET,
                aiqCanceled.wrap(buffer, offset).decrementShares());
            case Ouch42.EXECUTED -> onExecuted(buffer, offset);
            case Ouch42.ORDER_MODIFIED -> onModified(buffer, offset);
            case Ouch42.REJECTED -> onRejected(buffer, offset + OrderRejected.ORDER_TOKEN_OFFSET);
            case Ouch42.BROKEN_TRADE -> order(buffer, offset + BrokenTrade.ORDER_TOKEN_OFFSET);
            case Ouch42.CANCEL_PENDING -> order(buffer, offset + CancelPending.ORDER_TOKEN_OFFSET);
            case Ouch42.CANCEL_REJECT -> order(buffer, offset + CancelReject.ORDER_TOKEN_OFFSET);
            case Ouch42.ORDER_PRIORITY_UPDATE -> order(buffer, offset + OrderPriorityUpdate.ORDER_TOKEN_OFFSET);
            default ->
            {
                // System Event: nothing about orders; End of Day tells that the session's day was closed.
                if (Ouch42.EVENT_END_OF_DAY == buffer.getByte(offset + SystemEvent.EVENT_CODE_OFFSET))
                {
                    session.endOfDayJournaled();
                }
            }
        }
    }

    @Override
    public void onPrivateRecord(final DirectBuffer buffer, final int offset, final int length) throws IOException
    {
        final byte type = buffer.getByte(offset + OrderRecords.RECORD_TYPE_OFFSET);
        switch (type)
        {
            case OrderRecords.ORDER_SENT, OrderRecords.REPLACEMENT_SENT ->
            {
                checkLength(type, length, OrderRecords.ORDER_LENGTH);
                onOrderSent(buffer, offset, OrderRecords.REPLACEMENT_SENT == type);
            }
            case OrderRecords.ORDER_REJECTED ->
            {
                checkLength(type, length, OrderRecords.ORDER_REJECTED_LENGTH);
                final OrderState order = orderEntry.order(
                    buffer.getLong(offset + OrderRecords.CLIENT_ORDER_ID_OFFSET, OrderRecords.ORDER));
                if (null != order)
                {
                    orderEntry.restoreDone(order);
                }
            }
            case OrderRecords.TOKEN_USED ->
            {
                checkLength(type, length, OrderRecords.TOKEN_USED_LENGTH);
                order(buffer, offset + OrderRecords.USED_TOKEN_OFFSET);
            }
            case OrderRecords.MEDIA_DRIVER ->
            {
                checkLength(type, length, OrderRecords.MEDIA_DRIVER_LENGTH);
                mediaDriverStartMs = buffer.getLong(offset + OrderRecords.DRIVER_START_OFFSET, OrderRecords.ORDER);
            }
            case OrderRecords.EVENT_SEQUENCES ->
            {
                checkLength(type, length, OrderRecords.eventSequencesLength(
                    buffer.getShort(offset + OrderRecords.SHARD_COUNT_OFFSET, OrderRecords.ORDER) & 0xFFFF));
                session.restoreAnswered(buffer, offset);
            }
            default -> throw notWrittenByGateway("private record", type, length);
        }
    }

    private void onOrderSent(final DirectBuffer buffer, final int offset, final boolean replacement)
    {
        final long clientOrderId = buffer.getLong(offset + OrderRecords.CLIENT_ORDER_ID_OFFSET, OrderRecords.ORDER);
        final int shardId = buffer.getShort(offset + OrderRecords.SHARD_ID_OFFSET, OrderRecords.ORDER) &
            OrderRecords.MAX_SHARD_ID;
        final int tokenOffset = offset + OrderRecords.ORDER_TOKEN_OFFSET;
        if (!orderEntry.isOwn(clientOrderId) || shardId >= shardCount)
        {
            skippedOrders++;
            order(buffer, tokenOffset);
            return;
        }
        final OrderState order = orderEntry.restore(session, clientOrderId);
        order.shardId = shardId;
        order.side = buffer.getByte(offset + OrderRecords.SIDE_OFFSET);
        order.display = buffer.getByte(offset + OrderRecords.DISPLAY_OFFSET);
        order.capacity = buffer.getByte(offset + OrderRecords.CAPACITY_OFFSET);
        order.intermarketSweepEligibility = buffer.getByte(offset + OrderRecords.INTERMARKET_SWEEP_ELIGIBILITY_OFFSET);
        order.crossType = buffer.getByte(offset + OrderRecords.CROSS_TYPE_OFFSET);
        order.stock = buffer.getLong(offset + OrderRecords.STOCK_OFFSET, OrderRecords.ORDER);
        order.openShares = uint32(buffer, offset + OrderRecords.SHARES_OFFSET);
        order.price = uint32(buffer, offset + OrderRecords.PRICE_OFFSET);
        order.timeInForce = uint32(buffer, offset + OrderRecords.TIME_IN_FORCE_OFFSET);
        order.minimumQuantity = uint32(buffer, offset + OrderRecords.MINIMUM_QUANTITY_OFFSET);
        order.firm = buffer.getInt(offset + OrderRecords.FIRM_OFFSET, OrderRecords.ORDER);
        order.sentThroughMediaDriverMs = mediaDriverStartMs;
        buffer.getBytes(tokenOffset, order.token);
        buffer.getBytes(offset + OrderRecords.PREVIOUS_ORDER_TOKEN_OFFSET, order.previousToken);
        if (!replacement)
        {
            orderEntry.restoreOpen(order);
        }
        session.tokens().put(buffer, tokenOffset, clientOrderId);
    }

    private void onAccepted(final DirectBuffer buffer, final int offset)
    {
        final OrderState order = order(buffer, offset + OrderAccepted.ORDER_TOKEN_OFFSET);
        if (null != order)
        {
            accepted.wrap(buffer, offset);
            order.orderReferenceNumber = accepted.orderReferenceNumber();
            order.openShares = accepted.shares();
            order.price = accepted.price();
            order.display = accepted.display();
        }
    }

    private void onReplaced(final DirectBuffer buffer, final int offset)
    {
        final OrderState previous = order(buffer, offset + OrderReplaced.PREVIOUS_ORDER_TOKEN_OFFSET);
        if (null != previous)
        {
            orderEntry.restoreDone(previous);
        }
        final OrderState replacement = order(buffer, offset + OrderReplaced.REPLACEMENT_ORDER_TOKEN_OFFSET);
        if (null != replacement)
        {
            replaced.wrap(buffer, offset);
            orderEntry.restoreOpen(replacement);
            replacement.orderReferenceNumber = replaced.orderReferenceNumber();
            replacement.openShares = replaced.shares();
            replacement.price = replaced.price();
        }
    }

    private void onExecuted(final DirectBuffer buffer, final int offset)
    {
        final OrderState order = order(buffer, offset + OrderExecuted.ORDER_TOKEN_OFFSET);
        if (null != order)
        {
            orderEntry.restoreTraded(order);
            takeOff(order, executed.wrap(buffer, offset).executedShares());
        }
    }

    private void onModified(final DirectBuffer buffer, final int offset)
    {
        final OrderState order = order(buffer, offset + OrderModified.ORDER_TOKEN_OFFSET);
        if (null != order)
        {
            modified.wrap(buffer, offset);
            order.side = modified.buySellIndicator();
            order.openShares = modified.shares();
            takeOff(order, 0);
        }
    }

    private void reduce(final DirectBuffer buffer, final int tokenOffset, final long shares)
    {
        final OrderState order = order(buffer, tokenOffset);
        if (null != order)
        {
            takeOff(order, shares);
        }
    }

    private void takeOff(final OrderState order, final long shares)
    {
        order.openShares -= shares;
        if (order.openShares <= 0)
        {
            orderEntry.restoreDone(order);
        }
    }

    /**
     * A Rejected: of a new token (Enter Order's, or a replacement's) that the index does not hold, the token is marked
     * used only when the order entry would have taken it ({@link OrderEntry#wasTokenTaken}): one refused as invalid or
     * for the token capacity was not, and a client may send such orders by the million. Before, every one was marked
     * used at a restart, so the day's token capacity no longer bounded the index (an index past the heap) and one
     * session's refused tokens used up the others' day capacity. A token the index holds already names a known order
     * or a used token: nothing changes.
     */
    private void onRejected(final DirectBuffer buffer, final int tokenOffset)
    {
        if (orderEntry.wasTokenTaken(session, buffer, tokenOffset))
        {
            session.tokens().put(buffer, tokenOffset, TokenIndex.USED);
        }
    }

    /**
     * Marks a token used, if it was not, and finds the order it names.
     *
     * @return the tracked order the session's token names, or null.
     */
    private OrderState order(final DirectBuffer buffer, final int tokenOffset)
    {
        final TokenIndex tokens = session.tokens();
        final long clientOrderId = tokens.get(buffer, tokenOffset);
        if (TokenIndex.MISSING == clientOrderId)
        {
            tokens.put(buffer, tokenOffset, TokenIndex.USED);
            return null;
        }
        return TokenIndex.USED == clientOrderId ? null : orderEntry.order(clientOrderId);
    }

    private void checkLength(final byte type, final int length, final int expected) throws IOException
    {
        if (length != expected)
        {
            throw notWrittenByGateway("private record", type, length);
        }
    }

    private IOException notWrittenByGateway(final String kind, final byte type, final int length)
    {
        return new IOException(session.journal().file() + ": " + kind + " of type '" + (char)type + "' and length " +
            length + " is none the gateway writes");
    }

    private static long uint32(final DirectBuffer buffer, final int index)
    {
        return buffer.getInt(index, OrderRecords.ORDER) & OrderRecords.UINT32_MASK;
    }

    /** @return length of the OUCH 4.2 outbound message of a type rebuilding reads, or -1 for another type. */
    private static int outboundLength(final byte type)
    {
        return switch (type)
        {
            case Ouch42.SYSTEM_EVENT -> SystemEvent.LENGTH;
            case Ouch42.ACCEPTED -> OrderAccepted.LENGTH;
            case Ouch42.REPLACED -> OrderReplaced.LENGTH;
            case Ouch42.CANCELED -> OrderCanceled.LENGTH;
            case Ouch42.AIQ_CANCELED -> AiqCanceled.LENGTH;
            case Ouch42.EXECUTED -> OrderExecuted.LENGTH;
            case Ouch42.ORDER_MODIFIED -> OrderModified.LENGTH;
            case Ouch42.REJECTED -> OrderRejected.LENGTH;
            case Ouch42.BROKEN_TRADE -> BrokenTrade.LENGTH;
            case Ouch42.CANCEL_PENDING -> CancelPending.LENGTH;
            case Ouch42.CANCEL_REJECT -> CancelReject.LENGTH;
            case Ouch42.ORDER_PRIORITY_UPDATE -> OrderPriorityUpdate.LENGTH;
            default -> -1;
        };
    }
}
