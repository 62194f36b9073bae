package io.bourse.mdpublisher;

import io.aeron.Publication;
import io.bourse.common.aeron.BoundedOffer;
import io.bourse.common.config.Symbols;
import io.bourse.common.metrics.ErrorKinds;
import io.bourse.common.time.MidnightNanoClock;
import io.bourse.itch.ItchTranslator;
import io.bourse.sbe.md.AddOrderEncoder;
import io.bourse.sbe.md.BestBidOfferEncoder;
import io.bourse.sbe.md.BooleanType;
import io.bourse.sbe.md.BrokenTradeEncoder;
import io.bourse.sbe.md.CrossTradeEncoder;
import io.bourse.sbe.md.CrossType;
import io.bourse.sbe.md.EndOfFeedEncoder;
import io.bourse.sbe.md.Feed;
import io.bourse.sbe.md.MessageHeaderEncoder;
import io.bourse.sbe.md.OrderCancelEncoder;
import io.bourse.sbe.md.OrderDeleteEncoder;
import io.bourse.sbe.md.OrderExecutedEncoder;
import io.bourse.sbe.md.OrderExecutedWithPriceEncoder;
import io.bourse.sbe.md.OrderReplaceEncoder;
import io.bourse.sbe.md.PriceLevelUpdateEncoder;
import io.bourse.sbe.md.StockTradingActionEncoder;
import io.bourse.sbe.md.TradeEncoder;
import io.bourse.sbe.md.TradingState;
import org.agrona.BufferUtil;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteOrder;

/**
 * Encodes market data as SBE (schemas/market-data-schema.xml) and offers it on its feeds' publications: the order
 * feed (L3 order by order, trading actions and trades, as ITCH 5.0 TotalView has them), the depth feed (L2
 * PriceLevelUpdate), the BBO feed (L1 BestBidOffer) and the trades feed (Trade, BrokenTrade, CrossTrade, which are on
 * the order feed too). Every message takes the next sequence number of its feed (one sequence per feed across all
 * symbols, from 1) whether or not the offer succeeds, so a subscriber sees a lost message as a gap in that feed. No
 * subscriber connected is not an error (like multicast with no listener); any other failed offer is counted as an
 * error. Each order-feed increment also goes to an {@link OrderFeedListener} (the MoldUDP64 feed), offered or not.
 * Allocates nothing.
 */
final class MarketDataProxy implements MarketDataListener
{
    private static final int BUFFER_LENGTH = 128;
    private static final int SYMBOL_OFFSET_IN_BUFFER = MessageHeaderEncoder.ENCODED_LENGTH;

    private final UnsafeBuffer buffer = new UnsafeBuffer(BufferUtil.allocateDirectAligned(BUFFER_LENGTH, 64));
    private final MessageHeaderEncoder headerEncoder = new MessageHeaderEncoder();
    private final AddOrderEncoder addOrder = new AddOrderEncoder();
    private final OrderExecutedEncoder orderExecuted = new OrderExecutedEncoder();
    private final OrderExecutedWithPriceEncoder orderExecutedWithPrice = new OrderExecutedWithPriceEncoder();
    private final OrderCancelEncoder orderCancel = new OrderCancelEncoder();
    private final OrderDeleteEncoder orderDelete = new OrderDeleteEncoder();
    private final OrderReplaceEncoder orderReplace = new OrderReplaceEncoder();
    private final TradeEncoder trade = new TradeEncoder();
    private final BrokenTradeEncoder brokenTrade = new BrokenTradeEncoder();
    private final CrossTradeEncoder crossTrade = new CrossTradeEncoder();
    private final StockTradingActionEncoder stockTradingAction = new StockTradingActionEncoder();
    private final PriceLevelUpdateEncoder priceLevelUpdate = new PriceLevelUpdateEncoder();
    private final BestBidOfferEncoder bestBidOffer = new BestBidOfferEncoder();
    private final EndOfFeedEncoder endOfFeed = new EndOfFeedEncoder();
    private final FeedPublication orders;
    private final FeedPublication depth;
    private final FeedPublication bbo;
    private final FeedPublication trades;
    private final BoundedOffer boundedOffer;
    private final OrderFeedListener orderFeedListener;
    private final MidnightNanoClock clock;
    private final MdPublisherMetrics metrics;
    private final ErrorKinds<MdPublisherError> errors;

