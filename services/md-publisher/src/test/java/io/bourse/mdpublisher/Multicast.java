package io.bourse.mdpublisher;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.SocketAddress;
import java.net.StandardProtocolFamily;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

/**
 * UDP sockets on the loopback interface for the MoldUDP64 tests: a group and port of their own, so that tests running
 * beside an exchange on the default group, or beside each other, do not hear one another.
 */
final class Multicast
{
    static final String LOOPBACK = "127.0.0.1";

    private Multicast()
    {
    }

    /** @return a random group in 239.255.0.0/16 (IPv4 local scope) with a port that was free a moment ago. */
    static InetSocketAddress randomGroup() throws IOException
    {
        final ThreadLocalRandom random = ThreadLocalRandom.current();
        final InetAddress group = InetAddress.getByAddress(
            new byte[]{(byte)239, (byte)255, (byte)random.nextInt(1, 255), (byte)random.nextInt(1, 255)});
        try (DatagramChannel probe = DatagramChannel.open(StandardProtocolFamily.INET))
        {
            probe.bind(new InetSocketAddress(0));
            return new InetSocketAddress(group, ((InetSocketAddress)probe.getLocalAddress()).getPort());
        }
    }

    /** @return a non-blocking channel bound to the group's port and joined to the group on the loopback. */
    static DatagramChannel join(final InetSocketAddress group) throws IOException
    {
        final DatagramChannel channel = DatagramChannel.open(StandardProtocolFamily.INET);
        channel.setOption(StandardSocketOptions.SO_REUSEADDR, true);
        channel.bind(new InetSocketAddress(group.getPort()));
        channel.join(group.getAddress(), NetworkInterface.getByInetAddress(InetAddress.getByName(LOOPBACK)));
        channel.configureBlocking(false);
        return channel;
    }

    /** @return a non-blocking channel bound to an ephemeral port of the loopback. */
    static DatagramChannel unicast() throws IOException
    {
        final DatagramChannel channel = DatagramChannel.open(StandardProtocolFamily.INET);
        channel.bind(new InetSocketAddress(LOOPBACK, 0));
        channel.configureBlocking(false);
        return channel;
    }

    /**
     * @param channel   non-blocking.
     * @param timeoutMs how long to wait for a datagram.
     * @return the next datagram, or null when none came in time.
     */
    static byte[] receive(final DatagramChannel channel, final long timeoutMs) throws IOException
    {
        final ByteBuffer buffer = ByteBuffer.allocate(65536);
        final long deadlineNs = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
        SocketAddress source;
        while (null == (source = channel.receive(buffer)) && System.nanoTime() - deadlineNs < 0)
        {
            Thread.yield();
        }
        if (null == source)
        {
            return null;
        }
        final byte[] datagram = new byte[buffer.flip().remaining()];
        buffer.get(datagram);
        return datagram;
    }
}
