package io.bourse.gateway;

import io.aeron.Aeron;
import io.aeron.Publication;
import io.bourse.common.config.Credentials;
import io.bourse.common.config.Symbols;
import io.bourse.engine.match.SelfTradePrevention;
import io.bourse.gateway.OuchMessages.Accepted;
import io.bourse.gateway.OuchMessages.AiqCanceledMessage;
import io.bourse.gateway.OuchMessages.Broken;
import io.bourse.gateway.OuchMessages.Canceled;
import io.bourse.gateway.OuchMessages.Executed;
import io.bourse.gateway.OuchMessages.Modified;
import io.bourse.gateway.OuchMessages.SystemEventMessage;
import io.bourse.gateway.TestClient.Closed;
import io.bourse.gateway.TestClient.EndOfSession;
import io.bourse.gateway.TestClient.LoginAccepted;
import io.bourse.gateway.TestClient.LoginRejected;
import io.bourse.ouch.CancelOrder;
import io.bourse.ouch.EnterOrder;
import io.bourse.ouch.ModifyOrder;
import io.bourse.ouch.Ouch42;
import io.bourse.sbe.engine.BreakTradeEncoder;
import io.bourse.sbe.engine.MessageHeaderEncoder;
import org.agrona.CloseHelper;
import org.agrona.concurrent.SleepingMillisIdleStrategy;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The gateway in front of two real matching-engine shards on an embedded media driver, as deployed: cancel on
 * disconnect, AIQ Canceled from the engine's self-trade prevention, Modify Order against a live book, and a garbage
 * flood that no other session notices. Each test uses its own users and keeps its orders from crossing the others'.
 */
@Timeout(60)
class GatewayEngineTest
{
    private static final String SESSION = "S20250103";
    private static final String[] USERS = {
        "cod01", "keep01", "stp01", "stp02", "fld01", "junk01", "mod01", "mod02", "brk01", "brk02"};
    private static final String[] IGNORED = {"timestamp", "orderReferenceNumber", "matchNumber"};

    @TempDir
    private static Path journalDir;
    private static EngineShards engine;
    private static GatewayService gateway;

    private final UnsafeBuffer request = new UnsafeBuffer(new byte[64]);

    @BeforeAll
    static void start()
    {
        engine = new EngineShards("gateway-engine-test", Map.of("STPF", SelfTradePrevention.DECREMENT));
        final List<String> credentials = new ArrayList<>();
        for (final String user : USERS)
        {
            credentials.add(user + "," + user + "pw," + (user.startsWith("stp") ? "STPF" : "DEMO"));
        }
        gateway = GatewayService.launch(new GatewayContext()
            .port(0)
            .bindAddress("127.0.0.1")
            .metricsPort(0)
            .jvmMetrics(false)
            .sessionName(SESSION)
            .journalDir(journalDir.toString())
            .credentials(Credentials.parse(credentials))
            .riskLimits(RiskLimits.parse(RiskLimits.NO_LIMITS, List.of("keep01,,,,,,N"), Map.of()))
            .streamLayout(engine.layout())
            .symbolDirectory(EngineShards.SYMBOLS)
            .idleStrategy(new SleepingMillisIdleStrategy(1)));
    }

    @AfterAll
    static void stop()
    {
        CloseHelper.closeAll(gateway, engine);
    }

    @Test
    void shouldCancelOpenOrdersThroughTheEngineWhenTheSessionDropsAndReplayTheCanceledOnReLogin() throws Exception
    {
        try (TestClient client = login("cod01", 1))
        {
            enterOrder(client, "C1", "GOOG", Ouch42.SIDE_BUY, 100, 100_000, Ouch42.TIME_IN_FORCE_MARKET_HOURS);
            enterOrder(client, "C2", "AMZN", Ouch42.SIDE_SELL, 200, 90_000_000, Ouch42.TIME_IN_FORCE_SYSTEM_HOURS);
            assertThat(client.await(4).subList(2, 4)).allMatch(Accepted.class::isInstance);
        }

        try (TestClient client = login("cod01", 1))
        {
            final List<Object> received = client.await(6);

            assertThat(received.subList(0, 4)).extracting((m) -> m.getClass().getSimpleName())
                .containsExactly("LoginAccepted", "SystemEventMessage", "Accepted", "Accepted");
            assertThat(received.subList(4, 6)).usingRecursiveFieldByFieldElementComparatorIgnoringFields(IGNORED)
                .containsExactlyInAnyOrder(new Canceled(0, "C1", 100, 'U'), new Canceled(0, "C2", 200, 'U'));
        }
    }

