package io.bourse.fanout;

import com.paritytrading.juncture.nasdaq.itch50.ITCH50;
import com.paritytrading.nassau.Clock;
import com.paritytrading.nassau.MessageListener;
import com.paritytrading.nassau.ProtocolException;
import com.paritytrading.nassau.soupbintcp.SoupBinTCP;
import com.paritytrading.nassau.soupbintcp.SoupBinTCPServer;
import com.paritytrading.nassau.soupbintcp.SoupBinTCPServerStatusListener;
import io.bourse.common.config.Credentials;
import io.bourse.common.config.SymbolDirectory;
import io.bourse.common.metrics.ErrorKinds;
import io.bourse.common.net.RequestedSequenceNumber;
import io.bourse.common.net.SendBufferFullException;
import io.bourse.common.net.SendBufferPool;
import io.bourse.common.net.SessionSendChannel;
import io.bourse.itch.ItchReferenceData;
import org.agrona.concurrent.ManyToOneConcurrentArrayQueue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.SocketChannel;
import java.util.Arrays;

/**
 * One subscriber: a SoupBinTCP 4.0 server session over a non-blocking socket, owned by one worker thread.
 *
 * <p>SoupBinTCP 4.0 Login Request: a user and password known to the {@link Credentials} are answered by the
 * dispatcher ({@link CatchUpRequest}, {@link DispatcherAgent}): Login Accepted (its session named by
 * {@link SessionNames}), then either the kept messages from the Requested Sequence Number on (a replay: Login Accepted
 * carries that number), or System Event 'O' (start of messages) and one Stock Directory per symbol (the opening, which
 * the dispatcher writes at the subscriber's pace, as the book), each chosen symbol's latest Stock Trading Action 'H'
 * (the spin), System Events 'S' and 'Q' (start of system and market hours) and the
 * chosen symbols' books as Add Orders (Login Accepted sequence number 1), then every
 * live ITCH 5.0 message of the session's symbols as Sequenced Data. Anyone else gets Login Rejected 'A' (not
 * authorized), a known user asking for a session the fanout does not serve, or naming the day's stream from a message
 * it no longer keeps ({@link #onLoginRejected}), Login Rejected 'S' (session not available), and the connection closes.
 *
 * <p>A session gets every symbol until it sends a {@link SubscriptionMessage} as Unsequenced Data: symbols it drops
 * stop at once; symbols it adds come as their book, then live. A subscription sent while an answer is pending narrows
 * that answer at once and is applied in full when it ends; one sent together with the Login Request (same write)
 * therefore applies before any Add Order. On the day's numbered stream (a replay, or a login naming it) a subscription
 * that leaves symbols out is counted ({@link FanoutError#SUBSCRIPTION_REFUSED}) and ignored, also one sent with the
 * Login Request, since that stream's numbers name every symbol's messages ({@link #refuseSubscription}). Other
 * Unsequenced Data, or any before the Login Request, is counted ({@link FanoutError#BAD_SUBSCRIPTION}) and ignored. A
 * logged-in session's Logout Request, and 15 s without a packet from the subscriber (counted, {@link
 * FanoutError#CONNECTION_FAILED}), end the connection as {@link #endConnection} has it (End of Session on a snapshot
 * session); a Logout Request before Login Accepted, the subscriber closing its socket, or any socket failure (counted,
 * {@link FanoutError#CONNECTION_FAILED}) closes it. A Login Request whose snapshot or replay request the dispatcher's
 * queue cannot take (the fanout is overloaded) gets Login Rejected 'S' (session not available), and a subscription
 * whose request it cannot take ends the connection: both counted ({@link FanoutError#REQUEST_QUEUE_FULL}). So does a
 * packet that breaks SoupBinTCP 4.0 or cannot be parsed ({@link #receive}).
 *
 * <p>End of Session only when the session is over, as SoupBinTCP 4.0 &sect;1.4 has it (a client that gets it does not
 * reconnect to that session): when the fanout stops, or at midnight UTC, which ends the trading day the session logged
 * in on ({@link #endDay}), a logged-in session's stream ends as an ITCH 5.0 day does, with System Events 'M', 'E' and
 * 'C', then End of Session; and whenever a snapshot session's connection ends, since no login can resume that stream.
 * The day's numbered stream goes on when one connection to it ends (a slow consumer, missed messages, a malformed
 * packet, a failed replay): that connection closes without End of Session, so that its subscriber may log in again by
 * name from its next sequence number ({@link #endConnection}).
 *
 * <p>Every packet goes into the session's own send buffer ({@link SessionSendChannel}), never straight to the socket:
 * the worker {@link #flush() flushes} it once at the end of its duty cycle, so a session's messages of one cycle leave
 * in one write (more only when they outgrow the buffer), and later only when the selector finds the socket writable
 * again. No write waits on the subscriber. A subscriber further behind than its send buffer is a slow consumer (its
 * login's or subscription's answer is paced to it instead, {@link AnswerPacing}, so that it cannot be; a socket that
 * takes none of an answer for {@value #ANSWER_STALL_TIMEOUT_MS} ms is one, heartbeats or not): its session is ended,
 * counted in {@code bourse_fanout_slow_consumer_disconnects_total} and as an error, and logged the first time only;
 * the worker's other sessions never wait for it. Ending a session drops the whole packets the socket
 * has not begun to take (all of them for a slow consumer; for another end only when End of Session does not fit behind
 * them), so that the stream ends after the packet under way, never within one: the subscriber knows the last sequence
 * number it got and, in the day's numbered stream, can log in again from the next (a snapshot session's stream cannot
 * be resumed). The session then gets no more messages and stays, still counted as a session, until the subscriber
 * closes its end or {@value #END_OF_SESSION_TIMEOUT_MS} ms have passed: once the socket has taken the end of its stream
 * (End of Session, where one is due) its output is shut down (FIN after the data, the send buffer back to the worker's
 * pool), and what the subscriber still sends is read and dropped, because closing a socket with unread input would
 * reset the connection and could cost the subscriber the data it has not read yet. A subscriber that only shuts its
 * output down, and goes on reading, still gets the rest of its stream before the session closes.
 */
