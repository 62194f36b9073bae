package io.bourse.gateway;

import io.bourse.common.config.Symbols;
import io.bourse.common.config.SymbolDirectory;
import io.bourse.gateway.OuchMessages.Accepted;
import io.bourse.gateway.OuchMessages.Broken;
import io.bourse.gateway.OuchMessages.Canceled;
import io.bourse.gateway.OuchMessages.Executed;
import io.bourse.gateway.OuchMessages.Rejected;
import io.bourse.gateway.OuchMessages.Replaced;
import io.bourse.gateway.RecordingEngineProxy.Cancel;
import io.bourse.gateway.RecordingEngineProxy.NewOrder;
import io.bourse.gateway.RecordingEngineProxy.Replace;
import io.bourse.ouch.CancelOrder;
import io.bourse.ouch.EnterOrder;
import io.bourse.ouch.Ouch42;
import io.bourse.ouch.ReplaceOrder;
import io.bourse.sbe.engine.AdminResponseCode;
import io.bourse.sbe.engine.BreakTradeEncoder;
import io.bourse.sbe.engine.MessageHeaderEncoder;
import io.bourse.sbe.engine.OrderExecutedEncoder;
import io.bourse.sbe.engine.RunStartedEncoder;
import io.bourse.sbe.engine.SetTradingStateEncoder;
import io.bourse.sbe.engine.Side;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import org.agrona.CloseHelper;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class OrderEntryTest
{
    private static final long T0 = 36_000_000_000_000L;
    private static final long T1 = T0 + 1_000;
    private static final long T2 = T0 + 2_000;
    private static final long T3 = T0 + 3_000;
    private static final int GATEWAY_ID = 1;
    private static final long PRICE = 1_500_000;
    private static final long DAY = Ouch42.TIME_IN_FORCE_MARKET_HOURS;

    private final PrometheusRegistry registry = new PrometheusRegistry();
    private final GatewayMetrics metrics = new GatewayMetrics(registry);
    private final DutyCycleClock clock = new DutyCycleClock(null);
    private final RecordingEngineProxy engine = new RecordingEngineProxy();
    /** Past alice's and bob's session indexes, 1 and 2, as their journals' would make it. */
    private final SessionIndexes sessionIndexes = new SessionIndexes(2);
    private CollarReferences collarReferences;
    private OrderEntry orderEntry;
    private OrderEntryAdapter adapter;
    private EngineEvents events;
    private final UnsafeBuffer request = new UnsafeBuffer(new byte[64]);
    private UserSession alice;
    private UserSession bob;

    OrderEntryTest()
    {
        clock.set(1_000_000, T0);
    }

    @BeforeEach
    void openSessions(@TempDir final Path journalDir) throws IOException
    {
        final SymbolDirectory symbols = SymbolDirectory.parse("AAPL@0,MSFT@1");
        collarReferences = CollarReferences.open(journalDir, symbols);
        orderEntry = new OrderEntry(GATEWAY_ID, 1_000_000, GatewayContext.MAX_SESSION_TOKENS_DEFAULT,
            GatewayContext.MAX_DAY_TOKENS_DEFAULT, symbols, RiskLimits.none(), collarReferences, engine,
            new OuchProxy(metrics), metrics, clock, sessionIndexes, 0);
        adapter = new OrderEntryAdapter(orderEntry, metrics);
        events = new EngineEvents(EngineEvents.adapter(orderEntry, metrics));
        alice = new UserSession("alice", firm("DEMO"), GATEWAY_ID, 1, 2,
            SessionJournal.open(journalDir.resolve("alice.journal"), JournalSync.NONE), metrics);
        bob = new UserSession("bob", firm("BOBS"), GATEWAY_ID, 2, 2,
            SessionJournal.open(journalDir.resolve("bob.journal"), JournalSync.NONE), metrics);
    }

    @AfterEach
    void closeSessions()
    {
        CloseHelper.closeAll(alice.journal(), bob.journal(), collarReferences);
    }

    @Test
    void shouldRouteNewOrderToShardOfItsSymbolWhenEnterOrderIsValid()
    {
        enter(alice, "A1", 'B', 100, "AAPL", PRICE, DAY, "DEMO");
        enter(alice, "A2", 'T', 200, "MSFT", 2_000_000, 0, "");
        enter(bob, "A1", 'E', 300, "MSFT", 2_100_000, DAY, "");

        assertThat(engine.commands()).isEqualTo(List.of(
            new NewOrder(0, T0, id(1, 1), "AAPL", true, 100, PRICE, DAY, 0, "DEMO", 'Y', 'N'),
            new NewOrder(1, T0, id(1, 2), "MSFT", false, 200, 2_000_000, 0, 0, "DEMO", 'Y', 'N'),
            new NewOrder(1, T0, id(2, 1), "MSFT", false, 300, 2_100_000, DAY, 0, "BOBS", 'Y', 'N')));
        assertThat(OuchMessages.of(alice)).isEmpty();
        assertThat(orderEntry.openOrderCount()).isEqualTo(3);
    }

    @Test
    void shouldRejectWithOuchReasonWhenEnterOrderIsInvalid()
    {
        enter(alice, "V1", 'B', 100, "AAPL", PRICE, DAY, "");
        enter(alice, "V1", 'B', 100, "AAPL", PRICE, DAY, "");
        enter(alice, "BAD\u0001TOKEN", 'B', 100, "AAPL", PRICE, DAY, "");
        enter(alice, "", 'B', 100, "AAPL", PRICE, DAY, "");
        enter(alice, "SIDE", 'X', 100, "AAPL", PRICE, DAY, "");
        enter(alice, "ZERO", 'B', 0, "AAPL", PRICE, DAY, "");
        enter(alice, "HUGE", 'S', 1_000_001, "AAPL", PRICE, DAY, "");
        enter(alice, "STOCK", 'B', 100, "IBM", PRICE, DAY, "");
        enter(alice, "FREE", 'B', 100, "AAPL", 0, DAY, "");
        enter(alice, "DEAR", 'B', 100, "AAPL", Ouch42.MAX_PRICE + 1, DAY, "");
        enter(alice, "ZERO", 'B', 100, "AAPL", PRICE, DAY, "");

        assertThat(engine.commands()).isEqualTo(List.of(
            new NewOrder(0, T0, id(1, 1), "AAPL", true, 100, PRICE, DAY, 0, "DEMO", 'Y', 'N')));
        assertThat(OuchMessages.of(alice)).as("a used token, of a live order or a rejected one, silently ignored")
            .isEqualTo(List.of(
                new Rejected(T0, "BAD\u0001TOKEN", 'O'),
                new Rejected(T0, "", 'O'),
                new Rejected(T0, "SIDE", 'O'),
                new Rejected(T0, "ZERO", 'Z'),
                new Rejected(T0, "HUGE", 'Z'),
                new Rejected(T0, "STOCK", 'S'),
                new Rejected(T0, "FREE", 'X'),
                new Rejected(T0, "DEAR", 'X')));
        assertThat(Metrics.counter(registry, "bourse_gateway_rejects_total", "duplicate_token")).isEqualTo(2);
        assertThat(Metrics.counter(registry, "bourse_gateway_rejects_total", "invalid_shares")).isEqualTo(2);
        assertThat(Metrics.counter(registry, "bourse_gateway_messages_out_total", "rejected")).isEqualTo(8);
    }

    @Test
    void shouldRejectWithFirmNotAuthorizedWhenEnterOrderNamesAnotherFirmThanTheUsers()
    {
        enter(alice, "OWN", 'B', 100, "AAPL", PRICE, DAY, "DEMO");
        enter(alice, "BOB", 'B', 100, "AAPL", PRICE, DAY, "BOBS");
        enter(bob, "ALICE", 'S', 100, "AAPL", PRICE, DAY, "DEMO");

        assertThat(engine.commands()).as("no order under another firm: its self-trade prevention, its attribution")
            .isEqualTo(List.of(new NewOrder(0, T0, id(1, 1), "AAPL", true, 100, PRICE, DAY, 0, "DEMO", 'Y', 'N')));
        assertThat(OuchMessages.of(alice)).isEqualTo(List.of(new Rejected(T0, "BOB", 'L')));
        assertThat(OuchMessages.of(bob)).isEqualTo(List.of(new Rejected(T0, "ALICE", 'L')));
        assertThat(Metrics.counter(registry, "bourse_gateway_rejects_total", "firm_not_authorized")).isEqualTo(2);
        assertThat(orderEntry.openOrderCount()).isOne();
    }

    @Test
    void shouldRejectWithInvalidDisplayTypeWhenDisplayIsNotSupported()
    {
        enter(alice, "I1", 'B', 100, "AAPL", PRICE, DAY, "", 0, Ouch42.DISPLAY_IMBALANCE_ONLY);
        enter(alice, "W1", 'B', 100, "AAPL", PRICE, DAY, "", 0, (byte)'W');
        enter(alice, "S1", 'B', 100, "AAPL", PRICE, DAY, "", 0, (byte)' ');

        assertThat(engine.commands()).isEmpty();
        assertThat(OuchMessages.of(alice)).isEqualTo(List.of(
            new Rejected(T0, "I1", 'D'),
            new Rejected(T0, "W1", 'D'),
            new Rejected(T0, "S1", 'D')));
        assertThat(Metrics.counter(registry, "bourse_gateway_rejects_total", "invalid_display")).isEqualTo(3);
        assertThat(orderEntry.openOrderCount()).isZero();
    }

    @Test
    void shouldCarryMinimumQuantityFirmDisplayAndTimeInForceIntoNewOrderWhenEntered()
    {
        enter(alice, "F1", 'B', 100, "AAPL", PRICE, 0, "DEMO", 100, Ouch42.DISPLAY_ATTRIBUTABLE);
        enter(alice, "F2", 'S', 100, "AAPL", PRICE, 30, "", 0, Ouch42.DISPLAY_NON_DISPLAY);
        enter(alice, "F3", 'S', 100, "MSFT", PRICE, DAY, "DEMO", 0, Ouch42.DISPLAY_POST_ONLY);
        enter(alice, "F4", 'B', 100, "MSFT", PRICE, 90_000, "", 0, Ouch42.DISPLAY_MID_POINT_PEG);
        enter(alice, "F5", 'B', 100, "MSFT", PRICE, 0, "", 40, Ouch42.DISPLAY_ANONYMOUS);

        assertThat(engine.commands()).isEqualTo(List.of(
            new NewOrder(0, T0, id(1, 1), "AAPL", true, 100, PRICE, 0, 100, "DEMO", 'A', 'N'),
            new NewOrder(0, T0, id(1, 2), "AAPL", false, 100, PRICE, 30, 0, "DEMO", 'N', 'N'),
            new NewOrder(1, T0, id(1, 3), "MSFT", false, 100, PRICE, DAY, 0, "DEMO", 'P', 'N'),
            new NewOrder(1, T0, id(1, 4), "MSFT", true, 100, PRICE, 90_000, 0, "DEMO", 'M', 'N'),
            new NewOrder(1, T0, id(1, 5), "MSFT", true, 100, PRICE, 0, 40, "DEMO", 'Y', 'N')));
        assertThat(OuchMessages.of(alice)).isEmpty();
    }

    @Test
    void shouldEchoTheEnginesPriceAndDisplayWithMinimumQuantityAndFirmInAccepted()
    {
        enter(alice, "P1", 'S', 100, "AAPL", PRICE, 30, "DEMO", 0, Ouch42.DISPLAY_POST_ONLY);
        enter(alice, "K1", 'B', 100, "AAPL", PRICE, 0, "", 100, Ouch42.DISPLAY_ATTRIBUTABLE);

        events.accepted(T1, id(1, 1), 77, "AAPL", Side.SELL, 100, PRICE + 100, 30, 'P');
        events.accepted(T1, id(1, 2), 78, "AAPL", Side.BUY, 100, PRICE, 0, 'A');

        assertThat(OuchMessages.of(alice)).isEqualTo(List.of(
            new Accepted(T1, "P1", 'S', 100, "AAPL", PRICE + 100, 30, "DEMO", 'P', 77, 'A', 'N', 0, 'N', 'L', ' '),
            new Accepted(T1, "K1", 'B', 100, "AAPL", PRICE, 0, "DEMO", 'A', 78, 'A', 'N', 100, 'N', 'L', ' ')));
    }

    @Test
    void shouldPassTheEnginesCancelReasonThroughWhenOrdersExpireCloseOrAreImmediateOrCancel()
    {
        enter(alice, "T1", 'B', 100, "AAPL", PRICE, 5, "");
        enter(alice, "E1", 'B', 100, "AAPL", PRICE, DAY, "");
        enter(alice, "I1", 'S', 100, "AAPL", PRICE, 0, "");
        events.accepted(T1, id(1, 1), 7, "AAPL", Side.BUY, 100, PRICE, 5);
        events.accepted(T1, id(1, 2), 8, "AAPL", Side.BUY, 100, PRICE, DAY);
        events.accepted(T1, id(1, 3), 9, "AAPL", Side.SELL, 100, PRICE, 0);

        events.canceled(T2, id(1, 1), 7, "AAPL", 100, 0, Ouch42.CANCEL_TIMEOUT);
        events.canceled(T2, id(1, 2), 8, "AAPL", 100, 0, Ouch42.CANCEL_CLOSED);
        events.canceled(T2, id(1, 3), 9, "AAPL", 100, 0, Ouch42.CANCEL_IMMEDIATE_OR_CANCEL);

        assertThat(OuchMessages.of(alice).subList(3, 6)).isEqualTo(List.of(
            new Canceled(T2, "T1", 100, 'T'),
            new Canceled(T2, "E1", 100, 'E'),
            new Canceled(T2, "I1", 100, 'I')));
        assertThat(orderEntry.openOrderCount()).isZero();
    }

    @Test
    void shouldRejectWithHaltedWhenEngineCannotTakeTheOrder()
    {
        engine.available = false;

        enter(alice, "H1", 'B', 100, "AAPL", PRICE, DAY, "");

        assertThat(engine.commands()).isEqualTo(List.of(
            new NewOrder(0, T0, id(1, 1), "AAPL", true, 100, PRICE, DAY, 0, "DEMO", 'Y', 'N')));
        assertThat(OuchMessages.of(alice)).isEqualTo(List.of(new Rejected(T0, "H1", 'H')));
        assertThat(orderEntry.openOrderCount()).isZero();
        assertThat(Metrics.counter(registry, "bourse_gateway_rejects_total", "engine_unavailable")).isEqualTo(1);
    }

    @Test
    void shouldEchoEnteredFieldsInAcceptedWhenEngineAccepts()
    {
        enter(alice, "A1", 'T', 100, "AAPL", PRICE, DAY, "DEMO");
        clock.set(1_000_000 + 5_000, T1);

        events.accepted(T1, id(1, 1), 77, "AAPL", Side.SELL, 100, PRICE, DAY);

        assertThat(OuchMessages.of(alice)).isEqualTo(List.of(
            new Accepted(T1, "A1", 'T', 100, "AAPL", PRICE, DAY, "DEMO", 'Y', 77, 'A', 'N', 0, 'N', 'L', ' ')));
        assertThat(Metrics.summaryCount(registry, "bourse_gateway_order_latency_seconds")).isEqualTo(1);
    }

    @Test
    void shouldSendExecutedToTakerAndMakerWhenOrdersMatch()
    {
        enter(alice, "S1", 'S', 100, "MSFT", PRICE, DAY, "");
        events.accepted(T1, id(1, 1), 10, "MSFT", Side.SELL, 100, PRICE, DAY);
        enter(bob, "B1", 'B', 60, "MSFT", PRICE + 100, 0, "");
        events.accepted(T2, id(2, 1), 11, "MSFT", Side.BUY, 60, PRICE + 100, 0);

        events.executed(T2, 5, "MSFT", 60, PRICE, id(2, 1), 11, Side.BUY, id(1, 1), 10, 40, 0);

        assertThat(OuchMessages.of(alice)).isEqualTo(List.of(
            new Accepted(T1, "S1", 'S', 100, "MSFT", PRICE, DAY, "DEMO", 'Y', 10, 'A', 'N', 0, 'N', 'L', ' '),
            new Executed(T2, "S1", 60, PRICE, 'A', 5)));
        assertThat(OuchMessages.of(bob)).isEqualTo(List.of(
            new Accepted(T2, "B1", 'B', 60, "MSFT", PRICE + 100, 0, "BOBS", 'Y', 11, 'A', 'N', 0, 'N', 'L', ' '),
            new Executed(T2, "B1", 60, PRICE, 'R', 5)));
        assertThat(orderEntry.openOrderCount()).isEqualTo(1);
    }

    @Test
    void shouldSendBrokenTradeToBothSidesWhenAnExecutionOfFilledOrdersIsBroken()
    {
        enter(alice, "S1", 'S', 100, "MSFT", PRICE, DAY, "");
        events.accepted(T1, id(1, 1), 10, "MSFT", Side.SELL, 100, PRICE, DAY);
        enter(bob, "B1", 'B', 100, "MSFT", PRICE, DAY, "");
        events.accepted(T2, id(2, 1), 11, "MSFT", Side.BUY, 100, PRICE, DAY);
        events.executed(T2, 5, "MSFT", 60, PRICE, id(2, 1), 11, Side.BUY, id(1, 1), 10, 40, 40);
        events.executed(T2, 6, "MSFT", 40, PRICE, id(2, 1), 11, Side.BUY, id(1, 1), 10, 0, 0);

        events.tradeBroken(T2 + 1, 5, "MSFT", 60, PRICE, id(2, 1), 11, id(1, 1), 10, Ouch42.BROKEN_TRADE_SUPERVISORY);
        events.tradeBroken(T2 + 2, 7, "MSFT", 10, PRICE, (2L << 56) | 1, 12, id(1, 2), 13,
            Ouch42.BROKEN_TRADE_ERRONEOUS);

        assertThat(OuchMessages.of(alice)).isEqualTo(List.of(
            new Accepted(T1, "S1", 'S', 100, "MSFT", PRICE, DAY, "DEMO", 'Y', 10, 'A', 'N', 0, 'N', 'L', ' '),
            new Executed(T2, "S1", 60, PRICE, 'A', 5),
            new Executed(T2, "S1", 40, PRICE, 'A', 6),
            new Broken(T2 + 1, "S1", 5, 'S')));
        assertThat(OuchMessages.of(bob)).isEqualTo(List.of(
            new Accepted(T2, "B1", 'B', 100, "MSFT", PRICE, DAY, "BOBS", 'Y', 11, 'A', 'N', 0, 'N', 'L', ' '),
            new Executed(T2, "B1", 60, PRICE, 'R', 5),
            new Executed(T2, "B1", 40, PRICE, 'R', 6),
            new Broken(T2 + 1, "B1", 5, 'S')));
        assertThat(orderEntry.openOrderCount()).isZero();
        assertThat(Metrics.counter(registry, "bourse_gateway_unmatched_events_total", null)).isEqualTo(1);
        assertThat(Metrics.counter(registry, "bourse_gateway_messages_out_total", "broken_trade")).isEqualTo(2);
    }

    @Test
    void shouldCancelByTokenAndFreeTheOrderWhenEngineCancelsIt()
    {
        enter(alice, "A1", 'B', 100, "AAPL", PRICE, DAY, "");
        events.accepted(T1, id(1, 1), 7, "AAPL", Side.BUY, 100, PRICE, DAY);

        cancel(alice, "A1", 30);
        events.canceled(T2, id(1, 1), 7, "AAPL", 70, 30, Ouch42.CANCEL_USER_REQUESTED);
        cancel(alice, "A1", 0);
        events.canceled(T2, id(1, 1), 7, "AAPL", 30, 0, Ouch42.CANCEL_USER_REQUESTED);
        cancel(alice, "A1", 0);
        cancel(alice, "NEVER", 0);

        assertThat(engine.commands()).isEqualTo(List.of(
            new NewOrder(0, T0, id(1, 1), "AAPL", true, 100, PRICE, DAY, 0, "DEMO", 'Y', 'N'),
            new Cancel(0, T0, id(1, 1), 30),
            new Cancel(0, T0, id(1, 1), 0)));
        assertThat(OuchMessages.of(alice).subList(1, 3)).isEqualTo(List.of(
            new Canceled(T2, "A1", 70, 'U'),
            new Canceled(T2, "A1", 30, 'U')));
        assertThat(orderEntry.openOrderCount()).isZero();
    }

    /**
     * A shard's new run that recovered nothing (RunStarted with 0 earlier runs) holds none of the orders its earlier
     * runs accepted: each order of that shard still open is answered Canceled 'Z' (system cancel) for its open shares
     * and done; another shard's order stays, and so does one not yet answered, which the new run may have taken. A new
     * run that recovered its earlier runs changes nothing, and the RunStarted heard again after the new run answered a
     * later order (a replay from a stale event position) cancels none of that run's orders.
     */
    @Test
    void shouldCancelWithSystemCancelTheOpenOrdersOfAShardWhoseNewRunRecoveredNothing()
    {
        enter(alice, "A1", 'B', 100, "AAPL", PRICE, DAY, "");
        enter(bob, "B1", 'S', 200, "AAPL", PRICE + 100, DAY, "");
        enter(alice, "A2", 'B', 300, "MSFT", PRICE, DAY, "");
        events.accepted(T1, id(1, 1), 7, "AAPL", Side.BUY, 100, PRICE, DAY);
        events.accepted(T1, id(2, 1), 8, "AAPL", Side.SELL, 200, PRICE + 100, DAY);
        events.accepted(T1, id(1, 2), 9, "MSFT", Side.BUY, 300, PRICE, DAY);
        events.canceled(T1, id(1, 1), 7, "AAPL", 40, 60, Ouch42.CANCEL_USER_REQUESTED);
        enter(alice, "A3", 'B', 400, "AAPL", PRICE, DAY, "");

        new EngineEvents(EngineEvents.adapter(orderEntry, metrics), 2).runStarted(T2, 0, 1, 0);
        assertThat(OuchMessages.of(alice)).hasSize(3);
        // The empty run numbers from (0 + 1) x 16: its earlier runs' orders 7, 8 and 9 are below.
        final EngineEvents emptyRun = new EngineEvents(EngineEvents.adapter(orderEntry, metrics), 3);
        emptyRun.runStarted(T2, 0, 0, 0);
        emptyRun.accepted(T2, id(1, 3), 16, "AAPL", Side.BUY, 400, PRICE, DAY);
        // Heard again from the start of its stream, then as on a stream the session's journal says nothing of.
        new EngineEvents(EngineEvents.adapter(orderEntry, metrics), 3).runStarted(T2, 0, 0, 0);
        new EngineEvents(EngineEvents.adapter(orderEntry, metrics), 4).runStarted(T2, 0, 0, 0);

        final List<Object> toAlice = OuchMessages.of(alice);
        assertThat(toAlice).hasSize(5);
        assertThat(toAlice.get(3)).isEqualTo(new Canceled(T2, "A1", 60, 'Z'));
        assertThat(toAlice.get(4)).isInstanceOf(Accepted.class);
        assertThat(OuchMessages.of(bob)).hasSize(2);
        assertThat(OuchMessages.of(bob).get(1)).isEqualTo(new Canceled(T2, "B1", 200, 'Z'));
        assertThat(orderEntry.openOrderCount()).as("A2 and A3").isEqualTo(2);
        assertThat(Metrics.sum(registry, "bourse_gateway_system_cancels_total")).isEqualTo(2);
    }

    /**
     * A shard's new run joined this gateway's command publication at a position (CommandStreamJoined): the orders and
     * replacements sent there up to it and still unanswered were taken by a run that died holding their events, and
     * no run will answer them; each is rejected 'H' to its owner, in the order sent, and released. An order answered
     * before, one past the position, one of another shard, and any order when the publication named is another
     * gateway's, are left alone; the replaced order stays open.
     */
    @Test
    void shouldRejectTheUnansweredOrdersSentBeforeWhereANewRunJoinedThisGatewaysCommandPublication()
    {
        enter(alice, "A1", 'B', 100, "AAPL", PRICE, DAY, "");
        enter(bob, "B1", 'S', 100, "AAPL", PRICE + 100, DAY, "");
        enter(alice, "A2", 'B', 200, "AAPL", PRICE, DAY, "");
        enter(alice, "M1", 'B', 300, "MSFT", PRICE, DAY, "");
        events.accepted(T1, id(1, 1), 7, "AAPL", Side.BUY, 100, PRICE, DAY);
        replace(alice, "A1", "R1", 100, PRICE - 100, DAY);
        final long replaceEnd = 5 * RecordingEngineProxy.COMMAND_LENGTH;
        enter(alice, "A3", 'B', 400, "AAPL", PRICE, DAY, "");

        final EngineEvents nextRun = new EngineEvents(EngineEvents.adapter(orderEntry, metrics), 2);
        nextRun.commandStreamJoined(0, RecordingEngineProxy.COMMAND_SESSION_ID + 1, replaceEnd);
        final long beforeM1 = 3 * RecordingEngineProxy.COMMAND_LENGTH;
        nextRun.commandStreamJoined(1, RecordingEngineProxy.COMMAND_SESSION_ID, beforeM1);
        assertThat(OuchMessages.of(alice)).as("another gateway's publication, and shard 1's M1 past it").hasSize(1);

        nextRun.commandStreamJoined(0, RecordingEngineProxy.COMMAND_SESSION_ID, replaceEnd);
        nextRun.commandStreamJoined(0, RecordingEngineProxy.COMMAND_SESSION_ID, replaceEnd); // heard again

        assertThat(OuchMessages.of(alice).subList(1, 3)).isEqualTo(List.of(
            new Rejected(T0, "A2", 'H'),
            new Rejected(T0, "R1", 'H')));
        assertThat(OuchMessages.of(bob)).isEqualTo(List.of(new Rejected(T0, "B1", 'H')));
        assertThat(OuchMessages.of(alice)).hasSize(3);
        assertThat(orderEntry.openOrderCount()).as("A1, M1 and A3").isEqualTo(3);
        assertThat(Metrics.counter(registry, "bourse_gateway_rejects_total", "command_lost_with_engine_run"))
            .isEqualTo(3);

        cancel(alice, "A1", 0);
        assertThat(engine.commands().getLast()).as("A1 still open, not replaced")
            .isEqualTo(new Cancel(0, T0, id(1, 1), 0));
        events.accepted(T2, id(1, 5), 8, "AAPL", Side.BUY, 400, PRICE, DAY);
        assertThat(OuchMessages.of(alice).getLast()).isInstanceOf(Accepted.class);
    }

    @Test
    void shouldSendAgainTheCancelsOfOpenOrdersSentBeforeWhereANewRunJoinedThisGatewaysCommandPublication()
    {
        enter(alice, "A1", 'B', 100, "AAPL", PRICE, DAY, "");
        enter(alice, "A2", 'B', 200, "AAPL", PRICE, DAY, "");
        enter(alice, "A3", 'B', 300, "AAPL", PRICE, DAY, "");
        enter(alice, "A4", 'B', 400, "AAPL", PRICE, DAY, "");
        enter(bob, "B1", 'S', 100, "AAPL", PRICE + 100, DAY, "");
        enter(alice, "M1", 'B', 300, "MSFT", PRICE, DAY, "");
        events.accepted(T1, id(1, 1), 7, "AAPL", Side.BUY, 100, PRICE, DAY);
        events.accepted(T1, id(1, 2), 8, "AAPL", Side.BUY, 200, PRICE, DAY);
        events.accepted(T1, id(1, 3), 9, "AAPL", Side.BUY, 300, PRICE, DAY);
        events.accepted(T1, id(1, 4), 10, "AAPL", Side.BUY, 400, PRICE, DAY);
        events.accepted(T1, id(2, 1), 11, "AAPL", Side.SELL, 100, PRICE + 100, DAY);
        events.accepted(T1, id(1, 5), 12, "MSFT", Side.BUY, 300, PRICE, DAY);
        cancel(alice, "A1", 40); // answered
        events.canceled(T2, id(1, 1), 7, "AAPL", 60, 40, Ouch42.CANCEL_USER_REQUESTED);
        cancel(alice, "A1", 0); // unanswered from here on
        cancel(alice, "A2", 50);
        cancel(alice, "A2", 80); // asks for less than the one before
        cancel(alice, "A3", 0);
        events.cancelPending(T2, id(1, 3), 9, "AAPL"); // a closing-cross order's cancel, held for the cross
        orderEntry.onSessionEnd(bob); // his cancel on disconnect
        cancel(alice, "A4", 300); // answered
        events.canceled(T2, id(1, 4), 10, "AAPL", 100, 300, Ouch42.CANCEL_USER_REQUESTED);
        final long beforeM1 = engine.commandStreamPosition();
        cancel(alice, "M1", 0);
        final long joinPosition = engine.commandStreamPosition();
        cancel(alice, "A4", 100); // past the join: the new run takes it
        final int sent = engine.commands().size();

        final EngineEvents nextRun = new EngineEvents(EngineEvents.adapter(orderEntry, metrics), 2);
        nextRun.commandStreamJoined(0, RecordingEngineProxy.COMMAND_SESSION_ID + 1, joinPosition);
        nextRun.commandStreamJoined(1, RecordingEngineProxy.COMMAND_SESSION_ID, beforeM1);
        assertThat(engine.commands()).as("another gateway's publication, and shard 1's cancel past it").hasSize(sent);

        nextRun.commandStreamJoined(0, RecordingEngineProxy.COMMAND_SESSION_ID, joinPosition);
        nextRun.commandStreamJoined(0, RecordingEngineProxy.COMMAND_SESSION_ID, joinPosition); // heard again

        assertThat(engine.commands().subList(sent, engine.commands().size())).containsExactlyInAnyOrder(
            new Cancel(0, T0, id(1, 1), 0),
            new Cancel(0, T0, id(1, 2), 50),
            new Cancel(0, T0, id(2, 1), 0));
        assertThat(Metrics.sum(registry, "bourse_gateway_cancels_resent_total")).isEqualTo(3);

        nextRun.canceled(T3, id(1, 4), 10, "AAPL", 200, 100, Ouch42.CANCEL_USER_REQUESTED);
        nextRun.canceled(T3, id(1, 1), 7, "AAPL", 40, 0, Ouch42.CANCEL_USER_REQUESTED);
        nextRun.canceled(T3, id(1, 2), 8, "AAPL", 150, 50, Ouch42.CANCEL_USER_REQUESTED);
        nextRun.canceled(T3, id(2, 1), 11, "AAPL", 100, 0, Ouch42.CANCEL_USER_REQUESTED);
        assertThat(OuchMessages.of(alice).subList(OuchMessages.of(alice).size() - 3, OuchMessages.of(alice).size()))
            .isEqualTo(List.of(
                new Canceled(T3, "A4", 200, 'U'),
                new Canceled(T3, "A1", 40, 'U'),
                new Canceled(T3, "A2", 150, 'U')));
        assertThat(OuchMessages.of(bob).getLast()).isEqualTo(new Canceled(T3, "B1", 100, 'U'));

        nextRun.commandStreamJoined(0, RecordingEngineProxy.COMMAND_SESSION_ID, engine.commandStreamPosition());
        assertThat(engine.commands()).as("every cancel answered").hasSize(sent + 3);
    }

    @Test
    void shouldKeepTheLostCancelsItsShardCannotTakeAtTheJoinAndSendThemOnceItCan()
    {
        enter(bob, "B1", 'S', 100, "AAPL", PRICE + 100, DAY, "");
        enter(alice, "A1", 'B', 100, "AAPL", PRICE, DAY, "");
        events.accepted(T1, id(2, 1), 11, "AAPL", Side.SELL, 100, PRICE + 100, DAY);
        events.accepted(T1, id(1, 1), 7, "AAPL", Side.BUY, 100, PRICE, DAY);
        orderEntry.onSessionEnd(bob);
        cancel(alice, "A1", 0);
        final long joinPosition = engine.commandStreamPosition();
        final int sent = engine.commands().size();
        engine.downShard = 0;

        new EngineEvents(EngineEvents.adapter(orderEntry, metrics), 2)
            .commandStreamJoined(0, RecordingEngineProxy.COMMAND_SESSION_ID, joinPosition);

        assertThat(engine.commands()).as("nothing offered to a shard that cannot take it").hasSize(sent);
        assertThat(orderEntry.cancelsToRetry()).as("kept, for bourse_gateway_cancels_to_retry").isEqualTo(2);
        assertThat(orderEntry.retryCancels()).as("before the retry interval").isZero();
        engine.downShard = -1;
        clock.set(1_000_000 + OrderEntry.CANCEL_ON_DISCONNECT_RETRY_INTERVAL_NS, T1);
        assertThat(orderEntry.retryCancels()).isEqualTo(2);
        assertThat(orderEntry.cancelsToRetry()).isZero();
        assertThat(engine.commands().subList(sent, engine.commands().size())).containsExactlyInAnyOrder(
            new Cancel(0, T1, id(2, 1), 0),
            new Cancel(0, T1, id(1, 1), 0));
        assertThat(Metrics.sum(registry, "bourse_gateway_cancels_resent_total")).isEqualTo(2);
        assertThat(Metrics.sum(registry, "bourse_gateway_cancel_on_disconnect_total")).as("bob's, once").isEqualTo(1);
        clock.set(1_000_000 + 2 * OrderEntry.CANCEL_ON_DISCONNECT_RETRY_INTERVAL_NS, T2);
        assertThat(orderEntry.retryCancels()).as("kept no longer").isZero();
    }

    @Test
    void shouldSendAgainALostFullCancelThatAnEarlierPartialCancelsRejectDoesNotForget()
    {
        enter(alice, "A1", 'B', 100, "AAPL", PRICE, DAY, "");
        events.accepted(T1, id(1, 1), 7, "AAPL", Side.BUY, 100, PRICE, DAY);
        cancel(alice, "A1", 50);
        cancel(alice, "A1", 0);
        events.cancelRejected(T2, id(1, 1), 7, "AAPL"); // the cross lock refuses the partial cancel; the full is lost
        final long joinPosition = engine.commandStreamPosition();
        enter(alice, "A2", 'B', 100, "AAPL", PRICE, DAY, "");
        events.accepted(T1, id(1, 2), 8, "AAPL", Side.BUY, 100, PRICE, DAY);
        cancel(alice, "A2", 50);
        events.cancelRejected(T2, id(1, 2), 8, "AAPL"); // refused, and sending it again would be refused again
        final int sent = engine.commands().size();

        final long pastA2 = sent * RecordingEngineProxy.COMMAND_LENGTH;
        new EngineEvents(EngineEvents.adapter(orderEntry, metrics), 2)
            .commandStreamJoined(0, RecordingEngineProxy.COMMAND_SESSION_ID, pastA2);

        assertThat(joinPosition).isLessThan(pastA2);
        assertThat(engine.commands().subList(sent, engine.commands().size()))
            .isEqualTo(List.of(new Cancel(0, T0, id(1, 1), 0)));
    }

    @Test
    void shouldCountAndSkipAnEventShorterThanTheFieldsOfItsVersionAndTakeAnOlderVersionsEvent()
    {
        enter(alice, "S1", 'S', 100, "MSFT", PRICE, DAY, "");
        events.accepted(T1, id(1, 1), 10, "MSFT", Side.SELL, 100, PRICE, DAY);
        final int version = OrderExecutedEncoder.SCHEMA_VERSION;

        // Read past their blocks, the execution's crossType and the run's recoveredRuns (0: cancel) would be guessed.
        events.nextAs(version, OrderExecutedEncoder.crossTypeEncodingOffset())
            .executed(T2, 5, "MSFT", 60, PRICE, id(2, 1), 11, Side.BUY, id(1, 1), 10, 40, 0);
        events.nextAs(version, RunStartedEncoder.recoveredRunsEncodingOffset()).runStarted(T2, 1, 0, 0);
        events.nextCutTo(MessageHeaderEncoder.ENCODED_LENGTH + OrderExecutedEncoder.BLOCK_LENGTH - 1)
            .executed(T2, 6, "MSFT", 60, PRICE, id(2, 1), 11, Side.BUY, id(1, 1), 10, 40, 0);
        events.nextCutTo(MessageHeaderEncoder.ENCODED_LENGTH - 1).cancelPending(T2, id(1, 1), 10, "MSFT");

        assertThat(OuchMessages.of(alice)).hasSize(1);
        assertThat(orderEntry.openOrderCount()).isEqualTo(1);
        assertThat(Metrics.counter(registry, "bourse_gateway_errors_total", "unknown_event")).isEqualTo(4);

        // A version 1 shard's execution has no crossType: a continuous one.
        events.nextAs(OrderExecutedEncoder.crossTypeSinceVersion() - 1, OrderExecutedEncoder.crossTypeEncodingOffset())
            .executed(T3, 7, "MSFT", 60, PRICE, id(2, 1), 11, Side.BUY, id(1, 1), 10, 40, 0, 'C');

        assertThat(OuchMessages.of(alice).get(1)).isEqualTo(new Executed(T3, "S1", 60, PRICE, 'A', 7));
        assertThat(Metrics.counter(registry, "bourse_gateway_errors_total", "unknown_event")).isEqualTo(4);
    }

    @Test
    void shouldSendReplacedWithPreviousTokenWhenEngineReplaces()
    {
        enter(alice, "A1", 'B', 100, "AAPL", PRICE, DAY, "");
        events.accepted(T1, id(1, 1), 7, "AAPL", Side.BUY, 100, PRICE, DAY);

        replace(alice, "A1", "A2", 50, PRICE - 100, DAY);
        events.replaced(T2, id(1, 1), id(1, 2), 7, 8, "AAPL", Side.BUY, 50, PRICE - 100);
        cancel(alice, "A1", 0);
        cancel(alice, "A2", 0);

        assertThat(engine.commands()).isEqualTo(List.of(
            new NewOrder(0, T0, id(1, 1), "AAPL", true, 100, PRICE, DAY, 0, "DEMO", 'Y', 'N'),
            new Replace(0, T0, id(1, 1), id(1, 2), 50, PRICE - 100, DAY),
            new Cancel(0, T0, id(1, 2), 0)));
        assertThat(OuchMessages.of(alice).get(1)).isEqualTo(
            new Replaced(T2, "A2", 'B', 50, "AAPL", PRICE - 100, DAY, "DEMO", 'Y', 8, 'A', 'Y', 0, 'N', 'L', "A1",
                ' '));
        assertThat(orderEntry.openOrderCount()).isEqualTo(1);
    }

    @Test
    void shouldKeepTheOriginalOrderWhenEngineRejectsTheReplacement()
    {
        enter(alice, "A1", 'B', 100, "AAPL", PRICE, DAY, "");
        events.accepted(T1, id(1, 1), 7, "AAPL", Side.BUY, 100, PRICE, DAY);
        replace(alice, "A1", "A2", 50, PRICE, DAY);

        events.rejected(T2, id(1, 2), "AAPL", Ouch42.REJECT_OTHER);
        cancel(alice, "A1", 0);

        assertThat(OuchMessages.of(alice).get(1)).isEqualTo(new Rejected(T2, "A2", 'O'));
        assertThat(engine.commands().get(2)).isEqualTo(new Cancel(0, T0, id(1, 1), 0));
        assertThat(orderEntry.openOrderCount()).isEqualTo(1);
    }

    /**
     * OUCH 4.2 Replace Order's Time in Force is the replacement's: sent to the engine and echoed in Replaced; an
     * immediate-or-cancel replacement's rest comes back Canceled 'I', and it is no longer open.
     */
    @Test
    void shouldSendTheNewTimeInForceAndEchoItWhenAReplaceChangesTheTimeInForce()
    {
        enter(alice, "A1", 'B', 100, "AAPL", PRICE, DAY, "");
        events.accepted(T1, id(1, 1), 7, "AAPL", Side.BUY, 100, PRICE, DAY);
        enter(alice, "B1", 'B', 100, "AAPL", PRICE, DAY, "");
        events.accepted(T1, id(1, 2), 8, "AAPL", Side.BUY, 100, PRICE, DAY);

        replace(alice, "A1", "A2", 50, PRICE, 30);
        events.replaced(T2, id(1, 1), id(1, 3), 7, 9, "AAPL", Side.BUY, 50, PRICE);
        replace(alice, "B1", "B2", 100, PRICE, Ouch42.TIME_IN_FORCE_IMMEDIATE_OR_CANCEL);
        events.replaced(T2, id(1, 2), id(1, 4), 8, 10, "AAPL", Side.BUY, 100, PRICE);
        events.canceled(T2, id(1, 4), 10, "AAPL", 100, 0, Ouch42.CANCEL_IMMEDIATE_OR_CANCEL, false);

        assertThat(engine.commands().subList(2, 4)).isEqualTo(List.of(
            new Replace(0, T0, id(1, 1), id(1, 3), 50, PRICE, 30),
            new Replace(0, T0, id(1, 2), id(1, 4), 100, PRICE, Ouch42.TIME_IN_FORCE_IMMEDIATE_OR_CANCEL)));
        assertThat(OuchMessages.of(alice).subList(2, 5)).isEqualTo(List.of(
            new Replaced(T2, "A2", 'B', 50, "AAPL", PRICE, 30, "DEMO", 'Y', 9, 'A', 'Y', 0, 'N', 'L', "A1", ' '),
            new Replaced(T2, "B2", 'B', 100, "AAPL", PRICE, 0, "DEMO", 'Y', 10, 'A', 'Y', 0, 'N', 'L', "B1", ' '),
            new Canceled(T2, "B2", 100, 'I')));
        assertThat(orderEntry.openOrderCount()).isEqualTo(1);
    }

    @Test
    void shouldTakeTheOrderOutOfTheBookWhenAReplaceChangesTheDisplayOrSetsAMinimumQuantity()
    {
        enter(alice, "A1", 'B', 100, "AAPL", PRICE, DAY, "", 0, Ouch42.DISPLAY_NON_DISPLAY);
        events.accepted(T1, id(1, 1), 7, "AAPL", Side.BUY, 100, PRICE, DAY, 'N');
        enter(alice, "B1", 'B', 100, "AAPL", PRICE, DAY, "", 0, Ouch42.DISPLAY_NON_DISPLAY);
        events.accepted(T1, id(1, 2), 8, "AAPL", Side.BUY, 100, PRICE, DAY, 'N');

        replace(alice, "A1", "A2", 50, PRICE, DAY, Ouch42.DISPLAY_ANONYMOUS, 0);
        replace(alice, "B1", "B2", 50, PRICE, DAY, Ouch42.DISPLAY_NON_DISPLAY, 10);
        events.canceled(T2, id(1, 1), 7, "AAPL", 100, 0, Ouch42.CANCEL_USER_REQUESTED);
        events.canceled(T2, id(1, 2), 8, "AAPL", 100, 0, Ouch42.CANCEL_USER_REQUESTED);
        enter(alice, "A2", 'B', 100, "AAPL", PRICE, DAY, "");

        assertThat(engine.commands().subList(2, 5)).isEqualTo(List.of(
            new Cancel(0, T0, id(1, 1), 0),
            new Cancel(0, T0, id(1, 2), 0),
            new NewOrder(0, T0, id(1, 3), "AAPL", true, 100, PRICE, DAY, 0, "DEMO", 'Y', 'N')));
        assertThat(OuchMessages.of(alice).subList(2, 4)).isEqualTo(List.of(
            new Canceled(T2, "A1", 100, 'U'),
            new Canceled(T2, "B1", 100, 'U')));
        assertThat(Metrics.counter(registry, "bourse_gateway_rejects_total", "display_change")).isEqualTo(1);
        assertThat(Metrics.counter(registry, "bourse_gateway_rejects_total", "replace_minimum_quantity"))
            .isEqualTo(1);
    }

    @Test
    void shouldIgnoreAReplaceOfNoOpenOrderOrWithAUsedTokenAndKeepItsReplacementTokenFree()
    {
        enter(alice, "A1", 'B', 100, "AAPL", PRICE, DAY, "");
        enter(alice, "B1", 'B', 100, "AAPL", PRICE, DAY, "");

        replace(alice, "NONE", "R2", 50, PRICE, DAY);
        replace(alice, "A1", "B1", 50, PRICE, DAY);
        replace(alice, "A1", "R2", 50, PRICE, DAY);

        assertThat(engine.commands().subList(2, 3)).isEqualTo(List.of(
            new Replace(0, T0, id(1, 1), id(1, 3), 50, PRICE, DAY)));
        assertThat(OuchMessages.of(alice)).isEmpty();
        assertThat(Metrics.counter(registry, "bourse_gateway_rejects_total", "unknown_order")).isEqualTo(1);
        assertThat(Metrics.counter(registry, "bourse_gateway_rejects_total", "duplicate_token")).isEqualTo(1);
    }

    @Test
    void shouldCancelTheOrderWhenReplaceHasZeroShares()
    {
        enter(alice, "A1", 'B', 100, "AAPL", PRICE, DAY, "");

        replace(alice, "A1", "A2", 0, PRICE, DAY);
        replace(alice, "A1", "A2", 10, PRICE, DAY);

        assertThat(engine.commands()).isEqualTo(List.of(
            new NewOrder(0, T0, id(1, 1), "AAPL", true, 100, PRICE, DAY, 0, "DEMO", 'Y', 'N'),
            new Cancel(0, T0, id(1, 1), 0)));
        assertThat(OuchMessages.of(alice)).as("A2, used by the cancel, makes the second replace ignored").isEmpty();
        assertThat(Metrics.counter(registry, "bourse_gateway_rejects_total", "duplicate_token")).isEqualTo(1);
    }

    @Test
    void shouldIgnoreEventsOfOtherGatewaysAndCountUnknownOrders()
    {
        final long otherGateway = (2L << 56) | (1L << 32) | 1;

        events.accepted(T1, otherGateway, 7, "AAPL", Side.BUY, 100, PRICE, DAY);
        events.accepted(T1, id(1, 99), 8, "AAPL", Side.BUY, 100, PRICE, DAY);

        assertThat(OuchMessages.of(alice)).isEmpty();
        assertThat(Metrics.counter(registry, "bourse_gateway_unmatched_events_total", null)).isEqualTo(1);
        assertThat(Metrics.counter(registry, "bourse_gateway_errors_total", "unknown_session_index")).isZero();
        assertThat(sessionIndexes.next()).as("alice's index is known").isEqualTo(3);
    }

    @Test
    void shouldSkipTheShardsAnswerToAnAdminCommandWithoutAMessageOrAnError()
    {
        events.adminResponse(T1, SetTradingStateEncoder.TEMPLATE_ID, "AAPL", AdminResponseCode.UNKNOWN_SYMBOL);
        events.adminResponse(T1, BreakTradeEncoder.TEMPLATE_ID, "AAPL", AdminResponseCode.OK);

        assertThat(OuchMessages.of(alice)).isEmpty();
        assertThat(OuchMessages.of(bob)).isEmpty();
        assertThat(Metrics.sum(registry, "bourse_gateway_errors_total")).isZero();
        assertThat(Metrics.counter(registry, "bourse_gateway_unmatched_events_total", null)).isZero();
    }

    @Test
    void shouldTakeSessionIndexesPastTheIndexOfAnUnknownOrderOfThisGateway()
    {
        // An order of an earlier gateway with this id whose journals are gone, heard in the engine's events.
        events.accepted(T1, id(40, 1), 7, "AAPL", Side.BUY, 100, PRICE, DAY);
        events.canceled(T2, id(40, 1), 7, "AAPL", 100, 0, Ouch42.CANCEL_USER_REQUESTED);

        assertThat(OuchMessages.of(alice)).isEmpty();
        assertThat(OuchMessages.of(bob)).isEmpty();
        assertThat(Metrics.counter(registry, "bourse_gateway_unmatched_events_total", null)).isEqualTo(2);
        assertThat(Metrics.counter(registry, "bourse_gateway_errors_total", "unknown_session_index")).isEqualTo(1);
        assertThat(sessionIndexes.next()).isEqualTo(41);
    }

    @Test
    void shouldReportProtocolErrorWhenTypeUnknownOrLengthWrong()
    {
        request.putByte(0, (byte)'Q');
        assertThat(adapter.onMessage(alice, request, 0, 10)).isEqualTo(OrderEntryAdapter.UNKNOWN_TYPE);

        new EnterOrder().wrapAndApplyType(request, 0).orderToken("A1").buySellIndicator(Ouch42.SIDE_BUY)
            .shares(100).stock(Symbols.pack("AAPL")).price(PRICE);
        assertThat(adapter.onMessage(alice, request, 0, EnterOrder.LENGTH - 1))
            .isEqualTo(OrderEntryAdapter.WRONG_LENGTH);
        assertThat(adapter.onMessage(alice, request, 0, EnterOrder.LENGTH + 1))
            .isEqualTo(OrderEntryAdapter.WRONG_LENGTH);
        new CancelOrder().wrapAndApplyType(request, 0).orderToken("A1").shares(0);
        assertThat(adapter.onMessage(alice, request, 0, CancelOrder.LENGTH + 1))
            .isEqualTo(OrderEntryAdapter.WRONG_LENGTH);

        assertThat(engine.commands()).isEmpty();
        assertThat(OuchMessages.of(alice)).isEmpty();
    }

    private void enter(
        final UserSession session, final String token, final char side, final long shares, final String stock,
        final long price, final long timeInForce, final String firm)
    {
        enter(session, token, side, shares, stock, price, timeInForce, firm, 0, Ouch42.DISPLAY_ANONYMOUS);
    }

    private void enter(
        final UserSession session, final String token, final char side, final long shares, final String stock,
        final long price, final long timeInForce, final String firm, final long minimumQuantity, final byte display)
    {
        new EnterOrder().wrapAndApplyType(request, 0)
            .orderToken(token)
            .buySellIndicator((byte)side)
            .shares(shares)
            .stock(Symbols.pack(stock))
            .price(price)
            .timeInForce(timeInForce)
            .firm(firm)
            .display(display)
            .capacity(Ouch42.CAPACITY_AGENCY)
            .intermarketSweepEligibility(Ouch42.ISE_NOT_ELIGIBLE)
            .minimumQuantity(minimumQuantity)
            .crossType(Ouch42.CROSS_TYPE_NO_CROSS)
            .customerType(Ouch42.CUSTOMER_TYPE_DEFAULT);
        assertThat(adapter.onMessage(session, request, 0, EnterOrder.LENGTH)).isEqualTo(OrderEntryAdapter.OK);
    }

    private void replace(
        final UserSession session, final String existing, final String replacement, final long shares,
        final long price, final long timeInForce)
    {
        replace(session, existing, replacement, shares, price, timeInForce, Ouch42.DISPLAY_ANONYMOUS, 0);
    }

    private void replace(
        final UserSession session, final String existing, final String replacement, final long shares,
        final long price, final long timeInForce, final byte display, final long minimumQuantity)
    {
        new ReplaceOrder().wrapAndApplyType(request, 0)
            .existingOrderToken(existing)
            .replacementOrderToken(replacement)
            .shares(shares)
            .price(price)
            .timeInForce(timeInForce)
            .display(display)
            .intermarketSweepEligibility(Ouch42.ISE_ELIGIBLE)
            .minimumQuantity(minimumQuantity);
        assertThat(adapter.onMessage(session, request, 0, ReplaceOrder.LENGTH)).isEqualTo(OrderEntryAdapter.OK);
    }

    private void cancel(final UserSession session, final String token, final long shares)
    {
        new CancelOrder().wrapAndApplyType(request, 0).orderToken(token).shares(shares);
        assertThat(adapter.onMessage(session, request, 0, CancelOrder.LENGTH)).isEqualTo(OrderEntryAdapter.OK);
    }

    private static long id(final int sessionIndex, final long count)
    {
        return ((long)GATEWAY_ID << 56) | ((long)sessionIndex << 32) | count;
    }

    static int firm(final String firm)
    {
        final String padded = String.format("%-4s", firm);
        return (padded.charAt(0) << 24) | (padded.charAt(1) << 16) | (padded.charAt(2) << 8) | padded.charAt(3);
    }
}
