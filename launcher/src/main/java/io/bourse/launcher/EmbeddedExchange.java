package io.bourse.launcher;

import io.aeron.CommonContext;
import io.bourse.common.aeron.AgentHost;
import io.bourse.common.aeron.AgentLaunch;
import io.bourse.common.aeron.SharedAgentThread;
import io.bourse.common.aeron.StreamLayout;
import io.bourse.common.aeron.ThreadAffinity;
import io.bourse.common.config.Settings;
import io.bourse.common.config.SymbolDirectory;
import io.bourse.engine.EngineContext;
import io.bourse.engine.EngineService;
import io.bourse.fanout.FanoutContext;
import io.bourse.fanout.FanoutService;
import io.bourse.gateway.GatewayContext;
import io.bourse.gateway.GatewayService;
import io.bourse.mdpublisher.MdPublisherContext;
import io.bourse.mdpublisher.MdPublisherService;
import org.agrona.CloseHelper;
import org.agrona.IoUtil;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The whole exchange in one JVM (DESIGN.md run mode 1): an embedded media driver, one matching-engine shard per shard
 * of the symbol directory, the md-publisher, the order gateway (OUCH on 15000) and the fanout (ITCH on 16000), each
 * with its metrics endpoint, all configured from one {@link Settings}. The md-publisher and the gateway start before
 * the engine shards, so that their subscriptions to each shard's event stream are there when the shard starts and both
 * hear its first event, the RunStarted that tells the gateway the shard's earlier orders are gone (an Aeron IPC
 * subscriber joins a stream at its current position, and a shard holds its events only until a first subscriber takes
 * them). They are closed in the order the stop's own data flows: the gateway (its stop cancels its sessions' orders and
 * hears the shards' answers), the md-publisher (it reads the shards' events of that stop, then ends its feeds:
 * EndOfFeed, and the MoldUDP64 session's System Events 'M', 'E' and 'C'), the fanout (its subscribers get those cancels
 * as Order Deletes, then their day's end), then the engine shards. The engine keeps its books in memory only, so the
 * gateway's session journals belong to this run: unless {@value GatewayContext#JOURNAL_DIR_PROP_NAME} is set, they go
 * to a new temporary directory, deleted on close (a gateway started on the journals of an earlier run rebuilds that
 * run's open orders, which the new shards never had, and cancels them to their owners with OUCH Canceled 'Z' at the
 * shards' RunStarted). At start, when it runs in its own per-process Aeron directory (no {@code BOURSE_AERON_DIR}), it
 * deletes the Aeron and journal directories of embedded runs that were killed ({@link EmbeddedDirectories}).
 */
public final class EmbeddedExchange implements AutoCloseable
{
    /**
     * Setting of the thread layout: {@code dedicated} (default) gives every service's agent a thread of its own, as
     * in the containers; {@code shared} runs the engine shards and the order gateway on one shared thread
     * ({@link SharedAgentThread}, idling with {@code bourse.idle.strategy}), so that an order goes from the gateway's
     * socket read through the engine and back with no thread to wake up, and a 2-core host keeps a core for the rest.
     */
    public static final String LAYOUT_PROP_NAME = "bourse.exchange.layout";

    /**
     * Role of the shared thread of the {@code shared} layout, the name it takes in
     * {@value ThreadAffinity#THREAD_AFFINITY_PROP_NAME} (the agents on it are not pinned by their own roles).
     */
    public static final String SHARED_THREAD_ROLE = "exchange";

    private final List<AutoCloseable> services;
    private final GatewayService gateway;
    private final FanoutService fanout;

    private EmbeddedExchange(
        final List<AutoCloseable> services, final GatewayService gateway, final FanoutService fanout)
    {
        this.services = services;
        this.gateway = gateway;
        this.fanout = fanout;
    }

    /**
     * Starts every service. If one fails to start, those already started are closed and the error is rethrown.
     *
     * @param settings configuration shared by every service, {@code bourse.aeron.dir} included; the media driver
     *                 serves JVM metrics, the others not.
     * @return the running exchange.
     * @throws IllegalStateException when a media driver is active in the Aeron directory (a compose stack's, when
     *                               {@code BOURSE_AERON_DIR} names it): the embedded driver, which deletes its
     *                               directory at start, would take it from under that stack's services.
     */
    public static EmbeddedExchange launch(final Settings settings)
    {
        final String aeronDir = StreamLayout.fromSettings(settings).aeronDirectoryName();
        if (CommonContext.isDriverActive(new File(aeronDir), CommonContext.DEFAULT_DRIVER_TIMEOUT_MS, (ignored) ->
        {
        }))
        {
            throw new IllegalStateException("a media driver is active in " + aeronDir + ": the embedded exchange " +
                "would delete its directory; stop it, or unset BOURSE_AERON_DIR (the embedded modes then use their " +
                "own)");
        }
        if (aeronDir.equals(EmbeddedDirectories.aeronDirectory()))
        {
            for (final Path orphan : EmbeddedDirectories.deleteOrphans())
            {
                System.out.println("deleted " + orphan + ", left by an embedded run that was killed");
            }
        }
        final List<AutoCloseable> started = new ArrayList<>();
        try
        {
            started.add(MediaDriverService.launch(settings));
            final AgentHost agentHost = agentHost(settings, started);
            // the engine shards go here in the close order, started after their event streams' subscribers
            final int enginesCloseIndex = started.size();
            started.add(MdPublisherService.launch(MdPublisherContext.fromSettings(settings).jvmMetrics(false)));
            final GatewayContext gateway = GatewayContext.fromSettings(settings).jvmMetrics(false).agentHost(agentHost);
            if (null == settings.get(GatewayContext.JOURNAL_DIR_PROP_NAME, null))
            {
                final Path journalDir = EmbeddedDirectories.createJournalDirectory();
                started.add(() -> IoUtil.delete(journalDir.toFile(), true));
                gateway.journalDir(journalDir.toString());
            }
            final GatewayService gatewayService = GatewayService.launch(gateway);
            started.add(gatewayService);
            final SymbolDirectory directory = SymbolDirectory.fromSettings(settings);
            final int engineMetricsPort =
                settings.getInt(EngineContext.METRICS_PORT_PROP_NAME, EngineContext.METRICS_PORT_BASE);
            for (int shard = 0; shard < directory.shardCount(); shard++)
            {
                started.add(enginesCloseIndex + shard, EngineService.launch(EngineContext.fromSettings(settings)
                    .shardId(shard)
                    .metricsPort(0 == engineMetricsPort ? 0 : engineMetricsPort + shard)
                    .jvmMetrics(false)
                    .agentHost(agentHost)));
            }
            final FanoutService fanout = FanoutService.launch(FanoutContext.fromSettings(settings).jvmMetrics(false));
            // closed after the md-publisher, which ends its feeds after the events of the gateway's stop
            started.add(enginesCloseIndex + directory.shardCount(), fanout);
            return new EmbeddedExchange(started, gatewayService, fanout);
        }
        catch (final IOException ex)
        {
            closeReversed(started);
            throw new UncheckedIOException("cannot create the gateway's journal directory", ex);
        }
        catch (final RuntimeException ex)
        {
            closeReversed(started);
            throw ex;
        }
    }

    /** @return the port the order gateway's OUCH 4.2/SoupBinTCP acceptor is bound to (a free one for port 0). */
    public int gatewayPort()
    {
        return gateway.port();
    }

    /** @return the port the fanout's ITCH 5.0/SoupBinTCP acceptor is bound to (a free one for port 0). */
    public int fanoutPort()
    {
        return fanout.port();
    }

    /** Closes the services: the gateway, the md-publisher, the fanout, the engine shards, then the media driver. */
    @Override
    public void close()
    {
        final List<AutoCloseable> reversed = new ArrayList<>(services);
        Collections.reverse(reversed);
        CloseHelper.closeAll(reversed);
    }

    /**
     * @param settings source of {@value #LAYOUT_PROP_NAME}, the idle strategy and the thread affinity.
     * @param started  gets the shared thread, if one is started, to close after the services that run on it.
     * @return where the engine shards and the gateway run their agents.
     * @throws IllegalArgumentException naming the setting when the layout is unknown.
     */
    private static AgentHost agentHost(final Settings settings, final List<AutoCloseable> started)
    {
        final String layout = settings.get(LAYOUT_PROP_NAME, "dedicated");
        return switch (layout)
        {
            case "dedicated" -> AgentHost.DEDICATED;
            case "shared" ->
            {
                final SharedAgentThread thread = new SharedAgentThread(
                    SHARED_THREAD_ROLE, AgentLaunch.idleStrategy(settings), ThreadAffinity.fromSettings(settings),
                    new AtomicLong());
                started.add(thread);
                yield thread;
            }
            default -> throw new IllegalArgumentException(
                LAYOUT_PROP_NAME + " must be dedicated or shared: " + layout);
        };
    }

    private static void closeReversed(final List<AutoCloseable> started)
    {
        Collections.reverse(started);
        CloseHelper.quietCloseAll(started);
    }
}
