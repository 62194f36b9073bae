package io.bourse.mdpublisher;

import io.aeron.Aeron;
import io.aeron.AeronCounters;
import io.aeron.Publication;
import io.aeron.Subscription;
import io.aeron.driver.MediaDriver;
import io.bourse.common.EngineNumbering;
import io.bourse.common.aeron.EmbeddedMediaDriver;
import io.bourse.common.aeron.StreamLayout;
import io.bourse.common.config.SymbolDirectory;
import io.bourse.common.metrics.MetricsEndpoint;
import io.bourse.common.metrics.ReadyEndpoint;
import io.bourse.sbe.engine.TradingState;
import org.agrona.CloseHelper;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.ArrayList;
import java.util.List;

import static io.bourse.common.Await.awaitAsserted;
import static io.bourse.common.Await.awaitTrue;
import static io.bourse.mdpublisher.MarketDataCapture.Sequenced;
import static io.bourse.mdpublisher.MarketDataEvents.AddOrder;
import static io.bourse.mdpublisher.MarketDataEvents.Bbo;
import static io.bourse.mdpublisher.MarketDataEvents.Broken;
import static io.bourse.mdpublisher.MarketDataEvents.CrossTrade;
import static io.bourse.mdpublisher.MarketDataEvents.Delete;
import static io.bourse.mdpublisher.MarketDataEvents.Executed;
import static io.bourse.mdpublisher.MarketDataEvents.ExecutedWithPrice;
import static io.bourse.mdpublisher.MarketDataEvents.Level;
import static io.bourse.mdpublisher.MarketDataEvents.Trade;
import static io.bourse.mdpublisher.MarketDataEvents.TradingAction;
import static io.bourse.sbe.engine.Side.BUY;
import static io.bourse.sbe.engine.Side.SELL;
import static org.assertj.core.api.Assertions.assertThat;

@Timeout(30)
class MdPublisherServiceTest
{
    private static final long T1 = 34_200_000_000_000L;

    private final EngineEventEncoder engine = new EngineEventEncoder();
    private final MarketDataCapture orders = new MarketDataCapture();
    private final MarketDataCapture depth = new MarketDataCapture();
    private final MarketDataCapture bbo = new MarketDataCapture();
    private final MarketDataCapture trades = new MarketDataCapture();
    private MediaDriver driver;
    private MdPublisherService service;
    private Aeron aeron;
    private Publication shard0;
    private Publication shard1;
    private Subscription marketData;
    private Subscription depthFeed;
    private Subscription bboFeed;
    private Subscription tradesFeed;
    private StreamLayout layout;

    @BeforeEach
    void setUp()
    {
        driver = EmbeddedMediaDriver.launch("md-test");
        final String aeronDir = driver.aeronDirectoryName();
        layout = EmbeddedMediaDriver.defaultLayout(driver);
        service = MdPublisherService.launch(new MdPublisherContext()
            .layout(layout)
            .symbolDirectory(SymbolDirectory.parse("AAPL@0,MSFT@1"))
            .metricsPort(0)
            .jvmMetrics(false)
            .moldEnabled(false));

        aeron = Aeron.connect(new Aeron.Context().aeronDirectoryName(aeronDir));
        shard0 = aeron.addPublication(layout.eventChannel(), layout.eventStreamId(0));
        shard1 = aeron.addPublication(layout.eventChannel(), layout.eventStreamId(1));
        marketData = aeron.addSubscription(layout.marketDataChannel(), layout.marketDataStreamId());
        depthFeed = aeron.addSubscription(layout.feedChannel(), layout.depthStreamId());
        bboFeed = aeron.addSubscription(layout.feedChannel(), layout.bboStreamId());
        tradesFeed = aeron.addSubscription(layout.feedChannel(), layout.tradesStreamId());
        awaitTrue(() -> shard0.isConnected() && shard1.isConnected() && marketData.isConnected() &&
            depthFeed.isConnected() && bboFeed.isConnected() && tradesFeed.isConnected());
    }

    @AfterEach
    void tearDown()
    {
        CloseHelper.closeAll(aeron, service, driver);
    }