    /**
     * @param orders       the order feed, on the market-data stream.
     * @param depth        the depth (L2) feed.
     * @param bbo          the BBO (L1) feed.
     * @param trades       the trades feed.
     * @param boundedOffer      retries back pressure for a bounded time.
     * @param orderFeedListener takes every order-feed increment after its offer, or {@link OrderFeedListener#NONE}.
     * @param clock             to measure event timestamp to published.
     * @param metrics           counts messages by type, records the latency and counts the messages not published.
     * @param errors            counts every failed offer other than "not connected".
     */
    MarketDataProxy(
        final FeedPublication orders, final FeedPublication depth, final FeedPublication bbo,
        final FeedPublication trades, final BoundedOffer boundedOffer, final OrderFeedListener orderFeedListener,
        final MidnightNanoClock clock, final MdPublisherMetrics metrics, final ErrorKinds<MdPublisherError> errors)
    {
        this.orders = orders;
        this.depth = depth;
        this.bbo = bbo;
        this.trades = trades;
        this.boundedOffer = boundedOffer;
        this.orderFeedListener = orderFeedListener;
        this.clock = clock;
        this.metrics = metrics;
        this.errors = errors;
    }

    /**
     * @param feed a feed.
     * @return the feed's publication and sequence numbers.
     */
    FeedPublication feed(final Feed feed)
    {
        return switch (feed)
        {
            case ORDERS -> orders;
            case DEPTH -> depth;
            case BBO -> bbo;
            case TRADES -> trades;
            case NULL_VAL -> throw new IllegalArgumentException("no feed");
        };
    }

    /** Publishes AddOrder, its attribution all spaces for an anonymous order. */
    @Override
    public void onAddOrder(
        final long timestampNs, final long symbol, final long orderId, final Side side, final long quantity,
        final long price, final int attribution)
    {
        addOrder.wrapAndApplyHeader(buffer, 0, headerEncoder)
            .sequenceNumber(orders.takeSequenceNumber())
            .timestampNs(timestampNs)
            .orderId(orderId)
            .side(side(side))
            .quantity(quantity)
            .price(price);
        Symbols.unpack(symbol, buffer, SYMBOL_OFFSET_IN_BUFFER + AddOrderEncoder.symbolEncodingOffset());
        buffer.putInt(SYMBOL_OFFSET_IN_BUFFER + AddOrderEncoder.attributionEncodingOffset(),
            attributionField(attribution), ByteOrder.BIG_ENDIAN);
        publish(orders, AddOrderEncoder.TEMPLATE_ID, addOrder.encodedLength(), timestampNs);
    }

    /** Publishes OrderExecuted. */
    @Override
    public void onOrderExecuted(
        final long timestampNs, final long symbol, final long orderId, final long executedQuantity,
        final long matchNumber, final long price)
    {
        orderExecuted.wrapAndApplyHeader(buffer, 0, headerEncoder)
            .sequenceNumber(orders.takeSequenceNumber())
            .timestampNs(timestampNs)
            .orderId(orderId)
            .executedQuantity(executedQuantity)
            .matchNumber(matchNumber)
            .price(price);
        Symbols.unpack(symbol, buffer, SYMBOL_OFFSET_IN_BUFFER + OrderExecutedEncoder.symbolEncodingOffset());
        publish(orders, OrderExecutedEncoder.TEMPLATE_ID, orderExecuted.encodedLength(), timestampNs);
    }

