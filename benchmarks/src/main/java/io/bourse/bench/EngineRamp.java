package io.bourse.bench;

import io.bourse.exchangecore.RampRule;
import io.bourse.workload.ExchangeCoreCommands;
import org.HdrHistogram.Histogram;

import java.io.PrintStream;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.DoubleToLongFunction;

/**
 * {@code bourse bench ramp}: exchange-core's latency ramp, run on Bourse. exchange-core's README publishes one table,
 * rate (125K to 6M commands/s) against command latency percentiles, for its matching and risk engine fed on a fixed
 * schedule with its 3M-command single-symbol stream ({@link #EXCHANGE_CORE}); this runs
 * {@code bench engine-service}'s pass ({@link EngineServiceBenchmark.Harness}: the same stream as engine-protocol SBE
 * commands over an embedded Aeron media driver through a real matching-engine service, every pass checked by content)
 * at those rates in order, then exchange-core's own whole engine at the same rates on this host
 * ({@link ExchangeCoreBaseline}, a JDK 17 child process), and prints the tables in exchange-core's format (Bourse's,
 * exchange-core's measured here, exchange-core's published), with the ratios.
 *
 * <p>Each step launches a fresh engine service, sends the SETUP commands, collects garbage (as exchange-core does
 * before each rate), then sends the first {@code rate * stepSeconds} BENCH commands (all 3M when that is more; see
 * {@link EngineRampOptions#stepCommands}) on a fixed open-loop schedule: latency is from each command's intended send
 * time to its first event at the subscriber, so a late send counts (no coordinated omission), as in exchange-core's
 * table. The two do not measure the same span: exchange-core's is its engine pipeline alone, in process; Bourse's
 * includes SBE encoding, the Aeron IPC command stream, the engine service, the event stream and decoding.
 *
 * <p>A step is broken ({@link Step#breakReason()}, {@link RampRule}) when it achieves less than
 * {@value RampRule#SUSTAINED_FRACTION} of its target rate (BENCH commands over the time from the first intended send
 * to the last event) or its median latency is above {@link RampRule#P50_LIMIT_NS} ns (1 ms: the engine is no longer
 * keeping up and commands queue); the ramp stops after the first broken step, which it reports.
 */
public final class EngineRamp
{
    /** The table's percentile columns, 100 = worst, in exchange-core's order. */
    static final double[] PERCENTILES = { 50, 90, 95, 99, 99.9, 99.99, 100 };
    /** exchange-core's table header and separator, verbatim. */
    static final String TABLE_HEADER =
        "|rate|50.0%|90.0%|95.0%|99.0%|99.9%|99.99%|worst|\n|----|-----|-----|-----|-----|-----|------|-----|\n";
    private static final String TABLE_ROW = "|%4s|%-5s|%-5s|%-5s|%-5s|%-5s|%-6s|%-5s|%n";

    /** Where {@link #EXCHANGE_CORE} comes from. */
    static final String EXCHANGE_CORE_SOURCE = "exchange-core README (github.com/mzheravin/exchange-core, the " +
        "version in Bourse's seeds: table under \"Capable to process 5M order book operations per second on 7-years " +
        "old hardware\"; later versions publish other figures): Intel Xeon X5690, single order book, 3M commands " +
        "per rate, matching + risk engine in process (no IPC, no network, no journalling)";

    /**
     * exchange-core's published table, latencies in ns, columns as {@link #PERCENTILES}; source:
     * {@link #EXCHANGE_CORE_SOURCE}.
     */
    static final List<Published> EXCHANGE_CORE = List.of(
        new Published(125_000, 1_200, 1_600, 1_800, 8_000, 95_000, 300_000, 1_000_000),
        new Published(250_000, 1_200, 1_600, 1_800, 12_000, 90_000, 250_000, 500_000),
        new Published(500_000, 1_200, 1_600, 1_900, 17_000, 130_000, 250_000, 500_000),
        new Published(1_000_000, 1_000, 1_400, 2_500, 20_000, 145_000, 300_000, 400_000),
        new Published(2_000_000, 800, 4_500, 8_700, 30_000, 130_000, 250_000, 330_000),
        new Published(3_000_000, 700, 4_000, 7_000, 28_000, 140_000, 500_000, 400_000),
        new Published(4_000_000, 800, 6_000, 9_000, 30_000, 60_000, 160_000, 200_000),
        new Published(5_000_000, 2_800, 20_000, 30_000, 70_000, 300_000, 350_000, 380_000),
        new Published(6_000_000, 5_700, 34_000, 260_000, 600_000, 680_000, 710_000, 740_000));

