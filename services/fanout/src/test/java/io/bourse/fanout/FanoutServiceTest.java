package io.bourse.fanout;

import com.paritytrading.nassau.soupbintcp.SoupBinTCP;
import com.paritytrading.nassau.soupbintcp.SoupBinTCPClient;
import com.paritytrading.nassau.soupbintcp.SoupBinTCPClientStatusListener;
import io.aeron.Aeron;
import io.aeron.Publication;
import io.aeron.driver.MediaDriver;
import io.bourse.common.aeron.EmbeddedMediaDriver;
import io.bourse.common.aeron.StreamLayout;
import io.bourse.common.config.SymbolDirectory;
import io.bourse.common.config.Symbols;
import io.bourse.common.metrics.MetricsEndpoint;
import io.bourse.common.metrics.ReadyEndpoint;
import io.bourse.common.time.MidnightNanoClock;
import io.bourse.itch.ItchEvents;
import io.bourse.itch.MarketDataEncoder;
import io.bourse.mdpublisher.EngineEventEncoder;
import io.bourse.mdpublisher.MdPublisherContext;
import io.bourse.mdpublisher.MdPublisherService;
import io.bourse.sbe.md.Side;
import io.bourse.sbe.md.TradingState;
import org.agrona.CloseHelper;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.SocketTimeoutException;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static io.bourse.common.Await.awaitAsserted;
import static io.bourse.common.Await.awaitTrue;
import static io.bourse.itch.ItchEvents.AddOrder;
import static io.bourse.itch.ItchEvents.CrossTrade;
import static io.bourse.itch.ItchEvents.OrderCancel;
import static io.bourse.itch.ItchEvents.OrderDelete;
import static io.bourse.itch.ItchEvents.OrderExecuted;
import static io.bourse.itch.ItchEvents.OrderExecutedWithPrice;
import static io.bourse.itch.ItchEvents.OrderReplace;
import static io.bourse.itch.ItchEvents.StockDirectory;
import static io.bourse.itch.ItchEvents.StockTradingAction;
import static io.bourse.itch.ItchEvents.SystemEvent;
import static io.bourse.itch.ItchEvents.Trade;
import static io.bourse.sbe.engine.Side.BUY;
import static io.bourse.sbe.engine.Side.SELL;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A real media driver, a real fanout on ephemeral ports (fed by the test, or by a real md-publisher fed engine events),
 * and nassau SoupBinTCP clients parsing ITCH 5.0.
 */
@Timeout(30)
class FanoutServiceTest
{
    private static final long T = 34_200_123_456_789L;
    private static final SymbolDirectory SYMBOLS = SymbolDirectory.parse("AAPL@0,MSFT@1");
    private static final int REPLAY_CAPACITY = 1024;
    /** A kind of {@code bourse_fanout_errors_total} counted above 0, in a scrape. */
    private static final String ERROR_COUNTED = "bourse_fanout_errors_total\\{kind=\"[a-z_]+\"} [1-9]";
    /** Small, so that a snapshot of a few hundred orders takes several duty cycles while the stream goes on. */
    private static final int FRAGMENT_LIMIT = 16;
    /** What a snapshot login starts with: System Event 'O', one Stock Directory per symbol. */
    private static final int OPENING_MESSAGES = 3;
    /**
     * The messages of a snapshot login besides its symbols' snapshots: the opening, then, after the snapshots' Stock
     * Trading Actions (the spin), System Events 'S' and 'Q'.
     */
    private static final int DIRECTORY_MESSAGES = OPENING_MESSAGES + 2;
    private static final SystemEvent START_OF_SYSTEM_HOURS = new SystemEvent(0, 'S');
    private static final SystemEvent START_OF_MARKET_HOURS = new SystemEvent(0, 'Q');
    /** Trading every symbol, in the snapshot. */
    private static final StockTradingAction AAPL_TRADING = new StockTradingAction(1, "AAPL", 'T', "    ");
    private static final StockTradingAction MSFT_TRADING = new StockTradingAction(2, "MSFT", 'T', "    ");
    /**
     * What a login to every symbol gets before the live stream while the book is empty and no symbol was halted: the
     * opening, each symbol's Stock Trading Action, then System Events 'S' and 'Q'.
     */
    private static final int SESSION_START_MESSAGES = DIRECTORY_MESSAGES + 2;
    /** The stalled subscriber's receive buffer, bytes: small, so that the fanout's sends to it back up soon. */
    private static final int STALLED_RECEIVE_BUFFER = 4096;
    /** Orders (Add Order then Order Delete) published between checks that the stalled subscriber is gone. */
    private static final int STALL_BATCH_ORDERS = 500;
    /**
     * 4 MiB of kernel send buffer (net.ipv4.tcp_wmem's usual maximum) and the session's 128 KiB send buffer are about
     * 77,000 orders of 55 bytes.
     */
    private static final long MAX_STALL_ORDERS = 200_000;

    @TempDir
    Path tempDir;

    private final MarketDataEncoder sbe = new MarketDataEncoder();
    private final EngineEventEncoder engine = new EngineEventEncoder();
    private final List<Subscriber> subscribers = new ArrayList<>();
    private MediaDriver driver;
    private StreamLayout layout;
    private FanoutService service;
    private Aeron aeron;
    private Publication marketData;

    @BeforeEach
    void setUp() throws IOException
    {
        driver = EmbeddedMediaDriver.launch("fanout-test");
        final String aeronDir = driver.aeronDirectoryName();
        final Path credentials = Files.writeString(
            tempDir.resolve("credentials.csv"), "username,password,firm\nsub1,secret1,SUBA\nsub2,secret2,SUBB\n");
        layout = EmbeddedMediaDriver.defaultLayout(driver);
        service = FanoutService.launch(context(credentials));
        aeron = Aeron.connect(new Aeron.Context().aeronDirectoryName(aeronDir));
        marketData = aeron.addPublication(layout.marketDataChannel(), layout.marketDataStreamId());
        awaitTrue(marketData::isConnected);
        // The md-publisher's answer to the fanout's snapshot request, before anything was published: no book. Taken
        // before the test goes on: a real md-publisher started first would make it an older stream's snapshot.
        offer(sbe.snapshotComplete(1));
        awaitTrue(() -> metricsContain("bourse_fanout_market_data_recoveries_total 1.0\n"));
    }

    /** @return two workers with the default session limits, on ephemeral ports. */
    private FanoutContext context(final Path credentials)
    {
        return new FanoutContext()
            .layout(layout)
            .symbolDirectory(SYMBOLS)
            .credentialsFile(credentials)
            .port(0)
            .metricsPort(0)
            .jvmMetrics(false)
            .workerCount(2)
            .replayCapacity(REPLAY_CAPACITY)
            .fragmentLimit(FRAGMENT_LIMIT);
    }

    @AfterEach
    void tearDown()
    {
        CloseHelper.closeAll(subscribers);
        CloseHelper.closeAll(aeron, service, driver);
    }

    @Test
    void shouldBeReadyOnlyWhileTheMdPublisherPublishesMarketData() throws Exception
    {
        ReadyEndpoint.awaitAnswer(service.metricsPort(), "200 ready\n");

        marketData.close();
        ReadyEndpoint.awaitAnswer(service.metricsPort(), "503 not ready: no publisher on " +
            layout.marketDataChannel() + " stream " + layout.marketDataStreamId() + " (md-publisher)\n");
    }

    @Test
    void shouldBeReadyOnlyOnceItHasTheBooksOfASnapshot() throws Exception
    {
        // The next fanout's subscription joins the stream where this one left it: after the snapshot of set-up.
        awaitTrue(() -> metricsContain("bourse_fanout_market_data_recoveries_total 1.0\n"));
        service.close();
        service = FanoutService.launch(context(tempDir.resolve("credentials.csv")));
        ReadyEndpoint.awaitAnswer(service.metricsPort(), "503 not ready: no books yet: waiting for an md-publisher " +
            "snapshot (stream " + layout.snapshotRequestStreamId() + ")\n");

        final int snapshotLength = sbe.snapshotComplete(2);
        awaitTrue(() -> marketData.offer(sbe.buffer, 0, snapshotLength) > 0 &&
            metricsContain("bourse_fanout_market_data_recoveries_total 1.0\n"));
        ReadyEndpoint.awaitAnswer(service.metricsPort(), "200 ready\n");
    }

    @Test
    void shouldSendDirectoryThenLiveAddOrderToEverySubscriberOnEveryWorker() throws Exception
    {
        final Subscriber first = connect();
        final Subscriber second = connect();
        first.login("sub1", "secret1");
        second.login("sub2", "secret2");
        final List<ItchEvents.Message> sessionStart = List.of(
            new SystemEvent(0, 'O'),
            new StockDirectory(1, "AAPL", 'Q', 'N', 100, 'C', 'T'),
            new StockDirectory(2, "MSFT", 'Q', 'N', 100, 'C', 'T'),
            AAPL_TRADING,
            MSFT_TRADING,
            START_OF_SYSTEM_HOURS,
            START_OF_MARKET_HOURS);
        for (final Subscriber subscriber : List.of(first, second))
        {
            subscriber.receiveUntil(() -> subscriber.itch.messages.size() >= SESSION_START_MESSAGES);
            assertThat(subscriber.loginAccepted).isTrue();
            assertThat(subscriber.itch.messages).isEqualTo(sessionStart);
        }

        // A message with no ITCH form (the md-publisher sends PriceLevelUpdate on the depth feed only) is skipped.
        offer(sbe.priceLevelUpdate(T, "MSFT", 1_500_100, 300));
        offer(sbe.addOrder(T, "MSFT", 17, Side.BUY, 300, 1_500_100));

        final AddOrder expected = new AddOrder(2, 0, T, 17, 'B', 300, "MSFT", 1_500_100);
        for (final Subscriber subscriber : List.of(first, second))
        {
            subscriber.receiveUntil(() -> subscriber.itch.messages.size() >= SESSION_START_MESSAGES + 1);
            assertThat(subscriber.itch.messages.subList(SESSION_START_MESSAGES, subscriber.itch.messages.size()))
                .containsExactly(expected);
        }
        // A worker counts a message and its latency once it is written.
        awaitAsserted(() ->
        {
            final String metrics = scrapeMetrics();
            assertThat(total(metrics, "bourse_fanout_messages_in_total")).isEqualTo(3);
            assertThat(total(metrics, "bourse_fanout_messages_out_total")).isEqualTo(16);
            assertThat(metrics)
                .contains("bourse_fanout_messages_in_total{type=\"add_order\"} 1.0\n")
                .contains("bourse_fanout_messages_in_total{type=\"price_level_update\"} 1.0\n")
                .contains("bourse_fanout_messages_out_total{type=\"system_event\"} 6.0\n")
                .contains("bourse_fanout_messages_out_total{type=\"stock_directory\"} 4.0\n")
                .contains("bourse_fanout_messages_out_total{type=\"stock_trading_action\"} 4.0\n")
                .contains("bourse_fanout_messages_out_total{type=\"add_order\"} 2.0\n")
                .contains("bourse_fanout_sessions 2.0\n")
                .contains("bourse_fanout_market_data_recoveries_total 1.0\n")
                .contains("bourse_fanout_drops_total 0.0\n")
                .contains("bourse_fanout_errors_total{kind=").doesNotContainPattern(ERROR_COUNTED)
                .contains("bourse_fanout_latency_seconds_count 2\n")
                .contains("bourse_fanout_worker_ring_bytes{worker=\"0\"} 0.0\n")
                .contains("bourse_fanout_pending_catch_ups 0.0\n")
                .contains("bourse_fanout_catch_ups_in_progress 0.0\n")
                .containsPattern("bourse_aeron_subscriber_lag_bytes\\{session=\"-?[0-9]+\",stream=\"3000\"} ");
        });
    }

