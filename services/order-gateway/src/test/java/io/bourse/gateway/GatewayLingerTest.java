package io.bourse.gateway;

import com.paritytrading.nassau.soupbintcp.SoupBinTCP;
import io.bourse.common.net.SoupBinTcpServerPackets;
import io.bourse.common.time.MidnightNanoClock;
import io.bourse.ouch.EnterOrder;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import org.agrona.CloseHelper;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The close of a connection the gateway ends, on its real agent over a {@link MemoryNetwork}: the client gets the
 * last packet (here Login Rejected), then the end of the stream, while its own input is still unread; the gateway's
 * end of the socket stays open until the client closes its end, or until the linger deadline, also at shutdown, or
 * closes at once with no linger.
 */
class GatewayLingerTest
{
    private static final String SESSION = "S20250105";
    private static final long LINGER_MS = 100;

    private final GatewayMetrics metrics = new GatewayMetrics(new PrometheusRegistry());
    @TempDir
    private Path journalRoot;
    private MemoryGateway gateway;
    private GatewayAgent agent;

    @AfterEach
    void tearDown() throws IOException
    {
        CloseHelper.close(gateway);
    }

    @Test
    void shouldSendTheLastPacketThenTheEndOfStreamAndCloseOnlyAtTheDeadlineWhileTheClientKeepsItsEndOpen()
        throws IOException
    {
        start(LINGER_MS);
        // Before the Login Request: the linger starts later, so its deadline is at least LINGER_MS from here.
        final long loginNs = System.nanoTime();
        final MemoryNetwork.Endpoint client = rejectedClient();

        assertThat(client.isPeerClosed()).as("end of stream after the Login Rejected").isTrue();
        assertThat(client.peer().isOpen()).as("gateway's end lingering").isTrue();
        assertThat(metrics.lingeringConnections.get()).isEqualTo(1);
        while (client.peer().isOpen())
        {
            assertThat(Duration.ofNanos(System.nanoTime() - loginNs)).isLessThan(Duration.ofSeconds(10));
            // The client writes on, unread: the gateway drops it.
            client.write(ByteBuffer.wrap(LoginRequests.packet("demo01", "demo01pw", 0)));
            agent.doWork();
        }
        assertThat(Duration.ofNanos(System.nanoTime() - loginNs)).isGreaterThanOrEqualTo(Duration.ofMillis(LINGER_MS));
        assertThat(metrics.lingeringConnections.get()).isZero();
    }

    @Test
    void shouldGiveTheSendBufferBackOnceTheOutputIsShutDownWhileTheSocketLingers() throws IOException
    {
        start(60_000);
        final MemoryNetwork.Endpoint first = rejectedClient();
        final double oneBuffer = metrics.sendBufferBytes.get();
        final MemoryNetwork.Endpoint second = rejectedClient();

        assertThat(List.of(first.peer().isOpen(), second.peer().isOpen())).as("both lingering").containsOnly(true);
        assertThat(metrics.lingeringConnections.get()).isEqualTo(2);
        assertThat(metrics.sendBufferBytes.get()).as("the second took the first's buffer").isEqualTo(oneBuffer);
    }

    @Test
    void shouldCloseItsEndAsSoonAsTheClientClosesItsOwn() throws IOException
    {
        start(60_000);
        final MemoryNetwork.Endpoint client = rejectedClient();
        client.close();
        agent.doWork();

        assertThat(client.peer().isOpen()).isFalse();
        assertThat(metrics.lingeringConnections.get()).isZero();
    }

    @Test
    void shouldCloseAtOnceWithoutLinger() throws IOException
    {
        start(0);
        final MemoryNetwork.Endpoint notLingering = rejectedClient();

        assertThat(notLingering.peer().isOpen()).isFalse();
        assertThat(metrics.lingeringConnections.get()).isZero();
    }

    @Test
    void shouldWaitAtShutdownForTheLingerOfASocketWhoseClientKeepsItsEndOpen() throws IOException
    {
        start(LINGER_MS);
        // Before the Login Request: the linger starts later, so its deadline is at least LINGER_MS from here.
        final long loginNs = System.nanoTime();
        final MemoryNetwork.Endpoint lingering = rejectedClient();
        gateway.stop();

        assertThat(Duration.ofNanos(System.nanoTime() - loginNs)).isGreaterThanOrEqualTo(Duration.ofMillis(LINGER_MS));
        assertThat(lingering.peer().isOpen()).as("closed at the linger's deadline").isFalse();
        assertThat(metrics.lingeringConnections.get()).isZero();
    }

