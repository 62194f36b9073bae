package io.bourse.mdpublisher;

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
import io.bourse.common.metrics.ErrorKinds;
import io.bourse.common.time.MidnightNanoClock;
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
 * A restarted md-publisher rebuilds its books from a shard's recorded runs before it subscribes to the shard's event
 * stream ({@link BooksRebuild#rebuildBeforeSubscribing}), on a real event archive on an archiving media driver; its
 * first image then catches up only what was recorded since ({@link EngineEventStreams}). Every order reaches the books
 * once and in order, and the books are published once, whether the run goes on, the shard restarts between the rebuild
 * and the subscription, or the image joins behind where the rebuild stopped (another reader behind). Over two shards
 * ({@link BooksRebuild#rebuildAllBeforeSubscribing}), a second pass takes what one recorded while the other was
 * replayed, a recording that cannot be replayed stops only its shard's rebuild, and an archive that does not answer
 * stops the whole rebuild at once.
 */
@Timeout(60)
class BooksRebuildTest
{
    private static final long T1 = 34_200_000_000_000L;
    /** Orders of the run before the md-publisher restarts: more than {@link BooksRebuild#LIVE_GAP_BYTES} of events. */
    private static final int DAY_ORDERS = 5_000;

    private final EngineEventEncoder engine = new EngineEventEncoder();
    private final ErrorKinds<MdPublisherError> errors = new ErrorKinds<>("md-publisher", MdPublisherError.class);
    private final OrderAddedIds orderAddedIds = new OrderAddedIds();
    private final MarketDataEvents published = new MarketDataEvents();
    private final Counter replayedEvents = Counter.builder().name("replayed").build();
    @TempDir
    private Path archiveDir;
    private ArchivingDriverFixture driver;
    private StreamLayout layout;
    private RecordedRuns runs;
    private MarketDataBooks books;
    private FragmentHandler handler;
    private BooksRebuild rebuild;
    private Subscription subscription;

    @BeforeEach
    void setUp()
    {
        driver = new ArchivingDriverFixture("md-rebuild-test", archiveDir);
        layout = driver.layout();
        runs = new RecordedRuns(driver);
        books = new MarketDataBooks(new long[]{Symbols.pack("AAPL")}, MarketDataBooks.FULL_DEPTH, published, errors);
        final EngineEventAdapter adapter = new EngineEventAdapter(books, new long[][]{{Symbols.pack("AAPL")}},
            new MdPublisherMetrics(new PrometheusRegistry(), errors), errors);
        handler = (buffer, offset, length, header) ->
        {
            adapter.onFragment(buffer, offset, length, header);
            orderAddedIds.onFragment(buffer, offset, length, header);
        };
        rebuild = new BooksRebuild(
            1, new EventReplay(driver.aeron(), driver.archive()), books, handler, replayedEvents, errors);
    }

    @AfterEach
    void tearDown()
    {
        CloseHelper.closeAll(subscription, runs, driver);
    }

    @Test
    void shouldCatchUpOnlyWhatWasRecordedAfterTheRebuild()
    {
        final ExclusivePublication run = recordDayAndRebuild();
        assertThat(published.drain()).as("nothing published while rebuilding").isEmpty();

        publishOrders(run, DAY_ORDERS + 1, DAY_ORDERS + 3);
        runs.awaitRecorded(run);
        subscribeAndReadTo(DAY_ORDERS + 6, () -> publishOrders(run, DAY_ORDERS + 4, DAY_ORDERS + 6));

        assertThat(orderAddedIds.taken).as("each order once, in order")
            .isEqualTo(OrderAddedIds.orderIds(1, DAY_ORDERS + 6));
        // Those the image joined past (it joins where the archive's recorder stood when the driver last updated it),
        // not the day again.
        assertThat(replayedEvents.get()).as("the image's catch-up replayed at most the 3 recorded after the rebuild")
            .isBetween((double)DAY_ORDERS, DAY_ORDERS + 3.0);
        assertThat(publishedAddOrders()).as("the books published once, then the live orders")
            .isEqualTo(OrderAddedIds.orderIds(1, DAY_ORDERS + 6));
        assertThat(errors.total()).isEqualTo(0);
    }

    /**
     * A trade recorded between the rebuild and the subscription (the first image's catch-up replays it, or the image
     * joined before it and reads it live) is printed once, after the books published as they stand; so is one read
     * live. Before stop 78 the first catch-up folded it into the books unpublished, and the trade was never printed.
     */
    @Test
    void shouldPrintATradeRecordedBetweenTheRebuildAndTheSubscriptionOnce()
    {
        final ExclusivePublication run = recordDayAndRebuild();

        publishExecution(run, 1, 77);
        publishOrders(run, DAY_ORDERS + 1, DAY_ORDERS + 1);
        runs.awaitRecorded(run);
        subscribeAndReadTo(DAY_ORDERS + 2, () ->
        {
            publishExecution(run, 2, 78);
            publishOrders(run, DAY_ORDERS + 2, DAY_ORDERS + 2);
        });

        final List<MarketDataEvents.Message> messages = published.drain();
        assertThat(messages).filteredOn(MarketDataEvents.Executed.class::isInstance).as("each trade once, in order")
            .containsExactly(
                new MarketDataEvents.Executed(T1 + 77, "AAPL", 1, 100, 77, 1_000_000),
                new MarketDataEvents.Executed(T1 + 78, "AAPL", 2, 100, 78, 1_000_000));
        assertThat(messages.indexOf(new MarketDataEvents.Executed(T1 + 77, "AAPL", 1, 100, 77, 1_000_000)))
            .as("after the Add Orders of the books as they stand").isGreaterThan(DAY_ORDERS - 1);
        assertThat(books.openOrderCount()).isEqualTo(DAY_ORDERS);
        assertThat(errors.total()).isEqualTo(0);
    }

    @Test
    void shouldReplayTheRestOfTheRebuiltRunWhenTheShardRestartsBeforeTheSubscription()
    {
        final ExclusivePublication firstRun = recordDayAndRebuild();

        // The first run goes on, then stops; the restarted shard publishes before the md-publisher subscribes.
        publishOrders(firstRun, DAY_ORDERS + 1, DAY_ORDERS + 3);
        runs.stop(firstRun);
        final ExclusivePublication newRun = runs.start(0);
        publishOrders(newRun, 100_001, 100_002);
        runs.awaitRecorded(newRun);
        subscribeAndReadTo(DAY_ORDERS + 5, () -> publishOrders(newRun, 100_003, 100_003));

        final List<Long> expected = OrderAddedIds.orderIds(1, DAY_ORDERS + 3);
        expected.addAll(OrderAddedIds.orderIds(100_001, 100_003));
        assertThat(orderAddedIds.taken).as("the rest of the first run, then the new run, each order once")
            .isEqualTo(expected);
        // The new run's 2 too, unless its image joined at its start (where the archive's recorder stood when the
        // media driver last updated it).
        assertThat(replayedEvents.get()).as("the image's catch-up replayed the first run's 3 and the new run's 2")
            .isBetween(DAY_ORDERS + 3.0, DAY_ORDERS + 5.0);
        assertThat(publishedAddOrders()).isEqualTo(expected);
        assertThat(errors.total()).isEqualTo(0);
    }

    /**
     * The run records more after the rebuild and stops before the md-publisher subscribes, and the shard does not
     * restart: no image comes (a stopped publication takes no new subscriber). Once the archive shows the run stopped,
     * a lookup interval after the first poll, its orders after the rebuild are published, once. Before, nothing
     * looked at a shard without an image: its books stayed where the rebuild left them.
     */
    @Test
    void shouldPublishTheRestOfTheRebuiltRunWhenItStopsBeforeTheSubscriptionAndNoImageComes()
    {
        final ExclusivePublication run = recordDayAndRebuild();
        publishOrders(run, DAY_ORDERS + 1, DAY_ORDERS + 3);
        runs.stop(run);

        final EngineEventStreams streams = subscribe();
        awaitTrue(() ->
        {
            streams.poll(10);
            return orderAddedIds.taken.size() >= DAY_ORDERS + 3;
        });
        for (int i = 0; i < 10; i++)
        {
            streams.poll(10); // nothing more: no order twice
        }

        assertThat(subscription.imageCount()).as("no image of the stopped run").isZero();
        assertThat(orderAddedIds.taken).as("each order once, in order")
            .isEqualTo(OrderAddedIds.orderIds(1, DAY_ORDERS + 3));
        assertThat(publishedAddOrders()).as("the books published, then the run's rest")
            .isEqualTo(OrderAddedIds.orderIds(1, DAY_ORDERS + 3));
        assertThat(errors.total()).isEqualTo(0);
    }

    @Test
    void shouldSkipTheLiveEventsTheRebuildTookWhenTheImageJoinsBehindIt()
    {
        final ExclusivePublication run = runs.start(0);
        // A tethered reader (an order gateway behind) stands at the run's start: a new image joins there.
        try (Subscription behind = driver.aeron().addSubscription(layout.eventChannel(), layout.eventStreamId(0)))
        {
            awaitTrue(() -> behind.imageCount() > 0);
            publishOrders(run, 1, DAY_ORDERS);
            runs.awaitRecorded(run);
            assertThat(rebuild.rebuildBeforeSubscribing(0, layout.eventStreamId(0))).isEqualTo(DAY_ORDERS);

            subscribeAndReadTo(DAY_ORDERS + 2, () -> publishOrders(run, DAY_ORDERS + 1, DAY_ORDERS + 2));
            assertThat(subscription.imageBySessionId(run.sessionId()).joinPosition()).as("joined at the start")
                .isEqualTo(0);
        }

        assertThat(orderAddedIds.taken).as("each order once, in order")
            .isEqualTo(OrderAddedIds.orderIds(1, DAY_ORDERS + 2));
        assertThat(replayedEvents.get()).as("nothing more replayed").isEqualTo(DAY_ORDERS);
        assertThat(publishedAddOrders()).isEqualTo(OrderAddedIds.orderIds(1, DAY_ORDERS + 2));
        assertThat(errors.total()).isEqualTo(0);
    }

    @Test
    void shouldPublishEachRunNeverReadOnceWhateverTheCatchUpsThatAskForIt()
    {
        final ExclusivePublication firstRun = runs.start(0);
        publishOrders(firstRun, 1, 3);
        runs.stop(firstRun);
        final ExclusivePublication secondRun = runs.start(0);
        publishOrders(secondRun, 101, 102);
        runs.stop(secondRun);
        final List<EventReplay.Run> recorded = rebuild.replay().runs(layout.eventStreamId(0));

        // The catch-up of an image that turned out superseded published both; the newer run's asks for both again.
        assertThat(rebuild.replayRuns(0, layout.eventStreamId(0), recorded, 0, 2, true)).isEqualTo(5);
        assertThat(rebuild.replayRuns(0, layout.eventStreamId(0), recorded, 0, 2, true)).isEqualTo(0);

        assertThat(orderAddedIds.taken).isEqualTo(List.of(1L, 2L, 3L, 101L, 102L));
        assertThat(publishedAddOrders()).as("published as replayed").isEqualTo(List.of(1L, 2L, 3L, 101L, 102L));
        assertThat(errors.total()).isEqualTo(0);
    }

    /**
     * Two shards rebuilt, and shard 0's engine restarts while shard 1's run is replayed: the second pass replays the
     * rest of shard 0's first run, which stopped meanwhile, then its new run to where it is recorded, so the books hold
     * them before any shard is subscribed to (with one pass, its image's catch-up would replay them while subscribed).
     * The new run is replayed however short: what is left to its image's catch-up is published as increments.
     */
    @Test
    void shouldRebuildInASecondPassWhatAShardRecordedWhileAnotherWasReplayed()
    {
        final ExclusivePublication shard0 = runs.start(0);
        publishOrders(shard0, 1, DAY_ORDERS);
        final ExclusivePublication shard1 = runs.start(1);
        publishOrders(shard1, 1_001_001, 1_001_003);
        runs.stop(shard1);
        runs.awaitRecorded(shard0);
        final ExclusivePublication[] restarted = new ExclusivePublication[1];
        final FragmentHandler restartingShard0 = (buffer, offset, length, header) ->
        {
            handler.onFragment(buffer, offset, length, header);
            if (null == restarted[0] && orderAddedIds.taken.getLast() > 1_000_000) // shard 1's run is replayed
            {
                publishOrders(shard0, DAY_ORDERS + 1, DAY_ORDERS + 2);
                runs.stop(shard0);
                restarted[0] = runs.start(0);
                publishOrders(restarted[0], 2_000_001, 2_000_001);
            }
        };
        final BooksRebuild twoShards = new BooksRebuild(2, new EventReplay(driver.aeron(), driver.archive()), books,
            restartingShard0, replayedEvents, errors);

        assertThat(twoShards.rebuildAllBeforeSubscribing(layout)).isEqualTo(DAY_ORDERS + 3 + 2 + 1);

        final List<Long> expected = OrderAddedIds.orderIds(1, DAY_ORDERS);
        expected.addAll(OrderAddedIds.orderIds(1_001_001, 1_001_003));
        expected.addAll(OrderAddedIds.orderIds(DAY_ORDERS + 1, DAY_ORDERS + 2));
        expected.add(2_000_001L);
        assertThat(orderAddedIds.taken).as("shard 0's day, shard 1's run, the rest of shard 0's first run, its new run")
            .isEqualTo(expected);
        assertThat(errors.total()).isEqualTo(0);
    }

    /**
     * An event archive that does not answer (a media driver that runs none; the archive client's message timeout
     * shortened to 200 ms): the rebuild of two shards stops at once, one connect timeout and one count, not one per
     * shard and pass (before, four, each at Aeron's default 10 s, before the md-publisher subscribed).
     */
    @Test
    void shouldStopRebuildingWhenTheArchiveDoesNotAnswer()
    {
        System.setProperty(AeronArchive.Configuration.MESSAGE_TIMEOUT_PROP_NAME, "200ms");
        try (MediaDriver noArchive = EmbeddedMediaDriver.launch("md-rebuild-no-archive-test");
            Aeron aeron = Aeron.connect(new Aeron.Context().aeronDirectoryName(noArchive.aeronDirectoryName())))
        {
            final BooksRebuild twoShards =
                new BooksRebuild(2, new EventReplay(aeron, driver.archive()), books, handler, replayedEvents, errors);
            assertThat(twoShards.rebuildAllBeforeSubscribing(EmbeddedMediaDriver.defaultLayout(noArchive)))
                .isEqualTo(0);
        }
        finally
        {
            System.clearProperty(AeronArchive.Configuration.MESSAGE_TIMEOUT_PROP_NAME);
        }
        assertThat(errors.count(MdPublisherError.EVENT_REPLAY_FAILED)).as("one failure counted").isEqualTo(1);
        assertThat(errors.total()).isEqualTo(1);
    }

    /**
     * A stopped run of shard 0 whose recording cannot be replayed (its segment file deleted): counted once and given
     * up, and shard 0's next run, still recording, is rebuilt to where it is recorded, as are shard 1's books, before
     * subscribing (before stop 78 the failure stopped shard 0's rebuild, and its image's catch-up then replayed, and
     * published, the whole run).
     */
    @Test
    void shouldGiveUpARunThatCannotBeReplayedAndRebuildTheLaterRunsAndOtherShards() throws IOException
    {
        final ExclusivePublication shard0 = runs.start(0);
        publishOrders(shard0, 1, 3);
        runs.stopAndDamage(shard0);
        final ExclusivePublication shard0Again = runs.start(0);
        publishOrders(shard0Again, 11, 13);
        runs.awaitRecorded(shard0Again);
        final ExclusivePublication shard1 = runs.start(1);
        publishOrders(shard1, 1_001_001, 1_001_003);
        runs.stop(shard1);
        final BooksRebuild twoShards = new BooksRebuild(
            2, new EventReplay(driver.aeron(), driver.archive()), books, handler, replayedEvents, errors);

        assertThat(twoShards.rebuildAllBeforeSubscribing(layout)).isEqualTo(6);

        final List<Long> expected = OrderAddedIds.orderIds(11, 13);
        expected.addAll(OrderAddedIds.orderIds(1_001_001, 1_001_003));
        assertThat(orderAddedIds.taken).isEqualTo(expected);
        assertThat(errors.count(MdPublisherError.EVENT_REPLAY_FAILED)).as("shard 0's first run, once").isEqualTo(1);
    }

    /** @return shard 0's run, which published {@link #DAY_ORDERS} orders, all replayed into the books. */
    private ExclusivePublication recordDayAndRebuild()
    {
        final ExclusivePublication run = runs.start(0);
        publishOrders(run, 1, DAY_ORDERS);
        runs.awaitRecorded(run);
        assertThat(rebuild.rebuildBeforeSubscribing(0, layout.eventStreamId(0))).isEqualTo(DAY_ORDERS);
        return run;
    }

    /**
     * Subscribes to shard 0's events as the md-publisher does after the rebuild (untethered), reads until the first
     * image is caught up, publishes live orders, and reads until the books have taken a number of orders.
     */
    private void subscribeAndReadTo(final int orders, final Runnable publishLive)
    {
        final EngineEventStreams streams = subscribe();
        awaitTrue(() -> subscription.imageCount() > 0);
        awaitTrue(() ->
        {
            streams.poll(10);
            return null == streams.catchUpReason();
        });
        publishLive.run();
        awaitTrue(() ->
        {
            streams.poll(10);
            return orderAddedIds.taken.size() >= orders;
        });
        for (int i = 0; i < 10; i++)
        {
            streams.poll(10); // nothing more: no order twice
        }
    }

    /** @return shard 0's events as the md-publisher reads them after the rebuild, on an untethered subscription. */
    private EngineEventStreams subscribe()
    {
        subscription =
            driver.aeron().addSubscription(StreamLayout.untethered(layout.eventChannel()), layout.eventStreamId(0));
        return new EngineEventStreams(new Subscription[]{subscription}, new long[][]{{Symbols.pack("AAPL")}},
            new MidnightNanoClock(), handler, books, rebuild, Counter.builder().name("rejoins").build(), errors);
    }

    private List<Long> publishedAddOrders()
    {
        final List<Long> orderIds = new ArrayList<>();
        for (final MarketDataEvents.Message message : published.drain())
        {
            if (message instanceof MarketDataEvents.AddOrder addOrder)
            {
                orderIds.add(addOrder.orderId());
            }
        }
        return orderIds;
    }

    /** Publishes the execution of a whole day order (100 shares at $100.00) by a taker that sells. */
    private void publishExecution(final ExclusivePublication run, final long makerOrderId, final long matchNumber)
    {
        final int length = engine.orderExecuted(
            T1 + matchNumber, "AAPL", matchNumber, 100, 1_000_000, Side.SELL, 900_000 + matchNumber, makerOrderId, 0);
        awaitTrue(() -> run.offer(engine.buffer, 0, length) > 0);
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
