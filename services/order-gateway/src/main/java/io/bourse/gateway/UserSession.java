package io.bourse.gateway;

import io.bourse.common.net.SendBufferFullException;
import io.bourse.ouch.Ouch42;
import io.bourse.ouch.OrderReplaced;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * One user's SoupBinTCP session for the trading day: its {@link SessionJournal} of sequenced messages (kept across
 * connections and gateway restarts, so a client can log in again and resume), the connection currently logged in as
 * this user if any, the day's Order Tokens, and the clientOrderId prefix ({@code gatewayId << 56 | sessionIndex << 32})
 * of its orders. A message is sent only once it is in the journal and durable under the {@link JournalSync} policy:
 * the messages of a duty cycle are written to the journal file together ({@link #flush}), and under {@code batch}
 * also forced, before any of them is sent. Also keeps, per engine shard, the sequence number of the last engine event
 * its messages answered, journaled after the messages of each duty cycle ({@link OrderRecords#EVENT_SEQUENCES}), so
 * that a gateway restarted on the journal knows which events it has answered already ({@link #isAnswered}). Used only
 * by the gateway agent thread.
 */
final class UserSession
{
    private static final long SESSION_INDEX_MASK = (long)SessionIndexes.MAX_SESSION_INDEX << 32;
    /**
     * Journal bytes the answers of one engine event take at most in one session: for each of an execution's two
     * orders (both may be the session's), its answer and an Order Modified for each of its pending Modify Orders,
     * each record no longer than an Order Replaced (an engine rejection's Rejected and Order Rejected record take
     * less).
     */
    private static final int EVENT_ANSWER_LENGTH =
        2 * (1 + OrderState.MAX_PENDING_MODIFIES) * (SessionJournal.RECORD_HEADER_LENGTH + OrderReplaced.LENGTH);

    private final String username;
    private final int firm;
    private long clientOrderIdBase;
    private final SessionJournal journal;
    private final TokenIndex tokens;
    private final GatewayMetrics metrics;
    /** Per shard: the last event answered in the journal when the gateway started; later events are new. */
    private final long[] answeredBeforeStart;
    /** Per shard: the Aeron session id of the engine stream {@link #answeredBeforeStart} counts in. */
    private final int[] engineStreamBeforeStart;
    /** Per shard: the last event answered. */
    private final long[] answered;
    /** Per shard: the Aeron session id of the engine stream of the last event answered. */
    private final int[] engineStreams;
    private boolean answeredChanged;
    /** Journal batch room an engine event's answers start with: theirs, then an Event Sequences record's. */
    private final int answerRoom;
    private OuchConnection connection;
    private long nextToSend;
    private long replayEnd;
    /**
     * True from a login with a replay until the session has been sent everything journaled once and its send buffer
     * has half its room again: the messages journaled meanwhile are owed history too, sent paced like it
     * ({@link #flush}).
     */
    private boolean catchingUp;
    private long orderCount;
    private boolean endOfDayJournaled;
    /** True once this process journaled the session's Media Driver record ({@link OrderRecords#MEDIA_DRIVER}). */
    private boolean mediaDriverJournaled;

    /**
     * @param username     the SoupBinTCP username.
     * @param firm         the user's OUCH 4.2 Firm, 4 ASCII bytes as a big-endian int.
     * @param gatewayId    1..255, the top byte of every clientOrderId.
     * @param sessionIndex 1..2^24-1, never used before by this gateway id for the day (also not before a restart); or
     *                     0 for none yet: the session then takes one at its first login ({@link #sessionIndex(int)}).
     * @param shardCount   engine shards the gateway hears, 1..{@value OrderRecords#MAX_SEQUENCE_SHARDS}.
     * @param journal      the session's journal, possibly holding messages from before a restart.
     * @param metrics      counts journal writes, replays and errors.
     * @throws IllegalArgumentException for more shards than an Event Sequences record holds.
     */
    UserSession(
        final String username,
        final int firm,
        final int gatewayId,
        final int sessionIndex,
        final int shardCount,
        final SessionJournal journal,
        final GatewayMetrics metrics)
    {
        if (shardCount < 1 || shardCount > OrderRecords.MAX_SEQUENCE_SHARDS)
        {
            throw new IllegalArgumentException(
                "shard count must be 1.." + OrderRecords.MAX_SEQUENCE_SHARDS + ": " + shardCount);
        }
        this.username = username;
        this.firm = firm;
        this.clientOrderIdBase = ((long)gatewayId << 56) | ((long)sessionIndex << 32);
        this.journal = journal;
        this.metrics = metrics;
        this.tokens = new TokenIndex(1024);
        this.answeredBeforeStart = new long[shardCount];
        this.engineStreamBeforeStart = new int[shardCount];
        this.answered = new long[shardCount];
        this.engineStreams = new int[shardCount];
        this.answerRoom = EVENT_ANSWER_LENGTH + SessionJournal.RECORD_HEADER_LENGTH +
            OrderRecords.eventSequencesLength(shardCount);
    }

    /** @return the username. */
    String username()
    {
        return username;
    }

    /** @return the user's firm as a big-endian int of 4 ASCII bytes. */
    int firm()
    {
        return firm;
    }

    /** @return the day's Order Tokens of this session. */
    TokenIndex tokens()
    {
        return tokens;
    }

    /** @return the sequenced messages. */
    SessionJournal journal()
    {
        return journal;
    }

    /** @return true once the session has its session index, the prefix of the clientOrderIds of its new orders. */
    boolean hasSessionIndex()
    {
        return 0 != (clientOrderIdBase & SESSION_INDEX_MASK);
    }

    /**
     * Gives a session created without a session index its index, before its first order.
     *
     * @param sessionIndex 1..2^24-1, never used before by this gateway id for the day ({@link SessionIndexes}).
     * @throws IllegalStateException when the session has an index already.
     */
    void sessionIndex(final int sessionIndex)
    {
        if (hasSessionIndex())
        {
            throw new IllegalStateException(username + " has a session index already");
        }
        clientOrderIdBase |= ((long)sessionIndex << 32) & SESSION_INDEX_MASK;
    }

    /**
     * @return a new clientOrderId: prefix and a per-session count from 1.
     * @throws IllegalStateException when the session has no session index yet (no client has logged in to it since
     * the gateway started, so no order can come from it).
     */
    long nextClientOrderId()
    {
        if (!hasSessionIndex())
        {
            throw new IllegalStateException(username + " has no session index yet");
        }
        return clientOrderIdBase | (++orderCount & 0xFFFF_FFFFL);
    }

    /**
     * @param shardId        the engine shard of the event.
     * @param engineStream   the Aeron session id of the shard's event stream the event came on: a new run of the
     *                       engine publishes a new stream and numbers its events from 1 again.
     * @param sequenceNumber the event's shard sequence number.
     * @return true when the session's journal already answers the event: it was answered before the gateway started
     * and is heard again on the same engine stream, or it comes before the last event the session answered since on
     * that stream (a replay from an event position that went stale while the gateway ran). The last answered event
     * itself cannot be told from a second order of that same event (an execution between two of the session's
     * orders), so a replay's last event is answered again.
     */
    boolean isAnswered(final int shardId, final int engineStream, final long sequenceNumber)
    {
        return (engineStream == engineStreamBeforeStart[shardId] && sequenceNumber <= answeredBeforeStart[shardId]) ||
            (engineStream == engineStreams[shardId] && sequenceNumber < answered[shardId]);
    }

    /**
     * An engine event is answered with messages of this session, which it journals next; journaled after them at the
     * next {@link #flush}. When the journal's batch has too little room left for the event's answers and an Event
     * Sequences record, it is written now, ending with the record of the events answered so far: a batch written in
     * the middle of the duty cycle (a crash of the process keeps it) then never holds answers the journal does not
     * say are given, which a restarted gateway hearing the events again would give twice, nor only part of an
     * event's answers. A second call for the same event (an execution's two orders, both the session's) comes before
     * its answers, within the room the first one made.
     *
     * @param shardId        the engine shard of the event.
     * @param engineStream   the Aeron session id of the shard's event stream the event came on.
     * @param sequenceNumber the event's shard sequence number.
     */
    void onAnswered(final int shardId, final int engineStream, final long sequenceNumber)
    {
        // The event answered last on the shard, when it is this one: the second call (the journal's state at a start
        // is never answered again, isAnswered).
        final boolean sameEvent = engineStream == engineStreams[shardId] && sequenceNumber == answered[shardId];
        if (!sameEvent && journal.batchRoom() < answerRoom)
        {
            writeBatchWithAnswered();
        }
        answered[shardId] = sequenceNumber;
        engineStreams[shardId] = engineStream;
        answeredChanged = true;
    }

    /**
     * Rebuilding at start-up: an Event Sequences record of the journal ({@link OrderRecords#EVENT_SEQUENCES}); shards
     * beyond the gateway's are ignored.
     *
     * @param buffer holding the record.
     * @param offset of the record.
     */
    void restoreAnswered(final DirectBuffer buffer, final int offset)
    {
        final int shardCount = Math.min(answered.length,
            buffer.getShort(offset + OrderRecords.SHARD_COUNT_OFFSET, OrderRecords.ORDER) & 0xFFFF);
        for (int shard = 0; shard < shardCount; shard++)
        {
            final int entry = offset + OrderRecords.SEQUENCES_OFFSET + shard * OrderRecords.SEQUENCE_ENTRY_LENGTH;
            final long sequenceNumber = buffer.getLong(entry + OrderRecords.SEQUENCE_NUMBER_OFFSET, OrderRecords.ORDER);
            final int engineStream = buffer.getInt(entry + OrderRecords.ENGINE_STREAM_OFFSET, OrderRecords.ORDER);
            answeredBeforeStart[shard] = sequenceNumber;
            engineStreamBeforeStart[shard] = engineStream;
            answered[shard] = sequenceNumber;
            engineStreams[shard] = engineStream;
        }
    }

    /** @return the connection logged in as this user, or null. */
    OuchConnection connection()
    {
        return connection;
    }

    /**
     * Binds a connection that just logged in; the messages journaled so far from {@code nextToSend} on are a replay.
     *
     * @param connection the connection.
     * @param nextToSend sequence number of the first message it gets (1..count + 1).
     */
    void attach(final OuchConnection connection, final long nextToSend)
    {
        this.connection = connection;
        this.nextToSend = nextToSend;
        this.replayEnd = journal.count();
        this.catchingUp = nextToSend <= replayEnd;
    }

    /**
     * @return true when a connection is logged in and has been sent (buffered) every message journaled: nothing of a
     * replay is left.
     */
    boolean isAllSent()
    {
        return null != connection && nextToSend > journal.count();
    }

    /** @return true once the journal holds the OUCH 4.2 System Event End of Day ({@link MarketClose}). */
    boolean hasEndOfDay()
    {
        return endOfDayJournaled;
    }

    /**
     * Journals the OUCH 4.2 System Event End of Day, after a Start of Day when the session has no message yet, unless
     * the journal holds it already or failed: the session's last message, as no message is journaled after it
     * ({@link #commit}).
     *
     * @param ouch        the encoder.
     * @param timestampNs the events' time, ns since the midnight UTC of the gateway's start.
     */
    void journalEndOfDay(final OuchProxy ouch, final long timestampNs)
    {
        if (!endOfDayJournaled && !journal.isFailed())
        {
            if (0 == journal.count())
            {
                ouch.systemEvent(this, timestampNs, Ouch42.EVENT_START_OF_DAY);
            }
            ouch.systemEvent(this, timestampNs, Ouch42.EVENT_END_OF_DAY);
            endOfDayJournaled = true;
        }
    }

    /** Records that the journal holds the OUCH 4.2 System Event End of Day, journaled before a restart. */
    void endOfDayJournaled()
    {
        endOfDayJournaled = true;
    }

    /**
     * @return true once this gateway process journaled the session's Media Driver record, which its orders sent from
     *         then on follow ({@link OrderRecordProxy}).
     */
    boolean hasMediaDriverJournaled()
    {
        return mediaDriverJournaled;
    }

    /** Records that this gateway process journaled the session's Media Driver record. */
    void mediaDriverJournaled()
    {
        mediaDriverJournaled = true;
    }

    /** Forgets the connection; the messages stay for the next login. */
    void detach()
    {
        connection = null;
    }

    /**
     * Journals the message encoded at the offset returned by {@code journal().claim(length)}; the duty cycle's
     * {@link #flush} writes it to the file and sends it. A message for a failed journal is lost and counted as an
     * error. So is one after the session's System Event End of Day, which no message follows (OUCH 4.2):
     * {@link GatewayError#ANSWER_AFTER_END_OF_DAY}, logged with its message type the first time.
     *
     * @param length of the message in bytes.
     * @return true when journaled; false when dropped.
     */
    boolean commit(final int length)
    {
        if (endOfDayJournaled)
        {
            metrics.errors().error(GatewayError.ANSWER_AFTER_END_OF_DAY, username, UserSession::droppedAfterEndOfDay,
                journal.buffer().getByte(journal.claimedOffset()));
            return false;
        }
        if (append(length, false))
        {
            metrics.journalRecords.inc();
            return true;
        }
        return false;
    }

    private static String droppedAfterEndOfDay(final long messageType)
    {
        return "OUCH message '" + (char)messageType + "' dropped: the session had its System Event End of Day, " +
            "the last message of its day";
    }

    /**
     * Journals the gateway-private record ({@link OrderRecords}) encoded at the offset returned by {@code
     * journal().claim(length)}; it is written at the duty cycle's {@link #flush} (forced with the next message) and
     * never sent. A record for a failed journal is lost and counted as an error.
     *
     * @param length of the record in bytes.
     */
    void commitPrivate(final int length)
    {
        append(length, true);
    }

    /**
     * Journals the engine events answered since the last call ({@link OrderRecords#EVENT_SEQUENCES}), makes the
     * journal durable (one copy of the messages committed since the last call into the journal file's mapping, and a
     * force under {@code batch}), then sends journaled messages the connection has not had yet: a replay after login,
     * then the messages of this duty cycle. A replay goes only as fast as the connection's send buffer empties (it
     * stops at the first message that does not fit, and resumes on a later call), and so do the messages journaled
     * while it ran, until the session has been sent everything once and its send buffer has drained to half (the
     * paced replay leaves it nearly full: a burst of answers met it there and ended a client reading steadily as a
     * slow consumer); after that, a message that does not fit makes the connection a slow consumer.
     *
     * @param replayLimit most replayed messages to send in this call, so one replay cannot hold up the other sessions.
     * @return messages sent.
     */
    int flush(final int replayLimit)
    {
        if (journal.isFailed())
        {
            return 0;
        }
        if (catchingUp && null != connection && nextToSend > journal.durableCount() && connection.hasBurstMargin())
        {
            // Sent everything of the cycles before, and the socket has taken what they left: caught up. Judged before
            // this cycle's messages are buffered (they may fill half the buffer, which would keep a session paced for
            // good); from here on a message that does not fit makes a slow consumer.
            catchingUp = false;
        }
        if (answeredChanged)
        {
            journalAnswered();
        }
        try
        {
            if (journal.sync())
            {
                metrics.journalSyncs.inc();
            }
        }
        catch (final IOException ex)
        {
            failJournal(ex);
            return 0;
        }
        int sent = 0;
        int replayed = 0;
        while (null != connection && nextToSend <= journal.durableCount())
        {
            if (catchingUp && nextToSend > replayEnd)
            {
                // Journaled while the replay ran, behind it: paced too. Sent at once, the messages due at its end met
                // a send buffer the paced replay keeps nearly full, and a slow reader was ended as a slow consumer.
                replayEnd = journal.durableCount();
            }
            final boolean replay = nextToSend <= replayEnd;
            if ((replay && replayed == replayLimit) || !sendNext(replay))
            {
                break;
            }
            sent++;
            replayed += replay ? 1 : 0;
        }
        return sent;
    }

    /**
     * @param paced true to leave the message for later when the send buffer has no room for it, false to treat that
     *              as a slow consumer.
     * @return true when the message was sent (buffered); false when it was left for later or the connection failed.
     */
    private boolean sendNext(final boolean paced)
    {
        final OuchConnection target = connection;
        final ByteBuffer message;
        try
        {
            message = journal.message(nextToSend);
        }
        catch (final IOException ex)
        {
            target.fail(GatewayError.JOURNAL_FAILED, ex);
            return false;
        }
        if (paced && !target.canBuffer(message.remaining()))
        {
            return false;
        }
        try
        {
            target.sendSequenced(message);
        }
        catch (final SendBufferFullException ex)
        {
            target.closeSlowConsumer(ex);
            return false;
        }
        catch (final IOException ex)
        {
            target.fail(GatewayError.CONNECTION_FAILED, ex);
            return false;
        }
        if (nextToSend <= replayEnd)
        {
            metrics.replayedMessages.inc();
        }
        nextToSend++;
        return true;
    }

    /** Writes the journal's batch into the file ahead of a duty cycle's end, after the events it answers. */
    private void writeBatchWithAnswered()
    {
        if (journal.isFailed())
        {
            return;
        }
        if (answeredChanged)
        {
            journalAnswered();
        }
        try
        {
            journal.writeBatch();
        }
        catch (final IOException ex)
        {
            failJournal(ex);
        }
    }

    private void journalAnswered()
    {
        answeredChanged = false;
        final int length = OrderRecords.eventSequencesLength(answered.length);
        final int offset = journal.claim(length);
        final MutableDirectBuffer buffer = journal.buffer();
        buffer.setMemory(offset, OrderRecords.SEQUENCES_OFFSET, (byte)0);
        buffer.putByte(offset + OrderRecords.RECORD_TYPE_OFFSET, OrderRecords.EVENT_SEQUENCES);
        buffer.putShort(offset + OrderRecords.SHARD_COUNT_OFFSET, (short)answered.length, OrderRecords.ORDER);
        for (int shard = 0; shard < answered.length; shard++)
        {
            final int entry = offset + OrderRecords.SEQUENCES_OFFSET + shard * OrderRecords.SEQUENCE_ENTRY_LENGTH;
            buffer.putLong(entry + OrderRecords.SEQUENCE_NUMBER_OFFSET, answered[shard], OrderRecords.ORDER);
            buffer.putInt(entry + OrderRecords.ENGINE_STREAM_OFFSET, engineStreams[shard], OrderRecords.ORDER);
            buffer.putInt(entry + OrderRecords.ENGINE_STREAM_OFFSET + Integer.BYTES, 0, OrderRecords.ORDER);
        }
        append(length, true);
    }

    private boolean append(final int length, final boolean isPrivate)
    {
        if (journal.isFailed())
        {
            metrics.error(GatewayError.JOURNAL_FAILED, username, "journal failed earlier, record lost");
            return false;
        }
        try
        {
            if (isPrivate)
            {
                journal.commitPrivate(length);
            }
            else
            {
                journal.commit(length);
            }
        }
        catch (final IOException ex)
        {
            failJournal(ex);
            return false;
        }
        metrics.journalWrittenBytes.inc(SessionJournal.RECORD_HEADER_LENGTH + length);
        return true;
    }

    private void failJournal(final IOException ex)
    {
        if (null != connection)
        {
            connection.fail(GatewayError.JOURNAL_FAILED, ex);
        }
        else
        {
            metrics.error(GatewayError.JOURNAL_FAILED, username, ex);
        }
    }
}
