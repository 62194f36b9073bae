package io.bourse.mdpublisher;

import com.paritytrading.nassau.moldudp64.MoldUDP64ClientState;
import io.aeron.Aeron;
import io.aeron.ChannelUri;
import io.aeron.ExclusivePublication;
import io.aeron.Publication;
import io.aeron.Subscription;
import io.aeron.archive.client.AeronArchive;
import io.aeron.archive.status.RecordingPos;
import io.aeron.driver.status.SubscriberPos;
import io.bourse.common.aeron.ArchivingDriverFixture;
import io.bourse.common.aeron.EventArchive;
import io.bourse.common.aeron.RecordedRuns;
import io.bourse.common.aeron.StreamCounters;
import io.bourse.common.aeron.StreamLayout;
import io.bourse.common.config.SymbolDirectory;
import io.bourse.common.metrics.MetricsEndpoint;
import io.bourse.common.metrics.ReadyEndpoint;
import io.bourse.itch.ItchEvents;
import io.bourse.sbe.engine.TradingState;
import io.bourse.sbe.md.Feed;
import org.agrona.CloseHelper;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.CountersReader;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.net.InetSocketAddress;
import java.nio.channels.DatagramChannel;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static io.bourse.common.Await.awaitTrue;
import static io.bourse.mdpublisher.MarketDataCapture.Sequenced;
import static io.bourse.mdpublisher.MarketDataEvents.AddOrder;
import static io.bourse.mdpublisher.MarketDataEvents.Bbo;
import static io.bourse.mdpublisher.MarketDataEvents.Delete;
import static io.bourse.mdpublisher.MarketDataEvents.Executed;
import static io.bourse.mdpublisher.MarketDataEvents.Level;
import static io.bourse.mdpublisher.MarketDataEvents.Trade;
import static io.bourse.mdpublisher.MarketDataEvents.TradingAction;
import static io.bourse.sbe.engine.Side.BUY;
import static io.bourse.sbe.engine.Side.SELL;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The md-publisher restarted while the engine shards run: two shards' event publications recorded in a real
 * {@link EventArchive} on an archiving media driver, as the engine records them. A second md-publisher, started after
 * the first stopped and after more events were published, must hold the books of the whole run (replayed from the
 * archive without publishing them), publish them as they stand from sequence number 1 (Add Orders, levels, BBO,
 * trading state), then its live market data on top of them. Beside that: a lingering image of an earlier run is not
 * replayed when a newer run records, and a run with no recording is counted and read live.
 */
@Timeout(60)
class MdPublisherRestartTest
{
    private static final long T1 = 34_200_000_000_000L;

    private final EngineEventEncoder engine = new EngineEventEncoder();
    @TempDir
    private Path archiveDir;
    private EventArchive archive;
    private ArchivingDriverFixture driver;
    private StreamLayout layout;
    private Aeron aeron;
    private AeronArchive archiveClient;
    private RecordedRuns runs;
    private ExclusivePublication shard0;
    private ExclusivePublication shard1;
    private MdPublisherService service;

    @BeforeEach
    void setUp()
    {
        driver = new ArchivingDriverFixture("md-restart-test", archiveDir);
        archive = driver.archive();
        layout = driver.layout();
        aeron = driver.aeron();
        runs = new RecordedRuns(driver);
        archiveClient = runs.archiveClient();
        shard0 = runs.start(0);
        shard1 = runs.start(1);
    }

    @AfterEach
    void tearDown()
    {
        CloseHelper.closeAll(service, runs, driver);
    }

