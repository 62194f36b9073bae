package io.bourse.it;

import io.bourse.common.config.EmbeddedTestSettings;
import io.bourse.common.config.Settings;
import io.bourse.common.config.Symbols;
import io.bourse.it.OuchRecorder.Canceled;
import io.bourse.launcher.EmbeddedExchange;
import io.bourse.ouch.Ouch42;
import org.agrona.CloseHelper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The embedded exchange (DESIGN.md run mode 1, {@link EmbeddedExchange}) in the test's JVM, with OUCH 4.2 clients on
 * real TCP sessions and an ITCH 5.0 subscriber: what only the services together, started and stopped in the
 * launcher's order, do.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
final class EmbeddedExchangeIT
{
    private static final Duration RESPONSE_TIMEOUT = Duration.ofSeconds(20);
    private static final long PRICE = 100_0000;
    private static final long SHARES = 100;
    /** ITCH 5.0 §4.4.4 Order Delete: the Order Reference Number after type, locate, tracking and timestamp. */
    private static final int ITCH_ORDER_REFERENCE_OFFSET = 11;
    /** ITCH 5.0 §4.1 System Event: the Event Code after type, locate, tracking and timestamp. */
    private static final int ITCH_EVENT_CODE_OFFSET = 11;

    @TempDir
    private Path journalDir;

    /**
     * Two runs on one day with the gateway's session journals kept ({@code BOURSE_GATEWAY_JOURNAL_DIR}) and cancel on
     * disconnect off: the first run accepts a day order that rests; the second run's engine shard starts with an empty
     * book (no event archive in this mode), and its RunStarted, with no earlier run recovered, makes the gateway, which
     * rebuilt the order from its journal, cancel it to its owner with OUCH 4.2 Canceled reason 'Z' (system cancel).
     * Before stop 85 the engines were launched first and the md-publisher's subscription took their RunStarted before
     * the gateway subscribed: the gateway never heard it and held the order open for good.
     */
    @Test
    void shouldCancelTheOrdersOfAnEarlierRunKeptInTheJournalsOnceTheNewEngineStartsEmpty() throws Exception
    {
        final OuchRecorder firstRun = new OuchRecorder();
        try (EmbeddedExchange exchange = EmbeddedExchange.launch(settings());
            SoupBinTcpTestClient session = login(exchange, firstRun))
        {
            session.send(OuchMessages.enterOrder("A1", Ouch42.SIDE_BUY, SHARES, "AAPL", PRICE,
                Ouch42.TIME_IN_FORCE_MARKET_HOURS));
            SoupBinTcpTestClient.pollUntil(RESPONSE_TIMEOUT, "A1 accepted", () -> !firstRun.accepted().isEmpty(),
                List.of(session));
        }

        final OuchRecorder secondRun = new OuchRecorder();
        try (EmbeddedExchange exchange = EmbeddedExchange.launch(settings());
            SoupBinTcpTestClient session = login(exchange, secondRun))
        {
            SoupBinTcpTestClient.pollUntil(RESPONSE_TIMEOUT, "A1 canceled by the system",
                () -> !secondRun.canceled().isEmpty(), List.of(session));

            assertThat(secondRun.accepted()).as("replayed from the journal").hasSize(1);
            assertThat(secondRun.canceled()).containsExactly(new Canceled("A1", SHARES, Ouch42.CANCEL_SYSTEM));
        }
    }

    /**
     * The stop, with a trader and a market-data subscriber still logged in: the gateway's stop cancels the trader's
     * resting order (cancel on disconnect, the default), and the subscriber gets that cancel, as ITCH 5.0 Order
     * Delete, before its day's end, System Events 'M', 'E' and 'C' then End of Session: its last book is the
     * exchange's. The services stop in the order of that data (gateway, md-publisher, which ends its feed with
     * EndOfFeed, then the fanout). Before stop 104 the fanout stopped first, and the subscriber's last book held the
     * canceled order.
     */
    @Test
    void shouldTellTheSubscribersOfTheCancelsOfTheGatewaysStopBeforeTheirDayEnds() throws Exception
    {
        final Map<String, String> settings = EmbeddedTestSettings.onFreePorts();
        settings.put("BOURSE_GATEWAY_JOURNAL_DIR", journalDir.toString());
        final ItchRecorder itch = new ItchRecorder();
        final OuchRecorder ouch = new OuchRecorder();
        final List<SoupBinTcpTestClient> sessions = new ArrayList<>();
        try
        {
            final SoupBinTcpTestClient subscriber;
            try (EmbeddedExchange exchange = EmbeddedExchange.launch(new Settings(settings)))
            {
                subscriber = SoupBinTcpTestClient.login(exchange.fanoutPort(), "md01", "md01pw", 1, itch);
                sessions.add(subscriber);
                final SoupBinTcpTestClient trader = login(exchange, ouch);
                sessions.add(trader); // logged in until the gateway's stop
                trader.send(OuchMessages.enterOrder("A1", Ouch42.SIDE_BUY, SHARES, "AAPL", PRICE,
                    Ouch42.TIME_IN_FORCE_MARKET_HOURS));
                SoupBinTcpTestClient.pollUntil(RESPONSE_TIMEOUT, "A1 on the subscriber's book",
                    () -> 1 == itch.addOrders().size(), List.of(trader, subscriber));
            }
            subscriber.awaitCloseWithoutSending(RESPONSE_TIMEOUT);
            assertThat(subscriber.endOfSessionPacket()).as("End of Session at the exchange's stop").isTrue();
        }
        finally
        {
            CloseHelper.quietCloseAll(sessions);
        }

        final List<byte[]> messages = itch.messages();
        final List<String> last = messages.subList(messages.size() - 4, messages.size()).stream()
            .map(EmbeddedExchangeIT::describe).toList();
        assertThat(last).containsExactly("D " + itch.addOrders().getFirst().orderReference(),
            "S M", "S E", "S C");
        assertThat(itch.book(Symbols.pack("AAPL"))).as("the subscriber's last book").isEmpty();
    }

    /** @return an ITCH 5.0 Order Delete as its type and Order Reference Number, a System Event as its Event Code. */
    private static String describe(final byte[] message)
    {
        final ByteBuffer buffer = ByteBuffer.wrap(message);
        return switch (message[0])
        {
            case 'D' -> "D " + buffer.getLong(ITCH_ORDER_REFERENCE_OFFSET);
            case 'S' -> "S " + (char)message[ITCH_EVENT_CODE_OFFSET];
            default -> String.valueOf((char)message[0]);
        };
    }

    /** @return the embedded exchange's settings: free ports, its own Aeron directory, the test's journals kept. */
    private Settings settings()
    {
        final Map<String, String> settings = EmbeddedTestSettings.onFreePorts();
        settings.put("BOURSE_GATEWAY_JOURNAL_DIR", journalDir.toString());
        settings.put("BOURSE_GATEWAY_CANCEL_ON_DISCONNECT", "false");
        return new Settings(settings);
    }

    /** @return demo01's session, logged in to replay its whole journal (requested sequence number 1). */
    private static SoupBinTcpTestClient login(final EmbeddedExchange exchange, final OuchRecorder recorder)
        throws Exception
    {
        final SoupBinTcpTestClient session =
            SoupBinTcpTestClient.login(exchange.gatewayPort(), "demo01", "demo01pw", 1, recorder);
        session.awaitLoginAnswer(RESPONSE_TIMEOUT);
        assertThat(session.loginAccepted()).isTrue();
        return session;
    }
}
