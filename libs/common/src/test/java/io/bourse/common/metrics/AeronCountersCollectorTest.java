package io.bourse.common.metrics;

import io.aeron.Aeron;
import io.aeron.AeronCounters;
import io.aeron.Publication;
import io.aeron.Subscription;
import io.aeron.driver.MediaDriver;
import io.aeron.driver.status.SystemCounterDescriptor;
import io.bourse.common.aeron.EmbeddedMediaDriver;
import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.DataPointSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import org.agrona.CloseHelper;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.CountersManager;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/** Against a real media driver's counters, and against counters allocated as the driver allocates its own. */
@Timeout(30)
class AeronCountersCollectorTest
{
    private final MediaDriver driver = EmbeddedMediaDriver.launch("aeron-counters-collector");
    private final Aeron aeron = Aeron.connect(new Aeron.Context().aeronDirectoryName(driver.aeronDirectoryName()));

    @AfterEach
    void close()
    {
        CloseHelper.closeAll(aeron, driver);
    }

    @Test
    void shouldExportCountsOfEventsAsACounterAndEveryOtherDriverCounterAsAGauge()
    {
        final Publication publication = aeron.addExclusivePublication("aeron:ipc", 4343);
        final MetricSnapshots snapshots = new AeronCountersCollector(aeron.countersReader()).collect();

        final Map<String, String> gauges = labelsToType(snapshot(snapshots, GaugeSnapshot.class));
        final Map<String, String> events = labelsToType(snapshot(snapshots, CounterSnapshot.class));
        assertThat(events.keySet()).anyMatch((label) -> label.startsWith("Errors"))
            .contains("NAKs sent", "Unblocked Publications", "Client liveness timeouts", "Bytes sent");
        assertThat(gauges).containsEntry("Bytes currently mapped", "0")
            .containsKey("pub-lmt: " + publication.registrationId() + " " + publication.sessionId() + " 4343 aeron:ipc")
            .containsValue(Integer.toString(AeronCounters.DRIVER_PUBLISHER_POS_TYPE_ID))
            .containsValue(Integer.toString(AeronCounters.DRIVER_HEARTBEAT_TYPE_ID));
        assertThat(gauges.keySet()).anyMatch((label) -> label.startsWith("Conductor max cycle time"));
        assertThat(events.keySet()).doesNotContainAnyElementsOf(gauges.keySet());
        assertThat(events).allSatisfy((label, type) -> assertThat(type).isEqualTo("0"));
    }

