package io.bourse.fanout;

import io.bourse.itch.ItchTranslator;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteBuffer;

/**
 * The newest N ITCH 5.0 messages of the fanout, each under its fanout sequence number: the dispatcher numbers every
 * ITCH message it publishes 1, 2, 3, ... (all symbols, in stream order; from 1 again each trading day) and keeps the
 * last N here, in fixed slots of one preallocated buffer, for logins that request a sequence number (SoupBinTCP 4.0
 * Login Request, Requested Sequence Number) and for the catch-up after a snapshot. Single-threaded: the dispatcher's.
 */
final class ReplayRing
{
    private static final int LENGTH_OFFSET = 0;
    private static final int MESSAGE_OFFSET = Integer.BYTES;
    private static final int SLOT_LENGTH = MESSAGE_OFFSET + ItchTranslator.MAX_LENGTH;
    /** Most messages one ring keeps: its fixed slots are one buffer, of at most {@link Integer#MAX_VALUE} bytes. */
    static final int MAX_CAPACITY = Integer.MAX_VALUE / SLOT_LENGTH;

    private final int capacity;
    private final UnsafeBuffer slots;
    private long nextSequence = 1;
    /** No message before this one is served: the stream before it is not the one after. */
    private long firstServed = 1;
    /** No replay starts before this number: after a gap at G, G + 1. */
    private long firstReplayable = 1;

    /**
     * @param capacity number of newest messages kept, 1 to {@link #MAX_CAPACITY}.
     */
    ReplayRing(final int capacity)
    {
        this.capacity = capacity;
        this.slots = new UnsafeBuffer(ByteBuffer.allocateDirect(capacity * SLOT_LENGTH));
    }

    /**
     * Keeps one message under the next sequence number, overwriting the oldest when full.
     *
     * @param buffer holds the ITCH message.
     * @param offset of its first byte.
     * @param length in bytes, at most {@link ItchTranslator#MAX_LENGTH}.
     * @return its fanout sequence number.
     */
    long append(final DirectBuffer buffer, final int offset, final int length)
    {
        final int slot = slotOffset(nextSequence);
        slots.putInt(slot + LENGTH_OFFSET, length);
        slots.putBytes(slot + MESSAGE_OFFSET, buffer, offset, length);
        return nextSequence++;
    }

    /** @return the fanout sequence number the next message will get. */
    long nextSequence()
    {
        return nextSequence;
    }

    /** @return the oldest sequence number still kept (equal to {@link #nextSequence()} when none is). */
    long oldestSequence()
    {
        return Math.max(firstServed, nextSequence - capacity);
    }

    /**
     * Stops serving the messages kept so far, after a gap in the market data: a replay from one of them would run
     * into messages that do not follow them. The sequence numbers go on.
     */
    void cutAtGap()
    {
        firstServed = nextSequence;
        firstReplayable = nextSequence + 1;
    }

    /**
     * Starts a new trading day's stream, numbered from 1 again: none of the messages kept so far is served, since their
     * numbers are the ended day's.
     */
    void startDay()
    {
        nextSequence = 1;
        firstServed = 1;
        firstReplayable = 1;
    }

    /**
     * @return the lowest Requested Sequence Number a replay can start from: {@link #oldestSequence()}, but after a
     *         cut at a gap at sequence number G not G itself, which a session asks for that has everything up to the
     *         gap and not what the gap lost.
     */
    long oldestReplayable()
    {
        return Math.max(oldestSequence(), firstReplayable);
    }

    /**
     * @param sequence a fanout sequence number.
     * @return true when that message is still kept.
     */
    boolean contains(final long sequence)
    {
        return sequence >= oldestSequence() && sequence < nextSequence;
    }

    /** @return the buffer holding the messages, for {@link #messageOffset} and {@link #messageLength}. */
    DirectBuffer buffer()
    {
        return slots;
    }

    /**
     * @param sequence a sequence number {@link #contains} holds.
     * @return offset of that message in {@link #buffer()}.
     */
    int messageOffset(final long sequence)
    {
        return slotOffset(sequence) + MESSAGE_OFFSET;
    }

    /**
     * @param sequence a sequence number {@link #contains} holds.
     * @return length of that message in bytes.
     */
    int messageLength(final long sequence)
    {
        return slots.getInt(slotOffset(sequence) + LENGTH_OFFSET);
    }

    private int slotOffset(final long sequence)
    {
        return (int)((sequence - 1) % capacity) * SLOT_LENGTH;
    }
}
