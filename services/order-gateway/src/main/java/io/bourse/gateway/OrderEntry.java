package io.bourse.gateway;

import io.bourse.common.EngineNumbering;
import io.bourse.common.config.SymbolDirectory;
import io.bourse.ouch.CancelOrder;
import io.bourse.ouch.EnterOrder;
import io.bourse.ouch.ModifyOrder;
import io.bourse.ouch.Ouch42;
import io.bourse.ouch.ReplaceOrder;
import org.agrona.DirectBuffer;
import org.agrona.collections.Long2ObjectHashMap;
import org.agrona.collections.LongHashSet;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.concurrent.TimeUnit;
import java.util.function.IntPredicate;

/**
 * The gateway's order logic, free of sockets and Aeron: validates OUCH 4.2 Enter, Replace, Cancel and Modify Order
 * requests, checks them against the user's and the firm's pre-trade risk limits, routes them as engine commands to the
 * shard that owns the symbol, and turns the engine's events for this gateway's orders into OUCH 4.2 outbound messages
 * for the session that owns each order. Keeps per-order state from the request until the order is done (fully executed,
 * canceled or rejected), and every token of the day per session.
 * <p>
 * Enter Order: one with a token the session used already today is silently ignored, counted as {@code duplicate_token}
 * (OUCH 4.2 &sect;1.1: host-bound messages can be benignly resent, so a client unsure whether its Enter Order arrived
 * sends it again, and its order, live or answered already, is left as it is; a Rejected would name the token of that
 * order). Each other failure is answered with OUCH 4.2 Rejected (see {@link RejectCause}): token of printable ASCII and
 * not all spaces ('O'); a new token within the day's token capacity of the session and of the gateway ('O': the day's
 * tokens take heap, and the capacity bounds it; see {@link GatewayContext#maxSessionTokens()}); after the close, 'C'
 * (exchange closed); the user's and the firm's order rate ('O'); then the fields as {@link OrderValidation} checks
 * them ('O', 'Z', 'S', 'X', 'D', 'N', 'R');
 * then the user's and the firm's {@link PreTradeRisk} limits ('m', 'n', 'X', 'O'). A command the engine cannot take is
 * answered with 'H'. A rejected token stays used for the day. Sides T (sell short) and E (sell short exempt) are sells
 * for the engine; Accepted echoes the side as entered. A blank Firm becomes the user's firm, which is also the firm of
 * self-trade prevention. The engine's own Rejected reasons (e.g. 'C' closed, 'H' halted, 'X' outside its price band)
 * reach the client as they are.
 * <p>
 * Replace Order answers as OUCH 4.2 &sect;2.2 says NASDAQ does: an existing token that names no open order of the
 * session, or a replacement token used before today, makes the replace silently ignored (counted as {@code
 * unknown_order} or {@code duplicate_token}), the replacement token not consumed. A replacement of 0 shares is sent as
 * a cancel of the existing order. Otherwise the replacement token and the rate are checked like an Enter Order's, then
 * the fields as {@link OrderValidation} checks them, and the risk limits but the open-order count (a replace adds no
 * order): a replace that fails any of them takes the existing order out of the book (an engine cancel to 0 shares,
 * answered with Canceled 'U' when the engine has done it), counted under its reject reason, the replacement token not
 * consumed. Not for a closing-cross order, which the engine would only make pending while the cross is locked: such a
 * refused replace is answered with Rejected for the replacement token, which it consumes (as an Enter Order's rejected
 * token), the order intact: &sect;2.2's third case. The engine's refusal of a replacement (e.g. 'M' during the closing
 * cross's late period) and a replace the engine cannot take ('H') are answered with Rejected for the replacement token,
 * which they consume, the existing order intact. A replace's Shares is the total the order may execute, the shares
 * its order/replace chain has executed included: the engine, which alone knows them at the moment of the replace,
 * opens the replacement with the rest, which Replaced carries, and for Shares not above them cancels the order's open
 * shares (Canceled 'U') and rejects the replacement ('O', its token consumed). The maximum order size and notional
 * apply to Shares, the total, as to an Enter Order's. Accepted echoes the engine's price (a post-only order may have
 * been repriced) and display, and the entered Firm, Minimum Quantity and Cross Type.
 * <p>
 * The closing cross (OUCH 4.2 Cross Type 'C'): an Enter Order with Cross Type C is a limit-on-close order, sent to the
 * engine as one (its field rules are {@link OrderValidation}'s); Accepted and Replaced echo the Cross Type, which the
 * gateway keeps with the order (the engine's OrderAccepted carries none). The engine's closing-cross executions are
 * answered with Executed, Liquidity Flag 'C', to both parties (nothing takes liquidity in a cross). During the cross's
 * late period the engine answers a Cancel Order to 0 shares of a closing-cross order with CancelPending, sent as Cancel
 * Pending (the order stays open and ends after the cross with Executed and/or Canceled 'U'; the cancel on disconnect
 * of an ended session gets it too, journaled for the next login), and a cancel to fewer shares with CancelRejected,
 * sent as Cancel Reject (the order is unchanged). Its Rejected 'M' (an entry or a replace during the late period) and
 * Canceled 'C' (what the cross left) reach the client as they are, like its other reasons. The engine's CrossCompleted
 * is market data only. Pre-trade risk applies to closing-cross orders as to the others, price collar included (see
 * {@link PreTradeRisk}).
 * <p>
 * Cancel Order for a token that names no open order is ignored, as OUCH 4.2 specifies. Modify Order (OUCH 4.2: changes
 * that keep the order's priority) may change the side within the sell family (S, T, E; never buy to sell or back) and
 * lower the open shares ({@code Shares} is the new open size, as in Cancel Order; 0 cancels the rest). An unknown
 * token, another side change, more shares than are open, or more than {@value OrderState#MAX_PENDING_MODIFIES}
 * modifications of one order in flight are ignored, as OUCH 4.2 ignores a share increase, and counted. The side is the
 * gateway's own state (the engine treats S, T and E alike); a size reduction is an engine cancel down to the new size,
 * which keeps priority. Each Modify Order is answered, in arrival order, with one Order Modified carrying the side it
 * set and the open shares: when the engine's cancel to its size comes back (instead of a Canceled), or at once when no
 * shares need to go (already at or below its size, e.g. after executions). A Modify Order for an order that is done
 * before it could be answered gets no answer. When a Cancel Order and a Modify Order to the same size are both in
 * flight, their one engine cancel is answered as Order Modified. The engine's cancel for a Modify Order of a
 * closing-cross order during the cross's late period comes back as CancelRejected (to more than 0 shares) or
 * CancelPending (to 0): the Modify Order is then answered with Cancel Reject or Cancel Pending instead, and the side it
 * set stays set (no later message of an order in the cross shows a side). Those events name the order, not the request:
 * one answers the oldest Modify Order awaiting the engine when that one asked for more than 0 shares (CancelRejected)
 * or for 0 (CancelPending), else a Cancel Order; with both in flight for one order, the client may get the same
 * messages in another order.
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
 * the stopped gateway hears no answer, and the next gateway knows the orders as open).
 * <p>
 * An engine TradeBroken (an operator broke an execution) is answered with OUCH 4.2 Broken Trade, with the match
 * number and the reason, to the session of each side this gateway owns, whether or not the order is still open: the
 * session and token of every order that traded today are kept ({@link TradedOrders}). Nothing else changes: a broken
 * trade restores no shares to the order, and the risk limits keep counting the execution.
 * <p>
 * The order latency runs from an Enter or Replace Order to the engine's Accepted, Replaced or Rejected; a cancel or
 * modify may legitimately get no answer, so it is not timed.
 * <p>
 * Restarts: besides the OUCH messages, each session's journal holds gateway-private {@link OrderRecords} (the
 * clientOrderId and entered fields of each order handed to the engine, the engine's refusals, the token of a Replace
 * Order sent as a cancel), and a gateway started on the journals rebuilds from them, before the first login, what this
 * class knows ({@link OrderRebuild}): every token of the day, so that a reused token is ignored, an Enter Order's as
 * well as a Replace Order's; every order still open as the journal leaves it (open shares, price, side, symbol, order
 * reference number and the clientOrderId it was sent with), so that Cancel, Replace
 * and Modify Orders and the engine's events for it work; the orders not answered by the engine yet, so that its answer
 * finds them; the users' open-order counts; and the orders that traded, for Broken Trade. Each session takes a new
 * session index at its first login after the restart ({@link SessionIndexes}), past the largest any journal recorded
 * and any an engine event for an order not tracked here carries, so that orders entered after the restart never reuse a
 * clientOrderId sent before it, also when the journals are gone. Engine events heard again after the restart (replayed
 * from the event archive, {@link EngineEventStreams}, or heard live by a subscription that joined a stream behind the
 * position the stopped gateway had read to) are known by their shard sequence numbers, which each session journals
 * after the messages that answer them ({@link OrderRecords#EVENT_SEQUENCES}), and are not answered twice ({@code
 * bourse_gateway_duplicate_events_total}); a journal tail torn between those messages and the sequence numbers after
 * them makes its events answered again when heard again: at least once, never lost. The events the stopped gateway
 * never heard (an execution, a time-in-force expiry, the cancels on disconnect a stopping gateway sends, an answer to a
 * command in flight at a stop) come from the event archive; without it, what the journal cannot tell is not guessed:
 * such an order stays open here as the journal leaves it. Modify Orders awaiting their answer at the restart are
 * forgotten (a side change with them too), so the engine's cancel for them is answered with Canceled; the users' and
 * the firms' rate buckets start full; the collar references are the day's last trades, kept on disk
 * ({@link CollarReferences}). After a crash, as opposed to a stop, the private records of the requests of the duty
 * cycle the process died in may be lost (they are written at each duty cycle's end): those orders are unknown after
 * it, their events counted as unmatched.
 */
