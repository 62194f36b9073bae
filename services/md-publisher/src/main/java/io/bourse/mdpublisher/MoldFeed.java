package io.bourse.mdpublisher;

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
 * {@link MarketDataProxy}, and the factory of its sessions ({@link FeedSession}: one for the run, or one per day,
 * opened and closed on a thread of their own, {@link FeedSessions}), each with its {@link MoldMessageStore} and, when
 * a directory is configured, its {@link MoldSessionFile}, whose re-requests the {@link MoldFileAnswers} agent answers
 * on a thread of its own. Close it after the agents have stopped.
 */
final class MoldFeed implements AutoCloseable
{
    private final DatagramChannel multicastChannel;
    private final DatagramChannel requestChannel;
    private final Path firstSessionFile;
    private final FeedSessions sessions;
    private final MoldFeedAgent agent;
    private final MoldFileAnswers fileAnswers;

    private MoldFeed(
        final DatagramChannel multicastChannel,
        final DatagramChannel requestChannel,
        final Path firstSessionFile,
        final FeedSessions sessions,
        final MoldFeedAgent agent,
        final MoldFileAnswers fileAnswers)
    {
        this.multicastChannel = multicastChannel;
        this.requestChannel = requestChannel;
        this.firstSessionFile = firstSessionFile;
        this.sessions = sessions;
        this.agent = agent;
        this.fileAnswers = fileAnswers;
    }

