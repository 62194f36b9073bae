package io.bourse.gateway;

import org.agrona.IoUtil;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.IOException;
import java.nio.MappedByteBuffer;
import java.nio.file.Path;

/**
 * Per engine shard, the position in the shard's event stream (one run of the shard, told by its Aeron session id) up
 * to which the gateway has answered every event and journaled the answers: where a restarted gateway's catch-up replay
 * from the event archive starts ({@link EngineEventStreams}), instead of the start of the shard's run. Kept in the
 * session's journal directory, in a file mapped into memory, so that a store reaches the page cache (it survives a
 * crash of the process) without a system call; it is never forced. A position is stored only once the answers to the
 * events before it are in the session journals (forced first under {@link JournalSync#BATCH}), so a stored position
 * never runs ahead of the journals; one lost with the page cache is only older, and an older position replays more
 * events, which the journals' event sequence numbers skip.
 * <pre>
 *   File {@value #FILE_NAME}, native byte order, for each shard k from 0, 16 bytes at 16 k:
 *   +--------+--------+-----------------------------------------------------------+
 *   | Offset | Length | Field                                                     |
 *   +--------+--------+-----------------------------------------------------------+
 *   |      0 |      8 | Position: every event of the stream before it answered    |
 *   |      8 |      4 | Aeron session id of the shard's event stream (the run)    |
 *   |     12 |      4 | Set: 1 when the entry holds a position, else 0            |
 *   +--------+--------+-----------------------------------------------------------+
 * </pre>
 * Used by the gateway agent's thread; opened and closed by the {@link JournalStore}.
 */
final class EventPositions implements AutoCloseable
{
    /** Name of the file in the session's journal directory (not a journal's suffix). */
    static final String FILE_NAME = "engine-events.positions";
    /** Length of a shard's entry. */
    static final int ENTRY_LENGTH = 16;
    /** Most shards: the largest shard id of the journals' records, {@link OrderRecords#MAX_SHARD_ID}, plus one. */
    static final int MAX_SHARDS = OrderRecords.MAX_SHARD_ID + 1;
    private static final int POSITION_OFFSET = 0;
    private static final int SESSION_ID_OFFSET = 8;
    private static final int SET_OFFSET = 12;

    private final MappedByteBuffer mapping;
    private final UnsafeBuffer buffer;

    private EventPositions(final MappedByteBuffer mapping)
    {
        this.mapping = mapping;
        this.buffer = new UnsafeBuffer(mapping);
    }

    /**
     * Opens the file, created with no position set when missing; a file of fewer shards keeps its entries and the
     * others start unset.
     *
     * @param directory  the session's journal directory.
     * @param shardCount the gateway's engine shards, 1 to {@value #MAX_SHARDS}.
     * @return the positions.
     * @throws IOException when the file cannot be created or mapped.
     */
    static EventPositions open(final Path directory, final int shardCount) throws IOException
    {
        if (shardCount < 1 || shardCount > MAX_SHARDS)
        {
            throw new IllegalArgumentException("shard count must be 1.." + MAX_SHARDS + ": " + shardCount);
        }
        return new EventPositions(MappedFiles.mapZeroFilled(directory.resolve(FILE_NAME), shardCount * ENTRY_LENGTH));
    }

    /**
     * @param shardId   the engine shard.
     * @param sessionId the Aeron session id of the shard's event stream.
     * @return the position stored for that stream, or -1 when none is (never stored, or stored for another run).
     */
    long position(final int shardId, final int sessionId)
    {
        final int entry = shardId * ENTRY_LENGTH;
        final boolean set = 1 == buffer.getInt(entry + SET_OFFSET);
        return set && sessionId == buffer.getInt(entry + SESSION_ID_OFFSET) ?
            buffer.getLong(entry + POSITION_OFFSET) : -1;
    }

    /**
     * @param shardId the engine shard.
     * @return true when a position is stored for one of the shard's runs.
     */
    boolean isStored(final int shardId)
    {
        return 1 == buffer.getInt(shardId * ENTRY_LENGTH + SET_OFFSET);
    }

    /**
     * @param shardId the engine shard, with a position stored ({@link #isStored}).
     * @return the Aeron session id of the run of the shard's event stream whose position is stored.
     */
    int sessionId(final int shardId)
    {
        return buffer.getInt(shardId * ENTRY_LENGTH + SESSION_ID_OFFSET);
    }

    /**
     * Stores a position; only once every event before it is answered and the answers journaled.
     *
     * @param shardId   the engine shard.
     * @param sessionId the Aeron session id of the shard's event stream.
     * @param position  the stream position, at the end of an event.
     */
    void store(final int shardId, final int sessionId, final long position)
    {
        final int entry = shardId * ENTRY_LENGTH;
        final boolean sameRun =
            1 == buffer.getInt(entry + SET_OFFSET) && sessionId == buffer.getInt(entry + SESSION_ID_OFFSET);
        if (!sameRun)
        {
            // Unset while the entry changes runs: a crash in between must not pair a run with another's position.
            buffer.putIntVolatile(entry + SET_OFFSET, 0);
        }
        buffer.putLongOrdered(entry + POSITION_OFFSET, position);
        if (!sameRun)
        {
            buffer.putIntVolatile(entry + SESSION_ID_OFFSET, sessionId);
            buffer.putIntVolatile(entry + SET_OFFSET, 1);
        }
    }

    /**
     * Copies every entry, stored or not, to another session's positions: where the next trading day's replays start,
     * as this day's would ({@link EngineEventStreams#openDay}).
     *
     * @param to the next day's positions, of the same shard count.
     */
    void copyTo(final EventPositions to)
    {
        to.buffer.putBytes(0, buffer, 0, Math.min(buffer.capacity(), to.buffer.capacity()));
    }

    /** Unmaps the file. */
    @Override
    public void close()
    {
        IoUtil.unmap(mapping);
    }
}
