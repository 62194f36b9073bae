package io.bourse.bench;

import io.bourse.common.aeron.ThreadAffinity;
import io.bourse.common.config.Settings;
import org.HdrHistogram.Histogram;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;

/**
 * {@code bourse bench}: the benchmark suite, one after the other: the matching core against exchange-core
 * ({@link EngineBenchmark}, when the command file is there), the OUCH round trip through the gateway beside the TCP
 * floor ({@link GatewayBenchmark}), the ITCH fanout to many subscribers at a few rates ({@link FanoutBenchmark}), all
 * three in this JVM, and the whole pipeline, OUCH in to ITCH out, on each exchange of the options (embedded in this
 * JVM, then under docker compose; {@link EndToEndBenchmark}). Each benchmark's own report goes to a text file of the
 * report directory, and every line of it to the console behind a {@code [k/n] name} prefix as it comes (the
 * progress); the histograms go to {@code .hgrm} files. Then {@code report.md} gathers the machine, the JVM, the
 * command line, the thread affinity, each benchmark's thread layout and a table rate, achieved rate,
 * p50/p90/p99/p99.9/p99.99/max in us with each benchmark's baseline and ratios, and links two plots per benchmark
 * ({@link LatencyPlots}). A benchmark that fails is reported as not measured, with its reason in report.md and its
 * stack trace in its text file, and the suite goes on; it ends with an {@link IllegalStateException} naming them once
 * report.md is written.
 */
public final class BenchSuite
{
    /** File name of the summary in the report directory. */
    public static final String REPORT = "report.md";
    private static final double[] PERCENTILES = { 50, 90, 99, 99.9, 99.99, 100 };
    private static final String[] PERCENTILE_LABELS = { "p50", "p90", "p99", "p99.9", "p99.99", "max" };
    private static final String ENGINE = "engine";
    private static final String GATEWAY = "gateway";
    private static final String FANOUT = "fanout";
    private static final String END_TO_END = "e2e";
    private static final String RAMP = "ramp";
    /** What the tables' missing column counts, which their percentiles leave out. */
    private static final String MISSING_NOTE = "Missing: orders still not sent 1 s after the step's schedule ended, " +
        "or not settled " + OpenLoopClient.DRAIN_SECONDS + " s after it (no answer; for the gateway also accepted " +
        "but never executed); those without an answer are not in the percentiles, so with any missing the " +
        "percentiles may understate the tail (each would count at least that long). Errors: answers other than the " +
        "one awaited (an order Rejected, an unknown or malformed message); a rejected order's round trip is in no " +
        "percentile either.";

    private final SuiteOptions options;
    private final PrintStream console;
    private final StringBuilder markdown = new StringBuilder();
    private final Map<String, String> notMeasured = new LinkedHashMap<>();
    private final int benchmarks;
    private int index;

    private BenchSuite(final SuiteOptions options, final PrintStream console)
    {
        this.options = options;
        this.console = console;
        this.benchmarks = 2 + (null == options.engine() ? 0 : 1) + (null == options.ramp() ? 0 : 1) +
            options.exchanges().size();
    }

    /**
     * Runs the suite and writes its report directory.
     *
     * @param options validated here first.
     * @param console where the progress goes.
     * @return the report, {@code report.md} in the report directory.
     * @throws IllegalArgumentException naming a bad option, or a report directory that holds an earlier report.
     * @throws UncheckedIOException     when the report directory or report.md cannot be written.
     * @throws IllegalStateException    naming the benchmarks that failed, after report.md is written.
     */
    public static Path run(final SuiteOptions options, final PrintStream console)
    {
        options.validate();
        try
        {
            Files.createDirectories(options.reportDir());
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot create " + options.reportDir() + ": " + ex.getMessage(), ex);
        }
        return new BenchSuite(options, console).run();
    }

