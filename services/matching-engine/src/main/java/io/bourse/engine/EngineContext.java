package io.bourse.engine;

import io.bourse.common.aeron.AgentHost;
import io.bourse.common.aeron.AgentLaunch;
import io.bourse.common.aeron.EventArchive;
import io.bourse.common.aeron.StreamLayout;
import io.bourse.common.aeron.ThreadAffinity;
import io.bourse.common.config.Settings;
import io.bourse.common.config.SymbolDirectory;
import io.bourse.common.config.Symbols;
import io.bourse.common.metrics.MetricsServer;
import io.bourse.engine.match.MatchingEngine;
import io.bourse.engine.match.SelfTradePrevention;
import org.agrona.concurrent.EpochNanoClock;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.NanoClock;
import org.agrona.concurrent.SystemEpochNanoClock;
import org.agrona.concurrent.SystemNanoClock;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

import static io.bourse.common.config.SettingChecks.checkPositive;

/**
 * Configuration of one matching-engine shard. Settings: {@code bourse.engine.shard} (default 0),
 * {@code bourse.engine.metrics.port} (default 9410 + shard), {@code bourse.engine.max.order.quantity} (shares,
 * default 1,000,000), {@value #STP_PROP_NAME} (the self-trade prevention mode of every firm without its own, a
 * {@link SelfTradePrevention} name, default NONE), {@value #STP_FIRMS_PROP_NAME} (per-firm modes, e.g.
 * {@code FIRM:CANCEL_NEWEST,ABCD:DECREMENT}, default none), {@value #PRICE_BANDS_PROP_NAME} (price bands set at
 * start, {@code SYMBOL:REFERENCE_PRICE:BAND_BASIS_POINTS} items, e.g. {@code AAPL:1500000:1000} for $150.00 +-10%,
 * default none; each shard applies those of its own symbols), {@code bourse.metrics.jvm} (default true), plus the
 * {@link StreamLayout}, the {@link SymbolDirectory}, the idle strategy, the {@link ThreadAffinity} and the
 * {@link EventArchive} that records the shard's event stream when enabled. Every shard
 * reads the same settings; at its start it takes, as admin commands, the modes and bands that differ from what its
 * earlier runs of the day had set ({@link StartConfiguration}), and admin commands ({@code ./bourse admin}) change them
 * while it runs.
 */
public final class EngineContext
{
    /** Setting name of the Prometheus port: default 9410 + shard; in the embedded modes shard N's is this + N. */
    public static final String METRICS_PORT_PROP_NAME = "bourse.engine.metrics.port";
    /** Shard 0's default Prometheus port; shard N's is this + N. */
    public static final int METRICS_PORT_BASE = 9410;
    /** Setting name of the default self-trade prevention mode. */
    public static final String STP_PROP_NAME = "bourse.engine.stp";
    /** Setting name of the per-firm self-trade prevention modes. */
    public static final String STP_FIRMS_PROP_NAME = "bourse.engine.stp.firms";
    /** Setting name of the price bands applied at start. */
    public static final String PRICE_BANDS_PROP_NAME = "bourse.engine.price.bands";

    private static final int MAX_BAND_BASIS_POINTS = 10_000;

    /**
     * A price band set at start, see {@link MatchingEngine#priceBand(long, long, int)}.
     *
     * @param symbol          the symbol.
     * @param referencePrice  band centre in 1/10000 dollars, 1 to {@link MatchingEngine#MAX_PRICE}.
     * @param bandBasisPoints half-width in basis points of the reference price, 0 to 10000.
     */
    public record PriceBand(String symbol, long referencePrice, int bandBasisPoints)
    {
    }

