package io.bourse.mdpublisher;

import org.agrona.CloseHelper;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.StampedLock;

/**
 * Every message of one MoldUDP64 session, from Sequence Number 1, as MoldUDP64 Message Blocks (2-byte big-endian
 * Message Length, then the Message Data) one after the other in a file, so that the re-request server can answer a
 * request older than the {@link MoldMessageStore}'s memory holds: a receiver that joins late, however late, gets the
 * whole session, as from NASDAQ's re-request servers. Beside it, an index file holds the data file's offset of every
 * {@value #INDEX_INTERVAL}th message (8 bytes, big-endian), so that a request reads at most that many Message Length
 * fields before its first message. Both are written through buffers of their own, off-heap: the data by one write call
 * when its buffer is full, or when a request needs messages still in it ({@link #writeThrough}), the index's entries
 * written just before; appending allocates nothing.
 * No fsync: the files only serve the running session and are deleted when it closes (or, after a crash, by the next
 * md-publisher to use the directory). Past {@code maxBytes} of data the file takes no more messages: requests for those
 * only the memory can answer.
 *
 * <p>One thread appends (the feed's); the messages written out ({@link #writtenMessageCount}) are read by
 * {@link Reader}s, one per thread (the appending thread's own for the held messages of a new day's session, and the
 * {@link MoldFileAnswers}' thread's for the re-requests), each reading only what has been written, never the buffers.
 * A receiver that backfills asks for the messages right after the ones it last got, response after response: a reader
 * keeps where the last {@value #CURSORS} responses ended (sequence number and offset) and starts a request from the
 * nearest of those or of the index entries before it, so that a backfill reads the file once, 16 KiB at a time,
 * whatever its length (a request that continues no recent response reads an index entry and at most
 * {@value #INDEX_INTERVAL} length fields more). A read that fails marks the file {@linkplain #failed failed}, for the
 * appending thread to drop it; closing waits for a read in progress, and a read after it finds nothing. A day
 * session's file is created and deleted on another thread ({@link FeedSessions}), handed over before and after.
 */
final class MoldSessionFile implements AutoCloseable
{
    /** Messages per index entry. */
    static final int INDEX_INTERVAL = 1024;
    /** File name suffix of the messages; the index's adds {@code .index}. */
    static final String SUFFIX = ".mold";
    /** Ends of recent responses kept, for the next request of a backfill to start from. */
    static final int CURSORS = 8;

    private static final int WRITE_BUFFER_LENGTH = 64 * 1024;
    private static final int INDEX_BUFFER_LENGTH = 8 * 1024;
    private static final int READ_BUFFER_LENGTH = 16 * 1024;
    /**
     * The data files this process holds, created and not yet closed, as absolute normalized paths; any thread. Two
     * md-publishers sharing a directory from two containers (the same pid in each) would take each other's files for
     * left over: give each its own directory.
     */
    private static final Set<Path> HELD_FILES = ConcurrentHashMap.newKeySet();

    private final Path dataPath;
    private final Path indexPath;
    private final FileChannel data;
    private final FileChannel index;
    private final long maxBytes;
    private final ByteBuffer dataBuffer = ByteBuffer.allocateDirect(WRITE_BUFFER_LENGTH).order(ByteOrder.BIG_ENDIAN);
    private final ByteBuffer indexBuffer = ByteBuffer.allocateDirect(INDEX_BUFFER_LENGTH).order(ByteOrder.BIG_ENDIAN);
    /** Readers hold it shared while they read; closing holds it alone, so that no read meets a closed channel. */
    private final StampedLock closing = new StampedLock();
    private final Reader appenderReader = new Reader();
    private final Reader answerReader = new Reader();
    private long messageCount;
    private long dataLength;
    /** Bytes of Message Blocks in the data file, written before {@link #writtenMessageCount}. */
    private volatile long writtenDataLength;
    /** Messages wholly in the data file, their index entries in the index file: what readers may read. */
    private volatile long writtenMessageCount;
    private volatile boolean failed;
    private boolean closed;

    private MoldSessionFile(
        final Path dataPath, final Path indexPath, final FileChannel data, final FileChannel index, final long maxBytes)
    {
        this.dataPath = dataPath;
        this.indexPath = indexPath;
        this.data = data;
        this.index = index;
        this.maxBytes = maxBytes;
    }

