package io.bourse.fanout;

import io.aeron.Aeron;
import io.aeron.Publication;
import io.aeron.Subscription;
import io.bourse.common.aeron.AgentLaunch;
import io.bourse.common.aeron.StreamLayout;
import io.bourse.common.aeron.StreamReadiness;
import io.bourse.common.config.Credentials;
import io.bourse.common.metrics.AeronClientCollector;
import io.bourse.common.metrics.ErrorKinds;
import io.bourse.common.metrics.MetricsServer;
import io.bourse.common.net.SendBufferPool;
import io.bourse.common.net.SessionSockets;
import io.bourse.common.time.MidnightNanoClock;
import io.bourse.itch.ItchReferenceData;
import io.bourse.itch.ItchTranslator;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import org.agrona.BufferUtil;
import org.agrona.CloseHelper;
import org.agrona.LangUtil;
import org.agrona.concurrent.AgentRunner;
import org.agrona.concurrent.CompositeAgent;
import org.agrona.concurrent.ManyToOneConcurrentArrayQueue;
import org.agrona.concurrent.SystemNanoClock;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.ringbuffer.OneToOneRingBuffer;
import org.agrona.concurrent.ringbuffer.RingBuffer;
import org.agrona.concurrent.ringbuffer.RingBufferDescriptor;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * The running fanout: one thread runs the dispatcher (one subscription to the market-data stream, translated to
 * ITCH 5.0 once) and the acceptor of subscriber connections; each of N worker threads serves its group of
 * SoupBinTCP 4.0 sessions from its own ring buffer. A subscriber gets, at login, the book of its symbols then live
 * messages, or a replay from the sequence number it requested, and may choose its symbols ({@link DispatcherAgent},
 * {@link SubscriberSession}). The books come from an md-publisher snapshot, asked for on the snapshot-request stream
 * ({@link MarketDataRecovery}), so the fanout may start, or restart, at any time.
 */
public final class FanoutService implements AutoCloseable
{
    private static final int CONNECTION_QUEUE_CAPACITY = 64;
    private static final int REQUEST_QUEUE_CAPACITY = 1024;

    private final MetricsServer metricsServer;
    private final Aeron aeron;
    private final ServerSocketChannel serverChannel;
    private final List<AgentRunner> workerRunners;
    private final AgentRunner dispatcherRunner;

    private FanoutService(
        final MetricsServer metricsServer, final Aeron aeron, final ServerSocketChannel serverChannel,
        final List<AgentRunner> workerRunners, final AgentRunner dispatcherRunner)
    {
        this.metricsServer = metricsServer;
        this.aeron = aeron;
        this.serverChannel = serverChannel;
        this.workerRunners = workerRunners;
        this.dispatcherRunner = dispatcherRunner;
    }

