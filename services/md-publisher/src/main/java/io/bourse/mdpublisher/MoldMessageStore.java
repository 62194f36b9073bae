package io.bourse.mdpublisher;

import com.paritytrading.nassau.moldudp64.MoldUDP64MessageStore;
import org.agrona.BufferUtil;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;

/**
 * The messages of one MoldUDP64 session, numbered from 1 in the order appended, of which the last {@code capacity}
 * are kept in memory to answer Request Packets (MoldUDP64 Protocol Specification 1.00, Request Packet). Fixed-length
 * slots, one per sequence number modulo the capacity, preallocated off-heap: appending and answering allocate
 * nothing. A slot holds the message as a MoldUDP64 Message Block, which a response copies as is:
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +-------------------------------+-------------------------------+
 *  |  Message Length (big-endian)  |  Message Data                ...
 *  +-------------------------------+                               |
 *  ...                    up to maxMessageLength bytes             |
 *  +---------------------------------------------------------------+
 * </pre>
 * With a {@link MoldSessionFile}, every message also goes to disk, and a request older than the memory holds is
 * answered from the file: the whole session, as far as the file's size limit took it. A request whose first sequence
 * number is not kept (older than the last {@code capacity} messages and not in a file) or not yet sent gets no
 * messages, since the response to a request must start at the requested sequence number and MoldUDP64 has no negative
 * response; a request that runs past the last message sent gets the messages up to it. A file that fails to be
 * written or read is counted as an error ({@code bourse_md_mold_errors_total}), logged, closed and no longer used (a
 * read on the {@link MoldFileAnswers}' thread that fails is counted there, and the file closed at the next append).
 * One thread appends and answers; the file's requests can be answered on another ({@link #sessionFile}).
 */
final class MoldMessageStore implements MoldUDP64MessageStore, AutoCloseable
{
    /** Length of the Message Length field of a Message Block. */
    static final int MESSAGE_LENGTH_FIELD_LENGTH = Short.BYTES;

    private final UnsafeBuffer slots;
    private final int capacity;
    private final int maxMessageLength;
    private final int slotLength;
    private final int maxPayloadLength;
    private final MoldMetrics metrics;
    private MoldSessionFile sessionFile;
    private boolean sessionFileFull;
    private long nextSequenceNumber = 1;
    private boolean closed;
    private int nextSlotOffset;

    /**
     * A store in memory only.
     *
     * @param capacity         most messages kept, the newest ones.
     * @param maxMessageLength longest message appended, in bytes.
     * @param maxPayloadLength most bytes of Message Blocks in one response.
     * @throws IllegalArgumentException when the slots would not fit in 2 GiB or a length is not positive.
     */
    MoldMessageStore(final int capacity, final int maxMessageLength, final int maxPayloadLength)
    {
        this(capacity, maxMessageLength, maxPayloadLength, null, null);
    }

    /**
     * @param capacity         most messages kept in memory, the newest ones.
     * @param maxMessageLength longest message appended, in bytes.
     * @param maxPayloadLength most bytes of Message Blocks in one response.
     * @param sessionFile      every message of the session on disk, empty; or null for none. Closed with the store.
     * @param metrics          counts the file's failures; may be null without a file.
     * @throws IllegalArgumentException when the slots would not fit in 2 GiB or a length is not positive.
     */
    MoldMessageStore(
        final int capacity,
        final int maxMessageLength,
        final int maxPayloadLength,
        final MoldSessionFile sessionFile,
        final MoldMetrics metrics)
    {
        this.sessionFile = sessionFile;
        this.metrics = metrics;
        if (capacity <= 0 || maxMessageLength <= 0 || maxPayloadLength <= 0)
        {
            throw new IllegalArgumentException("capacity, maxMessageLength and maxPayloadLength must be positive: " +
                capacity + ", " + maxMessageLength + ", " + maxPayloadLength);
        }
        this.slotLength = MESSAGE_LENGTH_FIELD_LENGTH + maxMessageLength;
        if (capacity > maxCapacity(maxMessageLength))
        {
            throw new IllegalArgumentException(
                "capacity " + capacity + " exceeds " + maxCapacity(maxMessageLength) + " messages");
        }
        this.capacity = capacity;
        this.maxMessageLength = maxMessageLength;
        this.maxPayloadLength = maxPayloadLength;
        this.slots = new UnsafeBuffer(ByteBuffer.allocateDirect(capacity * slotLength));
    }

