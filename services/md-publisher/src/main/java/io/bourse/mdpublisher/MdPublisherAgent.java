package io.bourse.mdpublisher;

import io.aeron.Subscription;
import io.bourse.common.aeron.StopRead;
import io.bourse.common.time.MidnightNanoClock;
import org.agrona.concurrent.Agent;

/**
 * Polls every engine shard's event stream in turn and hands each event to the market-data books (each new image of a
 * stream caught up first, {@link EngineEventStreams}), then answers the snapshot requests that came, between two
 * events, so that a snapshot stands exactly after the last increment. In the first duty cycle after each midnight UTC,
 * after its events and requests and before its snapshots, it starts the books' new trading day
 * ({@link MarketDataBooks#startDay}): what rests then, the orders of that cycle's events included, takes the midnight's
 * time. At the stop it reads the events already published, then ends every feed with EndOfFeed ({@link #onClose}).
 */
final class MdPublisherAgent implements Agent
{
    private static final int SNAPSHOT_REQUEST_LIMIT = 16;

    private final EngineEventStreams events;
    private final Subscription snapshotRequests;
    private final SnapshotPublisher snapshotPublisher;
    private final MarketDataProxy proxy;
    private final MarketDataBooks books;
    private final MidnightNanoClock clock;
    private final int fragmentLimit;
    /** The midnight that ends the books' trading day, on {@link #clock}. */
    private long dayEndNs;

    /**
     * @param events            the engine shards' event streams, into the books.
     * @param snapshotRequests  the snapshot-request stream.
     * @param snapshotPublisher answers the requests; one snapshot per feed and duty cycle for all of them.
     * @param proxy             the feeds, ended at the stop.
     * @param books             the books the events go into, whose day starts at each midnight.
     * @param clock             wall-clock time, ns since midnight UTC of its start day: of the midnights.
     * @param fragmentLimit     most events read from one stream per duty cycle.
     */
    MdPublisherAgent(
        final EngineEventStreams events, final Subscription snapshotRequests,
        final SnapshotPublisher snapshotPublisher, final MarketDataProxy proxy, final MarketDataBooks books,
        final MidnightNanoClock clock, final int fragmentLimit)
    {
        this.events = events;
        this.snapshotRequests = snapshotRequests;
        this.snapshotPublisher = snapshotPublisher;
        this.proxy = proxy;
        this.books = books;
        this.clock = clock;
        this.fragmentLimit = fragmentLimit;
        // The clock's first midnight: one passed since it was made (a rebuild across midnight) starts the day at once.
        this.dayEndNs = MidnightNanoClock.NANOS_PER_DAY;
    }

    @Override
    public int doWork()
    {
        int workCount = events.poll(fragmentLimit);
        workCount += snapshotRequests.poll(snapshotPublisher, SNAPSHOT_REQUEST_LIMIT);
        workCount += startDayAtMidnight(); // after the requests: one read after midnight is answered with the new day
        return workCount + snapshotPublisher.publishRequested();
    }

    /**
     * Stops reading, with nothing the engine shards have published left behind: reads their event streams until a
     * poll finds nothing more, for up to {@link StopRead#TIMEOUT_NS} (the order gateway stops first, so the shards'
     * events of its stop, its cancels on disconnect, are all there; a shard still busy is read that long),
     * ends every feed with EndOfFeed after its last increment ({@link MarketDataProxy#endFeeds}), so that a subscriber
     * tells the stop from a crash and keeps its books, then closes the engine event subscriptions and the
     * snapshot-request subscription, so that the engine shards, whose event streams hold back at their slowest reader,
     * are not held back while the MoldUDP64 feed, next on this thread, ends its session.
     */
    @Override
    public void onClose()
    {
        StopRead.readPublished(() -> events.poll(fragmentLimit));
        proxy.endFeeds();
        events.close();
        snapshotRequests.close();
    }

    /** @return 1 when midnight has passed and the books' new day started, else 0. */
    private int startDayAtMidnight()
    {
        final long nowNs = clock.nanosSinceMidnight();
        if (nowNs < dayEndNs)
        {
            return 0;
        }
        books.startDay(nowNs - MidnightNanoClock.timeOfDay(nowNs));
        dayEndNs = MidnightNanoClock.nextMidnight(nowNs);
        return 1;
    }

    @Override
    public String roleName()
    {
        return "md-publisher";
    }
}
