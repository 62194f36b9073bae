package io.bourse.it;

import com.paritytrading.juncture.nasdaq.itch50.ITCH50;
import com.paritytrading.nassau.moldudp64.MoldUDP64ClientState;
import io.bourse.common.config.Symbols;
import io.bourse.ouch.Ouch42;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import static io.bourse.it.SoupBinTcpTestClient.pollUntil;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Market data of the exchange in containers ({@link ExchangeContainers}) against the engine's own account of its book:
 * an ITCH 5.0 subscriber of the fanout that joins mid-stream (SoupBinTCP snapshot, then increments) ends with the book
 * that the traders' OUCH 4.2 answers describe, as does a subscriber that was there from the start; and a MoldUDP64
 * receiver that joins the md-publisher's multicast group late gets, by re-request, every message from Sequence Number
 * 1, the same bytes in the same order as the fanout's subscriber. The subscriber from the start logs in before any
 * order of the class, so its snapshot is empty. Needs Docker and multicast on the loopback (host networking).
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
final class MarketDataIT
{
    private static final int OUCH_PORT = ExchangeContainers.OUCH_PORT;
    private static final int ITCH_PORT = ExchangeContainers.ITCH_PORT;
    private static final Duration RESPONSE_TIMEOUT = Duration.ofSeconds(20);
    /** Symbols of the default symbol directory, which the containers use. */
    private static final int SYMBOLS = 4;
    private static final long AAPL = Symbols.pack("AAPL");
    private static final long MSFT = Symbols.pack("MSFT");
    private static final long GOOG = Symbols.pack("GOOG");
    private static final long AMZN = Symbols.pack("AMZN");
    private static final long DAY = Ouch42.TIME_IN_FORCE_SYSTEM_HOURS;
    private static final long IOC = Ouch42.TIME_IN_FORCE_IMMEDIATE_OR_CANCEL;

    @RegisterExtension
    static final ExchangeContainers EXCHANGE = ExchangeContainers.withMarketData();

    private static ItchRecorder fromStart;
    private static SoupBinTcpTestClient fromStartSession;

    private final List<SoupBinTcpTestClient> sessions = new ArrayList<>();

    @BeforeAll
    static void logInTheSubscriberFromTheStart() throws IOException
    {
        fromStart = new ItchRecorder();
        fromStartSession = SoupBinTcpTestClient.login(ITCH_PORT, "md01", "md01pw", 0, fromStart);
        fromStartSession.awaitLoginAnswer(RESPONSE_TIMEOUT);
        assertThat(fromStartSession.loginAccepted()).as("login accepted").isTrue();
        pollUntil(RESPONSE_TIMEOUT, "the Stock Directory",
            () -> count(fromStart, ITCH50.MESSAGE_TYPE_STOCK_DIRECTORY) == SYMBOLS, List.of(fromStartSession));
    }

    @AfterAll
    static void logOut() throws IOException
    {
        if (null != fromStartSession)
        {
            fromStartSession.close();
        }
    }

