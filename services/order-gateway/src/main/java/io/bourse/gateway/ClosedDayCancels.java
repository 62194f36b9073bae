package io.bourse.gateway;

import org.agrona.collections.Long2LongHashMap;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The cancels of closed trading days' orders that their engine shard could not take by the day's end (down, or its
 * command stream full, since the close or a session's end): kept once the day's {@link OrderEntry} is gone, and sent
 * as each shard takes commands again, at most every {@link OrderEntry#CANCEL_ON_DISCONNECT_RETRY_INTERVAL_NS}, as the
 * day's cancels on disconnect are, so that a shard recovered from the event archive does not bring a closed day's order
 * back to trade against a later day's. Each is counted when its shard takes it, as the close's cancel
 * ({@code bourse_gateway_close_cancels_total}) or as a cancel on disconnect. Only the clientOrderId and the shard of
 * each order are kept, not the day's orders and tokens. Their orders' events reach no later day. Across a restart the
 * days' journals keep them: once every cancel kept is taken, the days they came from are marked done with
 * ({@link JournalStore#markOrdersCanceled}); a day not marked is rebuilt from its journals at the next start and its
 * open orders' cancels kept again ({@link TradingDays#cancelOrdersOfOtherDays}), a cancel of an order already gone
 * changing nothing in the engine. Used by the gateway agent's thread (and at the start, before it runs);
 * {@link #size()} by any.
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
    private final List<Path> daysToMark = new ArrayList<>();
    private long nextRetryNs;
    private volatile int size;

    /**
     * @param engine  where the cancels go.
     * @param metrics counts them as they go.
     * @param clock   the agent's duty-cycle clock.
     */
    ClosedDayCancels(final EngineProxy engine, final GatewayMetrics metrics, final DutyCycleClock clock)
    {
        this.engine = engine;
        this.metrics = metrics;
        this.clock = clock;
    }

    /**
     * Keeps the cancel of a closed day's order, to send at the next retry.
     *
     * @param clientOrderId the order's.
     * @param shardId       the shard holding it.
     * @param atClose       true for the close's cancel, false for a cancel on disconnect.
     */
    void add(final long clientOrderId, final int shardId, final boolean atClose)
    {
        cancels.put(clientOrderId, (atClose ? AT_CLOSE : 0) | shardId);
        size = cancels.size();
        nextRetryNs = clock.nanoTime();
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
     * Sends the kept cancels whose shard can take a command now, if the retry interval has passed.
     *
     * @return cancels handed over.
     */
    int retry()
    {
        final long nowNs = clock.nanoTime();
        if (cancels.isEmpty() || nowNs - nextRetryNs < 0)
        {
            return 0;
        }
        nextRetryNs = nowNs + OrderEntry.CANCEL_ON_DISCONNECT_RETRY_INTERVAL_NS;
        final long timestampNs = clock.midnightNs();
        int sent = 0;
        final Long2LongHashMap.EntryIterator entries = cancels.entrySet().iterator();
        while (entries.hasNext())
        {
            entries.next();
            final long value = entries.getLongValue();
            final int shardId = (int)value;
            if (engine.canTake(shardId) && engine.cancelOrder(shardId, timestampNs, entries.getLongKey(), 0))
            {
                entries.remove();
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
            if (engine.cancelOrder((int)value, timestampNs, entries.getLongKey(), 0))
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
        size = 0;
        if (allTaken)
        {
            markDays();
        }
        daysToMark.clear();
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
