package io.bourse.gateway;

import io.aeron.Image;
import io.aeron.Subscription;
import io.aeron.exceptions.AeronException;
import io.aeron.logbuffer.FragmentHandler;
import io.bourse.common.aeron.EventArchive;
import io.bourse.common.aeron.EventCatchUpReadiness;
import io.bourse.common.aeron.EventReplay;
import org.agrona.DirectBuffer;
import org.agrona.collections.LongHashSet;

import java.util.function.Consumer;

/**
 * The engine shards' event streams as the gateway agent reads them, without the gap a late subscriber has. An Aeron
 * subscription joins a stream where it stands, so a gateway started while a shard runs (a restart) would never hear the
 * events the shard published before: the answers to the commands in flight at the stop, the cancels on disconnect the
 * stopping gateway sent, executions and expiries of the orders rebuilt from the journals. So each image (one per run
 * of a shard) is caught up once, when first seen and before any of its live events: the events from the shard's
 * {@link EventPositions position} (up to which an earlier gateway of the session answered that run's events and
 * journaled the answers; else from the start of the run's recording) to the image's join position are replayed from
 * the {@link EventArchive} through the same {@link EngineEventAdapter} ({@code bourse_gateway_replayed_events_total}),
 * marked as replayed, and the journals' event sequence numbers skip those the sessions answer already. The replay runs
 * on the agent's thread, so no login is read meanwhile, and the shard holds its newer events while the live image is
 * not read (engine back pressure): none is lost, none comes out of order. Without the archive, or when it cannot
 * replay (counted as {@link GatewayError#EVENT_REPLAY_FAILED}), the image is read from its join position as before.
 * With the archive, once the answers of a duty cycle are journaled ({@link #onAnswersJournaled()}), the position read
 * to in each shard's newest image that was caught up is stored; one whose catch-up failed, or whose events threw in the
 * order logic, leaves the stored position where it was, so that a later restart replays from there (a session answers
 * a replayed event only when it answered no later one of the shard).
 */
final class EngineEventStreams
{
    private final Subscription[] subscriptions;
    private final EngineEventAdapter adapter;
    private final GatewayMetrics metrics;
    private final EventPositions positions;
    /** {@link Image#correlationId()} of the images caught up: their live events may be read. */
    private final LongHashSet caughtUpImages = new LongHashSet();
    /**
     * {@link Image#correlationId()} of the images whose catch-up failed or whose events threw in the order logic: their
     * positions are not stored.
     */
    private final LongHashSet gapImages = new LongHashSet();
    /** Per shard: the newest image read without a gap (the highest {@link Image#correlationId()}), null if none. */
    private final Image[] readImages;
    /** Marks each shard once an image of its stream was caught up, for {@link #catchUpReason()} on any thread. */
    private final EventCatchUpReadiness caughtUpShards;
    private final Consumer<Image> pollImage = this::pollImage;
    private final FragmentHandler replayHandler =
        (buffer, offset, length, header) -> onReplayed(buffer, offset);
    private final EventReplay replay;
    private int fragmentLimit;
    private int work;
    private int shardId;
    private int replayedStream;
    private boolean superseded;

    /**
     * @param subscriptions one per engine shard (none in tests without Aeron).
     * @param adapter       decodes the events, live and replayed.
     * @param replay        replays from the event archive; null when the archive is disabled, and the images are
     *                      read from their join positions.
     * @param metrics       counts the replayed events and the replays that failed.
     * @param positions     where a replay starts, and where the positions read to are stored, one entry per
     *                      subscription; null when the archive is disabled.
     */
    EngineEventStreams(
        final Subscription[] subscriptions,
        final EngineEventAdapter adapter,
        final EventReplay replay,
        final GatewayMetrics metrics,
        final EventPositions positions)
    {
        this.subscriptions = subscriptions;
        this.adapter = adapter;
        this.metrics = metrics;
        this.positions = positions;
        this.readImages = new Image[subscriptions.length];
        this.caughtUpShards = new EventCatchUpReadiness(subscriptions.length);
        this.replay = replay;
    }

    /**
     * For the gateway's readiness: whether every shard's event stream has had an image caught up (with the archive:
     * replayed up to its join position, or given up and counted). Any thread.
     *
     * @return null when every shard's stream was caught up or the archive is disabled, else the first shard that was
     * not, e.g. "matching-engine shard 1's events not yet caught up from the event archive".
     */
    String catchUpReason()
    {
        return null == replay ? null : caughtUpShards.notReadyReason();
    }