    /**
     * One row of exchange-core's published table.
     *
     * @param rate        commands per second.
     * @param latenciesNs latency at each of {@link #PERCENTILES}, ns, as published (its 3M row's worst is below its
     *                    99.99%).
     */
    record Published(long rate, long... latenciesNs)
    {
    }

    /**
     * One step of the ramp.
     *
     * @param targetRate   commands per second offered.
     * @param commands     BENCH commands sent.
     * @param achievedRate BENCH commands per second, over the time from the first intended send to the last event.
     * @param histogram    command-to-first-event latency of every BENCH command, ns, from its intended send time.
     */
    public record Step(long targetRate, int commands, double achievedRate, Histogram histogram)
    {
        /**
         * @param percentile 0 to 100; 100 is the worst.
         * @return the latency at it, ns.
         */
        public long latencyNs(final double percentile)
        {
            return BenchReport.percentile(histogram, percentile);
        }

        /**
         * @return why the step is broken ({@link RampRule#breakReason}): it achieved less than
         * {@value RampRule#SUSTAINED_FRACTION} of its target rate, or its median latency is above
         * {@link RampRule#P50_LIMIT_NS}; null when it is not.
         */
        public String breakReason()
        {
            return RampRule.breakReason(targetRate, achievedRate, latencyNs(50));
        }
    }

    /**
     * A ramp on Bourse and its baseline on this host.
     *
     * @param steps             Bourse's steps, the last one broken when the ramp stopped early.
     * @param exchangeCoreSteps exchange-core's pipeline at the same rates, the last one broken when it stopped early;
     *                          empty when it was not measured.
     * @param exchangeCoreSetup how exchange-core ran, or why it did not.
     */
    public record Ramp(List<Step> steps, List<Step> exchangeCoreSteps, String exchangeCoreSetup)
    {
    }

    private EngineRamp()
    {
    }

    /**
     * Runs the ramp and prints its report: the set-up, a line per step as it ends, then the tables of
     * {@link #report(Ramp)}.
     *
     * @param options validated here first.
     * @param out     where the report goes.
     * @throws IllegalArgumentException naming a bad option.
     * @throws IllegalStateException    when the service's events differ from the reference core's, it stalls, or
     *                                  exchange-core's baseline fails.
     */
    public static void run(final EngineRampOptions options, final PrintStream out)
    {
        final Ramp ramp = measure(options, out);
        out.println();
        out.print(report(ramp));
    }

