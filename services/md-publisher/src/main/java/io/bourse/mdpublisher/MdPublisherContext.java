package io.bourse.mdpublisher;

import io.bourse.common.aeron.AgentLaunch;
import io.bourse.common.aeron.StreamLayout;
import io.bourse.common.config.Settings;
import io.bourse.common.config.SymbolDirectory;
import io.bourse.common.metrics.MetricsServer;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.IdleStrategy;

import java.util.function.Supplier;

/**
 * Configuration of the md-publisher: where the engine event streams and the market-data stream are, which symbols
 * exist, the metrics endpoint and the agent's tuning. Settings {@code bourse.mdpublisher.*} (environment
 * {@code BOURSE_MDPUBLISHER_*}) plus the shared stream layout and symbol list.
 */
public final class MdPublisherContext
{
    /** Port of the Prometheus endpoint. */
    public static final String METRICS_PORT_PROP_NAME = "bourse.mdpublisher.metrics.port";
    /** Default metrics port (DESIGN.md). */
    public static final int METRICS_PORT_DEFAULT = 9402;
    /** Most events read from one shard's stream per duty cycle. */
    public static final String FRAGMENT_LIMIT_PROP_NAME = "bourse.mdpublisher.fragment.limit";
    /** Default fragment limit. */
    public static final int FRAGMENT_LIMIT_DEFAULT = 256;
    /** Attempts after a back-pressured offer before the message is given up (a gap in the feed). */
    public static final String OFFER_RETRIES_PROP_NAME = "bourse.mdpublisher.offer.retries";
    /** Default retries: with the back-off below, at most about 10 ms per message. */
    public static final int OFFER_RETRIES_DEFAULT = 100;

    private StreamLayout layout;
    private SymbolDirectory symbolDirectory;
    private int metricsPort = METRICS_PORT_DEFAULT;
    private boolean jvmMetrics = true;
    private int fragmentLimit = FRAGMENT_LIMIT_DEFAULT;
    private int offerRetries = OFFER_RETRIES_DEFAULT;
    private Supplier<IdleStrategy> idleStrategySupplier;

    /**
     * @param settings source of every setting.
     * @return a context with every field read from the settings or defaulted.
     * @throws IllegalArgumentException naming a setting that is not a valid value.
     */
    public static MdPublisherContext fromSettings(final Settings settings)
    {
        return new MdPublisherContext()
            .layout(StreamLayout.fromSettings(settings))
            .symbolDirectory(SymbolDirectory.fromSettings(settings))
            .metricsPort(settings.getInt(METRICS_PORT_PROP_NAME, METRICS_PORT_DEFAULT))
            .jvmMetrics(MetricsServer.jvmMetrics(settings))
            .fragmentLimit(settings.getInt(FRAGMENT_LIMIT_PROP_NAME, FRAGMENT_LIMIT_DEFAULT))
            .offerRetries(settings.getInt(OFFER_RETRIES_PROP_NAME, OFFER_RETRIES_DEFAULT))
            .idleStrategySupplier(() -> AgentLaunch.idleStrategy(settings));
    }

    /**
     * Checks every field, defaulting the idle strategy to back-off when unset.
     *
     * @return this.
     * @throws IllegalStateException naming the first field that is missing or out of range.
     */
    public MdPublisherContext conclude()
    {
        if (null == layout)
        {
            throw new IllegalStateException("layout must be set");
        }
        if (null == symbolDirectory)
        {
            throw new IllegalStateException("symbolDirectory must be set");
        }
        if (metricsPort < 0 || metricsPort > 65535)
        {
            throw new IllegalStateException(METRICS_PORT_PROP_NAME + " must be 0..65535: " + metricsPort);
        }
        if (fragmentLimit <= 0)
        {
            throw new IllegalStateException(FRAGMENT_LIMIT_PROP_NAME + " must be positive: " + fragmentLimit);
        }
        if (offerRetries < 0)
        {
            throw new IllegalStateException(OFFER_RETRIES_PROP_NAME + " must not be negative: " + offerRetries);
        }
        if (null == idleStrategySupplier)
        {
            idleStrategySupplier = BackoffIdleStrategy::new;
        }
        return this;
    }

    /** @return the Aeron directory, channels and stream ids. */
    public StreamLayout layout()
    {
        return layout;
    }

    /**
     * @param layout the Aeron directory, channels and stream ids.
     * @return this.
     */
    public MdPublisherContext layout(final StreamLayout layout)
    {
        this.layout = layout;
        return this;
    }

    /** @return the symbols and their shards. */
    public SymbolDirectory symbolDirectory()
    {
        return symbolDirectory;
    }

    /**
     * @param symbolDirectory the symbols and their shards; one event stream is read per shard.
     * @return this.
     */
    public MdPublisherContext symbolDirectory(final SymbolDirectory symbolDirectory)
    {
        this.symbolDirectory = symbolDirectory;
        return this;
    }

    /** @return port of the Prometheus endpoint, 0 for any free port. */
    public int metricsPort()
    {
        return metricsPort;
    }

    /**
     * @param metricsPort port of the Prometheus endpoint, 0 for any free port.
     * @return this.
     */
    public MdPublisherContext metricsPort(final int metricsPort)
    {
        this.metricsPort = metricsPort;
        return this;
    }

    /** @return true when the endpoint exports the JVM metrics too. */
    public boolean jvmMetrics()
    {
        return jvmMetrics;
    }

    /**
     * @param jvmMetrics true to export the JVM metrics too (one service per JVM should).
     * @return this.
     */
    public MdPublisherContext jvmMetrics(final boolean jvmMetrics)
    {
        this.jvmMetrics = jvmMetrics;
        return this;
    }

    /** @return most events read from one stream per duty cycle. */
    public int fragmentLimit()
    {
        return fragmentLimit;
    }

    /**
     * @param fragmentLimit most events read from one stream per duty cycle.
     * @return this.
     */
    public MdPublisherContext fragmentLimit(final int fragmentLimit)
    {
        this.fragmentLimit = fragmentLimit;
        return this;
    }

    /** @return attempts after a back-pressured offer. */
    public int offerRetries()
    {
        return offerRetries;
    }

    /**
     * @param offerRetries attempts after a back-pressured offer before the message is given up.
     * @return this.
     */
    public MdPublisherContext offerRetries(final int offerRetries)
    {
        this.offerRetries = offerRetries;
        return this;
    }

    /** @return makes the agent's idle strategy. */
    public Supplier<IdleStrategy> idleStrategySupplier()
    {
        return idleStrategySupplier;
    }

    /**
     * @param idleStrategySupplier makes the agent's idle strategy.
     * @return this.
     */
    public MdPublisherContext idleStrategySupplier(final Supplier<IdleStrategy> idleStrategySupplier)
    {
        this.idleStrategySupplier = idleStrategySupplier;
        return this;
    }
}
