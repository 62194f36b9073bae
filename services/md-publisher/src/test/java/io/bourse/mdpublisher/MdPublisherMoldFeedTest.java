package io.bourse.mdpublisher;

import com.paritytrading.nassau.moldudp64.MoldUDP64ClientState;
import io.aeron.Aeron;
import io.aeron.Publication;
import io.aeron.Subscription;
import io.aeron.driver.MediaDriver;
import io.bourse.common.aeron.EmbeddedMediaDriver;
import io.bourse.common.aeron.StreamLayout;
import io.bourse.common.config.SymbolDirectory;
import io.bourse.common.metrics.MetricsEndpoint;
import io.bourse.itch.ItchEvents;
import io.bourse.sbe.engine.BookUpdate;
import org.agrona.CloseHelper;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.channels.DatagramChannel;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static io.bourse.common.Await.awaitAsserted;
import static io.bourse.common.Await.awaitTrue;
import static io.bourse.itch.ItchEvents.AddOrder;
import static io.bourse.itch.ItchEvents.BrokenTrade;
import static io.bourse.itch.ItchEvents.CrossTrade;
import static io.bourse.itch.ItchEvents.OrderCancel;
import static io.bourse.itch.ItchEvents.OrderDelete;
import static io.bourse.itch.ItchEvents.OrderExecuted;
import static io.bourse.itch.ItchEvents.OrderExecutedWithPrice;
import static io.bourse.itch.ItchEvents.OrderReplace;
import static io.bourse.itch.ItchEvents.SystemEvent;
import static io.bourse.itch.ItchEvents.Trade;
import static io.bourse.sbe.engine.Side.BUY;
import static io.bourse.sbe.engine.Side.SELL;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * End to end in one JVM: SBE engine events into a real md-publisher on an embedded media driver, its order feed's
 * market data sent on by its MoldUDP64 feed, and a real nassau MoldUDP64 client joined to the group on the loopback
 * receiving the ITCH 5.0 messages.
 */
@Timeout(30)
class MdPublisherMoldFeedTest
{
    private static final long T = 34_200_000_000_000L;

    private final EngineEventEncoder engine = new EngineEventEncoder();
    private MediaDriver driver;
    private StreamLayout layout;
    private Aeron aeron;
    private MdPublisherService service;
    private MoldReceiver receiver;
    private Publication shard0;
    private Publication shard1;
    private Subscription orderFeed;
    private InetSocketAddress group;

    @BeforeEach
    void setUp() throws IOException
    {
        driver = EmbeddedMediaDriver.launch("md-mold-test");
        layout = EmbeddedMediaDriver.defaultLayout(driver);
        // One End of Session packet at the end (the end's length is MoldFeedAgentTest's), so that each close is quick.
        launch(new MdPublisherContext().moldEndOfSessionMs(0));

        aeron = Aeron.connect(new Aeron.Context().aeronDirectoryName(driver.aeronDirectoryName()));
        // Stands for the fanout, so that the order feed's offers are published and counted as such; never read, it
        // holds the few messages of a test well within the order feed's window.
        orderFeed = aeron.addSubscription(layout.marketDataChannel(), layout.marketDataStreamId());
        awaitTrue(() -> orderFeed.imageCount() > 0);
        shard0 = aeron.addPublication(layout.eventChannel(), layout.eventStreamId(0));
        shard1 = aeron.addPublication(layout.eventChannel(), layout.eventStreamId(1));
        awaitTrue(() -> shard0.isConnected() && shard1.isConnected());
    }

    @AfterEach
    void tearDown()
    {
        CloseHelper.closeAll(receiver, aeron, service, driver);
    }