final class OrderEntry
{
    /** Time between two retries of the cancels on disconnect a shard could not take: 100 ms. */
    static final long CANCEL_ON_DISCONNECT_RETRY_INTERVAL_NS = TimeUnit.MILLISECONDS.toNanos(100);

    private final int gatewayId;
    private final long maxOrderShares;
    private final long maxSessionTokens;
    private final long maxDayTokens;
    /** Made once: a client that keeps sending new tokens past the capacity costs no allocation. */
    private final String sessionTokenCapacityDetail;
    private final String dayTokenCapacityDetail;
    private final SymbolDirectory symbols;
    private final PreTradeRisk risk;
    private final EngineProxy engine;
    private final OuchProxy ouch;
    private final GatewayMetrics metrics;
    private final DutyCycleClock clock;
    private final SessionIndexes sessionIndexes;
    private final Long2ObjectHashMap<OrderState> orders = new Long2ObjectHashMap<>();
    /** clientOrderIds of the orders whose cancel on disconnect their shard could not take yet. */
    private final LongHashSet cancelsOnDisconnectToRetry = new LongHashSet();
    /**
     * clientOrderIds of the orders whose lost cancels ({@link #onCommandStreamJoined}) or clients' cancels
     * ({@link #cancel}) their shard could not take.
     */
    private final LongHashSet cancelsToResend = new LongHashSet();
    private long nextCancelRetryNs;
    private final ArrayDeque<OrderState> pool = new ArrayDeque<>();
    private final TradedOrders tradedOrders = new TradedOrders();
    private final OrderRecordProxy records;
    /** Start time of the media driver this gateway's commands go through, ms since the epoch; 0 when not known. */
    private final long mediaDriverStartMs;
    private int engineStream;
    private boolean replayed;
    /** Set by {@link #closeMarket()}: the trading day is over. */
    private boolean marketClosed;
    /** Order Tokens of all sessions today, restored ones included. */
    private long dayTokens;
    private final long[] preventedSequenceNumbers;
    private final long[] preventedPrices;

    /**
     * @param gatewayId          1..255, the top byte of this gateway's clientOrderIds.
     * @param maxOrderShares     largest Shares accepted (the safety threshold, 'Z').
     * @param maxSessionTokens   most Order Tokens of one session in the day; a new one beyond it is refused (an Enter
     *                           Order Rejected 'O', a Replace Order as any refused replace).
     * @param maxDayTokens       most Order Tokens of all sessions together in the day; a new one beyond it is refused
     *                           likewise.
     * @param symbols            tradable symbols and their shards.
     * @param riskLimits         every user's pre-trade limits and options.
     * @param collarReferences   the day's last trades, the collar references ({@link PreTradeRisk}), those of a
     *                           gateway restarted during the day or none; every trade is stored there.
     * @param engine             where commands go.
     * @param ouch               where OUCH outbound messages go.
     * @param metrics            counters.
     * @param clock              the duty-cycle clock.
     * @param sessionIndexes     told the session index of every clientOrderId of this gateway id an engine event
     *                           carries that no order here is tracked for.
     * @param mediaDriverStartMs start time of the media driver the commands go through, ms since the epoch
     *                           ({@link MediaDriverStart}), journaled before a session's first order of this
     *                           process; 0 when not known (tests without Aeron): nothing journaled, nothing rejected
     *                           by {@link #rejectOrdersLostWithTheirMediaDriver()}.
     */
    OrderEntry(
        final int gatewayId,
        final long maxOrderShares,
        final long maxSessionTokens,
        final long maxDayTokens,
        final SymbolDirectory symbols,
        final RiskLimits riskLimits,
        final CollarReferences collarReferences,
        final EngineProxy engine,
        final OuchProxy ouch,
        final GatewayMetrics metrics,
        final DutyCycleClock clock,
        final SessionIndexes sessionIndexes,
        final long mediaDriverStartMs)
    {
        this.gatewayId = gatewayId;
        this.maxOrderShares = maxOrderShares;
        this.maxSessionTokens = maxSessionTokens;
        this.maxDayTokens = maxDayTokens;
        this.sessionTokenCapacityDetail = RejectCause.SESSION_TOKEN_CAPACITY.label() + ": limit of " +
            maxSessionTokens + " Order Tokens per session and day";
        this.dayTokenCapacityDetail = RejectCause.DAY_TOKEN_CAPACITY.label() + ": limit of " + maxDayTokens +
            " Order Tokens over all sessions in the day";
        this.symbols = symbols;
        this.risk = new PreTradeRisk(riskLimits, symbols, collarReferences);
        this.engine = engine;
        this.ouch = ouch;
        this.metrics = metrics;
        this.clock = clock;
        this.sessionIndexes = sessionIndexes;
        this.mediaDriverStartMs = mediaDriverStartMs;
        this.records = new OrderRecordProxy(mediaDriverStartMs);
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
        RejectCause problem = OrderValidation.checkEnterOrder(message, maxOrderShares, symbol, session.firm());
        if (null == problem)
        {
            problem = risk.check(user, Ouch42.SIDE_BUY == side, shares, price, symbol, true);
        }
        if (null != problem)
        {
            reject(session, buffer, tokenOffset, problem);
            return;
        }

        final OrderState order = allocate(session, user, session.nextClientOrderId(), clock.nanoTime());
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

        order.commandPosition = engine.newOrder(order.shardId, clock.midnightNs(), order.clientOrderId, order.stock,
            Ouch42.SIDE_BUY == side, shares, price, order.timeInForce, order.minimumQuantity, order.firm,
            order.display, order.crossType);
        if (order.commandPosition > 0)
        {
            records.orderSent(order);
        }
        else
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
        final OrderState existing = openOrder(
            session, buffer, message.offset() + ReplaceOrder.EXISTING_ORDER_TOKEN_OFFSET);
        if (null == existing)
        {
            metrics.reject(RejectCause.UNKNOWN_ORDER); // silently ignored
            return;
        }
        if (TokenIndex.MISSING != session.tokens().get(buffer, tokenOffset))
        {
            metrics.reject(RejectCause.DUPLICATE_TOKEN); // silently ignored
            return;
        }
        final long shares = message.shares();
        final long price = message.price();
        if (0 == shares)
        {
            // A cancel; its replacement token is used for the day, if a new one could be taken.
            if (null == newTokenProblem(session, buffer, tokenOffset))
            {
                takeToken(session, buffer, tokenOffset);
                records.tokenUsed(session, buffer, tokenOffset);
            }
            cancel(existing, 0);
            return;
        }
        final PreTradeRisk.UserRisk user = risk.user(session);
        final RejectCause tokenProblem = newTokenProblem(session, buffer, tokenOffset);
        RejectCause problem = tokenProblem;
        if (null == problem && marketClosed)
        {
            problem = RejectCause.EXCHANGE_CLOSED;
        }
        if (null == problem)
        {
            problem = user.admit(clock.nanoTime());
        }
        if (null == problem)
        {
            problem = OrderValidation.checkReplaceOrder(message, maxOrderShares, existing);
        }
        if (null == problem)
        {
            problem = risk.check(
                user, Ouch42.SIDE_BUY == existing.side, shares, price, symbols.find(existing.stock), false);
        }
        if (null != problem)
        {
            countTokenCapacity(session, problem);
            if (Ouch42.CROSS_TYPE_CLOSING == existing.crossType)
            {
                // The engine would only make the cancel pending while the cross is locked, which the gateway cannot
                // see: the third case of OUCH 4.2 §2.2, the order intact and the token consumed, as an Enter Order's.
                if (null == tokenProblem)
                {
                    takeToken(session, buffer, tokenOffset);
                }
                reject(session, buffer, tokenOffset, problem);
                return;
            }
            // The existing order leaves the book; the replacement token is not consumed.
            metrics.reject(problem);
            cancel(existing, 0);
            return;
        }
        takeToken(session, buffer, tokenOffset);

        final OrderState replacement = allocate(session, user, session.nextClientOrderId(), clock.nanoTime());
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
        replacement.timeInForce = message.timeInForce();
        replacement.display = message.display();
        replacement.intermarketSweepEligibility = message.intermarketSweepEligibility();
        replacement.minimumQuantity = message.minimumQuantity();
        session.tokens().put(buffer, tokenOffset, replacement.clientOrderId);

        replacement.commandPosition = !sendKeptCancelsFirst(existing) ? 0 : engine.replaceOrder(
            replacement.shardId, clock.midnightNs(), existing.clientOrderId, replacement.clientOrderId, shares, price,
            replacement.timeInForce);
        if (replacement.commandPosition > 0)
        {
            records.replacementSent(replacement);
        }
        else
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
     * Answered with Order Modified once the order is at or below the new size; for an order the engine has not
     * acknowledged yet, after its Accepted or Replaced (which show the side it was entered with), at the open size
     * that shows.
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
        final boolean cancelKept = shares < order.openShares && !cancel(order, shares);
        if (order.isAcknowledged())
        {
            order.side = side;
        }
        order.queueModify(shares, side, cancelKept);
        answerModifies(order, clock.midnightNs());
    }

