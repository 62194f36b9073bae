package io.bourse.mdpublisher;

/**
 * The books as they stand, told to a MoldUDP64 session at its opening ({@link MoldFeedAgent}): a receiver that follows
 * the session from Sequence Number 1 learns each symbol's trading state (the Trading Action spin, ITCH 5.0 &sect;4.2.2)
 * and, for a session that opens while the books hold orders (a new day's session), each displayed resting order as an
 * Add Order. Called on the publisher thread, between two engine events ({@link MoldFeedAgent#doWork}, never within
 * an offer), so the books are those the market data taken so far builds.
 */
interface BookSpin
{
    /**
     * Tells each symbol's trading state, one call per symbol in the symbol directory's (locate) order.
     *
     * @param listener receives them.
     */
    void spinTradingStates(Listener listener);

    /**
     * Tells each displayed resting order: symbol by symbol in the directory's order, bids from the best price then
     * offers from the best, each price level oldest first, so that a receiver that adds them in turn holds each level's
     * time priority. Orders that are not displayed are in no book and are not told.
     *
     * @param listener receives them.
     */
    void spinOrders(Listener listener);

    /** Receives the spin. */
    interface Listener
    {
        /**
         * @param symbol       the packed symbol.
         * @param tradingState ITCH 5.0 Trading State: 'H' halted, 'P' paused, 'Q' quotation only or 'T' trading.
         * @param reason       ITCH 5.0 Reason, 4 ASCII bytes packed big-endian (all spaces for none).
         */
        void onTradingState(long symbol, byte tradingState, int reason);

        /**
         * @param symbol      the packed symbol.
         * @param orderId     the order reference number.
         * @param side        the order's side.
         * @param openShares  shares still open.
         * @param price       in 1/10000 dollars.
         * @param attribution the MPID shown, 4 ASCII bytes packed big-endian; 0 for an anonymous order.
         */
        void onRestingOrder(long symbol, long orderId, Side side, long openShares, long price, int attribution);
    }
}
