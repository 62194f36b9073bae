package io.bourse.mdpublisher;

import io.aeron.logbuffer.FragmentHandler;
import io.aeron.logbuffer.Header;
import io.bourse.common.config.Symbols;
import io.bourse.itch.ItchTranslator;
import io.bourse.sbe.md.AddOrderDecoder;
import io.bourse.sbe.md.BestBidOfferDecoder;
import io.bourse.sbe.md.BooleanType;
import io.bourse.sbe.md.BrokenTradeDecoder;
import io.bourse.sbe.md.CrossTradeDecoder;
import io.bourse.sbe.md.CrossType;
import io.bourse.sbe.md.EndOfFeedDecoder;
import io.bourse.sbe.md.MessageHeaderDecoder;
import io.bourse.sbe.md.OrderCancelDecoder;
import io.bourse.sbe.md.OrderDeleteDecoder;
import io.bourse.sbe.md.OrderExecutedDecoder;
import io.bourse.sbe.md.OrderExecutedWithPriceDecoder;
import io.bourse.sbe.md.PriceLevelUpdateDecoder;
import io.bourse.sbe.md.StockTradingActionDecoder;
import io.bourse.sbe.md.TradeDecoder;
import org.agrona.DirectBuffer;

import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;

/** Decodes SBE market data read from one feed's stream into sequenced records, and the feed's EndOfFeed. */
final class MarketDataCapture implements FragmentHandler
{
    record Sequenced(long sequenceNumber, MarketDataEvents.Message message)
    {
    }

    /**
     * @param lastSequenceNumber the feed's last increment, as EndOfFeed names it.
     * @param messagesBefore     increments captured before it.
     */
    record End(long lastSequenceNumber, int messagesBefore)
    {
    }

    private final MessageHeaderDecoder header = new MessageHeaderDecoder();
    private final AddOrderDecoder addOrder = new AddOrderDecoder();
    private final OrderExecutedDecoder orderExecuted = new OrderExecutedDecoder();
    private final OrderCancelDecoder orderCancel = new OrderCancelDecoder();
    private final OrderDeleteDecoder orderDelete = new OrderDeleteDecoder();
    private final OrderExecutedWithPriceDecoder executedWithPrice = new OrderExecutedWithPriceDecoder();
    private final TradeDecoder trade = new TradeDecoder();
    private final CrossTradeDecoder crossTrade = new CrossTradeDecoder();
    private final StockTradingActionDecoder tradingAction = new StockTradingActionDecoder();
    private final BrokenTradeDecoder broken = new BrokenTradeDecoder();
    private final PriceLevelUpdateDecoder level = new PriceLevelUpdateDecoder();
    private final BestBidOfferDecoder bbo = new BestBidOfferDecoder();
    private final EndOfFeedDecoder endOfFeed = new EndOfFeedDecoder();
    private final MarketDataEvents events = new MarketDataEvents();
    final List<Sequenced> messages = new ArrayList<>();
    /** The feed's EndOfFeed, null until it comes. */
    End end;

