package io.bourse.engine.match;

/**
 * Receives every outcome of the matching core, in order. Prices in 1/10000 dollars, quantities in shares, symbols
 * packed as in {@code io.bourse.common.config.Symbols}. Called on the engine thread; must not retain arguments.
 *
 * <p>The closing cross ({@link MatchingEngine#runCross(long)}) adds callbacks with default implementations, so that a
 * listener that never sees a cross (exchange-core's replay, the benchmarks) need not change: a closing-cross order's
 * replace and execution default to {@link #onOrderReplaced} and {@link #onOrderExecuted}, and
 * {@link #onCancelPending}, {@link #onCancelRejected} and {@link #onCrossCompleted} default to nothing, as they
 * change no order. So does {@link #onOrderPriorityUpdated}, which only reports a midpoint peg's new working price.
 */
public interface MatchingEngineListener
{
    /**
     * A new order passed validation; executions and then onOrderAdded or onOrderCanceled may follow (a closing-cross
     * order rests in its symbol's cross book with no onOrderAdded).
     *
     * @param clientOrderId gateway's id of the order.
     * @param orderId       engine order reference number.
     * @param symbol        packed symbol.
     * @param side          side.
     * @param quantity      order size in shares.
     * @param price         limit price (for a post-only order, after repricing; for a midpoint peg, its limit).
     * @param timeInForce   0 immediate-or-cancel, 1 to 99997 seconds, 99998 market hours, 99999 system hours.
     * @param display       how the order shows.
     */
    void onOrderAccepted(
        long clientOrderId, long orderId, long symbol, Side side, long quantity, long price, int timeInForce,
        Display display);

    /**
     * A command was refused and changed nothing.
     *
     * @param clientOrderId the refused order's id (for a replace, the new id).
     * @param symbol        packed symbol, 0 when unknown.
     * @param reason        OUCH 4.2 reject reason, see {@link ReasonCodes}.
     */
    void onOrderRejected(long clientOrderId, long symbol, byte reason);

    /**
     * An order, or its remainder after matching, now rests on the book (non-displayed and midpoint peg orders too:
     * market data must leave out those whose display is not {@linkplain Display#isDisplayed() displayed}).
     *
     * @param orderId  order reference number.
     * @param symbol   packed symbol.
     * @param side     side.
     * @param quantity resting shares.
     * @param price    limit price.
     * @param display  how the order shows.
     * @param firm     packed 4-byte ASCII firm (OUCH 4.2 Firm, big-endian), 0 for none; market data shows it for
     *                 {@link Display#ATTRIBUTABLE} orders.
     */
    void onOrderAdded(long orderId, long symbol, Side side, long quantity, long price, Display display, int firm);

    /**
     * A trade between a taker (an incoming order, or a resting midpoint peg that the midpoint moved into a cross)
     * and a resting maker, at the maker's price (the midpoint for a midpoint peg maker).
     *
     * @param matchNumber        unique per day across shards.
     * @param symbol             packed symbol.
     * @param quantity           traded shares.
     * @param price              the maker's price.
     * @param takerClientOrderId taker's gateway id.
     * @param takerOrderId       taker's reference number.
     * @param takerSide          taker's side.
     * @param makerClientOrderId maker's gateway id.
     * @param makerOrderId       maker's reference number.
     * @param makerLeaves        maker's shares still resting.
     * @param takerLeaves        taker's shares still open.
     */
    void onOrderExecuted(
        long matchNumber, long symbol, long quantity, long price,
        long takerClientOrderId, long takerOrderId, Side takerSide,
        long makerClientOrderId, long makerOrderId, long makerLeaves, long takerLeaves);

    /**
     * An order was reduced or removed.
     *
     * @param clientOrderId gateway's id.
     * @param orderId       reference number.
     * @param symbol        packed symbol.
     * @param canceled      shares canceled by this event.
     * @param leaves        shares still open (0 when the order is gone).
     * @param reason        OUCH 4.2 cancel reason, see {@link ReasonCodes}.
     * @param wasResting    true when the order was on the (continuous) book, so market data shows the change; never
     *                      for a closing-cross order.
     */
    void onOrderCanceled(
        long clientOrderId, long orderId, long symbol, long canceled, long leaves, byte reason, boolean wasResting);

    /**
     * An order was replaced.
     *
     * @param clientOrderId    the replaced order's id.
     * @param newClientOrderId the replacement's id.
     * @param orderId          the replaced order's reference number.
     * @param newOrderId       the replacement's reference number (a replace always loses priority).
     * @param symbol           packed symbol.
     * @param side             side.
     * @param quantity         new open shares.
     * @param price            new price.
     * @param bookUpdate       what happened on the book.
     * @param display          how the order shows (a replace keeps it).
     */
    void onOrderReplaced(
        long clientOrderId, long newClientOrderId, long orderId, long newOrderId, long symbol, Side side,
        long quantity, long price, BookUpdate bookUpdate, Display display);

