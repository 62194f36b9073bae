package io.bourse.it;

import com.paritytrading.juncture.nasdaq.itch50.ITCH50Parser;
import com.paritytrading.nassau.soupbintcp.SoupBinTCP;
import io.bourse.common.config.Symbols;
import io.bourse.ouch.Ouch42;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static io.bourse.it.SoupBinTcpTestClient.pollUntil;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Starts the exchange as the compose file does ({@link ExchangeContainers}: one container per service from the image
 * of the repository's Dockerfile, on host networking and the host's IPC namespace) and trades through it with real
 * SoupBinTCP sessions: OUCH 4.2 on port 15000 and an ITCH 5.0 subscriber on port 16000. Needs Docker (without it, run
 * the other modules with {@code -pl !tests}).
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
final class ExchangeContainersIT
{
    private static final int OUCH_PORT = ExchangeContainers.OUCH_PORT;
    private static final int ITCH_PORT = ExchangeContainers.ITCH_PORT;
    private static final Duration RESPONSE_TIMEOUT = Duration.ofSeconds(20);
    /** $100.0000 in 1/10000 dollars. */
    private static final long PRICE = 100 * Ouch42.PRICE_SCALE;
    private static final long SHARES = 100;
    private static final long AAPL = Symbols.pack("AAPL");

    @RegisterExtension
    static final ExchangeContainers EXCHANGE = ExchangeContainers.withMarketData();

    @Test
    void shouldMatchCrossingOrdersOfTwoSessionsAndPublishTheBookOnItchWhenSellMeetsRestingBuy() throws IOException
    {
        final ItchRecorder itch = new ItchRecorder();
        final OuchRecorder buyer = new OuchRecorder();
        final OuchRecorder seller = new OuchRecorder();
        try (SoupBinTcpTestClient marketData = SoupBinTcpTestClient.login(ITCH_PORT, "md01", "md01pw", 0,
                new ITCH50Parser(itch));
            SoupBinTcpTestClient buySession = SoupBinTcpTestClient.login(OUCH_PORT, "demo01", "demo01pw", 1, buyer);
            SoupBinTcpTestClient sellSession = SoupBinTcpTestClient.login(OUCH_PORT, "demo02", "demo02pw", 1, seller))
        {
            final List<SoupBinTcpTestClient> sessions = List.of(marketData, buySession, sellSession);
            for (final SoupBinTcpTestClient session : sessions)
            {
                session.awaitLoginAnswer(RESPONSE_TIMEOUT);
                assertThat(session.loginAccepted()).as("login accepted").isTrue();
            }

            buySession.send(enterOrder("BUY1", Ouch42.SIDE_BUY, "AAPL"));
            pollUntil(RESPONSE_TIMEOUT, "Accepted of the buy order", () -> !buyer.accepted().isEmpty(), sessions);
            final long buyReference = buyer.accepted().getFirst().orderReference();
            pollUntil(RESPONSE_TIMEOUT, "ITCH Add Order of the buy order", () -> !itch.addOrders().isEmpty(), sessions);

            sellSession.send(enterOrder("SELL1", Ouch42.SIDE_SELL, "AAPL"));
            pollUntil(RESPONSE_TIMEOUT, "Executed on both sessions and on ITCH",
                () -> !buyer.executed().isEmpty() && !seller.executed().isEmpty() && !itch.executions().isEmpty(),
                sessions);
            final long matchNumber = buyer.executed().getFirst().matchNumber();
            final long sellReference = seller.accepted().getFirst().orderReference();

            assertThat(buyer.accepted()).containsExactly(
                new OuchRecorder.Accepted("BUY1", Ouch42.SIDE_BUY, SHARES, AAPL, PRICE, buyReference));
            assertThat(seller.accepted()).containsExactly(
                new OuchRecorder.Accepted("SELL1", Ouch42.SIDE_SELL, SHARES, AAPL, PRICE, sellReference));
            assertThat(sellReference).isNotEqualTo(buyReference);
            assertThat(buyer.executed()).containsExactly(
                new OuchRecorder.Executed("BUY1", SHARES, PRICE, Ouch42.LIQUIDITY_ADDED, matchNumber));
            assertThat(seller.executed()).containsExactly(
                new OuchRecorder.Executed("SELL1", SHARES, PRICE, Ouch42.LIQUIDITY_REMOVED, matchNumber));
            assertThat(buyer.rejected()).isEmpty();
            assertThat(seller.rejected()).isEmpty();

            assertThat(itch.addOrders()).containsExactly(
                new ItchRecorder.AddOrder(buyReference, Ouch42.SIDE_BUY, SHARES, AAPL, PRICE));
            assertThat(itch.executions()).containsExactly(
                new ItchRecorder.OrderExecuted(buyReference, SHARES, matchNumber));
        }
    }

