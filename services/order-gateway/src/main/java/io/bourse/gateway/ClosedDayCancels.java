package io.bourse.gateway;

import org.agrona.collections.Long2LongHashMap;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The cancels of closed trading days' orders: those their engine shard could not take by the day's end (down, or its
 * command stream full, since the close or a session's end), and at a start those of the orders other days' journals
 * leave open ({@link TradingDays#cancelOrdersOfOtherDays}). Kept once the day's {@link OrderEntry} is gone, and sent
 * in the first duty cycle in which their shard takes commands, before the cycle reads any new order, so that a shard
 * recovered from the event archive does not bring a closed day's order back to trade against a later day's. Each is
 * counted when its shard takes it, as the close's cancel ({@code bourse_gateway_close_cancels_total}) or as a cancel on
 * disconnect. Only the clientOrderId and the shard of each order are kept, not the day's orders and tokens. Their
 * orders' events reach no later day (the answers count as {@code bourse_gateway_unmatched_events_total}). Across a
 * restart the days' journals keep them: once every cancel kept is taken, the days they came from are marked done with
 * ({@link JournalStore#markOrdersCanceled}); a day not marked is rebuilt from its journals at the next start and its
 * open orders' cancels kept again, a cancel of an order already gone changing nothing in the engine. Used by the
 * gateway agent's thread (and at the start, before it runs); {@link #size()} by any.
 */
final class ClosedDayCancels
{
    private static final long NONE = -1;
    /** Set in a value for the close's cancel, beside the shard id in the low 32 bits. */
    private static final long AT_CLOSE = 1L << 32;

    private final EngineProxy engine;
    private final GatewayMetrics metrics;
    private final DutyCycleClock clock;
    private final Long2LongHashMap cancels = new Long2LongHashMap(NONE);
    /** Cancels kept per shard id: a duty cycle looks at the entries only when a shard with some can take them. */
    private final int[] keptPerShard;
    private final List<Path> daysToMark = new ArrayList<>();
    private volatile int size;

    /**
     * @param engine     where the cancels go.
     * @param metrics    counts them as they go.
     * @param clock      the agent's duty-cycle clock.
     * @param shardCount the gateway's engine shards, ids 0 to {@code shardCount - 1}.
     */
    ClosedDayCancels(
        final EngineProxy engine, final GatewayMetrics metrics, final DutyCycleClock clock, final int shardCount)
    {
        this.engine = engine;
        this.metrics = metrics;
        this.clock = clock;
        this.keptPerShard = new int[shardCount];
    }

    /**
     * Keeps the cancel of a closed day's order, to send once its shard takes commands.
     *
     * @param clientOrderId the order's.
     * @param shardId       the shard holding it, below the shard count.
     * @param atClose       true for the close's cancel, false for a cancel on disconnect.
     */
    void add(final long clientOrderId, final int shardId, final boolean atClose)
    {
        final long previous = cancels.put(clientOrderId, (atClose ? AT_CLOSE : 0) | shardId);
        if (NONE != previous)
        {
            keptPerShard[(int)previous]--;
        }
        keptPerShard[shardId]++;
        size = cancels.size();
    }

    /**
     * Marks a day's orders done with ({@link JournalStore#markOrdersCanceled}) once every cancel kept, its own (added
     * before) and any other day's, has been taken: now, if none is left.
     *
     * @param dayDirectory the day's journal directory.
     */
    void markWhenSent(final Path dayDirectory)
    {
        daysToMark.add(dayDirectory);
        if (cancels.isEmpty())
        {
            markDays();
        }
    }

    /**
     * Sends the kept cancels whose shard can take a command now. Nothing to do, or no shard with cancels kept that can
     * take one, costs a look at each shard.
     *
     * @return cancels handed over.
     */
    int retry()
    {
        if (cancels.isEmpty() || !anyShardTakes())
        {
            return 0;
        }
        final long timestampNs = clock.midnightNs();
        int sent = 0;
        final Long2LongHashMap.EntryIterator entries = cancels.entrySet().iterator();
        while (entries.hasNext())
        {
            entries.next();
            final long value = entries.getLongValue();
            final int shardId = (int)value;
            if (engine.canTake(shardId) && engine.cancelOrder(shardId, timestampNs, entries.getLongKey(), 0) > 0)
            {
                entries.remove();
                keptPerShard[shardId]--;
                metrics.gatewayCancel((value & AT_CLOSE) != 0);
                sent++;
            }
        }
        size = cancels.size();
        if (cancels.isEmpty())
        {
            markDays();
        }
        return sent;
    }

    /**
     * At a stop: offers each kept cancel once more, through back pressure for a bounded time as any command; those a
     * shard does not take are counted as {@link RejectCause#ENGINE_UNAVAILABLE}, and their days are left unmarked for
     * the next start to cancel again. The days are marked when every cancel was taken.
     */
    void sendAtStop()
    {
        final long timestampNs = clock.midnightNs();
        boolean allTaken = true;
        final Long2LongHashMap.EntryIterator entries = cancels.entrySet().iterator();
        while (entries.hasNext())
        {
            entries.next();
            final long value = entries.getLongValue();
            if (engine.cancelOrder((int)value, timestampNs, entries.getLongKey(), 0) > 0)
            {
                metrics.gatewayCancel((value & AT_CLOSE) != 0);
            }
            else
            {
                metrics.reject(RejectCause.ENGINE_UNAVAILABLE);
                allTaken = false;
            }
        }
        cancels.clear();
        Arrays.fill(keptPerShard, 0);
        size = 0;
        if (allTaken)
        {
            markDays();
        }
        daysToMark.clear();
    }

    private boolean anyShardTakes()
    {
        for (int shardId = 0; shardId < keptPerShard.length; shardId++)
        {
            if (keptPerShard[shardId] > 0 && engine.canTake(shardId))
            {
                return true;
            }
        }
        return false;
    }

    private void markDays()
    {
        for (final Path day : daysToMark)
        {
            try
            {
                JournalStore.markOrdersCanceled(day);
            }
            catch (final IOException ex)
            {
                // The day is rebuilt and its open orders' cancels sent again at the next start.
                metrics.error(GatewayError.JOURNAL_FAILED, day, ex);
            }
        }
        daysToMark.clear();
    }

    /** @return the cancels kept; any thread. */
    int size()
    {
        return size;
    }
}
