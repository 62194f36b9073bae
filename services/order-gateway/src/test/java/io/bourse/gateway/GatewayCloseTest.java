package io.bourse.gateway;

import io.bourse.common.config.Credentials;
import io.bourse.common.net.SoupBinTcpServerPackets;
import io.bourse.common.time.MidnightNanoClock;
import io.bourse.common.time.SessionNames;
import io.bourse.gateway.OuchMessages.Canceled;
import io.bourse.gateway.OuchMessages.Rejected;
import io.bourse.gateway.OuchMessages.SystemEventMessage;
import io.bourse.gateway.RecordingEngineProxy.Cancel;
import io.bourse.gateway.RecordingEngineProxy.NewOrder;
import io.bourse.ouch.Ouch42;
import io.bourse.sbe.engine.Side;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import org.agrona.CloseHelper;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The close of the trading day in the gateway agent's duty cycle, on its real agent over a {@link MemoryNetwork}, the
 * test thread running the cycles on a wall clock it sets: an Enter Order the gateway reads and stamps at or after the
 * close time is Rejected 'C' (OUCH 4.2 &sect;2.2 Rejected, exchange closed) and never reaches the engine, even when
 * the cycle that reads it started before the close. A restart during the close's wait ends the day in its journals.
 */
class GatewayCloseTest
{
    private static final String SESSION = "S20250106";
    private static final long DAY_EPOCH_NS = 20_000L * MidnightNanoClock.NANOS_PER_DAY;
    private static final long CLOSE_NS = TimeUnit.HOURS.toNanos(16);
    /** How far the wall clock moves at each read once stepping: well apart, so that each read is a time of its own. */
    private static final long STEP_NS = TimeUnit.MICROSECONDS.toNanos(1);
    private static final long ONE_HOUR_BEFORE_CLOSE_NS = CLOSE_NS - TimeUnit.HOURS.toNanos(1);

    @TempDir
    private Path journalRoot;
    private final RecordingEngineProxy engine = new RecordingEngineProxy();
    private final PrometheusRegistry registry = new PrometheusRegistry();
    private MemoryGateway gateway;
    private MemoryNetwork.Endpoint client;
    private GatewayAgent agent;
    private long wallClockNs = DAY_EPOCH_NS + ONE_HOUR_BEFORE_CLOSE_NS;
    private boolean stepping;

    @AfterEach
    void tearDown() throws IOException
    {
        CloseHelper.close(gateway);
    }

    @Test
    void shouldRejectAnEnterOrderReadAtTheCloseTimeAsExchangeClosedEvenInADutyCycleThatStartedBeforeIt()
        throws IOException
    {
        start();
        logIn();

        // From here each clock read is STEP_NS after the one before. A duty cycle reads the clock when it starts and
        // again before it reads the clients' input: the second cycle starts before the close and reads T2 at it.
        wallClockNs = DAY_EPOCH_NS + CLOSE_NS - 3 * STEP_NS;
        stepping = true;
        for (int i = 1; i <= 3; i++)
        {
            client.write(EnterOrders.packet("T" + i, "AAPL"));
            agent.doWork();
        }
        agent.doWork();

        assertThat(engine.commands()).filteredOn(NewOrder.class::isInstance)
            .as("only T1, read before the close, reaches the engine")
            .extracting((command) -> ((NewOrder)command).timestampNs()).containsExactly(CLOSE_NS - 2 * STEP_NS);
        assertThat(OuchMessages.sequencedData(client.takeAvailable())).containsExactly(
            new Rejected(CLOSE_NS, "T2", 'C'),
            new Rejected(CLOSE_NS + 2 * STEP_NS, "T3", 'C'));
    }