    /** Publishes OrderExecutedWithPrice. */
    @Override
    public void onOrderExecutedWithPrice(
        final long timestampNs, final long symbol, final long orderId, final long executedQuantity,
        final long matchNumber, final boolean printable, final long price)
    {
        orderExecutedWithPrice.wrapAndApplyHeader(buffer, 0, headerEncoder)
            .sequenceNumber(orders.takeSequenceNumber())
            .timestampNs(timestampNs)
            .orderId(orderId)
            .executedQuantity(executedQuantity)
            .matchNumber(matchNumber)
            .printable(printable ? BooleanType.TRUE : BooleanType.FALSE)
            .price(price);
        Symbols.unpack(
            symbol, buffer, SYMBOL_OFFSET_IN_BUFFER + OrderExecutedWithPriceEncoder.symbolEncodingOffset());
        publish(
            orders, OrderExecutedWithPriceEncoder.TEMPLATE_ID, orderExecutedWithPrice.encodedLength(), timestampNs);
    }

    /** Publishes OrderCancel. */
    @Override
    public void onOrderCancel(
        final long timestampNs, final long symbol, final long orderId, final long canceledQuantity)
    {
        orderCancel.wrapAndApplyHeader(buffer, 0, headerEncoder)
            .sequenceNumber(orders.takeSequenceNumber())
            .timestampNs(timestampNs)
            .orderId(orderId)
            .canceledQuantity(canceledQuantity);
        Symbols.unpack(symbol, buffer, SYMBOL_OFFSET_IN_BUFFER + OrderCancelEncoder.symbolEncodingOffset());
        publish(orders, OrderCancelEncoder.TEMPLATE_ID, orderCancel.encodedLength(), timestampNs);
    }

    /** Publishes OrderDelete. */
    @Override
    public void onOrderDelete(final long timestampNs, final long symbol, final long orderId)
    {
        orderDelete.wrapAndApplyHeader(buffer, 0, headerEncoder)
            .sequenceNumber(orders.takeSequenceNumber())
            .timestampNs(timestampNs)
            .orderId(orderId);
        Symbols.unpack(symbol, buffer, SYMBOL_OFFSET_IN_BUFFER + OrderDeleteEncoder.symbolEncodingOffset());
        publish(orders, OrderDeleteEncoder.TEMPLATE_ID, orderDelete.encodedLength(), timestampNs);
    }

    /** Publishes OrderReplace. */
    @Override
    public void onOrderReplace(
        final long timestampNs, final long symbol, final long originalOrderId, final long newOrderId,
        final long quantity, final long price)
    {
        orderReplace.wrapAndApplyHeader(buffer, 0, headerEncoder)
            .sequenceNumber(orders.takeSequenceNumber())
            .timestampNs(timestampNs)
            .originalOrderId(originalOrderId)
            .newOrderId(newOrderId)
            .quantity(quantity)
            .price(price);
        Symbols.unpack(symbol, buffer, SYMBOL_OFFSET_IN_BUFFER + OrderReplaceEncoder.symbolEncodingOffset());
        publish(orders, OrderReplaceEncoder.TEMPLATE_ID, orderReplace.encodedLength(), timestampNs);
    }

    /** Publishes Trade on the order feed and the trades feed. */
    @Override
    public void onTrade(
        final long timestampNs, final long symbol, final long matchNumber, final Side aggressorSide,
        final long quantity, final long price, final boolean makerDisplayed)
    {
        trade.wrapAndApplyHeader(buffer, 0, headerEncoder)
            .sequenceNumber(orders.takeSequenceNumber())
            .timestampNs(timestampNs)
            .matchNumber(matchNumber)
            .aggressorSide(side(aggressorSide))
            .quantity(quantity)
            .price(price)
            .makerDisplayed(makerDisplayed ? BooleanType.TRUE : BooleanType.FALSE);
        Symbols.unpack(symbol, buffer, SYMBOL_OFFSET_IN_BUFFER + TradeEncoder.symbolEncodingOffset());
        publish(orders, TradeEncoder.TEMPLATE_ID, trade.encodedLength(), timestampNs);
        trade.sequenceNumber(trades.takeSequenceNumber());
        publish(trades, TradeEncoder.TEMPLATE_ID, trade.encodedLength(), timestampNs);
    }

