package io.bourse.gateway;

import io.bourse.common.config.SymbolDirectory;
import io.bourse.ouch.CancelOrder;
import io.bourse.ouch.EnterOrder;
import io.bourse.ouch.ModifyOrder;
import io.bourse.ouch.Ouch42;
import io.bourse.ouch.ReplaceOrder;
import org.agrona.DirectBuffer;
import org.agrona.collections.Long2ObjectHashMap;

import java.util.ArrayDeque;

/**
 * The gateway's order logic, free of sockets and Aeron: validates OUCH 4.2 Enter, Replace, Cancel and Modify Order
 * requests, checks them against the user's pre-trade risk limits, routes them as engine commands to the shard that owns
 * the symbol, and turns the engine's events for this gateway's orders into OUCH 4.2 outbound messages for the session
 * that owns each order. Keeps per-order state from the request until the order is done (fully executed, canceled or
 * rejected), and every token of the day per session.
 * <p>
 * Enter Order, each failure answered with OUCH 4.2 Rejected (see {@link RejectCause}): token of printable ASCII and
 * not all spaces ('O'); token not used before today in the session ('O': OUCH 4.2 has no duplicate-token code, and an
 * answer beats silence); the user's order rate ('O'); then the fields as {@link OrderValidation} checks them ('O',
 * 'Z', 'S', 'X', 'D', 'N', 'R'); then the user's {@link PreTradeRisk} limits ('m', 'n', 'X', 'O'). A command the engine
 * cannot take is answered with 'H'. A rejected token stays used for the day. Sides T (sell short) and E (sell short
 * exempt) are sells for the engine; Accepted echoes the side as entered. A blank Firm becomes the user's firm, which is
 * also the firm of self-trade prevention. The engine's own Rejected reasons (e.g. 'C' closed, 'H' halted, 'X' outside
 * its price band) reach the client as they are.
 * <p>
 * Replace Order checks the replacement token and the rate like an Enter Order's; a replacement of 0 shares for an open
 * order is sent as a cancel of it; otherwise an unknown existing token ('O'), the fields as {@link OrderValidation}
 * checks them, and the risk limits but the open-order count (a replace adds no order) are answered with Rejected for
 * the replacement token. Accepted echoes the engine's price (a post-only order may have been repriced) and display,
 * and the entered Firm and Minimum Quantity.
 * <p>
 * Cancel Order for a token that names no open order is ignored, as OUCH 4.2 specifies. Modify Order (OUCH 4.2: changes
 * that keep the order's priority) may change the side within the sell family (S, T, E; never buy to sell or back) and
 * lower the open shares ({@code Shares} is the new open size, as in Cancel Order; 0 cancels the rest). An unknown
 * token, another side change, more shares than are open, or more than {@value OrderState#MAX_PENDING_MODIFIES}
 * modifications of one order in flight are ignored, as OUCH 4.2 ignores a share increase (no Cancel Reject: that
 * message answers partial cancels during a cross, which Bourse does not run), and counted. The side is the gateway's
 * own state (the engine treats S, T and E alike); a size reduction is an engine cancel down to the new size, which
 * keeps priority. Each Modify Order is answered, in arrival order, with one Order Modified carrying the side it set and
 * the open shares: when the engine's cancel to its size comes back (instead of a Canceled), or at once when no shares
 * need to go (already at or below its size, e.g. after executions). A Modify Order for an order that is done before it
 * could be answered gets no answer. When a Cancel Order and a Modify Order to the same size are both in flight, their
 * one engine cancel is answered as Order Modified.
 * <p>
 * An engine cancel for self-match prevention (reason 'Q') is answered with AIQ Canceled instead of Canceled: Decrement
 * Shares as canceled; Quantity Prevented from Trading equal to it (the engine's event carries neither the other
 * order's size nor the trade price: exact under DECREMENT, an upper bound when a whole order was canceled); Liquidity
 * Flag 'A' for a resting order and 'R' for an incoming one (a midpoint peg that was sweeping is reported 'A');
 * Execution Price the resting order's own price, and for the incoming order the price of the resting order canceled
 * just before it on the shard when this gateway owns it (CANCEL_BOTH, DECREMENT), else its own limit (the least
 * favourable price it could have traded at).
 * <p>
 * When a session ends (logout, dropped connection, heartbeat timeout, protocol error, gateway stop) and the user's
 * cancel-on-disconnect option is on, every order of the session is canceled through the engine; the Canceled messages
 * are journaled in the session as usual, for the next login to replay (at a gateway stop the cancels are sent, but
 * the stopped gateway hears no answer).
 * <p>
 * An engine TradeBroken (an operator broke an execution) is answered with OUCH 4.2 Broken Trade, with the match
 * number and the reason, to the session of each side this gateway owns, whether or not the order is still open: the
 * session and token of every order that traded today are kept ({@link TradedOrders}). Nothing else changes: a broken
 * trade restores no shares to the order, and the risk limits keep counting the execution.
 * <p>
 * The order latency runs from an Enter or Replace Order to the engine's Accepted, Replaced or Rejected; a cancel or
 * modify may legitimately get no answer, so it is not timed.
 */
