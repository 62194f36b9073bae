package io.bourse.gateway;

import io.bourse.common.config.SymbolDirectory;
import io.bourse.ouch.CancelOrder;
import io.bourse.ouch.EnterOrder;
import io.bourse.ouch.Ouch42;
import io.bourse.ouch.ReplaceOrder;
import org.agrona.DirectBuffer;
import org.agrona.collections.Long2ObjectHashMap;

import java.util.ArrayDeque;

/**
 * The gateway's order logic, free of sockets and Aeron: validates OUCH 4.2 Enter, Replace and Cancel Order requests,
 * routes them as engine commands to the shard that owns the symbol, and turns the engine's events for this gateway's
 * orders into OUCH 4.2 outbound messages for the session that owns each order. Keeps per-order state from the
 * request until the order is done (fully executed, canceled or rejected), and every token of the day per session.
 * <p>
 * Validation, in this order, each failure answered with OUCH 4.2 Rejected (see {@link RejectCause}): token of
 * printable ASCII and not all spaces ('O'); token not used before today in the session ('O': OUCH 4.2 has no
 * duplicate-token code, and an answer beats silence); Buy/Sell Indicator B, S, T or E ('O'); shares
 * 1..maxOrderShares ('Z'); stock in the {@link SymbolDirectory} ('S'); price 1..$199,999.99 ('X'); Display A
 * (attributable), Y (anonymous), N (non-displayed), P (post-only) or M (midpoint peg) ('D': I, imbalance only, and
 * the other OUCH 4.2 values are not supported). A command the engine cannot take is answered with 'H'. A rejected
 * token stays used for the day. Sides T (sell short) and E (sell short exempt) are sells for the engine; Accepted
 * echoes the side as entered. A blank Firm becomes the user's firm, which is also the firm of self-trade prevention.
 * Time in Force, Minimum Quantity and the display's own rules (post-only not immediate-or-cancel) are the engine's to
 * check: its Rejected reasons ('O', 'N', 'D') reach the client as they are.
 * <p>
 * Cancel Order for a token that names no open order is ignored, as OUCH 4.2 specifies. Replace Order checks the
 * replacement token like an Enter Order's and answers a bad one, an unknown existing token, bad shares or price, a
 * Time in Force or Display other than the order's (the engine keeps both: 'O' and 'D'), or a Minimum Quantity other
 * than 0 (the engine takes one on immediate-or-cancel entries only, which never rest: 'N') with Rejected for the
 * replacement token; a replacement of 0 shares is sent as a cancel of the existing order. Accepted echoes the
 * engine's price (a post-only order may have been repriced) and display, and the entered Firm and Minimum Quantity.
 * <p>
 * The order latency runs from an Enter or Replace Order to the engine's Accepted, Replaced or Rejected; a cancel may
 * legitimately get no answer (nothing left to cancel), so it is not timed.
 */
final class OrderEntry
{
    private static final int BLANK_FIRM = 0x2020_2020;

    private final int gatewayId;
    private final long maxOrderShares;
    private final SymbolDirectory symbols;
    private final EngineProxy engine;
    private final OuchProxy ouch;
    private final GatewayMetrics metrics;
    private final DutyCycleClock clock;
    private final Long2ObjectHashMap<OrderState> orders = new Long2ObjectHashMap<>();
    private final ArrayDeque<OrderState> pool = new ArrayDeque<>();