    @Test
    void shouldSendEveryMessageInSequenceFromStartOfMessagesToEndOfSession() throws Exception
    {
        final List<ItchEvents.Message> expected = MoldReceiver.sessionOpening('T', "    ");
        receiveUntil(expected.size());

        offer(shard0, engine.orderAdded(T, "AAPL", 17, SELL, 300, 1_500_100, 'Y'));
        expected.add(new AddOrder(1, 0, T, 17, 'S', 300, "AAPL", 1_500_100));
        receiveUntil(expected.size());
        offer(shard1, engine.orderAdded(T + 10, "MSFT", 18, BUY, 100, 4_000_000, 'A'));
        expected.add(new AddOrder(2, 0, T + 10, 18, 'B', 100, "MSFT", 4_000_000));
        receiveUntil(expected.size());
        offer(shard0, engine.orderExecuted(T + 20, "AAPL", 33, 100, 1_500_100, BUY, 49, 17, 200));
        expected.add(new OrderExecuted(1, 0, T + 20, 17, 100, 33));
        offer(shard0, engine.orderCanceled(T + 30, "AAPL", 17, 50, 150));
        expected.add(new OrderCancel(1, T + 30, 17, 50));
        receiveUntil(expected.size());
        offer(shard1, engine.orderReplaced(T + 40, "MSFT", 18, 19, BUY, 200, 4_000_100, BookUpdate.REPLACED));
        expected.add(new OrderReplace(2, T + 40, 18, 19, 200, 4_000_100));
        // An order that is not displayed has no Add Order; its execution is a Trade.
        offer(shard1, engine.orderAdded(T + 50, "MSFT", 34, SELL, 100, 4_100_000, 'N'));
        offer(shard1, engine.orderExecuted(T + 60, "MSFT", 50, 100, 4_100_000, BUY, 51, 34, 0));
        expected.add(new Trade(2, 0, T + 60, 0, 'B', 100, "MSFT", 4_100_000, 50));
        receiveUntil(expected.size());
        offer(shard0, engine.orderCanceled(T + 70, "AAPL", 17, 150, 0));
        expected.add(new OrderDelete(1, T + 70, 17));
        offer(shard0, engine.tradeBroken(T + 80, "AAPL", 33));
        expected.add(new BrokenTrade(1, T + 80, 33));
        receiveUntil(expected.size());

        assertThat(receiver.itch.messages).isEqualTo(expected);
        assertThat(receiver.states).containsExactly(MoldUDP64ClientState.SYNCHRONIZED);
        assertThat(receiver.requests).isEmpty();
        // The md-publisher counts a MoldUDP64 packet's messages once it is sent.
        awaitAsserted(() -> assertThat(scrapeMetrics())
            .contains("bourse_md_mold_messages_total 15.0\n")
            .contains("bourse_md_mold_requests_total 0.0\n")
            .contains("bourse_md_mold_errors_total 0.0\n")
            .contains("bourse_md_errors_total{kind=").doesNotContainPattern(Counters.MD_ERROR_COUNTED));

        service.close();
        expected.add(new SystemEvent(0, 'M'));
        expected.add(new SystemEvent(0, 'E'));
        expected.add(new SystemEvent(0, 'C'));
        receiveUntil(expected.size());
        awaitTrue(() -> receiver.polled() && receiver.endOfSession);
        assertThat(receiver.itch.messages).isEqualTo(expected);
    }

