package io.bourse.gateway;

import io.bourse.common.aeron.StreamLayout;
import io.bourse.common.config.Credentials;
import io.bourse.common.config.Settings;
import io.bourse.common.config.SymbolDirectory;
import io.bourse.common.time.MidnightNanoClock;
import io.bourse.common.time.SessionNames;
import io.bourse.gateway.OuchMessages.Rejected;
import io.bourse.gateway.OuchMessages.SystemEventMessage;
import io.bourse.gateway.RecordingEngineProxy.Cancel;
import io.bourse.gateway.RecordingEngineProxy.ClockTick;
import io.bourse.gateway.RecordingEngineProxy.NewOrder;
import io.bourse.gateway.TestClient.Closed;
import io.bourse.gateway.TestClient.EndOfSession;
import io.bourse.gateway.TestClient.LoginAccepted;
import io.bourse.gateway.TestClient.LoginRejected;
import io.bourse.ouch.EnterOrder;
import io.bourse.ouch.OrderRejected;
import io.bourse.ouch.Ouch42;
import io.bourse.ouch.SystemEvent;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import org.agrona.CloseHelper;
import org.agrona.concurrent.AgentRunner;
import org.agrona.concurrent.SleepingMillisIdleStrategy;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;

import static io.bourse.common.Await.awaitAsserted;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The SoupBinTCP side of the real gateway agent on a real socket, with nassau clients; engine commands are recorded
 * instead of published (no Aeron here, see {@link GatewayServiceTest}).
 */
@Timeout(10)
class GatewaySessionTest
{
    private static final String SESSION = "S20250102";
    private static final long TEN_AM_NS = 36_000_000_000_000L;
    private static final long DAY_NS = TimeUnit.DAYS.toNanos(1);
    /** The test's first trading day: 2024-10-04, day 20,000 of the Unix epoch. */
    private static final long FIRST_DAY = 20_000L;
    private static final String FIRST_DAY_SESSION = SessionNames.ofDate(LocalDate.ofEpochDay(FIRST_DAY));
    private static final String NEXT_DAY_SESSION = SessionNames.ofDate(LocalDate.ofEpochDay(FIRST_DAY + 1));
    /** The close time of the rollover tests. */
    private static final long NINE_AM_NS = TEN_AM_NS - TimeUnit.HOURS.toNanos(1);

    private final RecordingEngineProxy engine = new RecordingEngineProxy();
    private final UnsafeBuffer request = new UnsafeBuffer(new byte[64]);
    /** Added to System.nanoTime for the gateway's timers, to move them on without waiting. */
    private final AtomicLong timerSkewNs = new AtomicLong();
    private GatewayAgent agent;
    /** The gateway's wall clock, ns since the epoch: 10:00:00 on the first day unless a test moves it. */
    private final AtomicLong wallClockNs = new AtomicLong(FIRST_DAY * DAY_NS + TEN_AM_NS);
    @TempDir
    private Path journalDir;
    private PrometheusRegistry registry;
    private JournalStore journals;
    private AgentRunner runner;
    private int port;

    @BeforeEach
    void startGateway() throws Exception
    {
        startGateway(UnaryOperator.identity());
    }

    @AfterEach
    void stopGateway()
    {
        CloseHelper.closeAll(runner, journals);
    }

    /**
     * @param tuning changes to the test's configuration.
     */
    private void startGateway(final UnaryOperator<GatewayContext> tuning) throws Exception
    {
        final GatewayContext ctx = tuning.apply(new GatewayContext()
            .port(0)
            .bindAddress("127.0.0.1")
            .sessionName(SESSION)
            .maxSessions(4)
            .journalDir(journalDir.toString())
            .credentials(Credentials.parse(List.of("demo01,demo01pw,DEMO", "demo02,demo02pw,DEMO")))
            .streamLayout(StreamLayout.fromSettings(new Settings(Map.of())))
            .symbolDirectory(SymbolDirectory.parse("AAPL@0,MSFT@1"))
            .idleStrategy(new SleepingMillisIdleStrategy(1)))
            .conclude();
        final ServerSocketChannel serverChannel = ServerSocketChannel.open();
        serverChannel.configureBlocking(false);
        serverChannel.bind(new InetSocketAddress(ctx.bindAddress(), 0));
        port = ((InetSocketAddress)serverChannel.getLocalAddress()).getPort();

        registry = new PrometheusRegistry();
        final GatewayMetrics metrics = new GatewayMetrics(registry);
        // Wall clock set by the test so that gateway timestamps are known; timers run on System.nanoTime + skew.
        final DutyCycleClock clock = new DutyCycleClock(
            new MidnightNanoClock(wallClockNs::get), () -> System.nanoTime() + timerSkewNs.get());
        journals = JournalStore.open(journalDir, TradingDays.firstSessionName(ctx, clock), ctx.journalSync(),
            ctx.journalPretouchBytes(), metrics);
        agent = TestGatewayAgents.newAgent(ctx, serverChannel, Selector.open(), engine, journals, metrics, clock);
        runner = new AgentRunner(ctx.idleStrategy(), Throwable::printStackTrace, null, agent);
        AgentRunner.startOnThread(runner);
    }

    @Test
    void shouldRejectLoginAsNotAuthorizedWhenPasswordIsWrong() throws Exception
    {
        try (TestClient client = new TestClient(port))
        {
            client.login("demo01", "wrong", "", 0);

            assertThat(client.await(2)).isEqualTo(List.of(new LoginRejected('A'), new Closed()));
        }
        assertThat(Metrics.counter(registry, "bourse_gateway_login_failures_total", null)).isEqualTo(1);
    }

