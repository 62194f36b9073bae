package io.bourse.simulator;

import io.bourse.common.aeron.AgentLaunch;
import io.bourse.common.config.Credentials;
import io.bourse.common.config.SymbolDirectory;
import io.bourse.common.metrics.LatencySummary;
import io.bourse.common.metrics.MetricsServer;
import io.bourse.common.time.MidnightNanoClock;
import io.prometheus.metrics.core.metrics.CounterWithCallback;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import org.HdrHistogram.Histogram;
import org.agrona.CloseHelper;
import org.agrona.concurrent.AgentRunner;
import org.agrona.concurrent.SystemNanoClock;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * A running simulator: connects and logs in its market-data sessions (to the fanout) and OUCH sessions (to the order
 * gateway), then runs the order-entry agent and the market-data agent on their own threads and a progress thread
 * that prints a line per interval and, once the order-entry agent has finished, stops the agents and completes the
 * {@link SimulatorReport}. Exports {@code bourse_simulator_*} metrics on its own Prometheus endpoint.
 */
public final class SimulatorService implements AutoCloseable
{
    private static final long MONITOR_POLL_NS = TimeUnit.MILLISECONDS.toNanos(10);
    private static final long CLOSE_GRACE_MS = 5_000;
    private static final DateTimeFormatter FILE_TIME = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss", Locale.ROOT);
    private static final SimulatorCounter[] MESSAGES_IN =
    {
        SimulatorCounter.ACCEPTED, SimulatorCounter.REJECTED, SimulatorCounter.EXECUTED, SimulatorCounter.CANCELED,
        SimulatorCounter.REPLACED, SimulatorCounter.SYSTEM_EVENT, SimulatorCounter.OTHER_IN
    };

    private final SimulatorContext ctx;
    private final SimulatorCounters counters = new SimulatorCounters();
    private final AtomicLong agentErrors = new AtomicLong();
    private final CompletableFuture<SimulatorReport> completion = new CompletableFuture<>();
    private final List<OrderEntrySession> orderSessions = new ArrayList<>();
    private final List<SoupClient> mdSessions = new ArrayList<>();
    private MetricsServer metricsServer;
    private LatencyTracker roundTrip;
    private LatencyTracker feedLatency;
    private OrderEntryAgent orderAgent;
    private AgentRunner orderRunner;
    private AgentRunner mdRunner;

    private SimulatorService(final SimulatorContext ctx)
    {
        this.ctx = ctx;
    }

    /**
     * Concludes the context, connects and logs in every session, and starts the run.
     *
     * @param ctx the configuration.
     * @return the running simulator.
     * @throws IllegalStateException for a bad setting (see {@link SimulatorContext#conclude()}).
     * @throws UncheckedIOException when the metrics port cannot be bound or a session cannot connect or log in.
     */
    public static SimulatorService launch(final SimulatorContext ctx)
    {
        ctx.conclude();
        final SimulatorService service = new SimulatorService(ctx);
        try
        {
            service.start();
            return service;
        }
        catch (final IOException ex)
        {
            service.closeResources();
            throw new UncheckedIOException(ex.getMessage(), ex);
        }
        catch (final RuntimeException ex)
        {
            service.closeResources();
            throw ex;
        }
    }

    private void start() throws IOException
    {
        metricsServer = MetricsServer.start(ctx.metricsPort(), ctx.jvmMetrics());
        final PrometheusRegistry registry = metricsServer.registry();
        registerCounters(registry);
        roundTrip = new LatencyTracker(LatencySummary.register(registry, "bourse_simulator_order_roundtrip_seconds",
            "OUCH Enter Order to Accepted or Rejected, from the intended send time (coordinated omission corrected)"));
        feedLatency = new LatencyTracker(LatencySummary.register(registry, "bourse_simulator_md_latency_seconds",
            "ITCH 5.0 message timestamp to received by the simulator"));

        final MarketDataAdapter mdAdapter = new MarketDataAdapter(counters, feedLatency);
        for (int i = 0; i < ctx.mdSessions(); i++)
        {
            final Credentials.User user = ctx.marketDataUsers().get(i);
            mdSessions.add(SoupClient.connect("market-data session " + i + " (" + user.username() + ")",
                ctx.fanoutHost(), ctx.fanoutPort(), user, mdAdapter, ctx.connectTimeoutMs()));
        }

        final List<SymbolDirectory.Entry> symbols = ctx.symbolDirectory().entries();
        final long[] packedSymbols = symbols.stream().mapToLong(SymbolDirectory.Entry::packed).toArray();
        final OrderEntryProxy proxy = new OrderEntryProxy();
        for (int i = 0; i < ctx.sessions(); i++)
        {
            final OrderEntrySession session = new OrderEntrySession(
                i, ctx.orderEntryUsers().get(i), ctx.runId(), packedSymbols, proxy, counters, roundTrip);
            orderSessions.add(session);
            session.connect(ctx.gatewayHost(), ctx.gatewayPort(), ctx.connectTimeoutMs());
        }

        final long totalOrders = ctx.durationSeconds() == 0 ? Long.MAX_VALUE : ctx.rate() * ctx.durationSeconds();
        orderAgent = new OrderEntryAgent(orderSessions, new OrderFlowGenerator(symbols.size(), ctx.seed()), counters,
            new SystemNanoClock(), ctx.rate(), totalOrders, TimeUnit.MILLISECONDS.toNanos(ctx.drainMs()));
        if (!mdSessions.isEmpty())
        {
            mdRunner = AgentLaunch.start(new MarketDataAgent(mdSessions, mdAdapter, counters, new MidnightNanoClock()),
                ctx.idleStrategySupplier().get(), agentErrors);
        }
        orderRunner = AgentLaunch.start(orderAgent, ctx.idleStrategySupplier().get(), agentErrors);
        final Thread monitor = new Thread(this::monitor, "simulator-progress");
        monitor.setDaemon(true);
        monitor.start();
    }