    private int shardId;
    private int metricsPort = -1;
    private long maxOrderQuantity = MatchingEngine.DEFAULT_MAX_ORDER_QUANTITY;
    private boolean jvmMetrics = true;
    private SelfTradePrevention selfTradePrevention = SelfTradePrevention.NONE;
    private Map<String, SelfTradePrevention> firmSelfTradePrevention = Map.of();
    private List<PriceBand> priceBands = List.of();
    private StreamLayout streamLayout;
    private SymbolDirectory symbolDirectory;
    private IdleStrategy idleStrategy;
    private AgentHost agentHost = AgentHost.DEDICATED;
    private ThreadAffinity threadAffinity = ThreadAffinity.NONE;
    private EventArchive eventArchive = EventArchive.DISABLED;
    private EpochNanoClock epochClock = new SystemEpochNanoClock();
    private NanoClock serviceTimeClock = SystemNanoClock.INSTANCE;

    /**
     * @param settings where to read the settings.
     * @return a context filled from the settings.
     */
    public static EngineContext fromSettings(final Settings settings)
    {
        final int shard = settings.getInt("bourse.engine.shard", 0);
        return new EngineContext()
            .shardId(shard)
            .metricsPort(settings.getInt(METRICS_PORT_PROP_NAME, METRICS_PORT_BASE + shard))
            .maxOrderQuantity(settings.getLong("bourse.engine.max.order.quantity",
                MatchingEngine.DEFAULT_MAX_ORDER_QUANTITY))
            .jvmMetrics(MetricsServer.jvmMetrics(settings))
            .selfTradePrevention(
                parseMode(STP_PROP_NAME, settings.get(STP_PROP_NAME, SelfTradePrevention.NONE.name())))
            .firmSelfTradePrevention(parseFirmModes(settings.get(STP_FIRMS_PROP_NAME, "")))
            .priceBands(parsePriceBands(settings.get(PRICE_BANDS_PROP_NAME, "")))
            .streamLayout(StreamLayout.fromSettings(settings))
            .symbolDirectory(SymbolDirectory.fromSettings(settings))
            .idleStrategy(AgentLaunch.idleStrategy(settings))
            .threadAffinity(ThreadAffinity.fromSettings(settings))
            .eventArchive(EventArchive.fromSettings(settings));
    }

    /**
     * Checks the settings before launch.
     *
     * @return this.
     * @throws IllegalStateException naming the bad setting.
     */
    public EngineContext conclude()
    {
        if (null == streamLayout || null == symbolDirectory || null == idleStrategy || null == agentHost ||
            null == threadAffinity || null == eventArchive)
        {
            throw new IllegalStateException(
                "streamLayout, symbolDirectory, idleStrategy, agentHost, threadAffinity and eventArchive are required");
        }
        if (symbolDirectory.symbolsOfShard(shardId).isEmpty())
        {
            throw new IllegalStateException("bourse.engine.shard=" + shardId + " owns no symbol of bourse.symbols=" +
                symbolDirectory);
        }
        checkPositive("bourse.engine.max.order.quantity", maxOrderQuantity);
        if (null == selfTradePrevention)
        {
            throw new IllegalStateException(STP_PROP_NAME + " is required");
        }
        for (final Map.Entry<String, SelfTradePrevention> entry : firmSelfTradePrevention.entrySet())
        {
            concludeFirm(entry.getKey(), entry.getValue());
        }
        for (final PriceBand band : priceBands)
        {
            concludePriceBand(band);
        }
        if (metricsPort < 0)
        {
            metricsPort = METRICS_PORT_BASE + shardId;
        }
        return this;
    }

    private static void concludeFirm(final String firm, final SelfTradePrevention mode)
    {
        try
        {
            Firms.pack(firm);
        }
        catch (final IllegalArgumentException ex)
        {
            throw new IllegalStateException(STP_FIRMS_PROP_NAME + ": " + ex.getMessage(), ex);
        }
        if (null == mode)
        {
            throw new IllegalStateException(STP_FIRMS_PROP_NAME + ": no mode for firm " + firm);
        }
    }

