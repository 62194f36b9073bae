package io.bourse.launcher;

import io.aeron.driver.ThreadingMode;
import io.bourse.bench.BenchOptions;
import io.bourse.bench.BenchSuite;
import io.bourse.bench.EngineBenchmark;
import io.bourse.bench.EndToEndBenchOptions;
import io.bourse.bench.EndToEndBenchmark;
import io.bourse.bench.EngineRamp;
import io.bourse.bench.EngineRampOptions;
import io.bourse.bench.EngineServiceBenchmark;
import io.bourse.bench.ExchangeTarget;
import io.bourse.bench.FanoutBenchOptions;
import io.bourse.bench.FanoutBenchmark;
import io.bourse.bench.GatewayBenchOptions;
import io.bourse.bench.GatewayBenchmark;
import io.bourse.bench.ServiceBenchOptions;
import io.bourse.bench.SuiteOptions;
import io.bourse.bench.ThreadLayout;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.function.Supplier;

/**
 * {@code bourse bench}: benchmark programs; {@code bourse bench} alone (or {@code bench all}) runs the suite
 * ({@link BenchSuite}) into a report directory, {@code bourse bench engine} compares the matching core with
 * exchange-core, {@code bourse bench ramp} runs the engine service at exchange-core's published rates,
 * {@code bourse bench engine-service} measures the engine service with its Aeron input and output in
 * the loop, {@code bourse bench gateway} the OUCH order round trip over TCP through the gateway and the engine beside
 * a bare TCP ping-pong, {@code bourse bench fanout} one market-data stream through the ITCH fanout to many TCP subscribers,
 * {@code bourse bench e2e} OUCH in to ITCH out through the whole exchange, embedded or in docker compose.
 */
@Command(
    name = "bench",
    mixinStandardHelpOptions = true,
    description = {
        "Benchmarks (programs, not tests). Without a subcommand (or with 'all'): the suite, engine " +
            "against exchange-core and the engine ramp (both when the command file is there), gateway (SHARED " +
            "layout), fanout (100 subscribers) and end to end, OUCH in to ITCH out, on the embedded exchange and " +
            "under docker compose (unless --no-compose; needs Docker), with progress on the console and a report " +
            "directory: report.md (machine, JVM, thread " +
            "layouts, tables rate -> achieved, p50/p90/p99/p99.9/p99.99/max), each benchmark's full report, " +
            "every .hgrm and PNG plots (latency percentile distribution, throughput against latency)." },
    subcommands = { BenchCommand.Suite.class, BenchCommand.Engine.class, BenchCommand.EngineServiceBench.class,
        BenchCommand.RampBench.class, BenchCommand.GatewayBench.class,
        BenchCommand.FanoutBench.class, BenchCommand.EndToEndBench.class, CommandLine.HelpCommand.class })
public final class BenchCommand implements Runnable
{
    @CommandLine.Mixin
    SuiteArgs suite;

    @CommandLine.Spec
    private CommandLine.Model.CommandSpec spec;

    @Override
    public void run()
    {
        suite.run(spec);
    }

    /** The options of the suite, on {@code bourse bench} itself and on {@code bourse bench all}. */
    static final class SuiteArgs
    {
        @Option(names = "--report-dir", paramLabel = "DIR",
            description = "Report directory, new or without an earlier report (default: " +
                SuiteOptions.DEFAULT_REPORT_ROOT + "/<date-time>).")
        Path reportDir;

        @Option(names = "--quick",
            description = "Short steps (0.5 s warm-up + 1 s measured), fewer rates and engine iterations.")
        boolean quick;

        @Option(names = "--commands", paramLabel = "FILE", defaultValue = BenchOptions.DEFAULT_COMMANDS,
            description = "exchange-core commands.csv(.gz) for the engine benchmark, left out when absent " +
                "(default: ${DEFAULT-VALUE}, from the repository root).")
        Path commands;

        @Option(names = "--no-compose",
            description = "Measure end to end on the embedded exchange only, not under docker compose as well.")
        boolean noCompose;

        @Option(names = "--compose-file", paramLabel = "FILE", defaultValue = "docker-compose.yml",
            description = "The compose file of the end-to-end run under docker compose (default: ${DEFAULT-VALUE}).")
        Path composeFile;