    @Test
    void shouldGiveASubscriberJoiningMidStreamTheEnginesBookOrderByOrder() throws IOException
    {
        final OuchRecorder buyer = new OuchRecorder();
        final OuchRecorder seller = new OuchRecorder();
        try
        {
            final SoupBinTcpTestClient buySession = trader("demo01", buyer);
            final SoupBinTcpTestClient sellSession = trader("demo02", seller);
            // Before the late subscriber: resting orders, a trade that fills one and leaves another's remainder, a
            // partial cancel, an immediate-or-cancel order filled at once, a whole cancel and a replace.
            send(buySession, enter("A1", Ouch42.SIDE_BUY, 100, "AAPL", 100_0000), () -> buyer.accepted().size() == 1);
            // A2 attributable: ITCH Add Order with MPID Attribution, kept through its replace.
            send(buySession, OuchMessages.enterOrder("A2", Ouch42.SIDE_BUY, 200, "AAPL", 99_9000, DAY,
                Ouch42.DISPLAY_ATTRIBUTABLE), () -> buyer.accepted().size() == 2);
            send(buySession, enter("A3", Ouch42.SIDE_BUY, 300, "AAPL", 99_8000), () -> buyer.accepted().size() == 3);
            send(sellSession, enter("S1", Ouch42.SIDE_SELL, 150, "AAPL", 100_1000),
                () -> seller.accepted().size() == 1);
            send(sellSession, enter("S2", Ouch42.SIDE_SELL, 100, "AAPL", 100_2000),
                () -> seller.accepted().size() == 2);
            send(sellSession, enter("S3", Ouch42.SIDE_SELL, 150, "AAPL", 100_0000),
                () -> seller.executed().size() == 1 && buyer.executed().size() == 1);
            send(buySession, OuchMessages.cancelOrder("A3", 100), () -> buyer.canceled().size() == 1);
            send(sellSession, enter("M1", Ouch42.SIDE_SELL, 100, "MSFT", 50_0000), () -> seller.accepted().size() == 4);
            send(buySession, OuchMessages.enterOrder("M2", Ouch42.SIDE_BUY, 40, "MSFT", 50_0000, IOC),
                () -> buyer.executed().size() == 2 && seller.executed().size() == 2);
            send(sellSession, OuchMessages.cancelOrder("S2", 0), () -> seller.canceled().size() == 1);
            send(buySession, OuchMessages.replaceOrder("A2", "A2R", 250, 99_9500, Ouch42.DISPLAY_ATTRIBUTABLE),
                () -> buyer.replaced().size() == 1);
            // The fanout has the replace (the subscriber from the start has it) before the late subscriber's snapshot.
            final long a2r = buyer.replaced().getFirst().orderReference();
            pollUntil(RESPONSE_TIMEOUT, "A2's replacement on the subscriber from the start",
                () -> hasOrder(fromStart, AAPL, a2r), sessions);

            final ItchRecorder late = new ItchRecorder();
            final SoupBinTcpTestClient lateSession = open(SoupBinTcpTestClient.login(ITCH_PORT, "md02", "md02pw", 0,
                late));
            lateSession.awaitLoginAnswer(RESPONSE_TIMEOUT);
            assertThat(lateSession.loginAccepted()).as("late login accepted").isTrue();

            // After it: trades against the remainder and the replacement, a new order, a replace and a cancel.
            send(buySession, enter("A4", Ouch42.SIDE_BUY, 50, "AAPL", 100_0000),
                () -> buyer.executed().size() == 3 && seller.executed().size() == 3);
            send(sellSession, enter("S4", Ouch42.SIDE_SELL, 100, "AAPL", 99_9500),
                () -> buyer.executed().size() == 4 && seller.executed().size() == 4);
            send(sellSession, enter("M3", Ouch42.SIDE_SELL, 30, "MSFT", 50_1000), () -> seller.accepted().size() == 6);
            send(buySession, OuchMessages.replaceOrder("A3", "A3R", 120, 99_8500), () -> buyer.replaced().size() == 2);
            send(sellSession, OuchMessages.cancelOrder("M1", 20), () -> seller.canceled().size() == 2);
            send(buySession, OuchMessages.enterOrder("A5", Ouch42.SIDE_BUY, 10, "MSFT", 49_0000, DAY,
                Ouch42.DISPLAY_ATTRIBUTABLE), () -> buyer.accepted().size() == 6);
            final long lastOrder = buyer.accepted().getLast().orderReference();

            final Map<Long, List<ItchRecorder.BookOrder>> engine = engineBooks(List.of(buyer, seller), AAPL, MSFT);
            assertThat(engine.get(AAPL)).extracting(ItchRecorder.BookOrder::shares).containsExactly(150L, 150L, 120L);
            assertThat(engine.get(MSFT)).extracting(ItchRecorder.BookOrder::shares).containsExactly(20L, 30L, 10L);
            awaitBooks(engine, Map.of("late subscriber", late, "subscriber from the start", fromStart), sessions);
            // The user's firm as Attribution: A2 live and A5 for the subscriber from the start; A2's replacement in
            // the late subscriber's snapshot, then A5.
            final long a2 = buyer.accepted().get(1).orderReference();
            assertThat(fromStart.attributedOrders()).containsExactly(
                new ItchRecorder.AttributedOrder(a2, "DEMO"), new ItchRecorder.AttributedOrder(lastOrder, "DEMO"));
            assertThat(late.attributedOrders()).containsExactly(
                new ItchRecorder.AttributedOrder(a2r, "DEMO"), new ItchRecorder.AttributedOrder(lastOrder, "DEMO"));
            assertThat(buyer.rejected()).isEmpty();
            assertThat(seller.rejected()).isEmpty();
        }
        finally
        {
            closeSessions();
        }
    }

