package io.bourse.mdpublisher;

import io.aeron.Aeron;
import io.aeron.AeronCounters;
import io.aeron.Publication;
import io.aeron.driver.MediaDriver;
import io.bourse.common.aeron.EmbeddedMediaDriver;
import io.bourse.common.aeron.StreamLayout;
import io.bourse.common.config.SymbolDirectory;
import io.bourse.common.metrics.MetricsEndpoint;
import io.bourse.common.time.MidnightNanoClock;
import io.bourse.common.time.MonotonicEpochNanoClock;
import io.bourse.sbe.engine.BookUpdate;
import io.bourse.sbe.engine.TradingState;
import io.bourse.sbe.md.BookSnapshotDecoder;
import io.bourse.sbe.md.Feed;
import io.bourse.sbe.md.MessageHeaderDecoder;
import io.bourse.sbe.md.MessageHeaderEncoder;
import io.bourse.sbe.md.PriceLevelSnapshotDecoder;
import io.bourse.sbe.md.SnapshotRequestEncoder;
import org.agrona.CloseHelper;
import org.agrona.concurrent.EpochNanoClock;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import static io.bourse.common.Await.awaitTrue;
import static io.bourse.sbe.engine.Side.BUY;
import static io.bourse.sbe.engine.Side.SELL;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The md-publisher's answer to SnapshotRequest, read from the streams of its four feeds of a running service: the order
 * feed's books order by order, the depth and BBO feeds' price levels, the trades feed's place.
 */
@Timeout(30)
class SnapshotPublisherTest
{
    private static final long T1 = 34_200_000_000_000L;

    private final EngineEventEncoder engine = new EngineEventEncoder();
    private final UnsafeBuffer requestBuffer = new UnsafeBuffer(ByteBuffer.allocateDirect(64));
    private final SnapshotFeedReader orders = new SnapshotFeedReader();
    private final SnapshotFeedReader depth = new SnapshotFeedReader();
    private final SnapshotFeedReader bbo = new SnapshotFeedReader();
    private final SnapshotFeedReader trades = new SnapshotFeedReader();
    private MediaDriver driver;
    private MdPublisherService service;
    private Aeron aeron;
    private Publication shard0;
    private Publication requests;

    @BeforeEach
    void setUp()
    {
        driver = EmbeddedMediaDriver.launch("md-snapshot-test");
        launch(MarketDataBooks.FULL_DEPTH);
    }

    private void launch(final int l2Depth)
    {
        launch(l2Depth, new MonotonicEpochNanoClock());
    }

    private void launch(final int l2Depth, final EpochNanoClock epochClock)
    {
        CloseHelper.closeAll(aeron, service);
        final StreamLayout layout = EmbeddedMediaDriver.defaultLayout(driver);
        service = MdPublisherService.launch(new MdPublisherContext()
            .epochClock(epochClock)
            .layout(layout)
            .symbolDirectory(SymbolDirectory.parse("AAPL@0,MSFT@0"))
            .l2Depth(l2Depth)
            .metricsPort(0)
            .jvmMetrics(false)
            .moldEnabled(false));
        aeron = Aeron.connect(new Aeron.Context().aeronDirectoryName(driver.aeronDirectoryName()));
        shard0 = aeron.addPublication(layout.eventChannel(), layout.eventStreamId(0));
        requests = aeron.addPublication(layout.snapshotRequestChannel(), layout.snapshotRequestStreamId());
        orders.subscription = aeron.addSubscription(layout.marketDataChannel(), layout.marketDataStreamId());
        depth.subscription = aeron.addSubscription(layout.feedChannel(), layout.depthStreamId());
        bbo.subscription = aeron.addSubscription(layout.feedChannel(), layout.bboStreamId());
        trades.subscription = aeron.addSubscription(layout.feedChannel(), layout.tradesStreamId());
        awaitTrue(() -> shard0.isConnected() && requests.isConnected() && orders.subscription.isConnected() &&
            depth.subscription.isConnected() && bbo.subscription.isConnected() && trades.subscription.isConnected());
    }

    @AfterEach
    void tearDown()
    {
        CloseHelper.closeAll(aeron, service, driver);
    }