final class SubscriberSession implements SoupBinTCPServerStatusListener, MessageListener
{
    /**
     * Longest wait, in ms, from the end of the stream being buffered (End of Session, where one is due) until the
     * subscriber has taken it and closed its end, after which an ending session closes anyway.
     */
    static final long END_OF_SESSION_TIMEOUT_MS = 1_000;
    /**
     * Milliseconds a connection may go without a Login Request, as the order gateway's: then it is closed and counted
     * ({@code bourse_fanout_login_timeouts_total}), so that connections that never log in (Client Heartbeats only,
     * or nothing) do not keep a worker's places from subscribers.
     */
    static final long LOGIN_TIMEOUT_MS = 5_000;
    /**
     * Milliseconds the socket may take none of the send buffer while the session awaits an answer of the dispatcher,
     * as long as a silent subscriber is given: then the session is ended as a slow consumer. An answer is paced to its
     * subscriber ({@link AnswerPacing}), so one that stops reading would otherwise hold its place among the worker's
     * answers under way until Server Heartbeats alone filled its send buffer, hours later, however many heartbeats it
     * sends.
     */
    static final long ANSWER_STALL_TIMEOUT_MS = 15_000;
    /** Most reads of an ending session's input each time the selector finds it readable. */
    private static final int ENDING_READS = 16;
    /**
     * Least length of nassau's receive buffer, in bytes: one read takes every packet the subscriber sent together (a
     * Login Request and a subscription in one write must both be handled before the dispatcher's answer to the login);
     * the longest packet accepted is checked by the {@link SessionSendChannel}, as in the order gateway.
     */
    private static final int RECEIVE_BUFFER_LENGTH = 1024;
    /** Length of a Login Request payload. */
    private static final int LOGIN_REQUEST_LENGTH = 46;

    private final int workerId;
    private final long sessionId;
    private final SocketChannel channel;
    /** "subscriber" and its address, for log lines. */
    private final String subscriber;
    private final SessionSendChannel sendChannel;
    private final SoupBinTCPServer server;
    private final Clock sessionClock;
    private final Credentials credentials;
    private final ItchReferenceData referenceData;
    private final SymbolDirectory symbolDirectory;
    private final ManyToOneConcurrentArrayQueue<CatchUpRequest> requests;
    private final SessionNames sessionNames;
    private final RequestedSequenceNumber requestedSequenceNumbers;
    private final FanoutMetrics metrics;
    private final ErrorKinds<FanoutError> errors;
    private final boolean[] subscribed;
    private final boolean[] pending;
    private boolean[] wanted;
    private SelectionKey selectionKey;
    private boolean loginRequested;
    /** The trading day of the Login Request, which names the stream of a replay; null before it. */
    private SessionNames.Day loginDay;
    private boolean loggedIn;
    /**
     * Login Accepted named a snapshot session, numbered from 1 for this session alone; false for the day's numbered
     * stream, whose sequence numbers name the day's messages of every symbol.
     */
    private boolean snapshotSession;
    /** A login's snapshot is under way and System Events 'S' and 'Q' are still to follow its Trading Action spin. */
    private boolean systemHoursPending;
    /** The timestamp of the current snapshot's opening, nanoseconds since midnight: 'S' and 'Q' carry it too. */
    private long openingNs;
    /**
     * The stream is ended (End of Session buffered where one is due): no more messages; closes once the subscriber
     * closes its end, or at the deadline.
     */
    private boolean ending;
    private long endDeadlineMs;
    /** The subscriber of an ending session has shut its output down: closes once the rest of the stream is sent. */
    private boolean inputEnded;
    private boolean closed;
    private final long acceptedMs;
    /** Half the send buffer: the most bytes of an answer in the worker's ring and the send buffer at once. */
    private final int answerWindowBytes;
    /** The pace of the dispatcher's answer the session awaits; null while it awaits none. */
    private AnswerPacing answerPacing;
    /**
     * The send channel's bytes taken by the socket when it last took some or had none to take, as {@link #keepAlive()}
     * saw it; -1 before it looked.
     */
    private long stallSentBytes = -1;
    /** When that was seen, in the session clock's milliseconds. */
    private long stallSinceMs;

