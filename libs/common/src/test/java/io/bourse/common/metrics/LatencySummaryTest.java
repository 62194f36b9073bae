package io.bourse.common.metrics;

import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.Quantile;
import io.prometheus.metrics.model.snapshots.SummarySnapshot;
import org.agrona.concurrent.CachedNanoClock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

@Timeout(10)
class LatencySummaryTest
{
    private static final int THREADS = 4;
    private static final int SAMPLES_PER_THREAD = 100_000;

    private final LatencySummary summary = new LatencySummary("test_latency_seconds", "test");

    @Test
    void shouldCountEverySampleWhenRecordedFromManyThreads() throws InterruptedException
    {
        final CountDownLatch start = new CountDownLatch(1);
        final List<Thread> writers = new ArrayList<>();
        for (int t = 0; t < THREADS; t++)
        {
            final long latencyNs = (t + 1) * 1_000L;
            final Thread writer = new Thread(() ->
            {
                awaitQuietly(start);
                for (int i = 0; i < SAMPLES_PER_THREAD; i++)
                {
                    summary.recordNs(latencyNs);
                }
            });
            writer.start();
            writers.add(writer);
        }
        start.countDown();
        // Scrape while the writers record: no sample may be lost between intervals.
        long scrapedCount = 0;
        while (scrapedCount < (long)THREADS * SAMPLES_PER_THREAD && writers.stream().anyMatch(Thread::isAlive))
        {
            scrapedCount = point().getCount();
        }
        for (final Thread writer : writers)
        {
            writer.join();
        }

        final SummarySnapshot.SummaryDataPointSnapshot last = point();
        assertThat(last.getCount()).isEqualTo((long)THREADS * SAMPLES_PER_THREAD);
        // 1, 2, 3 and 4 µs, each SAMPLES_PER_THREAD times.
        assertThat(last.getSum()).isCloseTo(SAMPLES_PER_THREAD * 10e-6, within(SAMPLES_PER_THREAD * 10e-6 * 1e-3));
    }

    @Test
    void shouldExportQuantilesInSecondsOfEveryIntervalTakenInTheWindow()
    {
        final CachedNanoClock clock = new CachedNanoClock();
        final LatencySummary windowed = new LatencySummary("windowed_latency_seconds", "test", clock);
        windowed.recordNs(2_000_000);
        final SummarySnapshot.SummaryDataPointSnapshot first = point(windowed);

        clock.advance(TimeUnit.SECONDS.toNanos(1));
        windowed.recordNs(1_000);
        final SummarySnapshot.SummaryDataPointSnapshot second = point(windowed);

        clock.advance(LatencySummary.WINDOW_NS - TimeUnit.SECONDS.toNanos(1));
        final SummarySnapshot.SummaryDataPointSnapshot firstOut = point(windowed);

        clock.advance(TimeUnit.SECONDS.toNanos(1));
        final SummarySnapshot.SummaryDataPointSnapshot empty = point(windowed);

        assertThat(first.getCount()).isEqualTo(1);
        assertThat(maxOf(first)).isCloseTo(2e-3, within(2e-6));
        assertThat(second.getCount()).isEqualTo(2);
        assertThat(second.getQuantiles().get(0).getValue()).isCloseTo(1e-6, within(1e-8));
        assertThat(maxOf(second)).as("the first scrape's interval is still in the window")
            .isCloseTo(2e-3, within(2e-6));
        assertThat(maxOf(firstOut)).as("taken a window ago").isCloseTo(1e-6, within(1e-8));
        assertThat(empty.getCount()).isEqualTo(2);
        assertThat(maxOf(empty)).isNaN();
    }

    @Test
    void shouldLeaveEverySampleToEachReaderWhenTwoScrapeInTurn()
    {
        final CachedNanoClock clock = new CachedNanoClock();
        final LatencySummary windowed = new LatencySummary("shared_latency_seconds", "test", clock);
        final long scrapeIntervalNs = TimeUnit.SECONDS.toNanos(2);
        for (int scrape = 0; scrape < 10; scrape++)
        {
            final long spikeNs = (scrape + 1) * 1_000_000L;
            windowed.recordNs(spikeNs);
            clock.advance(scrapeIntervalNs / 2);
            point(windowed); // a curl of /metrics between two scrapes of Prometheus takes the spike's interval
            clock.advance(scrapeIntervalNs / 2);
            assertThat(maxOf(point(windowed))).as("Prometheus' scrape %d", scrape)
                .isCloseTo(spikeNs / 1e9, within(spikeNs / 1e12));
        }
    }

    @Test
    void shouldKeepASampleAboutAWindowAndThenDropItHoweverOftenScraped()
    {
        final CachedNanoClock clock = new CachedNanoClock();
        final LatencySummary windowed = new LatencySummary("frequent_latency_seconds", "test", clock);
        final long scrapeIntervalNs = LatencySummary.WINDOW_NS / (4 * LatencySummary.MAX_INTERVALS);
        windowed.recordNs(5_000_000);
        long scrapes = 0;
        for (long elapsedNs = 0; elapsedNs < LatencySummary.WINDOW_NS * 15 / 16; elapsedNs += scrapeIntervalNs)
        {
            assertThat(maxOf(point(windowed))).as("at %d ns", elapsedNs).isCloseTo(5e-3, within(5e-6));
            windowed.recordNs(1_000);
            scrapes++;
            clock.advance(scrapeIntervalNs);
        }
        for (long elapsedNs = 0; elapsedNs < LatencySummary.WINDOW_NS; elapsedNs += scrapeIntervalNs)
        {
            point(windowed);
            windowed.recordNs(1_000);
            scrapes++;
            clock.advance(scrapeIntervalNs);
        }

        final SummarySnapshot.SummaryDataPointSnapshot last = point(windowed);

        assertThat(last.getCount()).isEqualTo(scrapes + 1);
        assertThat(maxOf(last)).as("taken more than a window ago").isCloseTo(1e-6, within(1e-8));
    }