    @Test
    void shouldAnswerWithEveryBookInPriorityOrderStandingAfterTheLastIncrement() throws Exception
    {
        enterBooks();

        requestSnapshot(42, Feed.ORDERS);

        orders.awaitSnapshot(2);
        assertThat(orders.lastIncrement).isEqualTo(8);
        assertThat(orders.snapshot.get(0)).matches("BookSnapshot 42 #0 AAPL after 8 at \\d+: T '    ' since 0");
        assertThat(orders.snapshot.subList(1, 6)).containsExactly(
            "  3 B 300 @ 1010000 t " + (T1 + 2) + " by 'GSCO'",
            "  2 B 150 @ 1000000 t " + (T1 + 1) + " by '    '",
            "  6 B 150 @ 1000000 t " + (T1 + 6) + " by 'ABCD'",
            "  5 S 50 @ 1020000 t " + (T1 + 4) + " by '    '",
            "  4 S 100 @ 1030000 t " + (T1 + 3) + " by '    '");
        assertThat(orders.snapshot.get(6))
            .matches("BookSnapshot 42 #1 MSFT after 8 at \\d+: H 'O1  ' since " + (T1 + 8));
        assertThat(orders.snapshot.get(7)).isEqualTo("SnapshotComplete 42 after 8: 2 messages");
        assertThat(scrapeMetrics())
            .contains("bourse_md_snapshots_total{feed=\"orders\"} 1.0\n")
            .contains("bourse_md_snapshots_total{feed=\"depth\"} 0.0\n")
            .contains("bourse_md_errors_total{kind=").doesNotContainPattern(Counters.MD_ERROR_COUNTED);
    }

    @Test
    void shouldStampWhatRestsFromAnEarlierDayWithTheMidnightThatStartedTheNewOne()
    {
        final long dayEpochNs = 20_000 * MidnightNanoClock.NANOS_PER_DAY;
        final AtomicLong wallClockNs = new AtomicLong(dayEpochNs + MidnightNanoClock.NANOS_PER_DAY - 1_000_000_000L);
        launch(MarketDataBooks.FULL_DEPTH, wallClockNs::get); // 23:59:59
        final long beforeMidnight = MidnightNanoClock.NANOS_PER_DAY - 500_000_000L;
        offer(engine.orderAdded(beforeMidnight, "AAPL", 1, BUY, 100, 1_000_000, 'Y'));
        offer(engine.orderAdded(beforeMidnight + 1, "AAPL", 2, BUY, 200, 1_000_000, 'Y'));
        offer(engine.tradingStateChanged(beforeMidnight + 2, "MSFT", TradingState.HALTED));
        requestSnapshot(46, Feed.ORDERS);
        orders.awaitSnapshot(2);
        assertThat(orders.snapshot.subList(1, 3)).containsExactly(
            "  1 B 100 @ 1000000 t " + beforeMidnight + " by '    '",
            "  2 B 200 @ 1000000 t " + (beforeMidnight + 1) + " by '    '");
        orders.snapshot.clear();

        wallClockNs.addAndGet(6_000_000_000L); // 00:00:05 of the next day
        requestSnapshot(47, Feed.ORDERS);

        // ITCH 5.0 Timestamps count from the day's midnight: the fanout's Add Orders of these come at 00:00:00.
        orders.awaitSnapshot(2);
        final long midnight = MidnightNanoClock.NANOS_PER_DAY;
        assertThat(orders.snapshot.get(0)).matches("BookSnapshot 47 #0 AAPL after 3 at \\d+: T '    ' since 0");
        assertThat(orders.snapshot.subList(1, 3)).containsExactly(
            "  1 B 100 @ 1000000 t " + midnight + " by '    '",
            "  2 B 200 @ 1000000 t " + midnight + " by '    '");
        assertThat(orders.snapshot.get(3))
            .matches("BookSnapshot 47 #1 MSFT after 3 at \\d+: H 'O1  ' since " + midnight);
    }

