package io.bourse.engine.match;

/**
 * The commands of {@link MatchingEngine}, so that the same command sequence can drive the engine and
 * {@link ReferenceMatchingEngine}. Prices in 1/10000 dollars, sizes in shares, time in ns since midnight.
 */
interface OrderEntry
{
    /** See {@link MatchingEngine#advanceClock(long)}. */
    void advanceClock(long timestampNs);

    /** See {@link MatchingEngine#newOrder(long, long, Side, long, long, int, long, int, Display)}. */
    void newOrder(
        long clientOrderId, long symbol, Side side, long quantity, long price, int timeInForce, long minimumQuantity,
        int firm, Display display);

    /** See {@link MatchingEngine#selfTradePrevention(SelfTradePrevention)}. */
    void selfTradePrevention(SelfTradePrevention mode);

    /** See {@link MatchingEngine#selfTradePrevention(int, SelfTradePrevention)}. */
    void selfTradePrevention(int firm, SelfTradePrevention mode);

    /** See {@link MatchingEngine#tradingState(long, TradingState)}. */
    boolean tradingState(long symbol, TradingState state);

    /** See {@link MatchingEngine#priceBand(long, long, int)}. */
    boolean priceBand(long symbol, long referencePrice, int bandBasisPoints);

    /** See {@link MatchingEngine#cancelOrder(long, long)}. */
    void cancelOrder(long clientOrderId, long quantity);

    /** See {@link MatchingEngine#replaceOrder(long, long, long, long, int)}. */
    void replaceOrder(long clientOrderId, long newClientOrderId, long quantity, long price, int timeInForce);

    /** See {@link MatchingEngine#executedQuantity(long)}. */
    long executedQuantity(long clientOrderId);

    /** See {@link MatchingEngine#moveOrder(long, long)}. */
    void moveOrder(long clientOrderId, long price);

    /**
     * @param engine the engine to drive.
     * @return the engine seen as an order entry.
     */
    static OrderEntry of(final MatchingEngine engine)
    {
        return new OrderEntry()
        {
            @Override
            public void advanceClock(final long timestampNs)
            {
                engine.advanceClock(timestampNs);
            }

            @Override
            public void newOrder(
                final long clientOrderId, final long symbol, final Side side, final long quantity, final long price,
                final int timeInForce, final long minimumQuantity, final int firm, final Display display)
            {
                engine.newOrder(
                    clientOrderId, symbol, side, quantity, price, timeInForce, minimumQuantity, firm, display);
            }

            @Override
            public void selfTradePrevention(final SelfTradePrevention mode)
            {
                engine.selfTradePrevention(mode);
            }

            @Override
            public void selfTradePrevention(final int firm, final SelfTradePrevention mode)
            {
                engine.selfTradePrevention(firm, mode);
            }

            @Override
            public boolean tradingState(final long symbol, final TradingState state)
            {
                return engine.tradingState(symbol, state);
            }

            @Override
            public boolean priceBand(final long symbol, final long referencePrice, final int bandBasisPoints)
            {
                return engine.priceBand(symbol, referencePrice, bandBasisPoints);
            }

            @Override
            public void cancelOrder(final long clientOrderId, final long quantity)
            {
                engine.cancelOrder(clientOrderId, quantity);
            }

            @Override
            public void replaceOrder(
                final long clientOrderId, final long newClientOrderId, final long quantity, final long price,
                final int timeInForce)
            {
                engine.replaceOrder(clientOrderId, newClientOrderId, quantity, price, timeInForce);
            }

            @Override
            public long executedQuantity(final long clientOrderId)
            {
                return engine.executedQuantity(clientOrderId);
            }

            @Override
            public void moveOrder(final long clientOrderId, final long price)
            {
                engine.moveOrder(clientOrderId, price);
            }
        };
    }
}
