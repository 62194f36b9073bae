package io.bourse.mdpublisher;

/**
 * The market data derived from engine events (schemas/market-data-schema.xml without the feed sequence number, which
 * the publisher assigns). L3 messages follow ITCH 5.0 semantics. Prices in 1/10000 dollars, quantities in shares,
 * timestamps in nanoseconds since midnight UTC copied from the engine event, symbols packed as in
 * {@code io.bourse.common.config.Symbols}.
 */
public interface MarketDataListener
{
    /**
     * ITCH 5.0 §4.3.1 Add Order, or §4.3.2 Add Order with MPID Attribution for an attributed order.
     *
     * @param timestampNs engine time.
     * @param symbol      packed symbol.
     * @param orderId     order reference number.
     * @param side        side.
     * @param quantity    shares.
     * @param price       limit price.
     * @param attribution the firm (MPID) shown, packed as 4 ASCII bytes big-endian; 0 for an anonymous order.
     */
    void onAddOrder(long timestampNs, long symbol, long orderId, Side side, long quantity, long price, int attribution);

    /**
     * ITCH 5.0 §4.4.1 Order Executed, on the resting order.
     *
     * @param timestampNs      engine time.
     * @param symbol           packed symbol.
     * @param orderId          the resting order.
     * @param executedQuantity shares executed.
     * @param matchNumber      engine match number.
     * @param price            execution price (the resting order's price).
     */
    void onOrderExecuted(
        long timestampNs, long symbol, long orderId, long executedQuantity, long matchNumber, long price);

    /**
     * ITCH 5.0 §4.4.2 Order Executed With Price, on the resting order: it executed at a price other than its own.
     *
     * @param timestampNs      engine time.
     * @param symbol           packed symbol.
     * @param orderId          the resting order.
     * @param executedQuantity shares executed.
     * @param matchNumber      engine match number.
     * @param printable        false when the volume is counted by another message (a cross execution, whose Cross
     *                         Trade carries the cross's volume).
     * @param price            execution price.
     */
    void onOrderExecutedWithPrice(
        long timestampNs, long symbol, long orderId, long executedQuantity, long matchNumber, boolean printable,
        long price);

    /**
     * ITCH 5.0 §4.4.3 Order Cancel: part of a resting order canceled.
     *
     * @param timestampNs      engine time.
     * @param symbol           packed symbol.
     * @param orderId          the resting order.
     * @param canceledQuantity shares removed.
     */
    void onOrderCancel(long timestampNs, long symbol, long orderId, long canceledQuantity);

    /**
     * ITCH 5.0 §4.4.4 Order Delete: a resting order left the book.
     *
     * @param timestampNs engine time.
     * @param symbol      packed symbol.
     * @param orderId     the order.
     */
    void onOrderDelete(long timestampNs, long symbol, long orderId);

    /**
     * ITCH 5.0 §4.4.5 Order Replace: a resting order replaced by a new one that loses priority.
     *
     * @param timestampNs     engine time.
     * @param symbol          packed symbol.
     * @param originalOrderId the replaced order.
     * @param newOrderId      the new order.
     * @param quantity        new shares.
     * @param price           new price.
     */
    void onOrderReplace(
        long timestampNs, long symbol, long originalOrderId, long newOrderId, long quantity, long price);

    /**
     * A trade print, one per execution. When the maker was displayed it follows that execution's Order Executed;
     * otherwise it is the execution's only market data (ITCH 5.0 §4.5.1 Trade, non-cross).
     *
     * @param timestampNs    engine time.
     * @param symbol         packed symbol.
     * @param matchNumber    engine match number.
     * @param aggressorSide  side of the incoming order.
     * @param quantity       shares.
     * @param price          execution price.
     * @param makerDisplayed true when the resting order was on the displayed book (its execution was published as
     *                       Order Executed); false when it was not displayed (OUCH 4.2 Display N or M) or unknown.
     */
    void onTrade(
        long timestampNs, long symbol, long matchNumber, Side aggressorSide, long quantity, long price,
        boolean makerDisplayed);

    /**
     * ITCH 5.0 §4.5.2 Cross Trade: the closing cross ran, at one price; its volume, each share counted once. Sent for
     * every cross, also one that executed nothing (shares 0, price 0, match number 0), as NASDAQ publishes the result
     * of every cross.
     *
     * @param timestampNs engine time.
     * @param symbol      packed symbol.
     * @param shares      shares executed in the cross.
     * @param crossPrice  the cross price.
     * @param matchNumber the cross's own match number.
     */
    void onCrossTrade(long timestampNs, long symbol, long shares, long crossPrice, long matchNumber);

    /**
     * ITCH 5.0 §4.2.2 Stock Trading Action: the symbol's trading state changed, before the book changes it causes.
     *
     * @param timestampNs  engine time.
     * @param symbol       packed symbol.
     * @param tradingState ITCH Trading State: {@code H} halted, {@code T} trading.
     * @param reason       ITCH Reason, 4 ASCII characters packed big-endian as they are sent, space-padded.
     */
    void onStockTradingAction(long timestampNs, long symbol, byte tradingState, int reason);

    /**
     * An execution was broken: its Order Executed or Trade no longer counts; the book is unchanged (ITCH 5.0 §4.5.3
     * Broken Trade).
     *
     * @param timestampNs engine time.
     * @param symbol      packed symbol.
     * @param matchNumber the broken execution's match number.
     */
    void onBrokenTrade(long timestampNs, long symbol, long matchNumber);

    /**
     * L2: the aggregate at one price level changed.
     *
     * @param timestampNs engine time.
     * @param symbol      packed symbol.
     * @param side        side of the level.
     * @param price       level price.
     * @param quantity    total shares at the level, 0 when the level is gone.
     * @param orderCount  orders at the level, 0 when the level is gone.
     */
    void onPriceLevelUpdate(long timestampNs, long symbol, Side side, long price, long quantity, int orderCount);

    /**
     * L1: the best bid or offer changed. An empty side has price 0 and quantity 0.
     *
     * @param timestampNs engine time.
     * @param symbol      packed symbol.
     * @param bidPrice    best bid price.
     * @param bidQuantity total shares at the best bid.
     * @param askPrice    best offer price.
     * @param askQuantity total shares at the best offer.
     */
    void onBestBidOffer(
        long timestampNs, long symbol, long bidPrice, long bidQuantity, long askPrice, long askQuantity);
}