final class OrderEntry
{
    /** Orders that traded held before the registry first grows (doubling). */
    private static final int TRADED_ORDERS_INITIAL_CAPACITY = 16 * 1024;

    private final int gatewayId;
    private final long maxOrderShares;
    private final SymbolDirectory symbols;
    private final PreTradeRisk risk;
    private final EngineProxy engine;
    private final OuchProxy ouch;
    private final GatewayMetrics metrics;
    private final DutyCycleClock clock;
    private final Long2ObjectHashMap<OrderState> orders = new Long2ObjectHashMap<>();
    private final ArrayDeque<OrderState> pool = new ArrayDeque<>();
    private final TradedOrders tradedOrders = new TradedOrders(TRADED_ORDERS_INITIAL_CAPACITY);
    private final long[] preventedSequenceNumbers;
    private final long[] preventedPrices;

    /**
     * @param gatewayId      1..255, the top byte of this gateway's clientOrderIds.
     * @param maxOrderShares largest Shares accepted (the safety threshold, 'Z').
     * @param symbols        tradable symbols and their shards.
     * @param riskLimits     every user's pre-trade limits and options.
     * @param engine         where commands go.
     * @param ouch           where OUCH outbound messages go.
     * @param metrics        counters.
     * @param clock          the duty-cycle clock.
     */
    OrderEntry(
        final int gatewayId,
        final long maxOrderShares,
        final SymbolDirectory symbols,
        final RiskLimits riskLimits,
        final EngineProxy engine,
        final OuchProxy ouch,
        final GatewayMetrics metrics,
        final DutyCycleClock clock)
    {
        this.gatewayId = gatewayId;
        this.maxOrderShares = maxOrderShares;
        this.symbols = symbols;
        this.risk = new PreTradeRisk(riskLimits, symbols);
        this.engine = engine;
        this.ouch = ouch;
        this.metrics = metrics;
        this.clock = clock;
        preventedSequenceNumbers = new long[symbols.shardCount()];
        preventedPrices = new long[symbols.shardCount()];
    }

    /** @return orders tracked: entered and not yet done. */
    int openOrderCount()
    {
        return orders.size();
    }

    /**
     * @param clientOrderId any engine clientOrderId.
     * @return true when this gateway issued it.
     */
    boolean isOwn(final long clientOrderId)
    {
        return (clientOrderId >>> 56) == gatewayId;
    }