    @Test
    void shouldAnswerTheDepthAndBboFeedsWithTheirLevelsAfterTheirOwnLastIncrement() throws Exception
    {
        enterBooks();
        offer(engine.orderExecuted(T1 + 9, "AAPL", 33, 20, 1_020_000, BUY, 49, 5, 30));

        requestSnapshot(43, Feed.DEPTH);
        requestSnapshot(44, Feed.BBO);
        requestSnapshot(45, Feed.TRADES);

        depth.awaitSnapshot(2);
        bbo.awaitSnapshot(2);
        trades.awaitSnapshot(0);
        assertThat(depth.lastIncrement).isEqualTo(8);
        assertThat(depth.snapshot).hasSize(7);
        assertThat(depth.snapshot.getFirst()).matches("PriceLevelSnapshot 43 DEPTH #0 AAPL after 8 at \\d+");
        assertThat(depth.snapshot.subList(1, 5)).containsExactly(
            "  B 300 @ 1010000 (1 orders)",
            "  B 300 @ 1000000 (2 orders)",
            "  S 30 @ 1020000 (1 orders)",
            "  S 100 @ 1030000 (1 orders)");
        assertThat(depth.snapshot.get(5)).matches("PriceLevelSnapshot 43 DEPTH #1 MSFT after 8 at \\d+");
        assertThat(depth.snapshot.get(6)).isEqualTo("SnapshotComplete 43 after 8: 2 messages");
        assertThat(bbo.lastIncrement).isEqualTo(6);
        assertThat(bbo.snapshot).hasSize(5);
        assertThat(bbo.snapshot.getFirst()).matches("PriceLevelSnapshot 44 BBO #0 AAPL after 6 at \\d+");
        assertThat(bbo.snapshot.subList(1, 3)).containsExactly(
            "  B 300 @ 1010000 (1 orders)",
            "  S 30 @ 1020000 (1 orders)");
        assertThat(bbo.snapshot.get(3)).matches("PriceLevelSnapshot 44 BBO #1 MSFT after 6 at \\d+");
        assertThat(bbo.snapshot.getLast()).isEqualTo("SnapshotComplete 44 after 6: 2 messages");
        assertThat(trades.lastIncrement).isEqualTo(1);
        assertThat(trades.snapshot).containsExactly("SnapshotComplete 45 after 1: 0 messages");
        assertThat(scrapeMetrics())
            .contains("bourse_md_snapshots_total{feed=\"orders\"} 0.0\n")
            .contains("bourse_md_snapshots_total{feed=\"depth\"} 1.0\n")
            .contains("bourse_md_snapshots_total{feed=\"bbo\"} 1.0\n")
            .contains("bourse_md_snapshots_total{feed=\"trades\"} 1.0\n")
            .contains("bourse_md_errors_total{kind=").doesNotContainPattern(Counters.MD_ERROR_COUNTED);
    }

    @Test
    void shouldAnswerADepthLimitedFeedWithEachSidesBestLevelsOnly()
    {
        launch(1);
        enterBooks();

        requestSnapshot(46, Feed.DEPTH);

        depth.awaitSnapshot(2);
        assertThat(depth.snapshot.subList(1, 3)).containsExactly(
            "  B 300 @ 1010000 (1 orders)",
            "  S 50 @ 1020000 (1 orders)");
        assertThat(depth.snapshot.getLast())
            .isEqualTo("SnapshotComplete 46 after " + depth.lastIncrement + ": 2 messages");
    }

    @Test
    void shouldAnswerARequestOfSchemaVersion4WhichNamesNoFeedOnTheOrderFeed() throws Exception
    {
        offer(engine.orderAdded(T1, "AAPL", 1, BUY, 100, 1_000_000, 'Y'));
        // A version 4 request of 8 bytes, then one whose block is longer, its ninth byte not a feed of version 4.
        sendRequest(4, 8, 9, 'B', 8);
        orders.awaitSnapshot(2);
        assertThat(orders.snapshot.getLast()).isEqualTo("SnapshotComplete 9 after 1: 2 messages");
        orders.snapshot.clear();
        sendRequest(4, 9, 10, 'B', 9);
        orders.awaitSnapshot(2);

        assertThat(orders.snapshot.getLast()).isEqualTo("SnapshotComplete 10 after 1: 2 messages");
        assertThat(scrapeMetrics())
            .contains("bourse_md_snapshots_total{feed=\"orders\"} 2.0\n")
            .contains("bourse_md_snapshots_total{feed=\"bbo\"} 0.0\n")
            .contains("bourse_md_errors_total{kind=").doesNotContainPattern(Counters.MD_ERROR_COUNTED);
    }

