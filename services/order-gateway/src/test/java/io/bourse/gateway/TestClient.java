package io.bourse.gateway;

import com.paritytrading.nassau.soupbintcp.SoupBinTCP;
import com.paritytrading.nassau.soupbintcp.SoupBinTCPClient;
import com.paritytrading.nassau.soupbintcp.SoupBinTCPClientStatusListener;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A SoupBinTCP client (nassau) that records what the gateway sends as values: session events as records, sequenced
 * messages decoded by {@link OuchMessages}, and {@link Closed} when the gateway closes the connection.
 */
final class TestClient implements AutoCloseable
{
    record LoginAccepted(String session, long sequenceNumber)
    {
    }

    record LoginRejected(char reason)
    {
    }

    record EndOfSession()
    {
    }

    record Closed()
    {
    }

    private static final long WAIT_NS = TimeUnit.SECONDS.toNanos(3);

    private final SocketChannel channel;
    private final SoupBinTCPClient client;
    private final List<Object> received = new ArrayList<>();
    private final List<byte[]> sequencedBytes = new ArrayList<>();
    private final ByteBuffer sendBuffer = ByteBuffer.allocate(1024);
    private boolean closed;

    TestClient(final int port) throws IOException
    {
        channel = SocketChannel.open(new InetSocketAddress("127.0.0.1", port));
        channel.configureBlocking(false);
        client = new SoupBinTCPClient(channel, 1024,
            (payload) ->
            {
                final byte[] bytes = new byte[payload.remaining()];
                payload.get(bytes);
                sequencedBytes.add(bytes);
                received.add(OuchMessages.decode(bytes));
            },
            new SoupBinTCPClientStatusListener()
            {
                public void heartbeatTimeout(final SoupBinTCPClient session)
                {
                    throw new AssertionError("heartbeat timeout");
                }

                public void loginAccepted(final SoupBinTCPClient session, final SoupBinTCP.LoginAccepted payload)
                {
                    received.add(new LoginAccepted(payload.getSession().trim(), payload.getSequenceNumber()));
                }

                public void loginRejected(final SoupBinTCPClient session, final SoupBinTCP.LoginRejected payload)
                {
                    received.add(new LoginRejected((char)payload.getRejectReasonCode()));
                }

                public void endOfSession(final SoupBinTCPClient session)
                {
                    received.add(new EndOfSession());
                }
            });
    }

    void login(final String username, final String password, final String session, final long sequenceNumber)
        throws IOException
    {
        final SoupBinTCP.LoginRequest request = new SoupBinTCP.LoginRequest();
        request.setUsername(username);
        request.setPassword(password);
        request.setRequestedSession(session);
        request.setRequestedSequenceNumber(sequenceNumber);
        client.login(request);
    }

    void logout() throws IOException
    {
        client.logout();
    }

    /**
     * Sends one OUCH message as Unsequenced Data.
     */
    void send(final UnsafeBuffer buffer, final int length) throws IOException
    {
        sendBuffer.clear();
        sendBuffer.put(buffer.byteArray(), 0, length).flip();
        client.send(sendBuffer);
    }

    /**
     * Reads until at least {@code count} things were received in all, or 3 seconds passed.
     *
     * @return everything received so far.
     */
    List<Object> await(final int count) throws IOException, InterruptedException
    {
        final long deadline = System.nanoTime() + WAIT_NS;
        while (received.size() < count && !closed && System.nanoTime() < deadline)
        {
            if (client.receive() < 0)
            {
                closed = true;
                received.add(new Closed());
            }
            else
            {
                Thread.sleep(1);
            }
        }
        return List.copyOf(received);
    }

    /** @return the payloads of the Sequenced Data packets received, as sent. */
    List<byte[]> sequencedBytes()
    {
        return List.copyOf(sequencedBytes);
    }

    @Override
    public void close() throws IOException
    {
        channel.close();
    }
}
