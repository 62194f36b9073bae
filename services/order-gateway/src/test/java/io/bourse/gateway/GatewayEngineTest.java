package io.bourse.gateway;

import io.aeron.Aeron;
import io.aeron.Publication;
import io.bourse.common.config.Credentials;
import io.bourse.common.config.SymbolDirectory;
import io.bourse.common.config.Symbols;
import io.bourse.common.metrics.MetricsEndpoint;
import io.bourse.common.time.MidnightNanoClock;
import io.bourse.common.time.MonotonicEpochNanoClock;
import io.bourse.engine.AdminCommandEncoder;
import io.bourse.engine.EngineService;
import io.bourse.engine.match.SelfTradePrevention;
import io.bourse.gateway.OuchMessages.Accepted;
import io.bourse.gateway.OuchMessages.AiqCanceledMessage;
import io.bourse.gateway.OuchMessages.Broken;
import io.bourse.gateway.OuchMessages.CancelPendingMessage;
import io.bourse.gateway.OuchMessages.CancelRejectMessage;
import io.bourse.gateway.OuchMessages.Canceled;
import io.bourse.gateway.OuchMessages.Executed;
import io.bourse.gateway.OuchMessages.Modified;
import io.bourse.gateway.OuchMessages.PriorityUpdate;
import io.bourse.gateway.OuchMessages.Rejected;
import io.bourse.gateway.OuchMessages.Replaced;
import io.bourse.gateway.OuchMessages.SystemEventMessage;
import io.bourse.gateway.TestClient.Closed;
import io.bourse.gateway.TestClient.EndOfSession;
import io.bourse.ouch.Ouch42;
import org.agrona.CloseHelper;
import org.agrona.DirectBuffer;
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
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The gateway in front of two real matching-engine shards on an embedded media driver, as deployed: cancel on
 * disconnect, AIQ Canceled from the engine's self-trade prevention, Modify Order against a live book, Replace Order
 * with another time in force and after an execution, Broken Trade, the closing cross (admin commands encoded by the
 * AdminCommandEncoder the launcher's admin command uses), the close of the trading day, and a garbage flood that no
 * other session notices. Each test
 * uses its own users and keeps its orders from crossing the others'.
 */
@Timeout(60)
class GatewayEngineTest
{
    private static final String SESSION = "S20250103";
    private static final String[] USERS = {
        "cod01", "keep01", "stp01", "stp02", "fld01", "junk01", "mod01", "mod02", "brk01", "brk02", "crs01", "crs02",
        "peg01", "peg02", "tif01", "tif02", "rpl01", "rpl02"};
    /** The closing cross's price, $500.00: no other test's AMZN order is priced to take part in the cross. */
    private static final long CROSS_PRICE = 5_000_000;
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
            .riskLimits(RiskLimits.parse(RiskLimits.NO_LIMITS, List.of("keep01,,,,,,N"), List.of(), Map.of()))
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
            client.enterOrder("C1", "GOOG", Ouch42.SIDE_BUY, 100, 100_000, Ouch42.TIME_IN_FORCE_MARKET_HOURS);
            client.enterOrder("C2", "AMZN", Ouch42.SIDE_SELL, 200, 90_000_000, Ouch42.TIME_IN_FORCE_SYSTEM_HOURS);
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
            client.enterOrder("K1", "GOOG", Ouch42.SIDE_BUY, 100, 110_000, Ouch42.TIME_IN_FORCE_MARKET_HOURS);
            assertThat(client.await(3).get(2)).isInstanceOf(Accepted.class);
        }

        try (TestClient client = login("keep01", 1))
        {
            assertThat(client.await(3)).hasSize(3);
            client.cancelOrder("K1", 40);

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
            seller.enterOrder("Q1", "MSFT", Ouch42.SIDE_SELL, 100, 2_000_000, Ouch42.TIME_IN_FORCE_MARKET_HOURS);
            assertThat(seller.await(3).get(2)).isInstanceOf(Accepted.class);

            buyer.enterOrder("Q2", "MSFT", Ouch42.SIDE_BUY, 60, 2_005_000, Ouch42.TIME_IN_FORCE_MARKET_HOURS);

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
            seller.enterOrder("M1", "AMZN", Ouch42.SIDE_SELL, 100, 3_000_000, Ouch42.TIME_IN_FORCE_MARKET_HOURS);
            assertThat(seller.await(3).get(2)).isInstanceOf(Accepted.class);
            seller.modifyOrder("M1", Ouch42.SIDE_SELL_SHORT, 40);
            assertThat(seller.await(4)).hasSize(4);
            seller.modifyOrder("M1", Ouch42.SIDE_SELL_SHORT_EXEMPT, 40);
            seller.modifyOrder("M1", Ouch42.SIDE_BUY, 10);
            seller.modifyOrder("M1", Ouch42.SIDE_SELL, 50);
            assertThat(seller.await(5)).hasSize(5);

            buyer.enterOrder("M2", "AMZN", Ouch42.SIDE_BUY, 100, 3_000_000, Ouch42.TIME_IN_FORCE_IMMEDIATE_OR_CANCEL);

            assertThat(seller.await(6).subList(3, 6)).usingRecursiveFieldByFieldElementComparatorIgnoringFields(IGNORED)
                .containsExactly(
                    new Modified(0, "M1", 'T', 40),
                    new Modified(0, "M1", 'E', 40),
                    new Executed(0, "M1", 40, 3_000_000, 'A', 0));
            assertThat(buyer.await(5).subList(3, 5)).usingRecursiveFieldByFieldElementComparatorIgnoringFields(IGNORED)
                .containsExactly(new Executed(0, "M2", 40, 3_000_000, 'R', 0), new Canceled(0, "M2", 60, 'I'));
        }
    }

    /**
     * Replace Order's Time in Force through the engine: an immediate-or-cancel replacement executes and its rest is
     * canceled 'I'; a 1-second one expires ('T') on the clock ticks the gateway sends. AAPL above $800: no other test's
     * order trades there.
     */
    @Test
    void shouldApplyTheReplacementsTimeInForceWhenAReplaceChangesIt() throws Exception
    {
        try (TestClient seller = login("tif01", 1);
            TestClient buyer = login("tif02", 1))
        {
            final long day = Ouch42.TIME_IN_FORCE_MARKET_HOURS;
            seller.enterOrder("T1", "AAPL", Ouch42.SIDE_SELL, 100, 9_000_000, day);
            buyer.enterOrder("T2", "AAPL", Ouch42.SIDE_BUY, 100, 8_000_000, day);
            assertThat(seller.await(3).get(2)).isInstanceOf(Accepted.class);
            assertThat(buyer.await(3).get(2)).isInstanceOf(Accepted.class);

            buyer.replaceOrder("T2", "T3", 150, 9_000_000, Ouch42.TIME_IN_FORCE_IMMEDIATE_OR_CANCEL);

            assertThat(buyer.await(6).subList(3, 6)).usingRecursiveFieldByFieldElementComparatorIgnoringFields(IGNORED)
                .containsExactly(
                    new Replaced(0, "T3", 'B', 150, "AAPL", 9_000_000, 0, "DEMO", 'Y', 0, 'A', 'N', 0, 'N', 'L', "T2",
                        ' '),
                    new Executed(0, "T3", 100, 9_000_000, 'R', 0),
                    new Canceled(0, "T3", 50, 'I'));
            assertThat(seller.await(4).get(3)).usingRecursiveComparison().ignoringFields(IGNORED)
                .isEqualTo(new Executed(0, "T1", 100, 9_000_000, 'A', 0));

            seller.enterOrder("T4", "AAPL", Ouch42.SIDE_SELL, 10, 9_500_000, day);
            assertThat(seller.await(5).get(4)).isInstanceOf(Accepted.class);
            seller.replaceOrder("T4", "T5", 10, 9_500_000, 1);

            assertThat(seller.await(7).subList(5, 7)).usingRecursiveFieldByFieldElementComparatorIgnoringFields(IGNORED)
                .containsExactly(
                    new Replaced(0, "T5", 'S', 10, "AAPL", 9_500_000, 1, "DEMO", 'Y', 0, 'A', 'N', 0, 'N', 'L', "T4",
                        ' '),
                    new Canceled(0, "T5", 10, 'T'));
        }
    }

    /**
     * OUCH 4.2 §2.2: a Replace Order's Shares is the total the order may execute, what it already executed included.
     * AAPL at $700: no other test's order trades there.
     */
    @Test
    void shouldCountTheSharesAlreadyExecutedInAReplacesShares() throws Exception
    {
        try (TestClient seller = login("rpl01", 1);
            TestClient buyer = login("rpl02", 1))
        {
            final long day = Ouch42.TIME_IN_FORCE_MARKET_HOURS;
            seller.enterOrder("P1", "AAPL", Ouch42.SIDE_SELL, 500, 7_000_000, day);
            assertThat(seller.await(3).get(2)).isInstanceOf(Accepted.class);
            buyer.enterOrder("P2", "AAPL", Ouch42.SIDE_BUY, 100, 7_000_000, day);
            assertThat(buyer.await(4).get(3)).isInstanceOf(Executed.class);
            assertThat(seller.await(4).get(3)).isInstanceOf(Executed.class);

            seller.replaceOrder("P1", "P3", 500, 7_100_000, day);
            assertThat(seller.await(5).get(4)).usingRecursiveComparison().ignoringFields(IGNORED)
                .isEqualTo(new Replaced(0, "P3", 'S', 400, "AAPL", 7_100_000, day, "DEMO", 'Y', 0, 'A', 'N', 0, 'N',
                    'L', "P1", ' '));

            seller.replaceOrder("P3", "P4", 100, 7_100_000, day);
            assertThat(seller.await(7).subList(5, 7)).usingRecursiveFieldByFieldElementComparatorIgnoringFields(IGNORED)
                .containsExactly(new Canceled(0, "P3", 400, 'U'), new Rejected(0, "P4", 'O'));
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
            seller.enterOrder("BS1", "GOOG", Ouch42.SIDE_SELL, 100, 1_770_000, Ouch42.TIME_IN_FORCE_MARKET_HOURS);
            assertThat(seller.await(3).get(2)).isInstanceOf(Accepted.class);
            buyer.enterOrder("BB1", "GOOG", Ouch42.SIDE_BUY, 100, 1_770_000, Ouch42.TIME_IN_FORCE_MARKET_HOURS);
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
    void shouldRunTheClosingCrossWithCancelPendingCancelRejectAndExecutionsFlaggedC() throws Exception
    {
        final long day = Ouch42.TIME_IN_FORCE_MARKET_HOURS;
        try (TestClient buyer = login("crs01", 1);
            TestClient seller = login("crs02", 1);
            Aeron aeron = Aeron.connect(new Aeron.Context().aeronDirectoryName(engine.aeronDirectoryName()));
            Publication commands = aeron.addExclusivePublication(engine.layout().commandChannel(),
                engine.layout().commandStreamId(1)))
        {
            buyer.enterOrder("X1", "AMZN", Ouch42.SIDE_BUY, 100, CROSS_PRICE, day, Ouch42.CROSS_TYPE_CLOSING);
            buyer.enterOrder("X2", "AMZN", Ouch42.SIDE_BUY, 100, CROSS_PRICE, day, Ouch42.CROSS_TYPE_CLOSING);
            seller.enterOrder("Y1", "AMZN", Ouch42.SIDE_SELL, 150, CROSS_PRICE, day, Ouch42.CROSS_TYPE_CLOSING);
            assertThat(buyer.await(4).subList(2, 4)).usingRecursiveFieldByFieldElementComparatorIgnoringFields(IGNORED)
                .containsExactly(
                    new Accepted(0, "X1", 'B', 100, "AMZN", CROSS_PRICE, day, "DEMO", 'Y', 0, 'A', 'N', 0, 'C', 'L',
                        ' '),
                    new Accepted(0, "X2", 'B', 100, "AMZN", CROSS_PRICE, day, "DEMO", 'Y', 0, 'A', 'N', 0, 'C', 'L',
                        ' '));
            assertThat(seller.await(3)).hasSize(3);

            final double locksBefore = engineCommands(1, "cross_lock");
            crossLock(commands, "AMZN");
            awaitEngineCommands(1, "cross_lock", locksBefore + 1);
            seller.enterOrder("Y2", "AMZN", Ouch42.SIDE_SELL, 10, CROSS_PRICE, day, Ouch42.CROSS_TYPE_CLOSING);
            buyer.cancelOrder("X1", 50);
            buyer.cancelOrder("X2", 0);
            assertThat(buyer.await(6).subList(4, 6)).usingRecursiveFieldByFieldElementComparatorIgnoringFields(IGNORED)
                .containsExactly(new CancelRejectMessage(0, "X1"), new CancelPendingMessage(0, "X2"));
            assertThat(seller.await(4).get(3)).usingRecursiveComparison().ignoringFields(IGNORED)
                .isEqualTo(new Rejected(0, "Y2", 'M'));

            runCross(commands, "AMZN");

            final List<Object> bought = buyer.await(9);
            assertThat(bought.subList(6, 9)).usingRecursiveFieldByFieldElementComparatorIgnoringFields(IGNORED)
                .containsExactly(
                    new Executed(0, "X1", 100, CROSS_PRICE, 'C', 0),
                    new Executed(0, "X2", 50, CROSS_PRICE, 'C', 0),
                    new Canceled(0, "X2", 50, 'U'));
            final List<Object> sold = seller.await(6);
            assertThat(sold.subList(4, 6)).usingRecursiveFieldByFieldElementComparatorIgnoringFields(IGNORED)
                .containsExactly(
                    new Executed(0, "Y1", 100, CROSS_PRICE, 'C', 0),
                    new Executed(0, "Y1", 50, CROSS_PRICE, 'C', 0));
            assertThat(List.of(((Executed)sold.get(4)).matchNumber(), ((Executed)sold.get(5)).matchNumber()))
                .as("one match number per pair, both parties")
                .isEqualTo(List.of(((Executed)bought.get(6)).matchNumber(), ((Executed)bought.get(7)).matchNumber()));
        }
    }

    /**
     * A second gateway (id 2) on the same shards, closing 4 s after its start, its wall clock held short of the close
     * until the day is set up (a loaded host took longer, and the close came first; a clock moved ahead instead would
     * tick the shared shards into the future): at the close its orders get the close's cancels (Canceled 'T'), a
     * closing-cross order locked in the cross stays, pending, so the day stays closing, and an Enter Order meanwhile
     * is Rejected 'C'; after the cross the last order is done and the session gets End of Day, then End of Session. A
     * user away at the close, with cancel on disconnect off, finds it all in its replay.
     */
    @Test
    void shouldCloseTheDayAtItsTimeRejectingNewOrdersCancelingEveryOrderThenEndingTheSessions(
        @TempDir final Path closingJournalDir) throws Exception
    {
        final long day = Ouch42.TIME_IN_FORCE_MARKET_HOURS;
        final long dollar = 10_000;
        final MonotonicEpochNanoClock systemClock = new MonotonicEpochNanoClock();
        final long closeEpochNs = systemClock.nanoTime() + TimeUnit.SECONDS.toNanos(4);
        final long closeNs = closeEpochNs % MidnightNanoClock.NANOS_PER_DAY;
        final AtomicBoolean daySetUp = new AtomicBoolean();
        assumeTrue(closeNs < TimeUnit.DAYS.toNanos(1) - TimeUnit.SECONDS.toNanos(30), "too near midnight UTC");
        try (GatewayService closing = GatewayService.launch(new GatewayContext()
                .gatewayId(2)
                .port(0)
                .bindAddress("127.0.0.1")
                .metricsPort(0)
                .jvmMetrics(false)
                .sessionName(SESSION)
                .closeTimeNs(closeNs)
                .epochClock(() -> daySetUp.get() ? systemClock.nanoTime() :
                    Math.min(systemClock.nanoTime(), closeEpochNs - 1))
                .journalDir(closingJournalDir.toString())
                .credentials(Credentials.parse(List.of("eod01,eod01pw,DEMO", "eod02,eod02pw,DEMO")))
                .riskLimits(RiskLimits.parse(RiskLimits.NO_LIMITS, List.of("eod02,,,,,,N"), List.of(), Map.of()))
                .streamLayout(engine.layout())
                .symbolDirectory(EngineShards.SYMBOLS)
                .idleStrategy(new SleepingMillisIdleStrategy(1)));
            Aeron aeron = Aeron.connect(new Aeron.Context().aeronDirectoryName(engine.aeronDirectoryName()));
            Publication commands = aeron.addExclusivePublication(engine.layout().commandChannel(),
                engine.layout().commandStreamId(1)))
        {
            try (TestClient away = TestClient.login(closing.port(), "eod02", 1))
            {
                away.enterOrder("K1", "GOOG", Ouch42.SIDE_BUY, 100, dollar, day);
                assertThat(away.await(3).get(2)).isInstanceOf(Accepted.class);
            }
            try (TestClient trader = TestClient.login(closing.port(), "eod01", 1))
            {
                trader.enterOrder("E1", "GOOG", Ouch42.SIDE_BUY, 100, dollar, day);
                trader.enterOrder("E2", "MSFT", Ouch42.SIDE_BUY, 100, dollar, day, Ouch42.CROSS_TYPE_CLOSING);
                assertThat(trader.await(4).subList(2, 4)).allMatch(Accepted.class::isInstance);
                final double locksBefore = engineCommands(1, "cross_lock");
                crossLock(commands, "MSFT");
                awaitEngineCommands(1, "cross_lock", locksBefore + 1);
                assertThat(marketState(closing)).as("open before the close").isZero();
                daySetUp.set(true);
                Thread.sleep(Math.max(0, TimeUnit.NANOSECONDS.toMillis(closeEpochNs - systemClock.nanoTime())));

                final List<Object> atClose = trader.await(6);
                trader.enterOrder("E3", "GOOG", Ouch42.SIDE_BUY, 100, dollar, day);
                final Object closedAnswer = trader.await(7).get(6);
                final double closingState = marketState(closing);
                runCross(commands, "MSFT");
                final List<Object> afterCross = trader.await(11);

                assertThat(atClose.subList(4, 6)).usingRecursiveFieldByFieldElementComparatorIgnoringFields(IGNORED)
                    .containsExactlyInAnyOrder(new Canceled(0, "E1", 100, 'T'), new CancelPendingMessage(0, "E2"));
                assertThat(closedAnswer).usingRecursiveComparison().ignoringFields(IGNORED)
                    .isEqualTo(new Rejected(0, "E3", 'C'));
                assertThat(closingState).as("closing while E2 waits for the cross").isEqualTo(1);
                assertThat(afterCross.subList(7, 11)).usingRecursiveFieldByFieldElementComparatorIgnoringFields(IGNORED)
                    .containsExactly(
                        new Canceled(0, "E2", 100, 'T'), new SystemEventMessage(0, 'E'), new EndOfSession(),
                        new Closed());
                assertThat(marketState(closing)).as("closed").isEqualTo(2);
            }
            try (TestClient away = TestClient.login(closing.port(), "eod02", 1))
            {
                assertThat(away.await(7).subList(1, 7))
                    .usingRecursiveFieldByFieldElementComparatorIgnoringFields(IGNORED)
                    .containsExactly(
                        new SystemEventMessage(0, 'S'),
                        new Accepted(
                            0, "K1", 'B', 100, "GOOG", dollar, day, "DEMO", 'Y', 0, 'A', 'N', 0, 'N', 'L', ' '),
                        new Canceled(0, "K1", 100, 'T'),
                        new SystemEventMessage(0, 'E'),
                        new EndOfSession(),
                        new Closed());
            }
        }
    }

    /**
     * Shard 2 (IBM) restarts without the event archive, so its new run holds none of its earlier run's orders (as after
     * a media driver restart, which deletes the archive): a gateway (id 3) cancels the IBM order it still holds open to
     * its owner, OUCH 4.2 Canceled 'Z' (system cancel) for its open shares, and counts it; the owner's MSFT order, on
     * shard 1, stays open. Before, the IBM order stayed open for the client while no book held it: the engine ignored
     * its Cancel Order, and it could never trade.
     */
    @Test
    void shouldCancelToItsOwnerAnOrderWhoseShardRestartedWithoutIt(@TempDir final Path restartJournalDir)
        throws Exception
    {
        final SymbolDirectory withShard2 = SymbolDirectory.parse("AAPL@0,MSFT@1,GOOG@0,AMZN@1,IBM@2");
        final long day = Ouch42.TIME_IN_FORCE_MARKET_HOURS;
        EngineService shard2 = engine.launchShard(2, withShard2);
        try (GatewayService restarting = GatewayService.launch(new GatewayContext()
                .gatewayId(3)
                .port(0)
                .bindAddress("127.0.0.1")
                .metricsPort(0)
                .jvmMetrics(false)
                .sessionName(SESSION)
                .journalDir(restartJournalDir.toString())
                .credentials(Credentials.parse(List.of("rst01,rst01pw,DEMO")))
                .riskLimits(RiskLimits.parse(RiskLimits.NO_LIMITS, List.of(), List.of(), Map.of()))
                .streamLayout(engine.layout())
                .symbolDirectory(withShard2)
                .idleStrategy(new SleepingMillisIdleStrategy(1)));
            TestClient client = TestClient.login(restarting.port(), "rst01", 1))
        {
            client.enterOrder("R1", "IBM", Ouch42.SIDE_BUY, 100, 1_000_000, day);
            client.enterOrder("R2", "MSFT", Ouch42.SIDE_BUY, 100, 100, day);
            assertThat(client.await(4).subList(2, 4)).allMatch(Accepted.class::isInstance);

            shard2.close();
            shard2 = engine.launchShard(2, withShard2);

            assertThat(client.await(5).get(4)).usingRecursiveComparison().ignoringFields(IGNORED)
                .isEqualTo(new Canceled(0, "R1", 100, 'Z'));
            assertThat(MetricsEndpoint.scrape(restarting.metricsPort()))
                .contains("\nbourse_gateway_system_cancels_total 1.0\n")
                .contains("\nbourse_gateway_open_orders 1.0\n");
            client.cancelOrder("R2", 0);
            assertThat(client.await(6).get(5)).usingRecursiveComparison().ignoringFields(IGNORED)
                .isEqualTo(new Canceled(0, "R2", 100, 'U'));
        }
        finally
        {
            shard2.close();
        }
    }

    @Test
    void shouldSendOrderPriorityUpdateWithTheMidpointWhenTheBookGivesARestingPegOne() throws Exception
    {
        final long limit = 3_000_000;
        try (TestClient peg = login("peg01", 1);
            TestClient quotes = login("peg02", 1))
        {
            quotes.enterOrder("PB1", "GOOG", Ouch42.SIDE_BUY, 100, 1_900_000, Ouch42.TIME_IN_FORCE_MARKET_HOURS);
            assertThat(quotes.await(3).get(2)).isInstanceOf(Accepted.class);
            peg.enterMidpointPeg("M1", "GOOG", Ouch42.SIDE_BUY, 100, limit);
            final Accepted accepted = (Accepted)peg.await(3).get(2);
            assertThat(accepted.price()).isEqualTo(limit);
            assertThat(accepted.display()).isEqualTo('M');

            quotes.enterOrder("PS1", "GOOG", Ouch42.SIDE_SELL, 100, 2_000_000, Ouch42.TIME_IN_FORCE_MARKET_HOURS);

            assertThat(peg.await(4).get(3)).isEqualTo(
                new PriorityUpdate(((PriorityUpdate)peg.await(4).get(3)).timestamp(), "M1", 1_950_000, 'M',
                    accepted.orderReferenceNumber()));
            assertThat(quotes.await(4).get(3)).isInstanceOf(Accepted.class);
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
                trader.enterOrder("F" + i, "AAPL", Ouch42.SIDE_BUY, 100, 500_000, Ouch42.TIME_IN_FORCE_MARKET_HOURS);
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

            assertThat(junk.await(3).subList(2, 3)).as("closed, no End of Session").isEqualTo(List.of(new Closed()));
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
        final AdminCommandEncoder encoder = new AdminCommandEncoder();
        offer(commands, encoder.buffer(), encoder.breakTrade(timeOfDay(), Symbols.pack(symbol), matchNumber, reason));
    }

    private static void crossLock(final Publication commands, final String symbol)
    {
        final AdminCommandEncoder encoder = new AdminCommandEncoder();
        offer(commands, encoder.buffer(), encoder.crossLock(timeOfDay(), Symbols.pack(symbol)));
    }

    private static void runCross(final Publication commands, final String symbol)
    {
        final AdminCommandEncoder encoder = new AdminCommandEncoder();
        offer(commands, encoder.buffer(), encoder.runCross(timeOfDay(), Symbols.pack(symbol)));
    }

    /**
     * @return now, in ns since midnight UTC: an admin command's timestamp. A fixed early one would read, from noon UTC
     *         on, as more than 12 h behind the shard's clock and so of the next day, which forgets the day's executions.
     */
    private static long timeOfDay()
    {
        return new MidnightNanoClock().nanosSinceMidnight();
    }

    /** Offers an admin command, retrying through back pressure for up to 5 seconds. */
    private static void offer(final Publication commands, final DirectBuffer buffer, final int length)
    {
        final long deadlineNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (commands.offer(buffer, 0, length) < 0)
        {
            assertThat(System.nanoTime()).isLessThan(deadlineNs);
            Thread.yield();
        }
    }

    /** @return the shard's {@code bourse_engine_commands_total} of one type, as its metrics page shows it. */
    private static double engineCommands(final int shardId, final String type) throws Exception
    {
        final Matcher matcher = Pattern.compile("(?m)^bourse_engine_commands_total\\{type=\"" + type + "\"} (\\S+)$")
            .matcher(MetricsEndpoint.scrape(engine.metricsPort(shardId)));
        return matcher.find() ? Double.parseDouble(matcher.group(1)) : 0;
    }

    /**
     * Waits until the shard has taken a command of the type: every command the gateway sends from then on comes after
     * it on the shard's sequenced input (its commands on one stream from two publications are in no set order).
     */
    private static void awaitEngineCommands(final int shardId, final String type, final double count) throws Exception
    {
        final long deadlineNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (engineCommands(shardId, type) < count)
        {
            assertThat(System.nanoTime()).as(type + " taken").isLessThan(deadlineNs);
            Thread.sleep(5);
        }
    }

    private static TestClient login(final String username, final long sequenceNumber) throws Exception
    {
        return TestClient.login(gateway.port(), username, sequenceNumber);
    }

    /** @return {@code bourse_gateway_market_state} of the gateway: 0 open, 1 closing, 2 closed. */
    private static double marketState(final GatewayService gateway) throws Exception
    {
        final Matcher matcher = Pattern.compile("(?m)^bourse_gateway_market_state (\\S+)$")
            .matcher(MetricsEndpoint.scrape(gateway.metricsPort()));
        assertThat(matcher.find()).as("bourse_gateway_market_state").isTrue();
        return Double.parseDouble(matcher.group(1));
    }

    private static double scrapeCounter(final String name) throws Exception
    {
        final Matcher matcher = Pattern.compile("(?m)^" + name + "(\\{[^}]*})? (\\S+)$")
            .matcher(MetricsEndpoint.scrape(gateway.metricsPort()));
        double sum = 0;
        int samples = 0;
        while (matcher.find())
        {
            sum += Double.parseDouble(matcher.group(2));
            samples++;
        }
        assertThat(samples).as(name).isPositive();
        return sum;
    }
}