    @Test
    void shouldRejectLoginAsSessionNotAvailableWhenUserIsLoggedInOrSessionIsNotToday() throws Exception
    {
        try (TestClient first = new TestClient(port);
            TestClient second = new TestClient(port);
            TestClient yesterday = new TestClient(port))
        {
            first.login("demo01", "demo01pw", "", 0);
            assertThat(first.await(2)).isEqualTo(List.of(
                new LoginAccepted(SESSION, 1), new SystemEventMessage(TEN_AM_NS, 'S')));

            second.login("demo01", "demo01pw", SESSION, 0);
            yesterday.login("demo02", "demo02pw", "S20250101", 0);

            assertThat(second.await(2)).isEqualTo(List.of(new LoginRejected('S'), new Closed()));
            assertThat(yesterday.await(2)).isEqualTo(List.of(new LoginRejected('S'), new Closed()));
        }
    }

    @Test
    void shouldReplayFromRequestedSequenceNumberWhenUserLogsInAgain() throws Exception
    {
        try (TestClient client = new TestClient(port))
        {
            client.login("demo01", "demo01pw", "", 0);
            client.await(2);
            enterOrder(client, "X1", "IBM");
            assertThat(client.await(3).get(2)).isEqualTo(new Rejected(TEN_AM_NS, "X1", 'S'));
            client.logout();
            assertThat(client.await(4).get(3)).isEqualTo(new Closed());
        }
        try (TestClient client = new TestClient(port))
        {
            client.login("demo01", "demo01pw", SESSION, 2);
            assertThat(client.await(2).get(1)).isEqualTo(new Rejected(TEN_AM_NS, "X1", 'S'));
            enterOrder(client, "X2", "IBM");
            client.logout();

            assertThat(client.await(4)).isEqualTo(List.of(
                new LoginAccepted(SESSION, 2),
                new Rejected(TEN_AM_NS, "X1", 'S'),
                new Rejected(TEN_AM_NS, "X2", 'S'),
                new Closed()));
        }
        try (TestClient client = new TestClient(port))
        {
            client.login("demo01", "demo01pw", "", 99);
            assertThat(client.await(1)).isEqualTo(List.of(new LoginAccepted(SESSION, 4)));
            enterOrder(client, "X3", "IBM");
            client.logout();

            assertThat(client.await(3)).isEqualTo(List.of(
                new LoginAccepted(SESSION, 4),
                new Rejected(TEN_AM_NS, "X3", 'S'),
                new Closed()));
        }
        assertThat(engine.commands()).isEmpty();
        assertThat(Metrics.counter(registry, "bourse_gateway_replayed_messages_total", null)).isEqualTo(1);
        assertThat(Metrics.counter(registry, "bourse_gateway_journal_records_total", null)).isEqualTo(4);
        assertThat(Metrics.counter(registry, "bourse_gateway_journal_written_bytes_total", null)).isEqualTo(
            4 * SessionJournal.RECORD_HEADER_LENGTH + SystemEvent.LENGTH + 3 * OrderRejected.LENGTH);
    }

    @Test
    void shouldStartWithNextNewMessageWhenRequestedSequenceNumberIsZero() throws Exception
    {
        try (TestClient client = new TestClient(port))
        {
            client.login("demo01", "demo01pw", "", 0);
            enterOrder(client, "Z1", "IBM");
            enterOrder(client, "Z2", "IBM");
            assertThat(client.await(4).get(3)).isEqualTo(new Rejected(TEN_AM_NS, "Z2", 'S'));
            client.logout();
            assertThat(client.await(5).get(4)).isEqualTo(new Closed());
        }
        try (TestClient client = new TestClient(port))
        {
            client.login("demo01", "demo01pw", "", 0);
            enterOrder(client, "Z3", "IBM");
            client.logout();

            assertThat(client.await(3)).isEqualTo(List.of(
                new LoginAccepted(SESSION, 4),
                new Rejected(TEN_AM_NS, "Z3", 'S'),
                new Closed()));
        }
    }

    @Test
    void shouldChooseFirstMessageFromRequestedSequenceNumber()
    {
        assertThat(SessionRegistry.firstToSend(0, 0)).isEqualTo(1);
        assertThat(SessionRegistry.firstToSend(0, 7)).isEqualTo(8);
        assertThat(SessionRegistry.firstToSend(1, 7)).isEqualTo(1);
        assertThat(SessionRegistry.firstToSend(7, 7)).isEqualTo(7);
        assertThat(SessionRegistry.firstToSend(8, 7)).isEqualTo(8);
        assertThat(SessionRegistry.firstToSend(9, 7)).isEqualTo(8);
        assertThat(SessionRegistry.firstToSend(-1, 7)).isEqualTo(8);
        assertThat(SessionRegistry.firstToSend(1, 0)).isEqualTo(1);
    }

    @Test
    void shouldSendMessagesOnceForcedWhenJournalSyncIsBatch() throws Exception
    {
        stopGateway();
        startGateway((ctx) -> ctx.journalSync(JournalSync.BATCH));
        try (TestClient client = new TestClient(port))
        {
            client.login("demo01", "demo01pw", "", 0);
            enterOrder(client, "B1", "IBM");

            assertThat(client.await(3)).isEqualTo(List.of(
                new LoginAccepted(SESSION, 1),
                new SystemEventMessage(TEN_AM_NS, 'S'),
                new Rejected(TEN_AM_NS, "B1", 'S')));
        }
        assertThat(Metrics.counter(registry, "bourse_gateway_journal_syncs_total", null)).isEqualTo(2);
    }

