package io.bourse.common.net;

import org.junit.jupiter.api.Test;

import java.net.BindException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SessionSocketsTest
{
    private static final InetSocketAddress LOOPBACK_ANY_PORT =
        new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);

    @Test
    void shouldListenNonBlockingWithReuseAddressAndConfigureAcceptedSessions() throws Exception
    {
        try (ServerSocketChannel server = SessionSockets.listen(LOOPBACK_ANY_PORT);
            SocketChannel client = SocketChannel.open(server.getLocalAddress()))
        {
            assertThat(server.isBlocking()).isFalse();
            assertThat(server.getOption(StandardSocketOptions.SO_REUSEADDR)).isTrue();
            SocketChannel accepted = null;
            for (int i = 0; i < 1_000 && null == accepted; i++)
            {
                accepted = server.accept();
                Thread.sleep(1);
            }
            assertThat(accepted).as("connection accepted").isNotNull();
            try (SocketChannel session = accepted)
            {
                SessionSockets.configureSession(session, 65_536);
                assertThat(session.getOption(StandardSocketOptions.TCP_NODELAY)).isTrue();
                // Linux doubles the requested size for its bookkeeping.
                assertThat(session.getOption(StandardSocketOptions.SO_SNDBUF)).isGreaterThanOrEqualTo(65_536);
            }
            assertThat(client.isConnected()).isTrue();
        }
    }

    @Test
    void shouldFailWhenThePortIsTaken() throws Exception
    {
        try (ServerSocketChannel first = SessionSockets.listen(LOOPBACK_ANY_PORT))
        {
            assertThatThrownBy(() -> SessionSockets.listen((InetSocketAddress)first.getLocalAddress()))
                .isInstanceOf(BindException.class);
        }
    }
}
