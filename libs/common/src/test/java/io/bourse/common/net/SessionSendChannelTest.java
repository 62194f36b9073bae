package io.bourse.common.net;

import com.paritytrading.nassau.soupbintcp.SoupBinTCP;
import com.paritytrading.nassau.soupbintcp.SoupBinTCPServer;
import com.paritytrading.nassau.soupbintcp.SoupBinTCPServerStatusListener;
import io.prometheus.metrics.core.metrics.Gauge;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.Arrays;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The send buffer nassau writes through, on a real loopback connection whose far end the test reads or leaves unread.
 */
@Timeout(value = 10, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class SessionSendChannelTest
{
    private static final int CAPACITY = 4096;
    private static final int SOCKET_BUFFER_SIZE = 4096;
    private static final int HEADER = SessionSendChannel.PACKET_HEADER_LENGTH;
    /** Packet type and the order gateway's largest inbound payload, an OUCH 4.2 Enter Order of 49 bytes. */
    private static final int MAX_PACKET_LENGTH = 1 + 49;

    private final Gauge allocatedBytes = Gauge.builder().name("send_buffer_bytes").register(new PrometheusRegistry());
    private final SendBufferPool pool = new SendBufferPool(CAPACITY, allocatedBytes);
    private final ByteBuffer payload = ByteBuffer.allocateDirect(1024);
    private SocketChannel peerEnd;
    private SocketChannel senderEnd;

    @BeforeEach
    void connect() throws IOException
    {
        try (ServerSocketChannel acceptor = ServerSocketChannel.open())
        {
            acceptor.setOption(StandardSocketOptions.SO_RCVBUF, SOCKET_BUFFER_SIZE);
            acceptor.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            peerEnd = SocketChannel.open();
            peerEnd.setOption(StandardSocketOptions.SO_RCVBUF, SOCKET_BUFFER_SIZE);
            peerEnd.connect(acceptor.getLocalAddress());
            senderEnd = acceptor.accept();
        }
        senderEnd.setOption(StandardSocketOptions.SO_SNDBUF, SOCKET_BUFFER_SIZE);
        senderEnd.configureBlocking(false);
    }

    @AfterEach
    void close() throws IOException
    {
        senderEnd.close();
        peerEnd.close();
    }

    @Test
    void shouldKeepPacketsInTheBufferUntilFlushedThenWriteThemInOrder() throws IOException
    {
        final SessionSendChannel channel = new SessionSendChannel(senderEnd, pool, MAX_PACKET_LENGTH);
        final SoupBinTCPServer server = nassauServer(channel);

        server.send(payload(0, 10));
        server.endSession();

        assertThat(channel.pendingBytes()).isEqualTo(HEADER + 10 + HEADER);
        peerEnd.configureBlocking(false);
        assertThat(peerEnd.read(ByteBuffer.allocate(64))).isZero();

        assertThat(channel.flush()).isEqualTo(HEADER + 10 + HEADER);
        assertThat(channel.pendingBytes()).isZero();
        assertThat(channel.remaining()).isEqualTo(CAPACITY);
        final ByteBuffer received = readExactly(HEADER + 10 + HEADER);
        assertThat(received.getShort()).isEqualTo((short)11);
        assertThat(received.get()).isEqualTo((byte)'S');
        assertThat(received.get()).isZero();
        received.position(HEADER + 10);
        assertThat(received.getShort()).isEqualTo((short)1);
        assertThat(received.get()).isEqualTo((byte)'Z');
    }

    @Test
    void shouldTakeAPacketThatExactlyFillsTheBufferAndRefuseTheNextWholeOnceTheSocketTakesNothing() throws IOException
    {
        final StallableSocket socket = new StallableSocket(senderEnd);
        final SessionSendChannel channel = new SessionSendChannel(socket, pool, MAX_PACKET_LENGTH);
        final SoupBinTCPServer server = nassauServer(channel);
        socket.stalled = true;
        final int packets = CAPACITY / (HEADER + 100);
        for (int i = 0; i < packets; i++)
        {
            server.send(payload(i, 100));
        }
        final int lastLength = CAPACITY - packets * (HEADER + 100) - HEADER;
        server.send(payload(packets, lastLength));
        assertThat(channel.remaining()).isZero();

        assertThatThrownBy(server::endSession).isInstanceOf(SendBufferFullException.class)
            .hasMessage("send buffer full: 4096 of 4096 bytes not yet taken by the client, packet of 3 bytes");
        assertThat(channel.pendingBytes()).isEqualTo(CAPACITY);
        assertThat(socket.writes).as("the socket was offered the buffer first").isEqualTo(1);
    }

    @Test
    void shouldRefuseAPacketLargerThanWhatIsLeftAndKeepThePacketsBefore() throws Exception
    {
        final StallableSocket socket = new StallableSocket(senderEnd);
        final SessionSendChannel channel = new SessionSendChannel(socket, pool, MAX_PACKET_LENGTH);
        final SoupBinTCPServer server = nassauServer(channel);
        sendWhileStalled(socket, server, 39);
        final ByteBuffer tooLong = payload(39, 100);

        assertThatThrownBy(() -> server.send(tooLong)).isInstanceOf(SendBufferFullException.class);
        assertThat(channel.pendingBytes()).isEqualTo(39 * (HEADER + 100));

        socket.stalled = false;
        assertPackets(readAllWhileFlushing(channel, 2 * 40 * (HEADER + 100)), 39);
    }

    @Test
    void shouldHandTheSocketWhatItTakesWhenABurstOutgrowsTheBufferBetweenTwoFlushes() throws Exception
    {
        final SessionSendChannel channel = new SessionSendChannel(senderEnd, pool, MAX_PACKET_LENGTH);
        final SoupBinTCPServer server = nassauServer(channel);
        final int packets = 100;
        assertThat(packets * (HEADER + 100)).as("the burst").isGreaterThan(2 * CAPACITY);

        // One duty cycle's packets, its socket's buffers empty: no flush of the owning agent between.
        for (int i = 0; i < packets; i++)
        {
            server.send(payload(i, 100));
        }

        assertPackets(readAllWhileFlushing(channel, 2 * packets * (HEADER + 100)), packets);
    }

    @Test
    void shouldDeliverEveryPacketIntactWhenTheSocketTakesPartsAndTheBufferCompacts() throws Exception
    {
        final SessionSendChannel channel = new SessionSendChannel(senderEnd, pool, MAX_PACKET_LENGTH);
        final SoupBinTCPServer server = nassauServer(channel);
        final Random random = new Random(7);
        final int packets = 20_000;
        final ByteBuffer stream = ByteBuffer.allocate(packets * (HEADER + 200));
        final Thread reader = new Thread(() -> readAll(stream), "peer-reader");
        reader.start();
        int partialFlushes = 0;
        int length = 1 + random.nextInt(200);
        for (int i = 0; i < packets; )
        {
            if (channel.remaining() >= HEADER + length)
            {
                server.send(payload(i++, length));
                length = 1 + random.nextInt(200);
            }
            channel.flush();
            partialFlushes += channel.pendingBytes() > 0 ? 1 : 0;
        }
        while (channel.pendingBytes() > 0)
        {
            channel.flush();
        }
        senderEnd.shutdownOutput();
        reader.join();

        assertThat(partialFlushes).isPositive();
        stream.flip();
        final Random expected = new Random(7);
        for (int i = 0; i < packets; i++)
        {
            final int expectedLength = 1 + expected.nextInt(200);
            assertThat(stream.getShort() & 0xFFFF).isEqualTo(expectedLength + 1);
            assertThat(stream.get()).isEqualTo((byte)'S');
            for (int j = 0; j < expectedLength; j++)
            {
                assertThat(stream.get()).isEqualTo((byte)(i + j));
            }
        }
        assertThat(stream.hasRemaining()).isFalse();
    }

    @Test
    void shouldDropThePacketsNotBegunAndSendEndOfSessionRightAfterThePacketUnderWay() throws IOException
    {
        final SessionSendChannel channel = new SessionSendChannel(senderEnd, pool, MAX_PACKET_LENGTH);
        final SoupBinTCPServer server = nassauServer(channel);
        final ByteBuffer stream = ByteBuffer.allocate(64 * 1024);
        peerEnd.configureBlocking(false);
        // The peer reads next to nothing: the socket takes what its buffers hold, then the send buffer fills; the
        // peer reads a few bytes at a time until the socket has taken part of a packet.
        int sent = 0;
        do
        {
            while (channel.remaining() >= HEADER + 100)
            {
                server.send(payload(sent++, 100));
            }
            if (0 == channel.flush())
            {
                peerEnd.read(stream.limit(stream.position() + 50));
                stream.limit(stream.capacity());
            }
        }
        while (0 == channel.pendingBytes() % (HEADER + 100) || channel.remaining() >= HEADER + 100);
        final int pending = channel.pendingBytes();

        final int dropped = channel.discardUnsent();
        assertThat(dropped).isPositive();
        assertThat(pending - dropped).as("the rest of the packet under way").isPositive().isLessThan(HEADER + 100);
        assertThat(channel.pendingBytes()).isEqualTo(pending - dropped);
        server.endSession();
        while (channel.pendingBytes() > 0)
        {
            channel.flush();
            peerEnd.read(stream);
        }
        senderEnd.shutdownOutput();
        peerEnd.configureBlocking(true);
        readAll(stream);
        stream.flip();

        int packets = 0;
        while (stream.remaining() > HEADER && 'S' == stream.get(stream.position() + Short.BYTES))
        {
            assertThat(stream.getShort()).isEqualTo((short)101);
            assertThat(stream.get()).isEqualTo((byte)'S');
            for (int j = 0; j < 100; j++)
            {
                assertThat(stream.get()).isEqualTo((byte)(packets + j));
            }
            packets++;
        }
        assertThat(packets).isPositive().isLessThan(sent);
        assertThat(stream.getShort()).isEqualTo((short)1);
        assertThat(stream.get()).isEqualTo((byte)'Z');
        assertThat(stream.hasRemaining()).isFalse();
    }

    @Test
    void shouldKeepTheRestOfThePacketTheFlushOfARefusedWriteBeganAndDropThePacketsAfterIt() throws Exception
    {
        final StallableSocket socket = new StallableSocket(senderEnd);
        final SessionSendChannel channel = new SessionSendChannel(socket, pool, MAX_PACKET_LENGTH);
        final SoupBinTCPServer server = nassauServer(channel);
        sendWhileStalled(socket, server, 39);
        // The flush before the refusal: the socket takes 20 bytes of packet 0, too few to make room for packet 39.
        socket.stalled = false;
        socket.bytesBeforeStall = 20;

        assertThatThrownBy(() -> server.send(payload(39, 100))).isInstanceOf(SendBufferFullException.class);
        assertThat(channel.pendingBytes()).isEqualTo(39 * (HEADER + 100) - 20);
        assertThat(channel.discardUnsent()).as("packets 1 to 38").isEqualTo(38 * (HEADER + 100));
        server.endSession();

        socket.stalled = false;
        socket.bytesBeforeStall = Integer.MAX_VALUE;
        final ByteBuffer stream = readAllWhileFlushing(channel, 2 * 40 * (HEADER + 100));
        assertPackets(stream.slice(0, HEADER + 100), 1);
        assertThat(stream.position(HEADER + 100).slice()).as("End of Session, and nothing after it")
            .isEqualTo(ByteBuffer.wrap(new byte[]{0, 1, 'Z'}));
    }

    @Test
    void shouldAllocateNothingPerPacketWhenSendingAndFlushing() throws Exception
    {
        final SessionSendChannel channel = new SessionSendChannel(senderEnd, pool, MAX_PACKET_LENGTH);
        final SoupBinTCPServer server = nassauServer(channel);
        final Thread drainer = new Thread(this::drain, "peer-drainer");
        drainer.start();
        final ByteBuffer message = payload(1, 66);
        final com.sun.management.ThreadMXBean threads =
            (com.sun.management.ThreadMXBean)ManagementFactory.getThreadMXBean();
        try
        {
            sendAndFlush(server, channel, message, 20_000);
            final long before = threads.getCurrentThreadAllocatedBytes();
            sendAndFlush(server, channel, message, 100_000);
            final long allocated = threads.getCurrentThreadAllocatedBytes() - before;

            assertThat(allocated).isLessThan(1_000);
        }
        finally
        {
            senderEnd.shutdownOutput(); // the drainer reads to the end of the stream
            drainer.join();
        }
    }

    @Test
    void shouldGiveTheBufferBackWhenClosedAndRefuseWritesAfter() throws IOException
    {
        final SessionSendChannel first = new SessionSendChannel(senderEnd, pool, MAX_PACKET_LENGTH);
        nassauServer(first).send(payload(0, 10));
        first.close();

        assertThat(senderEnd.isOpen()).isFalse();
        assertThat(first.remaining()).isZero();
        assertThatThrownBy(() -> first.write(payload(0, 10))).isInstanceOf(ClosedChannelException.class);
        new SessionSendChannel(peerEnd, pool, MAX_PACKET_LENGTH);
        assertThat(allocatedBytes.get()).isEqualTo(CAPACITY);
    }

    @Test
    void shouldShutTheOutputDownOnlyOnceEverythingIsSentThenGiveTheBufferBackAndRefuseWrites() throws IOException
    {
        final SessionSendChannel channel = new SessionSendChannel(senderEnd, pool, MAX_PACKET_LENGTH);
        final SoupBinTCPServer server = nassauServer(channel);
        server.send(payload(0, 10));
        server.endSession();

        assertThat(channel.shutdownOutputWhenSent()).as("bytes left").isFalse();
        channel.flush();
        assertThat(channel.shutdownOutputWhenSent()).isTrue();
        assertThat(channel.shutdownOutputWhenSent()).as("again").isTrue();

        final ByteBuffer received = readExactly(HEADER + 10 + HEADER);
        assertThat(received.get(HEADER + 10 + 2)).as("End of Session last").isEqualTo((byte)'Z');
        assertThat(peerEnd.read(ByteBuffer.allocate(1))).as("then the end of the stream").isEqualTo(-1);
        assertThat(senderEnd.isOpen()).as("only the output shut down").isTrue();
        assertThat(channel.remaining()).isZero();
        assertThatThrownBy(() -> server.send(payload(0, 10))).isInstanceOf(ClosedChannelException.class);
        final SessionSendChannel next = new SessionSendChannel(peerEnd, pool, MAX_PACKET_LENGTH);
        assertThat(allocatedBytes.get()).as("the buffer went back to the pool").isEqualTo(CAPACITY);
        next.close();
        channel.close();
        assertThat(senderEnd.isOpen()).isFalse();
    }

    @Test
    void shouldDropTheInputInBoundedReadsUntilTheEndOfTheStream() throws IOException
    {
        final SessionSendChannel channel = new SessionSendChannel(senderEnd, pool, MAX_PACKET_LENGTH);
        final ByteBuffer scratch = ByteBuffer.allocate(100);
        peerEnd.write(ByteBuffer.allocate(250));
        int dropped = 0;
        while (dropped < 250)
        {
            final int bytes = channel.discardInput(scratch, 2);
            assertThat(bytes).as("at most two reads of 100 bytes").isBetween(0, 200);
            dropped += bytes;
        }
        assertThat(dropped).isEqualTo(250);
        assertThat(channel.discardInput(scratch, 2)).as("nothing more yet").isZero();

        peerEnd.shutdownOutput();
        final long deadlineNs = System.nanoTime() + 5_000_000_000L;
        int last = 0;
        while (0 == last && System.nanoTime() - deadlineNs < 0)
        {
            last = channel.discardInput(scratch, 2);
        }
        assertThat(last).as("end of stream").isEqualTo(-1);
    }

    @Test
    void shouldHaveTheSelectorWatchWritesOnlyWhileBytesAreLeftAndReadsOnlyUntilTheInputEnds() throws IOException
    {
        final SessionSendChannel channel = new SessionSendChannel(senderEnd, pool, MAX_PACKET_LENGTH);
        final SoupBinTCPServer server = nassauServer(channel);
        try (Selector selector = Selector.open())
        {
            final SelectionKey key = senderEnd.register(selector, SelectionKey.OP_READ);
            for (int i = 0; 0 == channel.pendingBytes(); i++)
            {
                server.send(payload(i, 100)); // until the unread socket takes no more
                channel.flush(key);
            }
            assertThat(key.interestOps()).isEqualTo(SelectionKey.OP_READ | SelectionKey.OP_WRITE);

            peerEnd.shutdownOutput();
            channel.inputEnded(key);
            assertThat(key.interestOps()).as("no more reads").isEqualTo(SelectionKey.OP_WRITE);

            final ByteBuffer received = ByteBuffer.allocate(CAPACITY);
            while (channel.pendingBytes() > 0)
            {
                peerEnd.read(received.clear());
                channel.flush(key);
            }
            assertThat(key.interestOps()).as("nothing left to write").isZero();
        }
    }

    @Test
    void shouldMarkTheFirstTooLongPacketWhenAReadCompletesItsHeader() throws IOException
    {
        final SessionSendChannel channel = new SessionSendChannel(senderEnd, pool, MAX_PACKET_LENGTH);
        final ByteBuffer stream = ByteBuffer.allocate(256);
        putPacket(stream, 1);
        putPacket(stream, MAX_PACKET_LENGTH);
        putPacket(stream, MAX_PACKET_LENGTH + 1);
        putPacket(stream, MAX_PACKET_LENGTH + 2);
        final byte[] sent = Arrays.copyOf(stream.array(), stream.position());
        final int tooLong = 2 + 1 + 2 + MAX_PACKET_LENGTH;
        final ByteBuffer received = ByteBuffer.allocate(1024);
        received.put(sent[0]);

        peerEnd.write(ByteBuffer.wrap(sent, 1, sent.length - 1));
        while (received.position() < sent.length)
        {
            channel.read(received);
        }

        final byte[] expected = sent.clone();
        expected[tooLong] = (byte)0xFF;
        expected[tooLong + 1] = (byte)0xFF;
        assertThat(Arrays.copyOf(received.array(), received.position())).isEqualTo(expected);
    }

    @Test
    void shouldLeaveAcceptedPacketsAndACutShortHeaderAsTheyAre()
    {
        final ByteBuffer buffer = ByteBuffer.allocate(256);
        putPacket(buffer, MAX_PACKET_LENGTH);
        putPacket(buffer, 1);
        buffer.put((byte)0xFF);
        final byte[] before = Arrays.copyOf(buffer.array(), buffer.position());

        SessionSendChannel.refuseTooLongPacket(buffer, MAX_PACKET_LENGTH);

        assertThat(Arrays.copyOf(buffer.array(), buffer.position())).isEqualTo(before);
    }

    /** Puts a packet header with the Packet Length and as many bytes of type and payload after it. */
    private static void putPacket(final ByteBuffer buffer, final int packetLength)
    {
        buffer.putShort((short)packetLength);
        for (int i = 0; i < packetLength; i++)
        {
            buffer.put((byte)'U');
        }
    }

    /** Stalls the socket and sends packets 0 to count - 1, of 100 bytes each. */
    private void sendWhileStalled(final StallableSocket socket, final SoupBinTCPServer server, final int count)
        throws IOException
    {
        socket.stalled = true;
        for (int i = 0; i < count; i++)
        {
            server.send(payload(i, 100));
        }
    }

    /** Asserts that the stream holds exactly that many Sequenced Data packets of 100 bytes, numbered from 0. */
    private static void assertPackets(final ByteBuffer stream, final int count)
    {
        assertThat(stream.remaining()).as("bytes of " + count + " packets").isEqualTo(count * (HEADER + 100));
        for (int i = 0; i < count; i++)
        {
            assertThat(stream.getShort(i * (HEADER + 100))).isEqualTo((short)101);
            assertThat(stream.get(i * (HEADER + 100) + HEADER)).isEqualTo((byte)i);
        }
    }

    /** @return what the peer reads while the channel flushes everything and shuts its output down, flipped. */
    private ByteBuffer readAllWhileFlushing(final SessionSendChannel channel, final int capacity) throws Exception
    {
        final ByteBuffer stream = ByteBuffer.allocate(capacity);
        final Thread reader = new Thread(() -> readAll(stream), "peer-reader");
        reader.start();
        while (channel.pendingBytes() > 0)
        {
            channel.flush();
        }
        senderEnd.shutdownOutput();
        reader.join();
        return stream.flip();
    }

    private static void sendAndFlush(
        final SoupBinTCPServer server, final SessionSendChannel channel, final ByteBuffer message, final int count)
        throws IOException
    {
        for (int i = 0; i < count; i++)
        {
            while (channel.remaining() < HEADER + message.limit())
            {
                channel.flush();
            }
            message.position(0);
            server.send(message);
            channel.flush();
        }
    }

    private void readAll(final ByteBuffer stream)
    {
        try
        {
            while (peerEnd.read(stream) >= 0)
            {
                // Until the sender shuts its output down.
            }
        }
        catch (final IOException ex)
        {
            throw new AssertionError(ex);
        }
    }

    /**
     * Reads everything the sender sends until it shuts its output down, blocking while nothing comes, so that it takes
     * no core from the sender (a reader spinning on a non-blocking socket made the sender's 120,000 packets take over
     * 10 s on a loaded 2-core host).
     */
    private void drain()
    {
        final ByteBuffer sink = ByteBuffer.allocateDirect(64 * 1024);
        try
        {
            peerEnd.configureBlocking(true);
            while (peerEnd.read(sink) >= 0)
            {
                sink.clear();
            }
        }
        catch (final IOException ex)
        {
            throw new AssertionError(ex);
        }
    }

    private ByteBuffer readExactly(final int length) throws IOException
    {
        peerEnd.configureBlocking(true);
        final ByteBuffer received = ByteBuffer.allocate(length);
        while (received.hasRemaining())
        {
            assertThat(peerEnd.read(received)).isNotNegative();
        }
        return received.flip();
    }

    /** @return {@code length} bytes counting up from {@code first}. */
    private ByteBuffer payload(final int first, final int length)
    {
        payload.clear();
        for (int i = 0; i < length; i++)
        {
            payload.put((byte)(first + i));
        }
        return payload.flip();
    }

    /**
     * The sender's socket, which takes nothing while stalled, and stalls once it has taken {@link #bytesBeforeStall}:
     * a peer whose buffers are full, without the timing.
     */
    private static final class StallableSocket extends ForwardingSocketChannel
    {
        private boolean stalled;
        private int bytesBeforeStall = Integer.MAX_VALUE;
        private int writes;

        StallableSocket(final SocketChannel delegate)
        {
            super(delegate);
        }

        @Override
        public int write(final ByteBuffer src) throws IOException
        {
            writes++;
            if (stalled)
            {
                return 0;
            }
            final int limit = src.limit();
            src.limit(src.position() + Math.min(src.remaining(), bytesBeforeStall));
            try
            {
                final int written = delegate.write(src);
                bytesBeforeStall -= written;
                stalled = 0 == bytesBeforeStall;
                return written;
            }
            finally
            {
                src.limit(limit);
            }
        }

        @Override
        public long write(final ByteBuffer[] srcs, final int offset, final int length) throws IOException
        {
            writes++;
            return stalled ? 0 : delegate.write(srcs, offset, length);
        }
    }

    private static SoupBinTCPServer nassauServer(final SocketChannel channel)
    {
        return new SoupBinTCPServer(channel, 64, (received) ->
        {
        }, new SoupBinTCPServerStatusListener()
        {
            public void loginRequest(final SoupBinTCPServer session, final SoupBinTCP.LoginRequest payload)
            {
            }

            public void logoutRequest(final SoupBinTCPServer session)
            {
            }

            public void heartbeatTimeout(final SoupBinTCPServer session)
            {
            }
        });
    }
}