    /**
     * A gateway started after its close time (09:00; its clock says 10:00) closes at once: a login gets Start of Day,
     * End of Day, then End of Session, as nothing is open; a login after a restart gets the same replayed, with no
     * second End of Day; a gateway restarted on those journals with a close time still ahead closes at once too.
     */
    @Test
    void shouldEndEachSessionAfterEndOfDayOnceTheDayIsClosedAndJournalEndOfDayOnce() throws Exception
    {
        final long nineAmNs = TEN_AM_NS - TimeUnit.HOURS.toNanos(1);
        final List<Object> closedDay = List.of(
            new LoginAccepted(SESSION, 1),
            new SystemEventMessage(TEN_AM_NS, 'S'),
            new SystemEventMessage(TEN_AM_NS, 'E'),
            new EndOfSession(),
            new Closed());
        stopGateway();
        startGateway((ctx) -> ctx.closeTimeNs(nineAmNs));
        try (TestClient client = new TestClient(port))
        {
            client.login("demo01", "demo01pw", "", 0);

            assertThat(client.await(5)).isEqualTo(closedDay);
        }
        stopGateway();
        startGateway((ctx) -> ctx.closeTimeNs(nineAmNs));
        try (TestClient client = new TestClient(port))
        {
            client.login("demo01", "demo01pw", "", 1);

            assertThat(client.await(5)).isEqualTo(closedDay);
        }
        stopGateway();
        startGateway((ctx) -> ctx.closeTimeNs(TEN_AM_NS + TimeUnit.HOURS.toNanos(1)));
        try (TestClient client = new TestClient(port))
        {
            client.login("demo02", "demo02pw", "", 0);

            assertThat(client.await(5)).as("closed before the restart, whatever the close time")
                .isEqualTo(closedDay);
        }
    }

    /**
     * The close at 11:00 drains with an order its shard never answers (down): End of Day 30 s later, the order still
     * open. A gateway restarted on that day, its clock not moved on, rebuilds the order as open and cancels it again,
     * but ends the day at once, its drain over before the restart: a login gets its replay, then End of Session. Before,
     * the restarted gateway waited a second drain of 30 s before it ended any session.
     */
    @Test
    void shouldEndTheSessionsAtOnceWhenRestartedOnADayClosedWithAnOrderStillOpen() throws Exception
    {
        final long elevenAmNs = TEN_AM_NS + TimeUnit.HOURS.toNanos(1);
        final long drainedNs = elevenAmNs + TimeUnit.SECONDS.toNanos(MarketClose.DRAIN_SECONDS + 1);
        stopGateway();
        startGateway((ctx) -> ctx.closeTimeNs(elevenAmNs));
        try (TestClient client = new TestClient(port))
        {
            client.login("demo01", "demo01pw", "", 0);
            client.await(2);
            enterOrder(client, "A1", "AAPL");
            awaitNewOrders(1);
            engine.available = false;

            wallClockNs.set(FIRST_DAY * DAY_NS + elevenAmNs);
            awaitAsserted(() -> assertThat(agent.day().marketClose().state()).isEqualTo(MarketClose.State.CLOSING));
            wallClockNs.set(FIRST_DAY * DAY_NS + drainedNs);
            assertThat(client.await(5)).as("End of Day, the order still open").contains(new EndOfSession());
        }
        stopGateway();
        startGateway((ctx) -> ctx.closeTimeNs(elevenAmNs));
        assertThat(agent.day().orderEntry().openOrderCount()).as("rebuilt open").isOne();
        try (TestClient client = new TestClient(port))
        {
            client.login("demo01", "demo01pw", "", 1);

            assertThat(client.await(5)).isEqualTo(List.of(
                new LoginAccepted(SESSION, 1),
                new SystemEventMessage(TEN_AM_NS, 'S'),
                new SystemEventMessage(drainedNs, 'E'),
                new EndOfSession(),
                new Closed()));
        }
        assertThat(agent.day().marketClose().state()).isEqualTo(MarketClose.State.CLOSED);
    }

