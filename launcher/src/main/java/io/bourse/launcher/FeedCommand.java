package io.bourse.launcher;

import io.aeron.Aeron;
import io.aeron.Publication;
import io.aeron.Subscription;
import io.bourse.common.aeron.StreamLayout;
import io.bourse.common.config.Settings;
import io.bourse.sbe.md.Feed;
import io.bourse.sbe.md.MessageHeaderEncoder;
import io.bourse.sbe.md.SnapshotRequestEncoder;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.SystemNanoClock;
import org.agrona.concurrent.UnsafeBuffer;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.PrintWriter;
import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * {@code bourse feed}: prints the md-publisher's depth (L2), BBO (L1) or trades feed of a running exchange as it comes,
 * from the feed's snapshot on, with gap detection ({@link FeedFollower}): how a subscriber of one SBE market-data feed
 * joins it at any moment. It subscribes on the feed's stream of {@link StreamLayout}, untethered (a terminal that stops
 * reading leaves the md-publisher's window at once instead of holding the feed back; it sees a gap or its image go,
 * and takes the snapshot again), and sends SnapshotRequest (schema version 5, naming the feed) on the snapshot-request
 * stream. Ctrl-C stops it after the summary line.
 */
@Command(name = "feed", mixinStandardHelpOptions = true,
    description = {
        "Print one SBE market-data feed of the running md-publisher: its snapshot, then each increment in sequence " +
            "(a gap is printed and the snapshot asked for again).",
        "Feeds: depth (L2 price levels), bbo (L1 best bid and offer), trades. Prices in dollars, quantities in " +
            "shares." })
final class FeedCommand implements Callable<Integer>
{
    private static final long STOP_WAIT_MS = 2_000;

    @Option(names = "--feed", paramLabel = "FEED", defaultValue = "bbo",
        description = "depth, bbo or trades (default: ${DEFAULT-VALUE}).")
    String feedName;

    @Option(names = "--symbol", paramLabel = "SYMBOL", split = ",",
        description = "Symbols to print, e.g. AAPL,MSFT (default: every one).")
    List<String> symbols = List.of();

    @Option(names = "--count", paramLabel = "N", defaultValue = "0",
        description = "Stop after N increments printed (default: no limit).")
    long count;

    @Option(names = "--seconds", paramLabel = "S", defaultValue = "0",
        description = "Stop after S seconds (default: no limit; Ctrl-C stops).")
    long seconds;

    @CommandLine.Mixin
    RunningExchangeOption exchange = new RunningExchangeOption();

    private volatile boolean stopped;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call()
    {
        if (count < 0 || seconds < 0)
        {
            throw new CommandLine.ParameterException(spec.commandLine(), (count < 0 ? "--count" : "--seconds") +
                " must be 0 (no limit) or positive: " + (count < 0 ? count : seconds));
        }
        final Feed feed = switch (feedName)
        {
            case "depth" -> Feed.DEPTH;
            case "bbo" -> Feed.BBO;
            case "trades" -> Feed.TRADES;
            default -> throw new CommandLine.ParameterException(
                spec.commandLine(), "--feed must be depth, bbo or trades: " + feedName);
        };
        final Map<String, String> options = new HashMap<>();
        exchange.putInto(options);
        final StreamLayout layout = StreamLayout.fromSettings(new Settings(options, System.getenv()));
        final int streamId = switch (feed)
        {
            case DEPTH -> layout.depthStreamId();
            case BBO -> layout.bboStreamId();
            default -> layout.tradesStreamId();
        };
        final PrintWriter out = spec.commandLine().getOut();
        final String channel = StreamLayout.untethered(layout.feedChannel());
        try (Aeron aeron = RunningExchangeOption.connect(layout);
            Publication requests = aeron.addExclusivePublication(
                layout.snapshotRequestChannel(), layout.snapshotRequestStreamId());
            Subscription subscription = aeron.addSubscription(channel, streamId))
        {
            out.println("following the " + feedName + " feed on " + channel + " stream " + streamId +
                " (snapshot requests on " + layout.snapshotRequestChannel() + " stream " +
                layout.snapshotRequestStreamId() + ")");
            out.flush();
            final UnsafeBuffer request = new UnsafeBuffer(ByteBuffer.allocateDirect(64));
            final Set<String> printed = new LinkedHashSet<>();
            symbols.forEach((symbol) -> printed.add(symbol.strip().toUpperCase(Locale.ROOT))); // symbols are upper case
            final FeedFollower follower = new FeedFollower(feed, printed, out, (wanted) ->
            {
                final int length = MessageHeaderEncoder.ENCODED_LENGTH + new SnapshotRequestEncoder()
                    .wrapAndApplyHeader(request, 0, new MessageHeaderEncoder())
                    .requestId(aeron.nextCorrelationId())
                    .feed(wanted)
                    .encodedLength();
                return requests.offer(request, 0, length) > 0;
            }, SystemNanoClock.INSTANCE);
            final CountDownLatch done = new CountDownLatch(1);
            final Thread onCtrlC = new Thread(() ->
            {
                stopped = true;
                try
                {
                    done.await(STOP_WAIT_MS, TimeUnit.MILLISECONDS);
                }
                catch (final InterruptedException ex)
                {
                    Thread.currentThread().interrupt();
                }
            }, "bourse-feed-stop");
            Runtime.getRuntime().addShutdownHook(onCtrlC);
            try
            {
                follow(subscription, requests, follower, out);
                out.println(follower.incrementsPrinted() + " increments printed, " + follower.gaps() + " gaps, " +
                    follower.duplicates() + " duplicates, " + follower.skipped() + " other messages skipped");
                out.flush();
            }
            finally
            {
                done.countDown();
                removeHook(onCtrlC);
            }
        }
        return 0;
    }

    private static void removeHook(final Thread hook)
    {
        try
        {
            Runtime.getRuntime().removeShutdownHook(hook);
        }
        catch (final IllegalStateException ex)
        {
            // Shutting down: the hook runs, and has waited for this.
        }
    }

    private void follow(
        final Subscription subscription, final Publication requests, final FeedFollower follower,
        final PrintWriter out)
    {
        final IdleStrategy idle = new BackoffIdleStrategy();
        final long startNs = System.nanoTime();
        while ((0 == seconds || System.nanoTime() - startNs < TimeUnit.SECONDS.toNanos(seconds)) &&
            (0 == count || follower.incrementsPrinted() < count) && !stopped &&
            !Thread.currentThread().isInterrupted())
        {
            if (follower.hasSession() && null == subscription.imageBySessionId(follower.followedSession()))
            {
                follower.onImageGone(follower.followedSession());
            }
            // Asked only once the answer can be heard: the stream connected, the md-publisher reading requests.
            if (subscription.isConnected() && requests.isConnected())
            {
                follower.requestSnapshotIfDue();
            }
            // One message at a time under --count, so that it stops at exactly that many.
            final int work = subscription.poll(follower, 0 == count ? 100 : 1);
            if (work > 0)
            {
                out.flush();
            }
            idle.idle(work);
        }
    }
}