    /**
     * A stop after the day ended ends only a session that has been sent everything (End of Session, as each duty cycle
     * does): one whose replay is still under way is closed without End of Session, since a restarted gateway goes on
     * replaying it (SoupBinTCP 4.0 &sect;1.4: a client cannot reconnect to a session that sent it), and a connection
     * awaiting its Login Request is closed unanswered.
     */
    @Test
    void shouldCloseAReplayStillUnderWayWithoutEndOfSessionWhenTheGatewayStopsAfterTheDayEnded() throws IOException
    {
        start();
        logIn();
        final int orders = 300;
        for (int i = 0; i < orders; i++)
        {
            client.write(EnterOrders.packet("R" + i, "IBM"));
            agent.doWork();
        }
        client.close();
        wallClockNs = DAY_EPOCH_NS + CLOSE_NS;
        for (int i = 0; i < 10; i++)
        {
            agent.doWork();
        }
        final MemoryNetwork.Endpoint replaying = gateway.connect();
        replaying.write(ByteBuffer.wrap(LoginRequests.packet("demo01", "demo01pw", 1)));
        final MemoryNetwork.Endpoint awaitingLogin = gateway.connect();
        for (int i = 0; i < 3; i++)
        {
            agent.doWork();
        }

        gateway.stop();

        // Whole packets only, or split fails the test.
        assertThat(SoupBinTcpServerPackets.split(replaying.takeAvailable()))
            .extracting(SoupBinTcpServerPackets.Packet::type).as("Login Accepted, then part of the replay")
            .startsWith(SoupBinTcpServerPackets.LOGIN_ACCEPTED, SoupBinTcpServerPackets.SEQUENCED_DATA)
            .doesNotContain(SoupBinTcpServerPackets.END_OF_SESSION).hasSizeLessThan(2 + orders + 1);
        assertThat(replaying.isPeerClosed()).isTrue();
        assertThat(awaitingLogin.takeAvailable()).as("no answer, no End of Session").isEmpty();
        assertThat(awaitingLogin.isPeerClosed()).isTrue();
    }

    /**
     * No order open at the close: the duty cycle that reaches it ends the day, journaling End of Day, before it reads
     * the clients' input. An Enter Order read then is dropped and counted, so that End of Day stays the session's
     * last message, End of Session after it. Before, its Rejected 'C' followed End of Day.
     */
    @Test
    void shouldKeepEndOfDayTheLastMessageWhenAnEnterOrderIsReadInTheDutyCycleThatEndsTheDay() throws IOException
    {
        start();
        logIn();

        wallClockNs = DAY_EPOCH_NS + CLOSE_NS;
        client.write(EnterOrders.packet("T1", "AAPL"));
        final ByteArrayOutputStream received = new ByteArrayOutputStream();
        for (int i = 0; i < 10; i++)
        {
            agent.doWork();
            received.write(client.takeAvailable());
        }

        final byte[] bytes = received.toByteArray();
        assertThat(OuchMessages.sequencedData(bytes)).containsExactly(
            new SystemEventMessage(CLOSE_NS, (char)Ouch42.EVENT_END_OF_DAY));
        assertThat(bytes).as("End of Session last").endsWith(0, 1, 'Z');
        assertThat(engine.commands()).isEmpty();
        assertThat(Metrics.counter(registry, "bourse_gateway_errors_total", "after_end_of_day")).isEqualTo(1);
    }

    /**
     * A gateway with daily sessions closing at 00:00, stopped while the close waits for the cancel of an order still
     * open (one the engine never answers), and started again after that midnight, on the next date's day: the closed
     * day's session gets its End of Day in its journal, the last message, as the close would have journaled it once
     * its wait was over. Before, the closed day's journals never got it.
     */
    @Test
    void shouldJournalTheEndOfDayOfADayWhoseMidnightCloseARestartInterrupted() throws IOException
    {
        final long dayNs = MidnightNanoClock.NANOS_PER_DAY;
        final LocalDate date = LocalDate.ofEpochDay(DAY_EPOCH_NS / dayNs);
        final long beforeMidnightNs = dayNs - TimeUnit.HOURS.toNanos(1);
        wallClockNs = DAY_EPOCH_NS + beforeMidnightNs;
        startDaily(SessionNames.ofDate(date), registry);
        logIn(beforeMidnightNs);
        client.write(EnterOrders.packet("T1", "AAPL"));
        agent.doWork();
        assertThat(engine.commands()).filteredOn(NewOrder.class::isInstance).hasSize(1);

        wallClockNs = DAY_EPOCH_NS + dayNs + TimeUnit.SECONDS.toNanos(1);
        client.write(EnterOrders.packet("T2", "AAPL"));
        final ByteArrayOutputStream received = new ByteArrayOutputStream();
        for (int i = 0; i < 10; i++)
        {
            agent.doWork();
            received.write(client.takeAvailable());
        }
        assertThat(OuchMessages.sequencedData(received.toByteArray())).as("closing, T1 still open: no End of Day yet")
            .containsExactly(new Rejected(TimeUnit.SECONDS.toNanos(1), "T2", 'C'));
        gateway.close();

        wallClockNs += TimeUnit.SECONDS.toNanos(1);
        startDaily(SessionNames.ofDate(date.plusDays(1)), new PrometheusRegistry());

        assertThat(journaled(SessionNames.ofDate(date))).containsExactly(
            new SystemEventMessage(beforeMidnightNs, (char)Ouch42.EVENT_START_OF_DAY),
            new Rejected(TimeUnit.SECONDS.toNanos(1), "T2", 'C'),
            new SystemEventMessage(TimeUnit.SECONDS.toNanos(2), (char)Ouch42.EVENT_END_OF_DAY));
    }