    @Test
    void shouldRebuildTheBooksOfTheWholeRunAndPublishThemAsTheyStandThenLiveMarketData() throws Exception
    {
        service = launch();
        ReadyEndpoint.awaitAnswer(service.metricsPort(), "200 ready\n");
        offer(shard0, engine.orderAdded(T1, "AAPL", 17, SELL, 300, 1_500_100, 'Y'));
        offer(shard1, engine.orderAdded(T1 + 10, "MSFT", 18, BUY, 100, 4_000_000, 'Y'));
        offer(shard0, engine.orderExecuted(T1 + 20, "AAPL", 33, 100, 1_500_100, BUY, 49, 17, 200));
        awaitTrue(() -> scrape(service).contains("bourse_md_events_in_total{type=\"executed\"} 1.0\n"));
        service.close();
        service = null;

        // Published while no md-publisher listens: only the archive records them.
        offer(shard0, engine.orderAdded(T1 + 30, "AAPL", 19, BUY, 200, 1_499_000, 'Y'));
        offer(shard1, engine.orderCanceled(T1 + 40, "MSFT", 18, 100, 0));
        offer(shard1, engine.tradingStateChanged(T1 + 50, "MSFT", TradingState.HALTED));

        // Subscribed before the second md-publisher publishes: every message it publishes is captured.
        final MarketDataCapture capture = new MarketDataCapture();
        final MarketDataCapture depth = new MarketDataCapture();
        final MarketDataCapture bbo = new MarketDataCapture();
        try (Subscription marketData = aeron.addSubscription(layout.marketDataChannel(), layout.marketDataStreamId());
            Subscription depthFeed = aeron.addSubscription(layout.feedChannel(), layout.depthStreamId());
            Subscription bboFeed = aeron.addSubscription(layout.feedChannel(), layout.bboStreamId()))
        {
            service = launch();
            ReadyEndpoint.awaitAnswer(service.metricsPort(), "200 ready\n");
            final MdPublisherService restarted = service;
            awaitTrue(() ->
                scrape(restarted).contains("bourse_md_events_in_total{type=\"trading_state_changed\"} 1.0\n"));
            // The subscriptions join where Aeron puts them (at least where the first md-publisher had read to): the
            // events before are replayed, those after read live. Each is taken once, and the books are the run's.
            assertThat(scrape(service))
                .containsPattern("bourse_md_replayed_events_total [2-6]\\.0\n")
                .contains("bourse_md_events_in_total{type=\"added\"} 3.0\n")
                .contains("bourse_md_events_in_total{type=\"executed\"} 1.0\n")
                .contains("bourse_md_events_in_total{type=\"canceled\"} 1.0\n")
                .contains("bourse_md_events_in_total{type=\"trading_state_changed\"} 1.0\n")
                .contains("bourse_md_errors_total{kind=").doesNotContainPattern(Counters.MD_ERROR_COUNTED)
                .contains("bourse_md_book_orders{side=\"offer\",symbol=\"AAPL\"} 1.0\n")
                .contains("bourse_md_book_shares{side=\"offer\",symbol=\"AAPL\"} 200.0\n")
                .contains("bourse_md_book_orders{side=\"bid\",symbol=\"AAPL\"} 1.0\n")
                .contains("bourse_md_book_orders{side=\"bid\",symbol=\"MSFT\"} 0.0\n")
                .contains("bourse_md_trades_total{symbol=\"AAPL\"} 1.0\n");

            awaitTrue(() -> marketData.isConnected() && depthFeed.isConnected() && bboFeed.isConnected());
            offer(shard0, engine.orderExecuted(T1 + 60, "AAPL", 34, 50, 1_500_100, BUY, 51, 17, 150));
            awaitTrue(() ->
            {
                marketData.poll(capture, 10);
                return !capture.messages.isEmpty() &&
                    capture.messages.getLast().message() instanceof Trade trade && T1 + 60 == trade.timestampNs();
            });
            awaitTrue(() ->
            {
                depthFeed.poll(depth, 10);
                return !depth.messages.isEmpty() &&
                    depth.messages.getLast().message() instanceof Level level && T1 + 60 == level.timestampNs();
            });
            awaitTrue(() ->
            {
                bboFeed.poll(bbo, 10);
                return !bbo.messages.isEmpty() &&
                    bbo.messages.getLast().message() instanceof Bbo last && T1 + 60 == last.timestampNs();
            });
        }
        final List<Sequenced> messages = capture.messages;
        final int count = messages.size();
        for (int i = 0; i < count; i++)
        {
            assertThat(messages.get(i).sequenceNumber()).as("%s", messages).isEqualTo(i + 1);
        }
        // The depth feed of the new run starts again from sequence number 1, with the books' levels as they stand, and
        // a subscriber from there holds the run's levels.
        final Map<String, Long> levels = new HashMap<>();
        for (int i = 0; i < depth.messages.size(); i++)
        {
            assertThat(depth.messages.get(i).sequenceNumber()).as("%s", depth.messages).isEqualTo(i + 1);
            final Level level = (Level)depth.messages.get(i).message();
            levels.put(level.symbol() + " " + level.side() + " " + level.price(), level.quantity());
        }
        levels.values().removeIf((quantity) -> 0 == quantity);
        assertThat(levels).containsOnly(Map.entry("AAPL SELL 1500100", 150L), Map.entry("AAPL BUY 1499000", 200L));
        // So does the BBO feed, with each symbol's best bid and offer.
        for (int i = 0; i < bbo.messages.size(); i++)
        {
            assertThat(bbo.messages.get(i).sequenceNumber()).as("%s", bbo.messages).isEqualTo(i + 1);
        }
        assertThat(bbo.messages.getLast().message())
            .isEqualTo(new Bbo(T1 + 60, "AAPL", 1_499_000, 200, 1_500_100, 150));
        // The books as they stand, not the replayed events: a subscriber from sequence number 1 builds the run's
        // book (order 17 with the time of its priority and its open shares, order 19), each change naming an order
        // it was given, and MSFT's halt; no trade from before the restart.
        final Map<Long, AddOrder> book = new HashMap<>();
        for (final Sequenced sequenced : messages)
        {
            switch (sequenced.message())
            {
                case AddOrder add -> assertThat(book.put(add.orderId(), add)).as("added twice: %s", add).isNull();
                case Executed executed -> book.computeIfPresent(executed.orderId(), (id, order) -> withShares(order,
                    order.quantity() - executed.executedQuantity()));
                case Delete delete -> assertThat(book.remove(delete.orderId())).as("%s", delete).isNotNull();
                default ->
                {
                }
            }
            if (sequenced.message() instanceof Executed executed)
            {
                assertThat(book).as("%s", executed).containsKey(executed.orderId());
            }
        }
        assertThat(book).containsOnly(
            Map.entry(17L, new AddOrder(T1, "AAPL", 17, Side.SELL, 150, 1_500_100)),
            Map.entry(19L, new AddOrder(T1 + 30, "AAPL", 19, Side.BUY, 200, 1_499_000)));
        assertThat(messages).extracting(Sequenced::message)
            .contains(new TradingAction(T1 + 50, "MSFT", 'H', "O1  "))
            .noneMatch((message) -> message instanceof Trade trade && 33 == trade.matchNumber());
        assertThat(messages.subList(count - 2, count)).extracting(Sequenced::message).containsExactly(
            new Executed(T1 + 60, "AAPL", 17, 50, 34, 1_500_100),
            new Trade(T1 + 60, "AAPL", 34, Side.BUY, 50, 1_500_100, true));
    }