    /**
     * Runs the ramp: Bourse's steps at the options' rates in order, stopping after the first broken one, then
     * exchange-core's pipeline at the same rates in a JDK 17 child process ({@link ExchangeCoreBaseline}), under the
     * same rule, when a JDK 17 is there. Prints the set-up (machine, stream, thread layout, break rule) and a line per
     * step as it ends, not the tables.
     *
     * @param options validated here first.
     * @param out     where the lines go.
     * @return the steps run.
     * @throws IllegalArgumentException naming a bad option, before any step (an --exchange-core-java that is not a
     *                                  JDK 17 included).
     * @throws IllegalStateException    when the service's events differ from the reference core's, it stalls, or
     *                                  exchange-core's baseline fails.
     */
    public static Ramp measure(final EngineRampOptions options, final PrintStream out)
    {
        options.validate();
        final Optional<Path> java = ExchangeCoreBaseline.java(options.exchangeCoreJava());
        final long startNs = System.nanoTime();
        out.print(MachineInfo.describe());
        final ExchangeCoreCommands commands = EngineServiceBenchmark.load(options.commands(), out);
        final SbeCommandStream stream = EngineServiceBenchmark.translate(commands, out);
        final int benchCommands = stream.count() - stream.benchStart();
        final ServiceBenchOptions service = options.service();
        out.printf(Locale.ROOT, "service: %s%n", EngineServiceBenchmark.layout(service));
        out.println("  " + EngineServiceBenchmark.FIXED_RATE_SCHEDULE + "; to the first event at the subscriber");
        out.printf(Locale.ROOT, "ramp: %,d rates, each on a fresh service after SETUP and a GC: the first rate x " +
            "%.1f s BENCH commands (at most %,d); warm-up %,d BENCH commands at max rate first; a step is broken when it " +
            "achieves under %.0f%% of its rate or its p50 is over %s µs, and the ramp stops after it%n",
            options.rates().size(), options.stepSeconds(), benchCommands,
            Math.min(options.warmupCommands(), benchCommands), RampRule.SUSTAINED_FRACTION * 100,
            BenchReport.micros(RampRule.P50_LIMIT_NS));

        final List<Step> steps = new ArrayList<>();
        try (EngineServiceBenchmark.Harness harness = new EngineServiceBenchmark.Harness(stream, service))
        {
            if (options.warmupCommands() > 0)
            {
                final int warmup = Math.min(options.warmupCommands(), benchCommands);
                final EngineServiceBenchmark.ServicePass pass = harness.pass(
                    stream.benchStart() + warmup, 0, EngineServiceBenchmark.newHistogram());
                out.printf(Locale.ROOT, "warm-up: %,d commands at max rate, %,.0f commands/s, checksums match%n",
                    warmup, pass.commands() * 1e9 / pass.elapsedNs());
            }
            for (final long rate : options.rates())
            {
                final Histogram histogram = EngineServiceBenchmark.newHistogram();
                final int stepCommands = options.stepCommands(rate, benchCommands);
                final EngineServiceBenchmark.ServicePass pass =
                    harness.pass(stream.benchStart() + stepCommands, rate, histogram);
                final Step step = new Step(rate, pass.commands(), pass.commands() * 1e9 / pass.elapsedNs(), histogram);
                steps.add(step);
                out.println(stepLine(step, ", checksums match"));
                if (null != step.breakReason())
                {
                    break;
                }
            }
        }
        final List<Step> exchangeCoreSteps = new ArrayList<>();
        final String exchangeCoreSetup;
        if (java.isPresent())
        {
            exchangeCoreSetup = String.format(Locale.ROOT, "exchange-core 0.5.3's whole engine (ExchangeCore: " +
                "grouping, risk and matching engines on its Disruptor ring, its latency configuration, wait strategy " +
                "%s), in process on %s, fed through its API on the same schedule, latency from each command's " +
                "intended send time to its result; same stream, steps, warm-up and break rule",
                options.exchangeCoreWait(), java.get());
            out.println("exchange-core: " + exchangeCoreSetup);
            for (final Step step : ExchangeCoreBaseline.ramp(java.get(), options, out))
            {
                exchangeCoreSteps.add(step);
                out.println("exchange-core " + stepLine(step, ""));
            }
        }
        else
        {
            exchangeCoreSetup = ExchangeCoreBaseline.NONE.equals(options.exchangeCoreJava()) ?
                "not measured (--exchange-core-java none)" :
                "not measured: no JDK 17 found (exchange-core's pipeline cannot start on Java 21+); name one with " +
                "--exchange-core-java";
            out.println("exchange-core: " + exchangeCoreSetup);
        }
        out.printf(Locale.ROOT, "ramp took %.1f s%n", (System.nanoTime() - startNs) / 1e9);
        return new Ramp(steps, exchangeCoreSteps, exchangeCoreSetup);
    }

    /**
     * @param ramp a ramp's outcome.
     * @return Bourse's table in exchange-core's format, exchange-core's measured here and published tables in the
     * same format, and per rate Bourse's achieved rate and p50 and p99 over exchange-core's, measured and published.
     */
    public static String report(final Ramp ramp)
    {
        final StringBuilder sb = new StringBuilder();
        sb.append("Bourse, engine service over Aeron IPC, this host (command to first event at the subscriber):\n\n");
        appendTable(sb, ramp.steps());
        if (!ramp.exchangeCoreSteps().isEmpty())
        {
            sb.append("\nexchange-core, measured on this host in the same run (").append(ramp.exchangeCoreSetup())
                .append("):\n\n");
            appendTable(sb, ramp.exchangeCoreSteps());
        }
        else
        {
            sb.append("\nexchange-core on this host: ").append(ramp.exchangeCoreSetup()).append('\n');
        }
        sb.append("\nexchange-core, published (").append(EXCHANGE_CORE_SOURCE).append("):\n\n");
        sb.append(table(EXCHANGE_CORE.stream()
            .map((published) -> row(published.rate(), (percentile) -> publishedNs(published, percentile))).toList()));
        // A fenced block: Markdown would run the space-aligned lines together into one paragraph.
        sb.append("\n```\n");
        sb.append(String.format(Locale.ROOT, "%6s %14s %10s %14s %14s %12s %12s%n",
            "rate", "achieved/s", "commands", "p50 B/ec here", "p99 B/ec here", "p50 B/ec pub", "p99 B/ec pub"));
        for (final Step step : ramp.steps())
        {
            final Step measured = step(ramp.exchangeCoreSteps(), step.targetRate());
            final String absent = ramp.exchangeCoreSteps().isEmpty() ? "n/a" : "ec broke";
            final Published published = published(step.targetRate());
            sb.append(String.format(Locale.ROOT, "%6s %,14.0f %,10d %14s %14s %12s %12s%n", rate(step.targetRate()),
                step.achievedRate(), step.commands(),
                null == measured ? absent : BenchReport.ratio(step.latencyNs(50), measured.latencyNs(50)),
                null == measured ? absent : BenchReport.ratio(step.latencyNs(99), measured.latencyNs(99)),
                null == published ? "n/a" : BenchReport.ratio(step.latencyNs(50), publishedNs(published, 50)),
                null == published ? "n/a" : BenchReport.ratio(step.latencyNs(99), publishedNs(published, 99))));
        }
        sb.append("  (B/ec = Bourse over exchange-core at the same rate; under 1 Bourse is faster. \"here\": " +
            "measured in this run on this host, \"ec broke\": exchange-core's ramp had stopped at a lower rate; " +
            "\"pub\": exchange-core's published figure, another host. Bourse's span includes the Aeron IPC hops, " +
            "exchange-core's is in process)\n```\n");
        return sb.toString();
    }

