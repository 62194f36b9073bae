package io.bourse.mdpublisher;

import com.paritytrading.nassau.moldudp64.MoldUDP64DownstreamPacket;
import io.bourse.common.time.SessionNames;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The sending side of one MoldUDP64 1.00 session on the feed's multicast socket. Every packet starts with the header:
 * Session (Alpha, 10 bytes, space-padded), Sequence Number (unsigned, 8 bytes, big-endian) and Message Count (unsigned,
 * 2 bytes, big-endian). A Downstream Packet carries the Sequence Number of its first message and its Message Blocks; a
 * Heartbeat (Message Count 0) and an End of Session packet (Message Count 0xFFFF) carry the next Sequence Number.
 * <p>
 * Its Sequence Numbers are 64-bit, as the specification's: this class stands in for nassau's MoldUDP64Server, whose
 * way to skip the numbers of a packet lost to a failed send takes an {@code int}, so that past 2^31 - 1 messages of
 * a session the skip failed, the packet was never cleared, and the session's numbers went wrong.
 * <p>
 * Single-threaded, on the MoldUDP64 feed agent's thread; allocates nothing per packet. A send waits while the socket
 * has no room for the datagram, which the kernel drains at wire speed.
 */
final class MoldSessionServer
{
    /** Length of the MoldUDP64 header, in bytes. */
    static final int HEADER_LENGTH = 20;
    /** Message Count of an End of Session packet. */
    static final int END_OF_SESSION_MESSAGE_COUNT = 0xFFFF;

    private final DatagramChannel channel;
    private final byte[] session;
    private final ByteBuffer header = ByteBuffer.allocateDirect(HEADER_LENGTH);
    private final ByteBuffer[] datagram = new ByteBuffer[2];
    private long nextSequenceNumber = 1;

    /**
     * @param channel the feed's connected multicast socket; the feed closes it.
     * @param name    the Session: 1 to {@value SessionNames#MAX_LENGTH} printable ASCII characters ({@link
     *                SessionNames}).
     * @throws IllegalArgumentException for a longer name.
     */
    MoldSessionServer(final DatagramChannel channel, final String name)
    {
        if (name.length() > SessionNames.MAX_LENGTH)
        {
            throw new IllegalArgumentException(
                "MoldUDP64 Session longer than " + SessionNames.MAX_LENGTH + ": " + name);
        }
        this.channel = channel;
        this.session = Arrays.copyOf(name.getBytes(StandardCharsets.US_ASCII), SessionNames.MAX_LENGTH);
        Arrays.fill(session, name.length(), SessionNames.MAX_LENGTH, (byte)' ');
        datagram[0] = header;
    }

    /**
     * Sends a Downstream Packet of the packet's Message Blocks, numbered from the next Sequence Number, which then
     * moves past them.
     *
     * @param packet its Message Blocks from 0 to its position; left as it is.
     * @throws IOException when the socket cannot send: the Sequence Number stays, see {@link
     *                     #nextSequenceNumber(long)}.
     */
    void send(final MoldUDP64DownstreamPacket packet) throws IOException
    {
        final int messageCount = packet.messageCount();
        final ByteBuffer payload = packet.payload();
        final int position = payload.position();
        final int limit = payload.limit();
        datagram[1] = payload.flip();
        try
        {
            write(messageCount, datagram.length);
        }
        finally
        {
            payload.limit(limit).position(position);
        }
        nextSequenceNumber += messageCount;
    }

    /**
     * Sends a Heartbeat: Message Count 0 with the next Sequence Number.
     *
     * @throws IOException when the socket cannot send.
     */
    void sendHeartbeat() throws IOException
    {
        write(0, 1);
    }

    /**
     * Sends an End of Session packet: Message Count 0xFFFF with the next Sequence Number.
     *
     * @throws IOException when the socket cannot send.
     */
    void sendEndOfSession() throws IOException
    {
        write(END_OF_SESSION_MESSAGE_COUNT, 1);
    }

    /** @return the Sequence Number of the next message sent. */
    long nextSequenceNumber()
    {
        return nextSequenceNumber;
    }

    /**
     * @param sequenceNumber the Sequence Number of the next message sent, 1 or more: past the messages of a packet
     *                       whose send failed, lost as a dropped datagram is, or left out.
     */
    void nextSequenceNumber(final long sequenceNumber)
    {
        nextSequenceNumber = sequenceNumber;
    }

    /**
     * @param packet a MoldUDP64 packet or response, the Session in its first {@value SessionNames#MAX_LENGTH} bytes.
     * @return whether the packet names this session.
     */
    boolean isNamedIn(final ByteBuffer packet)
    {
        for (int i = 0; i < session.length; i++)
        {
            if (packet.get(i) != session[i])
            {
                return false;
            }
        }
        return true;
    }

    /**
     * Sends one datagram: the header, with the next Sequence Number and this Message Count, then, for a Downstream
     * Packet, the Message Blocks in {@code datagram[1]}; waits while the socket has no room for it.
     *
     * @param buffers 1 for the header alone, 2 with the Message Blocks.
     */
    private void write(final int messageCount, final int buffers) throws IOException
    {
        header.clear();
        header.put(session).putLong(nextSequenceNumber).putShort((short)messageCount).flip();
        while (0 == channel.write(datagram, 0, buffers))
        {
            Thread.onSpinWait();
        }
    }
}
