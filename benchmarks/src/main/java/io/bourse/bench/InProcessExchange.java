package io.bourse.bench;

import io.aeron.driver.MediaDriver;
import io.bourse.common.aeron.AgentHost;
import io.bourse.common.aeron.SharedAgentThread;
import io.bourse.common.aeron.StreamLayout;
import io.bourse.common.aeron.ThreadAffinity;
import io.bourse.common.config.Credentials;
import io.bourse.common.config.Settings;
import io.bourse.common.config.SymbolDirectory;
import io.bourse.engine.EngineContext;
import io.bourse.engine.EngineService;
import io.bourse.fanout.FanoutContext;
import io.bourse.fanout.FanoutService;
import io.bourse.gateway.GatewayContext;
import io.bourse.gateway.GatewayService;
import io.bourse.gateway.RiskLimits;
import io.bourse.mdpublisher.MdPublisherContext;
import io.bourse.mdpublisher.MdPublisherService;
import org.agrona.CloseHelper;
import org.agrona.IoUtil;
import org.agrona.concurrent.IdleStrategy;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import java.util.stream.IntStream;

/**
 * The part of the exchange an order travels through, in this JVM: an embedded media driver (its own directory under
 * /dev/shm, deleted on start and close), one matching-engine shard per symbol on {@code aeron:ipc}, and the real order
 * gateway on an ephemeral loopback port, with the benchmark's users (one firm each, no pre-trade risk limits), its
 * session journals in a temporary directory (deleted on close, no fsync as by default) and metrics endpoints on
 * ephemeral ports without JVM metrics. The gateway and the shards run their agents on one shared thread or on a
 * thread each ({@link ThreadLayout}), idling with the benchmark's idle strategy, pinned as
 * {@code BOURSE_THREAD_AFFINITY} says. With market data, the md-publisher (without its MoldUDP64 multicast) and the
 * fanout (ITCH on an ephemeral loopback port, the same users, one more for a subscriber) run too, on threads of their
 * own: the whole pipeline in this JVM.
 */
final class InProcessExchange implements AutoCloseable
{
    /** Name of the thread the gateway and the shards share in the {@link ThreadLayout#SHARED} layout. */
    static final String SHARED_THREAD = "exchange";

    private final List<AutoCloseable> started;
    private final List<Credentials.User> users;
    private final SymbolDirectory symbols;
    private final Path journalDir;
    private final int port;
    private final int fanoutPort;

    private InProcessExchange(
        final List<AutoCloseable> started, final List<Credentials.User> users, final SymbolDirectory symbols,
        final Path journalDir, final int port, final int fanoutPort)
    {
        this.started = started;
        this.users = users;
        this.symbols = symbols;
        this.journalDir = journalDir;
        this.port = port;
        this.fanoutPort = fanoutPort;
    }

    /**
     * Starts the media driver, the shards and the gateway, their threads idling with the benchmark's strategy except
     * on standby ({@link StandbyIdleStrategy}); on failure closes what started and rethrows.
     *
     * @param options shards, sessions (as many users), idle strategy and driver threading.
     * @param standby on while the exchange's path is not measured.
     * @return the running exchange.
     * @throws UncheckedIOException when the journal directory cannot be made.
     */
    static InProcessExchange launch(final GatewayBenchOptions options, final AtomicBoolean standby)
    {
        return launch(options, false, () -> new StandbyIdleStrategy(options.newIdleStrategy(), standby));
    }

    /**
     * Starts the media driver, the shards and the gateway, and with market data the md-publisher and the fanout; on
     * failure closes what started and rethrows.
     *
     * @param options    shards, sessions (as many users, and one more with market data), idle strategy and driver
     *                   threading.
     * @param marketData whether to start the md-publisher and the fanout.
     * @return the running exchange.
     * @throws UncheckedIOException when the journal directory or the fanout's credentials file cannot be written.
     */
    static InProcessExchange launch(final GatewayBenchOptions options, final boolean marketData)
    {
        return launch(options, marketData, options::newIdleStrategy);
    }