    @Test
    void shouldSendExecutionAgainstNonDisplayedOrderAsTradeWhenMdPublisherPrintsIt() throws Exception
    {
        try (MdPublisherService mdPublisher = switchToMdPublisher();
            Publication shard0 = aeron.addPublication(layout.eventChannel(), layout.eventStreamId(0)))
        {
            final Subscriber subscriber = connect();
            subscriber.login("sub1", "secret1");
            subscriber.receiveUntil(() -> subscriber.itch.messages.size() >= SESSION_START_MESSAGES);
            awaitTrue(shard0::isConnected);
            offer(shard0, engine.orderAdded(T, "AAPL", 17, SELL, 300, 1_500_100, 'Y'));
            offer(shard0, engine.orderAdded(T, "AAPL", 18, SELL, 500, 1_500_100, 'N'));
            offer(shard0, engine.orderExecuted(T + 10, "AAPL", 33, 100, 1_500_100, BUY, 49, 17, 200));
            offer(shard0, engine.orderExecuted(T + 20, "AAPL", 34, 200, 1_500_100, BUY, 50, 18, 300));

            // The displayed maker's execution is Order Executed only: its Trade would come before the hidden one.
            subscriber.receiveUntil(() -> subscriber.itch.messages.size() >= SESSION_START_MESSAGES + 3);
            assertThat(subscriber.itch.messages.subList(SESSION_START_MESSAGES, subscriber.itch.messages.size()))
                .containsExactly(
                new AddOrder(1, 0, T, 17, 'S', 300, "AAPL", 1_500_100),
                new OrderExecuted(1, 0, T + 10, 17, 100, 33),
                new Trade(1, 0, T + 20, 0, 'B', 200, "AAPL", 1_500_100, 34));
            // 4 increments of the order feed; 1 snapshot of the test's publisher; 3 (2 books) per snapshot of the
            // md-publisher: one, or more when it started slowly enough for the fanout to ask again (after 1 s without
            // an answer).
            final String snapshots = "bourse_md_snapshots_total{feed=\"orders\"}";
            awaitTrue(() -> total(service.metricsPort(), "bourse_fanout_messages_in_total") ==
                5 + 3 * counter(mdPublisher.metricsPort(), snapshots));
            assertThat(counter(mdPublisher.metricsPort(), snapshots)).isPositive();
        }
        assertThat(total(scrapeMetrics(), "bourse_fanout_messages_out_total")).isEqualTo(10);
        assertThat(scrapeMetrics())
            .contains("bourse_fanout_messages_out_total{type=\"trade\"} 1.0\n")
            .contains("bourse_fanout_errors_total{kind=").doesNotContainPattern(ERROR_COUNTED);
    }

    @Test
    void shouldSendCrossExecutionOfDisplayedOrderAndOneCrossTradeWhenMdPublisherPublishesTheClosingCross()
        throws Exception
    {
        try (MdPublisherService mdPublisher = switchToMdPublisher();
            Publication shard1 = aeron.addPublication(layout.eventChannel(), layout.eventStreamId(1)))
        {
            final Subscriber subscriber = connect();
            subscriber.login("sub1", "secret1");
            subscriber.receiveUntil(() -> subscriber.itch.messages.size() >= SESSION_START_MESSAGES);
            awaitTrue(shard1::isConnected);
            offer(shard1, engine.orderAdded(T, "MSFT", 17, BUY, 300, 4_000_000, 'Y'));
            offer(shard1, engine.crossExecuted(T + 10, "MSFT", 33, 300, 3_999_900, BUY, 97, 17, 0));
            offer(shard1, engine.crossExecuted(T + 10, "MSFT", 34, 200, 3_999_900, SELL, 98, 96, 0));
            offer(shard1, engine.crossCompleted(T + 10, "MSFT", 3_999_900, 500, 35));

            subscriber.receiveUntil(() -> subscriber.itch.messages.size() >= SESSION_START_MESSAGES + 3);
            assertThat(subscriber.itch.messages.subList(SESSION_START_MESSAGES, subscriber.itch.messages.size()))
                .containsExactly(
                new AddOrder(2, 0, T, 17, 'B', 300, "MSFT", 4_000_000),
                new OrderExecutedWithPrice(2, 0, T + 10, 17, 300, 33, 'N', 3_999_900),
                new CrossTrade(2, 0, T + 10, 500, "MSFT", 3_999_900, 35, 'C'));
        }
        assertThat(total(scrapeMetrics(), "bourse_fanout_messages_out_total")).isEqualTo(10);
        assertThat(scrapeMetrics())
            .contains("bourse_fanout_messages_out_total{type=\"cross_trade\"} 1.0\n")
            .contains("bourse_fanout_errors_total{kind=").doesNotContainPattern(ERROR_COUNTED);
    }

    @Test
    void shouldRejectLoginWithWrongPassword() throws Exception
    {
        final Subscriber subscriber = connect();

        subscriber.login("sub1", "wrong");
        subscriber.receiveUntil(() -> 0 != subscriber.rejectReason);

        assertThat(subscriber.rejectReason).isEqualTo((byte)'A');
        assertThat(subscriber.loginAccepted).isFalse();
        assertThat(subscriber.client.receive()).isEqualTo(-1);
        assertThat(scrapeMetrics())
            .contains("bourse_fanout_login_failures_total 1.0\n")
            .contains("bourse_fanout_sessions 0.0\n");
    }

    @Test
    void shouldKeepServingOthersWhenOneSubscriberDisconnects() throws Exception
    {
        // The fewest sessions, in turn on a tie: the first and third connections share worker 0, the second is on
        // worker 1.
        final Subscriber leaving = connect();
        final Subscriber otherWorker = connect();
        final Subscriber sameWorker = connect();
        final List<Subscriber> all = List.of(leaving, otherWorker, sameWorker);
        for (final Subscriber subscriber : all)
        {
            subscriber.login("sub1", "secret1");
            subscriber.receiveUntil(() -> subscriber.itch.messages.size() >= SESSION_START_MESSAGES);
        }

        leaving.close();
        offer(sbe.addOrder(T, "AAPL", 33, Side.SELL, 100, 4_000_000));

        for (final Subscriber subscriber : List.of(otherWorker, sameWorker))
        {
            subscriber.receiveUntil(() -> subscriber.itch.messages.size() >= SESSION_START_MESSAGES + 1);
            assertThat(subscriber.itch.messages.get(SESSION_START_MESSAGES))
                .isEqualTo(new AddOrder(1, 0, T, 33, 'S', 100, "AAPL", 4_000_000));
        }
    }

    /**
     * A connection that sends a Login Request too short to parse (SoupBinTCP length 2: 'L' and one byte), then keeps
     * sending: nassau's parser throws on it. The fanout closes that connection, without End of Session (it had no
     * session), drops what it sends after it (no reset), counts it, and the session sharing its worker still gets the
     * live data.
     */
    @Test
    void shouldEndTheSessionOfAConnectionSendingAMalformedLoginAndKeepServingTheSessionOnItsWorker() throws Exception
    {
        // The fewest sessions, in turn on a tie: the first and third connections share worker 0.
        final Subscriber sameWorker = connect();
        final Subscriber otherWorker = connect();
        for (final Subscriber subscriber : List.of(sameWorker, otherWorker))
        {
            subscriber.login("sub1", "secret1");
            subscriber.receiveUntil(() -> subscriber.itch.messages.size() >= SESSION_START_MESSAGES);
        }
        try (SocketChannel malformed = SocketChannel.open(new InetSocketAddress("localhost", service.port())))
        {
            final ByteBuffer garbage = ByteBuffer.allocate(16 * 1024);
            garbage.put(new byte[] {0, 2, 'L', 'A'}).position(garbage.capacity()).flip();
            while (garbage.hasRemaining())
            {
                malformed.write(garbage);
            }
            offer(sbe.addOrder(T, "AAPL", 33, Side.SELL, 100, 4_000_000));

            sameWorker.receiveUntil(() -> sameWorker.itch.messages.size() >= SESSION_START_MESSAGES + 1);
            assertThat(sameWorker.itch.messages.get(SESSION_START_MESSAGES))
                .isEqualTo(new AddOrder(1, 0, T, 33, 'S', 100, "AAPL", 4_000_000));
            // No End of Session (before stop 106, 'Z'): the connection had no session.
            assertThat(readUntilClosed(malformed)).as("the fanout's end closed, nothing sent").isEmpty();
        }
        final String metrics = scrapeMetrics();
        assertThat(metrics).contains("\nbourse_fanout_malformed_packets_total 1.0\n")
            .contains("\nbourse_fanout_errors_total{kind=\"malformed_packet\"} 1.0\n");
        assertThat(total(metrics, "bourse_fanout_errors_total")).isEqualTo(1);
    }

