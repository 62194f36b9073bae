package io.bourse.gateway;

import io.aeron.Image;
import io.aeron.Subscription;
import io.aeron.archive.client.AeronArchive;
import io.aeron.exceptions.AeronException;
import io.aeron.logbuffer.FragmentHandler;
import io.bourse.common.EngineEventTemplates;
import io.bourse.common.aeron.EventArchive;
import io.bourse.common.aeron.EventCatchUpReadiness;
import io.bourse.common.aeron.EventReplay;
import io.bourse.sbe.engine.MessageHeaderDecoder;
import org.agrona.DirectBuffer;
import org.agrona.collections.LongHashSet;

import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
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
 * a replayed event only when it answered no later one of the shard). A new run of a shard is caught up only once the
 * image of the run read before it has been read to its end, and an image whose catch-up finds a newer run recording (it
 * lingers: another reader holds the earlier run's stream) has its events dropped, as the newer run's catch-up replays
 * that run: so a session answers the runs' events once each, in the order the runs made them.
 *
 * <p>A shard that is down has no image, but its last run may hold events the sessions must hear before any login (an
 * execution of an order of this gateway id, whose session index a new session must not take again; the answers to the
 * commands of a gateway that stopped with it). So a shard with no image that was never caught up has the recordings of
 * its stream listed (after a second, then at most once a second): when its newest run has stopped, the runs from the
 * one the stored position is of (from that position) to the newest are replayed, and the shard counts as caught up;
 * when the archive holds no run of the shard, there is nothing to hear and it counts as caught up too; a newest run
 * still recording (the shard runs, its image not here yet) waits for its image. So a down shard does not hold back the
 * logins, and its orders are refused as the engine's are when it is unreachable.
 */
final class EngineEventStreams
{
    /** How often the archive is asked for the runs of a shard with no image. */
    private static final long RUN_LOOKUP_INTERVAL_NS = TimeUnit.SECONDS.toNanos(1);

    private final Subscription[] subscriptions;
    private final EngineEventAdapter adapter;
    private final GatewayMetrics metrics;
    private EventPositions positions;
    /** {@link Image#correlationId()} of the images caught up: their live events may be read. */
    private final LongHashSet caughtUpImages = new LongHashSet();
    /**
     * {@link Image#correlationId()} of the images whose catch-up failed or whose events threw in the order logic: their
     * positions are not stored.
     */
    private final LongHashSet gapImages = new LongHashSet();
    /**
     * {@link Image#correlationId()} of the images whose catch-up found a newer run of their shard recording (a
     * lingering image of an earlier run): their events are read and dropped, as the newer run's catch-up replays them.
     */
    private final LongHashSet supersededImages = new LongHashSet();
    /** Per shard: the newest image read without a gap (the highest {@link Image#correlationId()}), null if none. */
    private final Image[] readImages;
    /**
     * Per shard: the newest image read live, with a gap or not (superseded ones aside), null if none: the run a new
     * run's image waits behind ({@link #hasUnreadEarlierRun}).
     */
    private final Image[] liveImages;
    /**
     * Marks each shard once its stream was caught up (an image, or a down shard's runs), for
     * {@link #catchUpReason()} on any thread.
     */
    private final EventCatchUpReadiness caughtUpShards;
    private final Consumer<Image> pollImage = this::pollImage;
    /** Without the archive: the subscription's image of the oldest run not read to its end, found each duty cycle. */
    private Image oldestUnread;
    private final Consumer<Image> oldestUnreadFinder = this::findOldestUnread;
    /** Takes a superseded image's events: nothing. */
    private static final FragmentHandler DROPPED = (buffer, offset, length, header) -> { };
    private final FragmentHandler replayHandler =
        (buffer, offset, length, header) -> onReplayed(buffer, offset, length);
    private final EventReplay replay;
    private final DutyCycleClock clock;
    private final MessageHeaderDecoder replayedHeader = new MessageHeaderDecoder();
    /** Per shard with no image: when its runs may be listed (next), once {@link #lookupScheduled} is set. */
    private final long[] nextRunLookupNs;
    private final boolean[] lookupScheduled;
    /**
     * Per shard with no image read: the session id of a stopped run replayed to its end, and that end, stored as the
     * shard's position once the answers are journaled; {@link AeronArchive#NULL_POSITION} when none.
     */
    private final int[] stoppedRunSessionIds;
    private final long[] stoppedRunPositions;
    /**
     * Per shard: the recording of the newest run replayed to its stop (its events answered), {@link #NO_RUN} before
     * any: a later catch-up of the shard (the newer run's image, after one that turned out superseded) replays only the
     * runs after it.
     */
    private final long[] answeredRunsTo;
    private static final long NO_RUN = -1;
    private int fragmentLimit;
    private int work;
    private int shardId;
    private int replayedStream;
    private boolean superseded;
    /** Every shard's stream caught up ({@link #isCaughtUp}), cached once true. */
    private boolean caughtUp;
    /** The earlier runs' replay of the image being caught up failed: the image has a gap. */
    private boolean earlierRunsGap;

    /**
     * @param subscriptions one per engine shard (none in tests without Aeron).
     * @param adapter       decodes the events, live and replayed.
     * @param replay        replays from the event archive; null when the archive is disabled, and the images are
     *                      read from their join positions.
     * @param metrics       counts the replayed events and the replays that failed.
     * @param clock         the agent's clock, which paces the lookups of a shard with no image.
     */
    EngineEventStreams(
        final Subscription[] subscriptions,
        final EngineEventAdapter adapter,
        final EventReplay replay,
        final GatewayMetrics metrics,
        final DutyCycleClock clock)
    {
        this.subscriptions = subscriptions;
        this.adapter = adapter;
        this.metrics = metrics;
        this.readImages = new Image[subscriptions.length];
        this.liveImages = new Image[subscriptions.length];
        this.caughtUpShards = new EventCatchUpReadiness(subscriptions.length);
        this.replay = replay;
        this.clock = clock;
        this.nextRunLookupNs = new long[subscriptions.length];
        this.lookupScheduled = new boolean[subscriptions.length];
        this.stoppedRunSessionIds = new int[subscriptions.length];
        this.stoppedRunPositions = new long[subscriptions.length];
        Arrays.fill(stoppedRunPositions, AeronArchive.NULL_POSITION);
        this.answeredRunsTo = new long[subscriptions.length];
        Arrays.fill(answeredRunsTo, NO_RUN);
    }

    /**
     * Hands the events to a trading day from now on: the first before the first poll, the next one at a rollover, once
     * the answers to every event read so far are journaled in the day before and the positions stored
     * ({@link #onAnswersJournaled()}).
     *
     * @param orderEntry the day's order logic.
     * @param positions  the day's {@link EventPositions}: where a replay starts, and where the positions read to are
     *                   stored from now on, one entry per subscription; null when the archive is disabled. At a
     *                   rollover the day before's positions are copied into it first (a shard down included, and one
     *                   whose journal failed kept where it was), so that a gateway restarted in the new day replays
     *                   only the events the day before had not answered.
     */
    void openDay(final OrderEntry orderEntry, final EventPositions positions)
    {
        if (null != this.positions && null != positions)
        {
            this.positions.copyTo(positions);
        }
        adapter.orderEntry(orderEntry);
        this.positions = positions;
    }

    /**
     * For the gateway's readiness: whether every shard's event stream has been caught up (with the archive: an image
     * replayed up to its join position, or a stopped run to its end, or given up and counted; or no run recorded).
     * Any thread.
     *
     * @return null when every shard's stream was caught up or the archive is disabled, else the first shard that was
     * not, e.g. "matching-engine shard 1's events not yet caught up from the event archive".
     */
    String catchUpReason()
    {
        return null == replay ? null : caughtUpShards.notReadyReason();
    }

    /**
     * @return true once every shard's event stream was caught up from the event archive (or without it), so that the
     *         open orders tell what the shards hold; agent thread. A shard caught up stays so: once true, one test per
     *         call (the agent asks every duty cycle).
     */
    boolean isCaughtUp()
    {
        if (!caughtUp)
        {
            caughtUp = true;
            for (int shardId = 0; null != replay && shardId < subscriptions.length; shardId++)
            {
                caughtUp &= caughtUpShards.isCaughtUp(shardId);
            }
        }
        return caughtUp;
    }

    /**
     * Reads every shard's images, each caught up first when new. Without the archive, a shard's runs are read one
     * after the other too: only its oldest image not yet read to the end of its stream (nor closed) is polled, so
     * that no event of a new run, its CommandStreamJoined above all, is taken before an event of the run it follows
     * that this gateway had not read yet (it would reject 'H' an order that run answered). A run killed without
     * closing its stream holds the next run's events back until the media driver times its client out.
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
                oldestUnread = null;
                subscription.forEachImage(oldestUnreadFinder);
                events += null == oldestUnread ? 0 : oldestUnread.poll(adapter, fragmentLimit);
            }
            return events;
        }
        this.fragmentLimit = fragmentLimit;
        work = 0;
        for (shardId = 0; shardId < subscriptions.length; shardId++)
        {
            final Subscription subscription = subscriptions[shardId];
            subscription.forEachImage(pollImage);
            if (0 == subscription.imageCount() && !caughtUpShards.isCaughtUp(shardId))
            {
                work += catchUpStoppedRun(subscription.streamId());
            }
        }
        return work;
    }

    /**
     * @param shardId an engine shard.
     * @return true when the shard's event stream has a publisher connected (an engine run that can answer); false for a
     *         shard not subscribed to (tests without Aeron), and once the Aeron client closed (its media driver gone:
     *         a closed subscription has no image).
     */
    boolean isConnected(final int shardId)
    {
        return shardId < subscriptions.length && subscriptions[shardId].isConnected();
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
            else if (null == image && AeronArchive.NULL_POSITION != stoppedRunPositions[shard])
            {
                positions.store(shard, stoppedRunSessionIds[shard], stoppedRunPositions[shard]);
                stoppedRunPositions[shard] = AeronArchive.NULL_POSITION;
            }
        }
    }

    private void pollImage(final Image image)
    {
        final long correlationId = image.correlationId();
        if (!caughtUpImages.contains(correlationId) && hasUnreadEarlierRun(image))
        {
            return; // caught up once the shard's earlier run has been read to its end
        }
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
                else
                {
                    supersededImages.add(correlationId);
                }
            }
        }
        final Image live = liveImages[shardId];
        if (!supersededImages.contains(correlationId) && (null == live || correlationId > live.correlationId()))
        {
            liveImages[shardId] = image;
        }
        try
        {
            // A superseded image's events are dropped: the newer run's catch-up replays its run from the stored
            // position to its stop, and a session must not answer them twice nor out of the runs' order.
            work += image.poll(supersededImages.contains(correlationId) ? DROPPED : adapter, fragmentLimit);
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

    private void findOldestUnread(final Image image)
    {
        if (!isReadToItsEnd(image) && (null == oldestUnread || image.correlationId() < oldestUnread.correlationId()))
        {
            oldestUnread = image;
        }
    }

    /**
     * Whether a new image is of another run than the shard's image read live last (one with a gap too), and that one
     * has not been read to the end of its stream yet: the archive stops recording a run when it reaches the end of the
     * stream, so a restarted engine can recover and publish while this gateway is still behind on the earlier run. The
     * new run is caught up once the earlier run's image has been read to its end (or has closed), so that no event of
     * the new run is answered before one of the earlier run: a session's journal records one engine stream per shard as
     * answered ({@link UserSession#isAnswered}), and two streams read by turns would answer events twice, or not at
     * all. An image of a run older than the one read last (listed after it) waits likewise, for good: the newer run's
     * catch-up replayed its run, and the media driver drops it once it is left unread.
     */
    private boolean hasUnreadEarlierRun(final Image image)
    {
        final Image live = liveImages[shardId];
        return null != live && live.sessionId() != image.sessionId() && !isReadToItsEnd(live);
    }

    /** @return true once a run's image holds nothing more to read: read to the end of its stream, or closed. */
    private static boolean isReadToItsEnd(final Image image)
    {
        return image.isClosed() || image.isEndOfStream();
    }

    /**
     * Replays the recording of the image's stream from where its events were answered ({@link #positionAnswered}; else
     * from the recording's start) to the image's join position, unless the image joined where that position or the
     * stream starts, or a newer run of the shard records meanwhile (an engine that stopped without closing its stream:
     * its events are the old run's, which the sessions' journaled event sequence numbers do not tell apart from the new
     * run's). Every case that replays nothing although events were missed (the newer run, a failure) marks the image as
     * one with a gap.
     *
     * @return events replayed, those of earlier runs included; none of the run's own when its replay failed (counted,
     * and logged the first time).
     */
    private int catchUp(final Image image)
    {
        final long joinPosition = image.joinPosition();
        final int sessionId = image.sessionId();
        final int streamId = image.subscription().streamId();
        final int earlier = catchUpEarlierRuns(image);
        final long answeredPosition = positionAnswered(sessionId);
        if (0 == joinPosition || answeredPosition >= joinPosition)
        {
            return earlier; // joined where the run starts or where the gateway had read to: nothing of it was missed
        }
        gapImages.add(image.correlationId()); // until the replay reaches the join position
        try
        {
            replayedStream = sessionId;
            final int replayed = replay.replay(streamId, sessionId, answeredPosition, joinPosition, replayHandler);
            if (EventReplay.NO_RECORDING == replayed)
            {
                metrics.error(GatewayError.EVENT_REPLAY_FAILED, "event stream " + streamId,
                    "no recording of session " + sessionId + " in the event archive");
                return earlier;
            }
            if (EventReplay.SUPERSEDED == replayed)
            {
                superseded = true;
                System.out.println("order-gateway: events of stream " + streamId + " session " + sessionId +
                    " before position " + joinPosition + " not replayed: a newer run of the shard records (" +
                    replay.newestRecordingId() + ")");
                return earlier;
            }
            if (!earlierRunsGap)
            {
                gapImages.remove(image.correlationId());
            }
            if (replayed > 0)
            {
                System.out.println("order-gateway: replayed " + replayed + " events of stream " + streamId +
                    " session " + sessionId + " (positions " + replay.fromPosition() + " to " + joinPosition +
                    ") from the event archive, recording " + replay.recordingId());
            }
            return earlier + replayed;
        }
        catch (final AeronException ex)
        {
            metrics.error(GatewayError.EVENT_REPLAY_FAILED, "event stream " + streamId, ex);
            return earlier;
        }
    }

    /**
     * Replays what the gateway missed of the shard's earlier runs when its stored position is of one of them, before
     * the image's own run: that run from the stored position to where it stopped, then each run after it whole, since
     * a restarted engine shard continues the state of its earlier runs (an execution there of an order the gateway
     * knows is answered now). Nothing when the stored position is of the image's run, of none or of a run no longer
     * listed, or the image's run is not the newest (left to the replay of the run itself); one not listed yet (its
     * shard starts recording it) is newer than every run listed ({@link EventReplay#runIndex}). A failure is counted
     * and marks the image as one with a gap, so that no position of it is stored and a later restart replays from the
     * earlier run again.
     *
     * @return events replayed.
     */
    private int catchUpEarlierRuns(final Image image)
    {
        earlierRunsGap = false;
        final int sessionId = image.sessionId();
        if (!positions.isStored(shardId) || positions.sessionId(shardId) == sessionId)
        {
            return 0;
        }
        final int streamId = image.subscription().streamId();
        try
        {
            final List<EventReplay.Run> runs = replay.runs(streamId);
            final int stored = EventReplay.runIndex(runs, positions.sessionId(shardId));
            final int current = EventReplay.runIndex(runs, sessionId);
            if (stored >= current || current < runs.size() - 1)
            {
                return 0;
            }
            final int replayed = replayRuns(runs, stored, current - 1);
            System.out.println("order-gateway: replayed " + replayed + " events of the earlier runs of stream " +
                streamId + " from session " + runs.get(stored).sessionId() + " on, before session " + sessionId);
            return replayed;
        }
        catch (final AeronException ex)
        {
            earlierRunsGap = true;
            gapImages.add(image.correlationId());
            metrics.error(GatewayError.EVENT_REPLAY_FAILED, "event stream " + streamId, ex);
            return 0;
        }
    }

    /**
     * Catches up the current shard, which has no image and was never caught up, from the archive: when its newest run
     * has stopped, the runs from the one the stored position is of (from that position) to the newest are replayed,
     * or the newest alone, whole, when the stored position is of none of them; with no run recorded there is nothing
     * to hear. Either way, and when the archive fails (counted, logged the first time) or anything else throws (the
     * order logic; the run's end then not stored), the shard counts as caught up; a newest run still recording waits
     * for its image. The first lookup comes a second after the shard is first seen without an image, then at most
     * once a second.
     *
     * @param streamId the shard's event stream.
     * @return events replayed.
     */
    private int catchUpStoppedRun(final int streamId)
    {
        final long nowNs = clock.nanoTime();
        if (!lookupScheduled[shardId])
        {
            // A second for the image of a running shard to come before the archive is asked.
            lookupScheduled[shardId] = true;
            nextRunLookupNs[shardId] = nowNs + RUN_LOOKUP_INTERVAL_NS;
            return 0;
        }
        if (nowNs - nextRunLookupNs[shardId] < 0)
        {
            return 0;
        }
        nextRunLookupNs[shardId] = nowNs + RUN_LOOKUP_INTERVAL_NS;
        boolean waitForImage = false;
        try
        {
            final List<EventReplay.Run> runs = replay.runs(streamId);
            if (runs.isEmpty())
            {
                return 0; // no run of the shard since the archive started: nothing to hear
            }
            final int newest = runs.size() - 1;
            final EventReplay.Run newestRun = runs.get(newest);
            if (newestRun.recording())
            {
                waitForImage = true; // the shard runs: its image is on its way
                return 0;
            }
            final int stored = positions.isStored(shardId) ?
                EventReplay.runIndex(runs, positions.sessionId(shardId)) : runs.size();
            final int first = Math.min(stored, newest);
            final int replayed = replayRuns(runs, first, newest);
            stoppedRunSessionIds[shardId] = newestRun.sessionId();
            stoppedRunPositions[shardId] = newestRun.stopPosition();
            System.out.println("order-gateway: matching-engine shard " + shardId + " is down; replayed " + replayed +
                " events of its runs from session " + runs.get(first).sessionId() + " to its last run (stream " +
                streamId + " session " + newestRun.sessionId() + ", to position " + newestRun.stopPosition() +
                ") from the event archive");
            return replayed;
        }
        catch (final AeronException ex)
        {
            metrics.error(GatewayError.EVENT_REPLAY_FAILED, "event stream " + streamId, ex);
            return 0;
        }
        finally
        {
            // Also when the order logic threw: the run is not replayed again every second, the gateway must not wait
            // for it; its position is then not stored, so a later restart replays it.
            if (!waitForImage)
            {
                caughtUpShards.caughtUp(shardId);
            }
        }
    }

    /**
     * Replays the stopped runs of a shard from the first given to the last given: the first from the stored position
     * when that is of it (else from its start), the others whole. A run still recording is skipped: a run after it
     * did not recover from it.
     *
     * @param runs  the shard's runs, oldest first ({@link EventReplay#runs}).
     * @param first index of the first run replayed.
     * @param last  index of the last run replayed, inclusive.
     * @return events replayed.
     * @throws AeronException when a replay fails.
     */
    private int replayRuns(final List<EventReplay.Run> runs, final int first, final int last)
    {
        int replayed = 0;
        for (int i = first; i <= last; i++)
        {
            final EventReplay.Run run = runs.get(i);
            if (run.recording() || run.recordingId() <= answeredRunsTo[shardId])
            {
                continue; // (the archive numbers recordings in the order they start)
            }
            final long fromPosition = i == first ? Math.max(run.startPosition(), positionAnswered(run.sessionId())) :
                run.startPosition();
            replayedStream = run.sessionId();
            replayed += replay.replayRecording(run.recordingId(), fromPosition, run.stopPosition(), replayHandler);
            answeredRunsTo[shardId] = run.recordingId();
        }
        return replayed;
    }

    /**
     * @param sessionId a run of the current shard: the Aeron session id of its event stream.
     * @return the stream position up to which the run's events were answered: the stored one, or where this gateway
     *         has read the run's image to since it was stored (the position is stored at the duty cycle's end, and the
     *         earlier run's image may have been read to its end in this cycle, just before the new run's image is
     *         caught up).
     */
    private long positionAnswered(final int sessionId)
    {
        final Image read = readImages[shardId];
        final long stored = positions.position(shardId, sessionId);
        return null != read && read.sessionId() == sessionId ? Math.max(stored, read.position()) : stored;
    }

    private void onReplayed(final DirectBuffer buffer, final int offset, final int length)
    {
        final int templateId = replayedHeader.wrap(buffer, offset).templateId();
        if (EngineEventTemplates.isNumbered(templateId))
        {
            metrics.replayedEvents.inc(); // not the shard's input log, an answer to an admin command or a join
        }
        adapter.onEvent(replayedStream, true, buffer, offset, length);
    }
}