    @Test
    void shouldBeReadyOnlyWhileEveryEngineShardPublishesEvents() throws Exception
    {
        ReadyEndpoint.awaitAnswer(service.metricsPort(), "200 ready\n");

        shard1.close();
        ReadyEndpoint.awaitAnswer(service.metricsPort(), "503 not ready: no publisher on " + layout.eventChannel() +
            " stream " + layout.eventStreamId(1) + " (matching-engine shard 1)\n");
    }

    @Test
    void shouldPublishEachFeedOfEveryShardWithItsOwnSequenceNumbers() throws Exception
    {
        offer(shard0, engine.orderAccepted(T1, "AAPL", 17, SELL, 1_500_100));
        offer(shard0, engine.orderAdded(T1, "AAPL", 17, SELL, 300, 1_500_100, 'Y'));
        awaitMessages(1);
        offer(shard1, engine.orderAdded(T1 + 10, "MSFT", 18, BUY, 100, 4_000_000, 'A'));
        awaitMessages(2);
        offer(shard0, engine.orderExecuted(T1 + 20, "AAPL", 33, 100, 1_500_100, BUY, 49, 17, 200));
        awaitMessages(4);
        offer(shard1, engine.orderAdded(T1 + 30, "MSFT", 34, SELL, 100, 4_000_100, 'N'));
        offer(shard1, engine.orderExecuted(T1 + 40, "MSFT", 50, 100, 4_000_100, BUY, 49, 34, 0));
        awaitMessages(5);
        offer(shard0, engine.tradeBroken(T1 + 50, "AAPL", 33));
        awaitMessages(6);
        offer(shard1, engine.tradingStateChanged(T1 + 60, "MSFT", TradingState.HALTED));
        awaitMessages(7);

        assertThat(orders.messages).containsExactly(
            new Sequenced(1, new AddOrder(T1, "AAPL", 17, Side.SELL, 300, 1_500_100)),
            new Sequenced(2, new AddOrder(T1 + 10, "MSFT", 18, Side.BUY, 100, 4_000_000)),
            new Sequenced(3, new Executed(T1 + 20, "AAPL", 17, 100, 33, 1_500_100)),
            new Sequenced(4, new Trade(T1 + 20, "AAPL", 33, Side.BUY, 100, 1_500_100, true)),
            new Sequenced(5, new Trade(T1 + 40, "MSFT", 50, Side.BUY, 100, 4_000_100, false)),
            new Sequenced(6, new Broken(T1 + 50, "AAPL", 33)),
            new Sequenced(7, new TradingAction(T1 + 60, "MSFT", 'H', "O1  ")));
        awaitTrue(() -> poll(depthFeed, depth, 3) && poll(bboFeed, bbo, 3) && poll(tradesFeed, trades, 3));
        assertThat(depth.messages).containsExactly(
            new Sequenced(1, new Level(T1, "AAPL", Side.SELL, 1_500_100, 300, 1)),
            new Sequenced(2, new Level(T1 + 10, "MSFT", Side.BUY, 4_000_000, 100, 1)),
            new Sequenced(3, new Level(T1 + 20, "AAPL", Side.SELL, 1_500_100, 200, 1)));
        assertThat(bbo.messages).containsExactly(
            new Sequenced(1, new Bbo(T1, "AAPL", 0, 0, 1_500_100, 300)),
            new Sequenced(2, new Bbo(T1 + 10, "MSFT", 4_000_000, 100, 0, 0)),
            new Sequenced(3, new Bbo(T1 + 20, "AAPL", 0, 0, 1_500_100, 200)));
        assertThat(trades.messages).containsExactly(
            new Sequenced(1, new Trade(T1 + 20, "AAPL", 33, Side.BUY, 100, 1_500_100, true)),
            new Sequenced(2, new Trade(T1 + 40, "MSFT", 50, Side.BUY, 100, 4_000_100, false)),
            new Sequenced(3, new Broken(T1 + 50, "AAPL", 33)));

        // The md-publisher counts a message once it is published.
        awaitAsserted(() -> assertThat(scrapeMetrics())
            .contains("bourse_md_events_in_total{type=\"accepted\"} 1.0\n")
            .contains("bourse_md_events_in_total{type=\"added\"} 3.0\n")
            .contains("bourse_md_events_in_total{type=\"executed\"} 2.0\n")
            .contains("bourse_md_messages_out_total{feed=\"bbo\",type=\"best_bid_offer\"} 3.0\n")
            .contains("bourse_md_messages_out_total{feed=\"depth\",type=\"price_level_update\"} 3.0\n")
            .contains("bourse_md_errors_total{kind=").doesNotContainPattern(Counters.MD_ERROR_COUNTED)
            .contains("bourse_md_events_in_total{type=\"trade_broken\"} 1.0\n")
            .contains("bourse_md_messages_out_total{feed=\"orders\",type=\"broken_trade\"} 1.0\n")
            .contains("bourse_md_messages_out_total{feed=\"trades\",type=\"broken_trade\"} 1.0\n")
            .contains("bourse_md_messages_out_total{feed=\"trades\",type=\"trade\"} 2.0\n")
            .contains("bourse_md_messages_out_total{feed=\"orders\",type=\"stock_trading_action\"} 1.0\n")
            .contains("bourse_md_publish_latency_seconds_count 16\n")
            .contains("bourse_md_drops_total{feed=\"orders\",reason=\"not_connected\"} 0.0\n")
            .contains("bourse_md_drops_total{feed=\"trades\",reason=\"not_connected\"} 0.0\n")
            .containsPattern("bourse_aeron_subscriber_lag_bytes\\{session=\"-?[0-9]+\",stream=\"2000\"} 0.0\n")
            .containsPattern("bourse_aeron_client_counter\\{id=\"[0-9]+\",label=\"sub-pos: [^\"]*\",type=\"4\"}")
            .contains("bourse_md_trades_total{symbol=\"AAPL\"} 1.0\n")
            .contains("bourse_md_trades_total{symbol=\"MSFT\"} 1.0\n")
            .contains("bourse_md_traded_shares_total{symbol=\"AAPL\"} 100.0\n")
            .contains("bourse_md_book_shares{side=\"offer\",symbol=\"AAPL\"} 200.0\n")
            .contains("bourse_md_book_orders{side=\"bid\",symbol=\"MSFT\"} 1.0\n")
            .contains("bourse_md_best_offer_dollars{symbol=\"AAPL\"} 150.01\n")
            .contains("bourse_md_best_bid_dollars{symbol=\"MSFT\"} 400.0\n")
            .doesNotContain("bourse_md_spread_dollars{"));
    }

