package io.bourse.fanout;

import com.paritytrading.juncture.nasdaq.itch50.ITCH50;
import com.paritytrading.nassau.Clock;
import com.paritytrading.nassau.MessageListener;
import com.paritytrading.nassau.soupbintcp.SoupBinTCP;
import com.paritytrading.nassau.soupbintcp.SoupBinTCPServer;
import com.paritytrading.nassau.soupbintcp.SoupBinTCPServerStatusListener;
import io.bourse.common.config.Credentials;
import io.bourse.common.net.BoundedSendChannel;
import io.bourse.common.time.MidnightNanoClock;
import io.bourse.itch.ItchReferenceData;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One subscriber: a SoupBinTCP 4.0 server session over a non-blocking socket, owned by one worker thread.
 *
 * <p>SoupBinTCP 4.0 Login Request: a user and password known to the {@link Credentials} get Login Accepted (session
 * {@value #SESSION_NAME}, next sequence number 1), then System Event 'O' (start of messages) and one Stock Directory
 * per symbol, then every live ITCH 5.0 message as Sequenced Data. Anyone else gets Login Rejected 'A' (not
 * authorized) and the connection closes. The Requested Sequence Number is ignored: a subscriber gets live messages
 * from its login on; the snapshot a late joiner needs to build its book comes with a later issue. Unsequenced Data
 * from a subscriber is ignored, the feed being one-way. A Logout Request closes the session; so do the subscriber
 * closing its socket, 15 s without a heartbeat from it, and any socket failure (the last two counted as errors).
 */
final class SubscriberSession implements SoupBinTCPServerStatusListener, MessageListener
{
    /** SoupBinTCP session name given in Login Accepted. */
    static final String SESSION_NAME = "ITCH50";
    /** Longest inbound payload: a Login Request. */
    private static final int MAX_RX_PAYLOAD_LENGTH = 46;

    private final SocketChannel channel;
    private final SoupBinTCPServer server;
    private final Credentials credentials;
    private final ItchReferenceData referenceData;
    private final MidnightNanoClock clock;
    private final FanoutMetrics metrics;
    private final AtomicLong errorCount;
    private boolean loggedIn;
    private boolean closed;

    /**
     * @param channel       the accepted, non-blocking connection.
     * @param sessionClock  milliseconds for nassau's heartbeats, cached once per duty cycle by the worker.
     * @param sendTimeoutNs longest time a packet may stay partly written before the session fails.
     * @param credentials   who may log in.
     * @param referenceData encodes System Event and Stock Directory at login.
     * @param clock         stamps the login messages.
     * @param metrics       counts sessions, messages and login failures.
     * @param errorCount    incremented when the session fails.
     */
    SubscriberSession(
        final SocketChannel channel, final Clock sessionClock, final long sendTimeoutNs,
        final Credentials credentials, final ItchReferenceData referenceData, final MidnightNanoClock clock,
        final FanoutMetrics metrics, final AtomicLong errorCount)
    {
        this.channel = channel;
        this.credentials = credentials;
        this.referenceData = referenceData;
        this.clock = clock;
        this.metrics = metrics;
        this.errorCount = errorCount;
        this.server = new SoupBinTCPServer(sessionClock, new BoundedSendChannel(channel, sendTimeoutNs, "subscriber"),
            MAX_RX_PAYLOAD_LENGTH, this, this);
    }

    /** @return true once logged in and until closed: the session takes live messages. */
    boolean isLoggedIn()
    {
        return loggedIn && !closed;
    }

    /** @return true once closed. */
    boolean isClosed()
    {
        return closed;
    }

    /** Reads and handles what the subscriber sent; closes the session at end of stream or on failure. */
    void receive()
    {
        try
        {
            if (server.receive() < 0)
            {
                close();
            }
        }
        catch (final IOException ex)
        {
            fail(ex);
        }
    }

    /**
     * Sends one ITCH message as Sequenced Data.
     *
     * @param payload the message from its position to its limit; the position advances.
     * @return true when sent, false when the session failed and is now closed.
     */
    boolean send(final ByteBuffer payload)
    {
        try
        {
            server.send(payload);
            return true;
        }
        catch (final IOException ex)
        {
            fail(ex);
            return false;
        }
    }

    /** Sends a heartbeat after 1 s of silence and checks the subscriber's heartbeats. */
    void keepAlive()
    {
        try
        {
            server.keepAlive();
        }
        catch (final IOException ex)
        {
            fail(ex);
        }
    }

    /** Sends End of Session, best effort, then closes: the service is stopping. */
    void endSession()
    {
        if (!closed)
        {
            try
            {
                server.endSession();
            }
            catch (final IOException ignore)
            {
                // The session is being closed anyway; a subscriber already gone is no error.
            }
            close();
        }
    }

    /** Closes the socket; idempotent. */
    void close()
    {
        if (!closed)
        {
            closed = true;
            if (loggedIn)
            {
                metrics.onSessionClosed();
            }
            try
            {
                server.close();
            }
            catch (final IOException ex)
            {
                errorCount.incrementAndGet();
            }
        }
    }

    @Override
    public void loginRequest(final SoupBinTCPServer session, final SoupBinTCP.LoginRequest request)
        throws IOException
    {
        if (closed)
        {
            return;
        }
        if (loggedIn)
        {
            throw new IOException("second Login Request");
        }
        if (null == credentials.authenticate(request.getUsername().trim(), request.getPassword().trim()))
        {
            metrics.onLoginFailure();
            final SoupBinTCP.LoginRejected rejected = new SoupBinTCP.LoginRejected();
            rejected.setRejectReasonCode(SoupBinTCP.LOGIN_REJECT_CODE_NOT_AUTHORIZED);
            server.reject(rejected);
            close();
            return;
        }

        final SoupBinTCP.LoginAccepted accepted = new SoupBinTCP.LoginAccepted();
        accepted.setSession(SESSION_NAME);
        accepted.setSequenceNumber(1);
        server.accept(accepted);
        loggedIn = true;
        metrics.onSessionOpened();

        final long nowNs = clock.nanosSinceMidnight();
        server.send(referenceData.systemEvent(ITCH50.EVENT_CODE_START_OF_MESSAGES, nowNs));
        final int symbolCount = referenceData.symbolCount();
        for (int i = 0; i < symbolCount; i++)
        {
            server.send(referenceData.stockDirectory(i, nowNs));
        }
        metrics.onMessagesOut(1 + symbolCount);
    }

    @Override
    public void logoutRequest(final SoupBinTCPServer session)
    {
        close();
    }

    @Override
    public void heartbeatTimeout(final SoupBinTCPServer session) throws IOException
    {
        throw new IOException("no heartbeat from subscriber");
    }

    @Override
    public void message(final ByteBuffer payload)
    {
        // Unsequenced Data from a subscriber has no meaning on a one-way feed.
    }

    private void fail(final IOException ex)
    {
        if (!closed)
        {
            errorCount.incrementAndGet();
            System.err.println("[fanout] subscriber " + remoteAddress() + " closed: " + ex.getMessage());
            close();
        }
    }

    private String remoteAddress()
    {
        try
        {
            return String.valueOf(channel.getRemoteAddress());
        }
        catch (final IOException ex)
        {
            return "(unknown)";
        }
    }
}
