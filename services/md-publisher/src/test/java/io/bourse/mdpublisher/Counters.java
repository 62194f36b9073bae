package io.bourse.mdpublisher;

import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;

/** Reads counter values from a registry the way a scrape sees them. */
final class Counters
{
    /** A scrape's line of a kind of md-publisher error counted at least once ({@code bourse_md_errors_total}). */
    static final String MD_ERROR_COUNTED = "bourse_md_errors_total\\{kind=\"[a-z_]+\"} [1-9]";

    private Counters()
    {
    }

    /**
     * @param registry the registry.
     * @param name     the counter's name without {@code _total}.
     * @param type     the value of its one label ({@code type} or {@code reason}), or null for the first data point.
     * @return the value.
     * @throws AssertionError when there is no such counter.
     */
    static long value(final PrometheusRegistry registry, final String name, final String type)
    {
        for (final MetricSnapshot snapshot : registry.scrape())
        {
            if (snapshot.getMetadata().getPrometheusName().equals(name))
            {
                for (final CounterSnapshot.CounterDataPointSnapshot point : ((CounterSnapshot)snapshot).getDataPoints())
                {
                    if (null == type || (1 == point.getLabels().size() && type.equals(point.getLabels().getValue(0))))
                    {
                        return (long)point.getValue();
                    }
                }
            }
        }
        throw new AssertionError("no counter " + name + " " + type);
    }
}
