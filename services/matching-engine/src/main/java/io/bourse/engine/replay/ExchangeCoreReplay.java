package io.bourse.engine.replay;

import io.bourse.common.config.Symbols;
import io.bourse.engine.match.BookUpdate;
import io.bourse.engine.match.MatchingEngine;
import io.bourse.engine.match.Display;
import io.bourse.engine.match.MatchingEngineListener;
import io.bourse.engine.match.OrderBook;
import io.bourse.engine.match.Side;
import io.bourse.workload.ExchangeCoreCommands;

import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Drives Bourse's {@link MatchingEngine} (one symbol, shard 0) with exchange-core commands, mapping exchange-core's
 * semantics ({@code ../shared/data/exchange-core/README.md}) onto Bourse's, with exchange-core's order ids as Bourse
 * client order ids and exchange-core's ticks and lots as Bourse prices and shares:
 * <ul>
 *     <li>PLACE GTC: a day limit order; the remainder rests at the back of its level.</li>
 *     <li>PLACE IOC: an immediate-or-cancel limit order at the given price (the band edge in exchange-core's
 *     benchmark, so it behaves like a market order).</li>
 *     <li>PLACE FOK_BUDGET: a fill-or-kill order (minimum quantity = size) at the per-unit limit budget / size,
 *     rounded down for a buy and up for a sell. exchange-core checks the total cost of the whole fill against the
 *     budget instead; the two agree whenever every level the order would take is within the per-unit limit, as in
 *     exchange-core's benchmark, where the budget is size x band edge.</li>
 *     <li>MOVE: {@link MatchingEngine#moveOrder(long, long)}: the order always loses its queue position, may trade
 *     on arrival, and rests its remainder at the back of the new level.</li>
 *     <li>REDUCE by n: cancel down to open size - n, keeping priority; n at or above the open size removes it.</li>
 *     <li>CANCEL: cancel down to 0.</li>
 * </ul>
 * exchange-core also requires the command's uid to own the order; Bourse's core has no owners, so the replay does not
 * check it (every command of exchange-core's benchmark targets its owner's order). Self-trade prevention does not
 * exist in the core, as exchange-core's benchmark requires. A CANCEL, REDUCE or MOVE of an order that is not open has
 * no effect and is counted in {@link #unknownOrderCount()}.
 *
 * <p>Single threaded; allocates nothing per command once the engine's pools have grown.
 */
public final class ExchangeCoreReplay implements MatchingEngineListener
{
    /** Receives each trade in emission order. */
    @FunctionalInterface
    public interface TradeListener
    {
        /**
         * @param takerOrderId exchange-core id of the incoming (or moved) order.
         * @param makerOrderId exchange-core id of the resting order.
         * @param price        the maker's price in ticks.
         * @param size         traded lots.
         */
        void onTrade(long takerOrderId, long makerOrderId, long price, long size);
    }

    /** The packed symbol the replay trades. */
    public static final long SYMBOL = Symbols.pack("XCORE");
    /** Header of the CSV that {@link #writeBookCsv(Path)} writes: the first four columns of exchange-core's dump. */
    public static final String BOOK_CSV_HEADER = "order_id,side,price,remaining_size";

    private final MatchingEngine engine;
    private final TradeListener tradeListener;
    private long tradeCount;
    private long rejectCount;
    private long killedCount;
    private long unknownOrderCount;

    /**
     * @param tradeListener receives every trade.
     */
    public ExchangeCoreReplay(final TradeListener tradeListener)
    {
        this.tradeListener = tradeListener;
        this.engine = new MatchingEngine(0, new long[]{SYMBOL}, Long.MAX_VALUE, this);
    }

    /**
     * Applies every command, SETUP and BENCH, in order.
     *
     * @param commands the stream.
     */
    public void replay(final ExchangeCoreCommands commands)
    {
        replay(commands, 0, commands.count());
    }

    /**
     * Applies commands {@code from} (inclusive) to {@code to} (exclusive), in order.
     *
     * @param commands the stream.
     * @param from     first command index.
     * @param to       index after the last command.
     */
    public void replay(final ExchangeCoreCommands commands, final int from, final int to)
    {
        for (int i = from; i < to; i++)
        {
            apply(commands, i);
        }
    }

    /**
     * Applies one command.
     *
     * @param commands the stream.
     * @param index    command index.
     * @throws IllegalArgumentException for a command kind or order type it does not know.
     */
    public void apply(final ExchangeCoreCommands commands, final int index)
    {
        final long orderId = commands.orderId(index);
        switch (commands.kind(index))
        {
            case ExchangeCoreCommands.PLACE -> place(commands, index, orderId);
            case ExchangeCoreCommands.MOVE -> move(orderId, commands.price(index));
            case ExchangeCoreCommands.REDUCE -> reduce(orderId, commands.size(index));
            case ExchangeCoreCommands.CANCEL -> reduce(orderId, Long.MAX_VALUE);
            default -> throw new IllegalArgumentException("command " + index + ": kind " + commands.kind(index));
        }
    }

    private void place(final ExchangeCoreCommands commands, final int index, final long orderId)
    {
        final Side side = ExchangeCoreCommands.SIDE_BUY == commands.side(index) ? Side.BUY : Side.SELL;
        final long price = commands.price(index);
        final long size = commands.size(index);
        switch (commands.orderType(index))
        {
            case ExchangeCoreCommands.TYPE_GTC ->
                engine.newOrder(orderId, SYMBOL, side, size, price, MatchingEngine.TIME_IN_FORCE_SYSTEM_HOURS);
            case ExchangeCoreCommands.TYPE_IOC ->
                engine.newOrder(orderId, SYMBOL, side, size, price, MatchingEngine.TIME_IN_FORCE_IMMEDIATE_OR_CANCEL);
            case ExchangeCoreCommands.TYPE_FOK_BUDGET ->
            {
                final long limit = Side.BUY == side ? Math.floorDiv(price, size) : -Math.floorDiv(-price, size);
                final long tradesBefore = tradeCount;
                engine.newOrder(
                    orderId, SYMBOL, side, size, limit, MatchingEngine.TIME_IN_FORCE_IMMEDIATE_OR_CANCEL, size);
                if (tradesBefore == tradeCount)
                {
                    killedCount++;
                }
            }
            default -> throw new IllegalArgumentException(
                "command " + index + ": order type " + commands.orderType(index));
        }
    }

    private void move(final long orderId, final long price)
    {
        // One lookup: a MOVE of an order that is not open comes back as a reject without a symbol.
        engine.moveOrder(orderId, price);
    }

    private void reduce(final long orderId, final long amount)
    {
        if (!engine.reduceOrder(orderId, amount))
        {
            unknownOrderCount++;
        }
    }

    /** @return the engine, for inspection. */
    public MatchingEngine engine()
    {
        return engine;
    }

    /** @return trades so far. */
    public long tradeCount()
    {
        return tradeCount;
    }

    /** @return commands the engine rejected (0 for a well-formed exchange-core stream). */
    public long rejectCount()
    {
        return rejectCount;
    }

    /** @return fill-or-kill orders that traded nothing because the book could not fill them. */
    public long killedCount()
    {
        return killedCount;
    }

    /** @return CANCEL, REDUCE and MOVE commands whose order was not open. */
    public long unknownOrderCount()
    {
        return unknownOrderCount;
    }

    /**
     * Visits every resting order as exchange-core's final_book.csv lists them: SELL orders lowest price first, then
     * BUY orders highest price first, oldest first within a price. The visitor's client order id is exchange-core's
     * order id.
     *
     * @param visitor receives each order.
     */
    public void forEachRestingOrder(final OrderBook.OrderVisitor visitor)
    {
        final OrderBook book = engine.book(SYMBOL);
        book.forEachOrder(Side.SELL, visitor);
        book.forEachOrder(Side.BUY, visitor);
    }

    /**
     * Writes the final book as {@link #BOOK_CSV_HEADER} rows in {@link #forEachRestingOrder} order.
     *
     * @param file the CSV file, replaced if present.
     * @throws IOException when writing fails.
     */
    public void writeBookCsv(final Path file) throws IOException
    {
        try (BufferedWriter writer = Files.newBufferedWriter(file, StandardCharsets.US_ASCII))
        {
            writer.write(BOOK_CSV_HEADER);
            writer.newLine();
            final IOException[] failure = new IOException[1];
            forEachRestingOrder((clientOrderId, orderId, side, price, remaining, display) ->
            {
                if (null == failure[0])
                {
                    try
                    {
                        writer.write(clientOrderId + "," + side + "," + price + "," + remaining);
                        writer.newLine();
                    }
                    catch (final IOException ex)
                    {
                        failure[0] = ex;
                    }
                }
            });
            if (null != failure[0])
            {
                throw failure[0];
            }
        }
    }

    @Override
    public void onOrderAccepted(
        final long clientOrderId, final long orderId, final long symbol, final Side side, final long quantity,
        final long price, final int timeInForce,
        final Display display)
    {
    }

    @Override
    public void onOrderRejected(final long clientOrderId, final long symbol, final byte reason)
    {
        if (0 == symbol)
        {
            unknownOrderCount++;
        }
        else
        {
            rejectCount++;
        }
    }

    @Override
    public void onOrderAdded(
        final long orderId, final long symbol, final Side side, final long quantity, final long price,
        final Display display, final int firm)
    {
    }

    @Override
    public void onOrderExecuted(
        final long matchNumber, final long symbol, final long quantity, final long price,
        final long takerClientOrderId, final long takerOrderId, final Side takerSide,
        final long makerClientOrderId, final long makerOrderId, final long makerLeaves, final long takerLeaves)
    {
        tradeCount++;
        tradeListener.onTrade(takerClientOrderId, makerClientOrderId, price, quantity);
    }

    @Override
    public void onOrderCanceled(
        final long clientOrderId, final long orderId, final long symbol, final long canceled, final long leaves,
        final byte reason, final boolean wasResting)
    {
    }

    @Override
    public void onOrderReplaced(
        final long clientOrderId, final long newClientOrderId, final long orderId, final long newOrderId,
        final long symbol, final Side side, final long quantity, final long price, final BookUpdate bookUpdate,
        final Display display)
    {
    }
}