    /**
     * A closing-cross order was replaced (before the cross lock; it stays in the cross book, never on the continuous
     * book, so market data must not show it), always {@link BookUpdate#REPLACED}: it never matches on a replace.
     * Defaults to {@link #onOrderReplaced}.
     *
     * @param clientOrderId    the replaced order's id.
     * @param newClientOrderId the replacement's id.
     * @param orderId          the replaced order's reference number.
     * @param newOrderId       the replacement's reference number (a replace always loses priority).
     * @param symbol           packed symbol.
     * @param side             side.
     * @param quantity         new open shares.
     * @param price            new limit price.
     * @param display          how the order shows (a replace keeps it).
     */
    default void onCrossOrderReplaced(
        final long clientOrderId, final long newClientOrderId, final long orderId, final long newOrderId,
        final long symbol, final Side side, final long quantity, final long price, final Display display)
    {
        onOrderReplaced(clientOrderId, newClientOrderId, orderId, newOrderId, symbol, side, quantity, price,
            BookUpdate.REPLACED, display);
    }

    /**
     * A closing-cross execution (OUCH 4.2 liquidity flag 'C'), at the cross price. Nothing takes liquidity in a
     * cross: the maker is the order that was on the continuous book (at most one of the two ever is, as that book
     * never rests crossed), or the sell order when both are closing-cross orders; the taker is the other one. A maker
     * from the continuous book keeps resting with {@code makerLeaves} shares, or has left it at 0. Defaults to
     * {@link #onOrderExecuted}.
     *
     * @param matchNumber        unique per day across shards.
     * @param symbol             packed symbol.
     * @param quantity           traded shares.
     * @param price              the cross price.
     * @param takerClientOrderId taker's gateway id.
     * @param takerOrderId       taker's reference number.
     * @param takerSide          taker's side.
     * @param makerClientOrderId maker's gateway id.
     * @param makerOrderId       maker's reference number.
     * @param makerLeaves        maker's shares still open.
     * @param takerLeaves        taker's shares still open.
     */
    default void onCrossExecuted(
        final long matchNumber, final long symbol, final long quantity, final long price,
        final long takerClientOrderId, final long takerOrderId, final Side takerSide,
        final long makerClientOrderId, final long makerOrderId, final long makerLeaves, final long takerLeaves)
    {
        onOrderExecuted(matchNumber, symbol, quantity, price, takerClientOrderId, takerOrderId, takerSide,
            makerClientOrderId, makerOrderId, makerLeaves, takerLeaves);
    }

    /**
     * A full cancel of a closing-cross order arrived during the cross lock (OUCH 4.2 Cancel Pending 'P'): the order
     * stays in the cross, and whatever it leaves unexecuted is canceled right after the cross with reason 'U'. Changes
     * nothing now; does nothing by default.
     *
     * @param clientOrderId gateway's id.
     * @param orderId       reference number.
     * @param symbol        packed symbol.
     */
    default void onCancelPending(final long clientOrderId, final long orderId, final long symbol)
    {
    }

    /**
     * A partial cancel of a closing-cross order arrived during the cross lock (OUCH 4.2 Cancel Reject 'I'): refused,
     * the order is unchanged and no cancel is scheduled. Does nothing by default.
     *
     * @param clientOrderId gateway's id.
     * @param orderId       reference number.
     * @param symbol        packed symbol.
     */
    default void onCancelRejected(final long clientOrderId, final long orderId, final long symbol)
    {
    }

    /**
     * A symbol's cross ran (ITCH 5.0 Cross Trade 'Q'), after its executions and the cancels of its closing-cross
     * orders left. Does nothing by default.
     *
     * @param symbol      packed symbol.
     * @param price       the cross price, 0 when nothing executed.
     * @param shares      shares executed in the cross, each counted once; 0 when nothing executed.
     * @param matchNumber the cross trade's own match number (unique per day across shards), 0 when nothing executed.
     * @param crossType   the cross, {@link CrossType#CLOSING}.
     */
    default void onCrossCompleted(
        final long symbol, final long price, final long shares, final long matchNumber, final CrossType crossType)
    {
    }

    /**
     * The price at which a resting midpoint peg works changed (OUCH 4.2 Order Priority Update 'T'): after the other
     * events of the command (or expiry, trading-state change or cross) that changed it, and after its peg sweep; see
     * {@link MatchingEngine} for when. Changes no order; does nothing by default.
     *
     * @param clientOrderId gateway's id of the peg.
     * @param orderId       its reference number (unchanged).
     * @param symbol        packed symbol.
     * @param side          side.
     * @param price         the new working price: the midpoint while it is within the peg's limit, otherwise (no
     *                      midpoint, or one beyond the limit: the peg does not work) the peg's limit.
     * @param display       {@link Display#MIDPOINT_PEG}.
     */
    default void onOrderPriorityUpdated(
        final long clientOrderId, final long orderId, final long symbol, final Side side, final long price,
        final Display display)
    {
    }

    /**
     * A symbol's trading state changed ({@link MatchingEngine#tradingState}; ITCH 5.0 Stock Trading Action 'H'
     * downstream): before the cancels of market-hours orders that entering {@link TradingState#CLOSED} makes and the
     * peg updates that follow; not called when the state stays the same. Does nothing by default.
     *
     * @param symbol packed symbol.
     * @param state  the new state.
     */
    default void onTradingStateChanged(final long symbol, final TradingState state)
    {
    }
}