    @Test
    void shouldReplayNothingForStreamsJoinedAtTheirStart() throws Exception
    {
        service = launch();
        ReadyEndpoint.awaitAnswer(service.metricsPort(), "200 ready\n");
        offer(shard0, engine.orderAdded(T1, "AAPL", 17, SELL, 300, 1_500_100, 'Y'));
        awaitTrue(() -> scrape(service).contains("bourse_md_book_orders{side=\"offer\",symbol=\"AAPL\"} 1.0\n"));

        assertThat(scrape(service)).contains("bourse_md_replayed_events_total 0.0\n");
    }

    /**
     * The engine shard restarted (it recovers its state from its earlier runs' recordings, so its new run continues
     * them), then the md-publisher starts: the books hold the earlier run's orders and the new run's.
     */
    @Test
    void shouldRebuildFromEveryRunOfTheShardWhenTheEngineRestartedBefore() throws Exception
    {
        offer(shard1, engine.orderAdded(T1, "MSFT", 18, BUY, 100, 4_000_000, 'Y'));
        final long firstRun = RecordingPos.getRecordingId(aeron.countersReader(), runs.awaitRecorded(shard1));
        shard1.close();
        awaitTrue(() -> AeronArchive.NULL_POSITION != archiveClient.getStopPosition(firstRun));
        final ExclusivePublication newRun = runs.start(1);
        offer(newRun, engine.orderAdded(T1 + 10, "MSFT", 20, SELL, 300, 4_100_000, 'Y'));
        runs.awaitRecorded(newRun);

        service = launch();
        ReadyEndpoint.awaitAnswer(service.metricsPort(), "200 ready\n");

        assertThat(scrape(service))
            .contains("bourse_md_errors_total{kind=").doesNotContainPattern(Counters.MD_ERROR_COUNTED)
            .contains("bourse_md_book_orders{side=\"bid\",symbol=\"MSFT\"} 1.0\n")
            .contains("bourse_md_book_orders{side=\"offer\",symbol=\"MSFT\"} 1.0\n")
            .containsPattern("bourse_md_replayed_events_total [12]\\.0\n");
    }

