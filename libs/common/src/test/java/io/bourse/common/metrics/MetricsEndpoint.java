package io.bourse.common.metrics;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

/** Test fixture: reads a service's {@code /metrics} page ({@link MetricsServer}) as Prometheus scrapes it. */
public final class MetricsEndpoint
{
    private MetricsEndpoint()
    {
    }

    /**
     * @param metricsPort the service's metrics port on the loopback interface.
     * @return the body of {@code http://127.0.0.1:port/metrics}: the text exposition format.
     * @throws Exception when the request fails or is interrupted.
     */
    public static String scrape(final int metricsPort) throws Exception
    {
        try (HttpClient http = HttpClient.newHttpClient())
        {
            return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + metricsPort + "/metrics")).build(),
                HttpResponse.BodyHandlers.ofString()).body();
        }
    }
}