    private void registerCounters(final PrometheusRegistry registry)
    {
        CounterWithCallback.builder()
            .name("bourse_simulator_orders_sent_total")
            .help("OUCH orders sent: Enter Order (day and immediate-or-cancel), Cancel Order and Replace Order")
            .callback((callback) -> callback.call(counters.ordersSent()))
            .register(registry);
        CounterWithCallback.builder()
            .name("bourse_simulator_messages_in_total")
            .help("OUCH messages received from the order gateway, by type")
            .labelNames("type")
            .callback((callback) ->
            {
                for (final SimulatorCounter counter : MESSAGES_IN)
                {
                    callback.call(counters.get(counter), counter.label());
                }
            })
            .register(registry);
        CounterWithCallback.builder()
            .name("bourse_simulator_md_messages_total")
            .help("ITCH 5.0 messages received from the fanout over all market-data sessions")
            .callback((callback) -> callback.call(counters.get(SimulatorCounter.MD_MESSAGES)))
            .register(registry);
        CounterWithCallback.builder()
            .name("bourse_simulator_errors_total")
            .help("Simulator errors: malformed or unknown messages, lost sessions, agent failures")
            .callback((callback) -> callback.call(errors()))
            .register(registry);
    }

    private long errors()
    {
        return counters.get(SimulatorCounter.ORDER_ERRORS) + counters.get(SimulatorCounter.MD_ERRORS) +
            agentErrors.get();
    }

    private void monitor()
    {
        try
        {
            final Progress progress = new Progress(System.nanoTime());
            final long intervalNs = TimeUnit.MILLISECONDS.toNanos(ctx.progressIntervalMs());
            long nextNs = progress.lastNs + intervalNs;
            while (!orderAgent.isFinished())
            {
                LockSupport.parkNanos(MONITOR_POLL_NS);
                final long nowNs = System.nanoTime();
                if (intervalNs > 0 && nowNs - nextNs >= 0)
                {
                    progress.print(nowNs, ctx.out());
                    nextNs += intervalNs;
                }
            }
            CloseHelper.closeAll(orderRunner, mdRunner);
            roundTrip.sampleInterval();
            feedLatency.sampleInterval();
            final SimulatorReport report = report();
            writeHistograms();
            completion.complete(report);
        }
        catch (final Throwable ex)
        {
            completion.completeExceptionally(ex);
        }
    }

    private SimulatorReport report()
    {
        return new SimulatorReport(
            SimulatorReport.describeMachine(),
            Runtime.getRuntime().availableProcessors(),
            ctx.rate(),
            ctx.sessions(),
            ctx.mdSessions(),
            ctx.durationSeconds(),
            orderAgent.sendWindowNs(),
            counters.get(SimulatorCounter.DAY_SENT),
            counters.get(SimulatorCounter.IOC_SENT),
            counters.get(SimulatorCounter.CANCEL_SENT),
            counters.get(SimulatorCounter.REPLACE_SENT),
            counters.get(SimulatorCounter.ACCEPTED),
            counters.get(SimulatorCounter.REJECTED),
            counters.rejectsByReason(),
            counters.get(SimulatorCounter.EXECUTED),
            counters.get(SimulatorCounter.EXECUTED_SHARES),
            counters.get(SimulatorCounter.CANCELED),
            counters.get(SimulatorCounter.REPLACED),
            counters.get(SimulatorCounter.UNANSWERED),
            SimulatorReport.Latency.of(roundTrip.total()),
            counters.get(SimulatorCounter.MD_MESSAGES),
            counters.mdMessagesByType(),
            SimulatorReport.Latency.of(feedLatency.total()),
            errors());
    }

