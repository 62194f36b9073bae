package io.bourse.gateway;

import io.bourse.common.time.MidnightNanoClock;
import io.bourse.ouch.AiqCanceled;
import io.bourse.ouch.BrokenTrade;
import io.bourse.ouch.CancelPending;
import io.bourse.ouch.CancelReject;
import io.bourse.ouch.Ouch42;
import io.bourse.ouch.OrderAccepted;
import io.bourse.ouch.OrderCanceled;
import io.bourse.ouch.OrderExecuted;
import io.bourse.ouch.OrderModified;
import io.bourse.ouch.OrderPriorityUpdate;
import io.bourse.ouch.OrderRejected;
import io.bourse.ouch.OrderReplaced;
import io.bourse.ouch.SystemEvent;
import org.agrona.DirectBuffer;

/**
 * Encodes the OUCH 4.2 outbound messages in place in a session's {@link SessionJournal} and commits them as
 * SoupBinTCP Sequenced Data (sent once journaled, when the client is connected and up to date), each counted by type
 * once journaled; one for a session past its System Event End of Day is dropped ({@link UserSession#commit}).
 * Timestamps are given in nanoseconds since the midnight UTC of the gateway's start, and written as OUCH 4.2 asks,
 * nanoseconds since the latest midnight ({@link MidnightNanoClock#timeOfDay}: from the gateway's second day on, less
 * whole days); prices in 1/10000 dollars, shares unsigned.
 */
final class OuchProxy
{
    private final SystemEvent systemEvent = new SystemEvent();
    private final OrderAccepted accepted = new OrderAccepted();
    private final OrderReplaced replaced = new OrderReplaced();
    private final OrderCanceled canceled = new OrderCanceled();
    private final OrderExecuted executed = new OrderExecuted();
    private final OrderRejected rejected = new OrderRejected();
    private final OrderModified modified = new OrderModified();
    private final AiqCanceled aiqCanceled = new AiqCanceled();
    private final BrokenTrade brokenTrade = new BrokenTrade();
    private final CancelPending cancelPending = new CancelPending();
    private final OrderPriorityUpdate orderPriorityUpdate = new OrderPriorityUpdate();
    private final CancelReject cancelReject = new CancelReject();
    private final GatewayMetrics metrics;

    /**
     * @param metrics counts the messages by type.
     */
    OuchProxy(final GatewayMetrics metrics)
    {
        this.metrics = metrics;
    }

    /**
     * OUCH 4.2 System Event.
     *
     * @param session     destination.
     * @param timestampNs event time.
     * @param eventCode   {@link Ouch42#EVENT_START_OF_DAY} or {@link Ouch42#EVENT_END_OF_DAY}.
     */
    void systemEvent(final UserSession session, final long timestampNs, final byte eventCode)
    {
        final SessionJournal journal = session.journal();
        systemEvent.wrapAndApplyType(journal.buffer(), journal.claim(SystemEvent.LENGTH))
            .timestamp(MidnightNanoClock.timeOfDay(timestampNs))
            .eventCode(eventCode);
        if (session.commit(SystemEvent.LENGTH))
        {
            metrics.systemEventOut.inc();
        }
    }

    /**
     * OUCH 4.2 Accepted, echoing the order's entered fields, order state Live.
     *
     * @param order       the order, with its engine order reference number set.
     * @param timestampNs the engine's event time.
     * @param shares      accepted shares.
     * @param price       accepted price.
     */
    void accepted(final OrderState order, final long timestampNs, final long shares, final long price)
    {
        final SessionJournal journal = order.session.journal();
        accepted.wrapAndApplyType(journal.buffer(), journal.claim(OrderAccepted.LENGTH))
            .timestamp(MidnightNanoClock.timeOfDay(timestampNs))
            .orderToken(order.token)
            .buySellIndicator(order.side)
            .shares(shares)
            .stock(order.stock)
            .price(price)
            .timeInForce(order.timeInForce)
            .firm(order.firm)
            .display(order.display)
            .orderReferenceNumber(order.orderReferenceNumber)
            .capacity(order.capacity)
            .intermarketSweepEligibility(order.intermarketSweepEligibility)
            .minimumQuantity(order.minimumQuantity)
            .crossType(order.crossType)
            .orderState(Ouch42.ORDER_STATE_LIVE)
            .bboWeightIndicator(Ouch42.BBO_WEIGHT_UNSPECIFIED);
        if (order.session.commit(OrderAccepted.LENGTH))
        {
            metrics.acceptedOut.inc();
        }
    }