    /**
     * Opens the sockets.
     *
     * @param ctx           the concluded configuration, with the feed on.
     * @param registry      where the feed's metrics go.
     * @param nanoClock     monotonic time of the heartbeats.
     * @param midnightClock wall-clock time of the session's opening and closing messages.
     * @return the feed, its agents not yet started.
     * @throws UncheckedIOException when a socket cannot be opened or bound.
     */
    static MoldFeed open(
        final MdPublisherContext ctx, final PrometheusRegistry registry, final NanoClock nanoClock,
        final MidnightNanoClock midnightClock)
    {
        DatagramChannel multicastChannel = null;
        DatagramChannel requestChannel = null;
        FeedSession firstSession = null;
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
            askReceiveBuffer(requestChannel, ctx.moldRequestReceiveBufferBytes());
            requestChannel.bind(new InetSocketAddress(ctx.moldInterfaceAddress(), ctx.moldRequestPort()));
            requestChannel.configureBlocking(false);

            final MoldMetrics metrics = new MoldMetrics(registry);
            metrics.requestSocketDrops(new UdpSocketDrops(
                UdpSocketDrops.PROC_NET_UDP, (InetSocketAddress)requestChannel.getLocalAddress()));
            final DatagramChannel sessionsChannel = multicastChannel;
            final FeedSession.Factory sessionFactory = (name) -> openSession(ctx, sessionsChannel, name, metrics);
            firstSession = sessionFactory.open(ctx.moldSession());
            final FeedSessions sessions = new FeedSessions(sessionFactory, metrics);
            final MoldAnswerSender sender = new MoldAnswerSender(requestChannel, metrics);
            final MoldFileAnswers fileAnswers =
                null == ctx.moldStoreDir() ? null : new MoldFileAnswers(sender, ctx.moldPayloadLength(), metrics);
            final MoldFeedAgent agent = new MoldFeedAgent(
                new ItchTranslator(ctx.symbolDirectory()),
                new ItchReferenceData(ctx.symbolDirectory()),
                firstSession,
                sessions,
                ctx.moldDailySessions(),
                new MoldRequestServer(
                    requestChannel, sender, ctx.moldPayloadLength(), ctx.moldRequestsPerSecond(), metrics),
                fileAnswers,
                ctx.moldPayloadLength(),
                TimeUnit.MILLISECONDS.toNanos(ctx.moldHeartbeatIntervalMs()),
                TimeUnit.MILLISECONDS.toNanos(ctx.moldEndOfSessionMs()),
                nanoClock,
                midnightClock,
                metrics);
            return new MoldFeed(
                multicastChannel, requestChannel, firstSession.store.sessionFilePath(), sessions, agent, fileAnswers);
        }
        catch (final IOException ex)
        {
            CloseHelper.quietCloseAll(firstSession, multicastChannel, requestChannel);
            throw new UncheckedIOException("md-publisher: cannot open the MoldUDP64 sockets on " +
                ctx.moldInterface() + " (group " + ctx.moldGroup() + ":" + ctx.moldPort() + ", request port " +
                ctx.moldRequestPort() + ")", ex);
        }
        catch (final RuntimeException ex)
        {
            CloseHelper.quietCloseAll(firstSession, multicastChannel, requestChannel);
            throw ex;
        }
    }

    /**
     * Asks for the request socket's receive buffer, and logs when the kernel gives less: a burst of Request Packets
     * past it is dropped before the feed reads it. Linux gives twice what it keeps of the ask (its overhead), so there
     * less is under twice the ask.
     *
     * @param channel the request socket, not yet bound.
     * @param bytes   the receive buffer asked for, 0 for the kernel's default.
     * @throws IOException when the socket refuses the option.
     */
    private static void askReceiveBuffer(final DatagramChannel channel, final int bytes) throws IOException
    {
        if (0 == bytes)
        {
            return;
        }
        channel.setOption(StandardSocketOptions.SO_RCVBUF, bytes);
        final int given = channel.getOption(StandardSocketOptions.SO_RCVBUF);
        final long wanted = System.getProperty("os.name").startsWith("Linux") ? 2L * bytes : bytes;
        if (given < wanted)
        {
            System.err.println("[md-mold] the MoldUDP64 request socket's receive buffer (SO_RCVBUF) is " + given +
                " bytes, less than the " + wanted + " that the " + bytes + " asked for give (" +
                MdPublisherContext.MOLD_REQUEST_RECEIVE_BUFFER_BYTES_PROP_NAME + "): the kernel caps it (Linux: at " +
                "twice net.core.rmem_max; raise that with sysctl). Request Packets of a burst past it are dropped " +
                "before they are read, counted in bourse_md_mold_request_socket_drops_total");
        }
    }

    /**
     * @return a new session on the multicast socket, with its store and, when a directory is configured, its file.
     * @throws OutOfMemoryError when the store's memory is refused (the file, if created, closed and deleted).
     */
    private static FeedSession openSession(
        final MdPublisherContext ctx, final DatagramChannel multicastChannel, final String name,
        final MoldMetrics metrics)
    {
        final MoldSessionFile sessionFile = createSessionFile(ctx, name, metrics);
        try
        {
            return new FeedSession(name, new MoldSessionServer(multicastChannel, name), new MoldMessageStore(
                ctx.moldStoreMessages(), MoldFeedAgent.MAX_MESSAGE_LENGTH, ctx.moldPayloadLength(), sessionFile,
                metrics));
        }
        catch (final RuntimeException | Error ex)
        {
            CloseHelper.quietClose(sessionFile);
            throw ex;
        }
    }

    /**
     * @return the session's file in the configured directory; null without a directory, or when it cannot be created
     *         (counted and logged: the feed runs with the memory's newest messages only).
     */
    private static MoldSessionFile createSessionFile(
        final MdPublisherContext ctx, final String session, final MoldMetrics metrics)
    {
        if (null == ctx.moldStoreDir())
        {
            return null;
        }
        try
        {
            return MoldSessionFile.create(Path.of(ctx.moldStoreDir()), session, ctx.moldStoreFileBytes());
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

    /**
     * @return the agent that answers the re-requests of the session files, to run on a thread of its own; null when
     *         no directory for them is configured.
     */
    MoldFileAnswers fileAnswers()
    {
        return fileAnswers;
    }

    /** @return the first session's file, or null without one. */
    Path sessionFile()
    {
        return firstSessionFile;
    }

    /** @return the bound port of the re-request server. */
    int requestPort()
    {
        return requestChannel.socket().getLocalPort();
    }

    /**
     * Closes the sockets, then the sessions still open, whose stores delete their files and free their memory, then
     * waits for the sessions' thread to close those it has ({@link FeedSessions#close}).
     */
    @Override
    public void close()
    {
        CloseHelper.closeAll(this::closeSockets, agent::closeSessions, sessions);
    }

    /** Closes the sockets: the agent's sends and receives fail from here on. */
    void closeSockets()
    {
        CloseHelper.closeAll(multicastChannel, requestChannel);
    }
}