    /**
     * @param workerId                 the worker that owns the session.
     * @param sessionId                unique within the worker.
     * @param channel                  the accepted, non-blocking connection.
     * @param sessionClock             milliseconds for nassau's heartbeats, cached once per duty cycle by the worker.
     * @param sendBuffers              the worker's send buffers; the session takes one and gives it back when it
     *                                 closes.
     * @param credentials              who may log in.
     * @param referenceData            encodes the System Events after a login's spin and at the end of the day.
     * @param symbolDirectory          the symbols a subscription may name.
     * @param requests                 where the session's catch-up requests go to the dispatcher.
     * @param sessionNames             the sessions a login may ask for, and the names Login Accepted gives.
     * @param requestedSequenceNumbers reads a Login Request's Requested Sequence Number strictly.
     * @param metrics                  counts sessions, subscriptions, messages and login failures.
     * @param errors                   counts the session's failures and bad input.
     */
    SubscriberSession(
        final int workerId, final long sessionId, final SocketChannel channel, final Clock sessionClock,
        final SendBufferPool sendBuffers, final Credentials credentials, final ItchReferenceData referenceData,
        final SymbolDirectory symbolDirectory, final ManyToOneConcurrentArrayQueue<CatchUpRequest> requests,
        final SessionNames sessionNames, final RequestedSequenceNumber requestedSequenceNumbers,
        final FanoutMetrics metrics, final ErrorKinds<FanoutError> errors)
    {
        this.workerId = workerId;
        this.sessionId = sessionId;
        this.channel = channel;
        this.subscriber = "subscriber " + remoteAddress(channel);
        this.sessionClock = sessionClock;
        this.credentials = credentials;
        this.referenceData = referenceData;
        this.symbolDirectory = symbolDirectory;
        this.requests = requests;
        this.sessionNames = sessionNames;
        this.requestedSequenceNumbers = requestedSequenceNumbers;
        this.metrics = metrics;
        this.errors = errors;
        final int locates = symbolDirectory.entries().size() + 1;
        this.subscribed = new boolean[locates];
        this.pending = new boolean[locates];
        final int maxPayloadLength = Math.max(LOGIN_REQUEST_LENGTH, SubscriptionMessage.maxLength(locates - 1));
        final int loginAndSubscription = 2 * SessionSendChannel.PACKET_HEADER_LENGTH + LOGIN_REQUEST_LENGTH +
            SubscriptionMessage.maxLength(locates - 1);
        this.sendChannel = new SessionSendChannel(channel, sendBuffers, 1 + maxPayloadLength);
        this.answerWindowBytes = sendBuffers.capacity() / 2;
        final int receivePayloadLength =
            Math.max(RECEIVE_BUFFER_LENGTH, loginAndSubscription) - SessionSendChannel.PACKET_HEADER_LENGTH;
        this.server = new SoupBinTCPServer(sessionClock, sendChannel, receivePayloadLength, this, this);
        this.acceptedMs = sessionClock.currentTimeMillis();
    }

    /**
     * @param selectionKey the socket's registration with the worker's selector, interested in reads.
     */
    void selectionKey(final SelectionKey selectionKey)
    {
        this.selectionKey = selectionKey;
    }

    /** @return true while the selector watches for the socket to take more of the send buffer. */
    boolean isAwaitingWritable()
    {
        return sendChannel.isAwaitingWritable();
    }

    /** @return bytes in the send buffer that the socket has not taken yet. */
    int pendingBytes()
    {
        return sendChannel.pendingBytes();
    }

    /**
     * Writes what the socket takes of the send buffer, in one write and without waiting, and has the selector report
     * the socket writable exactly while bytes are left. Closes the session, counting an error, when the write fails;
     * closes an ending session whose subscriber has shut its output down, without an error, once all is sent.
     *
     * @return bytes written, possibly zero.
     */
    int flush()
    {
        if (closed)
        {
            return 0;
        }
        try
        {
            final int written = sendChannel.flush(selectionKey);
            if (null != answerPacing)
            {
                answerPacing.onSent(sendChannel.pendingBytes());
            }
            if (ending && sendChannel.shutdownOutputWhenSent() && inputEnded)
            {
                close();
            }
            return written;
        }
        catch (final IOException ex)
        {
            fail(ex);
            return 0;
        }
    }

    /** @return unique within the worker; names the session in the dispatcher's records. */
    long id()
    {
        return sessionId;
    }

    /**
     * @param locate a Stock Locate.
     * @return true when logged in, not closed, and subscribed to that symbol with its book sent.
     */
    boolean isLive(final int locate)
    {
        return loggedIn && !closed && !ending && subscribed[locate];
    }

    /**
     * The worker missed messages (a market-data gap, or its ring was full), so the dispatcher's books are no longer
     * what this session was sent: a session logged in (its login's answer started) ends its connection ({@link
     * #endConnection}). One whose login's answer has not started waits on: it was sent nothing of the old books, and
     * the dispatcher keeps its request and answers it from the books it takes next; unless its stream is over, the
     * fanout stopping or the session's day ended (the marker then stands for the day-end record the ring had no room
     * for), when it gets Login Rejected 'S' as {@link #endConnection} has it. Before stop 112 every login waiting for
     * its answer was rejected here, though a login made while the md-publisher restarts is meant to wait for its books.
     *
     * @param stopping true when the fanout is stopping.
     * @return true when the connection ends here.
     */
    boolean endConnectionAtDataLost(final boolean stopping)
    {
        if (!isLoggedInOrWaiting() || (!loggedIn && !isStreamOver(stopping)))
        {
            return false;
        }
        endConnection(stopping);
        return true;
    }

    /** @return true while not ending nor closed, and logged in or waiting for the dispatcher's answer to its login. */
    boolean isLoggedInOrWaiting()
    {
        return (loggedIn || loginRequested) && !closed && !ending;
    }

    /** @return true while open and not ending, before its Login Request. */
    boolean isAwaitingLogin()
    {
        return !loginRequested && !closed && !ending;
    }

    /** @return true from the end of its stream (End of Session, where one is due) until closed. */
    boolean isEnding()
    {
        return ending && !closed;
    }