    /**
     * The stop reads the engine events already published, such as the cancels of the order gateway's stop just before,
     * then ends every feed with EndOfFeed, which names the feed's last increment: here events offered and not yet read
     * when the stop starts.
     */
    @Test
    void shouldPublishTheEventsAlreadyPublishedThenEndEveryFeedAtTheStop()
    {
        offer(shard0, engine.orderAdded(T1, "AAPL", 17, SELL, 300, 1_500_100, 'Y'));
        awaitMessages(1);
        offer(shard0, engine.orderCanceled(T1 + 10, "AAPL", 17, 300, 0));
        offer(shard0, engine.orderAdded(T1 + 20, "AAPL", 19, BUY, 100, 1_500_000, 'Y'));

        service.close();
        service = null;

        awaitEnd(marketData, orders);
        assertThat(orders.messages).containsExactly(
            new Sequenced(1, new AddOrder(T1, "AAPL", 17, Side.SELL, 300, 1_500_100)),
            new Sequenced(2, new Delete(T1 + 10, "AAPL", 17)),
            new Sequenced(3, new AddOrder(T1 + 20, "AAPL", 19, Side.BUY, 100, 1_500_000)));
        assertThat(orders.end).isEqualTo(new MarketDataCapture.End(3, 3));
        awaitEnd(depthFeed, depth);
        assertThat(depth.end).isEqualTo(new MarketDataCapture.End(3, 3));
        awaitEnd(bboFeed, bbo);
        assertThat(bbo.end).isEqualTo(new MarketDataCapture.End(3, 3));
        awaitEnd(tradesFeed, trades);
        assertThat(trades.end).as("a feed with no increment").isEqualTo(new MarketDataCapture.End(0, 0));
    }