        /**
         * @param spec the command run, for its command line and its parameter errors.
         * @return the suite's options.
         */
        SuiteOptions options(final CommandLine.Model.CommandSpec spec)
        {
            final CommandLine.Model.CommandSpec root = spec.root();
            final String commandLine = ("bourse".equals(root.name()) ? "" : "bourse ") + root.name() + " " +
                String.join(" ", root.commandLine().getParseResult().originalArgs());
            return parsed(spec, () ->
            {
                final Map<String, ExchangeTarget.Launcher> exchanges = new LinkedHashMap<>();
                exchanges.put("embedded", BenchExchanges.forName("embedded", composeFile));
                if (!noCompose)
                {
                    exchanges.put("compose", BenchExchanges.forName("compose", composeFile));
                }
                return SuiteOptions.of(quick, commands, reportDir, exchanges, commandLine).validate();
            });
        }

        /**
         * Runs the suite, its progress on standard output.
         *
         * @param spec the command run.
         */
        void run(final CommandLine.Model.CommandSpec spec)
        {
            BenchSuite.run(options(spec), System.out);
        }
    }

    /** The length of every rate step of {@code bench gateway} and {@code bench e2e}: warm-up, then measured. */
    static final class StepArgs
    {
        @Option(names = "--warmup", paramLabel = "SECONDS",
            defaultValue = "" + GatewayBenchOptions.DEFAULT_WARMUP_SECONDS,
            description = "Unmeasured seconds at the start of every rate step (default: ${DEFAULT-VALUE}).")
        double warmup;

        @Option(names = "--seconds", paramLabel = "SECONDS",
            defaultValue = "" + GatewayBenchOptions.DEFAULT_MEASURE_SECONDS,
            description = "Measured seconds of every rate step (default: ${DEFAULT-VALUE}).")
        double seconds;
    }

    /** {@code bourse bench all}: the suite, as {@code bourse bench} alone; the suite is {@link BenchSuite}. */
    @Command(
        name = "all",
        aliases = "suite",
        mixinStandardHelpOptions = true,
        description = "The benchmark suite, embedded then under docker compose (unless --no-compose), into a report " +
            "directory, as 'bourse bench' alone.")
    static final class Suite implements Runnable
    {
        @CommandLine.Mixin
        SuiteArgs suite;

        @CommandLine.Spec
        CommandLine.Model.CommandSpec spec;

        @Override
        public void run()
        {
            suite.run(spec);
        }
    }