    @Test
    void shouldKeepTheOrdersOfAUserWhoTurnedCancelOnDisconnectOff() throws Exception
    {
        try (TestClient client = login("keep01", 1))
        {
            enterOrder(client, "K1", "GOOG", Ouch42.SIDE_BUY, 100, 110_000, Ouch42.TIME_IN_FORCE_MARKET_HOURS);
            assertThat(client.await(3).get(2)).isInstanceOf(Accepted.class);
        }

        try (TestClient client = login("keep01", 1))
        {
            assertThat(client.await(3)).hasSize(3);
            cancelOrder(client, "K1", 40);

            assertThat(client.await(4).get(3)).usingRecursiveComparison().ignoringFields(IGNORED)
                .isEqualTo(new Canceled(0, "K1", 60, 'U'));
        }
    }

    @Test
    void shouldSendAiqCanceledToBothOrdersWhenTheEngineDecrementsASelfMatch() throws Exception
    {
        try (TestClient seller = login("stp01", 1);
            TestClient buyer = login("stp02", 1))
        {
            enterOrder(seller, "Q1", "MSFT", Ouch42.SIDE_SELL, 100, 2_000_000, Ouch42.TIME_IN_FORCE_MARKET_HOURS);
            assertThat(seller.await(3).get(2)).isInstanceOf(Accepted.class);

            enterOrder(buyer, "Q2", "MSFT", Ouch42.SIDE_BUY, 60, 2_005_000, Ouch42.TIME_IN_FORCE_MARKET_HOURS);

            assertThat(buyer.await(4).subList(2, 4)).usingRecursiveFieldByFieldElementComparatorIgnoringFields(IGNORED)
                .containsExactly(
                    new Accepted(0, "Q2", 'B', 60, "MSFT", 2_005_000, Ouch42.TIME_IN_FORCE_MARKET_HOURS, "STPF", 'Y',
                        0, 'A', 'N', 0, 'N', 'L', ' '),
                    new AiqCanceledMessage(0, "Q2", 60, 'Q', 60, 2_000_000, 'R'));
            assertThat(seller.await(4).get(3)).usingRecursiveComparison().ignoringFields(IGNORED)
                .isEqualTo(new AiqCanceledMessage(0, "Q1", 60, 'Q', 60, 2_000_000, 'A'));
        }
    }

    @Test
    void shouldModifyARestingOrderKeepingItsPlaceWhenTheEngineCancelsItDown() throws Exception
    {
        try (TestClient seller = login("mod01", 1);
            TestClient buyer = login("mod02", 1))
        {
            enterOrder(seller, "M1", "AMZN", Ouch42.SIDE_SELL, 100, 3_000_000, Ouch42.TIME_IN_FORCE_MARKET_HOURS);
            assertThat(seller.await(3).get(2)).isInstanceOf(Accepted.class);
            modifyOrder(seller, "M1", Ouch42.SIDE_SELL_SHORT, 40);
            assertThat(seller.await(4)).hasSize(4);
            modifyOrder(seller, "M1", Ouch42.SIDE_SELL_SHORT_EXEMPT, 40);
            modifyOrder(seller, "M1", Ouch42.SIDE_BUY, 10);
            modifyOrder(seller, "M1", Ouch42.SIDE_SELL, 50);
            assertThat(seller.await(5)).hasSize(5);

            enterOrder(buyer, "M2", "AMZN", Ouch42.SIDE_BUY, 100, 3_000_000, Ouch42.TIME_IN_FORCE_IMMEDIATE_OR_CANCEL);

            assertThat(seller.await(6).subList(3, 6)).usingRecursiveFieldByFieldElementComparatorIgnoringFields(IGNORED)
                .containsExactly(
                    new Modified(0, "M1", 'T', 40),
                    new Modified(0, "M1", 'E', 40),
                    new Executed(0, "M1", 40, 3_000_000, 'A', 0));
            assertThat(buyer.await(5).subList(3, 5)).usingRecursiveFieldByFieldElementComparatorIgnoringFields(IGNORED)
                .containsExactly(new Executed(0, "M2", 40, 3_000_000, 'R', 0), new Canceled(0, "M2", 60, 'I'));
        }
    }