    @Test
    void shouldSendCrossExecutionsOfDisplayedOrdersAndOneCrossTradeWhenTheClosingCrossRuns() throws Exception
    {
        final List<ItchEvents.Message> expected = MoldReceiver.sessionOpening('T', "    ");
        offer(shard0, engine.orderAdded(T, "AAPL", 17, SELL, 300, 1_500_100, 'Y'));
        expected.add(new AddOrder(1, 0, T, 17, 'S', 300, "AAPL", 1_500_100));
        offer(shard0, engine.orderAdded(T, "AAPL", 18, SELL, 200, 1_500_000, 'N'));
        receiveUntil(expected.size());

        // The cross at 150.03: the hidden order, the displayed one in part, and two closing-cross orders.
        offer(shard0, engine.crossExecuted(T + 10, "AAPL", 33, 200, 1_500_300, SELL, 97, 18, 0));
        offer(shard0, engine.crossExecuted(T + 10, "AAPL", 34, 100, 1_500_300, SELL, 97, 17, 200));
        expected.add(new OrderExecutedWithPrice(1, 0, T + 10, 17, 100, 34, 'N', 1_500_300));
        offer(shard0, engine.crossExecuted(T + 10, "AAPL", 35, 100, 1_500_300, SELL, 97, 98, 0));
        offer(shard0, engine.crossCompleted(T + 10, "AAPL", 1_500_300, 400, 36));
        expected.add(new CrossTrade(1, 0, T + 10, 400, "AAPL", 1_500_300, 36, 'C'));
        receiveUntil(expected.size());
        // A symbol whose cross executed nothing (another shard: received before the next event of the first).
        offer(shard1, engine.crossCompleted(T + 20, "MSFT", 0, 0, 0));
        expected.add(new CrossTrade(2, 0, T + 20, 0, "MSFT", 0, 0, 'C'));
        receiveUntil(expected.size());
        // Its 200 shares left still rest: canceling them deletes the order.
        offer(shard0, engine.orderCanceled(T + 30, "AAPL", 17, 200, 0));
        expected.add(new OrderDelete(1, T + 30, 17));
        receiveUntil(expected.size());

        assertThat(receiver.itch.messages).isEqualTo(expected);
        assertThat(receiver.requests).isEmpty();
        // The md-publisher counts a MoldUDP64 packet's messages once it is sent.
        awaitAsserted(() -> assertThat(scrapeMetrics())
            .contains("bourse_md_mold_messages_total 12.0\n")
            .contains("bourse_md_mold_errors_total 0.0\n")
            .contains("bourse_md_events_in_total{type=\"cross_completed\"} 2.0\n")
            .contains("bourse_md_messages_out_total{feed=\"orders\",type=\"order_executed_with_price\"} 1.0\n")
            .contains("bourse_md_messages_out_total{feed=\"orders\",type=\"cross_trade\"} 2.0\n")
            .contains("bourse_md_messages_out_total{feed=\"orders\",type=\"trade\"} 0.0\n")
            .contains("bourse_md_errors_total{kind=").doesNotContainPattern(Counters.MD_ERROR_COUNTED));
    }

    /**
     * A subscriber of the SBE order feed that stalls (a fanout whose thread does not run) holds the feed's publication
     * at its window (half a term: 32 KiB, about 340 Add Orders, at the 64 KiB terms given here); the md-publisher's
     * offers past it are dropped (no retries here), a gap that subscriber sees in the feed's sequence numbers. The
     * MoldUDP64 feed takes every increment all the same: its receiver gets every Add Order, in order, with no gap.
     */
    @Test
    void shouldSendEveryOrderFeedMessageWhileAStalledSubscriberMakesTheOrderFeedDropSome() throws Exception
    {
        final Subscription stalled = relaunchWithAStalledOrderFeedSubscriber(
            new MdPublisherContext().offerRetries(0).moldEndOfSessionMs(0));

        // Start of Messages, two Stock Directories, two Trading Actions, Start of System and Market Hours.
        final int sessionStart = 7;
        final int orders = 1_000;
        for (int i = 0; i < orders; i++)
        {
            offer(shard0, engine.orderAdded(T + i, "AAPL", 100 + i, SELL, 100, 1_500_000 + 100L * (i % 50), 'Y'));
        }
        receiveUntil(sessionStart + orders);

        final List<ItchEvents.Message> received = receiver.itch.messages;
        assertThat(received).hasSize(sessionStart + orders);
        for (int i = 0; i < orders; i++)
        {
            assertThat(received.get(sessionStart + i))
                .isEqualTo(new AddOrder(1, 0, T + i, 100 + i, 'S', 100, "AAPL", 1_500_000 + 100L * (i % 50)));
        }
        // The md-publisher counts a MoldUDP64 packet's messages once it is sent.
        awaitAsserted(() -> assertThat(scrapeMetrics())
            .contains("bourse_md_mold_messages_total " + (sessionStart + orders) + ".0\n")
            .contains("bourse_md_mold_errors_total 0.0\n")
            .containsPattern("bourse_md_drops_total\\{feed=\"orders\",reason=\"back_pressure\"} [1-9][0-9]*\\.0\n"));
        stalled.close();
    }