    @Test
    void shouldServeAThousandSubscribersAtOnceWithTheDefaultLimits() throws Exception
    {
        final int count = 1_000;
        final List<Subscriber> thousand = new ArrayList<>();
        for (int i = 0; i < count; i++)
        {
            final Subscriber subscriber = connect();
            subscriber.login(i % 2 == 0 ? "sub1" : "sub2", i % 2 == 0 ? "secret1" : "secret2");
            thousand.add(subscriber);
        }
        for (final Subscriber subscriber : thousand)
        {
            subscriber.receiveUntil(() -> subscriber.itch.messages.size() >= SESSION_START_MESSAGES);
            assertThat(subscriber.loginAccepted).isTrue();
        }

        offer(sbe.addOrder(T, "MSFT", 41, Side.BUY, 200, 1_500_000));

        final AddOrder expected = new AddOrder(2, 0, T, 41, 'B', 200, "MSFT", 1_500_000);
        for (final Subscriber subscriber : thousand)
        {
            subscriber.receiveUntil(() -> subscriber.itch.messages.size() >= SESSION_START_MESSAGES + 1);
            assertThat(subscriber.itch.messages.subList(SESSION_START_MESSAGES, subscriber.itch.messages.size()))
                .containsExactly(expected);
        }
        assertThat(scrapeMetrics())
            .contains("bourse_fanout_sessions " + count + ".0\n")
            .contains("bourse_fanout_errors_total{kind=").doesNotContainPattern(ERROR_COUNTED);
    }

    @Test
    void shouldGiveANewConnectionTheWorkerWithRoomWhenSessionsEndedUnevenly() throws Exception
    {
        service.close();
        service = FanoutService.launch(context(tempDir.resolve("credentials.csv")).maxSessionsPerWorker(2));
        // The new fanout asks for a snapshot: answer it (again until taken, the new subscription may not be up).
        final int snapshotLength = sbe.snapshotComplete(2);
        awaitTrue(() -> marketData.offer(sbe.buffer, 0, snapshotLength) > 0 &&
            metricsContain("bourse_fanout_market_data_recoveries_total 1.0\n"));
        // Two per worker, in turn: the first and third connections on worker 0, the second and fourth on worker 1.
        final List<Subscriber> four = new ArrayList<>();
        for (int i = 0; i < 4; i++)
        {
            final Subscriber subscriber = connect();
            subscriber.login("sub1", "secret1");
            subscriber.receiveUntil(() -> subscriber.itch.messages.size() >= SESSION_START_MESSAGES);
            four.add(subscriber);
        }
        four.get(0).close();
        four.get(2).close();
        awaitTrue(() -> metricsContain("bourse_fanout_sessions 2.0\n"));

        // Worker 0 has room for both; worker 1 for neither.
        final List<Subscriber> two = List.of(connect(), connect());
        for (final Subscriber subscriber : two)
        {
            subscriber.login("sub2", "secret2");
            subscriber.receiveUntil(() -> subscriber.itch.messages.size() >= SESSION_START_MESSAGES);
            assertThat(subscriber.loginAccepted).isTrue();
        }
        assertThat(scrapeMetrics())
            .contains("bourse_fanout_sessions 4.0\n")
            .contains("bourse_fanout_errors_total{kind=").doesNotContainPattern(ERROR_COUNTED);
    }

    /**
     * Connections that never log in, all gone to the less-loaded worker, fill its places for connections awaiting their
     * Login Request: the next subscriber goes to the other worker and is served (before, it went to the less-loaded
     * worker too and was refused).
     */
    @Test
    void shouldGiveANewConnectionAWorkerNotAtItsLimitOfConnectionsAwaitingTheirLogin() throws Exception
    {
        service.close();
        service = FanoutService.launch(context(tempDir.resolve("credentials.csv")).maxPendingLoginsPerWorker(2));
        final int snapshotLength = sbe.snapshotComplete(2);
        awaitTrue(() -> marketData.offer(sbe.buffer, 0, snapshotLength) > 0 &&
            metricsContain("bourse_fanout_market_data_recoveries_total 1.0\n"));
        // In turn: the first, third and fifth on worker 0, which then has none left; worker 1 keeps three.
        final List<Subscriber> six = new ArrayList<>();
        for (int i = 0; i < 6; i++)
        {
            final Subscriber subscriber = connect();
            subscriber.login("sub1", "secret1");
            subscriber.receiveUntil(() -> subscriber.itch.messages.size() >= SESSION_START_MESSAGES);
            six.add(subscriber);
        }
        for (int i = 0; i < 6; i += 2)
        {
            six.get(i).close();
        }
        awaitTrue(() -> metricsContain("bourse_fanout_sessions 3.0\n"));

        connect(); // both silent connections go to worker 0, the less loaded
        connect();
        final Subscriber subscriber = connect();
        subscriber.login("sub2", "secret2");
        subscriber.receiveUntil(() -> subscriber.itch.messages.size() >= SESSION_START_MESSAGES);

        assertThat(subscriber.loginAccepted).isTrue();
        assertThat(scrapeMetrics())
            .contains("bourse_fanout_sessions 4.0\n")
            .contains("bourse_fanout_pending_login_refusals_total 0.0\n");
    }

    @Test
    void shouldDisconnectAStalledSubscriberAsASlowConsumerWhileTheOthersReceiveEverything() throws Exception
    {
        // In turn: the stalled subscriber and sameWorker share worker 0, otherWorker is on worker 1.
        final Subscriber stalled = connectWithReceiveBuffer(STALLED_RECEIVE_BUFFER);
        final Subscriber otherWorker = connectNonBlocking();
        final Subscriber sameWorker = connectNonBlocking();
        final List<Subscriber> healthy = List.of(otherWorker, sameWorker);
        for (final Subscriber subscriber : List.of(stalled, otherWorker, sameWorker))
        {
            subscriber.login("sub1", "secret1");
            subscriber.receiveUntil(() -> subscriber.itch.messages.size() >= SESSION_START_MESSAGES);
        }

        // The stalled subscriber reads no more: publish, paced by the healthy ones, until the fanout ends it.
        final List<ItchEvents.Message> published = new ArrayList<>();
        long orderId = 1;
        while (!scrapeMetrics().contains("bourse_fanout_slow_consumer_disconnects_total 1.0\n"))
        {
            assertThat(orderId).as("stalled subscriber still connected").isLessThan(MAX_STALL_ORDERS);
            for (int i = 0; i < STALL_BATCH_ORDERS; i++, orderId++)
            {
                offer(sbe.addOrder(T + orderId, "AAPL", orderId, Side.BUY, 100, 1_000_000));
                offer(sbe.orderDelete(T + orderId, "AAPL", orderId));
                published.add(new AddOrder(1, 0, T + orderId, orderId, 'B', 100, "AAPL", 1_000_000));
                published.add(new OrderDelete(1, T + orderId, orderId));
            }
            final int expected = SESSION_START_MESSAGES + published.size();
            for (final Subscriber subscriber : healthy)
            {
                subscriber.receiveUntil(() -> subscriber.itch.messages.size() >= expected);
            }
        }

        // It reads again, within the fanout's wait, with a Client Heartbeat before every read: what its socket held,
        // the rest of the packet under way, End of Session, then the end of the stream. The fanout's end stays open and
        // drops the heartbeats, which a closed socket would answer with a reset that discards what is still unread.
        stalled.channel.configureBlocking(false);
        assertThat(stalled.receiveUntilEndOfStreamSendingHeartbeats()).as("end of stream, not a reset").isTrue();
        assertThat(stalled.endOfSession).isTrue();
        stalled.close();
        for (final Subscriber subscriber : healthy)
        {
            assertThat(subscriber.itch.messages.subList(SESSION_START_MESSAGES, subscriber.itch.messages.size()))
                .isEqualTo(published);
        }
        awaitTrue(() -> metricsContain("bourse_fanout_sessions 2.0\n"));
        assertThat(stalled.itch.messages.size()).isLessThan(SESSION_START_MESSAGES + published.size());
        assertThat(stalled.itch.messages.subList(SESSION_START_MESSAGES, stalled.itch.messages.size()))
            .isEqualTo(published.subList(0, stalled.itch.messages.size() - SESSION_START_MESSAGES));
        assertThat(scrapeMetrics())
            .contains("bourse_fanout_sessions 2.0\n")
            .contains("bourse_fanout_slow_consumer_disconnects_total 1.0\n")
            .contains("bourse_fanout_errors_total{kind=\"slow_consumer\"} 1.0\n")
            .contains("bourse_fanout_drops_total 0.0\n")
            .contains("bourse_fanout_gap_disconnects_total 0.0\n");
        assertThat(total(scrapeMetrics(), "bourse_fanout_errors_total")).as("no other error").isEqualTo(1);
    }

    /**
     * A fanout whose sessions have the smallest send buffer (4 KiB, and 4 KiB of socket send buffer) serves a book of
     * 2,000 orders, about 78 KB, to a late joiner that reads a little at a time (a 4 KiB receive buffer, 1 ms between
     * reads): the dispatcher writes the snapshot at the pace the subscriber takes it ({@link AnswerPacing}), and the
     * subscriber gets the whole book, no slow-consumer end. Before, the worker copied the whole snapshot into the send
     * buffer as it read it, which ended the subscriber as a slow consumer at every login.
     */
    @Test
    void shouldServeABookLargerThanTheSendBufferToALateJoinerAtThePaceItReads() throws Exception
    {
        awaitTrue(() -> metricsContain("bourse_fanout_market_data_recoveries_total 1.0\n"));
        service.close();
        service = FanoutService.launch(context(tempDir.resolve("credentials.csv"))
            .sendBufferBytes(FanoutContext.SEND_BUFFER_BYTES_MIN)
            .socketSendBufferBytes(FanoutContext.SEND_BUFFER_BYTES_MIN));
        final int snapshotLength = sbe.snapshotComplete(2);
        awaitTrue(() -> marketData.offer(sbe.buffer, 0, snapshotLength) > 0 &&
            metricsContain("bourse_fanout_market_data_recoveries_total 1.0\n"));
        final int orders = 2_000;
        for (int orderId = 1; orderId <= orders; orderId++)
        {
            offer(sbe.addOrder(T + orderId, "AAPL", orderId, Side.BUY, 100, 1_000_000 - orderId));
        }
        // All in the book before the login: a snapshot taken earlier would be followed by more messages than the
        // replay ring keeps, and fail when the first of them left it.
        awaitTrue(() -> metricsContain("bourse_fanout_messages_in_total{type=\"add_order\"} " + orders + ".0\n"));

        final Subscriber late = connectWithReceiveBuffer(STALLED_RECEIVE_BUFFER);
        late.login("sub1", "secret1");
        while (late.itch.messages.stream().filter(AddOrder.class::isInstance).count() < orders)
        {
            Thread.sleep(1);
            assertThat(late.client.receive()).as("connection open").isNotNegative();
        }

        assertThat(late.endOfSession).isFalse();
        assertThat(late.itch.messages.stream().filter(AddOrder.class::isInstance).map(AddOrder.class::cast)
            .map(AddOrder::orderReferenceNumber).distinct().count()).isEqualTo(orders);
        assertThat(scrapeMetrics()).contains("bourse_fanout_slow_consumer_disconnects_total 0.0\n")
            .contains("bourse_fanout_errors_total{kind=").doesNotContainPattern(ERROR_COUNTED);
    }