    @Override
    public void onFragment(final DirectBuffer buffer, final int offset, final int length, final Header aeronHeader)
    {
        header.wrap(buffer, offset);
        if (header.schemaId() != MessageHeaderDecoder.SCHEMA_ID)
        {
            throw new IllegalStateException("schema " + header.schemaId());
        }
        final int body = offset + MessageHeaderDecoder.ENCODED_LENGTH;
        if (EndOfFeedDecoder.TEMPLATE_ID == header.templateId())
        {
            end = new End(endOfFeed.wrap(buffer, body, header.blockLength(), header.version()).sequenceNumber(),
                messages.size());
            return;
        }
        final long sequenceNumber;
        switch (header.templateId())
        {
            case AddOrderDecoder.TEMPLATE_ID ->
            {
                addOrder.wrap(buffer, body, header.blockLength(), header.version());
                sequenceNumber = addOrder.sequenceNumber();
                final int attribution = buffer.getInt(
                    body + AddOrderDecoder.attributionEncodingOffset(), ByteOrder.BIG_ENDIAN);
                events.onAddOrder(addOrder.timestampNs(), Symbols.pack(addOrder.symbol()), addOrder.orderId(),
                    side(addOrder.side()), addOrder.quantity(), addOrder.price(),
                    ItchTranslator.ANONYMOUS_ATTRIBUTION == attribution ? 0 : attribution);
            }
            case OrderExecutedDecoder.TEMPLATE_ID ->
            {
                orderExecuted.wrap(buffer, body, header.blockLength(), header.version());
                sequenceNumber = orderExecuted.sequenceNumber();
                events.onOrderExecuted(orderExecuted.timestampNs(), Symbols.pack(orderExecuted.symbol()),
                    orderExecuted.orderId(), orderExecuted.executedQuantity(), orderExecuted.matchNumber(),
                    orderExecuted.price());
            }
            case OrderExecutedWithPriceDecoder.TEMPLATE_ID ->
            {
                executedWithPrice.wrap(buffer, body, header.blockLength(), header.version());
                sequenceNumber = executedWithPrice.sequenceNumber();
                events.onOrderExecutedWithPrice(executedWithPrice.timestampNs(),
                    Symbols.pack(executedWithPrice.symbol()), executedWithPrice.orderId(),
                    executedWithPrice.executedQuantity(), executedWithPrice.matchNumber(),
                    executedWithPrice.printable() == BooleanType.TRUE, executedWithPrice.price());
            }
            case OrderCancelDecoder.TEMPLATE_ID ->
            {
                orderCancel.wrap(buffer, body, header.blockLength(), header.version());
                sequenceNumber = orderCancel.sequenceNumber();
                events.onOrderCancel(orderCancel.timestampNs(), Symbols.pack(orderCancel.symbol()),
                    orderCancel.orderId(), orderCancel.canceledQuantity());
            }
            case OrderDeleteDecoder.TEMPLATE_ID ->
            {
                orderDelete.wrap(buffer, body, header.blockLength(), header.version());
                sequenceNumber = orderDelete.sequenceNumber();
                events.onOrderDelete(orderDelete.timestampNs(), Symbols.pack(orderDelete.symbol()),
                    orderDelete.orderId());
            }
            case CrossTradeDecoder.TEMPLATE_ID ->
            {
                crossTrade.wrap(buffer, body, header.blockLength(), header.version());
                if (crossTrade.crossType() != CrossType.CLOSING)
                {
                    throw new IllegalStateException("cross type " + crossTrade.crossType());
                }
                sequenceNumber = crossTrade.sequenceNumber();
                events.onCrossTrade(crossTrade.timestampNs(), Symbols.pack(crossTrade.symbol()), crossTrade.shares(),
                    crossTrade.crossPrice(), crossTrade.matchNumber());
            }
            case TradeDecoder.TEMPLATE_ID ->
            {
                trade.wrap(buffer, body, header.blockLength(), header.version());
                sequenceNumber = trade.sequenceNumber();
                events.onTrade(trade.timestampNs(), Symbols.pack(trade.symbol()), trade.matchNumber(),
                    side(trade.aggressorSide()), trade.quantity(), trade.price(), makerDisplayed(trade));
            }
            case StockTradingActionDecoder.TEMPLATE_ID ->
            {
                tradingAction.wrap(buffer, body, header.blockLength(), header.version());
                sequenceNumber = tradingAction.sequenceNumber();
                events.onStockTradingAction(tradingAction.timestampNs(), Symbols.pack(tradingAction.symbol()),
                    tradingAction.tradingStateRaw(), buffer.getInt(
                        body + StockTradingActionDecoder.reasonEncodingOffset(), ByteOrder.BIG_ENDIAN));
            }
            case BrokenTradeDecoder.TEMPLATE_ID ->
            {
                broken.wrap(buffer, body, header.blockLength(), header.version());
                sequenceNumber = broken.sequenceNumber();
                events.onBrokenTrade(broken.timestampNs(), Symbols.pack(broken.symbol()), broken.matchNumber());
            }
            case PriceLevelUpdateDecoder.TEMPLATE_ID ->
            {
                level.wrap(buffer, body, header.blockLength(), header.version());
                sequenceNumber = level.sequenceNumber();
                events.onPriceLevelUpdate(level.timestampNs(), Symbols.pack(level.symbol()), side(level.side()),
                    level.price(), level.quantity(), (int)level.orderCount());
            }
            case BestBidOfferDecoder.TEMPLATE_ID ->
            {
                bbo.wrap(buffer, body, header.blockLength(), header.version());
                sequenceNumber = bbo.sequenceNumber();
                events.onBestBidOffer(bbo.timestampNs(), Symbols.pack(bbo.symbol()), bbo.bidPrice(),
                    bbo.bidQuantity(), bbo.askPrice(), bbo.askQuantity());
            }
            default -> throw new IllegalStateException("unexpected template " + header.templateId());
        }
        messages.add(new Sequenced(sequenceNumber, events.drain().get(0)));
    }

    private static boolean makerDisplayed(final TradeDecoder trade)
    {
        return switch (trade.makerDisplayed())
        {
            case TRUE -> true;
            case FALSE -> false;
            case NULL_VAL -> throw new IllegalStateException("Trade without makerDisplayed");
        };
    }

    private static Side side(final io.bourse.sbe.md.Side side)
    {
        return side == io.bourse.sbe.md.Side.BUY ? Side.BUY : Side.SELL;
    }
}