    @Test
    void shouldBackfillALateMoldUdp64JoinerFromSequenceNumberOneWithTheFanoutsMessages() throws IOException
    {
        final OuchRecorder buyer = new OuchRecorder();
        final OuchRecorder seller = new OuchRecorder();
        final ItchRecorder mold = new ItchRecorder();
        try
        {
            final SoupBinTcpTestClient buySession = trader("demo03", buyer);
            final SoupBinTcpTestClient sellSession = trader("demo04", seller);
            send(buySession, enter("G1", Ouch42.SIDE_BUY, 100, "GOOG", 150_0000), () -> buyer.accepted().size() == 1);
            send(sellSession, enter("G2", Ouch42.SIDE_SELL, 60, "GOOG", 150_0000),
                () -> seller.executed().size() == 1);
            send(buySession, OuchMessages.cancelOrder("G1", 0), () -> buyer.canceled().size() == 1);

            try (MoldUdp64TestClient moldClient = MoldUdp64TestClient.join(mold))
            {
                send(sellSession, enter("Z1", Ouch42.SIDE_SELL, 200, "AMZN", 180_0000),
                    () -> seller.accepted().size() == 2);
                send(buySession, enter("Z2", Ouch42.SIDE_BUY, 50, "AMZN", 180_0000),
                    () -> buyer.executed().size() == 1);
                send(sellSession, OuchMessages.replaceOrder("Z1", "Z1R", 100, 181_0000),
                    () -> seller.replaced().size() == 1);
                send(buySession, enter("G3", Ouch42.SIDE_BUY, 10, "GOOG", 140_0000),
                    () -> buyer.accepted().size() == 3);
                // GOOG's and AMZN's shards reach the md-publisher on streams of their own, in either order: wait for
                // the last order of each.
                final long lastOrder = buyer.accepted().getLast().orderReference();
                final long lastAmznOrder = seller.replaced().getLast().orderReference();
                pollUntil(RESPONSE_TIMEOUT, "the last orders on the fanout's subscriber",
                    () -> hasOrder(fromStart, GOOG, lastOrder) && hasOrder(fromStart, AMZN, lastAmznOrder), sessions);
                pollUntil(RESPONSE_TIMEOUT, "the MoldUDP64 receiver to catch up with the fanout's subscriber",
                    () -> poll(moldClient) && hasOrder(mold, GOOG, lastOrder) && hasOrder(mold, AMZN, lastAmznOrder) &&
                        !moldClient.states().isEmpty() &&
                        moldClient.states().getLast() == MoldUDP64ClientState.SYNCHRONIZED, sessions);

                assertThat(moldClient.states().getFirst()).isEqualTo(MoldUDP64ClientState.BACKFILL);
                assertThat(moldClient.requests().getFirst().sequenceNumber()).isEqualTo(1);
                assertThat(moldClient.nextSequenceNumber()).isEqualTo(mold.messages().size() + 1);
            }
            final List<String> moldMessages = hex(mold.messages());
            assertThat(moldMessages.getFirst()).startsWith("53").endsWith("4f"); // System Event 'O' Start of Messages
            assertThat(moldMessages.subList(1, 1 + SYMBOLS)).allMatch((message) -> message.startsWith("52"));
            // The Trading Action spin: Stock Trading Action 'H', Trading State 'T' (byte 19), for every symbol.
            assertThat(moldMessages.subList(1 + SYMBOLS, 1 + 2 * SYMBOLS))
                .allMatch((message) -> message.startsWith("48") && "54".equals(message.substring(38, 40)));
            // System Events 'S' Start of System Hours, 'Q' Start of Market Hours.
            assertThat(moldMessages.subList(1 + 2 * SYMBOLS, 3 + 2 * SYMBOLS)).satisfiesExactly(
                (message) -> assertThat(message).startsWith("53").endsWith("53"),
                (message) -> assertThat(message).startsWith("53").endsWith("51"));
            assertThat(count(mold, ITCH50.MESSAGE_TYPE_ADD_ORDER)).isGreaterThanOrEqualTo(4);
            assertThat(withoutSessionOpening(moldMessages)).isEqualTo(withoutSessionOpening(hex(fromStart.messages())));
        }
        finally
        {
            closeSessions();
        }
    }

