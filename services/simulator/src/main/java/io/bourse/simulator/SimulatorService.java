package io.bourse.simulator;

import io.bourse.common.aeron.AgentLaunch;
import io.bourse.common.config.Credentials;
import io.bourse.common.config.SymbolDirectory;
import io.bourse.common.metrics.LatencySummary;
import io.bourse.common.metrics.MetricsServer;
import io.bourse.common.time.MidnightNanoClock;
import io.bourse.itch.ItchMessageTypes;
import io.prometheus.metrics.core.metrics.CounterWithCallback;
import io.prometheus.metrics.core.metrics.GaugeWithCallback;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import org.HdrHistogram.Histogram;
import org.agrona.CloseHelper;
import org.agrona.concurrent.AgentRunner;
import org.agrona.concurrent.NanoClock;
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
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.LockSupport;

/**
 * A running simulator: opens its market-data sessions (logged in to the fanout over SoupBinTCP, or joined to the
 * md-publisher's MoldUDP64 group, see {@link MarketDataFeed}) and connects and logs in its OUCH sessions (to the order
 * gateway), then runs the order-entry agent and the market-data agent on their own threads and a progress thread
 * that prints a line per interval and, once the order-entry agent has finished, stops the agents and completes the
 * {@link SimulatorReport}. Exports {@code bourse_simulator_*} metrics on its own Prometheus endpoint.
 */
public final class SimulatorService implements AutoCloseable
{
    private static final long MONITOR_POLL_NS = TimeUnit.MILLISECONDS.toNanos(10);
    private static final long CLOSE_GRACE_MS = 5_000;
    private static final int VWAP_BUCKETS = 60;
    private static final int INITIAL_ORDERS = 16_384;
    private static final long RATE_INTERVAL_NS = TimeUnit.SECONDS.toNanos(1);
    private static final DateTimeFormatter FILE_TIME = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss", Locale.ROOT);
    private static final SimulatorCounter[] ORDERS_SENT = {
        SimulatorCounter.DAY_SENT, SimulatorCounter.IOC_SENT, SimulatorCounter.CANCEL_SENT,
        SimulatorCounter.REPLACE_SENT};
    private static final SimulatorCounter[] MESSAGES_IN =
    {
        SimulatorCounter.ACCEPTED, SimulatorCounter.REJECTED, SimulatorCounter.EXECUTED, SimulatorCounter.CANCELED,
        SimulatorCounter.REPLACED, SimulatorCounter.SYSTEM_EVENT, SimulatorCounter.OTHER_IN
    };

    private final SimulatorContext ctx;
    private final SimulatorCounters counters = new SimulatorCounters();
    private final CompletableFuture<SimulatorReport> completion = new CompletableFuture<>();
    private final List<OrderEntrySession> orderSessions = new ArrayList<>();
    private final List<MarketDataSession> mdSessions = new ArrayList<>();
    /** The current MoldUDP64 session of each market-data index; replaced on the market-data thread at a re-join. */
    private final List<MoldSession> moldSessions = new CopyOnWriteArrayList<>();
    /** Per market-data session index, what its MoldUDP64 joins heard before. */
    private final List<MoldReplay> moldReplays = new ArrayList<>();
    private final List<MarketDataAdapter> mdAdapters = new ArrayList<>();
    private FeedAnalytics analytics;
    private volatile double mdMessageRate;
    private MetricsServer metricsServer;
    private LatencyTracker roundTrip;
    private LatencyTracker replaceRoundTrip;
    private LatencyTracker sendLag;
    private LatencyTracker feedLatency;
    private OrderEntryAgent orderAgent;
    private Ramp ramp;
    private String fileTime;
    private Histogram stepFeedLatency;
    /** Enter Orders sent when the current ramp step began; the progress thread only. */
    private long enteredAtStepStart;
    private long otherAtStepStart;
    private long notSentAtStepStart;
    private AgentRunner orderRunner;
    private AgentRunner mdRunner;
    private MarketDataAgent mdAgent;

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
        replaceRoundTrip = new LatencyTracker(LatencySummary.register(registry,
            "bourse_simulator_replace_roundtrip_seconds",
            "OUCH Replace Order to Replaced or Rejected, from the intended send time " +
            "(coordinated omission corrected)"));
        sendLag = new LatencyTracker(LatencySummary.register(registry, "bourse_simulator_send_lag_seconds",
            "How late the simulator sent each order after its intended send time (the simulator falling behind)"));
        feedLatency = new LatencyTracker(LatencySummary.register(registry, "bourse_simulator_md_latency_seconds",
            "ITCH 5.0 message timestamp to received by the simulator"));

