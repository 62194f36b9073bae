package io.bourse.fanout;

import com.paritytrading.nassau.soupbintcp.SoupBinTCP;
import com.paritytrading.nassau.soupbintcp.SoupBinTCPClient;
import com.paritytrading.nassau.soupbintcp.SoupBinTCPClientStatusListener;
import io.aeron.Aeron;
import io.aeron.CommonContext;
import io.aeron.Publication;
import io.aeron.driver.MediaDriver;
import io.aeron.driver.ThreadingMode;
import io.bourse.common.aeron.StreamLayout;
import io.bourse.common.config.Settings;
import io.bourse.common.config.SymbolDirectory;
import io.bourse.itch.ItchEvents;
import io.bourse.itch.MarketDataEncoder;
import io.bourse.mdpublisher.EngineEventEncoder;
import io.bourse.mdpublisher.MdPublisherContext;
import io.bourse.mdpublisher.MdPublisherService;
import io.bourse.sbe.md.Side;
import org.agrona.CloseHelper;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.BooleanSupplier;

import static io.bourse.itch.ItchEvents.AddOrder;
import static io.bourse.itch.ItchEvents.CrossTrade;
import static io.bourse.itch.ItchEvents.OrderExecuted;
import static io.bourse.itch.ItchEvents.OrderExecutedWithPrice;
import static io.bourse.itch.ItchEvents.StockDirectory;
import static io.bourse.itch.ItchEvents.SystemEvent;
import static io.bourse.itch.ItchEvents.Trade;
import static io.bourse.sbe.engine.Side.BUY;
import static io.bourse.sbe.engine.Side.SELL;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A real media driver, a real fanout on ephemeral ports (fed by the test, or by a real md-publisher fed engine events),
 * and nassau SoupBinTCP clients parsing ITCH 5.0.
 */