    private Path run()
    {
        final long startNs = System.nanoTime();
        markdown.append("# Bourse benchmark suite\n\n");
        markdown.append("Command line: `").append(options.commandLine()).append("`\n\n");
        markdown.append("```\n").append(MachineInfo.describe()).append("```\n\n");
        markdown.append("Engine, gateway and fanout run their services in this one JVM on an embedded media driver; " +
            "end to end runs on each exchange in turn: ").append(String.join(", ", options.exchanges().keySet()))
            .append(". Thread affinity: ").append(affinity()).append(".\n\n");
        if (null == options.engine())
        {
            markdown.append("Engine benchmark left out: no exchange-core command file (`--commands`).\n\n");
        }
        else
        {
            measure(ENGINE, this::engine);
        }
        if (null != options.ramp())
        {
            measure(RAMP, this::ramp);
        }
        measure(GATEWAY, this::gateway);
        measure(FANOUT, this::fanout);
        endToEnd();
        final double seconds = (System.nanoTime() - startNs) / 1e9;
        markdown.append(String.format(Locale.ROOT, "Total run time %.1f s.%n", seconds));
        final Path report = options.reportDir().resolve(REPORT);
        try
        {
            Files.writeString(report, markdown, StandardCharsets.UTF_8);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot write " + report + ": " + ex.getMessage(), ex);
        }
        console.printf(Locale.ROOT, "suite done in %.1f s: %s%n", seconds, report);
        if (!notMeasured.isEmpty())
        {
            final StringBuilder failed = new StringBuilder();
            notMeasured.forEach((name, reason) ->
                failed.append(failed.isEmpty() ? "" : "; ").append(name).append(" (").append(reason).append(')'));
            throw new IllegalStateException("not measured: " + failed + "; the rest is in " + report);
        }
        return report;
    }

    /**
     * Runs one part of the suite; when it fails, replaces what it wrote to report.md with its reason and goes on.
     */
    private void measure(final String name, final Runnable part)
    {
        final int start = markdown.length();
        try
        {
            part.run();
        }
        catch (final RuntimeException ex)
        {
            markdown.setLength(start);
            section(name + ": not measured", notMeasured(name, ex));
        }
    }

    /** Appends the stack trace to the part's text file; @return where it is, for report.md. */
    private String stackTrace(final String fileName, final RuntimeException ex)
    {
        try (PrintStream out = new PrintStream(Files.newOutputStream(options.reportDir().resolve(fileName),
            StandardOpenOption.CREATE, StandardOpenOption.APPEND), true, StandardCharsets.UTF_8))
        {
            ex.printStackTrace(out);
            return " (the stack trace is in [" + fileName + "](" + fileName + "))";
        }
        catch (final IOException ioEx)
        {
            return " (its stack trace could not be written: " + ioEx.getMessage() + ")";
        }
    }

    /**
     * Records a part that failed, tells the console and writes its stack trace to the part's text file.
     *
     * @return its reason and where its stack trace is, for report.md.
     */
    private String notMeasured(final String name, final RuntimeException ex)
    {
        final String reason = reason(ex);
        notMeasured.put(name, reason);
        console.println("[" + index + "/" + benchmarks + "] " + name + " not measured: " + reason);
        return reason + stackTrace(name + ".txt", ex);
    }

    private static String reason(final Throwable ex)
    {
        return null == ex.getMessage() ? ex.toString() : ex.getMessage();
    }

    private void engine()
    {
        final List<EngineStats> stats = benchmark(ENGINE, (out) -> EngineBenchmark.measure(options.engine(), out));
        final List<SuiteMeasurement> rows = new ArrayList<>();
        for (final EngineStats engine : stats)
        {
            rows.add(new SuiteMeasurement(engine.name(), 0,
                engine.throughput(EngineStats.Summary.MEDIAN) * 1e6, engine.mergedHistogram()));
            writeHistogram(ENGINE + "-" + engine.name().replaceAll("[^A-Za-z0-9]+", "-") + ".hgrm",
                engine.mergedHistogram());
        }
        section("Engine: matching core against exchange-core",
            String.format(Locale.ROOT, "Threads: 1, the benchmark's own; each engine in turn, no network, no " +
                "Aeron. %s: %d warm-up + %d measured iterations over the BENCH commands. Achieved = median " +
                "throughput, commands/s; latency = service time per command over every measured iteration.",
                options.engine().commands(), options.engine().warmup(), options.engine().iterations()));
        header("engine", "rate/s", "achieved/s");
        for (final SuiteMeasurement row : rows)
        {
            row(row, "unthrottled", row.achievedPerSecond());
        }
        for (int i = 1; i < rows.size(); i++)
        {
            ratioRow("ratio " + rows.get(0).path() + " / " + rows.get(i).path(), rows.get(0), rows.get(i));
        }
        plots(ENGINE, "commands/s", rows);
    }

