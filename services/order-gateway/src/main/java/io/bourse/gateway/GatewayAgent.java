package io.bourse.gateway;

import org.agrona.CloseHelper;
import org.agrona.concurrent.Agent;

import java.io.IOException;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;

/**
 * The gateway's one thread, serving every client connection on non-blocking sockets. Each duty cycle first answers: it
 * reads the clock, polls every engine shard's event stream, and for each session writes its journal (forced under
 * {@link JournalSync#BATCH}), buffers the journaled messages due (replays, bounded per cycle) and writes what the
 * socket takes of the send buffer (the packets of the cycle in one system call, unless they outgrow the buffer), and
 * then stores the event streams' positions answered through ({@link EventPositions}; no longer once a journal has
 * failed). Then it takes new input: it reads the clock again and moves the trading day on at that time
 * ({@link MarketClose}: from the close time on, new orders are Rejected 'C'), accepts clients, reads their packets
 * (when every shard's command stream has room for what one read can carry, else the read waits and TCP holds the client
 * back) and writes more to the sockets that became writable again (one non-blocking {@link Selector}), closes
 * connections that did not log in in time, keeps the SoupBinTCP sessions alive (heartbeat after 1 s idle, drop after 15
 * s silence, but not a client whose packets wait in the socket for the shards' room), writes what the sockets take of
 * the packets buffered since (heartbeats, login answers), ticks the shards' clocks ({@link ClockTicker}, once a second
 * by default) and sends again the cancels on disconnect a shard could not take ({@link
 * OrderEntry#retryCancels}, once the shards' events are caught up). Once a closed day's answers are
 * journaled and the next day is due, it opens the next day ({@link TradingDays}): the closed day's connections are
 * ended (End of Session: the day is over) and its journals closed, and the engine events, the logins
 * and the orders go to the new day from then on; the cancels of the closed day's orders that a shard could not take yet
 * (the close's, on disconnect) are still sent as a shard takes them ({@link ClosedDayCancels}). The answers to the
 * orders of one cycle thus leave at the start of the next, before the reads and the work of the orders that came
 * meanwhile: at 200,000 orders/s that halved the gateway's own p50 (order read to answer written, 22.8 to 10.5-11.2
 * µs). No step waits on a client; only the stop waits, a bounded time, for the engine shards' answers to the commands
 * in flight and for the clients to close.
 */
final class GatewayAgent implements Agent
{
    /**
     * Events taken per shard per duty cycle: a shard's duty cycle takes up to 1024 commands and most commands make two
     * or more events, so that the gateway keeps up with its shards rather than letting events pile up in their terms.
     */
    private static final int FRAGMENT_LIMIT = 4096;

    /** After a failure to open the next day, the wait before the next attempt. */
    private static final long NEXT_DAY_RETRY_NS = TimeUnit.SECONDS.toNanos(1);

    /**
     * The longest the stop waits for the engine shards' answers to the commands in flight: with the end-of-session
     * linger after it ({@link SessionRegistry#lingerAtStop()}, 3 s at most) within Agrona's 5 s wait for an agent to
     * close.
     */
    private static final long STOP_ANSWER_WAIT_NS = TimeUnit.SECONDS.toNanos(1);

    /** The pause between two polls of the event streams at the stop while no event comes. */
    private static final long STOP_ANSWER_IDLE_NS = TimeUnit.MILLISECONDS.toNanos(1);

    private final ServerSocketChannel serverChannel;
    private final Selector selector;
    private final EngineProxy engine;
    private final EngineEventStreams events;
    private final DutyCycleClock clock;
    private final ClockTicker clockTicker;
    private final TradingDays days;
    private final GatewayMetrics metrics;
    private final Consumer<SelectionKey> onSelected = this::onSelected;
    /** Written by the agent thread only; volatile for the metrics' reads. */
    private volatile TradingDay day;
    private final ClosedDayCancels closedDayCancels;
    /** Whether the last attempt to open the next day failed: the next waits until {@link #nextDayAttemptNs}. */
    private boolean nextDayFailed;
    private long nextDayAttemptNs;
    private int selectedWork;

