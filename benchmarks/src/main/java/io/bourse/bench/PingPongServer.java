package io.bourse.bench;

import io.bourse.ouch.EnterOrder;
import io.bourse.ouch.OrderAccepted;
import io.bourse.ouch.Ouch42;
import org.agrona.CloseHelper;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * The floor of {@code bourse bench gateway}: a bare TCP echo on loopback that answers every request frame the size of
 * a SoupBinTCP-framed OUCH 4.2 Enter Order ({@value #REQUEST_FRAME_LENGTH} bytes) with a frame the size of a framed
 * Accepted ({@value #ANSWER_FRAME_LENGTH} bytes) carrying the request's counter back, and does nothing else. One thread
 * (this agent) serves every connection on non-blocking sockets, as the gateway does: each duty cycle accepts, reads
 * what every readable socket holds (up to 64 KiB, every complete frame of it answered in one go), and writes the
 * answers without blocking; a connection whose answers the socket has not all taken is not read until it has.
 *
 * <pre>
 *   request, 52 bytes                          answer, 69 bytes
 * +--------+---+---+---------+---------+     +--------+---+---+---------+---------+
 * | len 50 | U | O | counter | 0 ...   |     | len 67 | S | A | counter | 0 ...   |
 * +--------+---+---+---------+---------+     +--------+---+---+---------+---------+
 *    0 (2)  2   3   4 (8)     12 .. 51          0 (2)  2   3   4 (8)     12 .. 68
 * </pre>
 */
final class PingPongServer implements Agent
{
    /** SoupBinTCP 4.0 packet header: Packet Length (2 bytes, big-endian) and Packet Type. */
    static final int HEADER_LENGTH = 3;
    /** SoupBinTCP 4.0 Unsequenced Data packet type (client to server). */
    static final byte UNSEQUENCED_DATA = 'U';
    /** SoupBinTCP 4.0 Sequenced Data packet type (server to client). */
    static final byte SEQUENCED_DATA = 'S';
    /** A SoupBinTCP Unsequenced Data packet holding an OUCH 4.2 Enter Order. */
    static final int REQUEST_FRAME_LENGTH = HEADER_LENGTH + EnterOrder.LENGTH;
    /** A SoupBinTCP Sequenced Data packet holding an OUCH 4.2 Accepted. */
    static final int ANSWER_FRAME_LENGTH = HEADER_LENGTH + OrderAccepted.LENGTH;
    /** Offset of the counter in both frames: after the header and the message type. */
    static final int COUNTER_OFFSET = HEADER_LENGTH + 1;
    /** Byte order of the header and the counter. */
    static final ByteOrder BYTE_ORDER = ByteOrder.BIG_ENDIAN;

    private static final int BUFFER_BYTES = 64 * 1024;

    private final ServerSocketChannel serverChannel;
    private final Selector selector;
    private final List<Connection> connections = new ArrayList<>();
    private final Consumer<SelectionKey> onSelected = this::onSelected;
    private final AtomicLong errors;
    private int selectedWork;

    /**
     * Binds an ephemeral loopback port.
     *
     * @param errors counts connections closed for a malformed frame or an I/O error.
     * @throws IOException when the port cannot be bound.
     */
    PingPongServer(final AtomicLong errors) throws IOException
    {
        this.errors = errors;
        serverChannel = ServerSocketChannel.open();
        try
        {
            serverChannel.configureBlocking(false);
            serverChannel.bind(new InetSocketAddress("127.0.0.1", 0));
            selector = Selector.open();
            serverChannel.register(selector, SelectionKey.OP_ACCEPT);
        }
        catch (final IOException ex)
        {
            CloseHelper.quietClose(serverChannel);
            throw ex;
        }
    }

    /**
     * Writes a request frame.
     *
     * @param buffer  destination.
     * @param offset  where the frame starts.
     * @param counter carried back in the answer.
     */
    static void encodeRequest(final UnsafeBuffer buffer, final int offset, final long counter)
    {
        buffer.setMemory(offset, REQUEST_FRAME_LENGTH, (byte)0);
        buffer.putShort(offset, (short)(REQUEST_FRAME_LENGTH - 2), BYTE_ORDER);
        buffer.putByte(offset + 2, UNSEQUENCED_DATA);
        buffer.putByte(offset + HEADER_LENGTH, Ouch42.ENTER_ORDER);
        buffer.putLong(offset + COUNTER_OFFSET, counter, BYTE_ORDER);
    }

    /** @return the bound port on 127.0.0.1. */
    int port()
    {
        return serverChannel.socket().getLocalPort();
    }

    @Override
    public int doWork() throws IOException
    {
        selectedWork = 0;
        selector.selectNow(onSelected);
        int work = selectedWork;
        for (int i = connections.size() - 1; i >= 0; i--)
        {
            final Connection connection = connections.get(i);
            try
            {
                work += connection.answer();
            }
            catch (final IOException | RuntimeException ex)
            {
                close(connection);
            }
        }
        return work;
    }

    private void onSelected(final SelectionKey key)
    {
        if (!key.isValid())
        {
            return;
        }
        if (key.isAcceptable())
        {
            accept();
            return;
        }
        final Connection connection = (Connection)key.attachment();
        try
        {
            selectedWork += connection.read();
        }
        catch (final IOException ex)
        {
            close(connection);
        }
    }

    private void accept()
    {
        try
        {
            SocketChannel channel;
            while (null != (channel = serverChannel.accept()))
            {
                channel.configureBlocking(false);
                channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
                final Connection connection = new Connection(channel);
                channel.register(selector, SelectionKey.OP_READ, connection);
                connections.add(connection);
                selectedWork++;
            }
        }
        catch (final IOException ex)
        {
            errors.incrementAndGet();
        }
    }

    private void close(final Connection connection)
    {
        if (connections.remove(connection) && !connection.endedByClient)
        {
            errors.incrementAndGet();
        }
        CloseHelper.quietClose(connection.channel);
    }

    @Override
    public void onClose()
    {
        connections.forEach((connection) -> CloseHelper.quietClose(connection.channel));
        CloseHelper.quietCloseAll(selector, serverChannel);
    }

    @Override
    public String roleName()
    {
        return "bench-tcp-echo";
    }

    /** One client connection: what it sent not yet answered, and answers the socket has not yet taken. */
    private static final class Connection
    {
        private final SocketChannel channel;
        private final ByteBuffer receiveBuffer = ByteBuffer.allocateDirect(BUFFER_BYTES);
        private final UnsafeBuffer receive = new UnsafeBuffer(receiveBuffer);
        private final ByteBuffer sendBuffer = ByteBuffer.allocateDirect(BUFFER_BYTES);
        private final UnsafeBuffer send = new UnsafeBuffer(sendBuffer);
        private boolean endedByClient;

        private Connection(final SocketChannel channel)
        {
            this.channel = channel;
        }

        /** Reads what the socket holds, unless answers still wait to be written. */
        private int read() throws IOException
        {
            if (sendBuffer.position() > 0 || !receiveBuffer.hasRemaining())
            {
                return 0;
            }
            final int bytes = channel.read(receiveBuffer);
            if (bytes < 0)
            {
                endedByClient = true;
                throw new IOException("closed by the client");
            }
            return bytes;
        }

        /** Answers every complete request frame received, as far as the send buffer holds, then writes. */
        private int answer() throws IOException
        {
            final int end = receiveBuffer.position();
            int offset = 0;
            int work = 0;
            while (end - offset >= REQUEST_FRAME_LENGTH && sendBuffer.remaining() >= ANSWER_FRAME_LENGTH)
            {
                if ((receive.getShort(offset, BYTE_ORDER) & 0xFFFF) != REQUEST_FRAME_LENGTH - 2 ||
                    receive.getByte(offset + 2) != UNSEQUENCED_DATA ||
                    receive.getByte(offset + HEADER_LENGTH) != Ouch42.ENTER_ORDER)
                {
                    throw new IOException("malformed request frame");
                }
                final int at = sendBuffer.position();
                send.setMemory(at, ANSWER_FRAME_LENGTH, (byte)0);
                send.putShort(at, (short)(ANSWER_FRAME_LENGTH - 2), BYTE_ORDER);
                send.putByte(at + 2, SEQUENCED_DATA);
                send.putByte(at + HEADER_LENGTH, Ouch42.ACCEPTED);
                send.putLong(at + COUNTER_OFFSET, receive.getLong(offset + COUNTER_OFFSET, BYTE_ORDER), BYTE_ORDER);
                sendBuffer.position(at + ANSWER_FRAME_LENGTH);
                offset += REQUEST_FRAME_LENGTH;
                work++;
            }
            if (offset > 0)
            {
                receiveBuffer.limit(end).position(offset);
                receiveBuffer.compact();
            }
            if (sendBuffer.position() > 0)
            {
                sendBuffer.flip();
                work += channel.write(sendBuffer);
                sendBuffer.compact();
            }
            return work;
        }
    }
}
