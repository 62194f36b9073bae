package io.bourse.gateway;

import org.agrona.CloseHelper;
import org.agrona.DirectBuffer;
import org.agrona.IoUtil;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicLong;
import java.util.zip.CRC32C;

/**
 * One user's SoupBinTCP session journal: the Sequenced Data messages (OUCH 4.2 message bytes) the session produced, in
 * sequence number order from 1, appended to one file, so that a client logging in again with a Requested Sequence
 * Number gets exactly the messages from there on (SoupBinTCP 4.0 Login Request), also after a gateway restart. Between
 * them the file holds gateway-private records ({@link OrderRecords}: what the gateway needs beyond the OUCH messages to
 * rebuild the session's orders after a restart), which take no sequence number and are never sent to a client. Messages
 * are encoded in place: {@link #claim} space in {@link #buffer()}, write the message, {@link #commit} it (or {@link
 * #commitPrivate} a private record), which appends the record to a batch in memory; {@link #sync()} writes the batch to
 * the file and only then counts its messages durable. The write is a copy into a memory-mapped window of the file
 * ({@value #WINDOW_LENGTH} bytes, mapped at a multiple of its length), so that it reaches the page cache, where it
 * survives a crash of the process, without a system call; a force only under {@link JournalSync#BATCH}. The file is
 * filled with zeros ahead of the writes by positioned writes of {@value #ZERO_FILL_LENGTH} bytes, which allocates its
 * disk space: a full disk then fails a write call, which {@link #isFailed() fails} the journal, and never a store into
 * the mapping, which would fault. The zeros are written by a {@link JournalPretoucher}'s thread ahead of need, where
 * there is one ({@link #pretouch}), else by the appending thread when a batch reaches past them (one system call per
 * that many bytes of records); a claim on each stretch lets only one thread fill it, and the appending thread stores
 * only below the zeros' published end. A batch of private records only is copied into the mapping by {@link #sync()}
 * but not forced: a crash of the process leaves it in the file (an order's Order Sent record, whose command the engine
 * may have taken: before stop 56 it waited for the next message, and a crash in between left the order in the engine
 * unknown to the restarted gateway), and the next message's force makes it durable, as the state it describes reaches a
 * client only through a later message. A batch that fills the buffer ({@value #BATCH_LENGTH} bytes) is written when the
 * next record is claimed, unless its user writes it first ({@link #writeBatch()}, where its records say which engine
 * events they answer). Nothing on the append path allocates but a new window every {@value #WINDOW_LENGTH} bytes and
 * the index pages below. Once the journal has written, the file is longer than its records while it is open (to the end
 * of the mapped window, or of the zero fill past it); {@link #close()} cuts it back to them. The file is locked while
 * open ({@link FileChannel#tryLock()}), so that no other process opens it and cuts its zero-filled tail under the
 * mapping. Used by one thread, but for {@link #pretouch}, which the pretoucher's thread calls.
 * <pre>
 *   File header, 16 bytes, little-endian:
 *    0                   1                   2                   3
 *    0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *   +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *   |                       Magic "BJNL"                            |
 *   +---------------------------------------------------------------+
 *   |                       Version (2)                             |
 *   +---------------------------------------------------------------+
 *   |   Session Index (prefix of the session's clientOrderIds)      |
 *   +---------------------------------------------------------------+
 *   |                       Reserved (0)                            |
 *   +---------------------------------------------------------------+
 *   Then one record per message or private record, in the order appended:
 *   +-+-------------------------------------------------------------+
 *   |P|             Payload Length (1..MAX_MESSAGE_LENGTH)          |
 *   +-+-------------------------------------------------------------+
 *   |     CRC-32C of the payload (bitwise inverted when P is set)   |
 *   +---------------------------------------------------------------+
 *   |      Payload (the OUCH message, or a private record)        ...
 *   +---------------------------------------------------------------+
 *   P (bit 31 of the length word): 1 for a gateway-private record, 0 for a sequenced message.
 * </pre>
 * The inverted checksum of a private record makes a flipped P bit fail the check like any other corruption. Version 1
 * files (no private records) are read as they are and their header is moved to version 2, so that a gateway of the
 * previous version refuses the file instead of cutting it at the first private record.
 * <p>
 * Two indexes in memory from sequence number to file position, rebuilt by scanning the file when it is opened, let a
 * replay start reading at any sequence number: the positions of the last {@value #RECENT_CAPACITY} messages, in a ring
 * (the messages a live session sends, a lookup each), and the position of every {@value #SPARSE_INTERVAL}th message of
 * the day (in pages of 1,024 positions held off the Java heap, in direct memory, so that the day's index is never
 * copied by a young garbage collection: a new page every 65,536 messages is the only allocation on the append path, and
 * nothing is copied to grow but the small directory of pages). An older message is found by reading forward from the
 * entry before it, over at most 63 messages and the private records between, or over none when it follows the last one
 * found (a replay in sequence): 8 bytes per {@value #SPARSE_INTERVAL} messages for the day, where a position per
 * message took 8 bytes each (0.4 GB a day at 200 orders a second). Replays read the file in chunks through a small
 * cache, and {@link #read} hands every record, private ones included, to a handler. When the file is opened, the first
 * record that is cut short or fails its checksum (a write torn by a crash) and everything after it are truncated; so
 * is a file whose header is short or all zeros (created just before a crash). A record whose length word is zero is
 * the zero-filled space a crash left after the last record: cut too, but not counted as torn
 * ({@link #truncatedBytes()}).
 */
