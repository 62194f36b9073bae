package io.bourse.common.net;

import org.agrona.CloseHelper;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;

/**
 * Socket set-up of the SoupBinTCP servers (the order gateway and the fanout): the listening socket and each accepted
 * session socket.
 */
public final class SessionSockets
{
    /**
     * Connections the kernel may hold completed before the service accepts them: room for 1,000 clients connecting at
     * once. The kernel caps it at {@code net.core.somaxconn}.
     */
    public static final int ACCEPT_BACKLOG = 1_024;

    private SessionSockets()
    {
    }

    /**
     * Opens the listening socket: non-blocking, SO_REUSEADDR on (a restarted service binds again while connections of
     * the one before linger in TIME_WAIT), a backlog of {@link #ACCEPT_BACKLOG}.
     *
     * @param address where to listen; port 0 picks a free one.
     * @return the bound channel.
     * @throws IOException when the socket cannot be opened or bound; nothing is left open then.
     */
    public static ServerSocketChannel listen(final InetSocketAddress address) throws IOException
    {
        final ServerSocketChannel channel = ServerSocketChannel.open();
        try
        {
            channel.configureBlocking(false);
            channel.setOption(StandardSocketOptions.SO_REUSEADDR, true);
            channel.bind(address, ACCEPT_BACKLOG);
            return channel;
        }
        catch (final IOException | RuntimeException ex)
        {
            CloseHelper.quietClose(channel);
            throw ex;
        }
    }

    /**
     * Sets the options of an accepted session socket: TCP_NODELAY (a packet leaves at once; the services gather a duty
     * cycle's packets into one write themselves) and, when given, the kernel's send buffer.
     *
     * @param channel               an accepted session socket.
     * @param socketSendBufferBytes SO_SNDBUF in bytes, or 0 to leave it to the kernel.
     * @throws IOException when an option cannot be set.
     */
    public static void configureSession(final SocketChannel channel, final int socketSendBufferBytes)
        throws IOException
    {
        channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
        if (socketSendBufferBytes > 0)
        {
            channel.setOption(StandardSocketOptions.SO_SNDBUF, socketSendBufferBytes);
        }
    }
}