    /**
     * The gateway sends the close's cancel of an open order and stops before its answer; the restarted gateway, past
     * the close, hears the engine's Canceled first thing, before its first duty cycle closes the day: the owner gets
     * Canceled 'T' (the order's day is over), as from the gateway that sent the cancel, and no second cancel goes.
     * Before, the restarted day was closed by its first duty cycle, after its first poll of the events, and the answer
     * was Canceled 'U'.
     */
    @Test
    void shouldAnswerTheClosesCancelOfAStoppedGatewayCanceledTimeoutWhenHeardFirstAfterTheRestart() throws IOException
    {
        start();
        logIn();
        client.write(EnterOrders.packet("T1", "AAPL"));
        agent.doWork();
        final NewOrder sent = (NewOrder)engine.commands().getFirst();
        final EngineEvents shard0 = new EngineEvents(eventAdapter());
        shard0.accepted(sent.timestampNs(), sent.clientOrderId(), 501, "AAPL", Side.BUY, 100, sent.price(),
            sent.timeInForce());
        wallClockNs = DAY_EPOCH_NS + CLOSE_NS;
        agent.doWork();
        agent.doWork();
        assertThat(engine.commands()).as("the close's cancel").hasSize(2).last()
            .isEqualTo(new Cancel(0, CLOSE_NS, sent.clientOrderId(), 0));
        gateway.close();

        final int commandsBefore = engine.commands().size();
        wallClockNs = DAY_EPOCH_NS + CLOSE_NS + TimeUnit.SECONDS.toNanos(1);
        start(new PrometheusRegistry());
        new EngineEvents(eventAdapter(), shard0)
            .canceled(CLOSE_NS, sent.clientOrderId(), 501, "AAPL", 100, 0, Ouch42.CANCEL_USER_REQUESTED);
        for (int i = 0; i < 10; i++)
        {
            agent.doWork();
        }
        gateway.close();

        assertThat(engine.commands()).as("no second cancel").hasSize(commandsBefore);
        assertThat(journaled(SESSION)).filteredOn(Canceled.class::isInstance)
            .containsExactly(new Canceled(CLOSE_NS, "T1", 100, 'T'));
    }

    /**
     * Four sessions at the close, with room for two connections awaiting their login: each gets End of Day and End of
     * Session, and every connection lingers, none closed early. Before, at most that many lingered at once, so the
     * close's third and fourth ends closed the oldest lingering sockets at once, cutting off what their sockets had not
     * yet sent.
     */
    @Test
    void shouldLetEverySessionEndedAtTheCloseLingerWhateverTheLimitOfConnectionsAwaitingLogin() throws IOException
    {
        final List<String> users = List.of("demo01", "demo02", "demo03", "demo04");
        final DutyCycleClock clock = new DutyCycleClock(new MidnightNanoClock(this::readWallClock));
        gateway = MemoryGateway.start(journalRoot, SESSION, (ctx) -> ctx.closeTimeNs(CLOSE_NS).maxPendingLogins(2)
            .endOfSessionLingerMs(60_000).credentials(Credentials.parse(
                users.stream().map((user) -> user + "," + user + "pw,DEMO").toList())),
            engine, new GatewayMetrics(registry), clock);
        agent = gateway.agent();
        final List<MemoryNetwork.Endpoint> clients = new ArrayList<>();
        for (final String user : users)
        {
            logIn(user, ONE_HOUR_BEFORE_CLOSE_NS);
            clients.add(client);
        }

        wallClockNs = DAY_EPOCH_NS + CLOSE_NS;
        final List<ByteArrayOutputStream> received = clients.stream().map((c) -> new ByteArrayOutputStream()).toList();
        for (int i = 0; i < 10; i++)
        {
            agent.doWork();
            for (int c = 0; c < clients.size(); c++)
            {
                received.get(c).write(clients.get(c).takeAvailable());
            }
        }

        for (int c = 0; c < clients.size(); c++)
        {
            assertThat(OuchMessages.sequencedData(received.get(c).toByteArray())).as(users.get(c))
                .containsExactly(new SystemEventMessage(CLOSE_NS, (char)Ouch42.EVENT_END_OF_DAY));
            assertThat(received.get(c).toByteArray()).as(users.get(c) + ": End of Session last").endsWith(0, 1, 'Z');
            assertThat(clients.get(c).isPeerClosed()).as(users.get(c) + ": end of stream").isTrue();
        }
        assertThat(clients).as("the gateway's ends, lingering").allMatch((c) -> c.peer().isOpen());
        assertThat(Metrics.gauge(registry, "bourse_gateway_lingering_connections")).isEqualTo(4);
    }

