package io.bourse.mdpublisher;

import io.aeron.Image;
import io.aeron.Subscription;
import io.aeron.exceptions.AeronException;
import io.aeron.exceptions.TimeoutException;
import io.aeron.logbuffer.FragmentHandler;
import io.bourse.common.aeron.EventArchive;
import io.bourse.common.aeron.EventCatchUpReadiness;
import io.bourse.common.aeron.EventReplay;
import io.bourse.common.metrics.ErrorKinds;
import io.bourse.common.time.MidnightNanoClock;
import io.prometheus.metrics.core.metrics.Counter;
import org.agrona.CloseHelper;
import org.agrona.collections.LongHashSet;

import java.util.Arrays;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * The engine shards' event streams as the md-publisher reads them, with books that hold the whole run. An Aeron
 * subscription joins a stream where it stands, so an md-publisher started while a shard runs (a restart) would start
 * from empty books and publish changes to orders it never added. So each image (one per run of a shard) is caught up
 * once, when first seen and before any of its live events, from the {@link EventArchive}, through the same
 * {@link EngineEventAdapter} into the {@link MarketDataBooks}. A restarted md-publisher first rebuilds the books,
 * without publishing ({@link MarketDataBooks#rebuilding}), from every run the archive has recorded before it subscribes
 * ({@link BooksRebuild#rebuildBeforeSubscribing}), and the first {@link #poll} publishes them as they stand
 * ({@link MarketDataBooks#publishBooks}: Add Orders in priority order, levels, BBO), about one message per resting
 * order instead of the whole day's. Subscribers of the new market-data publication hold no order before them (a new
 * MoldUDP64 session; a fanout whose snapshot came first) or take those Add Orders within their snapshot (one that came
 * after): either way they hold the books from there on, also those of a shard that is down (before stop 78 a shard's
 * books were published only when its first image was caught up, so a shard down at the restart showed empty books
 * until it came back). Then, published as they are replayed:
 * <ul>
 *   <li>The shard's first image (a lingering image of an earlier run aside): what the books do not hold of the shard's
 *   earlier runs, oldest first (a restarted engine recovers its state from them, so its run continues theirs: the
 *   shard restarted after the rebuild), then the run's events from where the books hold it (its start when they do
 *   not) to the image's join position: only the events recorded since the rebuild, as a rule. When the books hold no
 *   run of the shard (the rebuild did not reach it: the archive did not answer, or had no run of it yet), these are
 *   replayed without publishing, and the shard's books published as they stand after them, so that its history is
 *   not published as increments.</li>
 *   <li>A later image of the same run (it went away and came back: left behind by the media driver while this
 *   md-publisher read too late, see below; counted in {@code bourse_md_event_stream_rejoins_total}): the events from
 *   the position read to in the earlier image (the end of the last event taken from it, from the event's header) to
 *   the new one's join position, published as they are replayed: the subscribers missed them too.</li>
 *   <li>A later image of a new run of the shard (a restarted engine): once the earlier run's image has been read to the
 *   end of its stream (the archive stops recording a run there, so the new run can start while this md-publisher is
 *   still behind on the earlier one), or has closed short of it (left behind, and the run ended before it could join
 *   again), the earlier run's events not read yet, from its recording, then the whole recordings of the runs between
 *   the two of which nothing was read ({@link #publishRunsAfter}), then the new run's events from its start,
 *   published. A run that ended so and whose engine does not restart has its unread events published once the
 *   archive shows it stopped ({@link #publishEndedRunTail}).</li>
 *   <li>A shard with no image since it was subscribed to, whose run the rebuild replayed while it still recorded and
 *   which stopped before the subscription (a stopped publication takes no new subscriber): what the books do not
 *   hold of its runs, once the archive shows its newest run stopped ({@link #publishEndedRunTail}).</li>
 * </ul>
 * A shard's image whose run is older than one the shard has recorded since (its stream lingers: another reader holds
 * it, or an engine stopped without closing it) is not caught up, and its live events are read and dropped, as are
 * those of any later image of that run: the newer run's image replays that run (what the books do not hold of it), as
 * the shard's first or as a run between the run read last and its own (before stop 76 a later image so superseded was
 * read live, and its events from before it joined were lost, or came twice).
 * Counted in {@code bourse_md_replayed_events_total}. A published replay, like the books published after the rebuild,
 * goes out in one duty cycle, however much longer than the order feed's window (half its term: about 350,000 Add
 * Orders at the default 64 MiB term) it is: the MoldUDP64 feed takes every message as it is encoded
 * ({@link OrderFeedListener}); the fanout reads the publication on its own thread (an offer that finds no room within
 * its bounded retries is dropped and counted, as always, and the fanout sees the gap). The replay runs on the agent's
 * thread, so no snapshot request is answered meanwhile. With the archive the subscriptions are untethered
 * ({@link io.bourse.common.aeron.StreamLayout#untethered}): a shard holds its newer events while the live image is not
 * read (engine back pressure) for the media driver's untethered window limit and linger timeouts (checked on its 1 s
 * timer), not for the whole of a long replay; then the driver leaves this md-publisher behind, the image goes
 * unavailable, and after the driver's resting timeout a new image of the same run joins where the slowest of the
 * stream's other readers stands and is caught up as above, from the position read to (its live events before that
 * position are skipped): none is lost, none comes out of order. A new image that is not read either (a replay still
 * under way) holds the shard again, so a replay longer than the rest holds it for the two timeouts once per rest; the
 * long replay of a restart is done before subscribing, so what is left is the replay of a stall's missed events.
 * The archive must record every shard's events (the engines run with it too). Without the archive, or when it cannot
 * replay (logged, and counted in {@code bourse_md_errors_total}), the image is read from its join position, with the
 * books of the events heard live only; when only the earlier runs cannot be replayed (a damaged recording), the run's
 * own events before the join position still are.
 */
final class EngineEventStreams
{
    private final Subscription[] subscriptions;
    private final long[][] shardSymbols;
    /** Every shard's packed symbols: the books published after the rebuild. */
    private final long[] symbols;
    private final MidnightNanoClock clock;
    private final FragmentHandler adapter;
    private final MarketDataBooks books;
    private final EventReplay replay;
    /** Replays the shards' stopped runs into the books; null when the archive is disabled. */
    private final BooksRebuild rebuild;
    private final ReplayedRuns replayedRuns;
    private final ErrorKinds<MdPublisherError> errors;
    /** Takes a superseded image's events: nothing. */
    private static final FragmentHandler DROPPED = (buffer, offset, length, header) -> { };

    /**
     * The images caught up, by identity: their live events may be read. Not by {@link Image#correlationId()}: an IPC
     * image's is its publication's, so the new image of an untethered subscription that the driver left behind and
     * let join again has the same one, and must be caught up again. Closed ones are forgotten at each catch-up.
     */
    private final Set<Image> caughtUpImages = Collections.newSetFromMap(new IdentityHashMap<>());
    /**
     * {@link Image#correlationId()} of the images whose runs are older than one the shard has recorded since, when
     * they were caught up: their events are in that run's catch-up.
     */
    private final LongHashSet supersededImages = new LongHashSet();
    private final EventCatchUpReadiness readiness;
    /** Per shard: the image caught up last, superseded ones aside, null before the first. */
    private final Image[] readImages;
    /**
     * Per shard: the stream position read to in {@link #readImages} (the image's join position, or the end of the
     * last event taken from it), from the events' headers: not {@link Image#position()}, whose final value, taken
     * when the client conductor closes the image, can be that from before a poll it closed during.
     */
    private final long[] readPositions;
    /**
     * Per shard: the unread tail of {@link #readImages} was published, or given up ({@link #replayUnreadTail}), since
     * it was caught up.
     */
    private final boolean[] tailDone;
    /**
     * Per shard: when the unread tail's run, or the runs of a shard without an image yet, are next looked up in the
     * archive, {@link System#nanoTime()}, or {@link #TAIL_LOOKUP_NOT_DUE} before the image read last is seen closed
     * (before the first lookup of a shard without an image).
     */
    private final long[] tailLookupNs;
    /**
     * Per shard: the lookups of {@link #publishEndedRunTail} are over since the image read last was caught up (for a
     * shard without an image yet, since the subscription): the shard's newest run has stopped and its runs from the
     * one read last on are published, or a listing failed.
     */
    private final boolean[] endedRunsDone;
    private static final long TAIL_LOOKUP_NOT_DUE = Long.MIN_VALUE;
    /** How often the unread tail's run is looked up while it may still join again: once a second, in ns. */
    private static final long TAIL_LOOKUP_INTERVAL_NS = TimeUnit.SECONDS.toNanos(1);
    private final Consumer<Image> pollImage = this::pollImage;
    private final FragmentHandler replayHandler;
    /**
     * Takes the live events of the shard's image read ({@link #readImages}) into the books, noting the position read
     * to, but those before it.
     */
    private final FragmentHandler liveHandler;
    /** Takes the replayed events of the unread tail of the shard's run read last, noting the position read to. */
    private final FragmentHandler tailHandler;
    private final Counter rejoins;
    private int fragmentLimit;
    private int work;
    private int shardId;
    private boolean superseded;
    /** The books the rebuild replayed without publishing are published, or there was no rebuild (no archive). */
    private boolean rebuiltBooksPublished;

    /**
     * @param subscriptions  one per engine shard.
     * @param shardSymbols   per engine shard, its packed symbols: the books published after the rebuild, or after
     *                       the shard's first catch-up when the rebuild did not reach it.
     * @param clock          stamps the levels and BBOs published after the rebuild.
     * @param adapter        decodes the events, live and replayed.
     * @param books          the books the events change, published.
     * @param rebuild        replays from the event archive, and has rebuilt the books from the runs recorded before
     *                       the shards were subscribed to ({@link BooksRebuild#rebuildBeforeSubscribing}); null when
     *                       the archive is disabled.
     * @param rejoins        counts the images of a run that joined again after the media driver left this
     *                       md-publisher behind.
     * @param errors         counts every replay that failed.
     */
    EngineEventStreams(
        final Subscription[] subscriptions,
        final long[][] shardSymbols,
        final MidnightNanoClock clock,
        final FragmentHandler adapter,
        final MarketDataBooks books,
        final BooksRebuild rebuild,
        final Counter rejoins,
        final ErrorKinds<MdPublisherError> errors)
    {
        this.subscriptions = subscriptions;
        this.shardSymbols = shardSymbols;
        this.symbols = Arrays.stream(shardSymbols).flatMapToLong(Arrays::stream).toArray();
        this.clock = clock;
        this.adapter = adapter;
        this.books = books;
        this.rebuild = rebuild;
        this.replay = null == rebuild ? null : rebuild.replay();
        this.replayedRuns = null == rebuild ? null : rebuild.replayedRuns();
        this.errors = errors;
        this.readiness = new EventCatchUpReadiness(subscriptions.length);
        this.readImages = new Image[subscriptions.length];
        this.readPositions = new long[subscriptions.length];
        this.tailDone = new boolean[subscriptions.length];
        this.tailLookupNs = new long[subscriptions.length];
        Arrays.fill(tailLookupNs, TAIL_LOOKUP_NOT_DUE);
        this.endedRunsDone = new boolean[subscriptions.length];
        this.rejoins = rejoins;
        this.rebuiltBooksPublished = null == rebuild;
        this.replayHandler = null == rebuild ? null : rebuild.replayHandler();
        this.liveHandler = (buffer, offset, length, header) ->
        {
            final long position = header.position();
            if (position > readPositions[shardId]) // else read already: a rejoin behind it (a tethered reader behind)
            {
                readPositions[shardId] = position;
                adapter.onFragment(buffer, offset, length, header);
            }
        };
        this.tailHandler = (buffer, offset, length, header) ->
        {
            readPositions[shardId] = header.position(); // so that a replay that fails part way is not repeated
            replayHandler.onFragment(buffer, offset, length, header);
        };
    }

    /**
     * For the md-publisher's readiness, any thread.
     *
     * @return null when every shard's stream had an image caught up (replayed up to its join position, or given up
     * and counted) or the archive is disabled, else the first shard whose stream was not, e.g. "matching-engine shard
     * 1's events not yet caught up from the event archive".
     */
    String catchUpReason()
    {
        return null == replay ? null : readiness.notReadyReason();
    }

    /**
     * For a MoldUDP64 session's opening ({@link MoldFeedAgent#openWhen}), on the agent's thread.
     *
     * @return true once the books rebuilt before the shards were subscribed to are published (the first {@link #poll}),
     * or when the archive is disabled.
     */
    boolean rebuiltBooksPublished()
    {
        return rebuiltBooksPublished;
    }

    /**
     * Reads every shard's images, each caught up first when new (with the archive); the first call publishes the books
     * rebuilt before the shards were subscribed to, as they stand ({@link MarketDataBooks#publishBooks}), before any
     * snapshot request is answered ({@link MdPublisherAgent}) or a MoldUDP64 session opens with its spin of the books
     * ({@link MoldFeedAgent#openWhen}, which has then started: it takes no increment before its opening), and reads
     * nothing else, so that such a session opens before any image's catch-up publishes.
     *
     * @param fragmentLimit most events taken per image.
     * @return events read, replayed ones included, and the Add Orders of the rebuilt books.
     */
    int poll(final int fragmentLimit)
    {
        work = 0;
        if (null == replay)
        {
            for (final Subscription subscription : subscriptions)
            {
                work += subscription.poll(adapter, fragmentLimit);
            }
            return work;
        }
        if (!rebuiltBooksPublished)
        {
            rebuiltBooksPublished = true;
            if (books.holdsUnpublished(symbols))
            {
                work += books.publishBooks(symbols, clock.nanosSinceMidnight());
                System.out.println("md-publisher: published the books rebuilt from the event archive: " + work +
                    " Add Orders");
            }
            return work; // the images next, after a MoldUDP64 session waiting for the books has opened with them
        }
        this.fragmentLimit = fragmentLimit;
        for (shardId = 0; shardId < subscriptions.length; shardId++)
        {
            subscriptions[shardId].forEachImage(pollImage);
            work += publishEndedRunTail();
        }
        return work;
    }

    /** Closes the shards' subscriptions: nothing more is read. */
    void close()
    {
        CloseHelper.closeAll(subscriptions);
    }

    private void pollImage(final Image image)
    {
        // A superseded image's events are read and dropped: the newer run recovered from its run, and its catch-up
        // replays that run into the books (what they do not hold of it yet). Keyed by correlation id, so an image of it
        // that the media driver left behind and let join again is dropped too, without another catch-up.
        if (supersededImages.contains(image.correlationId()))
        {
            work += image.poll(DROPPED, fragmentLimit);
            return;
        }
        if (!caughtUpImages.contains(image) && hasUnreadEarlierRun(image))
        {
            return; // caught up once the shard's earlier run has been read to its end
        }
        // Marked first: an exception during the replay reaches the agent's error handler once, instead of replaying
        // the stream again every duty cycle.
        if (caughtUpImages.add(image))
        {
            final Image earlier = readImages[shardId];
            final boolean firstOfShard = null == earlier;
            superseded = false;
            try
            {
                work += catchUp(image);
            }
            finally
            {
                books.rebuilding(false);
                if (!superseded)
                {
                    // A lingering image of an earlier run leaves the shard not ready until the current run's image.
                    readiness.caughtUp(shardId);
                    readImages[shardId] = image;
                    // Past the join position when the books hold more of the run: an image that joined where a
                    // reader behind stands.
                    readPositions[shardId] = Math.max(image.joinPosition(), firstOfShard ?
                        replayedRuns.position(shardId, image.sessionId()) :
                        earlier.sessionId() == image.sessionId() ? readPositions[shardId] : 0);
                    tailDone[shardId] = false;
                    endedRunsDone[shardId] = false;
                    tailLookupNs[shardId] = TAIL_LOOKUP_NOT_DUE;
                    caughtUpImages.removeIf(Image::isClosed);
                }
                else
                {
                    // The newer run's image, when it comes, replays this run: as the shard's first to catch up, what
                    // the books do not hold of it and of the earlier runs; after a first, the unread tail of the run
                    // read last, or what the books do not hold of this run (publishRunsAfter).
                    supersededImages.add(image.correlationId());
                }
                if (books.holdsUnpublished(shardSymbols[shardId]))
                {
                    // The shard's first catch-up rebuilt its books without publishing, as the rebuild before the
                    // subscription held no run of it; also after a replay that failed part way, or superseded: the
                    // subscribers then hold what the books hold, and a later catch-up publishes from there.
                    final int added = books.publishBooks(shardSymbols[shardId], clock.nanosSinceMidnight());
                    System.out.println("md-publisher: published the rebuilt books of shard " + shardId + ": " +
                        added + " Add Orders");
                }
            }
            if (supersededImages.contains(image.correlationId()))
            {
                return;
            }
        }
        // Another caught-up image of the shard: one of an earlier run read to its end.
        work += image.poll(image == readImages[shardId] ? liveHandler : adapter, fragmentLimit);
    }

    /**
     * Whether a new image is of another run than the shard's image read last, and that one has not been read to its end
     * yet: the archive stops recording a run when it reaches the end of the stream, so a restarted engine can recover
     * and publish while this md-publisher is still behind on the earlier run. The new run is caught up once the earlier
     * run's image has been read to the end of its stream (or has closed), so that no event of the new run comes before
     * one of the earlier run. An image of a run older than the one read last (listed after it) waits likewise, for
     * good: the newer run's catch-up replayed its run (the media driver leaves it behind, and lets it join again, while
     * its publication lives).
     */
    private boolean hasUnreadEarlierRun(final Image image)
    {
        final Image read = readImages[shardId];
        return null != read && read.sessionId() != image.sessionId() && !read.isClosed() && !read.isEndOfStream();
    }

    /**
     * The shard's runs before a new run's image that the books do not hold: for the shard's first image, its earlier
     * runs ({@link #replayEarlierRuns}); else the runs between the run read last and the new one, of which nothing was
     * read, published ({@link #publishRunsAfter}). A run whose replay fails is counted, logged and given up
     * ({@link BooksRebuild#replayRuns}), and the new run's own events are still caught up: the books then lack that
     * run's orders, not the new run's too.
     *
     * @param runs       the shard's runs, listed once for the catch-up.
     * @param read       the shard's image read last, null before the first.
     * @param sessionId  the new run: the Aeron session id of its image.
     * @param rebuilding for the shard's first image, when the books hold no run of it: without publishing.
     * @return events replayed.
     * @throws TimeoutException when the archive does not answer in time: the new run's catch-up is given up too.
     */
    private int replayRunsBefore(
        final int streamId, final List<EventReplay.Run> runs, final Image read, final int sessionId,
        final boolean rebuilding)
    {
        // No image of the shard caught up before: the books hold of its runs only what was rebuilt before the shard was
        // subscribed to.
        return null == read ? replayEarlierRuns(streamId, runs, sessionId, !rebuilding) :
            publishRunsAfter(streamId, runs, read.sessionId(), EventReplay.runIndex(runs, sessionId));
    }

    /**
     * Replays, from the archive, the recordings of the shard's runs before the image's (a restarted engine recovers
     * its state from them, so its new run continues theirs), but what the books hold already (replayed before the shard
     * was subscribed to, or for an image that turned out superseded; the run they hold part of from where they stand,
     * {@link ReplayedRuns}): the shard restarted between the rebuild and the subscription; published, unless the books
     * hold no run of the shard (the rebuild did not reach it: its history is not published). Nothing when a newer run
     * than the image's records ({@link #superseded} then set). A run not listed yet (its shard is starting its
     * recording) is newer than every run listed ({@link EventReplay#runIndex}). An earlier run still recording is
     * skipped: the image's run did not recover from it ({@link BooksRebuild#replayRuns}).
     *
     * @return events replayed.
     * @throws TimeoutException when the archive does not answer in time.
     */
    private int replayEarlierRuns(
        final int streamId, final List<EventReplay.Run> runs, final int sessionId, final boolean publish)
    {
        final int index = EventReplay.runIndex(runs, sessionId);
        if (index < runs.size() - 1)
        {
            superseded = true;
            System.out.println("md-publisher: events of stream " + streamId + " session " + sessionId +
                " not replayed and its live events dropped: a newer run of the shard records (" +
                runs.getLast().recordingId() + ")");
            return 0;
        }
        return rebuild.replayRuns(shardId, streamId, runs, 0, index, publish);
    }

    /**
     * Replays the run's recording from its start (or, when the shard's image read last was of the same run, from the
     * position read to in it: an image that went away and came back; for the shard's first image, from where the books
     * hold the run, {@link ReplayedRuns#position}) to the image's join position into the books,
     * after the unread tail of the run read last when it is another ({@link #replayUnreadTail}) and the runs between
     * the two of which nothing was read ({@link #publishRunsAfter}), or after the earlier runs the books do not hold
     * for the shard's first image ({@link #replayEarlierRuns}), unless the image joined where the stream starts or
     * where the books stand, or a newer run of the shard records meanwhile (an engine that stopped without closing its
     * stream, whose image lingers). Published, as the books the rebuild replayed are published before any image is
     * caught up ({@link #poll}); but for the shard's first image when the books hold no run of the shard (the rebuild
     * before the subscription did not reach it: the archive did not answer, or had no run of the shard yet), the
     * books are rebuilt without publishing and published after ({@link #pollImage}), as the shard's history would
     * otherwise be published as increments, every trade printed again. The run's own events are replayed also when its
     * earlier runs could not be ({@link #replayRunsBefore}). The shard's runs are listed once per catch-up, every step
     * working from that one view of the archive (before stop 79, up to three listings, each on its own archive
     * connection), but for a run not listed yet, which is looked up once more; a listing that fails gives the catch-up
     * up, counted once.
     *
     * @return events replayed; those before a replay that failed (counted and logged).
     */
    private int catchUp(final Image image)
    {
        final long joinPosition = image.joinPosition();
        final int sessionId = image.sessionId();
        final Image read = readImages[shardId];
        final boolean sameRun = null != read && read.sessionId() == sessionId;
        // The shard's first image: from where the books hold its run, when they were rebuilt before subscribing.
        final long readPosition = sameRun ? readPositions[shardId] :
            null == read ? replayedRuns.position(shardId, sessionId) : 0;
        final int streamId = image.subscription().streamId();
        final boolean rebuilding = null == read && !replayedRuns.holdsRun(shardId);
        final String stretch = "events of stream " + streamId + " session " + sessionId + " before position " +
            joinPosition;
        if (sameRun)
        {
            rejoins.inc();
            if (readPosition >= joinPosition)
            {
                return 0; // joined where a reader behind stands: nothing missed, the archive not asked
            }
        }
        int earlier = 0;
        try
        {
            // Listed once: every step below works from the same view of the archive.
            List<EventReplay.Run> runs = replay.runs(streamId);
            // An earlier run of the shard whose image the media driver left behind before its end: its tail first.
            earlier += sameRun || null == read ? 0 : replayUnreadTail(streamId, runs, read, false);
            earlier += sameRun ? 0 : replayRunsBefore(streamId, runs, read, sessionId, rebuilding);
            if (superseded || readPosition >= joinPosition)
            {
                return earlier; // joined where the run starts or where the books stand: nothing of it was missed
            }
            int index = EventReplay.runIndex(runs, sessionId);
            if (index == runs.size())
            {
                // The archive starts a run's recording on its own thread, maybe after this image joined: once more.
                runs = replay.runs(streamId);
                index = EventReplay.runIndex(runs, sessionId);
            }
            if (index == runs.size())
            {
                errors.increment(MdPublisherError.EVENT_REPLAY_FAILED);
                System.err.println("[md-publisher] " + stretch + " not replayed: no recording of the session in " +
                    "the event archive; the books hold only the events heard from there on");
                return earlier;
            }
            if (index < runs.size() - 1)
            {
                superseded = true; // the newer run's catch-up goes on from where the books hold the earlier runs
                System.out.println("md-publisher: " + stretch + " not replayed and its live events dropped: a newer " +
                    "run of the shard records (" + runs.getLast().recordingId() + ")");
                return earlier;
            }
            final EventReplay.Run run = runs.get(index);
            final long fromPosition = Math.max(run.startPosition(), readPosition);
            books.rebuilding(rebuilding);
            final int replayed = replay.replayRecording(run.recordingId(), fromPosition, joinPosition, replayHandler);
            System.out.println("md-publisher: " + (rebuilding ? "rebuilt the books from " : "published the missed ") +
                replayed + " events of stream " + streamId + " session " + sessionId + " (positions " +
                fromPosition + " to " + joinPosition + ") from the event archive, recording " +
                run.recordingId() + ": " + books.openOrderCount() + " orders on the books");
            return earlier + replayed;
        }
        catch (final AeronException ex)
        {
            errors.increment(MdPublisherError.EVENT_REPLAY_FAILED);
            System.err.println("[md-publisher] " + stretch + (sameRun ? "" : null == read ?
                ", and the earlier runs the books do not hold," : ", and the unread tail of session " +
                read.sessionId() + " and the runs after it,") + " not replayed from the event archive: " +
                ex.getMessage() + "; the books hold only the events heard from there on");
            return earlier;
        }
    }

    /**
     * Publishes, from the archive, the whole recordings of the shard's runs after the run read last, up to a new
     * image's, oldest first: runs of which this md-publisher read nothing, their images superseded when first seen (a
     * newer run recorded already) or left behind by the media driver before they were caught up (they waited for the
     * run before to be read to its end) and ended before they could join again; but what the books hold of them already
     * (a catch-up that turned out superseded replayed them: {@link ReplayedRuns}). A run still recording among them is
     * skipped ({@link BooksRebuild#replayRuns}).
     *
     * @param runs the shard's runs, oldest first.
     * @param to   index after the last run to publish.
     * @return events published.
     * @throws TimeoutException when the archive does not answer in time.
     */
    private int publishRunsAfter(
        final int streamId, final List<EventReplay.Run> runs, final int readSessionId, final int to)
    {
        return rebuild.replayRuns(shardId, streamId, runs, EventReplay.runIndex(runs, readSessionId) + 1, to, true);
    }

    /**
     * Publishes, from the archive, the events of the shard's run read last that this md-publisher has not read: those
     * after the position read to, up to where the run's recording stopped. An untethered image that the media driver
     * left behind closes short of its end, and when the run ends before the image could join again, no image of it
     * comes back: its tail is published when the new run's image is caught up (the engine restarts), or when the
     * shard's subscription has had no image for a lookup interval and the recording has stopped (it does not).
     * Nothing when the run's image was read to its end of stream, or its tail was published or given up already.
     *
     * @param streamId   the shard's event stream id.
     * @param runs       the shard's runs, oldest first.
     * @param read       the shard's image read last.
     * @param runMayGoOn true while no image of another run has come: a run still recording is left to join again
     *                   (looked up again after {@link #TAIL_LOOKUP_INTERVAL_NS}); else it is given up, as a restarted
     *                   shard's earlier run has stopped.
     * @return events published; 0 also when the replay failed or was given up (counted and logged).
     */
    private int replayUnreadTail(
        final int streamId, final List<EventReplay.Run> runs, final Image read, final boolean runMayGoOn)
    {
        final long readPosition = readPositions[shardId];
        if (tailDone[shardId] || readPosition >= read.endOfStreamPosition())
        {
            return 0;
        }
        final String stretch = "events of stream " + streamId + " session " + read.sessionId() + " after position " +
            readPosition;
        final int index = EventReplay.runIndex(runs, read.sessionId());
        if (index < runs.size() && runs.get(index).recording() && runMayGoOn)
        {
            return 0; // the run goes on: its image joins again after the driver's rest
        }
        tailDone[shardId] = true;
        if (index == runs.size() || runs.get(index).recording())
        {
            errors.increment(MdPublisherError.EVENT_REPLAY_FAILED);
            System.err.println("[md-publisher] " + stretch + " not replayed: the event archive holds no " +
                (index == runs.size() ? "recording of the session" : "stopped recording of the session yet"));
            return 0;
        }
        final EventReplay.Run run = runs.get(index);
        try
        {
            final int replayed = replay.replayRecording(
                run.recordingId(), Math.max(run.startPosition(), readPosition), run.stopPosition(), tailHandler);
            System.out.println("md-publisher: published the missed " + replayed + " " + stretch + " to its end (" +
                run.stopPosition() + ") from the event archive, recording " + run.recordingId());
            return replayed;
        }
        catch (final AeronException ex)
        {
            tailDone[shardId] = true;
            errors.increment(MdPublisherError.EVENT_REPLAY_FAILED);
            System.err.println("[md-publisher] " + stretch + " not replayed from the event archive: " +
                ex.getMessage());
            return 0;
        }
    }

    /**
     * The runs of a shard that has no image, published once the archive shows them stopped, looked up once per
     * {@link #TAIL_LOOKUP_INTERVAL_NS} from an interval after the lack is first seen, until the shard's newest run has
     * stopped and is published (a listing that fails is counted and logged, and the lookups given up):
     * <ul>
     *   <li>The shard's image read last is closed and no image has come: the tail of its run, which ended while this
     *   md-publisher was left behind and whose engine does not restart, then the runs after it that ended likewise
     *   before their images were caught up ({@link #publishRunsAfter}). A failed listing does not give the tail up: a
     *   new run's catch-up lists the runs again and publishes it.</li>
     *   <li>The shard has had no image since it was subscribed to, and the rebuild before the subscription replayed
     *   its runs (the newest to where the archive had recorded it, as it still recorded): a run that stopped before the
     *   subscription takes no new subscriber, so no image of it comes; what the books do not hold of its runs
     *   ({@link BooksRebuild#replayRuns}, which skips a run still recording). An image that comes later is caught up
     *   from there as the shard's first. Before, nothing looked at such a shard until it restarted.</li>
     * </ul>
     *
     * @return events published.
     */
    private int publishEndedRunTail()
    {
        final Image read = readImages[shardId];
        final boolean imageSeen = null != read;
        if ((imageSeen ? !read.isClosed() : !replayedRuns.holdsRun(shardId)) || endedRunsDone[shardId] ||
            subscriptions[shardId].imageCount() > 0 || !isLookupDue())
        {
            return 0;
        }
        final int streamId = subscriptions[shardId].streamId();
        int published = 0;
        try
        {
            final List<EventReplay.Run> runs = replay.runs(streamId);
            if (imageSeen)
            {
                published += replayUnreadTail(streamId, runs, read, true);
                if (!tailDone[shardId] && readPositions[shardId] < read.endOfStreamPosition())
                {
                    return published; // the run goes on: its image joins again after the driver's rest
                }
            }
            endedRunsDone[shardId] = runs.isEmpty() || !runs.getLast().recording();
            return published + (imageSeen ? publishRunsAfter(streamId, runs, read.sessionId(), runs.size()) :
                rebuild.replayRuns(shardId, streamId, runs, 0, runs.size(), true));
        }
        catch (final AeronException ex)
        {
            endedRunsDone[shardId] = true;
            errors.increment(MdPublisherError.EVENT_REPLAY_FAILED);
            System.err.println("[md-publisher] runs of stream " + streamId + (imageSeen ? " from session " +
                read.sessionId() : ", which has had no image,") + " not replayed from the event archive: " +
                ex.getMessage());
            return published;
        }
    }

    /**
     * The shard's lookup timer: not due when first asked (it starts then), then due once per
     * {@link #TAIL_LOOKUP_INTERVAL_NS}.
     *
     * @return true when the shard's archive lookup is due now, the next one set an interval on.
     */
    private boolean isLookupDue()
    {
        final long nowNs = System.nanoTime();
        if (TAIL_LOOKUP_NOT_DUE == tailLookupNs[shardId])
        {
            tailLookupNs[shardId] = nowNs + TAIL_LOOKUP_INTERVAL_NS;
            return false;
        }
        if (nowNs - tailLookupNs[shardId] < 0)
        {
            return false;
        }
        tailLookupNs[shardId] = nowNs + TAIL_LOOKUP_INTERVAL_NS;
        return true;
    }
}