@Timeout(30)
class FanoutServiceTest
{
    private static final long T = 34_200_123_456_789L;
    private static final SymbolDirectory SYMBOLS = SymbolDirectory.parse("AAPL@0,MSFT@1");

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
        final String aeronDir = CommonContext.getAeronDirectoryName() + "-fanout-test-" + UUID.randomUUID();
        driver = MediaDriver.launchEmbedded(new MediaDriver.Context()
            .aeronDirectoryName(aeronDir)
            .threadingMode(ThreadingMode.SHARED)
            .dirDeleteOnStart(true)
            .dirDeleteOnShutdown(true));
        final Path credentials = Files.writeString(
            tempDir.resolve("credentials.csv"), "username,password,firm\nsub1,secret1,SUBA\nsub2,secret2,SUBB\n");
        layout = StreamLayout.fromSettings(new Settings(Map.of())).withAeronDirectory(aeronDir);
        service = FanoutService.launch(new FanoutContext()
            .layout(layout)
            .symbolDirectory(SYMBOLS)
            .credentialsFile(credentials)
            .port(0)
            .metricsPort(0)
            .jvmMetrics(false)
            .workerCount(2));
        aeron = Aeron.connect(new Aeron.Context().aeronDirectoryName(aeronDir));
        marketData = aeron.addPublication(layout.marketDataChannel(), layout.marketDataStreamId());
        awaitTrue(marketData::isConnected);
    }

    @AfterEach
    void tearDown()
    {
        CloseHelper.closeAll(subscribers);
        CloseHelper.closeAll(aeron, service, driver);
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
            new StockDirectory(1, "AAPL", 'Q', ' ', 100, 'C', 'T'),
            new StockDirectory(2, "MSFT", 'Q', ' ', 100, 'C', 'T'));
        for (final Subscriber subscriber : List.of(first, second))
        {
            subscriber.receiveUntil(() -> subscriber.itch.messages.size() >= 3);
            assertThat(subscriber.loginAccepted).isTrue();
            assertThat(subscriber.itch.messages).isEqualTo(sessionStart);
        }

        offer(sbe.priceLevelUpdate(1, T, "MSFT", 1_500_100, 300));
        offer(sbe.addOrder(2, T, "MSFT", 17, Side.BUY, 300, 1_500_100));

        final AddOrder expected = new AddOrder(2, 0, T, 17, 'B', 300, "MSFT", 1_500_100);
        for (final Subscriber subscriber : List.of(first, second))
        {
            subscriber.receiveUntil(() -> subscriber.itch.messages.size() >= 4);
            assertThat(subscriber.itch.messages.subList(3, subscriber.itch.messages.size()))
                .containsExactly(expected);
        }
        assertThat(scrapeMetrics())
            .contains("bourse_fanout_sessions 2.0\n")
            .contains("bourse_fanout_messages_in_total 2.0\n")
            .contains("bourse_fanout_messages_out_total 8.0\n")
            .contains("bourse_fanout_drops_total 0.0\n")
            .contains("bourse_fanout_errors_total 0.0\n")
            .contains("bourse_fanout_latency_seconds_count 2\n");
    }

    @Test
    void shouldSendExecutionAgainstNonDisplayedOrderAsTradeWhenMdPublisherPrintsIt() throws Exception
    {
        final Subscriber subscriber = connect();
        subscriber.login("sub1", "secret1");
        subscriber.receiveUntil(() -> subscriber.itch.messages.size() >= 3);

        try (MdPublisherService mdPublisher = launchMdPublisher();
            Publication shard0 = aeron.addPublication(layout.eventChannel(), layout.eventStreamId(0)))
        {
            awaitTrue(shard0::isConnected);
            offer(shard0, engine.orderAdded(T, "AAPL", 17, SELL, 300, 1_500_100, 'Y'));
            offer(shard0, engine.orderAdded(T, "AAPL", 18, SELL, 500, 1_500_100, 'N'));
            offer(shard0, engine.orderExecuted(T + 10, "AAPL", 33, 100, 1_500_100, BUY, 49, 17, 200));
            offer(shard0, engine.orderExecuted(T + 20, "AAPL", 34, 200, 1_500_100, BUY, 50, 18, 300));

            // The displayed maker's execution is Order Executed only: its Trade would come before the hidden one.
            subscriber.receiveUntil(() -> subscriber.itch.messages.size() >= 6);
            assertThat(subscriber.itch.messages.subList(3, subscriber.itch.messages.size())).containsExactly(
                new AddOrder(1, 0, T, 17, 'S', 300, "AAPL", 1_500_100),
                new OrderExecuted(1, 0, T + 10, 17, 100, 33),
                new Trade(1, 0, T + 20, 0, 'B', 200, "AAPL", 1_500_100, 34));
        }
        assertThat(scrapeMetrics())
            .contains("bourse_fanout_messages_in_total 8.0\n")
            .contains("bourse_fanout_messages_out_total 6.0\n")
            .contains("bourse_fanout_errors_total 0.0\n");
    }

    @Test
    void shouldSendCrossExecutionOfDisplayedOrderAndOneCrossTradeWhenMdPublisherPublishesTheClosingCross()
        throws Exception
    {
        final Subscriber subscriber = connect();
        subscriber.login("sub1", "secret1");
        subscriber.receiveUntil(() -> subscriber.itch.messages.size() >= 3);

        try (MdPublisherService mdPublisher = launchMdPublisher();
            Publication shard1 = aeron.addPublication(layout.eventChannel(), layout.eventStreamId(1)))
        {
            awaitTrue(shard1::isConnected);
            offer(shard1, engine.orderAdded(T, "MSFT", 17, BUY, 300, 4_000_000, 'Y'));
            offer(shard1, engine.crossExecuted(T + 10, "MSFT", 33, 300, 3_999_900, BUY, 97, 17, 0));
            offer(shard1, engine.crossExecuted(T + 10, "MSFT", 34, 200, 3_999_900, SELL, 98, 96, 0));
            offer(shard1, engine.crossCompleted(T + 10, "MSFT", 3_999_900, 500, 35));

            subscriber.receiveUntil(() -> subscriber.itch.messages.size() >= 6);
            assertThat(subscriber.itch.messages.subList(3, subscriber.itch.messages.size())).containsExactly(
                new AddOrder(2, 0, T, 17, 'B', 300, "MSFT", 4_000_000),
                new OrderExecutedWithPrice(2, 0, T + 10, 17, 300, 33, 'N', 3_999_900),
                new CrossTrade(2, 0, T + 10, 500, "MSFT", 3_999_900, 35, 'C'));
        }
        assertThat(scrapeMetrics())
            .contains("bourse_fanout_messages_out_total 6.0\n")
            .contains("bourse_fanout_errors_total 0.0\n");
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
        // Round robin: the first and third connections share worker 0, the second is on worker 1.
        final Subscriber leaving = connect();
        final Subscriber otherWorker = connect();
        final Subscriber sameWorker = connect();
        final List<Subscriber> all = List.of(leaving, otherWorker, sameWorker);
        for (final Subscriber subscriber : all)
        {
            subscriber.login("sub1", "secret1");
            subscriber.receiveUntil(() -> subscriber.itch.messages.size() >= 3);
        }

        leaving.close();
        offer(sbe.addOrder(1, T, "AAPL", 33, Side.SELL, 100, 4_000_000));

        for (final Subscriber subscriber : List.of(otherWorker, sameWorker))
        {
            subscriber.receiveUntil(() -> subscriber.itch.messages.size() >= 4);
            assertThat(subscriber.itch.messages.get(3))
                .isEqualTo(new AddOrder(1, 0, T, 33, 'S', 100, "AAPL", 4_000_000));
        }
    }

    private MdPublisherService launchMdPublisher()
    {
        return MdPublisherService.launch(new MdPublisherContext()
            .layout(layout)
            .symbolDirectory(SYMBOLS)
            .metricsPort(0)
            .jvmMetrics(false)
            .moldEnabled(false));
    }

    private Subscriber connect() throws IOException
    {
        final Subscriber subscriber = new Subscriber(
            SocketChannel.open(new InetSocketAddress("localhost", service.port())));
        subscribers.add(subscriber);
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

    private String scrapeMetrics() throws Exception
    {
        return HttpClient.newHttpClient().send(
            HttpRequest.newBuilder(URI.create("http://localhost:" + service.metricsPort() + "/metrics")).build(),
            HttpResponse.BodyHandlers.ofString()).body();
    }

    private static void awaitTrue(final BooleanSupplier condition)
    {
        while (!condition.getAsBoolean())
        {
            Thread.yield();
        }
    }

    /** A SoupBinTCP client on a blocking socket, parsing Sequenced Data as ITCH 5.0 ({@link ItchEvents#parser()}). */
    private static final class Subscriber implements SoupBinTCPClientStatusListener, AutoCloseable
    {
        final ItchEvents itch = new ItchEvents();
        final SoupBinTCPClient client;
        boolean loginAccepted;
        byte rejectReason;

        Subscriber(final SocketChannel channel)
        {
            client = new SoupBinTCPClient(channel, itch.parser(), this);
        }

        void login(final String username, final String password) throws IOException
        {
            final SoupBinTCP.LoginRequest request = new SoupBinTCP.LoginRequest();
            request.setUsername(username);
            request.setPassword(password);
            request.setRequestedSession("");
            request.setRequestedSequenceNumber(1);
            client.login(request);
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

        @Override
        public void loginAccepted(final SoupBinTCPClient session, final SoupBinTCP.LoginAccepted payload)
        {
            loginAccepted = true;
        }

        @Override
        public void loginRejected(final SoupBinTCPClient session, final SoupBinTCP.LoginRejected payload)
        {
            rejectReason = payload.getRejectReasonCode();
        }

        @Override
        public void endOfSession(final SoupBinTCPClient session)
        {
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
