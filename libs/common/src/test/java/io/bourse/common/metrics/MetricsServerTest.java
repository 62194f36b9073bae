package io.bourse.common.metrics;

import io.bourse.common.config.Settings;
import io.prometheus.metrics.core.metrics.Counter;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

@Timeout(30)
class MetricsServerTest
{
    private final HttpClient client = HttpClient.newHttpClient();
    private MetricsServer server;

    @BeforeEach
    void start() throws IOException
    {
        server = MetricsServer.start(0, false);
    }

    @AfterEach
    void stop()
    {
        server.close();
        client.close();
    }

    @Test
    void shouldAnswerNotReadyUntilTheServiceSetsItsReadinessThenWhatItReports() throws Exception
    {
        assertThat(get("/ready")).isEqualTo("503 not ready: starting\n");

        final String[] reason = {"engine shard 1 has not subscribed to command stream 1001"};
        server.readiness(() -> reason[0]);
        assertThat(get("/ready")).isEqualTo("503 not ready: engine shard 1 has not subscribed to command stream 1001\n");

        reason[0] = null;
        assertThat(get("/ready")).isEqualTo("200 ready\n");

        server.readiness(Readiness.READY);
        assertThat(get("/ready")).isEqualTo("200 ready\n");
    }

    @Test
    void shouldServeTheMetricsBesideTheReadinessAndNothingElse() throws Exception
    {
        Counter.builder().name("test_orders_total").help("test").register(server.registry()).inc(3);
        server.readiness(Readiness.READY);

        assertThat(get("/metrics")).startsWith("200 ").contains("test_orders_total 3.0");
        assertThat(get("/-/healthy")).startsWith("200 ");
        assertThat(get("/")).startsWith("200 /metrics:").contains("/ready");
        assertThat(get("/readyz")).isEqualTo("404 not found: /readyz\n");
        assertThat(client.send(HttpRequest.newBuilder(uri("/ready")).HEAD().build(),
            HttpResponse.BodyHandlers.ofString()).statusCode()).isEqualTo(200);
    }

    @Test
    void shouldExportTheJvmMetricsUnlessTheSettingIsFalseAndRefuseAnotherValue()
    {
        assertThat(MetricsServer.jvmMetrics(new Settings(Map.of()))).isTrue();
        assertThat(MetricsServer.jvmMetrics(new Settings(Map.of("BOURSE_METRICS_JVM", "false")))).isFalse();
        assertThatThrownBy(() -> MetricsServer.jvmMetrics(new Settings(Map.of("BOURSE_METRICS_JVM", "no"))))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessage("bourse.metrics.jvm (BOURSE_METRICS_JVM) must be true or false: no");
    }

    private String get(final String path) throws IOException, InterruptedException
    {
        final HttpResponse<String> response =
            client.send(HttpRequest.newBuilder(uri(path)).GET().build(), HttpResponse.BodyHandlers.ofString());
        return response.statusCode() + " " + response.body();
    }

    private URI uri(final String path)
    {
        return URI.create("http://127.0.0.1:" + server.port() + path);
    }
}
