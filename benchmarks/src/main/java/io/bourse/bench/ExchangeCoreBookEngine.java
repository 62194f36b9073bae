package io.bourse.bench;

import exchange.core2.collections.objpool.ObjectsPool;
import exchange.core2.core.common.MatcherEventType;
import exchange.core2.core.common.MatcherTradeEvent;
import exchange.core2.core.common.cmd.CommandResultCode;
import exchange.core2.core.common.cmd.OrderCommand;
import exchange.core2.core.common.cmd.OrderCommandType;
import exchange.core2.core.common.config.LoggingConfiguration;
import exchange.core2.core.orderbook.IOrderBook;
import exchange.core2.core.orderbook.OrderBookDirectImpl;
import exchange.core2.core.orderbook.OrderBookEventsHelper;
import io.bourse.engine.match.Side;
import io.bourse.engine.replay.ExchangeCoreReplay;
import io.bourse.exchangecore.ExchangeCoreSpec;
import io.bourse.workload.ExchangeCoreCommands;
import org.HdrHistogram.Histogram;

/**
 * exchange-core's order book, {@link OrderBookDirectImpl}, driven directly on the calling thread the way
 * exchange-core's
 * own ITOrderBookBase performance test drives it: every command prepared in advance as an {@link OrderCommand},
 * copied into one reused work command, marked valid for the matching engine and processed with
 * {@link IOrderBook#processCommand}. The trade events it attaches are walked, counted and handed to a trade listener,
 * as Bourse's replay hands its trades to one. exchange-core 0.5.3 allocates a new MatcherTradeEvent per trade or
 * reduce event whatever the helper (its event pooling is off), so the non-pooled helper is the same code path its
 * matching engine runs.
 */
final class ExchangeCoreBookEngine implements EngineUnderTest
{
    /** Receives one resting order of the book. */
    @FunctionalInterface
    interface RestingOrderVisitor
    {
        /**
         * @param orderId   exchange-core order id.
         * @param side      {@link Side#SELL} for an ask, {@link Side#BUY} for a bid.
         * @param price     limit price in ticks.
         * @param remaining lots still resting: size less fills and reductions.
         */
        void visit(long orderId, Side side, long price, long remaining);
    }

    private static final ExchangeCoreReplay.TradeListener DISCARD_TRADES = (taker, maker, price, size) ->
    {
    };

    private final OrderCommand[] commands;
    private final int benchStart;
    private final ExchangeCoreReplay.TradeListener tradeListener;
    private final OrderCommand work = new OrderCommand();
    private IOrderBook book;
    private long trades;
    private long failures;

    /**
     * An engine that discards its trades after counting them, for the benchmark.
     *
     * @param stream exchange-core's command stream.
     */
    ExchangeCoreBookEngine(final ExchangeCoreCommands stream)
    {
        this(stream, DISCARD_TRADES);
    }

    /**
     * @param stream        exchange-core's command stream.
     * @param tradeListener receives every trade in emission order: the id of the command's order as taker, the
     *                      resting order's id as maker, the maker's price in ticks and the lots traded.
     */
    ExchangeCoreBookEngine(final ExchangeCoreCommands stream, final ExchangeCoreReplay.TradeListener tradeListener)
    {
        commands = prepare(stream);
        benchStart = stream.benchStart();
        this.tradeListener = tradeListener;
    }