    /**
     * A receiver that joins after the memory has let go of most of the session backfills all of it: the requests older
     * than the memory are answered from the session file on the md-publisher's {@code md-mold-file} thread, the newer
     * ones from the memory on its feed's.
     */
    @Test
    void shouldBackfillALateJoinerFromTheSessionFileOnTheFileAnswersThread(@TempDir final Path storeDir)
        throws Exception
    {
        CloseHelper.close(receiver);
        service.close();
        launch(new MdPublisherContext()
            .moldStoreMessages(16)
            .moldStoreDir(storeDir.toString())
            .moldHeartbeatIntervalMs(100)
            .moldEndOfSessionMs(0));
        final List<ItchEvents.Message> expected = MoldReceiver.sessionOpening('T', "    ");
        final int orders = 500;
        for (int i = 0; i < orders; i++)
        {
            offer(shard0, engine.orderAdded(T + i, "AAPL", 100 + i, SELL, 100, 1_500_000, 'Y'));
            expected.add(new AddOrder(1, 0, T + i, 100 + i, 'S', 100, "AAPL", 1_500_000));
        }
        receiveUntil(expected.size());
        assertThat(receiver.itch.messages).isEqualTo(expected);
        assertThat(Thread.getAllStackTraces().keySet()).extracting(Thread::getName).contains("md-mold-file");

        try (MoldReceiver lateJoiner = new MoldReceiver(
            Multicast.join(group), new InetSocketAddress(Multicast.LOOPBACK, service.moldRequestPort())))
        {
            awaitTrue(() -> lateJoiner.polled() && lateJoiner.itch.messages.size() >= expected.size());
            assertThat(lateJoiner.itch.messages).isEqualTo(expected);
            assertThat(lateJoiner.requests.getFirst().sequenceNumber()).isOne();
        }
        awaitAsserted(() -> assertThat(scrapeMetrics())
            .contains("bourse_md_mold_request_messages_total " + expected.size() + ".0\n")
            .contains("bourse_md_mold_requests_unanswered_total{reason=\"outside_store\"} 0.0\n")
            .contains("bourse_md_mold_errors_total 0.0\n"));
    }

