package io.bourse.gateway;

import org.agrona.ExpandableDirectByteBuffer;
import org.agrona.MutableDirectBuffer;

import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * The Sequenced Data messages one SoupBinTCP session has produced today, in order, so that a client logging in again
 * with a Requested Sequence Number gets exactly the messages from there on (SoupBinTCP 4.0 Login Request). Messages
 * are encoded in place: {@link #claim} space, write it, {@link #commit}. Sequence numbers start at 1. Held in memory
 * only (up to 2 GiB per session); the store grows by doubling, the only allocation on its path.
 */
final class MessageStore
{
    private final ExpandableDirectByteBuffer buffer;
    private ByteBuffer view;
    private int[] ends = new int[1024];
    private int count;
    private int limit;

    /**
     * @param initialCapacity bytes to reserve up front.
     */
    MessageStore(final int initialCapacity)
    {
        buffer = new ExpandableDirectByteBuffer(initialCapacity);
        view = buffer.byteBuffer().duplicate();
    }

    /**
     * Reserves space for the next message.
     *
     * @param length of the message in bytes.
     * @return offset in {@link #buffer()} to encode the message at.
     * @throws IllegalStateException when the store would pass 2 GiB.
     */
    int claim(final int length)
    {
        if (limit + length < 0)
        {
            throw new IllegalStateException("message store full: " + limit + " bytes");
        }
        buffer.checkLimit(limit + length);
        return limit;
    }

    /**
     * Appends the message encoded at the last claimed offset.
     *
     * @param length of the message; at most the claimed length.
     * @return its sequence number.
     */
    long commit(final int length)
    {
        if (count == ends.length)
        {
            ends = Arrays.copyOf(ends, count * 2);
        }
        limit += length;
        ends[count++] = limit;
        return count;
    }

    /** @return buffer the messages are encoded in; valid until the next {@link #claim}. */
    MutableDirectBuffer buffer()
    {
        return buffer;
    }

    /** @return number of messages; also the sequence number of the last one. */
    long count()
    {
        return count;
    }

    /**
     * @param sequenceNumber 1..{@link #count()}.
     * @return offset of that message in {@link #buffer()}.
     */
    int offset(final long sequenceNumber)
    {
        return sequenceNumber == 1 ? 0 : ends[(int)sequenceNumber - 2];
    }

    /**
     * @param sequenceNumber 1..{@link #count()}.
     * @return length of that message in bytes.
     */
    int length(final long sequenceNumber)
    {
        return ends[(int)sequenceNumber - 1] - offset(sequenceNumber);
    }

    /**
     * @param sequenceNumber 1..{@link #count()}.
     * @return a view of that message, position to limit; the same view object is reused by the next call.
     */
    ByteBuffer message(final long sequenceNumber)
    {
        final ByteBuffer byteBuffer = buffer.byteBuffer();
        if (view.capacity() != byteBuffer.capacity())
        {
            view = byteBuffer.duplicate();
        }
        final int offset = offset(sequenceNumber);
        view.limit(offset + length(sequenceNumber)).position(offset);
        return view;
    }
}
