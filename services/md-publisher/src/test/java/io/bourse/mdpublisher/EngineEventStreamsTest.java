package io.bourse.mdpublisher;

import io.aeron.Aeron;
import io.aeron.ExclusivePublication;
import io.aeron.Subscription;
import io.aeron.logbuffer.FragmentHandler;
import io.bourse.common.aeron.ArchivingDriverFixture;
import io.bourse.common.aeron.EventReplay;
import io.bourse.common.aeron.RecordedRuns;
import io.bourse.common.aeron.StreamLayout;
import io.bourse.common.time.MidnightNanoClock;
import io.bourse.sbe.engine.MessageHeaderDecoder;
import io.bourse.sbe.engine.OrderAddedDecoder;
import io.bourse.sbe.engine.Side;
import io.prometheus.metrics.core.metrics.Counter;
import org.agrona.CloseHelper;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import static io.bourse.common.Await.awaitTrue;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * One engine shard's event stream, recorded in a real event archive on an archiving media driver, read by
 * {@link EngineEventStreams} across two runs of the shard (a restarted engine): the events reach the books once each,
 * and in the order the runs made them.
 */
@Timeout(60)
class EngineEventStreamsTest
{
    private static final long T1 = 34_200_000_000_000L;

    private final EngineEventEncoder engine = new EngineEventEncoder();
    private final List<Long> taken = new ArrayList<>();
    private final AtomicLong errors = new AtomicLong();
    @TempDir
    private Path archiveDir;
    private ArchivingDriverFixture driver;
    private StreamLayout layout;
    private Aeron aeron;
    private RecordedRuns runs;

    @BeforeEach
    void setUp()
    {
        driver = new ArchivingDriverFixture("md-streams-test", archiveDir);
        layout = driver.layout();
        aeron = driver.aeron();
        runs = new RecordedRuns(driver);
    }

    @AfterEach
    void tearDown()
    {
        CloseHelper.closeAll(runs, driver);
    }

    @Test
    void shouldReadTheEarlierRunToItsEndBeforeTheNewRunOfTheShard()
    {
        final ExclusivePublication firstRun = runs.start(0);
        final Subscription subscription = aeron.addSubscription(layout.eventChannel(), layout.eventStreamId(0));
        awaitTrue(() -> subscription.imageCount() > 0);
        final EngineEventStreams streams = streams(subscription);
        streams.poll(10); // the first run's image, caught up where it joined: its start

        // The first run publishes 100 events while the md-publisher does not read, and stops; the archive stops its
        // recording at the end of the stream, so a restarted engine can recover and publish its own events while
        // the md-publisher still holds the first run's last 90 unread.
        publishOrders(firstRun, 1, 100);
        runs.stop(firstRun);
        final ExclusivePublication newRun = runs.start(0);
        publishOrders(newRun, 1001, 1003);
        runs.awaitRecorded(newRun);
        awaitTrue(() -> subscription.imageCount() == 2);

        awaitTrue(() ->
        {
            streams.poll(10);
            return taken.size() >= 103;
        });

        final List<Long> expected = new ArrayList<>();
        for (long orderId = 1; orderId <= 100; orderId++)
        {
            expected.add(orderId);
        }
        expected.addAll(List.of(1001L, 1002L, 1003L));
        assertThat(taken).as("every event of the first run before any of the new run's").isEqualTo(expected);
        assertThat(errors).hasValue(0);
    }

    @Test
    void shouldDropTheLiveEventsOfALingeringEarlierRunWhoseRecordingTheNewRunsCatchUpReplays()
    {
        // Another reader (an order gateway behind) holds the first run's stream from its start after the run stops.
        final ExclusivePublication firstRun = runs.start(0);
        try (Subscription behind = aeron.addSubscription(layout.eventChannel(), layout.eventStreamId(0)))
        {
            awaitTrue(() -> behind.imageCount() > 0);
            publishOrders(firstRun, 1, 100);
            runs.stop(firstRun);
            final ExclusivePublication newRun = runs.start(0);
            publishOrders(newRun, 1001, 1003);
            runs.awaitRecorded(newRun);

            // The md-publisher (re)starts now: it joins the first run's lingering stream where the reader behind
            // stands, at its start, and the new run's.
            final Subscription subscription = aeron.addSubscription(layout.eventChannel(), layout.eventStreamId(0));
            awaitTrue(() -> subscription.imageCount() == 2);
            final EngineEventStreams streams = streams(subscription);
            for (int i = 0; i < 50; i++)
            {
                streams.poll(10);
            }

            // The first run's events once, from the new run's catch-up (its whole recording), not again live.
            final List<Long> expected = new ArrayList<>();
            for (long orderId = 1; orderId <= 100; orderId++)
            {
                expected.add(orderId);
            }
            expected.addAll(List.of(1001L, 1002L, 1003L));
            assertThat(taken).isEqualTo(expected);
            assertThat(errors).hasValue(0);
        }
    }

    private EngineEventStreams streams(final Subscription subscription)
    {
        final MessageHeaderDecoder header = new MessageHeaderDecoder();
        final OrderAddedDecoder orderAdded = new OrderAddedDecoder();
        final FragmentHandler adapter = (buffer, offset, length, frameHeader) ->
        {
            header.wrap(buffer, offset);
            if (OrderAddedDecoder.TEMPLATE_ID == header.templateId())
            {
                orderAdded.wrap(buffer, offset + MessageHeaderDecoder.ENCODED_LENGTH, header.blockLength(),
                    header.version());
                taken.add(orderAdded.orderId());
            }
        };
        final MarketDataBooks books = new MarketDataBooks(new long[0], 0, DiscardedMarketData.INSTANCE, errors);
        return new EngineEventStreams(new Subscription[]{subscription}, new long[][]{{}}, new MidnightNanoClock(),
            adapter, books, new EventReplay(aeron, driver.archive()), Counter.builder().name("replayed").build(),
            errors);
    }

    private void publishOrders(final ExclusivePublication run, final long firstOrderId, final long lastOrderId)
    {
        for (long orderId = firstOrderId; orderId <= lastOrderId; orderId++)
        {
            final int length = engine.orderAdded(T1 + orderId, "AAPL", orderId, Side.BUY, 100, 1_000_000, 'Y');
            awaitTrue(() -> run.offer(engine.buffer, 0, length) > 0);
        }
    }
}