    private void ramp()
    {
        final EngineRamp.Ramp ramp = benchmark(RAMP, (out) -> EngineRamp.measure(options.ramp(), out));
        section("Engine ramp: the engine service and exchange-core at exchange-core's published rates",
            String.format(Locale.ROOT, "Threads: 1 publisher sending exchange-core's BENCH commands as SBE over " +
            "aeron:ipc on a fixed schedule, the engine service's agent, 1 subscriber, media driver %s, idle %s; each " +
            "step %.1f s of commands on a fresh service after a %,d-command warm-up, latency from each command's " +
            "intended send time to its first event. exchange-core here: %s. exchange-core's published figures are " +
            "its README's (Xeon X5690, in-process, no network or IPC).", options.ramp().driverThreading(),
            options.ramp().idle(), options.ramp().stepSeconds(), options.ramp().warmupCommands(),
            ramp.exchangeCoreSetup()));
        markdown.append(EngineRamp.report(ramp)).append('\n');
        final List<SuiteMeasurement> rows = new ArrayList<>();
        for (final EngineRamp.Step step : ramp.steps())
        {
            rows.add(new SuiteMeasurement("engine service", step.targetRate(), step.achievedRate(), step.histogram()));
            writeHistogram(RAMP + "-" + step.targetRate() + ".hgrm", step.histogram());
        }
        for (final EngineRamp.Step step : ramp.exchangeCoreSteps())
        {
            rows.add(new SuiteMeasurement("exchange-core", step.targetRate(), step.achievedRate(), step.histogram()));
            writeHistogram(RAMP + "-exchange-core-" + step.targetRate() + ".hgrm", step.histogram());
        }
        plots(RAMP, "commands/s", rows);
    }

    private void gateway()
    {
        final GatewayBenchOptions gateway = options.gateway();
        final List<GatewayBenchmark.RatePair> pairs =
            benchmark(GATEWAY, (out) -> GatewayBenchmark.measure(gateway, out));
        section("Gateway: OUCH 4.2 Enter Order to Accepted over TCP, beside the TCP floor", String.format(Locale.ROOT,
            "Threads: 1 client, 1 TCP echo server, %s (%d engine shard%s), idle %s, media driver %s. %d connections " +
            "per path, open loop, %.1f s warm-up + %.1f s measured per rate; round trip from each order's intended " +
            "send time (coordinated-omission corrected). " + MISSING_NOTE, ThreadLayout.SHARED == gateway.layout() ?
                "1 shared thread for the gateway and the engine" : "1 gateway thread and 1 thread per engine shard",
            gateway.shards(), 1 == gateway.shards() ? "" : "s", gateway.idle(), gateway.driverThreading(),
            gateway.sessions(), gateway.warmupSeconds(), gateway.measureSeconds()));
        final List<SuiteMeasurement> rows = new ArrayList<>();
        header("path", "rate/s", "achieved/s", "missing", "errors");
        for (final GatewayBenchmark.RatePair pair : pairs)
        {
            final SuiteMeasurement floor = measurement(pair.floor());
            final SuiteMeasurement through = measurement(pair.gateway());
            rows.add(floor);
            rows.add(through);
            row(floor, String.format(Locale.ROOT, "%,d", floor.rate()), floor.achievedPerSecond(),
                missing(pair.floor()), errors(pair.floor()));
            row(through, String.format(Locale.ROOT, "%,d", through.rate()), through.achievedPerSecond(),
                missing(pair.gateway()), errors(pair.gateway()));
            ratioRow("ratio gateway / floor", through, floor, "", "");
        }
        plots(GATEWAY, "orders/s", rows);
    }

    /** @return the requests of the step not sent on time or not answered by the end of its drain. */
    private static String missing(final RateStep step)
    {
        return String.format(Locale.ROOT, "%,d", step.notSent() + step.unsettled());
    }

    /** @return the answers of the step other than the one awaited: orders rejected, unknown or malformed messages. */
    private static String errors(final RateStep step)
    {
        return String.format(Locale.ROOT, "%,d", step.errors());
    }

    private static SuiteMeasurement measurement(final RateStep step)
    {
        return new SuiteMeasurement(step.path(), step.rate(), step.achievedRate(), step.histogram());
    }

