package io.bourse.gateway;

import org.agrona.CloseHelper;
import org.agrona.DirectBuffer;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;

/**
 * Many SoupBinTCP 4.0 client sessions on non-blocking sockets, served by the test thread through one selector, with
 * the frames encoded and parsed by hand: what a load of clients looks like to the gateway, without a thread each.
 */
final class SessionSwarm implements AutoCloseable
{
    /** One client session and what it received. */
    static final class Session
    {
        private final SocketChannel channel;
        private final ByteBuffer received = ByteBuffer.allocate(4096);
        private final List<Object> messages = new ArrayList<>();
        private long loginAcceptedSequenceNumber;
        private boolean endOfSession;
        private boolean closed;

        private Session(final SocketChannel channel)
        {
            this.channel = channel;
        }

        /** @return true once Login Accepted came. */
        boolean isLoggedIn()
        {
            return loginAcceptedSequenceNumber > 0;
        }

        /** @return the Sequenced Data payloads received, decoded by {@link OuchMessages}. */
        List<Object> messages()
        {
            return messages;
        }

        /** @return true once the gateway sent End of Session or closed the connection. */
        boolean isEnded()
        {
            return endOfSession || closed;
        }
    }

    private static final long HEARTBEAT_INTERVAL_NS = 1_000_000_000L;

    private final int port;
    private final Selector selector;
    private final List<Session> sessions = new ArrayList<>();
    private final ByteBuffer frame = ByteBuffer.allocate(2 + 1 + 1024);
    private long lastHeartbeatNs = System.nanoTime();

    /**
     * @param port the gateway's OUCH port on 127.0.0.1.
     * @throws IOException when the selector cannot be opened.
     */
    SessionSwarm(final int port) throws IOException
    {
        this.port = port;
        this.selector = Selector.open();
    }

    /**
     * Connects and sends a SoupBinTCP 4.0 Login Request for today's session from sequence number 1.
     *
     * @param username the user; the password is the username followed by "pw".
     * @return the session; its answer comes while polling.
     * @throws IOException when connecting fails.
     */
    Session login(final String username) throws IOException
    {
        final SocketChannel channel = SocketChannel.open(new InetSocketAddress("127.0.0.1", port));
        channel.configureBlocking(false);
        final Session session = new Session(channel);
        channel.register(selector, SelectionKey.OP_READ, session);
        sessions.add(session);
        final String payload = String.format("%-6s%-10s%-10s%20s", username, username + "pw", "", "1");
        frame.clear();
        frame.putShort((short)(1 + payload.length())).put((byte)'L').put(payload.getBytes(StandardCharsets.US_ASCII));
        send(session, frame.flip());
        return session;
    }

    /**
     * Sends one OUCH message as SoupBinTCP Unsequenced Data.
     *
     * @param session the sender.
     * @param message holds the message from offset 0.
     * @param length  of the message.
     * @throws IOException when the write fails.
     */
    void send(final Session session, final DirectBuffer message, final int length) throws IOException
    {
        frame.clear();
        frame.putShort((short)(1 + length)).put((byte)'U');
        message.getBytes(0, frame, frame.position(), length);
        frame.position(frame.position() + length);
        send(session, frame.flip());
    }

    /** @return the sessions, in the order they logged in. */
    List<Session> sessions()
    {
        return sessions;
    }

    /**
     * Reads every session, and sends each a client heartbeat every second, until the condition holds.
     *
     * @param timeout     how long to wait.
     * @param description what is awaited, for the failure message.
     * @param condition   checked after every poll.
     * @throws IOException    when reading fails.
     * @throws AssertionError when the time runs out first.
     */
    void pollUntil(final Duration timeout, final String description, final BooleanSupplier condition)
        throws IOException
    {
        final long deadlineNs = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean())
        {
            if (System.nanoTime() > deadlineNs)
            {
                throw new AssertionError("not within " + timeout + ": " + description);
            }
            selector.select(this::read, 10);
            heartbeat();
        }
    }

    @Override
    public void close()
    {
        for (final Session session : sessions)
        {
            CloseHelper.quietClose(session.channel);
        }
        CloseHelper.quietClose(selector);
    }

    private void read(final SelectionKey key)
    {
        final Session session = (Session)key.attachment();
        try
        {
            if (session.channel.read(session.received) < 0)
            {
                session.closed = true;
                key.cancel();
                return;
            }
        }
        catch (final IOException ex)
        {
            session.closed = true;
            key.cancel();
            return;
        }
        final ByteBuffer buffer = session.received.flip();
        while (buffer.remaining() >= 2 && buffer.remaining() >= 2 + (buffer.getShort(buffer.position()) & 0xFFFF))
        {
            final int packetLength = buffer.getShort() & 0xFFFF;
            final byte type = buffer.get();
            final byte[] payload = new byte[packetLength - 1];
            buffer.get(payload);
            onPacket(session, type, payload);
        }
        buffer.compact();
    }

    private static void onPacket(final Session session, final byte type, final byte[] payload)
    {
        switch (type)
        {
            case 'A' -> session.loginAcceptedSequenceNumber =
                Long.parseLong(new String(payload, 10, 20, StandardCharsets.US_ASCII).trim());
            case 'S' -> session.messages.add(OuchMessages.decode(payload));
            case 'Z' -> session.endOfSession = true;
            case 'H' ->
            {
                // Server heartbeat.
            }
            default -> throw new AssertionError("unexpected packet type " + (char)type);
        }
    }

    private void heartbeat() throws IOException
    {
        final long nowNs = System.nanoTime();
        if (nowNs - lastHeartbeatNs < HEARTBEAT_INTERVAL_NS)
        {
            return;
        }
        lastHeartbeatNs = nowNs;
        for (final Session session : sessions)
        {
            if (!session.isEnded())
            {
                frame.clear();
                send(session, frame.putShort((short)1).put((byte)'R').flip());
            }
        }
    }

    private static void send(final Session session, final ByteBuffer packet) throws IOException
    {
        while (packet.hasRemaining())
        {
            session.channel.write(packet);
        }
    }
}