    /**
     * A user's session ended: with cancel on disconnect, every order of the session is canceled through the engine, but
     * one whose cancel its shard took already (at an earlier end of the session, or the close's: counted in
     * {@code bourse_gateway_close_cancels_total}, not as a cancel on disconnect). A cancel its shard cannot take now
     * (down, or its command stream full) is kept and sent again by {@link #retryCancels()} until the shard
     * takes it or the order is done: a shard recovered from the event archive would otherwise bring the order back
     * without its owner. A kept cancel outlives a new login of the user (the order is canceled once its shard takes
     * it); a restarted gateway keeps one again for every open order of a user with cancel on disconnect
     * ({@link #keepCancelsOnDisconnectOfRestoredOrders()}).
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
            if (order.session != session || order.gatewayCancelSent)
            {
                continue;
            }
            if (sendCancelOnDisconnect(order, timestampNs))
            {
                cancelsOnDisconnectToRetry.remove(order.clientOrderId); // kept from an earlier end of the session
            }
            else
            {
                startCancelRetryInterval();
                cancelsOnDisconnectToRetry.add(order.clientOrderId);
            }
        }
    }

    /**
     * Closes the trading day ({@link MarketClose}): from now on an Enter Order is Rejected 'C' (exchange closed) and a
     * Replace Order is refused as OUCH 4.2 &sect;2.2 refuses one (the existing order canceled; a closing-cross order's
     * replacement Rejected 'C'); Cancel and Modify Orders work as before. Every open order, whatever its user's cancel
     * on disconnect, gets a cancel through the engine (but one whose cancel on disconnect went already), sent as the
     * cancels on disconnect are (by {@link #retryCancels()}, once the shards' events are caught up, again
     * while a shard cannot take it), and the engine's full cancels of those orders are answered with Canceled 'T'
     * (timeout: the Time in Force, at most the day, has expired) instead of 'U', whichever reaches the engine first:
     * the close's cancel, or a Cancel Order the client sent after the close (one read in the duty cycle of the close
     * goes before the close's cancels, sent in the next). A closing-cross order locked in the cross is canceled after
     * the cross, as the engine does with any cancel during its late period. Calling it again changes nothing.
     */
    void closeMarket()
    {
        if (marketClosed)
        {
            return;
        }
        marketClosed = true;
        nextCancelRetryNs = clock.nanoTime();
        for (final OrderState order : orders.values())
        {
            if (!order.gatewayCancelSent)
            {
                order.openAtClose = true;
                cancelsOnDisconnectToRetry.add(order.clientOrderId);
            }
        }
    }

    /**
     * After a restart: answers each order rebuilt from the journals that an earlier gateway process sent through
     * another media driver than this process's, and that no answer reached, with OUCH 4.2 Rejected 'H' (halted: its
     * shard could not take it), counted in {@code bourse_gateway_rejects_total{reason="media_driver_restarted"}}; an
     * Enter Order's order and a Replace Order's replacement alike (a replacement's existing order is left as it is:
     * the shard's first run on the new driver recovered nothing and cancels it, {@link #onRunStarted}). A media
     * driver's command streams end with it, and the event archive it ran starts empty under the next one, so no engine
     * run on the new driver takes such an order or publishes its answer: before, it stayed sent and unanswered for
     * good. A run on the old driver may have taken it after the earlier gateway stopped hearing its events (a stop
     * whose wait for the answers in flight, {@link GatewayAgent}, ended first: the driver went at the same time, as
     * with {@code docker compose restart}, or the answer took over a second): its answer is lost with that driver's
     * archive, and the order is rejected all the same. An order an earlier process sent through this process's driver
     * is left to its answer (a gateway that crashed alone), and so is one sent before its journal's first Media Driver
     * record (a journal written before stop 70). Only for an IPC command channel ({@link MediaDriverStart}).
     *
     * @return the orders rejected.
     */
    int rejectOrdersLostWithTheirMediaDriver()
    {
        if (0 == mediaDriverStartMs)
        {
            return 0;
        }
        final ArrayList<OrderState> lost = new ArrayList<>();
        for (final OrderState order : orders.values())
        {
            if (0 == order.orderReferenceNumber && 0 != order.sentThroughMediaDriverMs &&
                mediaDriverStartMs != order.sentThroughMediaDriverMs)
            {
                lost.add(order);
            }
        }
        rejectUnanswered(lost, RejectCause.MEDIA_DRIVER_RESTARTED);
        return lost.size();
    }