    private SoupBinTcpTestClient trader(final String username, final OuchRecorder recorder) throws IOException
    {
        final SoupBinTcpTestClient session = SoupBinTcpTestClient.login(
            OUCH_PORT, username, username + "pw", 1, recorder);
        session.awaitLoginAnswer(RESPONSE_TIMEOUT);
        assertThat(session.loginAccepted()).as("login accepted for " + username).isTrue();
        sessions.add(session);
        if (!sessions.contains(fromStartSession))
        {
            sessions.add(fromStartSession);
        }
        return session;
    }

    private SoupBinTcpTestClient open(final SoupBinTcpTestClient session)
    {
        sessions.add(session);
        return session;
    }

    private void closeSessions() throws IOException
    {
        for (final SoupBinTcpTestClient session : sessions)
        {
            if (session != fromStartSession)
            {
                session.close();
            }
        }
        sessions.clear();
    }

    /** Sends one OUCH message, then polls every session (the subscribers' too) until its answer has come. */
    private void send(final SoupBinTcpTestClient session, final ByteBuffer message, final BooleanSupplier answered)
        throws IOException
    {
        session.send(message);
        pollUntil(RESPONSE_TIMEOUT, "the answer to OUCH '" + (char)message.get(0) + "'", answered, sessions);
    }

    static ByteBuffer enter(
        final String token, final byte side, final long shares, final String stock, final long price)
    {
        return OuchMessages.enterOrder(token, side, shares, stock, price, DAY);
    }

    /**
     * The engine's book by its own answers: each Accepted order rests with its shares, less its Executed and
     * Canceled shares; a Replaced order takes the place of the one it replaced with its own shares, price and Order
     * Reference Number (if live). Answers are applied in each session's arrival order.
     */
    static Map<Long, List<ItchRecorder.BookOrder>> engineBooks(
        final List<OuchRecorder> traders, final long... stocks)
    {
        final List<ItchRecorder.BookOrder> resting = new ArrayList<>();
        for (final OuchRecorder trader : traders)
        {
            final Map<String, ItchRecorder.BookOrder> byToken = new LinkedHashMap<>();
            for (final Record answer : trader.answers())
            {
                switch (answer)
                {
                    case OuchRecorder.Accepted accepted -> byToken.put(accepted.token(), new ItchRecorder.BookOrder(
                        accepted.orderReference(), accepted.side(), accepted.shares(), accepted.stock(),
                        accepted.price()));
                    case OuchRecorder.Executed executed -> reduce(byToken, executed.token(), executed.shares());
                    case OuchRecorder.Canceled canceled ->
                        reduce(byToken, canceled.token(), canceled.decrementShares());
                    case OuchRecorder.Replaced replaced ->
                    {
                        final ItchRecorder.BookOrder previous = byToken.remove(replaced.previousToken());
                        if (null != previous && Ouch42.ORDER_STATE_LIVE == replaced.orderState())
                        {
                            byToken.put(replaced.token(), new ItchRecorder.BookOrder(replaced.orderReference(),
                                previous.side(), replaced.shares(), previous.stock(), replaced.price()));
                        }
                    }
                    default ->
                    {
                        // Rejected: never in the book
                    }
                }
            }
            resting.addAll(byToken.values());
        }
        final Map<Long, List<ItchRecorder.BookOrder>> books = new LinkedHashMap<>();
        for (final long stock : stocks)
        {
            books.put(stock, resting.stream()
                .filter((order) -> order.stock() == stock)
                .sorted(Comparator.comparingLong(ItchRecorder.BookOrder::orderReference))
                .toList());
        }
        return books;
    }

