package io.bourse.common.net;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.SelectionKey;
import java.nio.channels.SocketChannel;

/**
 * The view of a client's non-blocking socket that nassau's SoupBinTCP server session writes through: every packet
 * (Sequenced Data, heartbeats, login answers, End of Session) is copied whole into the connection's own send buffer,
 * of fixed capacity, and does not reach the socket during the write; the owning agent (the order gateway's, a fanout
 * worker) moves what the socket accepts with {@link #flush()} once per duty cycle, or when the selector finds the
 * socket writable again. So no write ever waits on a client, and the packets of one duty cycle leave in one system
 * call. Only a packet that does not fit in what is left of the buffer first flushes what the socket takes now
 * (without waiting: a burst larger than the buffer within one duty cycle); if it still does not fit it is not written
 * at all, so that the bytes buffered stay whole packets, and the write throws a {@link SendBufferFullException}: the
 * client is behind by more than its socket's and this buffer's capacity, a slow consumer. Nothing is allocated per
 * packet.
 * <p>
 * Reads pass through into nassau's receive buffer, which may be several KiB so that one read takes every packet the
 * client has sent, with one check: the first packet whose Packet Length (SoupBinTCP 4.0 packet header) exceeds the
 * largest inbound packet the service accepts gets the length 0xFFFF, which nassau refuses ("Packet length exceeds
 * buffer capacity") when it reaches it, after handling the packets before it; so a too-long packet ends its session
 * as soon as its header arrives, as it would with a receive buffer sized to the largest packet. Options and closing
 * pass straight through; closing, or shutting the output down once everything is sent, returns the send buffer to its
 * {@link SendBufferPool}. Used only by the thread that owns the pool.
 */
public final class SessionSendChannel extends ForwardingSocketChannel
{
    /** SoupBinTCP 4.0 packet header: Packet Length (2 bytes, big-endian) and Packet Type. */
    public static final int PACKET_HEADER_LENGTH = 3;

    private static final short REFUSED_PACKET_LENGTH = (short)0xFFFF;

    private final SendBufferPool pool;
    private final int maxInboundPacketLength;
    private ByteBuffer buffer;
    private ByteBuffer drainView;
    private int start;
    private int end;
    /** End of the packet the socket has taken part of, or {@link #start} when it took whole packets only. */
    private int headPacketEnd;
    private boolean awaitingWritable;
    /** False once the client's input has ended: the selector no longer reports the socket readable. */
    private boolean reading = true;
    /** Bytes the socket has taken, by every flush (a packet that does not fit behind the buffered ones flushes too). */
    private long sentBytes;

    /**
     * @param delegate               the client's connected, non-blocking channel.
     * @param pool                   where the send buffer comes from and goes back to when this channel closes or
     *                               {@link #shutdownOutputWhenSent() shuts its output down}.
     * @param maxInboundPacketLength largest Packet Length accepted from the client: packet type and payload; a longer
     *                               packet ends the session as malformed.
     */
    public SessionSendChannel(final SocketChannel delegate, final SendBufferPool pool, final int maxInboundPacketLength)
    {
        super(delegate);
        this.pool = pool;
        this.maxInboundPacketLength = maxInboundPacketLength;
        this.buffer = pool.acquire();
        this.drainView = buffer.duplicate();
    }

    /**
     * Buffers one packet.
     *
     * @param src the packet; its position advances to its limit.
     * @return bytes buffered: all of them.
     * @throws SendBufferFullException when the packet does not fit, even once the socket took what it takes now;
     *                                 nothing is buffered.
     * @throws ClosedChannelException  when the channel is closed.
     * @throws IOException             when that socket write fails.
     */
    @Override
    public int write(final ByteBuffer src) throws IOException
    {
        final int length = src.remaining();
        reserve(length);
        append(src, length);
        return length;
    }