    /**
     * Daily sessions (no session name configured), close at 09:00: the day closes with an order the engine never
     * answers (canceled at the close, still open 30 s later: End of Day anyway); at midnight UTC the next date's
     * session opens, with its own journals, its sessions starting over (Start of Day as message 1) and every Order
     * Token of the day before usable again under a later session index; the day before's session is no longer
     * available.
     */
    @Test
    void shouldOpenTheNextDatesSessionAtMidnightOnceTheDayHasClosed() throws Exception
    {
        restartWithDailySessionsAt(NINE_AM_NS - TimeUnit.MINUTES.toNanos(1), NINE_AM_NS);
        final long openNs = NINE_AM_NS - TimeUnit.MINUTES.toNanos(1);
        final long drainedNs = NINE_AM_NS + TimeUnit.SECONDS.toNanos(MarketClose.DRAIN_SECONDS + 1);
        try (TestClient client = new TestClient(port))
        {
            client.login("demo01", "demo01pw", "", 0);
            assertThat(client.await(2)).isEqualTo(List.of(
                new LoginAccepted(FIRST_DAY_SESSION, 1), new SystemEventMessage(openNs, 'S')));
            enterOrder(client, "A1", "AAPL");
            awaitNewOrders(1);

            wallClockNs.set(FIRST_DAY * DAY_NS + NINE_AM_NS);
            final long deadlineNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(2);
            while (engine.commands().size() < 2 && System.nanoTime() < deadlineNs)
            {
                Thread.sleep(1);
            }
            assertThat(engine.commands()).as("the close's cancel").hasSize(2).last().isInstanceOf(Cancel.class);
            wallClockNs.set(FIRST_DAY * DAY_NS + drainedNs);

            assertThat(client.await(5)).as("End of Day though the engine never answered").isEqualTo(List.of(
                new LoginAccepted(FIRST_DAY_SESSION, 1), new SystemEventMessage(openNs, 'S'),
                new SystemEventMessage(drainedNs, 'E'), new EndOfSession(), new Closed()));
        }
        final long nextDayNs = DAY_NS + TimeUnit.SECONDS.toNanos(1);
        wallClockNs.set(FIRST_DAY * DAY_NS + nextDayNs);
        awaitNextDaysDirectory();
        try (TestClient client = new TestClient(port);
            TestClient dayBefore = new TestClient(port))
        {
            client.login("demo01", "demo01pw", "", 0);
            assertThat(client.await(2)).as("OUCH 4.2 Timestamp: ns since this day's midnight").isEqualTo(List.of(
                new LoginAccepted(NEXT_DAY_SESSION, 1), new SystemEventMessage(TimeUnit.SECONDS.toNanos(1), 'S')));
            enterOrder(client, "A1", "AAPL");
            final List<NewOrder> orders = awaitNewOrders(2);
            final long firstDayOrder = orders.get(0).clientOrderId();
            final long nextDayOrder = orders.get(1).clientOrderId();
            final long firstDayIndex = firstDayOrder >>> 32 & SessionIndexes.MAX_SESSION_INDEX;
            assertThat(nextDayOrder >>> 32 & SessionIndexes.MAX_SESSION_INDEX)
                .as("session index continued from the day before").isGreaterThan(firstDayIndex);
            final Path floorFile = journalDir.resolve(NEXT_DAY_SESSION).resolve(JournalStore.SESSION_INDEX_FLOOR_FILE);
            assertThat(Files.readString(floorFile))
                .as("kept for a restart").isEqualTo(Long.toString(firstDayIndex));

            dayBefore.login("demo02", "demo02pw", FIRST_DAY_SESSION, 1);
            assertThat(dayBefore.await(2)).isEqualTo(List.of(new LoginRejected('S'), new Closed()));
        }
        assertThat(journalDir.resolve(FIRST_DAY_SESSION).resolve(JournalStore.ORDERS_CANCELED_FILE))
            .as("the order still open left for a later start to cancel again").doesNotExist();
        try (Stream<Path> nextDayJournals = Files.list(journalDir.resolve(NEXT_DAY_SESSION)))
        {
            assertThat(nextDayJournals).as("the next day's journals")
                .anyMatch((path) -> path.getFileName().toString().startsWith("demo01"));
        }
    }

    /**
     * At the rollover, a connection still awaiting its login goes over to the next day, which answers its Login Request
     * (a blank session: the next day's); before, it was ended with End of Session, no answer to a login on its way. A
     * connection of the closed day that lingers (here after a Login Rejected) goes on lingering in the next day until
     * its client closes its end.
     */
    @Test
    void shouldLogAConnectionAwaitingItsLoginAtTheRolloverInToTheNextDayAndKeepTheLingeringOne() throws Exception
    {
        stopGateway();
        wallClockNs.set(FIRST_DAY * DAY_NS + NINE_AM_NS - TimeUnit.MINUTES.toNanos(1));
        startGateway((ctx) -> ctx.sessionName(null).closeTimeNs(NINE_AM_NS).endOfSessionLingerMs(60_000));
        try (TestClient pending = new TestClient(port);
            TestClient rejected = new TestClient(port))
        {
            rejected.login("demo01", "wrongpw", "", 0);
            assertThat(rejected.await(2)).isEqualTo(List.of(new LoginRejected('A'), new Closed()));
            awaitGauge("bourse_gateway_pending_logins", 1);
            awaitGauge("bourse_gateway_lingering_connections", 1);
            wallClockNs.set(FIRST_DAY * DAY_NS + NINE_AM_NS);
            wallClockNs.set(FIRST_DAY * DAY_NS + DAY_NS + TimeUnit.SECONDS.toNanos(1));
            awaitNextDaysDirectory();

            pending.login("demo01", "demo01pw", "", 0);
            assertThat(pending.await(2)).isEqualTo(List.of(
                new LoginAccepted(NEXT_DAY_SESSION, 1), new SystemEventMessage(TimeUnit.SECONDS.toNanos(1), 'S')));
            assertThat(Metrics.gauge(registry, "bourse_gateway_lingering_connections")).isEqualTo(1);
        }
        awaitGauge("bourse_gateway_lingering_connections", 0);
    }

    /**
     * The close's cancel of an order whose shard is down waits beyond the day: the next day opens at midnight, and once
     * the shard takes commands again the cancel goes to it, so that a shard recovered from the event archive does not
     * bring the closed day's order back to trade against the new day's.
     */
    @Test
    void shouldSendTheClosedDaysCancelsOnceTheShardIsBackInTheNextDay() throws Exception
    {
        restartWithDailySessionsAt(NINE_AM_NS - TimeUnit.MINUTES.toNanos(1), NINE_AM_NS);
        final long orderId;
        try (TestClient client = new TestClient(port))
        {
            client.login("demo01", "demo01pw", "", 0);
            client.await(2);
            enterOrder(client, "A1", "AAPL");
            orderId = awaitNewOrders(1).get(0).clientOrderId();
            engine.available = false;

            wallClockNs.set(FIRST_DAY * DAY_NS + NINE_AM_NS);
            final long closingNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(2);
            while (MarketClose.State.OPEN == agent.day().marketClose().state() && System.nanoTime() < closingNs)
            {
                Thread.sleep(1);
            }
            wallClockNs.set(FIRST_DAY * DAY_NS + NINE_AM_NS + TimeUnit.SECONDS.toNanos(MarketClose.DRAIN_SECONDS + 1));
            assertThat(client.await(5)).as("End of Day, the order still open").contains(new EndOfSession());
        }
        wallClockNs.set((FIRST_DAY + 1) * DAY_NS + TimeUnit.SECONDS.toNanos(1));
        final long openedNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while ((agent.day().sessionName().equals(FIRST_DAY_SESSION) || 0 == agent.cancelsToRetry()) &&
            System.nanoTime() < openedNs)
        {
            Thread.sleep(1);
        }
        assertThat(agent.day().sessionName()).isEqualTo(NEXT_DAY_SESSION);
        assertThat(agent.cancelsToRetry()).as("the closed day's cancel, waiting").isOne();
        assertThat(engine.commands()).noneMatch(Cancel.class::isInstance);

        engine.available = true;
        final long deadlineNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(2);
        while ((0 != agent.cancelsToRetry() || Metrics.sum(registry, "bourse_gateway_close_cancels_total") < 1) &&
            System.nanoTime() < deadlineNs)
        {
            Thread.sleep(1);
        }
        assertThat(engine.commands()).filteredOn(Cancel.class::isInstance).singleElement()
            .isEqualTo(new Cancel(0, DAY_NS + TimeUnit.SECONDS.toNanos(1), orderId, 0));
        assertThat(Metrics.sum(registry, "bourse_gateway_close_cancels_total")).isOne();
        assertThat(agent.cancelsToRetry()).isZero();
    }