    /**
     * A directory of 3,000 symbols, whose opening (System Event 'O' and 3,000 Stock Directories, 126 KB) is 30 times
     * the send buffer, to a subscriber that reads a little at a time: the dispatcher writes the opening at the pace the
     * subscriber takes it, as the book, and the subscriber gets all of it and its symbol's book, no slow-consumer end.
     * Before, the worker wrote the whole opening into the send buffer at the login, which ended such a subscriber as a
     * slow consumer at every login (with the default 128 KiB, from about 3,000 symbols on).
     */
    @Test
    void shouldServeAStockDirectoryLargerThanTheSendBufferAtThePaceTheSubscriberReads() throws Exception
    {
        awaitTrue(() -> metricsContain("bourse_fanout_market_data_recoveries_total 1.0\n"));
        service.close();
        final int symbolCount = 3_000;
        final StringBuilder symbols = new StringBuilder("AAPL@0,MSFT@1");
        for (int i = 3; i <= symbolCount; i++)
        {
            symbols.append(",S").append(i).append("@0");
        }
        service = FanoutService.launch(context(tempDir.resolve("credentials.csv"))
            .symbolDirectory(SymbolDirectory.parse(symbols.toString()))
            .sendBufferBytes(FanoutContext.SEND_BUFFER_BYTES_MIN)
            .socketSendBufferBytes(FanoutContext.SEND_BUFFER_BYTES_MIN));
        final int snapshotLength = sbe.snapshotComplete(2);
        awaitTrue(() -> marketData.offer(sbe.buffer, 0, snapshotLength) > 0 &&
            metricsContain("bourse_fanout_market_data_recoveries_total 1.0\n"));
        offer(sbe.addOrder(T, "AAPL", 1, Side.BUY, 100, 1_000_000));
        awaitTrue(() -> metricsContain("bourse_fanout_messages_in_total{type=\"add_order\"} 1.0\n"));

        final Subscriber subscriber = connectWithReceiveBuffer(STALLED_RECEIVE_BUFFER);
        subscriber.login("sub1", "secret1");
        while (subscriber.itch.messages.stream().noneMatch(AddOrder.class::isInstance))
        {
            Thread.sleep(1);
            assertThat(subscriber.client.receive()).as("connection open").isNotNegative();
        }

        assertThat(subscriber.endOfSession).isFalse();
        assertThat(subscriber.itch.messages.stream().filter(StockDirectory.class::isInstance)
            .map(StockDirectory.class::cast).map(StockDirectory::stockLocate).toList())
            .as("one Stock Directory per symbol, in locate order").hasSize(symbolCount).isSorted()
            .doesNotHaveDuplicates();
        assertThat(subscriber.itch.messages.getFirst()).isInstanceOf(SystemEvent.class);
        assertThat(scrapeMetrics()).contains("bourse_fanout_slow_consumer_disconnects_total 0.0\n")
            .contains("bourse_fanout_messages_out_total{type=\"stock_directory\"} " + symbolCount + ".0\n")
            .contains("bourse_fanout_errors_total{kind=").doesNotContainPattern(ERROR_COUNTED);
    }

    @Test
    void shouldBuildTheBookOfTheWholeStreamFromSnapshotAndIncrementsWhenJoiningMidStream() throws Exception
    {
        final Subscriber early = loggedInBeforeTheOrders();
        offer(sbe.addOrder(T + 1, "AAPL", 1, Side.BUY, 100, 1_500_000));
        offer(sbe.addOrder(T + 2, "AAPL", 2, Side.BUY, 200, 1_510_000));
        offer(sbe.addOrder(T + 3, "AAPL", 3, Side.SELL, 300, 1_520_000));
        offer(sbe.addOrder(T + 4, "AAPL", 4, Side.BUY, 100, 1_510_000));
        offer(sbe.addOrder(T + 5, "MSFT", 5, Side.SELL, 500, 4_000_000));
        offer(sbe.addOrder(T + 6, "AAPL", 6, Side.SELL, 100, 1_515_000));
        offer(sbe.orderExecuted(T + 7, "AAPL", 2, 50, 1, 1_510_000));
        offer(sbe.orderReplace(T + 8, "AAPL", 1, 7, 150, 1_510_000));
        offer(sbe.orderCancel(T + 9, "AAPL", 6, 40));
        offer(sbe.orderExecuted(T + 10, "AAPL", 4, 100, 2, 1_510_000));
        early.receiveUntil(() -> early.itch.messages.size() >= SESSION_START_MESSAGES + 10);

        final Subscriber late = connect();
        late.login("sub2", "secret2");
        late.receiveUntil(() -> late.itch.messages.size() >= DIRECTORY_MESSAGES + 7);
        assertThat(late.acceptedSequence).isEqualTo(1);
        assertThat(late.itch.messages.subList(OPENING_MESSAGES, late.itch.messages.size())).containsExactly(
            AAPL_TRADING,
            MSFT_TRADING,
            START_OF_SYSTEM_HOURS,
            START_OF_MARKET_HOURS,
            new AddOrder(1, 0, T + 2, 2, 'B', 150, "AAPL", 1_510_000),
            new AddOrder(1, 0, T + 8, 7, 'B', 150, "AAPL", 1_510_000),
            new AddOrder(1, 0, T + 6, 6, 'S', 60, "AAPL", 1_515_000),
            new AddOrder(1, 0, T + 3, 3, 'S', 300, "AAPL", 1_520_000),
            new AddOrder(2, 0, T + 5, 5, 'S', 500, "MSFT", 4_000_000));

        offer(sbe.orderExecuted(T + 11, "AAPL", 7, 150, 3, 1_510_000));
        offer(sbe.addOrder(T + 12, "MSFT", 8, Side.BUY, 200, 3_990_000));
        offer(sbe.orderReplace(T + 13, "AAPL", 2, 9, 300, 1_511_000));
        offer(sbe.orderDelete(T + 14, "MSFT", 5));
        early.receiveUntil(() -> early.itch.messages.size() >= SESSION_START_MESSAGES + 14);
        late.receiveUntil(() -> late.itch.messages.size() >= SESSION_START_MESSAGES + 9);

        assertThat(book(late.itch.messages)).isEqualTo(book(early.itch.messages)).isEqualTo(Map.of(
            9L, new Resting("AAPL", 'B', 300, 1_511_000),
            6L, new Resting("AAPL", 'S', 60, 1_515_000),
            3L, new Resting("AAPL", 'S', 300, 1_520_000),
            8L, new Resting("MSFT", 'B', 200, 3_990_000)));
        assertThat(scrapeMetrics())
            .contains("bourse_fanout_snapshots_total 2.0\n")
            .contains("bourse_fanout_subscriptions 4.0\n")
            .contains("bourse_fanout_errors_total{kind=").doesNotContainPattern(ERROR_COUNTED);
    }

    @Test
    void shouldEndEveryStreamWithTheSystemEventsOfTheEndOfTheDayThenEndOfSessionWhenTheFanoutStops() throws Exception
    {
        final Subscriber subscriber = subscriberWithOneOrder(T);

        service.close();

        assertDayClosedAfterTheOrder(subscriber, T);
    }

    /**
     * Midnight UTC on the fanout's clock, end to end: the day's sessions end as at a stop, with the day's closing
     * System Events and End of Session, while the fanout runs on; the ended day's numbered stream can no longer be
     * resumed, and the next day's, named by its date, numbers its messages from 1; the md-publisher's MoldUDP64 session
     * of that day, which counts its opening too, is not the fanout's.
     */
    @Test
    void shouldEndTheDaysSessionsAtMidnightAndNumberTheNextDaysStreamFromOne() throws Exception
    {
        awaitTrue(() -> metricsContain("bourse_fanout_market_data_recoveries_total 1.0\n"));
        service.close();
        final long midnightEpochNs = TimeUnit.DAYS.toNanos(LocalDate.of(2026, 11, 26).toEpochDay());
        final AtomicLong epochNs = new AtomicLong(midnightEpochNs - TimeUnit.SECONDS.toNanos(2));
        service = FanoutService.launch(context(tempDir.resolve("credentials.csv")).epochClock(epochNs::get));
        final int snapshotLength = sbe.snapshotComplete(2);
        awaitTrue(() -> marketData.offer(sbe.buffer, 0, snapshotLength) > 0 &&
            metricsContain("bourse_fanout_market_data_recoveries_total 1.0\n"));
        final long lastSecondNs = MidnightNanoClock.NANOS_PER_DAY - TimeUnit.SECONDS.toNanos(1);
        final Subscriber subscriber = subscriberWithOneOrder(lastSecondNs);

        epochNs.set(midnightEpochNs + TimeUnit.MILLISECONDS.toNanos(100));

        assertDayClosedAfterTheOrder(subscriber, lastSecondNs);

        final Subscriber endedDay = connect();
        endedDay.login("sub2", "secret2", "FB25235958", 2);
        endedDay.receiveUntil(() -> 0 != endedDay.rejectReason);
        assertThat(endedDay.rejectReason).as("the ended day's stream").isEqualTo((byte)'S');

        final long nextDayNs = TimeUnit.MILLISECONDS.toNanos(200);
        offer(sbe.addOrder(nextDayNs, "AAPL", 2, Side.BUY, 100, 1_500_100));
        offer(sbe.addOrder(nextDayNs + 1, "AAPL", 3, Side.BUY, 100, 1_500_200));
        final Subscriber nextDay = connect();
        nextDay.login("sub2", "secret2", "F20261126", 2);
        nextDay.receiveUntil(() -> nextDay.itch.messages.size() >= 1);
        assertThat(nextDay.acceptedSession).isEqualTo("F20261126");
        assertThat(nextDay.acceptedSequence).isEqualTo(2);
        assertThat(nextDay.itch.messages).containsExactly(
            new AddOrder(1, 0, nextDayNs + 1, 3, 'B', 100, "AAPL", 1_500_200));

        final Subscriber moldSession = connect();
        moldSession.login("sub2", "secret2", "20261126", 2);
        moldSession.receiveUntil(() -> 0 != moldSession.rejectReason);
        assertThat(moldSession.rejectReason).as("the md-publisher's MoldUDP64 session of the day, numbered otherwise")
            .isEqualTo((byte)'S');
    }