    /**
     * @param gatewayId      1..255, the top byte of this gateway's clientOrderIds.
     * @param maxOrderShares largest Shares accepted.
     * @param symbols        tradable symbols and their shards.
     * @param engine         where commands go.
     * @param ouch           where OUCH outbound messages go.
     * @param metrics        counters.
     * @param clock          the duty-cycle clock.
     */
    OrderEntry(
        final int gatewayId,
        final long maxOrderShares,
        final SymbolDirectory symbols,
        final EngineProxy engine,
        final OuchProxy ouch,
        final GatewayMetrics metrics,
        final DutyCycleClock clock)
    {
        this.gatewayId = gatewayId;
        this.maxOrderShares = maxOrderShares;
        this.symbols = symbols;
        this.engine = engine;
        this.ouch = ouch;
        this.metrics = metrics;
        this.clock = clock;
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
        final RejectCause tokenProblem = checkNewToken(session, buffer, tokenOffset);
        if (null != tokenProblem)
        {
            reject(session, buffer, tokenOffset, tokenProblem);
            return;
        }
        session.tokens().put(buffer, tokenOffset, TokenIndex.USED);

        final byte side = message.buySellIndicator();
        final long shares = message.shares();
        final SymbolDirectory.Entry symbol = symbols.find(message.stock());
        final long price = message.price();
        final RejectCause problem = !isValidSide(side) ? RejectCause.INVALID_SIDE :
            !isValidShares(shares) ? RejectCause.INVALID_SHARES :
            null == symbol ? RejectCause.INVALID_STOCK :
            !isValidPrice(price) ? RejectCause.INVALID_PRICE :
            !isSupportedDisplay(message.display()) ? RejectCause.INVALID_DISPLAY : null;
        if (null != problem)
        {
            reject(session, buffer, tokenOffset, problem);
            return;
        }

        final OrderState order = allocate(session, session.nextClientOrderId());
        buffer.getBytes(tokenOffset, order.token);
        order.shardId = symbol.shardId();
        order.side = side;
        order.stock = message.stock();
        order.price = price;
        order.openShares = shares;
        order.timeInForce = message.timeInForce();
        order.firm = isBlank(message.firm()) ? session.firm() : message.firm();
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
        final RejectCause tokenProblem = checkNewToken(session, buffer, tokenOffset);
        if (null != tokenProblem)
        {
            reject(session, buffer, tokenOffset, tokenProblem);
            return;
        }
        session.tokens().put(buffer, tokenOffset, TokenIndex.USED);

        final OrderState existing = openOrder(
            session, buffer, message.offset() + ReplaceOrder.EXISTING_ORDER_TOKEN_OFFSET);
        final long shares = message.shares();
        final long price = message.price();
        if (null != existing && 0 == shares)
        {
            cancel(existing, 0);
            return;
        }
        final RejectCause problem = null == existing ? RejectCause.UNKNOWN_ORDER :
            !isValidShares(shares) ? RejectCause.INVALID_SHARES :
            !isValidPrice(price) ? RejectCause.INVALID_PRICE :
            message.timeInForce() != existing.timeInForce ? RejectCause.TIME_IN_FORCE_CHANGE :
            message.display() != existing.display ? RejectCause.DISPLAY_CHANGE :
            0 != message.minimumQuantity() ? RejectCause.REPLACE_MINIMUM_QUANTITY : null;
        if (null != problem)
        {
            reject(session, buffer, tokenOffset, problem);
            return;
        }

        final OrderState replacement = allocate(session, session.nextClientOrderId());
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
     * Engine OrderExecuted: OUCH Executed to the taker's session (liquidity removed) and the maker's (added), with
     * the same match number, shares and price.
     *
     * @param timestampNs        event time.
     * @param matchNumber        engine match number.
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
        final long quantity,
        final long price,
        final long takerClientOrderId,
        final long takerLeaves,
        final long makerClientOrderId,
        final long makerLeaves)
    {
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
     * Engine OrderCanceled: OUCH Canceled to the owner, with the engine's reason as it is: U user requested,
     * I immediate or cancel, T timeout (good-till-seconds expiry), E closed, Q self-match prevention.
     *
     * @param timestampNs      event time.
     * @param clientOrderId    the order.
     * @param canceledQuantity shares taken off.
     * @param leavesQuantity   shares still open; 0 when the order is done.
     * @param reason           OUCH 4.2 Canceled reason.
     */
    void onOrderCanceled(
        final long timestampNs,
        final long clientOrderId,
        final long canceledQuantity,
        final long leavesQuantity,
        final byte reason)
    {
        final OrderState order = tracked(clientOrderId);
        if (null != order)
        {
            order.openShares = leavesQuantity;
            ouch.canceled(order, timestampNs, canceledQuantity, reason);
            releaseIfDone(order);
        }
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
        ouch.executed(order, timestampNs, quantity, price, liquidityFlag, matchNumber);
        releaseIfDone(order);
    }

    private void cancel(final OrderState order, final long shares)
    {
        if (!engine.cancelOrder(order.shardId, clock.midnightNs(), order.clientOrderId, shares))
        {
            // OUCH 4.2 has no message to refuse a cancel: the client sees no Canceled and may retry.
            metrics.reject(RejectCause.ENGINE_UNAVAILABLE);
        }
    }

    private RejectCause checkNewToken(final UserSession session, final DirectBuffer buffer, final int offset)
    {
        if (!isValidToken(buffer, offset))
        {
            return RejectCause.INVALID_TOKEN;
        }
        return TokenIndex.MISSING != session.tokens().get(buffer, offset) ? RejectCause.DUPLICATE_TOKEN : null;
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

    private OrderState allocate(final UserSession session, final long clientOrderId)
    {
        final OrderState pooled = pool.pollLast();
        final OrderState order = null == pooled ? new OrderState() : pooled;
        order.session = session;
        order.clientOrderId = clientOrderId;
        order.requestNanoTime = clock.nanoTime();
        orders.put(clientOrderId, order);
        return order;
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
        order.reset();
        pool.addLast(order);
    }

    private boolean isValidShares(final long shares)
    {
        return shares >= 1 && shares <= maxOrderShares;
    }

    private static boolean isValidPrice(final long price)
    {
        return price >= 1 && price <= Ouch42.MAX_PRICE;
    }

    private static boolean isValidSide(final byte side)
    {
        return Ouch42.SIDE_BUY == side || Ouch42.SIDE_SELL == side ||
            Ouch42.SIDE_SELL_SHORT == side || Ouch42.SIDE_SELL_SHORT_EXEMPT == side;
    }

    private static boolean isSupportedDisplay(final byte display)
    {
        return Ouch42.DISPLAY_ATTRIBUTABLE == display || Ouch42.DISPLAY_ANONYMOUS == display ||
            Ouch42.DISPLAY_NON_DISPLAY == display || Ouch42.DISPLAY_POST_ONLY == display ||
            Ouch42.DISPLAY_MID_POINT_PEG == display;
    }

    private static boolean isBlank(final int firm)
    {
        return BLANK_FIRM == firm || 0 == firm;
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
