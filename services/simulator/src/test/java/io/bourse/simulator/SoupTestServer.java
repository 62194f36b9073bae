package io.bourse.simulator;

import com.paritytrading.nassau.MessageListener;
import com.paritytrading.nassau.soupbintcp.SoupBinTCP;
import com.paritytrading.nassau.soupbintcp.SoupBinTCPServer;
import com.paritytrading.nassau.soupbintcp.SoupBinTCPServerStatusListener;
import org.agrona.CloseHelper;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.locks.LockSupport;

/**
 * A tiny SoupBinTCP 4.0 server on a thread of its own, built on nassau's {@link SoupBinTCPServer}: accepts
 * connections on a free local port and hands logins, messages and idle turns to a {@link Handler}. Stands in for the
 * order gateway or the fanout in socket-level tests.
 */
final class SoupTestServer implements AutoCloseable
{
    /** What the server does; called on the server thread. */
    interface Handler
    {
        /**
         * @param session  the session.
         * @param request  its Login Request.
         * @throws IOException when sending fails.
         */
        void onLogin(SoupBinTCPServer session, SoupBinTCP.LoginRequest request) throws IOException;

        /**
         * @param session the session.
         * @param message an Unsequenced Data payload.
         * @throws IOException when sending fails.
         */
        void onMessage(SoupBinTCPServer session, ByteBuffer message) throws IOException;

        /**
         * @param session a logged-in session, once per server loop turn.
         * @throws IOException when sending fails.
         */
        default void onIdle(final SoupBinTCPServer session) throws IOException
        {
        }
    }

    private final ServerSocketChannel acceptor;
    private final Handler handler;
    private final List<Connection> connections = new ArrayList<>();
    private final List<String> logins = new CopyOnWriteArrayList<>();
    private final Thread thread;
    private volatile boolean running = true;

    /**
     * @param name    thread name.
     * @param handler what to do.
     * @throws IOException when no port can be bound.
     */
    SoupTestServer(final String name, final Handler handler) throws IOException
    {
        this.handler = handler;
        acceptor = ServerSocketChannel.open();
        acceptor.bind(new InetSocketAddress("localhost", 0));
        acceptor.configureBlocking(false);
        thread = new Thread(this::run, name);
        thread.setDaemon(true);
        thread.start();
    }

    /** @return the bound port. */
    int port()
    {
        return acceptor.socket().getLocalPort();
    }

    /** @return usernames of the Login Requests received, in order. */
    List<String> logins()
    {
        return logins;
    }

    private void run()
    {
        try
        {
            while (running)
            {
                final SocketChannel channel = acceptor.accept();
                if (null != channel)
                {
                    channel.configureBlocking(false);
                    connections.add(new Connection(channel));
                }
                connections.removeIf(Connection::turn);
                LockSupport.parkNanos(50_000);
            }
        }
        catch (final IOException ex)
        {
            throw new IllegalStateException(ex);
        }
        finally
        {
            connections.forEach(Connection::close);
        }
    }

    @Override
    public void close()
    {
        running = false;
        try
        {
            thread.join();
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
        CloseHelper.quietClose(acceptor);
    }

    private final class Connection implements MessageListener, SoupBinTCPServerStatusListener
    {
        private final SoupBinTCPServer session;
        private boolean loggedIn;
        private boolean ended;

        private Connection(final SocketChannel channel)
        {
            session = new SoupBinTCPServer(channel, this, this);
        }

        /** @return true when the connection is over and closed. */
        private boolean turn()
        {
            try
            {
                if (session.receive() < 0)
                {
                    ended = true;
                }
                if (loggedIn && !ended)
                {
                    handler.onIdle(session);
                    session.keepAlive();
                }
            }
            catch (final IOException ex)
            {
                ended = true;
            }
            if (ended)
            {
                close();
            }
            return ended;
        }

        private void close()
        {
            CloseHelper.quietClose(session);
        }

        @Override
        public void message(final ByteBuffer buffer) throws IOException
        {
            handler.onMessage(session, buffer);
        }

        @Override
        public void heartbeatTimeout(final SoupBinTCPServer server)
        {
            ended = true;
        }

        @Override
        public void loginRequest(final SoupBinTCPServer server, final SoupBinTCP.LoginRequest request)
            throws IOException
        {
            logins.add(request.getUsername().trim());
            handler.onLogin(server, request);
            loggedIn = true;
        }

        @Override
        public void logoutRequest(final SoupBinTCPServer server)
        {
            ended = true;
        }
    }
}