    @Test
    void shouldCloseTheWorkersTogetherSoThatTheirWaitsForTheirSubscribersOverlap()
    {
        final CountDownLatch closing = new CountDownLatch(2);
        final AtomicInteger closed = new AtomicInteger();
        final AutoCloseable waitsForTheOther = () ->
        {
            closing.countDown();
            if (!closing.await(10, TimeUnit.SECONDS))
            {
                throw new IllegalStateException("closed alone");
            }
            closed.incrementAndGet();
        };
        final AutoCloseable failing = () ->
        {
            throw new IOException("worker failed");
        };

        FanoutService.closeTogether(List.of(waitsForTheOther, waitsForTheOther));
        assertThat(closed).hasValue(2);

        assertThatThrownBy(() -> FanoutService.closeTogether(List.of(failing, () -> closed.incrementAndGet())))
            .isInstanceOf(IOException.class).hasMessage("worker failed");
        assertThat(closed).as("the other closed all the same").hasValue(3);
    }

    @Test
    void shouldServeTheBooksOfTheMdPublisherToTheSubscribersOfAFanoutStartedAfterOrdersRested() throws Exception
    {
        try (MdPublisherService mdPublisher = switchToMdPublisher();
            Publication shard0 = aeron.addPublication(layout.eventChannel(), layout.eventStreamId(0));
            Publication shard1 = aeron.addPublication(layout.eventChannel(), layout.eventStreamId(1)))
        {
            awaitTrue(() -> shard0.isConnected() && shard1.isConnected());
            offer(shard0, engine.orderAdded(T + 1, "AAPL", 1, BUY, 100, 1_500_000, 'Y'));
            offer(shard0, engine.orderAdded(T + 2, "AAPL", 2, BUY, 200, 1_500_000, 'Y'));
            offer(shard0, engine.orderAdded(T + 3, "AAPL", 3, SELL, 300, 1_520_000, 'Y'));
            offer(shard0, engine.orderAdded(T + 4, "AAPL", 4, SELL, 400, 1_520_000, 'N'));
            offer(shard1, engine.orderAdded(T + 5, "MSFT", 5, SELL, 500, 4_000_000, 'Y'));
            offer(shard1, engine.tradingStateChanged(T + 6, "MSFT", io.bourse.sbe.engine.TradingState.HALTED));
            // Order 1 goes behind order 2.
            offer(shard0, engine.orderReplaced(T + 7, "AAPL", 1, 6, BUY, 150, 1_500_000,
                io.bourse.sbe.engine.BookUpdate.REPLACED));
            // The md-publisher's books hold the 7 events. (Not the fanout's message count: it also counts the
            // snapshots it took, and a slow md-publisher start can make it ask, and get, more than one.)
            awaitTrue(() -> metricsContain(mdPublisher.metricsPort(),
                "bourse_md_events_in_total{type=\"added\"} 5.0\n",
                "bourse_md_events_in_total{type=\"replaced\"} 1.0\n",
                "bourse_md_events_in_total{type=\"trading_state_changed\"} 1.0\n"));

            service.close();
            service = FanoutService.launch(context(tempDir.resolve("credentials.csv")));
            final Subscriber subscriber = connect();
            subscriber.login("sub1", "secret1");
            subscriber.receiveUntil(() -> subscriber.itch.messages.size() >= DIRECTORY_MESSAGES + 6);
            assertThat(subscriber.itch.messages.subList(OPENING_MESSAGES, subscriber.itch.messages.size()))
                .containsExactly(
                AAPL_TRADING,
                new StockTradingAction(2, "MSFT", 'H', "O1  "),
                START_OF_SYSTEM_HOURS,
                START_OF_MARKET_HOURS,
                new AddOrder(1, 0, T + 2, 2, 'B', 200, "AAPL", 1_500_000),
                new AddOrder(1, 0, T + 7, 6, 'B', 150, "AAPL", 1_500_000),
                new AddOrder(1, 0, T + 3, 3, 'S', 300, "AAPL", 1_520_000),
                new AddOrder(2, 0, T + 5, 5, 'S', 500, "MSFT", 4_000_000));

            offer(shard0, engine.orderExecuted(T + 8, "AAPL", 9, 100, 1_500_000, SELL, 49, 2, 100));
            subscriber.receiveUntil(() -> subscriber.itch.messages.size() >= DIRECTORY_MESSAGES + 7);
            assertThat(subscriber.itch.messages.getLast()).isEqualTo(new OrderExecuted(1, 0, T + 8, 2, 100, 9));
        }
        assertThat(scrapeMetrics())
            .contains("bourse_fanout_market_data_recoveries_total 1.0\n")
            .contains("bourse_fanout_market_data_gaps_total 0.0\n")
            .contains("bourse_fanout_errors_total{kind=").doesNotContainPattern(ERROR_COUNTED);
    }

    @Test
    void shouldEndTheSessionsAtAGapAndServeTheBooksOfTheNextSnapshot() throws Exception
    {
        final Subscriber subscriber = loggedInAfterOrder1();

        sbe.addOrder(T + 2, "AAPL", 2, Side.BUY, 200, 1_500_000);
        offer(sbe.addOrder(T + 3, "AAPL", 3, Side.BUY, 300, 1_500_000));

        subscriber.receiveUntil(() -> subscriber.endOfSession);
        assertThat(metricsContain("bourse_fanout_gap_disconnects_total 1.0\n")).isTrue();
        // It asks for the messages after the last it got, the first number after the gap: not a replay.
        final Subscriber again = connect();
        again.login("sub1", "secret1", 2);
        awaitTrue(() -> metricsContain("bourse_fanout_market_data_gaps_total 1.0\n"));
        offerSnapshotOfAaplBuyOrders(3);

        assertSnapshotOfAaplBuyOrders(again, 3);
        assertThat(scrapeMetrics())
            .contains("bourse_fanout_market_data_recoveries_total 2.0\n")
            .contains("bourse_fanout_errors_total{kind=").doesNotContainPattern(ERROR_COUNTED);
    }

    /**
     * A login made while the md-publisher is stopped (its EndOfFeed ended the feed) waits for the next md-publisher's
     * books: the next one's first increment ends the logged-in sessions, as a gap does, and the waiting login is
     * answered from its snapshot. Before stop 112 that login got Login Rejected 'S' at the increment.
     */
    @Test
    void shouldAnswerALoginMadeWhileTheMdPublisherWasStoppedFromTheNextOnesBooks() throws Exception
    {
        final Subscriber early = loggedInAfterOrder1();
        offer(sbe.endOfFeed());
        final Subscriber waiting = connect();
        waiting.login("sub1", "secret1");
        awaitTrue(() -> metricsContain("bourse_fanout_pending_catch_ups 1.0\n"));

        offer(sbe.addOrder(T + 2, "AAPL", 2, Side.BUY, 200, 1_500_000));
        early.receiveUntil(() -> early.endOfSession);
        awaitTrue(() -> metricsContain("bourse_fanout_market_data_gaps_total 1.0\n"));
        offerSnapshotOfAaplBuyOrders(2);

        assertSnapshotOfAaplBuyOrders(waiting, 2);
        assertThat(scrapeMetrics())
            .contains("bourse_fanout_gap_disconnects_total 1.0\n")
            .contains("bourse_fanout_errors_total{kind=").doesNotContainPattern(ERROR_COUNTED);
    }

    @Test
    void shouldSendAHaltLiveAndInTheSnapshotOfALateJoinerBeforeTheSymbolsOrders() throws Exception
    {
        final Subscriber early = loggedInBeforeTheOrders();
        offer(sbe.addOrder(T + 1, "MSFT", 1, Side.BUY, 100, 4_000_000));
        offer(sbe.stockTradingAction(T + 2, "MSFT", TradingState.HALTED, "O1  "));
        early.receiveUntil(() -> early.itch.messages.size() >= SESSION_START_MESSAGES + 2);

        final Subscriber late = connect();
        late.login("sub2", "secret2");
        late.receiveUntil(() -> late.itch.messages.size() >= DIRECTORY_MESSAGES + 3);

        final StockTradingAction halted = new StockTradingAction(2, "MSFT", 'H', "O1  ");
        final AddOrder resting = new AddOrder(2, 0, T + 1, 1, 'B', 100, "MSFT", 4_000_000);
        assertThat(early.itch.messages.subList(SESSION_START_MESSAGES, early.itch.messages.size()))
            .containsExactly(resting, halted);
        assertThat(late.itch.messages.subList(OPENING_MESSAGES, late.itch.messages.size()))
            .containsExactly(AAPL_TRADING, halted, START_OF_SYSTEM_HOURS, START_OF_MARKET_HOURS, resting);
    }

    @Test
    void shouldSendOnlyTheSubscribedSymbolWhenSubscriptionComesWithTheLogin() throws Exception
    {
        offer(sbe.addOrder(T + 1, "AAPL", 1, Side.BUY, 100, 1_500_000));
        offer(sbe.addOrder(T + 2, "MSFT", 2, Side.SELL, 300, 4_000_000));
        final Subscriber msftOnly = connect();
        msftOnly.loginAndSubscribe("sub1", "secret1", "MSFT");
        msftOnly.receiveUntil(() -> msftOnly.itch.messages.size() >= DIRECTORY_MESSAGES + 2);

        offer(sbe.addOrder(T + 3, "AAPL", 3, Side.SELL, 100, 1_600_000));
        offer(sbe.orderExecuted(T + 4, "MSFT", 2, 100, 1, 4_000_000));
        offer(sbe.addOrder(T + 5, "AAPL", 4, Side.BUY, 100, 1_510_000));
        offer(sbe.addOrder(T + 6, "MSFT", 5, Side.SELL, 100, 4_010_000));
        msftOnly.receiveUntil(() -> msftOnly.itch.messages.size() >= DIRECTORY_MESSAGES + 4);
        assertThat(msftOnly.itch.messages.subList(OPENING_MESSAGES, msftOnly.itch.messages.size()))
            .containsExactly(
                MSFT_TRADING,
                START_OF_SYSTEM_HOURS,
                START_OF_MARKET_HOURS,
                new AddOrder(2, 0, T + 2, 2, 'S', 300, "MSFT", 4_000_000),
                new OrderExecuted(2, 0, T + 4, 2, 100, 1),
                new AddOrder(2, 0, T + 6, 5, 'S', 100, "MSFT", 4_010_000));

        msftOnly.subscribe("MSFT", "AAPL");
        msftOnly.receiveUntil(() -> msftOnly.itch.messages.size() >= DIRECTORY_MESSAGES + 8);
        offer(sbe.orderDelete(T + 7, "AAPL", 1));
        msftOnly.receiveUntil(() -> msftOnly.itch.messages.size() >= DIRECTORY_MESSAGES + 9);
        assertThat(msftOnly.itch.messages.subList(DIRECTORY_MESSAGES + 4, msftOnly.itch.messages.size()))
            .containsExactly(
                AAPL_TRADING,
                new AddOrder(1, 0, T + 5, 4, 'B', 100, "AAPL", 1_510_000),
                new AddOrder(1, 0, T + 1, 1, 'B', 100, "AAPL", 1_500_000),
                new AddOrder(1, 0, T + 3, 3, 'S', 100, "AAPL", 1_600_000),
                new OrderDelete(1, T + 7, 1));
        assertThat(scrapeMetrics())
            .contains("bourse_fanout_snapshots_total 2.0\n")
            .contains("bourse_fanout_subscriptions 2.0\n");
    }