    @Test
    void shouldRebuildFromTheNewestRunOnlyWhenAnEarlierRunsImageLingers() throws Exception
    {
        // Shard 1's engine died without closing its stream (its publication stays) and a new run records, as a shard
        // could before shards recovered (a restarted shard now waits until its earlier run stops recording): the
        // earlier run, still recording, is not the new run's history.
        offer(shard1, engine.orderAdded(T1, "MSFT", 18, BUY, 100, 4_000_000, 'Y'));
        final ExclusivePublication newRun = runs.start(1);
        offer(newRun, engine.orderAdded(T1 + 10, "MSFT", 20, SELL, 300, 4_100_000, 'Y'));
        offer(newRun, engine.orderAdded(T1 + 20, "MSFT", 21, SELL, 100, 4_200_000, 'Y'));
        // Recorded, so that both images join at the publications' ends (the archive is their one subscriber).
        runs.awaitRecorded(shard1);
        runs.awaitRecorded(newRun);

        service = launch();
        ReadyEndpoint.awaitAnswer(service.metricsPort(), "200 ready\n");

        // The old run's image is not replayed (its order 18 is not the new run's book); the new run's two orders are.
        assertThat(scrape(service))
            .contains("bourse_md_replayed_events_total 2.0\n")
            .contains("bourse_md_errors_total{kind=").doesNotContainPattern(Counters.MD_ERROR_COUNTED)
            .contains("bourse_md_book_orders{side=\"bid\",symbol=\"MSFT\"} 0.0\n")
            .contains("bourse_md_book_orders{side=\"offer\",symbol=\"MSFT\"} 2.0\n")
            .contains("bourse_md_book_shares{side=\"offer\",symbol=\"MSFT\"} 400.0\n");
    }

    @Test
    void shouldCountARunWithNoRecordingAndGoOnWithTheEventsHeardLive() throws Exception
    {
        offer(shard1, engine.orderAdded(T1, "MSFT", 18, BUY, 100, 4_000_000, 'Y'));
        final CountersReader counters = aeron.countersReader();
        final long recordingId = RecordingPos.getRecordingId(counters, runs.awaitRecorded(shard1));
        // The run's recording stops and is purged (an archive emptied by hand): order 18 is in no recording. A reader
        // of the test's own stays past order 18 meanwhile: an IPC subscriber joins where the media driver last saw the
        // stream's most advanced subscriber, which the recording alone, stopping right after it recorded, may leave
        // before order 18 (the md-publisher then reads it live, and there is nothing to count).
        try (Subscription reader = aeron.addSubscription(shard1.channel(), shard1.streamId()))
        {
            awaitTrue(() -> reader.poll((buffer, offset, length, header) -> { }, 10) >= 0 &&
                reader.imageCount() > 0 && reader.imageAtIndex(0).position() >= shard1.position());
            archiveClient.stopRecording(ChannelUri.addSessionId(shard1.channel(), shard1.sessionId()),
                shard1.streamId());
            awaitTrue(() ->
                1 == StreamCounters.count(counters, shard1.streamId(), SubscriberPos.SUBSCRIBER_POSITION_TYPE_ID));
        }
        awaitTrue(() ->
            0 == StreamCounters.count(counters, shard1.streamId(), SubscriberPos.SUBSCRIBER_POSITION_TYPE_ID));
        // With no subscriber the stream's limit is that position, where the md-publisher's subscriber will join.
        awaitTrue(() -> shard1.positionLimit() == shard1.position());
        archiveClient.purgeRecording(recordingId);

        service = launch();
        ReadyEndpoint.awaitAnswer(service.metricsPort(), "200 ready\n");
        assertThat(scrape(service))
            .contains("bourse_md_errors_total{kind=\"event_replay_failed\"} 1.0\n")
            .contains("bourse_md_replayed_events_total 0.0\n")
            .contains("bourse_md_book_orders{side=\"bid\",symbol=\"MSFT\"} 0.0\n");

        // The stream is read live from where the md-publisher joined it, its books updated.
        offer(shard1, engine.orderAdded(T1 + 10, "MSFT", 20, SELL, 50, 4_100_000, 'Y'));
        awaitTrue(() -> scrape(service).contains("bourse_md_book_orders{side=\"offer\",symbol=\"MSFT\"} 1.0\n"));
        assertThat(scrape(service)).contains("bourse_md_errors_total{kind=\"event_replay_failed\"} 1.0\n");
    }

