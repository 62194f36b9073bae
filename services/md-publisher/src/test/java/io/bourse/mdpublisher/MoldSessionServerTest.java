package io.bourse.mdpublisher;

import com.paritytrading.nassau.moldudp64.MoldUDP64DownstreamPacket;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The packets of a MoldUDP64 session, byte by byte as MoldUDP64 Protocol Specification 1.00 lays them out (Downstream
 * Packet: Session 10, Sequence Number 8, Message Count 2, then Message Blocks of Message Length 2 and Message Data),
 * sent over real loopback sockets, with Sequence Numbers past 2^31 - 1.
 */
class MoldSessionServerTest
{
    /** Past the largest {@code int}: nassau's server could not be set there. */
    private static final long SEQUENCE_NUMBER = (1L << 31) + 5;

    private DatagramChannel receiver;
    private DatagramChannel sender;
    private MoldSessionServer server;

    @BeforeEach
    void setUp() throws IOException
    {
        receiver = DatagramChannel.open().bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        receiver.configureBlocking(false);
        sender = DatagramChannel.open().connect(receiver.getLocalAddress());
        server = new MoldSessionServer(sender, "20261125");
    }

    @AfterEach
    void tearDown() throws IOException
    {
        sender.close();
        receiver.close();
    }

    @Test
    void shouldSendADownstreamPacketNumberedFromTheNextSequenceNumberAndMovePastItsMessages() throws Exception
    {
        final MoldUDP64DownstreamPacket packet = new MoldUDP64DownstreamPacket();
        packet.put(ByteBuffer.wrap(new byte[]{'S', 1, 2}));
        packet.put(ByteBuffer.wrap(new byte[]{'A'}));
        server.nextSequenceNumber(SEQUENCE_NUMBER);

        server.send(packet);

        final ByteBuffer datagram = receive();
        assertThat(datagram.remaining()).isEqualTo(MoldSessionServer.HEADER_LENGTH + 2 + 3 + 2 + 1);
        assertHeader(datagram, SEQUENCE_NUMBER, 2);
        assertThat(datagram.getShort()).as("Message Length").isEqualTo((short)3);
        assertThat(new byte[]{datagram.get(), datagram.get(), datagram.get()}).containsExactly('S', 1, 2);
        assertThat(datagram.getShort()).as("Message Length").isEqualTo((short)1);
        assertThat(datagram.get()).isEqualTo((byte)'A');
        assertThat(server.nextSequenceNumber()).isEqualTo(SEQUENCE_NUMBER + 2);
        assertThat(packet.messageCount()).as("the packet left as it was").isEqualTo(2);
        assertThat(packet.payload().position()).isEqualTo(2 + 3 + 2 + 1);
    }

    @Test
    void shouldSendHeartbeatsAndEndOfSessionWithTheNextSequenceNumber() throws Exception
    {
        server.nextSequenceNumber(SEQUENCE_NUMBER);

        server.sendHeartbeat();
        server.sendEndOfSession();

        final ByteBuffer heartbeat = receive();
        assertThat(heartbeat.remaining()).isEqualTo(MoldSessionServer.HEADER_LENGTH);
        assertHeader(heartbeat, SEQUENCE_NUMBER, 0);
        final ByteBuffer endOfSession = receive();
        assertThat(endOfSession.remaining()).isEqualTo(MoldSessionServer.HEADER_LENGTH);
        assertHeader(endOfSession, SEQUENCE_NUMBER, 0xFFFF);
        assertThat(server.nextSequenceNumber()).isEqualTo(SEQUENCE_NUMBER);
    }

    @Test
    void shouldTellAPacketThatNamesItsSessionSpacePadded()
    {
        assertThat(server.isNamedIn(ByteBuffer.wrap("20261125  ".getBytes(StandardCharsets.US_ASCII)))).isTrue();
        assertThat(server.isNamedIn(ByteBuffer.wrap("20261126  ".getBytes(StandardCharsets.US_ASCII)))).isFalse();
        assertThat(server.isNamedIn(ByteBuffer.wrap("2026112500".getBytes(StandardCharsets.US_ASCII)))).isFalse();
    }

    private static void assertHeader(final ByteBuffer datagram, final long sequenceNumber, final int messageCount)
    {
        final byte[] session = new byte[10];
        datagram.get(session);
        assertThat(new String(session, StandardCharsets.US_ASCII)).as("Session").isEqualTo("20261125  ");
        assertThat(datagram.getLong()).as("Sequence Number").isEqualTo(sequenceNumber);
        assertThat(datagram.getShort() & 0xFFFF).as("Message Count").isEqualTo(messageCount);
    }

    /** @return the next datagram, within 5 s. */
    private ByteBuffer receive() throws IOException
    {
        final ByteBuffer datagram = ByteBuffer.allocate(2048);
        final long deadlineNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (null == receiver.receive(datagram))
        {
            assertThat(System.nanoTime()).as("a datagram within 5 s").isLessThan(deadlineNs);
            Thread.onSpinWait();
        }
        return datagram.flip();
    }
}