    static OrderCommand[] prepare(final ExchangeCoreCommands stream)
    {
        final OrderCommand[] prepared = new OrderCommand[stream.count()];
        for (int i = 0; i < prepared.length; i++)
        {
            final OrderCommand cmd = new OrderCommand();
            cmd.orderId = stream.orderId(i);
            cmd.uid = stream.uid(i);
            cmd.symbol = ExchangeCoreSpec.SYMBOL;
            switch (stream.kind(i))
            {
                case ExchangeCoreCommands.PLACE ->
                {
                    cmd.command = OrderCommandType.PLACE_ORDER;
                    cmd.action = ExchangeCoreSpec.action(stream.side(i));
                    cmd.orderType = ExchangeCoreSpec.orderType(stream.orderType(i));
                    cmd.price = stream.price(i);
                    cmd.reserveBidPrice = stream.price(i);
                    cmd.size = stream.size(i);
                }
                case ExchangeCoreCommands.MOVE ->
                {
                    cmd.command = OrderCommandType.MOVE_ORDER;
                    cmd.price = stream.price(i);
                }
                case ExchangeCoreCommands.REDUCE ->
                {
                    cmd.command = OrderCommandType.REDUCE_ORDER;
                    cmd.size = stream.size(i);
                }
                case ExchangeCoreCommands.CANCEL -> cmd.command = OrderCommandType.CANCEL_ORDER;
                default -> throw new IllegalArgumentException("command " + i + ": unknown kind " + stream.kind(i));
            }
            prepared[i] = cmd;
        }
        return prepared;
    }

    @Override
    public String name()
    {
        return "exchange-core OrderBookDirectImpl";
    }

    @Override
    public void reset()
    {
        book = new OrderBookDirectImpl(ExchangeCoreSpec.SYMBOL_SPEC, ObjectsPool.createDefaultTestPool(),
            OrderBookEventsHelper.NON_POOLED_EVENTS_HELPER, LoggingConfiguration.DEFAULT);
        trades = 0;
        failures = 0;
        for (int i = 0; i < benchStart; i++)
        {
            process(i);
        }
    }

    @Override
    public long runBench()
    {
        final int end = commands.length;
        final long startNs = System.nanoTime();
        for (int i = benchStart; i < end; i++)
        {
            process(i);
        }
        return System.nanoTime() - startNs;
    }

    @Override
    public long runBenchTimed(final Histogram histogram)
    {
        final int end = commands.length;
        final long startNs = System.nanoTime();
        for (int i = benchStart; i < end; i++)
        {
            final long beforeNs = System.nanoTime();
            process(i);
            histogram.recordValue(System.nanoTime() - beforeNs);
        }
        return System.nanoTime() - startNs;
    }

    private void process(final int index)
    {
        final OrderCommand cmd = work;
        commands[index].writeTo(cmd);
        cmd.resultCode = CommandResultCode.VALID_FOR_MATCHING_ENGINE;
        cmd.matcherEvent = null;
        if (CommandResultCode.SUCCESS != IOrderBook.processCommand(book, cmd))
        {
            failures++;
        }
        for (MatcherTradeEvent event = cmd.matcherEvent; null != event; event = event.nextEvent)
        {
            if (MatcherEventType.TRADE == event.eventType)
            {
                trades++;
                tradeListener.onTrade(cmd.orderId, event.matchedOrderId, event.price, event.size);
            }
        }
    }

    /**
     * Visits every resting order as exchange-core's final_book.csv lists them: asks lowest price first, then bids
     * highest price first, oldest first within a price: the order in which {@link OrderBookDirectImpl} links its
     * orders for matching, which its order streams walk from the best order.
     *
     * @param visitor receives each order.
     * @throws IllegalStateException before the first {@link #reset()} or after {@link #close()}.
     */
    void forEachRestingOrder(final RestingOrderVisitor visitor)
    {
        if (null == book)
        {
            throw new IllegalStateException("no book: reset() first");
        }
        book.askOrdersStream(true).forEach(order -> visitor.visit(
            order.getOrderId(), Side.SELL, order.getPrice(), order.getSize() - order.getFilled()));
        book.bidOrdersStream(true).forEach(order -> visitor.visit(
            order.getOrderId(), Side.BUY, order.getPrice(), order.getSize() - order.getFilled()));
    }

    @Override
    public long trades()
    {
        return trades;
    }

    @Override
    public long failures()
    {
        return failures;
    }

    @Override
    public void close()
    {
        book = null;
    }
}