    private void concludePriceBand(final PriceBand band)
    {
        final String item = band.symbol() + ":" + band.referencePrice() + ":" + band.bandBasisPoints();
        if (band.symbol().length() > Symbols.LENGTH || null == symbolDirectory.find(Symbols.pack(band.symbol())))
        {
            throw new IllegalStateException(PRICE_BANDS_PROP_NAME + ": " + item + ": symbol not in " +
                SymbolDirectory.SYMBOLS_PROP_NAME + "=" + symbolDirectory);
        }
        if (band.referencePrice() < 1 || band.referencePrice() > MatchingEngine.MAX_PRICE)
        {
            throw new IllegalStateException(PRICE_BANDS_PROP_NAME + ": " + item + ": reference price must be 1 to " +
                MatchingEngine.MAX_PRICE + " (1/10000 dollars)");
        }
        if (band.bandBasisPoints() < 0 || band.bandBasisPoints() > MAX_BAND_BASIS_POINTS)
        {
            throw new IllegalStateException(PRICE_BANDS_PROP_NAME + ": " + item + ": band must be 0 to " +
                MAX_BAND_BASIS_POINTS + " basis points");
        }
    }

    private static SelfTradePrevention parseMode(final String propertyName, final String name)
    {
        try
        {
            return SelfTradePrevention.valueOf(name.trim().toUpperCase(Locale.ROOT));
        }
        catch (final IllegalArgumentException ex)
        {
            throw new IllegalArgumentException(propertyName + ": unknown self-trade prevention mode '" + name +
                "', expected one of " + List.of(SelfTradePrevention.values()), ex);
        }
    }

    /**
     * @param spec comma-separated {@code FIRM:MODE} items, e.g. {@code FIRM:CANCEL_NEWEST,ABCD:DECREMENT}.
     * @return the modes by firm, in the order given.
     * @throws IllegalArgumentException naming {@value #STP_FIRMS_PROP_NAME} for a malformed item, an unknown mode or
     *                                  a firm given twice.
     */
    static Map<String, SelfTradePrevention> parseFirmModes(final String spec)
    {
        final Map<String, SelfTradePrevention> modes = new LinkedHashMap<>();
        for (final String item : items(spec))
        {
            final String[] parts = item.split(":", -1);
            if (2 != parts.length)
            {
                throw new IllegalArgumentException(STP_FIRMS_PROP_NAME + ": expected FIRM:MODE, got '" + item + "'");
            }
            final String firm = parts[0].trim();
            if (null != modes.put(firm, parseMode(STP_FIRMS_PROP_NAME, parts[1])))
            {
                throw new IllegalArgumentException(STP_FIRMS_PROP_NAME + ": firm " + firm + " given twice");
            }
        }
        return Collections.unmodifiableMap(modes);
    }

    /**
     * @param spec comma-separated {@code SYMBOL:REFERENCE_PRICE:BAND_BASIS_POINTS} items, e.g.
     *             {@code AAPL:1500000:1000}.
     * @return the bands in the order given.
     * @throws IllegalArgumentException naming {@value #PRICE_BANDS_PROP_NAME} for a malformed item.
     */
    static List<PriceBand> parsePriceBands(final String spec)
    {
        final List<PriceBand> bands = new ArrayList<>();
        for (final String item : items(spec))
        {
            final String[] parts = item.split(":", -1);
            try
            {
                if (3 != parts.length)
                {
                    throw new NumberFormatException("3 fields expected");
                }
                bands.add(new PriceBand(parts[0].trim().toUpperCase(Locale.ROOT), Long.parseLong(parts[1].trim()),
                    Integer.parseInt(parts[2].trim())));
            }
            catch (final NumberFormatException ex)
            {
                throw new IllegalArgumentException(PRICE_BANDS_PROP_NAME +
                    ": expected SYMBOL:REFERENCE_PRICE:BAND_BASIS_POINTS, got '" + item + "'", ex);
            }
        }
        return List.copyOf(bands);
    }

