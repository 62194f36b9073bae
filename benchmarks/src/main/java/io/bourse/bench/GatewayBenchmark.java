package io.bourse.bench;

import io.bourse.common.aeron.AgentLaunch;
import io.bourse.common.config.Credentials;
import io.bourse.common.config.SymbolDirectory;
import io.bourse.gateway.GatewayContext;
import org.agrona.CloseHelper;
import org.agrona.concurrent.AgentRunner;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;

/**
 * {@code bourse bench gateway}: the OUCH 4.2 Enter Order to Accepted round trip over real TCP through the order gateway
 * and a matching-engine shard ({@link InProcessExchange}), beside the physical floor of that path measured in the same
 * run on the same machine: a bare TCP ping-pong ({@link PingPongServer}) of the same sizes, 52 bytes out and 69 back.
 *
 * <p>Both paths are driven alike: N connections from one client thread ({@link OpenLoopClient}), open loop at each
 * rate of the list (total over the connections), warm-up then measured window, round trips from each request's
 * intended send time to the read that brought its answer (coordinated-omission corrected) into an HdrHistogram
 * ({@link RoundTripRecorder}). At each rate the floor runs first, then the gateway. The gateway and the engine shards
 * share one thread or have one each ({@link ThreadLayout}); the servers' threads share one idle strategy; the client
 * yields between empty duty cycles and never sleeps.
 * The report gives per rate and path the achieved rate and p50/p90/p99/p99.9/max, the ratio gateway / floor per
 * percentile, and the highest rate each path sustained with p99 under 1 ms.
 */
public final class GatewayBenchmark
{
    /** The latency bound of "sustained": p99 under 1 ms. */
    public static final long P99_LIMIT_NS = TimeUnit.MILLISECONDS.toNanos(1);
    /** Report name of the floor path. */
    static final String FLOOR = "TCP floor";
    /** Report name of the gateway path. */
    static final String GATEWAY = "gateway";

    /** The gateway agent's role name, its thread's name. */
    private static final String GATEWAY_THREAD = "order-gateway";
    /** The engine agents' role names begin so ("matching-engine-k"), which is all Linux keeps of them. */
    private static final String ENGINE_THREAD = "matching-engine";
    private static final long LOGIN_TIMEOUT_MS = 10_000;
    private static final double[] PERCENTILES = { 50, 90, 99, 99.9, 99.99, 100 };
    private static final String[] PERCENTILE_LABELS = { "p50", "p90", "p99", "p99.9", "p99.99", "max" };
    private static final String COLUMN = "%13s";

    /**
     * Both paths at one rate.
     *
     * @param floor   the bare TCP ping-pong.
     * @param gateway through the gateway and the engine.
     */
    record RatePair(RateStep floor, RateStep gateway)
    {
    }

    private GatewayBenchmark()
    {
    }

    /**
     * Runs the whole benchmark and prints its report.
     *
     * @param options validated here first.
     * @param out     where the report goes.
     * @throws IllegalArgumentException naming a bad option.
     * @throws UncheckedIOException     when a connection fails or a histogram cannot be written.
     */
    public static void run(final GatewayBenchOptions options, final PrintStream out)
    {
        measure(options, out);
    }

