package io.bourse.common.metrics;

import io.bourse.common.config.Settings;
import io.prometheus.metrics.exporter.httpserver.HTTPServer;
import io.prometheus.metrics.instrumentation.jvm.JvmMetrics;
import io.prometheus.metrics.model.registry.PrometheusRegistry;

import java.io.IOException;

/**
 * One service's Prometheus endpoint: serves its registry in the text format on {@code http://host:port/metrics}.
 * Each service owns its registry, so several services in one JVM (the embedded mode) keep their metrics apart.
 */
public final class MetricsServer implements AutoCloseable
{
    /** Setting: whether a service exports JVM metrics (heap, GC, threads) beside its own; default true. */
    public static final String JVM_METRICS_PROP_NAME = "bourse.metrics.jvm";

    private final PrometheusRegistry registry;
    private final HTTPServer server;

    private MetricsServer(final PrometheusRegistry registry, final HTTPServer server)
    {
        this.registry = registry;
        this.server = server;
    }

    /**
     * Starts serving.
     *
     * @param port       TCP port (DESIGN.md: 9400 media driver, 9401 gateway, 9402 md-publisher, 9403 fanout,
     *                   9404 simulator, 9410 + k engine shard k); 0 picks a free port.
     * @param withJvm    true to add the JVM metrics (heap, GC, threads); one service per JVM should.
     * @return the running server with an empty registry for the service to fill.
     * @throws IOException when the port cannot be bound.
     */
    public static MetricsServer start(final int port, final boolean withJvm) throws IOException
    {
        final PrometheusRegistry registry = new PrometheusRegistry();
        if (withJvm)
        {
            JvmMetrics.builder().register(registry);
        }
        final HTTPServer server = HTTPServer.builder().port(port).registry(registry).buildAndStart();
        return new MetricsServer(registry, server);
    }

    /**
     * @param settings where to read {@value #JVM_METRICS_PROP_NAME}.
     * @return true unless the setting is {@code false}; one service per JVM should export the JVM metrics.
     */
    public static boolean jvmMetrics(final Settings settings)
    {
        return Boolean.parseBoolean(settings.get(JVM_METRICS_PROP_NAME, "true"));
    }

    /** @return the registry to register the service's metrics with. */
    public PrometheusRegistry registry()
    {
        return registry;
    }

    /** @return the bound port. */
    public int port()
    {
        return server.getPort();
    }

    /** Stops serving. */
    @Override
    public void close()
    {
        server.close();
    }
}
