package io.bourse.mdpublisher;

import io.aeron.Aeron;
import io.aeron.ExclusivePublication;
import io.aeron.Image;
import io.aeron.Subscription;
import io.aeron.archive.client.AeronArchive;
import io.aeron.driver.MediaDriver;
import io.aeron.logbuffer.FragmentHandler;
import io.bourse.common.aeron.ArchivingDriverFixture;
import io.bourse.common.aeron.EmbeddedMediaDriver;
import io.bourse.common.aeron.EventReplay;
import io.bourse.common.aeron.RecordedRuns;
import io.bourse.common.aeron.StreamLayout;
import io.bourse.common.metrics.ErrorKinds;
import io.bourse.common.time.MidnightNanoClock;
import io.bourse.sbe.engine.Side;
import io.prometheus.metrics.core.metrics.Counter;
import org.agrona.CloseHelper;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import static io.bourse.common.Await.awaitTrue;
import static io.bourse.mdpublisher.OrderAddedIds.orderIds;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link EngineEventStreams} on an untethered subscription (as the md-publisher subscribes with the event archive)
 * that the media driver leaves behind: its reader stalls inside a poll, in the handler of an event, while the shard
 * publishes past its term window, until the driver has closed the image. The events the stalled poll handed on count
 * as read (the closed image's final position is from before that poll), and every event of the shard reaches the
 * books once, in order: after the image joins the run again, also behind the position read (where a tethered reader
 * behind stands, with or without an archive that answers), and when the run ends before it could, with or without a
 * new run; so do those of a next run whose image was left behind before it was caught up. The driver's IPC terms are
 * 64 KiB (a 32 KiB window), its untethered window limit and linger timeouts 1.5 s; the archive's recorder is the
 * tethered reader ahead.
 */
@Timeout(60)
class EngineEventStreamsLeftBehindTest
{
    private static final long T1 = 34_200_000_000_000L;
    /** The events read before the stall, and where the reader stalls: the last event of its second poll. */
    private static final int STALL_AT = 10;
    private static final int FRAGMENT_LIMIT = 5;
    /** About 100 KiB of Order Added events: past the 32 KiB window of the driver's 64 KiB IPC terms. */
    private static final int ORDERS = 1_000;

    private final EngineEventEncoder engine = new EngineEventEncoder();
    private final OrderAddedIds orderAddedIds = new OrderAddedIds();
    private final List<Long> taken = orderAddedIds.taken;
    private final ErrorKinds<MdPublisherError> errors = new ErrorKinds<>("md-publisher", MdPublisherError.class);
    private final Counter rejoins = Counter.builder().name("rejoins").build();
    /** The shard's thread, and a tethered reader's: not the common pool, of one thread on a 2-core host. */
    private final ExecutorService threads = Executors.newFixedThreadPool(2);
    @TempDir
    private Path archiveDir;
    private ArchivingDriverFixture driver;
    private RecordedRuns runs;
    private Subscription subscription;
    /** Done when the reader's stall may end, once its image is closed; null: as soon as it is. */
    private volatile CompletableFuture<?> stallUntil;

    /** @param restingTimeoutNs how long the image rests, once left behind, before it joins again. */
    private void startDriver(final long restingTimeoutNs)
    {
        driver = UntetheredDriver.launch("md-left-behind-test", archiveDir, restingTimeoutNs);
        runs = new RecordedRuns(driver);
    }

    @AfterEach
    void tearDown()
    {
        threads.shutdownNow();
        CloseHelper.closeAll(subscription, runs, driver);
    }

    @Test
    void shouldPublishTheEventsMissedWhileLeftBehindOnceFromWhereTheStalledPollReadToWhenTheRunJoinsAgain()
    {
        startDriver(UntetheredDriver.TIMEOUT_NS);
        final ExclusivePublication run = runs.start(0);
        final EngineEventStreams streams = streams();
        publishOrders(run, 1, 3 * STALL_AT);

        // The shard goes on publishing while the reader stalls: held at its window, until the driver leaves the
        // reader behind.
        final long[] longestOfferNs = new long[1];
        final CompletableFuture<Void> shard = CompletableFuture.runAsync(() ->
            longestOfferNs[0] = publishOrders(run, 3 * STALL_AT + 1, ORDERS), threads);
        takeAll(streams, ORDERS, shard);

        System.out.println("EngineEventStreamsLeftBehindTest: the shard was held for " +
            TimeUnit.NANOSECONDS.toMillis(longestOfferNs[0]) + " ms at most by the stalled reader");
        assertThat(taken).as("every order once, in order").isEqualTo(orderIds(1, ORDERS));
        assertThat(rejoins.get()).as("the run's image joined again").isEqualTo(1.0);
        assertThat(errors.total()).isEqualTo(0);
    }

    /**
     * The shard publishes past its window and its run ends, before the reader left behind could join it again (a
     * 10 s rest); its engine restarts, publishing three orders in a new run, or does not.
     */
    @ParameterizedTest(name = "engine restarts: {0}")
    @ValueSource(booleans = {true, false})
    void shouldPublishTheUnreadTailOfARunThatEndedWhileLeftBehind(final boolean engineRestarts)
    {
        startDriver(TimeUnit.SECONDS.toNanos(10));
        final ExclusivePublication run = runs.start(0);
        final EngineEventStreams streams = streams();
        publishOrders(run, 1, 3 * STALL_AT);

        final List<Long> expected = orderIds(1, ORDERS);
        final CompletableFuture<Void> shard = CompletableFuture.runAsync(() ->
        {
            publishOrders(run, 3 * STALL_AT + 1, ORDERS);
            runs.stop(run);
            if (engineRestarts)
            {
                recordNewRun(1_001_001, 1_001_003);
            }
        }, threads);
        if (engineRestarts)
        {
            expected.addAll(orderIds(1_001_001, 1_001_003));
        }
        takeAll(streams, expected.size(), shard);

        assertThat(taken).as("the first run's every order once, then the new run's").isEqualTo(expected);
        assertThat(rejoins.get()).as("the first run ended before its image could join again").isEqualTo(0.0);
        assertThat(errors.total()).isEqualTo(0);
    }

    /**
     * While the reader stalls, the shard's run ends, and the next run's image, waiting behind the first run's, is left
     * behind before it is ever caught up; that run ends too (or first joins again, past the run's start, and publishes
     * five more orders), and a third run publishes, or none does. The second run comes whole from the third run's
     * catch-up, or once the archive shows it stopped, after the first run's unread tail (before, it was lost); an image
     * of it that joined again is caught up when the third run records, superseded, and none of its live events is read
     * (before, they were, and came twice).
     */
    @ParameterizedTest(name = "second run joins again: {0}, a third run follows: {1}")
    @CsvSource({"false, true", "true, true", "false, false"})
    void shouldPublishARunLeftBehindBeforeItWasCaughtUpWholeAfterTheRunBefore(
        final boolean joinsAgain, final boolean thirdRunFollows)
    {
        startDriver(joinsAgain ? UntetheredDriver.TIMEOUT_NS : TimeUnit.SECONDS.toNanos(10));
        final ExclusivePublication run = runs.start(0);
        final EngineEventStreams streams = streams();
        publishOrders(run, 1, 3 * STALL_AT);

        final int secondRunOrders = joinsAgain ? ORDERS + 5 : ORDERS;
        final CompletableFuture<Void> shard = CompletableFuture.runAsync(() ->
        {
            publishOrders(run, 3 * STALL_AT + 1, ORDERS);
            runs.stop(run);
            final ExclusivePublication secondRun = runs.start(0);
            awaitTrue(() -> null != subscription.imageBySessionId(secondRun.sessionId()));
            final Image leftBehind = subscription.imageBySessionId(secondRun.sessionId());
            publishOrders(secondRun, 1_000_001, 1_000_000 + ORDERS); // past its window: left behind
            if (joinsAgain)
            {
                awaitTrue(() ->
                {
                    final Image image = subscription.imageBySessionId(secondRun.sessionId());
                    return null != image && leftBehind != image; // where the archive's recorder stands
                });
                publishOrders(secondRun, 1_000_001 + ORDERS, 1_000_000 + secondRunOrders);
            }
            runs.stop(secondRun);
            if (thirdRunFollows)
            {
                recordNewRun(2_000_001, 2_000_003);
            }
        }, threads);
        stallUntil = shard;
        final List<Long> expected = orderIds(1, ORDERS);
        expected.addAll(orderIds(1_000_001, 1_000_000 + secondRunOrders));
        if (thirdRunFollows)
        {
            expected.addAll(orderIds(2_000_001, 2_000_003));
        }
        takeAll(streams, expected.size(), shard);

        assertThat(taken).as("each run's every order once, in the order of the runs").isEqualTo(expected);
        assertThat(errors.total()).isEqualTo(0);
    }

    /**
     * The run's image joins again where a tethered reader behind stands, behind the position read: nothing was missed,
     * so its live events up to that position are skipped and the archive is not asked. With an event archive that does
     * not answer (the replays' client on a media driver that runs none, its message timeout 200 ms), two lookups fail
     * and count: the first image's catch-up of the shard's earlier runs, and whether the run left behind has ended (1 s
     * after its image closed; the image rests 3 s, so the lookup comes before it joins again); the rejoin counts
     * nothing (before d6d4ec7, it listed the archive first: a 200 ms wait and a third count).
     */
    @ParameterizedTest(name = "the archive answers: {0}")
    @ValueSource(booleans = {true, false})
    void shouldSkipTheLiveEventsAlreadyReadWhenTheRunJoinsAgainBehindThem(final boolean archiveAnswers)
    {
        startDriver(archiveAnswers ? UntetheredDriver.TIMEOUT_NS : TimeUnit.SECONDS.toNanos(3));
        final ExclusivePublication run = runs.start(0);
        // Tethered, as an order gateway reads the shard's events: it stands at the 5th event, behind the reader's
        // stall at the 10th, until the reader's image has joined again, there.
        final StreamLayout layout = driver.layout();
        if (!archiveAnswers)
        {
            System.setProperty(AeronArchive.Configuration.MESSAGE_TIMEOUT_PROP_NAME, "200ms");
        }
        try (Subscription gateway = driver.aeron().addSubscription(layout.eventChannel(), layout.eventStreamId(0));
            MediaDriver noArchive = archiveAnswers ? null : EmbeddedMediaDriver.launch("md-left-behind-no-archive");
            Aeron noArchiveAeron = archiveAnswers ? null :
                Aeron.connect(new Aeron.Context().aeronDirectoryName(noArchive.aeronDirectoryName())))
        {
            final EngineEventStreams streams = streams(archiveAnswers ? driver.aeron() : noArchiveAeron);
            awaitTrue(() -> gateway.imageCount() == 1);
            publishOrders(run, 1, 3 * STALL_AT);
            final FragmentHandler ignored = (buffer, offset, length, header) -> { };
            final int[] gatewayRead = {0};
            awaitTrue(() ->
                (gatewayRead[0] += gateway.poll(ignored, STALL_AT / 2 - gatewayRead[0])) == STALL_AT / 2);

            final CompletableFuture<Void> shard = CompletableFuture.runAsync(() ->
                publishOrders(run, 3 * STALL_AT + 1, ORDERS), threads);
            final CompletableFuture<Void> gatewayBehind = CompletableFuture.runAsync(() ->
            {
                awaitTrue(() -> rejoins.get() >= 1.0);
                awaitTrue(() -> (gatewayRead[0] += gateway.poll(ignored, Integer.MAX_VALUE)) >= ORDERS);
            }, threads);
            takeAll(streams, ORDERS, shard, gatewayBehind);
        }
        finally
        {
            System.clearProperty(AeronArchive.Configuration.MESSAGE_TIMEOUT_PROP_NAME);
        }

        assertThat(taken).as("every order once, in order").isEqualTo(orderIds(1, ORDERS));
        assertThat(rejoins.get()).as("the run's image joined again").isEqualTo(1.0);
        assertThat(errors.count(MdPublisherError.EVENT_REPLAY_FAILED))
            .as("the first image's catch-up and the left-behind run's end looked up, when the archive does not answer")
            .isEqualTo(archiveAnswers ? 0 : 2);
        assertThat(errors.total()).isEqualTo(errors.count(MdPublisherError.EVENT_REPLAY_FAILED));
    }

    /**
     * @return the streams of shard 0 on an untethered subscription, whose handler takes each Order Added's order id
     * and, at the {@link #STALL_AT}th, holds the poll until the media driver has closed the image.
     */
    private EngineEventStreams streams()
    {
        return streams(driver.aeron());
    }

    /**
     * @param replayClient the client the replays and listings of the event archive go through: on the test's driver,
     *                     or on one that runs no archive.
     */
    private EngineEventStreams streams(final Aeron replayClient)
    {
        final StreamLayout layout = driver.layout();
        subscription = driver.aeron().addSubscription(
            StreamLayout.untethered(layout.eventChannel()), layout.eventStreamId(0));
        awaitTrue(() -> subscription.imageCount() == 1);
        final FragmentHandler adapter = (buffer, offset, length, frameHeader) ->
        {
            final int before = taken.size();
            orderAddedIds.onFragment(buffer, offset, length, frameHeader);
            if (STALL_AT == taken.size() && before < STALL_AT)
            {
                final Image image = (Image)frameHeader.context();
                final CompletableFuture<?> until = stallUntil;
                if (null != until)
                {
                    until.join();
                }
                awaitTrue(image::isClosed);
            }
        };
        final MarketDataBooks books = new MarketDataBooks(new long[0], 0, DiscardedMarketData.INSTANCE, errors);
        return new EngineEventStreams(new Subscription[]{subscription}, new long[][]{{}}, new MidnightNanoClock(),
            adapter, books, new BooksRebuild(1, new EventReplay(replayClient, driver.archive()), books, adapter,
            Counter.builder().name("replayed").build(), errors), rejoins, errors);
    }

    /**
     * Polls the streams until they have taken that many orders, waits for the test's other threads, and polls a little
     * longer: an order taken twice comes out in what follows. The stall, inside the poll that takes the
     * {@link #STALL_AT}th order, lasts as long as the shard's runs and the media driver's timeouts take (8 to 11 s
     * measured): the wait for the rest has a deadline of its own.
     */
    private void takeAll(final EngineEventStreams streams, final int orders, final CompletableFuture<?>... others)
    {
        awaitTrue(() ->
        {
            streams.poll(FRAGMENT_LIMIT);
            return taken.size() >= STALL_AT;
        });
        awaitTrue(() ->
        {
            streams.poll(FRAGMENT_LIMIT);
            return taken.size() >= orders;
        });
        CompletableFuture.allOf(others).join();
        for (int i = 0; i < 10; i++)
        {
            streams.poll(FRAGMENT_LIMIT);
        }
    }

    /** Starts a new run of the shard (its engine restarted), publishes orders and waits until they are recorded. */
    private void recordNewRun(final long firstOrderId, final long lastOrderId)
    {
        final ExclusivePublication newRun = runs.start(0);
        publishOrders(newRun, firstOrderId, lastOrderId);
        runs.awaitRecorded(newRun);
    }

    /** @return the longest an offer waited for room, in ns. */
    private long publishOrders(final ExclusivePublication run, final long firstOrderId, final long lastOrderId)
    {
        long longestNs = 0;
        for (long orderId = firstOrderId; orderId <= lastOrderId; orderId++)
        {
            final int length = engine.orderAdded(T1 + orderId, "AAPL", orderId, Side.SELL, 100, 1_000_000, 'Y');
            final long startNs = System.nanoTime();
            awaitTrue(() -> run.offer(engine.buffer, 0, length) > 0);
            longestNs = Math.max(longestNs, System.nanoTime() - startNs);
        }
        return longestNs;
    }
}