    private static void reduce(
        final Map<String, ItchRecorder.BookOrder> byToken, final String token, final long shares)
    {
        final ItchRecorder.BookOrder order = byToken.get(token);
        if (null != order && order.shares() > shares)
        {
            byToken.put(token, new ItchRecorder.BookOrder(
                order.orderReference(), order.side(), order.shares() - shares, order.stock(), order.price()));
        }
        else
        {
            byToken.remove(token);
        }
    }

    /**
     * Polls the sessions until every subscriber's books of the engine's symbols are the engine's, then asserts that
     * they are: the two shards' events reach the fanout on their own streams, so one symbol's last event on a book
     * says nothing of another's. A subscriber whose books never match fails with its books and the types of the ITCH
     * messages it received, in arrival order.
     *
     * @param engine      the engine's books by packed symbol ({@link #engineBooks}).
     * @param subscribers the subscribers' recorders by a name for the failure message.
     * @param sessions    the sessions to read meanwhile.
     * @throws IOException when a session fails.
     */
    static void awaitBooks(
        final Map<Long, List<ItchRecorder.BookOrder>> engine, final Map<String, ItchRecorder> subscribers,
        final List<SoupBinTcpTestClient> sessions) throws IOException
    {
        final long[] stocks = engine.keySet().stream().mapToLong(Long::longValue).toArray();
        try
        {
            pollUntil(RESPONSE_TIMEOUT, "every subscriber's books to be the engine's",
                () -> subscribers.values().stream().allMatch((itch) -> books(itch, stocks).equals(engine)), sessions);
        }
        catch (final AssertionError timedOut)
        {
            // The assertions below show which books differ, and how.
        }
        subscribers.forEach((name, itch) -> assertThat(books(itch, stocks))
            .as(() -> name + "'s books; ITCH message types received: " + messageTypes(itch))
            .isEqualTo(engine));
    }

    private static String messageTypes(final ItchRecorder itch)
    {
        final StringBuilder types = new StringBuilder();
        itch.messages().forEach((message) -> types.append((char)message[0]));
        return types.toString();
    }

    static Map<Long, List<ItchRecorder.BookOrder>> books(final ItchRecorder itch, final long... stocks)
    {
        final Map<Long, List<ItchRecorder.BookOrder>> books = new LinkedHashMap<>();
        for (final long stock : stocks)
        {
            books.put(stock, itch.book(stock));
        }
        return books;
    }

    static boolean hasOrder(final ItchRecorder itch, final long stock, final long orderReference)
    {
        return itch.book(stock).stream().anyMatch((order) -> order.orderReference() == orderReference);
    }

    private static long count(final ItchRecorder itch, final byte messageType)
    {
        return itch.messages().stream().filter((message) -> message[0] == messageType).count();
    }

    private static boolean poll(final MoldUdp64TestClient client)
    {
        try
        {
            client.poll();
            return true;
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }

    private static List<String> hex(final List<byte[]> messages)
    {
        return messages.stream().map(HexFormat.of()::formatHex).toList();
    }

    /**
     * @return the messages without System Event, Stock Directory and Stock Trading Action, which each feed sends with
     * its own session's opening time (the fanout with its snapshot, where each symbol's Stock Trading Action carries
     * the fanout's start as no operator changes a trading state in these tests; its Add Orders are none for a
     * subscriber from the start).
     */
    private static List<String> withoutSessionOpening(final List<String> messages)
    {
        return messages.stream()
            .filter((message) -> !message.startsWith("53") && !message.startsWith("52") && !message.startsWith("48"))
            .toList();
    }
}