    /**
     * A close time of 00:00 is the day's end, not its start: a gateway started at 10:00 with it is open; at the next
     * midnight its day closes (End of Day, End of Session: nothing open) and the next date's session opens right after.
     */
    @Test
    void shouldCloseTheDayAtItsEndForACloseTimeOfMidnight() throws Exception
    {
        final long closeNs = GatewayContext.fromSettings(
            new Settings(Map.of("BOURSE_GATEWAY_CLOSE_TIME", "00:00"))).closeTimeNs();
        final long oneSecondNs = TimeUnit.SECONDS.toNanos(1);
        assertThat(closeNs).isEqualTo(DAY_NS);
        restartWithDailySessionsAt(TEN_AM_NS, closeNs);
        try (TestClient client = new TestClient(port))
        {
            client.login("demo01", "demo01pw", "", 0);
            assertThat(client.await(2)).as("open at 10:00").isEqualTo(List.of(
                new LoginAccepted(FIRST_DAY_SESSION, 1), new SystemEventMessage(TEN_AM_NS, 'S')));

            wallClockNs.set((FIRST_DAY + 1) * DAY_NS + oneSecondNs);
            assertThat(client.await(5)).isEqualTo(List.of(
                new LoginAccepted(FIRST_DAY_SESSION, 1), new SystemEventMessage(TEN_AM_NS, 'S'),
                new SystemEventMessage(oneSecondNs, 'E'), new EndOfSession(), new Closed()));
        }
        awaitNextDaysDirectory();
        try (TestClient client = new TestClient(port))
        {
            client.login("demo01", "demo01pw", "", 0);
            assertThat(client.await(2)).isEqualTo(List.of(
                new LoginAccepted(NEXT_DAY_SESSION, 1), new SystemEventMessage(oneSecondNs, 'S')));
        }
        assertThat(journalDir.resolve(FIRST_DAY_SESSION).resolve(JournalStore.ORDERS_CANCELED_FILE))
            .as("no order left open").exists();
    }

    /**
     * {@code System.nanoTime} may be negative: the next day opens at midnight all the same. Before, the first attempt
     * to open it waited for the gateway's monotonic clock to pass 0.
     */
    @Test
    void shouldOpenTheNextDayWhenTheMonotonicClockIsNegative() throws Exception
    {
        timerSkewNs.set(Long.MIN_VALUE / 2 - System.nanoTime());
        restartWithDailySessionsAt(TEN_AM_NS, DAY_NS);

        wallClockNs.set((FIRST_DAY + 1) * DAY_NS + TimeUnit.SECONDS.toNanos(1));
        awaitNextDaysDirectory();
    }

    /**
     * With a journal retention of 2 days, the start deletes the journals of the days more than 2 days before it that
     * are done with (one marked so, one whose orders the start cancels, none open), not those of the 2 latest days
     * before it; and the opening of a day 3 days later deletes the one of those now past the retention and not among
     * the 2 latest (the first day's and the day before's are: no day between them and the new one).
     */
    @Test
    void shouldDeleteTheJournalsOfTheDaysPastTheirRetentionAtTheStartAndWhenADayOpens() throws Exception
    {
        stopGateway();
        final Path markedDay = journalDir.resolve(SessionNames.ofDate(LocalDate.ofEpochDay(FIRST_DAY - 5)));
        final Path unmarkedDay = journalDir.resolve(SessionNames.ofDate(LocalDate.ofEpochDay(FIRST_DAY - 6)));
        final Path keptDay = journalDir.resolve(SessionNames.ofDate(LocalDate.ofEpochDay(FIRST_DAY - 2)));
        final Path dayBefore = journalDir.resolve(SessionNames.ofDate(LocalDate.ofEpochDay(FIRST_DAY - 1)));
        for (final Path day : List.of(markedDay, unmarkedDay, keptDay, dayBefore))
        {
            try (JournalStore store = JournalStore.open(journalDir, day.getFileName().toString(), JournalSync.NONE, 0,
                new GatewayMetrics(new PrometheusRegistry())))
            {
                store.journal("demo01");
            }
        }
        JournalStore.markOrdersCanceled(markedDay);
        JournalStore.markOrdersCanceled(keptDay);
        JournalStore.markOrdersCanceled(dayBefore);
        wallClockNs.set(FIRST_DAY * DAY_NS + TEN_AM_NS);
        startGateway((ctx) -> ctx.sessionName(null).closeTimeNs(DAY_NS).journalRetentionDays(2));

        awaitGone(markedDay);
        awaitGone(unmarkedDay);
        assertThat(keptDay.resolve("demo01.journal")).exists();
        assertThat(journalDir.resolve(SESSION)).as("a configured session name's").isDirectory();

        wallClockNs.set((FIRST_DAY + 3) * DAY_NS + TimeUnit.SECONDS.toNanos(1));
        awaitGone(keptDay);
        assertThat(journalDir.resolve(SessionNames.ofDate(LocalDate.ofEpochDay(FIRST_DAY + 3)))).isDirectory();
        assertThat(dayBefore).isDirectory();
        assertThat(journalDir.resolve(FIRST_DAY_SESSION).resolve(JournalStore.ORDERS_CANCELED_FILE))
            .as("closed and done with, kept as one of the 2 latest").exists();
    }