    /**
     * Creates the session's files, {@code <session>-<pid>.mold} and {@code .mold.index} (the Session's characters
     * outside {@code [A-Za-z0-9_-]} as {@code _}; the process id keeps apart two md-publishers on one host that start
     * in the same second with the default Session), replacing any left by an earlier process of that id; first
     * deletes the files that processes no longer running left in the directory (a crash does not close them): those
     * of a process id no process has, and those of this process's id that this process does not hold, left by an
     * earlier process that had the same id (a container's JVM gets the same one at every start: before, the files of
     * each crash before a restart were kept for good).
     *
     * @param directory where the files go, created if needed.
     * @param session   the MoldUDP64 Session.
     * @param maxBytes  most bytes of Message Blocks kept.
     * @return the empty file.
     * @throws IOException when the directory or a file cannot be created.
     */
    static MoldSessionFile create(final Path directory, final String session, final long maxBytes) throws IOException
    {
        Files.createDirectories(directory);
        deleteFilesOfEndedProcesses(directory);
        final String name = session.replaceAll("[^A-Za-z0-9_-]", "_") + "-" + ProcessHandle.current().pid() + SUFFIX;
        final Path dataPath = directory.resolve(name);
        final Path indexPath = directory.resolve(name + ".index");
        HELD_FILES.add(dataPath.toAbsolutePath().normalize()); // before it exists: a scan on another thread keeps it
        FileChannel data = null;
        try
        {
            data = FileChannel.open(dataPath, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING,
                StandardOpenOption.READ, StandardOpenOption.WRITE);
            final FileChannel index = FileChannel.open(indexPath, StandardOpenOption.CREATE,
                StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.READ, StandardOpenOption.WRITE);
            return new MoldSessionFile(dataPath, indexPath, data, index, maxBytes);
        }
        catch (final IOException | RuntimeException ex)
        {
            HELD_FILES.remove(dataPath.toAbsolutePath().normalize());
            CloseHelper.quietClose(data);
            throw ex;
        }
    }

    /** @return the messages kept: Sequence Numbers 1 to this. */
    long messageCount()
    {
        return messageCount;
    }

    /** @return the file holding the Message Blocks. */
    Path path()
    {
        return dataPath;
    }

    /**
     * Appends the next message of the session, unless the file is full.
     *
     * @param message the Message Data between its position and limit, which are left unchanged; 1 to 65,534 bytes.
     * @return false, keeping nothing, when the file holds {@code maxBytes} already.
     * @throws IOException when a full buffer cannot be written.
     */
    boolean append(final ByteBuffer message) throws IOException
    {
        final int length = message.remaining();
        final int blockLength = MoldMessageStore.MESSAGE_LENGTH_FIELD_LENGTH + length;
        if (dataLength + blockLength > maxBytes)
        {
            return false;
        }
        if (0 == messageCount % INDEX_INTERVAL)
        {
            if (!indexBuffer.hasRemaining())
            {
                flushIndex();
            }
            indexBuffer.putLong(dataLength);
        }
        if (dataBuffer.remaining() < blockLength)
        {
            flushData();
        }
        dataBuffer.putShort((short)length);
        dataBuffer.put(dataBuffer.position(), message, message.position(), length);
        dataBuffer.position(dataBuffer.position() + length);
        dataLength += blockLength;
        messageCount++;
        return true;
    }

    /**
     * Writes out the buffered messages unless those up to a sequence number are written already, so that a
     * {@link Reader} finds them; on the appending thread.
     *
     * @param sequenceNumber of the last message a read will need; past {@link #messageCount()}, all of them.
     * @throws IOException when a buffer cannot be written.
     */
    void writeThrough(final long sequenceNumber) throws IOException
    {
        if (writtenMessageCount < Math.min(sequenceNumber, messageCount))
        {
            flushData();
        }
    }

    /** @return the messages readers may read: Sequence Numbers 1 to this; any thread. */
    long writtenMessageCount()
    {
        return writtenMessageCount;
    }

    /** @return whether a read failed ({@link Reader#get}), on any thread: the appending thread should drop the file. */
    boolean failed()
    {
        return failed;
    }

    /** @return the reader of the appending thread. */
    Reader appenderReader()
    {
        return appenderReader;
    }