    /** {@code bourse bench engine}: option parsing only; the benchmark is {@link EngineBenchmark}. */
    @Command(
        name = "engine",
        mixinStandardHelpOptions = true,
        description = {
            "Replay exchange-core's 3M-command benchmark stream, single thread, no network, through Bourse's " +
                "matching core and exchange-core's OrderBookDirectImpl; print throughput, service-time percentiles " +
                "(min/median/max across iterations), allocation and the ratios.",
            "exchange-core's full pipeline is not measured here: its chronicle-core 2.19 dependency cannot start " +
                "on Java 21+ ('bench ramp' runs it on a JDK 17)." })
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
            final BenchOptions options =
                parsed(spec, () -> new BenchOptions(commands, warmup, iterations, jfr).validate());
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
                "throughput (BENCH commands from first send to last event), command-to-first-event latency " +
                "percentiles and the bytes the engine's own thread allocated per BENCH pass, beside the matching " +
                "core alone on the same commands in the same run, and the ratio.",
            "Every pass is checked by content: the service's decoded events and the core alone's must have the " +
                "checksum of a reference run of the core (every field but sequence number and timestamp, in " +
                "order), or the run fails.",
            "MOVE is sent as ReplaceOrder, REDUCE as CancelOrder down to the open size, FOK_BUDGET as IOC without " +
                "its minimum quantity (so the stream stays the one measured so far)." })
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
            description = "Idle strategy of the engine thread and of the publisher through back pressure: backoff, " +
                "busy, yield or sleep (default: ${DEFAULT-VALUE}; busy wants a core per thread). The subscriber " +
                "always polls in a yielding loop, without sleeping, so as not to add to the latency.")
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
            final ServiceBenchOptions options = parsed(spec, () ->
                new ServiceBenchOptions(commands, warmup, iterations, rate, idle, driverThreading).validate());
            EngineServiceBenchmark.run(options, System.out);
            return 0;
        }
    }

    /** {@code bourse bench gateway}: option parsing only; the benchmark is {@link GatewayBenchmark}. */
    @Command(
        name = "gateway",
        mixinStandardHelpOptions = true,
        description = {
            "OUCH 4.2 Enter Order to Accepted round trip over real TCP through an in-process order gateway and " +
                "matching-engine shard(s) on an embedded media driver, beside a bare TCP ping-pong of the same " +
                "sizes (52 bytes out, 69 back) on the same machine in the same run: the floor of that path.",
            "Both paths run open loop at each rate from one client thread, warm-up then measured window, round " +
                "trips from each order's intended send time (coordinated-omission corrected) into an HdrHistogram; " +
                "print p50/p90/p99/p99.9/max per path and rate, the ratio gateway / floor, and the highest rate " +
                "sustained with p99 under 1 ms.",
            "Orders are pairs of day orders that cross (buy, then sell 100 shares at $100.00), so the book stays " +
                "empty but for the orders in flight." })
    static final class GatewayBench implements Callable<Integer>
    {
        @Option(names = "--rates", paramLabel = "LIST", defaultValue = GatewayBenchOptions.DEFAULT_RATES,
            description = "Orders per second over all sessions, one step each, comma-separated; 10k = 10000 " +
                "(default: ${DEFAULT-VALUE}).")
        String rates;

        @Option(names = "--sessions", paramLabel = "N", defaultValue = "" + GatewayBenchOptions.DEFAULT_SESSIONS,
            description = "OUCH sessions, and as many TCP connections for the floor (default: ${DEFAULT-VALUE}).")
        int sessions;

        @Option(names = "--shards", paramLabel = "N", defaultValue = "" + GatewayBenchOptions.DEFAULT_SHARDS,
            description = "Matching-engine shards, one symbol each, 1 to " + GatewayBenchOptions.MAX_SHARDS +
                " (default: ${DEFAULT-VALUE}).")
        int shards;

        @CommandLine.Mixin
        StepArgs steps;

        @Option(names = "--idle", paramLabel = "STRATEGY", defaultValue = GatewayBenchOptions.DEFAULT_IDLE,
            description = "Idle strategy of the gateway, engine and TCP echo threads: backoff, busy, yield or sleep " +
                "(default: ${DEFAULT-VALUE}); while the other path is measured, they sleep 1 ms per idle duty cycle " +
                "instead. The client always yields between empty duty cycles, never sleeps.")
        String idle;

        @Option(names = "--layout", paramLabel = "LAYOUT", defaultValue = GatewayBenchOptions.DEFAULT_LAYOUT_NAME,
            description = "SHARED: the gateway and the engine shards run on one shared thread; DEDICATED: one " +
                "thread each, as in their own containers (default: ${DEFAULT-VALUE}).")
        ThreadLayout layout;

        @Option(names = "--driver-threading", paramLabel = "MODE",
            defaultValue = GatewayBenchOptions.DEFAULT_DRIVER_THREADING_NAME,
            description = "Embedded media driver threading mode: SHARED, SHARED_NETWORK or DEDICATED (default: " +
                "${DEFAULT-VALUE}).")
        ThreadingMode driverThreading;

        @Option(names = "--hgrm-dir", paramLabel = "DIR",
            description = "Also write each path's histogram per rate as floor-RATE.hgrm and gateway-RATE.hgrm " +
                "(percentile distribution in us) into this directory.")
        Path hgrmDir;

        @CommandLine.Spec
        CommandLine.Model.CommandSpec spec;

        @Override
        public Integer call()
        {
            final GatewayBenchOptions options = parsed(spec, () -> new GatewayBenchOptions(
                GatewayBenchOptions.parseRates(rates), sessions, shards, steps.warmup, steps.seconds, idle, layout,
                driverThreading, hgrmDir).validate());
            GatewayBenchmark.run(options, System.out);
            return 0;
        }
    }

    /** {@code bourse bench fanout}: option parsing only; the benchmark is {@link FanoutBenchmark}. */
    @Command(
        name = "fanout",
        mixinStandardHelpOptions = true,
        description = {
            "One SBE market-data stream at a fixed rate (AddOrder, OrderExecuted, OrderDelete cycles over 4 " +
                "symbols) through the real ITCH 5.0 fanout on an embedded media driver to N SoupBinTCP subscribers " +
                "over real TCP; print messages in/s, messages out/s (summed over subscribers) and " +
                "input-to-subscriber latency p50/p90/p99/p99.9/p99.99/max beside the FIX Antenna Java fan-out " +
                "benchmark's figures.",
            "Each message's timestamp is its intended send time (coordinated-omission corrected); with --stall the " +
                "step runs in rounds, with one subscriber not reading and all reading, in the order BAAB after a " +
                "warm-up step, and the change in the others' pooled p50/p99 while the stalled subscriber is still " +
                "connected is printed beside the spread between runs of the same kind." })
    static final class FanoutBench implements Callable<Integer>
    {
        @Option(names = "--rate", paramLabel = "PER_SECOND", defaultValue = "" + FanoutBenchOptions.DEFAULT_RATE,
            description = "Market-data messages per second into the fanout (default: ${DEFAULT-VALUE}).")
        long rate;

        @Option(names = "--subscribers", paramLabel = "N", defaultValue = "" + FanoutBenchOptions.DEFAULT_SUBSCRIBERS,
            description = "Subscriber connections, 1 to " + FanoutBenchOptions.MAX_SUBSCRIBERS +
                " (default: ${DEFAULT-VALUE}).")
        int subscribers;

        @Option(names = "--warmup", paramLabel = "SECONDS",
            defaultValue = "" + FanoutBenchOptions.DEFAULT_WARMUP_SECONDS,
            description = "Unmeasured seconds at the start of the step (default: ${DEFAULT-VALUE}).")
        double warmup;

        @Option(names = "--seconds", paramLabel = "SECONDS",
            defaultValue = "" + FanoutBenchOptions.DEFAULT_MEASURE_SECONDS,
            description = "Measured seconds after the warm-up (default: ${DEFAULT-VALUE}).")
        double seconds;

        @Option(names = "--workers", paramLabel = "N", defaultValue = "" + FanoutBenchOptions.DEFAULT_WORKERS,
            description = "The fanout's worker threads (default: ${DEFAULT-VALUE}).")
        int workers;

        @Option(names = "--readers", paramLabel = "N", defaultValue = "" + FanoutBenchOptions.DEFAULT_READERS,
            description = "Client threads reading the subscribers (default: ${DEFAULT-VALUE}).")
        int readers;

        @Option(names = "--idle", paramLabel = "STRATEGY", defaultValue = FanoutBenchOptions.DEFAULT_IDLE,
            description = "Idle strategy of the fanout's threads: backoff (the fanout's default, parks up to 1 ms " +
                "when idle), busy, yield or sleep (default: ${DEFAULT-VALUE}).")
        String idle;

        @Option(names = "--stall", arity = "0..1", paramLabel = "ROUNDS", defaultValue = "0",
            fallbackValue = "" + FanoutBenchOptions.DEFAULT_STALL_ROUNDS,
            description = "Compare the other subscribers' latency with one subscriber not reading during the " +
                "measured window against all reading, in ROUNDS rounds of one step of each kind, ordered BAAB (1 to " +
                FanoutBenchOptions.MAX_STALL_ROUNDS + ", default with no count: " +
                FanoutBenchOptions.DEFAULT_STALL_ROUNDS + "); print the pooled p50/p99 change and the spread " +
                "between runs of the same kind.")
        int stallRounds;

        @Option(names = "--hgrm-dir", paramLabel = "DIR",
            description = "Also write each step's histogram as fanout-RATE-STEP.hgrm (percentile distribution in " +
                "us) into this directory; with --stall, STEP carries its round, and each kind's pooled histograms " +
                "are written as fanout-RATE-KIND-pooled.hgrm and fanout-RATE-KIND-pooled-stall-period.hgrm.")
        Path hgrmDir;

        @CommandLine.Spec
        CommandLine.Model.CommandSpec spec;

        @Override
        public Integer call()
        {
            final FanoutBenchOptions options = parsed(spec, () -> new FanoutBenchOptions(
                rate, subscribers, warmup, seconds, workers, readers, idle, stallRounds, hgrmDir).validate());
            FanoutBenchmark.run(options, System.out);
            return 0;
        }
    }

    /** {@code bourse bench ramp}: option parsing only; the benchmark is {@link EngineRamp}. */
    @Command(
        name = "ramp",
        mixinStandardHelpOptions = true,
        description = {
            "Run the engine-service benchmark (exchange-core's stream as SBE over an embedded Aeron media driver " +
                "through a real matching-engine service, every step checked by content) at exchange-core's " +
                "published rates in order, on a fixed open-loop schedule (latency from each command's intended " +
                "send time to its first event); stop after the first broken step (achieved < 99%% of the rate, or " +
                "p50 > 1 ms).",
            "Then runs exchange-core's own whole engine (its Disruptor pipeline with risk and matching engines, " +
                "through its API) at the same rates on this host, under the same rule, in a JDK 17 child process " +
                "(its chronicle-core cannot start on Java 21+).",
            "Prints Bourse's table in exchange-core's README format beside exchange-core's, measured here and " +
                "published, and per rate the p50 and p99 ratios." })
    static final class RampBench implements Callable<Integer>
    {
        @Option(names = "--commands", paramLabel = "FILE", defaultValue = BenchOptions.DEFAULT_COMMANDS,
            description = "exchange-core commands.csv(.gz) (default: ${DEFAULT-VALUE}).")
        Path commands;

        @Option(names = "--rates", paramLabel = "LIST", defaultValue = EngineRampOptions.DEFAULT_RATES,
            description = "Commands per second, one step each, in order; 125k = 125000 (default: exchange-core's " +
                "${DEFAULT-VALUE}).")
        String rates;

        @Option(names = "--step-seconds", paramLabel = "SECONDS",
            defaultValue = "" + EngineRampOptions.DEFAULT_STEP_SECONDS,
            description = "Each step sends the first rate x SECONDS BENCH commands, at most all " +
                "(default: ${DEFAULT-VALUE}).")
        double stepSeconds;

        @Option(names = "--warmup-commands", paramLabel = "N",
            defaultValue = "" + EngineRampOptions.DEFAULT_WARMUP_COMMANDS,
            description = "BENCH commands at the highest rate back pressure allows before the first step, " +
                "unmeasured (default: ${DEFAULT-VALUE}).")
        int warmupCommands;

        @Option(names = "--quick", description = "Steps of " + EngineRampOptions.QUICK_STEP_SECONDS +
            " s (overrides --step-seconds).")
        boolean quick;

        @Option(names = "--idle", paramLabel = "STRATEGY", defaultValue = ServiceBenchOptions.DEFAULT_IDLE,
            description = "Idle strategy of the engine thread and of the publisher through back pressure: backoff, " +
                "busy, yield or sleep (default: ${DEFAULT-VALUE}).")
        String idle;

        @Option(names = "--driver-threading", paramLabel = "MODE",
            defaultValue = ServiceBenchOptions.DEFAULT_DRIVER_THREADING_NAME,
            description = "Embedded media driver threading mode (default: ${DEFAULT-VALUE}).")
        ThreadingMode driverThreading;

        @Option(names = "--exchange-core-java", paramLabel = "JAVA",
            defaultValue = EngineRampOptions.DEFAULT_EXCHANGE_CORE_JAVA,
            description = "The java of a JDK 17 to run exchange-core's pipeline with: auto (the first under " +
                "/usr/lib/jvm, else the PATH's), none (no exchange-core baseline) or its path " +
                "(default: ${DEFAULT-VALUE}).")
        String exchangeCoreJava;

        @Option(names = "--exchange-core-wait", paramLabel = "STRATEGY",
            defaultValue = EngineRampOptions.DEFAULT_EXCHANGE_CORE_WAIT,
            description = "exchange-core's wait strategy: BUSY_SPIN (its published latency configuration's), " +
                "YIELDING, BLOCKING or SECOND_STEP_NO_WAIT (default: ${DEFAULT-VALUE}, its best on a 2-core host).")
        String exchangeCoreWait;

        @CommandLine.Spec
        CommandLine.Model.CommandSpec spec;

        @Override
        public Integer call()
        {
            final EngineRampOptions options = parsed(spec, () ->
            {
                final EngineRampOptions given = new EngineRampOptions(commands,
                    GatewayBenchOptions.parseRates(rates), stepSeconds, warmupCommands, idle, driverThreading,
                    exchangeCoreJava, exchangeCoreWait);
                return (quick ? given.quick() : given).validate();
            });
            EngineRamp.run(options, System.out);
            return 0;
        }
    }

    /** {@code bourse bench e2e}: option parsing only; the benchmark is {@link EndToEndBenchmark}. */
    @Command(
        name = "e2e",
        mixinStandardHelpOptions = true,
        description = {
            "OUCH in to ITCH out through the whole exchange (order gateway, engine shards, md-publisher, fanout): " +
                "OUCH sessions send crossing pairs of orders open loop at each rate, one SoupBinTCP subscriber " +
                "reads the fanout's ITCH feed; print per rate the Enter Order -> Accepted round trip and the " +
                "Enter Order -> ITCH Add Order / Order Executed latency at the subscriber, p50/p90/p99/p99.9/" +
                "p99.99/max, coordinated-omission corrected.",
            "--target embedded starts the exchange in this JVM (as './bourse exchange'), compose starts its " +
                "services with 'docker compose up --build --wait' on a new gateway journal volume and removes " +
                "both afterwards, running measures " +
                "one already up on this host's ports. Users: BOURSE_CREDENTIALS or deploy/credentials.csv (OUCH: " +
                "the first, ITCH: the last)." })
    static final class EndToEndBench implements Callable<Integer>
    {
        @Option(names = "--target", paramLabel = "TARGET", defaultValue = "embedded",
            description = "embedded, compose or running (default: ${DEFAULT-VALUE}).")
        String target;

        @Option(names = "--compose-file", paramLabel = "FILE", defaultValue = "docker-compose.yml",
            description = "For --target compose (default: ${DEFAULT-VALUE}).")
        Path composeFile;

        @Option(names = "--rates", paramLabel = "LIST", defaultValue = EndToEndBenchOptions.DEFAULT_RATES,
            description = "Orders per second over all sessions, one step each, comma-separated; 10k = 10000 " +
                "(default: ${DEFAULT-VALUE}).")
        String rates;

        @Option(names = "--sessions", paramLabel = "N", defaultValue = "" + EndToEndBenchOptions.DEFAULT_SESSIONS,
            description = "OUCH sessions (default: ${DEFAULT-VALUE}).")
        int sessions;

        @CommandLine.Mixin
        StepArgs steps;

        @Option(names = "--hgrm-dir", paramLabel = "DIR",
            description = "Also write each rate's histograms as e2e-TARGET-RATE.hgrm and e2e-roundtrip-TARGET-RATE" +
                ".hgrm into this directory.")
        Path hgrmDir;

        @CommandLine.Spec
        CommandLine.Model.CommandSpec spec;

        @Override
        public Integer call()
        {
            final EndToEndBenchOptions options = parsed(spec, () -> new EndToEndBenchOptions(
                GatewayBenchOptions.parseRates(rates), sessions, steps.warmup, steps.seconds, hgrmDir).validate());
            final ExchangeTarget.Launcher launcher = parsed(spec, () -> BenchExchanges.forName(target, composeFile));
            try (ExchangeTarget.Running exchange = launcher.launch(System.out))
            {
                EndToEndBenchmark.measure(options, exchange.target(), System.out);
            }
            return 0;
        }
    }

    /**
     * Builds a subcommand's options, turning the {@link IllegalArgumentException} of a malformed or out-of-range value
     * into picocli's parameter error, so that the user gets the message with the usage and exit status 2.
     *
     * @param spec    the command run.
     * @param options builds and validates the options.
     * @param <T>     the options' type.
     * @return the options.
     * @throws CommandLine.ParameterException when building or validating them fails.
     */
    private static <T> T parsed(final CommandLine.Model.CommandSpec spec, final Supplier<T> options)
    {
        try
        {
            return options.get();
        }
        catch (final IllegalArgumentException ex)
        {
            throw new CommandLine.ParameterException(spec.commandLine(), ex.getMessage(), ex);
        }
    }
}