    /**
     * Runs the benchmark and prints its report.
     *
     * @param options validated here first.
     * @param out     where the report goes.
     * @return both paths at every rate run; a run stops early when a step leaves requests unsettled.
     */
    static List<RatePair> measure(final GatewayBenchOptions options, final PrintStream out)
    {
        options.validate();
        final long startNs = System.nanoTime();
        out.print(MachineInfo.describe());
        describe(options, out);
        final List<RatePair> results = new ArrayList<>();
        final AtomicLong echoErrors = new AtomicLong();
        final AtomicBoolean echoStandby = new AtomicBoolean();
        final AtomicBoolean exchangeStandby = new AtomicBoolean();
        try (InProcessExchange exchange = InProcessExchange.launch(options, exchangeStandby))
        {
            final List<RoundTripConnection> opened = new ArrayList<>();
            AgentRunner echoRunner = null;
            try
            {
                final PingPongServer echo = new PingPongServer(echoErrors);
                echoRunner = AgentLaunch.start(
                    echo, new StandbyIdleStrategy(options.newIdleStrategy(), echoStandby), echoErrors);
                final List<RoundTripConnection> floor = new ArrayList<>();
                final List<RoundTripConnection> sessions = new ArrayList<>();
                final long[] packedSymbols =
                    exchange.symbols().entries().stream().mapToLong(SymbolDirectory.Entry::packed).toArray();
                for (int i = 0; i < options.sessions(); i++)
                {
                    floor.add(new PingPongConnection(i, echo.port()));
                    opened.add(floor.get(i));
                    final Credentials.User user = exchange.users().get(i);
                    sessions.add(OuchOrderConnection.login(i, 0, exchange.port(), user, packedSymbols,
                        OuchOrderConnection.OrderEvents.NONE, LOGIN_TIMEOUT_MS));
                    opened.add(sessions.get(i));
                }
                out.println();
                runSteps(options,
                    new OpenLoopClient(FLOOR, floor, sessions,
                        List.of(ThreadActivity.find(echo.roleName(), "TCP echo thread")), OpenLoopClient.Feed.NONE),
                    new OpenLoopClient(GATEWAY, sessions, floor, exchangeThreads(options), OpenLoopClient.Feed.NONE),
                    echoStandby, exchangeStandby, results, out);
            }
            catch (final IOException ex)
            {
                throw new UncheckedIOException(ex.getMessage(), ex);
            }
            finally
            {
                CloseHelper.quietCloseAll(opened);
                CloseHelper.quietClose(echoRunner);
            }
        }
        out.println();
        out.print(report(results));
        if (echoErrors.get() > 0)
        {
            out.printf(Locale.ROOT, "TCP echo server errors: %,d%n", echoErrors.get());
        }
        out.printf(Locale.ROOT, "total run time %.1f s%n", (System.nanoTime() - startNs) / 1e9);
        return results;
    }

    /**
     * Runs the floor then the gateway at each rate, the server threads of the path not measured on standby.
     */
    private static void runSteps(
        final GatewayBenchOptions options, final OpenLoopClient floor, final OpenLoopClient gateway,
        final AtomicBoolean echoStandby, final AtomicBoolean exchangeStandby, final List<RatePair> results,
        final PrintStream out)
    {
        for (final long rate : options.rates())
        {
            echoStandby.set(false);
            exchangeStandby.set(true);
            final RateStep floorStep = floor.run(rate, options.warmupNs(), options.measureNs());
            echoStandby.set(true);
            exchangeStandby.set(false);
            final RatePair pair = new RatePair(floorStep, gateway.run(rate, options.warmupNs(), options.measureNs()));
            results.add(pair);
            out.println(stepLine(pair));
            writeHistograms(options.hgrmDir(), pair);
            if (pair.floor().unsettled() > 0 || pair.gateway().unsettled() > 0)
            {
                out.println("stopping: requests still unsettled " + OpenLoopClient.DRAIN_SECONDS + " s after the " +
                    "step; their late answers would fall into the next step");
                return;
            }
        }
    }

    private static List<ThreadActivity> exchangeThreads(final GatewayBenchOptions options)
    {
        return ThreadLayout.SHARED == options.layout() ?
            List.of(ThreadActivity.find(InProcessExchange.SHARED_THREAD, "exchange thread (gateway+engine)")) :
            List.of(ThreadActivity.find(GATEWAY_THREAD, "gateway thread"),
                ThreadActivity.find(ENGINE_THREAD, "engine shards"));
    }

