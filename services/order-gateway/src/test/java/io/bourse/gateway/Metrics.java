package io.bourse.gateway;

import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import io.prometheus.metrics.model.snapshots.SummarySnapshot;

/** Reads metric values from a registry the way a scrape sees them; a running service's page is MetricsEndpoint's. */
final class Metrics
{
    private Metrics()
    {
    }

    /**
     * @param registry   the registry.
     * @param name       counter name including {@code _total}.
     * @param labelValue value of its only label, or null for an unlabelled counter.
     * @return the value, 0 when absent.
     */
    static double counter(final PrometheusRegistry registry, final String name, final String labelValue)
    {
        for (final MetricSnapshot snapshot : registry.scrape())
        {
            if (snapshot instanceof CounterSnapshot counter && name.equals(counter.getMetadata().getName() + "_total"))
            {
                for (final CounterSnapshot.CounterDataPointSnapshot point : counter.getDataPoints())
                {
                    if (null == labelValue || labelValue.equals(point.getLabels().getValue(0)))
                    {
                        return point.getValue();
                    }
                }
            }
        }
        return 0;
    }

    /**
     * @param registry where the counter is registered.
     * @param name     the counter's name with {@code _total}.
     * @return the sum of its data points, every label value; 0 when it is not registered.
     */
    static double sum(final PrometheusRegistry registry, final String name)
    {
        double sum = 0;
        for (final MetricSnapshot snapshot : registry.scrape())
        {
            if (snapshot instanceof CounterSnapshot counter && name.equals(counter.getMetadata().getName() + "_total"))
            {
                for (final CounterSnapshot.CounterDataPointSnapshot point : counter.getDataPoints())
                {
                    sum += point.getValue();
                }
            }
        }
        return sum;
    }

    static double gauge(final PrometheusRegistry registry, final String name)
    {
        for (final MetricSnapshot snapshot : registry.scrape())
        {
            if (snapshot instanceof GaugeSnapshot gauge && name.equals(gauge.getMetadata().getName()))
            {
                return gauge.getDataPoints().get(0).getValue();
            }
        }
        throw new AssertionError("no gauge " + name);
    }

    static long summaryCount(final PrometheusRegistry registry, final String name)
    {
        for (final MetricSnapshot snapshot : registry.scrape())
        {
            if (snapshot instanceof SummarySnapshot summary && name.equals(summary.getMetadata().getName()))
            {
                return summary.getDataPoints().get(0).getCount();
            }
        }
        throw new AssertionError("no summary " + name);
    }
}