    private void fanout()
    {
        final FanoutBenchOptions fanout = options.fanout();
        final List<FanoutBenchmark.Run> runs = benchmark(FANOUT, (out) ->
        {
            final List<FanoutBenchmark.Run> all = new ArrayList<>();
            for (final long rate : options.fanoutRates())
            {
                all.add(FanoutBenchmark.measure(options.fanoutAt(rate), out));
            }
            return all;
        });
        section("Fanout: one market-data stream to many ITCH subscribers, beside its floor and FIX Antenna",
            String.format(Locale.ROOT, "Threads: 1 publisher, the fanout's %d worker%s + 1 dispatcher/acceptor, idle " +
            "%s, %d client reader%s, media driver SHARED. %d subscribers, %.1f s warm-up + %.1f s measured per rate; " +
            "latency from each message's intended send time to its receipt by a subscriber. Achieved = messages " +
            "out/s summed over the subscribers; out/ref = that over FIX Antenna's 19,840 msg/s out. The floor, " +
            "measured first at each rate: %d thread%s following the schedule and writing every message due to " +
            "each subscriber's socket in one write (no Aeron, dispatcher or session buffers).", fanout.workers(),
            1 == fanout.workers() ? "" : "s", fanout.idle(), fanout.readers(), 1 == fanout.readers() ? "" : "s",
            fanout.subscribers(), fanout.warmupSeconds(), fanout.measureSeconds(), fanout.workers(),
            1 == fanout.workers() ? "" : "s"));
        final List<SuiteMeasurement> rows = new ArrayList<>();
        header("path", "rate/s", "out/s", "in/s", "out/ref");
        for (final FanoutBenchmark.Run run : runs)
        {
            final SuiteMeasurement floor = fanoutRow("floor", run.floor());
            final SuiteMeasurement through = fanoutRow("fanout", run.ofKind(false).get(0));
            rows.add(floor);
            rows.add(through);
            ratioRow("ratio fanout / floor", through, floor, "", "");
        }
        markdown.append(String.format(Locale.ROOT, "| FIX Antenna fan-out (seeds) | | %,.0f | %,.0f | 1.00x |",
            FanoutBenchmark.REFERENCE_OUT_RATE, FanoutBenchmark.REFERENCE_IN_RATE));
        for (final double reference : FanoutBenchmark.REFERENCE_US)
        {
            markdown.append(String.format(Locale.ROOT, " %,.1f |", reference));
        }
        markdown.append('\n');
        for (final SuiteMeasurement row : rows)
        {
            if (row.path().equals("fanout"))
            {
                markdown.append("| ratio ").append(row.label()).append(" / FIX Antenna | | | | |");
                for (int i = 0; i < PERCENTILES.length; i++)
                {
                    markdown.append(' ').append(BenchReport.ratio(row.percentileNs(PERCENTILES[i]) / 1000.0,
                        FanoutBenchmark.REFERENCE_US[i])).append(" |");
                }
                markdown.append('\n');
            }
        }
        plots(FANOUT, "messages out/s", rows);
    }

    /** Adds the table row of one fanout step, labelled for its path. */
    private SuiteMeasurement fanoutRow(final String label, final FanoutBenchmark.Step step)
    {
        final SuiteMeasurement row = new SuiteMeasurement(label, step.rate(), step.outRate(), step.histogram());
        row(row, String.format(Locale.ROOT, "%,d", step.rate()), step.outRate(),
            String.format(Locale.ROOT, "%,.0f", step.inRate()),
            BenchReport.ratio(step.outRate(), FanoutBenchmark.REFERENCE_OUT_RATE));
        return row;
    }