    private static InProcessExchange launch(
        final GatewayBenchOptions options, final boolean marketData, final Supplier<IdleStrategy> idleStrategies)
    {
        final List<AutoCloseable> started = new ArrayList<>();
        Path journalDir = null;
        try
        {
            journalDir = Files.createTempDirectory("bourse-bench-gateway-journal");
            final MediaDriver driver = EngineServiceBenchmark.launchDriver(options.driverThreading());
            started.add(driver);
            final AgentHost agentHost = agentHost(options, idleStrategies, started);
            final StreamLayout layout =
                StreamLayout.fromSettings(new Settings(Map.of())).withAeronDirectory(driver.aeronDirectoryName());
            final SymbolDirectory symbols = SymbolDirectory.parse(String.join(",", IntStream.range(0, options.shards())
                .mapToObj((shard) -> GatewayBenchOptions.SYMBOLS.get(shard) + "@" + shard).toList()));
            for (int shard = 0; shard < options.shards(); shard++)
            {
                started.add(EngineService.launch(new EngineContext()
                    .shardId(shard)
                    .metricsPort(0)
                    .jvmMetrics(false)
                    .streamLayout(layout)
                    .symbolDirectory(symbols)
                    .idleStrategy(idleStrategies.get())
                    .threadAffinity(threadAffinity())
                    .agentHost(agentHost)));
            }
            final List<String> lines = IntStream.range(0, options.sessions() + (marketData ? 1 : 0))
                .mapToObj((i) -> String.format(Locale.ROOT, "bnch%02d,bnch%02dpw,BN%02d", i, i, i)).toList();
            final Credentials credentials = Credentials.parse(lines);
            final GatewayService gateway = GatewayService.launch(new GatewayContext()
                .port(0)
                .bindAddress("127.0.0.1")
                .metricsPort(0)
                .jvmMetrics(false)
                .journalDir(journalDir.toString())
                .credentials(credentials)
                .riskLimits(RiskLimits.none())
                .streamLayout(layout)
                .symbolDirectory(symbols)
                .idleStrategy(idleStrategies.get())
                .threadAffinity(threadAffinity())
                .agentHost(agentHost));
            started.add(gateway);
            int fanoutPort = 0;
            if (marketData)
            {
                started.add(MdPublisherService.launch(MdPublisherContext.fromSettings(new Settings(Map.of()))
                    .layout(layout)
                    .symbolDirectory(symbols)
                    .metricsPort(0)
                    .jvmMetrics(false)
                    .moldEnabled(false)
                    .threadAffinity(threadAffinity())
                    .idleStrategySupplier(idleStrategies)));
                final Path credentialsFile = Files.write(journalDir.resolve("credentials.csv"), lines);
                final FanoutService fanout = FanoutService.launch(FanoutContext.fromSettings(new Settings(Map.of()))
                    .layout(layout)
                    .symbolDirectory(symbols)
                    .credentialsFile(credentialsFile)
                    .port(0)
                    .metricsPort(0)
                    .jvmMetrics(false)
                    .threadAffinity(threadAffinity())
                    .idleStrategySupplier(idleStrategies));
                started.add(fanout);
                fanoutPort = fanout.port();
            }
            return new InProcessExchange(
                started, credentials.users(), symbols, journalDir, gateway.port(), fanoutPort);
        }
        catch (final IOException ex)
        {
            close(started, journalDir);
            throw new UncheckedIOException("cannot write the gateway's journal directory: " + ex.getMessage(), ex);
        }
        catch (final RuntimeException ex)
        {
            close(started, journalDir);
            throw ex;
        }
    }

    /**
     * @param options        the layout.
     * @param idleStrategies the shared thread's idle strategy.
     * @param started        gets the shared thread, if one is started, to close after the services that run on it.
     * @return where the gateway and the shards run their agents.
     */
    private static AgentHost agentHost(
        final GatewayBenchOptions options, final Supplier<IdleStrategy> idleStrategies,
        final List<AutoCloseable> started)
    {
        if (ThreadLayout.DEDICATED == options.layout())
        {
            return AgentHost.DEDICATED;
        }
        final SharedAgentThread thread = new SharedAgentThread(
            SHARED_THREAD, idleStrategies.get(), threadAffinity(), new AtomicLong());
        started.add(thread);
        return thread;
    }

    /**
     * @return the services' {@value ThreadAffinity#THREAD_AFFINITY_PROP_NAME}, from the environment: that of every
     *         service the benchmarks run in process.
     * @throws IllegalArgumentException as {@link ThreadAffinity#fromSettings} does: naming the setting and the entry
     *                                  when it is malformed, or naming the setting when set off Linux or without JNA.
     */
    static ThreadAffinity threadAffinity()
    {
        return ThreadAffinity.fromSettings(Settings.fromEnvironment());
    }

    /** @return the gateway's OUCH/SoupBinTCP port on 127.0.0.1. */
    int port()
    {
        return port;
    }

    /**
     * @param layout the layout, as the report states it.
     * @return the exchange as the end-to-end benchmark reaches it: the sessions' users for OUCH, the last user for
     * ITCH, one symbol per shard; started with market data.
     */
    ExchangeTarget target(final String layout)
    {
        return new ExchangeTarget("in-process", layout, port, fanoutPort, users.subList(0, users.size() - 1),
            users.get(users.size() - 1), symbols.entries().stream().map(SymbolDirectory.Entry::symbol).toList());
    }

    /** @return the benchmark's users, one per session, in session order. */
    List<Credentials.User> users()
    {
        return users;
    }

    /** @return the symbols traded, one per shard. */
    SymbolDirectory symbols()
    {
        return symbols;
    }

    /** Closes the gateway, the shards and the driver, in that order, and deletes the journals. */
    @Override
    public void close()
    {
        close(started, journalDir);
    }

    private static void close(final List<AutoCloseable> started, final Path journalDir)
    {
        final List<AutoCloseable> reversed = new ArrayList<>(started);
        Collections.reverse(reversed);
        try
        {
            CloseHelper.closeAll(reversed);
        }
        finally
        {
            if (null != journalDir)
            {
                IoUtil.delete(journalDir.toFile(), true);
            }
        }
    }
}
