package io.bourse.gateway;

import com.paritytrading.nassau.MessageListener;
import com.paritytrading.nassau.soupbintcp.SoupBinTCP;
import com.paritytrading.nassau.soupbintcp.SoupBinTCPServer;
import com.paritytrading.nassau.soupbintcp.SoupBinTCPServerStatusListener;

import java.io.IOException;
import java.net.SocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;

/**
 * One client TCP connection: the nassau SoupBinTCP 4.0 server side of it, and the user it is logged in as (null
 * before login). Hands packets and session events to the {@link SessionRegistry}; used only by the gateway agent
 * thread.
 */
final class OuchConnection implements MessageListener, SoupBinTCPServerStatusListener
{
    private final SessionRegistry registry;
    private final SocketAddress remoteAddress;
    private final SoupBinTCPServer server;
    private UserSession user;
    private boolean closed;

    /**
     * @param registry         receives the packets and session events.
     * @param channel          the accepted, non-blocking channel (registered with the agent's selector).
     * @param sendChannel      what nassau writes through (the channel with a bound on stalled writes).
     * @param clock            the agent's duty-cycle clock, for the heartbeat timers.
     * @param maxPayloadLength largest inbound packet payload accepted.
     * @throws IOException when the remote address cannot be read.
     */
    OuchConnection(
        final SessionRegistry registry,
        final SocketChannel channel,
        final SocketChannel sendChannel,
        final DutyCycleClock clock,
        final int maxPayloadLength) throws IOException
    {
        this.registry = registry;
        this.remoteAddress = channel.getRemoteAddress();
        this.server = new SoupBinTCPServer(clock, sendChannel, maxPayloadLength, this, this);
    }

    /** @return the nassau session. */
    SoupBinTCPServer server()
    {
        return server;
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
     * @throws IOException when the write fails or stalls past the bound.
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