    /**
     * A subscriber of the SBE order feed that stalls holds the feed's publication at its window; every offer past it
     * then waits out its retries, here about 100 s (a million, at the offers' back-off of up to 100 us). The MoldUDP64
     * feed runs on the same thread meanwhile: the messages it took before the stall all go out, and Heartbeats keep
     * their interval. Once the subscriber goes, the rest of the messages follow.
     */
    @Test
    void shouldKeepSendingMoldUdp64PacketsAndHeartbeatsWhileAnOfferWaitsOutAStalledSubscriber() throws Exception
    {
        final Subscription stalled = relaunchWithAStalledOrderFeedSubscriber(new MdPublisherContext()
            .offerRetries(1_000_000)
            .moldHeartbeatIntervalMs(100)
            .moldEndOfSessionMs(0));
        final int sessionStart = 7;
        final int orders = 600;
        for (int i = 0; i < orders; i++)
        {
            offer(shard0, engine.orderAdded(T + i, "AAPL", 100 + i, SELL, 100, 1_500_000 + 100L * (i % 50), 'Y'));
        }
        // About 340 Add Orders fill the window; the md-publisher then waits in the next one's offer. The count must
        // have stopped for a while: 300 alone could be met by a descheduled md thread still short of the window.
        final long[] countSince = {-1, System.nanoTime()};
        awaitTrue(() ->
        {
            final long count = ordersPublished();
            if (count != countSince[0])
            {
                countSince[0] = count;
                countSince[1] = System.nanoTime();
            }
            return receiver.polled() && count >= 300 && System.nanoTime() - countSince[1] >= 300_000_000L &&
                receiver.itch.messages.size() == sessionStart + count;
        });
        final long published = countSince[0];
        final int heartbeats = receiver.heartbeats;
        final long oneSecondOn = System.nanoTime() + 1_000_000_000L;
        awaitTrue(() -> receiver.polled() && System.nanoTime() - oneSecondOn >= 0);

        assertThat(ordersPublished()).as("still waiting in an offer").isEqualTo(published).isLessThan(orders);
        assertThat(receiver.heartbeats - heartbeats).as("Heartbeats in a second, at 100 ms").isGreaterThanOrEqualTo(5);
        assertThat(receiver.itch.messages).hasSize(sessionStart + (int)published);
        stalled.close();
        receiveUntil(sessionStart + orders);
        assertThat(receiver.itch.messages.getLast())
            .isEqualTo(new AddOrder(1, 0, T + orders - 1, 100 + orders - 1, 'S', 100, "AAPL", 1_504_900));
        assertThat(receiver.requests).isEmpty();
    }

    /**
     * Starts the md-publisher again with that configuration, its order feed on 64 KiB terms (a 32 KiB window), and a
     * subscriber of the order feed that never reads, in place of the set-up's.
     */
    private Subscription relaunchWithAStalledOrderFeedSubscriber(final MdPublisherContext ctx) throws IOException
    {
        CloseHelper.closeAll(receiver, service, orderFeed);
        layout = layout.withMarketDataChannel("aeron:ipc?term-length=65536");
        launch(ctx);
        final Subscription stalled = aeron.addSubscription(layout.marketDataChannel(), layout.marketDataStreamId());
        awaitTrue(() -> stalled.imageCount() > 0);
        return stalled;
    }

    /** @return the Add Orders the SBE order feed has published. */
    private long ordersPublished()
    {
        try
        {
            final Matcher matcher = Pattern.compile(
                "bourse_md_messages_out_total\\{feed=\"orders\",type=\"add_order\"} ([0-9]+)\\.0\n")
                .matcher(scrapeMetrics());
            return matcher.find() ? Long.parseLong(matcher.group(1)) : 0;
        }
        catch (final Exception ex)
        {
            throw new IllegalStateException("cannot scrape the md-publisher's metrics", ex);
        }
    }

    private void launch(final MdPublisherContext ctx) throws IOException
    {
        group = Multicast.randomGroup();
        final DatagramChannel downstream = Multicast.join(group);
        service = MdPublisherService.launch(ctx
            .layout(layout)
            .symbolDirectory(SymbolDirectory.parse("AAPL@0,MSFT@1"))
            .metricsPort(0)
            .jvmMetrics(false)
            .moldGroup(group.getAddress().getHostAddress())
            .moldPort(group.getPort())
            .moldRequestPort(0)
            .moldSession("BOURSETEST"));
        receiver = new MoldReceiver(downstream, new InetSocketAddress(Multicast.LOOPBACK, service.moldRequestPort()));
    }

    private void offer(final Publication publication, final int length)
    {
        awaitTrue(() -> publication.offer(engine.buffer, 0, length) > 0);
    }

    private void receiveUntil(final int messageCount)
    {
        awaitTrue(() -> receiver.polled() && receiver.itch.messages.size() >= messageCount);
    }

    private String scrapeMetrics() throws Exception
    {
        return MetricsEndpoint.scrape(service.metricsPort());
    }
}
