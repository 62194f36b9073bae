package io.bourse.mdpublisher;

import io.aeron.exceptions.AeronException;
import io.aeron.exceptions.TimeoutException;
import io.aeron.logbuffer.FragmentHandler;
import io.bourse.common.EngineEventTemplates;
import io.bourse.common.aeron.EventReplay;
import io.bourse.common.aeron.StreamLayout;
import io.bourse.common.metrics.ErrorKinds;
import io.bourse.sbe.engine.MessageHeaderDecoder;
import io.prometheus.metrics.core.metrics.Counter;

import java.util.List;

/**
 * Rebuilds the md-publisher's books from an engine shard's recorded runs ({@link EventReplay#runs}), replayed from the
 * event archive oldest first, each event once: what the books hold is noted in {@link ReplayedRuns} as it is
 * replayed, so a replay that fails part way, or a later one, goes on from there.
 * <p>
 * A restarted md-publisher does it before it subscribes to the shards' event streams, without publishing
 * ({@link MarketDataBooks#rebuilding}; {@link #rebuildBeforeSubscribing}): a live image that is not read while a long
 * day is replayed would hold the shard's newer events back (engine back pressure) until the media driver leaves it
 * behind; with no subscription yet, nothing is held. The run still recording is replayed to where the archive has
 * recorded it, again until that is within {@link #LIVE_GAP_BYTES} of where the replay stands; every shard is rebuilt
 * so, then each again for what it recorded meanwhile, and only then are the shards subscribed to, so that the image
 * that joins has only a short stretch to catch up ({@link EngineEventStreams}, which publishes the rebuilt books
 * first). The shards' catch-ups replay the runs the books do not hold yet published ({@link #replayRuns}).
 */
final class BooksRebuild
{
    /**
     * How close to the recorded position of the run still recording the replay must come before the shard is
     * subscribed to, in bytes: an eighth of the live image's term window at the default 4 MiB IPC term (2 MiB), so
     * the rest is replayed in a few milliseconds.
     */
    static final long LIVE_GAP_BYTES = 256 * 1024;
    /**
     * Most replays of the run still recording: a shard that records faster than the archive replays (which it does
     * not, by an order of magnitude) leaves the rest to its image's catch-up.
     */
    static final int MAX_CHASE_REPLAYS = 8;
    /** What {@link #rebuildBeforeSubscribing(int, int)} returns when a replay failed. */
    static final int FAILED = -1;
    /** What {@link #rebuildBeforeSubscribing(int, int)} returns when the archive did not answer in time. */
    static final int UNANSWERED = -2;

    private final int shardCount;
    private final EventReplay replay;
    private final MarketDataBooks books;
    private final ReplayedRuns replayedRuns;
    private final ErrorKinds<MdPublisherError> errors;
    private final FragmentHandler replayHandler;
    private final FragmentHandler heldHandler;
    private int shardId;
    private EventReplay.Run run;

    /**
     * @param shardCount     engine shards.
     * @param replay         replays from the event archive.
     * @param books          the books rebuilt.
     * @param adapter        decodes the events replayed into the books.
     * @param replayedEvents counts the events replayed (of the shards' input logs).
     * @param errors         counts a rebuild that failed ({@link MdPublisherError#EVENT_REPLAY_FAILED}).
     */
    BooksRebuild(
        final int shardCount,
        final EventReplay replay,
        final MarketDataBooks books,
        final FragmentHandler adapter,
        final Counter replayedEvents,
        final ErrorKinds<MdPublisherError> errors)
    {
        this.shardCount = shardCount;
        this.replay = replay;
        this.books = books;
        this.replayedRuns = new ReplayedRuns(shardCount);
        this.errors = errors;
        final MessageHeaderDecoder replayedHeader = new MessageHeaderDecoder();
        this.replayHandler = (buffer, offset, length, header) ->
        {
            final int templateId = replayedHeader.wrap(buffer, offset).templateId();
            if (EngineEventTemplates.isNumbered(templateId))
            {
                replayedEvents.inc(); // not the shard's input log, an answer to an admin command or a join
            }
            adapter.onFragment(buffer, offset, length, header);
        };
        this.heldHandler = (buffer, offset, length, header) ->
        {
            replayedRuns.held(shardId, run.recordingId(), run.sessionId(), header.position());
            replayHandler.onFragment(buffer, offset, length, header);
        };
    }