    /**
     * The day's numbered stream carries every symbol: a subscription that leaves symbols out, sent with a replay's
     * Login Request or after it, is counted and ignored, so that the session's numbers stay the day's. Before, it
     * narrowed the replay, numbered from the requested number, so that a resume from "last received + 1" got the
     * same messages again.
     */
    @Test
    void shouldRefuseASubscriptionThatLeavesSymbolsOutOfTheDaysStream() throws Exception
    {
        final Subscriber early = loggedInBeforeTheOrders();
        offer(sbe.addOrder(T + 1, "AAPL", 1, Side.BUY, 100, 1_500_000));
        offer(sbe.addOrder(T + 2, "MSFT", 2, Side.SELL, 300, 4_000_000));
        offer(sbe.addOrder(T + 3, "AAPL", 3, Side.SELL, 100, 1_600_000));
        early.receiveUntil(() -> early.itch.messages.size() >= SESSION_START_MESSAGES + 3);

        final Subscriber replaying = connect();
        replaying.loginAndSubscribe("sub2", "secret2", "", 2, "MSFT");
        replaying.receiveUntil(() -> replaying.itch.messages.size() >= 2);
        replaying.subscribe("AAPL");
        offer(sbe.addOrder(T + 4, "MSFT", 4, Side.BUY, 100, 3_900_000));
        replaying.receiveUntil(() -> replaying.itch.messages.size() >= 3);
        early.receiveUntil(() -> early.itch.messages.size() >= SESSION_START_MESSAGES + 4);

        assertThat(replaying.acceptedSequence).isEqualTo(2);
        assertThat(replaying.itch.messages).as("messages 2, 3 and 4 of the day's stream, every symbol")
            .isEqualTo(early.itch.messages.subList(SESSION_START_MESSAGES + 1, SESSION_START_MESSAGES + 4));
        // The second subscription may be read after the live message came.
        awaitTrue(() -> metricsContain("bourse_fanout_errors_total{kind=\"subscription_refused\"} 2.0\n"));
    }

    /**
     * A subscriber of the day's numbered stream whose connection the fanout ends (here for a malformed packet) gets no
     * End of Session, which would tell it not to reconnect to that session (SoupBinTCP 4.0 &sect;1.4): it logs in again
     * by name from its next number and gets exactly the messages it lacks. Before stop 106 it got End of Session.
     */
    @Test
    void shouldLetASubscriberOfTheDaysStreamWhoseConnectionEndedResumeItByName() throws Exception
    {
        final Subscriber early = loggedInBeforeTheOrders();
        offer(sbe.addOrder(T + 1, "AAPL", 1, Side.BUY, 100, 1_500_000));
        early.receiveUntil(() -> early.itch.messages.size() >= SESSION_START_MESSAGES + 1);

        final Subscriber dayStream = connect();
        dayStream.login("sub2", "secret2", 2);
        dayStream.receiveUntil(() -> dayStream.loginAccepted);
        offer(sbe.addOrder(T + 2, "MSFT", 2, Side.SELL, 300, 4_000_000));
        offer(sbe.addOrder(T + 3, "AAPL", 3, Side.SELL, 100, 1_600_000));
        dayStream.receiveUntil(() -> dayStream.itch.messages.size() >= 2);
        dayStream.channel.write(ByteBuffer.wrap(new byte[] {0, 1, '?'})); // an unknown packet type
        assertThat(dayStream.receiveUntilEndOfStreamSendingHeartbeats()).as("end of stream, not a reset").isTrue();
        assertThat(dayStream.endOfSession).as("End of Session").isFalse();

        offer(sbe.orderDelete(T + 4, "AAPL", 1));
        final Subscriber resumed = connect();
        resumed.login("sub2", "secret2", dayStream.acceptedSession, 2 + dayStream.itch.messages.size());
        resumed.receiveUntil(() -> resumed.itch.messages.size() >= 1);
        early.receiveUntil(() -> early.itch.messages.size() >= SESSION_START_MESSAGES + 4);

        assertThat(dayStream.acceptedSequence).isEqualTo(2);
        assertThat(dayStream.itch.messages)
            .isEqualTo(early.itch.messages.subList(SESSION_START_MESSAGES + 1, SESSION_START_MESSAGES + 3));
        assertThat(resumed.acceptedSession).isEqualTo(dayStream.acceptedSession);
        assertThat(resumed.acceptedSequence).isEqualTo(4);
        assertThat(resumed.itch.messages).containsExactly(early.itch.messages.getLast());
        assertThat(scrapeMetrics()).contains("\nbourse_fanout_malformed_packets_total 1.0\n");
    }

    @Test
    void shouldReplayFromRequestedSequenceInsideTheRingAndSendSnapshotOutsideIt() throws Exception
    {
        final Subscriber early = loggedInBeforeTheOrders();
        for (int orderId = 1; orderId <= 10; orderId++)
        {
            offer(sbe.addOrder(T + orderId, "AAPL", orderId, Side.BUY, 100, 1_500_000 + orderId * 100L));
        }
        early.receiveUntil(() -> early.itch.messages.size() >= SESSION_START_MESSAGES + 10);

        final Subscriber replaying = connect();
        replaying.login("sub2", "secret2", 4);
        replaying.receiveUntil(() -> replaying.itch.messages.size() >= 7);
        offer(sbe.addOrder(T + 11, "MSFT", 11, Side.SELL, 100, 4_000_000));
        replaying.receiveUntil(() -> replaying.itch.messages.size() >= 8);
        early.receiveUntil(() -> early.itch.messages.size() >= SESSION_START_MESSAGES + 11);
        assertThat(replaying.acceptedSequence).isEqualTo(4);
        assertThat(replaying.itch.messages).isEqualTo(
            early.itch.messages.subList(SESSION_START_MESSAGES + 3, SESSION_START_MESSAGES + 11));

        for (int orderId = 12; orderId <= 12 + REPLAY_CAPACITY; orderId++)
        {
            offer(sbe.addOrder(T + orderId, "MSFT", orderId, Side.SELL, 100, 4_000_000 + orderId * 100L));
        }
        final int total = 12 + REPLAY_CAPACITY;
        early.receiveUntil(() -> early.itch.messages.size() >= SESSION_START_MESSAGES + total);
        final Subscriber tooLate = connect();
        tooLate.login("sub2", "secret2", 4);
        tooLate.receiveUntil(() -> tooLate.itch.messages.size() >= SESSION_START_MESSAGES + total);
        assertThat(tooLate.acceptedSequence).isEqualTo(1);
        assertThat(tooLate.itch.messages.getFirst()).isEqualTo(new SystemEvent(0, 'O'));
        assertThat(book(tooLate.itch.messages)).hasSize(total).isEqualTo(book(early.itch.messages));
        // Naming the day's stream, the same number gets Login Rejected 'S': that stream no longer has message 4.
        final Subscriber tooLateByName = connect();
        tooLateByName.login("sub2", "secret2", replaying.acceptedSession, 4);
        tooLateByName.receiveUntil(() -> 0 != tooLateByName.rejectReason);
        assertThat(tooLateByName.rejectReason).isEqualTo((byte)'S');
        assertThat(tooLateByName.loginAccepted).isFalse();
        assertThat(scrapeMetrics())
            .contains("bourse_fanout_login_failures_total 1.0\n")
            .contains("bourse_fanout_snapshots_total 2.0\n")
            .contains("bourse_fanout_replayed_messages_total 7.0\n")
            .contains("bourse_fanout_errors_total{kind=").doesNotContainPattern(ERROR_COUNTED);
    }

    /**
     * SoupBinTCP 4.0 session names: a replay login joins the run's numbered stream and can resume it by name; a
     * snapshot login's stream is its own, numbered from 1 with the book first, and cannot be resumed (its numbers are
     * not the run's); a session the fanout does not run is not available. Each refusal is Login Rejected 'S' rather
     * than another stream's messages under the numbers the subscriber holds.
     */
    @Test
    void shouldLetOnlyTheRunsNumberedStreamBeResumedByNameAndRejectOtherSessions() throws Exception
    {
        final Subscriber snapshot = connect();
        snapshot.login("sub1", "secret1");
        snapshot.receiveUntil(() -> snapshot.itch.messages.size() >= SESSION_START_MESSAGES);
        for (int orderId = 1; orderId <= 3; orderId++)
        {
            offer(sbe.addOrder(T + orderId, "AAPL", orderId, Side.BUY, 100, 1_500_000 + orderId * 100L));
        }
        snapshot.receiveUntil(() -> snapshot.itch.messages.size() >= SESSION_START_MESSAGES + 3);
        final Subscriber replay = connect();
        replay.login("sub2", "secret2", 2);
        replay.receiveUntil(() -> replay.itch.messages.size() >= 2);

        assertThat(snapshot.acceptedSession).matches("S[0-9]{9}");
        assertThat(replay.acceptedSession).matches("F[1-9A-C][0-9]{8}").isNotEqualTo(snapshot.acceptedSession);
        assertThat(replay.acceptedSequence).isEqualTo(2);

        final Subscriber resumed = connect();
        resumed.login("sub2", "secret2", replay.acceptedSession, 3);
        resumed.receiveUntil(() -> resumed.itch.messages.size() >= 1);
        assertThat(resumed.acceptedSession).isEqualTo(replay.acceptedSession);
        assertThat(resumed.itch.messages).containsExactly(replay.itch.messages.getLast());

        // The day's stream from its first message, by name: before, a snapshot session numbered from 1 under another
        // name, so that a replay from 2 then met messages whose Add Orders it never got.
        final Subscriber fromTheFirst = connect();
        fromTheFirst.login("sub2", "secret2", replay.acceptedSession, 1);
        fromTheFirst.receiveUntil(() -> fromTheFirst.itch.messages.size() >= 3);
        assertThat(fromTheFirst.acceptedSession).isEqualTo(replay.acceptedSession);
        assertThat(fromTheFirst.acceptedSequence).isEqualTo(1);
        assertThat(fromTheFirst.itch.messages)
            .isEqualTo(snapshot.itch.messages.subList(SESSION_START_MESSAGES, SESSION_START_MESSAGES + 3));

        // The MoldUDP64 session of an md-publisher started in the same second as the fanout, numbered otherwise.
        final String moldSession = String.format(Locale.ROOT, "%02d%s",
            Integer.parseInt(replay.acceptedSession.substring(1, 2), 16), replay.acceptedSession.substring(2));
        for (final String unavailable : List.of(snapshot.acceptedSession, "ITCH50", moldSession))
        {
            final Subscriber refused = connect();
            refused.login("sub1", "secret1", unavailable, SESSION_START_MESSAGES + 1);
            refused.receiveUntil(() -> 0 != refused.rejectReason);
            assertThat(refused.rejectReason).as(unavailable).isEqualTo((byte)'S');
            assertThat(refused.loginAccepted).isFalse();
        }
        assertThat(scrapeMetrics()).contains("bourse_fanout_login_failures_total 3.0\n");
    }

