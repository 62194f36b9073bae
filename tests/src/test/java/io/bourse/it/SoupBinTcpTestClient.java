package io.bourse.it;

import com.paritytrading.nassau.MessageListener;
import com.paritytrading.nassau.soupbintcp.SoupBinTCP;
import com.paritytrading.nassau.soupbintcp.SoupBinTCPClient;
import com.paritytrading.nassau.soupbintcp.SoupBinTCPClientStatusListener;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/**
 * A SoupBinTCP 4.0 client session (nassau's {@link SoupBinTCPClient}) on a non-blocking socket, polled from the test
 * thread: {@link #pollUntil} reads every given session and sends their heartbeats until a condition holds.
 */
final class SoupBinTcpTestClient implements AutoCloseable
{
    private final SocketChannel channel;
    private final SoupBinTCPClient client;
    private boolean loginAccepted;
    private String loginAcceptedSession;
    private long loginAcceptedSequenceNumber;
    private byte loginRejectReason;
    private boolean endOfSession;
    private boolean endOfSessionPacket;

    private SoupBinTcpTestClient(final SocketChannel channel, final MessageListener listener)
    {
        this.channel = channel;
        this.client = new SoupBinTCPClient(channel, listener, new StatusListener());
    }

    /**
     * Connects and sends a SoupBinTCP 4.0 Login Request.
     *
     * @param port              TCP port on localhost.
     * @param username          user name (at most 6 characters).
     * @param password          password (at most 10 characters).
     * @param requestedSequence SoupBinTCP requested sequence number: 1 for the whole session, 0 for the next message.
     * @param listener          receives the payload of every Sequenced (and Unsequenced) Data packet.
     * @return the connected client; the login answer arrives while polling.
     * @throws IOException when the connection fails.
     */
    static SoupBinTcpTestClient login(
        final int port,
        final String username,
        final String password,
        final long requestedSequence,
        final MessageListener listener) throws IOException
    {
        return login(port, username, password, "", requestedSequence, listener);
    }

    /**
     * Connects and sends a SoupBinTCP 4.0 Login Request for a named session.
     *
     * @param port              TCP port on localhost.
     * @param username          user name (at most 6 characters).
     * @param password          password (at most 10 characters).
     * @param requestedSession  the session (at most 10 characters); blank for the server's current one.
     * @param requestedSequence SoupBinTCP requested sequence number: 1 for the whole session, 0 for the next message.
     * @param listener          receives the payload of every Sequenced (and Unsequenced) Data packet.
     * @return the connected client; the login answer arrives while polling.
     * @throws IOException when the connection fails.
     */
    static SoupBinTcpTestClient login(
        final int port,
        final String username,
        final String password,
        final String requestedSession,
        final long requestedSequence,
        final MessageListener listener) throws IOException
    {
        final SocketChannel channel = SocketChannel.open(new InetSocketAddress("localhost", port));
        channel.configureBlocking(false);
        final SoupBinTcpTestClient session = new SoupBinTcpTestClient(channel, listener);
        final SoupBinTCP.LoginRequest request = new SoupBinTCP.LoginRequest();
        request.setUsername(username);
        request.setPassword(password);
        request.setRequestedSession(requestedSession);
        request.setRequestedSequenceNumber(requestedSequence);
        session.client.login(request);
        return session;
    }

