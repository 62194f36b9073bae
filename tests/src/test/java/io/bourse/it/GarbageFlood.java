package io.bourse.it;

import io.bourse.ouch.EnterOrder;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Misbehaving clients of a SoupBinTCP 4.0 server, one connection after another on a thread of its own until closed:
 * each connection sends one kind of garbage ({@link Kind}, in turn), then reads until the server closes it. A
 * connection the server leaves open longer than the close timeout, or any other surprise, is recorded as a failure
 * and stops the flood.
 * The random bytes come from a seeded generator; the seed is in {@link #toString()}.
 */
final class GarbageFlood implements AutoCloseable
{
    /** What one connection sends. */
    enum Kind
    {
        /** 64 KiB of random bytes right after connecting. */
        RANDOM_BYTES(false, true),
        /** A packet whose length field (65,535) exceeds any packet the server accepts. */
        OVERSIZED_PACKET(false, true),
        /** A packet of a type no client sends ('Q'). */
        UNKNOWN_PACKET_TYPE(false, true),
        /** A Login Request packet with 10 bytes instead of the 46 of its payload. */
        SHORT_LOGIN_REQUEST(false, true),
        /** Unsequenced Data before any Login Request. */
        DATA_BEFORE_LOGIN(false, true),
        /** A valid login, then 64 KiB of random bytes. */
        RANDOM_BYTES_AFTER_LOGIN(true, false),
        /** A valid login, then Unsequenced Data holding an OUCH message type that does not exist ('Q'). */
        UNKNOWN_OUCH_TYPE(true, true),
        /** A valid login, then an OUCH Enter Order one byte short. */
        SHORT_ENTER_ORDER(true, true);

        private final boolean afterLogin;
        private final boolean alwaysCountedAsError;

        Kind(final boolean afterLogin, final boolean alwaysCountedAsError)
        {
            this.afterLogin = afterLogin;
            this.alwaysCountedAsError = alwaysCountedAsError;
        }

        /**
         * @return true when the server has to count the connection as an error: a protocol violation that cannot
         * be, by chance, a valid exchange (random bytes can spell a Logout Request, a wrong login or a valid order).
         */
        boolean alwaysCountedAsError()
        {
            return alwaysCountedAsError;
        }
    }

    private static final int RANDOM_BYTES_LENGTH = 64 * 1024;
    private static final byte SOUPBINTCP_LOGIN_REQUEST = 'L';
    private static final byte SOUPBINTCP_LOGIN_ACCEPTED = 'A';
    private static final byte SOUPBINTCP_UNSEQUENCED_DATA = 'U';
    private static final byte UNKNOWN_TYPE = 'Q';

    private final int port;
    private final String username;
    private final String password;
    private final Duration closeTimeout;
    private final long seed;
    private final Random random;
    private final AtomicBoolean running = new AtomicBoolean(true);
    private final AtomicInteger connections = new AtomicInteger();
    private final AtomicInteger closedByServer = new AtomicInteger();
    private final AtomicInteger alwaysCountedAsError = new AtomicInteger();
    private final List<String> failures = Collections.synchronizedList(new ArrayList<>());
    private final Thread thread;

    /**
     * Starts the flood.
     *
     * @param port         TCP port on localhost.
     * @param username     a user that may log in, for the kinds that log in first; nobody else may use it meanwhile.
     * @param password     its password.
     * @param closeTimeout how long the server may take to close a connection after the garbage.
     * @param seed         of the random bytes.
     */
    GarbageFlood(
        final int port, final String username, final String password, final Duration closeTimeout, final long seed)
    {
        this.port = port;
        this.username = username;
        this.password = password;
        this.closeTimeout = closeTimeout;
        this.seed = seed;
        this.random = new Random(seed);
        this.thread = Thread.ofPlatform().name("garbage-flood").start(this::run);
    }

    /** @return connections opened so far. */
    int connections()
    {
        return connections.get();
    }

    /** @return connections the server closed (end of stream or reset) after their garbage. */
    int closedByServer()
    {
        return closedByServer.get();
    }

    /** @return connections of the kinds the server has to count as errors ({@link Kind#alwaysCountedAsError}). */
    int alwaysCountedAsError()
    {
        return alwaysCountedAsError.get();
    }

    /** @return what went wrong: connections left open, logins refused, connections refused. */
    List<String> failures()
    {
        synchronized (failures)
        {
            return List.copyOf(failures);
        }
    }

    /** Stops after the connection in progress, if not stopped by a failure already, and waits for the thread. */
    @Override
    public void close() throws InterruptedException
    {
        running.set(false);
        thread.join();
    }

    @Override
    public String toString()
    {
        return "garbage flood (seed " + seed + ", " + connections() + " connections, " + closedByServer() +
            " closed by the server)";
    }

    private void run()
    {
        final Kind[] kinds = Kind.values();
        for (int i = 0; running.get() && failures.isEmpty(); i++)
        {
            final Kind kind = kinds[i % kinds.length];
            connections.incrementAndGet();
            try
            {
                if (sendAndAwaitClose(kind))
                {
                    closedByServer.incrementAndGet();
                    if (kind.alwaysCountedAsError())
                    {
                        alwaysCountedAsError.incrementAndGet();
                    }
                }
            }
            catch (final IOException | RuntimeException ex)
            {
                failures.add(kind + ": " + ex);
            }
        }
    }

    /**
     * @return true when the server closed the connection; false (and a failure recorded) when it did not in time.
     * @throws IOException when the connection cannot be opened or the login fails.
     */
    private boolean sendAndAwaitClose(final Kind kind) throws IOException
    {
        try (Socket socket = new Socket("localhost", port))
        {
            socket.setSoTimeout((int)closeTimeout.toMillis());
            final InputStream in = socket.getInputStream();
            final OutputStream out = socket.getOutputStream();
            if (kind.afterLogin)
            {
                out.write(loginRequest());
                awaitLoginAccepted(in);
            }
            try
            {
                out.write(garbage(kind));
                final byte[] discarded = new byte[4096];
                while (in.read(discarded) >= 0)
                {
                    // Whatever the server still sends (heartbeats, End of Session) until it closes.
                }
                return true;
            }
            catch (final SocketTimeoutException ex)
            {
                failures.add(kind + ": not closed by the server within " + closeTimeout);
                return false;
            }
            catch (final IOException ex)
            {
                // Connection reset or broken pipe: the server closed the connection with garbage still unread.
                return true;
            }
        }
    }

    private byte[] garbage(final Kind kind)
    {
        return switch (kind)
        {
            case RANDOM_BYTES, RANDOM_BYTES_AFTER_LOGIN -> randomBytes();
            case OVERSIZED_PACKET -> new byte[]{(byte)0xFF, (byte)0xFF, SOUPBINTCP_UNSEQUENCED_DATA};
            case UNKNOWN_PACKET_TYPE -> packet(UNKNOWN_TYPE, new byte[8]);
            case SHORT_LOGIN_REQUEST -> packet(SOUPBINTCP_LOGIN_REQUEST, new byte[10]);
            case DATA_BEFORE_LOGIN, UNKNOWN_OUCH_TYPE -> packet(SOUPBINTCP_UNSEQUENCED_DATA, new byte[]{UNKNOWN_TYPE});
            case SHORT_ENTER_ORDER -> packet(SOUPBINTCP_UNSEQUENCED_DATA, shortEnterOrder());
        };
    }

    /** @return an OUCH 4.2 Enter Order type byte followed by zeros, one byte short of its 49. */
    private static byte[] shortEnterOrder()
    {
        final byte[] message = new byte[EnterOrder.LENGTH - 1];
        message[0] = EnterOrder.TYPE;
        return message;
    }

    private byte[] randomBytes()
    {
        final byte[] bytes = new byte[RANDOM_BYTES_LENGTH];
        random.nextBytes(bytes);
        return bytes;
    }

    /** SoupBinTCP 4.0 Login Request for the next new message (requested sequence number 0) of today's session. */
    private byte[] loginRequest()
    {
        final String payload = String.format("%-6s%-10s%-10s%20d", username, password, "", 0);
        return packet(SOUPBINTCP_LOGIN_REQUEST, payload.getBytes(StandardCharsets.US_ASCII));
    }

    /** Reads SoupBinTCP packets until Login Accepted; anything else first is a failure. */
    private static void awaitLoginAccepted(final InputStream in) throws IOException
    {
        final byte[] header = in.readNBytes(3);
        if (header.length < 3)
        {
            throw new IOException("closed before the login answer");
        }
        final int length = ((header[0] & 0xFF) << 8) | (header[1] & 0xFF);
        in.readNBytes(length - 1);
        if (SOUPBINTCP_LOGIN_ACCEPTED != header[2])
        {
            throw new IllegalStateException("login answered with packet type '" + (char)header[2] + "'");
        }
    }

    /** @return a SoupBinTCP packet: big-endian length of type and payload, type, payload. */
    private static byte[] packet(final byte type, final byte[] payload)
    {
        return ByteBuffer.allocate(3 + payload.length).putShort((short)(1 + payload.length)).put(type).put(payload)
            .array();
    }
}