    /** @return true once closed. */
    boolean isClosed()
    {
        return closed;
    }

    /**
     * Reads and handles what the subscriber sent, or drops it once the session is ending; closes the session at end of
     * stream (an ending session once the socket has also taken the rest of its stream, End of Session included: a
     * subscriber may shut its output down and go on reading) or on a socket failure. A packet that breaks SoupBinTCP
     * 4.0 (an unknown packet type, a length past the receive buffer: nassau's {@link ProtocolException}) or cannot be
     * parsed or handled (a runtime exception from nassau's parser, e.g. on a Login Request shorter than SoupBinTCP
     * 4.0's 47 bytes or a Requested Sequence Number that is not a number, {@link RequestedSequenceNumber}, or from
     * the handling of a packet) ends the connection after what the send buffer holds ({@link #endConnection}: End
     * of Session last on a snapshot session only, as the order gateway closes without it), what the subscriber sends
     * after it dropped, so that the connection is not reset before the subscriber has read its end; counted in
     * {@code bourse_fanout_malformed_packets_total} and as an error, logged the first time, and only this session
     * ends. Left to the worker, the exception would end its duty cycle before the other sessions' data, at every read
     * while the subscriber kept sending.
     *
     * @param discard scratch buffer for the input of an ending session, which is dropped.
     */
    void receive(final ByteBuffer discard)
    {
        try
        {
            if (!ending)
            {
                if (server.receive() < 0)
                {
                    close();
                }
            }
            else if (sendChannel.discardInput(discard, ENDING_READS) < 0)
            {
                endInput();
            }
        }
        catch (final ProtocolException | RuntimeException ex)
        {
            if (closed || ending)
            {
                close();
            }
            else
            {
                metrics.onMalformedPacket();
                errors.error(FanoutError.MALFORMED_PACKET, subscriber, ex);
                endConnection(false);
            }
        }
        catch (final IOException ex)
        {
            fail(ex);
        }
    }

    /**
     * The subscriber of an ending session has closed its end, or only shut its output down: closes at once when the
     * socket has taken the whole stream, otherwise goes on sending it and closes when it is sent ({@link #flush()}) or
     * at the deadline, without watching for input, which has ended.
     */
    private void endInput() throws IOException
    {
        if (sendChannel.shutdownOutputWhenSent())
        {
            close();
        }
        else
        {
            inputEnded = true;
            sendChannel.inputEnded(selectionKey);
        }
    }

    /**
     * Buffers one ITCH message as Sequenced Data; it reaches the socket at the next {@link #flush()}, or at once with
     * what the buffer holds when it does not fit behind it.
     *
     * @param payload the message from its position to its limit; the position advances.
     * @return true when buffered, false when the session is ending or closed, or failed or was a slow consumer now.
     */
    boolean send(final ByteBuffer payload)
    {
        if (ending || closed)
        {
            return false;
        }
        try
        {
            server.send(payload);
            return true;
        }
        catch (final IOException ex)
        {
            fail(ex);
            return false;
        }
    }

    /**
     * Sends a heartbeat after 1 s of silence and checks the subscriber's heartbeats; closes a connection that sent no
     * Login Request within {@value #LOGIN_TIMEOUT_MS} ms, and an ending session {@value #END_OF_SESSION_TIMEOUT_MS} ms
     * after the end of its stream, whether or not the subscriber has closed its end; ends as a slow consumer a session
     * whose awaited answer's bytes the socket has not taken for {@value #ANSWER_STALL_TIMEOUT_MS} ms.
     */
    void keepAlive()
    {
        if (ending)
        {
            if (sessionClock.currentTimeMillis() - endDeadlineMs >= 0)
            {
                close();
            }
            return;
        }
        if (!loginRequested && !closed && sessionClock.currentTimeMillis() - acceptedMs >= LOGIN_TIMEOUT_MS)
        {
            metrics.onLoginTimeout();
            close();
            return;
        }
        if (isAnswerStalled())
        {
            endSlowConsumer("took no byte of its answer for " + ANSWER_STALL_TIMEOUT_MS + " ms");
            return;
        }
        try
        {
            server.keepAlive();
        }
        catch (final IOException ex)
        {
            fail(ex);
        }
    }

    /**
     * @return true when an answer is awaited and the socket has taken none of the send buffer's bytes for {@value
     * #ANSWER_STALL_TIMEOUT_MS} ms: from the last {@link #keepAlive()} at which it had taken some since the one before,
     * or had none to take, or no answer was awaited.
     */
    private boolean isAnswerStalled()
    {
        final long nowMs = sessionClock.currentTimeMillis();
        final long sentBytes = sendChannel.sentBytes();
        if (null == answerPacing || 0 == sendChannel.pendingBytes() || sentBytes != stallSentBytes)
        {
            stallSentBytes = sentBytes;
            stallSinceMs = nowMs;
            return false;
        }
        return nowMs - stallSinceMs >= ANSWER_STALL_TIMEOUT_MS;
    }