    /**
     * @param maxMessageLength longest message appended, in bytes.
     * @return the most messages a store can keep with that message length (its slots fit in 2 GiB).
     */
    static int maxCapacity(final int maxMessageLength)
    {
        return Integer.MAX_VALUE / (MESSAGE_LENGTH_FIELD_LENGTH + maxMessageLength);
    }

    /**
     * Appends a message under the next sequence number, overwriting the oldest one kept when full.
     *
     * @param message the message between its position and limit, which are left unchanged.
     * @return the message's sequence number.
     * @throws IllegalArgumentException when the message is empty or longer than {@code maxMessageLength}.
     * @throws IllegalStateException    once the store is closed (its memory freed).
     */
    long append(final ByteBuffer message)
    {
        if (closed)
        {
            throw new IllegalStateException("MoldUDP64 store closed");
        }
        final int length = message.remaining();
        if (length <= 0 || length > maxMessageLength)
        {
            throw new IllegalArgumentException("message length must be 1.." + maxMessageLength + ": " + length);
        }
        slots.putShort(nextSlotOffset, (short)length, ByteOrder.BIG_ENDIAN);
        slots.putBytes(nextSlotOffset + MESSAGE_LENGTH_FIELD_LENGTH, message, message.position(), length);
        nextSlotOffset += slotLength;
        if (nextSlotOffset == capacity * slotLength)
        {
            nextSlotOffset = 0;
        }
        if (null != sessionFile && sessionFile.failed())
        {
            closeSessionFile(); // its read failed on the file answers' thread, counted and logged there
        }
        if (null != sessionFile && !sessionFileFull)
        {
            try
            {
                if (!sessionFile.append(message))
                {
                    sessionFileFull = true;
                    System.out.println("[md-publisher] MoldUDP64 session file " + sessionFile.path() + " full after " +
                        sessionFile.messageCount() + " messages: later ones only in memory, the newest " + capacity);
                }
            }
            catch (final IOException ex)
            {
                dropSessionFile(ex);
            }
        }
        return nextSequenceNumber++;
    }

    /** @return the sequence number the next message appended will get; 1 for an empty store. */
    long nextSequenceNumber()
    {
        return nextSequenceNumber;
    }

    /** @return the sequence number of the oldest message kept; {@link #nextSequenceNumber()} when empty. */
    long firstSequenceNumber()
    {
        return Math.max(1, nextSequenceNumber - capacity);
    }

    /**
     * @param sequenceNumber of a message.
     * @return whether a request from it is answered from the session file: it is older than the memory keeps, and in
     *         the file (blocking file I/O, a disk access when the page cache no longer holds it).
     */
    boolean isAnsweredFromFile(final long sequenceNumber)
    {
        return !closed && sequenceNumber < firstSequenceNumber() && sequenceNumber >= 1 && null != sessionFile &&
            !sessionFile.failed() && sequenceNumber <= sessionFile.messageCount();
    }

    /**
     * Makes a request answered from the session file ({@link #isAnsweredFromFile}) readable on another thread: writes
     * out the file's buffered messages it asks for.
     *
     * @param sequenceNumber        of the first message requested.
     * @param requestedMessageCount most messages wanted.
     * @return the file, for its {@link MoldSessionFile#answerReader()}; null when it failed to be written (counted,
     *         logged and dropped).
     */
    MoldSessionFile sessionFile(final long sequenceNumber, final int requestedMessageCount)
    {
        try
        {
            sessionFile.writeThrough(lastAnswered(sequenceNumber, requestedMessageCount));
            return sessionFile;
        }
        catch (final IOException ex)
        {
            dropSessionFile(ex);
            return null;
        }
    }