    /**
     * Engine CommandStreamJoined: a run of a shard joined a gateway's command publication at a position. When the
     * publication is this gateway's, the commands it sent there up to that position were taken by earlier runs, or by
     * no run (lost in transit on a UDP stream), and the earlier runs' answers are all in: the shard's events are read
     * run after run, with the archive or without ({@link EngineEventStreams}). What a run that stopped (or died)
     * holding its events back, a subscriber of the event stream not reading, took and never answered is known then:
     * <ul>
     *     <li>an order or a replacement still unanswered: no run will answer it. Each is answered OUCH 4.2 Rejected
     *     'H' (halted: its shard could not take it), counted in
     *     {@code bourse_gateway_rejects_total{reason="command_lost_with_engine_run"}}, and released. A replacement's
     *     existing order is left as it is: the new run holds it when it recovered the earlier runs, and cancels it,
     *     'Z', when it recovered none ({@link #onRunStarted}).</li>
     *     <li>an open order still above the smallest size its cancels asked for (a Cancel Order, a Modify Order, the
     *     gateway's own cancel on disconnect or the close's), the last cancel that asked for it sent up to that
     *     position, and no Cancel Pending heard: the new run recovered the order without the cancel that went with the
     *     dead run. The cancel of each Modify Order still unanswered is sent again, oldest first, then one down to that
     *     size ({@link OrderState#cancelToShares}), and the new run answers them (Order Modified, Canceled); counted in
     *     {@code bourse_gateway_cancels_resent_total}. When that cancel went past the position, the new run takes it
     *     and nothing is sent. Those the shard cannot take now are kept and sent again ({@link #retryCancels()}).
     *     A cancel down to a size does nothing to an order already at or below it, so one sent again while the
     *     original is on its way past the position changes nothing; but during a closing cross's lock each is
     *     answered (Cancel Pending, Cancel Reject), and a lost Modify Order followed by another of the same order on
     *     its way past the position is answered after it: a Canceled, then Order Modified for both.</li>
     * </ul>
     * Each count is logged; before, the client waited for good, and an order whose cancel on disconnect was lost
     * stayed on the book without its owner. An order rebuilt from a journal has no position and is left to its
     * answer, and so is a closed day's order (the close's cancel lost after the rollover). Another gateway's
     * publication: nothing happens.
     *
     * @param shardId          the shard whose run joined.
     * @param commandSessionId Aeron session id of the command publication it joined.
     * @param joinPosition     where it joined, in bytes: it takes the commands from there on.
     */
    void onCommandStreamJoined(final int shardId, final int commandSessionId, final long joinPosition)
    {
        ArrayList<OrderState> lostOrders = null;
        ArrayList<OrderState> lostCancels = null;
        for (final OrderState order : orders.values())
        {
            if (shardId != order.shardId)
            {
                continue;
            }
            final boolean orderLost =
                0 == order.orderReferenceNumber && isTakenBefore(order.commandPosition, joinPosition);
            if (!orderLost && !isCancelLost(order, joinPosition))
            {
                continue;
            }
            if (null == lostOrders)
            {
                // Checked at the first order found: the event's shard is then one this gateway sends to.
                if (commandSessionId != engine.commandSessionId(shardId))
                {
                    return;
                }
                lostOrders = new ArrayList<>();
                lostCancels = new ArrayList<>();
            }
            (orderLost ? lostOrders : lostCancels).add(order);
        }
        if (null == lostOrders)
        {
            return;
        }
        if (!lostOrders.isEmpty())
        {
            rejectUnanswered(lostOrders, RejectCause.COMMAND_LOST_WITH_ENGINE_RUN);
            System.out.println("order-gateway: shard " + shardId + "'s new run joined the command stream at position " +
                joinPosition + ", past " + lostOrders.size() + " orders an earlier run took and never answered: " +
                "rejected to their owners (OUCH Rejected 'H')");
        }
        if (!lostCancels.isEmpty())
        {
            resendCancels(lostCancels);
            System.out.println("order-gateway: shard " + shardId + "'s new run joined the command stream at position " +
                joinPosition + ", past the cancels of " + lostCancels.size() + " open orders an earlier run took and " +
                "never answered: sent again");
        }
    }

    /** @return true when a command that ends at the position (0: none sent) is one of those up to the join. */
    private static boolean isTakenBefore(final long commandPosition, final long joinPosition)
    {
        return 0 != commandPosition && commandPosition <= joinPosition;
    }

    /**
     * @return true when the order's smallest cancel ({@link OrderState#cancelToShares}) went up to the join position
     *         and the order is still above its size ({@link #isCancelUnanswered}).
     */
    private static boolean isCancelLost(final OrderState order, final long joinPosition)
    {
        return isTakenBefore(order.cancelToPosition, joinPosition) && isCancelUnanswered(order);
    }

    /**
     * @return true when the order is still above the size its cancels asked for, with no Cancel Pending (a
     *         closing-cross order whose full cancel waits for the cross).
     */
    private static boolean isCancelUnanswered(final OrderState order)
    {
        return order.openShares > order.cancelToShares && !order.cancelPending;
    }

    /**
     * Sends the lost cancels again ({@link #onCommandStreamJoined}), order by order in the order each session sent
     * them; those of an order its shard cannot take now are kept and sent again ({@link #retryCancels()}).
     */
    private void resendCancels(final ArrayList<OrderState> lostCancels)
    {
        lostCancels.sort(Comparator.comparingLong((order) -> order.clientOrderId));
        final long timestampNs = clock.midnightNs();
        for (final OrderState order : lostCancels)
        {
            order.keepEveryCancel();
            if (resendCancel(order, timestampNs))
            {
                cancelsToResend.remove(order.clientOrderId);
            }
            else
            {
                keepCancelsToResend(order);
            }
        }
    }

    /**
     * Sends an order's kept cancels ({@link #hasCancelsToResend}; a join's lost ones are all kept, {@link
     * OrderState#keepEveryCancel}): the kept cancel of each Modify Order awaiting its answer, oldest first, so that the
     * run's answers (Order Modified, or Cancel Reject during a closing cross's lock) come in their order, then one down
     * to {@link OrderState#cancelToShares} when that one is kept and still needed. Each leaves the kept ones once
     * handed over, so none the shard took is sent again (a second partial cancel during the lock would be answered by a
     * second Cancel Reject). A lost one still on its way past a join changes nothing when it comes, as each cancel down
     * to a size does nothing to an order already at or below it. Counts the order in
     * {@code bourse_gateway_cancels_resent_total} once all are handed over.
     *
     * @return false when the order's shard cannot take them now: those not handed over are sent later.
     */
    private boolean resendCancel(final OrderState order, final long timestampNs)
    {
        if (!engine.canTake(order.shardId))
        {
            return false;
        }
        for (int i = 0; i < order.pendingModifies(); i++)
        {
            if (order.isModifyCancelKept(i))
            {
                if (!sendCancel(order, timestampNs, order.pendingModifyShares(i)))
                {
                    return false;
                }
                order.modifyCancelSent(i);
            }
        }
        if (0 == order.cancelToPosition && isCancelUnanswered(order) &&
            !sendCancel(order, timestampNs, order.cancelToShares))
        {
            return false;
        }
        metrics.cancelsResent.inc();
        return true;
    }

    /**
     * @return true when the order has a kept cancel still needed: a Modify Order's (answered by the engine's cancel, or
     *         Cancel Reject), or the smallest one while the order is above its size.
     */
    private static boolean hasCancelsToResend(final OrderState order)
    {
        return order.hasKeptModifyCancel() || (0 == order.cancelToPosition && isCancelUnanswered(order));
    }

    /**
     * Answers orders no run will answer with OUCH 4.2 Rejected, in the order each session sent them (a session's
     * clientOrderIds grow), not the hash map's; journals the private Order Rejected record first, so that the answer is
     * never sent twice (the message's commit makes both durable), and releases each.
     */
    private void rejectUnanswered(final ArrayList<OrderState> lost, final RejectCause cause)
    {
        lost.sort(Comparator.comparingLong((order) -> order.clientOrderId));
        final long timestampNs = clock.midnightNs();
        for (final OrderState order : lost)
        {
            metrics.reject(cause);
            records.orderRejected(order);
            ouch.rejected(order, timestampNs, cause.reason());
            release(order);
        }
    }

    /**
     * After a restart: keeps a cancel for every open order rebuilt from the journals whose user has cancel on
     * disconnect. No session is logged in at a start: each ended with the stop of the gateway, which sent their
     * cancels (those its shard could not take are lost with it), or with its crash, which sent none. The retries send
     * them once the shards' events are caught up, so that the orders those events end (the cancels the stopping
     * gateway sent among them) are done by then and not canceled again; the first retry goes without waiting for the
     * retry interval, as the close's does.
     */
    void keepCancelsOnDisconnectOfRestoredOrders()
    {
        for (final OrderState order : orders.values())
        {
            if (risk.user(order.session).limits.cancelOnDisconnect())
            {
                cancelsOnDisconnectToRetry.add(order.clientOrderId);
            }
        }
        if (!cancelsOnDisconnectToRetry.isEmpty())
        {
            nextCancelRetryNs = clock.nanoTime();
        }
    }

    /** Starts the wait before {@link #retryCancels()} sends a cancel that is about to be kept, when none is yet. */
    private void startCancelRetryInterval()
    {
        if (cancelsOnDisconnectToRetry.isEmpty() && cancelsToResend.isEmpty())
        {
            nextCancelRetryNs = clock.nanoTime() + CANCEL_ON_DISCONNECT_RETRY_INTERVAL_NS;
        }
    }

