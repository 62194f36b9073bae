package io.bourse.launcher;

import io.bourse.bench.BenchOptions;
import io.bourse.bench.EngineBenchmark;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.nio.file.Path;
import java.util.concurrent.Callable;

/** {@code bourse bench}: benchmark programs; {@code bourse bench engine} compares the matching core with exchange-core. */
@Command(
    name = "bench",
    mixinStandardHelpOptions = true,
    description = "Benchmarks (programs, not tests).",
    subcommands = { BenchCommand.Engine.class, CommandLine.HelpCommand.class })
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
}