    private static void appendTable(final StringBuilder sb, final List<Step> steps)
    {
        sb.append(table(steps.stream().map((step) -> row(step.targetRate(), step::latencyNs)).toList()));
        final Step last = steps.isEmpty() ? null : steps.getLast();
        if (null != last && null != last.breakReason())
        {
            // After a blank line: a line right under a Markdown table is one more row of it.
            sb.append(String.format(Locale.ROOT, "%n(stopped: %s broken, %s)%n", rate(last.targetRate()),
                last.breakReason()));
        }
    }

    private static Step step(final List<Step> steps, final long rate)
    {
        for (final Step step : steps)
        {
            if (step.targetRate() == rate)
            {
                return step;
            }
        }
        return null;
    }

    /**
     * @param rows each a rate label and the seven cells.
     * @return exchange-core's table: its header and separator, then a row per entry.
     */
    static String table(final List<String[]> rows)
    {
        final StringBuilder sb = new StringBuilder(TABLE_HEADER);
        for (final String[] row : rows)
        {
            sb.append(String.format(Locale.ROOT, TABLE_ROW, (Object[])row));
        }
        return sb.toString();
    }

    /**
     * @param rate commands per second.
     * @return as exchange-core labels it: {@code 125K}, {@code 1M}, {@code 1.5M}; below 1,000 the number.
     */
    static String rate(final long rate)
    {
        if (rate >= 1_000_000)
        {
            return BigDecimal.valueOf(rate, 6).stripTrailingZeros().toPlainString() + "M";
        }
        if (rate >= 1_000)
        {
            return BigDecimal.valueOf(rate, 3).stripTrailingZeros().toPlainString() + "K";
        }
        return Long.toString(rate);
    }

    /**
     * @param ns a latency.
     * @return as exchange-core writes it: under 10 µs to 0.1 µs ({@code 1.2µs}), under 1 ms whole µs ({@code 95µs}),
     * under 10 ms to 0.1 ms ({@code 2.5ms}), else whole ms ({@code 340ms}).
     */
    static String latency(final long ns)
    {
        final double us = ns / 1e3;
        if (us < 9.95)
        {
            return String.format(Locale.ROOT, "%.1fµs", us);
        }
        if (us < 999.5)
        {
            return String.format(Locale.ROOT, "%.0fµs", us);
        }
        final double ms = us / 1e3;
        return String.format(Locale.ROOT, ms < 9.95 ? "%.1fms" : "%,.0fms", ms);
    }

    private static String stepLine(final Step step, final String check)
    {
        final String reason = step.breakReason();
        return String.format(Locale.ROOT, "rate %4s: %,d commands, achieved %,.0f/s, p50 %s p99 %s p99.99 %s worst " +
            "%s%s%s", rate(step.targetRate()), step.commands(), step.achievedRate(),
            latency(step.latencyNs(50)), latency(step.latencyNs(99)), latency(step.latencyNs(99.99)),
            latency(step.latencyNs(100)), check, null == reason ? "" : "; BROKEN: " + reason);
    }

    private static String[] row(final long rate, final DoubleToLongFunction latencyNs)
    {
        final String[] row = new String[PERCENTILES.length + 1];
        row[0] = rate(rate);
        for (int i = 0; i < PERCENTILES.length; i++)
        {
            row[i + 1] = latency(latencyNs.applyAsLong(PERCENTILES[i]));
        }
        return row;
    }

    private static Published published(final long rate)
    {
        for (final Published published : EXCHANGE_CORE)
        {
            if (published.rate() == rate)
            {
                return published;
            }
        }
        return null;
    }

    private static long publishedNs(final Published published, final double percentile)
    {
        for (int i = 0; i < PERCENTILES.length; i++)
        {
            if (PERCENTILES[i] == percentile)
            {
                return published.latenciesNs()[i];
            }
        }
        throw new IllegalArgumentException("exchange-core publishes no " + percentile + " percentile");
    }
}
