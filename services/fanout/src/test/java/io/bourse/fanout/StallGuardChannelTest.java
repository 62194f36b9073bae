package io.bourse.fanout;

import com.paritytrading.nassau.soupbintcp.SoupBinTCPServer;
import com.paritytrading.nassau.soupbintcp.SoupBinTCPServerStatusListener;
import com.paritytrading.nassau.soupbintcp.SoupBinTCP;
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

@Timeout(10)
class StallGuardChannelTest
{
    private static final long SEND_TIMEOUT_NS = TimeUnit.MILLISECONDS.toNanos(50);

    private SocketChannel subscriberEnd;
    private SocketChannel fanoutEnd;
    private SoupBinTCPServer server;

    @BeforeEach
    void setUp() throws IOException
    {
        try (ServerSocketChannel acceptor = ServerSocketChannel.open())
        {
            acceptor.setOption(StandardSocketOptions.SO_RCVBUF, 4096);
            acceptor.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            subscriberEnd = SocketChannel.open();
            subscriberEnd.setOption(StandardSocketOptions.SO_RCVBUF, 4096);
            subscriberEnd.connect(acceptor.getLocalAddress());
            fanoutEnd = acceptor.accept();
        }
        fanoutEnd.setOption(StandardSocketOptions.SO_SNDBUF, 4096);
        fanoutEnd.configureBlocking(false);
        server = new SoupBinTCPServer(
            new StallGuardChannel(fanoutEnd, SEND_TIMEOUT_NS), (payload) -> { }, new IgnoringStatusListener());
    }

    @AfterEach
    void tearDown() throws IOException
    {
        server.close();
        subscriberEnd.close();
    }

    @Test
    void shouldDeliverPacketsWhileSubscriberReads() throws IOException
    {
        server.send(ByteBuffer.wrap(new byte[]{'D', 1, 2, 3}));

        final ByteBuffer received = ByteBuffer.allocate(7);
        while (received.hasRemaining())
        {
            subscriberEnd.read(received);
        }
        // SoupBinTCP 4.0 Sequenced Data: Packet Length 5, Packet Type 'S', payload.
        assertThat(received.array()).containsExactly(0, 5, 'S', 'D', 1, 2, 3);
    }

    @Test
    void shouldFailSendWhenSubscriberStopsReading()
    {
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