    @Test
    void shouldSendBrokenTradeToBothFilledOrdersWhenTheShardBreaksTheirTrade() throws Exception
    {
        try (TestClient seller = login("brk01", 1);
            TestClient buyer = login("brk02", 1);
            Aeron aeron = Aeron.connect(new Aeron.Context().aeronDirectoryName(engine.aeronDirectoryName()));
            Publication commands = aeron.addExclusivePublication(engine.layout().commandChannel(),
                engine.layout().commandStreamId(0)))
        {
            enterOrder(seller, "BS1", "GOOG", Ouch42.SIDE_SELL, 100, 1_770_000, Ouch42.TIME_IN_FORCE_MARKET_HOURS);
            assertThat(seller.await(3).get(2)).isInstanceOf(Accepted.class);
            enterOrder(buyer, "BB1", "GOOG", Ouch42.SIDE_BUY, 100, 1_770_000, Ouch42.TIME_IN_FORCE_MARKET_HOURS);
            final long matchNumber = ((Executed)buyer.await(4).get(3)).matchNumber();
            assertThat(seller.await(4).get(3)).isInstanceOf(Executed.class);

            breakTrade(commands, "GOOG", matchNumber, Ouch42.BROKEN_TRADE_ERRONEOUS);

            assertThat(seller.await(5).get(4)).usingRecursiveComparison().ignoringFields("timestamp")
                .isEqualTo(new Broken(0, "BS1", matchNumber, 'E'));
            assertThat(buyer.await(5).get(4)).usingRecursiveComparison().ignoringFields("timestamp")
                .isEqualTo(new Broken(0, "BB1", matchNumber, 'E'));
        }
    }

    @Test
    void shouldAcceptEveryOrderOfOneSessionWhileOtherConnectionsFloodGarbage() throws Exception
    {
        final int orders = 200;
        final double errorsBefore = scrapeCounter("bourse_gateway_errors_total");
        final AtomicBoolean flooding = new AtomicBoolean(true);
        final AtomicLong garbageBytes = new AtomicLong();
        final Thread flooder = new Thread(() -> flood(flooding, garbageBytes), "garbage-flooder");
        try (TestClient trader = login("fld01", 1))
        {
            flooder.start();
            for (int i = 0; i < orders; i++)
            {
                enterOrder(trader, "F" + i, "AAPL", Ouch42.SIDE_BUY, 100, 500_000, Ouch42.TIME_IN_FORCE_MARKET_HOURS);
            }

            final List<Object> received = trader.await(2 + orders);

            assertThat(received).hasSize(2 + orders);
            assertThat(received.subList(2, 2 + orders)).extracting((m) -> ((Accepted)m).token())
                .containsExactlyElementsOf(IntStream.range(0, orders).mapToObj((i) -> "F" + i).toList());
        }
        finally
        {
            flooding.set(false);
            flooder.join(TimeUnit.SECONDS.toMillis(10));
        }
        assertThat(garbageBytes.get()).isPositive();
        assertThat(scrapeCounter("bourse_gateway_errors_total")).isGreaterThan(errorsBefore);
        try (TestClient junk = login("junk01", 1))
        {
            assertThat(junk.await(2).get(1)).isInstanceOf(SystemEventMessage.class);
            junk.send(request, garbageFrame(request));

            assertThat(junk.await(4).subList(2, 4)).isEqualTo(List.of(new EndOfSession(), new Closed()));
        }
    }

    /**
     * Until told to stop: connections that send random bytes, SoupBinTCP frames of random types, or log in as junk01
     * (raw bytes) and then send garbage; each is dropped by the gateway and replaced by the next.
     */
    private static void flood(final AtomicBoolean flooding, final AtomicLong garbageBytes)
    {
        final Random random = new Random(42);
        final byte[] chunk = new byte[4096];
        for (int round = 0; flooding.get(); round++)
        {
            try (Socket socket = new Socket("127.0.0.1", gateway.port()))
            {
                final OutputStream out = socket.getOutputStream();
                if (round % 3 == 1)
                {
                    out.write(loginRequest("junk01", "junk01pw"));
                }
                while (flooding.get())
                {
                    random.nextBytes(chunk);
                    if (round % 3 == 2)
                    {
                        for (int i = 0; i + 12 <= chunk.length; i += 12)
                        {
                            chunk[i] = 0;
                            chunk[i + 1] = 10;
                        }
                    }
                    out.write(chunk);
                    garbageBytes.addAndGet(chunk.length);
                }
            }
            catch (final IOException expected)
            {
                // The gateway closed the connection: the next round opens another.
            }
        }
    }