    /**
     * Buffers one packet gathered from several buffers (nassau's header and payload).
     *
     * @param srcs   buffers holding the packet; the position of each advances to its limit.
     * @param offset of the first buffer.
     * @param length number of buffers.
     * @return bytes buffered: all of them.
     * @throws SendBufferFullException when the packet does not fit, even once the socket took what it takes now;
     *                                 nothing is buffered.
     * @throws ClosedChannelException  when the channel is closed.
     * @throws IOException             when that socket write fails.
     */
    @Override
    public long write(final ByteBuffer[] srcs, final int offset, final int length) throws IOException
    {
        long total = 0;
        for (int i = offset, last = offset + length; i < last; i++)
        {
            total += srcs[i].remaining();
        }
        reserve(total);
        for (int i = offset, last = offset + length; i < last; i++)
        {
            append(srcs[i], srcs[i].remaining());
        }
        return total;
    }

    /**
     * Reads what the client sent into nassau's receive buffer, and marks the first packet longer than accepted so that
     * nassau refuses it.
     *
     * @param dst nassau's receive buffer: from index 0 to its position, the start of a packet nassau has not handled.
     * @return bytes read, or -1 at end of stream.
     * @throws IOException when the read fails.
     */
    @Override
    public int read(final ByteBuffer dst) throws IOException
    {
        final int bytes = delegate.read(dst);
        if (bytes > 0)
        {
            refuseTooLongPacket(dst, maxInboundPacketLength);
        }
        return bytes;
    }

    /**
     * Walks the SoupBinTCP 4.0 packet headers in a receive buffer and sets the Packet Length of the first packet
     * longer than accepted to 0xFFFF.
     *
     * @param buffer          packets from index 0 to the position, the last one possibly cut short.
     * @param maxPacketLength largest Packet Length accepted.
     */
    public static void refuseTooLongPacket(final ByteBuffer buffer, final int maxPacketLength)
    {
        final int end = buffer.position();
        int offset = 0;
        while (end - offset >= 2)
        {
            final int packetLength = ((buffer.get(offset) & 0xFF) << 8) | (buffer.get(offset + 1) & 0xFF);
            if (packetLength > maxPacketLength)
            {
                buffer.putShort(offset, REFUSED_PACKET_LENGTH);
                return;
            }
            offset += 2 + packetLength;
        }
    }

    /**
     * Writes what the socket accepts of the buffered bytes, without waiting.
     *
     * @return bytes written, possibly zero.
     * @throws IOException when the socket write fails.
     */
    public int flush() throws IOException
    {
        if (start == end)
        {
            return 0;
        }
        drainView.limit(end).position(start);
        final int written = delegate.write(drainView);
        start += written;
        sentBytes += written;
        if (start == end)
        {
            start = 0;
            end = 0;
            headPacketEnd = 0;
        }
        else
        {
            while (headPacketEnd < start)
            {
                headPacketEnd += Short.BYTES + (buffer.getShort(headPacketEnd) & 0xFFFF);
            }
        }
        return written;
    }

    /**
     * Drops the whole packets that the socket has not begun to take, keeping the rest of one it has taken part of, so
     * that the stream stays whole packets and a last packet (End of Session to a slow consumer, in the fanout) fits and
     * goes next.
     *
     * @return bytes dropped.
     */
    public int discardUnsent()
    {
        final int dropped = end - headPacketEnd;
        end = headPacketEnd;
        if (start == end)
        {
            start = 0;
            end = 0;
            headPacketEnd = 0;
        }
        return dropped;
    }

    /**
     * {@link #flush()}, then has the selector report the socket writable exactly while bytes are left: the key's
     * interest is {@code OP_READ | OP_WRITE} while the socket has not taken everything, {@code OP_READ} once it has
     * (without {@code OP_READ} once {@link #inputEnded(SelectionKey) the input has ended}).
     *
     * @param selectionKey the connection's key on its selector.
     * @return bytes written, possibly zero.
     * @throws IOException when the socket write fails.
     */
    public int flush(final SelectionKey selectionKey) throws IOException
    {
        final int written = flush();
        final boolean bytesLeft = end > start;
        if (bytesLeft != awaitingWritable)
        {
            awaitingWritable = bytesLeft;
            selectionKey.interestOps(interestOps());
        }
        return written;
    }

