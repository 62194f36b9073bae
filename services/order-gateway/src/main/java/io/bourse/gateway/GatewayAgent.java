package io.bourse.gateway;

import org.agrona.CloseHelper;
import org.agrona.concurrent.Agent;

import java.io.IOException;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.function.Consumer;

/**
 * The gateway's one thread, serving every client connection on non-blocking sockets. Each duty cycle first answers: it
 * reads the clock, polls every engine shard's event stream, and for each session writes its journal (forced under
 * {@link JournalSync#BATCH}), buffers the journaled messages due (replays, bounded per cycle) and writes what the
 * socket takes of the send buffer (the packets of the cycle in one system call, unless they outgrow the buffer), and
 * then stores the event streams' positions answered through ({@link EventPositions}; no longer once a journal has
 * failed). Then it takes new input: it reads the clock again, accepts clients, reads their packets (when every shard's
 * command stream has room for what one read can carry, else the read waits and TCP holds the client back) and writes
 * more to the sockets that became writable again (one non-blocking {@link Selector}), closes connections that did not
 * log in in time, keeps the SoupBinTCP sessions alive (heartbeat after 1 s idle, drop after 15 s silence, but not a
 * client whose packets wait in the socket for the shards' room), writes what the sockets take of the packets buffered
 * since (heartbeats, login answers), ticks the shards' clocks ({@link ClockTicker}, once a second by default) and
 * sends again the cancels on disconnect a shard could not take ({@link OrderEntry#retryCancelsOnDisconnect}, once the
 * shards' events are caught up), and closes the trading day at its time ({@link MarketClose}). The
 * answers to the orders of one cycle thus leave at the start of the next, before the reads and the work of the orders
 * that came meanwhile: at 200,000 orders/s that halved the gateway's own p50 (order read to answer written, 22.8 to
 * 10.5-11.2 µs). No step waits on a client.
 */
final class GatewayAgent implements Agent
{
    /**
     * Events taken per shard per duty cycle: a shard's duty cycle takes up to 1024 commands and most commands make two
     * or more events, so that the gateway keeps up with its shards rather than letting events pile up in their terms.
     */
    private static final int FRAGMENT_LIMIT = 4096;

    private final ServerSocketChannel serverChannel;
    private final Selector selector;
    private final SessionRegistry registry;
    private final EngineProxy engine;
    private final EngineEventStreams events;
    private final DutyCycleClock clock;
    private final ClockTicker clockTicker;
    private final OrderEntry orderEntry;
    private final MarketClose marketClose;
    private final GatewayMetrics metrics;
    private final Consumer<SelectionKey> onSelected = this::onSelected;
    private int selectedWork;

    /**
     * @param serverChannel      bound, non-blocking listening channel; closed with the agent.
     * @param selector           the selector to use; closed with the agent.
     * @param registry           the sessions.
     * @param engine             asked before each client read whether the shards' command streams have room for it.
     * @param events             the engine shards' event streams.
     * @param clock              updated once per duty cycle.
     * @param clockTicker        ticks the engine shards' clocks.
     * @param orderEntry         retries the cancels on disconnect a shard could not take.
     * @param marketClose        closes the trading day at its time.
     * @param metrics            counts accept errors; its order latency summary is batched per events poll.
     * @throws IOException when the listening channel cannot be registered.
     */
    GatewayAgent(
        final ServerSocketChannel serverChannel,
        final Selector selector,
        final SessionRegistry registry,
        final EngineProxy engine,
        final EngineEventStreams events,
        final DutyCycleClock clock,
        final ClockTicker clockTicker,
        final OrderEntry orderEntry,
        final MarketClose marketClose,
        final GatewayMetrics metrics) throws IOException
    {
        this.serverChannel = serverChannel;
        this.selector = selector;
        this.registry = registry;
        this.engine = engine;
        this.events = events;
        this.clock = clock;
        this.clockTicker = clockTicker;
        this.orderEntry = orderEntry;
        this.marketClose = marketClose;
        this.metrics = metrics;
        serverChannel.register(selector, SelectionKey.OP_ACCEPT);
    }

    @Override
    public int doWork() throws IOException
    {
        clock.update();
        int work = pollEvents();
        work += marketClose.doWork(clock.midnightNs());
        if (events.isCaughtUp())
        {
            // before the logins this cycle may accept, so that a user logging in again finds the cancels sent
            work += orderEntry.retryCancelsOnDisconnect();
        }
        work += registry.flush();
        if (!registry.isJournalFailed())
        {
            events.onAnswersJournaled();
        }
        clock.update();
        selectedWork = 0;
        selector.selectNow(onSelected);
        work += selectedWork + registry.keepAliveAndSend();
        return work + clockTicker.doWork();
    }

    /**
     * Polls every shard's events as one batch of the order latency summary, which the events answering orders record
     * into: no atomic operation per order. The batch leaves out the journals' syncs (forced under {@code batch}) and
     * the socket writes; only a journal whose write buffer fills up writes it to its file inside the batch.
     */
    private int pollEvents()
    {
        metrics.orderLatency.beginBatch();
        try
        {
            return events.poll(FRAGMENT_LIMIT);
        }
        finally
        {
            metrics.orderLatency.endBatch();
        }
    }

    /**
     * @return null once every engine shard's event stream was caught up from the event archive (or without it), else
     * why not; any thread.
     */
    String eventCatchUpReason()
    {
        return events.catchUpReason();
    }

    /** @return where the trading day stands ({@link MarketClose}); any thread. */
    MarketClose.State marketState()
    {
        return marketClose.state();
    }

    @Override
    public void onClose()
    {
        registry.closeAll();
        orderEntry.sendCancelsOnDisconnectAtStop();
        CloseHelper.quietCloseAll(selector, serverChannel);
    }

    @Override
    public String roleName()
    {
        return "order-gateway";
    }

    private void onSelected(final SelectionKey key)
    {
        if (!key.isValid())
        {
            return;
        }
        if (key.isAcceptable())
        {
            accept();
            return;
        }
        final OuchConnection connection = (OuchConnection)key.attachment();
        if (key.isReadable())
        {
            if (engine.hasRoomFor(SessionRegistry.MAX_COMMANDS_PER_RECEIVE))
            {
                selectedWork += registry.receive(connection);
            }
            else
            {
                connection.readDeferred(clock.nanoTime());
                metrics.readsDeferred.inc();
            }
        }
        if (key.isValid() && key.isWritable())
        {
            selectedWork += registry.onWritable(connection);
        }
    }

    private void accept()
    {
        SocketChannel channel;
        while (null != (channel = acceptNext()))
        {
            final OuchConnection connection = registry.onAccept(channel);
            if (null != connection)
            {
                try
                {
                    connection.selectionKey(channel.register(selector, SelectionKey.OP_READ, connection));
                    selectedWork++;
                }
                catch (final IOException ex)
                {
                    registry.fail(connection, GatewayError.CONNECTION_FAILED, ex);
                }
            }
        }
    }

    private SocketChannel acceptNext()
    {
        try
        {
            return serverChannel.accept();
        }
        catch (final IOException ex)
        {
            metrics.error(GatewayError.CONNECTION_FAILED, "accept", ex);
            return null;
        }
    }
}
