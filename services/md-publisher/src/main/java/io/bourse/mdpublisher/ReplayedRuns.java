package io.bourse.mdpublisher;

import io.bourse.common.aeron.EventReplay;

import java.util.Arrays;

/**
 * Per engine shard, how far the md-publisher's books hold the shard's recorded runs ({@link EventReplay#runs}) that
 * were replayed whole from the event archive ({@link BooksRebuild#replayRuns}): by the rebuild before the shards are
 * subscribed to, by the catch-up of the shard's first image (the rest of the earlier runs), or of a later image of a
 * new run (the runs between the run read last and the new one, of which nothing was read). The newest run replayed
 * (its recording id and Aeron session id) and the stream position replayed to in it, in bytes (its stop position when
 * it was replayed whole, short of it when it was still recording). Runs are replayed oldest first and the archive
 * numbers recordings in the order they start, so the books hold every run with a lower recording id too, and a run is
 * never replayed twice, however many catch-ups ask for it (one that turned out superseded included). Written by
 * {@link BooksRebuild} before the shards are subscribed to, then on the agent's thread.
 */
final class ReplayedRuns
{
    private static final long NO_RUN = -1;

    private final long[] recordingIds;
    private final int[] sessionIds;
    private final long[] positions;

    /**
     * @param shardCount engine shards: none holds a run.
     */
    ReplayedRuns(final int shardCount)
    {
        recordingIds = new long[shardCount];
        Arrays.fill(recordingIds, NO_RUN);
        sessionIds = new int[shardCount];
        positions = new long[shardCount];
    }

    /**
     * @param shardId the engine shard.
     * @param run     one of its recorded runs.
     * @return the stream position to replay the run from, in bytes, so that the books take each of its events once:
     * its start for a run newer than those the books hold, where the books stand in it for the newest they hold, its
     * stop position (nothing left) for an older one.
     */
    long replayFrom(final int shardId, final EventReplay.Run run)
    {
        final long held = recordingIds[shardId];
        if (run.recordingId() > held)
        {
            return run.startPosition();
        }
        return run.recordingId() == held ? Math.max(run.startPosition(), positions[shardId]) : run.stopPosition();
    }

    /**
     * @param shardId the engine shard.
     * @return whether the books hold a run of it (replayed, or given up as it could not be).
     */
    boolean holdsRun(final int shardId)
    {
        return NO_RUN != recordingIds[shardId];
    }

    /**
     * @param shardId   the engine shard.
     * @param sessionId a run of it: the Aeron session id of its event publication.
     * @return the stream position the books hold that run to, in bytes, when it is the newest they hold; else 0.
     */
    long position(final int shardId, final int sessionId)
    {
        return NO_RUN != recordingIds[shardId] && sessionIds[shardId] == sessionId ? positions[shardId] : 0;
    }

    /**
     * Notes that the books hold a run to a position (or that it is given up to there: its replay failed).
     *
     * @param shardId     the engine shard.
     * @param recordingId the run's recording, the newest the books hold.
     * @param sessionId   the run's Aeron session id.
     * @param position    stream position its events are replayed to, in bytes: the end of the last one taken.
     */
    void held(final int shardId, final long recordingId, final int sessionId, final long position)
    {
        recordingIds[shardId] = recordingId;
        sessionIds[shardId] = sessionId;
        positions[shardId] = position;
    }
}
