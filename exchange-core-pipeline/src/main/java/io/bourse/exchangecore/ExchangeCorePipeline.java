package io.bourse.exchangecore;

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
import exchange.core2.core.common.api.binary.BatchAddSymbolsCommand;
import exchange.core2.core.common.cmd.CommandResultCode;
import exchange.core2.core.common.cmd.OrderCommand;
import exchange.core2.core.common.cmd.OrderCommandType;
import exchange.core2.core.common.config.ExchangeConfiguration;
import exchange.core2.core.common.config.PerformanceConfiguration;
import io.bourse.workload.ExchangeCoreCommands;
import org.HdrHistogram.Histogram;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.LockSupport;

/**
 * exchange-core's whole engine, one instance: its Disruptor pipeline (grouping, risk pre-processing, matching, risk
 * settlement, results) in exchange-core's latency configuration ({@code PerformanceConfiguration
 * .latencyPerformanceBuilder()}: ring of 2,048, one matching and one risk engine, exchange-core's affinity thread
 * factory) with the given wait strategy, set up as for exchange-core's single-symbol "margin" benchmark: the symbol of
 * {@link ExchangeCoreSpec}, the stream's users (uids 1 to 1,000) funded far beyond need in its quote currency, then the
 * stream's SETUP commands.
 *
 * <p>{@link #run} sends BENCH commands through exchange-core's own API ({@code ExchangeApi.submitCommand}) as
 * exchange-core's latency test does: on a fixed schedule, busy-waiting for each command's intended send time, which it
 * stamps on the command; exchange-core's results consumer records each command's latency from that time to its result,
 * so a late send counts (no coordinated omission). The sender is this thread; the consumer runs on exchange-core's
 * results thread.
 */
public final class ExchangeCorePipeline implements AutoCloseable
{
    /** Users of exchange-core's stream: uids 1 to 1,000. */
    static final int USERS = 1_000;
    /** Each user's balance in {@link ExchangeCoreSpec#QUOTE_CURRENCY}: far beyond what any order of the stream needs.
     */
    static final long BALANCE = 1_000_000_000_000_000L;
    private static final long HIGHEST_LATENCY_NS = TimeUnit.MINUTES.toNanos(10);
    private static final long SET_UP_TIMEOUT_SECONDS = 120;

    private final ExchangeCore core;
    private final ExchangeApi api;
    private final ApiCommand[] commands;
    private final Histogram histogram = new Histogram(HIGHEST_LATENCY_NS, 3);
    private volatile long measureFromNs = Long.MAX_VALUE;
    private volatile int results;
    private int measured;
    private long failures;
    private long trades;
    private long lastResultNs;

    /**
     * Starts exchange-core and sets it up: symbol, users and balances, then the SETUP commands, each batch confirmed.
     *
     * @param stream       exchange-core's command stream.
     * @param commands     the stream as exchange-core API commands ({@link #apiCommands}).
     * @param waitStrategy how exchange-core's pipeline threads wait for work.
     * @throws IllegalStateException when a set-up command fails or exchange-core does not confirm it within 2 minutes.
     */
    public ExchangeCorePipeline(
        final ExchangeCoreCommands stream, final ApiCommand[] commands, final CoreWaitStrategy waitStrategy)
    {
        this.commands = commands;
        core = new ExchangeCore(this::onResult, ExchangeConfiguration.defaultBuilder()
            .performanceCfg(PerformanceConfiguration.latencyPerformanceBuilder().waitStrategy(waitStrategy).build())
            .build());
        core.startup();
        api = core.getApi();
        try
        {
            confirm("add the symbol",
                api.submitBinaryDataAsync(new BatchAddSymbolsCommand(ExchangeCoreSpec.SYMBOL_SPEC)));
            CompletableFuture<CommandResultCode> last = null;
            for (int uid = 1; uid <= USERS; uid++)
            {
                api.submitCommand(ApiAddUser.builder().uid(uid).build());
                last = api.submitCommandAsync(ApiAdjustUserBalance.builder().uid(uid)
                    .currency(ExchangeCoreSpec.QUOTE_CURRENCY).amount(BALANCE).transactionId(uid).build());
            }
            confirm("fund the users", last);
            for (int i = 0; i < stream.benchStart(); i++)
            {
                last = api.submitCommandAsync(commands[i]);
            }
            if (stream.benchStart() > 0)
            {
                confirm("send the SETUP commands", last);
            }
        }
        catch (final RuntimeException ex)
        {
            core.shutdown();
            throw ex;
        }
    }