    /** Publishes BrokenTrade on the order feed and the trades feed. */
    @Override
    public void onBrokenTrade(final long timestampNs, final long symbol, final long matchNumber)
    {
        brokenTrade.wrapAndApplyHeader(buffer, 0, headerEncoder)
            .sequenceNumber(orders.takeSequenceNumber())
            .timestampNs(timestampNs)
            .matchNumber(matchNumber);
        Symbols.unpack(symbol, buffer, SYMBOL_OFFSET_IN_BUFFER + BrokenTradeEncoder.symbolEncodingOffset());
        publish(orders, BrokenTradeEncoder.TEMPLATE_ID, brokenTrade.encodedLength(), timestampNs);
        brokenTrade.sequenceNumber(trades.takeSequenceNumber());
        publish(trades, BrokenTradeEncoder.TEMPLATE_ID, brokenTrade.encodedLength(), timestampNs);
    }

    /** Publishes CrossTrade of the closing cross on the order feed and the trades feed. */
    @Override
    public void onCrossTrade(
        final long timestampNs, final long symbol, final long shares, final long crossPrice, final long matchNumber)
    {
        crossTrade.wrapAndApplyHeader(buffer, 0, headerEncoder)
            .sequenceNumber(orders.takeSequenceNumber())
            .timestampNs(timestampNs)
            .shares(shares)
            .crossPrice(crossPrice)
            .matchNumber(matchNumber)
            .crossType(CrossType.CLOSING);
        Symbols.unpack(symbol, buffer, SYMBOL_OFFSET_IN_BUFFER + CrossTradeEncoder.symbolEncodingOffset());
        publish(orders, CrossTradeEncoder.TEMPLATE_ID, crossTrade.encodedLength(), timestampNs);
        crossTrade.sequenceNumber(trades.takeSequenceNumber());
        publish(trades, CrossTradeEncoder.TEMPLATE_ID, crossTrade.encodedLength(), timestampNs);
    }

    /** Publishes StockTradingAction. */
    @Override
    public void onStockTradingAction(
        final long timestampNs, final long symbol, final byte tradingState, final int reason)
    {
        stockTradingAction.wrapAndApplyHeader(buffer, 0, headerEncoder)
            .sequenceNumber(orders.takeSequenceNumber())
            .timestampNs(timestampNs)
            .tradingState(TradingState.get(tradingState));
        Symbols.unpack(symbol, buffer, SYMBOL_OFFSET_IN_BUFFER + StockTradingActionEncoder.symbolEncodingOffset());
        buffer.putInt(
            SYMBOL_OFFSET_IN_BUFFER + StockTradingActionEncoder.reasonEncodingOffset(), reason, ByteOrder.BIG_ENDIAN);
        publish(orders, StockTradingActionEncoder.TEMPLATE_ID, stockTradingAction.encodedLength(), timestampNs);
    }

    /** Publishes PriceLevelUpdate on the depth feed. */
    @Override
    public void onPriceLevelUpdate(
        final long timestampNs, final long symbol, final Side side, final long price, final long quantity,
        final int orderCount)
    {
        priceLevelUpdate.wrapAndApplyHeader(buffer, 0, headerEncoder)
            .sequenceNumber(depth.takeSequenceNumber())
            .timestampNs(timestampNs)
            .side(side(side))
            .price(price)
            .quantity(quantity)
            .orderCount(orderCount);
        Symbols.unpack(symbol, buffer, SYMBOL_OFFSET_IN_BUFFER + PriceLevelUpdateEncoder.symbolEncodingOffset());
        publish(depth, PriceLevelUpdateEncoder.TEMPLATE_ID, priceLevelUpdate.encodedLength(), timestampNs);
    }

