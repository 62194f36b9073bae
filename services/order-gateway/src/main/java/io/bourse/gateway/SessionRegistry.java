package io.bourse.gateway;

import com.paritytrading.nassau.ProtocolException;
import com.paritytrading.nassau.soupbintcp.SoupBinTCP;
import io.bourse.common.config.Credentials;
import io.bourse.common.metrics.Readiness;
import io.bourse.common.net.RequestedSequenceNumber;
import io.bourse.common.net.SendBufferFullException;
import io.bourse.common.net.SendBufferPool;
import io.bourse.common.net.SessionSendChannel;
import io.bourse.common.net.SessionSockets;
import io.bourse.ouch.CancelOrder;
import io.bourse.ouch.EnterOrder;
import io.bourse.ouch.Ouch42;
import org.agrona.CloseHelper;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * The SoupBinTCP 4.0 side of the gateway: the open connections, the users' sessions of the day with their journals,
 * logins, logouts, keep-alive and the sending of journaled sequenced messages. Used only by the gateway agent thread.
 * <p>
 * Capacity: at most {@code maxPendingLogins} connections may wait for their Login Request at once (more are closed as
 * they are accepted) and each must log in within the login timeout or it is closed; at most {@code maxSessions} users
 * may be logged in at once (one more gets Login Rejected 'S'). Each counted refusal or timeout is logged the first
 * time only. Every packet to a client goes into the connection's send buffer ({@link SessionSendChannel}); the
 * sockets take what they can once per duty cycle, and the selector reports those with bytes left when they can take
 * more. A connection whose send buffer cannot take a packet is a slow consumer: its connection is closed and counted;
 * the whole packets its socket has not begun to take are dropped, so that the last bytes it gets end a whole packet
 * (unless its linger ends first: its deadline, the stop's limit, a linger of 0 or the lingering cap) and the client
 * knows the last message it got; its journal keeps every message, so that the client can log in again
 * from the next and get them replayed. A connection the gateway closes lingers ({@link OuchConnection#linger}): its
 * socket takes the rest of the send buffer (End of Session, Login Rejected, messages owed at a Logout Request), then
 * its output is shut down and its input dropped until the client closes its end, for {@code endOfSessionLingerNs} at
 * most; at most {@code maxPendingLogins} linger at once (one more closes the oldest); from the close on
 * ({@link #endDay()}), at which every session of the day ends, {@code maxSessions + maxPendingLogins}; and as many as
 * there are at the rollover ({@link #endAll()}), where they go on lingering in the next day's registry, and at the stop
 * ({@link #closeAllAtStop()}), where the gateway waits for them ({@link #lingerAtStop()}). A connection refused at the
 * pending-login limit is closed at once.
 * <p>
 * Login Request: unknown user or wrong password is answered with Login Rejected 'A' (not authorized); a requested
 * session other than today's (blank means today's), a user already logged in on another connection, a user whose
 * journal failed, or any login while the engine shards' event streams are not yet caught up from the event archive (the
 * gateway's {@code /ready} says so meanwhile; a shard that is down is caught up from its last run's recording, see
 * {@link EngineEventStreams}), with 'S' (session not available). Otherwise Login Accepted carries today's session and
 * the sequence number of the next message the client will get ({@link #firstToSend}): the requested one; for 0, or a
 * number past the next new message, the next new message. The messages from there on are replayed from the journal, a
 * bounded number per duty cycle and no faster than the send buffer empties, then live ones follow. The first login of
 * the day gets the OUCH 4.2 System Event start of day as sequenced message 1. Unsequenced Data before login, a second
 * Login Request, an OUCH message of unknown type or wrong length, or a malformed packet closes the connection, after
 * what the session journaled, counted; the session goes on, and the user can log in again and have what it missed
 * replayed. End of Session is sent only when the session is over, at the end of the trading day: SoupBinTCP 4.0 §1.4
 * says a client cannot reconnect to a session that sent it, so a strict client would stop for the day and never hear
 * the cancels on disconnect of its connection.
 * Logout Request and a heartbeat timeout (15 s of silence) close the connection; a logged-in client whose packets the
 * gateway leaves in the socket while the engine shards' command streams are full is not silent, and is not dropped
 * (the login timeout still applies before login).
 * Whenever a logged-in connection closes, for whatever reason, the order entry hears that the session ended (cancel
 * on disconnect).
 * Once the trading day is over ({@link MarketClose}, {@link #endDay()}) every session of the day gets the System Event
 * End of Day, and each logged-in session gets End of Session as soon as it has been sent everything journaled,
 * replays included.
 * <p>
 * At its first login after the gateway starts, each session takes a session index (the clientOrderId prefix) never
 * used before for the day ({@link SessionIndexes}): past the largest any journal recorded and any the engine events of
 * the catch-up carry, so that orders entered after a restart cannot be taken for orders entered before it, also when
 * the journals are gone. At start-up, before the first login, every user with a journal of today's session gets its
 * session back and its orders rebuilt from the journal ({@link #restoreSessions}), so that the engine's events for them
 * reach the session whether or not the user has logged in again.
 */
final class SessionRegistry
{
    /** Largest inbound payload: the Enter Order (a Login Request payload of 46 bytes fits too). */
    static final int MAX_INBOUND_PAYLOAD_LENGTH = EnterOrder.LENGTH;
    /** Receive buffer of each connection: one read takes every packet a client sent, up to this many bytes. */
    static final int RECEIVE_BUFFER_LENGTH = 8 * 1024;
    /**
     * Most engine commands one read can carry: a receive buffer of the shortest packets that make one, Cancel Order
     * (OUCH 4.2 &sect;2.3, 19 bytes) in a SoupBinTCP Unsequenced Data packet (3 bytes of header).
     */
    static final int MAX_COMMANDS_PER_RECEIVE =
        RECEIVE_BUFFER_LENGTH / (SessionSendChannel.PACKET_HEADER_LENGTH + CancelOrder.LENGTH);
    private static final int REPLAY_BATCH = 64;
    private static final String NO_SESSION_INDEX_DETAIL =
        "no session index left for the day (" + SessionIndexes.MAX_SESSION_INDEX + " taken)";
    /** SoupBinTCP 4.0 heartbeat interval (1 s), which nassau keeps to itself. */
    private static final long HEARTBEAT_INTERVAL_NS = 1_000_000_000L;
    /** The longest the stop waits for the lingering connections, in milliseconds. */
    private static final long STOP_LINGER_LIMIT_MS = 3_000;
    /** The pause between two steps of the lingers at the stop while no byte moves. */
    private static final long STOP_LINGER_IDLE_NS = TimeUnit.MILLISECONDS.toNanos(1);

    private final Credentials credentials;
    /** Reads each Login Request's Requested Sequence Number; made here, so that a wrong nassau fails the start. */
    private final RequestedSequenceNumber requestedSequenceNumbers = new RequestedSequenceNumber();
    private final String sessionName;
    private final int gatewayId;
    private final int shardCount;
    private final int maxSessions;
    private final int maxPendingLogins;
    private final long loginTimeoutNs;
    private final long endOfSessionLingerNs;
    private final String loginTimeoutDetail;
    private final String pendingLimitDetail;
    private final String sessionLimitDetail;
    private final SendBufferPool sendBuffers;
    private final int socketSendBufferBytes;
    private final OrderEntryAdapter orderEntryAdapter;
    private final OuchProxy ouch;
    private final JournalStore journals;
    private final GatewayMetrics metrics;
    private final DutyCycleClock clock;
    private final SessionIndexes sessionIndexes;
    private final Readiness eventCatchUp;
    private final Map<String, UserSession> users = new HashMap<>();
    private final ArrayList<UserSession> sessions = new ArrayList<>();
    private final ArrayList<OuchConnection> connections = new ArrayList<>();
    private final ArrayList<OuchConnection> lingering = new ArrayList<>();
    private final ByteBuffer discard = ByteBuffer.allocateDirect(RECEIVE_BUFFER_LENGTH);
    private final SoupBinTCP.LoginAccepted loginAccepted = new SoupBinTCP.LoginAccepted();
    private final SoupBinTCP.LoginRejected loginRejected = new SoupBinTCP.LoginRejected();
    private int loggedIn;
    private int pendingLogins;
    private boolean journalFailed;
    /**
     * Set by {@link #endDay()}: every session of the day, later ones too, gets the System Event End of Day, and a
     * logged-in session sent everything is ended.
     */
    private boolean dayOver;
    /**
     * Most connections lingering at once: {@code maxPendingLogins}, then from the close on every session of the day
     * and the logins waiting, and no limit from {@link #endAll()} or {@link #closeAllAtStop()} on.
     */
    private int lingeringCap;

    /**
     * @param credentials           who may log in.
     * @param sessionName           today's SoupBinTCP session, 10 characters at most.
     * @param gatewayId             1..255, for the clientOrderIds of the sessions.
     * @param shardCount            engine shards the gateway hears.
     * @param maxSessions           most users logged in at once.
     * @param maxPendingLogins      most connections open at once that have not logged in yet.
     * @param loginTimeoutNs        how long a new connection may take to log in before it is closed.
     * @param endOfSessionLingerNs  how long a closed connection keeps its socket open for the client to take what its
     *                              send buffer holds (End of Session last once the day is over) and close its end, in
     *                              nanoseconds; 0 closes it at once.
     * @param sendBuffers           the connections' send buffers.
     * @param socketSendBufferBytes SO_SNDBUF of each client socket, or 0 to leave it to the kernel.
     * @param orderEntryAdapter     receives the OUCH messages of logged-in sessions.
     * @param ouch                  sends the System Event.
     * @param journals              the journals of today's session, recovered.
     * @param metrics               counters.
     * @param clock                 the duty-cycle clock.
     * @param sessionIndexes        the session indexes of the gateway id, shared with the order entry, which hears the
     *                              indexes the journals do not tell.
     * @param eventCatchUp          whether the engine shards' event streams have been caught up from the event archive
     *                              ({@link EngineEventStreams#catchUpReason()}); no login is accepted before.
     */
    SessionRegistry(
        final Credentials credentials,
        final String sessionName,
        final int gatewayId,
        final int shardCount,
        final int maxSessions,
        final int maxPendingLogins,
        final long loginTimeoutNs,
        final long endOfSessionLingerNs,
        final SendBufferPool sendBuffers,
        final int socketSendBufferBytes,
        final OrderEntryAdapter orderEntryAdapter,
        final OuchProxy ouch,
        final JournalStore journals,
        final GatewayMetrics metrics,
        final DutyCycleClock clock,
        final SessionIndexes sessionIndexes,
        final Readiness eventCatchUp)
    {
        this.credentials = credentials;
        this.sessionName = sessionName;
        this.gatewayId = gatewayId;
        this.shardCount = shardCount;
        this.maxSessions = maxSessions;
        this.maxPendingLogins = maxPendingLogins;
        this.lingeringCap = maxPendingLogins;
        this.loginTimeoutNs = loginTimeoutNs;
        this.endOfSessionLingerNs = endOfSessionLingerNs;
        this.loginTimeoutDetail = "no Login Request within " + loginTimeoutNs / 1_000_000L + " ms";
        this.pendingLimitDetail = "limit of " + maxPendingLogins + " connections awaiting login";
        this.sessionLimitDetail = "limit of " + maxSessions + " sessions logged in";
        this.sendBuffers = sendBuffers;
        this.socketSendBufferBytes = socketSendBufferBytes;
        this.orderEntryAdapter = orderEntryAdapter;
        this.ouch = ouch;
        this.journals = journals;
        this.metrics = metrics;
        this.clock = clock;
        this.sessionIndexes = sessionIndexes;
        this.eventCatchUp = eventCatchUp;
    }

    /**
     * Gives every user with a journal of today's session its session back and rebuilds the session's orders from the
     * journal; logs one line with the orders rebuilt. Called once, before the first login. A restored session takes its
     * new session index at its first login, once the engine events have told the indexes no journal recorded. A
     * journal of a user the credentials no longer name is restored too (its orders may still trade), with a blank
     * firm: that user cannot log in.
     *
     * @param rebuild rebuilds the orders of a session.
     * @throws IOException when a journal cannot be read.
     */
    void restoreSessions(final OrderRebuild rebuild) throws IOException
    {
        final long startNs = System.nanoTime();
        final Map<String, String> firms = new HashMap<>();
        for (final Credentials.User user : credentials.users())
        {
            firms.put(user.username(), user.firm());
        }
        final List<String> usernames = journals.usernames();
        for (final String username : usernames)
        {
            rebuild.rebuild(newSession(
                username, Ouch42.packFirm(firms.getOrDefault(username, "")), journals.journal(username)));
        }
        final int skipped = rebuild.skippedOrderCount();
        System.out.println("order-gateway rebuilt " + rebuild.openOrderCount() + " open orders for " +
            usernames.size() + " sessions from journals in " + (System.nanoTime() - startNs) / 1_000_000L + " ms" +
            (0 == skipped ? "" : " (" + skipped + " orders of another gateway id or shard left out)"));
    }

    /**
     * Takes a newly accepted client, or closes it when as many connections as allowed are waiting to log in.
     *
     * @param channel just accepted; made non-blocking here.
     * @return the connection to register for reads, or null when refused.
     */
    OuchConnection onAccept(final SocketChannel channel)
    {
        SessionSendChannel sendChannel = null;
        try
        {
            if (pendingLogins >= maxPendingLogins)
            {
                metrics.error(GatewayError.PENDING_LOGIN_LIMIT, channel.getRemoteAddress(), pendingLimitDetail);
                channel.close();
                return null;
            }
            channel.configureBlocking(false);
            SessionSockets.configureSession(channel, socketSendBufferBytes);
            sendChannel = new SessionSendChannel(channel, sendBuffers, 1 + MAX_INBOUND_PAYLOAD_LENGTH);
            final OuchConnection connection = new OuchConnection(
                this, channel, sendChannel, clock, RECEIVE_BUFFER_LENGTH - SessionSendChannel.PACKET_HEADER_LENGTH);
            connections.add(connection);
            pendingLogins++;
            metrics.pendingLogins.inc();
            return connection;
        }
        catch (final IOException ex)
        {
            metrics.error(GatewayError.CONNECTION_FAILED, "accept", ex);
            CloseHelper.quietCloseAll(sendChannel, channel);
            return null;
        }
    }

    /**
     * Reads what the client sent and handles every complete packet.
     *
     * @param connection a connection the selector found readable.
     * @return bytes read.
     */
    int receive(final OuchConnection connection)
    {
        if (connection.isClosed())
        {
            return 0;
        }
        try
        {
            final int bytes = connection.server().receive();
            if (bytes < 0)
            {
                close(connection);
            }
            return Math.max(0, bytes);
        }
        catch (final ProtocolException | RuntimeException ex)
        {
            fail(connection, GatewayError.MALFORMED_PACKET, ex);
        }
        catch (final IOException ex)
        {
            fail(connection, GatewayError.CONNECTION_FAILED, ex);
        }
        return 0;
    }

    /**
     * Writes more of the send buffer of a connection the selector found writable.
     *
     * @param connection the connection.
     * @return bytes written.
     */
    int onWritable(final OuchConnection connection)
    {
        return connection.isClosed() ? 0 : send(connection);
    }

    /**
     * Once per duty cycle, for every connection: closes it if it has not logged in within the login timeout; sends a
     * heartbeat after a second without packets and drops the client after 15 seconds of silence; then writes what
     * the socket takes of the send buffer, unless the selector is already watching for the socket to take more. For
     * every closed connection still lingering, a step of its linger; its socket is closed when the linger is over.
     *
     * @return bytes written.
     */
    int keepAliveAndSend()
    {
        final long nowNs = clock.nanoTime();
        int written = stepLingers(nowNs);
        for (int i = connections.size() - 1; i >= 0; i--)
        {
            final OuchConnection connection = connections.get(i);
            if (null == connection.user() && nowNs - connection.acceptedNs() > loginTimeoutNs)
            {
                metrics.loginTimeouts.inc();
                metrics.error(GatewayError.LOGIN_TIMEOUT, connection, loginTimeoutDetail);
                close(connection);
                continue;
            }
            try
            {
                connection.server().keepAlive();
            }
            catch (final SendBufferFullException ex)
            {
                closeSlowConsumer(connection, ex);
            }
            catch (final IOException ex)
            {
                fail(connection, GatewayError.CONNECTION_FAILED, ex);
            }
            written += sendUnlessAwaitingWritable(connection);
        }
        return written;
    }

    /**
     * A step of the linger of every closed connection still lingering; its socket is closed when the linger is over.
     *
     * @param nowNs monotonic nanoseconds ({@link DutyCycleClock#nanoTime()}) of the duty cycle.
     * @return bytes written and read.
     */
    private int stepLingers(final long nowNs)
    {
        int bytes = 0;
        for (int i = lingering.size() - 1; i >= 0; i--)
        {
            final OuchConnection connection = lingering.get(i);
            final int step = connection.lingerStep(nowNs, discard);
            if (OuchConnection.LINGER_OVER == step)
            {
                lingering.remove(i);
                metrics.lingeringConnections.dec();
                CloseHelper.quietClose(connection.server());
            }
            else
            {
                bytes += step;
            }
        }
        return bytes;
    }

    /**
     * Writes what the socket takes of the connection's send buffer, unless the connection is closed or the selector
     * already watches for the socket to take more ({@link #onWritable}).
     *
     * @return bytes written.
     */
    private int sendUnlessAwaitingWritable(final OuchConnection connection)
    {
        return connection.isClosed() || connection.isAwaitingWritable() ? 0 : send(connection);
    }

    /**
     * @return true once a session journal has failed (a failed journal stays failed): the answers it lost are in no
     * journal, so the engine event positions must not move past them ({@link EngineEventStreams#onAnswersJournaled()}).
     */
    boolean isJournalFailed()
    {
        return journalFailed;
    }

    /**
     * Makes every session's journal durable ({@link JournalSync}), buffers a batch of journaled messages for each
     * logged-in client that has not had them yet, and writes what the socket takes of a send buffer that got messages,
     * unless the selector is already watching for the socket to take more: the answers go out before the duty cycle
     * reads new input.
     *
     * @return messages sent.
     */
    int flush()
    {
        int sent = 0;
        for (int i = 0, size = sessions.size(); i < size; i++)
        {
            final UserSession session = sessions.get(i);
            final int buffered = session.flush(REPLAY_BATCH);
            journalFailed |= session.journal().isFailed();
            if (isOver(session))
            {
                endSession(session.connection());
            }
            else if (buffered > 0 && null != session.connection())
            {
                sendUnlessAwaitingWritable(session.connection());
            }
            sent += buffered;
        }
        return sent;
    }

    /**
     * The trading day is over ({@link MarketClose}): journals the OUCH 4.2 System Event End of Day in every session of
     * the day that has not had it (a gateway restarted after the close finds it in the journals), after a Start of Day
     * in one that has no message yet, logged in or not, so that a client gets it live or in its replay; a session
     * created later gets it after its Start of Day. From the next {@link #flush} on, each logged-in session that has
     * been sent everything journaled, replays included, gets SoupBinTCP End of Session and its connection is closed.
     * Logins are still accepted, so that a client can fetch what it missed; each such session ends once its replay is
     * sent.
     */
    void endDay()
    {
        dayOver = true;
        lingeringCap = Math.max(lingeringCap, maxSessions + maxPendingLogins);
        for (int i = 0, size = sessions.size(); i < size; i++)
        {
            sessions.get(i).journalEndOfDay(ouch, clock.midnightNs());
        }
    }

    /** @return true when a session's journal holds the System Event End of Day: the day was closed before a restart. */
    boolean hasEndOfDay()
    {
        for (int i = 0, size = sessions.size(); i < size; i++)
        {
            if (sessions.get(i).hasEndOfDay())
            {
                return true;
            }
        }
        return false;
    }

    /**
     * SoupBinTCP Unsequenced Data: one OUCH message. Once the day has ended ({@link #endDay}), dropped and counted
     * ({@link GatewayError#AFTER_END_OF_DAY}): End of Day is the session's last message.
     *
     * @param connection the sender.
     * @param payload    the message.
     */
    void onMessage(final OuchConnection connection, final ByteBuffer payload)
    {
        if (connection.isClosed())
        {
            return;
        }
        final UserSession user = connection.user();
        if (null == user)
        {
            fail(connection, GatewayError.PROTOCOL_VIOLATION, "Unsequenced Data before login");
            return;
        }
        if (dayOver)
        {
            // End of Day, journaled for every session when the day ended, stays the session's last message; the
            // session ends once it has been sent everything.
            metrics.error(GatewayError.AFTER_END_OF_DAY, connection, "OUCH message dropped");
            return;
        }
        final int outcome = orderEntryAdapter.onMessage(user, payload);
        if (OrderEntryAdapter.UNKNOWN_TYPE == outcome)
        {
            fail(connection, GatewayError.UNKNOWN_MESSAGE_TYPE, "type " + (char)payload.get(payload.position()));
        }
        else if (OrderEntryAdapter.WRONG_LENGTH == outcome)
        {
            fail(connection, GatewayError.WRONG_LENGTH, "length " + payload.remaining());
        }
    }

    /**
     * SoupBinTCP Login Request.
     * <p>
     * A Requested Sequence Number that is not a number ({@link RequestedSequenceNumber}: blank, a sign, another byte
     * than a digit or a space) makes the packet malformed: the connection is closed and counted before any session is
     * created or session index taken.
     *
     * @param connection the sender.
     * @param request    the request.
     */
    void onLoginRequest(final OuchConnection connection, final SoupBinTCP.LoginRequest request)
    {
        if (connection.isClosed())
        {
            return;
        }
        if (null != connection.user())
        {
            fail(connection, GatewayError.PROTOCOL_VIOLATION, "second Login Request");
            return;
        }
        final long requestedSequenceNumber = requestedSequenceNumbers.read(request);
        if (RequestedSequenceNumber.MALFORMED == requestedSequenceNumber)
        {
            fail(connection, GatewayError.MALFORMED_PACKET, "Login Request: Requested Sequence Number " +
                requestedSequenceNumbers.text(request) + " is not a number");
            return;
        }
        final Credentials.User user = credentials.authenticate(
            request.getUsername().trim(), request.getPassword().trim());
        if (null == user)
        {
            rejectLogin(connection, SoupBinTCP.LOGIN_REJECT_CODE_NOT_AUTHORIZED);
            return;
        }
        if (loggedIn >= maxSessions)
        {
            metrics.error(GatewayError.SESSION_LIMIT, connection, sessionLimitDetail);
            rejectLogin(connection, SoupBinTCP.LOGIN_REJECT_CODE_SESSION_NOT_AVAILABLE);
            return;
        }
        final String notCaughtUp = eventCatchUp.notReadyReason();
        if (null != notCaughtUp)
        {
            metrics.error(GatewayError.EVENTS_NOT_CAUGHT_UP, connection, notCaughtUp);
            rejectLogin(connection, SoupBinTCP.LOGIN_REJECT_CODE_SESSION_NOT_AVAILABLE);
            return;
        }
        final String requestedSession = request.getRequestedSession().trim();
        UserSession session = users.get(user.username());
        if ((!requestedSession.isEmpty() && !requestedSession.equals(sessionName)) ||
            (null != session && (null != session.connection() || session.journal().isFailed())))
        {
            rejectLogin(connection, SoupBinTCP.LOGIN_REJECT_CODE_SESSION_NOT_AVAILABLE);
            return;
        }
        if ((null == session || !session.hasSessionIndex()) && sessionIndexes.isExhausted())
        {
            metrics.error(GatewayError.SESSION_LIMIT, connection, NO_SESSION_INDEX_DETAIL);
            rejectLogin(connection, SoupBinTCP.LOGIN_REJECT_CODE_SESSION_NOT_AVAILABLE);
            return;
        }
        if (null == session)
        {
            session = newSession(user);
        }
        if (null == session || !takeSessionIndex(session))
        {
            rejectLogin(connection, SoupBinTCP.LOGIN_REJECT_CODE_SESSION_NOT_AVAILABLE);
            return;
        }

        final long count = session.journal().count();
        final long next = firstToSend(requestedSequenceNumber, count);
        loginAccepted.setSession(sessionName);
        loginAccepted.setSequenceNumber(next);
        try
        {
            connection.server().accept(loginAccepted);
        }
        catch (final IOException ex)
        {
            fail(connection, GatewayError.CONNECTION_FAILED, ex);
            return;
        }
        connection.user(session);
        session.attach(connection, next);
        pendingLogins--;
        metrics.pendingLogins.dec();
        loggedIn++;
        metrics.sessions.inc();
        if (0 == count)
        {
            ouch.systemEvent(session, clock.midnightNs(), Ouch42.EVENT_START_OF_DAY);
        }
        if (dayOver)
        {
            session.journalEndOfDay(ouch, clock.midnightNs());
        }
        session.flush(REPLAY_BATCH);
    }

    /**
     * SoupBinTCP 4.0 Login Request, Requested Sequence Number: the next sequence number the client wants, or 0 for
     * live messages only. The spec words 0 as "start receiving the most recently generated message"; Bourse reads it,
     * as its issue 4 requires, as "from the next new message on", which no replay precedes.
     *
     * @param requested the Requested Sequence Number.
     * @param count     messages of the session so far, which is the sequence number of the most recently generated.
     * @return sequence number of the first message to send, 1..count + 1: the requested one; for 0 or a number past
     * the next new message, the next new message.
     */
    static long firstToSend(final long requested, final long count)
    {
        return requested <= 0 || requested > count + 1 ? count + 1 : requested;
    }

    /**
     * SoupBinTCP Logout Request: the connection is closed, the session stays for a later login.
     *
     * @param connection the sender.
     */
    void onLogoutRequest(final OuchConnection connection)
    {
        close(connection);
    }

    /**
     * Nothing read from the client for 15 seconds: the connection is closed, unless the gateway itself left the
     * client's input unread within the last heartbeat interval (the engine shards' command streams were full, see
     * {@link OuchConnection#readDeferred}): that client is not silent. nassau starts its 15 s timer again after this
     * call either way, so a client kept that way and silent after it is closed up to 15 s later than 15 s after its
     * last packet.
     *
     * @param connection the connection nassau has read nothing from for 15 seconds.
     */
    void onHeartbeatTimeout(final OuchConnection connection)
    {
        if (!connection.hasReadDeferredSince(clock.nanoTime() - HEARTBEAT_INTERVAL_NS))
        {
            close(connection);
        }
    }

    /**
     * Closes a connection after an error, counting it: after what its session journaled, without End of Session, as
     * the session goes on.
     *
     * @param connection the connection.
     * @param error      the kind.
     * @param cause      what happened.
     */
    void fail(final OuchConnection connection, final GatewayError error, final Object cause)
    {
        if (!connection.isClosed())
        {
            metrics.error(error, connection, cause);
            close(connection);
        }
    }

    /**
     * Closes a slow consumer's connection, counting it: its send buffer could not take a packet. The whole packets its
     * socket has not begun to take are dropped (the journal keeps them for a replay), so that the last bytes the client
     * gets end the packet under way; no End of Session, as the session goes on.
     *
     * @param connection the connection.
     * @param cause      the write that did not fit.
     */
    void closeSlowConsumer(final OuchConnection connection, final SendBufferFullException cause)
    {
        if (!connection.isClosed())
        {
            metrics.slowConsumerDisconnects.inc();
            metrics.error(GatewayError.SLOW_CONSUMER, connection, cause);
            connection.markClosed();
            connection.discardUnsent();
            release(connection);
        }
    }

    /**
     * Ends every session (SoupBinTCP End of Session, after what it journaled for its client) and leaves every
     * connection lingering, as many as there are: the day's sessions are over, no connection comes after.
     */
    void endAll()
    {
        lingeringCap = Integer.MAX_VALUE;
        for (int i = connections.size() - 1; i >= 0; i--)
        {
            endSession(connections.get(i));
        }
    }

    /**
     * The gateway is stopping: closes every connection after what its session journaled, without End of Session,
     * since the session goes on when the gateway starts again (the same day's journals): its client logs in again and
     * has what it missed replayed, the cancels on disconnect of this stop among them. Only a logged-in session that has
     * then been sent everything once the trading day is over ({@link #endDay()}) is ended (End of Session), as
     * {@link #flush} would have; a login still awaiting its answer is closed unanswered. Every connection is left
     * lingering.
     */
    void closeAllAtStop()
    {
        lingeringCap = Integer.MAX_VALUE;
        for (int i = connections.size() - 1; i >= 0; i--)
        {
            final OuchConnection connection = connections.get(i);
            sendJournaled(connection);
            if (connection.isClosed())
            {
                continue; // a slow consumer, closed by that send
            }
            final UserSession user = connection.user();
            if (null != user && isOver(user))
            {
                endSession(connection);
            }
            else
            {
                close(connection);
            }
        }
    }

    /**
     * At the rollover, before {@link #endAll()}: the next day's registry takes over the connections still awaiting
     * their login, which is then answered there (a blank session logs in to the next day, the closed day's is refused
     * 'S'), instead of their being ended with End of Session and no answer to a Login Request already on its way.
     *
     * @param next the registry of the next trading day.
     */
    void handPendingLoginsTo(final SessionRegistry next)
    {
        for (int i = connections.size() - 1; i >= 0; i--)
        {
            final OuchConnection connection = connections.get(i);
            if (null == connection.user() && !connection.isClosed())
            {
                connections.remove(i);
                pendingLogins--;
                connection.registry(next);
                next.connections.add(connection);
                next.pendingLogins++; // the gauge counts the gateway's, unchanged
            }
        }
    }

    /**
     * The next day's registry takes over this closed day's lingering connections, which go on lingering there.
     *
     * @param next the registry of the next trading day.
     */
    void handLingeringTo(final SessionRegistry next)
    {
        next.lingering.addAll(lingering);
        lingering.clear();
    }

    /**
     * The gateway is stopping, after {@link #closeAllAtStop()}, while it waits for its engine shards' answers: a step
     * of the linger of every closed connection still lingering, as a duty cycle takes ({@link #lingerAtStop()} takes
     * the rest).
     *
     * @return bytes written and read.
     */
    int stepLingersAtStop()
    {
        return stepLingers(clock.nanoTime());
    }

    /**
     * The gateway is stopping, after {@link #closeAllAtStop()} and its wait for its engine shards' answers (1 s at
     * most, during which the lingers step on, {@link #stepLingersAtStop()}): steps the lingering connections, a
     * millisecond apart while no byte moves, until each client has taken what its send buffer held and closed its end,
     * or its linger deadline has passed ({@code endOfSessionLingerNs} from its end), for {@value #STOP_LINGER_LIMIT_MS}
     * ms at most (with that wait within Agrona's 5 s wait for an agent to close and Docker's 10 s stop grace period);
     * then closes those still open.
     */
    void lingerAtStop()
    {
        clock.update();
        final long limitNs = clock.nanoTime() + TimeUnit.MILLISECONDS.toNanos(STOP_LINGER_LIMIT_MS);
        while (!lingering.isEmpty() && clock.nanoTime() - limitNs < 0)
        {
            if (0 == stepLingers(clock.nanoTime()) && !lingering.isEmpty())
            {
                LockSupport.parkNanos(STOP_LINGER_IDLE_NS);
            }
            clock.update();
        }
        for (final OuchConnection connection : lingering)
        {
            CloseHelper.quietClose(connection.server());
            metrics.lingeringConnections.dec();
        }
        lingering.clear();
    }

    /**
     * @return true when the session is over, so that End of Session is due (SoupBinTCP 4.0 §1.4: no reconnecting to it
     * after): the trading day is over ({@link #endDay()}) and the session has been sent everything journaled, End of
     * Day last.
     */
    private boolean isOver(final UserSession session)
    {
        return dayOver && session.isAllSent();
    }

    /**
     * The session is over (the trading day ended): sends what it journaled for the client, then End of Session
     * (SoupBinTCP 4.0 §2.2.5), then closes the connection.
     *
     * @param connection the connection.
     */
    private void endSession(final OuchConnection connection)
    {
        connection.markClosed();
        sendJournaled(connection);
        sendEndOfSession(connection);
        release(connection);
    }

    private void rejectLogin(final OuchConnection connection, final byte reason)
    {
        metrics.loginFailures.inc();
        loginRejected.setRejectReasonCode(reason);
        try
        {
            connection.server().reject(loginRejected);
        }
        catch (final IOException ignore)
        {
            // The connection is closed next either way.
        }
        close(connection);
    }

    /**
     * Sends End of Session; when the send buffer has no room left for its 3 bytes, the whole packets the socket has not
     * begun to take are dropped first (the journal keeps them for a replay), so that it still comes last.
     */
    private static void sendEndOfSession(final OuchConnection connection)
    {
        try
        {
            try
            {
                connection.server().endSession();
            }
            catch (final SendBufferFullException ex)
            {
                connection.discardUnsent();
                connection.server().endSession();
            }
        }
        catch (final IOException ignore)
        {
            // The connection is being closed; the client learns from the close.
        }
    }

    private int send(final OuchConnection connection)
    {
        try
        {
            return connection.flush();
        }
        catch (final IOException ex)
        {
            fail(connection, GatewayError.CONNECTION_FAILED, ex);
            return 0;
        }
    }

    /** Sends what the session journaled for the client, then closes the connection. */
    private void close(final OuchConnection connection)
    {
        if (connection.isClosed())
        {
            return;
        }
        connection.markClosed();
        sendJournaled(connection);
        release(connection);
    }

    /**
     * Writes the journal and buffers the messages of a logged-in connection's session it has not had yet (those
     * journaled in this duty cycle, before the packet that closes it): a connection marked closed is not failed again
     * when a send fails.
     */
    private static void sendJournaled(final OuchConnection connection)
    {
        final UserSession user = connection.user();
        if (null != user)
        {
            user.flush(REPLAY_BATCH);
        }
    }

    /** Sends what the socket takes of the send buffer, ends the session's binding and closes the channel. */
    private void release(final OuchConnection connection)
    {
        connection.flushBeforeClose();
        final UserSession user = connection.user();
        if (null != user)
        {
            user.detach();
            loggedIn--;
            metrics.sessions.dec();
            orderEntryAdapter.onSessionEnd(user);
        }
        else
        {
            pendingLogins--;
            metrics.pendingLogins.dec();
        }
        connections.remove(connection);
        if (endOfSessionLingerNs > 0)
        {
            if (lingering.size() >= lingeringCap)
            {
                // The oldest lingering socket closes early, so that sockets and send buffers stay bounded.
                CloseHelper.quietClose(lingering.removeFirst().server());
                metrics.lingeringConnections.dec();
            }
            connection.linger(clock.nanoTime() + endOfSessionLingerNs);
            lingering.add(connection);
            metrics.lingeringConnections.inc();
        }
        else
        {
            CloseHelper.quietClose(connection.server());
        }
    }

    /** @return a session for the first login of a user without a journal, or null if that failed. */
    private UserSession newSession(final Credentials.User user)
    {
        try
        {
            return newSession(user.username(), Ouch42.packFirm(user.firm()), journals.journal(user.username()));
        }
        catch (final IOException ex)
        {
            metrics.error(GatewayError.JOURNAL_FAILED, user.username(), ex);
            return null;
        }
    }

    /** @return the user's session for the day, without a session index until its first login. */
    private UserSession newSession(final String username, final int firm, final SessionJournal journal)
    {
        final UserSession session = new UserSession(username, firm, gatewayId, 0, shardCount, journal, metrics);
        users.put(username, session);
        sessions.add(session);
        return session;
    }

    /**
     * At a session's first login since the gateway started: gives it a session index never used today, recorded in its
     * journal first (forced under {@link JournalSync#BATCH}), so that a later gateway takes indexes past it.
     *
     * @return false when the journal could not record it (counted; the index stays free): the login is refused.
     */
    private boolean takeSessionIndex(final UserSession session)
    {
        if (session.hasSessionIndex())
        {
            return true;
        }
        final int sessionIndex = sessionIndexes.next();
        try
        {
            session.journal().sessionIndex(sessionIndex);
        }
        catch (final IOException ex)
        {
            metrics.error(GatewayError.JOURNAL_FAILED, session.username(), ex);
            return false;
        }
        session.sessionIndex(sessionIndexes.take());
        return true;
    }
}