    /**
     * The dispatcher's answer to the login starts: sends Login Accepted. A snapshot's first messages are the day's
     * opening (ITCH 5.0 &sect;4.1, &sect;4.2), System Event 'O' Start of Messages and the Stock Directory, then the
     * chosen symbols' Stock Trading Actions 'H', the spin that comes before the start of system hours; System Events
     * 'S' Start of System Hours and 'Q' Start of Market Hours follow it, before the first Add Order (the exchange
     * accepts and executes orders all the time the fanout runs), stamped as the opening: see {@link #sendOpening},
     * {@link #sendAnswer}.
     *
     * @param acceptedSequence SoupBinTCP 4.0 Login Accepted Sequence Number: the number of the next message.
     * @param snapshot         true when the book follows, false for a replay.
     * @param openingNs        the timestamp of a snapshot's opening, nanoseconds since midnight.
     */
    void onAnswerStart(final long acceptedSequence, final boolean snapshot, final long openingNs)
    {
        if (closed || ending)
        {
            return;
        }
        try
        {
            final SoupBinTCP.LoginAccepted accepted = new SoupBinTCP.LoginAccepted();
            accepted.setSession(snapshot ? sessionNames.nextSnapshotSession() : loginDay.session());
            accepted.setSequenceNumber(acceptedSequence);
            server.accept(accepted);
            loggedIn = true;
            snapshotSession = snapshot;
            metrics.onSessionOpened();
            systemHoursPending = snapshot;
            this.openingNs = openingNs;
            if (!snapshot && null != wanted)
            {
                // A subscription sent with the Login Request narrowed the answer, which is the day's stream.
                if (leavesOut(wanted))
                {
                    refuseSubscription();
                }
                Arrays.fill(pending, 1, pending.length, true);
                wanted = null;
            }
        }
        catch (final IOException ex)
        {
            fail(ex);
        }
    }

    /**
     * Sends one message of a login's opening, which the dispatcher writes before the snapshot: System Event 'O' or a
     * Stock Directory (of every symbol, chosen or not).
     *
     * @param payload the ITCH message from its position to its limit.
     * @return true when sent.
     */
    boolean sendOpening(final ByteBuffer payload)
    {
        final int length = payload.remaining();
        final boolean sent = send(payload);
        onAnswerTaken(length);
        return sent;
    }

    /**
     * Sends one message of the dispatcher's answer (book or kept message) when its symbol is still wanted; after a
     * login's spin, System Events 'S' and 'Q' first.
     *
     * @param payload the ITCH message from its position to its limit.
     * @param locate  its Stock Locate.
     * @return true when sent.
     */
    boolean sendAnswer(final ByteBuffer payload, final int locate)
    {
        final int length = payload.remaining();
        boolean sent = false;
        if (pending[locate])
        {
            if (systemHoursPending && ITCH50.MESSAGE_TYPE_STOCK_TRADING_ACTION != payload.get(payload.position()))
            {
                sendSystemHours();
            }
            sent = send(payload);
        }
        onAnswerTaken(length);
        return sent;
    }

    /** Tells the answer's pace that the session took one of its messages (sent, or dropped as no longer wanted). */
    private void onAnswerTaken(final int messageBytes)
    {
        if (null != answerPacing)
        {
            answerPacing.onTaken(messageBytes, sendChannel.pendingBytes());
        }
    }

    /**
     * Sends System Events 'S' Start of System Hours and 'Q' Start of Market Hours, after a login's spin, stamped as
     * its opening: when the answer started, before the snapshot was taken and so before every kept message after
     * it, rather than when the spin ends, which for a slow reader comes after some of those.
     */
    private void sendSystemHours()
    {
        systemHoursPending = false;
        if (send(referenceData.systemEvent(ITCH50.EVENT_CODE_START_OF_SYSTEM_HOURS, openingNs)) &&
            send(referenceData.systemEvent(ITCH50.EVENT_CODE_START_OF_MARKET_HOURS, openingNs)))
        {
            metrics.onMessagesOut(ITCH50.MESSAGE_TYPE_SYSTEM_EVENT, 2);
        }
    }

    /**
     * The dispatcher's answer ends: the pending symbols are live from the next message; a newer subscription goes. A
     * session that the System Events after a login's spin end (a slow consumer, a subscriber gone) asks the dispatcher
     * for nothing more: neither to cancel the answer just ended nor for the newer subscription's books.
     */
    void onAnswerEnd()
    {
        if (closed || ending)
        {
            return;
        }
        answerPacing = null;
        if (systemHoursPending)
        {
            sendSystemHours();
            if (closed || ending)
            {
                return;
            }
        }
        int added = 0;
        for (int locate = 1; locate < pending.length; locate++)
        {
            if (pending[locate])
            {
                subscribed[locate] = true;
                pending[locate] = false;
                added++;
            }
        }
        metrics.onSubscriptionsChanged(added);
        if (null != wanted)
        {
            final boolean[] next = wanted;
            wanted = null;
            subscribe(next);
        }
    }

    /**
     * The dispatcher's answer to a Login Request that named the day's stream from a message it no longer keeps (or one
     * before the last gap): SoupBinTCP 4.0 Login Rejected 'S' (session not available), counted, then the connection
     * closes. The subscriber lacks messages that stream cannot send, under numbers it has no other message for; it
     * logs in with a blank session for the book.
     */
    void onLoginRejected()
    {
        if (closed || ending)
        {
            return;
        }
        answerPacing = null; // the dispatcher's answer is over: nothing to cancel
        rejectSessionNotAvailable();
    }

    /**
     * The dispatcher could not complete its answer (counted there, {@link FanoutError#CATCH_UP_FAILED}): the connection
     * ends ({@link #endConnection}).
     */
    void onAnswerFailed()
    {
        if (closed || ending)
        {
            return;
        }
        answerPacing = null; // the dispatcher gave the answer up: nothing to cancel
        endConnection(false);
    }