    /** @return replays from the event archive. */
    EventReplay replay()
    {
        return replay;
    }

    /** @return takes an event replayed into the books and counts it; for the replays of the shards' live runs. */
    FragmentHandler replayHandler()
    {
        return replayHandler;
    }

    /** @return what the books hold of each shard's runs. */
    ReplayedRuns replayedRuns()
    {
        return replayedRuns;
    }

    /**
     * Rebuilds the books of every shard ({@link #rebuildBeforeSubscribing(int, int)}) before the md-publisher
     * subscribes to any: each shard, then each again for what it recorded meanwhile (a shard subscribed to while
     * another's long day is replayed would be held back by its unread image). A shard whose rebuild failed (its runs
     * could not be listed, or the replay of its run still recording failed; a stopped run that cannot be replayed is
     * only skipped, {@link #replayRuns}) is not rebuilt again, and its image catches up the rest; an archive that does
     * not answer (Aeron's {@link TimeoutException}: not running, or not reachable) stops the whole rebuild at once, so
     * that it costs one connect timeout of the archive client (Aeron's message timeout, 10 s by default) and one
     * count, not one per shard and pass. A shard of which the books hold no run then is rebuilt by its first image's
     * catch-up, without publishing, and its books published after it ({@link EngineEventStreams}): its history is not
     * published as increments.
     *
     * @param layout the shards' event stream ids.
     * @return events replayed by the shards' rebuilds that did not fail.
     */
    int rebuildAllBeforeSubscribing(final StreamLayout layout)
    {
        final boolean[] failed = new boolean[shardCount];
        int replayed = 0;
        for (int pass = 0; pass < 2; pass++)
        {
            for (int shardId = 0; shardId < shardCount; shardId++)
            {
                if (failed[shardId])
                {
                    continue;
                }
                final int shardReplayed = rebuildBeforeSubscribing(shardId, layout.eventStreamId(shardId));
                if (UNANSWERED == shardReplayed)
                {
                    System.err.println("[md-publisher] books rebuild before subscribing stopped at shard " + shardId +
                        ": the event archive does not answer; the shards' images catch up from the " + replayed +
                        " events replayed before");
                    return replayed;
                }
                failed[shardId] = FAILED == shardReplayed;
                replayed += failed[shardId] ? 0 : shardReplayed;
            }
        }
        return replayed;
    }

    /**
     * Rebuilds the books of a shard from every run the archive has recorded, before the md-publisher subscribes to
     * its event stream: the runs that stopped whole, the newest one, when it still records, to within
     * {@link #LIVE_GAP_BYTES} of where it has recorded to. Called again, it replays only what the shard recorded since
     * (a run that stopped meanwhile to its end, a new run from its start). A failure is counted and logged: the books
     * hold what was replayed, and the shard's image catches up from there.
     *
     * @param shardId  the engine shard.
     * @param streamId its event stream id.
     * @return events replayed; {@link #UNANSWERED} when the archive did not answer in time, {@link #FAILED} when a
     * replay failed otherwise.
     */
    int rebuildBeforeSubscribing(final int shardId, final int streamId)
    {
        int replayed = 0;
        try
        {
            final List<EventReplay.Run> runs = replay.runs(streamId);
            final boolean lastRecords = !runs.isEmpty() && runs.getLast().recording();
            replayed = replayRuns(shardId, streamId, runs, 0, lastRecords ? runs.size() - 1 : runs.size(), false);
            if (lastRecords)
            {
                replayed += chase(shardId, runs.getLast());
            }
            if (replayed > 0)
            {
                System.out.println("md-publisher: rebuilt the books of shard " + shardId + " from " + replayed +
                    " events of stream " + streamId + " from the event archive before subscribing: " +
                    books.openOrderCount() + " orders on the books");
            }
        }
        catch (final AeronException ex)
        {
            errors.increment(MdPublisherError.EVENT_REPLAY_FAILED);
            System.err.println("[md-publisher] the books of shard " + shardId + " not rebuilt from the event " +
                "archive before subscribing: " + ex.getMessage() + "; its image catches up from where the books " +
                "stand in its runs");
            return ex instanceof TimeoutException ? UNANSWERED : FAILED;
        }
        return replayed;
    }

