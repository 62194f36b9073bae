package io.bourse.engine;

import io.aeron.Aeron;
import io.aeron.Publication;
import io.aeron.Subscription;
import io.bourse.common.aeron.AgentHost;
import io.bourse.common.aeron.StreamLayout;
import io.bourse.common.config.SymbolDirectory;
import io.bourse.common.metrics.AeronClientCollector;
import io.bourse.common.metrics.MetricsServer;
import io.bourse.engine.match.MatchingEngine;
import io.prometheus.metrics.core.metrics.CounterWithCallback;
import io.prometheus.metrics.core.metrics.GaugeWithCallback;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import org.agrona.CloseHelper;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A running matching-engine shard: its Aeron client, command subscription, event publication (recorded in the
 * {@link io.bourse.common.aeron.EventArchive} when enabled, from before its first event), metrics endpoint and the
 * engine agent on its own thread. With the archive enabled the shard first recovers the state its earlier runs left
 * ({@link EngineRecovery}), and publishes each command it takes before its events, for the next recovery. Then it
 * takes, as commands, the start of its numbering (its start time in units of 100 ns since the Unix epoch, so that its
 * order reference numbers and match numbers are above those of the day's earlier runs even when it recovered none of
 * them), which it publishes as its RunStarted with the number of earlier runs it recovered (0: the gateways cancel the
 * orders of the shard they still hold open), and its settings' self-trade prevention modes and price bands that
 * differ from the earlier runs' ({@link StartConfiguration}), so that each run's settings are in the input log too.
 */
public final class EngineService implements AutoCloseable
{
    /** Executions per page of the BreakTrade registry: 16,384, 1.1 MiB per page. */
    private static final int EXECUTIONS_PAGE_CAPACITY = 16 * 1024;
    /**
     * Most pages of the BreakTrade registry: 128, 2,097,152 executions, 144 MiB of direct memory, which the default
     * limit (the heap's maximum, 512 MiB under compose) holds; the day's latest 2,080,768 executions at least can be
     * broken, over 20 s of a shard executing 100,000 trades per second.
     */
    private static final int EXECUTIONS_MAX_PAGES = 128;
    /**
     * Longest time a stopping shard goes on taking commands while it drains ({@link EngineAgent#awaitDrained}): 4 s.
     */
    static final long DRAIN_TAKE_TIMEOUT_NS = TimeUnit.SECONDS.toNanos(4);
    /**
     * Longest time it then takes to publish what it holds: 1 s; both together are half the compose file's stop grace
     * period, ample for the subscribers to read a full 64 MiB event term.
     */
    static final long DRAIN_PUBLISH_TIMEOUT_NS = TimeUnit.SECONDS.toNanos(1);
    /** Where the commands a stopped run did not take go, for its log lines. */
    private static final String UNTAKEN = "the commands not yet taken stay on an aeron:ipc command stream for the " +
        "next run (a new subscription joins where the last one stood)";
    /** What a stop with events held loses, for its log line. */
    private static final String HELD_LOST = "the events it holds are not published; with the event archive on, the " +
        "next run publishes those whose command's SequencedCommand was recorded, and a command whose own " +
        "SequencedCommand is held is in no recording: no run answers it; " + UNTAKEN;

    private final int shardId;
    private final MetricsServer metricsServer;
    private final Aeron aeron;
    private final EngineAgent agent;
    private final AgentHost.HostedAgent runner;
    private boolean closed;

    private EngineService(
        final int shardId, final MetricsServer metricsServer, final Aeron aeron, final EngineAgent agent,
        final AgentHost.HostedAgent runner)
    {
        this.shardId = shardId;
        this.metricsServer = metricsServer;
        this.aeron = aeron;
        this.agent = agent;
        this.runner = runner;
    }

