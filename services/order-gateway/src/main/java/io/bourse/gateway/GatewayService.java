package io.bourse.gateway;

import io.aeron.Aeron;
import io.aeron.Publication;
import io.aeron.Subscription;
import io.bourse.common.aeron.AgentHost;
import io.bourse.common.aeron.BoundedOffer;
import io.bourse.common.aeron.EventArchive;
import io.bourse.common.aeron.EventReplay;
import io.bourse.common.aeron.StreamLayout;
import io.bourse.common.aeron.StreamReadiness;
import io.bourse.common.metrics.AeronClientCollector;
import io.bourse.common.metrics.MetricsServer;
import io.bourse.common.net.SessionSockets;
import io.bourse.common.time.MidnightNanoClock;
import io.prometheus.metrics.core.metrics.CounterWithCallback;
import io.prometheus.metrics.core.metrics.GaugeWithCallback;
import org.agrona.CloseHelper;
import org.agrona.concurrent.YieldingIdleStrategy;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.file.Path;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A running order gateway: its Aeron client with one command publication and one event subscription per engine
 * shard, the listening OUCH/SoupBinTCP socket, the session journals of the trading day's session (recovered at launch,
 * the sessions and their orders rebuilt from them before the agent takes its first login; with daily sessions, a new
 * day's at each midnight UTC after a close, {@link TradingDays}), the metrics endpoint and the gateway agent on its own
 * thread.
 */
public final class GatewayService implements AutoCloseable
{
    /** Attempts after the first to offer a back-pressured command before rejecting the request. */
    private static final int COMMAND_OFFER_RETRIES = 1_000;

    private final MetricsServer metricsServer;
    private final Aeron aeron;
    private final AgentHost.HostedAgent runner;
    private final int port;

    private GatewayService(
        final MetricsServer metricsServer,
        final Aeron aeron,
        final AgentHost.HostedAgent runner,
        final int port)
    {
        this.metricsServer = metricsServer;
        this.aeron = aeron;
        this.runner = runner;
        this.port = port;
    }