        final List<SymbolDirectory.Entry> symbols = ctx.symbolDirectory().entries();
        // One clock for the join and the receive times, so that the time since the join is right past midnight.
        final MidnightNanoClock mdClock = new MidnightNanoClock();
        analytics = new FeedAnalytics(
            symbols.size(), TimeUnit.SECONDS.toNanos(ctx.vwapWindowSeconds()), VWAP_BUCKETS, counters, mdClock);
        registerMarketDataMetrics(registry, symbols);
        final FeedMeter meter = new FeedMeter(counters, feedLatency, ctx.mdSessions(), mdClock.nanosSinceMidnight());
        for (int i = 0; i < ctx.mdSessions(); i++)
        {
            final Credentials.User user = ctx.marketDataUsers().get(i);
            final MarketDataListener sessionAnalytics = 0 == i ? analytics : analytics.inconsistenciesOnly();
            // A MoldUDP64 join reads its session from 1 again: the trades an earlier join delivered are not counted
            // again. A SoupBinTCP login again starts with a snapshot, which has no trades.
            final MoldReplay replay = new MoldReplay(sessionAnalytics, counters, 0 == i);
            final MarketDataListener listener =
                MarketDataFeed.MOLDUDP64 == ctx.mdFeed() ? replay : sessionAnalytics;
            final MarketDataAdapter adapter = new MarketDataAdapter(marketDataSessionName(i, user),
                ctx.symbolDirectory(), counters, new OrderBooks(symbols.size(), INITIAL_ORDERS, listener), listener,
                meter);
            mdAdapters.add(adapter);
            moldReplays.add(replay);
            mdSessions.add(openMarketDataSession(i, user, adapter));
        }

        final long[] packedSymbols = symbols.stream().mapToLong(SymbolDirectory.Entry::packed).toArray();
        final OrderEntryProxy proxy = new OrderEntryProxy();
        for (int i = 0; i < ctx.sessions(); i++)
        {
            final OrderEntrySession session = new OrderEntrySession(
                i, ctx.orderEntryUsers().get(i), ctx.runId(), packedSymbols, proxy, counters, roundTrip,
                replaceRoundTrip);
            orderSessions.add(session);
            session.connect(ctx.gatewayHost(), ctx.gatewayPort(), ctx.connectTimeoutMs());
        }