    /**
     * OUCH 4.2 Enter Order.
     *
     * @param session the sender.
     * @param message the request, length already checked.
     */
    void onEnterOrder(final UserSession session, final EnterOrder message)
    {
        final DirectBuffer buffer = message.buffer();
        final int tokenOffset = message.offset() + EnterOrder.ORDER_TOKEN_OFFSET;
        final PreTradeRisk.UserRisk user = admitNewToken(session, buffer, tokenOffset);
        if (null == user)
        {
            return;
        }
        final byte side = message.buySellIndicator();
        final long shares = message.shares();
        final long price = message.price();
        final SymbolDirectory.Entry symbol = symbols.find(message.stock());
        RejectCause problem = OrderValidation.checkEnterOrder(message, maxOrderShares, symbol);
        if (null == problem)
        {
            problem = risk.check(user, Ouch42.SIDE_BUY == side, shares, price, symbol.packed(), true);
        }
        if (null != problem)
        {
            reject(session, buffer, tokenOffset, problem);
            return;
        }

        final OrderState order = allocate(session, user, session.nextClientOrderId());
        countOpen(order);
        buffer.getBytes(tokenOffset, order.token);
        order.shardId = symbol.shardId();
        order.side = side;
        order.stock = symbol.packed();
        order.price = price;
        order.openShares = shares;
        order.timeInForce = message.timeInForce();
        order.firm = OrderValidation.isBlankFirm(message.firm()) ? session.firm() : message.firm();
        order.display = message.display();
        order.capacity = message.capacity();
        order.intermarketSweepEligibility = message.intermarketSweepEligibility();
        order.minimumQuantity = message.minimumQuantity();
        order.crossType = message.crossType();
        session.tokens().put(buffer, tokenOffset, order.clientOrderId);

        if (!engine.newOrder(order.shardId, clock.midnightNs(), order.clientOrderId, order.stock,
            Ouch42.SIDE_BUY == side, shares, price, order.timeInForce, order.minimumQuantity, order.firm,
            order.display))
        {
            metrics.reject(RejectCause.ENGINE_UNAVAILABLE);
            ouch.rejected(order, clock.midnightNs(), RejectCause.ENGINE_UNAVAILABLE.reason());
            release(order);
        }
    }

    /**
     * OUCH 4.2 Replace Order.
     *
     * @param session the sender.
     * @param message the request, length already checked.
     */
    void onReplaceOrder(final UserSession session, final ReplaceOrder message)
    {
        final DirectBuffer buffer = message.buffer();
        final int tokenOffset = message.offset() + ReplaceOrder.REPLACEMENT_ORDER_TOKEN_OFFSET;
        final PreTradeRisk.UserRisk user = admitNewToken(session, buffer, tokenOffset);
        if (null == user)
        {
            return;
        }
        final OrderState existing = openOrder(
            session, buffer, message.offset() + ReplaceOrder.EXISTING_ORDER_TOKEN_OFFSET);
        final long shares = message.shares();
        final long price = message.price();
        if (null != existing && 0 == shares)
        {
            cancel(existing, 0);
            return;
        }
        RejectCause problem = null == existing ? RejectCause.UNKNOWN_ORDER :
            OrderValidation.checkReplaceOrder(message, maxOrderShares, existing);
        if (null == problem)
        {
            problem = risk.check(user, Ouch42.SIDE_BUY == existing.side, shares, price, existing.stock, false);
        }
        if (null != problem)
        {
            reject(session, buffer, tokenOffset, problem);
            return;
        }

        final OrderState replacement = allocate(session, user, session.nextClientOrderId());
        buffer.getBytes(tokenOffset, replacement.token);
        System.arraycopy(existing.token, 0, replacement.previousToken, 0, Ouch42.TOKEN_LENGTH);
        replacement.shardId = existing.shardId;
        replacement.side = existing.side;
        replacement.stock = existing.stock;
        replacement.firm = existing.firm;
        replacement.capacity = existing.capacity;
        replacement.crossType = existing.crossType;
        replacement.price = price;
        replacement.openShares = shares;
        replacement.timeInForce = existing.timeInForce;
        replacement.display = message.display();
        replacement.intermarketSweepEligibility = message.intermarketSweepEligibility();
        replacement.minimumQuantity = message.minimumQuantity();
        session.tokens().put(buffer, tokenOffset, replacement.clientOrderId);

        if (!engine.replaceOrder(replacement.shardId, clock.midnightNs(), existing.clientOrderId,
            replacement.clientOrderId, shares, price))
        {
            metrics.reject(RejectCause.ENGINE_UNAVAILABLE);
            ouch.rejected(replacement, clock.midnightNs(), RejectCause.ENGINE_UNAVAILABLE.reason());
            release(replacement);
        }
    }