    private static List<String> items(final String spec)
    {
        final List<String> items = new ArrayList<>();
        for (final String raw : spec.split(","))
        {
            final String item = raw.trim();
            if (!item.isEmpty())
            {
                items.add(item);
            }
        }
        return items;
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

    /** @return the self-trade prevention mode of every firm without its own. */
    public SelfTradePrevention selfTradePrevention()
    {
        return selfTradePrevention;
    }

    /**
     * @param selfTradePrevention the self-trade prevention mode of every firm without its own.
     * @return this.
     */
    public EngineContext selfTradePrevention(final SelfTradePrevention selfTradePrevention)
    {
        this.selfTradePrevention = selfTradePrevention;
        return this;
    }

    /** @return self-trade prevention modes by firm (1 to 4 ASCII characters, OUCH 4.2 Firm). */
    public Map<String, SelfTradePrevention> firmSelfTradePrevention()
    {
        return firmSelfTradePrevention;
    }

    /**
     * @param firmSelfTradePrevention self-trade prevention modes by firm (1 to 4 ASCII characters, OUCH 4.2 Firm).
     * @return this.
     */
    public EngineContext firmSelfTradePrevention(final Map<String, SelfTradePrevention> firmSelfTradePrevention)
    {
        this.firmSelfTradePrevention = Objects.requireNonNull(firmSelfTradePrevention, "firmSelfTradePrevention");
        return this;
    }

    /** @return price bands to set at start; the shard applies those of its own symbols. */
    public List<PriceBand> priceBands()
    {
        return priceBands;
    }

    /**
     * @param priceBands price bands to set at start; the shard applies those of its own symbols.
     * @return this.
     */
    public EngineContext priceBands(final List<PriceBand> priceBands)
    {
        this.priceBands = Objects.requireNonNull(priceBands, "priceBands");
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

    /** @return the CPUs the engine agent's thread is pinned to, by role; none by default. */
    public ThreadAffinity threadAffinity()
    {
        return threadAffinity;
    }

    /**
     * @param threadAffinity the CPUs the engine agent's thread is pinned to, by role
     *                       ({@value ThreadAffinity#THREAD_AFFINITY_PROP_NAME}).
     * @return this.
     */
    public EngineContext threadAffinity(final ThreadAffinity threadAffinity)
    {
        this.threadAffinity = threadAffinity;
        return this;
    }

    /** @return where the engine agent runs: by default a thread of its own. */
    public AgentHost agentHost()
    {
        return agentHost;
    }

    /**
     * @param agentHost where the engine agent runs, e.g. a {@link io.bourse.common.aeron.SharedAgentThread} it shares
     *                  with the other services of an embedded exchange (which then idles with its own strategy).
     * @return this.
     */
    public EngineContext agentHost(final AgentHost agentHost)
    {
        this.agentHost = agentHost;
        return this;
    }

    /** @return the event archive, which records the shard's event stream when enabled. */
    public EventArchive eventArchive()
    {
        return eventArchive;
    }

    /**
     * @param eventArchive the event archive (default {@link EventArchive#DISABLED}).
     * @return this.
     */
    public EngineContext eventArchive(final EventArchive eventArchive)
    {
        this.eventArchive = eventArchive;
        return this;
    }

    /** @return the wall clock whose time at start begins the run's numbering; the system's by default. */
    public EpochNanoClock epochClock()
    {
        return epochClock;
    }

    /**
     * @param epochClock the wall clock, ns since the Unix epoch, whose time at start, in units of 100 ns, the run's
     *                   order reference numbers and match numbers continue from
     *                   ({@link StartConfiguration#startNumbering}).
     * @return this.
     */
    public EngineContext epochClock(final EpochNanoClock epochClock)
    {
        this.epochClock = epochClock;
        return this;
    }

    /** @return the monotonic clock the commands' service time is read from; {@link System#nanoTime()} by default. */
    public NanoClock serviceTimeClock()
    {
        return serviceTimeClock;
    }

    /**
     * @param serviceTimeClock the monotonic clock, in ns, that {@code bourse_engine_service_time_seconds} is read from
     *                         ({@link CommandAdapter}).
     * @return this.
     */
    public EngineContext serviceTimeClock(final NanoClock serviceTimeClock)
    {
        this.serviceTimeClock = serviceTimeClock;
        return this;
    }
}