        final Scenario scenario = ctx.scenario();
        if (Scenario.RAMP == scenario)
        {
            final long rampIntervalNs = TimeUnit.MILLISECONDS.toNanos(ctx.rampIntervalMs());
            ramp = new Ramp(ctx.rate(), ctx.rampStep(), ctx.rampMax(), rampIntervalNs,
                TimeUnit.MICROSECONDS.toNanos(ctx.rampP99LimitUs()), this::onRampStep);
        }
        final long totalOrders = ctx.durationSeconds() == 0 || null != ramp ?
            Long.MAX_VALUE : ctx.rate() * ctx.durationSeconds();
        orderAgent = new OrderEntryAgent(orderSessions, scenario.orderMix(ctx, symbols.size()),
            scenario.arrivals(ctx, ramp), counters, sendLag, new SystemNanoClock(), totalOrders,
            TimeUnit.MILLISECONDS.toNanos(ctx.drainMs()));
        if (!mdSessions.isEmpty())
        {
            mdAgent = new MarketDataAgent(
                mdSessions, this::relogin, (index) -> mdAdapters.get(index).isEndOfMessages(), meter, counters,
                mdClock, SystemNanoClock.INSTANCE);
            mdRunner = AgentLaunch.start(mdAgent,
                ctx.idleStrategySupplier().get(), ctx.threadAffinity(), counters.errors().agentExceptions());
        }
        orderRunner = AgentLaunch.start(
            orderAgent, ctx.idleStrategySupplier().get(), ctx.threadAffinity(), counters.errors().agentExceptions());
        metricsServer.readiness(this::notReadyReason);
        final Thread monitor = new Thread(this::monitor, "simulator-progress");
        monitor.setDaemon(true);
        monitor.start();
    }

    /**
     * {@link MarketDataAgent.Relogin}, into the index's emptied books: a new SoupBinTCP session of the index's user,
     * given {@value ReloginSchedule#RELOGIN_INTERVAL_MS} ms to connect and log in; or a new MoldUDP64 session, joined
     * to the group again, which reads the md-publisher's next session from Sequence Number 1.
     */
    private MarketDataSession relogin(final int index) throws IOException
    {
        final MarketDataAdapter adapter = mdAdapters.get(index);
        adapter.startSession();
        final MarketDataSession session;
        if (MarketDataFeed.MOLDUDP64 == ctx.mdFeed())
        {
            final MoldSession moldSession = joinMold(index, adapter);
            moldSessions.set(index, moldSession);
            session = moldSession;
        }
        else
        {
            session = SoupClient.connect(adapter.sessionName(), ctx.fanoutHost(), ctx.fanoutPort(),
                ctx.marketDataUsers().get(index), adapter, ReloginSchedule.RELOGIN_INTERVAL_MS);
        }
        if (0 == index)
        {
            counters.increment(SimulatorCounter.MD_RELOGINS);
        }
        return session;
    }

    /** @return the name of market-data session {@code index}, whose SoupBinTCP user is {@code user}. */
    private String marketDataSessionName(final int index, final Credentials.User user)
    {
        return MarketDataFeed.MOLDUDP64 == ctx.mdFeed() ?
            "MoldUDP64 session " + index + " (" + ctx.moldGroup() + ":" + ctx.moldPort() + ")" :
            "market-data session " + index + " (" + user.username() + ")";
    }

    private MarketDataSession openMarketDataSession(
        final int index, final Credentials.User user, final MarketDataAdapter adapter) throws IOException
    {
        if (MarketDataFeed.MOLDUDP64 == ctx.mdFeed())
        {
            final MoldSession session = joinMold(index, adapter);
            moldSessions.add(session);
            return session;
        }
        return SoupClient.connect(
            adapter.sessionName(), ctx.fanoutHost(), ctx.fanoutPort(), user, adapter, ctx.connectTimeoutMs());
    }

    private MoldSession joinMold(final int index, final MarketDataAdapter adapter) throws IOException
    {
        return MoldSession.join(adapter.sessionName(), ctx.moldGroupAddress(), ctx.moldInterfaceAddress(),
            ctx.moldRequestAddress(), adapter, moldReplays.get(index), counters, SystemNanoClock.INSTANCE);
    }

    private void registerCounters(final PrometheusRegistry registry)
    {
        CounterWithCallback.builder()
            .name("bourse_simulator_orders_sent_total")
            .help("OUCH orders sent by type: Enter Order (day, immediate-or-cancel), Cancel Order, Replace Order")
            .labelNames("type")
            .callback((callback) ->
            {
                for (final SimulatorCounter counter : ORDERS_SENT)
                {
                    callback.call(counters.get(counter), counter.label());
                }
            })
            .register(registry);
        CounterWithCallback.builder()
            .name("bourse_simulator_orders_not_sent_total")
            .help("Orders of the schedule left out, their time come while no OUCH session was logged in")
            .callback((callback) -> callback.call(counters.get(SimulatorCounter.NOT_SENT)))
            .register(registry);
        CounterWithCallback.builder()
            .name("bourse_simulator_orders_unanswered_total")
            .help("Enter Orders that got no Accepted or Rejected: still in flight at the end of the run or when " +
                "their trading day closed, or overwritten in the ring of orders in flight")
            .callback((callback) -> callback.call(counters.get(SimulatorCounter.UNANSWERED)))
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
            .help("ITCH 5.0 messages received over all market-data sessions (fanout or MoldUDP64 feed), by type")
            .labelNames("type")
            .callback((callback) ->
            {
                long other = 0;
                for (int type = 0; type < SimulatorCounters.MESSAGE_TYPES; type++)
                {
                    final String label = ItchMessageTypes.label((byte)type);
                    if (ItchMessageTypes.OTHER.equals(label))
                    {
                        other += counters.mdMessages((byte)type);
                    }
                    else
                    {
                        callback.call(counters.mdMessages((byte)type), label);
                    }
                }
                callback.call(other, ItchMessageTypes.OTHER);
            })
            .register(registry);
        counters.errors().register(registry, "bourse_simulator_errors_total",
            "Simulator errors by kind: lost sessions, malformed or unknown messages, failed book checks, agent errors");
    }

    private void registerMarketDataMetrics(final PrometheusRegistry registry, final List<SymbolDirectory.Entry> symbols)
    {
        CounterWithCallback.builder()
            .name("bourse_simulator_md_inconsistencies_total")
            .help("ITCH 5.0 messages that did not fit a market-data session's book: unknown order or locate, " +
                "duplicate order reference, execution or cancel of more shares than the order has")
            .callback((callback) -> callback.call(counters.get(SimulatorCounter.MD_INCONSISTENCIES)))
            .register(registry);
        CounterWithCallback.builder()
            .name("bourse_simulator_md_trade_corrections_total")
            .help("Trades of the analysed market-data session not counted as they came: broken (a Broken Trade " +
                "took the trade out of volume and VWAP), break_not_applied (a Broken Trade of a trade older than the " +
                "65,536 kept, or never heard), duplicate (a trade or Broken Trade heard again, counted once)")
            .labelNames("kind")
            .callback((callback) ->
            {
                callback.call(counters.get(SimulatorCounter.MD_BROKEN_TRADES), "broken");
                callback.call(counters.get(SimulatorCounter.MD_BREAKS_NOT_APPLIED), "break_not_applied");
                callback.call(counters.get(SimulatorCounter.MD_DUPLICATE_TRADES), "duplicate");
            })
            .register(registry);
        CounterWithCallback.builder()
            .name("bourse_simulator_md_gaps_total")
            .help("MoldUDP64 gaps detected over all market-data sessions: a Downstream Packet past the next expected " +
                "Sequence Number, or a late join; always 0 over SoupBinTCP")
            .callback((callback) -> callback.call(counters.get(SimulatorCounter.MD_GAPS)))
            .register(registry);
        CounterWithCallback.builder()
            .name("bourse_simulator_md_gap_requests_total")
            .help("MoldUDP64 Request Packets sent to the md-publisher's re-request server to fill gaps")
            .callback((callback) -> callback.call(counters.get(SimulatorCounter.MD_GAP_REQUESTS)))
            .register(registry);
        CounterWithCallback.builder()
            .name("bourse_simulator_md_gap_messages_total")
            .help("ITCH 5.0 messages recovered from the responses to MoldUDP64 Request Packets")
            .callback((callback) -> callback.call(counters.get(SimulatorCounter.MD_GAP_MESSAGES)))
            .register(registry);
        CounterWithCallback.builder()
            .name("bourse_simulator_md_book_mismatches_total")
            .help("Symbols whose book built from the feed differed from the fanout's snapshot at the book check")
            .callback((callback) -> callback.call(counters.get(SimulatorCounter.MD_BOOK_MISMATCHES)))
            .register(registry);
        GaugeWithCallback.builder()
            .name("bourse_simulator_md_message_rate")
            .help("ITCH 5.0 messages per second received over all market-data sessions, last second")
            .callback((callback) -> callback.call(mdMessageRate))
            .register(registry);
        GaugeWithCallback.builder()
            .name("bourse_simulator_vwap")
            .help("Volume-weighted average price in dollars of the trades on the feed, per symbol: the trading " +
                "day's session (UTC) of the newest trade, or the rolling window of ITCH time")
            .labelNames("symbol", "window")
            .callback((callback) ->
            {
                for (final SymbolDirectory.Entry entry : symbols)
                {
                    final double session = analytics.publishedSessionVwap(entry.locate());
                    final double rolling = analytics.publishedRollingVwap(entry.locate());
                    if (!Double.isNaN(session))
                    {
                        callback.call(session, entry.symbol(), "session");
                    }
                    if (!Double.isNaN(session) || !Double.isNaN(rolling))
                    {
                        // NaN once the window holds none of the symbol's trades, as the report shows it.
                        callback.call(rolling, entry.symbol(), "rolling");
                    }
                }
            })
            .register(registry);
    }

    private void monitor()
    {
        try
        {
            final Progress progress = new Progress(System.nanoTime());
            final long intervalNs = TimeUnit.MILLISECONDS.toNanos(ctx.progressIntervalMs());
            long nextNs = progress.lastNs + intervalNs;
            long rateNs = progress.lastNs;
            long rateMessages = progress.lastMd;
            boolean rampRunning = null != ramp;
            boolean stepsAligned = false;
            long nextStepNs = 0;
            while (!orderAgent.isFinished())
            {
                LockSupport.parkNanos(MONITOR_POLL_NS);
                final long nowNs = System.nanoTime();
                if (rampRunning && !stepsAligned && orderAgent.hasStarted())
                {
                    stepsAligned = true;
                    nextStepNs = orderAgent.startedAtNs() + ramp.stepNs();
                }
                if (stepsAligned && rampRunning && nowNs - nextStepNs >= 0)
                {
                    rampRunning = endRampStep();
                    nextStepNs += ramp.stepNs();
                }
                if (intervalNs > 0 && nowNs - nextNs >= 0)
                {
                    progress.print(nowNs, ctx.out());
                    nextNs += intervalNs;
                }
                if (nowNs - rateNs >= RATE_INTERVAL_NS)
                {
                    final long messages = counters.get(SimulatorCounter.MD_MESSAGES);
                    mdMessageRate = (messages - rateMessages) * 1e9 / (nowNs - rateNs);
                    rateMessages = messages;
                    rateNs = nowNs;
                }
            }
            final BookCheck.Result bookCheck = checkBooks();
            CloseHelper.closeAll(orderRunner, mdRunner);
            roundTrip.sampleInterval();
            replaceRoundTrip.sampleInterval();
            sendLag.sampleInterval();
            feedLatency.sampleInterval();
            final SimulatorReport report = report(bookCheck);
            writeHistograms();
            if (null != ramp)
            {
                ramp.print(ctx.out());
            }
            completion.complete(report);
        }
        catch (final Throwable ex)
        {
            completion.completeExceptionally(ex);
        }
    }

    private boolean endRampStep()
    {
        roundTrip.sampleInterval();
        feedLatency.sampleInterval();
        stepFeedLatency = feedLatency.takeWindow();
        final long entered = counters.get(SimulatorCounter.DAY_SENT) + counters.get(SimulatorCounter.IOC_SENT);
        final long other = counters.get(SimulatorCounter.CANCEL_SENT) + counters.get(SimulatorCounter.REPLACE_SENT);
        final long notSent = counters.get(SimulatorCounter.NOT_SENT);
        final boolean goOn = ramp.onStepEnd(roundTrip.takeWindow(), entered - enteredAtStepStart,
            other - otherAtStepStart, notSent - notSentAtStepStart);
        enteredAtStepStart = entered;
        otherAtStepStart = other;
        notSentAtStepStart = notSent;
        if (!goOn)
        {
            orderAgent.requestStop();
        }
        return goOn;
    }

    /**
     * The end-of-run book check: with the order flow stopped, waits until the first market-data session's books can
     * be compared ({@link FeedQuiet}: the feed quiet, and, over MoldUDP64, a Heartbeat come after its last message and
     * the gaps filled; a lost first session is logged in again, or joined again over MoldUDP64), then compares them
     * with a fresh snapshot from the fanout ({@link BookCheck#run}), which stops the market-data agent once both are
     * quiet (so that its books stay as they are and are safely read here). A wait that times out fails the check,
     * saying why, instead of comparing books that stand at no point of the stream.
     */
    private BookCheck.Result checkBooks()
    {
        if (mdSessions.isEmpty() || 0 == ctx.bookCheckQuietMs())
        {
            return BookCheck.Result.NONE;
        }
        mdAgent.reloginPromptly(); // a first session waiting out a long back-off is tried again within the deadline
        final FirstFeed firstFeed = new FirstFeed()
        {
            @Override
            public long messages()
            {
                return counters.get(SimulatorCounter.MD_MESSAGES);
            }

            @Override
            public MoldSession moldSession()
            {
                return moldSessions.isEmpty() ? null : moldSessions.getFirst();
            }

            @Override
            public boolean isReloginPending()
            {
                return mdAgent.isReloginPending(0);
            }

            @Override
            public long sessionStarts()
            {
                return mdAdapters.get(0).sessionStarts();
            }
        };
        final FeedQuiet feed = new FeedQuiet(mdAgent.name(0), firstFeed,
            TimeUnit.MILLISECONDS.toNanos(ctx.bookCheckQuietMs()), () ->
            {
                closeAndAwait(mdRunner);
                return mdAdapters.get(0).books();
            }, SystemNanoClock.INSTANCE.nanoTime());
        final String notComparable = awaitComparableBooks(feed, TimeUnit.MILLISECONDS.toNanos(ctx.connectTimeoutMs()),
            MONITOR_POLL_NS, SystemNanoClock.INSTANCE);
        if (!mdAgent.isActive(0))
        {
            return BookCheck.Result.failed(mdAgent.name(0) + " was lost and is not logged in again");
        }
        if (null != notComparable)
        {
            return BookCheck.Result.failed(feed.name() + " " + notComparable);
        }
        try
        {
            final BookCheck.Result result = BookCheck.run(feed, ctx.symbolDirectory(), ctx.fanoutHost(),
                ctx.fanoutPort(), ctx.marketDataUsers().get(0), ctx.bookCheckQuietMs(), ctx.connectTimeoutMs(),
                counters);
            counters.add(SimulatorCounter.MD_BOOK_MISMATCHES, result.mismatches().size());
            return result;
        }
        catch (final IOException ex)
        {
            counters.errors().error(SimulatorError.BOOK_CHECK_FAILED, "fanout snapshot session", ex);
            return BookCheck.Result.failed(ex.getMessage());
        }
    }

    /**
     * Stops an agent and waits for its thread to end, whichever thread closes its runner: Agrona's
     * {@link AgentRunner#close} returns at once, without waiting, while another thread's close is under way (the run's
     * {@link #close}, timed out, as the book check stops the market-data agent). It waits as long as that first close
     * does, for the thread to end.
     *
     * @param runner the agent's runner, started or not, or null.
     */
    static void closeAndAwait(final AgentRunner runner)
    {
        if (null == runner)
        {
            return;
        }
        CloseHelper.close(runner);
        while (!runner.isClosed())
        {
            LockSupport.parkNanos(MONITOR_POLL_NS);
        }
    }

    /**
     * The simulator's {@code /ready}: ready while its run goes on with every OUCH session it opened logged in and
     * every market-data session open (one lost and not logged in again yet is not, nor one the gateway ended after
     * its End of Day until the next day's session). Any thread.
     *
     * @return null when ready, else why not.
     */
    private String notReadyReason()
    {
        if (orderAgent.isFinished())
        {
            return "run complete";
        }
        final int closed = orderAgent.sessionsClosed();
        if (closed > 0)
        {
            return "the exchange closed the trading day: " + closed + " OUCH session" + (1 == closed ? "" : "s") +
                " ended after End of Day, waiting for the next day's session";
        }
        final int down = orderAgent.sessionsDown();
        if (down > 0)
        {
            return down + " OUCH session" + (1 == down ? "" : "s") + " lost, not logged in again yet";
        }
        for (int i = 0; i < mdSessions.size(); i++)
        {
            if (!mdAgent.isActive(i))
            {
                return mdAgent.name(i) + " lost, not logged in again yet";
            }
        }
        return null;
    }

    /** What the book check's wait watches of the first market-data session. */
    interface FirstFeed
    {
        /** @return ITCH messages delivered so far, by every session. */
        long messages();

        /** @return the first session's MoldUDP64 session (a new one after a re-join), or null over SoupBinTCP. */
        MoldSession moldSession();

        /** @return whether the first session was lost and is to be opened again. */
        boolean isReloginPending();

        /** @return how many times the first session was opened again (a login or join again), emptying its books. */
        long sessionStarts();
    }

    /**
     * Waits, polling every {@code pollNs}, until the first session's books can be compared with a snapshot
     * ({@link FeedQuiet#isComparable}).
     *
     * @param feed      the first session, its quiet period counted from its making.
     * @param timeoutNs longest wait, in nanoseconds.
     * @param pollNs    time between two looks at the feed, in nanoseconds.
     * @param clock     monotonic time of the quiet and the timeout.
     * @return null when they can be, else why not when {@code timeoutNs} has passed: the books are not those of a
     *         point of the stream, and a snapshot would differ from them for no fault of the book building.
     */
    static String awaitComparableBooks(
        final FeedQuiet feed, final long timeoutNs, final long pollNs, final NanoClock clock)
    {
        final long deadlineNs = clock.nanoTime() + timeoutNs;
        while (!feed.isComparable(clock.nanoTime()))
        {
            if (clock.nanoTime() - deadlineNs >= 0)
            {
                return feed.whyNot(TimeUnit.NANOSECONDS.toMillis(timeoutNs));
            }
            LockSupport.parkNanos(pollNs);
        }
        return null;
    }

    private SimulatorReport.GapFill gapFill()
    {
        int unfilled = 0;
        for (final MoldSession session : moldSessions)
        {
            unfilled += session.isFilled() ? 0 : 1;
        }
        return new SimulatorReport.GapFill(ctx.mdFeed(), counters.get(SimulatorCounter.MD_GAPS),
            counters.get(SimulatorCounter.MD_GAP_REQUESTS), counters.get(SimulatorCounter.MD_GAP_MESSAGES), unfilled,
            counters.get(SimulatorCounter.MD_RELOGINS));
    }

    private SimulatorReport report(final BookCheck.Result bookCheck)
    {
        final List<SimulatorReport.SymbolTrades> symbols = new ArrayList<>();
        for (final SymbolDirectory.Entry entry : ctx.symbolDirectory().entries())
        {
            final int locate = entry.locate();
            symbols.add(new SimulatorReport.SymbolTrades(entry.symbol(), analytics.trades(locate),
                analytics.volume(locate), analytics.sessionVolume(locate), analytics.sessionVwap(locate),
                analytics.rollingVwap(locate)));
        }
        final List<Ramp.Step> rampSteps = null == ramp ? List.of() : ramp.steps();
        return new SimulatorReport(
            SimulatorReport.describeMachine(),
            Runtime.getRuntime().availableProcessors(),
            rampSteps.isEmpty() ? ctx.rate() : ramp.meanRate(),
            rampSteps.isEmpty() ? ctx.scenario().settingName() :
                String.format(Locale.ROOT, "ramp from %,d to %,d: the mean of its steps' rates, see the ramp table",
                    ctx.rate(), rampSteps.getLast().rate()),
            ctx.sessions(),
            ctx.mdSessions(),
            null == ramp ? ctx.durationSeconds() : 0,
            orderAgent.sendWindowNs(),
            counters.get(SimulatorCounter.DAY_SENT),
            counters.get(SimulatorCounter.IOC_SENT),
            counters.get(SimulatorCounter.CANCEL_SENT),
            counters.get(SimulatorCounter.REPLACE_SENT),
            counters.get(SimulatorCounter.NOT_SENT),
            counters.get(SimulatorCounter.ACCEPTED),
            counters.get(SimulatorCounter.REJECTED),
            counters.rejectsByReason(),
            counters.get(SimulatorCounter.EXECUTED),
            counters.get(SimulatorCounter.EXECUTED_SHARES),
            counters.get(SimulatorCounter.CANCELED),
            counters.get(SimulatorCounter.REPLACED),
            counters.get(SimulatorCounter.UNANSWERED),
            SimulatorReport.Latency.of(roundTrip.total()),
            SimulatorReport.Latency.of(replaceRoundTrip.total()),
            SimulatorReport.Latency.of(sendLag.total()),
            counters.get(SimulatorCounter.MD_MESSAGES),
            counters.mdMessagesByType(),
            orderAgent.mdMessagesWhileSending(),
            SimulatorReport.Latency.of(feedLatency.total()),
            counters.errors().total(),
            counters.get(SimulatorCounter.MD_INCONSISTENCIES),
            ctx.vwapWindowSeconds(),
            symbols,
            bookCheck,
            gapFill());
    }

    private void writeHistograms() throws IOException
    {
        final Path dir = ctx.hgrmDir();
        if (null == dir)
        {
            return;
        }
        Files.createDirectories(dir);
        final String suffix = ctx.scenario().settingName() + "-" + ctx.rate() + "ops-" + fileTime() + ".hgrm";
        writeHistogram(dir.resolve("simulator-roundtrip-" + suffix), roundTrip.total());
        writeHistogram(dir.resolve("simulator-replace-roundtrip-" + suffix), replaceRoundTrip.total());
        writeHistogram(dir.resolve("simulator-send-lag-" + suffix), sendLag.total());
        writeHistogram(dir.resolve("simulator-feed-" + suffix), feedLatency.total());
    }

    private void onRampStep(final Ramp.Step step, final Histogram stepRoundTrip)
    {
        final Path dir = ctx.hgrmDir();
        if (null == dir)
        {
            return;
        }
        try
        {
            Files.createDirectories(dir);
            final String suffix = String.format(Locale.ROOT, "ramp-step%02d-%dops-%s.hgrm",
                step.index(), step.rate(), fileTime());
            writeHistogram(dir.resolve("simulator-roundtrip-" + suffix), stepRoundTrip);
            writeHistogram(dir.resolve("simulator-feed-" + suffix), stepFeedLatency);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }

    private String fileTime()
    {
        if (null == fileTime)
        {
            fileTime = FILE_TIME.format(ZonedDateTime.now(ZoneOffset.UTC));
        }
        return fileTime;
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
            if (null != mdAgent)
            {
                mdAgent.abort();
            }
        }
        closeResources();
    }

    private void closeResources()
    {
        // The sessions close once the agents' threads have ended, also while the book check closes the market data's.
        closeAndAwait(orderRunner);
        closeAndAwait(mdRunner);
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

        /**
         * @param startNs when the monitor starts: the first interval's rates count from the counts then, not from 0,
         *                so that neither the orders sent before it nor the market data read before it (a fanout
         *                snapshot read with its Login Accepted) swell them.
         */
        private Progress(final long startNs)
        {
            this.startNs = startNs;
            this.lastNs = startNs;
            this.lastSent = counters.ordersSent();
            this.lastAccepted = counters.get(SimulatorCounter.ACCEPTED);
            this.lastExecutions = counters.get(SimulatorCounter.EXECUTED);
            this.lastMd = counters.get(SimulatorCounter.MD_MESSAGES);
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
            final Histogram lag = sendLag.sampleInterval();
            out.printf(Locale.ROOT,
                "[%6.1f s] sent %,.0f/s  accepted %,.0f/s  executions %,.0f/s  md %,.0f/s  " +
                "round trip p99 %s  feed p99 %s  send lag p99 %s%n",
                (nowNs - startNs) / 1e9,
                (sent - lastSent) / seconds,
                (accepted - lastAccepted) / seconds,
                (executions - lastExecutions) / seconds,
                (md - lastMd) / seconds,
                p99(rt),
                p99(feed),
                p99(lag));
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
