package io.bourse.fanout;

import io.bourse.common.metrics.LatencySummary;
import io.prometheus.metrics.model.registry.Collector;
import io.prometheus.metrics.model.registry.MetricType;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricFamilyDescriptor;
import io.prometheus.metrics.model.snapshots.MetricMetadata;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import io.prometheus.metrics.model.snapshots.SummarySnapshot;

import java.util.List;

/**
 * {@code bourse_fanout_latency_seconds}: market-data timestamp to written to a subscriber socket, one summary per
 * worker labelled {@code worker}. Each worker records into its own single-writer {@link LatencySummary}, so the hot
 * path takes no lock; a scrape collects each one and relabels its data point.
 */
final class WorkerLatencies implements Collector
{
    private static final String NAME = "bourse_fanout_latency_seconds";
    private static final String HELP = "Market-data timestamp to ITCH written to a subscriber socket";
    private static final String LABEL = "worker";

    private final LatencySummary[] summaries;

    /**
     * @param workerCount number of workers.
     */
    WorkerLatencies(final int workerCount)
    {
        summaries = new LatencySummary[workerCount];
        for (int i = 0; i < workerCount; i++)
        {
            summaries[i] = new LatencySummary(NAME, HELP);
        }
    }

    /**
     * @param workerId a worker.
     * @return the summary that worker, and only it, records into.
     */
    LatencySummary worker(final int workerId)
    {
        return summaries[workerId];
    }

    @Override
    public MetricFamilyDescriptor getMetricFamilyDescriptor()
    {
        return MetricFamilyDescriptor.of(MetricType.SUMMARY, new MetricMetadata(NAME, HELP), List.of(LABEL));
    }

    @Override
    public MetricSnapshot collect()
    {
        final SummarySnapshot.Builder snapshot = SummarySnapshot.builder().name(NAME).help(HELP);
        for (int i = 0; i < summaries.length; i++)
        {
            final Labels labels = Labels.of(LABEL, Integer.toString(i));
            for (final SummarySnapshot.SummaryDataPointSnapshot point :
                ((SummarySnapshot)summaries[i].collect()).getDataPoints())
            {
                snapshot.dataPoint(SummarySnapshot.SummaryDataPointSnapshot.builder()
                    .quantiles(point.getQuantiles())
                    .labels(labels)
                    .count(point.getCount())
                    .sum(point.getSum())
                    .build());
            }
        }
        return snapshot.build();
    }
}