    /**
     * Starts a shard.
     *
     * @param ctx the configuration; {@link EngineContext#conclude()} is applied.
     * @return the running shard.
     * @throws IllegalStateException for a bad configuration.
     * @throws UncheckedIOException  when the metrics port cannot be bound.
     * @throws RuntimeException      from Aeron when the enabled event archive cannot be reached or does not record.
     */
    public static EngineService launch(final EngineContext ctx)
    {
        ctx.conclude();
        final MetricsServer metricsServer;
        try
        {
            metricsServer = MetricsServer.start(ctx.metricsPort(), ctx.jvmMetrics());
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("bourse.engine.metrics.port=" + ctx.metricsPort(), ex);
        }
        final StreamLayout layout = ctx.streamLayout();
        final Aeron aeron = Aeron.connect(new Aeron.Context()
            .aeronDirectoryName(layout.aeronDirectoryName()).clientName("matching-engine-" + ctx.shardId()));
        final Subscription commands = aeron.addSubscription(
            layout.commandChannel(), layout.commandStreamId(ctx.shardId()));
        final EngineMetrics metrics = new EngineMetrics(metricsServer.registry(), true);
        metricsServer.registry().register(new AeronClientCollector(aeron, List.of(commands)));
        final Executions executions = new Executions(EXECUTIONS_PAGE_CAPACITY, EXECUTIONS_MAX_PAGES);
        final EventProxy eventProxy = new EventProxy(metrics, executions);
        final boolean archived = ctx.eventArchive().enabled();
        final TakenCommands taken = new TakenCommands();
        final StartConfiguration settings = new StartConfiguration();
        final MatchingEngine engine;
        final CommandAdapter commandAdapter;
        final String recorded;
        final EventRecording recording;
        final long numberBase;
        final int settingsTaken;
        try
        {
            engine = new MatchingEngine(
                ctx.shardId(), SymbolDirectory.packed(ctx.symbolDirectory().symbolsOfShard(ctx.shardId())),
                ctx.maxOrderQuantity(), eventProxy);
            final EngineRecovery.Outcome outcome =
                archived ? recover(aeron, ctx, engine, eventProxy, executions, taken, settings) : null;
            final String recovered = null == outcome ? "" : ", recovered " + outcome.commands() + " commands of " +
                outcome.runs() + " earlier runs (" + outcome.events() + " events matched, " +
                engine.openOrderCount() + " open orders) in " + TimeUnit.NANOSECONDS.toMillis(outcome.elapsedNs()) +
                " ms";
            // Created once recovered: a subscriber sees the new run only after every run it continues is recorded.
            final Publication events = aeron.addExclusivePublication(
                layout.eventChannel(), layout.eventStreamId(ctx.shardId()));
            recording = archived ? EventRecording.start(aeron, ctx.eventArchive(), events) : null;
            recorded = archived ? recovered + ", recorded (recording " + recording.recordingId() + ")" : "";
            final int unpublished = eventProxy.start(events);
            if (unpublished > 0)
            {
                System.out.println("matching-engine shard " + ctx.shardId() + ": publishing first " + unpublished +
                    " events and admin answers that its earlier run produced but never published");
            }
            commandAdapter = new CommandAdapter(
                engine, eventProxy, executions, metrics, archived, taken, ctx.serviceTimeClock());
            numberBase = settings.startNumbering(
                commandAdapter, ctx.epochClock().nanoTime(), null == outcome ? 0 : outcome.runs());
            settingsTaken = settings.apply(ctx, commandAdapter, engine.clockNs());
        }
        catch (final RuntimeException ex)
        {
            CloseHelper.closeAll(aeron, metricsServer);
            throw ex;
        }

        final AtomicLong openOrderCount = new AtomicLong(engine.openOrderCount());
        final EngineAgent agent = new EngineAgent(
            ctx.shardId(), commands, commandAdapter, eventProxy, engine, openOrderCount, metrics.serviceTime,
            recording, aeron.countersReader());
        final AtomicLong errors = new AtomicLong();
        GaugeWithCallback.builder()
            .name("bourse_engine_open_orders").help("Orders resting on the shard's books")
            .callback((callback) -> callback.call(openOrderCount.get()))
            .register(metricsServer.registry());
        CounterWithCallback.builder()
            .name("bourse_engine_errors_total").help("Errors raised by the engine agent")
            .callback((callback) -> callback.call(errors.get()))
            .register(metricsServer.registry());
        final AgentHost.HostedAgent runner;
        try
        {
            runner = ctx.agentHost().run(agent, ctx.idleStrategy(), ctx.threadAffinity(), errors);
        }
        catch (final RuntimeException | Error ex)
        {
            CloseHelper.closeAll(aeron, metricsServer);
            throw ex;
        }
        metricsServer.readiness(() -> agent.hasRecordingStopped() ?
            "the event archive stopped recording the shard's events: taking no commands" : null);
        System.out.println("matching-engine shard " + ctx.shardId() + " started: symbols " +
            ctx.symbolDirectory().symbolsOfShard(ctx.shardId()).stream().map(SymbolDirectory.Entry::symbol).toList() +
            ", commands " + layout.commandChannel() + " stream " + layout.commandStreamId(ctx.shardId()) +
            ", events stream " + layout.eventStreamId(ctx.shardId()) + recorded + ", self-trade prevention " +
            ctx.selfTradePrevention() + " " + ctx.firmSelfTradePrevention() + ", price bands " + ctx.priceBands() +
            " (" + settingsTaken + " changed, taken as commands), numbering from " + numberBase +
            ", metrics :" + metricsServer.port());
        return new EngineService(ctx.shardId(), metricsServer, aeron, agent, runner);
    }