    /**
     * Sends again, {@link #CANCEL_ON_DISCONNECT_RETRY_INTERVAL_NS} after the first was kept and then at most that
     * often, the cancels on disconnect their shard could not take ({@link #onSessionEnd}, and the close's), the lost
     * cancels it could not take at a join ({@link #onCommandStreamJoined}) and the clients' cancels it could not take
     * ({@link #cancel}), each to a shard that can take a command now; one whose order is done (or, for the last two,
     * that is no longer needed, {@link #hasCancelsToResend}) meanwhile is dropped. Nothing to do costs two size checks.
     *
     * @return cancels handed over.
     */
    int retryCancels()
    {
        if (cancelsOnDisconnectToRetry.isEmpty() && cancelsToResend.isEmpty())
        {
            return 0;
        }
        final long nowNs = clock.nanoTime();
        if (nowNs - nextCancelRetryNs < 0)
        {
            return 0;
        }
        nextCancelRetryNs = nowNs + CANCEL_ON_DISCONNECT_RETRY_INTERVAL_NS;
        final long timestampNs = clock.midnightNs();
        int sent = 0;
        final LongHashSet.LongIterator clientOrderIds = cancelsOnDisconnectToRetry.iterator();
        while (clientOrderIds.hasNext())
        {
            final OrderState order = orders.get(clientOrderIds.nextValue());
            if (null == order)
            {
                clientOrderIds.remove();
            }
            else if (sendCancelOnDisconnect(order, timestampNs))
            {
                clientOrderIds.remove();
                sent++;
            }
        }
        final LongHashSet.LongIterator toResend = cancelsToResend.iterator();
        while (toResend.hasNext())
        {
            final OrderState order = orders.get(toResend.nextValue());
            if (null == order || !hasCancelsToResend(order))
            {
                toResend.remove();
            }
            else if (resendCancel(order, timestampNs))
            {
                toResend.remove();
                sent++;
            }
        }
        return sent;
    }

    /**
     * At a stop, once every session has ended: offers each cancel on disconnect still kept once more, through back
     * pressure for a bounded time as any command; those a shard does not take are counted as
     * {@link RejectCause#ENGINE_UNAVAILABLE} and kept again by the next run of the gateway, from its journals.
     */
    void sendCancelsOnDisconnectAtStop()
    {
        final long timestampNs = clock.midnightNs();
        final LongHashSet.LongIterator clientOrderIds = cancelsOnDisconnectToRetry.iterator();
        while (clientOrderIds.hasNext())
        {
            final OrderState order = orders.get(clientOrderIds.nextValue());
            clientOrderIds.remove();
            if (null != order)
            {
                if (sendCancel(order, timestampNs, 0))
                {
                    onGatewayCancelSent(order);
                }
                else
                {
                    metrics.reject(RejectCause.ENGINE_UNAVAILABLE);
                }
            }
        }
    }

    /**
     * At the day's end (the next day opened, this day's sessions ended): hands the cancels its shards could not take
     * yet, the close's and those on disconnect, to be sent once they can, beyond this day.
     *
     * @param closedDayCancels where the closed days' cancels are kept.
     * @return the cancels handed over.
     */
    int carryCancelsTo(final ClosedDayCancels closedDayCancels)
    {
        int carried = 0;
        final LongHashSet.LongIterator clientOrderIds = cancelsOnDisconnectToRetry.iterator();
        while (clientOrderIds.hasNext())
        {
            final OrderState order = orders.get(clientOrderIds.nextValue());
            if (null != order)
            {
                closedDayCancels.add(order.clientOrderId, order.shardId, order.openAtClose);
                carried++;
            }
        }
        cancelsOnDisconnectToRetry.clear();
        return carried;
    }

    /**
     * At the day's end, once no engine event reaches this day's orders (the next day's {@link OrderEntry} takes them):
     * frees the direct memory that recorded the orders that traded, for Broken Trade ({@link TradedOrders#free()}).
     * A later TradeBroken of them would find no order, as one of an earlier day does.
     */
    void freeTradedOrders()
    {
        tradedOrders.free();
    }

    /**
     * For a day whose close the gateway missed (stopped before it, rebuilt from its journals at a later start): hands
     * a cancel of every order rebuilt open, or sent and not answered, to be sent as the close's once the shards take
     * commands.
     *
     * @param closedDayCancels where the closed days' cancels are kept.
     * @return the cancels handed over.
     */
    int carryOpenOrdersTo(final ClosedDayCancels closedDayCancels)
    {
        for (final OrderState order : orders.values())
        {
            closedDayCancels.add(order.clientOrderId, order.shardId, true);
        }
        return orders.size();
    }

    /**
     * @param answering tells whether a shard can answer now (its event stream connected), by shard id.
     * @return the orders of those shards awaiting their shard's answer: an Enter Order or Replace Order sent and not
     *         yet Accepted, Replaced or Rejected, a Modify Order not yet answered, or the gateway's own full cancel (on
     *         disconnect, the close's) taken by the shard and the order not yet done, unless the shard answered Cancel
     *         Pending (a closing-cross order, canceled after the cross). Reads every order tracked: for the stop
     *         ({@link GatewayAgent}), not a duty cycle.
     */
    int ordersAwaitingAnswer(final IntPredicate answering)
    {
        int awaiting = 0;
        for (final OrderState order : orders.values())
        {
            if ((0 == order.orderReferenceNumber || (order.gatewayCancelSent && !order.cancelPending) ||
                order.hasPendingModify()) && answering.test(order.shardId))
            {
                awaiting++;
            }
        }
        return awaiting;
    }

    /**
     * @return the cancels waiting for their shard to take them, which {@link #retryCancels()} sends: on disconnect and
     *         the close's, the lost ones a shard could not take at a join and the clients' (Cancel Order, Modify
     *         Order) it could not take (an order kept in both sets counts twice); any thread (an estimate).
     */
    int cancelsToRetry()
    {
        return cancelsOnDisconnectToRetry.size() + cancelsToResend.size();
    }

    /**
     * @return true when the order's shard took its cancel on disconnect; false, without an offer, when the shard cannot
     *         take a command now, so that thousands of orders of a session do not each spin through back pressure.
     */
    private boolean sendCancelOnDisconnect(final OrderState order, final long timestampNs)
    {
        if (!engine.canTake(order.shardId) || !sendCancel(order, timestampNs, 0))
        {
            return false;
        }
        onGatewayCancelSent(order);
        return true;
    }

    /** Marks the order's cancel on disconnect, or the close's cancel, taken by its shard, and counts it. */
    private void onGatewayCancelSent(final OrderState order)
    {
        cancelsToResend.remove(order.clientOrderId); // the full cancel stands for every other
        order.gatewayCancelSent = true;
        metrics.gatewayCancel(order.openAtClose);
    }

    /**
     * Sets the engine event stream the next events come on, until called again: the Aeron session id of a shard's
     * event stream, new with every run of the engine (engine events number from 1 again in a new run), and whether
     * they are replayed from the event archive (events of orders this gateway no longer knows are then expected, the
     * orders done before a restart, and not counted as unmatched).
     *
     * @param engineStream the Aeron session id of the stream.
     * @param replayed     true for events replayed from the event archive, false for the live stream.
     */
    void onEngineStream(final int engineStream, final boolean replayed)
    {
        this.engineStream = engineStream;
        this.replayed = replayed;
    }

    /**
     * Engine OrderAccepted: OUCH Accepted to the owner, with the engine's price and display.
     *
     * @param timestampNs    event time.
     * @param sequenceNumber the event's shard sequence number.
     * @param clientOrderId  the order.
     * @param orderId       engine order reference number.
     * @param quantity      accepted shares.
     * @param price         accepted price: the entered one, or where the engine repriced a post-only order.
     * @param display       OUCH 4.2 Display code the engine accepted.
     */
    void onOrderAccepted(
        final long timestampNs, final long sequenceNumber, final long clientOrderId, final long orderId,
        final long quantity, final long price, final byte display)
    {
        final OrderState order = eventOrder(clientOrderId, sequenceNumber);
        if (null != order)
        {
            order.orderReferenceNumber = orderId;
            order.openShares = quantity;
            order.price = price;
            order.display = display;
            ouch.accepted(order, timestampNs, quantity, price);
            answered(order);
            answerModifiesOfAcknowledged(order, timestampNs);
        }
    }

