package io.bourse.common.metrics;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

@Timeout(30)
class GcPauseMetricsTest
{
    private static final String YOUNG = "G1 Young Generation";
    private static final String REMARK_AND_CLEANUP = "G1 Concurrent GC";
    private static final long T0 = 5_000_000_000L;
    private static final long SECOND = 1_000_000_000L;

    private MetricsServer server;
    private long nowNs = T0;

    @BeforeEach
    void start() throws IOException
    {
        server = MetricsServer.start(0, false);
    }

    @AfterEach
    void stop()
    {
        server.close();
    }

    @Test
    void shouldExportEveryCollectorThatPausesAtZeroBeforeItsFirstPause() throws Exception
    {
        new GcPauseMetrics(server.registry(), List.of(YOUNG, REMARK_AND_CLEANUP, "ZGC Major Cycles"), () -> nowNs);

        assertThat(MetricsEndpoint.scrape(server.port()))
            .containsPattern(line("bourse_jvm_gc_pause_max_seconds{gc=\"G1 Young Generation\"}", "0.0"))
            .containsPattern(line("bourse_jvm_gc_pause_max_seconds{gc=\"G1 Concurrent GC\"}", "0.0"))
            .containsPattern(line("bourse_jvm_gc_pause_seconds_count{gc=\"G1 Young Generation\"}", "0"))
            .containsPattern(line("bourse_jvm_gc_pause_seconds_count{gc=\"G1 Concurrent GC\"}", "0"))
            .doesNotContain("ZGC Major Cycles");
    }

    @Test
    void shouldExportTheLongestPauseOfTheLastMinuteAndEveryPauseInTheHistogram() throws Exception
    {
        final GcPauseMetrics metrics = new GcPauseMetrics(server.registry(), List.of(YOUNG, REMARK_AND_CLEANUP),
            () -> nowNs);
        metrics.onPause(YOUNG, 7, T0);
        metrics.onPause(YOUNG, 3, T0 + SECOND);
        metrics.onPause(REMARK_AND_CLEANUP, 1, T0 + SECOND);

        nowNs = T0 + 2 * SECOND;
        assertThat(MetricsEndpoint.scrape(server.port()))
            .containsPattern(line("bourse_jvm_gc_pause_max_seconds{gc=\"G1 Young Generation\"}", "0.007"))
            .containsPattern(line("bourse_jvm_gc_pause_max_seconds{gc=\"G1 Concurrent GC\"}", "0.001"))
            .containsPattern(line("bourse_jvm_gc_pause_seconds_bucket{gc=\"G1 Young Generation\",le=\"0.002\"}", "0"))
            .containsPattern(line("bourse_jvm_gc_pause_seconds_bucket{gc=\"G1 Young Generation\",le=\"0.005\"}", "1"))
            .containsPattern(line("bourse_jvm_gc_pause_seconds_bucket{gc=\"G1 Young Generation\",le=\"0.01\"}", "2"))
            .containsPattern(line("bourse_jvm_gc_pause_seconds_count{gc=\"G1 Young Generation\"}", "2"))
            .containsPattern(line("bourse_jvm_gc_pause_seconds_sum{gc=\"G1 Young Generation\"}", "0.01"));

        nowNs = T0 + (GcPauseMetrics.WINDOW_SECONDS + 1) * SECOND; // the 7 ms pause ended more than a minute ago
        assertThat(MetricsEndpoint.scrape(server.port()))
            .containsPattern(line("bourse_jvm_gc_pause_max_seconds{gc=\"G1 Young Generation\"}", "0.003"))
            .containsPattern(line("bourse_jvm_gc_pause_max_seconds{gc=\"G1 Concurrent GC\"}", "0.001"));

        nowNs = T0 + (GcPauseMetrics.WINDOW_SECONDS + 2) * SECOND;
        assertThat(MetricsEndpoint.scrape(server.port()))
            .containsPattern(line("bourse_jvm_gc_pause_max_seconds{gc=\"G1 Young Generation\"}", "0.0"))
            .containsPattern(line("bourse_jvm_gc_pause_seconds_count{gc=\"G1 Young Generation\"}", "2"));
    }

    @Test
    void shouldKeepALaterLongerPauseAfterAnEarlierShorterOneLeavesTheWindow() throws Exception
    {
        final GcPauseMetrics metrics = new GcPauseMetrics(server.registry(), List.of(YOUNG), () -> nowNs);
        metrics.onPause(YOUNG, 2, T0);
        metrics.onPause(YOUNG, 9, T0 + 30 * SECOND);
        metrics.onPause(YOUNG, 4, T0 + 40 * SECOND);

        nowNs = T0 + (GcPauseMetrics.WINDOW_SECONDS + 35) * SECOND;
        assertThat(MetricsEndpoint.scrape(server.port()))
            .containsPattern(line("bourse_jvm_gc_pause_max_seconds{gc=\"G1 Young Generation\"}", "0.004"));
    }

    @Test
    void shouldRecordThePausesOfThisJvmsCollectorsFromTheirNotifications() throws Exception
    {
        try (MetricsServer withJvm = MetricsServer.start(0, true))
        {
            final long deadlineNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            String metrics;
            do
            {
                System.gc();
                Thread.sleep(50);
                metrics = MetricsEndpoint.scrape(withJvm.port());
                assertThat(System.nanoTime()).as("a GC pause recorded in " + metrics).isLessThan(deadlineNs);
            }
            while (pauseCount(metrics) == 0);

            assertThat(metrics).contains("bourse_jvm_gc_pause_max_seconds{gc=\"")
                .contains("jvm_gc_collection_seconds_count{gc=\"");
        }
    }

    /** @return a pattern of a whole line of the text format: the series and exactly that value. */
    private static String line(final String series, final String value)
    {
        return "(?m)^" + Pattern.quote(series) + " " + Pattern.quote(value) + "$";
    }

    private static long pauseCount(final String metrics)
    {
        long count = 0;
        final Matcher matcher = Pattern.compile("(?m)^bourse_jvm_gc_pause_seconds_count\\{gc=\"[^\"]+\"} (\\d+)$")
            .matcher(metrics);
        while (matcher.find())
        {
            count += Long.parseLong(matcher.group(1));
        }
        return count;
    }
}
