package io.bourse.bench;

import io.bourse.common.config.Symbols;
import io.bourse.common.time.MidnightNanoClock;
import io.bourse.simulator.OrderTokens;
import org.agrona.CloseHelper;
import org.agrona.concurrent.YieldingIdleStrategy;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * {@code bourse bench e2e}: the whole pipeline under load, OUCH in to ITCH out. N OUCH 4.2 sessions send Enter Orders
 * open loop at each rate to a running exchange ({@link ExchangeTarget}: embedded in this JVM or in docker compose),
 * and one SoupBinTCP subscriber reads the fanout's ITCH 5.0 feed, all from one client thread
 * ({@link OpenLoopClient}). Per order two latencies, both from the Enter Order's intended send time
 * (coordinated-omission corrected), HdrHistogram, 3 significant digits: the round trip to its OUCH Accepted, and end
 * to end, to the read that brought the ITCH message showing it ({@link EndToEndLatency}: order gateway, Aeron, engine
 * shard, Aeron, md-publisher, Aeron, fanout, TCP). The orders are {@link OuchOrderConnection}'s crossing pairs over
 * one symbol per shard, so every order is Accepted then Executed and the book holds only the orders in flight.
 */
public final class EndToEndBenchmark
{
    /** Report name of the OUCH round trip. */
    static final String ROUND_TRIP = "OUCH round trip";
    /** Report name of the end-to-end latency. */
    static final String END_TO_END = "end to end";

    private static final long LOGIN_TIMEOUT_MS = 10_000;
    private static final double[] PERCENTILES = { 50, 90, 99, 99.9, 99.99, 100 };
    private static final String[] PERCENTILE_LABELS = { "p50", "p90", "p99", "p99.9", "p99.99", "max" };
    private static final String COLUMN = "%12s";

    /**
     * One rate step.
     *
     * @param roundTrip Enter Order to OUCH Accepted.
     * @param endToEnd  Enter Order to the ITCH message at the subscriber.
     */
    public record Step(RateStep roundTrip, RateStep endToEnd)
    {
    }

    private EndToEndBenchmark()
    {
    }

    /**
     * Runs every rate step against the target and prints the report.
     *
     * @param options validated here first.
     * @param target  the running exchange.
     * @param out     where the report goes, a line per step as it ends.
     * @return the steps run; a run stops early when a step leaves orders unsettled.
     * @throws IllegalArgumentException naming a bad option, or when the target has fewer users than sessions.
     * @throws UncheckedIOException     when a login or a connection fails.
     */
    public static List<Step> measure(final EndToEndBenchOptions options, final ExchangeTarget target,
        final PrintStream out)
    {
        options.validate();
        if (target.orderEntryUsers().size() < options.sessions())
        {
            throw new IllegalArgumentException("--sessions " + options.sessions() + ": the " + target.name() +
                " exchange has " + target.orderEntryUsers().size() + " OUCH users");
        }
        final long startNs = System.nanoTime();
        out.print(MachineInfo.describe());
        describe(options, target, out);
        final List<Step> steps = new ArrayList<>();
        final EndToEndLatency latency = new EndToEndLatency();
        final List<OuchOrderConnection> sessions = new ArrayList<>();
        ItchSubscriber subscriber = null;
        try
        {
            subscriber = ItchSubscriber.login(
                target.fanoutPort(), target.marketDataUser(), new MidnightNanoClock(), 0, latency);
            latency.subscriber(subscriber);
            awaitStart(subscriber);
            // Tokens a gateway of the day has not seen: one it has is a resend, which it ignores.
            final int runId = OrderTokens.runIdAt(System.currentTimeMillis());
            final long[] packedSymbols = target.symbols().stream().mapToLong(Symbols::pack).toArray();
            for (int i = 0; i < options.sessions(); i++)
            {
                sessions.add(OuchOrderConnection.login(i, runId, target.gatewayPort(), target.orderEntryUsers().get(i),
                    packedSymbols, latency.session(), LOGIN_TIMEOUT_MS));
            }
            final OpenLoopClient client = new OpenLoopClient(ROUND_TRIP, sessions, List.of(), List.of(), latency);
            for (final long rate : options.rates())
            {
                final RateStep roundTrip = client.run(rate, options.warmupNs(), options.measureNs());
                final Step step = new Step(roundTrip, endToEnd(roundTrip, latency, options.measureNs()));
                steps.add(step);
                out.println(stepLine(target, step));
                writeHistograms(options.hgrmDir(), target, step);
                if (roundTrip.unsettled() > 0 || step.endToEnd().unsettled() > 0)
                {
                    out.println("stopping: orders still unsettled " + OpenLoopClient.DRAIN_SECONDS + " s after the " +
                        "step; their late answers would fall into the next step");
                    break;
                }
            }
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(target.name() + ": " + ex.getMessage(), ex);
        }
        finally
        {
            CloseHelper.quietCloseAll(sessions);
            CloseHelper.quietClose(subscriber);
        }
        out.println();
        out.print(report(target, steps));
        out.printf(Locale.ROOT, "total run time %.1f s%n", (System.nanoTime() - startNs) / 1e9);
        return steps;
    }

    /** Reads the subscriber until the fanout has accepted its login and sent the session's System Event. */
    private static void awaitStart(final ItchSubscriber subscriber) throws IOException
    {
        final YieldingIdleStrategy idle = new YieldingIdleStrategy();
        final long deadlineNs = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(LOGIN_TIMEOUT_MS);
        while (!subscriber.isStarted(0))
        {
            if (subscriber.receive() < 0)
            {
                throw new IOException("ITCH subscriber: closed by the fanout before its login was accepted");
            }
            if (System.nanoTime() - deadlineNs > 0)
            {
                throw new IOException("ITCH subscriber: no Login Accepted within " + LOGIN_TIMEOUT_MS + " ms");
            }
            idle.idle();
        }
    }