    @Test
    void shouldGiveEveryJoinerTheBookWithoutGapOrDuplicateWhileTheStreamRuns() throws Exception
    {
        final Subscriber early = connectNonBlocking();
        early.login("sub1", "secret1");
        early.receiveUntil(() -> early.itch.messages.size() >= SESSION_START_MESSAGES);
        final AtomicBoolean joining = new AtomicBoolean(true);
        final AddOrder last = new AddOrder(2, 0, T, Long.MAX_VALUE, 'B', 1, "MSFT", 1);
        final Thread publisher = new Thread(() -> publishRandomStream(joining, last.orderReferenceNumber()));
        publisher.start();
        try
        {
            for (int joiner = 0; joiner < 12; joiner++)
            {
                final Subscriber subscriber = connectNonBlocking();
                subscriber.login(joiner % 2 == 0 ? "sub1" : "sub2", joiner % 2 == 0 ? "secret1" : "secret2");
                final long until = System.nanoTime() + 20_000_000L;
                while (System.nanoTime() < until)
                {
                    for (final Subscriber each : subscribers)
                    {
                        each.client.receive();
                    }
                }
            }
        }
        finally
        {
            joining.set(false);
            publisher.join();
        }

        for (final Subscriber subscriber : subscribers)
        {
            subscriber.receiveUntil(() -> subscriber.itch.messages.contains(last));
        }
        final Map<Long, Resting> wholeStream = book(early.itch.messages);
        assertThat(early.itch.messages).hasSizeGreaterThan(500);
        assertThat(wholeStream).hasSizeGreaterThan(10);
        for (final Subscriber joiner : subscribers.subList(1, subscribers.size()))
        {
            assertThat(joiner.acceptedSequence).isEqualTo(1);
            assertThat(book(joiner.itch.messages)).isEqualTo(wholeStream);
        }
        assertThat(scrapeMetrics())
            .contains("bourse_fanout_snapshots_total 13.0\n")
            .contains("bourse_fanout_drops_total 0.0\n")
            .contains("bourse_fanout_errors_total{kind=").doesNotContainPattern(ERROR_COUNTED);
    }

    /**
     * Publishes adds, executions, cancels, replaces and deletes of live orders of both symbols, at least 600 messages
     * and until joining ends, then an Add Order of {@code lastOrderId}.
     */
    private void publishRandomStream(final AtomicBoolean joining, final long lastOrderId)
    {
        final MarketDataEncoder encoder = new MarketDataEncoder();
        final Random random = new Random(42);
        final List<long[]> live = new ArrayList<>();
        final String[] symbols = {"AAPL", "MSFT"};
        long nextOrderId = 1;
        long match = 1;
        for (int count = 0; joining.get() || count < 600; count++)
        {
            final long t = T + count;
            final int length;
            if (live.size() < 20 || random.nextInt(10) < 4)
            {
                final long[] order = {nextOrderId++, random.nextInt(2), random.nextInt(2), 100 + random.nextInt(900),
                    1_000_000 + random.nextInt(20) * 100};
                live.add(order);
                length = encoder.addOrder(t, symbols[(int)order[1]], order[0],
                    order[2] == 0 ? Side.BUY : Side.SELL, order[3], order[4]);
            }
            else
            {
                final int index = random.nextInt(live.size());
                final long[] order = live.get(index);
                final String symbol = symbols[(int)order[1]];
                switch (random.nextInt(4))
                {
                    case 0 ->
                    {
                        final long shares = 1 + random.nextInt((int)order[3]);
                        length = encoder.orderExecuted(t, symbol, order[0], shares, match++, order[4]);
                        order[3] -= shares;
                    }
                    case 1 ->
                    {
                        final long shares = Math.max(1, order[3] / 2);
                        length = encoder.orderCancel(t, symbol, order[0], shares);
                        order[3] -= shares;
                    }
                    case 2 ->
                    {
                        final long newOrderId = nextOrderId++;
                        length = encoder.orderReplace(t, symbol, order[0], newOrderId, order[3] + 100, order[4] + 100);
                        order[0] = newOrderId;
                        order[3] += 100;
                        order[4] += 100;
                    }
                    default ->
                    {
                        length = encoder.orderDelete(t, symbol, order[0]);
                        order[3] = 0;
                    }
                }
                if (0 == order[3])
                {
                    live.remove(index);
                }
            }
            awaitTrue(() -> marketData.offer(encoder.buffer, 0, length) > 0);
            if (count % 8 == 0)
            {
                LockSupport.parkNanos(200_000);
            }
        }
        final int length = encoder.addOrder(T, "MSFT", lastOrderId, Side.BUY, 1, 1);
        awaitTrue(() -> marketData.offer(encoder.buffer, 0, length) > 0);
    }

    /** An order in the book a subscriber builds from what it received. */
    private record Resting(String stock, char side, long shares, long price)
    {
    }

    /**
     * @return the L3 book built from received messages, failing on an Add Order of an order already there (a
     *         duplicate) or a message about an order not there (a gap).
     */
    private static Map<Long, Resting> book(final List<ItchEvents.Message> messages)
    {
        final Map<Long, Resting> book = new TreeMap<>();
        for (final ItchEvents.Message message : messages)
        {
            switch (message)
            {
                case AddOrder add -> assertThat(book.put(add.orderReferenceNumber(),
                    new Resting(add.stock(), add.buySellIndicator(), add.shares(), add.price())))
                    .as("%s", add).isNull();
                case OrderExecuted executed -> reduce(book, executed.orderReferenceNumber(), executed.executedShares());
                case OrderExecutedWithPrice executed ->
                    reduce(book, executed.orderReferenceNumber(), executed.executedShares());
                case OrderCancel cancel -> reduce(book, cancel.orderReferenceNumber(), cancel.canceledShares());
                case OrderDelete delete -> assertThat(book.remove(delete.orderReferenceNumber())).as("%s", delete)
                    .isNotNull();
                case OrderReplace replace ->
                {
                    final Resting original = book.remove(replace.originalOrderReferenceNumber());
                    assertThat(original).as("%s", replace).isNotNull();
                    assertThat(book.put(replace.newOrderReferenceNumber(),
                        new Resting(original.stock(), original.side(), replace.shares(), replace.price())))
                        .as("%s", replace).isNull();
                }
                default ->
                {
                }
            }
        }
        return book;
    }

    private static void reduce(final Map<Long, Resting> book, final long orderReferenceNumber, final long shares)
    {
        final Resting order = book.get(orderReferenceNumber);
        assertThat(order).as("order %d", orderReferenceNumber).isNotNull();
        if (order.shares() == shares)
        {
            book.remove(orderReferenceNumber);
        }
        else
        {
            book.put(orderReferenceNumber,
                new Resting(order.stock(), order.side(), order.shares() - shares, order.price()));
        }
    }

    /** @return a subscriber to every symbol that has received its session's start, then one Add Order of AAPL. */
    private Subscriber subscriberWithOneOrder(final long timestampNs) throws IOException
    {
        final Subscriber subscriber = connect();
        subscriber.login("sub1", "secret1");
        subscriber.receiveUntil(() -> subscriber.itch.messages.size() >= SESSION_START_MESSAGES);
        offer(sbe.addOrder(timestampNs, "AAPL", 1, Side.BUY, 100, 1_500_000));
        subscriber.receiveUntil(() -> subscriber.itch.messages.size() >= SESSION_START_MESSAGES + 1);
        return subscriber;
    }

    /** Waits for End of Session: after the order, the day's closing System Events M, E and C, and nothing else. */
    private static void assertDayClosedAfterTheOrder(final Subscriber subscriber, final long timestampNs)
        throws IOException
    {
        subscriber.receiveUntil(() -> subscriber.endOfSession);
        assertThat(subscriber.itch.messages.subList(SESSION_START_MESSAGES, subscriber.itch.messages.size()))
            .containsExactly(
            new AddOrder(1, 0, timestampNs, 1, 'B', 100, "AAPL", 1_500_000),
            new SystemEvent(0, 'M'),
            new SystemEvent(0, 'E'),
            new SystemEvent(0, 'C'));
    }

    /**
     * Replaces the test's publisher of market data with a real md-publisher: the fanout sees its publisher go, and
     * takes its books from the md-publisher's snapshot.
     */
    private MdPublisherService switchToMdPublisher()
    {
        marketData.close();
        final MdPublisherService mdPublisher = MdPublisherService.launch(new MdPublisherContext()
            .layout(layout)
            .symbolDirectory(SYMBOLS)
            .metricsPort(0)
            .jvmMetrics(false)
            .moldEnabled(false));
        try
        {
            awaitTrue(() -> metricsContain("bourse_fanout_market_data_recoveries_total 2.0\n"));
        }
        catch (final Throwable ex)
        {
            mdPublisher.close(); // its Aeron client would outlive the test's media driver and exit the JVM
            throw ex;
        }
        return mdPublisher;
    }

    /**
     * Publishes the snapshot a recovery asks for: AAPL's book of buy orders 1 to n, order i of i * 100 shares at
     * $150.00 entered at T + i, and MSFT's empty book.
     */
    private void offerSnapshotOfAaplBuyOrders(final int orders)
    {
        final long[][] book = new long[orders][];
        for (int i = 1; i <= orders; i++)
        {
            book[i - 1] = new long[]{i, 'B', i * 100L, 1_500_000, T + i};
        }
        offer(sbe.bookSnapshot(5, 0, "AAPL", book));
        offer(sbe.bookSnapshot(5, 1, "MSFT"));
        offer(sbe.snapshotComplete(5, 2));
    }

