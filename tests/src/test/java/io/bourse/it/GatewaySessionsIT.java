package io.bourse.it;

import com.paritytrading.nassau.soupbintcp.SoupBinTCP;
import io.bourse.common.config.Symbols;
import io.bourse.ouch.Ouch42;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.IntStream;

import static io.bourse.it.SoupBinTcpTestClient.pollUntil;
import static io.bourse.it.SoupBinTcpTestClient.whilePolling;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The order gateway's SoupBinTCP session guarantees, on the real services in containers ({@link ExchangeContainers}:
 * media driver, both engine shards, order gateway with its journal on a Docker volume): replay from the journal,
 * byte for byte, after a reconnect and after a gateway restart, with the engine's answers the stopped gateway could not
 * hear (replayed from the event archive in the media driver); cancel on disconnect; the end of a client that sends
 * no heartbeats, kept alive meanwhile by the server's; Login Rejected 'S' for a second login of a logged-in user and
 * for a session other than today's, 'A' for a wrong password, none of which the logged-in session notices; a flood
 * of garbage connections that a session trading meanwhile does not notice. The tests trade in
 * different symbols with different users (deploy/credentials.csv; cancel on disconnect and risk limits per user in
 * deploy/gateway-risk.csv), so that none sees another's orders.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
final class GatewaySessionsIT
{
    private static final int OUCH_PORT = ExchangeContainers.OUCH_PORT;
    private static final Duration RESPONSE_TIMEOUT = Duration.ofSeconds(20);
    private static final Duration RESTART_TIMEOUT = Duration.ofSeconds(120);
    private static final long SHARES = 100;
    private static final String CANCEL_ON_DISCONNECT_TOTAL = "bourse_gateway_cancel_on_disconnect_total";
    private static final String ERRORS_TOTAL = "bourse_gateway_errors_total";

    @RegisterExtension
    static final ExchangeContainers EXCHANGE = ExchangeContainers.orderEntryOnly();

    @Test
    void shouldReplayJournaledMessagesByteForByteThenLiveOnesWhenUserLogsInAgainWithRequestedSequenceNumber()
        throws IOException
    {
        // trdr02 has cancel on disconnect off: its orders stay open between its sessions.
        final OuchRecorder first = new OuchRecorder();
        try (SoupBinTcpTestClient session = loginAccepted("trdr02", 1, first))
        {
            for (int i = 1; i <= 3; i++)
            {
                session.send(dayBuy("R" + i, "MSFT", 5_000 + i));
            }
            pollUntil(RESPONSE_TIMEOUT, "3 Accepted", () -> 3 == first.accepted().size(), List.of(session));
            session.logoutAndAwaitClose(RESPONSE_TIMEOUT);
        }
        assertThat(first.accepted()).extracting(OuchRecorder.Accepted::token).containsExactly("R1", "R2", "R3");
        assertThat(first.messages()).as("System Event and 3 Accepted").hasSize(4);

        final OuchRecorder fromOne = new OuchRecorder();
        try (SoupBinTcpTestClient session = loginAccepted("trdr02", 1, fromOne))
        {
            assertThat(session.loginAcceptedSequenceNumber()).isEqualTo(1);
            pollUntil(RESPONSE_TIMEOUT, "the replay", () -> fromOne.messages().size() >= 4, List.of(session));
            session.send(OuchMessages.cancelOrder("R1", 0));
            pollUntil(RESPONSE_TIMEOUT, "Canceled", () -> !fromOne.canceled().isEmpty(), List.of(session));
            session.logoutAndAwaitClose(RESPONSE_TIMEOUT);
        }
        assertThat(fromOne.messages()).hasSize(5);
        assertThat(fromOne.messages().subList(0, 4)).containsExactlyElementsOf(first.messages());
        assertThat(fromOne.canceled()).containsExactly(
            new OuchRecorder.Canceled("R1", SHARES, Ouch42.CANCEL_USER_REQUESTED));

        final OuchRecorder fromThree = new OuchRecorder();
        try (SoupBinTcpTestClient session = loginAccepted("trdr02", 3, fromThree))
        {
            assertThat(session.loginAcceptedSequenceNumber()).isEqualTo(3);
            pollUntil(RESPONSE_TIMEOUT, "the replay from 3", () -> fromThree.messages().size() >= 3, List.of(session));
            session.logoutAndAwaitClose(RESPONSE_TIMEOUT);
        }
        assertThat(fromThree.messages()).containsExactlyElementsOf(fromOne.messages().subList(2, 5));

        final OuchRecorder liveOnly = new OuchRecorder();
        try (SoupBinTcpTestClient session = loginAccepted("trdr02", 0, liveOnly))
        {
            assertThat(session.loginAcceptedSequenceNumber()).isEqualTo(6);
            session.send(OuchMessages.cancelOrder("R2", 0));
            pollUntil(RESPONSE_TIMEOUT, "Canceled", () -> !liveOnly.canceled().isEmpty(), List.of(session));
            session.logoutAndAwaitClose(RESPONSE_TIMEOUT);
        }
        assertThat(liveOnly.messages()).as("no replay for requested sequence number 0").hasSize(1);
        assertThat(liveOnly.canceled()).containsExactly(
            new OuchRecorder.Canceled("R2", SHARES, Ouch42.CANCEL_USER_REQUESTED));
    }