    /**
     * OUCH 4.2 Replaced, describing the replacement in full, order state Live.
     *
     * @param replacement the new order, with its previous token, reference number and fields set.
     * @param timestampNs the engine's event time.
     */
    void replaced(final OrderState replacement, final long timestampNs)
    {
        final SessionJournal journal = replacement.session.journal();
        replaced.wrapAndApplyType(journal.buffer(), journal.claim(OrderReplaced.LENGTH))
            .timestamp(MidnightNanoClock.timeOfDay(timestampNs))
            .replacementOrderToken(replacement.token)
            .buySellIndicator(replacement.side)
            .shares(replacement.openShares)
            .stock(replacement.stock)
            .price(replacement.price)
            .timeInForce(replacement.timeInForce)
            .firm(replacement.firm)
            .display(replacement.display)
            .orderReferenceNumber(replacement.orderReferenceNumber)
            .capacity(replacement.capacity)
            .intermarketSweepEligibility(replacement.intermarketSweepEligibility)
            .minimumQuantity(replacement.minimumQuantity)
            .crossType(replacement.crossType)
            .orderState(Ouch42.ORDER_STATE_LIVE)
            .previousOrderToken(replacement.previousToken)
            .bboWeightIndicator(Ouch42.BBO_WEIGHT_UNSPECIFIED);
        if (replacement.session.commit(OrderReplaced.LENGTH))
        {
            metrics.replacedOut.inc();
        }
    }

    /**
     * OUCH 4.2 Canceled.
     *
     * @param order           the order.
     * @param timestampNs     the engine's event time.
     * @param decrementShares shares taken off the order.
     * @param reason          OUCH 4.2 Canceled reason.
     */
    void canceled(final OrderState order, final long timestampNs, final long decrementShares, final byte reason)
    {
        final SessionJournal journal = order.session.journal();
        canceled.wrapAndApplyType(journal.buffer(), journal.claim(OrderCanceled.LENGTH))
            .timestamp(MidnightNanoClock.timeOfDay(timestampNs))
            .orderToken(order.token)
            .decrementShares(decrementShares)
            .reason(reason);
        if (order.session.commit(OrderCanceled.LENGTH))
        {
            metrics.canceledOut.inc();
        }
    }

    /**
     * OUCH 4.2 Order Priority Update: the price the exchange works a resting order at changed (a midpoint peg's
     * midpoint moved, or left its limit).
     *
     * @param order       the order; its Order Reference Number is unchanged.
     * @param timestampNs the engine's event time.
     * @param price       the price the order now works at, 1/10000 dollars (a peg without a midpoint in its limit:
     *                    the limit).
     * @param display     OUCH 4.2 Display of the order, 'M' for a midpoint peg.
     */
    void orderPriorityUpdate(final OrderState order, final long timestampNs, final long price, final byte display)
    {
        final SessionJournal journal = order.session.journal();
        orderPriorityUpdate.wrapAndApplyType(journal.buffer(), journal.claim(OrderPriorityUpdate.LENGTH))
            .timestamp(MidnightNanoClock.timeOfDay(timestampNs))
            .orderToken(order.token)
            .price(price)
            .display(display)
            .orderReferenceNumber(order.orderReferenceNumber);
        if (order.session.commit(OrderPriorityUpdate.LENGTH))
        {
            metrics.orderPriorityUpdateOut.inc();
        }
    }

