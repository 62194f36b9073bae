package io.bourse.common.metrics;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** Test fixture: polls a service's {@code /ready} ({@link MetricsServer}) until it gives the expected answer. */
public final class ReadyEndpoint
{
    /** Longest wait for the expected answer. */
    public static final long TIMEOUT_SECONDS = 15;

    private ReadyEndpoint()
    {
    }

    /**
     * Asks {@code http://127.0.0.1:port/ready} every 10 ms until it answers the expected status and text, for up to
     * {@value #TIMEOUT_SECONDS} s.
     *
     * @param metricsPort the service's metrics port.
     * @param expected    status, a space and the body, e.g. {@code "200 ready\n"}.
     * @throws AssertionError naming the last answer when the expected one did not come in time.
     * @throws Exception      when the request fails or the wait is interrupted.
     */
    public static void awaitAnswer(final int metricsPort, final String expected) throws Exception
    {
        final HttpRequest request =
            HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + metricsPort + MetricsServer.READY_PATH)).build();
        final long deadlineNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(TIMEOUT_SECONDS);
        String answer;
        try (HttpClient http = HttpClient.newHttpClient())
        {
            answer = statusAndBody(http, request);
            while (!expected.equals(answer) && System.nanoTime() - deadlineNs < 0)
            {
                Thread.sleep(10);
                answer = statusAndBody(http, request);
            }
        }
        assertThat(answer).isEqualTo(expected);
    }

    private static String statusAndBody(final HttpClient http, final HttpRequest request) throws Exception
    {
        final HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
        return response.statusCode() + " " + response.body();
    }
}
