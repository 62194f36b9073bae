package io.bourse.simulator;

import com.paritytrading.nassau.MessageListener;
import com.paritytrading.nassau.soupbintcp.SoupBinTCP;
import com.paritytrading.nassau.soupbintcp.SoupBinTCPClient;
import com.paritytrading.nassau.soupbintcp.SoupBinTCPClientStatusListener;
import io.bourse.common.config.Credentials;
import org.agrona.CloseHelper;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * One SoupBinTCP 4.0 client session over a non-blocking socket: connects (retrying until a deadline, so the
 * simulator may start before the exchange), logs in with a Login Request (requested session blank, requested
 * sequence number 0: start with the next message; or, to {@link #resume} a lost session, its session and the
 * sequence number after the last message it got), then hands every Sequenced Data payload to its listener and counts
 * it. Heartbeats go out after 1 s without sending (nassau); a server silent for 15 s ends the session.
 */
final class SoupClient implements SoupBinTCPClientStatusListener, MarketDataSession
{
    /** Session states. */
    enum State
    {
        /** Login Request sent, no answer yet. */
        LOGGING_IN,
        /** Login Accepted: sequenced data flows. */
        ACTIVE,
        /** Login Rejected. */
        REJECTED,
        /** End of Session, heartbeat timeout or connection closed. */
        ENDED
    }

    /** A SoupBinTCP 4.0 Login Rejected, with its reject reason code: 'A' not authorized, 'S' session not available. */
    static final class LoginRejectedException extends IOException
    {
        private final byte reasonCode;

        LoginRejectedException(final String message, final byte reasonCode)
        {
            super(message);
            this.reasonCode = reasonCode;
        }

        /** @return the Login Rejected's reject reason code. */
        byte reasonCode()
        {
            return reasonCode;
        }
    }

    private static final long RETRY_INTERVAL_NS = TimeUnit.MILLISECONDS.toNanos(100);
    private static final long LOGIN_POLL_NS = TimeUnit.MILLISECONDS.toNanos(1);

    private final String name;
    private final SoupBinTCPClient client;
    private volatile State state = State.LOGGING_IN;
    private byte rejectReasonCode;
    /** The session of the Login Accepted, without its padding; null before it. */
    private String acceptedSession;
    /** Sequence number of the next Sequenced Data packet: the Login Accepted's, plus one per packet received. */
    private long nextSequenceNumber;

    private SoupClient(final String name, final SocketChannel channel, final MessageListener listener)
    {
        this.name = name;
        this.client = new SoupBinTCPClient(channel, (payload) ->
        {
            nextSequenceNumber++;
            listener.message(payload);
        }, this);
    }

    /**
     * Connects and logs in, blocking the caller until the Login Accepted.
     *
     * @param name       for messages, e.g. {@code "OUCH session 0 (demo01)"}.
     * @param host       server host.
     * @param port       server port.
     * @param user       who logs in.
     * @param listener   receives the payload of every Sequenced Data packet.
     * @param timeoutMs  how long to keep trying to connect and log in.
     * @return the session, its channel non-blocking, logged in (or already ended after its Login Accepted and the
     *         messages that came with it: {@link #isActive()} false).
     * @throws IOException naming the session when the connection or the login fails or times out.
     */
    static SoupClient connect(
        final String name,
        final String host,
        final int port,
        final Credentials.User user,
        final MessageListener listener,
        final long timeoutMs) throws IOException
    {
        return connect(name, host, port, user, "", 0, listener, timeoutMs);
    }

    /**
     * Connects and logs in to the session a lost one was in, from the message after the last one it got, blocking the
     * caller until the Login Accepted: the server sends the messages the lost session missed first (OUCH: the
     * answers to its orders while it was away, e.g. the Canceled messages of cancel on disconnect).
     *
     * @param lost      the lost session, logged in once.
     * @param host      server host.
     * @param port      server port.
     * @param user      who logs in.
     * @param listener  receives the payload of every Sequenced Data packet.
     * @param timeoutMs how long to keep trying to connect and log in.
     * @return the session, its channel non-blocking, logged in (or already ended after its Login Accepted and the
     *         messages that came with it: {@link #isActive()} false).
     * @throws IOException naming the session when the connection or the login fails or times out; Login Rejected 'S'
     *                     when the server no longer serves the lost session.
     */
    static SoupClient resume(
        final SoupClient lost,
        final String host,
        final int port,
        final Credentials.User user,
        final MessageListener listener,
        final long timeoutMs) throws IOException
    {
        return connect(lost.name, host, port, user, lost.acceptedSession, lost.nextSequenceNumber, listener, timeoutMs);
    }

    private static SoupClient connect(
        final String name,
        final String host,
        final int port,
        final Credentials.User user,
        final String requestedSession,
        final long requestedSequenceNumber,
        final MessageListener listener,
        final long timeoutMs) throws IOException
    {
        final long deadlineNs = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
        final SoupClient session = new SoupClient(name, open(name, host, port, deadlineNs), listener);
        try
        {
            session.login(user, requestedSession, requestedSequenceNumber, deadlineNs);
            return session;
        }
        catch (final IOException | RuntimeException ex)
        {
            session.client.close();
            throw ex;
        }
    }

    private static SocketChannel open(final String name, final String host, final int port, final long deadlineNs)
        throws IOException
    {
        while (true)
        {
            final SocketChannel channel = SocketChannel.open();
            try
            {
                final long remainingMs = TimeUnit.NANOSECONDS.toMillis(deadlineNs - System.nanoTime());
                channel.socket().connect(new InetSocketAddress(host, port), Math.clamp(remainingMs, 1, 60_000));
                channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
                channel.configureBlocking(false);
                return channel;
            }
            catch (final IOException ex)
            {
                channel.close();
                if (System.nanoTime() - deadlineNs >= 0)
                {
                    throw new IOException(name + ": cannot connect to " + host + ':' + port + ": " + ex, ex);
                }
                LockSupport.parkNanos(RETRY_INTERVAL_NS);
            }
        }
    }

    private void login(
        final Credentials.User user, final String requestedSession, final long requestedSequenceNumber,
        final long deadlineNs) throws IOException
    {
        final SoupBinTCP.LoginRequest request = new SoupBinTCP.LoginRequest();
        request.setUsername(user.username());
        request.setPassword(user.password());
        request.setRequestedSession(requestedSession);
        request.setRequestedSequenceNumber(requestedSequenceNumber);
        client.login(request);
        while (State.LOGGING_IN == state)
        {
            if (client.receive() < 0)
            {
                state = State.ENDED;
            }
            else if (System.nanoTime() - deadlineNs >= 0)
            {
                throw new IOException(name + ": no answer to the Login Request of " + user.username());
            }
            else
            {
                LockSupport.parkNanos(LOGIN_POLL_NS);
            }
        }
        if (State.REJECTED == state)
        {
            throw new LoginRejectedException(name + ": Login Rejected for " + user.username() + ", reason " +
                (char)rejectReasonCode, rejectReasonCode);
        }
        if (null == acceptedSession)
        {
            throw new IOException(name + ": connection closed during the login of " + user.username());
        }
    }

    /** @return the session of the Login Accepted, without its padding: the server's trading day. */
    String acceptedSession()
    {
        return acceptedSession;
    }

    /**
     * Reads what has arrived, delivering complete packets, and keeps the session alive.
     *
     * @return bytes read, 0 when nothing arrived.
     * @throws IOException when the connection fails; the session is then {@link State#ENDED}.
     */
    @Override
    public int poll() throws IOException
    {
        try
        {
            final int bytes = client.receive();
            if (bytes < 0)
            {
                state = State.ENDED;
                return 0;
            }
            client.keepAlive();
            return bytes;
        }
        catch (final IOException ex)
        {
            state = State.ENDED;
            throw ex;
        }
    }

    /**
     * Sends one Unsequenced Data packet, blocking until the socket has taken it.
     *
     * @param payload from position to limit.
     * @throws IOException when the connection fails; the session is then {@link State#ENDED}.
     */
    void send(final ByteBuffer payload) throws IOException
    {
        try
        {
            client.send(payload);
        }
        catch (final IOException ex)
        {
            state = State.ENDED;
            throw ex;
        }
    }

    /** @return true while logged in and connected. */
    @Override
    public boolean isActive()
    {
        return State.ACTIVE == state;
    }

    /** @return name for messages. */
    @Override
    public String name()
    {
        return name;
    }

    /** Logs out (SoupBinTCP Logout Request) when still active, then closes the connection. */
    @Override
    public void close() throws IOException
    {
        try
        {
            if (State.ACTIVE == state)
            {
                client.logout();
            }
        }
        finally
        {
            state = State.ENDED;
            client.close();
        }
    }

    /**
     * Closes the connection without a Logout Request: safe from another thread, and makes a send blocked on a peer
     * that stopped reading fail.
     */
    @Override
    public void abort()
    {
        state = State.ENDED;
        CloseHelper.quietClose(client.getChannel());
    }

    @Override
    public void heartbeatTimeout(final SoupBinTCPClient session)
    {
        state = State.ENDED;
    }

    @Override
    public void loginAccepted(final SoupBinTCPClient session, final SoupBinTCP.LoginAccepted payload)
    {
        acceptedSession = payload.getSession().trim();
        nextSequenceNumber = payload.getSequenceNumber();
        state = State.ACTIVE;
    }

    @Override
    public void loginRejected(final SoupBinTCPClient session, final SoupBinTCP.LoginRejected payload)
    {
        rejectReasonCode = payload.getRejectReasonCode();
        state = State.REJECTED;
    }

    @Override
    public void endOfSession(final SoupBinTCPClient session)
    {
        state = State.ENDED;
    }
}