    /**
     * A connection closed for a packet type SoupBinTCP does not have while its send buffer is nearly full: the client
     * gets every whole packet buffered, then the end of the stream, and no End of Session, since its session goes on
     * (SoupBinTCP 4.0 §1.4: a client cannot reconnect to a session that sent it). 200 Rejected 'S' of 27 bytes each
     * fill the 4 KiB send buffer past the client's window, which each round makes a byte larger. Before stop 105, such
     * a connection got End of Session, and the session went on after it.
     */
    @Test
    void shouldCloseAfterWholePacketsWithoutEndOfSessionWhateverRoomTheSendBufferHasLeft() throws IOException
    {
        final int sendBufferBytes = 4096;
        final int orders = 200;
        final byte[] enterOrders = new byte[orders * (3 + EnterOrder.LENGTH)];
        final UnsafeBuffer enterOrder = new UnsafeBuffer(new byte[EnterOrder.LENGTH]);
        for (int i = 0; i < orders; i++)
        {
            EnterOrders.encode(enterOrder, "Q" + i, "IBM");
            final int offset = i * (3 + EnterOrder.LENGTH);
            enterOrders[offset + 1] = (byte)(1 + EnterOrder.LENGTH);
            enterOrders[offset + 2] = 'U';
            enterOrder.getBytes(0, enterOrders, offset + 3, EnterOrder.LENGTH);
        }
        for (int round = 0; round < 34; round++)
        {
            try (MemoryGateway ending = MemoryGateway.start(Files.createDirectories(journalRoot.resolve("r" + round)),
                SESSION, (ctx) -> ctx.sendBufferBytes(sendBufferBytes), new RecordingEngineProxy(),
                new GatewayMetrics(new PrometheusRegistry()), new DutyCycleClock(new MidnightNanoClock())))
            {
                final MemoryNetwork.Endpoint client = ending.connect(27 * orders - sendBufferBytes - 3 + round);
                client.write(ByteBuffer.wrap(LoginRequests.packet("demo01", "demo01pw", 0)));
                for (int i = 0; i < 3; i++)
                {
                    ending.agent().doWork();
                }
                client.takeAvailable(); // Login Accepted, Start of Day
                // The client writes its orders as the connection takes them, and reads nothing meanwhile.
                final ByteBuffer toSend = ByteBuffer.wrap(enterOrders);
                for (int i = 0; i < 100 && toSend.hasRemaining(); i++)
                {
                    client.write(toSend);
                    ending.agent().doWork();
                }
                assertThat(toSend.hasRemaining()).isFalse();
                ending.agent().doWork();
                client.write(ByteBuffer.wrap(new byte[]{0, 1, '?'}));
                final ByteArrayOutputStream received = new ByteArrayOutputStream();
                for (int i = 0; i < 200 && !client.isPeerClosed(); i++)
                {
                    ending.agent().doWork();
                    received.writeBytes(client.takeAvailable());
                }
                received.writeBytes(client.takeAvailable());

                assertThat(client.isPeerClosed()).isTrue();
                // Whole packets only, or split fails the test.
                assertThat(SoupBinTcpServerPackets.split(received.toByteArray()))
                    .as("round %d: sequenced data, no End of Session", round).isNotEmpty()
                    .extracting(SoupBinTcpServerPackets.Packet::type)
                    .containsOnly(SoupBinTcpServerPackets.SEQUENCED_DATA);
            }
        }
    }

    /**
     * Connects, sends a Login Request with a wrong password, and runs duty cycles until the end of the stream has come
     * after the Login Rejected 'A'.
     *
     * @return the client's end.
     */
    private MemoryNetwork.Endpoint rejectedClient() throws IOException
    {
        final MemoryNetwork.Endpoint client = gateway.connect();
        client.write(ByteBuffer.wrap(LoginRequests.packet("demo01", "wrongpw", 0)));
        final ByteBuffer received = ByteBuffer.allocate(1024);
        for (int i = 0; i < 1_000 && !client.isPeerClosed(); i++)
        {
            agent.doWork();
            received.put(client.takeAvailable());
        }
        received.put(client.takeAvailable());
        assertThat(List.of(received.flip().getShort(), received.get(), received.get()))
            .as("Packet Length, Packet Type, Reject Reason Code")
            .isEqualTo(List.of((short)2, (byte)'J', SoupBinTCP.LOGIN_REJECT_CODE_NOT_AUTHORIZED));
        assertThat(received.hasRemaining()).as("nothing after the Login Rejected").isFalse();
        return client;
    }

    private void start(final long lingerMs) throws IOException
    {
        gateway = MemoryGateway.start(journalRoot, SESSION, (ctx) -> ctx.endOfSessionLingerMs(lingerMs),
            new RecordingEngineProxy(), metrics, new DutyCycleClock(new MidnightNanoClock()));
        agent = gateway.agent();
    }
}
