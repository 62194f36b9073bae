package io.bourse.fanout;

import io.bourse.common.config.Credentials;
import io.bourse.common.config.SymbolDirectory;
import io.bourse.common.metrics.LatencySummary;
import io.bourse.common.time.MidnightNanoClock;
import io.bourse.itch.ItchReferenceData;
import io.bourse.itch.ItchTranslator;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.CachedEpochClock;
import org.agrona.concurrent.EpochClock;
import org.agrona.concurrent.ManyToOneConcurrentArrayQueue;
import org.agrona.concurrent.MessageHandler;
import org.agrona.concurrent.ringbuffer.RingBuffer;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * Serves one group of subscriber sessions: takes the connections the acceptor assigns it, reads its sessions through
 * its own selector (logins, subscriptions, heartbeats, logouts), and writes every ITCH message from its ring buffer to
 * each logged-in session subscribed to its symbol, and the dispatcher's answers (login, snapshot, replay) to the
 * session they name, in ring order. A session that fails is closed and counted; the others carry on. When the
 * dispatcher reports that this worker missed messages, every session logged in or waiting for its login's answer is
 * ended with End of Session (its feed has a gap). Connections beyond the maximum sessions are closed at once and
 * counted as errors.
 */
final class WorkerAgent implements Agent
{
    private static final long KEEP_ALIVE_INTERVAL_MS = 100;

    private final int workerId;
    private final RingBuffer ringBuffer;
    private final ManyToOneConcurrentArrayQueue<SocketChannel> newConnections;
    private final ManyToOneConcurrentArrayQueue<CatchUpRequest> requests;
    private final SubscriberSession[] sessions;
    private final Selector selector;
    private final Credentials credentials;
    private final ItchReferenceData referenceData;
    private final SymbolDirectory symbolDirectory;
    private final EpochClock epochClock;
    private final CachedEpochClock sessionClock = new CachedEpochClock();
    private final MidnightNanoClock clock;
    private final long sendTimeoutNs;
    private final int messageLimit;
    private final FanoutMetrics metrics;
    private final LatencySummary latency;
    private final AtomicLong errorCount;
    private final ByteBuffer payload = ByteBuffer.allocateDirect(ItchTranslator.MAX_LENGTH);
    private final MessageHandler onMessage = this::onMessage;
    private final Consumer<SelectionKey> onReadable = this::onReadable;
    private final Consumer<SocketChannel> onNewConnection = this::onNewConnection;
    private int sessionCount;
    private long nextSessionId;
    private long nextKeepAliveMs;

    /**
     * @param workerId       0-based, names the thread.
     * @param ringBuffer     ITCH messages from the dispatcher, framed by {@link DispatcherAgent}.
     * @param newConnections connections assigned by the acceptor.
     * @param requests       catch-up requests to the dispatcher, shared by every worker.
     * @param maxSessions    most sessions this worker serves.
     * @param credentials    who may log in.
     * @param referenceData  encodes the messages sent at login.
     * @param symbols        the symbols a subscription may name.
     * @param epochClock     read once per duty cycle for heartbeats.
     * @param clock          nanoseconds since midnight, for latency and login messages.
     * @param sendTimeoutNs  longest time a packet may stay partly written before its session fails.
     * @param messageLimit   most ring-buffer messages handled per duty cycle.
     * @param metrics        counters.
     * @param errorCount     incremented on every failure.
     */
    WorkerAgent(
        final int workerId,
        final RingBuffer ringBuffer,
        final ManyToOneConcurrentArrayQueue<SocketChannel> newConnections,
        final ManyToOneConcurrentArrayQueue<CatchUpRequest> requests,
        final int maxSessions,
        final Credentials credentials,
        final ItchReferenceData referenceData,
        final SymbolDirectory symbols,
        final EpochClock epochClock,
        final MidnightNanoClock clock,
        final long sendTimeoutNs,
        final int messageLimit,
        final FanoutMetrics metrics,
        final AtomicLong errorCount)
    {
        this.workerId = workerId;
        this.ringBuffer = ringBuffer;
        this.newConnections = newConnections;
        this.requests = requests;
        this.sessions = new SubscriberSession[maxSessions];
        this.credentials = credentials;
        this.referenceData = referenceData;
        this.symbolDirectory = symbols;
        this.epochClock = epochClock;
        this.clock = clock;
        this.sendTimeoutNs = sendTimeoutNs;
        this.messageLimit = messageLimit;
        this.metrics = metrics;
        this.latency = metrics.latency();
        this.errorCount = errorCount;
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
        final long nowMs = epochClock.time();
        sessionClock.update(nowMs);

        int workCount = newConnections.drain(onNewConnection);
        workCount += selector.selectNow(onReadable);
        workCount += ringBuffer.read(onMessage, messageLimit);
        if (nowMs >= nextKeepAliveMs)
        {
            nextKeepAliveMs = nowMs + KEEP_ALIVE_INTERVAL_MS;
            for (int i = 0; i < sessionCount; i++)
            {
                sessions[i].keepAlive();
            }
        }
        removeClosedSessions();
        return workCount;
    }

