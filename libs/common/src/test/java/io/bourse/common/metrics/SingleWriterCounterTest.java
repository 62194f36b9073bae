package io.bourse.common.metrics;

import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.Map;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

@Timeout(10)
class SingleWriterCounterTest
{
    private static final int INCREMENTS = 1_000_000;

    private final PrometheusRegistry registry = new PrometheusRegistry();

    @Test
    void shouldExportEveryLabelValueFromTheStartAndEveryIncrementOfItsWriter() throws InterruptedException
    {
        final SingleWriterCounter.Family family =
            SingleWriterCounter.family(registry, "test_messages_total", "test", "type");
        final SingleWriterCounter[] counters = {family.counter("accepted"), family.counter("executed")};
        assertThat(values("test_messages")).isEqualTo(Map.of("accepted", 0.0, "executed", 0.0));
        assertThatThrownBy(() -> family.counter("accepted")).isInstanceOf(IllegalArgumentException.class);

        final Thread writer = new Thread(() ->
        {
            for (int i = 0; i < INCREMENTS; i++)
            {
                counters[0].inc();
                counters[1].inc(2);
            }
        });
        writer.start();
        double previous = 0;
        while (writer.isAlive())
        {
            final double accepted = values("test_messages").get("accepted");
            assertThat(accepted).isGreaterThanOrEqualTo(previous);
            previous = accepted;
        }
        writer.join();

        assertThat(values("test_messages")).isEqualTo(Map.of("accepted", (double)INCREMENTS,
            "executed", 2.0 * INCREMENTS));
    }

    @Test
    void shouldExportACounterWithoutLabels()
    {
        final SingleWriterCounter records = SingleWriterCounter.register(registry, "test_records_total", "test");
        records.inc(5);
        records.inc();

        assertThat(records.get()).isEqualTo(6);
        assertThat(values("test_records")).isEqualTo(Map.of("", 6.0));
    }

    private Map<String, Double> values(final String name)
    {
        final Map<String, Double> values = new TreeMap<>();
        for (final MetricSnapshot snapshot : registry.scrape())
        {
            if (snapshot instanceof CounterSnapshot counter && counter.getMetadata().getName().equals(name))
            {
                for (final CounterSnapshot.CounterDataPointSnapshot point : counter.getDataPoints())
                {
                    values.put(point.getLabels().isEmpty() ? "" : point.getLabels().getValue(0), point.getValue());
                }
            }
        }
        return values;
    }
}
