package io.bourse.mdpublisher;

import com.paritytrading.nassau.moldudp64.MoldUDP64RequestServer;
import com.paritytrading.nassau.moldudp64.MoldUDP64Server;
import io.bourse.common.time.MidnightNanoClock;
import io.bourse.itch.ItchReferenceData;
import io.bourse.itch.ItchTranslator;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import org.agrona.CloseHelper;
import org.agrona.concurrent.NanoClock;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.StandardProtocolFamily;
import java.net.StandardSocketOptions;
import java.nio.channels.DatagramChannel;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * The md-publisher's ITCH 5.0 over MoldUDP64 feed: its sockets (a multicast sender connected to the group on the
 * configured interface, and the re-request server's unicast socket on the same interface) and the
 * {@link MoldFeedAgent} that runs on them, which takes the order feed's increments from the md-publisher's
 * {@link MarketDataProxy}, and the session's {@link MoldMessageStore} with its {@link MoldSessionFile} when a directory
 * is configured. Close it after the agent has stopped.
 */
final class MoldFeed implements AutoCloseable
{
    private final DatagramChannel multicastChannel;
    private final DatagramChannel requestChannel;
    private final MoldMessageStore store;
    private final MoldFeedAgent agent;

    private MoldFeed(
        final DatagramChannel multicastChannel,
        final DatagramChannel requestChannel,
        final MoldMessageStore store,
        final MoldFeedAgent agent)
    {
        this.multicastChannel = multicastChannel;
        this.requestChannel = requestChannel;
        this.store = store;
        this.agent = agent;
    }

    /**
     * Opens the sockets.
     *
     * @param ctx           the concluded configuration, with the feed on.
     * @param registry      where the feed's metrics go.
     * @param nanoClock     monotonic time of the heartbeats.
     * @param midnightClock wall-clock time of the session's opening and closing messages.
     * @return the feed, its agent not yet started.
     * @throws UncheckedIOException when a socket cannot be opened or bound.
     */
    static MoldFeed open(
        final MdPublisherContext ctx, final PrometheusRegistry registry, final NanoClock nanoClock,
        final MidnightNanoClock midnightClock)
    {
        DatagramChannel multicastChannel = null;
        DatagramChannel requestChannel = null;
        MoldSessionFile sessionFile = null;
        try
        {
            multicastChannel = DatagramChannel.open(StandardProtocolFamily.INET);
            multicastChannel.setOption(StandardSocketOptions.IP_MULTICAST_IF, ctx.moldNetworkInterface());
            multicastChannel.setOption(StandardSocketOptions.IP_MULTICAST_TTL, ctx.moldTtl());
            multicastChannel.setOption(StandardSocketOptions.IP_MULTICAST_LOOP, true);
            multicastChannel.bind(new InetSocketAddress(ctx.moldInterfaceAddress(), 0));
            multicastChannel.connect(new InetSocketAddress(ctx.moldGroupAddress(), ctx.moldPort()));
            multicastChannel.configureBlocking(false);

            requestChannel = DatagramChannel.open(StandardProtocolFamily.INET);
            requestChannel.bind(new InetSocketAddress(ctx.moldInterfaceAddress(), ctx.moldRequestPort()));
            requestChannel.configureBlocking(false);

            final MoldMetrics metrics = new MoldMetrics(registry);
            sessionFile = createSessionFile(ctx, metrics);
            final MoldMessageStore store = new MoldMessageStore(ctx.moldStoreMessages(),
                MoldFeedAgent.MAX_MESSAGE_LENGTH, ctx.moldPayloadLength(), sessionFile, metrics);
            final MoldFeedAgent agent = new MoldFeedAgent(
                new ItchTranslator(ctx.symbolDirectory()),
                new ItchReferenceData(ctx.symbolDirectory()),
                ctx.moldSession(),
                new MoldUDP64Server(multicastChannel, ctx.moldSession()),
                new MoldUDP64RequestServer(requestChannel),
                store,
                ctx.moldPayloadLength(),
                TimeUnit.MILLISECONDS.toNanos(ctx.moldHeartbeatIntervalMs()),
                TimeUnit.MILLISECONDS.toNanos(ctx.moldEndOfSessionMs()),
                nanoClock,
                midnightClock,
                metrics);
            return new MoldFeed(multicastChannel, requestChannel, store, agent);
        }
        catch (final IOException ex)
        {
            CloseHelper.quietCloseAll(multicastChannel, requestChannel, sessionFile);
            throw new UncheckedIOException("md-publisher: cannot open the MoldUDP64 sockets on " +
                ctx.moldInterface() + " (group " + ctx.moldGroup() + ":" + ctx.moldPort() + ", request port " +
                ctx.moldRequestPort() + ")", ex);
        }
        catch (final RuntimeException ex)
        {
            CloseHelper.quietCloseAll(multicastChannel, requestChannel, sessionFile);
            throw ex;
        }
    }

    /**
     * @return the session's file in the configured directory; null without a directory, or when it cannot be created
     *         (counted and logged: the feed runs with the memory's newest messages only).
     */
    private static MoldSessionFile createSessionFile(final MdPublisherContext ctx, final MoldMetrics metrics)
    {
        if (null == ctx.moldStoreDir())
        {
            return null;
        }
        try
        {
            return MoldSessionFile.create(Path.of(ctx.moldStoreDir()), ctx.moldSession(), ctx.moldStoreFileBytes());
        }
        catch (final IOException | RuntimeException ex)
        {
            metrics.onError();
            System.err.println("[md-publisher] MoldUDP64 session file in " + ctx.moldStoreDir() + " not created, " +
                "requests older than the newest " + ctx.moldStoreMessages() + " messages go unanswered: " + ex);
            return null;
        }
    }

    /** @return the agent that runs the feed. */
    MoldFeedAgent agent()
    {
        return agent;
    }

    /** @return the session file, or null without one. */
    Path sessionFile()
    {
        return store.sessionFilePath();
    }

    /** @return the bound port of the re-request server. */
    int requestPort()
    {
        return requestChannel.socket().getLocalPort();
    }

    /** Closes the sockets, then the store, which deletes its session file. */
    @Override
    public void close()
    {
        CloseHelper.closeAll(multicastChannel, requestChannel, store);
    }
}