    private static void describe(final GatewayBenchOptions options, final PrintStream out)
    {
        final String shards = options.shards() + " engine shard" + (1 == options.shards() ? "" : "s");
        out.printf(Locale.ROOT, "threads: 1 client (every connection of the path under test, yields between empty " +
            "duty cycles, never sleeps), 1 TCP echo server, %s, idle %s (while the other path is measured, 1 ms " +
            "sleeps), media driver %s%n",
            ThreadLayout.SHARED == options.layout() ?
                "1 shared exchange thread running the order gateway and " + shards :
                "1 order gateway thread and 1 thread for each of " + shards,
            options.idle(), options.driverThreading());
        out.printf(Locale.ROOT, "load: %d connections per path, open loop at %s orders/s in total, each rate %.1f s " +
            "warm-up + %.1f s measured, TCP floor then gateway%n", options.sessions(),
            String.join(", ", options.rates().stream().map((rate) -> String.format(Locale.ROOT, "%,d", rate))
                .toList()), options.warmupSeconds(), options.measureSeconds());
        out.println("gateway path: OUCH 4.2 Enter Order (52 bytes framed) -> gateway -> Aeron IPC -> engine -> " +
            "Aeron IPC -> gateway -> Accepted (69 bytes framed); pairs of day orders, buy then sell 100 shares at " +
            "$100.00 of one symbol per pair (symbols round robin over the shards), so every order is Accepted then " +
            "Executed and the book holds no more than the orders in flight");
        out.println("TCP floor: the same client sends 52-byte frames to a bare echo thread that answers each with " +
            "69 bytes; same schedule, same histogram");
        out.println("round trip: intended send time on the schedule -> the read that brought the Accepted " +
            "(coordinated-omission corrected), HdrHistogram, 3 significant digits; at most " +
            RoundTripConnection.MAX_IN_FLIGHT + " in flight per connection, beyond which the schedule waits " +
            "(and the wait counts)");
        out.println("system calls: read and write calls of the server threads per request over each whole step " +
            "(Linux /proc/self/task/*/io); the gateway writes the messages it sends to their session journal " +
            "(copied into a memory mapping of the file once per session per duty cycle, in java.io.tmpdir, no fsync; " +
            "the gateway's journal-pretoucher thread fills the file with zeros ahead, 40 ms of its recent rate, 64 " +
            "to " + GatewayContext.JOURNAL_PRETOUCH_BYTES_DEFAULT / 1024 + " KiB, by write calls of 64 KiB) before " +
            "the socket");
    }

    private static String stepLine(final RatePair pair)
    {
        return String.format(Locale.ROOT, "rate %,d/s: %s; %s; p50 ratio %s", pair.floor().rate(),
            stepSummary(pair.floor()), stepSummary(pair.gateway()),
            BenchReport.ratio(percentile(pair.gateway(), 50), percentile(pair.floor(), 50)));
    }

    private static String stepSummary(final RateStep step)
    {
        final StringBuilder sb = new StringBuilder(String.format(Locale.ROOT,
            "%s %,.0f/s p50 %s p99 %s max %s us, %.1f per write", step.path(), step.achievedRate(),
            BenchReport.micros(percentile(step, 50)), BenchReport.micros(percentile(step, 99)),
            BenchReport.micros(percentile(step, 100)),
            step.requestsPerWrite()));
        if (step.notSent() > 0)
        {
            sb.append(String.format(Locale.ROOT, ", %,d not sent", step.notSent()));
        }
        if (step.unsettled() > 0)
        {
            sb.append(String.format(Locale.ROOT, ", %,d unsettled", step.unsettled()));
        }
        if (step.errors() > 0)
        {
            sb.append(String.format(Locale.ROOT, ", %,d errors", step.errors()));
        }
        for (final RateStep.ServerLoad server : step.servers())
        {
            sb.append(String.format(Locale.ROOT, ", %s %.2f reads %.2f writes %.2f cpu us", server.name(),
                server.readsPerRequest(), server.writesPerRequest(), server.cpuUsPerRequest()));
        }
        return sb.toString();
    }