    /**
     * Polls the sessions until the condition holds.
     *
     * @param timeout     how long to wait.
     * @param description what is awaited, for the failure message.
     * @param condition   checked after every poll.
     * @param sessions    sessions to read and keep alive meanwhile.
     * @throws IOException    when a session fails.
     * @throws AssertionError when the timeout expires first.
     */
    static void pollUntil(
        final Duration timeout,
        final String description,
        final BooleanSupplier condition,
        final List<SoupBinTcpTestClient> sessions) throws IOException
    {
        final long deadlineNs = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean())
        {
            if (System.nanoTime() - deadlineNs > 0)
            {
                throw new AssertionError("timed out after " + timeout + " waiting for " + description);
            }
            int bytes = 0;
            for (final SoupBinTcpTestClient session : sessions)
            {
                bytes += session.poll();
            }
            if (0 == bytes)
            {
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
            }
        }
    }

    /**
     * Runs an action, such as a service's restart, on another thread while this one keeps the sessions read and their
     * heartbeats sent: the gateway ends an OUCH session silent for 15 s, and cancels its orders.
     *
     * @param timeout  how long the action may take.
     * @param action   what to run.
     * @param sessions sessions to read and keep alive meanwhile.
     * @throws IOException    when a session fails.
     * @throws AssertionError when the timeout expires first.
     * @throws Exception      what the action threw, in an {@link java.util.concurrent.ExecutionException}.
     */
    static void whilePolling(
        final Duration timeout, final Runnable action, final List<SoupBinTcpTestClient> sessions) throws Exception
    {
        final CompletableFuture<Void> done = CompletableFuture.runAsync(action);
        pollUntil(timeout, "the action to end", done::isDone, sessions);
        done.get();
    }

    /**
     * Polls this session until the server has answered the Login Request.
     *
     * @param timeout how long to wait.
     * @throws IOException when the session fails.
     */
    void awaitLoginAnswer(final Duration timeout) throws IOException
    {
        pollUntil(timeout, "a Login Accepted or Login Rejected",
            () -> loginAccepted || 0 != loginRejectReason || endOfSession, List.of(this));
    }

    /**
     * Sends a SoupBinTCP Logout Request and polls until the server closes the connection, after which the gateway
     * no longer counts the user as logged in.
     *
     * @param timeout how long to wait for the close.
     * @throws IOException when the session fails.
     */
    void logoutAndAwaitClose(final Duration timeout) throws IOException
    {
        client.logout();
        pollUntil(timeout, "the server to close the connection after the Logout Request", () -> endOfSession,
            List.of(this));
    }

    /**
     * Closes the socket without a Logout Request, as a client that crashes or loses its network does.
     *
     * @throws IOException when the close fails.
     */
    void disconnect() throws IOException
    {
        client.close();
    }

    /**
     * Reads what the server sends, but never sends anything (no heartbeats), until the server closes the
     * connection.
     *
     * @param timeout how long to wait.
     * @return the {@link System#nanoTime()} of every read that got bytes (packets, e.g. the server's heartbeats), in
     * order; not the end of the stream.
     * @throws IOException    when the session fails.
     * @throws AssertionError when the timeout expires first.
     */
    List<Long> awaitCloseWithoutSending(final Duration timeout) throws IOException
    {
        final List<Long> arrivalsNs = new ArrayList<>();
        final long deadlineNs = System.nanoTime() + timeout.toNanos();
        while (!endOfSession)
        {
            if (System.nanoTime() - deadlineNs > 0)
            {
                throw new AssertionError("timed out after " + timeout + " waiting for the server to close");
            }
            final int bytes = client.receive();
            if (bytes < 0)
            {
                endOfSession = true;
            }
            else
            {
                if (bytes > 0)
                {
                    arrivalsNs.add(System.nanoTime());
                }
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
            }
        }
        return arrivalsNs;
    }

    /**
     * Sends an Unsequenced Data packet.
     *
     * @param payload the message, from position to limit.
     * @throws IOException when the socket fails.
     */
    void send(final ByteBuffer payload) throws IOException
    {
        client.send(payload);
    }

    /**
     * @return the client's own TCP port: where a capture shows this session.
     * @throws IOException when the socket is closed.
     */
    int localPort() throws IOException
    {
        return ((InetSocketAddress)channel.getLocalAddress()).getPort();
    }

    /** @return true once Login Accepted arrived. */
    boolean loginAccepted()
    {
        return loginAccepted;
    }

    /** @return the Sequence Number of the Login Accepted: that of the first message the server sends next. */
    long loginAcceptedSequenceNumber()
    {
        return loginAcceptedSequenceNumber;
    }

    /** @return the Session of the Login Accepted, without its padding; null before it arrived. */
    String loginAcceptedSession()
    {
        return loginAcceptedSession;
    }

    /** @return the Login Rejected reason code, or 0 when none arrived. */
    byte loginRejectReason()
    {
        return loginRejectReason;
    }

    /** @return true once the server closed the session (End of Session or end of stream). */
    boolean endOfSession()
    {
        return endOfSession;
    }

    /** @return true once the server sent End of Session 'Z' (SoupBinTCP 4.0), not only closed the connection. */
    boolean endOfSessionPacket()
    {
        return endOfSessionPacket;
    }

    @Override
    public void close() throws IOException
    {
        try
        {
            if (loginAccepted && !endOfSession && channel.isConnected())
            {
                client.logout();
            }
        }
        finally
        {
            client.close();
        }
    }

    private int poll() throws IOException
    {
        if (endOfSession)
        {
            return 0;
        }
        final int bytes = client.receive();
        if (bytes < 0)
        {
            endOfSession = true;
            return 0;
        }
        client.keepAlive();
        return bytes;
    }

    private final class StatusListener implements SoupBinTCPClientStatusListener
    {
        @Override
        public void heartbeatTimeout(final SoupBinTCPClient session)
        {
            endOfSession = true;
        }

        @Override
        public void loginAccepted(final SoupBinTCPClient session, final SoupBinTCP.LoginAccepted payload)
        {
            loginAccepted = true;
            loginAcceptedSession = payload.getSession().trim();
            loginAcceptedSequenceNumber = payload.getSequenceNumber();
        }

        @Override
        public void loginRejected(final SoupBinTCPClient session, final SoupBinTCP.LoginRejected payload)
        {
            loginRejectReason = payload.getRejectReasonCode();
        }

        @Override
        public void endOfSession(final SoupBinTCPClient session)
        {
            endOfSession = true;
            endOfSessionPacket = true;
        }
    }
}