    /**
     * Engine OrderRejected: OUCH Rejected to the owner; for a replacement, the replaced order stays as it was,
     * unless the engine canceled it just before (a Replace whose Shares its chain had already executed).
     *
     * @param timestampNs    event time.
     * @param sequenceNumber the event's shard sequence number.
     * @param clientOrderId  the refused order (for a replace, the replacement).
     * @param reason         OUCH 4.2 Rejected reason.
     */
    void onOrderRejected(
        final long timestampNs, final long sequenceNumber, final long clientOrderId, final byte reason)
    {
        final OrderState order = eventOrder(clientOrderId, sequenceNumber);
        if (null != order)
        {
            metrics.reject(RejectCause.ENGINE);
            ouch.rejected(order, timestampNs, reason);
            records.orderRejected(order);
            answered(order);
            release(order);
        }
    }

    /**
     * Engine OrderExecuted, for every trade on the shards: its price becomes the symbol's collar reference (unless the
     * trade is already stored: an event replayed after a restart, {@link CollarReferences}); OUCH Executed to the
     * taker's session (liquidity removed) and the maker's (added), or to both with liquidity flag closing cross for an
     * execution in the closing cross, when this gateway owns them, with the same match number, shares and price.
     *
     * @param timestampNs        event time.
     * @param sequenceNumber     the event's shard sequence number.
     * @param matchNumber        engine match number.
     * @param symbol             packed symbol.
     * @param quantity           traded shares.
     * @param price              trade price.
     * @param takerClientOrderId the incoming order.
     * @param takerLeaves        taker shares still open.
     * @param makerClientOrderId the resting order.
     * @param makerLeaves        maker shares still open.
     * @param crossType          OUCH 4.2 Cross Type of the execution: C the closing cross, N (or 0 from a version 1
     *                           engine) the continuous market.
     */
    void onOrderExecuted(
        final long timestampNs,
        final long sequenceNumber,
        final long matchNumber,
        final long symbol,
        final long quantity,
        final long price,
        final long takerClientOrderId,
        final long takerLeaves,
        final long makerClientOrderId,
        final long makerLeaves,
        final byte crossType)
    {
        risk.onTrade(symbol, matchNumber, price);
        final boolean closingCross = Ouch42.CROSS_TYPE_CLOSING == crossType;
        final OrderState taker = eventOrder(takerClientOrderId, sequenceNumber);
        final OrderState maker = eventOrder(makerClientOrderId, sequenceNumber);
        if (null != taker)
        {
            executed(taker, timestampNs, matchNumber, quantity, price, takerLeaves,
                closingCross ? Ouch42.LIQUIDITY_CLOSING_CROSS : Ouch42.LIQUIDITY_REMOVED);
        }
        if (null != maker)
        {
            executed(maker, timestampNs, matchNumber, quantity, price, makerLeaves,
                closingCross ? Ouch42.LIQUIDITY_CLOSING_CROSS : Ouch42.LIQUIDITY_ADDED);
        }
    }

    /**
     * Engine TradeBroken, for every broken trade on the shards: the trade is the symbol's collar reference no more;
     * OUCH 4.2 Broken Trade to the taker's session and the maker's when this gateway owns them, with the order's
     * token, the match number and the reason. An own order that never traded here (or whose execution the journals do
     * not hold) is counted as an unmatched event.
     *
     * @param timestampNs        event time.
     * @param sequenceNumber     the event's shard sequence number.
     * @param matchNumber        the broken execution's match number.
     * @param symbol             packed symbol.
     * @param takerClientOrderId the incoming order of the execution.
     * @param makerClientOrderId the resting order of the execution.
     * @param reason             OUCH 4.2 Broken Trade reason: E erroneous, C consent, S supervisory, X external.
     */
    void onTradeBroken(
        final long timestampNs,
        final long sequenceNumber,
        final long matchNumber,
        final long symbol,
        final long takerClientOrderId,
        final long makerClientOrderId,
        final byte reason)
    {
        risk.onTradeBroken(symbol, matchNumber);
        if (isOwn(takerClientOrderId))
        {
            brokenTrade(timestampNs, sequenceNumber, matchNumber, takerClientOrderId, reason);
        }
        if (isOwn(makerClientOrderId))
        {
            brokenTrade(timestampNs, sequenceNumber, matchNumber, makerClientOrderId, reason);
        }
    }

    /**
     * Engine OrderCanceled: to the owner, Order Modified when it answers a Modify Order, AIQ Canceled for self-match
     * prevention ('Q'), otherwise Canceled with the engine's reason as it is: U user requested, I immediate or cancel,
     * T timeout (good-till-seconds expiry), E closed; but T for the full cancel of an order open at the close of the
     * day ({@link #closeMarket()}).
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
        final OrderState order = eventOrder(clientOrderId, sequenceNumber);
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
        else if (order.openAtClose && Ouch42.CANCEL_USER_REQUESTED == reason && 0 == leavesQuantity)
        {
            // The close's cancel: the order's day, its Time in Force, is over.
            ouch.canceled(order, timestampNs, canceledQuantity, Ouch42.CANCEL_TIMEOUT);
        }
        else
        {
            ouch.canceled(order, timestampNs, canceledQuantity, reason);
        }
        answerModifies(order, timestampNs);
        releaseIfDone(order);
    }

    /**
     * Engine RunStarted: a run of a shard started. One that recovered no earlier run (the event archive off, or
     * deleted with its media driver) holds none of their orders, so each order of that shard this gateway holds as
     * accepted and open (rebuilt from the journals, or from before the run) is gone: answered OUCH 4.2 Canceled with
     * reason 'Z', system cancel, for its open shares, and done (a Modify Order awaiting its answer gets none), counted
     * in {@code bourse_gateway_system_cancels_total}. Those are the orders whose reference number is below the run's
     * first ({@link EngineNumbering#firstOfRun}): the earlier runs numbered below it, the run itself numbers from it
     * up, so an order the run accepted stays whenever the gateway hears the event (a replay after its own restart,
     * whatever its journal says it answered). An order sent and not yet answered is left to its answer: it may have
     * reached the new run (one the run that died took and never answered is rejected once the new run joins the
     * gateway's command stream past it, {@link #onCommandStreamJoined}). A run that recovered its earlier runs
     * holds their orders: nothing happens.
     *
     * @param timestampNs    the run's start, ns since midnight.
     * @param sequenceNumber the event's shard sequence number.
     * @param shardId        the shard that started.
     * @param recoveredRuns  earlier runs the new run recovered.
     * @param numberBase     the run's number base (engine StartNumbering).
     */
    void onRunStarted(
        final long timestampNs, final long sequenceNumber, final int shardId, final long recoveredRuns,
        final long numberBase)
    {
        if (0 != recoveredRuns)
        {
            return;
        }
        final long firstOfRun = EngineNumbering.firstOfRun(numberBase);
        final ArrayList<OrderState> gone = new ArrayList<>();
        for (final OrderState order : orders.values())
        {
            if (shardId == order.shardId && 0 != order.orderReferenceNumber &&
                order.orderReferenceNumber < firstOfRun && order.openShares > 0)
            {
                gone.add(order);
            }
        }
        int canceled = 0;
        for (final OrderState order : gone)
        {
            if (!isAnswered(order.session, shardId, sequenceNumber))
            {
                ouch.canceled(order, timestampNs, order.openShares, Ouch42.CANCEL_SYSTEM);
                release(order);
                metrics.systemCancels.inc();
                canceled++;
            }
        }
        if (canceled > 0)
        {
            System.out.println("order-gateway: shard " + shardId + " restarted without its earlier runs' orders: " +
                canceled + " open orders canceled to their owners (OUCH Canceled 'Z')");
        }
    }

    /**
     * Engine OrderPriorityUpdated: the price a resting midpoint peg works at changed; OUCH 4.2 Order Priority Update
     * to the owner. The order's own limit, which Replace and Modify Order start from, stays as it was entered.
     *
     * @param timestampNs    event time.
     * @param sequenceNumber the event's shard sequence number.
     * @param clientOrderId  the order.
     * @param price          the price it works at now, 1/10000 dollars (its limit when the midpoint is outside it).
     * @param display        OUCH 4.2 Display code, 'M'.
     */
    void onOrderPriorityUpdated(
        final long timestampNs, final long sequenceNumber, final long clientOrderId, final long price,
        final byte display)
    {
        final OrderState order = eventOrder(clientOrderId, sequenceNumber);
        if (null != order)
        {
            ouch.orderPriorityUpdate(order, timestampNs, price, display);
        }
    }

