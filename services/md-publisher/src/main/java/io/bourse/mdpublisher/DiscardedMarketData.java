package io.bourse.mdpublisher;

/**
 * The market data of events the books take while they are rebuilt ({@link MarketDataBooks#rebuilding}): derived, and
 * published to no one. A restarted md-publisher's subscribers heard none of the earlier instance's sequence numbers on
 * the new publications: they take the rebuilt books as they stand instead ({@link MarketDataBooks#publishBooks}, or a
 * snapshot).
 */
final class DiscardedMarketData implements MarketDataListener
{
    /** The one instance: it keeps no state. */
    static final DiscardedMarketData INSTANCE = new DiscardedMarketData();

    private DiscardedMarketData()
    {
    }

    @Override
    public void onAddOrder(
        final long timestampNs, final long symbol, final long orderId, final Side side, final long quantity,
        final long price, final int attribution)
    {
    }

    @Override
    public void onOrderExecuted(
        final long timestampNs, final long symbol, final long orderId, final long executedQuantity,
        final long matchNumber, final long price)
    {
    }

    @Override
    public void onOrderExecutedWithPrice(
        final long timestampNs, final long symbol, final long orderId, final long executedQuantity,
        final long matchNumber, final boolean printable, final long price)
    {
    }

    @Override
    public void onOrderCancel(
        final long timestampNs, final long symbol, final long orderId, final long canceledQuantity)
    {
    }

    @Override
    public void onOrderDelete(final long timestampNs, final long symbol, final long orderId)
    {
    }

    @Override
    public void onOrderReplace(
        final long timestampNs, final long symbol, final long originalOrderId, final long newOrderId,
        final long quantity, final long price)
    {
    }

    @Override
    public void onTrade(
        final long timestampNs, final long symbol, final long matchNumber, final Side aggressorSide,
        final long quantity, final long price, final boolean makerDisplayed)
    {
    }

    @Override
    public void onCrossTrade(
        final long timestampNs, final long symbol, final long shares, final long crossPrice, final long matchNumber)
    {
    }

    @Override
    public void onStockTradingAction(
        final long timestampNs, final long symbol, final byte tradingState, final int reason)
    {
    }

    @Override
    public void onBrokenTrade(final long timestampNs, final long symbol, final long matchNumber)
    {
    }

    @Override
    public void onPriceLevelUpdate(
        final long timestampNs, final long symbol, final Side side, final long price, final long quantity,
        final int orderCount)
    {
    }

    @Override
    public void onBestBidOffer(
        final long timestampNs, final long symbol, final long bidPrice, final long bidQuantity, final long askPrice,
        final long askQuantity)
    {
    }
}
