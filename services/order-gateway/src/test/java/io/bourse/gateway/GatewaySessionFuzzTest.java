package io.bourse.gateway;

import com.code_intelligence.jazzer.junit.FuzzTest;
import com.paritytrading.nassau.soupbintcp.SoupBinTCP;
import com.paritytrading.nassau.soupbintcp.SoupBinTCPClient;
import com.paritytrading.nassau.soupbintcp.SoupBinTCPClientStatusListener;
import io.bourse.common.aeron.StreamLayout;
import io.bourse.common.config.Credentials;
import io.bourse.common.config.Settings;
import io.bourse.common.config.SymbolDirectory;
import io.bourse.common.net.SoupBinTcpServerPackets;
import io.bourse.common.time.MidnightNanoClock;
import io.bourse.gateway.OuchMessages.Rejected;
import io.bourse.gateway.OuchMessages.SystemEventMessage;
import io.bourse.gateway.TestClient.Closed;
import io.bourse.gateway.TestClient.LoginAccepted;
import io.bourse.gateway.TestClient.LoginRejected;
import io.bourse.ouch.EnterOrder;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import org.agrona.CloseHelper;
import org.agrona.IoUtil;
import org.agrona.concurrent.SleepingMillisIdleStrategy;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import static io.bourse.common.net.SoupBinTcpServerPackets.END_OF_SESSION;
import static io.bourse.common.net.SoupBinTcpServerPackets.LOGIN_ACCEPTED;
import static io.bourse.common.net.SoupBinTcpServerPackets.LOGIN_ACCEPTED_PAYLOAD_LENGTH;
import static io.bourse.common.net.SoupBinTcpServerPackets.LOGIN_REJECTED;
import static io.bourse.common.net.SoupBinTcpServerPackets.SEQUENCED_DATA;
import static io.bourse.common.net.SoupBinTcpServerPackets.SERVER_HEARTBEAT;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Fuzzes the SoupBinTCP 4.0 framing and the session state machine of the real gateway agent with arbitrary client
 * byte streams, and checks that the gateway answers with well-formed packets, ends only the offending session, and
 * keeps serving a well-behaved one.
 * <p>
 * Each input gets a gateway of its own, built as {@link GatewayService} builds it ({@link GatewayService#newAgent}:
 * session registry, nassau SoupBinTCP servers, OUCH decoding, order entry, journals on disk, send buffers) with the
 * engine commands recorded instead of published, and the test thread calls {@link GatewayAgent#doWork()}. The sockets
 * are {@link MemoryNetwork}'s, not the kernel's: a loopback connect, accept and close per input with a real selector
 * would cap the run at a few hundred inputs a second on a small host, while in memory an input takes tens of
 * microseconds and the gateway's code sees the same non-blocking channel and selector calls, so the fuzzer runs
 * thousands of inputs a second. Timers run on the real clock, so heartbeats and timeouts (seconds) stay out of reach;
 * their paths are tested in {@link GatewaySessionTest}.
 * <p>
 * The input: byte 0 sets how many bytes the gateway reads at once (1 + its value, so packets arrive split anywhere),
 * bit 0 of byte 1 has the client close its end after sending, and the rest is what the client sends. A client
 * {@value #BYSTANDER} logs in first. After the input the fuzzed client must have received a valid SoupBinTCP
 * stream — at most one Login Accepted, first; Sequenced Data only after it, each an OUCH 4.2 outbound message; Login
 * Rejected only last, and then the connection closed; never End of Session, as the day goes on — and the gateway must
 * close the connection without an answer when an error was counted (as after a Logout Request), after Login Rejected
 * exactly when a login failure was counted (unless the client closed first, when these answers may find the
 * connection gone).
 * Then the bystander's next order must be answered, and {@value #FUZZ_USER} must be able to log in again unless the
 * fuzzed connection is still logged in as that user.
 * <p>
 * Regression inputs are in {@code src/test/resources/io/bourse/gateway/GatewaySessionFuzzTestInputs/}; a long run:
 * see the README, "Fuzzing the gateway and the fanout".
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class GatewaySessionFuzzTest
{
    private static final String SESSION = "S20250102";
    private static final long TEN_AM_NS = 36_000_000_000_000L;
    private static final String FUZZ_USER = "fuzz01";
    private static final String BYSTANDER = "demo02";
    private static final int CLIENT_WINDOW_BYTES = 1 << 20;
    private static final int MAX_PAYLOAD_LENGTH = 1024;
    private static final int SETTLE_CYCLES = 1_000;

    /** Shared by every input so that each kind of error is logged once, not once per input. */
    private final PrometheusRegistry registry = new PrometheusRegistry();
    private final GatewayMetrics metrics = new GatewayMetrics(registry);
    private final UnsafeBuffer request = new UnsafeBuffer(new byte[64]);
    private final GatewayContext ctx;
    @TempDir(factory = MemoryTempDirFactory.class)
    private Path journalRoot;

    GatewaySessionFuzzTest()
    {
        ctx = new GatewayContext()
            .sessionName(SESSION)
            .maxSessions(4)
            // Ample for what one input makes the gateway send (a few KiB at most), and cheaper to allocate per input
            // than the default.
            .sendBufferBytes(16 * 1024)
            .journalDir("unused: each input opens its own JournalStore")
            .credentials(Credentials.parse(List.of(FUZZ_USER + ",fuzz01pw,FUZZ", BYSTANDER + ",demo02pw,DEMO")))
            .streamLayout(StreamLayout.fromSettings(new Settings(Map.of())))
            .symbolDirectory(SymbolDirectory.parse("AAPL@0,MSFT@1"))
            .idleStrategy(new SleepingMillisIdleStrategy(1))
            .conclude();
    }

    @FuzzTest(maxDuration = "10m")
    void shouldEndOnlyTheOffendingSessionWhenTheClientSendsArbitraryBytes(final byte[] input) throws Exception
    {
        final int segmentBytes = 1 + (input.length > 0 ? input[0] & 0xFF : 0xFF);
        final boolean clientCloses = input.length > 1 && (input[1] & 1) != 0;
        final byte[] stream = input.length > 2 ? Arrays.copyOfRange(input, 2, input.length) : new byte[0];

        try (Gateway gateway = new Gateway())
        {
            final Client bystander = gateway.client();
            bystander.login(BYSTANDER, "demo02pw");
            gateway.settle();
            assertThat(bystander.receive()).isEqualTo(List.of(
                new LoginAccepted(SESSION, 1), new SystemEventMessage(TEN_AM_NS, 'S')));

            final double errorsBefore = Metrics.sum(registry, "bourse_gateway_errors_total");
            final double loginFailuresBefore = metrics.loginFailures.get();
            final MemoryNetwork.Endpoint fuzzed = gateway.connect(segmentBytes);
            fuzzed.write(ByteBuffer.wrap(stream));
            if (clientCloses)
            {
                fuzzed.close();
            }
            gateway.readAll(fuzzed);
            gateway.settle();
            final boolean loggedIn = checkFuzzedSession(fuzzed.takeAvailable(), fuzzed.isPeerClosed(), clientCloses,
                (long)(Metrics.sum(registry, "bourse_gateway_errors_total") - errorsBefore),
                metrics.loginFailures.get() - loginFailuresBefore);
            if (clientCloses)
            {
                assertThat(fuzzed.isPeerClosed()).as("the gateway closes a connection its client closed").isTrue();
            }

            enterOrder(bystander, "BY1");
            gateway.settle();
            assertThat(bystander.receive()).isEqualTo(List.of(
                new LoginAccepted(SESSION, 1),
                new SystemEventMessage(TEN_AM_NS, 'S'),
                new Rejected(TEN_AM_NS, "BY1", 'S')));

            final Client again = gateway.client();
            again.login(FUZZ_USER, "fuzz01pw");
            gateway.settle();
            final List<Object> answer = again.receive();
            assertThat(answer).isNotEmpty();
            if (loggedIn && !fuzzed.isPeerClosed())
            {
                assertThat(answer).isEqualTo(List.of(new LoginRejected('S'), new Closed()));
            }
            else
            {
                assertThat(answer.get(0)).isInstanceOf(LoginAccepted.class);
            }
        }
    }

    /**
     * Checks what the gateway sent the fuzzed client.
     *
     * @return true when the client logged in.
     */
    private static boolean checkFuzzedSession(
        final byte[] sent,
        final boolean closedByGateway,
        final boolean clientCloses,
        final long errors,
        final double loginFailures)
    {
        boolean loggedIn = false;
        byte last = 0;
        for (final SoupBinTcpServerPackets.Packet packet : SoupBinTcpServerPackets.split(sent))
        {
            final byte[] payload = packet.payload();
            switch (packet.type())
            {
                case LOGIN_ACCEPTED ->
                {
                    assertThat(loggedIn).as("second Login Accepted").isFalse();
                    assertThat(payload).hasSize(LOGIN_ACCEPTED_PAYLOAD_LENGTH);
                    assertThat(new String(payload, 0, 10, StandardCharsets.US_ASCII).trim()).isEqualTo(SESSION);
                    loggedIn = true;
                }
                case LOGIN_REJECTED ->
                {
                    assertThat(loggedIn).as("Login Rejected after Login Accepted").isFalse();
                    assertThat(payload).hasSize(1);
                    assertThat((char)payload[0]).isIn('A', 'S');
                }
                case SEQUENCED_DATA ->
                {
                    assertThat(loggedIn).as("Sequenced Data before Login Accepted").isTrue();
                    OuchMessages.decode(payload);
                }
                case SERVER_HEARTBEAT -> assertThat(payload).isEmpty();
                case END_OF_SESSION ->
                    throw new AssertionError("End of Session, though the day goes on: a client may not reconnect");
                default -> throw new AssertionError("not a SoupBinTCP server packet: type " + (char)packet.type());
            }
            last = packet.type();
        }
        final boolean endsRejected = LOGIN_REJECTED == last;
        assertThat(errors).as("errors counted").isLessThanOrEqualTo(1);
        if (endsRejected)
        {
            assertThat(closedByGateway).as("closed after Login Rejected").isTrue();
            assertThat(loginFailures).as("login failures counted").isEqualTo(1);
        }
        if (!clientCloses)
        {
            // A client that closed at once may miss the answer: what the gateway writes then fails.
            assertThat(endsRejected).as("Login Rejected when a login failure is counted").isEqualTo(loginFailures > 0);
            if (errors > 0)
            {
                // A Logout Request also closes without an answer, with no error counted.
                assertThat(closedByGateway && !endsRejected).as("closed without an answer when an error is counted")
                    .isTrue();
            }
        }
        return loggedIn;
    }

    private void enterOrder(final Client client, final String token) throws IOException
    {
        EnterOrders.encode(request, token, "IBM");
        client.send(request, EnterOrder.LENGTH);
    }

    /** One input's gateway: its agent over a {@link MemoryNetwork}, its journals in a fresh directory. */
    private final class Gateway implements AutoCloseable
    {
        final MemoryNetwork.Server network = new MemoryNetwork.Server();
        private final List<MemoryNetwork.Endpoint> clientEnds = new ArrayList<>();
        private final JournalStore journals;
        private final GatewayAgent agent;

        Gateway() throws IOException
        {
            journals = JournalStore.open(journalRoot, SESSION, JournalSync.NONE, 0, metrics);
            // Wall clock pinned at 10:00:00 so that timestamps are known; timers still run on System.nanoTime.
            final DutyCycleClock clock = new DutyCycleClock(
                new MidnightNanoClock(() -> 20_000L * 86_400_000_000_000L + TEN_AM_NS));
            network.configureBlocking(false);
            agent = TestGatewayAgents.newAgent(ctx, network, new MemoryNetwork.MemorySelector(),
                new RecordingEngineProxy(), journals, metrics, clock);
        }

        Client client()
        {
            return new Client(connect(Integer.MAX_VALUE), MAX_PAYLOAD_LENGTH);
        }

        /** @return the client's end of a new connection, whose packets arrive in segments of at most that length. */
        MemoryNetwork.Endpoint connect(final int segmentBytes)
        {
            final MemoryNetwork.Endpoint clientEnd = network.connect(segmentBytes, CLIENT_WINDOW_BYTES);
            clientEnds.add(clientEnd);
            return clientEnd;
        }

        /** Runs duty cycles until the gateway has read everything the client sent, or closed the connection. */
        void readAll(final MemoryNetwork.Endpoint client) throws IOException
        {
            final MemoryNetwork.Endpoint server = client.peer();
            // Every cycle reads at least one byte from a readable connection, or closes it.
            final int maxCycles = server.available() + SETTLE_CYCLES;
            int cycles = 0;
            while (server.isOpen() && (server.available() > 0 || server.isPeerClosed()))
            {
                assertThat(++cycles).as("the gateway stopped reading a connection").isLessThanOrEqualTo(maxCycles);
                agent.doWork();
            }
        }

        /** Runs duty cycles until one finds nothing to do: every packet is out, every replay sent. */
        void settle() throws IOException
        {
            int cycles = 0;
            while (agent.doWork() > 0)
            {
                assertThat(++cycles).as("the gateway never settles").isLessThanOrEqualTo(SETTLE_CYCLES);
            }
        }

        @Override
        public void close()
        {
            // The clients go first: the gateway's stop waits for each connection's linger until its client has closed.
            CloseHelper.closeAll(clientEnds);
            agent.onClose();
            journals.close();
            IoUtil.delete(journalRoot.resolve(SESSION).toFile(), false);
        }
    }

    /** A well-behaved nassau SoupBinTCP client on a {@link MemoryNetwork} connection, recording what it gets. */
    private static final class Client
    {
        private final MemoryNetwork.Endpoint channel;
        private final SoupBinTCPClient client;
        private final List<Object> received = new ArrayList<>();
        private final ByteBuffer sendBuffer = ByteBuffer.allocate(1024);
        private boolean closed;

        Client(final MemoryNetwork.Endpoint channel, final int maxPayloadLength)
        {
            this.channel = channel;
            client = new SoupBinTCPClient(channel, maxPayloadLength,
                (payload) ->
                {
                    final byte[] bytes = new byte[payload.remaining()];
                    payload.get(bytes);
                    received.add(OuchMessages.decode(bytes));
                },
                new SoupBinTCPClientStatusListener()
                {
                    public void heartbeatTimeout(final SoupBinTCPClient session)
                    {
                        throw new AssertionError("heartbeat timeout");
                    }

                    public void loginAccepted(final SoupBinTCPClient session, final SoupBinTCP.LoginAccepted payload)
                    {
                        received.add(new LoginAccepted(payload.getSession().trim(), payload.getSequenceNumber()));
                    }

                    public void loginRejected(final SoupBinTCPClient session, final SoupBinTCP.LoginRejected payload)
                    {
                        received.add(new LoginRejected((char)payload.getRejectReasonCode()));
                    }

                    public void endOfSession(final SoupBinTCPClient session)
                    {
                        received.add(new TestClient.EndOfSession());
                    }
                });
        }

        void login(final String username, final String password) throws IOException
        {
            final SoupBinTCP.LoginRequest loginRequest = new SoupBinTCP.LoginRequest();
            loginRequest.setUsername(username);
            loginRequest.setPassword(password);
            loginRequest.setRequestedSession("");
            loginRequest.setRequestedSequenceNumber(0);
            client.login(loginRequest);
        }

        void send(final UnsafeBuffer buffer, final int length) throws IOException
        {
            sendBuffer.clear();
            sendBuffer.put(buffer.byteArray(), 0, length).flip();
            client.send(sendBuffer);
        }

        /** @return everything received so far, after reading what the gateway sent. */
        List<Object> receive() throws IOException
        {
            while (!closed && (channel.available() > 0 || channel.isPeerClosed()))
            {
                if (client.receive() < 0)
                {
                    closed = true;
                    received.add(new Closed());
                }
            }
            return List.copyOf(received);
        }
    }
}