    /**
     * Engine CancelPending: a full cancel of a closing-cross order came during the cross's late period; OUCH 4.2
     * Cancel Pending to the owner, as the answer to its oldest Modify Order awaiting the engine if that one asked for
     * 0 shares. The order stays open.
     *
     * @param timestampNs    event time.
     * @param sequenceNumber the event's shard sequence number.
     * @param clientOrderId  the order.
     */
    void onCancelPending(final long timestampNs, final long sequenceNumber, final long clientOrderId)
    {
        final OrderState order = eventOrder(clientOrderId, sequenceNumber);
        if (null != order)
        {
            order.cancelPending = true;
            ouch.cancelPending(order, timestampNs);
            refusedCancel(order, timestampNs, true);
        }
    }

    /**
     * Engine CancelRejected: a partial cancel of a closing-cross order came during the cross's late period; OUCH 4.2
     * Cancel Reject to the owner, as the answer to its oldest Modify Order awaiting the engine if that one asked for
     * more than 0 shares. The order is unchanged.
     *
     * @param timestampNs    event time.
     * @param sequenceNumber the event's shard sequence number.
     * @param clientOrderId  the order.
     */
    void onCancelRejected(final long timestampNs, final long sequenceNumber, final long clientOrderId)
    {
        final OrderState order = eventOrder(clientOrderId, sequenceNumber);
        if (null != order)
        {
            order.forgetPartialCancels();
            ouch.cancelReject(order, timestampNs);
            refusedCancel(order, timestampNs, false);
        }
    }

    /**
     * Engine OrderReplaced: OUCH Replaced to the owner; the replaced order is done, the replacement is open until the
     * engine says otherwise (an immediate-or-cancel one's Canceled 'I' follows).
     *
     * @param timestampNs      event time.
     * @param sequenceNumber   the event's shard sequence number.
     * @param clientOrderId    the replaced order.
     * @param newClientOrderId the replacement.
     * @param newOrderId       the replacement's order reference number.
     * @param quantity         new open shares.
     * @param price            new price.
     */
    void onOrderReplaced(
        final long timestampNs,
        final long sequenceNumber,
        final long clientOrderId,
        final long newClientOrderId,
        final long newOrderId,
        final long quantity,
        final long price)
    {
        final OrderState replacement = tracked(newClientOrderId);
        if (null != replacement && isAnswered(replacement.session, replacement.shardId, sequenceNumber))
        {
            return;
        }
        final OrderState previous = isOwn(clientOrderId) ? orders.get(clientOrderId) : null;
        if (null != previous)
        {
            release(previous);
        }
        if (null != replacement)
        {
            countOpen(replacement);
            replacement.orderReferenceNumber = newOrderId;
            replacement.openShares = quantity;
            replacement.price = price;
            ouch.replaced(replacement, timestampNs);
            answered(replacement);
            answerModifiesOfAcknowledged(replacement, timestampNs);
        }
    }

    /**
     * Rebuilding after a restart ({@link OrderRebuild}): tracks an order of the session that was sent to the engine
     * before the restart, for the caller to fill in; not counted open yet, and not timed.
     *
     * @param session       the session it was entered on.
     * @param clientOrderId the engine id it was sent with.
     * @return the order.
     */
    OrderState restore(final UserSession session, final long clientOrderId)
    {
        return allocate(session, risk.user(session), clientOrderId, 0);
    }

    /**
     * @param clientOrderId one of this gateway's clientOrderIds.
     * @return the order while it is tracked (entered and not done), else null.
     */
    OrderState order(final long clientOrderId)
    {
        return orders.get(clientOrderId);
    }

    /**
     * Rebuilding: the order counts among its user's and its firm's open orders from now on (an entered order, or a
     * replacement that replaced).
     *
     * @param order a tracked order.
     */
    void restoreOpen(final OrderState order)
    {
        countOpen(order);
    }

    /**
     * Rebuilding: counts the Order Tokens a session's journal held in the gateway's day capacity.
     *
     * @param tokens tokens of one rebuilt session.
     */
    void restoreTokens(final int tokens)
    {
        dayTokens += tokens;
    }

    /**
     * Rebuilding a session's journal, before {@link #restoreTokens} for it: whether the token of a Rejected is one the
     * order entry took when it refused the order ({@link #admitNewToken}), and the session's index does not hold yet:
     * the checks of a new token ({@link #newTokenProblem}) found no problem. The session's own count is exact, its
     * journal being read in order. The day's count holds the sessions rebuilt before this one whole, later tokens
     * included: a token taken then is left out only once the rebuilt count has reached the day's capacity, when no new
     * token is taken anyway, and one refused for the day's capacity is marked used only while the rebuilt count is
     * below it; so the index stays bounded.
     *
     * @param session     the session being rebuilt.
     * @param buffer      holds the token.
     * @param tokenOffset of the token.
     * @return true when the token was taken and is to be marked used.
     */
    boolean wasTokenTaken(final UserSession session, final DirectBuffer buffer, final int tokenOffset)
    {
        return null == newTokenProblem(session, buffer, tokenOffset, dayTokens + session.tokens().size());
    }

    /**
     * Rebuilding: the order traded, so that a broken trade of it is answered even once it is done.
     *
     * @param order a tracked order.
     */
    void restoreTraded(final OrderState order)
    {
        tradedOrders.onExecuted(order);
    }

    /**
     * Rebuilding: the order is done (executed, canceled, rejected or replaced).
     *
     * @param order a tracked order.
     */
    void restoreDone(final OrderState order)
    {
        release(order);
    }

    private void executed(
        final OrderState order,
        final long timestampNs,
        final long matchNumber,
        final long quantity,
        final long price,
        final long leaves,
        final byte liquidityFlag)
    {
        order.openShares = leaves;
        tradedOrders.onExecuted(order);
        ouch.executed(order, timestampNs, quantity, price, liquidityFlag, matchNumber);
        answerModifies(order, timestampNs);
        releaseIfDone(order);
    }