    /**
     * OUCH 4.2 Cancel Order: reduce the order to Shares, 0 for all of it.
     *
     * @param session the sender.
     * @param message the request, length already checked.
     */
    void onCancelOrder(final UserSession session, final CancelOrder message)
    {
        final OrderState order = openOrder(
            session, message.buffer(), message.offset() + CancelOrder.ORDER_TOKEN_OFFSET);
        if (null == order)
        {
            metrics.reject(RejectCause.UNKNOWN_ORDER);
            return;
        }
        cancel(order, message.shares());
    }

    /**
     * OUCH 4.2 Modify Order: change the side within the sell family and/or lower the open shares, keeping priority.
     *
     * @param session the sender.
     * @param message the request, length already checked.
     */
    void onModifyOrder(final UserSession session, final ModifyOrder message)
    {
        final OrderState order = openOrder(
            session, message.buffer(), message.offset() + ModifyOrder.ORDER_TOKEN_OFFSET);
        final byte side = message.buySellIndicator();
        final long shares = message.shares();
        final RejectCause problem = null == order ? RejectCause.UNKNOWN_ORDER :
            !isAllowedSideChange(order.side, side) ? RejectCause.MODIFY_SIDE :
            shares > order.openShares ? RejectCause.MODIFY_INCREASE :
            !order.canQueueModify() ? RejectCause.MODIFY_BACKLOG : null;
        if (null != problem)
        {
            metrics.reject(problem);
            return;
        }
        if (shares < order.openShares &&
            !engine.cancelOrder(order.shardId, clock.midnightNs(), order.clientOrderId, shares))
        {
            metrics.reject(RejectCause.ENGINE_UNAVAILABLE);
            return;
        }
        order.side = side;
        order.queueModify(shares, side);
        answerModifies(order, clock.midnightNs());
    }

    /**
     * A user's session ended: with cancel on disconnect, every order of the session is canceled through the engine.
     *
     * @param session the session whose connection closed.
     */
    void onSessionEnd(final UserSession session)
    {
        if (!risk.user(session).limits.cancelOnDisconnect())
        {
            return;
        }
        final long timestampNs = clock.midnightNs();
        for (final OrderState order : orders.values())
        {
            if (order.session == session)
            {
                if (engine.cancelOrder(order.shardId, timestampNs, order.clientOrderId, 0))
                {
                    metrics.cancelOnDisconnect.inc();
                }
                else
                {
                    metrics.reject(RejectCause.ENGINE_UNAVAILABLE);
                }
            }
        }
    }

    /**
     * Engine OrderAccepted: OUCH Accepted to the owner, with the engine's price and display.
     *
     * @param timestampNs   event time.
     * @param clientOrderId the order.
     * @param orderId       engine order reference number.
     * @param quantity      accepted shares.
     * @param price         accepted price: the entered one, or where the engine repriced a post-only order.
     * @param display       OUCH 4.2 Display code the engine accepted.
     */
    void onOrderAccepted(
        final long timestampNs, final long clientOrderId, final long orderId, final long quantity, final long price,
        final byte display)
    {
        final OrderState order = tracked(clientOrderId);
        if (null != order)
        {
            order.orderReferenceNumber = orderId;
            order.openShares = quantity;
            order.price = price;
            order.display = display;
            ouch.accepted(order, timestampNs, quantity, price);
            answered(order);
        }
    }

