package io.bourse.bench;

import exchange.core2.core.ExchangeApi;
import exchange.core2.core.ExchangeCore;
import exchange.core2.core.common.CoreWaitStrategy;
import exchange.core2.core.common.MatcherEventType;
import exchange.core2.core.common.MatcherTradeEvent;
import exchange.core2.core.common.api.ApiAddUser;
import exchange.core2.core.common.api.ApiAdjustUserBalance;
import exchange.core2.core.common.api.ApiCancelOrder;
import exchange.core2.core.common.api.ApiCommand;
import exchange.core2.core.common.api.ApiMoveOrder;
import exchange.core2.core.common.api.ApiPlaceOrder;
import exchange.core2.core.common.api.ApiReduceOrder;
import exchange.core2.core.common.api.ApiReset;
import exchange.core2.core.common.api.binary.BatchAddSymbolsCommand;
import exchange.core2.core.common.cmd.CommandResultCode;
import exchange.core2.core.common.cmd.OrderCommand;
import exchange.core2.core.common.cmd.OrderCommandType;
import exchange.core2.core.common.config.ExchangeConfiguration;
import exchange.core2.core.common.config.PerformanceConfiguration;
import exchange.core2.core.orderbook.OrderBookDirectImpl;
import io.bourse.engine.replay.ExchangeCoreCommands;
import org.HdrHistogram.Histogram;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * exchange-core's full pipeline, {@link ExchangeCore}: its LMAX disruptor with the grouping stage, one risk engine
 * (pre-hold and release), one matching engine with {@link OrderBookDirectImpl}, and the results handler. Commands are
 * prepared in advance as API objects and submitted the way exchange-core's own throughput test does
 * ({@link ExchangeApi#submitCommandsSync}: every command published asynchronously, then a wait for the last one).
 * Throughput only: a per-command service time is not observable from outside a pipeline whose stages run
 * concurrently on other threads (exchange-core measures latency in a separate fixed-rate test instead).
 *
 * <p>Wait strategy: BUSY_SPIN as in exchange-core's throughput configuration when the machine has at least
 * {@link #BUSY_SPIN_MIN_CORES} cores; YIELDING otherwise, since four spinning stages on fewer cores starve each other.
 */
final class ExchangeCorePipelineEngine implements EngineUnderTest
{
    /** Cores needed for one thread per busy-spinning stage plus the submitting thread. */
    static final int BUSY_SPIN_MIN_CORES = 6;

    private final List<ApiCommand> setup;
    private final List<ApiCommand> bench;
    private final List<ApiCommand> accounts;
    private final CoreWaitStrategy waitStrategy;
    private final ExchangeCore core;
    private final ExchangeApi api;
    private long trades;
    private long failures;

    /**
     * Starts exchange-core's threads.
     *
     * @param stream exchange-core's command stream.
     */
    ExchangeCorePipelineEngine(final ExchangeCoreCommands stream)
    {
        final List<ApiCommand> all = Arrays.asList(prepare(stream));
        setup = all.subList(0, stream.benchStart());
        bench = all.subList(stream.benchStart(), all.size());
        accounts = accounts(ExchangeCoreSpec.maxUid(stream));
        waitStrategy = Runtime.getRuntime().availableProcessors() >= BUSY_SPIN_MIN_CORES ?
            CoreWaitStrategy.BUSY_SPIN : CoreWaitStrategy.YIELDING;
        final PerformanceConfiguration performance = PerformanceConfiguration.baseBuilder()
            .ringBufferSize(64 * 1024)
            .matchingEnginesNum(1)
            .riskEnginesNum(1)
            .msgsInGroupLimit(4_096)
            .maxGroupDurationNs(4_000_000)
            .waitStrategy(waitStrategy)
            .threadFactory(runnable ->
            {
                final Thread thread = new Thread(runnable, "exchange-core");
                thread.setDaemon(true);
                return thread;
            })
            .orderBookFactory(OrderBookDirectImpl::new)
            .build();
        core = ExchangeCore.builder()
            .resultsConsumer(this::onResult)
            .exchangeConfiguration(ExchangeConfiguration.defaultBuilder().performanceCfg(performance).build())
            .build();
        core.startup();
        api = core.getApi();
    }

    private static ApiCommand[] prepare(final ExchangeCoreCommands stream)
    {
        final ApiCommand[] prepared = new ApiCommand[stream.count()];
        for (int i = 0; i < prepared.length; i++)
        {
            final long orderId = stream.orderId(i);
            final long uid = stream.uid(i);
            prepared[i] = switch (stream.kind(i))
            {
                case ExchangeCoreCommands.PLACE -> ApiPlaceOrder.builder()
                    .symbol(ExchangeCoreSpec.SYMBOL).uid(uid).orderId(orderId)
                    .action(ExchangeCoreSpec.action(stream.side(i)))
                    .orderType(ExchangeCoreSpec.orderType(stream.orderType(i)))
                    .price(stream.price(i)).reservePrice(stream.price(i)).size(stream.size(i))
                    .build();
                case ExchangeCoreCommands.MOVE -> ApiMoveOrder.builder()
                    .symbol(ExchangeCoreSpec.SYMBOL).uid(uid).orderId(orderId).newPrice(stream.price(i)).build();
                case ExchangeCoreCommands.REDUCE -> ApiReduceOrder.builder()
                    .symbol(ExchangeCoreSpec.SYMBOL).uid(uid).orderId(orderId).reduceSize(stream.size(i)).build();
                case ExchangeCoreCommands.CANCEL -> ApiCancelOrder.builder()
                    .symbol(ExchangeCoreSpec.SYMBOL).uid(uid).orderId(orderId).build();
                default -> throw new IllegalArgumentException("command " + i + ": unknown kind " + stream.kind(i));
            };
        }
        return prepared;
    }

    private static List<ApiCommand> accounts(final int maxUid)
    {
        final List<ApiCommand> commands = new ArrayList<>(2 * maxUid);
        for (int uid = 1; uid <= maxUid; uid++)
        {
            commands.add(ApiAddUser.builder().uid(uid).build());
            commands.add(ApiAdjustUserBalance.builder()
                .uid(uid).currency(ExchangeCoreSpec.QUOTE_CURRENCY).amount(ExchangeCoreSpec.FUNDING)
                .transactionId(uid).build());
        }
        return commands;
    }

    /** @return the disruptor wait strategy this run uses. */
    CoreWaitStrategy waitStrategy()
    {
        return waitStrategy;
    }

    @Override
    public String name()
    {
        return "exchange-core ExchangeCore pipeline";
    }

    @Override
    public boolean measuresLatency()
    {
        return false;
    }

    @Override
    public void reset()
    {
        expectSuccess("reset", api.submitCommandAsync(ApiReset.builder().build()).join());
        expectSuccess("add symbol",
            api.submitBinaryDataAsync(new BatchAddSymbolsCommand(ExchangeCoreSpec.SYMBOL_SPEC)).join());
        api.submitCommandsSync(accounts);
        trades = 0;
        failures = 0;
        api.submitCommandsSync(setup);
    }

    private static void expectSuccess(final String what, final CommandResultCode code)
    {
        if (CommandResultCode.SUCCESS != code)
        {
            throw new IllegalStateException("exchange-core " + what + " failed: " + code);
        }
    }

    @Override
    public long runBench()
    {
        final long startNs = System.nanoTime();
        api.submitCommandsSync(bench);
        return System.nanoTime() - startNs;
    }

    @Override
    public long runBenchTimed(final Histogram histogram)
    {
        throw new UnsupportedOperationException(name() + " measures throughput only");
    }

    /** On exchange-core's results thread; the counts are read after the last command's future completes. */
    private void onResult(final OrderCommand cmd, final long sequence)
    {
        final OrderCommandType type = cmd.command;
        if (OrderCommandType.PLACE_ORDER != type && OrderCommandType.MOVE_ORDER != type &&
            OrderCommandType.REDUCE_ORDER != type && OrderCommandType.CANCEL_ORDER != type)
        {
            return;
        }
        if (CommandResultCode.SUCCESS != cmd.resultCode)
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
        core.shutdown();
    }
}
