package io.bourse.common.net;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.util.concurrent.TimeUnit;

/**
 * The view of a connected, non-blocking {@link SocketChannel} that nassau writes through, in which a send cannot spin
 * without bound. nassau's SoupBinTCP sessions write each packet whole, calling {@code write} until every byte is out;
 * against a peer that stops reading, that loop would spin forever on the sending thread and stall every other session
 * the thread serves. Through this view, once a write leaves part of a packet behind, the rest of the packet must be
 * out within the send timeout or the write throws an {@link IOException}, so that the caller closes the one slow
 * session. Reads, options and closing pass straight through ({@link ForwardingSocketChannel}). Not thread-safe: one
 * sending thread per channel, as nassau has.
 */
public final class BoundedSendChannel extends ForwardingSocketChannel
{
    private final long sendTimeoutNs;
    private final String peerRole;
    private boolean stalled;
    private long stalledSinceNs;

    /**
     * @param delegate      a connected, non-blocking channel.
     * @param sendTimeoutNs longest time a packet may stay partly written, in nanoseconds.
     * @param peerRole      what the peer is, e.g. "client" or "subscriber", for the exception message.
     */
    public BoundedSendChannel(final SocketChannel delegate, final long sendTimeoutNs, final String peerRole)
    {
        super(delegate);
        this.sendTimeoutNs = sendTimeoutNs;
        this.peerRole = peerRole;
    }

    /**
     * Writes what the socket takes of the packet.
     *
     * @param src the packet, or what is left of it.
     * @return bytes written, possibly zero.
     * @throws IOException when the wrapped write fails, or when the packet has been partly written for longer than
     *                     the send timeout.
     */
    @Override
    public int write(final ByteBuffer src) throws IOException
    {
        final int written = delegate.write(src);
        checkProgress(src.hasRemaining());
        return written;
    }

    /**
     * Writes what the socket takes of a packet gathered from several buffers (nassau's header and payload).
     *
     * @param srcs   buffers holding the packet.
     * @param offset of the first buffer to write.
     * @param length number of buffers to write.
     * @return bytes written, possibly zero.
     * @throws IOException when the wrapped write fails, or when the packet has been partly written for longer than
     *                     the send timeout.
     */
    @Override
    public long write(final ByteBuffer[] srcs, final int offset, final int length) throws IOException
    {
        final long written = delegate.write(srcs, offset, length);
        checkProgress(hasRemaining(srcs, offset, length));
        return written;
    }

    private static boolean hasRemaining(final ByteBuffer[] srcs, final int offset, final int length)
    {
        for (int i = offset, end = offset + length; i < end; i++)
        {
            if (srcs[i].hasRemaining())
            {
                return true;
            }
        }
        return false;
    }

    private void checkProgress(final boolean bytesLeft) throws IOException
    {
        if (!bytesLeft)
        {
            stalled = false;
            return;
        }
        final long nowNs = System.nanoTime();
        if (!stalled)
        {
            stalled = true;
            stalledSinceNs = nowNs;
        }
        else if (nowNs - stalledSinceNs > sendTimeoutNs)
        {
            throw new IOException(peerRole + " not reading: packet not sent within " +
                TimeUnit.NANOSECONDS.toMillis(sendTimeoutNs) + " ms");
        }
        // The caller is about to write again at once: tell the CPU this is a spin.
        Thread.onSpinWait();
    }
}