    /**
     * Engine OrderRejected: OUCH Rejected to the owner; for a replacement, the replaced order stays as it was.
     *
     * @param timestampNs   event time.
     * @param clientOrderId the refused order (for a replace, the replacement).
     * @param reason        OUCH 4.2 Rejected reason.
     */
    void onOrderRejected(final long timestampNs, final long clientOrderId, final byte reason)
    {
        final OrderState order = tracked(clientOrderId);
        if (null != order)
        {
            metrics.reject(RejectCause.ENGINE);
            ouch.rejected(order, timestampNs, reason);
            answered(order);
            release(order);
        }
    }

    /**
     * Engine OrderExecuted, for every trade on the shards: its price becomes the symbol's collar reference; OUCH
     * Executed to the taker's session (liquidity removed) and the maker's (added) when this gateway owns them, with
     * the same match number, shares and price.
     *
     * @param timestampNs        event time.
     * @param matchNumber        engine match number.
     * @param symbol             packed symbol.
     * @param quantity           traded shares.
     * @param price              trade price.
     * @param takerClientOrderId the incoming order.
     * @param takerLeaves        taker shares still open.
     * @param makerClientOrderId the resting order.
     * @param makerLeaves        maker shares still open.
     */
    void onOrderExecuted(
        final long timestampNs,
        final long matchNumber,
        final long symbol,
        final long quantity,
        final long price,
        final long takerClientOrderId,
        final long takerLeaves,
        final long makerClientOrderId,
        final long makerLeaves)
    {
        risk.onTrade(symbol, price);
        if (isOwn(takerClientOrderId))
        {
            executed(timestampNs, matchNumber, quantity, price, takerClientOrderId, takerLeaves,
                Ouch42.LIQUIDITY_REMOVED);
        }
        if (isOwn(makerClientOrderId))
        {
            executed(timestampNs, matchNumber, quantity, price, makerClientOrderId, makerLeaves,
                Ouch42.LIQUIDITY_ADDED);
        }
    }

    /**
     * Engine TradeBroken: OUCH 4.2 Broken Trade to the taker's session and the maker's when this gateway owns them,
     * with the order's token, the match number and the reason. An own order that never traded here (e.g. before a
     * gateway restart) is counted as an unmatched event.
     *
     * @param timestampNs        event time.
     * @param matchNumber        the broken execution's match number.
     * @param takerClientOrderId the incoming order of the execution.
     * @param makerClientOrderId the resting order of the execution.
     * @param reason             OUCH 4.2 Broken Trade reason: E erroneous, C consent, S supervisory, X external.
     */
    void onTradeBroken(
        final long timestampNs,
        final long matchNumber,
        final long takerClientOrderId,
        final long makerClientOrderId,
        final byte reason)
    {
        if (isOwn(takerClientOrderId))
        {
            brokenTrade(timestampNs, matchNumber, takerClientOrderId, reason);
        }
        if (isOwn(makerClientOrderId))
        {
            brokenTrade(timestampNs, matchNumber, makerClientOrderId, reason);
        }
    }

    /**
     * Engine OrderCanceled: to the owner, Order Modified when it answers a Modify Order, AIQ Canceled for self-match
     * prevention ('Q'), otherwise Canceled with the engine's reason as it is: U user requested, I immediate or cancel,
     * T timeout (good-till-seconds expiry), E closed.
     *
     * @param timestampNs      event time.
     * @param sequenceNumber   the event's shard sequence number.
     * @param clientOrderId    the order.
     * @param canceledQuantity shares taken off.
     * @param leavesQuantity   shares still open; 0 when the order is done.
     * @param reason           OUCH 4.2 Canceled reason.
     * @param wasResting       true when the order was on the book.
     */
    void onOrderCanceled(
        final long timestampNs,
        final long sequenceNumber,
        final long clientOrderId,
        final long canceledQuantity,
        final long leavesQuantity,
        final byte reason,
        final boolean wasResting)
    {
        final OrderState order = tracked(clientOrderId);
        if (null == order)
        {
            return;
        }
        order.openShares = leavesQuantity;
        if (Ouch42.CANCEL_USER_REQUESTED == reason && order.hasPendingModify() &&
            order.firstModifyShares() == leavesQuantity)
        {
            ouch.orderModified(order, timestampNs, order.firstModifySide(), leavesQuantity);
            order.removeFirstModify();
        }
        else if (Ouch42.CANCEL_SELF_MATCH_PREVENTION == reason)
        {
            aiqCanceled(order, timestampNs, sequenceNumber, canceledQuantity, wasResting);
        }
        else
        {
            ouch.canceled(order, timestampNs, canceledQuantity, reason);
        }
        answerModifies(order, timestampNs);
        releaseIfDone(order);
    }

