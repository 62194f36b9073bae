package io.bourse.common.net;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What a SoupBinTCP 4.0 server sent a client, read raw from the socket and split into its packets, for the tests that
 * check a server's answers to arbitrary input (the order gateway's and the fanout's fuzz tests).
 */
public final class SoupBinTcpServerPackets
{
    /** Packet type of Login Accepted. */
    public static final byte LOGIN_ACCEPTED = 'A';
    /** Payload length of Login Accepted: Session (10) and Sequence Number (20). */
    public static final int LOGIN_ACCEPTED_PAYLOAD_LENGTH = 30;
    /** Packet type of Login Rejected. */
    public static final byte LOGIN_REJECTED = 'J';
    /** Packet type of Sequenced Data. */
    public static final byte SEQUENCED_DATA = 'S';
    /** Packet type of Server Heartbeat. */
    public static final byte SERVER_HEARTBEAT = 'H';
    /** Packet type of End of Session. */
    public static final byte END_OF_SESSION = 'Z';

    /**
     * One packet.
     *
     * @param type    Packet Type.
     * @param payload the bytes after it.
     */
    public record Packet(byte type, byte[] payload)
    {
    }

    private SoupBinTcpServerPackets()
    {
    }

    /**
     * Splits the bytes into packets, failing the test unless they are whole packets (2-byte big-endian Packet Length of
     * at least 1, the type, the payload), with nothing after Login Rejected or End of Session.
     *
     * @param sent what the server sent.
     * @return its packets, in order.
     */
    public static List<Packet> split(final byte[] sent)
    {
        final List<Packet> split = new ArrayList<>();
        final ByteBuffer packets = ByteBuffer.wrap(sent);
        byte last = 0;
        while (packets.hasRemaining())
        {
            assertThat(last).as("packet after Login Rejected or End of Session")
                .isNotIn(LOGIN_REJECTED, END_OF_SESSION);
            assertThat(packets.remaining()).as("packet header").isGreaterThanOrEqualTo(3);
            final int length = packets.getShort() & 0xFFFF;
            assertThat(length).as("packet length").isBetween(1, packets.remaining());
            final byte type = packets.get();
            final byte[] payload = new byte[length - 1];
            packets.get(payload);
            split.add(new Packet(type, payload));
            last = type;
        }
        return split;
    }
}