    /**
     * The session's stream ends as an ITCH 5.0 day does (&sect;4.1, as the md-publisher ends its MoldUDP64 session):
     * the fanout stops, and with it the stream, which no later run serves, or the session's trading day has ended
     * ({@link #endDay}). A logged-in session gets System Events 'M' End of Market Hours, 'E' End of System Hours and
     * 'C' End of Messages, the last message of its stream, then End of Session: the session is over (SoupBinTCP 4.0
     * &sect;1.4). One whose snapshot or replay the dispatcher had not finished (a book in part, or messages missing
     * between the replay and the live ones) gets End of Session without them, since it missed messages: 'C' would tell
     * its subscriber that its stream was whole. One still waiting for its login's answer, which would have been of
     * that stream, gets Login Rejected 'S' (session not available) and closes; a connection that has sent no Login
     * Request closes after what its send buffer holds, with no packet of a session it never had. A System Event the
     * send buffer cannot take is left out, not counted as a slow consumer: End of Session then follows the packet
     * under way.
     *
     * @param closingNs the System Events' Timestamp, nanoseconds since midnight (past a day on a clock started days
     *                  before).
     */
    void endMessages(final long closingNs)
    {
        if (endedOrRejectedAwaitingItsAnswer())
        {
            return;
        }
        if (loggedIn && null == answerPacing)
        {
            sendClosingEvent(ITCH50.EVENT_CODE_END_OF_MARKET_HOURS, closingNs);
            sendClosingEvent(ITCH50.EVENT_CODE_END_OF_SYSTEM_HOURS, closingNs);
            sendClosingEvent(ITCH50.EVENT_CODE_END_OF_MESSAGES, closingNs);
        }
        end(false, true);
    }

    /**
     * Midnight UTC has ended a trading day ({@link SessionNames#nextDay}): a session that logged in on that day or an
     * earlier one ends as at the stop ({@link #endMessages}), since its numbered stream has ended and the next day's
     * is numbered from 1 again under another name; one still waiting for its login's answer, which would have been of
     * the ended day's stream, gets Login Rejected 'S' (session not available) and closes, as at the stop: its
     * subscriber logs in again to the new day's. A session of a later day, and one that has sent no Login Request yet,
     * go on.
     *
     * @param dayOrdinal the ordinal of the day that ended.
     * @param closingNs  the Timestamp of its closing System Events, nanoseconds since midnight.
     * @return true when the session ended here.
     */
    boolean endDay(final long dayOrdinal, final long closingNs)
    {
        if (!loginRequested || closed || ending || loginDay.ordinal() > dayOrdinal)
        {
            return false;
        }
        endMessages(closingNs);
        return true;
    }

    private void sendClosingEvent(final byte eventCode, final long closingNs)
    {
        try
        {
            server.send(referenceData.systemEvent(eventCode, closingNs));
            metrics.onMessagesOut(ITCH50.MESSAGE_TYPE_SYSTEM_EVENT, 1);
        }
        catch (final IOException ignore)
        {
            // A full send buffer, whose whole packets not yet begun end() drops, or a subscriber gone, whose session
            // end() closes.
        }
    }

    /**
     * Ends the connection while the session may go on: the worker missed messages, the dispatcher could not answer, a
     * subscription's request could not be queued, the subscriber sent a packet that could not be parsed or handled
     * ({@link #receive}), a Logout Request, or nothing for 15 s. End of Session ends a snapshot session's connection,
     * since no login can resume that stream; not the day's numbered stream's, which the subscriber may log in to again
     * by name from its next sequence number while its messages are kept (SoupBinTCP 4.0 &sect;1.4 has a client that got
     * End of Session not reconnect to that session), unless that stream is over: its day has ended (missed messages in
     * place of the day's end record), or the fanout is stopping. A login still awaiting its answer, which would have
     * been of that stream, gets Login Rejected 'S' (session not available) instead, and closes; a connection before its
     * Login Request gets nothing. The connection then closes as {@link #end} has it.
     *
     * @param stopping true when the fanout is stopping: no later run serves the session's stream.
     */
    void endConnection(final boolean stopping)
    {
        if (endedOrRejectedAwaitingItsAnswer())
        {
            return;
        }
        end(false, isStreamOver(stopping));
    }

    /**
     * @param stopping true when the fanout is stopping: no later run serves the session's stream.
     * @return true when the session's stream is over: the fanout stops, or the day the session logged in on has ended.
     */
    private boolean isStreamOver(final boolean stopping)
    {
        return stopping || (null != loginDay && loginDay.ordinal() < sessionNames.day().ordinal());
    }

    /**
     * Stops the session's stream and writes what the socket takes of the send buffer: End of Session last when the
     * session is over (its day, or the fanout, has ended) or is a snapshot session, else nothing more (the day's stream
     * goes on for a later login). End of Session comes after what the send buffer holds, or, when it does not fit,
     * after the packet under way, dropping the whole packets not yet begun. Once the socket has taken the send buffer,
     * now or at a later {@link #flush()}, its output is shut down (FIN after the data); the session then drops what the
     * subscriber still sends ({@link #receive}) and closes when the subscriber closes its end (once the rest is sent,
     * if there is any), or at the deadline ({@link #keepAlive()}).
     *
     * @param dropUnsent  true to drop the whole packets not yet begun first: a slow consumer, too far behind for them.
     * @param sessionOver true when the session's stream has ended: its day, or the fanout's run.
     */
    private void end(final boolean dropUnsent, final boolean sessionOver)
    {
        if (closed || ending)
        {
            return;
        }
        ending = true;
        cancelAnswer();
        endDeadlineMs = sessionClock.currentTimeMillis() + END_OF_SESSION_TIMEOUT_MS;
        try
        {
            if (dropUnsent)
            {
                sendChannel.discardUnsent();
            }
            if (loggedIn && (sessionOver || snapshotSession))
            {
                try
                {
                    server.endSession();
                }
                catch (final SendBufferFullException ex)
                {
                    sendChannel.discardUnsent();
                    server.endSession();
                }
            }
        }
        catch (final IOException ignore)
        {
            // A subscriber already gone is no error: the session closes.
            close();
            return;
        }
        flush();
    }