    /**
     * Starts the gateway.
     *
     * @param ctx the configuration; {@link GatewayContext#conclude()} is applied.
     * @return the running gateway.
     * @throws IllegalStateException for a bad configuration.
     * @throws UncheckedIOException  when the OUCH or metrics port cannot be bound, or the journals cannot be
     *                               recovered.
     * @throws IllegalStateException also when the media driver's CnC file is gone or unfinished just after the
     *                               client connected ({@link MediaDriverStart}).
     */
    public static GatewayService launch(final GatewayContext ctx)
    {
        ctx.conclude();
        final List<AutoCloseable> opened = new ArrayList<>();
        try
        {
            final MetricsServer metricsServer = MetricsServer.start(ctx.metricsPort(), ctx.jvmMetrics());
            opened.add(metricsServer);
            final StreamLayout layout = ctx.streamLayout();
            final Aeron aeron = Aeron.connect(new Aeron.Context()
                .aeronDirectoryName(layout.aeronDirectoryName()).clientName("order-gateway"));
            opened.add(aeron);
            final int shardCount = ctx.symbolDirectory().shardCount();
            final Publication[] commands = new Publication[shardCount];
            final Subscription[] events = new Subscription[shardCount];
            for (int shard = 0; shard < shardCount; shard++)
            {
                // Only the gateway agent's thread offers commands: an exclusive publication appends without the
                // atomic claim of the log's tail that a concurrent one takes per offer.
                commands[shard] = aeron.addExclusivePublication(layout.commandChannel(), layout.commandStreamId(shard));
                events[shard] = aeron.addSubscription(layout.eventChannel(), layout.eventStreamId(shard));
            }

            final ServerSocketChannel serverChannel =
                SessionSockets.listen(new InetSocketAddress(ctx.bindAddress(), ctx.port()));
            opened.add(serverChannel);
            final Selector selector = Selector.open();
            opened.add(selector);

            final GatewayMetrics metrics = new GatewayMetrics(metricsServer.registry());
            metricsServer.registry().register(new AeronClientCollector(aeron, List.of(events)));
            final DutyCycleClock clock = new DutyCycleClock(new MidnightNanoClock(ctx.epochClock()));
            final String sessionName = TradingDays.firstSessionName(ctx, clock);
            final JournalStore journals = openJournals(ctx, sessionName, metrics);
            opened.add(journals);
            final BoundedOffer boundedOffer = new BoundedOffer(new YieldingIdleStrategy(), COMMAND_OFFER_RETRIES);
            final EngineProxy engine = new AeronEngineProxy(commands, boundedOffer);
            final GatewayAgent agent = newAgent(ctx, serverChannel, selector, engine, journals, aeron, events, metrics,
                clock, MediaDriverStart.ofIpcCommands(aeron, layout.commandChannel()));

            GaugeWithCallback.builder()
                .name("bourse_gateway_open_orders").help("Orders of the trading day entered and not yet done")
                .callback((callback) -> callback.call(agent.day().orderEntry().openOrderCount()))
                .register(metricsServer.registry());
            GaugeWithCallback.builder()
                .name("bourse_gateway_cancels_to_retry")
                .help("Cancels waiting for their engine shard to take them (it was down or full), sent again every " +
                    "100 ms: on disconnect and at the close, of the trading day and of closed days, and the day's " +
                    "cancels an earlier run of the shard took and never answered, and clients' cancels")
                .callback((callback) -> callback.call(agent.cancelsToRetry()))
                .register(metricsServer.registry());
            GaugeWithCallback.builder()
                .name("bourse_gateway_market_state")
                .help("Where the trading day stands: 0 open, 1 closing (new orders rejected, open ones being " +
                    "canceled), 2 closed (every order done, sessions ended; the next day opens at midnight UTC)")
                .callback((callback) -> callback.call(agent.day().marketClose().state().ordinal()))
                .register(metricsServer.registry());
            CounterWithCallback.builder()
                .name("bourse_gateway_command_back_pressure_total")
                .help("Attempts to offer an engine command that found the stream back pressured")
                .callback((callback) -> callback.call(boundedOffer.backPressureCount()))
                .register(metricsServer.registry());

            final AgentHost.HostedAgent runner =
                ctx.agentHost().run(agent, ctx.idleStrategy(), ctx.threadAffinity(), metrics.agentExceptionCount());
            // Closed first if what follows fails: the agent writes to the journals' mapped files and uses Aeron.
            opened.add(runner);
            final StreamReadiness readiness = new StreamReadiness();
            for (int shard = 0; shard < shardCount; shard++)
            {
                readiness.subscribed(commands[shard], "matching-engine shard " + shard)
                    .published(events[shard], "matching-engine shard " + shard);
            }
            metricsServer.readiness(() ->
            {
                final String reason = readiness.notReadyReason();
                return null != reason ? reason : agent.eventCatchUpReason();
            });
            final int port = ((InetSocketAddress)serverChannel.getLocalAddress()).getPort();
            System.out.println("order-gateway " + ctx.gatewayId() + " started: OUCH 4.2/SoupBinTCP on " +
                ctx.bindAddress() + ":" + port + " (up to " + ctx.maxSessions() + " sessions on one thread, " +
                ctx.sendBufferBytes() / 1024 + " KiB send buffer each), session " + sessionName + " (" +
                (GatewayContext.NO_CLOSE == ctx.closeTimeNs() ? "never closes" : "closes at " +
                LocalTime.ofNanoOfDay(MidnightNanoClock.timeOfDay(ctx.closeTimeNs())) + " UTC" +
                (ctx.dailySessions() ? ", then the next date's at the next midnight" : "")) + "), " +
                ctx.credentials().size() + " users, commands " + layout.commandChannel() + " streams " +
                layout.commandStreamId(0) + ".." + layout.commandStreamId(shardCount - 1) + ", journal " +
                journals.directory() + " (sync " + ctx.journalSync().name().toLowerCase(Locale.ROOT) + "), metrics :" +
                metricsServer.port());
            return new GatewayService(metricsServer, aeron, runner, port);
        }
        catch (final IOException ex)
        {
            closeReversed(opened);
            throw new UncheckedIOException(ctx.bindAddress() + ":" + ctx.port() + " or metrics port " +
                ctx.metricsPort(), ex);
        }
        catch (final RuntimeException ex)
        {
            closeReversed(opened);
            throw ex;
        }
    }

