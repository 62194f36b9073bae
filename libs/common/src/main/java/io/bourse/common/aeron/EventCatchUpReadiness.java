package io.bourse.common.aeron;

import io.bourse.common.metrics.Readiness;

import java.util.concurrent.atomic.AtomicIntegerArray;

/**
 * The part of a service's {@link Readiness} that waits for its catch-up of the engine shards' event streams from the
 * {@link EventArchive} (see {@link EventReplay}): ready once every shard's stream has been caught up, replayed or given
 * up (an image of it, or for a service that does so, a shard's stopped last run). Marked on the service's agent thread,
 * read on any thread.
 */
public final class EventCatchUpReadiness implements Readiness
{
    private final AtomicIntegerArray caughtUpShards;

    /**
     * @param shardCount the engine shards, numbered from 0.
     */
    public EventCatchUpReadiness(final int shardCount)
    {
        caughtUpShards = new AtomicIntegerArray(shardCount);
    }

    /**
     * Marks a shard's event stream as caught up.
     *
     * @param shardId the shard, 0 to the shard count - 1.
     * @throws IndexOutOfBoundsException for another shard id.
     */
    public void caughtUp(final int shardId)
    {
        caughtUpShards.set(shardId, 1);
    }

    /**
     * @param shardId the shard, 0 to the shard count - 1.
     * @return whether its event stream was marked caught up.
     * @throws IndexOutOfBoundsException for another shard id.
     */
    public boolean isCaughtUp(final int shardId)
    {
        return 1 == caughtUpShards.get(shardId);
    }

    /**
     * @return null once every shard's event stream was caught up, else the first shard that was not, e.g.
     * "matching-engine shard 1's events not yet caught up from the event archive".
     */
    @Override
    public String notReadyReason()
    {
        for (int shard = 0; shard < caughtUpShards.length(); shard++)
        {
            if (0 == caughtUpShards.get(shard))
            {
                return "matching-engine shard " + shard + "'s events not yet caught up from the event archive";
            }
        }
        return null;
    }
}
