package io.bourse.common.net;

import com.paritytrading.nassau.soupbintcp.SoupBinTCP;
import com.paritytrading.nassau.soupbintcp.SoupBinTCPServer;
import com.paritytrading.nassau.soupbintcp.SoupBinTCPServerStatusListener;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

// A separate thread, so that a send that spins without bound fails the test instead of hanging the build.
@Timeout(value = 10, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class BoundedSendChannelTest
{
    private static final long SEND_TIMEOUT_NS = TimeUnit.MILLISECONDS.toNanos(50);
    private static final int SOCKET_BUFFER_SIZE = 4096;

    private SocketChannel peerEnd;
    private SocketChannel senderEnd;

    @BeforeEach
    void setUp() throws IOException
    {
        try (ServerSocketChannel acceptor = ServerSocketChannel.open())
        {
            acceptor.setOption(StandardSocketOptions.SO_RCVBUF, SOCKET_BUFFER_SIZE);
            acceptor.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            peerEnd = SocketChannel.open();
            peerEnd.setOption(StandardSocketOptions.SO_RCVBUF, SOCKET_BUFFER_SIZE);
            peerEnd.connect(acceptor.getLocalAddress());
            senderEnd = acceptor.accept();
        }
        senderEnd.setOption(StandardSocketOptions.SO_SNDBUF, SOCKET_BUFFER_SIZE);
        senderEnd.configureBlocking(false);
    }

    @AfterEach
    void tearDown() throws IOException
    {
        senderEnd.close();
        peerEnd.close();
    }

    @Test
    void shouldDeliverPacketsWhenPeerReads() throws IOException
    {
        final SoupBinTCPServer server = nassauServer();

        server.send(ByteBuffer.wrap(new byte[]{'D', 1, 2, 3}));

        final ByteBuffer received = ByteBuffer.allocate(7);
        while (received.hasRemaining())
        {
            peerEnd.read(received);
        }
        // SoupBinTCP 4.0 Sequenced Data: Packet Length 5, Packet Type 'S', payload.
        assertThat(received.array()).containsExactly(0, 5, 'S', 'D', 1, 2, 3);
    }

    @Test
    void shouldFailNassauSendWhenPeerStopsReading()
    {
        final SoupBinTCPServer server = nassauServer();
        final ByteBuffer payload = ByteBuffer.allocate(1000);
        final long startNs = System.nanoTime();

        assertThatThrownBy(() ->
        {
            while (true)
            {
                payload.clear();
                server.send(payload);
            }
        }).isInstanceOf(IOException.class).hasMessageContaining("subscriber not reading");
        assertThat(System.nanoTime() - startNs).isLessThan(TimeUnit.SECONDS.toNanos(5));
    }

    @Test
    void shouldFailNassauSendOfEmptyPayloadWhenPeerStopsReading()
    {
        final SoupBinTCPServer server = nassauServer();
        final ByteBuffer empty = ByteBuffer.allocate(0);

        // Once the socket is full, the header is left behind while the last buffer of the gathering write is empty.
        assertThatThrownBy(() ->
        {
            while (true)
            {
                server.send(empty);
            }
        }).isInstanceOf(IOException.class).hasMessageContaining("subscriber not reading");
    }

    @Test
    void shouldFailTheWriteWhenThePeerStopsReading()
    {
        final BoundedSendChannel channel = new BoundedSendChannel(senderEnd, SEND_TIMEOUT_NS, "client");
        final ByteBuffer chunk = ByteBuffer.allocateDirect(64 * 1024);
        final long startNs = System.nanoTime();
        final long[] written = new long[1];

        // Write the way nassau does: loop until the packet is out. The peer never reads.
        assertThatThrownBy(() ->
        {
            while (true)
            {
                chunk.clear();
                while (chunk.hasRemaining())
                {
                    written[0] += channel.write(chunk);
                }
            }
        }).isInstanceOf(IOException.class).hasMessageContaining("client not reading");

        assertThat(written[0]).isPositive();
        assertThat(System.nanoTime() - startNs).isGreaterThanOrEqualTo(SEND_TIMEOUT_NS);
    }

    @Test
    void shouldStartTheTimeoutAgainWhenAPacketGetsOut() throws Exception
    {
        // Longer than the other tests' timeout, so that draining the first packet cannot hit it.
        final long sendTimeoutNs = TimeUnit.MILLISECONDS.toNanos(100);
        final BoundedSendChannel channel = new BoundedSendChannel(senderEnd, sendTimeoutNs, "client");
        final ByteBuffer packet = ByteBuffer.allocate(256 * 1024);
        final ByteBuffer drain = ByteBuffer.allocate(64 * 1024);
        peerEnd.configureBlocking(false);

        channel.write(packet);
        assertThat(packet.hasRemaining()).isTrue();
        while (packet.hasRemaining())
        {
            drain.clear();
            peerEnd.read(drain);
            channel.write(packet);
        }
        Thread.sleep(TimeUnit.NANOSECONDS.toMillis(sendTimeoutNs) + 50);

        // The packet left behind after the sleep is a new one: it gets its own timeout instead of failing at once.
        packet.clear();
        channel.write(packet);
        channel.write(packet);

        assertThat(packet.hasRemaining()).isTrue();
    }

    private SoupBinTCPServer nassauServer()
    {
        return new SoupBinTCPServer(
            new BoundedSendChannel(senderEnd, SEND_TIMEOUT_NS, "subscriber"), (payload) -> { },
            new IgnoringStatusListener());
    }

    private static final class IgnoringStatusListener implements SoupBinTCPServerStatusListener
    {
        @Override
        public void heartbeatTimeout(final SoupBinTCPServer session)
        {
        }

        @Override
        public void loginRequest(final SoupBinTCPServer session, final SoupBinTCP.LoginRequest request)
        {
        }

        @Override
        public void logoutRequest(final SoupBinTCPServer session)
        {
        }
    }
}
