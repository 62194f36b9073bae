package io.bourse.fanout;

import com.paritytrading.juncture.nasdaq.itch50.ITCH50;
import com.paritytrading.nassau.soupbintcp.SoupBinTCP;
import io.bourse.common.config.Credentials;
import io.bourse.common.config.SymbolDirectory;
import io.bourse.common.metrics.ErrorKinds;
import io.bourse.common.net.SendBufferPool;
import io.bourse.common.time.MidnightNanoClock;
import io.bourse.itch.ItchReferenceData;
import io.bourse.itch.ItchTranslator;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import io.prometheus.metrics.model.snapshots.Quantiles;
import io.prometheus.metrics.model.snapshots.SummarySnapshot;
import org.agrona.CloseHelper;
import org.agrona.concurrent.ManyToOneConcurrentArrayQueue;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.ringbuffer.OneToOneRingBuffer;
import org.agrona.concurrent.ringbuffer.RingBuffer;
import org.agrona.concurrent.ringbuffer.RingBufferDescriptor;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import java.util.function.IntConsumer;
import java.util.stream.LongStream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * One real worker driven by the test thread, its sessions on real loopback connections, fed ring-buffer records as the
 * dispatcher frames them. A subscriber that stops reading must neither delay the worker's duty cycle nor the other
 * sessions: the test thread runs the worker, so a write that waited on the stalled socket would hang the test until
 * its timeout fails it. How long the duty cycles take is for the fanout benchmark to measure, not for a test.
 */