    /** Waits up to 2 s for a journal directory to be deleted. */
    private static void awaitGone(final Path directory) throws InterruptedException
    {
        final long deadlineNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(2);
        while (Files.exists(directory) && System.nanoTime() < deadlineNs)
        {
            Thread.sleep(1);
        }
        assertThat(directory).as("deleted").doesNotExist();
    }

    /**
     * Restarts the gateway with daily sessions (no session name configured) on the first day at a time of day.
     *
     * @param timeOfDayNs the wall clock's time on the first day, ns since its midnight.
     * @param closeTimeNs the close time.
     */
    private void restartWithDailySessionsAt(final long timeOfDayNs, final long closeTimeNs) throws Exception
    {
        stopGateway();
        wallClockNs.set(FIRST_DAY * DAY_NS + timeOfDayNs);
        startGateway((ctx) -> ctx.sessionName(null).closeTimeNs(closeTimeNs));
    }

    /** Waits up to 5 s for the gateway to open the next day, whose journal directory it creates first. */
    private void awaitNextDaysDirectory() throws InterruptedException
    {
        final long deadlineNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (!Files.isDirectory(journalDir.resolve(NEXT_DAY_SESSION)) && System.nanoTime() < deadlineNs)
        {
            Thread.sleep(1);
        }
        assertThat(journalDir.resolve(NEXT_DAY_SESSION)).as("the next day's journal directory").isDirectory();
    }

    private List<NewOrder> awaitNewOrders(final int count) throws InterruptedException
    {
        final long deadlineNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(2);
        List<NewOrder> orders = List.of();
        while (orders.size() < count && System.nanoTime() < deadlineNs)
        {
            Thread.sleep(1);
            orders = engine.commands().stream().filter(NewOrder.class::isInstance).map(NewOrder.class::cast).toList();
        }
        assertThat(orders).hasSize(count);
        return orders;
    }

    @Test
    void shouldRejectLoginAsSessionNotAvailableWhenJournalCannotBeCreated() throws Exception
    {
        Files.createDirectories(journalDir.resolve(SESSION).resolve("demo02" + JournalStore.SUFFIX));
        try (TestClient client = new TestClient(port))
        {
            client.login("demo02", "demo02pw", "", 0);

            assertThat(client.await(2)).isEqualTo(List.of(new LoginRejected('S'), new Closed()));
        }
        assertThat(Metrics.counter(registry, "bourse_gateway_errors_total", "journal_failed")).isEqualTo(1);
        assertThat(Metrics.sum(registry, "bourse_gateway_errors_total")).isEqualTo(1);
    }

    @Test
    void shouldEndOnlyTheOffendingSessionWhenMessageTypeIsUnknown() throws Exception
    {
        try (TestClient offender = new TestClient(port);
            TestClient bystander = new TestClient(port))
        {
            offender.login("demo01", "demo01pw", "", 0);
            bystander.login("demo02", "demo02pw", "", 0);
            offender.await(2);
            bystander.await(2);

            request.putByte(0, (byte)'Q');
            offender.send(request, 5);
            enterOrder(bystander, "B1", "AAPL");

            assertThat(offender.await(3).subList(2, 3)).as("closed, no End of Session: the session goes on")
                .isEqualTo(List.of(new Closed()));
            assertThat(bystander.await(2)).hasSize(2);
            final long deadlineNs = System.nanoTime() + 2_000_000_000L;
            while (engine.commands().isEmpty() && System.nanoTime() < deadlineNs)
            {
                Thread.sleep(1);
            }
            assertThat(engine.commands()).hasSize(1);
        }
        assertThat(Metrics.counter(registry, "bourse_gateway_errors_total", "unknown_message_type")).isEqualTo(1);
        assertThat(Metrics.sum(registry, "bourse_gateway_errors_total")).isEqualTo(1);
        assertThat(Metrics.counter(registry, "bourse_gateway_messages_in_total", "unknown")).isEqualTo(1);
    }

    @Test
    void shouldLeaveRequestsInTheSocketWhileTheEngineCommandStreamsHaveNoRoom() throws Exception
    {
        try (TestClient client = new TestClient(port))
        {
            client.login("demo01", "demo01pw", "", 0);
            client.await(2);
            engine.roomForCommands = false;

            enterOrder(client, "HELD", "AAPL");
            awaitCounter("bourse_gateway_reads_deferred_total");
            assertThat(engine.commands()).isEmpty();

            engine.roomForCommands = true;
            final long deadlineNs = System.nanoTime() + 2_000_000_000L;
            while (engine.commands().isEmpty() && System.nanoTime() < deadlineNs)
            {
                Thread.sleep(1);
            }
            assertThat(engine.commands()).hasSize(1);
        }
        assertThat(Metrics.counter(registry, "bourse_gateway_messages_in_total", "enter_order")).isEqualTo(1);
    }