    /**
     * The client has shut its output down (a read returned end of stream) but may still read: the selector stops
     * reporting the socket readable, which it would otherwise do at every select from now on, and reports it writable
     * while bytes are left ({@link #flush(SelectionKey)}), so that the rest of the stream can still be sent.
     *
     * @param selectionKey the connection's key on its selector.
     */
    public void inputEnded(final SelectionKey selectionKey)
    {
        reading = false;
        selectionKey.interestOps(interestOps());
    }

    private int interestOps()
    {
        return (reading ? SelectionKey.OP_READ : 0) | (awaitingWritable ? SelectionKey.OP_WRITE : 0);
    }

    /**
     * The end of a connection: once the socket has taken every buffered byte, shuts its output down (TCP FIN after the
     * data) and gives the send buffer back to its pool, so a closed connection that lingers for the client to read the
     * rest holds no buffer; writes then fail with {@link ClosedChannelException}.
     *
     * @return true once the output is shut down, now or before; false while bytes are left to flush.
     * @throws IOException when the shutdown fails.
     */
    public boolean shutdownOutputWhenSent() throws IOException
    {
        if (null == buffer)
        {
            return true;
        }
        if (start != end)
        {
            return false;
        }
        delegate.shutdownOutput();
        releaseBuffer();
        return true;
    }

    /**
     * Reads and drops what the client still sends to a connection that is ending: closing a socket with unread input
     * resets the connection (Linux sends RST), and the client can lose data it has not read yet, End of Session
     * included.
     *
     * @param scratch  where the input is read, then dropped; its content is overwritten.
     * @param maxReads most reads, so that a client that keeps sending costs a bounded time.
     * @return bytes dropped, possibly zero; -1 once the client has closed its end (end of stream).
     * @throws IOException when the read fails.
     */
    public int discardInput(final ByteBuffer scratch, final int maxReads) throws IOException
    {
        int dropped = 0;
        for (int i = 0; i < maxReads; i++)
        {
            final int read = delegate.read(scratch.clear());
            if (read < 0)
            {
                return -1;
            }
            if (0 == read)
            {
                break;
            }
            dropped += read;
        }
        return dropped;
    }

    /** @return true while {@link #flush(SelectionKey)} has the selector watch for the socket to take more. */
    public boolean isAwaitingWritable()
    {
        return awaitingWritable;
    }

    /** @return bytes the socket has taken since the channel opened. */
    public long sentBytes()
    {
        return sentBytes;
    }

    /** @return bytes buffered that the socket has not taken yet. */
    public int pendingBytes()
    {
        return end - start;
    }

    /** @return bytes the buffer can take now; 0 once closed or once the output is shut down. */
    public int remaining()
    {
        return null == buffer ? 0 : buffer.capacity() - pendingBytes();
    }

    @Override
    protected void implCloseSelectableChannel() throws IOException
    {
        try
        {
            super.implCloseSelectableChannel();
        }
        finally
        {
            if (null != buffer)
            {
                releaseBuffer();
            }
        }
    }

    private void releaseBuffer()
    {
        pool.release(buffer);
        buffer = null;
        drainView = null;
    }

    private void reserve(final long length) throws IOException
    {
        if (null == buffer)
        {
            throw new ClosedChannelException();
        }
        final int capacity = buffer.capacity();
        if (length > capacity - pendingBytes())
        {
            // A burst larger than the buffer within one duty cycle: the socket may take some of it now. Only a client
            // whose socket takes too little of it is behind by more than the buffer.
            flush();
            if (length > capacity - pendingBytes())
            {
                throw new SendBufferFullException(capacity, pendingBytes(), length);
            }
        }
        if (length > capacity - end)
        {
            buffer.limit(end).position(start);
            buffer.compact();
            end -= start;
            headPacketEnd -= start;
            start = 0;
        }
    }

    private void append(final ByteBuffer src, final int length)
    {
        buffer.put(end, src, src.position(), length);
        src.position(src.limit());
        end += length;
    }
}