    private void endToEnd()
    {
        final EndToEndBenchOptions endToEnd = options.endToEnd();
        final Map<String, List<EndToEndBenchmark.Step>> results = new LinkedHashMap<>();
        final Map<String, String> layouts = new LinkedHashMap<>();
        final Map<String, String> failures = new LinkedHashMap<>();
        for (final Map.Entry<String, ExchangeTarget.Launcher> exchange : options.exchanges().entrySet())
        {
            final String name = END_TO_END + "-" + exchange.getKey();
            try
            {
                results.put(exchange.getKey(), benchmark(name, (out) ->
                {
                    try (ExchangeTarget.Running running = exchange.getValue().launch(out))
                    {
                        layouts.put(exchange.getKey(), running.target().layout());
                        return EndToEndBenchmark.measure(endToEnd, running.target(), out);
                    }
                }));
            }
            catch (final RuntimeException ex)
            {
                failures.put(exchange.getKey(), notMeasured(name, ex));
            }
        }
        final StringBuilder layout = new StringBuilder(String.format(Locale.ROOT, "Threads: 1 client for %d OUCH " +
            "sessions and 1 ITCH subscriber. Orders: crossing pairs, open loop, %.1f s warm-up + %.1f s measured " +
            "per rate; round trip = Enter Order -> OUCH Accepted, end to end = Enter Order -> the ITCH Add Order or " +
            "Order Executed that shows it at the subscriber, both from each order's intended send time. " +
            MISSING_NOTE,
            endToEnd.sessions(), endToEnd.warmupSeconds(), endToEnd.measureSeconds()));
        layouts.forEach((name, text) -> layout.append("\n\n- ").append(name).append(": ").append(text));
        failures.forEach((name, text) -> layout.append("\n\n- ").append(name).append(": not measured: ").append(text));
        section("End to end: OUCH in to ITCH out through the whole exchange", layout.toString());
        final List<SuiteMeasurement> rows = new ArrayList<>();
        header("exchange, path", "rate/s", "achieved/s", "missing", "errors");
        for (final long rate : endToEnd.rates())
        {
            SuiteMeasurement baseline = null;
            for (final Map.Entry<String, List<EndToEndBenchmark.Step>> result : results.entrySet())
            {
                for (final EndToEndBenchmark.Step step : result.getValue())
                {
                    if (step.roundTrip().rate() != rate)
                    {
                        continue;
                    }
                    final SuiteMeasurement roundTrip = measurement(result.getKey(), step.roundTrip());
                    final SuiteMeasurement measured = measurement(result.getKey(), step.endToEnd());
                    row(roundTrip, String.format(Locale.ROOT, "%,d", rate), roundTrip.achievedPerSecond(),
                        missing(step.roundTrip()), errors(step.roundTrip()));
                    row(measured, String.format(Locale.ROOT, "%,d", rate), measured.achievedPerSecond(),
                        missing(step.endToEnd()), errors(step.endToEnd()));
                    rows.add(measured);
                    if (null == baseline)
                    {
                        baseline = measured;
                    }
                    else
                    {
                        ratioRow("ratio " + measured.path() + " / " + baseline.path(), measured, baseline, "", "");
                    }
                }
            }
        }
        if (!rows.isEmpty())
        {
            plots(END_TO_END, "orders/s", rows,
                results.keySet().stream().map((exchange) -> END_TO_END + "-" + exchange).toList());
        }
    }

    private static SuiteMeasurement measurement(final String exchange, final RateStep step)
    {
        return new SuiteMeasurement(exchange + " " + step.path(), step.rate(), step.achievedRate(), step.histogram());
    }

    /** @return the thread affinity configured for the services ({@value ThreadAffinity#THREAD_AFFINITY_PROP_NAME}). */
    static String affinity()
    {
        final ThreadAffinity affinity = InProcessExchange.threadAffinity();
        return affinity.isEmpty() ? "none (" + Settings.environmentName(ThreadAffinity.THREAD_AFFINITY_PROP_NAME) +
            " unset: every thread may run on every CPU of its process or container)" :
            Settings.environmentName(ThreadAffinity.THREAD_AFFINITY_PROP_NAME) + "=" + affinity;
    }

    /** Runs one benchmark with its report into {@code name.txt} and, line by line, to the console. */
    private <T> T benchmark(final String name, final Function<PrintStream, T> benchmark)
    {
        index++;
        final String prefix = "[" + index + "/" + benchmarks + "] " + name + " ";
        final Path file = options.reportDir().resolve(name + ".txt");
        try (OutputStream log = Files.newOutputStream(file);
            PrintStream out = new PrintStream(new ProgressLines(log, console, prefix), true, StandardCharsets.UTF_8))
        {
            return benchmark.apply(out);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot write " + file + ": " + ex.getMessage(), ex);
        }
    }