    @Test
    void shouldDropASilentClientButNotOneWhosePacketsWaitInTheSocketForTheEngineCommandStreams() throws Exception
    {
        try (TestClient held = TestClient.login(port, "demo01", 0);
            TestClient silent = TestClient.login(port, "demo02", 0))
        {
            engine.roomForCommands = false;
            enterOrder(held, "HELD", "AAPL");
            awaitCounter("bourse_gateway_reads_deferred_total");

            // Neither client sends heartbeats: 16 s later by the gateway's timers, both are past the 15 s timeout.
            timerSkewNs.set(TimeUnit.SECONDS.toNanos(16));

            assertThat(silent.await(3)).endsWith(new Closed());
            engine.roomForCommands = true;
            final long deadlineNs = System.nanoTime() + 2_000_000_000L;
            while (engine.commands().isEmpty() && System.nanoTime() < deadlineNs)
            {
                Thread.sleep(1);
            }
            assertThat(engine.commands()).hasSize(1);
            assertThat(Metrics.gauge(registry, "bourse_gateway_sessions")).isEqualTo(1);
        }
    }

    /**
     * A Requested Sequence Number that is not a number is a malformed Login Request. Before stop 105 only a blank one
     * was: nassau read "x3" as 723, "3x" as 102, "-3" as -3 (live only) and "1 1" as 1.
     */
    @ParameterizedTest
    @ValueSource(strings = {"", "x3", "3x", "-3", "+3", "1 1", "0x10"})
    void shouldCloseAConnectionWhoseRequestedSequenceNumberIsNotANumberBeforeTakingItsSession(final String field)
        throws Exception
    {
        final byte[] packet = LoginRequests.packet("demo01", "demo01pw", 0);
        Arrays.fill(packet, packet.length - 20, packet.length, (byte)' ');
        final byte[] text = field.getBytes(StandardCharsets.US_ASCII);
        System.arraycopy(text, 0, packet, packet.length - text.length, text.length);
        try (SocketChannel channel = SocketChannel.open(new InetSocketAddress("127.0.0.1", port)))
        {
            channel.write(ByteBuffer.wrap(packet));
            final ByteBuffer answer = ByteBuffer.allocate(64);
            final long deadlineNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
            while (channel.read(answer) >= 0 && System.nanoTime() < deadlineNs)
            {
                Thread.onSpinWait();
            }
            // The gateway closed the connection without a packet: no session was taken, none ended.
            assertThat(answer.position()).as("bytes before the close").isZero();
        }
        assertThat(Metrics.counter(registry, "bourse_gateway_errors_total", "malformed_packet")).isEqualTo(1);
        assertThat(journalDir.resolve(SESSION).resolve("demo01" + JournalStore.SUFFIX)).doesNotExist();

        try (TestClient client = new TestClient(port))
        {
            client.login("demo01", "demo01pw", "", 0);

            assertThat(client.await(2)).isEqualTo(
                List.of(new LoginAccepted(SESSION, 1), new SystemEventMessage(TEN_AM_NS, 'S')));
        }
    }

    @Test
    void shouldCloseTheConnectionWhenDataArrivesBeforeLogin() throws Exception
    {
        try (TestClient client = new TestClient(port))
        {
            enterOrder(client, "EARLY", "AAPL");

            assertThat(client.await(1)).isEqualTo(List.of(new Closed()));
        }
        assertThat(engine.commands()).isEmpty();
    }

    @Test
    void shouldCloseAConnectionThatSendsNoLoginRequestWithinTheLoginTimeout() throws Exception
    {
        stopGateway();
        startGateway((ctx) -> ctx.loginTimeoutMs(200));
        try (TestClient idle = new TestClient(port);
            TestClient prompt = new TestClient(port))
        {
            prompt.login("demo01", "demo01pw", "", 0);

            assertThat(idle.await(1)).isEqualTo(List.of(new Closed()));
            enterOrder(prompt, "P1", "IBM");
            assertThat(prompt.await(3)).isEqualTo(List.of(
                new LoginAccepted(SESSION, 1),
                new SystemEventMessage(TEN_AM_NS, 'S'),
                new Rejected(TEN_AM_NS, "P1", 'S')));
        }
        assertThat(Metrics.counter(registry, "bourse_gateway_login_timeouts_total", null)).isEqualTo(1);
        assertThat(Metrics.gauge(registry, "bourse_gateway_pending_logins")).isZero();
    }

    @Test
    void shouldCloseNewConnectionsWhileAsManyAsAllowedAwaitTheirLogin() throws Exception
    {
        stopGateway();
        startGateway((ctx) -> ctx.maxPendingLogins(2));
        try (TestClient first = new TestClient(port);
            TestClient second = new TestClient(port);
            TestClient refused = new TestClient(port))
        {
            assertThat(refused.await(1)).isEqualTo(List.of(new Closed()));

            first.login("demo01", "demo01pw", "", 0);
            assertThat(first.await(2)).hasSize(2);
            try (TestClient later = new TestClient(port))
            {
                later.login("demo02", "demo02pw", "", 0);

                assertThat(later.await(2)).isEqualTo(List.of(
                    new LoginAccepted(SESSION, 1), new SystemEventMessage(TEN_AM_NS, 'S')));
            }
            assertThat(Metrics.gauge(registry, "bourse_gateway_pending_logins")).isEqualTo(1);
            assertThat(Metrics.counter(registry, "bourse_gateway_errors_total", "pending_login_limit")).isEqualTo(1);
            assertThat(Metrics.sum(registry, "bourse_gateway_errors_total")).isEqualTo(1);
        }
    }

