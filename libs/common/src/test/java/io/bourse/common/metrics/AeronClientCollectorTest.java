package io.bourse.common.metrics;

import io.aeron.Aeron;
import io.aeron.Publication;
import io.aeron.Subscription;
import io.aeron.driver.MediaDriver;
import io.bourse.common.aeron.EmbeddedMediaDriver;
import io.prometheus.metrics.model.snapshots.DataPointSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import org.agrona.CloseHelper;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.List;
import java.util.concurrent.locks.LockSupport;

import static org.assertj.core.api.Assertions.assertThat;

/** Against a real media driver: a publishing client and a subscribing "service" client on one IPC stream. */
@Timeout(30)
class AeronClientCollectorTest
{
    private static final int STREAM_ID = 4242;
    private static final int MESSAGE_LENGTH = 96;
    private static final int MESSAGES = 10;

    private final MediaDriver driver = EmbeddedMediaDriver.launch("aeron-client-collector");
    private final Aeron producer = connect("producer");
    private final Aeron service = connect("service");

    @AfterEach
    void close()
    {
        CloseHelper.closeAll(service, producer, driver);
    }

    @Test
    void shouldExportTheServicesOwnCountersAndTheBytesItHasNotReadYet()
    {
        final Publication publication = producer.addPublication("aeron:ipc", STREAM_ID);
        final Subscription subscription = service.addSubscription("aeron:ipc", STREAM_ID);
        final AeronClientCollector collector = new AeronClientCollector(service, List.of(subscription));
        while (!publication.isConnected() || !subscription.isConnected())
        {
            LockSupport.parkNanos(1_000_000);
        }
        final UnsafeBuffer message = new UnsafeBuffer(new byte[MESSAGE_LENGTH]);
        for (int i = 0; i < MESSAGES; i++)
        {
            while (publication.offer(message) < 0)
            {
                LockSupport.parkNanos(1_000);
            }
        }
        final long written = publication.position();

        assertThat(awaitLag(collector, written)).as("lag before reading").isEqualTo(written);
        final List<String> labels = gauge(collector.collect(), "bourse_aeron_client_counter").getDataPoints().stream()
            .map((point) -> point.getLabels().get("label")).toList();
        assertThat(labels).anyMatch((label) -> label.startsWith("sub-pos"))
            .anyMatch((label) -> label.startsWith("client-heartbeat"))
            .noneMatch((label) -> label.startsWith("pub-lmt"));

        int read = 0;
        while (read < MESSAGES)
        {
            read += subscription.poll((buffer, offset, length, header) -> { }, MESSAGES);
        }
        assertThat(awaitLag(collector, 0)).as("lag after reading").isZero();
    }

    @Test
    void shouldExportNothingOnceTheClientIsClosed()
    {
        final Subscription subscription = service.addSubscription("aeron:ipc", STREAM_ID);
        final AeronClientCollector collector = new AeronClientCollector(service, List.of(subscription));
        assertThat(gauge(collector.collect(), "bourse_aeron_client_counter").getDataPoints()).isNotEmpty();

        service.close();

        final MetricSnapshots snapshots = collector.collect();
        assertThat(gauge(snapshots, "bourse_aeron_client_counter").getDataPoints()).isEmpty();
        assertThat(gauge(snapshots, "bourse_aeron_subscriber_lag_bytes").getDataPoints()).isEmpty();
    }

    /** @return the lag once it is the expected value (the publisher position is sampled), or the last one seen. */
    private static double awaitLag(final AeronClientCollector collector, final long expected)
    {
        final long deadlineNs = System.nanoTime() + 10_000_000_000L;
        double lag;
        do
        {
            final List<? extends DataPointSnapshot> points =
                gauge(collector.collect(), "bourse_aeron_subscriber_lag_bytes").getDataPoints();
            assertThat(points).hasSize(1);
            assertThat(points.getFirst().getLabels().get("stream")).isEqualTo(Integer.toString(STREAM_ID));
            lag = ((GaugeSnapshot.GaugeDataPointSnapshot)points.getFirst()).getValue();
            LockSupport.parkNanos(1_000_000);
        }
        while (lag != expected && System.nanoTime() < deadlineNs);
        return lag;
    }

    private static MetricSnapshot gauge(final MetricSnapshots snapshots, final String name)
    {
        return snapshots.stream().filter((snapshot) -> snapshot.getMetadata().getPrometheusName().equals(name))
            .findFirst().orElseThrow();
    }

    private Aeron connect(final String name)
    {
        return Aeron.connect(new Aeron.Context().aeronDirectoryName(driver.aeronDirectoryName()).clientName(name));
    }
}