    /**
     * Recovers the shard's state from the recorded runs of its event stream ({@link EngineRecovery}), counting the
     * replayed commands apart from the live ones.
     *
     * @param taken    given where the recovered runs took their commands, per image of the command stream.
     * @param settings given the recovered runs' settings.
     * @return what was recovered.
     */
    private static EngineRecovery.Outcome recover(
        final Aeron aeron, final EngineContext ctx, final MatchingEngine engine, final EventProxy eventProxy,
        final Executions executions, final TakenCommands taken, final StartConfiguration settings)
    {
        final EngineMetrics recoveryMetrics = new EngineMetrics(new PrometheusRegistry(), false);
        eventProxy.startRecovery(recoveryMetrics);
        return new EngineRecovery(
            new CommandAdapter(
                engine, eventProxy, executions, recoveryMetrics, false, new TakenCommands(), ctx.serviceTimeClock()),
            eventProxy, taken, settings)
            .recover(aeron, ctx.eventArchive(), ctx.streamLayout().eventStreamId(ctx.shardId()));
    }

    /** @return the bound metrics port (useful when configured as 0). */
    public int metricsPort()
    {
        return metricsServer.port();
    }

    /**
     * The thread the engine agent runs on, for per-thread measurements such as its allocated bytes.
     *
     * @return the agent's thread, or null until it has started running.
     */
    public Thread agentThread()
    {
        return runner.thread();
    }

    /**
     * Stops the shard: readiness turns to "stopping", the agent drains ({@link EngineAgent#awaitDrained}: it answers
     * the commands the gateways sent before the stop and publishes every event it holds, for up to
     * {@link #DRAIN_TAKE_TIMEOUT_NS} plus {@link #DRAIN_PUBLISH_TIMEOUT_NS}), then the agent stops and Aeron and the
     * metrics endpoint close. A drain that did not end with everything answered and published is logged: cut short,
     * events dropped because no subscriber was left, interrupted, or no drain at all because the agent's thread was
     * not running. A second call does nothing; call it from one thread.
     */
    @Override
    public void close()
    {
        if (closed)
        {
            return;
        }
        closed = true;
        metricsServer.readiness(() -> "stopping");
        final Thread agentThread = runner.thread();
        if (null == agentThread || !agentThread.isAlive())
        {
            System.err.println("matching-engine shard " + shardId + ": stopping without a drain, the agent's thread " +
                "is not running: " + UNTAKEN);
        }
        else
        {
            logDrain(agent.awaitDrained(DRAIN_TAKE_TIMEOUT_NS, DRAIN_PUBLISH_TIMEOUT_NS));
        }
        CloseHelper.closeAll(runner, metricsServer, aeron);
    }

    private void logDrain(final EngineAgent.DrainOutcome outcome)
    {
        final String prefix = "matching-engine shard " + shardId + ": stopping ";
        switch (outcome)
        {
            case DRAINED -> { }
            case UNHEARD -> System.err.println(prefix + "with no event stream subscriber left, not even the event " +
                "archive's recording: the " + agent.droppedCount() + " messages held are dropped (a command whose " +
                "SequencedCommand is among them is answered by no run); " + UNTAKEN);
            case STOPPED_TAKING -> System.err.println(prefix + "after draining for " +
                TimeUnit.NANOSECONDS.toSeconds(DRAIN_TAKE_TIMEOUT_NS) + " s (commands kept coming, or a subscriber " +
                "read slowly): " + UNTAKEN);
            case HELD -> System.err.println(prefix + "with events held (an event stream subscriber not reading): " +
                HELD_LOST);
            case UNRECORDED -> System.err.println(prefix + "after its event recording stopped, with " +
                agent.droppedCount() + " messages held: " + HELD_LOST);
            case INTERRUPTED -> System.err.println(prefix + "before its drain ended (interrupted): " + HELD_LOST);
        }
    }
}