    @Test
    void shouldNameTheClientThatOwnsACounter()
    {
        try (Aeron fanout = Aeron.connect(new Aeron.Context()
            .aeronDirectoryName(driver.aeronDirectoryName()).clientName("fanout 1")))
        {
            final Subscription subscription = fanout.addSubscription("aeron:ipc", 4344);
            final Publication publication = aeron.addExclusivePublication("aeron:ipc", 4344);
            final AeronCountersCollector collector = new AeronCountersCollector(aeron.countersReader());
            final String subscriberPosition = "sub-pos: " + subscription.registrationId() + " " +
                publication.sessionId() + " 4344 aeron:ipc @0";

            // A client writes its name into its heartbeat counter's label a moment after it connects.
            Map<String, String> clients = labelsToClient(snapshot(collector.collect(), GaugeSnapshot.class));
            while (!"fanout 1".equals(clients.get(subscriberPosition)))
            {
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(10));
                clients = labelsToClient(snapshot(collector.collect(), GaugeSnapshot.class));
            }

            assertThat(clients).containsEntry(
                "pub-lmt: " + publication.registrationId() + " " + publication.sessionId() + " 4344 aeron:ipc",
                "id=" + aeron.clientId());
            assertThat(clients.entrySet()).filteredOn((entry) -> entry.getKey().startsWith("client-heartbeat"))
                .extracting(Map.Entry::getValue)
                .containsExactlyInAnyOrder("fanout 1", "id=" + aeron.clientId());
            assertThat(clients).doesNotContainKey("Bytes currently mapped")
                .containsKey("Bytes currently mapped (no client)");
        }
    }

    @Test
    void shouldTakeEverySystemCounterButItsGaugesAndTheStreamsEventCountersForCountsOfEvents()
    {
        final CountersManager counters = new CountersManager(
            new UnsafeBuffer(ByteBuffer.allocateDirect(1 << 20)), new UnsafeBuffer(ByteBuffer.allocateDirect(1 << 18)));
        for (final SystemCounterDescriptor descriptor : SystemCounterDescriptor.values())
        {
            descriptor.newCounter(counters);
        }
        counters.newCounter("snd-bpe", AeronCounters.DRIVER_SENDER_BPE_TYPE_ID);
        counters.newCounter("snd-naks-received", AeronCounters.DRIVER_SENDER_NAKS_RECEIVED_TYPE_ID);
        counters.newCounter("rcv-naks-sent", AeronCounters.DRIVER_RECEIVER_NAKS_SENT_TYPE_ID);
        counters.newCounter("sub-pos", AeronCounters.DRIVER_SUBSCRIBER_POSITION_TYPE_ID);
        counters.newCounter("archive-errors", AeronCounters.ARCHIVE_ERROR_COUNT_TYPE_ID);
        counters.newCounter("archive-recorder-bytes-written", AeronCounters.ARCHIVE_RECORDER_TOTAL_WRITE_BYTES_TYPE_ID);
        counters.newCounter("archive-recording-sessions", AeronCounters.ARCHIVE_RECORDING_SESSION_COUNT_TYPE_ID);
        counters.newCounter("negative count", AeronCounters.DRIVER_SENDER_BPE_TYPE_ID).set(-1);

        final MetricSnapshots snapshots = new AeronCountersCollector(counters).collect();

        // A new Aeron's new system counters are to be sorted into counts of events and gauges by hand.
        assertThat(SystemCounterDescriptor.values()).as("Aeron 1.51's system counters").hasSize(46);
        final Set<SystemCounterDescriptor> gauges = EnumSet.of(
            SystemCounterDescriptor.CONTROLLABLE_IDLE_STRATEGY,
            SystemCounterDescriptor.CONDUCTOR_MAX_CYCLE_TIME,
            SystemCounterDescriptor.SENDER_MAX_CYCLE_TIME,
            SystemCounterDescriptor.RECEIVER_MAX_CYCLE_TIME,
            SystemCounterDescriptor.NAME_RESOLVER_MAX_TIME,
            SystemCounterDescriptor.AERON_VERSION,
            SystemCounterDescriptor.BYTES_CURRENTLY_MAPPED,
            SystemCounterDescriptor.CONTROL_PROTOCOL_VERSION);
        final List<String> expectedEvents = Arrays.stream(SystemCounterDescriptor.values())
            .filter((descriptor) -> !gauges.contains(descriptor))
            .map(SystemCounterDescriptor::label).collect(Collectors.toList());
        expectedEvents.addAll(List.of("snd-bpe", "snd-naks-received", "rcv-naks-sent", "archive-errors",
            "archive-recorder-bytes-written"));
        final List<String> expectedGauges = gauges.stream()
            .map(SystemCounterDescriptor::label).collect(Collectors.toList());
        expectedGauges.addAll(List.of("sub-pos", "archive-recording-sessions", "negative count"));
        assertThat(labelsToType(snapshot(snapshots, CounterSnapshot.class)).keySet())
            .containsExactlyInAnyOrderElementsOf(expectedEvents);
        assertThat(labelsToType(snapshot(snapshots, GaugeSnapshot.class)).keySet())
            .containsExactlyInAnyOrderElementsOf(expectedGauges);
    }

    private static MetricSnapshot snapshot(final MetricSnapshots snapshots, final Class<?> type)
    {
        final List<MetricSnapshot> ofType = snapshots.stream().filter(type::isInstance).toList();
        assertThat(ofType).as(type.getSimpleName()).hasSize(1);
        return ofType.getFirst();
    }

    /** @return each data point's Aeron label to its client label, "(no client)" appended to the key without one. */
    private static Map<String, String> labelsToClient(final MetricSnapshot snapshot)
    {
        return snapshot.getDataPoints().stream().map(DataPointSnapshot::getLabels).collect(Collectors.toMap(
            (labels) -> labels.contains("client") ? labels.get("label") : labels.get("label") + " (no client)",
            (labels) -> labels.contains("client") ? labels.get("client") : ""));
    }

    /** @return each data point's Aeron label to its Aeron type id label. */
    private static Map<String, String> labelsToType(final MetricSnapshot snapshot)
    {
        return snapshot.getDataPoints().stream().map(DataPointSnapshot::getLabels)
            .collect(Collectors.toMap((labels) -> labels.get("label"), (labels) -> labels.get("type")));
    }
}
