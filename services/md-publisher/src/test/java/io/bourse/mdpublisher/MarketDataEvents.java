package io.bourse.mdpublisher;

import io.bourse.common.config.Symbols;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/** Records market data as values so that tests can compare whole lists. Symbols are kept as strings. */
final class MarketDataEvents implements MarketDataListener
{
    sealed interface Message
        permits AddOrder, Executed, ExecutedWithPrice, Cancel, Delete, Replace, Trade, CrossTrade, Broken, Level, Bbo,
        TradingAction
    {
    }

    /** @param attribution packed firm of an attributed order, 0 for an anonymous one. */
    record AddOrder(
        long timestampNs, String symbol, long orderId, Side side, long quantity, long price, int attribution)
        implements Message
    {
        /** An anonymous order. */
        AddOrder(
            final long timestampNs, final String symbol, final long orderId, final Side side, final long quantity,
            final long price)
        {
            this(timestampNs, symbol, orderId, side, quantity, price, 0);
        }
    }

    record Executed(long timestampNs, String symbol, long orderId, long executedQuantity, long matchNumber, long price)
        implements Message
    {
    }

    record ExecutedWithPrice(
        long timestampNs, String symbol, long orderId, long executedQuantity, long matchNumber, boolean printable,
        long price) implements Message
    {
    }

    record Cancel(long timestampNs, String symbol, long orderId, long canceledQuantity) implements Message
    {
    }

    record Delete(long timestampNs, String symbol, long orderId) implements Message
    {
    }

    record Replace(long timestampNs, String symbol, long originalOrderId, long newOrderId, long quantity, long price)
        implements Message
    {
    }

    record Trade(
        long timestampNs, String symbol, long matchNumber, Side aggressorSide, long quantity, long price,
        boolean makerDisplayed) implements Message
    {
    }

    record TradingAction(long timestampNs, String symbol, char tradingState, String reason) implements Message
    {
    }

    record CrossTrade(long timestampNs, String symbol, long shares, long crossPrice, long matchNumber)
        implements Message
    {
    }

    record Broken(long timestampNs, String symbol, long matchNumber) implements Message
    {
    }

    record Level(long timestampNs, String symbol, Side side, long price, long quantity, int orderCount)
        implements Message
    {
    }

    record Bbo(long timestampNs, String symbol, long bidPrice, long bidQuantity, long askPrice, long askQuantity)
        implements Message
    {
    }

    private final List<Message> messages = new ArrayList<>();

    List<Message> drain()
    {
        final List<Message> copy = List.copyOf(messages);
        messages.clear();
        return copy;
    }

    @Override
    public void onAddOrder(
        final long timestampNs, final long symbol, final long orderId, final Side side, final long quantity,
        final long price, final int attribution)
    {
        messages.add(new AddOrder(timestampNs, Symbols.toString(symbol), orderId, side, quantity, price, attribution));
    }

    @Override
    public void onOrderExecuted(
        final long timestampNs, final long symbol, final long orderId, final long executedQuantity,
        final long matchNumber, final long price)
    {
        messages.add(
            new Executed(timestampNs, Symbols.toString(symbol), orderId, executedQuantity, matchNumber, price));
    }

    @Override
    public void onOrderExecutedWithPrice(
        final long timestampNs, final long symbol, final long orderId, final long executedQuantity,
        final long matchNumber, final boolean printable, final long price)
    {
        messages.add(new ExecutedWithPrice(
            timestampNs, Symbols.toString(symbol), orderId, executedQuantity, matchNumber, printable, price));
    }

    @Override
    public void onOrderCancel(
        final long timestampNs, final long symbol, final long orderId, final long canceledQuantity)
    {
        messages.add(new Cancel(timestampNs, Symbols.toString(symbol), orderId, canceledQuantity));
    }

    @Override
    public void onOrderDelete(final long timestampNs, final long symbol, final long orderId)
    {
        messages.add(new Delete(timestampNs, Symbols.toString(symbol), orderId));
    }

    @Override
    public void onOrderReplace(
        final long timestampNs, final long symbol, final long originalOrderId, final long newOrderId,
        final long quantity, final long price)
    {
        messages.add(new Replace(timestampNs, Symbols.toString(symbol), originalOrderId, newOrderId, quantity, price));
    }

    @Override
    public void onTrade(
        final long timestampNs, final long symbol, final long matchNumber, final Side aggressorSide,
        final long quantity, final long price, final boolean makerDisplayed)
    {
        messages.add(new Trade(
            timestampNs, Symbols.toString(symbol), matchNumber, aggressorSide, quantity, price, makerDisplayed));
    }

    @Override
    public void onCrossTrade(
        final long timestampNs, final long symbol, final long shares, final long crossPrice, final long matchNumber)
    {
        messages.add(new CrossTrade(timestampNs, Symbols.toString(symbol), shares, crossPrice, matchNumber));
    }

    @Override
    public void onStockTradingAction(
        final long timestampNs, final long symbol, final byte tradingState, final int reason)
    {
        messages.add(new TradingAction(timestampNs, Symbols.toString(symbol), (char)tradingState,
            new String(new byte[]{(byte)(reason >>> 24), (byte)(reason >>> 16), (byte)(reason >>> 8), (byte)reason},
                StandardCharsets.US_ASCII)));
    }

    @Override
    public void onBrokenTrade(final long timestampNs, final long symbol, final long matchNumber)
    {
        messages.add(new Broken(timestampNs, Symbols.toString(symbol), matchNumber));
    }

    @Override
    public void onPriceLevelUpdate(
        final long timestampNs, final long symbol, final Side side, final long price, final long quantity,
        final int orderCount)
    {
        messages.add(new Level(timestampNs, Symbols.toString(symbol), side, price, quantity, orderCount));
    }

    @Override
    public void onBestBidOffer(
        final long timestampNs, final long symbol, final long bidPrice, final long bidQuantity, final long askPrice,
        final long askQuantity)
    {
        messages.add(new Bbo(timestampNs, Symbols.toString(symbol), bidPrice, bidQuantity, askPrice, askQuantity));
    }
}