    /** Writes what the socket takes of the send buffer (Login Rejected, End of Session), then closes; idempotent. */
    void close()
    {
        if (!closed)
        {
            closed = true;
            cancelAnswer();
            try
            {
                sendChannel.flush();
            }
            catch (final IOException ignore)
            {
                // The session is being closed; what the socket did not take is lost with it.
            }
            if (loggedIn)
            {
                metrics.onSessionClosed();
                int count = 0;
                for (final boolean symbol : subscribed)
                {
                    count += symbol ? 1 : 0;
                }
                metrics.onSubscriptionsChanged(-count);
            }
            try
            {
                server.close();
            }
            catch (final IOException ex)
            {
                errors.error(FanoutError.CONNECTION_FAILED, subscriber, ex);
            }
        }
    }

    @Override
    public void loginRequest(final SoupBinTCPServer session, final SoupBinTCP.LoginRequest request)
        throws IOException
    {
        if (closed || ending)
        {
            return;
        }
        if (loginRequested)
        {
            throw new ProtocolException("second Login Request"); // malformed: the connection ends (receive)
        }
        final long requestedSequence = requestedSequenceNumbers.read(request);
        if (RequestedSequenceNumber.MALFORMED == requestedSequence)
        {
            throw new ProtocolException("Login Request: Requested Sequence Number " +
                requestedSequenceNumbers.text(request) + " is not a number"); // malformed, as above
        }
        if (null == credentials.authenticate(request.getUsername().trim(), request.getPassword().trim()))
        {
            rejectLogin(SoupBinTCP.LOGIN_REJECT_CODE_NOT_AUTHORIZED);
            return;
        }
        final SessionNames.Day day = sessionNames.day();
        if (!day.isAvailable(request.getRequestedSession()))
        {
            rejectLogin(SoupBinTCP.LOGIN_REJECT_CODE_SESSION_NOT_AVAILABLE);
            return;
        }

        loginRequested = true;
        loginDay = day;
        Arrays.fill(pending, 1, pending.length, true);
        if (!request(true, !request.getRequestedSession().isBlank(), requestedSequence))
        {
            errors.error(FanoutError.REQUEST_QUEUE_FULL, subscriber, "Login Request: Login Rejected 'S'");
            rejectLogin(SoupBinTCP.LOGIN_REJECT_CODE_SESSION_NOT_AVAILABLE);
        }
    }

    /**
     * The session's stream ends: one awaiting its login's answer, which would have been of that stream, gets Login
     * Rejected 'S' (session not available) and closes.
     *
     * @return true when nothing more is to be done: the session was closed or ending, or is rejected now.
     */
    private boolean endedOrRejectedAwaitingItsAnswer()
    {
        if (closed || ending)
        {
            return true;
        }
        if (loginRequested && !loggedIn)
        {
            rejectSessionNotAvailable();
            return true;
        }
        return false;
    }

    /** SoupBinTCP 4.0 Login Rejected 'S' (session not available), counted, then the connection closes. */
    private void rejectSessionNotAvailable()
    {
        try
        {
            rejectLogin(SoupBinTCP.LOGIN_REJECT_CODE_SESSION_NOT_AVAILABLE);
        }
        catch (final IOException ex)
        {
            fail(ex);
        }
    }

    /** SoupBinTCP 4.0 Login Rejected with the reason code, counted, then the connection closes. */
    private void rejectLogin(final byte reasonCode) throws IOException
    {
        metrics.onLoginFailure();
        final SoupBinTCP.LoginRejected rejected = new SoupBinTCP.LoginRejected();
        rejected.setRejectReasonCode(reasonCode);
        server.reject(rejected);
        close();
    }

    /**
     * SoupBinTCP 4.0 Logout Request: a logged-in session's connection ends as {@link #endConnection} has it (End of
     * Session after what the send buffer holds on a snapshot session, which no login can resume, and on a day's stream
     * that is over; on the day's stream that goes on, the rest of the send buffer, then the shutdown), any other
     * connection closes at once.
     */
    @Override
    public void logoutRequest(final SoupBinTCPServer session)
    {
        if (loggedIn)
        {
            endConnection(false);
        }
        else
        {
            close();
        }
    }

    /**
     * No packet from the subscriber for 15 s (SoupBinTCP 4.0 heartbeats): counted as {@link
     * FanoutError#CONNECTION_FAILED}, and the connection ends as {@link #endConnection} has it (End of Session on a
     * snapshot session, a subscriber that only reads learning why; a login still awaiting its answer gets Login
     * Rejected 'S'). Nothing for a session already closed or ending in this duty cycle (its subscriber closed, or a
     * socket failure counted already).
     */
    @Override
    public void heartbeatTimeout(final SoupBinTCPServer session)
    {
        if (closed || ending)
        {
            return;
        }
        errors.error(FanoutError.CONNECTION_FAILED, subscriber, "no heartbeat from subscriber");
        endConnection(false);
    }