    /**
     * Wires the gateway agent and opens its first trading day on the recovered journals, the day's sessions restored
     * and their orders rebuilt ({@link TradingDays#openFirst}), and keeps the cancels of the orders other days left
     * open ({@link TradingDays#cancelOrdersOfOtherDays}); the Aeron-free part of {@link #launch}, shared with the
     * tests.
     *
     * @param ctx                concluded configuration.
     * @param serverChannel      bound, non-blocking listening channel.
     * @param selector           a new selector.
     * @param engine             where engine commands go (the order logic's and the clock ticks).
     * @param journals           the first day's session journals ({@link TradingDays#firstSessionName}), recovered;
     *                           the agent closes them when it closes or the day ends.
     * @param aeron              the client of the event subscriptions, also for the event archive's replays; null in
     *                           tests without Aeron.
     * @param eventSubscriptions the engine event streams.
     * @param metrics            counters.
     * @param clock              the agent's duty-cycle clock.
     * @param mediaDriverStartMs the start time of the media driver the commands go through, ms since the epoch
     *                           ({@link MediaDriverStart}); 0 when not known (tests without Aeron).
     * @return the agent, not yet started.
     * @throws IOException          when the listening channel cannot be registered.
     * @throws UncheckedIOException when the sessions cannot be restored from their journals, the journal directory
     *                              cannot be read, the session's {@link CollarReferences} cannot be opened, or with
     *                              the event archive its {@link EventPositions}.
     */
    static GatewayAgent newAgent(
        final GatewayContext ctx,
        final ServerSocketChannel serverChannel,
        final Selector selector,
        final EngineProxy engine,
        final JournalStore journals,
        final Aeron aeron,
        final Subscription[] eventSubscriptions,
        final GatewayMetrics metrics,
        final DutyCycleClock clock,
        final long mediaDriverStartMs) throws IOException
    {
        final EventArchive archive = ctx.eventArchive();
        final EngineEventStreams events = new EngineEventStreams(eventSubscriptions, new EngineEventAdapter(metrics),
            archive.enabled() ? new EventReplay(aeron, archive) : null, metrics, clock);
        final TradingDays days = new TradingDays(ctx, engine, new OuchProxy(metrics), metrics, clock,
            events::catchUpReason, mediaDriverStartMs);
        final ClosedDayCancels closedDayCancels =
            new ClosedDayCancels(engine, metrics, clock, ctx.symbolDirectory().shardCount());
        final TradingDay firstDay;
        try
        {
            firstDay = days.openFirst(journals);
            days.cancelOrdersOfOtherDays(journals, closedDayCancels);
            days.deleteExpiredDays(journals);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(GatewayContext.JOURNAL_DIR_PROP_NAME + "=" + ctx.journalDir(), ex);
        }
        final ClockTicker clockTicker = new ClockTicker(
            ctx.clockTickIntervalMs() * 1_000_000L, engine, ctx.symbolDirectory().shardCount(), clock, metrics);
        return new GatewayAgent(serverChannel, selector, firstDay, days, closedDayCancels, engine, events, clock,
            clockTicker, metrics);
    }

    private static JournalStore openJournals(
        final GatewayContext ctx, final String sessionName, final GatewayMetrics metrics)
    {
        final Path root = Path.of(ctx.journalDir());
        try
        {
            final JournalStore journals =
                JournalStore.open(root, sessionName, ctx.journalSync(), ctx.journalPretouchBytes(), metrics);
            try
            {
                final int floor = journals.continueSessionIndexesOfOtherDays();
                if (floor > 0)
                {
                    System.out.println("order-gateway journal " + journals.directory() + ": session indexes go on " +
                        "past " + floor + ", the largest of the other days' journals in " + root);
                }
                return journals;
            }
            catch (final IOException | RuntimeException ex)
            {
                CloseHelper.quietClose(journals);
                throw ex;
            }
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(GatewayContext.JOURNAL_DIR_PROP_NAME + "=" + root, ex);
        }
    }

    private static void closeReversed(final List<AutoCloseable> opened)
    {
        for (int i = opened.size() - 1; i >= 0; i--)
        {
            CloseHelper.quietClose(opened.get(i));
        }
    }

    /** @return the bound OUCH/SoupBinTCP port (useful when configured as 0). */
    public int port()
    {
        return port;
    }

    /** @return the bound metrics port. */
    public int metricsPort()
    {
        return metricsServer.port();
    }

    /**
     * Ends every SoupBinTCP session and stops the agent, which closes the day's journals, then closes the metrics
     * endpoint and Aeron.
     */
    @Override
    public void close()
    {
        CloseHelper.closeAll(runner, metricsServer, aeron);
    }
}
