package io.bourse.gateway;

import com.paritytrading.nassau.MessageListener;
import com.paritytrading.nassau.soupbintcp.SoupBinTCP;
import com.paritytrading.nassau.soupbintcp.SoupBinTCPServer;
import com.paritytrading.nassau.soupbintcp.SoupBinTCPServerStatusListener;
import io.bourse.common.net.SendBufferFullException;
import io.bourse.common.net.SessionSendChannel;

import java.io.IOException;
import java.net.SocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.SocketChannel;

/**
 * One client TCP connection: the nassau SoupBinTCP 4.0 server side of it, its send buffer ({@link SessionSendChannel}),
 * when it was accepted, and the user it is logged in as (null before login). Hands packets and session events to the
 * {@link SessionRegistry}. The selector watches the socket for writability only while a flush has left bytes in the
 * send buffer. Used only by the gateway agent thread.
 */
final class OuchConnection implements MessageListener, SoupBinTCPServerStatusListener
{
    /** What {@link #lingerStep} returns once the socket may be closed. */
    static final int LINGER_OVER = -1;
    /** Most reads of a lingering socket's input per duty cycle, so that a client still flooding stays bounded. */
    private static final int LINGER_READS_PER_DUTY_CYCLE = 16;

    private SessionRegistry registry;
    private final SocketAddress remoteAddress;
    private final SessionSendChannel sendChannel;
    private final SoupBinTCPServer server;
    private final long acceptedNs;
    private SelectionKey selectionKey;
    private UserSession user;
    private boolean closed;
    private boolean readDeferred;
    private long readDeferredNs;
    private long lingerDeadlineNs;
    private boolean outputShutDown;
    private boolean inputEnded;

    /**
     * @param registry         receives the packets and session events.
     * @param channel          the accepted, non-blocking channel (registered with the agent's selector).
     * @param sendChannel      what nassau writes through: the channel's send buffer.
     * @param clock            the agent's duty-cycle clock, for the heartbeat timers and the time of acceptance.
     * @param receivePayloadLength size of nassau's receive buffer less a packet header, so how much one read takes
     *                             (the send channel refuses packets longer than the gateway accepts).
     * @throws IOException when the remote address cannot be read.
     */
    OuchConnection(
        final SessionRegistry registry,
        final SocketChannel channel,
        final SessionSendChannel sendChannel,
        final DutyCycleClock clock,
        final int receivePayloadLength) throws IOException
    {
        this.registry = registry;
        this.remoteAddress = channel.getRemoteAddress();
        this.sendChannel = sendChannel;
        this.server = new SoupBinTCPServer(clock, sendChannel, receivePayloadLength, this, this);
        this.acceptedNs = clock.nanoTime();
    }

    /**
     * Moves a connection still awaiting its login to the next trading day's registry, which takes its packets from
     * now on ({@link SessionRegistry#handPendingLoginsTo}).
     *
     * @param next the next day's registry.
     */
    void registry(final SessionRegistry next)
    {
        this.registry = next;
    }

    /** @return the nassau session. */
    SoupBinTCPServer server()
    {
        return server;
    }

    /**
     * @param selectionKey the socket's registration with the agent's selector, interested in reads.
     */
    void selectionKey(final SelectionKey selectionKey)
    {
        this.selectionKey = selectionKey;
    }

    /** @return monotonic nanoseconds ({@link DutyCycleClock#nanoTime()}) at which the connection was accepted. */
    long acceptedNs()
    {
        return acceptedNs;
    }

    /**
     * The socket had input that the gateway left unread this duty cycle (the engine shards' command streams had no
     * room for it): the client is not silent, the gateway holds its packets back.
     *
     * @param nowNs monotonic nanoseconds ({@link DutyCycleClock#nanoTime()}) of the duty cycle.
     */
    void readDeferred(final long nowNs)
    {
        readDeferred = true;
        readDeferredNs = nowNs;
    }

    /**
     * @param sinceNs monotonic nanoseconds ({@link DutyCycleClock#nanoTime()}).
     * @return true when the gateway left input of this socket unread at or after that time ({@link #readDeferred}).
     */
    boolean hasReadDeferredSince(final long sinceNs)
    {
        return readDeferred && readDeferredNs - sinceNs >= 0;
    }

    /** @return true while the selector watches for the socket to take more of the send buffer. */
    boolean isAwaitingWritable()
    {
        return sendChannel.isAwaitingWritable();
    }

    /**
     * Writes what the socket accepts of the send buffer, without waiting, and has the selector report the socket
     * writable exactly while bytes are left.
     *
     * @return bytes written.
     * @throws IOException when the socket write fails.
     */
    int flush() throws IOException
    {
        return sendChannel.flush(selectionKey);
    }

    /**
     * Writes what the socket accepts of the send buffer (an End of Session, a Login Rejected) as the connection is
     * closed; the rest waits for the {@link #linger}, or is lost with the connection.
     */
    void flushBeforeClose()
    {
        try
        {
            sendChannel.flush();
        }
        catch (final IOException ignore)
        {
            // The connection is being closed, for this failure or another; nothing more can reach the client.
        }
    }