    /**
     * Writes the Message Blocks of the messages from a sequence number on: as many as requested, kept, sent and
     * fitting both the buffer and the most bytes of one response.
     *
     * @param buffer                receives the Message Blocks at its position, which advances.
     * @param sequenceNumber        of the first message requested.
     * @param requestedMessageCount most messages wanted.
     * @return the number of messages written; 0 when the first one is not kept or not yet sent, or the store is closed.
     */
    @Override
    public int get(final ByteBuffer buffer, final long sequenceNumber, final int requestedMessageCount)
    {
        if (closed)
        {
            return 0;
        }
        final int limit = Math.min(buffer.remaining(), maxPayloadLength);
        if (isAnsweredFromFile(sequenceNumber))
        {
            try
            {
                sessionFile.writeThrough(lastAnswered(sequenceNumber, requestedMessageCount));
                return sessionFile.appenderReader().get(buffer, sequenceNumber, requestedMessageCount, limit);
            }
            catch (final IOException ex)
            {
                dropSessionFile(ex);
                return 0;
            }
        }
        if (sequenceNumber < firstSequenceNumber() || sequenceNumber >= nextSequenceNumber)
        {
            return 0;
        }
        final long end = Math.min(nextSequenceNumber, sequenceNumber + requestedMessageCount);
        int written = 0;
        int count = 0;
        for (long next = sequenceNumber; next < end; next++)
        {
            final int offset = (int)((next - 1) % capacity) * slotLength;
            final int messageLength = slots.getShort(offset, ByteOrder.BIG_ENDIAN) & 0xFFFF;
            final int blockLength = MESSAGE_LENGTH_FIELD_LENGTH + messageLength;
            if (written + blockLength > limit)
            {
                break;
            }
            slots.getBytes(offset, buffer, buffer.position() + written, blockLength);
            written += blockLength;
            count++;
        }
        buffer.position(buffer.position() + written);
        return count;
    }

    /**
     * @return the last message a response from a sequence number can hold: as many as requested, and at most as many
     *         of the shortest (1 byte) as fit in {@code maxPayloadLength}, so that a request for up to 65,535 messages
     *         writes out no more of the file than one response can need.
     */
    private long lastAnswered(final long sequenceNumber, final int requestedMessageCount)
    {
        return sequenceNumber - 1 +
            Math.min(requestedMessageCount, maxPayloadLength / (MESSAGE_LENGTH_FIELD_LENGTH + 1));
    }

    /**
     * @return the session file's path; null without one, or once it failed (a read that failed on the file answers'
     *         thread: once the next message is appended).
     */
    Path sessionFilePath()
    {
        return null == sessionFile ? null : sessionFile.path();
    }

    /**
     * Closes and deletes the session file, if any, and frees the memory's slots at once (not at a garbage collection):
     * a run opens a store per session, one a day. Nothing may be appended or asked for after; closing again does
     * nothing.
     */
    @Override
    public void close()
    {
        closeSessionFile();
        if (!closed)
        {
            closed = true;
            BufferUtil.free(slots.byteBuffer());
        }
    }

    private void closeSessionFile()
    {
        if (null != sessionFile)
        {
            try
            {
                sessionFile.close();
            }
            catch (final IOException ex)
            {
                System.err.println("[md-publisher] MoldUDP64 session file " + sessionFile.path() + ": " + ex);
            }
            sessionFile = null;
        }
    }

    private void dropSessionFile(final IOException ex)
    {
        metrics.onError();
        System.err.println("[md-publisher] MoldUDP64 session file " + sessionFile.path() + " failed, no longer used: " +
            "requests older than the newest " + capacity + " messages go unanswered: " + ex);
        closeSessionFile();
    }
}
