package io.bourse.gateway;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

@Timeout(10)
class BoundedSendChannelTest
{
    private static final long STALL_TIMEOUT_NS = TimeUnit.MILLISECONDS.toNanos(50);

    @Test
    void shouldFailTheWriteWhenThePeerStopsReading() throws IOException
    {
        try (ServerSocketChannel listener = ServerSocketChannel.open().bind(new InetSocketAddress("127.0.0.1", 0));
            SocketChannel peer = SocketChannel.open();
            SocketChannel accepted = connect(listener, peer))
        {
            accepted.configureBlocking(false);
            accepted.setOption(StandardSocketOptions.SO_SNDBUF, 4096);
            final BoundedSendChannel channel = new BoundedSendChannel(accepted, STALL_TIMEOUT_NS);
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
            assertThat(System.nanoTime() - startNs).isGreaterThanOrEqualTo(STALL_TIMEOUT_NS);
        }
    }

    private static SocketChannel connect(final ServerSocketChannel listener, final SocketChannel peer)
        throws IOException
    {
        peer.setOption(StandardSocketOptions.SO_RCVBUF, 4096);
        peer.connect(listener.getLocalAddress());
        return listener.accept();
    }
}