    /** SoupBinTCP 4.0 Unsequenced Data: a {@link SubscriptionMessage} message. */
    @Override
    public void message(final ByteBuffer payload)
    {
        if (ending || closed)
        {
            return; // what follows the end of the stream, or a Logout Request in the same read, is dropped
        }
        final int length = payload.remaining();
        final boolean[] symbols = new boolean[subscribed.length];
        if (!loginRequested || !SubscriptionMessage.parse(payload, symbolDirectory, symbols))
        {
            if (errors.errorToLog(FanoutError.BAD_SUBSCRIPTION))
            {
                errors.log(FanoutError.BAD_SUBSCRIPTION, subscriber,
                    loginRequested ? "ignored, not parsed: length " + length : "ignored, before its Login Request");
            }
            return;
        }
        if (loggedIn && !snapshotSession && leavesOut(symbols))
        {
            refuseSubscription();
            return;
        }
        if (null != answerPacing)
        {
            narrow(pending, symbols);
            metrics.onSubscriptionsChanged(-narrow(subscribed, symbols));
            wanted = symbols;
        }
        else
        {
            subscribe(symbols);
        }
    }

    private void subscribe(final boolean[] symbols)
    {
        metrics.onSubscriptionsChanged(-narrow(subscribed, symbols));
        boolean adding = false;
        for (int locate = 1; locate < symbols.length; locate++)
        {
            pending[locate] = symbols[locate] && !subscribed[locate];
            adding |= pending[locate];
        }
        if (adding && !request(false, false, 0))
        {
            errors.error(FanoutError.REQUEST_QUEUE_FULL, subscriber, "subscription: the connection ends");
            endConnection(false);
        }
    }

    /**
     * A subscription that leaves symbols out, on the day's numbered stream: ignored, every symbol goes on, counted and
     * logged the first time. That stream's sequence numbers name the day's messages of every symbol, so that a
     * subscriber resumes it from the next number; narrowed, its messages would come under other numbers, and a resume
     * would get some of them twice. A subscriber chooses its symbols on a snapshot session (a blank Requested Session
     * with Requested Sequence Number 0 or 1).
     */
    private void refuseSubscription()
    {
        errors.error(FanoutError.SUBSCRIPTION_REFUSED, subscriber, "leaves symbols out of the day's numbered stream, " +
            "whose numbers name every symbol's messages: ignored, every symbol goes on");
    }

    /** @return true when {@code symbols} leaves out a symbol of the directory. */
    private static boolean leavesOut(final boolean[] symbols)
    {
        for (int locate = 1; locate < symbols.length; locate++)
        {
            if (!symbols[locate])
            {
                return true;
            }
        }
        return false;
    }

    /** @return number of symbols dropped from {@code symbols}: those {@code kept} does not have. */
    private static int narrow(final boolean[] symbols, final boolean[] kept)
    {
        int dropped = 0;
        for (int locate = 1; locate < symbols.length; locate++)
        {
            if (symbols[locate] && !kept[locate])
            {
                symbols[locate] = false;
                dropped++;
            }
        }
        return dropped;
    }

    /**
     * Asks the dispatcher for the pending symbols' books (and, at the login, the replay from the requested sequence
     * number).
     *
     * @param named true when the Login Request named the day's stream ({@link CatchUpRequest#named}).
     * @return false when the dispatcher's queue of requests is full: the fanout is overloaded.
     */
    private boolean request(final boolean login, final boolean named, final long requestedSequence)
    {
        final AnswerPacing pacing = new AnswerPacing(answerWindowBytes);
        if (!requests.offer(new CatchUpRequest(
            workerId, sessionId, loginDay.ordinal(), login, named, requestedSequence, pending.clone(), pacing)))
        {
            return false;
        }
        answerPacing = pacing;
        return true;
    }

    /**
     * The session ends while it awaits the dispatcher's answer: asks the dispatcher to drop it. A full request queue
     * leaves the answer to go on; its records are then dropped here, as they are until the cancel is taken.
     */
    private void cancelAnswer()
    {
        if (null != answerPacing)
        {
            answerPacing.release();
            answerPacing = null;
            requests.offer(CatchUpRequest.cancel(workerId, sessionId));
        }
    }

    private void fail(final IOException ex)
    {
        if (ending)
        {
            // The end of the stream is sent or on its way: a subscriber gone now is no error.
            close();
        }
        else if (!closed)
        {
            if (ex instanceof SendBufferFullException)
            {
                endSlowConsumer(ex);
            }
            else
            {
                errors.error(FanoutError.CONNECTION_FAILED, subscriber, ex);
                close();
            }
        }
    }

    /**
     * Ends a slow consumer's session: counted in {@code bourse_fanout_slow_consumer_disconnects_total} and as an error,
     * the connection ended right after the packet under way ({@link #end}), End of Session after it for a snapshot
     * session ({@link #endConnection}).
     *
     * @param why the full send buffer's exception, or the stall.
     */
    private void endSlowConsumer(final Object why)
    {
        metrics.onSlowConsumerDisconnect();
        errors.error(FanoutError.SLOW_CONSUMER, subscriber, why);
        end(true, false);
    }

    /** @return the subscriber's address, for log lines: read at the start, since a closed channel no longer has it. */
    private static String remoteAddress(final SocketChannel channel)
    {
        try
        {
            return String.valueOf(channel.getRemoteAddress());
        }
        catch (final IOException ex)
        {
            return "(unknown)";
        }
    }
}