    private static byte[] loginRequest(final String username, final String password)
    {
        final String payload = "L" + String.format("%-6s%-10s%-10s%20s", username, password, "", "1");
        final byte[] ascii = payload.getBytes(StandardCharsets.US_ASCII);
        final byte[] packet = new byte[2 + ascii.length];
        packet[1] = (byte)ascii.length;
        System.arraycopy(ascii, 0, packet, 2, ascii.length);
        return packet;
    }

    private static int garbageFrame(final UnsafeBuffer buffer)
    {
        buffer.putByte(0, (byte)'?');
        buffer.putLong(1, 0xDEAD_BEEF_CAFE_BABEL);
        return 9;
    }

    private static void breakTrade(
        final Publication commands, final String symbol, final long matchNumber, final byte reason)
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[64]);
        final BreakTradeEncoder encoder = new BreakTradeEncoder()
            .wrapAndApplyHeader(buffer, 0, new MessageHeaderEncoder())
            .timestampNs(1)
            .matchNumber(matchNumber)
            .reason(reason);
        Symbols.unpack(Symbols.pack(symbol), buffer, encoder.offset() + BreakTradeEncoder.symbolEncodingOffset());
        final long deadlineNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (commands.offer(buffer, 0, MessageHeaderEncoder.ENCODED_LENGTH + encoder.encodedLength()) < 0)
        {
            assertThat(System.nanoTime()).isLessThan(deadlineNs);
            Thread.yield();
        }
    }

    /**
     * Logs in, trying again while the gateway has not yet seen the user's previous connection close.
     */
    private static TestClient login(final String username, final long sequenceNumber) throws Exception
    {
        final long deadlineNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (true)
        {
            final TestClient client = new TestClient(gateway.port());
            client.login(username, username + "pw", "", sequenceNumber);
            final Object answer = client.await(1).get(0);
            if (answer instanceof LoginAccepted)
            {
                return client;
            }
            client.close();
            assertThat(answer).isEqualTo(new LoginRejected('S'));
            assertThat(System.nanoTime()).isLessThan(deadlineNs);
            Thread.sleep(10);
        }
    }

    private void enterOrder(
        final TestClient client, final String token, final String stock, final byte side, final long shares,
        final long price, final long timeInForce) throws IOException
    {
        new EnterOrder().wrapAndApplyType(request, 0)
            .orderToken(token)
            .buySellIndicator(side)
            .shares(shares)
            .stock(Symbols.pack(stock))
            .price(price)
            .timeInForce(timeInForce)
            .firm("")
            .display(Ouch42.DISPLAY_ANONYMOUS)
            .capacity(Ouch42.CAPACITY_AGENCY)
            .intermarketSweepEligibility(Ouch42.ISE_NOT_ELIGIBLE)
            .minimumQuantity(0)
            .crossType(Ouch42.CROSS_TYPE_NO_CROSS)
            .customerType(Ouch42.CUSTOMER_TYPE_DEFAULT);
        client.send(request, EnterOrder.LENGTH);
    }

    private void cancelOrder(final TestClient client, final String token, final long shares) throws IOException
    {
        new CancelOrder().wrapAndApplyType(request, 0).orderToken(token).shares(shares);
        client.send(request, CancelOrder.LENGTH);
    }

    private void modifyOrder(final TestClient client, final String token, final byte side, final long shares)
        throws IOException
    {
        new ModifyOrder().wrapAndApplyType(request, 0).orderToken(token).buySellIndicator(side).shares(shares);
        client.send(request, ModifyOrder.LENGTH);
    }

    private static double scrapeCounter(final String name) throws Exception
    {
        try (HttpClient http = HttpClient.newHttpClient())
        {
            final String body = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" +
                gateway.metricsPort() + "/metrics")).build(), HttpResponse.BodyHandlers.ofString()).body();
            final Matcher matcher = Pattern.compile("(?m)^" + name + " (\\S+)$").matcher(body);
            assertThat(matcher.find()).as(name).isTrue();
            return Double.parseDouble(matcher.group(1));
        }
    }
}