    private void brokenTrade(
        final long timestampNs, final long sequenceNumber, final long matchNumber, final long clientOrderId,
        final byte reason)
    {
        final int index = tradedOrders.find(clientOrderId);
        if (TradedOrders.MISSING == index)
        {
            unmatched();
            return;
        }
        final UserSession session = tradedOrders.session(index);
        if (!isAnswered(session, tradedOrders.shardId(index), sequenceNumber))
        {
            ouch.brokenTrade(
                session, timestampNs, tradedOrders.tokens(index), TradedOrders.tokenOffset(index), matchNumber, reason);
        }
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
     * An engine cancel of the order was answered without changing its size (Cancel Pending or Cancel Reject sent): if
     * it was the oldest pending Modify Order's, that one is answered, and those behind it that need no shares to go are
     * answered now.
     *
     * @param toZero true for a cancel of the whole order (pending), false for a partial one (rejected).
     */
    private void refusedCancel(final OrderState order, final long timestampNs, final boolean toZero)
    {
        if (order.hasPendingModify() && toZero == (0 == order.firstModifyShares()))
        {
            order.removeFirstModify();
            answerModifies(order, timestampNs);
        }
    }

    /**
     * The engine acknowledged an order that Modify Orders arrived for before (Accepted or Replaced just sent, with the
     * side it was entered with): it takes the newest one's side, as an acknowledged order does on arrival, and those
     * its open size already meets are answered.
     */
    private void answerModifiesOfAcknowledged(final OrderState order, final long timestampNs)
    {
        if (order.hasPendingModify())
        {
            order.side = order.lastModifySide();
            answerModifies(order, timestampNs);
        }
    }

    /**
     * Answers, in order, the pending Modify Orders whose size the order is already at or below: the engine's cancel
     * for them changes nothing, so none will come back. Nothing is answered for an order that is done, nor before the
     * engine acknowledged it: its Accepted or Replaced, with the open size it has, comes first.
     */
    private void answerModifies(final OrderState order, final long timestampNs)
    {
        while (order.isAcknowledged() && order.openShares > 0 && order.hasPendingModify() &&
            order.firstModifyShares() >= order.openShares)
        {
            ouch.orderModified(order, timestampNs, order.firstModifySide(), order.openShares);
            order.removeFirstModify();
        }
    }

    /**
     * Sends a cancel of the order down to a size through its shard and, when the shard's command stream took it,
     * remembers it ({@link OrderState#cancelSent}), to be sent again should the run that took it never answer
     * ({@link #onCommandStreamJoined}).
     *
     * @param shares the order's new intended size, 0 for a full cancel.
     * @return true when handed over.
     */
    private boolean sendCancel(final OrderState order, final long timestampNs, final long shares)
    {
        final long position = engine.cancelOrder(order.shardId, timestampNs, order.clientOrderId, shares);
        if (0 == position)
        {
            return false;
        }
        order.cancelSent(shares, position);
        return true;
    }

    /**
     * Before a client's next cancel or replace of an order whose cancels are kept ({@link #cancel}, or lost ones a
     * join could not send), sends them, so that the engine takes the client's requests in the order they came: else a
     * Modify Order would be answered after a later one's cancel, and a Cancel Order before a Replace Order would come
     * after the replace, naming the order it replaced, and leave the replacement on the book. Kept ones the order no
     * longer needs ({@link #hasCancelsToResend}) are dropped unsent, as {@link #retryCancels()} drops them.
     *
     * @return true when none is kept, or all are handed over; false when the shard cannot take them now (those not
     *         handed over stay kept).
     */
    private boolean sendKeptCancelsFirst(final OrderState order)
    {
        if (!cancelsToResend.contains(order.clientOrderId))
        {
            return true;
        }
        if (hasCancelsToResend(order) && !resendCancel(order, clock.midnightNs()))
        {
            return false;
        }
        cancelsToResend.remove(order.clientOrderId);
        return true;
    }

    /**
     * Sends a client's cancel (Cancel Order, or a Modify Order's reduction) of the order down to a size; one its shard
     * cannot take now (down, or its command stream full) is kept and sent again with the order's lost cancels by
     * {@link #retryCancels()}, or before the client's next cancel or replace of the order ({@link
     * #sendKeptCancelsFirst}), until the shard takes it or it is no longer needed ({@link #hasCancelsToResend}): OUCH
     * 4.2 has no message to refuse a cancel, and a dropped one left the order to trade on once its shard, recovered
     * from the event archive, was back, while its client waited for a Canceled.
     *
     * @return true when handed over, false when kept.
     */
    private boolean cancel(final OrderState order, final long shares)
    {
        if (sendKeptCancelsFirst(order) && sendCancel(order, clock.midnightNs(), shares))
        {
            return true;
        }
        order.cancelKept(shares);
        keepCancelsToResend(order);
        return false;
    }

    /** Keeps the order's lost or client's cancels for {@link #retryCancels()} to send ({@link #resendCancel}). */
    private void keepCancelsToResend(final OrderState order)
    {
        startCancelRetryInterval();
        cancelsToResend.add(order.clientOrderId);
    }

    /**
     * Checks an Enter Order's new token ({@link #newTokenProblem}), marks it used, refuses the order after the close
     * ({@link RejectCause#EXCHANGE_CLOSED}, before the rates: the day's orders are over whatever their rate), and takes
     * a token from the user's and the firm's rate buckets; answers Rejected on a fault, and nothing to a token the
     * session used already today (a resent Enter Order). A token refused for capacity is not kept (there is no room for
     * it): while the capacity stays used up, which is the rest of the day, it is refused again.
     *
     * @return the user's risk state, or null when the request was rejected or ignored.
     */
    private PreTradeRisk.UserRisk admitNewToken(
        final UserSession session, final DirectBuffer buffer, final int tokenOffset)
    {
        final RejectCause problem = newTokenProblem(session, buffer, tokenOffset);
        if (RejectCause.DUPLICATE_TOKEN == problem)
        {
            metrics.reject(problem); // silently ignored: a resent Enter Order (OUCH 4.2 section 1.1)
            return null;
        }
        if (null != problem)
        {
            countTokenCapacity(session, problem);
            reject(session, buffer, tokenOffset, problem);
            return null;
        }
        takeToken(session, buffer, tokenOffset);
        if (marketClosed)
        {
            reject(session, buffer, tokenOffset, RejectCause.EXCHANGE_CLOSED);
            return null;
        }
        final PreTradeRisk.UserRisk user = risk.user(session);
        final RejectCause overRate = user.admit(clock.nanoTime());
        if (null != overRate)
        {
            reject(session, buffer, tokenOffset, overRate);
            return null;
        }
        return user;
    }

    /**
     * Checks a new token (Enter Order's, or Replace Order's replacement): printable and not blank, not used before
     * today in the session, within the day's token capacity of the session and of the gateway.
     *
     * @return null when the token may be taken, else why not.
     */
    private RejectCause newTokenProblem(final UserSession session, final DirectBuffer buffer, final int tokenOffset)
    {
        return newTokenProblem(session, buffer, tokenOffset, dayTokens);
    }

    /**
     * {@link #newTokenProblem(UserSession, DirectBuffer, int)} against a given count of the day's tokens.
     *
     * @param dayTokensTaken the day's tokens taken in every session.
     * @return null when the token may be taken, else why not.
     */
    private RejectCause newTokenProblem(
        final UserSession session, final DirectBuffer buffer, final int tokenOffset, final long dayTokensTaken)
    {
        if (!isValidToken(buffer, tokenOffset))
        {
            return RejectCause.INVALID_TOKEN;
        }
        if (TokenIndex.MISSING != session.tokens().get(buffer, tokenOffset))
        {
            return RejectCause.DUPLICATE_TOKEN;
        }
        if (session.tokens().size() >= maxSessionTokens)
        {
            return RejectCause.SESSION_TOKEN_CAPACITY;
        }
        return dayTokensTaken >= maxDayTokens ? RejectCause.DAY_TOKEN_CAPACITY : null;
    }

    /** Counts and logs a request refused for the day's token capacity as an error; other causes are not errors. */
    private void countTokenCapacity(final UserSession session, final RejectCause problem)
    {
        if (RejectCause.SESSION_TOKEN_CAPACITY == problem)
        {
            metrics.error(GatewayError.TOKEN_CAPACITY, session.username(), sessionTokenCapacityDetail);
        }
        else if (RejectCause.DAY_TOKEN_CAPACITY == problem)
        {
            metrics.error(GatewayError.TOKEN_CAPACITY, session.username(), dayTokenCapacityDetail);
        }
    }

    /** Marks a new token used for the day, counting it against the gateway's day capacity. */
    private void takeToken(final UserSession session, final DirectBuffer buffer, final int tokenOffset)
    {
        session.tokens().put(buffer, tokenOffset, TokenIndex.USED);
        dayTokens++;
    }

    private OrderState openOrder(final UserSession session, final DirectBuffer buffer, final int tokenOffset)
    {
        final long clientOrderId = session.tokens().get(buffer, tokenOffset);
        return TokenIndex.USED == clientOrderId ? null : orders.get(clientOrderId);
    }

    /**
     * @return the tracked order the engine event is for, or null: another gateway's order, one no longer tracked
     * (counted as unmatched), or an event its session's journal answers already (counted as a duplicate).
     */
    private OrderState eventOrder(final long clientOrderId, final long sequenceNumber)
    {
        final OrderState order = tracked(clientOrderId);
        return null == order || isAnswered(order.session, order.shardId, sequenceNumber) ? null : order;
    }

    /**
     * @return true when the session's journal answers the engine event already (heard again after a restart),
     * counted; otherwise false, and the session records that it answers it now.
     */
    private boolean isAnswered(final UserSession session, final int shardId, final long sequenceNumber)
    {
        if (session.isAnswered(shardId, engineStream, sequenceNumber))
        {
            metrics.duplicateEvents.inc();
            return true;
        }
        session.onAnswered(shardId, engineStream, sequenceNumber);
        return false;
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
            unmatched();
            if (sessionIndexes.onUntrackedOrder(clientOrderId))
            {
                metrics.error(GatewayError.UNKNOWN_SESSION_INDEX, "clientOrderId " + Long.toHexString(clientOrderId),
                    "no journal of this gateway id recorded its session index; new sessions take indexes past it");
            }
        }
        return order;
    }

    private void unmatched()
    {
        if (!replayed)
        {
            metrics.unmatchedEvents.inc();
        }
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
        final UserSession session, final PreTradeRisk.UserRisk user, final long clientOrderId,
        final long requestNanoTime)
    {
        final OrderState pooled = pool.pollLast();
        final OrderState order = null == pooled ? new OrderState() : pooled;
        order.session = session;
        order.risk = user;
        order.clientOrderId = clientOrderId;
        order.requestNanoTime = requestNanoTime;
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