    @Test
    void shouldRejectEnterOrderWhenSymbolUnknown() throws IOException
    {
        final OuchRecorder trader = new OuchRecorder();
        try (SoupBinTcpTestClient session = SoupBinTcpTestClient.login(OUCH_PORT, "demo03", "demo03pw", 1, trader))
        {
            session.awaitLoginAnswer(RESPONSE_TIMEOUT);
            assertThat(session.loginAccepted()).as("login accepted").isTrue();

            session.send(enterOrder("BAD1", Ouch42.SIDE_BUY, "ZZZZ"));
            pollUntil(RESPONSE_TIMEOUT, "Rejected", () -> !trader.rejected().isEmpty(), List.of(session));

            assertThat(trader.rejected()).containsExactly(
                new OuchRecorder.Rejected("BAD1", Ouch42.REJECT_INVALID_STOCK));
            assertThat(trader.accepted()).isEmpty();
        }
    }

    @Test
    void shouldRejectLoginWhenPasswordWrong() throws IOException
    {
        try (SoupBinTcpTestClient session = SoupBinTcpTestClient.login(OUCH_PORT, "demo04", "wrongpw", 1,
            new OuchRecorder()))
        {
            session.awaitLoginAnswer(RESPONSE_TIMEOUT);

            assertThat(session.loginRejectReason()).isEqualTo(SoupBinTCP.LOGIN_REJECT_CODE_NOT_AUTHORIZED);
            assertThat(session.loginAccepted()).isFalse();
        }
    }

    @Test
    void shouldServePrometheusMetricsOnEveryServicePortWhenRunning() throws IOException, InterruptedException
    {
        final Map<Integer, String> metricByPort = new LinkedHashMap<>();
        metricByPort.put(9400, "bourse_aeron_counter");
        metricByPort.put(9401, "bourse_gateway_order_latency_seconds");
        metricByPort.put(9402, "bourse_md_publish_latency_seconds");
        metricByPort.put(9403, "bourse_fanout_latency_seconds");
        metricByPort.put(9410, "bourse_engine_service_time_seconds");
        metricByPort.put(9411, "bourse_engine_service_time_seconds");
        try (HttpClient http = HttpClient.newHttpClient())
        {
            for (final Map.Entry<Integer, String> entry : metricByPort.entrySet())
            {
                final HttpResponse<String> response = http.send(
                    HttpRequest.newBuilder(URI.create("http://localhost:" + entry.getKey() + "/metrics")).build(),
                    HttpResponse.BodyHandlers.ofString());

                assertThat(response.statusCode()).as("status of :%d/metrics", entry.getKey()).isEqualTo(200);
                assertThat(response.body()).as(":%d/metrics", entry.getKey()).contains(entry.getValue());
            }
        }
    }

    /** OUCH 4.2 Enter Order for 100 shares at $100.0000, day order. */
    private static ByteBuffer enterOrder(final String token, final byte side, final String stock)
    {
        return OuchMessages.enterOrder(token, side, SHARES, stock, PRICE, Ouch42.TIME_IN_FORCE_SYSTEM_HOURS);
    }
}