    /**
     * Reads every shard's images, each caught up first when new.
     *
     * @param fragmentLimit most events taken per image.
     * @return events read, replayed ones included.
     */
    int poll(final int fragmentLimit)
    {
        if (null == replay)
        {
            int events = 0;
            for (final Subscription subscription : subscriptions)
            {
                events += subscription.poll(adapter, fragmentLimit);
            }
            return events;
        }
        this.fragmentLimit = fragmentLimit;
        work = 0;
        for (shardId = 0; shardId < subscriptions.length; shardId++)
        {
            subscriptions[shardId].forEachImage(pollImage);
        }
        return work;
    }

    /**
     * Stores, per shard, the position read to in its newest image read without a gap: to be called once the answers
     * to every event read so far are journaled.
     */
    void onAnswersJournaled()
    {
        if (null == replay)
        {
            return;
        }
        for (int shard = 0; shard < readImages.length; shard++)
        {
            final Image image = readImages[shard];
            // One whose events threw in the order logic since keeps the position stored before.
            if (null != image && !gapImages.contains(image.correlationId()))
            {
                // Not polled since: the position read to (a closed image's final position is the same).
                positions.store(shard, image.sessionId(), image.position());
            }
        }
    }

    private void pollImage(final Image image)
    {
        final long correlationId = image.correlationId();
        // Marked first: an exception of the order logic during the replay reaches the agent's error handler once,
        // instead of replaying the stream again every duty cycle.
        if (caughtUpImages.add(correlationId))
        {
            superseded = false;
            try
            {
                work += catchUp(image);
            }
            finally
            {
                // Also when the order logic threw: the image is not caught up again, the gateway must not wait for it.
                // Not for a lingering image of an earlier run: the current run's image is caught up when it comes.
                if (!superseded)
                {
                    caughtUpShards.caughtUp(shardId);
                }
            }
        }
        try
        {
            work += image.poll(adapter, fragmentLimit);
        }
        catch (final RuntimeException ex)
        {
            // The image has moved past the event that threw: a later restart must replay it, so no position is stored.
            gapImages.add(correlationId);
            throw ex;
        }
        final Image read = readImages[shardId];
        if ((null == read || correlationId > read.correlationId()) && !gapImages.contains(correlationId))
        {
            readImages[shardId] = image;
        }
    }

    /**
     * Replays the recording of the image's stream from the shard's stored position (else from the recording's start)
     * to the image's join position, unless the image joined where that position or the stream starts, or a newer run
     * of the shard records meanwhile (an engine that stopped without closing its stream: its events are the old run's,
     * which the sessions' journaled event sequence numbers do not tell apart from the new run's). Every case that
     * replays nothing although events were missed (the newer run, a failure) marks the image as one with a gap.
     *
     * @return events replayed; 0 also when the replay failed (counted, and logged the first time).
     */
    private int catchUp(final Image image)
    {
        final long joinPosition = image.joinPosition();
        final int sessionId = image.sessionId();
        final long answeredPosition = positions.position(shardId, sessionId);
        if (0 == joinPosition || answeredPosition >= joinPosition)
        {
            return 0; // joined where the stream starts or where the gateway had read to: nothing was missed
        }
        final int streamId = image.subscription().streamId();
        gapImages.add(image.correlationId()); // until the replay reaches the join position
        try
        {
            replayedStream = sessionId;
            final int replayed = replay.replay(streamId, sessionId, answeredPosition, joinPosition, replayHandler);
            if (EventReplay.NO_RECORDING == replayed)
            {
                metrics.error(GatewayError.EVENT_REPLAY_FAILED, "event stream " + streamId,
                    "no recording of session " + sessionId + " in the event archive");
                return 0;
            }
            if (EventReplay.SUPERSEDED == replayed)
            {
                superseded = true;
                System.out.println("order-gateway: events of stream " + streamId + " session " + sessionId +
                    " before position " + joinPosition + " not replayed: a newer run of the shard records (" +
                    replay.newestRecordingId() + ")");
                return 0;
            }
            gapImages.remove(image.correlationId());
            if (replayed > 0)
            {
                System.out.println("order-gateway: replayed " + replayed + " events of stream " + streamId +
                    " session " + sessionId + " (positions " + replay.fromPosition() + " to " + joinPosition +
                    ") from the event archive, recording " + replay.recordingId());
            }
            return replayed;
        }
        catch (final AeronException ex)
        {
            metrics.error(GatewayError.EVENT_REPLAY_FAILED, "event stream " + streamId, ex);
            return 0;
        }
    }

    private void onReplayed(final DirectBuffer buffer, final int offset)
    {
        metrics.replayedEvents.inc();
        adapter.onEvent(replayedStream, true, buffer, offset);
    }
}
