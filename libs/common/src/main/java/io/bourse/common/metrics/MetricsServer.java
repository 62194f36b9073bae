package io.bourse.common.metrics;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import io.bourse.common.config.Settings;
import io.prometheus.metrics.exporter.httpserver.HTTPServer;
import io.prometheus.metrics.instrumentation.jvm.JvmMetrics;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import org.agrona.CloseHelper;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

/**
 * One service's HTTP endpoint: its Prometheus registry in the text format on {@code http://host:port/metrics}, and its
 * {@link Readiness} on {@code /ready}: {@code 200 ready}, or {@code 503} with the reason (also while the service is
 * still starting, until it sets its readiness), which the compose file's health checks and load balancers read.
 * {@code /-/healthy} (the Prometheus client's) answers 200 as long as the server runs. Each service owns its registry,
 * so several services in one JVM (the embedded mode) keep their metrics apart.
 */
public final class MetricsServer implements AutoCloseable
{
    /** Setting: whether a service exports JVM metrics (heap, GC, threads) beside its own; default true. */
    public static final String JVM_METRICS_PROP_NAME = "bourse.metrics.jvm";
    /** Path of the readiness answer. */
    public static final String READY_PATH = "/ready";

    private final PrometheusRegistry registry;
    private final HTTPServer server;
    private final ReadinessHandler readinessHandler;
    private final GcPauseMetrics gcPauses;

    private MetricsServer(
        final PrometheusRegistry registry,
        final HTTPServer server,
        final ReadinessHandler readinessHandler,
        final GcPauseMetrics gcPauses)
    {
        this.registry = registry;
        this.server = server;
        this.readinessHandler = readinessHandler;
        this.gcPauses = gcPauses;
    }

    /**
     * Starts serving.
     *
     * @param port       TCP port (DESIGN.md: 9400 media driver, 9401 gateway, 9402 md-publisher, 9403 fanout,
     *                   9404 simulator, 9410 + k engine shard k); 0 picks a free port.
     * @param withJvm    true to add the JVM metrics (heap, GC, threads, and the GC pauses of {@link GcPauseMetrics});
     *                   one service per JVM should.
     * @return the running server with an empty registry for the service to fill.
     * @throws IOException when the port cannot be bound.
     */
    public static MetricsServer start(final int port, final boolean withJvm) throws IOException
    {
        final PrometheusRegistry registry = new PrometheusRegistry();
        GcPauseMetrics gcPauses = null;
        if (withJvm)
        {
            JvmMetrics.builder().register(registry);
            gcPauses = GcPauseMetrics.register(registry);
        }
        final ReadinessHandler readinessHandler = new ReadinessHandler();
        try
        {
            final HTTPServer server = HTTPServer.builder()
                .port(port).registry(registry).defaultHandler(readinessHandler).buildAndStart();
            return new MetricsServer(registry, server, readinessHandler, gcPauses);
        }
        catch (final IOException | RuntimeException ex)
        {
            CloseHelper.quietClose(gcPauses);
            throw ex;
        }
    }

    /**
     * @param settings where to read {@value #JVM_METRICS_PROP_NAME}.
     * @return true unless the setting is {@code false}; one service per JVM should export the JVM metrics.
     * @throws IllegalArgumentException naming the setting when it is neither {@code true} nor {@code false}.
     */
    public static boolean jvmMetrics(final Settings settings)
    {
        return settings.getBoolean(JVM_METRICS_PROP_NAME, true);
    }

    /** @return the registry to register the service's metrics with. */
    public PrometheusRegistry registry()
    {
        return registry;
    }

    /**
     * Sets what {@value #READY_PATH} reports from now on; until a service sets it, the answer is 503 "starting".
     *
     * @param readiness the service's check, called on the server's thread per request.
     */
    public void readiness(final Readiness readiness)
    {
        readinessHandler.readiness = readiness;
    }

    /** @return the bound port. */
    public int port()
    {
        return server.getPort();
    }

    /** Stops serving, and listening to the GC notifications. */
    @Override
    public void close()
    {
        CloseHelper.closeAll(server, gcPauses);
    }

    /** Serves {@value #READY_PATH}, a short index on {@code /}, and 404 elsewhere. */
    private static final class ReadinessHandler implements HttpHandler
    {
        private static final Readiness STARTING = () -> "starting";

        private volatile Readiness readiness = STARTING;

        @Override
        public void handle(final HttpExchange exchange) throws IOException
        {
            try (exchange)
            {
                final String path = exchange.getRequestURI().getPath();
                if (READY_PATH.equals(path))
                {
                    final String reason = readiness.notReadyReason();
                    answer(exchange, null == reason ? 200 : 503, null == reason ? "ready" : "not ready: " + reason);
                }
                else if ("/".equals(path))
                {
                    answer(exchange, 200, "/metrics: Prometheus text format\n" + READY_PATH +
                        ": 200 when the service can do its work, else 503 and why\n/-/healthy: 200 while this runs");
                }
                else
                {
                    answer(exchange, 404, "not found: " + path);
                }
            }
        }

        private static void answer(final HttpExchange exchange, final int status, final String text) throws IOException
        {
            final byte[] body = (text + "\n").getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", "text/plain; charset=utf-8");
            if ("HEAD".equals(exchange.getRequestMethod()))
            {
                exchange.sendResponseHeaders(status, -1);
                return;
            }
            exchange.sendResponseHeaders(status, body.length);
            try (OutputStream out = exchange.getResponseBody())
            {
                out.write(body);
            }
        }
    }
}