final class SessionJournal implements AutoCloseable
{
    /** Length of the file header. */
    static final int FILE_HEADER_LENGTH = 16;
    /** Length of a record's header: payload length and checksum. */
    static final int RECORD_HEADER_LENGTH = 8;
    /** Largest message: every OUCH 4.2 outbound message is far shorter. */
    static final int MAX_MESSAGE_LENGTH = 1024;
    /** "BJNL" read as a little-endian int. */
    static final int MAGIC = 'B' | 'J' << 8 | 'N' << 16 | 'L' << 24;
    /** Version of the layout written: with private records. */
    static final int VERSION = 2;
    /** Version of the layout before private records; read, and moved to {@link #VERSION} when opened. */
    static final int VERSION_WITHOUT_PRIVATE_RECORDS = 1;
    /** Bit of a record's length word set for a gateway-private record. */
    static final int PRIVATE_FLAG = 0x8000_0000;
    /** Bytes of records a batch holds before it is written without waiting for {@link #sync()}. */
    static final int BATCH_LENGTH = 16 * 1024;
    /** Bytes of the file mapped at once; windows start at multiples of it. */
    static final int WINDOW_LENGTH = 16 * 1024 * 1024;
    /** Bytes of zeros written ahead of the records at a time, to allocate the file's disk space. */
    static final int ZERO_FILL_LENGTH = 64 * 1024;

    /** Messages whose positions the ring of recent ones holds: the last ones. */
    static final int RECENT_CAPACITY = 1024;
    /** One message in this many has its position in the sparse index: the first, and every one this many after. */
    static final int SPARSE_INTERVAL = 64;

    private static final int RECENT_MASK = RECENT_CAPACITY - 1;
    private static final int SPARSE_SHIFT = Integer.numberOfTrailingZeros(SPARSE_INTERVAL);
    private static final int SPARSE_MASK = SPARSE_INTERVAL - 1;
    private static final int POSITIONS_PAGE_SHIFT = 10;
    private static final int POSITIONS_PAGE_CAPACITY = 1 << POSITIONS_PAGE_SHIFT;
    private static final int POSITIONS_PAGE_MASK = POSITIONS_PAGE_CAPACITY - 1;
    private static final ByteOrder ORDER = ByteOrder.LITTLE_ENDIAN;
    private static final int MAGIC_OFFSET = 0;
    private static final int VERSION_OFFSET = 4;
    private static final int SESSION_INDEX_OFFSET = 8;
    /** {@link #headerVersion} of a file with no header yet. */
    private static final int NO_HEADER = 0;
    /** {@link #headerVersion} of a file whose header is not a session journal's. */
    private static final int FOREIGN_HEADER = -1;
    private static final int LENGTH_OFFSET = 0;
    private static final int CHECKSUM_OFFSET = 4;
    private static final int READ_CACHE_LENGTH = 16 * 1024;
    private static final int LENGTH_MASK = ~PRIVATE_FLAG;
    /** Zeros, never written to: every journal writes them from a view of its own. */
    private static final ByteBuffer ZEROS = ByteBuffer.allocateDirect(ZERO_FILL_LENGTH);
    /** {@link #fillClaim} of a closed journal: equal to no fill end, so no fill starts. */
    private static final long CLOSED = -1;

    /** Receives the records of a journal in the order they were appended ({@link #read}). */
    interface RecordHandler
    {
        /**
         * A sequenced message: OUCH 4.2 message bytes as sent to the client.
         *
         * @param buffer holding the message, valid during the call only.
         * @param offset of its first byte.
         * @param length of the message.
         * @throws IOException when the handler cannot take it; {@link #read} stops.
         */
        void onMessage(DirectBuffer buffer, int offset, int length) throws IOException;

        /**
         * A gateway-private record ({@link OrderRecords}).
         *
         * @param buffer holding the record, valid during the call only.
         * @param offset of its first byte.
         * @param length of the record.
         * @throws IOException when the handler cannot take it; {@link #read} stops.
         */
        void onPrivateRecord(DirectBuffer buffer, int offset, int length) throws IOException;
    }