    @Test
    void shouldPublishNonPrintableExecutionsWithPriceAndOneCrossTradeWhenTheClosingCrossRuns() throws Exception
    {
        offer(shard1, engine.orderAdded(T1, "MSFT", 17, BUY, 300, 4_000_000, 'Y'));
        awaitMessages(1);

        offer(shard1, engine.crossExecuted(T1 + 10, "MSFT", 33, 300, 3_999_900, BUY, 97, 17, 0));
        offer(shard1, engine.cancelPending(T1 + 10, "MSFT", 98));
        offer(shard1, engine.crossCompleted(T1 + 10, "MSFT", 3_999_900, 300, 34));
        awaitMessages(3);

        assertThat(orders.messages).containsExactly(
            new Sequenced(1, new AddOrder(T1, "MSFT", 17, Side.BUY, 300, 4_000_000)),
            new Sequenced(2, new ExecutedWithPrice(T1 + 10, "MSFT", 17, 300, 33, false, 3_999_900)),
            new Sequenced(3, new CrossTrade(T1 + 10, "MSFT", 300, 3_999_900, 34)));
        awaitTrue(() -> poll(depthFeed, depth, 2) && poll(bboFeed, bbo, 2) && poll(tradesFeed, trades, 1));
        assertThat(depth.messages).containsExactly(
            new Sequenced(1, new Level(T1, "MSFT", Side.BUY, 4_000_000, 300, 1)),
            new Sequenced(2, new Level(T1 + 10, "MSFT", Side.BUY, 4_000_000, 0, 0)));
        assertThat(bbo.messages).containsExactly(
            new Sequenced(1, new Bbo(T1, "MSFT", 4_000_000, 300, 0, 0)),
            new Sequenced(2, new Bbo(T1 + 10, "MSFT", 0, 0, 0, 0)));
        assertThat(trades.messages).containsExactly(
            new Sequenced(1, new CrossTrade(T1 + 10, "MSFT", 300, 3_999_900, 34)));

        final String metrics = scrapeMetrics();
        assertThat(metrics)
            .contains("bourse_md_events_in_total{type=\"cancel_pending\"} 1.0\n")
            .contains("bourse_md_events_in_total{type=\"cross_completed\"} 1.0\n")
            .contains("bourse_md_messages_out_total{feed=\"orders\",type=\"order_executed_with_price\"} 1.0\n")
            .contains("bourse_md_messages_out_total{feed=\"orders\",type=\"cross_trade\"} 1.0\n")
            .contains("bourse_md_messages_out_total{feed=\"trades\",type=\"cross_trade\"} 1.0\n")
            .contains("bourse_md_messages_out_total{feed=\"orders\",type=\"trade\"} 0.0\n")
            .contains("bourse_md_trades_total{symbol=\"MSFT\"} 1.0\n")
            .contains("bourse_md_traded_shares_total{symbol=\"MSFT\"} 300.0\n")
            .contains("bourse_md_errors_total{kind=").doesNotContainPattern(Counters.MD_ERROR_COUNTED);
    }

