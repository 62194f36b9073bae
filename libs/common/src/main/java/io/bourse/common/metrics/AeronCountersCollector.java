package io.bourse.common.metrics;

import io.prometheus.metrics.model.registry.Collector;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import org.agrona.concurrent.status.CountersReader;

/**
 * Exports every allocated Aeron counter of a media driver (system counters such as back pressure, NAKs, errors and
 * loss, and the stream positions of publications and subscriptions) as the gauge {@code bourse_aeron_counter} with
 * labels {@code id}, {@code type} (Aeron counter type id) and {@code label} (Aeron's own label). Reads the counters
 * file at scrape time, on the scrape thread.
 */
public final class AeronCountersCollector implements Collector
{
    private static final String NAME = "bourse_aeron_counter";
    private final CountersReader countersReader;

    /**
     * @param countersReader counters of the media driver (from an Aeron client or the driver context).
     */
    public AeronCountersCollector(final CountersReader countersReader)
    {
        this.countersReader = countersReader;
    }

    @Override
    public String getPrometheusName()
    {
        return NAME;
    }

    @Override
    public MetricSnapshot collect()
    {
        final GaugeSnapshot.Builder gauge = GaugeSnapshot.builder().name(NAME).help("Aeron counter value");
        countersReader.forEach((counterId, typeId, keyBuffer, label) -> gauge.dataPoint(
            GaugeSnapshot.GaugeDataPointSnapshot.builder()
                .labels(Labels.of("id", Integer.toString(counterId), "type", Integer.toString(typeId), "label", label))
                .value(countersReader.getCounterValue(counterId))
                .build()));
        return gauge.build();
    }
}