    /** Publishes BestBidOffer on the BBO feed. */
    @Override
    public void onBestBidOffer(
        final long timestampNs, final long symbol, final long bidPrice, final long bidQuantity, final long askPrice,
        final long askQuantity)
    {
        bestBidOffer.wrapAndApplyHeader(buffer, 0, headerEncoder)
            .sequenceNumber(bbo.takeSequenceNumber())
            .timestampNs(timestampNs)
            .bidPrice(bidPrice)
            .bidQuantity(bidQuantity)
            .askPrice(askPrice)
            .askQuantity(askQuantity);
        Symbols.unpack(symbol, buffer, SYMBOL_OFFSET_IN_BUFFER + BestBidOfferEncoder.symbolEncodingOffset());
        publish(bbo, BestBidOfferEncoder.TEMPLATE_ID, bestBidOffer.encodedLength(), timestampNs);
    }

    /**
     * Ends every feed on purpose, at the stop, after its last increment: EndOfFeed with the feed's last sequence number
     * (0 when it had none) and the clock's time, offered on each feed's stream (back pressure retried for a bounded
     * time; a failed offer is an error, but for nothing subscribed, and no drop: it carries no market data). It is no
     * order-feed increment: the {@link OrderFeedListener} does not get it (the MoldUDP64 feed ends its session with
     * System Events of its own). Nothing may be published after it.
     */
    void endFeeds()
    {
        final long timestampNs = clock.nanosSinceMidnight();
        for (final Feed ended : FeedPublication.FEEDS)
        {
            final FeedPublication feed = feed(ended);
            endOfFeed.wrapAndApplyHeader(buffer, 0, headerEncoder)
                .sequenceNumber(feed.lastSequenceNumber())
                .timestampNs(timestampNs);
            final long result = boundedOffer.offer(
                feed.publication, buffer, 0, MessageHeaderEncoder.ENCODED_LENGTH + endOfFeed.encodedLength());
            if (result > 0)
            {
                metrics.onEndOfFeed(feed.feed);
            }
            else if (result != Publication.NOT_CONNECTED)
            {
                errors.error(MdPublisherError.OFFER_FAILED, feed.feed, "offer result", result);
            }
        }
    }

    private void publish(
        final FeedPublication feed, final int templateId, final int bodyLength, final long timestampNs)
    {
        final int length = MessageHeaderEncoder.ENCODED_LENGTH + bodyLength;
        final long result = boundedOffer.offer(feed.publication, buffer, 0, length);
        if (result > 0)
        {
            // engine times come from the gateway's clock, which may count from another day's midnight
            metrics.onMessageOut(
                feed.feed, templateId, MidnightNanoClock.withinADay(clock.nanosSinceMidnight() - timestampNs));
        }
        else
        {
            metrics.onDrop(feed.feed, result);
            if (result != Publication.NOT_CONNECTED)
            {
                errors.error(MdPublisherError.OFFER_FAILED, feed.feed, "offer result", result);
            }
        }
        if (feed == orders)
        {
            orderFeedListener.onOrderFeedMessage(buffer, 0, length);
        }
    }

    private static io.bourse.sbe.md.Side side(final Side side)
    {
        return side == Side.BUY ? io.bourse.sbe.md.Side.BUY : io.bourse.sbe.md.Side.SELL;
    }

    /**
     * @param attribution a packed firm, or 0 for an anonymous order.
     * @return the 4 bytes of the market-data Attribution field as a big-endian int: the firm, or all spaces.
     */
    static int attributionField(final int attribution)
    {
        return 0 == attribution ? ItchTranslator.ANONYMOUS_ATTRIBUTION : attribution;
    }
}
