package io.bourse.common.metrics;

import io.aeron.AeronCounters;
import io.aeron.driver.status.SystemCounterDescriptor;
import io.prometheus.metrics.model.registry.MultiCollector;
import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import org.agrona.DirectBuffer;
import org.agrona.collections.Long2ObjectHashMap;
import org.agrona.concurrent.status.CountersReader;

import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Exports every allocated Aeron counter of a media driver, read from its counters file at scrape time on the scrape
 * thread, with labels {@code id}, {@code type} (Aeron counter type id) and {@code label} (Aeron's own label), and for
 * a counter that an Aeron client owns (its publications' limits and positions, its subscriptions' positions, its
 * heartbeat) {@code client}: the name the client gave itself ({@code Aeron.Context.clientName}, e.g.
 * {@code order-gateway}, as its heartbeat counter's label has it), or {@code id=<client id>} for a client without
 * one, and for a client's first moment, before it has written its name into the label. Each counter goes into one of
 * two metrics by what it holds:
 * <ul>
 *     <li>the counter {@code bourse_aeron_events_total}: counts of events, which only grow while the driver runs
 *     (type 0, the driver's system counters such as errors, NAKs, back pressure and loss, except the few below; type
 *     13, a publication's back pressure events; types 19 and 20, a stream's NAKs received and sent; the event
 *     archive's errors (101), cycle-time overruns (104), and bytes and ns its recorder wrote (106, 107) and its
 *     replayer read (109, 110)), for {@code rate()};</li>
 *     <li>the gauge {@code bourse_aeron_counter}: every other counter, values of a moment (publication limits, stream
 *     positions in bytes, client heartbeats in ms, channel statuses, the archive's sessions and recording positions)
 *     and the system counters that are not counts ({@link #SYSTEM_GAUGES}: the longest duty cycles in ns, bytes
 *     currently mapped, versions, the idle strategy's state).</li>
 * </ul>
 * A count below 0, which no Aeron counter of events holds, would go to the gauge: a Prometheus counter cannot be
 * negative, and one bad value must not fail the whole scrape.
 * A position only grows too, but it is the place of a stream, which the dashboards subtract from a limit; its bytes
 * per second are {@code deriv()}.
 */
public final class AeronCountersCollector implements MultiCollector
{
    /** The gauge of counters that are not counts of events. */
    private static final String GAUGE_NAME = "bourse_aeron_counter";
    /** The counter of counts of events, exposed with the suffix {@code _total}. */
    private static final String EVENTS_NAME = "bourse_aeron_events";
    /** The driver's system counters (type 0) that hold a value of a moment, not a count of events. */
    private static final Set<SystemCounterDescriptor> SYSTEM_GAUGES = Collections.unmodifiableSet(EnumSet.of(
        SystemCounterDescriptor.CONTROLLABLE_IDLE_STRATEGY,
        SystemCounterDescriptor.CONDUCTOR_MAX_CYCLE_TIME,
        SystemCounterDescriptor.SENDER_MAX_CYCLE_TIME,
        SystemCounterDescriptor.RECEIVER_MAX_CYCLE_TIME,
        SystemCounterDescriptor.NAME_RESOLVER_MAX_TIME,
        SystemCounterDescriptor.AERON_VERSION,
        SystemCounterDescriptor.BYTES_CURRENTLY_MAPPED,
        SystemCounterDescriptor.CONTROL_PROTOCOL_VERSION));
    /** Offset of the descriptor id in a system counter's key. */
    private static final int SYSTEM_COUNTER_ID_KEY_OFFSET = 0;
    /**
     * The client's name in its heartbeat counter's label, e.g. "client-heartbeat: id=3 name=fanout version=...", or
     * "name=archive archiveId=1 version=...": a name may hold spaces.
     */
    private static final Pattern CLIENT_NAME = Pattern.compile(" name=(.+?) version=");

    private final CountersReader countersReader;

    /**
     * @param countersReader counters of the media driver (from an Aeron client or the driver context).
     */
    public AeronCountersCollector(final CountersReader countersReader)
    {
        this.countersReader = countersReader;
    }

    @Override
    public List<String> getPrometheusNames()
    {
        return List.of(GAUGE_NAME, EVENTS_NAME);
    }

    @Override
    public MetricSnapshots collect()
    {
        final GaugeSnapshot.Builder gauge = GaugeSnapshot.builder().name(GAUGE_NAME)
            .help("Aeron counter that holds a value of a moment: a position or limit in bytes, a time, a status");
        final CounterSnapshot.Builder events = CounterSnapshot.builder().name(EVENTS_NAME)
            .help("Aeron counter of events since the media driver started: errors, NAKs, back pressure, loss");
        final Long2ObjectHashMap<String> clientNames = clientNames();
        countersReader.forEach((counterId, typeId, keyBuffer, label) ->
        {
            final long ownerId = countersReader.getCounterOwnerId(counterId);
            final String client = clientNames.get(ownerId);
            final Labels labels = null == client ?
                Labels.of("id", Integer.toString(counterId), "type", Integer.toString(typeId), "label", label) :
                Labels.of("id", Integer.toString(counterId), "type", Integer.toString(typeId), "label", label,
                    "client", client);
            final long value = countersReader.getCounterValue(counterId);
            if (isCountOfEvents(typeId, keyBuffer) && value >= 0)
            {
                events.dataPoint(
                    CounterSnapshot.CounterDataPointSnapshot.builder().labels(labels).value(value).build());
            }
            else
            {
                gauge.dataPoint(GaugeSnapshot.GaugeDataPointSnapshot.builder().labels(labels).value(value).build());
            }
        });
        return MetricSnapshots.of(gauge.build(), events.build());
    }

    /**
     * @return each connected client's id (its heartbeat counter's owner id) to its name, {@code id=<client id>} when
     * it has none or has not written it into the label yet.
     */
    private Long2ObjectHashMap<String> clientNames()
    {
        final Long2ObjectHashMap<String> names = new Long2ObjectHashMap<>();
        countersReader.forEach((counterId, typeId, keyBuffer, label) ->
        {
            if (AeronCounters.DRIVER_HEARTBEAT_TYPE_ID == typeId)
            {
                final long clientId = countersReader.getCounterOwnerId(counterId);
                final Matcher name = CLIENT_NAME.matcher(label);
                names.put(clientId, name.find() ? name.group(1) : "id=" + clientId);
            }
        });
        return names;
    }

    /**
     * @param typeId    the counter's Aeron type id.
     * @param keyBuffer its key; a system counter's starts with its {@link SystemCounterDescriptor#id()}.
     * @return true when the counter counts events: it only grows while the driver runs.
     */
    private static boolean isCountOfEvents(final int typeId, final DirectBuffer keyBuffer)
    {
        return switch (typeId)
        {
            case AeronCounters.DRIVER_SYSTEM_COUNTER_TYPE_ID ->
            {
                final SystemCounterDescriptor descriptor =
                    SystemCounterDescriptor.get(keyBuffer.getInt(SYSTEM_COUNTER_ID_KEY_OFFSET));
                yield null != descriptor && !SYSTEM_GAUGES.contains(descriptor);
            }
            case AeronCounters.DRIVER_SENDER_BPE_TYPE_ID,
                AeronCounters.DRIVER_SENDER_NAKS_RECEIVED_TYPE_ID,
                AeronCounters.DRIVER_RECEIVER_NAKS_SENT_TYPE_ID,
                AeronCounters.ARCHIVE_ERROR_COUNT_TYPE_ID,
                AeronCounters.ARCHIVE_CYCLE_TIME_THRESHOLD_EXCEEDED_TYPE_ID,
                AeronCounters.ARCHIVE_RECORDER_TOTAL_WRITE_BYTES_TYPE_ID,
                AeronCounters.ARCHIVE_RECORDER_TOTAL_WRITE_TIME_TYPE_ID,
                AeronCounters.ARCHIVE_REPLAYER_TOTAL_READ_BYTES_TYPE_ID,
                AeronCounters.ARCHIVE_REPLAYER_TOTAL_READ_TIME_TYPE_ID -> true;
            default -> false;
        };
    }
}