    @Test
    void shouldCountEverySampleOfItsOneWriterWhileScrapedWhenSingleWriter() throws InterruptedException
    {
        final PrometheusRegistry registry = new PrometheusRegistry();
        final LatencySummary single = LatencySummary.registerSingleWriter(registry, "single_latency_seconds", "test");
        final Thread writer = new Thread(() ->
        {
            for (int i = 0; i < SAMPLES_PER_THREAD; i++)
            {
                single.recordNs(2_000L);
            }
        });
        writer.start();
        while (writer.isAlive())
        {
            registry.scrape();
        }
        writer.join();

        final SummarySnapshot snapshot = (SummarySnapshot)registry.scrape().stream()
            .filter((metric) -> metric.getMetadata().getPrometheusName().equals("single_latency_seconds"))
            .findFirst().orElseThrow();
        assertThat(snapshot.getDataPoints().get(0).getCount()).isEqualTo(SAMPLES_PER_THREAD);
        assertThat(snapshot.getDataPoints().get(0).getSum())
            .isCloseTo(SAMPLES_PER_THREAD * 2e-6, within(SAMPLES_PER_THREAD * 2e-6 * 1e-3));
    }

    @Test
    void shouldCountEverySampleOfItsOneWriterRecordedInBatchesWhileScraped() throws InterruptedException
    {
        final PrometheusRegistry registry = new PrometheusRegistry();
        final LatencySummary single = LatencySummary.registerSingleWriter(registry, "batched_latency_seconds", "test");
        final int batchLength = 100;
        final CountDownLatch scraping = new CountDownLatch(1);
        final Thread writer = new Thread(() ->
        {
            awaitQuietly(scraping);
            for (int i = 0; i < SAMPLES_PER_THREAD; i += batchLength)
            {
                single.beginBatch();
                for (int j = 0; j < batchLength; j++)
                {
                    single.recordNs(3_000L);
                }
                single.endBatch();
            }
        });
        writer.start();
        long scrapes = 0;
        do
        {
            single.collect();
            scrapes++;
            // The writer starts once the first scrape is done, so that a fast writer cannot finish before any.
            scraping.countDown();
        }
        while (writer.isAlive());
        writer.join();

        final SummarySnapshot.SummaryDataPointSnapshot last =
            ((SummarySnapshot)single.collect()).getDataPoints().get(0);
        assertThat(scrapes).isPositive();
        assertThat(last.getCount()).isEqualTo(SAMPLES_PER_THREAD);
        assertThat(last.getSum()).isCloseTo(SAMPLES_PER_THREAD * 3e-6, within(SAMPLES_PER_THREAD * 3e-6 * 1e-3));
    }

    @Test
    void shouldMakeAScrapeWaitForTheBatchInProgressAndLoseNoValueOfIt() throws InterruptedException
    {
        final PrometheusRegistry registry = new PrometheusRegistry();
        final LatencySummary single = LatencySummary.registerSingleWriter(registry, "waiting_latency_seconds", "test");
        single.beginBatch();
        single.recordNs(5_000L);
        final CountDownLatch scraping = new CountDownLatch(1);
        final long[] scrapedCount = {-1};
        final Thread scraper = new Thread(() ->
        {
            scraping.countDown();
            scrapedCount[0] = ((SummarySnapshot)single.collect()).getDataPoints().get(0).getCount();
        });
        scraper.start();
        scraping.await();
        scraper.join(200);
        assertThat(scraper.isAlive()).as("scrape waits while the batch is open").isTrue();

        single.recordNs(6_000L); // in this interval or, once the scrape swapped histograms, in the next
        single.endBatch();
        scraper.join();

        assertThat(scrapedCount[0]).isBetween(1L, 2L);
        assertThat(((SummarySnapshot)single.collect()).getDataPoints().get(0).getCount()).isEqualTo(2);
    }

    @Test
    void shouldRefuseABatchInsideABatchAndAnEndWithoutABegin()
    {
        final LatencySummary single =
            LatencySummary.registerSingleWriter(new PrometheusRegistry(), "nested_latency_seconds", "test");
        assertThatThrownBy(single::endBatch).isInstanceOf(IllegalStateException.class).hasMessage("no batch begun");
        single.beginBatch();
        assertThatThrownBy(single::beginBatch).isInstanceOf(IllegalStateException.class)
            .hasMessage("batch already begun");
        single.endBatch();
    }

    private SummarySnapshot.SummaryDataPointSnapshot point()
    {
        return point(summary);
    }

    private static SummarySnapshot.SummaryDataPointSnapshot point(final LatencySummary summary)
    {
        return ((SummarySnapshot)summary.collect()).getDataPoints().get(0);
    }

    private static double maxOf(final SummarySnapshot.SummaryDataPointSnapshot point)
    {
        double max = Double.NaN;
        for (final Quantile quantile : point.getQuantiles())
        {
            if (quantile.getQuantile() == 1.0)
            {
                max = quantile.getValue();
            }
        }
        return max;
    }

    private static void awaitQuietly(final CountDownLatch latch)
    {
        try
        {
            latch.await();
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
    }
}
