package io.bourse.bench;

import io.aeron.driver.ThreadingMode;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Options of {@code bourse bench} (the whole suite): where the report goes, and the options of each benchmark in it.
 *
 * @param reportDir   the report directory: report.md, the benchmarks' own reports, every .hgrm and the PNG plots.
 * @param engine      the engine benchmark's options, or null to leave it out (no command file).
 * @param ramp        the engine ramp's options, or null to leave it out (no command file).
 * @param gateway     the gateway benchmark's options; their histogram directory is {@code reportDir}.
 * @param fanoutRates the fanout's input rates, messages/s, one step each.
 * @param fanout      the fanout benchmark's options but for the rate; their histogram directory is {@code reportDir}.
 * @param endToEnd    the end-to-end benchmark's options; their histogram directory is {@code reportDir}.
 * @param exchanges   the exchanges the end-to-end benchmark measures, by run mode ({@code embedded}, {@code compose}),
 *                    in order; the first is the baseline of the others.
 * @param commandLine the command line, as the report states it.
 */
public record SuiteOptions(
    Path reportDir,
    BenchOptions engine,
    EngineRampOptions ramp,
    GatewayBenchOptions gateway,
    List<Long> fanoutRates,
    FanoutBenchOptions fanout,
    EndToEndBenchOptions endToEnd,
    Map<String, ExchangeTarget.Launcher> exchanges,
    String commandLine)
{
    /** Default parent of the report directories, relative to the repository root. */
    public static final String DEFAULT_REPORT_ROOT = "bench-report";
    /** Fanout input rates, messages/s, to 100 subscribers: 0.5, 1 and 2 million messages/s out. */
    static final List<Long> FANOUT_RATES = List.of(5_000L, 10_000L, 20_000L);
    /** Gateway rates of the quick mode, orders/s. */
    static final List<Long> QUICK_GATEWAY_RATES = List.of(10_000L, 50_000L, 100_000L);
    /** End-to-end rates of the quick mode, orders/s. */
    static final List<Long> QUICK_END_TO_END_RATES = List.of(1_000L, 10_000L);
    /** Fanout rates of the quick mode, messages/s. */
    static final List<Long> QUICK_FANOUT_RATES = List.of(5_000L, 10_000L);
    /** Warm-up seconds of a quick step. */
    static final double QUICK_WARMUP_SECONDS = 0.5;
    /** Measured seconds of a quick step. */
    static final double QUICK_MEASURE_SECONDS = 1;
    /** Warm-up iterations of the quick engine benchmark. */
    static final int QUICK_ENGINE_WARMUP = 2;
    /** Measured iterations of the quick engine benchmark. */
    static final int QUICK_ENGINE_ITERATIONS = 5;

    /**
     * The suite as {@code bourse bench} runs it: the engine against exchange-core (when the command file is there),
     * the gateway at its default rates on the SHARED layout, the fanout at a few rates to 100 subscribers.
     *
     * @param quick       short steps and fewer rates and iterations, under a minute on a 2-core host.
     * @param commands    exchange-core's commands.csv(.gz); the engine benchmark is left out when it is not a file.
     * @param reportDir   the report directory, or null for {@code bench-report/<local date-time>}.
     * @param exchanges   the exchanges to measure end to end, by run mode, the baseline first.
     * @param commandLine the command line, as the report states it.
     * @return the options.
     */
    public static SuiteOptions of(
        final boolean quick, final Path commands, final Path reportDir,
        final Map<String, ExchangeTarget.Launcher> exchanges, final String commandLine)
    {
        final Path dir = null != reportDir ? reportDir : Path.of(DEFAULT_REPORT_ROOT,
            LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")));
        final BenchOptions engine = null == commands || !Files.isRegularFile(commands) ? null : new BenchOptions(
            commands, quick ? QUICK_ENGINE_WARMUP : BenchOptions.DEFAULT_WARMUP,
            quick ? QUICK_ENGINE_ITERATIONS : BenchOptions.DEFAULT_ITERATIONS, null);
        final EngineRampOptions ramp = null == engine ? null : new EngineRampOptions(commands,
            GatewayBenchOptions.parseRates(EngineRampOptions.DEFAULT_RATES), EngineRampOptions.DEFAULT_STEP_SECONDS,
            EngineRampOptions.DEFAULT_WARMUP_COMMANDS, ServiceBenchOptions.DEFAULT_IDLE,
            ServiceBenchOptions.DEFAULT_DRIVER_THREADING, EngineRampOptions.DEFAULT_EXCHANGE_CORE_JAVA,
            EngineRampOptions.DEFAULT_EXCHANGE_CORE_WAIT);
        final double warmup = quick ? QUICK_WARMUP_SECONDS : GatewayBenchOptions.DEFAULT_WARMUP_SECONDS;
        final double seconds = quick ? QUICK_MEASURE_SECONDS : GatewayBenchOptions.DEFAULT_MEASURE_SECONDS;
        final GatewayBenchOptions gateway = new GatewayBenchOptions(
            quick ? QUICK_GATEWAY_RATES : GatewayBenchOptions.parseRates(GatewayBenchOptions.DEFAULT_RATES),
            GatewayBenchOptions.DEFAULT_SESSIONS, GatewayBenchOptions.DEFAULT_SHARDS, warmup, seconds,
            GatewayBenchOptions.DEFAULT_IDLE, ThreadLayout.SHARED, ThreadingMode.SHARED, dir);
        final FanoutBenchOptions fanout = new FanoutBenchOptions(
            FanoutBenchOptions.DEFAULT_RATE, FanoutBenchOptions.DEFAULT_SUBSCRIBERS, warmup, seconds,
            FanoutBenchOptions.DEFAULT_WORKERS, FanoutBenchOptions.DEFAULT_READERS, FanoutBenchOptions.DEFAULT_IDLE,
            0, dir);
        final EndToEndBenchOptions endToEnd = new EndToEndBenchOptions(
            quick ? QUICK_END_TO_END_RATES : GatewayBenchOptions.parseRates(EndToEndBenchOptions.DEFAULT_RATES),
            EndToEndBenchOptions.DEFAULT_SESSIONS, warmup, seconds, dir);
        return new SuiteOptions(dir, engine, null == ramp || !quick ? ramp : ramp.quick(), gateway, quick ? QUICK_FANOUT_RATES : FANOUT_RATES, fanout, endToEnd,
            exchanges, commandLine);
    }

    /**
     * Checks every benchmark's options before any work starts.
     *
     * @return this.
     * @throws IllegalArgumentException naming the bad option.
     */
    public SuiteOptions validate()
    {
        if (null == reportDir || (Files.exists(reportDir) && !Files.isDirectory(reportDir)))
        {
            throw new IllegalArgumentException("--report-dir is not a directory: " + reportDir);
        }
        if (holdsAReport(reportDir))
        {
            throw new IllegalArgumentException("--report-dir holds an earlier report (" + BenchSuite.REPORT +
                " or .hgrm files), which this run would mix with its own: name a new or empty directory: " +
                reportDir);
        }
        if (null != engine)
        {
            engine.validate();
        }
        if (null != ramp)
        {
            ramp.validate();
        }
        gateway.validate();
        if (null == fanoutRates || fanoutRates.isEmpty())
        {
            throw new IllegalArgumentException("no fanout rate");
        }
        fanoutRates.forEach((rate) -> fanoutAt(rate).validate());
        endToEnd.validate();
        if (null == exchanges)
        {
            throw new IllegalArgumentException("no exchange map for the end-to-end benchmark");
        }
        return this;
    }

    private static boolean holdsAReport(final Path dir)
    {
        if (!Files.isDirectory(dir))
        {
            return false;
        }
        try (Stream<Path> files = Files.list(dir))
        {
            return files.map((file) -> file.getFileName().toString())
                .anyMatch((name) -> name.equals(BenchSuite.REPORT) || name.endsWith(".hgrm"));
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot list " + dir + ": " + ex.getMessage(), ex);
        }
    }

    /**
     * @param rate input messages/s.
     * @return the fanout benchmark's options at that rate.
     */
    FanoutBenchOptions fanoutAt(final long rate)
    {
        return new FanoutBenchOptions(rate, fanout.subscribers(), fanout.warmupSeconds(), fanout.measureSeconds(),
            fanout.workers(), fanout.readers(), fanout.idle(), fanout.stallRounds(), fanout.hgrmDir());
    }
}
