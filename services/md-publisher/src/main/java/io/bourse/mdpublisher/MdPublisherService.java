package io.bourse.mdpublisher;

import io.aeron.Aeron;
import io.aeron.Subscription;
import io.bourse.common.aeron.AgentLaunch;
import io.bourse.common.aeron.BoundedOffer;
import io.bourse.common.aeron.EventArchive;
import io.bourse.common.aeron.EventReplay;
import io.bourse.common.aeron.StreamLayout;
import io.bourse.common.aeron.StopRead;
import io.bourse.common.aeron.StreamReadiness;
import io.bourse.common.config.SymbolDirectory;
import io.bourse.common.metrics.AeronClientCollector;
import io.bourse.common.metrics.ErrorKinds;
import io.bourse.common.metrics.MetricsServer;
import io.bourse.common.time.MidnightNanoClock;
import io.bourse.sbe.md.Feed;
import org.agrona.CloseHelper;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.AgentRunner;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.CompositeAgent;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.SystemNanoClock;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The running md-publisher: one agent thread that subscribes to every engine shard's event stream, keeps the books
 * and publishes the market data on its four feeds' streams (order feed, depth, BBO, trades: {@link MarketDataProxy}),
 * with a snapshot of every book for each request on the snapshot-request stream ({@link SnapshotPublisher}), plus its
 * Prometheus endpoint. With the MoldUDP64 feed on
 * (the default), the same thread also runs the {@link MoldFeedAgent}, which takes each order-feed increment as it is
 * encoded, offered or dropped ({@link OrderFeedListener}), and sends it as ITCH 5.0 over MoldUDP64 multicast at the end
 * of the duty cycle, and between the attempts of every back-pressured offer ({@link MoldFeedOfferIdleStrategy}): one
 * thread on a small host, no thread to wake up in between, and no message the order feed's Aeron publication drops
 * under back pressure is missing from the MoldUDP64 session. With session files (the default), a second thread,
 * {@code md-mold-file}, answers the re-requests older than the memory holds from them ({@link MoldFileAnswers}),
 * parking up to {@value #FILE_ANSWERS_MAX_PARK_US} us when idle, so that no file read holds back the live packets.
 */
public final class MdPublisherService implements AutoCloseable
{
    /** Longest park of the session files' answering thread when it has nothing to do, in microseconds. */
    static final int FILE_ANSWERS_MAX_PARK_US = 1000;

    private final MetricsServer metricsServer;
    private final Aeron aeron;
    private final MoldFeed moldFeed;
    private final AgentRunner runner;
    private final AgentRunner fileAnswersRunner;
    private final int closeTimeoutMs;

    private MdPublisherService(
        final MetricsServer metricsServer, final Aeron aeron, final MoldFeed moldFeed, final AgentRunner runner,
        final AgentRunner fileAnswersRunner, final int closeTimeoutMs)
    {
        this.metricsServer = metricsServer;
        this.aeron = aeron;
        this.moldFeed = moldFeed;
        this.runner = runner;
        this.fileAnswersRunner = fileAnswersRunner;
        this.closeTimeoutMs = closeTimeoutMs;
    }

    /**
     * Connects to the media driver, starts the metrics endpoint, opens the MoldUDP64 feed's sockets when it is on, and
     * starts the agents.
     *
     * @param ctx the configuration; concluded here.
     * @return the running service.
     * @throws IllegalStateException for a bad configuration.
     * @throws UncheckedIOException  when the metrics port or a MoldUDP64 socket cannot be bound.
     */
    public static MdPublisherService launch(final MdPublisherContext ctx)
    {
        ctx.conclude();
        final StreamLayout layout = ctx.layout();
        final MidnightNanoClock midnightClock = new MidnightNanoClock(ctx.epochClock());
        final SymbolDirectory directory = ctx.symbolDirectory();
        final ErrorKinds<MdPublisherError> errors = new ErrorKinds<>("md-publisher", MdPublisherError.class);
        MetricsServer metricsServer = null;
        Aeron aeron = null;
        MoldFeed moldFeed = null;
        AgentRunner fileAnswersRunner = null;
        try
        {
            metricsServer = MetricsServer.start(ctx.metricsPort(), ctx.jvmMetrics());
            final MdPublisherMetrics metrics = new MdPublisherMetrics(metricsServer.registry(), errors);
            aeron = Aeron.connect(new Aeron.Context()
                .aeronDirectoryName(layout.aeronDirectoryName()).clientName("md-publisher"));

            final EventArchive archive = ctx.eventArchive();
            final FeedPublication orders = new FeedPublication(Feed.ORDERS,
                aeron.addExclusivePublication(layout.marketDataChannel(), layout.marketDataStreamId()));
            final FeedPublication depth = new FeedPublication(Feed.DEPTH,
                aeron.addExclusivePublication(layout.feedChannel(), layout.depthStreamId()));
            final FeedPublication bbo = new FeedPublication(Feed.BBO,
                aeron.addExclusivePublication(layout.feedChannel(), layout.bboStreamId()));
            final FeedPublication trades = new FeedPublication(Feed.TRADES,
                aeron.addExclusivePublication(layout.feedChannel(), layout.tradesStreamId()));
            final Subscription snapshotRequests = aeron.addSubscription(
                layout.snapshotRequestChannel(), layout.snapshotRequestStreamId());

            // Opened first: the order feed's increments go to it as they are encoded.
            if (ctx.moldEnabled())
            {
                moldFeed = MoldFeed.open(
                    ctx, metricsServer.registry(), SystemNanoClock.INSTANCE, midnightClock);
            }
            final IdleStrategy offerBackoff =
                new BackoffIdleStrategy(10, 10, TimeUnit.MICROSECONDS.toNanos(1), TimeUnit.MICROSECONDS.toNanos(100));
            final BoundedOffer boundedOffer = new BoundedOffer(
                null == moldFeed ? offerBackoff : new MoldFeedOfferIdleStrategy(moldFeed.agent()::doWorkWithinOffer,
                offerBackoff, AgentLaunch.countingErrorHandler(moldFeed.agent().roleName(), errors.agentExceptions())),
                ctx.offerRetries());
            final MarketDataProxy proxy = new MarketDataProxy(orders, depth, bbo, trades, boundedOffer,
                null == moldFeed ? OrderFeedListener.NONE : moldFeed.agent(), midnightClock, metrics,
                errors);
            final MarketDataBooks books =
                new MarketDataBooks(SymbolDirectory.packed(directory.entries()), ctx.l2Depth(), proxy, errors);
            if (null != moldFeed)
            {
                moldFeed.agent().bookSpin(books);
            }
            BookMetrics.register(metricsServer.registry(), directory, books);
            final long[][] shardSymbols = new long[directory.shardCount()][];
            for (int shardId = 0; shardId < shardSymbols.length; shardId++)
            {
                shardSymbols[shardId] = SymbolDirectory.packed(directory.symbolsOfShard(shardId));
            }
            final EngineEventAdapter adapter = new EngineEventAdapter(books, shardSymbols, metrics, errors);
            final BooksRebuild rebuild = archive.enabled() ? new BooksRebuild(directory.shardCount(),
                new EventReplay(aeron, archive), books, adapter, metrics.replayedEvents, errors) : null;
            final Subscription[] subscriptions = new Subscription[directory.shardCount()];
            if (null != rebuild)
            {
                metricsServer.readiness(() -> "rebuilding the books from the event archive");
                rebuild.rebuildAllBeforeSubscribing(layout);
            }
            // With the archive, a late md-publisher (a stall) is left behind by the shards instead of holding their
            // events back, and catches up from the archive when it joins again.
            final String eventChannel =
                null != rebuild ? StreamLayout.untethered(layout.eventChannel()) : layout.eventChannel();
            for (int shardId = 0; shardId < subscriptions.length; shardId++)
            {
                subscriptions[shardId] = aeron.addSubscription(eventChannel, layout.eventStreamId(shardId));
            }
            final List<Subscription> allSubscriptions = new ArrayList<>(List.of(subscriptions));
            allSubscriptions.add(snapshotRequests);
            metricsServer.registry().register(new AeronClientCollector(aeron, allSubscriptions));

            final SnapshotPublisher snapshotPublisher = new SnapshotPublisher(
                boundedOffer, books, proxy, midnightClock, metrics, errors);
            final EngineEventStreams events = new EngineEventStreams(
                subscriptions, shardSymbols, midnightClock, adapter, books, rebuild,
                metrics.eventStreamRejoins, errors);
            if (null != moldFeed)
            {
                moldFeed.agent().openWhen(events::rebuiltBooksPublished);
            }
            final Agent mdAgent = new MdPublisherAgent(
                events, snapshotRequests, snapshotPublisher, proxy, books, midnightClock, ctx.fragmentLimit());
            final Agent agent = null == moldFeed ? mdAgent : new CompositeAgent(mdAgent, moldFeed.agent());
            if (null != moldFeed && null != moldFeed.fileAnswers())
            {
                fileAnswersRunner = AgentLaunch.start(moldFeed.fileAnswers(), new BackoffIdleStrategy(
                    10, 10, TimeUnit.MICROSECONDS.toNanos(1), TimeUnit.MICROSECONDS.toNanos(FILE_ANSWERS_MAX_PARK_US)),
                    ctx.threadAffinity(), errors.agentExceptions());
            }
            final AgentRunner runner = AgentLaunch.start(
                agent, ctx.idleStrategySupplier().get(), ctx.threadAffinity(), errors.agentExceptions());
            final StreamReadiness readiness = new StreamReadiness();
            for (int shardId = 0; shardId < subscriptions.length; shardId++)
            {
                readiness.published(subscriptions[shardId], "matching-engine shard " + shardId);
            }
            metricsServer.readiness(() ->
            {
                final String reason = readiness.notReadyReason();
                return null != reason ? reason : events.catchUpReason();
            });
            System.out.println("md-publisher started: " + directory.shardCount() + " shard event streams from " +
                layout.eventStreamId(0) + ", order feed " + layout.marketDataChannel() + " stream " +
                layout.marketDataStreamId() + ", depth (L2 " +
                (MarketDataBooks.FULL_DEPTH == ctx.l2Depth() ? "full" : ctx.l2Depth()) + "), BBO and trades feeds " +
                layout.feedChannel() + " streams " + layout.depthStreamId() + ", " + layout.bboStreamId() + ", " +
                layout.tradesStreamId() + " (snapshot requests stream " + layout.snapshotRequestStreamId() + ")" +
                (archive.enabled() ? ", books of runs joined late rebuilt from the event archive" : "") +
                moldDescription(ctx, moldFeed) + ", metrics :" + metricsServer.port());
            final int stopMs = (int)TimeUnit.NANOSECONDS.toMillis(StopRead.TIMEOUT_NS) +
                (null == moldFeed ? 0 : ctx.moldEndOfSessionMs());
            return new MdPublisherService(
                metricsServer, aeron, moldFeed, runner, fileAnswersRunner, AgentRunner.RETRY_CLOSE_TIMEOUT_MS + stopMs);
        }
        catch (final IOException ex)
        {
            CloseHelper.quietCloseAll(fileAnswersRunner, moldFeed, aeron, metricsServer);
            throw new UncheckedIOException("md-publisher: cannot start metrics on port " + ctx.metricsPort(), ex);
        }
        catch (final RuntimeException ex)
        {
            CloseHelper.quietCloseAll(fileAnswersRunner, moldFeed, aeron, metricsServer);
            throw ex;
        }
    }

    private static String moldDescription(final MdPublisherContext ctx, final MoldFeed moldFeed)
    {
        return null == moldFeed ? ", MoldUDP64 off" : ", ITCH 5.0/MoldUDP64 session " + ctx.moldSession() + " to " +
            ctx.moldGroup() + ":" + ctx.moldPort() + " on " + ctx.moldInterface() + " (re-request port " +
            moldFeed.requestPort() + ", newest " + ctx.moldStoreMessages() + " messages in memory" +
            (null == moldFeed.sessionFile() ? "" : ", the session's first " + ctx.moldStoreFileBytes() +
            " bytes in " + moldFeed.sessionFile()) + ")";
    }

    /** @return the bound port of the Prometheus endpoint. */
    public int metricsPort()
    {
        return metricsServer.port();
    }

    /** @return the bound port of the MoldUDP64 re-request server; 0 when the feed is off. */
    public int moldRequestPort()
    {
        return null == moldFeed ? 0 : moldFeed.requestPort();
    }

    /**
     * Stops the agent (it reads the engine events already published, for up to {@link StopRead#TIMEOUT_NS}, and ends
     * every feed with EndOfFeed; the MoldUDP64 feed, when on, then ends its session, which lasts
     * {@link MdPublisherContext#moldEndOfSessionMs}: End of Session packets, re-requests answered, those from the
     * session file too), then the session files' answering agent, then closes the feed's sockets, the Aeron client and
     * the metrics endpoint. The agent is given Agrona's {@link AgentRunner#RETRY_CLOSE_TIMEOUT_MS} past the longest
     * reading and the end's length to stop before its thread is interrupted, which would cut the end short.
     */
    @Override
    public void close()
    {
        runner.close(closeTimeoutMs, null);
        CloseHelper.closeAll(fileAnswersRunner, moldFeed, metricsServer, aeron);
    }
}