    /** @return the reader of the {@link MoldFileAnswers}' thread. */
    Reader answerReader()
    {
        return answerReader;
    }

    /**
     * Closes both files, once no read is in progress (a read after it finds nothing), then deletes them, with no read
     * waiting for that (up to 160 ms for a 1 GiB file on the development host).
     */
    @Override
    public void close() throws IOException
    {
        final long stamp = closing.writeLock();
        try
        {
            closed = true;
            CloseHelper.closeAll(data, index);
        }
        finally
        {
            closing.unlockWrite(stamp);
        }
        try
        {
            Files.deleteIfExists(dataPath);
        }
        finally
        {
            try
            {
                Files.deleteIfExists(indexPath);
            }
            finally
            {
                HELD_FILES.remove(dataPath.toAbsolutePath().normalize());
            }
        }
    }

    private static void deleteFilesOfEndedProcesses(final Path directory) throws IOException
    {
        try (DirectoryStream<Path> files = Files.newDirectoryStream(directory, "*-*" + SUFFIX + "*"))
        {
            for (final Path file : files)
            {
                final String name = file.getFileName().toString();
                final int end = name.lastIndexOf(SUFFIX);
                final String pid = name.substring(name.lastIndexOf('-', end) + 1, end);
                if (pid.matches("[0-9]{1,18}") && isLeftOver(Long.parseLong(pid),
                    file.resolveSibling(name.substring(0, end + SUFFIX.length())).toAbsolutePath().normalize()))
                {
                    Files.deleteIfExists(file);
                }
            }
        }
    }

    /**
     * @param pid      the process id in a file's name.
     * @param dataPath the data file it is, or whose index it is.
     * @return true when no running process holds it: no process has that id, or it is this process's id and this
     *         process does not hold the file.
     */
    private static boolean isLeftOver(final long pid, final Path dataPath)
    {
        return ProcessHandle.current().pid() == pid ? !HELD_FILES.contains(dataPath) : ProcessHandle.of(pid).isEmpty();
    }

    /** Writes out the index's buffer, then the data's, then lets readers read the messages written. */
    private void flushData() throws IOException
    {
        flushIndex();
        flush(dataBuffer, data);
        writtenDataLength = dataLength;
        writtenMessageCount = messageCount;
    }

    private void flushIndex() throws IOException
    {
        flush(indexBuffer, index);
    }

    private static void flush(final ByteBuffer buffer, final FileChannel channel) throws IOException
    {
        buffer.flip();
        while (buffer.hasRemaining())
        {
            channel.write(buffer);
        }
        buffer.clear();
    }

    /**
     * Reads the messages written out ({@link #writtenMessageCount}) for one thread: its own buffers and cursors. A
     * failed read marks the file {@linkplain #failed failed} and gives no messages.
     */
    final class Reader
    {
        private final ByteBuffer readBuffer = ByteBuffer.allocateDirect(READ_BUFFER_LENGTH).order(ByteOrder.BIG_ENDIAN);
        private final ByteBuffer indexEntry = ByteBuffer.allocateDirect(Long.BYTES).order(ByteOrder.BIG_ENDIAN);
        /** Per cursor, the 0-based number of the message after a recent response's last (-1: none yet). */
        private final long[] cursorMessages = new long[CURSORS];
        /** Per cursor, that message's offset in the data file. */
        private final long[] cursorOffsets = new long[CURSORS];
        private int nextCursor;
        private long readBufferOffset = -1;
        private long readCalls;
        /** Bytes of the data file written out as of this read's start: what it may read. */
        private long readableLength;

        private Reader()
        {
            Arrays.fill(cursorMessages, -1);
        }