    @Test
    @Timeout(value = 180, unit = TimeUnit.SECONDS)
    void shouldReplayJournaledMessagesByteForByteWhenUserLogsInAfterGatewayRestart() throws IOException
    {
        final String stoppedGateway = EXCHANGE.gateway().getContainerId();
        final OuchRecorder before = new OuchRecorder();
        try (SoupBinTcpTestClient session = loginAccepted("demo03", 1, before))
        {
            for (int i = 1; i <= 3; i++)
            {
                session.send(dayBuy("G" + i, "GOOG", 8_000 + i));
            }
            pollUntil(RESPONSE_TIMEOUT, "3 Accepted", () -> 3 == before.accepted().size(), List.of(session));

            EXCHANGE.restartGateway();

            pollUntil(RESPONSE_TIMEOUT, "the stopped gateway's close", session::endOfSession, List.of(session));
            assertThat(session.endOfSessionPacket()).as("no End of Session: the session goes on after the restart")
                .isFalse();
        }
        assertThat(EXCHANGE.gateway().getContainerId()).isNotEqualTo(stoppedGateway);
        assertThat(before.messages()).as("System Event and 3 Accepted").hasSize(4);

        final OuchRecorder after = new OuchRecorder();
        try (SoupBinTcpTestClient session = loginAccepted("demo03", 1, after))
        {
            assertThat(session.loginAcceptedSequenceNumber()).isEqualTo(1);
            pollUntil(RESPONSE_TIMEOUT, "the replay", () -> after.messages().size() >= 4, List.of(session));
            session.send(dayBuy("G4", "GOOG", 8_004));
            pollUntil(RESPONSE_TIMEOUT, "Accepted", () -> 4 == after.accepted().size(), List.of(session));
            session.logoutAndAwaitClose(RESPONSE_TIMEOUT);
        }
        // The stopped gateway canceled G1..G3 on disconnect but could not hear the engine's answers; the restarted
        // gateway, which rebuilt them from the journal, replays those events from the event archive and journals the
        // Canceled messages before the login (the stopping gateway sends the cancels in no particular order).
        assertThat(after.canceled()).containsExactlyInAnyOrder(
            new OuchRecorder.Canceled("G1", SHARES, Ouch42.CANCEL_USER_REQUESTED),
            new OuchRecorder.Canceled("G2", SHARES, Ouch42.CANCEL_USER_REQUESTED),
            new OuchRecorder.Canceled("G3", SHARES, Ouch42.CANCEL_USER_REQUESTED));
        assertThat(after.messages()).hasSize(8);
        assertThat(after.messages().subList(0, 4)).containsExactlyElementsOf(before.messages());
        final OuchRecorder.Accepted live = after.accepted().getLast();
        assertThat(live).isEqualTo(new OuchRecorder.Accepted("G4", Ouch42.SIDE_BUY, SHARES, Symbols.pack("GOOG"),
            price(8_004), live.orderReference()));
        assertThat(before.accepted()).extracting(OuchRecorder.Accepted::orderReference)
            .doesNotContain(live.orderReference());
        assertThat(after.rejected()).isEmpty();

        // From a sequence number past the first, the restarted gateway's journal index finds the same messages.
        final OuchRecorder fromThree = new OuchRecorder();
        try (SoupBinTcpTestClient session = loginAccepted("demo03", 3, fromThree))
        {
            assertThat(session.loginAcceptedSequenceNumber()).isEqualTo(3);
            pollUntil(RESPONSE_TIMEOUT, "the replay from 3", () -> fromThree.messages().size() >= 6, List.of(session));
            session.logoutAndAwaitClose(RESPONSE_TIMEOUT);
        }
        // Then the Canceled of G4 (cancel on disconnect at the logout above), which may come before this logout.
        assertThat(fromThree.messages().subList(0, 6)).containsExactlyElementsOf(after.messages().subList(2, 8));
    }

