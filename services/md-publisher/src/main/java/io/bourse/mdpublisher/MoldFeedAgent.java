package io.bourse.mdpublisher;

import com.paritytrading.juncture.nasdaq.itch50.ITCH50;
import com.paritytrading.nassau.moldudp64.MoldUDP64DownstreamPacket;
import com.paritytrading.nassau.moldudp64.MoldUDP64Exception;
import com.paritytrading.nassau.moldudp64.MoldUDP64MessageStore;
import com.paritytrading.nassau.moldudp64.MoldUDP64RequestServer;
import com.paritytrading.nassau.moldudp64.MoldUDP64Server;
import io.bourse.common.time.MidnightNanoClock;
import io.bourse.common.time.SessionNames;
import io.bourse.itch.ItchReferenceData;
import io.bourse.itch.ItchTranslator;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.NanoClock;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * NASDAQ TotalView-ITCH 5.0 over MoldUDP64 (MoldUDP64 Protocol Specification 1.00): takes each increment of the
 * md-publisher's SBE order feed as it is encoded, on the md-publisher's thread ({@link OrderFeedListener}), so that a
 * message the order feed's Aeron publication drops under back pressure (a stalled fanout) still reaches the MoldUDP64
 * receivers; translates each once with {@link ItchTranslator}, numbers the ITCH messages of the session from 1 in a
 * {@link MoldMessageStore} and packs them into Downstream Packets that nassau's {@link MoldUDP64Server} sends to the
 * multicast group; nassau's {@link MoldUDP64RequestServer} answers Request Packets from the store.
 *
 * <ul>
 *   <li>The session opens ({@link #onStart}) with System Event 'O' Start of Messages, one Stock Directory per
 *   symbol in locate order ({@link ItchReferenceData}), the Trading Action spin and System Events 'S' Start of System
 *   Hours and 'Q' Start of Market Hours (the engine shards accept and execute orders from their start); it ends
 *   ({@link #onClose}) with System Events 'M' End of Market Hours, 'E' End of System Hours and 'C' End of Messages,
 *   all stamped with the wall clock's nanoseconds since midnight. Then, as MoldUDP64 1.00 has it, End of Session
 *   packets (Message Count 0xFFFF, the next Sequence Number) go out in place of Heartbeats for a short while
 *   ({@code endOfSessionNs}, every {@link #END_OF_SESSION_INTERVAL_NS}), while Request Packets are still answered: a
 *   receiver's last chance to fill a gap, such as a lost last packet.</li>
 *   <li>A packet carries as many Message Blocks as fit in {@code maxPayloadLength} bytes; it is sent when the next
 *   message does not fit and at the end of every duty cycle that added a message: this agent's duty cycle follows the
 *   md-publisher's on the same thread, so a message waits at most for the rest of the duty cycle that encoded it, or
 *   until the md-publisher's next back-pressured offer, which runs this agent's duty cycle while it waits
 *   ({@link MoldFeedOfferIdleStrategy}).</li>
 *   <li>After {@code heartbeatIntervalNs} without a packet, a Heartbeat (Message Count 0, Sequence Number of the next
 *   message) goes out, so that an idle receiver still sees a gap at its end.</li>
 *   <li>Request Packets are served on this agent's thread, at most {@value #REQUESTS_PER_DUTY_CYCLE} per look at the
 *   request socket, so that the store needs no synchronisation and a burst of requests delays live packets by a
 *   bounded time. The socket is looked at no more than once per {@link #REQUEST_POLL_INTERVAL_NS}, so that a duty
 *   cycle that only sends packets makes no further system call (a request waits at most that long more). A
 *   response starts at the requested Sequence Number and holds as many of the requested messages as fit in
 *   {@code maxPayloadLength} bytes; the receiver asks again for the rest. A request for messages no longer kept or
 *   not yet sent gets no response ({@link MoldMessageStore}), nor does one that names another Session than the
 *   feed's: nassau's request server would answer it under the Session it names, and an earlier run's Sequence Numbers
 *   name other messages.</li>
 *   <li>Market data without an ITCH form (trades of displayed orders) takes no sequence number; untranslatable
 *   market data is counted as an error and left out. A failed send is counted as an error and its packet treated as
 *   lost on the network: its messages keep their sequence numbers and stay in the store, where receivers find them by
 *   re-request.</li>
 * </ul>
 * Non-blocking sockets; nassau retries a send that the socket's full buffer refused, which the kernel drains at wire
 * speed. From market data to packet, nothing is allocated.
 */
final class MoldFeedAgent implements Agent, OrderFeedListener
{
    /** Time between two End of Session packets while the session ends, in nanoseconds: 100 ms. */
    static final long END_OF_SESSION_INTERVAL_NS = TimeUnit.MILLISECONDS.toNanos(100);
    /** Most Request Packets served per duty cycle. */
    static final int REQUESTS_PER_DUTY_CYCLE = 16;
    /** Least time between two looks at the request socket, in nanoseconds: 100 us. */
    static final long REQUEST_POLL_INTERVAL_NS = TimeUnit.MICROSECONDS.toNanos(100);
    /** Longest ITCH message of the feed: the longest the translator writes, longer than any reference data. */
    static final int MAX_MESSAGE_LENGTH =
        Math.max(ItchTranslator.MAX_LENGTH, ItchReferenceData.STOCK_DIRECTORY_LENGTH);

    private final ItchTranslator translator;
    private final ItchReferenceData referenceData;
    private final MoldUDP64Server server;
    private final MoldUDP64RequestServer requestServer;
    /** The feed's Session as sent: ASCII, space-padded to {@value SessionNames#MAX_LENGTH} bytes. */
    private final byte[] session;
    private final MoldMessageStore store;
    private final int maxPayloadLength;
    private final long heartbeatIntervalNs;
    private final long endOfSessionNs;
    private final NanoClock nanoClock;
    private final MidnightNanoClock midnightClock;
    private final MoldMetrics metrics;
    private final MoldUDP64DownstreamPacket packet = new MoldUDP64DownstreamPacket();
    private final ByteBuffer message = ByteBuffer.allocateDirect(MAX_MESSAGE_LENGTH);
    private final MoldUDP64MessageStore countingStore = this::answer;
    private long nowNs;
    private long heartbeatDeadlineNs;
    private long endOfSessionDeadlineNs;
    private boolean sessionEnding;
    private long requestPollDeadlineNs;
    private int requestsServed;
    private boolean socketErrorLogged;

    /**
     * @param translator          SBE market data to ITCH.
     * @param referenceData       the session's opening messages.
     * @param session             the MoldUDP64 Session, as the server sends it ({@link SessionNames}).
     * @param server              sends Downstream Packets to the multicast group, from Sequence Number 1.
     * @param requestServer       receives Request Packets on its unicast port.
     * @param store               the session's messages, empty.
     * @param maxPayloadLength    most bytes of Message Blocks in one packet, at least 2 + {@link #MAX_MESSAGE_LENGTH}.
     * @param heartbeatIntervalNs time without a packet after which a Heartbeat is sent, in nanoseconds.
     * @param endOfSessionNs      how long the session's end lasts ({@link #endSession}), in nanoseconds; 0 for one
     *                            End of Session packet.
     * @param nanoClock           monotonic time of the heartbeat deadlines.
     * @param midnightClock       wall-clock nanoseconds since midnight of the opening and closing messages.
     * @param metrics             counters.
     */
    MoldFeedAgent(
        final ItchTranslator translator, final ItchReferenceData referenceData, final String session,
        final MoldUDP64Server server, final MoldUDP64RequestServer requestServer, final MoldMessageStore store,
        final int maxPayloadLength, final long heartbeatIntervalNs, final long endOfSessionNs,
        final NanoClock nanoClock, final MidnightNanoClock midnightClock, final MoldMetrics metrics)
    {
        this.translator = translator;
        this.referenceData = referenceData;
        this.server = server;
        this.requestServer = requestServer;
        this.session = Arrays.copyOf(session.getBytes(StandardCharsets.US_ASCII), SessionNames.MAX_LENGTH);
        Arrays.fill(this.session, session.length(), SessionNames.MAX_LENGTH, (byte)' ');
        this.store = store;
        this.maxPayloadLength = maxPayloadLength;
        this.heartbeatIntervalNs = heartbeatIntervalNs;
        this.endOfSessionNs = endOfSessionNs;
        this.nanoClock = nanoClock;
        this.midnightClock = midnightClock;
        this.metrics = metrics;
    }

    /**
     * Opens the session (ITCH 5.0 &sect;4.1, &sect;4.2): System Event 'O' Start of Messages, one Stock Directory per
     * symbol, the Trading Action spin, one Stock Trading Action 'T' per symbol, then System Events 'S' Start of System
     * Hours and 'Q' Start of Market Hours. Every symbol of a shard is OPEN when the shard starts, and the md-publisher
     * starts with the shards. One that restarts while an operator has a symbol halted announces it as trading in the
     * spin; with the event archive on, the books it rebuilds then follow with the symbol's real 'H'.
     */
    @Override
    public void onStart()
    {
        nowNs = nanoClock.nanoTime();
        requestPollDeadlineNs = nowNs;
        final long timestampNs = midnightClock.nanosSinceMidnight();
        append(referenceData.systemEvent(ITCH50.EVENT_CODE_START_OF_MESSAGES, timestampNs));
        for (int i = 0; i < referenceData.symbolCount(); i++)
        {
            append(referenceData.stockDirectory(i, timestampNs));
        }
        for (int i = 0; i < referenceData.symbolCount(); i++)
        {
            append(referenceData.stockTradingAction(i, timestampNs));
        }
        append(referenceData.systemEvent(ITCH50.EVENT_CODE_START_OF_SYSTEM_HOURS, timestampNs));
        append(referenceData.systemEvent(ITCH50.EVENT_CODE_START_OF_MARKET_HOURS, timestampNs));
        sendPacket();
    }

    /**
     * Sends the packet of the messages taken since the last duty cycle, serves requests when the socket is due a look,
     * and sends a Heartbeat when one is due, or an End of Session packet once the session ends ({@link #endSession}).
     *
     * @return packets sent and requests served.
     */
    @Override
    public int doWork()
    {
        nowNs = nanoClock.nanoTime();
        int workCount = 0;
        if (packet.messageCount() > 0)
        {
            sendPacket();
            workCount++;
        }
        if (nowNs - requestPollDeadlineNs >= 0)
        {
            requestPollDeadlineNs = nowNs + REQUEST_POLL_INTERVAL_NS;
            workCount += serveRequests();
        }
        if (nowNs - heartbeatDeadlineNs >= 0)
        {
            sendIdlePacket();
            workCount++;
        }
        return workCount;
    }

    /**
     * Ends the session and lets its end run its course: {@link #endSession}, then duty cycles (End of Session packets,
     * requests answered) until {@link #isSessionOver}, or until the thread is interrupted. The md-publisher's own
     * duty cycle has stopped: no market data comes after the end.
     */
    @Override
    public void onClose()
    {
        endSession();
        while (!isSessionOver() && !Thread.currentThread().isInterrupted())
        {
            if (0 == doWork())
            {
                LockSupport.parkNanos(REQUEST_POLL_INTERVAL_NS);
            }
        }
    }

    /**
     * Ends the session (ITCH 5.0 &sect;4.1): System Events 'M' End of Market Hours, 'E' End of System Hours and 'C'
     * End of Messages, then the first End of Session packet (MoldUDP64 1.00); from here on the duty cycles send End of
     * Session packets in place of Heartbeats. Nothing may be taken after it.
     */
    void endSession()
    {
        nowNs = nanoClock.nanoTime();
        final long timestampNs = midnightClock.nanosSinceMidnight();
        append(referenceData.systemEvent(ITCH50.EVENT_CODE_END_OF_MARKET_HOURS, timestampNs));
        append(referenceData.systemEvent(ITCH50.EVENT_CODE_END_OF_SYSTEM_HOURS, timestampNs));
        append(referenceData.systemEvent(ITCH50.EVENT_CODE_END_OF_MESSAGES, timestampNs));
        sendPacket();
        sessionEnding = true;
        endOfSessionDeadlineNs = nowNs + endOfSessionNs;
        sendIdlePacket();
    }

    /** @return whether the session has ended and its end has lasted its time, as of the last duty cycle. */
    boolean isSessionOver()
    {
        return sessionEnding && nowNs - endOfSessionDeadlineNs >= 0;
    }

    @Override
    public String roleName()
    {
        return "md-mold";
    }

    /**
     * Translates one order-feed increment and appends it to the packet under the next sequence number; the packet goes
     * out when the next message does not fit or at the end of the next duty cycle.
     */
    @Override
    public void onOrderFeedMessage(final DirectBuffer buffer, final int offset, final int length)
    {
        message.clear();
        final int itchLength = translator.translate(buffer, offset, length, message);
        if (itchLength > 0)
        {
            append(message.flip());
        }
        else if (ItchTranslator.NOT_TRANSLATED == itchLength)
        {
            // Counted only: one bad message is no reason to fill the log; the md-publisher logs its own errors.
            metrics.onError();
        }
    }

    private void append(final ByteBuffer itch)
    {
        final int blockLength = MoldMessageStore.MESSAGE_LENGTH_FIELD_LENGTH + itch.remaining();
        if (packet.payload().position() + blockLength > maxPayloadLength)
        {
            sendPacket();
        }
        store.append(itch);
        try
        {
            packet.put(itch);
        }
        catch (final MoldUDP64Exception ex)
        {
            // Cannot happen: the packet was sent above unless the block fits in maxPayloadLength, at most nassau's.
            throw new UncheckedIOException(ex);
        }
    }

    private void sendPacket()
    {
        final int messageCount = packet.messageCount();
        try
        {
            server.send(packet);
            metrics.onDataPacket(messageCount);
        }
        catch (final IOException ex)
        {
            onError(ex);
            // Lost like a dropped datagram: the next packet carries the sequence number after this one's messages.
            server.setNextSequenceNumber(Math.toIntExact(store.nextSequenceNumber()));
        }
        packet.clear();
        heartbeatDeadlineNs = nowNs + heartbeatIntervalNs;
    }

    /**
     * Sends a Heartbeat, or an End of Session packet once the session ends, with the next Sequence Number, and sets
     * the deadline of the next one.
     */
    private void sendIdlePacket()
    {
        try
        {
            if (sessionEnding)
            {
                server.sendEndOfSession();
                metrics.onEndOfSession();
            }
            else
            {
                server.sendHeartbeat();
                metrics.onHeartbeat();
            }
        }
        catch (final IOException ex)
        {
            onError(ex);
        }
        heartbeatDeadlineNs = nowNs + (sessionEnding ? END_OF_SESSION_INTERVAL_NS : heartbeatIntervalNs);
    }

    private int serveRequests()
    {
        requestsServed = 0;
        try
        {
            for (int i = 0; i < REQUESTS_PER_DUTY_CYCLE; i++)
            {
                final int before = requestsServed;
                requestServer.serve(countingStore);
                if (requestsServed == before)
                {
                    break;
                }
            }
        }
        catch (final IOException ex)
        {
            onError(ex);
        }
        return requestsServed;
    }

    private void onError(final IOException ex)
    {
        metrics.onError();
        if (!socketErrorLogged)
        {
            socketErrorLogged = true;
            System.err.println("[" + roleName() + "] socket error (logged once, counted always in " +
                "bourse_md_mold_errors_total): " + ex);
        }
    }

    private int answer(final ByteBuffer response, final long sequenceNumber, final int requestedMessageCount)
    {
        requestsServed++; // answered or not: serveRequests goes on to the next request
        if (!isFeedSession(response))
        {
            metrics.onRequestForAnotherSession();
            return 0;
        }
        final int messageCount = store.get(response, sequenceNumber, requestedMessageCount);
        metrics.onRequest(messageCount);
        return messageCount;
    }

    /** @return whether the response's Session, which nassau copies from the Request Packet, is the feed's. */
    private boolean isFeedSession(final ByteBuffer response)
    {
        for (int i = 0; i < session.length; i++)
        {
            if (response.get(i) != session[i])
            {
                return false;
            }
        }
        return true;
    }
}