        /**
         * Writes the Message Blocks of the messages from a sequence number on: as many as requested, written out and
         * fitting the buffer's room up to {@code limit} bytes.
         *
         * @param buffer                receives the Message Blocks at its position, which advances.
         * @param sequenceNumber        of the first message, 1 to {@link #writtenMessageCount()}.
         * @param requestedMessageCount most messages wanted.
         * @param limit                 most bytes written.
         * @return the number of messages written; 0 when the first is not written out, or the file is closed or failed.
         * @throws IOException when a file cannot be read: the file is marked {@linkplain #failed failed}.
         */
        int get(final ByteBuffer buffer, final long sequenceNumber, final long requestedMessageCount, final int limit)
            throws IOException
        {
            final long stamp = closing.readLock();
            try
            {
                final long written = writtenMessageCount;
                if (closed || failed || sequenceNumber < 1 || sequenceNumber > written)
                {
                    return 0;
                }
                readableLength = writtenDataLength;
                return read(buffer, sequenceNumber - 1, Math.min(written, sequenceNumber - 1 + requestedMessageCount),
                    limit);
            }
            catch (final IOException ex)
            {
                failed = true;
                throw ex;
            }
            finally
            {
                closing.unlockRead(stamp);
            }
        }

        /** @return read calls made on the files so far, for tests of how much a backfill reads. */
        long readCalls()
        {
            return readCalls;
        }

        private int read(final ByteBuffer buffer, final long first, final long end, final int limit) throws IOException
        {
            long message = first - first % INDEX_INTERVAL;
            long offset = -1;
            for (int i = 0; i < CURSORS; i++)
            {
                if (cursorMessages[i] <= first && cursorMessages[i] >= message)
                {
                    message = cursorMessages[i];
                    offset = cursorOffsets[i];
                }
            }
            if (offset < 0)
            {
                offset = indexEntry(first / INDEX_INTERVAL);
            }
            for (; message < first; message++)
            {
                offset += MoldMessageStore.MESSAGE_LENGTH_FIELD_LENGTH + messageLength(offset);
            }
            int written = 0;
            int count = 0;
            for (long next = first; next < end; next++)
            {
                final int blockLength = MoldMessageStore.MESSAGE_LENGTH_FIELD_LENGTH + messageLength(offset);
                if (written + blockLength > limit)
                {
                    break;
                }
                cache(offset, blockLength);
                buffer.put(buffer.position() + written, readBuffer, (int)(offset - readBufferOffset), blockLength);
                written += blockLength;
                offset += blockLength;
                count++;
            }
            buffer.position(buffer.position() + written);
            keepCursor(first + count, offset);
            return count;
        }

        /** Keeps where a response ended, in place of the oldest cursor, unless a cursor stands there already. */
        private void keepCursor(final long message, final long offset)
        {
            for (int i = 0; i < CURSORS; i++)
            {
                if (cursorMessages[i] == message)
                {
                    return;
                }
            }
            cursorMessages[nextCursor] = message;
            cursorOffsets[nextCursor] = offset;
            nextCursor = (nextCursor + 1) % CURSORS;
        }

        private int messageLength(final long offset) throws IOException
        {
            cache(offset, MoldMessageStore.MESSAGE_LENGTH_FIELD_LENGTH);
            return readBuffer.getShort((int)(offset - readBufferOffset)) & 0xFFFF;
        }

        /**
         * Makes the read buffer hold the data file's bytes {@code [offset, offset + length)}, reading no byte past
         * those written out: a buffer once read stays true, as written bytes never change.
         */
        private void cache(final long offset, final int length) throws IOException
        {
            if (readBufferOffset >= 0 && offset >= readBufferOffset &&
                offset + length <= readBufferOffset + readBuffer.limit())
            {
                return;
            }
            readBuffer.clear().limit((int)Math.max(0, Math.min(READ_BUFFER_LENGTH, readableLength - offset)));
            while (readBuffer.hasRemaining())
            {
                readCalls++;
                if (data.read(readBuffer, offset + readBuffer.position()) < 0)
                {
                    break;
                }
            }
            readBuffer.flip();
            readBufferOffset = offset;
            if (readBuffer.limit() < length)
            {
                readBufferOffset = -1;
                throw new IOException(dataPath + ": " + length + " bytes at " + offset + " not in the file");
            }
        }

        /** @return the data file's offset of the message {@code entry * INDEX_INTERVAL} (0-based), from the index. */
        private long indexEntry(final long entry) throws IOException
        {
            final long position = entry * Long.BYTES;
            indexEntry.clear();
            while (indexEntry.hasRemaining())
            {
                readCalls++;
                if (index.read(indexEntry, position + indexEntry.position()) < 0)
                {
                    throw new IOException(indexPath + ": no entry at " + position);
                }
            }
            return indexEntry.getLong(0);
        }
    }
}