@Timeout(value = 20, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class WorkerAgentTest
{
    private static final SymbolDirectory SYMBOLS = SymbolDirectory.parse("AAPL@0");
    private static final int MESSAGE_LIMIT = 16;
    private static final int MAX_SESSIONS = 8;
    private static final int MAX_PENDING_LOGINS = 3;
    private static final int SEND_BUFFER_BYTES = 16 * 1024;
    private static final int SOCKET_BUFFER_BYTES = 4096;
    /** ITCH 5.0 §4.3.1 Add Order (no MPID attribution) length. */
    private static final int ADD_ORDER_LENGTH = 36;
    /** About 190 KiB of Sequenced Data: far more than the send buffer and the stalled socket's buffers hold. */
    private static final int MESSAGES = 5_000;

    private final PrometheusRegistry registry = new PrometheusRegistry();
    private final ErrorKinds<FanoutError> errors = new ErrorKinds<>("fanout", FanoutError.class);
    private final FanoutMetrics metrics = new FanoutMetrics(registry, errors);
    private final RingBuffer ring = new OneToOneRingBuffer(new UnsafeBuffer(
        ByteBuffer.allocateDirect(64 * 1024 + RingBufferDescriptor.TRAILER_LENGTH)));
    private final ManyToOneConcurrentArrayQueue<SocketChannel> connections = new ManyToOneConcurrentArrayQueue<>(8);
    private final ManyToOneConcurrentArrayQueue<CatchUpRequest> requests = new ManyToOneConcurrentArrayQueue<>(8);
    private final UnsafeBuffer record = new UnsafeBuffer(ByteBuffer.allocateDirect(64));
    private final List<TestSubscriber> subscribers = new ArrayList<>();
    private ServerSocketChannel acceptor;
    private WorkerAgent worker;
    /** Added to the worker's monotonic clock: a test moves the worker's time on without waiting. */
    private final AtomicLong clockStepNs = new AtomicLong();
    /** The worker's clock of nanoseconds since midnight, which the dispatcher stamps its reads with. */
    private final MidnightNanoClock midnightClock = new MidnightNanoClock();
    /** The run's trading days, which the dispatcher moves on at midnight. */
    private final SessionNames sessionNames = new SessionNames("FB22000000");
    /** Logins are answered with a snapshot left under way (its Trading Action spin), instead of a whole answer. */
    private boolean snapshotsUnderWay;
    /** Logins are answered as snapshot sessions with an empty book, instead of the day's stream from the next. */
    private boolean snapshotSessions;
    /** The session id of the last login answered. */
    private long answeredSessionId;

    @BeforeEach
    void setUp() throws IOException
    {
        acceptor = ServerSocketChannel.open();
        acceptor.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        worker = newWorker(SYMBOLS, SEND_BUFFER_BYTES);
    }

    /**
     * @param symbols         the symbols the worker serves.
     * @param sendBufferBytes each session's send buffer.
     * @return a worker whose monotonic clock is the system's moved on by {@link #clockStepNs}.
     */
    private WorkerAgent newWorker(final SymbolDirectory symbols, final int sendBufferBytes)
    {
        return new WorkerAgent(
            0, ring, connections, requests, MAX_SESSIONS, MAX_PENDING_LOGINS,
            Credentials.parse(List.of("username,password,firm", "sub1,pw1,SUBA")), new ItchReferenceData(symbols),
            symbols, () -> System.nanoTime() + clockStepNs.get(), midnightClock,
            sessionNames,
            new SendBufferPool(sendBufferBytes, metrics.sendBufferBytes()), SOCKET_BUFFER_BYTES, MESSAGE_LIMIT,
            metrics, errors);
    }

    @AfterEach
    void tearDown()
    {
        CloseHelper.closeAll(subscribers);
        worker.onClose();
        CloseHelper.close(acceptor);
    }

    /**
     * A stalled subscriber is ended as a slow consumer while the others get everything. Its stream stops after the
     * packet under way, whole packets only; End of Session follows on a snapshot session, whose stream no login can
     * resume, and not on the day's stream, which its subscriber may log in to again from its next sequence number
     * (SoupBinTCP 4.0 &sect;1.4: a client that gets End of Session does not reconnect to that session).
     */
    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void shouldEndAStalledSubscriberAsASlowConsumerWithoutDelayingTheOthers(final boolean snapshotSession)
        throws Exception
    {
        snapshotSessions = snapshotSession;
        final TestSubscriber stalled = connect(SOCKET_BUFFER_BYTES);
        final TestSubscriber first = connect(0);
        final TestSubscriber second = connect(0);
        final List<Long> published = new ArrayList<>();

        for (long orderReference = 1; orderReference <= MESSAGES; orderReference++)
        {
            publishAddOrder(orderReference);
            published.add(orderReference);
            while (ring.size() > 0)
            {
                dutyCycle();
                first.client.receive();
                second.client.receive();
            }
        }
        for (int i = 0; i < 100 && (first.orders.size() < MESSAGES || second.orders.size() < MESSAGES); i++)
        {
            dutyCycle();
            first.client.receive();
            second.client.receive();
            Thread.sleep(1);
        }

        assertThat(first.orders).isEqualTo(published);
        assertThat(second.orders).isEqualTo(published);
        assertThat(counter("bourse_fanout_slow_consumer_disconnects")).isEqualTo(1.0);
        assertThat(errors.count(FanoutError.SLOW_CONSUMER)).isEqualTo(1);
        assertThat(errors.total()).isEqualTo(1);

        // The stalled subscriber reads again: what the socket held, the rest of the packet under way, End of Session
        // on a snapshot session only, then the end of the stream (nassau's client fails on a packet cut short).
        while (stalled.client.receive() >= 0)
        {
            dutyCycle();
        }
        assertThat(stalled.ended).as("End of Session").isEqualTo(snapshotSession);
        assertThat(stalled.orders).hasSizeLessThan(MESSAGES)
            .isEqualTo(published.subList(0, stalled.orders.size()));
    }

    /**
     * {@code System.nanoTime} has an arbitrary origin and may be negative: the worker still looks at its sockets every
     * {@link WorkerAgent#SELECT_INTERVAL_NS} from its first duty cycle. Before, its first look waited for the clock to
     * pass 0, so a Login Request was never read.
     */
    @Test
    void shouldReadALoginRequestWhenTheMonotonicClockIsNegative() throws Exception
    {
        clockStepNs.set(Long.MIN_VALUE / 2 - System.nanoTime());
        worker.onClose();
        worker = newWorker(SYMBOLS, SEND_BUFFER_BYTES); // built while its clock reads about -146 years

        final TestSubscriber subscriber = login(0);
        for (int i = 0; i < 1_000 && !subscriber.accepted; i++)
        {
            dutyCycle();
            subscriber.client.receive();
            Thread.sleep(1);
        }

        assertThat(subscriber.accepted).as("Login Accepted").isTrue();
    }

    /**
     * A connection that sends no Login Request (nothing, or Client Heartbeats only) is closed after the login timeout,
     * as the order gateway's are, so that such connections do not hold the worker's places; a logged-in subscriber
     * stays. Before, it stayed as long as it sent heartbeats.
     */
    @Test
    void shouldCloseAConnectionThatSendsNoLoginRequestWithinTheLoginTimeout() throws Exception
    {
        final TestSubscriber subscriber = connect(0);
        final TestSubscriber silent = open(0);
        worker.doWork(); // takes the connection

        clockStepNs.set(TimeUnit.MILLISECONDS.toNanos(SubscriberSession.LOGIN_TIMEOUT_MS));
        silent.channel.write(ByteBuffer.wrap(new byte[]{0, 1, 'R'})); // a Client Heartbeat
        awaitClosed(silent);

        assertThat(counter("bourse_fanout_login_timeouts")).isEqualTo(1);
        assertThat(isClosedByPeer(subscriber)).isFalse();
        assertThat(gauge("bourse_fanout_sessions")).isEqualTo(1);
    }

    /**
     * Connections that send nothing hold at most {@value #MAX_PENDING_LOGINS} places: one more is closed at once and
     * counted, and once one of them logs in the next connection is served again.
     */
    @Test
    void shouldCloseAtOnceAConnectionBeyondTheMostAwaitingTheirLoginRequest() throws Exception
    {
        final TestSubscriber subscriber = connect(0);
        final List<TestSubscriber> silent = new ArrayList<>();
        for (int i = 0; i < MAX_PENDING_LOGINS; i++)
        {
            silent.add(open(0));
        }
        final TestSubscriber refused = open(0);
        assertThat(worker.load()).as("a session and four connections queued").isEqualTo(5);
        assertThat(worker.isAtPendingLoginLimit()).as("four queued").isTrue();
        dutyCycle();

        awaitClosed(refused);
        assertThat(worker.load()).as("four sessions").isEqualTo(4);
        assertThat(worker.isAtPendingLoginLimit()).as("three awaiting their Login Request").isTrue();
        assertThat(counter("bourse_fanout_pending_login_refusals")).isEqualTo(1);
        assertThat(gauge("bourse_fanout_sessions")).isEqualTo(1);
        assertThat(isClosedByPeer(subscriber)).isFalse();
        assertThat(silent.stream().filter(WorkerAgentTest::isClosedByPeer).count()).isZero();

        sendLoginRequest(silent.getFirst());
        awaitAccepted(silent.getFirst());
        connect(0);

        assertThat(counter("bourse_fanout_pending_login_refusals")).isEqualTo(1);
        assertThat(gauge("bourse_fanout_sessions")).as("logged in").isEqualTo(3);
        assertThat(errors.total()).isZero();
    }

    /**
     * A Logout Request ends the connection, with End of Session on a snapshot session only (no login can resume its
     * stream; before, the connection closed without it): what the subscriber sends after it, in the same write, is
     * dropped with the session, and the session goes once the subscriber closes its end.
     */
    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void shouldEndTheConnectionAtALogoutRequestAndDropWithoutCountingAnErrorWhatFollowsItInTheSameRead(
        final boolean snapshotSession) throws Exception
    {
        snapshotSessions = snapshotSession;
        final TestSubscriber subscriber = connect(0);
        writeFully(subscriber, new byte[]{0, 1, 'O', 0, 3, 'U', 'x', 'y'});
        awaitEndOfStreamAndClose(subscriber);

        assertThat(subscriber.ended).as("End of Session").isEqualTo(snapshotSession);
        assertThat(gauge("bourse_fanout_sessions")).isZero();
        assertThat(errors.total()).isZero();
    }

    /**
     * A subscription message before the Login Request, or one that cannot be parsed (a count of two symbols and one
     * symbol), is counted as {@code bad_subscription} and ignored: the session keeps every symbol and goes on.
     */
    @Test
    void shouldCountAndIgnoreASubscriptionBeforeTheLoginOrOneThatCannotBeParsed() throws Exception
    {
        final TestSubscriber subscriber = open(0);
        writeFully(subscriber, new byte[]{0, 2, 'U', 'A'});
        sendLoginRequest(subscriber);
        awaitAccepted(subscriber);
        writeFully(subscriber, new byte[]{0, 12, 'U', 'S', 0, 2, 'A', 'A', 'P', 'L', ' ', ' ', ' ', ' '});
        publishAddOrder(7);

        runUntil(subscriber, () -> !subscriber.orders.isEmpty() && errors.total() >= 2);

        assertThat(subscriber.orders).containsExactly(7L);
        assertThat(errors.count(FanoutError.BAD_SUBSCRIPTION)).isEqualTo(2);
        assertThat(errors.total()).isEqualTo(2);
        assertThat(gauge("bourse_fanout_sessions")).isEqualTo(1);
    }

    /**
     * A Login Request whose Requested Sequence Number is not a number (blank, a sign, a byte other than a digit or a
     * space between the digits) is a malformed packet: counted, the connection closed, and nothing asked of the
     * dispatcher. Before, nassau's parser read "x3" as 723 and "3x" as 102, a replay from an arbitrary message, and
     * "-3" as live messages only.
     */
    @ParameterizedTest
    @ValueSource(strings = {"", "x3", "3x", "-3", "+3", "1 1", "0x10"})
    void shouldCloseAConnectionWhoseRequestedSequenceNumberIsNotANumberWithoutAskingTheDispatcher(final String field)
        throws Exception
    {
        final TestSubscriber subscriber = open(0);
        final byte[] packet = new byte[2 + 47];
        Arrays.fill(packet, (byte)' ');
        packet[1] = 47;
        packet[2] = 'L';
        System.arraycopy("sub1".getBytes(StandardCharsets.US_ASCII), 0, packet, 3, 4);
        System.arraycopy("pw1".getBytes(StandardCharsets.US_ASCII), 0, packet, 9, 3);
        final byte[] sequence = field.getBytes(StandardCharsets.US_ASCII);
        System.arraycopy(sequence, 0, packet, packet.length - sequence.length, sequence.length);
        writeFully(subscriber, packet);
        awaitClosed(subscriber);

        assertThat(subscriber.accepted).isFalse();
        assertThat(requests.isEmpty()).as("nothing asked of the dispatcher").isTrue();
        assertThat(counter("bourse_fanout_malformed_packets")).isEqualTo(1);
        assertThat(errors.count(FanoutError.MALFORMED_PACKET)).isEqualTo(1);
        assertThat(errors.total()).isEqualTo(1);
    }

    /**
     * On the day's numbered stream a subscription that leaves the symbol out is counted as {@code
     * subscription_refused} and ignored, and one of every symbol changes nothing: the session goes on with every
     * symbol, so that its sequence numbers stay the day's.
     */
    @Test
    void shouldRefuseASubscriptionThatLeavesSymbolsOutOfTheDaysStream() throws Exception
    {
        final TestSubscriber subscriber = connect(0);
        writeFully(subscriber, new byte[]{0, 4, 'U', 'S', 0, 0, 0, 2, 'U', 'A'});
        publishAddOrder(7);

        runUntil(subscriber, () -> !subscriber.orders.isEmpty() && errors.total() >= 1);

        assertThat(subscriber.orders).containsExactly(7L);
        assertThat(requests.isEmpty()).as("no book asked for").isTrue();
        assertThat(errors.count(FanoutError.SUBSCRIPTION_REFUSED)).isEqualTo(1);
        assertThat(errors.total()).isEqualTo(1);
        assertThat(gauge("bourse_fanout_subscriptions")).isEqualTo(1);
    }

    /**
     * A login whose request the dispatcher's full queue cannot take gets SoupBinTCP Login Rejected 'S' (session not
     * available), counted on its own; before, the connection was closed with no answer.
     */
    @Test
    void shouldRejectAndCountALoginWhoseRequestTheDispatcherQueueCannotTake() throws Exception
    {
        fillRequestQueue();
        final TestSubscriber subscriber = login(0);

        final long deadlineNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (0 == subscriber.rejectReasonCode && System.nanoTime() - deadlineNs < 0)
        {
            worker.doWork();
            subscriber.client.receive();
        }

        assertThat(subscriber.rejectReasonCode).isEqualTo((char)SoupBinTCP.LOGIN_REJECT_CODE_SESSION_NOT_AVAILABLE);
        assertThat(subscriber.accepted).isFalse();
        assertThat(isClosed(subscriber)).as("closed by the worker").isTrue();
        assertThat(counter("bourse_fanout_login_failures")).isEqualTo(1);
        assertThat(errors.count(FanoutError.REQUEST_QUEUE_FULL)).isEqualTo(1);
        assertThat(errors.total()).isEqualTo(1);
    }

    /**
     * A subscription adding a symbol whose book request the dispatcher's full queue cannot take ends the session with
     * End of Session, counted; before, the connection was closed with no word.
     */
    @Test
    void shouldEndASessionWhoseSubscriptionRequestTheDispatcherQueueCannotTake() throws Exception
    {
        snapshotSessions = true;
        final TestSubscriber subscriber = connect(0);
        fillRequestQueue();
        // No symbol, then AAPL again: its book must be asked for.
        writeFully(subscriber,
            new byte[]{0, 4, 'U', 'S', 0, 0, 0, 12, 'U', 'S', 0, 1, 'A', 'A', 'P', 'L', ' ', ' ', ' ', ' '});

        final long deadlineNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (!subscriber.ended && System.nanoTime() - deadlineNs < 0)
        {
            worker.doWork();
            subscriber.client.receive();
        }

        assertThat(subscriber.ended).as("End of Session").isTrue();
        assertThat(errors.count(FanoutError.REQUEST_QUEUE_FULL)).isEqualTo(1);
        assertThat(errors.total()).isEqualTo(1);
    }

    /** Fills the dispatcher's queue of requests, as a dispatcher far behind leaves it. */
    private void fillRequestQueue()
    {
        while (requests.offer(CatchUpRequest.cancel(1, 99)))
        {
            // the dispatcher is behind
        }
    }

    /** @return true once the worker has closed its end: end of stream or a reset. */
    private static boolean isClosed(final TestSubscriber subscriber)
    {
        try
        {
            return subscriber.channel.read(ByteBuffer.allocate(64)) < 0;
        }
        catch (final IOException ex)
        {
            return true;
        }
    }

    /**
     * The sessions' heartbeat timers run on the monotonic clock: a subscriber silent for 15 s of it is ended, whatever
     * the wall clock did (before, they ran on the wall clock, which a step forward, NTP or a resumed VM, moved past
     * the timeout at once, and a step back held off the Server Heartbeats).
     */
    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void shouldEndASubscriberSilentFor15sOfTheMonotonicClock(final boolean snapshotSession) throws Exception
    {
        snapshotSessions = snapshotSession;
        final TestSubscriber subscriber = connect(0);

        clockStepNs.set(TimeUnit.SECONDS.toNanos(16));
        final long deadlineNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(2); // far less than the 15 s timeout
        while (subscriber.client.receive() >= 0)
        {
            assertThat(System.nanoTime()).as("ended within 2 s of wall time").isLessThan(deadlineNs);
            dutyCycle();
        }
        subscriber.close();
        awaitNoSession();

        // End of Session on a snapshot session, which no login can resume (a subscriber that only reads learns why;
        // before, the connection closed without it); the day's stream may be logged in to again from the next number.
        assertThat(subscriber.ended).as("End of Session").isEqualTo(snapshotSession);
        assertThat(errors.count(FanoutError.CONNECTION_FAILED)).isEqualTo(1);
        assertThat(errors.total()).isEqualTo(1);
    }

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void shouldKeepEndingSessionsUntilTheirSubscribersCloseAndGiveTheirPlaceToNewConnectionsWhenFull(
        final boolean snapshotSession) throws Exception
    {
        snapshotSessions = snapshotSession;
        final List<TestSubscriber> ending = new ArrayList<>();
        for (int i = 0; i < MAX_SESSIONS; i++)
        {
            ending.add(connect(0));
        }
        // The dispatcher reports that the worker missed messages: every session's connection ends, with End of
        // Session on a snapshot session only, since a day's stream subscriber can log in to it again from its next
        // sequence number.
        assertThat(ring.write(DispatcherAgent.DATA_LOST_MSG_TYPE_ID, record, 0, 1)).isTrue();
        for (final TestSubscriber subscriber : ending)
        {
            while (subscriber.client.receive() >= 0)
            {
                dutyCycle();
            }
            assertThat(subscriber.ended).as("End of Session").isEqualTo(snapshotSession);
        }
        assertThat(gauge("bourse_fanout_sessions")).as("ending, still counted").isEqualTo(MAX_SESSIONS);

        ending.getFirst().close();
        while (gauge("bourse_fanout_sessions") == MAX_SESSIONS)
        {
            dutyCycle();
        }
        assertThat(gauge("bourse_fanout_sessions")).as("closed with its subscriber").isEqualTo(MAX_SESSIONS - 1);

        // One new session takes the free place, the next the place of an ending session, which closes at once.
        connect(0);
        connect(0);
        assertThat(gauge("bourse_fanout_sessions")).isEqualTo(MAX_SESSIONS);
        final long closedForRoom = ending.stream().skip(1).filter((subscriber) -> isClosedByPeer(subscriber)).count();
        assertThat(closedForRoom).isEqualTo(1);
        assertThat(errors.total()).isZero();
    }

    /**
     * Missed messages while a login waits for its answer (a next md-publisher's books end the old ones while the login
     * waits for them): the logged-in session's connection ends, the login waits on, and the dispatcher's answer written
     * after the marker, from the next books, is its Login Accepted. Before stop 112 it got Login Rejected 'S'.
     */
    @Test
    void shouldLetALoginAwaitingItsAnswerWaitOnAtMissedMessagesWhileTheLoggedInSessionsEnd() throws Exception
    {
        final TestSubscriber loggedIn = connect(0);
        final TestSubscriber waiting = login(0);
        CatchUpRequest request;
        while (null == (request = requests.poll()))
        {
            worker.doWork(); // reads the Login Request, which the dispatcher holds until it has books
        }
        assertThat(ring.write(DispatcherAgent.DATA_LOST_MSG_TYPE_ID, record, 0, 1)).isTrue();
        while (loggedIn.client.receive() >= 0)
        {
            dutyCycle();
        }
        for (int i = 0; i < 10; i++)
        {
            dutyCycle();
            waiting.client.receive();
        }
        final char rejectedAtTheMarker = waiting.rejectReasonCode;

        record.putLong(DispatcherAgent.SESSION_ID_OFFSET, request.sessionId());
        record.putLong(DispatcherAgent.ACCEPTED_SEQUENCE_OFFSET, 1);
        record.putLong(DispatcherAgent.SNAPSHOT_FLAG_OFFSET, 0);
        assertThat(ring.write(DispatcherAgent.SESSION_START_MSG_TYPE_ID, record, 0,
            DispatcherAgent.SESSION_START_LENGTH)).isTrue();
        assertThat(ring.write(DispatcherAgent.SESSION_END_MSG_TYPE_ID, record, 0, Long.BYTES)).isTrue();
        awaitAccepted(waiting);

        assertThat(rejectedAtTheMarker).as("no Login Rejected at the marker").isEqualTo((char)0);
        assertThat(isClosedByPeer(waiting)).isFalse();
        assertThat(counter("bourse_fanout_gap_disconnects")).isOne();
        assertThat(errors.total()).isZero();
    }

    /**
     * Missed messages in place of the day's end record (the worker's ring had no room for it): the ended day's
     * sessions get End of Session, without the System Events 'M', 'E' and 'C', since their stream is over, and a login
     * awaiting its answer gets Login Rejected 'S' (session not available). At the stop, missed messages end the day's
     * stream's sessions with End of Session too: no later run serves it.
     */
    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void shouldEndTheSessionsWithEndOfSessionAtMissedMessagesOnceTheirStreamIsOver(final boolean atTheStop)
        throws Exception
    {
        final TestSubscriber dayStream = connect(0);
        final TestSubscriber waiting = login(0);
        while (requests.isEmpty())
        {
            worker.doWork(); // reads the Login Request
        }
        requests.clear(); // the dispatcher does not answer it
        if (!atTheStop)
        {
            sessionNames.nextDay("F20261125");
        }
        assertThat(ring.write(DispatcherAgent.DATA_LOST_MSG_TYPE_ID, record, 0, 1)).isTrue();

        if (atTheStop)
        {
            stop(0, dayStream, waiting);
        }
        else
        {
            for (final TestSubscriber subscriber : List.of(dayStream, waiting))
            {
                while (subscriber.client.receive() >= 0)
                {
                    worker.doWork();
                }
            }
        }

        assertThat(dayStream.ended).as("End of Session").isTrue();
        assertThat(dayStream.eventCodes).as("no System Event for a stream that missed messages").isEmpty();
        assertThat(waiting.accepted).isFalse();
        assertThat(waiting.rejectReasonCode).isEqualTo((char)SoupBinTCP.LOGIN_REJECT_CODE_SESSION_NOT_AVAILABLE);
        assertThat(errors.total()).isZero();
    }

    /**
     * At the stop a session whose snapshot is not finished gets End of Session alone, a login awaiting its answer Login
     * Rejected 'S' (session not available), as at the day's end, and a connection that sent no Login Request nothing:
     * it is closed. Before stop 106, the last two got End of Session, a packet of a session they never had.
     */
    @Test
    void shouldEndAtTheStopASnapshotNotFinishedWithEndOfSessionAloneAndRejectALoginAwaitingItsAnswer()
        throws Exception
    {
        snapshotsUnderWay = true;
        final TestSubscriber midSnapshot = connect(0);
        final TestSubscriber waiting = login(0);
        while (requests.isEmpty())
        {
            worker.doWork(); // reads the Login Request; the dispatcher does not answer it
        }
        final TestSubscriber silent = open(0);
        worker.doWork(); // takes the connection

        stop(0, midSnapshot, waiting, silent);

        // Login Accepted, then End of Session: no End of Messages for a book in part (before stop 85, 'S', 'Q', 'M',
        // 'E' and 'C' followed, as if its stream were whole; the opening is the dispatcher's, which wrote none here).
        assertThat(midSnapshot.accepted).isTrue();
        assertThat(midSnapshot.messageTypes).isEmpty();
        assertThat(midSnapshot.ended).isTrue();
        assertThat(waiting.accepted).isFalse();
        assertThat(waiting.rejectReasonCode).isEqualTo((char)SoupBinTCP.LOGIN_REJECT_CODE_SESSION_NOT_AVAILABLE);
        assertThat(waiting.ended).isFalse();
        assertThat(silent.accepted).isFalse();
        assertThat(silent.rejectReasonCode).isEqualTo((char)0);
        assertThat(silent.ended).isFalse();
        assertThat(errors.total()).isZero();
    }

    /**
     * A subscriber that stops reading in the middle of its login's snapshot, and goes on sending heartbeats, is ended
     * as a slow consumer once its socket has taken nothing for 15 s of the monotonic clock. The dispatcher paces an
     * answer to its subscriber, so before, it held its place among the worker's answers under way until Server
     * Heartbeats alone filled its send buffer: about six hours at the default 128 KiB.
     */
    @Test
    void shouldEndAsASlowConsumerASubscriberThatTakesNoneOfItsAnswerFor15sWhileItSendsHeartbeats() throws Exception
    {
        snapshotsUnderWay = true;
        final TestSubscriber stalled = connect(SOCKET_BUFFER_BYTES);
        final int orders = 400; // 15,600 bytes of Sequenced Data: more than the sockets take, less than the send buffer
        for (long orderReference = 1; orderReference <= orders; orderReference++)
        {
            answerAddOrder(answeredSessionId, orderReference);
        }
        sendHeartbeatsReadingNothingFor17s(stalled, (second) ->
        {
            if (second < 15)
            {
                assertThat(errors.count(FanoutError.SLOW_CONSUMER)).as("ended after %d s", second).isZero();
            }
        });

        assertThat(errors.count(FanoutError.SLOW_CONSUMER)).isEqualTo(1);
        assertThat(counter("bourse_fanout_slow_consumer_disconnects")).isEqualTo(1.0);
        assertThat(errors.total()).as("no heartbeat timeout").isEqualTo(1);
        final List<CatchUpRequest> asked = new ArrayList<>();
        requests.drain(asked::add);
        assertThat(asked).as("the answer dropped").containsExactly(CatchUpRequest.cancel(0, answeredSessionId));
        while (!stalled.ended && stalled.client.receive() >= 0)
        {
            worker.doWork();
        }
        assertThat(stalled.orders).as("the packets not begun dropped").hasSizeLessThan(orders)
            .isEqualTo(LongStream.rangeClosed(1, stalled.orders.size()).boxed().toList());
    }

    /**
     * The stall deadline is for answers only: a live session, its answer over, that reads nothing for 17 s while it
     * sends heartbeats, with bytes unsent but room in its send buffer, stays (a slow consumer is one whose send buffer
     * overflows), and gets every message once it reads again.
     */
    @Test
    void shouldNotEndALiveSessionThatReadsNothingFor17sWhileItSendsHeartbeatsAndItsSendBufferHasRoom() throws Exception
    {
        final TestSubscriber stalled = connect(SOCKET_BUFFER_BYTES);
        final List<Long> published = publishLongerStream();
        sendHeartbeatsReadingNothingFor17s(stalled, (second) ->
        {
        });

        assertThat(errors.total()).as("no slow consumer, no heartbeat timeout").isZero();
        while (stalled.orders.size() < published.size())
        {
            worker.doWork();
            assertThat(stalled.client.receive()).as("connection open").isNotNegative();
        }
        assertThat(stalled.orders).isEqualTo(published);
        assertThat(stalled.ended).isFalse();
    }

    /**
     * The stall deadline counts from the first look at a session awaiting its answer with bytes unsent: a login
     * answered in the duty cycle where the session's first keep-alive comes, before the cycle's write, is not a stall.
     * Before, the deadline counted from 0 of the monotonic clock at that first look, which ended such a session at once
     * as a slow consumer.
     */
    @Test
    void shouldNotEndAsStalledASessionWhoseAnswerStartsInTheCycleOfItsFirstKeepAlive() throws Exception
    {
        worker.doWork(); // the worker's first keep-alive, before the connection: the next is 100 ms away
        final TestSubscriber subscriber = login(0);
        while (requests.isEmpty())
        {
            worker.doWork(); // reads the Login Request; the dispatcher does not answer it yet
        }
        record.putLong(DispatcherAgent.SESSION_ID_OFFSET, requests.poll().sessionId());
        record.putLong(DispatcherAgent.ACCEPTED_SEQUENCE_OFFSET, 1);
        record.putLong(DispatcherAgent.SNAPSHOT_FLAG_OFFSET, 1);
        assertThat(ring.write(DispatcherAgent.SESSION_START_MSG_TYPE_ID, record, 0,
            DispatcherAgent.SESSION_START_LENGTH)).isTrue();
        clockStepNs.addAndGet(TimeUnit.SECONDS.toNanos(1)); // the keep-alive is due in the next cycle

        worker.doWork(); // Login Accepted buffered, then the keep-alive, then the write
        while (!subscriber.accepted && !subscriber.ended)
        {
            dutyCycle();
            subscriber.client.receive();
        }

        assertThat(subscriber.ended).as("ended").isFalse();
        assertThat(errors.count(FanoutError.SLOW_CONSUMER)).isZero();
        assertThat(errors.total()).isZero();
    }

    /**
     * System Events 'S' and 'Q', which the session sends after its login's spin, carry the timestamp of the opening,
     * which the dispatcher gave System Event 'O' and the Stock Directory when the answer started, not the time the
     * spin ends: for a slow reader of many symbols' opening that is later than the kept messages after the snapshot.
     */
    @Test
    void shouldStampTheSystemEventsAfterTheSpinWithTheTimestampOfTheOpening() throws Exception
    {
        final TestSubscriber subscriber = login(0);
        while (requests.isEmpty())
        {
            worker.doWork(); // reads the Login Request
        }
        final long openingNs = TimeUnit.HOURS.toNanos(9) + 123_456_789L;
        record.putLong(DispatcherAgent.SESSION_ID_OFFSET, requests.poll().sessionId());
        record.putLong(DispatcherAgent.ACCEPTED_SEQUENCE_OFFSET, 1);
        record.putLong(DispatcherAgent.SNAPSHOT_FLAG_OFFSET, 1);
        record.putLong(DispatcherAgent.OPENING_TIMESTAMP_OFFSET, openingNs);
        assertThat(ring.write(DispatcherAgent.SESSION_START_MSG_TYPE_ID, record, 0,
            DispatcherAgent.SESSION_START_LENGTH)).isTrue();
        record.putShort(DispatcherAgent.SESSION_ITCH_OFFSET + DispatcherAgent.ITCH_LOCATE_OFFSET, (short)1,
            ByteOrder.BIG_ENDIAN);
        record.putByte(DispatcherAgent.SESSION_ITCH_OFFSET, ITCH50.MESSAGE_TYPE_STOCK_TRADING_ACTION);
        assertThat(ring.write(DispatcherAgent.SESSION_ITCH_MSG_TYPE_ID, record, 0,
            DispatcherAgent.SESSION_ITCH_OFFSET + 25)).isTrue();
        record.putByte(DispatcherAgent.SESSION_ITCH_OFFSET, ITCH50.MESSAGE_TYPE_ADD_ORDER);
        assertThat(ring.write(DispatcherAgent.SESSION_ITCH_MSG_TYPE_ID, record, 0,
            DispatcherAgent.SESSION_ITCH_OFFSET + 36)).isTrue();
        assertThat(ring.write(DispatcherAgent.SESSION_END_MSG_TYPE_ID, record, 0, Long.BYTES)).isTrue();

        for (int i = 0; i < 1_000 && subscriber.messageTypes.size() < 4; i++)
        {
            worker.doWork();
            subscriber.client.receive();
            Thread.sleep(1);
        }

        assertThat(subscriber.messageTypes).containsExactly('H', 'S', 'S', 'A');
        assertThat(subscriber.eventCodes).containsExactly('S', 'Q');
        assertThat(subscriber.eventTimestamps).containsExactly(openingNs, openingNs);
        assertThat(errors.total()).isZero();
    }

    /**
     * A subscriber that asked for a second symbol during its login's snapshot and reset its connection: the System
     * Events after the snapshot's spin (a Stock Trading Action fills its send buffer) meet the reset socket and close
     * the session. The dispatcher, whose answer has just ended, is asked for nothing more; before, the worker asked it
     * to cancel that answer and to send the second symbol's book to the closed session.
     */
    @Test
    void shouldAskTheDispatcherForNothingMoreWhenASessionEndsAtItsAnswersEnd() throws Exception
    {
        final SymbolDirectory symbols = SymbolDirectory.parse("AAPL@0,MSFT@0");
        worker.onClose();
        // Room for the longest message of a login's answer, a Stock Directory (SoupBinTCP header and 39 bytes): a
        // Stock Trading Action (3 + 25) leaves 14 bytes, short of a System Event's 15.
        worker = newWorker(symbols, 42);
        final TestSubscriber subscriber = login(0);
        while (requests.isEmpty())
        {
            worker.doWork(); // reads the Login Request
        }
        record.putLong(DispatcherAgent.SESSION_ID_OFFSET, requests.poll().sessionId());
        record.putLong(DispatcherAgent.ACCEPTED_SEQUENCE_OFFSET, 1);
        record.putLong(DispatcherAgent.SNAPSHOT_FLAG_OFFSET, 1);
        assertThat(ring.write(DispatcherAgent.SESSION_START_MSG_TYPE_ID, record, 0,
            DispatcherAgent.SESSION_START_LENGTH)).isTrue();
        awaitAccepted(subscriber);
        // MSFT alone, then AAPL and MSFT: MSFT's book is under way, AAPL's is asked for once the answer ends.
        writeFully(subscriber, new byte[]{
            0, 12, 'U', 'S', 0, 1, 'M', 'S', 'F', 'T', ' ', ' ', ' ', ' ',
            0, 20, 'U', 'S', 0, 2, 'A', 'A', 'P', 'L', ' ', ' ', ' ', ' ', 'M', 'S', 'F', 'T', ' ', ' ', ' ', ' '});
        for (int i = 0; i < 50; i++)
        {
            worker.doWork(); // reads the subscriptions; nothing is sent until the answer goes on
            subscriber.client.receive();
            Thread.sleep(1);
        }
        assertThat(subscriber.messageTypes).isEmpty();
        assertThat(requests.size()).isZero();

        subscriber.channel.setOption(StandardSocketOptions.SO_LINGER, 0);
        subscriber.channel.close(); // a reset
        Thread.sleep(20);
        clockStepNs.addAndGet(-TimeUnit.SECONDS.toNanos(1)); // the next look at the socket is 1 s away
        record.putByte(DispatcherAgent.SESSION_ITCH_OFFSET, ITCH50.MESSAGE_TYPE_STOCK_TRADING_ACTION);
        record.putShort(DispatcherAgent.SESSION_ITCH_OFFSET + DispatcherAgent.ITCH_LOCATE_OFFSET, (short)2,
            ByteOrder.BIG_ENDIAN);
        assertThat(ring.write(DispatcherAgent.SESSION_ITCH_MSG_TYPE_ID, record, 0,
            DispatcherAgent.SESSION_ITCH_OFFSET + 25)).isTrue();
        assertThat(ring.write(DispatcherAgent.SESSION_END_MSG_TYPE_ID, record, 0, Long.BYTES)).isTrue();
        worker.doWork();

        assertThat(errors.count(FanoutError.CONNECTION_FAILED)).as("the reset met").isEqualTo(1);
        assertThat(gauge("bourse_fanout_sessions")).isZero();
        final List<CatchUpRequest> asked = new ArrayList<>();
        requests.drain(asked::add);
        assertThat(asked).as("requests to the dispatcher").isEmpty();
    }

    /**
     * A login whose replay or snapshot the dispatcher could not finish (its next kept message gone): the connection
     * ends after Login Accepted, with End of Session for a snapshot session only; the day's stream goes on for a later
     * login.
     */
    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void shouldEndTheConnectionOfASessionWhoseAnswerFailedLeavingTheCountToTheDispatcher(final boolean snapshot)
        throws Exception
    {
        final TestSubscriber failed = login(0);
        while (requests.isEmpty())
        {
            worker.doWork(); // reads the Login Request; the dispatcher does not answer it
        }
        record.putLong(DispatcherAgent.SESSION_ID_OFFSET, requests.poll().sessionId());
        record.putLong(DispatcherAgent.ACCEPTED_SEQUENCE_OFFSET, snapshot ? 1 : 5);
        record.putLong(DispatcherAgent.SNAPSHOT_FLAG_OFFSET, snapshot ? 1 : 0);
        assertThat(ring.write(DispatcherAgent.SESSION_START_MSG_TYPE_ID, record, 0,
            DispatcherAgent.SESSION_START_LENGTH)).isTrue();
        // What the dispatcher writes, counting the failure once, when the answer's next kept message has gone.
        assertThat(ring.write(DispatcherAgent.SESSION_FAILED_MSG_TYPE_ID, record, 0, Long.BYTES)).isTrue();

        while (failed.client.receive() >= 0)
        {
            dutyCycle();
        }

        assertThat(failed.accepted).isTrue();
        assertThat(failed.ended).as("End of Session").isEqualTo(snapshot);
        assertThat(errors.total()).as("counted by the dispatcher, not again here").isZero();
    }

    @Test
    void shouldAskTheDispatcherToDropTheAnswerOfASessionThatEndsBeforeIt() throws Exception
    {
        final TestSubscriber gone = login(0);
        while (requests.isEmpty())
        {
            worker.doWork(); // reads the Login Request; the dispatcher does not answer it
        }
        final CatchUpRequest login = requests.poll();

        gone.close();
        final long deadlineNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (requests.isEmpty() && System.nanoTime() < deadlineNs)
        {
            worker.doWork();
        }

        assertThat(requests.poll()).isEqualTo(CatchUpRequest.cancel(0, login.sessionId()));
        assertThat(gauge("bourse_fanout_sessions")).isZero();
    }

    /**
     * A live message's service time runs from the dispatcher's read of it (its record's read time, on the fanout's
     * clock) to its ITCH written, apart from its latency, which runs from its market-data timestamp (the gateway's
     * time of the order): the fanout's own time, not the whole path's.
     */
    @Test
    void shouldRecordTheServiceTimeFromTheDispatchersReadOfALiveMessage() throws Exception
    {
        final TestSubscriber subscriber = connect(0);
        final long readNs = midnightClock.nanosSinceMidnight() - TimeUnit.MILLISECONDS.toNanos(3);
        publishAddOrder(7, readNs - TimeUnit.MINUTES.toNanos(10), readNs);

        final long deadlineNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (subscriber.orders.isEmpty() && System.nanoTime() - deadlineNs < 0)
        {
            dutyCycle();
            subscriber.client.receive();
        }

        assertThat(subscriber.orders).containsExactly(7L);
        assertThat(maxSeconds("bourse_fanout_service_time_seconds")).isBetween(0.003, 60.0);
        assertThat(maxSeconds("bourse_fanout_latency_seconds")).isBetween(600.0, 660.0);
    }

    /**
     * Midnight UTC: at the dispatcher's day-end record, a session of the ended day gets System Events 'M', 'E' and 'C'
     * stamped with the record's closing time, then End of Session; one still waiting for its login's answer gets Login
     * Rejected 'S', its day's stream being over; one that logged in on the new day (its Login Request read after the
     * dispatcher moved the day on, before the record) goes on, its Login Accepted naming the new day's stream.
     */
    @Test
    void shouldEndTheEndedDaysSessionsAtItsDayEndAndRejectItsLoginsAwaitingTheirAnswer() throws Exception
    {
        final TestSubscriber ofTheDay = connect(0);
        final TestSubscriber awaiting = login(0);
        while (requests.isEmpty())
        {
            worker.doWork(); // reads the Login Request; the dispatcher, at midnight, drops it
        }
        assertThat(requests.poll().day()).isZero();
        final TestSubscriber ofTheNextDay = open(0);
        publishAddOrder(1);
        sessionNames.nextDay("F20261125");
        sendLoginRequest(ofTheNextDay);
        while (requests.isEmpty())
        {
            worker.doWork(); // reads the new day's Login Request, not yet the ring
        }
        assertThat(requests.peek().day()).as("a request of the new day").isEqualTo(1);
        final long closingNs = MidnightNanoClock.NANOS_PER_DAY - 1;
        record.putLong(DispatcherAgent.DAY_ORDINAL_OFFSET, 0);
        record.putLong(DispatcherAgent.CLOSING_TIMESTAMP_OFFSET, closingNs);
        assertThat(ring.write(DispatcherAgent.DAY_END_MSG_TYPE_ID, record, 0, DispatcherAgent.DAY_END_LENGTH)).isTrue();

        for (int i = 0; i < 1_000 && !(ofTheDay.ended && 0 != awaiting.rejectReasonCode && ofTheNextDay.accepted); i++)
        {
            dutyCycle(); // answers the new day's login after the day-end record, as the dispatcher does
            ofTheDay.client.receive();
            awaiting.client.receive();
            ofTheNextDay.client.receive();
            Thread.sleep(1);
        }
        publishAddOrder(2);
        for (int i = 0; i < 1_000 && ofTheNextDay.orders.isEmpty(); i++)
        {
            dutyCycle();
            ofTheNextDay.client.receive();
            Thread.sleep(1);
        }

        assertThat(ofTheDay.session).isEqualTo("FB22000000");
        assertThat(ofTheDay.messageTypes).containsExactly('A', 'S', 'S', 'S');
        assertThat(ofTheDay.orders).containsExactly(1L);
        assertThat(ofTheDay.eventCodes).containsExactly('M', 'E', 'C');
        assertThat(ofTheDay.eventTimestamps).containsOnly(closingNs);
        assertThat(ofTheDay.ended).isTrue();
        assertThat(awaiting.accepted).isFalse();
        assertThat(awaiting.rejectReasonCode).isEqualTo('S');
        assertThat(ofTheNextDay.session).isEqualTo("F20261125");
        assertThat(ofTheNextDay.orders).containsExactly(2L);
        assertThat(ofTheNextDay.ended).isFalse();
        assertThat(errors.total()).isZero();
    }

    /**
     * At the day-end record, a session whose snapshot is still being written gets End of Session alone, as at the stop:
     * its book is in part, and 'C' would tell its subscriber that its stream was whole. A stop after the day end sends
     * the ended day's sessions nothing more, and ends the new day's session with System Events stamped at the stop.
     */
    @Test
    void shouldEndAMidSnapshotSessionAtTheDayEndWithEndOfSessionAloneAndOnlyTheNewDaysAtALaterStop() throws Exception
    {
        snapshotsUnderWay = true;
        final TestSubscriber midSnapshot = connect(0);
        snapshotsUnderWay = false;
        final TestSubscriber ofTheDay = connect(0);
        sessionNames.nextDay("F20261125");
        final TestSubscriber ofTheNextDay = connect(0);
        final long closingNs = MidnightNanoClock.NANOS_PER_DAY - 1;
        record.putLong(DispatcherAgent.DAY_ORDINAL_OFFSET, 0);
        record.putLong(DispatcherAgent.CLOSING_TIMESTAMP_OFFSET, closingNs);
        assertThat(ring.write(DispatcherAgent.DAY_END_MSG_TYPE_ID, record, 0, DispatcherAgent.DAY_END_LENGTH)).isTrue();
        for (int i = 0; i < 1_000 && !(midSnapshot.ended && ofTheDay.ended); i++)
        {
            dutyCycle();
            midSnapshot.client.receive();
            ofTheDay.client.receive();
            Thread.sleep(1);
        }
        assertThat(midSnapshot.ended && ofTheDay.ended).as("the ended day's sessions ended").isTrue();

        final long stopNs = midnightClock.nanosSinceMidnight();
        stop(0, midSnapshot, ofTheDay, ofTheNextDay);

        assertThat(midSnapshot.messageTypes).isEmpty();
        assertThat(ofTheDay.eventCodes).containsExactly('M', 'E', 'C');
        assertThat(ofTheDay.eventTimestamps).containsOnly(closingNs);
        assertThat(ofTheNextDay.session).isEqualTo("F20261125");
        assertThat(ofTheNextDay.eventCodes).containsExactly('M', 'E', 'C');
        final long stopTookNs = midnightClock.nanosSinceMidnight() - stopNs;
        assertThat(ofTheNextDay.eventTimestamps).hasSize(3).allSatisfy((timestampNs) ->
            assertThat(MidnightNanoClock.withinADay(timestampNs - stopNs)).isBetween(0L, stopTookNs));
        assertThat(ofTheNextDay.ended).isTrue();
        assertThat(errors.total()).isZero();
    }

    @Test
    void shouldSendTheMessagesLeftInTheRingBeforeTheEndOfTheDayAtTheStop() throws Exception
    {
        final TestSubscriber subscriber = connect(0);
        final List<Long> published = new ArrayList<>();
        // Carried in duty cycles until the next record no longer fits before the end of the ring: the ones left at
        // the stop start after the padding that wraps it.
        long orderReference = 0;
        long recordLength = 0;
        while (0 == recordLength || ring.capacity() - ring.producerPosition() % ring.capacity() >= recordLength)
        {
            final long position = ring.producerPosition();
            publishAddOrder(++orderReference);
            published.add(orderReference);
            recordLength = ring.producerPosition() - position;
            dutyCycle();
            subscriber.client.receive();
        }
        for (int i = 0; i < 3 * MESSAGE_LIMIT; i++)
        {
            publishAddOrder(++orderReference);
            published.add(orderReference);
        }

        stop(0, subscriber);

        assertThat(subscriber.orders).isEqualTo(published);
        assertThat(subscriber.messageTypes.subList(published.size(), subscriber.messageTypes.size()))
            .containsExactly('S', 'S', 'S');
        assertThat(subscriber.eventCodes).containsExactly('M', 'E', 'C');
        assertThat(subscriber.ended).isTrue();
        assertThat(errors.total()).isZero();
    }

    @Test
    void shouldServeAStreamLongerThanTheSocketTakesAtOnceToItsEndAtTheStop() throws Exception
    {
        final TestSubscriber subscriber = connect(SOCKET_BUFFER_BYTES);
        final List<Long> published = publishLongerStream();

        stop(100, subscriber);

        assertThat(subscriber.orders).isEqualTo(published);
        assertThat(subscriber.eventCodes).containsExactly('M', 'E', 'C');
        assertThat(subscriber.ended).isTrue();
        assertThat(counter("bourse_fanout_slow_consumer_disconnects")).isZero();
        assertThat(errors.total()).isZero();
    }

    @Test
    void shouldServeTheRestOfTheStreamAtTheStopToASubscriberThatShutsOnlyItsOutputDown() throws Exception
    {
        final TestSubscriber subscriber = connect(SOCKET_BUFFER_BYTES);
        final List<Long> published = publishLongerStream();
        // The worker reads the end of its input while most of the stream is still in the session's send buffer.
        subscriber.channel.shutdownOutput();

        stop(100, subscriber);

        assertThat(subscriber.orders).isEqualTo(published);
        assertThat(subscriber.eventCodes).containsExactly('M', 'E', 'C');
        assertThat(subscriber.ended).isTrue();
        assertThat(errors.total()).isZero();
    }

    /**
     * Stops the worker on another thread while each subscriber, from {@code readDelayMs} on, reads its stream up to End
     * of Session, then closes its end; returns once the worker has stopped.
     */
    private void stop(final long readDelayMs, final TestSubscriber... subscribers) throws Exception
    {
        final CompletableFuture<Void> stopped = CompletableFuture.runAsync(worker::onClose);
        Thread.sleep(readDelayMs);
        for (final TestSubscriber subscriber : subscribers)
        {
            while (!subscriber.ended && subscriber.client.receive() >= 0)
            {
                Thread.yield();
            }
            subscriber.close();
        }
        stopped.get();
    }

    /** Runs duty cycles, the subscriber reading, until the condition holds or 5 s have passed. */
    private void runUntil(final TestSubscriber subscriber, final BooleanSupplier condition) throws Exception
    {
        final long deadlineNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (!condition.getAsBoolean() && System.nanoTime() - deadlineNs < 0)
        {
            dutyCycle();
            subscriber.client.receive();
            Thread.sleep(1);
        }
    }

    /**
     * Runs duty cycles until the subscriber reads the end of the stream: the worker has shut its output down after End
     * of Session (or closed the connection).
     */
    private void awaitClosed(final TestSubscriber subscriber) throws Exception
    {
        while (subscriber.channel.read(ByteBuffer.allocate(64)) >= 0)
        {
            dutyCycle();
        }
    }

    /** Runs duty cycles until the subscriber has read the end of its stream, then closes its end; awaits the close. */
    private void awaitEndOfStreamAndClose(final TestSubscriber subscriber) throws Exception
    {
        while (subscriber.client.receive() >= 0)
        {
            dutyCycle();
        }
        subscriber.close();
        awaitNoSession();
    }

    /** Runs duty cycles until the worker holds no session, for at most 5 s. */
    private void awaitNoSession() throws Exception
    {
        final long deadlineNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (gauge("bourse_fanout_sessions") > 0)
        {
            assertThat(System.nanoTime()).as("sessions closed within 5 s").isLessThan(deadlineNs);
            dutyCycle();
        }
    }

    /**
     * The worker writes what the ring holds, the sockets take what they hold; then, for 17 s of the worker's stepped
     * clock, the subscriber sends a Client Heartbeat every second and reads nothing, the worker running after each.
     *
     * @param afterSecond checks after each second (1 to 17).
     */
    private void sendHeartbeatsReadingNothingFor17s(final TestSubscriber subscriber, final IntConsumer afterSecond)
        throws Exception
    {
        while (ring.size() > 0)
        {
            dutyCycle();
        }
        Thread.sleep(20);
        for (int second = 1; second <= 17; second++)
        {
            clockStepNs.addAndGet(TimeUnit.SECONDS.toNanos(1));
            writeFully(subscriber, new byte[]{0, 1, 'R'}); // Client Heartbeat
            for (int i = 0; i < 3; i++)
            {
                worker.doWork();
                Thread.sleep(1);
            }
            afterSecond.accept(second);
        }
    }

    private void dutyCycle() throws Exception
    {
        worker.doWork();
        answerLogins();
    }

    /**
     * What the dispatcher does for a login that requests the next message: Login Accepted 1, nothing to replay; while
     * {@link #snapshotSessions}, a snapshot session's with an empty book; or, while {@link #snapshotsUnderWay}, the
     * start of a snapshot's answer (Login Accepted 1) and nothing more.
     */
    private void answerLogins()
    {
        CatchUpRequest request;
        while (null != (request = requests.poll()))
        {
            if (request.isCancel())
            {
                continue;
            }
            answeredSessionId = request.sessionId();
            record.putLong(DispatcherAgent.SESSION_ID_OFFSET, request.sessionId());
            record.putLong(DispatcherAgent.ACCEPTED_SEQUENCE_OFFSET, 1);
            record.putLong(DispatcherAgent.SNAPSHOT_FLAG_OFFSET, snapshotsUnderWay || snapshotSessions ? 1 : 0);
            assertThat(ring.write(DispatcherAgent.SESSION_START_MSG_TYPE_ID, record, 0,
                DispatcherAgent.SESSION_START_LENGTH)).isTrue();
            if (!snapshotsUnderWay)
            {
                assertThat(ring.write(DispatcherAgent.SESSION_END_MSG_TYPE_ID, record, 0, Long.BYTES)).isTrue();
            }
        }
    }

    /**
     * Publishes Add Orders 1 to 512, about 20 KB of Sequenced Data: more than the worker's socket buffer and a
     * subscriber's of {@link #SOCKET_BUFFER_BYTES} take at once, less than they and the session's send buffer hold.
     *
     * @return their order reference numbers, in order.
     */
    private List<Long> publishLongerStream()
    {
        final List<Long> published = new ArrayList<>();
        for (long orderReference = 1; orderReference <= 512; orderReference++)
        {
            publishAddOrder(orderReference);
            published.add(orderReference);
        }
        return published;
    }

    /** ITCH 5.0 §4.3.1 Add Order of AAPL (Stock Locate 1); only the order reference number matters here. */
    private void publishAddOrder(final long orderReference)
    {
        publishAddOrder(orderReference, 0, 0);
    }

    /**
     * @param timestampNs its ITCH Timestamp, ns since midnight.
     * @param readNs      when the dispatcher read it, on {@link #midnightClock}.
     */
    private void publishAddOrder(final long orderReference, final long timestampNs, final long readNs)
    {
        record.putLong(DispatcherAgent.READ_TIME_OFFSET, readNs);
        writeAddOrder(DispatcherAgent.ITCH_MSG_TYPE_ID, DispatcherAgent.ITCH_OFFSET, orderReference, timestampNs);
    }

    /** An Add Order of the book in the answer the session awaits, as the dispatcher writes a snapshot. */
    private void answerAddOrder(final long sessionId, final long orderReference)
    {
        record.putLong(DispatcherAgent.SESSION_ID_OFFSET, sessionId);
        writeAddOrder(DispatcherAgent.SESSION_ITCH_MSG_TYPE_ID, DispatcherAgent.SESSION_ITCH_OFFSET, orderReference, 0);
    }

    /**
     * @param msgTypeId  a live message's or a session's record, its fields before the ITCH message written.
     * @param itchOffset where the record carries the ITCH message.
     */
    private void writeAddOrder(
        final int msgTypeId, final int itchOffset, final long orderReference, final long timestampNs)
    {
        record.setMemory(itchOffset, ADD_ORDER_LENGTH, (byte)0);
        record.putByte(itchOffset, (byte)'A');
        record.putShort(itchOffset + DispatcherAgent.ITCH_LOCATE_OFFSET, (short)1, ByteOrder.BIG_ENDIAN);
        final int timestampOffset = itchOffset + ItchTranslator.TIMESTAMP_OFFSET;
        record.putShort(timestampOffset, (short)ItchTranslator.timestampHigh(timestampNs), ByteOrder.BIG_ENDIAN);
        record.putInt(
            timestampOffset + Short.BYTES, (int)ItchTranslator.timestampLow(timestampNs), ByteOrder.BIG_ENDIAN);
        record.putLong(itchOffset + TestSubscriber.ORDER_REFERENCE_OFFSET, orderReference, ByteOrder.BIG_ENDIAN);
        assertThat(ring.write(msgTypeId, record, 0, itchOffset + ADD_ORDER_LENGTH)).isTrue();
    }

    /** Connects, logs in and waits until the worker has the session live. */
    private TestSubscriber connect(final int receiveBufferBytes) throws Exception
    {
        final TestSubscriber subscriber = login(receiveBufferBytes);
        awaitAccepted(subscriber);
        return subscriber;
    }

    /** Runs duty cycles until the subscriber has read Login Accepted. */
    private void awaitAccepted(final TestSubscriber subscriber) throws Exception
    {
        while (!subscriber.accepted)
        {
            dutyCycle();
            subscriber.client.receive();
            assertThat(subscriber.rejectReasonCode).as("Login Rejected").isEqualTo((char)0);
        }
    }

    /** Connects, hands the connection to the worker and sends the Login Request. */
    private TestSubscriber login(final int receiveBufferBytes) throws Exception
    {
        final TestSubscriber subscriber = open(receiveBufferBytes);
        sendLoginRequest(subscriber);
        return subscriber;
    }

    /** Writes a SoupBinTCP packet, whole, as the subscriber. */
    private static void writeFully(final TestSubscriber subscriber, final byte[] packet) throws IOException
    {
        final ByteBuffer buffer = ByteBuffer.wrap(packet);
        while (buffer.hasRemaining())
        {
            subscriber.channel.write(buffer);
        }
    }

    /** Sends the Login Request of sub1 for the next message. */
    private static void sendLoginRequest(final TestSubscriber subscriber) throws IOException
    {
        final SoupBinTCP.LoginRequest login = new SoupBinTCP.LoginRequest();
        login.setUsername("sub1");
        login.setPassword("pw1");
        login.setRequestedSession("");
        login.setRequestedSequenceNumber(0);
        subscriber.channel.configureBlocking(true);
        subscriber.client.login(login);
        subscriber.channel.configureBlocking(false);
    }

    /** Connects and hands the connection to the worker, sending nothing. */
    private TestSubscriber open(final int receiveBufferBytes) throws Exception
    {
        final SocketChannel channel = SocketChannel.open();
        if (receiveBufferBytes > 0)
        {
            channel.setOption(StandardSocketOptions.SO_RCVBUF, receiveBufferBytes);
        }
        channel.connect(acceptor.getLocalAddress());
        final SocketChannel accepted = acceptor.accept();
        accepted.configureBlocking(false);
        assertThat(worker.offerConnection(accepted)).isTrue();
        final TestSubscriber subscriber = new TestSubscriber(channel);
        subscribers.add(subscriber);
        channel.configureBlocking(false);
        return subscriber;
    }

    /** @return true when the worker has closed its end: writing to it fails (reset), the first write at the latest. */
    private static boolean isClosedByPeer(final TestSubscriber subscriber)
    {
        try
        {
            for (int i = 0; i < 2; i++)
            {
                subscriber.channel.write(ByteBuffer.wrap(new byte[]{0, 1, 'R'}));
                Thread.sleep(10);
            }
            return false;
        }
        catch (final IOException | InterruptedException ex)
        {
            return true;
        }
    }

    private double gauge(final String name)
    {
        for (final MetricSnapshot snapshot : registry.scrape())
        {
            if (snapshot instanceof GaugeSnapshot gauge && name.equals(gauge.getMetadata().getName()))
            {
                return gauge.getDataPoints().get(0).getValue();
            }
        }
        throw new AssertionError("no gauge " + name);
    }

    /** @return the largest value in the window of a latency summary, in seconds. */
    private double maxSeconds(final String name)
    {
        for (final MetricSnapshot snapshot : registry.scrape())
        {
            if (snapshot instanceof SummarySnapshot summary && name.equals(summary.getMetadata().getName()))
            {
                final Quantiles quantiles = summary.getDataPoints().get(0).getQuantiles();
                return quantiles.get(quantiles.size() - 1).getValue();
            }
        }
        throw new AssertionError("no summary " + name);
    }

    private double counter(final String name)
    {
        for (final MetricSnapshot snapshot : registry.scrape())
        {
            if (snapshot instanceof CounterSnapshot counter && name.equals(counter.getMetadata().getName()))
            {
                return counter.getDataPoints().get(0).getValue();
            }
        }
        throw new AssertionError("no counter " + name);
    }
}
