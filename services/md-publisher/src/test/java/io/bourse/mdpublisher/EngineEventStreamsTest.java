package io.bourse.mdpublisher;

import io.bourse.common.metrics.ErrorKinds;
import io.aeron.Aeron;
import io.aeron.ExclusivePublication;
import io.aeron.Subscription;
import io.aeron.archive.client.AeronArchive;
import io.aeron.driver.MediaDriver;
import io.aeron.logbuffer.FragmentHandler;
import io.bourse.common.aeron.ArchivingDriverFixture;
import io.bourse.common.aeron.EmbeddedMediaDriver;
import io.bourse.common.aeron.EventReplay;
import io.bourse.common.aeron.RecordedRuns;
import io.bourse.common.aeron.StreamLayout;
import io.bourse.common.config.Symbols;
import io.bourse.common.time.MidnightNanoClock;
import io.bourse.sbe.engine.BookUpdate;
import io.bourse.sbe.engine.Side;
import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import org.agrona.CloseHelper;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

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
    private final OrderAddedIds orderAddedIds = new OrderAddedIds();
    private final List<Long> taken = orderAddedIds.taken;
    private final ErrorKinds<MdPublisherError> errors = new ErrorKinds<>("md-publisher", MdPublisherError.class);
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
        assertThat(errors.total()).isEqualTo(0);
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
            assertThat(errors.total()).isEqualTo(0);
        }
    }

    /**
     * The md-publisher (re)starts on the shard's second run and replays the first into its books; the shard restarts
     * meanwhile, so the second run's own catch-up finds a newer run recording and the third run's image catches up as
     * the shard's first. No rebuild before the subscription held a run of the shard (as when the archive did not
     * answer then), so the first catch-up rebuilds the books without publishing, and they are published as they stand
     * (its history is not published as increments); the third run's catch-up publishes the rest. The earlier runs
     * reach the books once, and each order is published once (before stop 77, the first run was replayed again on top
     * of the books that held it, and the books published twice: a second Add Order of every resting order, and the
     * order the first run replaced back as a phantom).
     */
    @Test
    void shouldReplayTheEarlierRunsOnceWhenTheShardRestartsWhileTheyAreReplayed()
    {
        final ExclusivePublication run0 = runs.start(0);
        awaitTrue(() -> run0.offer(engine.buffer, 0, engine.orderAdded(T1, "AAPL", 1, Side.BUY, 100, 1_000_000,
            'Y')) > 0);
        awaitTrue(() -> run0.offer(engine.buffer, 0, engine.orderReplaced(T1 + 1, "AAPL", 1, 2, Side.BUY, 100,
            1_000_100, BookUpdate.REPLACED)) > 0);
        runs.stop(run0);
        final ExclusivePublication run1 = runs.start(0);
        awaitTrue(() -> run1.offer(engine.buffer, 0, engine.orderAdded(T1 + 2, "AAPL", 3, Side.BUY, 100, 999_000,
            'Y')) > 0);
        runs.awaitRecorded(run1);

        // The md-publisher (re)starts: it joins the second run where it stands, past its start (an IPC image joins
        // where the stream's readers stand, which the media driver updates on its own cycle: wait for it).
        final Subscription subscription = runs.subscribePastTheStart(0);
        final MarketDataEvents published = new MarketDataEvents();
        final MarketDataBooks books =
            new MarketDataBooks(new long[]{Symbols.pack("AAPL")}, MarketDataBooks.FULL_DEPTH, published, errors);
        final FragmentHandler adapter =
            new EngineEventAdapter(books, new long[][]{{Symbols.pack("AAPL")}},
                new MdPublisherMetrics(new PrometheusRegistry(), errors), errors);
        final ExclusivePublication[] run2 = new ExclusivePublication[1];
        final FragmentHandler restartingShard = (buffer, offset, length, header) ->
        {
            adapter.onFragment(buffer, offset, length, header);
            if (null == run2[0]) // the shard restarts while the first run is replayed
            {
                runs.stop(run1);
                run2[0] = runs.start(0);
            }
        };
        final EngineEventStreams streams = new EngineEventStreams(new Subscription[]{subscription},
            new long[][]{{Symbols.pack("AAPL")}}, new MidnightNanoClock(), restartingShard, books,
            new BooksRebuild(1, new EventReplay(aeron, driver.archive()), books, restartingShard,
            Counter.builder().name("replayed").build(), errors), Counter.builder().name("rejoins").build(), errors);

        awaitTrue(() ->
        {
            streams.poll(10);
            return null != run2[0] && null == streams.catchUpReason();
        });
        for (int i = 0; i < 100; i++)
        {
            streams.poll(10);
        }

        final List<String> orders = new ArrayList<>();
        for (final MarketDataEvents.Message message : published.drain())
        {
            if (message instanceof MarketDataEvents.AddOrder addOrder)
            {
                orders.add("add " + addOrder.orderId());
            }
            else if (message instanceof MarketDataEvents.Replace replace)
            {
                orders.add("replace " + replace.originalOrderId() + " by " + replace.newOrderId());
            }
        }
        assertThat(books.openOrderCount()).as("orders 2 and 3 rest").isEqualTo(2);
        assertThat(orders).as("the rebuilt books, then the rest, each once").containsExactly("add 2", "add 3");
        assertThat(errors.total()).isEqualTo(0);
    }

    /**
     * The md-publisher (re)starts on the shard's second run, and the first run's recording cannot be replayed (its
     * segment file deleted: an archive damaged by hand). The failure is counted, and the second run's own events before
     * the image joined are still replayed into the books (before, the failed replay of the earlier run skipped them,
     * and the books held only the events heard live).
     */
    @Test
    void shouldStillReplayTheRunsOwnEventsWhenAnEarlierRunCannotBeReplayed() throws IOException
    {
        final ExclusivePublication firstRun = runs.start(0);
        publishOrders(firstRun, 1, 3);
        runs.stopAndDamage(firstRun);
        final ExclusivePublication secondRun = runs.start(0);
        publishOrders(secondRun, 11, 13);
        runs.awaitRecorded(secondRun);
        final Subscription subscription = runs.subscribePastTheStart(0);
        final EngineEventStreams streams = streams(subscription);

        publishOrders(secondRun, 14, 14);
        awaitTrue(() ->
        {
            streams.poll(10);
            return taken.contains(14L);
        });

        assertThat(taken).as("the second run's events once each, in order").isEqualTo(List.of(11L, 12L, 13L, 14L));
        assertThat(errors.total()).as("the first run's failed replay").isEqualTo(1);
    }

    /**
     * An event archive that does not answer (a media driver that runs none; the archive client's message timeout
     * shortened to 200 ms) when the shard's first image, joined past its start, is caught up: the catch-up is given up
     * at the first timeout, that of the earlier runs' replay, counted once, and the live events go on to the books
     * (before stop 77, the run's own replay was tried after it: a second timeout and a second count).
     */
    @Test
    void shouldGiveTheCatchUpUpAtTheFirstTimeoutWhenTheArchiveDoesNotAnswer()
    {
        System.setProperty(AeronArchive.Configuration.MESSAGE_TIMEOUT_PROP_NAME, "200ms");
        try (MediaDriver noArchive = EmbeddedMediaDriver.launch("md-streams-no-archive-test");
            Aeron noArchiveAeron =
                Aeron.connect(new Aeron.Context().aeronDirectoryName(noArchive.aeronDirectoryName())))
        {
            final StreamLayout noArchiveLayout = EmbeddedMediaDriver.defaultLayout(noArchive);
            final ExclusivePublication run = noArchiveAeron.addExclusivePublication(
                noArchiveLayout.eventChannel(), noArchiveLayout.eventStreamId(0));
            // Another reader (an order gateway) reads the run's first events before the md-publisher subscribes.
            final Subscription gateway =
                noArchiveAeron.addSubscription(noArchiveLayout.eventChannel(), noArchiveLayout.eventStreamId(0));
            awaitTrue(() -> gateway.imageCount() > 0);
            publishOrders(run, 1, 3);
            awaitTrue(() -> gateway.poll((buffer, offset, length, header) -> { }, 10) == 0 &&
                gateway.imageAtIndex(0).position() == run.position());
            final EngineEventStreams streams = streams(
                RecordedRuns.subscribePastTheStart(noArchiveAeron, noArchiveLayout, 0), noArchiveAeron);

            publishOrders(run, 4, 4);
            awaitTrue(() ->
            {
                streams.poll(10);
                gateway.poll((buffer, offset, length, header) -> { }, 10);
                return taken.contains(4L);
            });
        }
        finally
        {
            System.clearProperty(AeronArchive.Configuration.MESSAGE_TIMEOUT_PROP_NAME);
        }
        assertThat(taken).as("the live events only").isEqualTo(List.of(4L));
        assertThat(errors.count(MdPublisherError.EVENT_REPLAY_FAILED)).as("one timeout, counted once").isEqualTo(1);
        assertThat(errors.total()).isEqualTo(1);
    }

    private EngineEventStreams streams(final Subscription subscription)
    {
        return streams(subscription, aeron);
    }

    private EngineEventStreams streams(final Subscription subscription, final Aeron client)
    {
        final MarketDataBooks books = new MarketDataBooks(new long[0], 0, DiscardedMarketData.INSTANCE, errors);
        return new EngineEventStreams(new Subscription[]{subscription}, new long[][]{{}}, new MidnightNanoClock(),
            orderAddedIds, books, new BooksRebuild(1, new EventReplay(client, driver.archive()), books, orderAddedIds,
            Counter.builder().name("replayed").build(), errors), Counter.builder().name("rejoins").build(), errors);
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
