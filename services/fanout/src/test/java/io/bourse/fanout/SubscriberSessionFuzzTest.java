package io.bourse.fanout;

import com.code_intelligence.jazzer.junit.FuzzTest;
import com.paritytrading.nassau.soupbintcp.SoupBinTCP;
import io.bourse.common.config.Credentials;
import io.bourse.common.config.SymbolDirectory;
import io.bourse.common.metrics.ErrorKinds;
import io.bourse.common.net.SendBufferPool;
import io.bourse.common.net.SoupBinTcpServerPackets;
import io.bourse.common.time.MidnightNanoClock;
import io.bourse.itch.ItchReferenceData;
import io.bourse.itch.ItchTranslator;
import io.bourse.itch.MarketDataEncoder;
import io.bourse.sbe.md.Side;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import org.agrona.CloseHelper;
import org.agrona.concurrent.ManyToOneConcurrentArrayQueue;
import org.agrona.concurrent.SystemNanoClock;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.ringbuffer.OneToOneRingBuffer;
import org.agrona.concurrent.ringbuffer.RingBuffer;
import org.agrona.concurrent.ringbuffer.RingBufferDescriptor;
import org.junit.jupiter.api.TestInstance;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static io.bourse.common.net.SoupBinTcpServerPackets.END_OF_SESSION;
import static io.bourse.common.net.SoupBinTcpServerPackets.LOGIN_ACCEPTED;
import static io.bourse.common.net.SoupBinTcpServerPackets.LOGIN_ACCEPTED_PAYLOAD_LENGTH;
import static io.bourse.common.net.SoupBinTcpServerPackets.LOGIN_REJECTED;
import static io.bourse.common.net.SoupBinTcpServerPackets.SEQUENCED_DATA;
import static io.bourse.common.net.SoupBinTcpServerPackets.SERVER_HEARTBEAT;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Fuzzes the fanout's subscriber side, SoupBinTCP 4.0 framing, login, subscription messages and the session state
 * machine, with arbitrary client byte streams, and checks that the fanout answers with well-formed packets, ends only
 * the offending session, and keeps serving a subscriber that behaves.
 * <p>
 * Each input gets a fanout of its own: a real {@link WorkerAgent} and a real {@link DispatcherAgent} (its book live
 * from an empty snapshot, with two resting orders and a replay history), driven by the test thread, and real
 * non-blocking loopback connections; the market data is handed to the dispatcher as its Aeron subscription would hand
 * it. Timers run on the real clock, so heartbeats and the 15 s timeout stay out of reach; their paths are tested in
 * {@link FanoutServiceTest}.
 * <p>
 * The input: byte 0 sets how many bytes the client writes at once (1 + its value, the worker running between two
 * writes, so packets arrive split anywhere), bit 0 of byte 1 has the client shut its output down after sending, and the
 * rest is what the client sends. A subscriber {@value #BYSTANDER} logs in first. After the input the fuzzed client must
 * have received a valid SoupBinTCP stream: at most one Login Accepted, first, naming the run's session or a snapshot
 * session; Sequenced Data only after it, each a whole ITCH 5.0 message of a type the fanout sends, of that type's
 * length; Login Rejected or End of Session only last. Login Rejected comes exactly when a login failure is counted, End
 * of Session exactly when a malformed packet or a Logout Request is on a snapshot session (while the client still
 * sends); on the day's stream, whose subscriber may log in to it again, and before Login Accepted the connection closes
 * without it. Then the fuzzed client closes, the worker must be back to the bystander's session alone, and the
 * bystander must get the next live message.
 * <p>
 * Regression inputs are in {@code src/test/resources/io/bourse/fanout/SubscriberSessionFuzzTestInputs/}; a long run:
 * see the README, "Fuzzing the gateway and the fanout".
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SubscriberSessionFuzzTest
{
    private static final SymbolDirectory SYMBOLS = SymbolDirectory.parse("AAPL@0,MSFT@0");
    private static final String RUN_SESSION = "FB22000000";
    private static final String FUZZ_USER = "fuzz01";
    private static final String BYSTANDER = "demo02";
    private static final int MAX_SESSIONS = 4;
    private static final int MESSAGE_LIMIT = 16;
    private static final int PUBLISHER = 7;
    /** Quiet time after which the fanout is taken to have answered everything sent: ten select intervals. */
    private static final long SETTLE_NS = 10 * WorkerAgent.SELECT_INTERVAL_NS;
    /** Longest wait for the fanout to drop a closed connection, past an ending session's own deadline. */
    private static final long CLOSE_TIMEOUT_NS =
        TimeUnit.MILLISECONDS.toNanos(SubscriberSession.END_OF_SESSION_TIMEOUT_MS + 1_000);
    /** ITCH 5.0 (section 1.3 onwards) length of each message type the fanout sends. */
    private static final Map<Character, Integer> ITCH_LENGTHS = Map.ofEntries(
        Map.entry('S', 12), Map.entry('R', 39), Map.entry('H', 25), Map.entry('A', 36), Map.entry('F', 40),
        Map.entry('E', 31), Map.entry('C', 36), Map.entry('X', 23), Map.entry('D', 19), Map.entry('U', 35),
        Map.entry('P', 44), Map.entry('Q', 40), Map.entry('B', 19));

    /** Shared by every input so that each kind of error is logged once, not once per input. */
    private final PrometheusRegistry registry = new PrometheusRegistry();
    private final ErrorKinds<FanoutError> errors = new ErrorKinds<>("fanout", FanoutError.class);
    private final FanoutMetrics metrics = new FanoutMetrics(registry, errors);
    private final Credentials credentials =
        Credentials.parse(List.of(FUZZ_USER + ",fuzz01pw,FUZZ", BYSTANDER + ",demo02pw,DEMO"));
    private final MarketDataEncoder encoder = new MarketDataEncoder();

    @FuzzTest(maxDuration = "10m")
    void shouldEndOnlyTheOffendingSessionWhenASubscriberSendsArbitraryBytes(final byte[] input) throws Exception
    {
        final int segmentBytes = 1 + (input.length > 0 ? input[0] & 0xFF : 0xFF);
        final boolean clientCloses = input.length > 1 && (input[1] & 1) != 0;
        final byte[] stream = input.length > 2 ? Arrays.copyOfRange(input, 2, input.length) : new byte[0];

        try (Fanout fanout = new Fanout())
        {
            final TestSubscriber bystander = fanout.bystander();
            final double malformedBefore = counter("bourse_fanout_malformed_packets");
            final double loginFailuresBefore = counter("bourse_fanout_login_failures");

            final SocketChannel fuzzed = fanout.connect();
            final ByteArrayOutputStream received = new ByteArrayOutputStream();
            boolean closedByFanout = false;
            for (int from = 0; from < stream.length && !closedByFanout; from += segmentBytes)
            {
                final ByteBuffer segment =
                    ByteBuffer.wrap(stream, from, Math.min(segmentBytes, stream.length - from));
                while (segment.hasRemaining() && !closedByFanout)
                {
                    if (fuzzed.write(segment) == 0)
                    {
                        fanout.dutyCycle(); // a full socket: the worker reads on
                    }
                }
                closedByFanout = fanout.settle(fuzzed, received, bystander);
            }
            if (clientCloses && !closedByFanout)
            {
                fuzzed.shutdownOutput();
            }
            closedByFanout |= fanout.settle(fuzzed, received, bystander);
            checkFuzzedSession(received.toByteArray(), closedByFanout, clientCloses, hasLogoutRequest(stream),
                counter("bourse_fanout_malformed_packets") - malformedBefore,
                counter("bourse_fanout_login_failures") - loginFailuresBefore);

            fuzzed.close();
            fanout.awaitSessions(1, bystander);
            fanout.publishAddOrder(100);
            fanout.settle(null, null, bystander);
            assertThat(bystander.orders).as("the bystander's live Add Orders").containsExactly(100L);
            assertThat(bystander.ended).isFalse();
        }
    }

    /**
     * @param stream what the fuzzed client sends.
     * @return true when its SoupBinTCP packets, framed as nassau frames them, hold a whole Logout Request (type 'O',
     * any payload). A Packet Length of 0 is the last packet looked at: nassau hands its type over with no payload,
     * then reads the type byte again as the next Packet Length, at least 0x2B00 for a type it handles, a packet past
     * its receive buffer: malformed, so the fanout reads no further.
     */
    private static boolean hasLogoutRequest(final byte[] stream)
    {
        for (int offset = 0; offset + 3 <= stream.length; )
        {
            final int length = ((stream[offset] & 0xFF) << 8) | (stream[offset + 1] & 0xFF);
            if (0 == length)
            {
                return 'O' == stream[offset + 2];
            }
            if (offset + 2 + length > stream.length)
            {
                return false;
            }
            if ('O' == stream[offset + 2])
            {
                return true;
            }
            offset += 2 + length;
        }
        return false;
    }

    /** Checks what the fanout sent the fuzzed client. */
    private static void checkFuzzedSession(
        final byte[] sent,
        final boolean closedByFanout,
        final boolean clientCloses,
        final boolean logoutRequest,
        final double malformedPackets,
        final double loginFailures)
    {
        boolean loggedIn = false;
        boolean snapshotSession = false;
        byte last = 0;
        for (final SoupBinTcpServerPackets.Packet packet : SoupBinTcpServerPackets.split(sent))
        {
            final byte[] payload = packet.payload();
            switch (packet.type())
            {
                case LOGIN_ACCEPTED ->
                {
                    assertThat(loggedIn).as("second Login Accepted").isFalse();
                    assertThat(last).as("Login Accepted after another packet").isZero();
                    assertThat(payload).hasSize(LOGIN_ACCEPTED_PAYLOAD_LENGTH);
                    final String session = new String(payload, 0, 10, StandardCharsets.US_ASCII).trim();
                    assertThat(session).matches(RUN_SESSION + "|S[0-9]{9}");
                    loggedIn = true;
                    snapshotSession = session.startsWith("S");
                }
                case LOGIN_REJECTED ->
                {
                    assertThat(last).as("Login Rejected after another packet").isZero();
                    assertThat(payload).hasSize(1);
                    assertThat((char)payload[0]).isIn('A', 'S');
                }
                case SEQUENCED_DATA ->
                {
                    assertThat(loggedIn).as("Sequenced Data before Login Accepted").isTrue();
                    assertThat(payload).as("an ITCH message").isNotEmpty();
                    final char messageType = (char)payload[0];
                    assertThat(ITCH_LENGTHS).as("ITCH message type").containsKey(messageType);
                    assertThat(payload).as("ITCH %s length", messageType).hasSize(ITCH_LENGTHS.get(messageType));
                }
                case SERVER_HEARTBEAT, END_OF_SESSION -> assertThat(payload).isEmpty();
                default -> throw new AssertionError("unexpected packet type " + (char)packet.type());
            }
            last = packet.type();
        }
        assertThat(loginFailures).as("login failures counted").isBetween(0.0, 1.0);
        if (!clientCloses)
        {
            assertThat(LOGIN_REJECTED == last).as("Login Rejected exactly when a login failure is counted")
                .isEqualTo(loginFailures > 0);
            assertThat(END_OF_SESSION == last)
                .as("End of Session exactly when a malformed packet is counted or a Logout Request sent on a " +
                    "snapshot session")
                .isEqualTo((malformedPackets > 0 || logoutRequest) && snapshotSession);
            if (malformedPackets > 0)
            {
                assertThat(closedByFanout).as("the connection closes after a malformed packet").isTrue();
            }
        }
        if (LOGIN_REJECTED == last)
        {
            assertThat(closedByFanout).as("the connection closes after Login Rejected").isTrue();
        }
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

    /** A worker and a dispatcher on the test thread, with their acceptor. */
    private final class Fanout implements AutoCloseable
    {
        private final RingBuffer ring = new OneToOneRingBuffer(new UnsafeBuffer(
            ByteBuffer.allocateDirect(64 * 1024 + RingBufferDescriptor.TRAILER_LENGTH)));
        private final ManyToOneConcurrentArrayQueue<SocketChannel> connections =
            new ManyToOneConcurrentArrayQueue<>(MAX_SESSIONS);
        private final ManyToOneConcurrentArrayQueue<CatchUpRequest> requests =
            new ManyToOneConcurrentArrayQueue<>(MAX_SESSIONS);
        private final ServerSocketChannel acceptor;
        private final WorkerAgent worker;
        private final DispatcherAgent dispatcher;
        private final List<AutoCloseable> clients = new ArrayList<>();
        private final ByteBuffer readBuffer = ByteBuffer.allocate(64 * 1024);
        private long marketDataSequence;

        Fanout() throws IOException
        {
            acceptor = ServerSocketChannel.open();
            acceptor.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            final ItchReferenceData referenceData = new ItchReferenceData(SYMBOLS);
            final MidnightNanoClock clock = new MidnightNanoClock(); // one, as the service's: the service time's
            final SessionNames sessionNames = new SessionNames(RUN_SESSION); // one, as the service's: the days'
            worker = new WorkerAgent(
                0, ring, connections, requests, MAX_SESSIONS, MAX_SESSIONS, credentials, referenceData, SYMBOLS,
                SystemNanoClock.INSTANCE, clock,
                sessionNames, new SendBufferPool(16 * 1024, metrics.sendBufferBytes()), 64 * 1024,
                MESSAGE_LIMIT, metrics, errors);
            final ItchTranslator translator = new ItchTranslator(SYMBOLS);
            final ItchBook book = new ItchBook(referenceData, 0);
            // No stream: market data is handed to onMessage, and duty cycles answer requests with answerCatchUps.
            final MarketDataRecovery recovery =
                new MarketDataRecovery(null, null, () -> 1, translator, book, SystemNanoClock.INSTANCE);
            dispatcher = new DispatcherAgent(null, translator, book, new ItchReferenceData(SYMBOLS),
                clock, sessionNames, recovery, new RingBuffer[]{ring}, requests, 64, MESSAGE_LIMIT, metrics, errors);
            dispatcher.onMessage(encoder.buffer, 0, encoder.snapshotComplete(1), PUBLISHER);
            publishAddOrder(1);
            publishAddOrder(2);
        }

        /** Publishes an Add Order of AAPL as the md-publisher would, and lets the worker take it. */
        void publishAddOrder(final long orderId)
        {
            marketDataSequence++;
            dispatcher.onMessage(encoder.buffer, 0,
                encoder.addOrder(1_000 + marketDataSequence, "AAPL", orderId, Side.BUY, 100, 1_000_000), PUBLISHER);
        }

        /** Connects a client whose connection the worker serves. */
        SocketChannel connect() throws IOException
        {
            final SocketChannel client = SocketChannel.open(acceptor.getLocalAddress());
            clients.add(client);
            final SocketChannel accepted = acceptor.accept();
            accepted.configureBlocking(false);
            assertThat(worker.offerConnection(accepted)).isTrue();
            client.configureBlocking(false);
            return client;
        }

        /** Connects and logs in {@value #BYSTANDER} for the run's live messages, and waits for its answer. */
        TestSubscriber bystander() throws Exception
        {
            final TestSubscriber bystander = new TestSubscriber(connect());
            clients.add(bystander);
            final SoupBinTCP.LoginRequest login = new SoupBinTCP.LoginRequest();
            login.setUsername(BYSTANDER);
            login.setPassword("demo02pw");
            login.setRequestedSession("");
            login.setRequestedSequenceNumber(3); // the next message: live ones only
            bystander.client.login(login);
            final long deadlineNs = System.nanoTime() + CLOSE_TIMEOUT_NS;
            while (!bystander.accepted)
            {
                assertThat(System.nanoTime() - deadlineNs).as("the bystander logged in").isNegative();
                dutyCycle();
                bystander.client.receive();
            }
            settle(null, null, bystander);
            return bystander;
        }

        void dutyCycle() throws IOException
        {
            worker.doWork();
            dispatcher.answerCatchUps();
        }

        /**
         * Runs duty cycles, reading what the clients get, until neither the fanout nor the clients have had anything to
         * do for {@link #SETTLE_NS}.
         *
         * @param fuzzed   the fuzzed client, or null.
         * @param received gets what the fuzzed client reads.
         * @return true when the fanout closed the fuzzed client's connection (its output, at least).
         */
        boolean settle(final SocketChannel fuzzed, final ByteArrayOutputStream received, final TestSubscriber bystander)
            throws IOException
        {
            boolean closed = false;
            long quietSinceNs = System.nanoTime();
            int idlePasses = 0;
            // Quiet for SETTLE_NS and for two passes in a row: a pass's work can show only in the next (an answer the
            // dispatcher writes after the worker's cycle, the close after Login Rejected), and a thread descheduled
            // for longer than SETTLE_NS on a loaded machine must not end the wait right after a pass that did work.
            while (idlePasses < 2 || System.nanoTime() - quietSinceNs < SETTLE_NS)
            {
                int work = worker.doWork() + dispatcher.answerCatchUps();
                work += bystander.client.receive();
                if (null != fuzzed && !closed)
                {
                    readBuffer.clear();
                    final int read = fuzzed.read(readBuffer);
                    if (read < 0)
                    {
                        closed = true;
                    }
                    else if (read > 0)
                    {
                        received.write(readBuffer.array(), 0, read);
                        work++;
                    }
                }
                if (work > 0)
                {
                    quietSinceNs = System.nanoTime();
                    idlePasses = 0;
                }
                else
                {
                    idlePasses++;
                }
            }
            return closed;
        }

        /** Runs duty cycles until the worker serves {@code sessions} sessions. */
        void awaitSessions(final int sessions, final TestSubscriber bystander) throws IOException
        {
            final long deadlineNs = System.nanoTime() + CLOSE_TIMEOUT_NS;
            while (worker.load() != sessions)
            {
                assertThat(System.nanoTime() - deadlineNs).as("the worker drops the closed connection").isNegative();
                dutyCycle();
                bystander.client.receive();
            }
        }

        @Override
        public void close()
        {
            CloseHelper.closeAll(clients);
            worker.onClose();
            CloseHelper.close(acceptor);
        }
    }
}
