package io.bourse.fanout;

import io.bourse.common.config.Credentials;
import io.bourse.common.config.SymbolDirectory;
import io.bourse.common.metrics.ErrorKinds;
import io.bourse.common.metrics.LatencySummary;
import io.bourse.common.net.RequestedSequenceNumber;
import io.bourse.common.net.SendBufferPool;
import io.bourse.common.net.SessionSockets;
import io.bourse.common.time.MidnightNanoClock;
import io.bourse.itch.ItchReferenceData;
import io.bourse.itch.ItchTranslator;
import org.agrona.DirectBuffer;
import org.agrona.collections.Hashing;
import org.agrona.collections.Long2ObjectHashMap;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.CachedEpochClock;
import org.agrona.concurrent.ManyToOneConcurrentArrayQueue;
import org.agrona.concurrent.MessageHandler;
import org.agrona.concurrent.NanoClock;
import org.agrona.concurrent.ringbuffer.RingBuffer;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * Serves one group of subscriber sessions: takes the connections the acceptor assigns it, reads its sessions through
 * its own selector (logins, subscriptions, heartbeats, logouts), and writes every ITCH message from its ring buffer to
 * each logged-in session subscribed to its symbol, and the dispatcher's answers (login, snapshot, replay) to the
 * session they name, in ring order. Every write goes into the session's send buffer; at the end of each duty cycle each
 * session with bytes buffered gets one non-blocking write ({@link SubscriberSession#flush()}), and one whose socket did
 * not take everything gets more only when the selector finds it writable again, so a stalled subscriber never holds up
 * the others; once neither its socket nor its send buffer takes a message it is ended as a slow consumer. The selector
 * is asked every duty cycle while a session waits for its socket to become writable, otherwise at most once per
 * {@link #SELECT_INTERVAL_NS} (a login or heartbeat is read at most that much later), so that a duty cycle that only
 * carries the ring's messages makes no system call but the writes. A session that fails is closed and counted; the
 * others carry on. When the dispatcher reports that this worker missed messages, the connection of every session logged
 * in ends (its feed has a gap; {@link SubscriberSession#endConnectionAtDataLost}: End of Session for a snapshot
 * session, none for the day's stream, which its subscriber may resume from the replay history by name), and a login
 * whose answer has not started waits on for the dispatcher's next books; when the dispatcher reports that midnight UTC
 * has ended the trading day, every session logged in on it is ended as at the stop, and every one waiting for its
 * login's answer is rejected ({@link SubscriberSession#endDay}). A connection beyond the maximum sessions takes
 * the place of a session that is ending (which closes at once), or, when none is, is closed at once and counted as an
 * error. A connection that finds this worker holding its most connections that have sent no Login Request yet is closed
 * at once and counted ({@code bourse_fanout_pending_login_refusals_total}), so that connections that never log in hold
 * at most that many places (each for the login timeout at most). At the stop, after the dispatcher's, the worker first
 * carries what its ring still holds (the messages the dispatcher wrote before it stopped, translated, counted and kept
 * for replays), so that each session's stream is whole up to its end of the day
 * ({@link SubscriberSession#endMessages}), then serves the ending sessions until their subscribers have taken the end
 * and closed, or their deadline has passed.
 */
final class WorkerAgent implements Agent
{
    /** Least time between two looks at the sockets while none waits to become writable, in nanoseconds: 100 us. */
    static final long SELECT_INTERVAL_NS = TimeUnit.MICROSECONDS.toNanos(100);
    private static final long KEEP_ALIVE_INTERVAL_MS = 100;
    /** Longest wait on the selector while the sessions end at the stop, in ms: how late a deadline is noticed. */
    private static final long STOP_SELECT_TIMEOUT_MS = 10;
    private static final int DISCARD_BUFFER_LENGTH = 8192;

    private final int workerId;
    private final String roleName;
    private final RingBuffer ringBuffer;
    private final ManyToOneConcurrentArrayQueue<SocketChannel> newConnections;
    private final ManyToOneConcurrentArrayQueue<CatchUpRequest> requests;
    private final SubscriberSession[] sessions;
    private final Selector selector;
    private final Credentials credentials;
    private final ItchReferenceData referenceData;
    private final SymbolDirectory symbolDirectory;
    private final NanoClock nanoClock;
    private final CachedEpochClock sessionClock = new CachedEpochClock();
    private final MidnightNanoClock clock;
    private final SessionNames sessionNames;
    private final SendBufferPool sendBuffers;
    private final int socketSendBufferBytes;
    private final int messageLimit;
    private final FanoutMetrics metrics;
    private final LatencySummary latency;
    private final LatencySummary serviceTime;
    private final ErrorKinds<FanoutError> errors;
    /** Reads its sessions' Login Requests' Requested Sequence Numbers; made with the worker, at the fanout's start. */
    private final RequestedSequenceNumber requestedSequenceNumbers = new RequestedSequenceNumber();
    private final ByteBuffer payload = ByteBuffer.allocateDirect(ItchTranslator.MAX_LENGTH);
    /** What ending sessions still receive, read and dropped. */
    private final ByteBuffer discard = ByteBuffer.allocateDirect(DISCARD_BUFFER_LENGTH);
    private final long[] sentTimestamps;
    /** When the dispatcher read each of those messages, on the fanout's clock. */
    private final long[] sentReadTimes;
    private int sentCount;
    private final MessageHandler onMessage = this::onMessage;
    private final Consumer<SelectionKey> onSelected = this::onSelected;
    private final Consumer<SocketChannel> onNewConnection = this::onNewConnection;
    private final int maxPendingLogins;
    /** Sessions awaiting their Login Request at the last count (each keep-alive), plus the connections added since. */
    private int awaitingLoginCount;
    /** {@link #awaitingLoginCount} for the acceptor's thread. */
    private final AtomicInteger awaitingLogins = new AtomicInteger();
    private boolean pendingLoginRefusalLogged;
    private int sessionCount;
    /** {@link #sessionCount} for the acceptor's thread, set in order after each change. */
    private final AtomicInteger openSessions = new AtomicInteger();
    /** Connections the acceptor handed this worker; the acceptor's thread only. */
    private long connectionsHandedOver;
    /** Connections this worker took off its queue, each counted after its session was. */
    private long connectionsTakenCount;
    /** {@link #connectionsTakenCount} for the acceptor's thread. */
    private final AtomicLong connectionsTaken = new AtomicLong();
    /** The sessions by id, for the answer records, which name theirs; a closed one leaves at the cycle's end. */
    private final Long2ObjectHashMap<SubscriberSession> sessionsById;
    private long nextSessionId;
    /** The fanout is stopping ({@link #onClose}): a session whose connection ends now has its stream over too. */
    private boolean stopping;
    private long nextKeepAliveMs;
    private long nextSelectNs;
    private int awaitingWritable;

    /**
     * @param workerId       0-based, names the thread.
     * @param ringBuffer     ITCH messages from the dispatcher, framed by {@link DispatcherAgent}.
     * @param newConnections connections assigned by the acceptor, offered only through {@link #offerConnection}, which
     *                       counts them for {@link #load()} and {@link #isAtPendingLoginLimit()}.
     * @param requests       catch-up requests to the dispatcher, shared by every worker.
     * @param maxSessions    most sessions this worker serves.
     * @param maxPendingLogins most connections this worker holds at once that have sent no Login Request yet.
     * @param credentials    who may log in.
     * @param referenceData  encodes the System Events after a login's spin and at the end of the day.
     * @param symbols        the symbols a subscription may name.
     * @param nanoClock      monotonic time, read once per duty cycle: the looks at the sockets, and in milliseconds the
     *                       sessions' heartbeats, login timeouts and closing deadlines (a step of the wall
     *                       clock moves none of them).
     * @param clock          nanoseconds since midnight, for latency and the System Events at the stop: the
     *                       dispatcher's clock.
     * @param sessionNames   the sessions a login may ask for, and the names Login Accepted gives.
     * @param sendBuffers    the sessions' send buffers, one per open session.
     * @param socketSendBufferBytes SO_SNDBUF of each subscriber socket in bytes, or 0 to leave it to the kernel.
     * @param messageLimit   most ring-buffer messages handled per duty cycle.
     * @param metrics        counters.
     * @param errors         counts refused connections, failed sessions and selector failures.
     */
    WorkerAgent(
        final int workerId,
        final RingBuffer ringBuffer,
        final ManyToOneConcurrentArrayQueue<SocketChannel> newConnections,
        final ManyToOneConcurrentArrayQueue<CatchUpRequest> requests,
        final int maxSessions,
        final int maxPendingLogins,
        final Credentials credentials,
        final ItchReferenceData referenceData,
        final SymbolDirectory symbols,
        final NanoClock nanoClock,
        final MidnightNanoClock clock,
        final SessionNames sessionNames,
        final SendBufferPool sendBuffers,
        final int socketSendBufferBytes,
        final int messageLimit,
        final FanoutMetrics metrics,
        final ErrorKinds<FanoutError> errors)
    {
        this.workerId = workerId;
        this.roleName = "fanout-worker-" + workerId;
        this.ringBuffer = ringBuffer;
        this.newConnections = newConnections;
        this.requests = requests;
        this.sessions = new SubscriberSession[maxSessions];
        this.sessionsById = new Long2ObjectHashMap<>(2 * maxSessions, Hashing.DEFAULT_LOAD_FACTOR);
        this.maxPendingLogins = maxPendingLogins;
        this.credentials = credentials;
        this.referenceData = referenceData;
        this.symbolDirectory = symbols;
        this.nanoClock = nanoClock;
        // System.nanoTime may be negative: the first look at the sockets and keep-alive are due now, not at 0
        this.nextSelectNs = nanoClock.nanoTime();
        this.nextKeepAliveMs = TimeUnit.NANOSECONDS.toMillis(nextSelectNs);
        this.clock = clock;
        this.sessionNames = sessionNames;
        this.sendBuffers = sendBuffers;
        this.socketSendBufferBytes = socketSendBufferBytes;
        this.messageLimit = messageLimit;
        this.sentTimestamps = new long[messageLimit];
        this.sentReadTimes = new long[messageLimit];
        this.metrics = metrics;
        this.latency = metrics.latency();
        this.serviceTime = metrics.serviceTime();
        this.errors = errors;
        try
        {
            this.selector = Selector.open();
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }

    @Override
    public int doWork() throws IOException
    {
        final long nowNs = nanoClock.nanoTime();
        final long nowMs = TimeUnit.NANOSECONDS.toMillis(nowNs);
        sessionClock.update(nowMs);

        int workCount = newConnections.drain(onNewConnection);
        if (awaitingWritable > 0 || nowNs - nextSelectNs >= 0)
        {
            nextSelectNs = nowNs + SELECT_INTERVAL_NS;
            workCount += selector.selectNow(onSelected);
        }
        workCount += ringBuffer.read(onMessage, messageLimit);
        if (nowMs - nextKeepAliveMs >= 0)
        {
            nextKeepAliveMs = nowMs + KEEP_ALIVE_INTERVAL_MS;
            keepAlive();
        }
        workCount += flush();
        removeClosedSessions();
        return workCount;
    }

    /** Heartbeats and timeouts of every session, ending ones' closing deadlines included. */
    private void keepAlive()
    {
        for (int i = 0; i < sessionCount; i++)
        {
            sessions[i].keepAlive();
        }
        countAwaitingLogins();
    }

    /**
     * One write per session with bytes buffered and a socket not known to be full, then the latency of the live
     * messages of this duty cycle, once they are written: from their market-data timestamp, and from the dispatcher's
     * read (the fanout's service time), to now. Counts the sessions left waiting for their socket to become writable.
     *
     * @return number of sessions whose socket took bytes.
     */
    private int flush()
    {
        int flushed = 0;
        awaitingWritable = 0;
        for (int i = 0; i < sessionCount; i++)
        {
            final SubscriberSession session = sessions[i];
            if (session.pendingBytes() > 0 && !session.isAwaitingWritable() && session.flush() > 0)
            {
                flushed++;
            }
            if (session.isAwaitingWritable())
            {
                awaitingWritable++;
            }
        }
        if (sentCount > 0)
        {
            final long nowNs = clock.nanosSinceMidnight();
            for (int i = 0; i < sentCount; i++)
            {
                // engine times come from the gateway's clock, which may count from another day's midnight
                latency.recordNs(MidnightNanoClock.withinADay(nowNs - sentTimestamps[i]));
                serviceTime.recordNs(nowNs - sentReadTimes[i]); // the dispatcher's clock is this one
            }
            sentCount = 0;
        }
        return flushed;
    }

    @Override
    public void onClose()
    {
        stopping = true;
        // Batches of at most messageLimit, as in the duty cycle: flush() records the latency of each batch's messages.
        // A read stops at the end of the buffer, and one that only passes the padding before the wrap reads nothing.
        final long writtenPosition = ringBuffer.producerPosition();
        long readPosition;
        while ((readPosition = ringBuffer.consumerPosition()) < writtenPosition)
        {
            ringBuffer.read(onMessage, messageLimit);
            flush();
            if (ringBuffer.consumerPosition() == readPosition)
            {
                break;
            }
        }
        sessionClock.update(monotonicMs()); // each session's closing deadline counts from now
        final long closingNs = clock.nanosSinceMidnight();
        for (int i = 0; i < sessionCount; i++)
        {
            sessions[i].endMessages(closingNs);
        }
        serveEndingSessions();
        for (int i = 0; i < sessionCount; i++)
        {
            sessions[i].close();
        }
        sessionCount = 0;
        openSessions.lazySet(0);
        SocketChannel channel;
        while (null != (channel = newConnections.poll()))
        {
            closeQuietly(channel);
        }
        try
        {
            selector.close();
        }
        catch (final IOException ex)
        {
            errors.error(FanoutError.SELECTOR_FAILED, roleName, ex);
        }
    }

    /** @return the monotonic clock in milliseconds, the scale of the sessions' clock. */
    private long monotonicMs()
    {
        return TimeUnit.NANOSECONDS.toMillis(nanoClock.nanoTime());
    }

    /**
     * At the stop, once every session is ending: writes to each what its socket takes as the selector finds it
     * writable, and drops what it still sends, until each subscriber has closed its end or its session's End of
     * Session deadline has passed ({@link SubscriberSession#keepAlive()}), {@value
     * SubscriberSession#END_OF_SESSION_TIMEOUT_MS} ms at most; a subscriber that reads slowly still gets its stream's
     * end, and none is reset for closing with unread input. A failing selector is counted and ends the wait; the caller
     * closes the sessions left.
     */
    private void serveEndingSessions()
    {
        removeClosedSessions();
        // Also on the monotonic clock, whatever the wall clock does meanwhile.
        final long limitNs = nanoClock.nanoTime() + TimeUnit.MILLISECONDS.toNanos(
            SubscriberSession.END_OF_SESSION_TIMEOUT_MS + STOP_SELECT_TIMEOUT_MS);
        try
        {
            while (sessionCount > 0 && nanoClock.nanoTime() - limitNs < 0)
            {
                sessionClock.update(monotonicMs());
                keepAlive();
                flush();
                removeClosedSessions();
                if (sessionCount > 0)
                {
                    selector.select(onSelected, STOP_SELECT_TIMEOUT_MS);
                }
            }
        }
        catch (final IOException ex)
        {
            errors.error(FanoutError.SELECTOR_FAILED, roleName, ex);
        }
    }

    @Override
    public String roleName()
    {
        return roleName;
    }

    /**
     * Hands this worker a new connection; called by the acceptor's thread.
     *
     * @param channel a non-blocking connection, not yet logged in.
     * @return false when the worker's queue of new connections is full (the caller keeps the connection).
     */
    boolean offerConnection(final SocketChannel channel)
    {
        if (!newConnections.offer(channel))
        {
            return false;
        }
        connectionsHandedOver++;
        return true;
    }

    /**
     * @return the sessions this worker serves and the connections waiting for it, as the acceptor's thread sees
     * them: what the acceptor balances.
     */
    int load()
    {
        final long queued = queuedConnections();
        return openSessions.get() + (int)queued;
    }

    /**
     * @return true when this worker, as the acceptor's thread sees it, holds its most connections awaiting their Login
     * Request, counting those waiting in its queue: a new connection would be refused, at the latest count.
     */
    boolean isAtPendingLoginLimit()
    {
        final long queued = queuedConnections();
        return awaitingLogins.get() + queued >= maxPendingLogins;
    }

    /**
     * @return the connections handed to this worker that it has not yet taken, for the acceptor's thread. Read before
     * the session counts: the worker counts a connection taken only after its session, so a connection is always in
     * one count or the other. The queue's own size was not: it fell as the worker took a connection, before the
     * session was counted, and in between the acceptor could hand a worker at its limit one more to refuse.
     */
    private long queuedConnections()
    {
        return connectionsHandedOver - connectionsTaken.get();
    }

    private void onNewConnection(final SocketChannel channel)
    {
        try
        {
            takeConnection(channel);
        }
        finally
        {
            connectionsTaken.setRelease(++connectionsTakenCount);
        }
    }

    private void takeConnection(final SocketChannel channel)
    {
        if (awaitingLoginCount >= maxPendingLogins && countAwaitingLogins() >= maxPendingLogins)
        {
            metrics.onPendingLoginRefusal();
            if (!pendingLoginRefusalLogged)
            {
                pendingLoginRefusalLogged = true;
                System.err.println("[" + roleName() + "] " + maxPendingLogins + " connections awaiting their Login " +
                    "Request, connection refused (logged the first time only)");
            }
            closeQuietly(channel);
            return;
        }
        if (sessionCount == sessions.length)
        {
            closeAnEndingSession();
        }
        if (sessionCount == sessions.length)
        {
            errors.error(FanoutError.CONNECTION_REFUSED, roleName, "worker full, sessions", sessionCount);
            closeQuietly(channel);
            return;
        }
        SubscriberSession session = null;
        try
        {
            SessionSockets.configureSession(channel, socketSendBufferBytes);
            session = new SubscriberSession(
                workerId, nextSessionId++, channel, sessionClock::time, sendBuffers, credentials, referenceData,
                symbolDirectory, requests, sessionNames, requestedSequenceNumbers, metrics, errors);
            session.selectionKey(channel.register(selector, SelectionKey.OP_READ, session));
            sessions[sessionCount++] = session;
            sessionsById.put(session.id(), session);
            openSessions.lazySet(sessionCount);
            awaitingLogins.lazySet(++awaitingLoginCount);
        }
        catch (final IOException ex)
        {
            errors.error(FanoutError.CONNECTION_REFUSED, roleName, ex);
            if (null != session)
            {
                session.close();
            }
            else
            {
                closeQuietly(channel);
            }
        }
    }

    private void onSelected(final SelectionKey key)
    {
        final SubscriberSession session = (SubscriberSession)key.attachment();
        if (key.isValid() && key.isWritable())
        {
            session.flush();
        }
        if (key.isValid() && key.isReadable())
        {
            session.receive(discard);
        }
    }

    /**
     * Ring-buffer record, framed by {@link DispatcherAgent}: live ITCH, data lost, the end of a trading day, or an
     * answer to one session.
     */
    private void onMessage(final int msgTypeId, final DirectBuffer buffer, final int index, final int length)
    {
        switch (msgTypeId)
        {
            case DispatcherAgent.ITCH_MSG_TYPE_ID -> onLiveMessage(buffer, index, length);
            case DispatcherAgent.DATA_LOST_MSG_TYPE_ID -> onDataLost();
            case DispatcherAgent.DAY_END_MSG_TYPE_ID -> endDay(
                buffer.getLong(index + DispatcherAgent.DAY_ORDINAL_OFFSET),
                buffer.getLong(index + DispatcherAgent.CLOSING_TIMESTAMP_OFFSET));
            default -> onAnswer(msgTypeId, buffer, index, length);
        }
    }

    private void onLiveMessage(final DirectBuffer buffer, final int index, final int length)
    {
        final int itchLength = length - DispatcherAgent.ITCH_OFFSET;
        final int locate = locate(buffer, index + DispatcherAgent.ITCH_OFFSET);
        buffer.getBytes(index + DispatcherAgent.ITCH_OFFSET, payload, 0, itchLength);
        int sent = 0;
        for (int i = 0; i < sessionCount; i++)
        {
            final SubscriberSession session = sessions[i];
            if (session.isLive(locate))
            {
                payload.limit(itchLength).position(0);
                if (session.send(payload))
                {
                    sent++;
                }
            }
        }
        if (sent > 0)
        {
            metrics.onMessagesOut(payload.get(0), sent);
            sentTimestamps[sentCount] = ItchBook.timestampNs(buffer, index + DispatcherAgent.ITCH_OFFSET);
            sentReadTimes[sentCount++] = buffer.getLong(index + DispatcherAgent.READ_TIME_OFFSET);
        }
    }

    private void onAnswer(final int msgTypeId, final DirectBuffer buffer, final int index, final int length)
    {
        final long sessionId = buffer.getLong(index + DispatcherAgent.SESSION_ID_OFFSET);
        final SubscriberSession session = sessionsById.get(sessionId);
        if (null == session)
        {
            return;
        }
        switch (msgTypeId)
        {
            case DispatcherAgent.SESSION_START_MSG_TYPE_ID -> session.onAnswerStart(
                buffer.getLong(index + DispatcherAgent.ACCEPTED_SEQUENCE_OFFSET),
                0 != buffer.getLong(index + DispatcherAgent.SNAPSHOT_FLAG_OFFSET),
                buffer.getLong(index + DispatcherAgent.OPENING_TIMESTAMP_OFFSET));
            case DispatcherAgent.SESSION_OPENING_MSG_TYPE_ID, DispatcherAgent.SESSION_ITCH_MSG_TYPE_ID ->
            {
                final int itchLength = length - DispatcherAgent.SESSION_ITCH_OFFSET;
                buffer.getBytes(index + DispatcherAgent.SESSION_ITCH_OFFSET, payload, 0, itchLength);
                payload.limit(itchLength).position(0);
                final boolean sent = DispatcherAgent.SESSION_OPENING_MSG_TYPE_ID == msgTypeId ?
                    session.sendOpening(payload) :
                    session.sendAnswer(payload, locate(buffer, index + DispatcherAgent.SESSION_ITCH_OFFSET));
                if (sent)
                {
                    metrics.onMessagesOut(payload.get(0), 1);
                }
            }
            case DispatcherAgent.SESSION_END_MSG_TYPE_ID -> session.onAnswerEnd();
            case DispatcherAgent.SESSION_FAILED_MSG_TYPE_ID -> session.onAnswerFailed();
            case DispatcherAgent.SESSION_REJECTED_MSG_TYPE_ID -> session.onLoginRejected();
            default -> errors.error(FanoutError.UNKNOWN_RECORD, roleName, "record type", msgTypeId);
        }
    }

    private static int locate(final DirectBuffer buffer, final int itchIndex)
    {
        return buffer.getShort(itchIndex + DispatcherAgent.ITCH_LOCATE_OFFSET, ByteOrder.BIG_ENDIAN) & 0xFFFF;
    }

    /** The worker missed messages: each session logged in ends, a login waiting for its answer waits on. */
    private void onDataLost()
    {
        int ended = 0;
        int waiting = 0;
        for (int i = 0; i < sessionCount; i++)
        {
            final SubscriberSession session = sessions[i];
            if (session.endConnectionAtDataLost(stopping))
            {
                ended++;
            }
            else if (session.isLoggedInOrWaiting())
            {
                waiting++;
            }
        }
        metrics.onGapDisconnects(ended);
        System.err.println("[" + roleName() + "] missed messages: ended the connections of " + ended + " sessions, " +
            waiting + " logins wait for their answer");
    }

    /**
     * Midnight UTC has ended a trading day: every session of it ends ({@link SubscriberSession#endDay}).
     *
     * @param dayOrdinal the ordinal of the day that ended ({@link SessionNames.Day}).
     * @param closingNs  the Timestamp of its closing System Events, nanoseconds since midnight.
     */
    private void endDay(final long dayOrdinal, final long closingNs)
    {
        int ended = 0;
        for (int i = 0; i < sessionCount; i++)
        {
            ended += sessions[i].endDay(dayOrdinal, closingNs) ? 1 : 0;
        }
        System.out.println("[" + roleName() + "] trading day ended at midnight UTC: ended " + ended + " sessions");
    }

    /** @return the open sessions that have sent no Login Request yet, counted now, also for the acceptor. */
    private int countAwaitingLogins()
    {
        int awaiting = 0;
        for (int i = 0; i < sessionCount; i++)
        {
            awaiting += sessions[i].isAwaitingLogin() ? 1 : 0;
        }
        awaitingLoginCount = awaiting;
        awaitingLogins.lazySet(awaiting);
        return awaiting;
    }

    /** Closes the first ending session, if any, at once: a new connection needs its place. */
    private void closeAnEndingSession()
    {
        for (int i = 0; i < sessionCount; i++)
        {
            if (sessions[i].isEnding())
            {
                sessions[i].close();
                removeClosedSessions();
                return;
            }
        }
    }

    private void removeClosedSessions()
    {
        int kept = 0;
        for (int i = 0; i < sessionCount; i++)
        {
            final SubscriberSession session = sessions[i];
            if (!session.isClosed())
            {
                sessions[kept++] = session;
            }
            else
            {
                sessionsById.remove(session.id());
            }
        }
        for (int i = kept; i < sessionCount; i++)
        {
            sessions[i] = null;
        }
        sessionCount = kept;
        openSessions.lazySet(kept);
    }

    private void closeQuietly(final SocketChannel channel)
    {
        try
        {
            channel.close();
        }
        catch (final IOException ex)
        {
            errors.error(FanoutError.CONNECTION_FAILED, roleName, ex);
        }
    }
}
