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
import io.bourse.engine.replay.ExchangeCoreCommands;
import org.HdrHistogram.Histogram;

/**
 * exchange-core's order book, {@link OrderBookDirectImpl}, driven directly on the calling thread the way
 * exchange-core's
 * own ITOrderBookBase performance test drives it: every command prepared in advance as an {@link OrderCommand},
 * copied into one reused work command, marked valid for the matching engine and processed with
 * {@link IOrderBook#processCommand}. The trade events it attaches are walked and counted. exchange-core 0.5.3
 * allocates a new MatcherTradeEvent per trade or reduce event whatever the helper (its event pooling is off), so the
 * non-pooled helper is the same code path its matching engine runs.
 */
final class ExchangeCoreBookEngine implements EngineUnderTest
{
    private final OrderCommand[] commands;
    private final int benchStart;
    private final OrderCommand work = new OrderCommand();
    private IOrderBook book;
    private long trades;
    private long failures;

    /**
     * @param stream exchange-core's command stream.
     */
    ExchangeCoreBookEngine(final ExchangeCoreCommands stream)
    {
        commands = prepare(stream);
        benchStart = stream.benchStart();
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
            }
        }
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
