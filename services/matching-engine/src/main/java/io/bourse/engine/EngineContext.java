package io.bourse.engine;

import io.bourse.common.aeron.AgentLaunch;
import io.bourse.common.aeron.StreamLayout;
import io.bourse.common.config.Settings;
import io.bourse.common.config.SymbolDirectory;
import io.bourse.common.metrics.MetricsServer;
import io.bourse.engine.match.MatchingEngine;
import org.agrona.concurrent.IdleStrategy;

/**
 * Configuration of one matching-engine shard. Settings: {@code bourse.engine.shard} (default 0),
 * {@code bourse.engine.metrics.port} (default 9410 + shard), {@code bourse.engine.max.order.quantity} (shares,
 * default 1,000,000), {@code bourse.metrics.jvm} (default true), plus the {@link StreamLayout}, the
 * {@link SymbolDirectory} and the idle strategy.
 */
public final class EngineContext
{
    private int shardId;
    private int metricsPort = -1;
    private long maxOrderQuantity = MatchingEngine.DEFAULT_MAX_ORDER_QUANTITY;
    private boolean jvmMetrics = true;
    private StreamLayout streamLayout;
    private SymbolDirectory symbolDirectory;
    private IdleStrategy idleStrategy;

    /**
     * @param settings where to read the settings.
     * @return a context filled from the settings.
     */
    public static EngineContext fromSettings(final Settings settings)
    {
        final int shard = settings.getInt("bourse.engine.shard", 0);
        return new EngineContext()
            .shardId(shard)
            .metricsPort(settings.getInt("bourse.engine.metrics.port", 9410 + shard))
            .maxOrderQuantity(settings.getLong("bourse.engine.max.order.quantity",
                MatchingEngine.DEFAULT_MAX_ORDER_QUANTITY))
            .jvmMetrics(MetricsServer.jvmMetrics(settings))
            .streamLayout(StreamLayout.fromSettings(settings))
            .symbolDirectory(SymbolDirectory.fromSettings(settings))
            .idleStrategy(AgentLaunch.idleStrategy(settings));
    }

    /**
     * Checks the settings before launch.
     *
     * @return this.
     * @throws IllegalStateException naming the bad setting.
     */
    public EngineContext conclude()
    {
        if (null == streamLayout || null == symbolDirectory || null == idleStrategy)
        {
            throw new IllegalStateException("streamLayout, symbolDirectory and idleStrategy are required");
        }
        if (symbolDirectory.symbolsOfShard(shardId).isEmpty())
        {
            throw new IllegalStateException("bourse.engine.shard=" + shardId + " owns no symbol of bourse.symbols=" +
                symbolDirectory);
        }
        if (maxOrderQuantity <= 0)
        {
            throw new IllegalStateException("bourse.engine.max.order.quantity must be positive: " + maxOrderQuantity);
        }
        if (metricsPort < 0)
        {
            metricsPort = 9410 + shardId;
        }
        return this;
    }

    /** @return shard id, 0..15. */
    public int shardId()
    {
        return shardId;
    }

    /**
     * @param shardId shard id, 0..15.
     * @return this.
     */
    public EngineContext shardId(final int shardId)
    {
        this.shardId = shardId;
        return this;
    }

    /** @return Prometheus port; 0 picks a free one. */
    public int metricsPort()
    {
        return metricsPort;
    }

    /**
     * @param metricsPort Prometheus port; 0 picks a free one.
     * @return this.
     */
    public EngineContext metricsPort(final int metricsPort)
    {
        this.metricsPort = metricsPort;
        return this;
    }

    /** @return per-order size limit in shares. */
    public long maxOrderQuantity()
    {
        return maxOrderQuantity;
    }

    /**
     * @param maxOrderQuantity per-order size limit in shares.
     * @return this.
     */
    public EngineContext maxOrderQuantity(final long maxOrderQuantity)
    {
        this.maxOrderQuantity = maxOrderQuantity;
        return this;
    }

    /** @return true to export JVM metrics. */
    public boolean jvmMetrics()
    {
        return jvmMetrics;
    }

    /**
     * @param jvmMetrics true to export JVM metrics (one service per JVM should).
     * @return this.
     */
    public EngineContext jvmMetrics(final boolean jvmMetrics)
    {
        this.jvmMetrics = jvmMetrics;
        return this;
    }

    /** @return the Aeron stream layout. */
    public StreamLayout streamLayout()
    {
        return streamLayout;
    }

    /**
     * @param streamLayout the Aeron stream layout.
     * @return this.
     */
    public EngineContext streamLayout(final StreamLayout streamLayout)
    {
        this.streamLayout = streamLayout;
        return this;
    }

    /** @return the symbols and their shards. */
    public SymbolDirectory symbolDirectory()
    {
        return symbolDirectory;
    }

    /**
     * @param symbolDirectory the symbols and their shards.
     * @return this.
     */
    public EngineContext symbolDirectory(final SymbolDirectory symbolDirectory)
    {
        this.symbolDirectory = symbolDirectory;
        return this;
    }

    /** @return the engine agent's idle strategy. */
    public IdleStrategy idleStrategy()
    {
        return idleStrategy;
    }

    /**
     * @param idleStrategy the engine agent's idle strategy.
     * @return this.
     */
    public EngineContext idleStrategy(final IdleStrategy idleStrategy)
    {
        this.idleStrategy = idleStrategy;
        return this;
    }
}