    /**
     * An engine shard restarts (SIGTERM, then a new container) while a day order rests on it: the shard recovers its
     * books from the event archive's recordings of its runs, so the order trades afterwards under its order reference
     * number, and the shard's next order reference and match numbers follow the earlier run's.
     */
    @Test
    @Timeout(value = 180, unit = TimeUnit.SECONDS)
    void shouldKeepARestingOrderAndItsOrderReferenceWhenItsEngineShardRestarts() throws Exception
    {
        assertRestingOrderTradesAfter(() -> EXCHANGE.restartEngine(0), "K", 8_100);
    }

    /**
     * As above, but the shard's container is killed (SIGKILL): it closes nothing, and its run's stream is left to the
     * media driver, which times the dead client out (10 s) and only then ends the run's recording, which the new
     * container's recovery waits for.
     */
    @Test
    @Timeout(value = 180, unit = TimeUnit.SECONDS)
    void shouldKeepARestingOrderAndItsOrderReferenceWhenItsEngineShardIsKilled() throws Exception
    {
        assertRestingOrderTradesAfter(() -> EXCHANGE.killEngine(0), "L", 8_200);
    }

    /**
     * A day buy of GOOG (engine shard 0) rests, the restart runs, then a sell at its price must take it whole.
     *
     * @param restart    restarts shard 0 somehow, returning once the new container is ready.
     * @param tokenStem  the buy's token is the stem and 1, the sell's the stem and 2.
     * @param priceCents the price, in cents, above every other GOOG bid of this class's tests.
     */
    private static void assertRestingOrderTradesAfter(
        final Runnable restart, final String tokenStem, final long priceCents) throws Exception
    {
        final OuchRecorder maker = new OuchRecorder();
        final OuchRecorder taker = new OuchRecorder();
        try (SoupBinTcpTestClient buyer = loginAccepted("md01", 0, maker);
            SoupBinTcpTestClient seller = loginAccepted("trdr01", 0, taker))
        {
            final List<SoupBinTcpTestClient> sessions = List.of(buyer, seller);
            buyer.send(dayBuy(tokenStem + 1, "GOOG", priceCents));
            pollUntil(RESPONSE_TIMEOUT, "Accepted", () -> 1 == maker.accepted().size(), sessions);

            whilePolling(RESTART_TIMEOUT, restart, sessions);

            seller.send(OuchMessages.enterOrder(tokenStem + 2, Ouch42.SIDE_SELL, SHARES, "GOOG", price(priceCents),
                Ouch42.TIME_IN_FORCE_SYSTEM_HOURS));
            pollUntil(RESPONSE_TIMEOUT, "both Executed",
                () -> 1 == maker.executed().size() && 1 == taker.executed().size(), sessions);
            buyer.logoutAndAwaitClose(RESPONSE_TIMEOUT);
            seller.logoutAndAwaitClose(RESPONSE_TIMEOUT);
        }
        final OuchRecorder.Executed made = maker.executed().getFirst();
        assertThat(made).isEqualTo(new OuchRecorder.Executed(tokenStem + 1, SHARES, price(priceCents),
            Ouch42.LIQUIDITY_ADDED, made.matchNumber()));
        assertThat(taker.executed()).containsExactly(new OuchRecorder.Executed(tokenStem + 2, SHARES,
            price(priceCents), Ouch42.LIQUIDITY_REMOVED, made.matchNumber()));
        assertThat(taker.accepted().getFirst().orderReference())
            .as("the restarted shard's next order reference number")
            .isGreaterThan(maker.accepted().getFirst().orderReference());
        assertThat(maker.canceled()).isEmpty();
        assertThat(taker.rejected()).isEmpty();
    }