    @Test
    void shouldRejectLoginAsSessionNotAvailableWhileAsManyUsersAsAllowedAreLoggedIn() throws Exception
    {
        stopGateway();
        startGateway((ctx) -> ctx.maxSessions(1));
        try (TestClient first = new TestClient(port))
        {
            first.login("demo01", "demo01pw", "", 0);
            assertThat(first.await(2)).hasSize(2);
            try (TestClient second = new TestClient(port))
            {
                second.login("demo02", "demo02pw", "", 0);

                assertThat(second.await(2)).isEqualTo(List.of(new LoginRejected('S'), new Closed()));
            }
            first.logout();
            assertThat(first.await(3).get(2)).isEqualTo(new Closed());
        }
        try (TestClient second = new TestClient(port))
        {
            second.login("demo02", "demo02pw", "", 0);

            assertThat(second.await(2)).isEqualTo(List.of(
                new LoginAccepted(SESSION, 1), new SystemEventMessage(TEN_AM_NS, 'S')));
        }
        assertThat(Metrics.counter(registry, "bourse_gateway_login_failures_total", null)).isEqualTo(1);
    }

    @Test
    void shouldTickEveryShardsClockWhenTheAgentRuns() throws Exception
    {
        while (engine.clockTicks().size() < 2)
        {
            Thread.sleep(1);
        }

        assertThat(engine.clockTicks().subList(0, 2)).isEqualTo(List.of(
            new ClockTick(0, TEN_AM_NS), new ClockTick(1, TEN_AM_NS)));
        // The ticker counts a tick once the engine proxy took it.
        awaitAsserted(() -> assertThat(Metrics.counter(registry, "bourse_gateway_clock_ticks_total", "sent"))
            .isGreaterThanOrEqualTo(2));
    }

    /**
     * A stop before the day ends closes the connections without End of Session: the session goes on when the gateway
     * starts again, and SoupBinTCP 4.0 §1.4 says a client cannot reconnect to a session that sent it, so a strict
     * client would stop for the day. Before stop 105 the stop sent it, and a restarted gateway took the same session's
     * logins after it.
     */
    @Test
    void shouldCloseTheConnectionsWithoutEndOfSessionWhenTheGatewayStopsBeforeTheDayEnds() throws Exception
    {
        try (TestClient client = new TestClient(port))
        {
            client.login("demo01", "demo01pw", "", 0);
            client.await(2);

            runner.close();

            assertThat(client.await(3).subList(2, 3)).isEqualTo(List.of(new Closed()));
        }
        stopGateway();
        startGateway(UnaryOperator.identity());
        try (TestClient again = new TestClient(port))
        {
            again.login("demo01", "demo01pw", SESSION, 2);

            assertThat(again.await(1)).as("the same session goes on").isEqualTo(List.of(new LoginAccepted(SESSION, 2)));
        }
    }

    @Test
    void shouldServeTheClientEverythingBeforeTheCloseWhenTheGatewayStopsWithMoreThanItsSocketTakes()
        throws Exception
    {
        stopGateway();
        // A linger beyond the stop's limit: the client has all of that to read.
        startGateway(ctx -> ctx.socketSendBufferBytes(4096).endOfSessionLingerMs(10_000));
        final int orders = 1_500;
        try (TestClient client = new TestClient(port, 4096))
        {
            client.login("demo01", "demo01pw", "", 0);
            client.await(2);
            // About 40 KB of Rejected: more than the gateway's socket buffer and the client's take, less than they and
            // the session's send buffer hold together.
            for (int i = 0; i < orders; i++)
            {
                client.enterOrder("Z" + i, "AAPL", Ouch42.SIDE_BUY, 0, 1_500_000, Ouch42.TIME_IN_FORCE_MARKET_HOURS);
            }
            final long deadlineNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
            while (Metrics.counter(registry, "bourse_gateway_rejects_total", "invalid_shares") < orders &&
                System.nanoTime() < deadlineNs)
            {
                Thread.sleep(1);
            }

            final CompletableFuture<Void> stopped = CompletableFuture.runAsync(runner::close);
            Thread.sleep(100); // the client reads only once the gateway has closed the connection

            final List<Object> received = client.await(2 + orders + 1);
            client.close();
            stopped.get();
            assertThat(received).hasSize(2 + orders + 1);
            assertThat(received.subList(2, 2 + orders)).allMatch(message -> message instanceof Rejected);
            assertThat(received.getLast()).isEqualTo(new Closed());
        }
        assertThat(Metrics.counter(registry, "bourse_gateway_slow_consumer_disconnects_total", null)).isZero();
    }

    /** Waits up to 2 seconds for a gauge to show a value, and checks that it does. */
    private void awaitGauge(final String name, final double value) throws InterruptedException
    {
        final long deadlineNs = System.nanoTime() + 2_000_000_000L;
        while (Metrics.gauge(registry, name) != value && System.nanoTime() < deadlineNs)
        {
            Thread.sleep(1);
        }
        assertThat(Metrics.gauge(registry, name)).as(name).isEqualTo(value);
    }

    /** Waits up to 2 seconds for a counter without labels to count something, and checks that it did. */
    private void awaitCounter(final String name) throws InterruptedException
    {
        final long deadlineNs = System.nanoTime() + 2_000_000_000L;
        while (Metrics.counter(registry, name, null) == 0 && System.nanoTime() < deadlineNs)
        {
            Thread.sleep(1);
        }
        assertThat(Metrics.counter(registry, name, null)).as(name).isPositive();
    }

    private void enterOrder(final TestClient client, final String token, final String stock) throws Exception
    {
        EnterOrders.encode(request, token, stock);
        client.send(request, EnterOrder.LENGTH);
    }
}