    /**
     * OUCH 4.2 Cancel Pending: a full cancel of a closing-cross order came during the cross's late period; the order
     * stays in the cross and what it leaves unexecuted is canceled when the cross completes.
     *
     * @param order       the order.
     * @param timestampNs the engine's event time.
     */
    void cancelPending(final OrderState order, final long timestampNs)
    {
        final SessionJournal journal = order.session.journal();
        cancelPending.wrapAndApplyType(journal.buffer(), journal.claim(CancelPending.LENGTH))
            .timestamp(MidnightNanoClock.timeOfDay(timestampNs))
            .orderToken(order.token);
        if (order.session.commit(CancelPending.LENGTH))
        {
            metrics.cancelPendingOut.inc();
        }
    }

    /**
     * OUCH 4.2 Cancel Reject: a partial cancel of a closing-cross order came during the cross's late period; the order
     * is unchanged.
     *
     * @param order       the order.
     * @param timestampNs the engine's event time.
     */
    void cancelReject(final OrderState order, final long timestampNs)
    {
        final SessionJournal journal = order.session.journal();
        cancelReject.wrapAndApplyType(journal.buffer(), journal.claim(CancelReject.LENGTH))
            .timestamp(MidnightNanoClock.timeOfDay(timestampNs))
            .orderToken(order.token);
        if (order.session.commit(CancelReject.LENGTH))
        {
            metrics.cancelRejectOut.inc();
        }
    }

    /**
     * OUCH 4.2 AIQ Canceled: the order was reduced or canceled by self-match prevention (reason 'Q').
     *
     * @param order                        the order.
     * @param timestampNs                  the engine's event time.
     * @param decrementShares              shares taken off the order.
     * @param quantityPreventedFromTrading shares that would have traded.
     * @param executionPrice               price they would have traded at, in 1/10000 dollars.
     * @param liquidityFlag                {@link Ouch42#LIQUIDITY_ADDED} for the resting order,
     *                                     {@link Ouch42#LIQUIDITY_REMOVED} for the incoming one.
     */
    void aiqCanceled(
        final OrderState order,
        final long timestampNs,
        final long decrementShares,
        final long quantityPreventedFromTrading,
        final long executionPrice,
        final byte liquidityFlag)
    {
        final SessionJournal journal = order.session.journal();
        aiqCanceled.wrapAndApplyType(journal.buffer(), journal.claim(AiqCanceled.LENGTH))
            .timestamp(MidnightNanoClock.timeOfDay(timestampNs))
            .orderToken(order.token)
            .decrementShares(decrementShares)
            .reason(Ouch42.CANCEL_SELF_MATCH_PREVENTION)
            .quantityPreventedFromTrading(quantityPreventedFromTrading)
            .executionPrice(executionPrice)
            .liquidityFlag(liquidityFlag);
        if (order.session.commit(AiqCanceled.LENGTH))
        {
            metrics.aiqCanceledOut.inc();
        }
    }

    /**
     * OUCH 4.2 Order Modified: a Modify Order was applied.
     *
     * @param order       the order.
     * @param timestampNs when it was applied: the engine's event time, or the gateway's for a side change alone.
     * @param side        the Buy/Sell Indicator as it now stands.
     * @param shares      the open shares as they now stand.
     */
    void orderModified(final OrderState order, final long timestampNs, final byte side, final long shares)
    {
        final SessionJournal journal = order.session.journal();
        modified.wrapAndApplyType(journal.buffer(), journal.claim(OrderModified.LENGTH))
            .timestamp(MidnightNanoClock.timeOfDay(timestampNs))
            .orderToken(order.token)
            .buySellIndicator(side)
            .shares(shares);
        if (order.session.commit(OrderModified.LENGTH))
        {
            metrics.orderModifiedOut.inc();
        }
    }

