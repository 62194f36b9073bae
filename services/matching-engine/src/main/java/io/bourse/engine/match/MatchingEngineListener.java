package io.bourse.engine.match;

/**
 * Receives every outcome of the matching core, in order. Prices in 1/10000 dollars, quantities in shares, symbols
 * packed as in {@code io.bourse.common.config.Symbols}. Called on the engine thread; must not retain arguments.
 */
public interface MatchingEngineListener
{
    /**
     * A new order passed validation; executions and then onOrderAdded or onOrderCanceled may follow.
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
     */
    void onOrderAdded(long orderId, long symbol, Side side, long quantity, long price, Display display);

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
     * @param wasResting    true when the order was on the book, so market data shows the change.
     */
    void onOrderCanceled(
        long clientOrderId, long orderId, long symbol, long canceled, long leaves, byte reason, boolean wasResting);

    /**
     * An order was replaced.
     *
     * @param clientOrderId    the replaced order's id.
     * @param newClientOrderId the replacement's id.
     * @param orderId          the replaced order's reference number.
     * @param newOrderId       the replacement's reference number (equal when priority was kept).
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
}
