package io.bourse.simulator;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.StandardProtocolFamily;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.util.concurrent.ThreadLocalRandom;

/**
 * A lossy network between the md-publisher's MoldUDP64 group and one receiver, on the loopback: receives every
 * Downstream Packet from the group and forwards it to the receiver's own unicast socket, unless the test has chosen to
 * lose it: a packet carrying any of the lost Sequence Numbers, or a Heartbeat (Message Count 0) while heartbeats are
 * held back. Records the end (Sequence Number plus Message Count) of the last data packet seen and forwarded.
 */
final class MoldRelay implements AutoCloseable
{
    static final InetAddress LOOPBACK = InetAddress.getLoopbackAddress();
    private static final int SEQUENCE_NUMBER_OFFSET = 10;
    private static final int MESSAGE_COUNT_OFFSET = 18;
    private static final int HEADER_LENGTH = 20;
    /** Linux's first ephemeral port by default ({@code net.ipv4.ip_local_port_range}). */
    private static final int FIRST_EPHEMERAL_PORT = 32768;
    /** Lowest port {@link #freePort()} tries: above the well-known and most registered services' ports. */
    private static final int FIRST_FIXED_PORT = 20000;
    private static final int FREE_PORT_ATTEMPTS = 20;

    private final DatagramChannel group;
    private final DatagramChannel receiver;
    private final DatagramChannel out;
    private final ByteBuffer buffer = ByteBuffer.allocateDirect(65536);
    private boolean forwardHeartbeats;
    private long forwardedUntil = 1;
    private long seenUntil = 1;
    private long[] lost = new long[0];

    /**
     * @param groupAddress the md-publisher's group and port.
     * @throws IOException when a socket cannot be opened.
     */
    MoldRelay(final InetSocketAddress groupAddress) throws IOException
    {
        group = join(groupAddress);
        receiver = unicast();
        out = unicast();
    }

    /** @return a group in 239.255.0.0/16 (IPv4 local scope) of this test's own, with a port that was free. */
    static InetSocketAddress randomGroup() throws IOException
    {
        final ThreadLocalRandom random = ThreadLocalRandom.current();
        final InetAddress address = InetAddress.getByAddress(
            new byte[]{(byte)239, (byte)255, (byte)random.nextInt(1, 255), (byte)random.nextInt(1, 255)});
        return new InetSocketAddress(address, freePort());
    }

    /**
     * @return a UDP port that was free a moment ago, below Linux's ephemeral range (32768 and up by default), so that
     * no socket bound to port 0 meanwhile (the md-publisher's multicast sender, this test's relays) can be given it
     * before the test binds it; a port from that range once collided so.
     * @throws IOException when no port tried was free.
     */
    static int freePort() throws IOException
    {
        final ThreadLocalRandom random = ThreadLocalRandom.current();
        IOException last = null;
        for (int attempt = 0; attempt < FREE_PORT_ATTEMPTS; attempt++)
        {
            final int port = random.nextInt(FIRST_FIXED_PORT, FIRST_EPHEMERAL_PORT);
            try (DatagramChannel probe = DatagramChannel.open(StandardProtocolFamily.INET))
            {
                probe.bind(new InetSocketAddress(port));
                return port;
            }
            catch (final IOException ex)
            {
                last = ex;
            }
        }
        throw last;
    }

    /** @return a non-blocking socket bound to an ephemeral port of the loopback. */
    static DatagramChannel unicast() throws IOException
    {
        final DatagramChannel channel = DatagramChannel.open(StandardProtocolFamily.INET);
        channel.bind(new InetSocketAddress(LOOPBACK, 0));
        channel.configureBlocking(false);
        return channel;
    }

    private static DatagramChannel join(final InetSocketAddress groupAddress) throws IOException
    {
        final DatagramChannel channel = DatagramChannel.open(StandardProtocolFamily.INET);
        channel.setOption(StandardSocketOptions.SO_REUSEADDR, true);
        channel.bind(groupAddress);
        channel.join(groupAddress.getAddress(), NetworkInterface.getByInetAddress(LOOPBACK));
        channel.configureBlocking(false);
        return channel;
    }

    /** @return the receiver's socket, where the forwarded packets arrive; the receiver owns and closes it. */
    DatagramChannel receiver()
    {
        return receiver;
    }

    /** @param sequenceNumbers messages whose packets are lost from now on. */
    void lose(final long... sequenceNumbers)
    {
        lost = sequenceNumbers.clone();
    }

    /** @param forward true to forward Heartbeats, false to lose them. */
    void forwardHeartbeats(final boolean forward)
    {
        forwardHeartbeats = forward;
    }

    /** @return the end of the last data packet forwarded: the next Sequence Number the receiver has seen. */
    long forwardedUntil()
    {
        return forwardedUntil;
    }

    /** @return the end of the last data packet received from the group, forwarded or lost. */
    long seenUntil()
    {
        return seenUntil;
    }

    /**
     * Forwards or loses every packet that has arrived from the group.
     *
     * @throws IOException when a socket fails.
     */
    void relay() throws IOException
    {
        while (true)
        {
            buffer.clear();
            if (null == group.receive(buffer))
            {
                return;
            }
            buffer.flip();
            if (buffer.remaining() < HEADER_LENGTH)
            {
                throw new IOException("not a MoldUDP64 packet: " + buffer.remaining() + " bytes");
            }
            final long sequenceNumber = buffer.getLong(SEQUENCE_NUMBER_OFFSET);
            final int messageCount = Short.toUnsignedInt(buffer.getShort(MESSAGE_COUNT_OFFSET));
            final boolean heartbeat = 0 == messageCount;
            if (!heartbeat)
            {
                seenUntil = Math.max(seenUntil, sequenceNumber + messageCount);
            }
            if (heartbeat ? forwardHeartbeats : !carriesLost(sequenceNumber, messageCount))
            {
                out.send(buffer, receiver.getLocalAddress());
                if (!heartbeat)
                {
                    forwardedUntil = Math.max(forwardedUntil, sequenceNumber + messageCount);
                }
            }
        }
    }

    private boolean carriesLost(final long sequenceNumber, final int messageCount)
    {
        for (final long lostSequenceNumber : lost)
        {
            if (lostSequenceNumber >= sequenceNumber && lostSequenceNumber < sequenceNumber + messageCount)
            {
                return true;
            }
        }
        return false;
    }

    @Override
    public void close() throws IOException
    {
        group.close();
        out.close();
    }
}