    @Test
    void shouldSplitALargeBookAcrossMessagesThatEachFitOneFrame()
    {
        final int orderCount = 100;
        for (int orderId = 1; orderId <= orderCount; orderId++)
        {
            offer(engine.orderAdded(T1 + orderId, "AAPL", orderId, SELL, orderId, 1_000_000 + orderId, 'Y'));
        }

        requestSnapshot(7, Feed.ORDERS);
        requestSnapshot(8, Feed.DEPTH);

        final int aaplMessages = (orderCount + ordersPerFrame() - 1) / ordersPerFrame();
        orders.awaitSnapshot(aaplMessages + 1);
        final List<String> headers =
            orders.snapshot.stream().filter((line) -> line.startsWith("BookSnapshot")).toList();
        for (int i = 0; i < aaplMessages; i++)
        {
            assertThat(headers.get(i)).startsWith("BookSnapshot 7 #" + i + " AAPL after " + orderCount);
        }
        assertThat(headers.getLast()).startsWith("BookSnapshot 7 #" + aaplMessages + " MSFT");
        final List<String> expectedOrders = new ArrayList<>();
        final List<String> expectedLevels = new ArrayList<>();
        for (int orderId = 1; orderId <= orderCount; orderId++)
        {
            expectedOrders.add("  " + orderId + " S " + orderId + " @ " + (1_000_000 + orderId) + " t " +
                (T1 + orderId) + " by '    '");
            expectedLevels.add("  S " + orderId + " @ " + (1_000_000 + orderId) + " (1 orders)");
        }
        assertThat(orders.snapshot.stream().filter((line) -> line.startsWith("  ")).toList())
            .containsExactlyElementsOf(expectedOrders);
        assertThat(orders.snapshot.getLast()).isEqualTo(
            "SnapshotComplete 7 after " + orderCount + ": " + (aaplMessages + 1) + " messages");

        final int levelsPerFrame = levelsPerFrame();
        final int depthMessages = (orderCount + levelsPerFrame - 1) / levelsPerFrame;
        assertThat(depthMessages).isGreaterThan(1);
        depth.awaitSnapshot(depthMessages + 1);
        assertThat(depth.snapshot.stream().filter((line) -> line.startsWith("  ")).toList())
            .containsExactlyElementsOf(expectedLevels);
        assertThat(depth.snapshot.getLast()).isEqualTo(
            "SnapshotComplete 8 after " + orderCount + ": " + (depthMessages + 1) + " messages");
    }

    @Test
    void shouldCountASnapshotForAFeedNobodyReadsAsADropNotAnError() throws Exception
    {
        // No events: no live BBO increment is dropped, only the snapshot's first message.
        bbo.subscription.close();
        final int bboStreamId = EmbeddedMediaDriver.defaultLayout(driver).bboStreamId();
        awaitTrue(() -> !hasSubscriberPosition(bboStreamId)); // the driver unlinked it: no subscriber left

        requestSnapshot(51, Feed.BBO);
        requestSnapshot(52, Feed.ORDERS);

        orders.awaitSnapshot(2);
        assertThat(scrapeMetrics())
            .contains("bourse_md_drops_total{feed=\"bbo\",reason=\"not_connected\"} 1.0\n")
            .contains("bourse_md_snapshots_total{feed=\"bbo\"} 0.0\n")
            .contains("bourse_md_errors_total{kind=").doesNotContainPattern(Counters.MD_ERROR_COUNTED);
    }

    @Test
    void shouldCountABadRequestAsAnErrorAndStillAnswerTheNext() throws Exception
    {
        new MessageHeaderEncoder().wrap(requestBuffer, 0).blockLength(8).templateId(99)
            .schemaId(SnapshotRequestEncoder.SCHEMA_ID).version(SnapshotRequestEncoder.SCHEMA_VERSION);
        awaitTrue(() -> requests.offer(requestBuffer, 0, MessageHeaderEncoder.ENCODED_LENGTH + 8) > 0);
        // An unknown feed; a frame shorter than its block; a block without the request id.
        sendRequest(SnapshotRequestEncoder.SCHEMA_VERSION, SnapshotRequestEncoder.BLOCK_LENGTH, 11, 'Z',
            SnapshotRequestEncoder.BLOCK_LENGTH);
        sendRequest(SnapshotRequestEncoder.SCHEMA_VERSION, SnapshotRequestEncoder.BLOCK_LENGTH, 12, 'B', 8);
        sendRequest(SnapshotRequestEncoder.SCHEMA_VERSION, 4, 13, 'B', 4);
        // Then a version 5 request whose block ends before the feed: the order feed.
        sendRequest(SnapshotRequestEncoder.SCHEMA_VERSION, 8, 8, 'B', 8);

        orders.awaitSnapshot(2);
        assertThat(orders.snapshot.getLast()).isEqualTo("SnapshotComplete 8 after 0: 2 messages");
        assertThat(scrapeMetrics())
            .contains("bourse_md_errors_total{kind=\"bad_snapshot_request\"} 4.0\n")
            .contains("bourse_md_snapshots_total{feed=\"bbo\"} 0.0\n");
    }

