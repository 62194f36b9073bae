package io.bourse.launcher;

import io.aeron.driver.ThreadingMode;
import io.bourse.bench.BenchOptions;
import io.bourse.bench.EngineBenchmark;
import io.bourse.bench.EngineServiceBenchmark;
import io.bourse.bench.ServiceBenchOptions;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.nio.file.Path;
import java.util.concurrent.Callable;

/**
 * {@code bourse bench}: benchmark programs; {@code bourse bench engine} compares the matching core with exchange-core,
 * {@code bourse bench engine-service} measures the engine service with its Aeron input and output in the loop.
 */
@Command(
    name = "bench",
    mixinStandardHelpOptions = true,
    description = "Benchmarks (programs, not tests).",
    subcommands = { BenchCommand.Engine.class, BenchCommand.EngineServiceBench.class, CommandLine.HelpCommand.class })
public final class BenchCommand implements Runnable
{
    @CommandLine.Spec
    private CommandLine.Model.CommandSpec spec;

    @Override
    public void run()
    {
        spec.commandLine().usage(System.out);
    }

    /** {@code bourse bench engine}: option parsing only; the benchmark is {@link EngineBenchmark}. */
    @Command(
        name = "engine",
        mixinStandardHelpOptions = true,
        description = {
            "Replay exchange-core's 3M-command benchmark stream, single thread, no network, through Bourse's " +
                "matching core and exchange-core's OrderBookDirectImpl; print throughput, service-time percentiles " +
                "(min/median/max across iterations), allocation and the ratios.",
            "exchange-core's full pipeline is not measured: its chronicle-core 2.19 dependency cannot start on " +
                "Java 21+." })
    static final class Engine implements Callable<Integer>
    {
        @Option(names = "--commands", paramLabel = "FILE", defaultValue = BenchOptions.DEFAULT_COMMANDS,
            description = "exchange-core commands.csv(.gz) (default: ${DEFAULT-VALUE}, from the repository root).")
        Path commands;

        @Option(names = "--warmup", paramLabel = "N", defaultValue = "" + BenchOptions.DEFAULT_WARMUP,
            description = "Unreported warm-up iterations (default: ${DEFAULT-VALUE}).")
        int warmup;

        @Option(names = "--iterations", paramLabel = "N", defaultValue = "" + BenchOptions.DEFAULT_ITERATIONS,
            description = "Measured iterations (default: ${DEFAULT-VALUE}).")
        int iterations;

        @Option(names = "--jfr", paramLabel = "FILE",
            description = "Also record one Bourse pass into this JFR file (allocation profile).")
        Path jfr;

        @CommandLine.Spec
        CommandLine.Model.CommandSpec spec;

        @Override
        public Integer call()
        {
            final BenchOptions options = new BenchOptions(commands, warmup, iterations, jfr);
            try
            {
                options.validate();
            }
            catch (final IllegalArgumentException ex)
            {
                throw new CommandLine.ParameterException(spec.commandLine(), ex.getMessage(), ex);
            }
            EngineBenchmark.run(options, System.out);
            return 0;
        }
    }

    /** {@code bourse bench engine-service}: option parsing only; the benchmark is {@link EngineServiceBenchmark}. */
    @Command(
        name = "engine-service",
        mixinStandardHelpOptions = true,
        description = {
            "Send exchange-core's benchmark stream, as engine-protocol SBE commands over an embedded Aeron media " +
                "driver (aeron:ipc), through a real matching-engine service (one shard, one symbol); print " +
                "throughput (BENCH commands from first send to last event) and command-to-first-event latency " +
                "percentiles, beside the matching core alone on the same commands in the same run, and the ratio.",
            "MOVE is sent as ReplaceOrder, REDUCE as CancelOrder down to the open size, FOK_BUDGET as IOC without " +
                "its minimum quantity (NewOrder cannot carry one yet)." })
    static final class EngineServiceBench implements Callable<Integer>
    {
        @Option(names = "--commands", paramLabel = "FILE", defaultValue = BenchOptions.DEFAULT_COMMANDS,
            description = "exchange-core commands.csv(.gz) (default: ${DEFAULT-VALUE}, from the repository root).")
        Path commands;

        @Option(names = "--warmup", paramLabel = "N", defaultValue = "" + ServiceBenchOptions.DEFAULT_WARMUP,
            description = "Unreported warm-up iterations (default: ${DEFAULT-VALUE}).")
        int warmup;

        @Option(names = "--iterations", paramLabel = "N", defaultValue = "" + ServiceBenchOptions.DEFAULT_ITERATIONS,
            description = "Measured iterations (default: ${DEFAULT-VALUE}).")
        int iterations;

        @Option(names = "--rate", paramLabel = "PER_SECOND", defaultValue = "" + ServiceBenchOptions.DEFAULT_RATE,
            description = "Commands per second on a fixed schedule, latency from each command's intended send " +
                "time; 0 = as fast as back pressure allows (default: ${DEFAULT-VALUE}).")
        long rate;

        @Option(names = "--idle", paramLabel = "STRATEGY", defaultValue = ServiceBenchOptions.DEFAULT_IDLE,
            description = "Idle strategy of the engine, publisher and subscriber threads: backoff, busy, yield or " +
                "sleep (default: ${DEFAULT-VALUE}; busy wants a core per thread).")
        String idle;

        @Option(names = "--driver-threading", paramLabel = "MODE",
            defaultValue = ServiceBenchOptions.DEFAULT_DRIVER_THREADING_NAME,
            description = "Embedded media driver threading mode: SHARED, SHARED_NETWORK or DEDICATED (default: " +
                "${DEFAULT-VALUE}: one driver thread; over aeron:ipc DEDICATED only adds idle sender and receiver " +
                "threads).")
        ThreadingMode driverThreading;

        @CommandLine.Spec
        CommandLine.Model.CommandSpec spec;

        @Override
        public Integer call()
        {
            final ServiceBenchOptions options =
                new ServiceBenchOptions(commands, warmup, iterations, rate, idle, driverThreading);
            try
            {
                options.validate();
            }
            catch (final IllegalArgumentException ex)
            {
                throw new CommandLine.ParameterException(spec.commandLine(), ex.getMessage(), ex);
            }
            EngineServiceBenchmark.run(options, System.out);
            return 0;
        }
    }
}