    private void start() throws IOException
    {
        start(registry);
    }

    /** Starts a gateway closing at {@link #CLOSE_NS} on this test's journals, its metrics in that registry. */
    private void start(final PrometheusRegistry metricsRegistry) throws IOException
    {
        final DutyCycleClock clock = new DutyCycleClock(new MidnightNanoClock(this::readWallClock));
        gateway = MemoryGateway.start(journalRoot, SESSION, (ctx) -> ctx.closeTimeNs(CLOSE_NS), engine,
            new GatewayMetrics(metricsRegistry), clock);
        agent = gateway.agent();
    }

    /** Starts a gateway with daily sessions closing at 00:00, its first day the clock's date, named {@code day}. */
    private void startDaily(final String day, final PrometheusRegistry metricsRegistry) throws IOException
    {
        final DutyCycleClock clock = new DutyCycleClock(new MidnightNanoClock(this::readWallClock));
        gateway = MemoryGateway.start(journalRoot, day,
            (ctx) -> ctx.sessionName(null).closeTimeNs(MidnightNanoClock.NANOS_PER_DAY), engine,
            new GatewayMetrics(metricsRegistry), clock);
        agent = gateway.agent();
    }

    /** @return hands engine events to the current day's orders, as the agent's poll of the event streams does. */
    private EngineEventAdapter eventAdapter()
    {
        return EngineEvents.adapter(agent.day().orderEntry(), new GatewayMetrics(new PrometheusRegistry()));
    }

    /** @return demo01's messages journaled in the session, decoded; read once the gateway is closed. */
    private List<Object> journaled(final String session) throws IOException
    {
        final List<Object> journaled = new ArrayList<>();
        final Path path = journalRoot.resolve(JournalStore.encode(session)).resolve("demo01" + JournalStore.SUFFIX);
        try (SessionJournal journal = SessionJournal.open(path, JournalSync.NONE))
        {
            for (long sequence = 1; sequence <= journal.count(); sequence++)
            {
                final ByteBuffer message = journal.message(sequence);
                final byte[] bytes = new byte[message.remaining()];
                message.get(bytes);
                journaled.add(OuchMessages.decode(bytes));
            }
        }
        return journaled;
    }

    /** @return the wall clock, ns since the epoch; once {@link #stepping}, each read moves it {@link #STEP_NS} on. */
    private long readWallClock()
    {
        final long nowNs = wallClockNs;
        if (stepping)
        {
            wallClockNs += STEP_NS;
        }
        return nowNs;
    }

    /** Connects, logs in as demo01 and runs duty cycles until Start of Day, the first message of the session, came. */
    private void logIn() throws IOException
    {
        logIn(ONE_HOUR_BEFORE_CLOSE_NS);
    }

    /**
     * Connects, logs in as demo01 and runs duty cycles until Start of Day, the first message of the session, came.
     *
     * @param startOfDayNs the Start of Day's timestamp, ns since midnight.
     */
    private void logIn(final long startOfDayNs) throws IOException
    {
        logIn("demo01", startOfDayNs);
    }

    /**
     * Connects, logs in as the user (password: the name and "pw") and runs duty cycles until Start of Day came.
     *
     * @param user         the username.
     * @param startOfDayNs the Start of Day's timestamp, ns since midnight.
     */
    private void logIn(final String user, final long startOfDayNs) throws IOException
    {
        client = gateway.connect();
        client.write(ByteBuffer.wrap(LoginRequests.packet(user, user + "pw", 0)));
        final ByteArrayOutputStream received = new ByteArrayOutputStream();
        for (int i = 0; i < 1_000 && OuchMessages.sequencedData(received.toByteArray()).isEmpty(); i++)
        {
            agent.doWork();
            received.write(client.takeAvailable());
        }
        assertThat(received.toByteArray()[2]).as("Login Accepted").isEqualTo((byte)'A');
        assertThat(OuchMessages.sequencedData(received.toByteArray())).containsExactly(
            new SystemEventMessage(startOfDayNs, (char)Ouch42.EVENT_START_OF_DAY));
    }
}
