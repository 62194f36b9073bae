package io.bourse.gateway;

import io.aeron.Aeron;
import io.aeron.ChannelUri;
import io.aeron.Image;
import io.aeron.Subscription;
import io.aeron.archive.client.AeronArchive;
import io.aeron.logbuffer.FragmentHandler;
import io.bourse.common.aeron.EventArchive;
import org.agrona.DirectBuffer;
import org.agrona.collections.LongHashSet;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.IdleStrategy;

import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * The engine shards' event streams as the gateway agent reads them, without the gap a late subscriber has. An Aeron
 * subscription joins a stream where it stands, so a gateway started while a shard runs (a restart) would never hear the
 * events the shard published before: the answers to the commands in flight at the stop, the cancels on disconnect the
 * stopping gateway sent, executions and expiries of the orders rebuilt from the journals. So each image (one per run
 * of a shard) is caught up once, when first seen and before any of its live events: the events from the start of the
 * shard's recording in the {@link EventArchive} to the image's join position are replayed through the same
 * {@link EngineEventAdapter} ({@code bourse_gateway_replayed_events_total}), marked as replayed, and the journals'
 * event sequence numbers skip those the sessions answer already. The replay runs on the agent's thread, so no login is
 * read meanwhile, and the shard holds its newer events while the live image is not read (engine back pressure): none
 * is lost, none comes out of order. Without the archive, or when it cannot replay (counted as {@link
 * GatewayError#EVENT_REPLAY_FAILED}), the image is read from its join position as before.
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
    /** {@link Image#correlationId()} of the images caught up: their live events may be read. */
    private final LongHashSet caughtUpImages = new LongHashSet();
    private final Consumer<Image> pollImage = this::pollImage;
    private final FragmentHandler replayHandler =
        (buffer, offset, length, header) -> onReplayed(buffer, offset);
    private final IdleStrategy replayIdle = new BackoffIdleStrategy();
    private int fragmentLimit;
    private int work;
    private int replayedStream;

    /**
     * @param subscriptions one per engine shard (none in tests without Aeron).
     * @param adapter       decodes the events, live and replayed.
     * @param aeron         the gateway's client, for the archive client and the replays; null without subscriptions.
     * @param archive       the event archive; when disabled, the images are read from their join positions.
     * @param metrics       counts the replayed events and the replays that failed.
     */
    EngineEventStreams(
        final Subscription[] subscriptions,
        final EngineEventAdapter adapter,
        final Aeron aeron,
        final EventArchive archive,
        final GatewayMetrics metrics)
    {
        this.subscriptions = subscriptions;
        this.adapter = adapter;
        this.aeron = aeron;
        this.archive = archive;
        this.metrics = metrics;
    }

    /**
     * Reads every shard's images, each caught up first when new.
     *
     * @param fragmentLimit most events taken per image.
     * @return events read, replayed ones included.
     */
    int poll(final int fragmentLimit)
    {
        this.fragmentLimit = fragmentLimit;
        work = 0;
        for (final Subscription subscription : subscriptions)
        {
            subscription.forEachImage(pollImage);
        }
        return work;
    }

    private void pollImage(final Image image)
    {
        if (!caughtUpImages.contains(image.correlationId()))
        {
            if (archive.enabled())
            {
                work += catchUp(image);
            }
            caughtUpImages.add(image.correlationId());
        }
        work += image.poll(adapter, fragmentLimit);
    }

    /**
     * Replays the recording of the image's stream from its start to the image's join position.
     *
     * @return events replayed; 0 also when the replay failed (counted and logged).
     */
    private int catchUp(final Image image)
    {
        final int streamId = image.subscription().streamId();
        final long joinPosition = image.joinPosition();
        try (AeronArchive client = AeronArchive.connect(archive.clientContext(aeron)))
        {
            final long recordingId = client.findLastMatchingRecording(0, "", streamId, image.sessionId());
            if (Aeron.NULL_VALUE == recordingId)
            {
                metrics.error(GatewayError.EVENT_REPLAY_FAILED, "event stream " + streamId,
                    "no recording of session " + image.sessionId() + " in the event archive");
                return 0;
            }
            final long startPosition = client.getStartPosition(recordingId);
            if (startPosition >= joinPosition)
            {
                return 0; // joined the stream where its recording starts: nothing was missed
            }
            final long replaySessionId = client.startReplay(recordingId, startPosition, joinPosition - startPosition,
                EventArchive.REPLAY_CHANNEL, archive.replayStreamId());
            try (Subscription replay = aeron.addSubscription(
                ChannelUri.addSessionId(EventArchive.REPLAY_CHANNEL, (int)replaySessionId), archive.replayStreamId()))
            {
                replayedStream = image.sessionId();
                final int replayed = drain(replay, (int)replaySessionId, startPosition, joinPosition);
                System.out.println("order-gateway: replayed " + replayed + " events of stream " + streamId +
                    " session " + image.sessionId() + " (positions " + startPosition + " to " + joinPosition +
                    ") from the event archive, recording " + recordingId);
                return replayed;
            }
        }
        catch (final RuntimeException ex)
        {
            metrics.error(GatewayError.EVENT_REPLAY_FAILED, "event stream " + streamId, ex);
            return 0;
        }
    }

    /**
     * Reads a replay up to the join position.
     *
     * @return events read.
     * @throws IllegalStateException when the replay ends short of the join position or makes no progress for 10 s.
     */
    private int drain(
        final Subscription replay, final int replaySessionId, final long startPosition, final long joinPosition)
    {
        int replayed = 0;
        long position = startPosition;
        long progressNs = System.nanoTime();
        Image image = null;
        while (position < joinPosition)
        {
            if (null == image)
            {
                image = replay.imageBySessionId(replaySessionId);
            }
            final int fragments = null == image ? 0 : image.poll(replayHandler, REPLAY_FRAGMENT_LIMIT);
            if (fragments > 0)
            {
                replayed += fragments;
                position = image.position();
                progressNs = System.nanoTime();
                replayIdle.reset();
                continue;
            }
            if (null != image && image.isClosed())
            {
                throw new IllegalStateException("the replay ended at position " + image.position() + " of " +
                    joinPosition + " after " + replayed + " events");
            }
            if (System.nanoTime() - progressNs > REPLAY_STALL_TIMEOUT_NS)
            {
                throw new IllegalStateException("the replay made no progress for 10 s at position " + position +
                    " of " + joinPosition + " after " + replayed + " events");
            }
            replayIdle.idle();
        }
        return replayed;
    }

    private void onReplayed(final DirectBuffer buffer, final int offset)
    {
        metrics.replayedEvents.inc();
        adapter.onEvent(replayedStream, true, buffer, offset);
    }
}