    /**
     * @param results both paths at every rate run.
     * @return the table of round trips and ratios, and the highest sustained rates.
     */
    static String report(final List<RatePair> results)
    {
        final StringBuilder sb = new StringBuilder();
        sb.append(String.format(Locale.ROOT, "%-24s%12s%12s", "round trip, us", "rate/s", "achieved/s"));
        for (final String label : PERCENTILE_LABELS)
        {
            sb.append(String.format(Locale.ROOT, COLUMN, label));
        }
        sb.append(String.format(Locale.ROOT, "%11s%11s%11s%n", "per write", "missing", "errors"));
        for (final RatePair pair : results)
        {
            row(sb, pair.floor());
            row(sb, pair.gateway());
            sb.append(String.format(Locale.ROOT, "  %-46s", "ratio gateway / floor"));
            for (final double percentile : PERCENTILES)
            {
                sb.append(String.format(Locale.ROOT, COLUMN,
                    BenchReport.ratio(percentile(pair.gateway(), percentile), percentile(pair.floor(), percentile))));
            }
            sb.append('\n');
        }
        sb.append('\n');
        serverTable(sb, results);
        sb.append('\n');
        sb.append("missing: requests not sent by the end of the schedule plus a second, not answered when the " +
            "drain ended (their round trips are in no percentile, so a row with some understates its tail), or " +
            "accepted but not executed by then; errors: answers other than the one awaited (an order rejected, an " +
            "unknown or malformed message)\n");
        sb.append(String.format(Locale.ROOT, "highest rate with p99 under %d ms (every request sent and answered, " +
            "every order executed, no error, >= %.0f%% of the rate achieved): %s %s, %s %s%n",
            TimeUnit.NANOSECONDS.toMillis(P99_LIMIT_NS), RateStep.SUSTAINED_FRACTION * 100, GATEWAY,
            highestSustained(results, RatePair::gateway), FLOOR, highestSustained(results, RatePair::floor)));
        return sb.toString();
    }

    private static void serverTable(final StringBuilder sb, final List<RatePair> results)
    {
        sb.append(String.format(Locale.ROOT, "%-38s%12s%12s%12s%12s%n", "system calls, cpu time per request",
            "rate/s", "reads", "writes", "cpu us"));
        for (final RatePair pair : results)
        {
            for (final RateStep step : List.of(pair.floor(), pair.gateway()))
            {
                for (final RateStep.ServerLoad server : step.servers())
                {
                    sb.append(String.format(Locale.ROOT, "  %-36s%,12d%12.2f%12.2f%12.2f%n", server.name(),
                        step.rate(), server.readsPerRequest(), server.writesPerRequest(), server.cpuUsPerRequest()));
                }
            }
        }
    }

    private static void row(final StringBuilder sb, final RateStep step)
    {
        sb.append(String.format(Locale.ROOT, "  %-22s%,12d%,12.0f", step.path(), step.rate(), step.achievedRate()));
        for (final double percentile : PERCENTILES)
        {
            sb.append(String.format(Locale.ROOT, COLUMN, BenchReport.micros(percentile(step, percentile))));
        }
        // Requests of the step never sent or never answered (in no percentile, so the tail of a row with some is cut
        // short), orders accepted but never executed, and answers other than the one awaited (a rejected order is in
        // no percentile either); the highest sustained rate excludes such rows.
        sb.append(String.format(Locale.ROOT, "%11.1f%,11d%,11d%n", step.requestsPerWrite(),
            step.notSent() + step.unsettled(), step.errors()));
    }

    private static String highestSustained(
        final List<RatePair> results, final Function<RatePair, RateStep> path)
    {
        long highest = 0;
        for (final RatePair pair : results)
        {
            final RateStep step = path.apply(pair);
            if (step.sustained(P99_LIMIT_NS))
            {
                highest = Math.max(highest, step.rate());
            }
        }
        return 0 == highest ? "none of the rates" : String.format(Locale.ROOT, "%,d/s", highest);
    }

    private static long percentile(final RateStep step, final double percentile)
    {
        return BenchReport.percentile(step.histogram(), percentile);
    }

    private static void writeHistograms(final Path dir, final RatePair pair)
    {
        if (null == dir)
        {
            return;
        }
        try
        {
            Files.createDirectories(dir);
            BenchReport.writeHgrm(dir.resolve("floor-" + pair.floor().rate() + ".hgrm"), pair.floor().histogram());
            BenchReport.writeHgrm(dir.resolve("gateway-" + pair.gateway().rate() + ".hgrm"),
                pair.gateway().histogram());
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("--hgrm-dir " + dir + ": " + ex.getMessage(), ex);
        }
    }
}