    @Test
    void shouldDeleteTheOrdersOfAShardWhoseNewRunRecoveredNoEarlierRun() throws Exception
    {
        offer(shard0, engine.orderAdded(T1, "AAPL", 17, SELL, 300, 1_500_100, 'Y'));
        offer(shard1, engine.orderAdded(T1, "MSFT", 18, BUY, 100, 4_000_000, 'Y'));
        awaitMessages(2);

        // Shard 0's engine stops; its new run, on a stream of its own, recovered nothing (no event archive).
        shard0.close();
        final Publication run2 = aeron.addExclusivePublication(layout.eventChannel(), layout.eventStreamId(0));
        awaitTrue(run2::isConnected);
        offer(run2, engine.runStarted(T1 + 10, 0, 0, 1_000));
        offer(run2, engine.orderAdded(T1 + 20, "AAPL", EngineNumbering.firstOfRun(1_000), BUY, 200, 1_500_000, 'Y'));
        awaitMessages(4);

        assertThat(orders.messages.subList(2, 4)).containsExactly(
            new Sequenced(3, new Delete(T1 + 10, "AAPL", 17)),
            new Sequenced(4, new AddOrder(T1 + 20, "AAPL", 16_016, Side.BUY, 200, 1_500_000)));
        awaitTrue(() -> poll(depthFeed, depth, 4) && poll(bboFeed, bbo, 4));
        assertThat(depth.messages.subList(2, 4)).containsExactly(
            new Sequenced(3, new Level(T1 + 10, "AAPL", Side.SELL, 1_500_100, 0, 0)),
            new Sequenced(4, new Level(T1 + 20, "AAPL", Side.BUY, 1_500_000, 200, 1)));
        assertThat(bbo.messages.subList(2, 4)).containsExactly(
            new Sequenced(3, new Bbo(T1 + 10, "AAPL", 0, 0, 0, 0)),
            new Sequenced(4, new Bbo(T1 + 20, "AAPL", 1_500_000, 200, 0, 0)));
        assertThat(scrapeMetrics())
            .contains("bourse_md_events_in_total{type=\"run_started\"} 1.0\n")
            .contains("bourse_md_messages_out_total{feed=\"orders\",type=\"order_delete\"} 1.0\n")
            .contains("bourse_md_book_orders{side=\"offer\",symbol=\"AAPL\"} 0.0\n")
            .contains("bourse_md_book_orders{side=\"bid\",symbol=\"MSFT\"} 1.0\n")
            .contains("bourse_md_errors_total{kind=").doesNotContainPattern(Counters.MD_ERROR_COUNTED);
    }

    @Test
    void shouldNameItsAeronClientSoThatTheDriverCountersTellItApart()
    {
        // The client appends its name to its heartbeat counter's label on its first keepalive after connecting.
        awaitTrue(() -> heartbeatLabels().stream().anyMatch((label) -> label.contains(" name=md-publisher ")));
    }

    @Test
    void shouldCountTheMarketDataItCannotPublishAsDropsWhenNothingSubscribes() throws Exception
    {
        marketData.close();
        final long deadlineNs = System.nanoTime() + 10_000_000_000L;
        long orderId = 100;
        while (!scrapeMetrics().matches(
            "(?s).*bourse_md_drops_total\\{feed=\"orders\",reason=\"not_connected\"} [1-9].*"))
        {
            assertThat(System.nanoTime()).as("drops counted within 10 s").isLessThan(deadlineNs);
            offer(shard1, engine.orderAdded(T1, "MSFT", orderId++, BUY, 100, 4_000_000, 'Y'));
            Thread.sleep(10);
        }
        assertThat(scrapeMetrics())
            .contains("bourse_md_drops_total{feed=\"orders\",reason=\"back_pressure\"} 0.0\n")
            .contains("bourse_md_drops_total{feed=\"orders\",reason=\"closed\"} 0.0\n")
            .contains("bourse_md_drops_total{feed=\"depth\",reason=\"not_connected\"} 0.0\n");
    }

    private String scrapeMetrics() throws Exception
    {
        return MetricsEndpoint.scrape(service.metricsPort());
    }

    private List<String> heartbeatLabels()
    {
        final List<String> labels = new ArrayList<>();
        aeron.countersReader().forEach((counterId, typeId, keyBuffer, label) ->
        {
            if (AeronCounters.DRIVER_HEARTBEAT_TYPE_ID == typeId)
            {
                labels.add(label);
            }
        });
        return labels;
    }

    private void offer(final Publication publication, final int length)
    {
        awaitTrue(() -> publication.offer(engine.buffer, 0, length) > 0);
    }

    /** Reads the order feed until it has that many messages. */
    private void awaitMessages(final int count)
    {
        awaitTrue(() -> poll(marketData, orders, count));
    }

    /** Reads a feed until its EndOfFeed. */
    private static void awaitEnd(final Subscription feed, final MarketDataCapture capture)
    {
        awaitTrue(() ->
        {
            feed.poll(capture, 10);
            return null != capture.end;
        });
    }

    private static boolean poll(final Subscription feed, final MarketDataCapture capture, final int count)
    {
        feed.poll(capture, 10);
        return capture.messages.size() >= count;
    }
}