    /**
     * Engine OrderReplaced: OUCH Replaced to the owner; the replaced order is done, the replacement lives on.
     *
     * @param timestampNs      event time.
     * @param clientOrderId    the replaced order.
     * @param newClientOrderId the replacement.
     * @param newOrderId       the replacement's order reference number.
     * @param quantity         new open shares.
     * @param price            new price.
     */
    void onOrderReplaced(
        final long timestampNs,
        final long clientOrderId,
        final long newClientOrderId,
        final long newOrderId,
        final long quantity,
        final long price)
    {
        final OrderState previous = isOwn(clientOrderId) ? orders.get(clientOrderId) : null;
        if (null != previous)
        {
            release(previous);
        }
        final OrderState replacement = tracked(newClientOrderId);
        if (null != replacement)
        {
            countOpen(replacement);
            replacement.orderReferenceNumber = newOrderId;
            replacement.openShares = quantity;
            replacement.price = price;
            ouch.replaced(replacement, timestampNs);
            answered(replacement);
        }
    }

    private void executed(
        final long timestampNs,
        final long matchNumber,
        final long quantity,
        final long price,
        final long clientOrderId,
        final long leaves,
        final byte liquidityFlag)
    {
        final OrderState order = orders.get(clientOrderId);
        if (null == order)
        {
            metrics.unmatchedEvents.inc();
            return;
        }
        order.openShares = leaves;
        tradedOrders.onExecuted(order);
        ouch.executed(order, timestampNs, quantity, price, liquidityFlag, matchNumber);
        answerModifies(order, timestampNs);
        releaseIfDone(order);
    }

    private void brokenTrade(
        final long timestampNs, final long matchNumber, final long clientOrderId, final byte reason)
    {
        final int index = tradedOrders.find(clientOrderId);
        if (TradedOrders.MISSING == index)
        {
            metrics.unmatchedEvents.inc();
            return;
        }
        ouch.brokenTrade(tradedOrders.session(index), timestampNs, tradedOrders.tokens(),
            TradedOrders.tokenOffset(index), matchNumber, reason);
    }

    private void aiqCanceled(
        final OrderState order,
        final long timestampNs,
        final long sequenceNumber,
        final long decrementShares,
        final boolean wasResting)
    {
        final int shard = order.shardId;
        final long executionPrice;
        if (wasResting)
        {
            executionPrice = order.price;
            preventedSequenceNumbers[shard] = sequenceNumber;
            preventedPrices[shard] = order.price;
        }
        else
        {
            final long previous = preventedSequenceNumbers[shard];
            executionPrice = 0 != previous && sequenceNumber - 1 == previous ? preventedPrices[shard] : order.price;
        }
        ouch.aiqCanceled(order, timestampNs, decrementShares, decrementShares, executionPrice,
            wasResting ? Ouch42.LIQUIDITY_ADDED : Ouch42.LIQUIDITY_REMOVED);
    }

    /**
     * Answers, in order, the pending Modify Orders whose size the order is already at or below: the engine's cancel
     * for them changes nothing, so none will come back. Nothing is answered for an order that is done.
     */
    private void answerModifies(final OrderState order, final long timestampNs)
    {
        while (order.openShares > 0 && order.hasPendingModify() && order.firstModifyShares() >= order.openShares)
        {
            ouch.orderModified(order, timestampNs, order.firstModifySide(), order.openShares);
            order.removeFirstModify();
        }
    }