    @Test
    void shouldCancelOpenOrdersAndJournalTheCancelWhenConnectionDropsWithoutLogout()
        throws IOException, InterruptedException
    {
        final OuchRecorder dropped = new OuchRecorder();
        try (SoupBinTcpTestClient session = loginAccepted("demo01", 1, dropped))
        {
            session.send(dayBuy("C1", "AAPL", 10_000));
            pollUntil(RESPONSE_TIMEOUT, "Accepted", () -> !dropped.accepted().isEmpty(), List.of(session));
            final double cancelsBefore = EXCHANGE.gatewayMetric(CANCEL_ON_DISCONNECT_TOTAL);

            session.disconnect();

            // The gateway has sent the engine the cancel once it counts it; an order it receives later comes after.
            awaitGatewayMetricAtLeast(CANCEL_ON_DISCONNECT_TOTAL, cancelsBefore + 1);
        }

        // Same price, opposite side: it would take the dropped session's order, were that still in the book.
        final OuchRecorder taker = new OuchRecorder();
        try (SoupBinTcpTestClient session = loginAccepted("demo02", 1, taker))
        {
            session.send(OuchMessages.enterOrder("T1", Ouch42.SIDE_SELL, SHARES, "AAPL", price(10_000),
                Ouch42.TIME_IN_FORCE_IMMEDIATE_OR_CANCEL));
            pollUntil(RESPONSE_TIMEOUT, "the immediate-or-cancel order done: Executed or Canceled",
                () -> !taker.executed().isEmpty() || !taker.canceled().isEmpty(), List.of(session));
            session.logoutAndAwaitClose(RESPONSE_TIMEOUT);
        }
        assertThat(taker.executed()).as("executions against the dropped session's order").isEmpty();
        assertThat(taker.accepted()).extracting(OuchRecorder.Accepted::token).containsExactly("T1");
        assertThat(taker.canceled()).containsExactly(
            new OuchRecorder.Canceled("T1", SHARES, Ouch42.CANCEL_IMMEDIATE_OR_CANCEL));

        final OuchRecorder again = new OuchRecorder();
        try (SoupBinTcpTestClient session = loginAccepted("demo01", 1, again))
        {
            pollUntil(RESPONSE_TIMEOUT, "the replayed Canceled", () -> !again.canceled().isEmpty(), List.of(session));
            session.logoutAndAwaitClose(RESPONSE_TIMEOUT);
        }
        assertThat(again.messages()).hasSize(dropped.messages().size() + 1);
        assertThat(again.messages().subList(0, dropped.messages().size()))
            .containsExactlyElementsOf(dropped.messages());
        assertThat(again.canceled()).containsExactly(
            new OuchRecorder.Canceled("C1", SHARES, Ouch42.CANCEL_USER_REQUESTED));
        assertThat(again.executed()).isEmpty();
    }

    @Test
    @Timeout(value = 45, unit = TimeUnit.SECONDS)
    void shouldCloseSessionAfterFifteenSecondsWhenClientSendsNoHeartbeats() throws IOException
    {
        final long loginNs = System.nanoTime();
        final long silentNs;
        final List<Long> arrivalsNs;
        try (SoupBinTcpTestClient silent = SoupBinTcpTestClient.login(OUCH_PORT, "trdr01", "trdr01pw", 0,
            new OuchRecorder()))
        {
            arrivalsNs = silent.awaitCloseWithoutSending(Duration.ofSeconds(30));
            silentNs = System.nanoTime() - loginNs;
            assertThat(silent.loginAccepted()).as("login accepted").isTrue();
        }
        // 15 s after the Login Request, the last packet the client sent; a duty cycle and a read later at most.
        assertThat(Duration.ofNanos(silentNs)).isBetween(Duration.ofMillis(14_900), Duration.ofSeconds(17));
        // The server kept the link alive meanwhile: a Server Heartbeat after each second without a packet.
        assertThat(arrivalsNs).as("reads that got packets").hasSizeGreaterThanOrEqualTo(10);
        for (int i = 1; i < arrivalsNs.size(); i++)
        {
            assertThat(Duration.ofNanos(arrivalsNs.get(i) - arrivalsNs.get(i - 1)))
                .as("time between two packets from the server").isLessThan(Duration.ofMillis(2_500));
        }

        try (SoupBinTcpTestClient session = loginAccepted("trdr01", 0, new OuchRecorder()))
        {
            session.logoutAndAwaitClose(RESPONSE_TIMEOUT);
        }
    }