    private static RateStep endToEnd(final RateStep roundTrip, final EndToEndLatency latency, final long measureNs)
    {
        final RoundTripRecorder recorder = latency.recorder();
        final long windowNs = Math.max(recorder.lastAnswerNs() - latency.measureStartNs(), measureNs);
        return new RateStep(END_TO_END, roundTrip.rate(), roundTrip.measuredSent(), roundTrip.notSent(),
            latency.unsettled(), roundTrip.errors(), recorder.histogram().getTotalCount() * 1e9 / windowNs,
            roundTrip.requestsPerWrite(), recorder.histogram(), List.of());
    }

    private static void describe(final EndToEndBenchOptions options, final ExchangeTarget target, final PrintStream out)
    {
        out.printf(Locale.ROOT, "exchange: %s, %s%n", target.name(), target.layout());
        out.printf(Locale.ROOT, "load: %d OUCH sessions (%s) and 1 ITCH subscriber (%s) on one client thread " +
            "(yields between empty duty cycles, never sleeps), open loop at %s orders/s in total, each rate %.1f s " +
            "warm-up + %.1f s measured%n", options.sessions(), String.join(", ", target.orderEntryUsers()
                .subList(0, options.sessions()).stream().map((user) -> user.username()).toList()),
            target.marketDataUser().username(),
            String.join(", ", options.rates().stream().map((rate) -> String.format(Locale.ROOT, "%,d", rate))
                .toList()), options.warmupSeconds(), options.measureSeconds());
        out.printf(Locale.ROOT, "orders: pairs of day orders, buy then sell 100 shares at $100.00 of one symbol per " +
            "pair, symbols %s round robin (one per engine shard): each pair trades, the book stays empty but for " +
            "the orders in flight%n", String.join(", ", target.symbols()));
        out.println("round trip: intended send time -> the read that brought the OUCH Accepted; end to end: " +
            "intended send time -> the read that brought the ITCH Add Order (the order that rested) or Order " +
            "Executed (the order that took it) at the subscriber; both coordinated-omission corrected, " +
            "HdrHistogram, 3 significant digits");
    }

    private static String stepLine(final ExchangeTarget target, final Step step)
    {
        final StringBuilder sb = new StringBuilder(String.format(Locale.ROOT, "%s rate %,d/s:",
            target.name(), step.roundTrip().rate()));
        for (final RateStep path : List.of(step.roundTrip(), step.endToEnd()))
        {
            sb.append(String.format(Locale.ROOT, " %s %,.0f/s p50 %s p99 %s max %s us;", path.path(),
                path.achievedRate(), BenchReport.micros(BenchReport.percentile(path.histogram(), 50)),
                BenchReport.micros(BenchReport.percentile(path.histogram(), 99)),
                BenchReport.micros(BenchReport.percentile(path.histogram(), 100))));
        }
        if (step.roundTrip().notSent() > 0)
        {
            sb.append(String.format(Locale.ROOT, " %,d not sent;", step.roundTrip().notSent()));
        }
        if (step.roundTrip().unsettled() + step.endToEnd().unsettled() > 0)
        {
            sb.append(String.format(Locale.ROOT, " %,d unsettled;",
                step.roundTrip().unsettled() + step.endToEnd().unsettled()));
        }
        if (step.roundTrip().errors() > 0)
        {
            sb.append(String.format(Locale.ROOT, " %,d errors;", step.roundTrip().errors()));
        }
        sb.setLength(sb.length() - 1);
        return sb.toString();
    }

    /**
     * @param target the exchange measured.
     * @param steps  every step run.
     * @return the table: per rate, both latencies with their achieved rates and percentiles in us.
     */
    static String report(final ExchangeTarget target, final List<Step> steps)
    {
        final StringBuilder sb = new StringBuilder();
        sb.append(String.format(Locale.ROOT, "%-28s%12s%12s", target.name() + ", us", "rate/s", "achieved/s"));
        for (final String label : PERCENTILE_LABELS)
        {
            sb.append(String.format(Locale.ROOT, COLUMN, label));
        }
        sb.append('\n');
        for (final Step step : steps)
        {
            for (final RateStep path : List.of(step.roundTrip(), step.endToEnd()))
            {
                sb.append(String.format(Locale.ROOT, "  %-26s%,12d%,12.0f", path.path(), path.rate(),
                    path.achievedRate()));
                for (final double percentile : PERCENTILES)
                {
                    sb.append(String.format(Locale.ROOT, COLUMN,
                        BenchReport.micros(BenchReport.percentile(path.histogram(), percentile))));
                }
                sb.append('\n');
            }
        }
        return sb.toString();
    }

    private static void writeHistograms(final Path dir, final ExchangeTarget target, final Step step)
    {
        if (null == dir)
        {
            return;
        }
        try
        {
            Files.createDirectories(dir);
            final String suffix = "-" + target.name() + "-" + step.roundTrip().rate() + ".hgrm";
            BenchReport.writeHgrm(dir.resolve("e2e-roundtrip" + suffix), step.roundTrip().histogram());
            BenchReport.writeHgrm(dir.resolve("e2e" + suffix), step.endToEnd().histogram());
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("--hgrm-dir " + dir + ": " + ex.getMessage(), ex);
        }
    }
}