    /**
     * Drops the whole packets the socket has not begun to take, so that the client's last bytes end the packet under
     * way (a slow consumer's, whose journal keeps them for a replay) or an End of Session fits after it.
     */
    void discardUnsent()
    {
        sendChannel.discardUnsent();
    }

    /**
     * The connection is closed, but its socket stays open so that the client gets everything sent to it (End of Session
     * last once the day is over): the selector no longer watches it, and once per duty cycle (each millisecond while
     * the gateway stops) {@link #lingerStep} writes what the socket takes of the send buffer, then shuts the socket's
     * output down (FIN after the data, the send buffer back to its pool) and reads and drops what the client still
     * sends, until the client closes its end or the deadline passes. Closing a socket with unread input would reset the
     * connection (RST), and the client could lose the data not yet read.
     *
     * @param deadlineNs monotonic nanoseconds ({@link DutyCycleClock#nanoTime()}) at which the socket is closed anyway.
     */
    void linger(final long deadlineNs)
    {
        lingerDeadlineNs = deadlineNs;
        if (null != selectionKey && selectionKey.isValid())
        {
            selectionKey.interestOps(0);
        }
    }

    /**
     * One duty cycle of the {@link #linger}.
     *
     * @param nowNs   monotonic nanoseconds ({@link DutyCycleClock#nanoTime()}) of the duty cycle.
     * @param discard scratch buffer for the client's input, which is dropped.
     * @return bytes written and read while the socket should stay open; {@link #LINGER_OVER} once the client has
     * closed its end and the send buffer is all written, a socket call failed or the deadline has passed.
     */
    int lingerStep(final long nowNs, final ByteBuffer discard)
    {
        if (nowNs - lingerDeadlineNs >= 0)
        {
            return LINGER_OVER;
        }
        try
        {
            int bytes = 0;
            if (!outputShutDown)
            {
                bytes += sendChannel.flush();
                outputShutDown = sendChannel.shutdownOutputWhenSent();
            }
            if (!inputEnded)
            {
                final int dropped = sendChannel.discardInput(discard, LINGER_READS_PER_DUTY_CYCLE);
                inputEnded = dropped < 0;
                bytes += Math.max(dropped, 0);
            }
            // A client that has only shut its own output down (after a Logout Request) still reads the rest.
            return inputEnded && outputShutDown ? LINGER_OVER : bytes;
        }
        catch (final IOException ex)
        {
            return LINGER_OVER;
        }
    }

    /**
     * @param length of a Sequenced Data payload.
     * @return true when its packet fits in the send buffer now.
     */
    boolean canBuffer(final int length)
    {
        return sendChannel.remaining() >= SessionSendChannel.PACKET_HEADER_LENGTH + length;
    }

    /**
     * @return true when at most half the send buffer holds bytes the socket has not taken: the margin for a burst of
     *         messages that a session starts with.
     */
    boolean hasBurstMargin()
    {
        return sendChannel.pendingBytes() <= sendChannel.remaining();
    }

    /** @return the user logged in on this connection, or null. */
    UserSession user()
    {
        return user;
    }

    /**
     * @param user the user that just logged in.
     */
    void user(final UserSession user)
    {
        this.user = user;
    }

    /** @return true once closed. */
    boolean isClosed()
    {
        return closed;
    }

    /** Marks the connection closed; the registry closes the channel. */
    void markClosed()
    {
        closed = true;
    }

    /**
     * Sends one SoupBinTCP Sequenced Data packet.
     *
     * @param payload the OUCH message, position to limit.
     * @throws SendBufferFullException when it does not fit in the send buffer.
     * @throws IOException             when the connection is closed.
     */
    void sendSequenced(final ByteBuffer payload) throws IOException
    {
        server.send(payload);
    }

    /**
     * Closes this connection because of an error, counting it.
     *
     * @param error the kind.
     * @param cause what happened.
     */
    void fail(final GatewayError error, final Exception cause)
    {
        registry.fail(this, error, cause);
    }

    /**
     * Closes this connection because its send buffer is full, counting it ({@link SessionRegistry#closeSlowConsumer}).
     *
     * @param cause the write that did not fit.
     */
    void closeSlowConsumer(final SendBufferFullException cause)
    {
        registry.closeSlowConsumer(this, cause);
    }

    /** @return user and remote address, for logs. */
    @Override
    public String toString()
    {
        return (null != user ? user.username() : "not logged in") + "@" + remoteAddress;
    }

    @Override
    public void message(final ByteBuffer payload)
    {
        registry.onMessage(this, payload);
    }

    @Override
    public void loginRequest(final SoupBinTCPServer session, final SoupBinTCP.LoginRequest payload)
    {
        registry.onLoginRequest(this, payload);
    }

    @Override
    public void logoutRequest(final SoupBinTCPServer session)
    {
        registry.onLogoutRequest(this);
    }

    @Override
    public void heartbeatTimeout(final SoupBinTCPServer session)
    {
        registry.onHeartbeatTimeout(this);
    }
}