    @Override
    public void onClose()
    {
        for (int i = 0; i < sessionCount; i++)
        {
            sessions[i].endSession();
        }
        sessionCount = 0;
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
            errorCount.incrementAndGet();
        }
    }

    @Override
    public String roleName()
    {
        return "fanout-worker-" + workerId;
    }

    private void onNewConnection(final SocketChannel channel)
    {
        if (sessionCount == sessions.length)
        {
            errorCount.incrementAndGet();
            System.err.println("[" + roleName() + "] full with " + sessionCount + " sessions, connection refused");
            closeQuietly(channel);
            return;
        }
        try
        {
            channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
            final SubscriberSession session = new SubscriberSession(
                workerId, nextSessionId++, channel, sessionClock::time, sendTimeoutNs, credentials, referenceData,
                symbolDirectory, requests, clock, metrics, errorCount);
            channel.register(selector, SelectionKey.OP_READ, session);
            sessions[sessionCount++] = session;
        }
        catch (final IOException ex)
        {
            errorCount.incrementAndGet();
            closeQuietly(channel);
        }
    }

    private void onReadable(final SelectionKey key)
    {
        ((SubscriberSession)key.attachment()).receive();
    }

    /** Ring-buffer record, framed by {@link DispatcherAgent}: live ITCH, data lost, or an answer to one session. */
    private void onMessage(final int msgTypeId, final DirectBuffer buffer, final int index, final int length)
    {
        switch (msgTypeId)
        {
            case DispatcherAgent.ITCH_MSG_TYPE_ID -> onLiveMessage(buffer, index, length);
            case DispatcherAgent.DATA_LOST_MSG_TYPE_ID -> endLoggedInSessions();
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
            metrics.onMessagesOut(sent);
            latency.recordNs(clock.nanosSinceMidnight() - buffer.getLong(index + DispatcherAgent.TIMESTAMP_OFFSET));
        }
    }

    private void onAnswer(final int msgTypeId, final DirectBuffer buffer, final int index, final int length)
    {
        final SubscriberSession session = find(buffer.getLong(index + DispatcherAgent.SESSION_ID_OFFSET));
        if (null == session)
        {
            return;
        }
        switch (msgTypeId)
        {
            case DispatcherAgent.SESSION_START_MSG_TYPE_ID -> session.onAnswerStart(
                buffer.getLong(index + DispatcherAgent.ACCEPTED_SEQUENCE_OFFSET),
                0 != buffer.getLong(index + DispatcherAgent.SNAPSHOT_FLAG_OFFSET));
            case DispatcherAgent.SESSION_ITCH_MSG_TYPE_ID ->
            {
                final int itchLength = length - DispatcherAgent.SESSION_ITCH_OFFSET;
                buffer.getBytes(index + DispatcherAgent.SESSION_ITCH_OFFSET, payload, 0, itchLength);
                payload.limit(itchLength).position(0);
                if (session.sendAnswer(payload, locate(buffer, index + DispatcherAgent.SESSION_ITCH_OFFSET)))
                {
                    metrics.onMessagesOut(1);
                }
            }
            case DispatcherAgent.SESSION_END_MSG_TYPE_ID -> session.onAnswerEnd();
            case DispatcherAgent.SESSION_FAILED_MSG_TYPE_ID -> session.onAnswerFailed();
            default -> errorCount.incrementAndGet();
        }
    }

    private static int locate(final DirectBuffer buffer, final int itchIndex)
    {
        return buffer.getShort(itchIndex + DispatcherAgent.ITCH_LOCATE_OFFSET, ByteOrder.BIG_ENDIAN) & 0xFFFF;
    }

    /** @return the open session with that id, or null when it has closed since its request. */
    private SubscriberSession find(final long sessionId)
    {
        for (int i = 0; i < sessionCount; i++)
        {
            if (sessions[i].id() == sessionId)
            {
                return sessions[i];
            }
        }
        return null;
    }

    private void endLoggedInSessions()
    {
        int ended = 0;
        for (int i = 0; i < sessionCount; i++)
        {
            final SubscriberSession session = sessions[i];
            if (session.isLoggedInOrWaiting())
            {
                session.endSession();
                ended++;
            }
        }
        metrics.onGapDisconnects(ended);
        System.err.println("[" + roleName() + "] missed messages: ended " + ended + " sessions with End of Session");
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
        }
        for (int i = kept; i < sessionCount; i++)
        {
            sessions[i] = null;
        }
        sessionCount = kept;
    }

    private void closeQuietly(final SocketChannel channel)
    {
        try
        {
            channel.close();
        }
        catch (final IOException ex)
        {
            errorCount.incrementAndGet();
        }
    }
}