    private final Path file;
    private final FileChannel channel;
    private final JournalSync sync;
    private final UnsafeBuffer writeBuffer;
    private final ByteBuffer writeView;
    private final ByteBuffer batchMessageView;
    private final ByteBuffer readBuffer;
    private final UnsafeBuffer readCache;
    private final ByteBuffer readView;
    private final ByteBuffer headerBuffer;
    private final ByteBuffer zeros = ZEROS.duplicate();
    /** End of the stretch of the file claimed for filling with zeros; {@link #CLOSED} once no fill may start. */
    private final AtomicLong fillClaim = new AtomicLong();
    /** End of the records written to the file; also read by the pretoucher's thread. */
    private final AtomicLong writtenEnd = new AtomicLong();
    private final UnsafeBuffer window = new UnsafeBuffer();
    private final CRC32C crc = new CRC32C();
    private MappedByteBuffer mappedWindow;
    private long windowStart;
    /** End of the zeros written; advanced only by the thread holding the claim up to {@link #fillClaim}. */
    private volatile long zeroFilledEnd;
    /** Positions of the last {@link #RECENT_CAPACITY} messages, by index (sequence number - 1) modulo the capacity. */
    private final long[] recentPositions = new long[RECENT_CAPACITY];
    /** Pages of the positions of every {@link #SPARSE_INTERVAL}th message, from the first. */
    private UnsafeBuffer[] sparsePositions = new UnsafeBuffer[16];
    /** Index (sequence number - 1) of the message a read forward from {@link #cursorPosition} meets first. */
    private int cursorIndex;
    /** A record's position, at or before the message {@link #cursorIndex}, with private records only between. */
    private long cursorPosition = FILE_HEADER_LENGTH;
    private int count;
    private long durableCount;
    private long end;
    private long batchStart;
    private int batchLength;
    private int batchWritten;
    private long cacheStart;
    private long cacheEnd;
    private int sessionIndex;
    private long truncatedBytes;
    private boolean failed;

    private SessionJournal(final Path file, final FileChannel channel, final JournalSync sync)
    {
        this.file = file;
        this.channel = channel;
        this.sync = sync;
        final ByteBuffer write = ByteBuffer.allocateDirect(BATCH_LENGTH);
        writeBuffer = new UnsafeBuffer(write);
        writeView = write.duplicate();
        batchMessageView = write.duplicate();
        readBuffer = ByteBuffer.allocateDirect(READ_CACHE_LENGTH);
        readCache = new UnsafeBuffer(readBuffer);
        readView = readBuffer.duplicate();
        headerBuffer = ByteBuffer.allocateDirect(FILE_HEADER_LENGTH).order(ORDER);
    }

