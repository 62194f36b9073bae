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

import static io.bourse.it.MarketDataIT.awaitBooks;
import static io.bourse.it.MarketDataIT.engineBooks;
import static io.bourse.it.MarketDataIT.enter;
import static io.bourse.it.MarketDataIT.hasOrder;
import static io.bourse.it.SoupBinTcpTestClient.pollUntil;
import static io.bourse.it.SoupBinTcpTestClient.whilePolling;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The market-data services restarted in containers while the engine shards hold resting orders, each test on symbols
 * and OUCH users of its own. The md-publisher ({@link ExchangeContainers#restartMdPublisher}) rebuilds its books from
 * the event archive, so an ITCH 5.0 subscriber of the fanout that logs in afterwards gets, in the fanout's snapshot and
 * the increments after it, the book that the traders' OUCH 4.2 answers describe, orders from before the restart
 * included. The fanout ({@link ExchangeContainers#restartFanout}) ends its subscribers' sessions and takes the
 * md-publisher's books from a snapshot, so a subscriber that logs in to the new one gets the same books.
 */
@Timeout(value = 240, unit = TimeUnit.SECONDS)
final class MarketDataRestartIT
{
    private static final Duration RESPONSE_TIMEOUT = Duration.ofSeconds(20);
    private static final Duration RESTART_TIMEOUT = Duration.ofSeconds(100);
    private static final long AAPL = Symbols.pack("AAPL");
    private static final long MSFT = Symbols.pack("MSFT");
    private static final long GOOG = Symbols.pack("GOOG");
    private static final long AMZN = Symbols.pack("AMZN");

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

            whilePolling(RESTART_TIMEOUT, EXCHANGE::restartMdPublisher, sessions);
            assertThat(EXCHANGE.mdPublisher().getLogs()).contains("md-publisher: rebuilt the books of shard ")
                .contains("md-publisher: published the books rebuilt from the event archive: ");

            send(buySession, enter("B3", Ouch42.SIDE_BUY, 40, "MSFT", 49_0000), () -> buyer.accepted().size() == 3);
            final ItchRecorder late = new ItchRecorder();
            subscriber("md01", late);
            send(sellSession, enter("S3", Ouch42.SIDE_SELL, 10, "MSFT", 51_0000), () -> seller.accepted().size() == 3);

            final Map<Long, List<ItchRecorder.BookOrder>> engine = engineBooks(List.of(buyer, seller), AAPL, MSFT);
            assertThat(engine.get(AAPL)).extracting(ItchRecorder.BookOrder::shares).containsExactly(200L, 50L);
            assertThat(engine.get(MSFT)).extracting(ItchRecorder.BookOrder::shares).containsExactly(100L, 40L, 10L);
            awaitBooks(engine, Map.of("late subscriber", late), sessions);
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

    @Test
    void shouldGiveASubscriberOfARestartedFanoutTheEnginesBookOrderByOrder() throws Exception
    {
        final OuchRecorder buyer = new OuchRecorder();
        final OuchRecorder seller = new OuchRecorder();
        try
        {
            final SoupBinTcpTestClient buySession = trader("demo03", buyer);
            final SoupBinTcpTestClient sellSession = trader("demo04", seller);
            final ItchRecorder early = new ItchRecorder();
            final SoupBinTcpTestClient earlySession = subscriber("md01", early);
            send(buySession, enter("G1", Ouch42.SIDE_BUY, 100, "GOOG", 100_0000), () -> buyer.accepted().size() == 1);
            send(sellSession, enter("G2", Ouch42.SIDE_SELL, 300, "AMZN", 50_0000), () -> seller.accepted().size() == 1);
            send(sellSession, enter("G3", Ouch42.SIDE_SELL, 40, "GOOG", 100_0000),
                () -> seller.executed().size() == 1 && buyer.executed().size() == 1);
            final long amznOrder = seller.accepted().getFirst().orderReference();
            pollUntil(RESPONSE_TIMEOUT, "AMZN's order on the early subscriber's book",
                () -> hasOrder(early, AMZN, amznOrder), sessions);

            whilePolling(RESTART_TIMEOUT, EXCHANGE::restartFanout, sessions);
            pollUntil(RESPONSE_TIMEOUT, "the stopped fanout's End of Session to the early subscriber",
                earlySession::endOfSessionPacket, sessions);

            send(buySession, enter("G4", Ouch42.SIDE_BUY, 40, "AMZN", 49_0000), () -> buyer.accepted().size() == 2);
            final ItchRecorder late = new ItchRecorder();
            subscriber("md02", late);
            send(sellSession, enter("G5", Ouch42.SIDE_SELL, 10, "GOOG", 101_0000), () -> seller.accepted().size() == 3);

            final Map<Long, List<ItchRecorder.BookOrder>> engine = engineBooks(List.of(buyer, seller), GOOG, AMZN);
            assertThat(engine.get(GOOG)).extracting(ItchRecorder.BookOrder::shares).containsExactly(60L, 10L);
            assertThat(engine.get(AMZN)).extracting(ItchRecorder.BookOrder::shares).containsExactly(300L, 40L);
            awaitBooks(engine, Map.of("late subscriber", late), sessions);
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

    private SoupBinTcpTestClient subscriber(final String username, final ItchRecorder recorder) throws IOException
    {
        final SoupBinTcpTestClient session = SoupBinTcpTestClient.login(
            ExchangeContainers.ITCH_PORT, username, username + "pw", 0, recorder);
        sessions.add(session);
        session.awaitLoginAnswer(RESPONSE_TIMEOUT);
        assertThat(session.loginAccepted()).as("login accepted for " + username).isTrue();
        return session;
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