    @Test
    void shouldRejectWithSessionNotAvailableASecondLoginOfALoggedInUserAndASessionOtherThanTodaysWhileTheFirstTrades()
        throws IOException
    {
        final OuchRecorder trader = new OuchRecorder();
        try (SoupBinTcpTestClient session = loginAccepted("md02", 0, trader))
        {
            final String today;
            try (SoupBinTcpTestClient second =
                SoupBinTcpTestClient.login(OUCH_PORT, "md02", "md02pw", 0, new OuchRecorder()))
            {
                second.awaitLoginAnswer(RESPONSE_TIMEOUT);
                assertThat(second.loginAccepted()).as("second login accepted").isFalse();
                assertThat(second.loginRejectReason()).isEqualTo(SoupBinTCP.LOGIN_REJECT_CODE_SESSION_NOT_AVAILABLE);
                today = session.loginAcceptedSession();
            }
            assertThat(today).as("today's session").isNotBlank().isNotEqualTo("0000000001");
            try (SoupBinTcpTestClient otherDay =
                SoupBinTcpTestClient.login(OUCH_PORT, "demo03", "demo03pw", "0000000001", 0, new OuchRecorder()))
            {
                otherDay.awaitLoginAnswer(RESPONSE_TIMEOUT);
                assertThat(otherDay.loginRejectReason()).as("a session other than today's")
                    .isEqualTo(SoupBinTCP.LOGIN_REJECT_CODE_SESSION_NOT_AVAILABLE);
            }
            try (SoupBinTcpTestClient wrongPassword =
                SoupBinTcpTestClient.login(OUCH_PORT, "md02", "wrongpw", 0, new OuchRecorder()))
            {
                wrongPassword.awaitLoginAnswer(RESPONSE_TIMEOUT);
                assertThat(wrongPassword.loginRejectReason()).isEqualTo(SoupBinTCP.LOGIN_REJECT_CODE_NOT_AUTHORIZED);
            }
            try (SoupBinTcpTestClient unknownUser =
                SoupBinTcpTestClient.login(OUCH_PORT, "nobody", "nobodypw", 0, new OuchRecorder()))
            {
                unknownUser.awaitLoginAnswer(RESPONSE_TIMEOUT);
                assertThat(unknownUser.loginRejectReason()).as("an unknown username")
                    .isEqualTo(SoupBinTCP.LOGIN_REJECT_CODE_NOT_AUTHORIZED);
            }
            // Today's session named in the Login Request is accepted: only other days' are not available.
            try (SoupBinTcpTestClient namedToday =
                SoupBinTcpTestClient.login(OUCH_PORT, "demo04", "demo04pw", today, 0, new OuchRecorder()))
            {
                namedToday.awaitLoginAnswer(RESPONSE_TIMEOUT);
                assertThat(namedToday.loginAccepted()).as("today's session named").isTrue();
                assertThat(namedToday.loginAcceptedSession()).isEqualTo(today);
                namedToday.logoutAndAwaitClose(RESPONSE_TIMEOUT);
            }

            session.send(dayBuy("S1", "MSFT", 3_000));
            pollUntil(RESPONSE_TIMEOUT, "an answer to S1",
                () -> !trader.accepted().isEmpty() || !trader.rejected().isEmpty(), List.of(session));
            assertThat(session.endOfSession()).as("first session ended").isFalse();
            session.logoutAndAwaitClose(RESPONSE_TIMEOUT);
        }
        assertThat(trader.rejected()).isEmpty();
        assertThat(trader.accepted()).extracting(OuchRecorder.Accepted::token).containsExactly("S1");
    }

