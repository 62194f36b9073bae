package io.bourse.it;

import io.bourse.common.config.Symbols;
import io.bourse.ouch.Ouch42;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import static io.bourse.it.MarketDataIT.books;
import static io.bourse.it.MarketDataIT.engineBooks;
import static io.bourse.it.MarketDataIT.enter;
import static io.bourse.it.MarketDataIT.hasOrder;
import static io.bourse.it.SoupBinTcpTestClient.pollUntil;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The md-publisher restarted in containers ({@link ExchangeContainers#restartMdPublisher}) while the engine shards hold
 * resting orders: the new md-publisher rebuilds its books from the event archive, so an ITCH 5.0 subscriber of the
 * fanout that logs in afterwards gets, in the fanout's snapshot and the increments after it, the book that the traders'
 * OUCH 4.2 answers describe, orders from before the restart included.
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
final class MdPublisherRestartIT
{
    private static final Duration RESPONSE_TIMEOUT = Duration.ofSeconds(20);
    private static final long AAPL = Symbols.pack("AAPL");
    private static final long MSFT = Symbols.pack("MSFT");

    @RegisterExtension
    static final ExchangeContainers EXCHANGE = ExchangeContainers.withMarketData();

    private final List<SoupBinTcpTestClient> sessions = new ArrayList<>();

    @Test
    void shouldGiveASubscriberLoggedInAfterTheRestartTheEnginesBookOrderByOrder() throws Exception
    {
        final OuchRecorder buyer = new OuchRecorder();
        final OuchRecorder seller = new OuchRecorder();
        try
        {
            final SoupBinTcpTestClient buySession = trader("demo01", buyer);
            final SoupBinTcpTestClient sellSession = trader("demo02", seller);
            send(buySession, enter("B1", Ouch42.SIDE_BUY, 100, "AAPL", 100_0000), () -> buyer.accepted().size() == 1);
            send(buySession, enter("B2", Ouch42.SIDE_BUY, 200, "AAPL", 99_9000), () -> buyer.accepted().size() == 2);
            send(sellSession, enter("S1", Ouch42.SIDE_SELL, 150, "AAPL", 100_0000),
                () -> seller.executed().size() == 1 && buyer.executed().size() == 1);
            send(sellSession, enter("S2", Ouch42.SIDE_SELL, 300, "MSFT", 50_0000), () -> seller.accepted().size() == 2);
            send(sellSession, OuchMessages.cancelOrder("S2", 100), () -> seller.canceled().size() == 1);

            EXCHANGE.restartMdPublisher();
            assertThat(EXCHANGE.mdPublisher().getLogs()).contains("md-publisher: rebuilt the books from ");

            send(buySession, enter("B3", Ouch42.SIDE_BUY, 40, "MSFT", 49_0000), () -> buyer.accepted().size() == 3);
            final ItchRecorder late = new ItchRecorder();
            final SoupBinTcpTestClient lateSession = SoupBinTcpTestClient.login(
                ExchangeContainers.ITCH_PORT, "md01", "md01pw", 0, late);
            sessions.add(lateSession);
            lateSession.awaitLoginAnswer(RESPONSE_TIMEOUT);
            assertThat(lateSession.loginAccepted()).as("login accepted").isTrue();
            send(sellSession, enter("S3", Ouch42.SIDE_SELL, 10, "MSFT", 51_0000), () -> seller.accepted().size() == 3);
            final long lastOrder = seller.accepted().getLast().orderReference();
            pollUntil(RESPONSE_TIMEOUT, "the last order on the subscriber's book",
                () -> hasOrder(late, MSFT, lastOrder), sessions);

            final Map<Long, List<ItchRecorder.BookOrder>> engine = engineBooks(List.of(buyer, seller), AAPL, MSFT);
            assertThat(engine.get(AAPL)).extracting(ItchRecorder.BookOrder::shares).containsExactly(200L, 50L);
            assertThat(engine.get(MSFT)).extracting(ItchRecorder.BookOrder::shares).containsExactly(100L, 40L, 10L);
            assertThat(books(late, AAPL, MSFT)).isEqualTo(engine);
            assertThat(buyer.rejected()).isEmpty();
            assertThat(seller.rejected()).isEmpty();
        }
        finally
        {
            for (final SoupBinTcpTestClient session : sessions)
            {
                session.close();
            }
        }
    }

    private SoupBinTcpTestClient trader(final String username, final OuchRecorder recorder) throws IOException
    {
        final SoupBinTcpTestClient session = SoupBinTcpTestClient.login(
            ExchangeContainers.OUCH_PORT, username, username + "pw", 1, recorder);
        sessions.add(session);
        session.awaitLoginAnswer(RESPONSE_TIMEOUT);
        assertThat(session.loginAccepted()).as("login accepted for " + username).isTrue();
        return session;
    }

    private void send(final SoupBinTcpTestClient session, final ByteBuffer message, final BooleanSupplier answered)
        throws IOException
    {
        session.send(message);
        pollUntil(RESPONSE_TIMEOUT, "the answer to OUCH '" + (char)message.get(0) + "'", answered, sessions);
    }
}