    private void writeHistogram(final String name, final Histogram histogram)
    {
        final Path file = options.reportDir().resolve(name);
        try
        {
            BenchReport.writeHgrm(file, histogram);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot write " + file + ": " + ex.getMessage(), ex);
        }
    }

    private void section(final String title, final String layout)
    {
        markdown.append("## ").append(title).append("\n\n").append(layout).append("\n\n");
    }

    private void header(final String... columns)
    {
        final StringBuilder line = new StringBuilder("|");
        final StringBuilder rule = new StringBuilder("|");
        for (final String column : columns)
        {
            line.append(' ').append(column).append(" |");
            rule.append(" --- |");
        }
        for (final String label : PERCENTILE_LABELS)
        {
            line.append(' ').append(label).append(", us |");
            rule.append(" ---: |");
        }
        markdown.append(line).append('\n').append(rule).append('\n');
    }

    private void row(final SuiteMeasurement row, final String rate, final double achieved, final String... more)
    {
        markdown.append("| ").append(row.path()).append(" | ").append(rate)
            .append(String.format(Locale.ROOT, " | %,.0f |", achieved));
        for (final String extra : more)
        {
            markdown.append(' ').append(extra).append(" |");
        }
        for (final double percentile : PERCENTILES)
        {
            markdown.append(' ').append(micros(row.percentileNs(percentile))).append(" |");
        }
        markdown.append('\n');
    }

    /** @return microseconds, to the nanosecond under 1 us (the engine's service times), else to 0.1 us. */
    static String micros(final long ns)
    {
        return String.format(Locale.ROOT, ns < 1_000 ? "%.3f" : "%,.1f", ns / 1000.0);
    }

    private void ratioRow(
        final String name, final SuiteMeasurement over, final SuiteMeasurement under, final String... more)
    {
        markdown.append("| ").append(name).append(" | | ")
            .append(BenchReport.ratio(over.achievedPerSecond(), under.achievedPerSecond())).append(" |");
        for (final String extra : more)
        {
            markdown.append(' ').append(extra).append(" |");
        }
        for (final double percentile : PERCENTILES)
        {
            markdown.append(' ')
                .append(BenchReport.ratio(over.percentileNs(percentile), under.percentileNs(percentile))).append(" |");
        }
        markdown.append('\n');
    }

    private void plots(final String name, final String rateUnit, final List<SuiteMeasurement> rows)
    {
        plots(name, rateUnit, rows, List.of(name));
    }

    private void plots(
        final String name, final String rateUnit, final List<SuiteMeasurement> rows, final List<String> reports)
    {
        final String distribution = name + "-latency.png";
        final String throughput = name + "-throughput.png";
        LatencyPlots.percentileDistribution(options.reportDir().resolve(distribution),
            name + ": latency percentile distribution", rows);
        LatencyPlots.throughputLatency(options.reportDir().resolve(throughput),
            name + ": throughput against latency", rateUnit, rows);
        markdown.append("\nFull report:");
        reports.forEach((report) ->
            markdown.append(" [").append(report).append(".txt](").append(report).append(".txt)"));
        markdown.append("\n\n").append("![").append(name).append(" latency](").append(distribution).append(")\n")
            .append("![").append(name).append(" throughput](").append(throughput).append(")\n\n");
    }

    /**
     * Passes a benchmark's output through to its log file whole and to the console one line at a time behind a
     * prefix, so that the console shows each step as it ends.
     */
    private static final class ProgressLines extends OutputStream
    {
        private final OutputStream log;
        private final PrintStream console;
        private final String prefix;
        private final ByteArrayOutputStream line = new ByteArrayOutputStream();

        ProgressLines(final OutputStream log, final PrintStream console, final String prefix)
        {
            this.log = log;
            this.console = console;
            this.prefix = prefix;
        }

        @Override
        public void write(final int b) throws IOException
        {
            log.write(b);
            if ('\n' == b)
            {
                flushLine();
            }
            else
            {
                line.write(b);
            }
        }

        @Override
        public void flush() throws IOException
        {
            log.flush();
        }

        @Override
        public void close() throws IOException
        {
            if (line.size() > 0)
            {
                flushLine();
            }
            log.flush();
        }

        private void flushLine()
        {
            final String text = line.toString(StandardCharsets.UTF_8);
            line.reset();
            if (!text.isBlank())
            {
                console.println(prefix + text);
            }
        }
    }
}