    /**
     * OUCH 4.2 Executed.
     *
     * @param order          the order.
     * @param timestampNs    the engine's event time.
     * @param executedShares shares traded.
     * @param executionPrice trade price.
     * @param liquidityFlag  {@link Ouch42#LIQUIDITY_ADDED} for the maker, {@link Ouch42#LIQUIDITY_REMOVED} for the
     *                       taker, {@link Ouch42#LIQUIDITY_CLOSING_CROSS} for both in the closing cross.
     * @param matchNumber    the engine's match number, the same for both sides.
     */
    void executed(
        final OrderState order,
        final long timestampNs,
        final long executedShares,
        final long executionPrice,
        final byte liquidityFlag,
        final long matchNumber)
    {
        final SessionJournal journal = order.session.journal();
        executed.wrapAndApplyType(journal.buffer(), journal.claim(OrderExecuted.LENGTH))
            .timestamp(MidnightNanoClock.timeOfDay(timestampNs))
            .orderToken(order.token)
            .executedShares(executedShares)
            .executionPrice(executionPrice)
            .liquidityFlag(liquidityFlag)
            .matchNumber(matchNumber);
        if (order.session.commit(OrderExecuted.LENGTH))
        {
            metrics.executedOut.inc();
        }
    }

    /**
     * OUCH 4.2 Broken Trade: an execution of the order was broken by the exchange; the order's state is unchanged.
     *
     * @param session     the session the order was entered on.
     * @param timestampNs the engine's event time.
     * @param tokens      buffer holding the order's token.
     * @param tokenOffset where the 14 bytes of the token start.
     * @param matchNumber the broken execution's match number.
     * @param reason      {@link Ouch42#BROKEN_TRADE_ERRONEOUS}, {@link Ouch42#BROKEN_TRADE_CONSENT},
     *                    {@link Ouch42#BROKEN_TRADE_SUPERVISORY} or {@link Ouch42#BROKEN_TRADE_EXTERNAL}.
     */
    void brokenTrade(
        final UserSession session,
        final long timestampNs,
        final DirectBuffer tokens,
        final int tokenOffset,
        final long matchNumber,
        final byte reason)
    {
        final SessionJournal journal = session.journal();
        brokenTrade.wrapAndApplyType(journal.buffer(), journal.claim(BrokenTrade.LENGTH))
            .timestamp(MidnightNanoClock.timeOfDay(timestampNs))
            .orderToken(tokens, tokenOffset)
            .matchNumber(matchNumber)
            .reason(reason);
        if (session.commit(BrokenTrade.LENGTH))
        {
            metrics.brokenTradeOut.inc();
        }
    }

    /**
     * OUCH 4.2 Rejected for an order the gateway tracks.
     *
     * @param order       the order.
     * @param timestampNs event time.
     * @param reason      OUCH 4.2 Rejected reason.
     */
    void rejected(final OrderState order, final long timestampNs, final byte reason)
    {
        final SessionJournal journal = order.session.journal();
        rejected.wrapAndApplyType(journal.buffer(), journal.claim(OrderRejected.LENGTH))
            .timestamp(MidnightNanoClock.timeOfDay(timestampNs))
            .orderToken(order.token)
            .reason(reason);
        if (order.session.commit(OrderRejected.LENGTH))
        {
            metrics.rejectedOut.inc();
        }
    }

    /**
     * OUCH 4.2 Rejected for a request refused before any order state exists.
     *
     * @param session     destination.
     * @param timestampNs time the request was received.
     * @param tokenBuffer holds the 14 bytes of the token as the client sent them.
     * @param tokenOffset of the token.
     * @param reason      OUCH 4.2 Rejected reason.
     */
    void rejected(
        final UserSession session,
        final long timestampNs,
        final DirectBuffer tokenBuffer,
        final int tokenOffset,
        final byte reason)
    {
        final SessionJournal journal = session.journal();
        rejected.wrapAndApplyType(journal.buffer(), journal.claim(OrderRejected.LENGTH))
            .timestamp(MidnightNanoClock.timeOfDay(timestampNs))
            .orderToken(tokenBuffer, tokenOffset)
            .reason(reason);
        if (session.commit(OrderRejected.LENGTH))
        {
            metrics.rejectedOut.inc();
        }
    }
}
