package io.bourse.exchangecore;

import exchange.core2.core.common.CoreWaitStrategy;
import exchange.core2.core.common.api.ApiCommand;
import io.bourse.workload.ExchangeCoreCommands;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;

/**
 * exchange-core's latency ramp on its own engine, on this host: the main of the JDK 17 child process that
 * {@code bourse bench ramp} starts for its baseline. For each rate in order, a fresh {@link ExchangeCorePipeline} is
 * set up (symbol, users, SETUP commands), garbage is collected, and the first {@code rate * step-seconds} BENCH
 * commands (at most all of them) are sent on exchange-core's fixed schedule; a warm-up pass at full speed on its own
 * instance comes first. Each step prints one {@link PipelineStep} line on standard output; everything else it prints
 * is progress. The ramp stops after the first broken step ({@link RampRule}); it fails when results are not all back
 * within a minute of the last send.
 *
 * <p>Exit status 0 when every step ran (the last may be broken), 1 on an error, 2 on bad options.
 */
@Command(name = "exchange-core-pipeline-ramp", mixinStandardHelpOptions = true,
    description = "exchange-core's whole engine at fixed open-loop rates, one STEP line per rate.")
public final class ExchangeCorePipelineRamp implements Callable<Integer>
{
    private static final long RESULTS_TIMEOUT_NS = TimeUnit.MINUTES.toNanos(1);

    @Option(names = "--commands", required = true, paramLabel = "FILE",
        description = "exchange-core's commands.csv(.gz).")
    Path commandsFile;

    @Option(names = "--rates", required = true, split = ",", paramLabel = "LIST",
        description = "Commands per second, one step each, in order.")
    List<Long> rates;

    @Option(names = "--step-seconds", required = true, paramLabel = "SECONDS",
        description = "Each step sends the first rate x SECONDS BENCH commands (at most all).")
    double stepSeconds;

    @Option(names = "--warmup-commands", defaultValue = "0", paramLabel = "N",
        description = "BENCH commands sent at full speed first, unmeasured (default: ${DEFAULT-VALUE}).")
    int warmupCommands;

    @Option(names = "--wait-strategy", defaultValue = "BUSY_SPIN", paramLabel = "NAME",
        description = "exchange-core's wait strategy: ${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE}).")
    CoreWaitStrategy waitStrategy;

    /**
     * @param args the options above.
     */
    public static void main(final String[] args)
    {
        int status = 1;
        try
        {
            status = new CommandLine(new ExchangeCorePipelineRamp()).execute(args);
        }
        catch (final Throwable ex)
        {
            ex.printStackTrace();
        }
        finally
        {
            System.exit(status); // exchange-core's pipeline threads are not daemons: they would outlive a failed main
        }
    }

    /**
     * Runs the ramp.
     *
     * @return 0.
     * @throws IllegalStateException when exchange-core fails a set-up command or does not return every result.
     */
    @Override
    public Integer call()
    {
        final ExchangeCoreCommands stream = ExchangeCoreCommands.load(commandsFile);
        final ApiCommand[] commands = ExchangeCorePipeline.apiCommands(stream);
        final int benchCommands = stream.count() - stream.benchStart();
        System.out.printf(Locale.ROOT, "exchange-core pipeline on Java %s: %,d SETUP + %,d BENCH commands, wait " +
            "strategy %s%n", Runtime.version(), stream.benchStart(),
            benchCommands, waitStrategy);
        if (warmupCommands > 0)
        {
            final int warmup = Math.min(warmupCommands, benchCommands);
            try (ExchangeCorePipeline pipeline = new ExchangeCorePipeline(stream, commands, waitStrategy))
            {
                final PipelineStep pass = pipeline.run(stream.benchStart(), stream.benchStart() + warmup, 0,
                    RESULTS_TIMEOUT_NS);
                System.out.printf(Locale.ROOT, "warm-up: %,d commands at full speed, %,.0f commands/s%n", warmup,
                    pass.achievedRate());
            }
        }
        for (final long rate : rates)
        {
            final int stepCommands = RampRule.stepCommands(rate, stepSeconds, benchCommands);
            final PipelineStep step;
            try (ExchangeCorePipeline pipeline = new ExchangeCorePipeline(stream, commands, waitStrategy))
            {
                System.gc();
                step = pipeline.run(stream.benchStart(), stream.benchStart() + stepCommands, rate, RESULTS_TIMEOUT_NS);
            }
            System.out.printf(Locale.ROOT, "rate %,d/s: %,d commands, achieved %,.0f/s, p50 %,d p99 %,d worst " +
                "%,d ns, %,d trades, %,d failed%n", rate, step.commands(), step.achievedRate(),
                step.histogram().getValueAtPercentile(50), step.histogram().getValueAtPercentile(99),
                step.histogram().getMaxValue(), step.trades(), step.failures());
            System.out.println(step.toLine());
            System.out.flush();
            if (null != RampRule.breakReason(rate, step.achievedRate(), step.histogram().getValueAtPercentile(50)))
            {
                break;
            }
        }
        return 0;
    }
}