    /**
     * @param stream exchange-core's command stream.
     * @return one API command per stream command, for the one symbol of {@link ExchangeCoreSpec}; a PLACE's reserve
     * price is its price (as exchange-core's generator sets it).
     * @throws IllegalArgumentException for a command of an unknown kind or PLACE order type.
     */
    public static ApiCommand[] apiCommands(final ExchangeCoreCommands stream)
    {
        final ApiCommand[] commands = new ApiCommand[stream.count()];
        for (int i = 0; i < commands.length; i++)
        {
            final long orderId = stream.orderId(i);
            final long uid = stream.uid(i);
            switch (stream.kind(i))
            {
                case ExchangeCoreCommands.PLACE -> commands[i] = ApiPlaceOrder.builder()
                    .orderId(orderId).uid(uid).symbol(ExchangeCoreSpec.SYMBOL)
                    .action(ExchangeCoreSpec.action(stream.side(i)))
                    .orderType(ExchangeCoreSpec.orderType(stream.orderType(i)))
                    .price(stream.price(i)).reservePrice(stream.price(i)).size(stream.size(i)).build();
                case ExchangeCoreCommands.MOVE -> commands[i] = ApiMoveOrder.builder()
                    .orderId(orderId).uid(uid).symbol(ExchangeCoreSpec.SYMBOL).newPrice(stream.price(i)).build();
                case ExchangeCoreCommands.REDUCE -> commands[i] = ApiReduceOrder.builder()
                    .orderId(orderId).uid(uid).symbol(ExchangeCoreSpec.SYMBOL).reduceSize(stream.size(i)).build();
                case ExchangeCoreCommands.CANCEL -> commands[i] = ApiCancelOrder.builder()
                    .orderId(orderId).uid(uid).symbol(ExchangeCoreSpec.SYMBOL).build();
                default -> throw new IllegalArgumentException("command " + i + ": unknown kind " + stream.kind(i));
            }
        }
        return commands;
    }

    /**
     * Sends the commands {@code [from, to)} on a fixed schedule and waits for all their results; once per instance.
     *
     * @param from      first command, at or after the stream's BENCH start.
     * @param to        end, exclusive.
     * @param rate      commands per second; 0 sends each as soon as exchange-core's ring takes it (a warm-up).
     * @param timeoutNs how long to wait for the last result after the last send.
     * @return the step: its latencies, from each command's intended send time to its result, ns.
     * @throws IllegalStateException when the results do not all arrive in time.
     */
    public PipelineStep run(final int from, final int to, final long rate, final long timeoutNs)
    {
        final int count = to - from;
        final long startNs = System.nanoTime();
        measureFromNs = startNs;
        for (int i = 0; i < count; i++)
        {
            final long intendedNs = 0 == rate ? System.nanoTime() : startNs + i * 1_000_000_000L / rate;
            while (System.nanoTime() < intendedNs)
            {
                Thread.onSpinWait();
            }
            final ApiCommand command = commands[from + i];
            command.timestamp = intendedNs;
            api.submitCommand(command);
        }
        final long deadlineNs = System.nanoTime() + timeoutNs;
        while (results < count)
        {
            if (System.nanoTime() > deadlineNs)
            {
                throw new IllegalStateException(String.format(
                    "exchange-core returned %,d of %,d results in time", results, count));
            }
            LockSupport.parkNanos(TimeUnit.MICROSECONDS.toNanos(100));
        }
        return new PipelineStep(rate, count, lastResultNs - startNs, failures, trades, histogram.copy());
    }

    /** Stops exchange-core's threads. */
    @Override
    public void close()
    {
        core.shutdown();
    }

    private void onResult(final OrderCommand command, final long sequence)
    {
        if (command.timestamp < measureFromNs || !isOrderCommand(command.command))
        {
            return;
        }
        final long nowNs = System.nanoTime();
        histogram.recordValue(Math.min(nowNs - command.timestamp, HIGHEST_LATENCY_NS));
        if (CommandResultCode.SUCCESS != command.resultCode)
        {
            failures++;
        }
        for (MatcherTradeEvent event = command.matcherEvent; null != event; event = event.nextEvent)
        {
            if (MatcherEventType.TRADE == event.eventType)
            {
                trades++;
            }
        }
        lastResultNs = nowNs;
        results = ++measured;
    }

    private static boolean isOrderCommand(final OrderCommandType type)
    {
        return OrderCommandType.PLACE_ORDER == type || OrderCommandType.MOVE_ORDER == type ||
            OrderCommandType.REDUCE_ORDER == type || OrderCommandType.CANCEL_ORDER == type;
    }

    private static void confirm(final String what, final CompletableFuture<CommandResultCode> result)
    {
        final CommandResultCode code;
        try
        {
            code = result.get(SET_UP_TIMEOUT_SECONDS, TimeUnit.SECONDS);
        }
        catch (final TimeoutException ex)
        {
            throw new IllegalStateException("exchange-core did not " + what + " within " + SET_UP_TIMEOUT_SECONDS +
                " s", ex);
        }
        catch (final Exception ex)
        {
            throw new IllegalStateException("exchange-core could not " + what + ": " + ex, ex);
        }
        if (CommandResultCode.SUCCESS != code && CommandResultCode.ACCEPTED != code)
        {
            throw new IllegalStateException("exchange-core could not " + what + ": " + code);
        }
    }
}
