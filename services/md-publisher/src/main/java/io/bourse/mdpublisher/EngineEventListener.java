package io.bourse.mdpublisher;

/**
 * The engine events that change a book or end a cross, decoded from the engine protocol (schemas/engine-schema.xml).
 * Prices in 1/10000 dollars, quantities in shares, timestamps in nanoseconds since midnight UTC, symbols packed as in
 * {@code io.bourse.common.config.Symbols}. OrderAccepted, OrderRejected, CancelPending, CancelRejected and
 * OrderPriorityUpdated (of a midpoint peg, never displayed) never change a market-data book, and closing-cross orders
 * are in no market-data book, so those events and the replaces of closing-cross orders have no method here.
 */
public interface EngineEventListener
{
    /**
     * An order, or its remainder after matching, rests on the book (engine OrderAdded).
     *
     * @param timestampNs engine time of the event.
     * @param orderId     order reference number.
     * @param symbol      packed symbol.
     * @param side        side.
     * @param quantity    resting shares.
     * @param price       limit price.
     * @param displayed   false for an order market data must not show (OUCH 4.2 Display N non-displayed or
     *                    M midpoint peg); it keeps its display for life, replaces included.
     * @param attribution the firm (MPID) market data shows with the order, packed as 4 ASCII bytes big-endian, for
     *                    an attributable order (OUCH 4.2 Display A); 0 for an anonymous one. Kept through replaces.
     */
    void onOrderAdded(
        long timestampNs, long orderId, long symbol, Side side, long quantity, long price, boolean displayed,
        int attribution);

    /**
     * A taker traded against a resting maker at the maker's price (engine OrderExecuted). The taker is the incoming
     * order, or a resting midpoint peg order that a move of the midpoint made cross.
     *
     * @param timestampNs  engine time of the event.
     * @param matchNumber  unique per day across shards.
     * @param symbol       packed symbol.
     * @param quantity     traded shares.
     * @param price        the maker's price.
     * @param takerSide    side of the taker (the aggressor).
     * @param takerOrderId the taker's reference number.
     * @param takerLeaves  shares the taker still has open.
     * @param makerOrderId the resting order's reference number.
     * @param makerLeaves  shares the maker still has on the book.
     */
    void onOrderExecuted(
        long timestampNs, long matchNumber, long symbol, long quantity, long price, Side takerSide, long takerOrderId,
        long takerLeaves, long makerOrderId, long makerLeaves);

    /**
     * A resting order executed in the closing cross, at the cross price (engine OrderExecuted with crossType C). The
     * other side of the execution is a closing-cross order, which no market-data book holds.
     *
     * @param timestampNs  engine time of the event.
     * @param matchNumber  unique per day across shards.
     * @param symbol       packed symbol.
     * @param quantity     executed shares.
     * @param price        the cross price, which may be better than the maker's own price.
     * @param makerOrderId the engine's maker: an order of the continuous book (displayed or not), or a closing-cross
     *                     order when both sides were.
     * @param makerLeaves  shares the maker still has open.
     */
    void onCrossExecuted(
        long timestampNs, long matchNumber, long symbol, long quantity, long price, long makerOrderId,
        long makerLeaves);

    /**
     * A symbol's closing cross ran (engine CrossCompleted), after its executions and the cancels of the closing-cross
     * orders left.
     *
     * @param timestampNs engine time of the event.
     * @param symbol      packed symbol.
     * @param shares      shares executed in the cross, each counted once; 0 when nothing executed.
     * @param price       the cross price; 0 when nothing executed.
     * @param matchNumber the cross's own match number; 0 when nothing executed.
     */
    void onCrossCompleted(long timestampNs, long symbol, long shares, long price, long matchNumber);

    /**
     * A symbol's trading state changed (engine TradingStateChanged), before the cancels and the peg updates the change
     * causes.
     *
     * @param timestampNs engine time of the event.
     * @param symbol      packed symbol.
     * @param state       the new state: OPEN, HALTED or CLOSED.
     */
    void onTradingStateChanged(long timestampNs, long symbol, io.bourse.sbe.engine.TradingState state);

    /**
     * An order was reduced or removed (engine OrderCanceled).
     *
     * @param timestampNs engine time of the event.
     * @param orderId     order reference number.
     * @param symbol      packed symbol.
     * @param canceled    shares canceled by this event.
     * @param leaves      shares still open.
     * @param wasResting  false when the order never rested (an immediate-or-cancel remainder).
     */
    void onOrderCanceled(long timestampNs, long orderId, long symbol, long canceled, long leaves, boolean wasResting);

    /**
     * An order was replaced (engine OrderReplaced).
     *
     * @param timestampNs engine time of the event.
     * @param orderId     the replaced order's reference number.
     * @param newOrderId  the replacement's reference number.
     * @param symbol      packed symbol.
     * @param side        side.
     * @param quantity    new open shares.
     * @param price       new price.
     * @param bookUpdate  what the replace did to the book.
     */
    void onOrderReplaced(
        long timestampNs, long orderId, long newOrderId, long symbol, Side side, long quantity, long price,
        ReplaceKind bookUpdate);

    /**
     * A shard started a run that recovered no earlier run (engine RunStarted with recoveredRuns 0: its event archive
     * off, or gone with the media driver): the engine's books of the shard's symbols hold no order of an earlier run,
     * all numbered below the run's first number, and the symbols trade, as new books do.
     *
     * @param timestampNs the run's start, ns since midnight.
     * @param symbols     the shard's packed symbols.
     * @param firstOfRun  the lowest order reference number the run gives
     *                    ({@link io.bourse.common.EngineNumbering#firstOfRun}): its earlier runs' are all below it.
     */
    void onEarlierRunsLost(long timestampNs, long[] symbols, long firstOfRun);

    /**
     * An execution was broken by the operator (engine TradeBroken); the book is unchanged.
     *
     * @param timestampNs engine time of the event.
     * @param matchNumber the broken execution's match number.
     * @param symbol      packed symbol.
     */
    void onTradeBroken(long timestampNs, long matchNumber, long symbol);
}