    /**
     * @param serverChannel    bound, non-blocking listening channel; closed with the agent.
     * @param selector         the selector to use; closed with the agent.
     * @param day              the first trading day, opened; its journals are closed with the agent.
     * @param days             opens the next days.
     * @param closedDayCancels the cancels of closed days' orders, those the start kept among them.
     * @param engine           asked before each client read whether the shards' command streams have room for it.
     * @param events           the engine shards' event streams, handed to the first day here.
     * @param clock            updated once per duty cycle.
     * @param clockTicker      ticks the engine shards' clocks.
     * @param metrics          counts accept errors; its order latency summary is batched per events poll.
     * @throws IOException when the listening channel cannot be registered.
     */
    GatewayAgent(
        final ServerSocketChannel serverChannel,
        final Selector selector,
        final TradingDay day,
        final TradingDays days,
        final ClosedDayCancels closedDayCancels,
        final EngineProxy engine,
        final EngineEventStreams events,
        final DutyCycleClock clock,
        final ClockTicker clockTicker,
        final GatewayMetrics metrics) throws IOException
    {
        this.serverChannel = serverChannel;
        this.selector = selector;
        this.day = day;
        this.days = days;
        this.engine = engine;
        this.events = events;
        this.clock = clock;
        this.clockTicker = clockTicker;
        this.metrics = metrics;
        this.closedDayCancels = closedDayCancels;
        events.openDay(day.orderEntry(), day.eventPositions());
        serverChannel.register(selector, SelectionKey.OP_ACCEPT);
    }

    @Override
    public int doWork() throws IOException
    {
        clock.update();
        final TradingDay day = this.day;
        int work = pollEvents();
        if (events.isCaughtUp())
        {
            // before the logins this cycle may accept, so that a user logging in again finds the cancels sent
            work += day.orderEntry().retryCancels();
            work += closedDayCancels.retry();
        }
        work += day.registry().flush();
        if (!day.registry().isJournalFailed())
        {
            events.onAnswersJournaled();
        }
        // System.nanoTime may be negative: a first attempt does not wait for it to pass 0
        if (days.isNextDayDue(day, clock.midnightNs()) && (!nextDayFailed || clock.nanoTime() - nextDayAttemptNs >= 0))
        {
            work += openNextDay(day);
        }
        clock.update();
        // At the time this cycle's orders are read and stamped with, so that one read at or after the close time is
        // Rejected 'C'.
        work += this.day.marketClose().doWork(clock.midnightNs());
        selectedWork = 0;
        selector.selectNow(onSelected);
        work += selectedWork + this.day.registry().keepAliveAndSend();
        return work + clockTicker.doWork();
    }

    /**
     * Opens the next trading day, then ends the closed day's connections, closes its journals, frees its traded
     * orders' direct memory ({@link OrderEntry#freeTradedOrders()}) and deletes the journals of the days past their
     * retention ({@link TradingDays#deleteExpiredDays}); a failure to open it (its journals) is counted, logged the
     * first time, and tried again a second later while the closed day goes on (its sessions replay and end).
     *
     * @param closed the day that closed.
     * @return 1.
     */
    private int openNextDay(final TradingDay closed)
    {
        final TradingDay next;
        try
        {
            next = days.openNext(closed, clock.midnightNs());
        }
        catch (final IOException | RuntimeException ex)
        {
            nextDayFailed = true;
            nextDayAttemptNs = clock.nanoTime() + NEXT_DAY_RETRY_NS;
            metrics.error(GatewayError.JOURNAL_FAILED, "next trading day", ex);
            return 1;
        }
        nextDayFailed = false;
        events.openDay(next.orderEntry(), next.eventPositions());
        day = next;
        final int openOrders = closed.orderEntry().openOrderCount();
        final int cancelsToRetry;
        try
        {
            closed.registry().handPendingLoginsTo(next.registry());
            closed.registry().endAll();
        }
        finally
        {
            closed.registry().handLingeringTo(next.registry());
            cancelsToRetry = closed.orderEntry().carryCancelsTo(closedDayCancels);
            closed.orderEntry().freeTradedOrders();
            if (0 == openOrders)
            {
                // Else left unmarked: a later start cancels the orders still open again (a cross never run).
                closedDayCancels.markWhenSent(closed.journals().directory());
            }
            CloseHelper.quietClose(closed.journals());
        }
        System.out.println("order-gateway: trading day " + next.sessionName() + " opened (journals " +
            next.journals().directory() + "); day " + closed.sessionName() + " ended" + (0 == openOrders ? "" :
            " with " + openOrders + " orders still open in the engine, which no session of the new day hears of") +
            (0 == cancelsToRetry ? "" : "; " + cancelsToRetry + " of their cancels wait for their shard"));
        days.deleteExpiredDays(next.journals());
        return 1;
    }