    private void cancel(final OrderState order, final long shares)
    {
        if (!engine.cancelOrder(order.shardId, clock.midnightNs(), order.clientOrderId, shares))
        {
            // OUCH 4.2 has no message to refuse a cancel: the client sees no Canceled and may retry.
            metrics.reject(RejectCause.ENGINE_UNAVAILABLE);
        }
    }

    /**
     * Checks a new token (Enter Order's, or Replace Order's replacement), marks it used, and takes a token from the
     * user's rate bucket; answers Rejected on a fault.
     *
     * @return the user's risk state, or null when the request was rejected.
     */
    private PreTradeRisk.UserRisk admitNewToken(
        final UserSession session, final DirectBuffer buffer, final int tokenOffset)
    {
        if (!isValidToken(buffer, tokenOffset))
        {
            reject(session, buffer, tokenOffset, RejectCause.INVALID_TOKEN);
            return null;
        }
        if (TokenIndex.MISSING != session.tokens().get(buffer, tokenOffset))
        {
            reject(session, buffer, tokenOffset, RejectCause.DUPLICATE_TOKEN);
            return null;
        }
        session.tokens().put(buffer, tokenOffset, TokenIndex.USED);
        final PreTradeRisk.UserRisk user = risk.user(session);
        if (!user.admit(clock.nanoTime()))
        {
            reject(session, buffer, tokenOffset, RejectCause.RATE_LIMIT);
            return null;
        }
        return user;
    }

    private OrderState openOrder(final UserSession session, final DirectBuffer buffer, final int tokenOffset)
    {
        final long clientOrderId = session.tokens().get(buffer, tokenOffset);
        return clientOrderId > 0 ? orders.get(clientOrderId) : null;
    }

    private OrderState tracked(final long clientOrderId)
    {
        if (!isOwn(clientOrderId))
        {
            return null;
        }
        final OrderState order = orders.get(clientOrderId);
        if (null == order)
        {
            metrics.unmatchedEvents.inc();
        }
        return order;
    }

    private void reject(
        final UserSession session, final DirectBuffer buffer, final int tokenOffset, final RejectCause cause)
    {
        metrics.reject(cause);
        ouch.rejected(session, clock.midnightNs(), buffer, tokenOffset, cause.reason());
    }

    private void answered(final OrderState order)
    {
        if (0 != order.requestNanoTime)
        {
            metrics.orderLatency.recordNs(clock.nanoTime() - order.requestNanoTime);
            order.requestNanoTime = 0;
        }
    }

    private OrderState allocate(
        final UserSession session, final PreTradeRisk.UserRisk user, final long clientOrderId)
    {
        final OrderState pooled = pool.pollLast();
        final OrderState order = null == pooled ? new OrderState() : pooled;
        order.session = session;
        order.risk = user;
        order.clientOrderId = clientOrderId;
        order.requestNanoTime = clock.nanoTime();
        orders.put(clientOrderId, order);
        return order;
    }

    private static void countOpen(final OrderState order)
    {
        order.countedOpen = true;
        order.risk.onOrderOpened();
    }

    private void releaseIfDone(final OrderState order)
    {
        if (0 == order.openShares)
        {
            release(order);
        }
    }

    private void release(final OrderState order)
    {
        orders.remove(order.clientOrderId);
        if (order.countedOpen)
        {
            order.risk.onOrderClosed();
        }
        order.reset();
        pool.addLast(order);
    }

    private static boolean isAllowedSideChange(final byte from, final byte to)
    {
        return from == to || (OrderValidation.isSellSide(from) && OrderValidation.isSellSide(to));
    }

    private static boolean isValidToken(final DirectBuffer buffer, final int offset)
    {
        boolean blank = true;
        for (int i = 0; i < Ouch42.TOKEN_LENGTH; i++)
        {
            final byte b = buffer.getByte(offset + i);
            if (b < 0x20 || b > 0x7E)
            {
                return false;
            }
            blank &= ' ' == b;
        }
        return !blank;
    }
}