    /**
     * A shard down when the md-publisher restarts: its books, rebuilt from the archive before subscribing, are
     * published with the others at the start, and a snapshot answered while the shard is down holds them (before stop
     * 78 they were published only when its next run's image was caught up, and its symbols' books were empty until
     * then). When the shard restarts, its image's catch-up publishes only its new run's events: each order once.
     */
    @Test
    void shouldPublishAndSnapshotTheBooksOfAShardDownAtTheRestart() throws Exception
    {
        offer(shard0, engine.orderAdded(T1, "AAPL", 17, SELL, 300, 1_500_100, 'Y'));
        runs.stop(shard0);
        offer(shard1, engine.orderAdded(T1 + 1, "MSFT", 18, BUY, 100, 4_000_000, 'Y'));
        runs.awaitRecorded(shard1);

        final SnapshotFeedReader orders = new SnapshotFeedReader();
        final MarketDataCapture increments = new MarketDataCapture();
        orders.increments = increments;
        try (Subscription marketData = aeron.addSubscription(layout.marketDataChannel(), layout.marketDataStreamId());
            Publication requests =
                aeron.addPublication(layout.snapshotRequestChannel(), layout.snapshotRequestStreamId()))
        {
            orders.subscription = marketData;
            service = launch();
            awaitTrue(() -> marketData.poll(orders, 10) >= 0 && increments.messages.size() >= 2);
            assertThat(increments.messages).as("both shards' books published; shard 0 has no image").containsExactly(
                new Sequenced(1, new AddOrder(T1, "AAPL", 17, Side.SELL, 300, 1_500_100)),
                new Sequenced(2, new AddOrder(T1 + 1, "MSFT", 18, Side.BUY, 100, 4_000_000)));

            SnapshotFeedReader.request(requests, new UnsafeBuffer(new byte[64]), 42, Feed.ORDERS);
            orders.awaitSnapshot(2);
            assertThat(orders.snapshot).hasSize(5);
            assertThat(orders.snapshot.get(0)).matches("BookSnapshot 42 #0 AAPL after 2 at \\d+: T '    ' since 0");
            assertThat(orders.snapshot.get(1)).isEqualTo("  17 S 300 @ 1500100 t " + T1 + " by '    '");
            assertThat(orders.snapshot.get(2)).matches("BookSnapshot 42 #1 MSFT after 2 at \\d+: T '    ' since 0");
            assertThat(orders.snapshot.get(3)).isEqualTo("  18 B 100 @ 4000000 t " + (T1 + 1) + " by '    '");

            // Shard 0's engine restarts (it recovers order 17): its image's catch-up publishes its new run's events.
            final ExclusivePublication restarted = runs.start(0);
            offer(restarted, engine.orderAdded(T1 + 2, "AAPL", 19, BUY, 100, 1_400_000, 'Y'));
            awaitTrue(() -> marketData.poll(orders, 10) >= 0 && increments.messages.size() >= 3);
            for (int i = 0; i < 20; i++)
            {
                marketData.poll(orders, 10); // nothing more: no order twice
            }
        }
        assertThat(increments.messages).as("after the snapshot: the new run's order, once").hasSize(3).last()
            .isEqualTo(new Sequenced(3, new AddOrder(T1 + 2, "AAPL", 19, Side.BUY, 100, 1_400_000)));
        assertThat(scrape(service)).contains("bourse_md_errors_total{kind=")
            .doesNotContainPattern(Counters.MD_ERROR_COUNTED);
    }