    /**
     * @return the cancels waiting for their shard to take them: on disconnect and the close's, of the day and of the
     * closed days, and the day's cancels an earlier run of a shard took and never answered; any thread (an estimate).
     */
    int cancelsToRetry()
    {
        return day.orderEntry().cancelsToRetry() + closedDayCancels.size();
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

    /** @return the current trading day; any thread, for its {@link MarketClose#state()} and open order counts. */
    TradingDay day()
    {
        return day;
    }

    /**
     * Closes every connection ({@link SessionRegistry#closeAllAtStop()}: End of Session only once the day is over, as
     * a restart the same day goes on with its sessions) and sends the cancels on disconnect; journals the shards'
     * answers to the commands in flight ({@link #journalAnswersInFlight}, 1 s at most); then closes the day's journals
     * and the server socket, waits for the clients to take what their send buffers hold and close ({@link
     * SessionRegistry#lingerAtStop()}: the end-of-session linger, 3 s at most), and closes the selector.
     */
    @Override
    public void onClose()
    {
        final TradingDay day = this.day;
        try
        {
            day.registry().closeAllAtStop();
            day.orderEntry().sendCancelsOnDisconnectAtStop();
            closedDayCancels.sendAtStop();
            journalAnswersInFlight(day.orderEntry(), day.registry());
        }
        finally
        {
            CloseHelper.quietCloseAll(day.journals(), serverChannel);
            try
            {
                day.registry().lingerAtStop();
            }
            finally
            {
                CloseHelper.quietClose(selector);
            }
        }
    }

    /**
     * At the stop, once the sessions ended: polls the shards' events, journals the answers (as every duty cycle does)
     * and stores the positions answered through, until no order awaits the answer of a shard whose event stream is
     * connected ({@link OrderEntry#ordersAwaitingAnswer}: the orders and replacements in flight, the stop's cancels on
     * disconnect) or {@link #STOP_ANSWER_WAIT_NS} has passed; meanwhile it steps the lingers of the ended connections
     * ({@link SessionRegistry#stepLingersAtStop()}), whose deadlines run from their close. Each client gets
     * those answers in the replay of its next login. Without the wait they went unjournaled, and a restarted gateway
     * heard of them only from the event archive: after a media driver restart (which wipes the archive of a compose
     * stack) an order in flight was Rejected 'H' ({@link OrderEntry#rejectOrdersLostWithTheirMediaDriver()}) though its
     * engine took it, and an open order whose cancel on disconnect went was canceled 'Z' by the restarted gateway
     * ({@link OrderEntry#onRunStarted}). No wait before the shards' events are caught up from the event archive (its
     * client could block past the bound), nor once a journal failed or the thread is interrupted (Agrona's close
     * timeout). The wait runs to its bound when no answer can come: an order sent to an engine run that died, or a
     * shard on the shared thread of the embedded exchange's {@code shared} layout, which does not run the shards while
     * the gateway stops. Logs what it awaited, what is still awaited and how long it waited.
     */
    private void journalAnswersInFlight(final OrderEntry orderEntry, final SessionRegistry registry)
    {
        int awaited = orderEntry.ordersAwaitingAnswer(events::isConnected);
        if (0 == awaited || !events.isCaughtUp())
        {
            return;
        }
        final int inFlight = awaited;
        clock.update();
        final long startNs = clock.nanoTime();
        final long limitNs = startNs + STOP_ANSWER_WAIT_NS;
        while (0 != awaited && clock.nanoTime() - limitNs < 0 && !registry.isJournalFailed() &&
            !Thread.currentThread().isInterrupted())
        {
            final int work = pollEvents();
            registry.flush();
            if (!registry.isJournalFailed())
            {
                events.onAnswersJournaled();
            }
            if (0 == work + registry.stepLingersAtStop())
            {
                LockSupport.parkNanos(STOP_ANSWER_IDLE_NS);
            }
            // Also without events: a shard's stream that disconnected, or the Aeron client closed, leaves no answer.
            awaited = orderEntry.ordersAwaitingAnswer(events::isConnected);
            clock.update();
        }
        System.out.println("order-gateway: stopping with " + inFlight + " orders awaiting the answer of a connected " +
            "engine shard; " + (0 == awaited ? "every answer journaled" : awaited + " still awaited, left to the " +
            "event archive") + " after " + TimeUnit.NANOSECONDS.toMillis(clock.nanoTime() - startNs) + " ms");
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
                selectedWork += day.registry().receive(connection);
            }
            else
            {
                connection.readDeferred(clock.nanoTime());
                metrics.readsDeferred.inc();
            }
        }
        if (key.isValid() && key.isWritable())
        {
            selectedWork += day.registry().onWritable(connection);
        }
    }

    private void accept()
    {
        SocketChannel channel;
        while (null != (channel = acceptNext()))
        {
            final OuchConnection connection = day.registry().onAccept(channel);
            if (null != connection)
            {
                try
                {
                    connection.selectionKey(channel.register(selector, SelectionKey.OP_READ, connection));
                    selectedWork++;
                }
                catch (final IOException ex)
                {
                    day.registry().fail(connection, GatewayError.CONNECTION_FAILED, ex);
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