    @Test
    void shouldAcceptEveryOrderOfOneSessionAndCloseEveryGarbageConnectionWhenOthersFloodTheGateway()
        throws IOException, InterruptedException
    {
        final double errorsBefore = EXCHANGE.gatewayMetric(ERRORS_TOTAL);
        final List<String> tokens = IntStream.rangeClosed(1, 200).mapToObj((i) -> "F" + i).toList();
        final OuchRecorder trader = new OuchRecorder();
        final GarbageFlood flood =
            new GarbageFlood(OUCH_PORT, "trdr01", "trdr01pw", Duration.ofSeconds(10), System.nanoTime());
        final int garbageWhileTrading;
        final long[] answerNs = new long[tokens.size()];
        try (flood; SoupBinTcpTestClient session = loginAccepted("demo04", 1, trader))
        {
            pollUntil(RESPONSE_TIMEOUT, "a round of every kind of garbage",
                () -> flood.connections() > GarbageFlood.Kind.values().length || !flood.failures().isEmpty(),
                List.of(session));
            final int connectionsBeforeOrders = flood.connections();
            for (int i = 0; i < tokens.size(); i++)
            {
                final int answers = i + 1;
                final long sentNs = System.nanoTime();
                session.send(dayBuy(tokens.get(i), "AMZN", 2_000 + i));
                pollUntil(RESPONSE_TIMEOUT, "an answer to " + tokens.get(i),
                    () -> trader.accepted().size() + trader.rejected().size() == answers, List.of(session));
                answerNs[i] = System.nanoTime() - sentNs;
            }
            garbageWhileTrading = flood.connections() - connectionsBeforeOrders;
            flood.close();
            session.logoutAndAwaitClose(RESPONSE_TIMEOUT);
        }

        assertThat(trader.rejected()).isEmpty();
        assertThat(trader.accepted()).extracting(OuchRecorder.Accepted::token).containsExactlyElementsOf(tokens);
        assertThat(garbageWhileTrading).as("garbage connections while the orders were entered").isPositive();
        // Trading normally: the orders do not wait on the garbage (an answer takes milliseconds; a gateway stalled by
        // each garbage connection for a while would still answer within the poll's timeout). The 90th percentile, so
        // that one GC pause or deschedule of this 2-core host does not decide.
        Arrays.sort(answerNs);
        assertThat(Duration.ofNanos(answerNs[answerNs.length * 9 / 10])).as("the 90th percentile answer")
            .isLessThan(Duration.ofSeconds(1));
        assertThat(flood.failures()).as(flood.toString()).isEmpty();
        assertThat(flood.closedByServer()).as(flood.toString()).isEqualTo(flood.connections());
        assertThat(EXCHANGE.gateway().isRunning()).as("gateway running").isTrue();
        assertThat(EXCHANGE.gatewayMetric(ERRORS_TOTAL) - errorsBefore).as("errors counted, " + flood)
            .isBetween((double)flood.alwaysCountedAsError(), (double)flood.connections());
    }

    /** Logs in, waits for the answer and requires Login Accepted. */
    private static SoupBinTcpTestClient loginAccepted(
        final String username, final long requestedSequence, final OuchRecorder recorder) throws IOException
    {
        final SoupBinTcpTestClient session =
            SoupBinTcpTestClient.login(OUCH_PORT, username, username + "pw", requestedSequence, recorder);
        try
        {
            session.awaitLoginAnswer(RESPONSE_TIMEOUT);
            assertThat(session.loginAccepted()).as("%s login accepted", username).isTrue();
            return session;
        }
        catch (final IOException | RuntimeException | AssertionError ex)
        {
            session.close();
            throw ex;
        }
    }

    /** OUCH 4.2 Enter Order: buy 100 shares, day order (system hours), at a price in cents. */
    private static ByteBuffer dayBuy(final String token, final String stock, final long cents)
    {
        return OuchMessages.enterOrder(token, Ouch42.SIDE_BUY, SHARES, stock, price(cents),
            Ouch42.TIME_IN_FORCE_SYSTEM_HOURS);
    }

    /** @return the price in 1/10000 dollars of a price in cents. */
    private static long price(final long cents)
    {
        return cents * Ouch42.PRICE_SCALE / 100;
    }

    private static void awaitGatewayMetricAtLeast(final String sample, final double value)
        throws IOException, InterruptedException
    {
        final long deadlineNs = System.nanoTime() + RESPONSE_TIMEOUT.toNanos();
        while (EXCHANGE.gatewayMetric(sample) < value)
        {
            if (System.nanoTime() - deadlineNs > 0)
            {
                throw new AssertionError("timed out after " + RESPONSE_TIMEOUT + " waiting for " + sample + " >= " +
                    value);
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(20));
        }
    }
}
