package io.bourse.common.metrics;

import io.aeron.Aeron;
import io.aeron.AeronCounters;
import io.aeron.Image;
import io.aeron.Subscription;
import io.prometheus.metrics.model.registry.MultiCollector;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import org.agrona.collections.Long2LongHashMap;
import org.agrona.collections.LongHashSet;
import org.agrona.concurrent.status.CountersReader;

import java.util.List;

/**
 * Exports one service's side of Aeron, read from the driver's counters at scrape time on the scrape thread:
 * <ul>
 *     <li>{@code bourse_aeron_client_counter{id,type,label}}: every counter the service's Aeron client owns (its
 *     publications' limits, its subscriptions' positions, its heartbeat), with Aeron's type id and label;</li>
 *     <li>{@code bourse_aeron_subscriber_lag_bytes{stream,session}}: per image of the service's subscriptions, the
 *     bytes its publisher has written (IPC: the sampled publisher position; UDP: the receiver's high-water mark)
 *     that the service has not read yet: the depth of that stream's queue into the service.</li>
 * </ul>
 * The media driver's own counters, all clients' included, are {@link AeronCountersCollector}'s.
 */
public final class AeronClientCollector implements MultiCollector
{
    private static final String CLIENT_COUNTER = "bourse_aeron_client_counter";
    private static final String SUBSCRIBER_LAG = "bourse_aeron_subscriber_lag_bytes";
    /** Offsets in the key of a driver stream counter: registration id (8 bytes), session id, stream id, channel. */
    private static final int SESSION_ID_KEY_OFFSET = 8;
    private static final int STREAM_ID_KEY_OFFSET = 12;

    private final Aeron aeron;
    private final List<Subscription> subscriptions;

    /**
     * @param aeron         the service's Aeron client.
     * @param subscriptions the service's subscriptions whose lag to export.
     */
    public AeronClientCollector(final Aeron aeron, final List<Subscription> subscriptions)
    {
        this.aeron = aeron;
        this.subscriptions = List.copyOf(subscriptions);
    }

    @Override
    public List<String> getPrometheusNames()
    {
        return List.of(CLIENT_COUNTER, SUBSCRIBER_LAG);
    }

    /**
     * @return both gauges; both empty once the client is closed or when its counters cannot be read, so that the
     * service's other metrics are still served (the services close their metrics server before their client).
     */
    @Override
    public MetricSnapshots collect()
    {
        if (aeron.isClosed())
        {
            return empty();
        }
        try
        {
            return read();
        }
        catch (final RuntimeException ex)
        {
            return empty();
        }
    }

    private static MetricSnapshots empty()
    {
        return MetricSnapshots.of(
            GaugeSnapshot.builder().name(CLIENT_COUNTER).build(), GaugeSnapshot.builder().name(SUBSCRIBER_LAG).build());
    }

    private MetricSnapshots read()
    {
        final CountersReader counters = aeron.countersReader();
        final long clientId = aeron.clientId();
        final GaugeSnapshot.Builder owned = GaugeSnapshot.builder()
            .name(CLIENT_COUNTER).help("Aeron counter owned by this service's client");
        final Long2LongHashMap producerPositions = new Long2LongHashMap(Long.MIN_VALUE);
        counters.forEach((counterId, typeId, keyBuffer, label) ->
        {
            if (counters.getCounterOwnerId(counterId) == clientId)
            {
                owned.dataPoint(GaugeSnapshot.GaugeDataPointSnapshot.builder()
                    .labels(Labels.of("id", Integer.toString(counterId), "type", Integer.toString(typeId),
                        "label", label))
                    .value(counters.getCounterValue(counterId))
                    .build());
            }
            if (AeronCounters.DRIVER_PUBLISHER_POS_TYPE_ID == typeId ||
                AeronCounters.DRIVER_RECEIVER_HWM_TYPE_ID == typeId)
            {
                final long key = streamKey(
                    keyBuffer.getInt(SESSION_ID_KEY_OFFSET), keyBuffer.getInt(STREAM_ID_KEY_OFFSET));
                producerPositions.put(key, Math.max(producerPositions.get(key), counters.getCounterValue(counterId)));
            }
        });

        final GaugeSnapshot.Builder lag = GaugeSnapshot.builder()
            .name(SUBSCRIBER_LAG).help("Bytes written to a stream that this service has not read yet");
        final LongHashSet exported = new LongHashSet();
        for (final Subscription subscription : subscriptions)
        {
            for (final Image image : subscription.images())
            {
                final long key = streamKey(image.sessionId(), subscription.streamId());
                final long producerPosition = producerPositions.get(key);
                // Two subscriptions of one service to one stream would give two series with the same labels.
                if (Long.MIN_VALUE != producerPosition && exported.add(key))
                {
                    lag.dataPoint(GaugeSnapshot.GaugeDataPointSnapshot.builder()
                        .labels(Labels.of("stream", Integer.toString(subscription.streamId()),
                            "session", Integer.toString(image.sessionId())))
                        .value(Math.max(0, producerPosition - image.position()))
                        .build());
                }
            }
        }
        return MetricSnapshots.of(owned.build(), lag.build());
    }

    private static long streamKey(final int sessionId, final int streamId)
    {
        return ((long)sessionId << 32) | (streamId & 0xFFFF_FFFFL);
    }
}