    /**
     * Replays, oldest first, the shard's stopped runs among {@code runs[from, to)} but what the books hold already
     * ({@link ReplayedRuns#replayFrom}: the rest of the run they hold part of, none of an older one): into the books
     * without publishing, for a rebuild; or published as they are replayed, for a catch-up ({@link EngineEventStreams}:
     * the earlier runs of the shard's first image, the runs between the run read last and a new one), so each event
     * once, however many catch-ups ask for a run. A run still recording among them is skipped: a later run did not
     * recover from it (a restarted engine recovers, before it publishes, only once its earlier runs have stopped).
     * A run whose replay fails (a damaged recording) is counted, logged and given up (noted as held, so not asked for
     * again), and the runs after it are replayed: the books then lack its orders (the shard's later runs recovered
     * them, so their events about them are counted as errors too).
     *
     * @param shardId  the engine shard.
     * @param streamId its event stream id.
     * @param runs     its recorded runs, oldest first.
     * @param from     index of the first run to replay.
     * @param to       index after the last run to replay.
     * @param publish  true to publish the runs' events, false to rebuild the books from them.
     * @return events replayed, but those of a run whose replay failed.
     * @throws TimeoutException when the archive does not answer in time.
     */
    int replayRuns(
        final int shardId, final int streamId, final List<EventReplay.Run> runs, final int from, final int to,
        final boolean publish)
    {
        int replayed = 0;
        for (int i = from; i < to; i++)
        {
            final EventReplay.Run earlier = runs.get(i);
            if (earlier.recording())
            {
                System.out.println("md-publisher: earlier run of stream " + streamId + " (recording " +
                    earlier.recordingId() + ") not replayed: it still records");
                continue;
            }
            final long replayFrom = replayedRuns.replayFrom(shardId, earlier);
            final int runReplayed;
            try
            {
                runReplayed = replay(shardId, earlier, replayFrom, earlier.stopPosition(), publish);
            }
            catch (final TimeoutException ex)
            {
                throw ex;
            }
            catch (final AeronException ex)
            {
                replayedRuns.held(shardId, earlier.recordingId(), earlier.sessionId(), earlier.stopPosition());
                errors.increment(MdPublisherError.EVENT_REPLAY_FAILED);
                System.err.println("[md-publisher] run of stream " + streamId + " session " + earlier.sessionId() +
                    " (recording " + earlier.recordingId() + ") not replayed from the event archive from position " +
                    replayFrom + ": " + ex.getMessage() + "; given up, the books lack its orders");
                continue;
            }
            if (publish && replayFrom < earlier.stopPosition())
            {
                System.out.println("md-publisher: published the missed " + runReplayed + " events of stream " +
                    streamId + " session " + earlier.sessionId() + " (positions " + replayFrom + " to " +
                    earlier.stopPosition() + "), a run stopped, from the event archive, recording " +
                    earlier.recordingId());
            }
            replayed += runReplayed;
        }
        return replayed;
    }

    /**
     * Replays the run still recording to where the archive has recorded it, then again while that is
     * {@link #LIVE_GAP_BYTES} or more ahead, at most {@link #MAX_CHASE_REPLAYS} times: the books are published as they
     * stand then, and what the image's catch-up replays after is published as increments (each trade printed), so the
     * run is replayed to its recorded position however short the stretch.
     */
    private int chase(final int shardId, final EventReplay.Run live)
    {
        int replayed = 0;
        for (int i = 0; i < MAX_CHASE_REPLAYS; i++)
        {
            final long from = replayedRuns.replayFrom(shardId, live);
            final long to = replay.recordedPosition(live.recordingId());
            if (to <= from || (i > 0 && to - from < LIVE_GAP_BYTES))
            {
                break;
            }
            replayed += replay(shardId, live, from, to, false);
        }
        return replayed;
    }

    private int replay(
        final int shardId, final EventReplay.Run run, final long from, final long to, final boolean publish)
    {
        if (from >= to)
        {
            return 0;
        }
        this.shardId = shardId;
        this.run = run;
        books.rebuilding(!publish);
        try
        {
            return replay.replayRecording(run.recordingId(), from, to, heldHandler);
        }
        finally
        {
            books.rebuilding(false);
        }
    }
}