    private void writeHistograms() throws IOException
    {
        final Path dir = ctx.hgrmDir();
        if (null == dir)
        {
            return;
        }
        Files.createDirectories(dir);
        final String suffix = ctx.rate() + "ops-" + FILE_TIME.format(ZonedDateTime.now(ZoneOffset.UTC)) + ".hgrm";
        writeHistogram(dir.resolve("simulator-roundtrip-" + suffix), roundTrip.total());
        writeHistogram(dir.resolve("simulator-feed-" + suffix), feedLatency.total());
    }

    private static void writeHistogram(final Path file, final Histogram histogram) throws IOException
    {
        try (PrintStream out = new PrintStream(Files.newOutputStream(file), false, "US-ASCII"))
        {
            histogram.outputPercentileDistribution(out, 1000.0);
        }
    }

    /** @return completes with the report when the run is over, or exceptionally when it failed. */
    public CompletableFuture<SimulatorReport> completion()
    {
        return completion;
    }

    /**
     * Blocks until the run is over.
     *
     * @return the report.
     * @throws java.util.concurrent.CompletionException when the run failed.
     */
    public SimulatorReport awaitReport()
    {
        return completion.join();
    }

    /** Ends the sending phase now; the run then drains in-flight answers and completes. Any thread. */
    public void requestStop()
    {
        orderAgent.requestStop();
    }

    /** @return the bound Prometheus port. */
    public int metricsPort()
    {
        return metricsServer.port();
    }

    /** Stops the run (draining as usual), then closes the sessions and the metrics endpoint. */
    @Override
    public void close()
    {
        requestStop();
        try
        {
            completion.get(ctx.drainMs() + CLOSE_GRACE_MS, TimeUnit.MILLISECONDS);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
        catch (final ExecutionException ex)
        {
            // The run's failure reaches the caller through completion() and awaitReport(); close only releases.
        }
        catch (final TimeoutException ex)
        {
            System.err.println("simulator: run did not complete within " + (ctx.drainMs() + CLOSE_GRACE_MS) +
                " ms of the stop request; aborting the connections");
            orderSessions.forEach(OrderEntrySession::abort);
            mdSessions.forEach(SoupClient::abort);
        }
        closeResources();
    }

    private void closeResources()
    {
        CloseHelper.quietCloseAll(orderRunner, mdRunner);
        CloseHelper.quietCloseAll(orderSessions);
        CloseHelper.quietCloseAll(mdSessions);
        CloseHelper.quietClose(metricsServer);
    }

    /** Interval sampling for the progress line; on the progress thread only. */
    private final class Progress
    {
        private long lastNs;
        private long lastSent;
        private long lastAccepted;
        private long lastExecutions;
        private long lastMd;
        private final long startNs;

        private Progress(final long startNs)
        {
            this.startNs = startNs;
            this.lastNs = startNs;
        }

        private void print(final long nowNs, final PrintStream out)
        {
            final double seconds = (nowNs - lastNs) / 1e9;
            final long sent = counters.ordersSent();
            final long accepted = counters.get(SimulatorCounter.ACCEPTED);
            final long executions = counters.get(SimulatorCounter.EXECUTED);
            final long md = counters.get(SimulatorCounter.MD_MESSAGES);
            final Histogram rt = roundTrip.sampleInterval();
            final Histogram feed = feedLatency.sampleInterval();
            out.printf(Locale.ROOT,
                "[%6.1f s] sent %,.0f/s  accepted %,.0f/s  executions %,.0f/s  md %,.0f/s  " +
                "round trip p99 %s  feed p99 %s%n",
                (nowNs - startNs) / 1e9,
                (sent - lastSent) / seconds,
                (accepted - lastAccepted) / seconds,
                (executions - lastExecutions) / seconds,
                (md - lastMd) / seconds,
                p99(rt),
                p99(feed));
            lastNs = nowNs;
            lastSent = sent;
            lastAccepted = accepted;
            lastExecutions = executions;
            lastMd = md;
        }

        private static String p99(final Histogram histogram)
        {
            return histogram.getTotalCount() == 0 ? "-" :
                String.format(Locale.ROOT, "%,.1f us", histogram.getValueAtPercentile(99.0) / 1000.0);
        }
    }
}