    /** Reads a snapshot session's answer: Login Accepted 1, the opening, the spin, then the book published above. */
    private static void assertSnapshotOfAaplBuyOrders(final Subscriber subscriber, final int orders) throws IOException
    {
        subscriber.receiveUntil(() -> subscriber.itch.messages.size() >= DIRECTORY_MESSAGES + 2 + orders);
        final List<ItchEvents.Message> expected = new ArrayList<>(
            List.of(AAPL_TRADING, MSFT_TRADING, START_OF_SYSTEM_HOURS, START_OF_MARKET_HOURS));
        for (int i = 1; i <= orders; i++)
        {
            expected.add(new AddOrder(1, 0, T + i, i, 'B', i * 100L, "AAPL", 1_500_000));
        }
        assertThat(subscriber.acceptedSequence).isEqualTo(1);
        assertThat(subscriber.itch.messages.subList(OPENING_MESSAGES, subscriber.itch.messages.size()))
            .containsExactlyElementsOf(expected);
    }

    private Subscriber connect() throws IOException
    {
        final Subscriber subscriber = new Subscriber(
            SocketChannel.open(new InetSocketAddress("localhost", service.port())));
        subscribers.add(subscriber);
        return subscriber;
    }

    /**
     * @return a subscriber logged in to a snapshot session of the empty book, its opening read: it gets every message
     * published after this live, one by one, not some of them in a snapshot.
     */
    private Subscriber loggedInBeforeTheOrders() throws IOException
    {
        final Subscriber early = connect();
        early.login("sub1", "secret1");
        early.receiveUntil(() -> early.itch.messages.size() >= SESSION_START_MESSAGES);
        return early;
    }

    /**
     * @return a subscriber logged in to a snapshot session of the book holding order 1 (100 AAPL bought at $150.00 at
     * T + 1), published first: its opening and the order read.
     */
    private Subscriber loggedInAfterOrder1() throws IOException
    {
        offer(sbe.addOrder(T + 1, "AAPL", 1, Side.BUY, 100, 1_500_000));
        final Subscriber subscriber = connect();
        subscriber.login("sub1", "secret1");
        subscriber.receiveUntil(() -> subscriber.itch.messages.size() >= SESSION_START_MESSAGES + 1);
        return subscriber;
    }

    /** @return a blocking subscriber whose socket has this SO_RCVBUF, set before connecting. */
    private Subscriber connectWithReceiveBuffer(final int receiveBuffer) throws IOException
    {
        final SocketChannel channel = SocketChannel.open();
        channel.setOption(StandardSocketOptions.SO_RCVBUF, receiveBuffer);
        channel.connect(new InetSocketAddress("localhost", service.port()));
        final Subscriber subscriber = new Subscriber(channel);
        subscribers.add(subscriber);
        return subscriber;
    }

    /** @return a subscriber whose receive returns 0 when nothing has come, so that one thread can read many. */
    private Subscriber connectNonBlocking() throws IOException
    {
        final Subscriber subscriber = connect();
        subscriber.channel.configureBlocking(false);
        return subscriber;
    }

    private void offer(final int length)
    {
        awaitTrue(() -> marketData.offer(sbe.buffer, 0, length) > 0);
    }

    private void offer(final Publication shard, final int length)
    {
        awaitTrue(() -> shard.offer(engine.buffer, 0, length) > 0);
    }

    private boolean metricsContain(final String line)
    {
        return metricsContain(service.metricsPort(), line);
    }

    /** @return whether the metrics served on that port hold every one of the lines. */
    private static boolean metricsContain(final int metricsPort, final String... lines)
    {
        try
        {
            final String metrics = MetricsEndpoint.scrape(metricsPort);
            return Arrays.stream(lines).allMatch(metrics::contains);
        }
        catch (final Exception ex)
        {
            throw new IllegalStateException(ex);
        }
    }

    /** @return the value of a counter without labels served on that port, -1 when it is not there. */
    /** @return the sum of a counter's samples over its label values in a scrape; 0 when it has none. */
    private static double total(final String metrics, final String name)
    {
        final Matcher matcher =
            Pattern.compile("(?m)^" + Pattern.quote(name) + "(\\{[^}]*})? (\\S+)$").matcher(metrics);
        double total = 0;
        while (matcher.find())
        {
            total += Double.parseDouble(matcher.group(2));
        }
        return total;
    }

    /** @return the sum of a counter's samples over its label values, scraped now. */
    private static double total(final int metricsPort, final String name)
    {
        try
        {
            return total(MetricsEndpoint.scrape(metricsPort), name);
        }
        catch (final Exception ex)
        {
            throw new IllegalStateException(ex);
        }
    }

    private static double counter(final int metricsPort, final String name)
    {
        try
        {
            final Matcher matcher = Pattern.compile("(?m)^" + Pattern.quote(name) + " (\\S+)$")
                .matcher(MetricsEndpoint.scrape(metricsPort));
            return matcher.find() ? Double.parseDouble(matcher.group(1)) : -1;
        }
        catch (final Exception ex)
        {
            throw new IllegalStateException(ex);
        }
    }

    /**
     * @return what the peer sent until it closed its end, within 10 s; a reset fails.
     */
    private static byte[] readUntilClosed(final SocketChannel channel) throws IOException
    {
        channel.socket().setSoTimeout(1_000);
        final InputStream in = channel.socket().getInputStream();
        final ByteArrayOutputStream received = new ByteArrayOutputStream();
        final long deadlineNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (System.nanoTime() < deadlineNs)
        {
            try
            {
                final int b = in.read();
                if (-1 == b)
                {
                    return received.toByteArray();
                }
                received.write(b);
            }
            catch (final SocketTimeoutException ex)
            {
                // nothing this second: look again
            }
        }
        throw new AssertionError("the peer did not close its end within 10 s");
    }

    private String scrapeMetrics() throws Exception
    {
        return MetricsEndpoint.scrape(service.metricsPort());
    }


    /** A SoupBinTCP client, parsing Sequenced Data as ITCH 5.0 ({@link ItchEvents#parser()}). */
    private static final class Subscriber implements SoupBinTCPClientStatusListener, AutoCloseable
    {
        final ItchEvents itch = new ItchEvents();
        final SocketChannel channel;
        final SoupBinTCPClient client;
        boolean loginAccepted;
        boolean endOfSession;
        long acceptedSequence;
        String acceptedSession;
        byte rejectReason;

        Subscriber(final SocketChannel channel)
        {
            this.channel = channel;
            client = new SoupBinTCPClient(channel, itch.parser(), this);
        }

        void login(final String username, final String password) throws IOException
        {
            login(username, password, 1);
        }

        void login(final String username, final String password, final long requestedSequence) throws IOException
        {
            login(username, password, "", requestedSequence);
        }

        void login(final String username, final String password, final String session, final long requestedSequence)
            throws IOException
        {
            final SoupBinTCP.LoginRequest request = new SoupBinTCP.LoginRequest();
            request.setUsername(username);
            request.setPassword(password);
            request.setRequestedSession(session);
            request.setRequestedSequenceNumber(requestedSequence);
            client.login(request);
        }

        /** A snapshot login and an Unsequenced Data subscription in one write, so the fanout reads them together. */
        void loginAndSubscribe(final String username, final String password, final String... symbols)
            throws IOException
        {
            loginAndSubscribe(username, password, "", 1, symbols);
        }

        /** A Login Request and an Unsequenced Data subscription in one write, so the fanout reads them together. */
        void loginAndSubscribe(
            final String username, final String password, final String session, final long requestedSequence,
            final String... symbols) throws IOException
        {
            final ByteBuffer loginPayload = ByteBuffer.wrap(String.format("%-6s%-10s%-10s%20d", username, password,
                session, requestedSequence).getBytes(StandardCharsets.US_ASCII));
            final ByteBuffer subscription = subscription(symbols);
            final ByteBuffer packets = ByteBuffer.allocate(
                2 * (Short.BYTES + 1) + loginPayload.remaining() + subscription.remaining());
            packets.putShort((short)(1 + loginPayload.remaining())).put((byte)'L').put(loginPayload);
            packets.putShort((short)(1 + subscription.remaining())).put((byte)'U').put(subscription);
            packets.flip();
            while (packets.hasRemaining())
            {
                channel.write(packets);
            }
        }

        void subscribe(final String... symbols) throws IOException
        {
            client.send(subscription(symbols));
        }

        /** @return the subscription message 'S' of the README: count, then 8-byte space-padded symbols. */
        private static ByteBuffer subscription(final String... symbols)
        {
            final ByteBuffer message = ByteBuffer.allocate(1 + Short.BYTES + Long.BYTES * symbols.length);
            message.put((byte)'S').putShort((short)symbols.length);
            for (final String symbol : symbols)
            {
                message.putLong(Symbols.pack(symbol));
            }
            return message.flip();
        }

        void receiveUntil(final BooleanSupplier condition) throws IOException
        {
            while (!condition.getAsBoolean())
            {
                if (client.receive() < 0)
                {
                    throw new IOException("connection closed by the fanout");
                }
            }
        }

        /**
         * Sends a Client Heartbeat (SoupBinTCP 4.0 packet type 'R'), then reads what has come, until the end of the
         * stream or a reset.
         *
         * @return true at the end of the stream, false when the connection was reset.
         */
        boolean receiveUntilEndOfStreamSendingHeartbeats()
        {
            try
            {
                final ByteBuffer heartbeat = ByteBuffer.wrap(new byte[] {0, 1, 'R'});
                do
                {
                    channel.write(heartbeat.clear());
                }
                while (client.receive() >= 0);
                return true;
            }
            catch (final IOException ex)
            {
                return false;
            }
        }

        @Override
        public void loginAccepted(final SoupBinTCPClient session, final SoupBinTCP.LoginAccepted payload)
        {
            loginAccepted = true;
            acceptedSequence = payload.getSequenceNumber();
            acceptedSession = payload.getSession().trim();
        }

        @Override
        public void loginRejected(final SoupBinTCPClient session, final SoupBinTCP.LoginRejected payload)
        {
            rejectReason = payload.getRejectReasonCode();
        }

        @Override
        public void endOfSession(final SoupBinTCPClient session)
        {
            endOfSession = true;
        }

        @Override
        public void heartbeatTimeout(final SoupBinTCPClient session) throws IOException
        {
            throw new IOException("heartbeat timeout");
        }

        @Override
        public void close() throws IOException
        {
            client.close();
        }
    }
}