    /**
     * Reads the session index in a journal's header, without opening (and locking) the journal: for the journals of
     * other trading days.
     *
     * @param file a journal file.
     * @return the session index recorded in its header; 0 when it has none (a header short or all zeros, as a crash
     *         can leave it).
     * @throws InvalidSessionIndexException when its header is not a session journal's or the index is out of range.
     * @throws IOException                  when the file cannot be read.
     */
    static int readSessionIndex(final Path file) throws IOException
    {
        final ByteBuffer bytes = ByteBuffer.allocate(FILE_HEADER_LENGTH);
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ))
        {
            while (bytes.hasRemaining() && channel.read(bytes, bytes.position()) > 0)
            {
                // read the whole header
            }
        }
        final UnsafeBuffer header = new UnsafeBuffer(bytes);
        final int version = headerVersion(header, bytes.position());
        if (NO_HEADER == version)
        {
            return 0;
        }
        if (FOREIGN_HEADER == version)
        {
            throw new InvalidSessionIndexException(notAJournal(file));
        }
        return checkSessionIndex(file, header.getInt(SESSION_INDEX_OFFSET, ORDER));
    }

    /**
     * @param header the file's first bytes.
     * @param size   how many bytes the file has (or were read), at least.
     * @return the header's layout version, {@link #VERSION} or {@link #VERSION_WITHOUT_PRIVATE_RECORDS};
     *         {@link #NO_HEADER} for a file shorter than a header or whose header is all zeros (created just before a
     *         crash); {@link #FOREIGN_HEADER} for a header that is not a session journal's.
     */
    private static int headerVersion(final DirectBuffer header, final long size)
    {
        if (size < FILE_HEADER_LENGTH || (0 == header.getLong(0) && 0 == header.getLong(Long.BYTES)))
        {
            return NO_HEADER;
        }
        final int version = header.getInt(VERSION_OFFSET, ORDER);
        return MAGIC == header.getInt(MAGIC_OFFSET, ORDER) &&
            (VERSION == version || VERSION_WITHOUT_PRIVATE_RECORDS == version) ? version : FOREIGN_HEADER;
    }

    private static String notAJournal(final Path file)
    {
        return file + ": not a session journal of version " + VERSION_WITHOUT_PRIVATE_RECORDS + " or " + VERSION;
    }

    /**
     * @param file         where the index was read.
     * @param sessionIndex the index read.
     * @return the index, when in 0..{@value SessionIndexes#MAX_SESSION_INDEX}.
     * @throws InvalidSessionIndexException when it is not.
     */
    static int checkSessionIndex(final Path file, final int sessionIndex) throws InvalidSessionIndexException
    {
        if (sessionIndex < 0 || sessionIndex > SessionIndexes.MAX_SESSION_INDEX)
        {
            throw new InvalidSessionIndexException(file + ": session index " + sessionIndex + " out of range 0.." +
                SessionIndexes.MAX_SESSION_INDEX);
        }
        return sessionIndex;
    }

    /**
     * Opens a journal, creating the file if absent; an existing one is scanned to rebuild the index and its torn
     * tail, if any, truncated ({@link #truncatedBytes()}).
     *
     * @param file the journal file.
     * @param sync when messages count as durable.
     * @return the journal, ready to append after its last message.
     * @throws IOException when the file cannot be read or written, is not a journal of this version, or is open in
     *                     another process.
     * @throws java.nio.channels.OverlappingFileLockException when it is open in this process.
     */
    static SessionJournal open(final Path file, final JournalSync sync) throws IOException
    {
        final FileChannel channel = FileChannel.open(
            file, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE);
        try
        {
            if (null == channel.tryLock())
            {
                throw new IOException(file + ": locked by another process");
            }
            final SessionJournal journal = new SessionJournal(file, channel, sync);
            journal.recover();
            return journal;
        }
        catch (final IOException | RuntimeException ex)
        {
            CloseHelper.quietClose(channel);
            throw ex;
        }
    }

    /** @return the file. */
    Path file()
    {
        return file;
    }

    /** @return number of messages; also the sequence number of the last one (0 when empty). */
    long count()
    {
        return count;
    }

    /**
     * @return the last sequence number that meets the {@link JournalSync} policy and may be sent: the count at the last
     * {@link #sync()}, which wrote the messages to the file (and forced them to the device under
     * {@link JournalSync#BATCH}).
     */
    long durableCount()
    {
        return durableCount;
    }

    /**
     * @return bytes cut off the end of the file when it was opened: a torn record and what followed it; not the
     * zero-filled space after the last record, which is cut without being counted.
     */
    long truncatedBytes()
    {
        return truncatedBytes;
    }

    /** @return true once a write or force failed: the journal takes no more messages. */
    boolean isFailed()
    {
        return failed;
    }

    /** @return the file position after the last record written to the file (copied into its mapping). */
    long writtenEnd()
    {
        return writtenEnd.get();
    }

    /** @return the file position the zeros written ahead of the records reach. */
    long zeroFilledEnd()
    {
        return zeroFilledEnd;
    }

    /** @return the session index recorded in the header, 0 if none was. */
    int sessionIndex()
    {
        return sessionIndex;
    }

    /**
     * Records the session index the session's clientOrderIds use from now on, so that a later gateway can choose
     * indexes never used before. Forced to the device under {@link JournalSync#BATCH}.
     *
     * @param sessionIndex 1..2^24-1.
     * @throws IOException when the header cannot be written.
     */
    void sessionIndex(final int sessionIndex) throws IOException
    {
        headerBuffer.clear().putInt(sessionIndex).flip();
        writeFully(headerBuffer, SESSION_INDEX_OFFSET);
        if (JournalSync.BATCH == sync)
        {
            channel.force(false);
        }
        this.sessionIndex = sessionIndex;
    }

    /**
     * Reserves space for the next message or private record in the batch. A new batch starts once the last one is
     * written; a batch too full for the record is written first (a failure of that write {@link #isFailed() fails}
     * the journal, the batch is dropped, {@link #close()} cuts the file after the last record written, and
     * {@link #commit} then throws).
     *
     * @param length of the message or record in bytes, 1..{@value #MAX_MESSAGE_LENGTH}.
     * @return offset in {@link #buffer()} to encode it at.
     * @throws IllegalArgumentException for a length out of range.
     */
    int claim(final int length)
    {
        if (length < 1 || length > MAX_MESSAGE_LENGTH)
        {
            throw new IllegalArgumentException("message length must be 1.." + MAX_MESSAGE_LENGTH + ": " + length);
        }
        if (batchLength + RECORD_HEADER_LENGTH + length > BATCH_LENGTH)
        {
            try
            {
                writeBatch();
            }
            catch (final IOException ignore)
            {
                // The journal is failed now: commit refuses the message and its caller counts the error.
            }
        }
        if (batchWritten == batchLength || failed)
        {
            batchStart = end;
            batchLength = 0;
            batchWritten = 0;
        }
        return claimedOffset();
    }

    /**
     * @return bytes of records (record headers included) the batch takes before a {@link #claim} writes it: what is
     * left of it, or a whole batch's worth once it is written.
     */
    int batchRoom()
    {
        return batchWritten == batchLength ? BATCH_LENGTH : BATCH_LENGTH - batchLength;
    }

    /**
     * Copies the records of the batch not written yet into the file's mapping, after filling the file with zeros far
     * enough ahead, as a claim does with a batch that fills up, so that they outlive a crash of the process; nothing is
     * forced and no message counts as durable before the next {@link #sync()}. For a caller that must choose where a
     * batch written in the middle of a duty cycle ends ({@link UserSession}: after the record of the engine events its
     * messages answer).
     *
     * @throws IOException when the write fails; the journal is then {@link #isFailed() failed}.
     */
    void writeBatch() throws IOException
    {
        if (batchWritten == batchLength)
        {
            return;
        }
        long position = batchStart + batchWritten;
        try
        {
            zeroFill(batchStart + batchLength);
            while (batchWritten < batchLength)
            {
                if (null == mappedWindow || position - windowStart >= WINDOW_LENGTH)
                {
                    mapWindow(position - position % WINDOW_LENGTH);
                }
                final int length = (int)Math.min(batchLength - batchWritten, windowStart + WINDOW_LENGTH - position);
                window.putBytes((int)(position - windowStart), writeBuffer, batchWritten, length);
                batchWritten += length;
                position += length;
                writtenEnd.lazySet(position);
            }
        }
        catch (final IOException ex)
        {
            failed = true;
            throw ex;
        }
        catch (final InternalError ex)
        {
            // A store into the mapping faulted (the JVM's report of SIGBUS): the file lost its blocks, e.g. cut by
            // another program, or a copy-on-write file system ran out of space.
            failed = true;
            throw new IOException(file + ": write into the mapped file failed", ex);
        }
    }

    /** @return the offset in {@link #buffer()} the last {@link #claim} returned, until the record is committed. */
    int claimedOffset()
    {
        return batchLength + RECORD_HEADER_LENGTH;
    }

    /** @return buffer the next message is encoded in, at the offset {@link #claim} returned. */
    MutableDirectBuffer buffer()
    {
        return writeBuffer;
    }

    /**
     * Appends the message encoded at the last claimed offset to the batch as the next sequenced message: nothing is
     * written yet.
     *
     * @param length of the message; the claimed length.
     * @return its sequence number.
     * @throws IOException when the journal {@link #isFailed() failed} earlier.
     */
    long commit(final int length) throws IOException
    {
        index(append(length, 0));
        return count;
    }

    /**
     * Appends the private record encoded at the last claimed offset to the batch: it takes no sequence number, is
     * never returned by {@link #message}, and is written at the next {@link #sync()}.
     *
     * @param length of the record; the claimed length.
     * @throws IOException when the journal {@link #isFailed() failed} earlier.
     */
    void commitPrivate(final int length) throws IOException
    {
        append(length, PRIVATE_FLAG);
    }

    /**
     * Writes the messages committed since the last call, with the private records between them, with one copy into
     * the file's mapping and makes them durable: under {@link JournalSync#BATCH} after forcing them to the device
     * (fdatasync, which also persists the file length and, on Linux, writes the pages stored to through the mapping),
     * under {@link JournalSync#NONE} at once. Private records with no message after them (an order's Order Sent
     * record, whose command the engine may have taken already) are copied into the mapping too, so that they outlive a
     * crash of the process, and forced with the next message.
     *
     * @return true when something was forced.
     * @throws IOException when the write or the force fails; the journal is then {@link #isFailed() failed}.
     */
    boolean sync() throws IOException
    {
        if (durableCount == count)
        {
            writeBatch();
            return false;
        }
        writeBatch();
        boolean forced = false;
        if (JournalSync.BATCH == sync)
        {
            try
            {
                channel.force(false);
            }
            catch (final IOException ex)
            {
                failed = true;
                throw ex;
            }
            forced = true;
        }
        durableCount = count;
        return forced;
    }

    /**
     * Reads one message: those of the current batch straight from {@link #buffer()}, others from the file through a
     * cache that reads ahead, so that a replay in sequence costs one read per few hundred messages.
     *
     * @param sequenceNumber 1..{@link #count()}.
     * @return a view of the message, position to limit; the same views are reused, valid until the next call.
     * @throws IOException when the file cannot be read.
     */
    ByteBuffer message(final long sequenceNumber) throws IOException
    {
        if (sequenceNumber < 1 || sequenceNumber > count)
        {
            throw new IllegalArgumentException("sequence number must be 1.." + count + ": " + sequenceNumber);
        }
        final int index = (int)sequenceNumber - 1;
        final long start = count - index <= RECENT_CAPACITY ? recentPositions[index & RECENT_MASK] : seek(index);
        if (isInBatch(start))
        {
            final int offset = (int)(start - batchStart);
            return payload(batchMessageView, offset, writeBuffer.getInt(offset + LENGTH_OFFSET, ORDER));
        }
        final int offset = cachedRecord(start);
        return payload(readView, offset, readCache.getInt(offset + LENGTH_OFFSET, ORDER));
    }

    /**
     * Hands every record, from the first on, to the handler in the order they were appended: the sequenced messages
     * and the private records between them. Reads the file through the same cache as {@link #message}.
     *
     * @param handler receives the records.
     * @throws IOException when the file cannot be read, or the handler throws.
     */
    void read(final RecordHandler handler) throws IOException
    {
        long position = FILE_HEADER_LENGTH;
        while (position < end)
        {
            final boolean inBatch = isInBatch(position);
            final UnsafeBuffer buffer = inBatch ? writeBuffer : readCache;
            final int offset = inBatch ? (int)(position - batchStart) : cachedRecord(position);
            final int word = buffer.getInt(offset + LENGTH_OFFSET, ORDER);
            final int length = word & LENGTH_MASK;
            if (0 == (word & PRIVATE_FLAG))
            {
                handler.onMessage(buffer, offset + RECORD_HEADER_LENGTH, length);
            }
            else
            {
                handler.onPrivateRecord(buffer, offset + RECORD_HEADER_LENGTH, length);
            }
            position += RECORD_HEADER_LENGTH + length;
        }
    }

    /**
     * Writes the messages of the batch not written yet, if it can, stops the fills (waiting out one the pretoucher's
     * thread has under way), unmaps the file, cuts it back to the records written (the zero-filled space after them
     * goes) and closes it.
     */
    @Override
    public void close()
    {
        try
        {
            if (!failed)
            {
                writeBatch();
            }
        }
        catch (final IOException ignore)
        {
            // Messages not written were never sent: no client holds them.
        }
        finally
        {
            stopFills();
            unmapWindow();
            try
            {
                channel.truncate(writtenEnd.get());
            }
            catch (final IOException ignore)
            {
                // The zero-filled tail stays; the next open cuts it.
            }
            CloseHelper.close(channel);
        }
    }

    private void recover() throws IOException
    {
        final long size = channel.size();
        if (size >= FILE_HEADER_LENGTH)
        {
            fill(0, size);
        }
        final int version = headerVersion(readCache, size);
        if (NO_HEADER == version)
        {
            // New, or created just before a crash that left the header short or never written back (zeros).
            truncatedBytes = size;
            headerBuffer.clear().putInt(MAGIC).putInt(VERSION).putInt(0).putInt(0).flip();
            writeFully(headerBuffer, 0);
            channel.truncate(FILE_HEADER_LENGTH);
            end = FILE_HEADER_LENGTH;
            batchStart = end;
            filledTo(end);
            cacheEnd = 0;
            return;
        }
        if (FOREIGN_HEADER == version)
        {
            throw new IOException(notAJournal(file));
        }
        if (VERSION != version)
        {
            headerBuffer.clear().putInt(VERSION).flip();
            writeFully(headerBuffer, VERSION_OFFSET);
        }
        sessionIndex = readCache.getInt(SESSION_INDEX_OFFSET, ORDER);
        long position = FILE_HEADER_LENGTH;
        while (position < size)
        {
            final int recordLength = validRecordLength(position, size);
            if (0 == recordLength)
            {
                break;
            }
            if (0 == (readCache.getInt((int)(position - cacheStart) + LENGTH_OFFSET, ORDER) & PRIVATE_FLAG))
            {
                index(position);
            }
            position += recordLength;
        }
        if (position < size)
        {
            truncatedBytes = isZeroFilled(position, size) ? 0 : size - position;
            channel.truncate(position);
            channel.force(true);
        }
        end = position;
        batchStart = end;
        filledTo(end);
        durableCount = count;
        cacheStart = 0;
        cacheEnd = 0;
    }

    /**
     * Appends the record claimed last to the batch.
     *
     * @param flag {@link #PRIVATE_FLAG} for a private record, else 0.
     * @return the record's file position.
     */
    private long append(final int length, final int flag) throws IOException
    {
        if (failed)
        {
            throw new IOException(file + ": journal failed earlier");
        }
        final int recordOffset = batchLength;
        final int checksum = checksum(writeView, recordOffset + RECORD_HEADER_LENGTH, length);
        writeBuffer.putInt(recordOffset + LENGTH_OFFSET, length | flag, ORDER);
        writeBuffer.putInt(recordOffset + CHECKSUM_OFFSET, 0 == flag ? checksum : ~checksum, ORDER);
        final long position = end;
        end += RECORD_HEADER_LENGTH + length;
        batchLength += RECORD_HEADER_LENGTH + length;
        return position;
    }

    private boolean isInBatch(final long position)
    {
        return position >= batchStart;
    }

    /**
     * Makes the whole record at a file position before the batch readable in the read cache.
     *
     * @return the record's offset in the cache.
     */
    private int cachedRecord(final long position) throws IOException
    {
        ensureCached(position, RECORD_HEADER_LENGTH, batchStart);
        final int length = readCache.getInt((int)(position - cacheStart) + LENGTH_OFFSET, ORDER) & LENGTH_MASK;
        ensureCached(position, RECORD_HEADER_LENGTH + length, batchStart);
        return (int)(position - cacheStart);
    }

    private static ByteBuffer payload(final ByteBuffer view, final int recordOffset, final int length)
    {
        view.limit(recordOffset + RECORD_HEADER_LENGTH + length).position(recordOffset + RECORD_HEADER_LENGTH);
        return view;
    }

    private void index(final long position)
    {
        recentPositions[count & RECENT_MASK] = position;
        if (0 == (count & SPARSE_MASK))
        {
            final int sparse = count >>> SPARSE_SHIFT;
            final int page = sparse >>> POSITIONS_PAGE_SHIFT;
            if (page == sparsePositions.length)
            {
                sparsePositions = Arrays.copyOf(sparsePositions, page * 2);
            }
            if (null == sparsePositions[page])
            {
                sparsePositions[page] =
                    new UnsafeBuffer(ByteBuffer.allocateDirect(POSITIONS_PAGE_CAPACITY * Long.BYTES));
            }
            sparsePositions[page].putLong((sparse & POSITIONS_PAGE_MASK) * Long.BYTES, position);
        }
        count++;
    }

    /**
     * Finds a message older than the ring of recent ones holds: reads forward over the records from the cursor when the
     * cursor is at or before the message and no earlier than the sparse index's entry at or before the message, else
     * from that entry; and leaves the cursor after the message, where a replay in sequence asks next.
     *
     * @param index the message's sequence number - 1, below {@link #count}.
     * @return the message's file position.
     */
    private long seek(final int index) throws IOException
    {
        final int sparseIndex = index & ~SPARSE_MASK;
        int at;
        long position;
        if (cursorIndex <= index && cursorIndex >= sparseIndex)
        {
            at = cursorIndex;
            position = cursorPosition;
        }
        else
        {
            final int sparse = index >>> SPARSE_SHIFT;
            at = sparseIndex;
            position = sparsePositions[sparse >>> POSITIONS_PAGE_SHIFT].getLong(
                (sparse & POSITIONS_PAGE_MASK) * Long.BYTES);
        }
        while (true)
        {
            final boolean inBatch = isInBatch(position);
            final int word = inBatch ?
                writeBuffer.getInt((int)(position - batchStart) + LENGTH_OFFSET, ORDER) :
                readCache.getInt(cachedRecord(position) + LENGTH_OFFSET, ORDER);
            final long next = position + RECORD_HEADER_LENGTH + (word & LENGTH_MASK);
            if (0 == (word & PRIVATE_FLAG))
            {
                if (at == index)
                {
                    cursorIndex = index + 1;
                    cursorPosition = next;
                    return position;
                }
                at++;
            }
            position = next;
        }
    }

    /**
     * @return bytes of direct memory the sparse index of message positions holds: 8 KiB per 65,536 messages (the ring
     * of recent positions, {@value #RECENT_CAPACITY} x 8 bytes, is on the heap).
     */
    long indexBytes()
    {
        long bytes = 0;
        for (final UnsafeBuffer page : sparsePositions)
        {
            bytes += null == page ? 0 : page.capacity();
        }
        return bytes;
    }

    /**
     * @return length of the whole record at the position (a message or a private record), or 0 when it is cut short
     * or fails its checksum.
     */
    private int validRecordLength(final long position, final long size) throws IOException
    {
        if (size - position < RECORD_HEADER_LENGTH)
        {
            return 0;
        }
        ensureCached(position, RECORD_HEADER_LENGTH, size);
        final int word = readCache.getInt((int)(position - cacheStart) + LENGTH_OFFSET, ORDER);
        final int length = word & LENGTH_MASK;
        if (length < 1 || length > MAX_MESSAGE_LENGTH || size - position - RECORD_HEADER_LENGTH < length)
        {
            return 0;
        }
        ensureCached(position, RECORD_HEADER_LENGTH + length, size);
        final int offset = (int)(position - cacheStart);
        final int checksum = checksum(readView, offset + RECORD_HEADER_LENGTH, length);
        final int expected = 0 == (word & PRIVATE_FLAG) ? checksum : ~checksum;
        return expected == readCache.getInt(offset + CHECKSUM_OFFSET, ORDER) ? RECORD_HEADER_LENGTH + length : 0;
    }

    /** @return true when the record at the position has a length word of zero: zero-filled space, never written. */
    private boolean isZeroFilled(final long position, final long size) throws IOException
    {
        if (size - position < Integer.BYTES)
        {
            return false;
        }
        ensureCached(position, Integer.BYTES, size);
        return 0 == readCache.getInt((int)(position - cacheStart) + LENGTH_OFFSET, ORDER);
    }

    private void ensureCached(final long position, final int length, final long fileEnd) throws IOException
    {
        if (position < cacheStart || position + length > cacheEnd)
        {
            fill(position, fileEnd);
        }
    }

    /** Reads the file from the position into the cache, as much as fits and the file holds. */
    private void fill(final long position, final long fileEnd) throws IOException
    {
        final int length = (int)Math.min(readBuffer.capacity(), fileEnd - position);
        cacheStart = 0;
        cacheEnd = 0;
        readBuffer.clear().limit(length);
        while (readBuffer.hasRemaining())
        {
            if (channel.read(readBuffer, position + readBuffer.position()) < 0)
            {
                throw new EOFException(file + ": ends before " + (position + length));
            }
        }
        cacheStart = position;
        cacheEnd = position + length;
    }

    /**
     * Writes zeros from the end of those written so far up to a multiple of {@value #ZERO_FILL_LENGTH} bytes at or
     * past the position given, so that every block of the file a store reaches has been written by a system call.
     * Waits (yielding) while the {@link JournalPretoucher} fills the next stretch.
     */
    private void zeroFill(final long until) throws IOException
    {
        while (zeroFilledEnd < until)
        {
            if (!fillNext(zeros))
            {
                if (CLOSED == fillClaim.get())
                {
                    throw new IOException(file + ": journal closed");
                }
                Thread.yield();
            }
        }
    }

    /**
     * Called by the {@link JournalPretoucher}'s thread: fills the file with zeros ahead of the records written, so
     * that the appending thread finds the pages of its next writes in the page cache already and does not pay for
     * them (a new page of the page cache costs about as much as writing it). Stops at a stretch the appending thread
     * is filling, and once the journal is closed.
     *
     * @param aheadBytes how far past the end of the records written to fill.
     * @param zeros      a buffer of at least {@value #ZERO_FILL_LENGTH} zeros, owned by the caller's thread.
     * @return bytes filled.
     * @throws IOException when the write fails; the appending thread then meets the failure at its own next fill.
     */
    long pretouch(final long aheadBytes, final ByteBuffer zeros) throws IOException
    {
        final long start = zeroFilledEnd;
        final long until = writtenEnd.get() + aheadBytes;
        while (zeroFilledEnd < until && fillNext(zeros))
        {
            // Filled one stretch; on to the next.
        }
        return zeroFilledEnd - start;
    }

    /**
     * Writes zeros from the end of those written up to the next multiple of {@value #ZERO_FILL_LENGTH}, unless
     * another thread holds the claim on that stretch or the journal is closed. Whichever thread claims a stretch
     * writes it and only then moves {@link #zeroFilledEnd}, so the appending thread never stores into a stretch
     * being filled, and zeros never land on records.
     *
     * @return true when it filled the stretch, false when it could not claim it.
     */
    private boolean fillNext(final ByteBuffer zeros) throws IOException
    {
        final long filled = zeroFilledEnd;
        final long next = filled + ZERO_FILL_LENGTH - filled % ZERO_FILL_LENGTH;
        if (!fillClaim.compareAndSet(filled, next))
        {
            return false;
        }
        boolean written = false;
        try
        {
            zeros.clear().limit((int)(next - filled));
            writeFully(zeros, filled);
            written = true;
        }
        finally
        {
            if (written)
            {
                zeroFilledEnd = next;
            }
            else
            {
                fillClaim.set(filled);
            }
        }
        return true;
    }

    /** Starts the fills and the end of the records written at a position the file ends at. */
    private void filledTo(final long position)
    {
        writtenEnd.set(position);
        zeroFilledEnd = position;
        fillClaim.set(position);
    }

    /**
     * Waits for a fill by the pretoucher's thread to end, if one is under way, and lets no other start; returns at once
     * when the fills were stopped before (a second close).
     */
    private void stopFills()
    {
        while (CLOSED != fillClaim.get() && !fillClaim.compareAndSet(zeroFilledEnd, CLOSED))
        {
            Thread.yield();
        }
    }

    /**
     * Maps the window of the file from the start given in place of the last. Mapping lengthens the file to the
     * window's end without allocating disk space (a sparse file), hence {@link #zeroFill}.
     */
    private void mapWindow(final long start) throws IOException
    {
        unmapWindow();
        mappedWindow = channel.map(FileChannel.MapMode.READ_WRITE, start, WINDOW_LENGTH);
        window.wrap(mappedWindow);
        windowStart = start;
    }

    private void unmapWindow()
    {
        if (null != mappedWindow)
        {
            window.wrap(0, 0);
            IoUtil.unmap(mappedWindow);
            mappedWindow = null;
        }
    }

    private void writeFully(final ByteBuffer buffer, final long position) throws IOException
    {
        final int start = buffer.position();
        while (buffer.hasRemaining())
        {
            channel.write(buffer, position + buffer.position() - start);
        }
    }

    private int checksum(final ByteBuffer view, final int offset, final int length)
    {
        view.limit(offset + length).position(offset);
        crc.reset();
        crc.update(view);
        return (int)crc.getValue();
    }
}
