package io.bourse.gateway;

import io.aeron.Aeron;
import io.aeron.Image;
import io.aeron.Subscription;
import io.aeron.archive.client.AeronArchive;
import io.aeron.exceptions.AeronException;
import io.aeron.logbuffer.FragmentHandler;
import io.bourse.common.aeron.EventArchive;
import io.bourse.common.aeron.StreamRecordings;
import org.agrona.DirectBuffer;
import org.agrona.collections.LongHashSet;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.IdleStrategy;

import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicIntegerArray;
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
    /** Events taken per poll of a replay. */
    private static final int REPLAY_FRAGMENT_LIMIT = 4096;
    /** How long a replay may make no progress before it is given up. */
    private static final long REPLAY_STALL_TIMEOUT_NS = TimeUnit.SECONDS.toNanos(10);

    private final Subscription[] subscriptions;
    private final EngineEventAdapter adapter;
    private final Aeron aeron;
    private final EventArchive archive;
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
    /** Per shard: 1 once an image of its stream was caught up, for {@link #catchUpReason()} on any thread. */
    private final AtomicIntegerArray caughtUpShards;
    private final Consumer<Image> pollImage = this::pollImage;
    private final FragmentHandler replayHandler =
        (buffer, offset, length, header) -> onReplayed(buffer, offset);
    private final IdleStrategy replayIdle = new BackoffIdleStrategy();
    private final StreamRecording recordings = new StreamRecording();
    private int fragmentLimit;
    private int work;
    private int shardId;
    private int replayedStream;

    /**
     * @param subscriptions one per engine shard (none in tests without Aeron).
     * @param adapter       decodes the events, live and replayed.
     * @param aeron         the gateway's client, for the archive client and the replays; null without subscriptions.
     * @param archive       the event archive; when disabled, the images are read from their join positions.
     * @param metrics       counts the replayed events and the replays that failed.
     * @param positions     where a replay starts, and where the positions read to are stored, one entry per
     *                      subscription; null when the archive is disabled.
     */
    EngineEventStreams(
        final Subscription[] subscriptions,
        final EngineEventAdapter adapter,
        final Aeron aeron,
        final EventArchive archive,
        final GatewayMetrics metrics,
        final EventPositions positions)
    {
        this.subscriptions = subscriptions;
        this.adapter = adapter;
        this.aeron = aeron;
        this.archive = archive;
        this.metrics = metrics;
        this.positions = positions;
        this.readImages = new Image[subscriptions.length];
        this.caughtUpShards = new AtomicIntegerArray(subscriptions.length);
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
        if (archive.enabled())
        {
            for (int shard = 0; shard < subscriptions.length; shard++)
            {
                if (0 == caughtUpShards.get(shard))
                {
                    return "matching-engine shard " + shard + "'s events not yet caught up from the event archive";
                }
            }
        }
        return null;
    }

    /**
     * Reads every shard's images, each caught up first when new.
     *
     * @param fragmentLimit most events taken per image.
     * @return events read, replayed ones included.
     */
    int poll(final int fragmentLimit)
    {
        if (!archive.enabled())
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
        if (!archive.enabled())
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
            try
            {
                work += catchUp(image);
            }
            finally
            {
                // Also when the order logic threw: the image is not caught up again, the gateway must not wait for it.
                caughtUpShards.set(shardId, 1);
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
            final Subscription replay;
            final long replayPosition;
            try (AeronArchive client = AeronArchive.connect(archive.clientContext(aeron)))
            {
                recordings.find(client, streamId, sessionId);
                if (Aeron.NULL_VALUE == recordings.recordingId)
                {
                    metrics.error(GatewayError.EVENT_REPLAY_FAILED, "event stream " + streamId,
                        "no recording of session " + sessionId + " in the event archive");
                    return 0;
                }
                if (recordings.recordingId != recordings.newestRecordingId)
                {
                    System.out.println("order-gateway: events of stream " + streamId + " session " + sessionId +
                        " before position " + joinPosition + " not replayed: a newer run of the shard records (" +
                        recordings.newestRecordingId + ")");
                    return 0;
                }
                replayPosition = Math.max(recordings.startPosition, answeredPosition);
                if (replayPosition >= joinPosition)
                {
                    gapImages.remove(image.correlationId());
                    return 0;
                }
                // The subscription carries the replay's session id: its one image is the replay.
                replay = client.replay(recordings.recordingId, replayPosition, joinPosition - replayPosition,
                    EventArchive.REPLAY_CHANNEL, archive.replayStreamId());
            }
            try (replay)
            {
                replayedStream = sessionId;
                final int replayed = drain(replay, joinPosition);
                gapImages.remove(image.correlationId());
                System.out.println("order-gateway: replayed " + replayed + " events of stream " + streamId +
                    " session " + sessionId + " (positions " + replayPosition + " to " + joinPosition +
                    ") from the event archive, recording " + recordings.recordingId);
                return replayed;
            }
        }
        catch (final AeronException ex)
        {
            metrics.error(GatewayError.EVENT_REPLAY_FAILED, "event stream " + streamId, ex);
            return 0;
        }
    }

    /**
     * Reads a replay up to the join position.
     *
     * @return events read.
     * @throws AeronException when the replay ends short of the join position or makes no progress for 10 s.
     */
    private int drain(final Subscription replay, final long joinPosition)
    {
        int replayed = 0;
        long progressNs = System.nanoTime();
        Image image = null;
        while (true)
        {
            if (null == image)
            {
                final List<Image> images = replay.images();
                image = images.isEmpty() ? null : images.getFirst();
            }
            if (null != image)
            {
                final int fragments = image.poll(replayHandler, REPLAY_FRAGMENT_LIMIT);
                // Read after every poll: one that takes only a term's padding returns 0 and still moves it.
                final long position = image.position();
                if (position >= joinPosition)
                {
                    return replayed + fragments;
                }
                if (fragments > 0)
                {
                    replayed += fragments;
                    progressNs = System.nanoTime();
                    replayIdle.reset();
                    continue;
                }
                if (image.isClosed())
                {
                    throw new AeronException("the replay ended at position " + position + " of " + joinPosition +
                        " after " + replayed + " events");
                }
            }
            if (System.nanoTime() - progressNs > REPLAY_STALL_TIMEOUT_NS)
            {
                throw new AeronException("the replay made no progress for 10 s before position " + joinPosition +
                    " after " + replayed + " events");
            }
            replayIdle.idle();
        }
    }

    private void onReplayed(final DirectBuffer buffer, final int offset)
    {
        metrics.replayedEvents.inc();
        adapter.onEvent(replayedStream, true, buffer, offset);
    }

    /**
     * The archive's recordings of one event stream: the one of a given session (a run of the shard) with its start
     * position, and the newest of the stream (the latest run).
     */
    private static final class StreamRecording implements StreamRecordings.RecordingConsumer
    {
        private int sessionId;
        private long recordingId;
        private long startPosition;
        private long newestRecordingId;

        /**
         * @param client    connected to the archive.
         * @param streamId  the event stream.
         * @param sessionId the run of the shard whose recording is wanted.
         */
        void find(final AeronArchive client, final int streamId, final int sessionId)
        {
            this.sessionId = sessionId;
            recordingId = Aeron.NULL_VALUE;
            newestRecordingId = Aeron.NULL_VALUE;
            StreamRecordings.forEach(client, streamId, this);
        }

        @Override
        public void onRecording(
            final long recordingId, final int sessionId, final long startPosition, final long stopPosition)
        {
            newestRecordingId = Math.max(newestRecordingId, recordingId);
            if (this.sessionId == sessionId)
            {
                this.recordingId = recordingId;
                this.startPosition = startPosition;
            }
        }
    }
}