    /**
     * Concludes the context (which reads the credentials file unless credentials are set), starts the metrics
     * endpoint, connects to the media driver, binds the subscriber port and starts the agents.
     *
     * @param ctx the configuration; concluded here.
     * @return the running service.
     * @throws IllegalStateException for a bad configuration or a credentials file that cannot be read.
     * @throws UncheckedIOException  when a port cannot be bound.
     */
    public static FanoutService launch(final FanoutContext ctx)
    {
        ctx.conclude();
        final StreamLayout layout = ctx.layout();
        final ErrorKinds<FanoutError> errors = new ErrorKinds<>("fanout", FanoutError.class);
        final List<AgentRunner> workerRunners = new ArrayList<>();
        MetricsServer metricsServer = null;
        Aeron aeron = null;
        ServerSocketChannel serverChannel = null;
        try
        {
            final Credentials credentials = ctx.credentials();
            metricsServer = MetricsServer.start(ctx.metricsPort(), ctx.jvmMetrics());
            final FanoutMetrics metrics = new FanoutMetrics(metricsServer.registry(), errors);
            aeron = Aeron.connect(new Aeron.Context()
                .aeronDirectoryName(layout.aeronDirectoryName()).clientName("fanout"));
            final Subscription subscription = aeron.addSubscription(
                layout.marketDataChannel(), layout.marketDataStreamId());
            metricsServer.registry().register(new AeronClientCollector(aeron, List.of(subscription)));

            serverChannel = SessionSockets.listen(new InetSocketAddress(ctx.port()));

            final MidnightNanoClock clock = new MidnightNanoClock(ctx.epochClock());
            final SessionNames sessionNames =
                SessionNames.startingAt(Instant.ofEpochSecond(0, ctx.epochClock().nanoTime()));
            final RingBuffer[] rings = new RingBuffer[ctx.workerCount()];
            final List<WorkerAgent> workers = new ArrayList<>();
            final ManyToOneConcurrentArrayQueue<CatchUpRequest> requests =
                new ManyToOneConcurrentArrayQueue<>(REQUEST_QUEUE_CAPACITY);
            for (int workerId = 0; workerId < rings.length; workerId++)
            {
                rings[workerId] = new OneToOneRingBuffer(new UnsafeBuffer(BufferUtil.allocateDirectAligned(
                    ctx.ringBufferSize() + RingBufferDescriptor.TRAILER_LENGTH, 64)));
                final WorkerAgent worker = new WorkerAgent(
                    workerId, rings[workerId], new ManyToOneConcurrentArrayQueue<>(CONNECTION_QUEUE_CAPACITY), requests,
                    ctx.maxSessionsPerWorker(), ctx.maxPendingLoginsPerWorker(), credentials,
                    new ItchReferenceData(ctx.symbolDirectory()), ctx.symbolDirectory(), SystemNanoClock.INSTANCE,
                    clock, sessionNames,
                    new SendBufferPool(ctx.sendBufferBytes(), metrics.sendBufferBytes()),
                    ctx.socketSendBufferBytes(), ctx.fragmentLimit(), metrics, errors);
                workers.add(worker);
                workerRunners.add(AgentLaunch.start(
                    worker, ctx.idleStrategySupplier().get(), ctx.threadAffinity(), errors.agentExceptions()));
            }

            FanoutMetrics.registerQueues(metricsServer.registry(), rings, requests);
            final ItchTranslator translator = new ItchTranslator(ctx.symbolDirectory());
            final ItchBook book =
                new ItchBook(new ItchReferenceData(ctx.symbolDirectory()), clock.nanosSinceMidnight());
            final Publication snapshotRequests = aeron.addPublication(
                layout.snapshotRequestChannel(), layout.snapshotRequestStreamId());
            final MarketDataRecovery recovery = new MarketDataRecovery(
                subscription, snapshotRequests, aeron::nextCorrelationId, translator, book, SystemNanoClock.INSTANCE);
            final DispatcherAgent dispatcher = new DispatcherAgent(
                subscription, translator, book, new ItchReferenceData(ctx.symbolDirectory()), clock, sessionNames,
                recovery, rings, requests, ctx.replayCapacity(), ctx.fragmentLimit(), metrics, errors);
            final SubscriberAcceptor acceptor = new SubscriberAcceptor(
                serverChannel, workers, SystemNanoClock.INSTANCE, errors);
            final AgentRunner dispatcherRunner = AgentLaunch.start(
                new CompositeAgent(dispatcher, acceptor), ctx.idleStrategySupplier().get(), ctx.threadAffinity(),
                errors.agentExceptions());
            final StreamReadiness streams = new StreamReadiness().published(subscription, "md-publisher");
            metricsServer.readiness(() ->
            {
                final String reason = streams.notReadyReason();
                return null != reason || recovery.isLive() ? reason : "no books yet: waiting for an md-publisher " +
                    "snapshot (stream " + layout.snapshotRequestStreamId() + ")";
            });
            System.out.println("fanout started: ITCH 5.0/SoupBinTCP on port " + ctx.port() + ", replay session " +
                sessionNames.day().session() + ", " +
                ctx.workerCount() + " workers (" + ctx.sendBufferBytes() / 1024 + " KiB send buffer per session), " +
                "metrics :" + metricsServer.port());
            return new FanoutService(metricsServer, aeron, serverChannel, workerRunners, dispatcherRunner);
        }
        catch (final IOException ex)
        {
            CloseHelper.quietCloseAll(workerRunners);
            CloseHelper.quietCloseAll(serverChannel, aeron, metricsServer);
            throw new UncheckedIOException("fanout: cannot start", ex);
        }
        catch (final RuntimeException ex)
        {
            CloseHelper.quietCloseAll(workerRunners);
            CloseHelper.quietCloseAll(serverChannel, aeron, metricsServer);
            throw ex;
        }
    }

    /** @return the bound subscriber port. */
    public int port()
    {
        return serverChannel.socket().getLocalPort();
    }

    /** @return the bound port of the Prometheus endpoint. */
    public int metricsPort()
    {
        return metricsServer.port();
    }

    /**
     * @return the registry the Prometheus endpoint serves ({@code bourse_fanout_*}, the Aeron client's counters, JVM
     * metrics if enabled), for a process that embeds the fanout to read without a scrape, e.g. with
     * {@link PrometheusRegistry#scrape(java.util.function.Predicate)} for one metric.
     */
    public PrometheusRegistry registry()
    {
        return metricsServer.registry();
    }

    /**
     * Stops the dispatcher (which first reads the market data already published, then ends the trading day if midnight
     * has passed since its last duty cycle, then writes the data-lost markers still pending,
     * {@link DispatcherAgent#onClose}) and acceptor, then the workers
     * together (each ends its sessions: ITCH 5.0 System Events 'M', 'E' and 'C', then End of Session, and waits up to
     * {@value SubscriberSession#END_OF_SESSION_TIMEOUT_MS} ms for its subscribers to take them and close; so the stop
     * waits that long once, not once per worker), then closes the server socket, the Aeron client and the metrics
     * endpoint.
     */
    @Override
    public void close()
    {
        CloseHelper.close(dispatcherRunner);
        closeTogether(workerRunners);
        CloseHelper.closeAll(serverChannel, metricsServer, aeron);
    }

    /**
     * Closes each on its own (virtual) thread, all at once, and returns when every one has closed: stops that wait
     * overlap instead of adding up.
     *
     * @param closeables what to close, e.g. agent runners, whose close waits for the agent's onClose.
     * @throws Exception the first failure of a close, rethrown as it is (a checked one undeclared), the others
     *                   suppressed in it; every close has run.
     */
    static void closeTogether(final List<? extends AutoCloseable> closeables)
    {
        final List<Future<Object>> closings = new ArrayList<>();
        try (ExecutorService closers = Executors.newVirtualThreadPerTaskExecutor())
        {
            for (final AutoCloseable closeable : closeables)
            {
                closings.add(closers.submit(() ->
                {
                    closeable.close();
                    return null;
                }));
            }
        }
        Throwable failure = null;
        for (final Future<Object> closing : closings)
        {
            if (Future.State.FAILED == closing.state())
            {
                final Throwable thrown = closing.exceptionNow();
                if (null == failure)
                {
                    failure = thrown;
                }
                else if (thrown != failure)
                {
                    failure.addSuppressed(thrown);
                }
            }
        }
        if (null != failure)
        {
            LangUtil.rethrowUnchecked(failure);
        }
    }
}