    /** Rests two books' orders: AAPL attributable and anonymous, replaced and canceled in part; MSFT halted. */
    private void enterBooks()
    {
        // Orders 1 and 3 attributable (shown with their firm), order 4 anonymous whatever its firm.
        offer(engine.orderAdded(T1, "AAPL", 1, BUY, 100, 1_000_000, 'A', "ABCD"));
        offer(engine.orderAdded(T1 + 1, "AAPL", 2, BUY, 200, 1_000_000, 'Y'));
        offer(engine.orderAdded(T1 + 2, "AAPL", 3, BUY, 300, 1_010_000, 'A', "GSCO"));
        offer(engine.orderAdded(T1 + 3, "AAPL", 4, SELL, 100, 1_030_000, 'Y', "GSCO"));
        offer(engine.orderAdded(T1 + 4, "AAPL", 5, SELL, 50, 1_020_000, 'Y'));
        offer(engine.orderAdded(T1 + 5, "AAPL", 7, SELL, 500, 1_020_000, 'N'));
        // Order 1 loses its priority to order 2; order 2 keeps its own through a partial cancel.
        offer(engine.orderReplaced(T1 + 6, "AAPL", 1, 6, BUY, 150, 1_000_000, BookUpdate.REPLACED));
        offer(engine.orderCanceled(T1 + 7, "AAPL", 2, 50, 150));
        offer(engine.tradingStateChanged(T1 + 8, "MSFT", TradingState.HALTED));
    }

    /** @return true while the driver holds a subscriber position on the stream ("sub-pos: reg session stream ..."). */
    private boolean hasSubscriberPosition(final int streamId)
    {
        final boolean[] found = {false};
        aeron.countersReader().forEach((counterId, typeId, keyBuffer, label) ->
        {
            final String[] words = label.split(" ");
            if (AeronCounters.DRIVER_SUBSCRIBER_POSITION_TYPE_ID == typeId && words.length > 3 &&
                words[3].equals(Integer.toString(streamId)))
            {
                found[0] = true;
            }
        });
        return found[0];
    }

    /** @return orders in one BookSnapshot that fills a frame of the order feed's publication. */
    private int ordersPerFrame()
    {
        final int frame = aeron.addExclusivePublication(
            EmbeddedMediaDriver.defaultLayout(driver).marketDataChannel(), 1).maxPayloadLength();
        return (frame - MessageHeaderDecoder.ENCODED_LENGTH - BookSnapshotDecoder.BLOCK_LENGTH - 4) /
            BookSnapshotDecoder.OrdersDecoder.sbeBlockLength();
    }

    /** @return levels in one PriceLevelSnapshot that fills a frame of the depth feed's publication. */
    private int levelsPerFrame()
    {
        final int frame = aeron.addExclusivePublication(
            EmbeddedMediaDriver.defaultLayout(driver).feedChannel(), 1).maxPayloadLength();
        return (frame - MessageHeaderDecoder.ENCODED_LENGTH - PriceLevelSnapshotDecoder.BLOCK_LENGTH - 4) /
            PriceLevelSnapshotDecoder.LevelsDecoder.sbeBlockLength();
    }

    private void requestSnapshot(final long requestId, final Feed feed)
    {
        SnapshotFeedReader.request(requests, requestBuffer, requestId, feed);
    }

    /**
     * Sends a SnapshotRequest as it is written, not as the encoder of this schema would write it.
     *
     * @param version     the header's schema version.
     * @param blockLength the header's block length.
     * @param requestId   the request id, at offset 0 of the block.
     * @param feed        the byte at offset 8, the feed since version 5.
     * @param bodyLength  bytes sent after the header.
     */
    private void sendRequest(
        final int version, final int blockLength, final long requestId, final char feed, final int bodyLength)
    {
        new MessageHeaderEncoder().wrap(requestBuffer, 0).blockLength(blockLength)
            .templateId(SnapshotRequestEncoder.TEMPLATE_ID).schemaId(SnapshotRequestEncoder.SCHEMA_ID).version(version);
        requestBuffer.putLong(MessageHeaderEncoder.ENCODED_LENGTH, requestId, ByteOrder.LITTLE_ENDIAN);
        requestBuffer.putByte(MessageHeaderEncoder.ENCODED_LENGTH + 8, (byte)feed);
        awaitTrue(() -> requests.offer(requestBuffer, 0, MessageHeaderEncoder.ENCODED_LENGTH + bodyLength) > 0);
    }

    private void offer(final int length)
    {
        awaitTrue(() -> shard0.offer(engine.buffer, 0, length) > 0);
    }

    private String scrapeMetrics() throws Exception
    {
        return MetricsEndpoint.scrape(service.metricsPort());
    }
}