    /**
     * The MoldUDP64 session of a restarted md-publisher, as a real receiver (nassau) takes it from sequence number 1:
     * its opening waits for the books rebuilt from the archive, so its spin tells each symbol's state as the run left
     * it (MSFT halted while no md-publisher ran: 'H' in the spin, not 'T' and a second Stock Trading Action) and an Add
     * Order follows per resting order with its open shares, bids then offers; then the live market data, gap-free, no
     * trade from before the restart printed again.
     */
    @Test
    void shouldOpenTheRestartedMoldUdp64SessionWithTheRebuiltStatesAndBooks() throws Exception
    {
        service = launch();
        offer(shard0, engine.orderAdded(T1, "AAPL", 17, SELL, 300, 1_500_100, 'Y'));
        offer(shard1, engine.orderAdded(T1 + 10, "MSFT", 18, BUY, 100, 4_000_000, 'Y'));
        offer(shard0, engine.orderExecuted(T1 + 20, "AAPL", 33, 100, 1_500_100, BUY, 49, 17, 200));
        final MdPublisherService first = service;
        awaitTrue(() -> scrape(first).contains("bourse_md_events_in_total{type=\"executed\"} 1.0\n"));
        service.close();
        service = null;
        // While no md-publisher runs: only the archive records them.
        offer(shard0, engine.orderAdded(T1 + 30, "AAPL", 19, BUY, 200, 1_499_000, 'Y'));
        offer(shard1, engine.tradingStateChanged(T1 + 40, "MSFT", TradingState.HALTED));
        runs.awaitRecorded(shard0);
        runs.awaitRecorded(shard1);

        final InetSocketAddress group = Multicast.randomGroup();
        try (DatagramChannel downstream = Multicast.join(group))
        {
            service = launchWithMoldFeed(group);
            try (MoldReceiver receiver =
                new MoldReceiver(downstream, new InetSocketAddress(Multicast.LOOPBACK, service.moldRequestPort())))
            {
                final List<ItchEvents.Message> expected = MoldReceiver.sessionOpening('H', "O1  ");
                awaitTrue(() -> receiver.polled() && receiver.itch.messages.size() >= expected.size() + 3);
                // The spin's Add Orders carry the opening's time, as its Trading Actions do.
                final long openingNs = ((ItchEvents.AddOrder)receiver.itch.messages.get(expected.size())).timestampNs();
                expected.add(new ItchEvents.AddOrder(1, 0, openingNs, 19, 'B', 200, "AAPL", 1_499_000));
                expected.add(new ItchEvents.AddOrder(1, 0, openingNs, 17, 'S', 200, "AAPL", 1_500_100));
                expected.add(new ItchEvents.AddOrder(2, 0, openingNs, 18, 'B', 100, "MSFT", 4_000_000));
                ReadyEndpoint.awaitAnswer(service.metricsPort(), "200 ready\n");

                offer(shard0, engine.orderExecuted(T1 + 50, "AAPL", 34, 50, 1_500_100, BUY, 51, 17, 150));
                expected.add(new ItchEvents.OrderExecuted(1, 0, T1 + 50, 17, 50, 34));
                awaitTrue(() -> receiver.polled() && receiver.itch.messages.size() >= expected.size());
                for (int i = 0; i < 20; i++)
                {
                    receiver.poll(); // nothing more: no message twice
                }
                assertThat(receiver.itch.messages).isEqualTo(expected);
                assertThat(receiver.states).containsExactly(MoldUDP64ClientState.SYNCHRONIZED);
                assertThat(receiver.requests).as("no gap").isEmpty();
            }
        }
        assertThat(scrape(service)).contains("bourse_md_errors_total{kind=")
            .doesNotContainPattern(Counters.MD_ERROR_COUNTED)
            .contains("bourse_md_mold_errors_total 0.0\n");
    }

