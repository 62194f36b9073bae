package io.bourse.mdpublisher;

import io.aeron.Aeron;
import io.aeron.ExclusivePublication;
import io.aeron.Subscription;
import io.bourse.common.aeron.ArchivingDriverFixture;
import io.bourse.common.aeron.RecordedRuns;
import io.bourse.common.aeron.StreamLayout;
import io.bourse.common.config.SymbolDirectory;
import io.bourse.common.metrics.MetricsEndpoint;
import io.bourse.common.metrics.ReadyEndpoint;
import org.agrona.CloseHelper;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.SleepingMillisIdleStrategy;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import static io.bourse.common.Await.awaitTrue;
import static io.bourse.mdpublisher.MarketDataCapture.Sequenced;
import static io.bourse.mdpublisher.MarketDataEvents.AddOrder;
import static io.bourse.sbe.engine.Side.SELL;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * An md-publisher whose thread stalls (a long catch-up after a restart, a GC pause, a starved core) while an engine
 * shard publishes more than a term window of events: with the event archive its subscriptions are untethered, so the
 * shard's publication goes on once the media driver's untethered window limit timeout has passed, instead of waiting
 * for the md-publisher for good (a tethered subscriber holds an IPC publication at its term window), and the
 * md-publisher, once it runs again and its new image joins, publishes every event it missed from the archive, each
 * once, in order. The driver's IPC terms are 64 KiB (a 32 KiB window) and its untethered timeouts 1.5 s.
 */
@Timeout(60)
class MdPublisherStallTest
{
    private static final long T1 = 34_200_000_000_000L;
    /** About 60 KiB of Order Added events: past the 32 KiB window of the driver's 64 KiB IPC terms. */
    private static final int ORDERS = 600;

    private final EngineEventEncoder engine = new EngineEventEncoder();
    private final StallingIdleStrategy idleStrategy = new StallingIdleStrategy();
    @TempDir
    private Path archiveDir;
    private ArchivingDriverFixture driver;
    private RecordedRuns runs;
    private MdPublisherService service;

    @BeforeEach
    void setUp()
    {
        driver = UntetheredDriver.launch("md-stall-test", archiveDir, UntetheredDriver.TIMEOUT_NS);
        runs = new RecordedRuns(driver);
    }

    @AfterEach
    void tearDown()
    {
        idleStrategy.stalled = false;
        CloseHelper.closeAll(service, runs, driver);
    }

    @Test
    void shouldNotHoldTheShardBackWhileStalledAndPublishEveryEventItMissedFromTheArchiveOnceItRunsAgain()
        throws Exception
    {
        final ExclusivePublication shard0 = runs.start(0);
        runs.start(1);
        final Aeron aeron = driver.aeron();
        final StreamLayout layout = driver.layout();
        final MarketDataCapture capture = new MarketDataCapture();
        try (Subscription marketData = aeron.addSubscription(layout.marketDataChannel(), layout.marketDataStreamId()))
        {
            service = MdPublisherService.launch(new MdPublisherContext()
                .layout(layout)
                .symbolDirectory(SymbolDirectory.parse("AAPL@0,MSFT@1"))
                .metricsPort(0)
                .jvmMetrics(false)
                .eventArchive(driver.archive())
                .moldEnabled(false)
                .idleStrategySupplier(() -> idleStrategy));
            ReadyEndpoint.awaitAnswer(service.metricsPort(), "200 ready\n");
            offer(shard0, engine.orderAdded(T1, "AAPL", 1, SELL, 100, 1_500_000, 'Y'));
            awaitTrue(() -> scrape().contains("bourse_md_events_in_total{type=\"added\"} 1.0\n"));

            idleStrategy.stalled = true;
            awaitTrue(() -> idleStrategy.holding);
            // Each offer waits up to Await's 20 s: a shard held for good by the stalled md-publisher fails here.
            for (int i = 2; i <= ORDERS; i++)
            {
                offer(shard0, engine.orderAdded(T1 + i, "AAPL", i, SELL, 100, 1_500_000 + i, 'Y'));
            }
            assertThat(scrape()).as("nothing read while stalled")
                .contains("bourse_md_events_in_total{type=\"added\"} 1.0\n");
            idleStrategy.stalled = false;
            awaitTrue(() -> scrape().contains("bourse_md_book_orders{side=\"offer\",symbol=\"AAPL\"} " +
                ORDERS + ".0\n"));
            awaitTrue(() ->
            {
                marketData.poll(capture, Integer.MAX_VALUE);
                return capture.messages.stream().filter((sequenced) -> sequenced.message() instanceof AddOrder)
                    .count() >= ORDERS;
            });
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(200));
            marketData.poll(capture, Integer.MAX_VALUE);
        }

        assertThat(scrape())
            .contains("bourse_md_events_in_total{type=\"added\"} " + ORDERS + ".0\n")
            .containsPattern("bourse_md_replayed_events_total [1-9][0-9]*\\.0\n")
            .containsPattern("bourse_md_event_stream_rejoins_total [1-9][0-9]*\\.0\n")
            .contains("bourse_md_errors_total{kind=").doesNotContainPattern(Counters.MD_ERROR_COUNTED);
        // Every order once, in the shard's order, under gap-free sequence numbers from 1.
        final List<Sequenced> messages = capture.messages;
        final Set<Long> added = new HashSet<>();
        long previousOrderId = 0;
        for (int i = 0; i < messages.size(); i++)
        {
            assertThat(messages.get(i).sequenceNumber()).isEqualTo(i + 1);
            if (messages.get(i).message() instanceof AddOrder add)
            {
                assertThat(added.add(add.orderId())).as("added twice: %s", add).isTrue();
                assertThat(add.orderId()).isEqualTo(previousOrderId + 1);
                previousOrderId = add.orderId();
            }
        }
        assertThat(added).hasSize(ORDERS);
    }

    private void offer(final ExclusivePublication publication, final int length)
    {
        awaitTrue(() -> publication.offer(engine.buffer, 0, length) > 0);
    }

    private String scrape()
    {
        try
        {
            return MetricsEndpoint.scrape(service.metricsPort());
        }
        catch (final Exception ex)
        {
            throw new IllegalStateException(ex);
        }
    }

    /** The md-publisher's idle strategy: holds its thread between two duty cycles while stalled. */
    private static final class StallingIdleStrategy implements IdleStrategy
    {
        private final IdleStrategy idle = new SleepingMillisIdleStrategy(1);
        volatile boolean stalled;
        volatile boolean holding;

        @Override
        public void idle(final int workCount)
        {
            idle();
        }

        @Override
        public void idle()
        {
            while (stalled)
            {
                holding = true;
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
            }
            holding = false;
            idle.idle();
        }

        @Override
        public void reset()
        {
            idle.reset();
        }
    }
}