    /**
     * A rebuilt book larger than the order feed's window (half a term: 32 KiB, about 340 Add Orders, at the 64 KiB
     * terms given here; 32 MiB, about 350,000, at the default 64 MiB): the Add Orders published after the rebuild
     * would fill the window within one duty cycle. The MoldUDP64 feed, on the same thread, takes each as it is
     * encoded, so it sends them all (here with no order-feed subscriber; one that stalls is
     * {@code MdPublisherMoldFeedTest}'s).
     */
    @Test
    void shouldPublishARebuiltBookLargerThanTheOrderFeedsWindowWithoutDroppingAnyAddOrder() throws Exception
    {
        final int orders = 2_000;
        for (int i = 0; i < orders; i++)
        {
            offer(shard0, engine.orderAdded(T1 + i, "AAPL", 100 + i, 0 == (i & 1) ? BUY : SELL, 100,
                0 == (i & 1) ? 1_400_000 - 100L * (i % 50) : 1_600_000 + 100L * (i % 50), 'Y'));
        }
        runs.awaitRecorded(shard0);
        final InetSocketAddress group = Multicast.randomGroup();
        try (DatagramChannel downstream = Multicast.join(group))
        {
            layout = layout.withMarketDataChannel("aeron:ipc?term-length=65536");
            service = launchWithMoldFeed(group);
            try (MoldReceiver receiver =
                new MoldReceiver(downstream, new InetSocketAddress(Multicast.LOOPBACK, service.moldRequestPort())))
            {
                // Start of Messages, two Stock Directories, two Trading Actions, Start of System and Market Hours.
                final int sessionStart = 7;
                awaitTrue(() -> receiver.polled() && receiver.itch.messages.size() >= sessionStart + orders);
                final List<ItchEvents.Message> received = receiver.itch.messages;
                assertThat(received.subList(sessionStart, received.size()))
                    .hasSize(orders)
                    .allMatch((message) -> message instanceof ItchEvents.AddOrder);
            }
        }
        assertThat(scrape(service))
            .contains("bourse_md_mold_messages_total " + (7 + orders) + ".0\n")
            .contains("bourse_md_errors_total{kind=").doesNotContainPattern(Counters.MD_ERROR_COUNTED)
            .contains("bourse_md_mold_errors_total 0.0\n")
            .contains("bourse_md_book_orders{side=\"bid\",symbol=\"AAPL\"} " + orders / 2 + ".0\n");
    }

    private static AddOrder withShares(final AddOrder order, final long shares)
    {
        return new AddOrder(order.timestampNs(), order.symbol(), order.orderId(), order.side(), shares, order.price());
    }

    private MdPublisherService launch()
    {
        return MdPublisherService.launch(context().moldEnabled(false));
    }

    /** @return an md-publisher that sends its ITCH 5.0 over MoldUDP64 to the group, on the loopback. */
    private MdPublisherService launchWithMoldFeed(final InetSocketAddress group)
    {
        return MdPublisherService.launch(context()
            .moldEnabled(true)
            .moldGroup(group.getAddress().getHostAddress())
            .moldPort(group.getPort())
            .moldRequestPort(0)
            .moldSession("BOURSETEST")
            .moldEndOfSessionMs(0));
    }

    private MdPublisherContext context()
    {
        return new MdPublisherContext()
            .layout(layout)
            .symbolDirectory(SymbolDirectory.parse("AAPL@0,MSFT@1"))
            .metricsPort(0)
            .jvmMetrics(false)
            .eventArchive(archive);
    }

    private void offer(final ExclusivePublication publication, final int length)
    {
        awaitTrue(() -> publication.offer(engine.buffer, 0, length) > 0);
    }

    private static String scrape(final MdPublisherService service)
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
}
