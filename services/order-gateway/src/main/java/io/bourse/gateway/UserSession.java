package io.bourse.gateway;

import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * One user's SoupBinTCP session for the trading day: its {@link SessionJournal} of sequenced messages (kept across
 * connections and gateway restarts, so a client can log in again and resume), the connection currently logged in as
 * this user if any, the day's Order Tokens, and the clientOrderId prefix ({@code gatewayId << 56 | sessionIndex << 32})
 * of its orders. A message is sent only once it is in the journal and durable under the {@link JournalSync} policy:
 * the messages of a duty cycle are written to the journal file together ({@link #flush}), and under {@code batch}
 * also forced, before any of them is sent. Used only by the gateway agent thread.
 */
final class UserSession
{
    private final String username;
    private final int firm;
    private final long clientOrderIdBase;
    private final SessionJournal journal;
    private final TokenIndex tokens;
    private final GatewayMetrics metrics;
    private OuchConnection connection;
    private long nextToSend;
    private long replayEnd;
    private long orderCount;

    /**
     * @param username     the SoupBinTCP username.
     * @param firm         the user's OUCH 4.2 Firm, 4 ASCII bytes as a big-endian int.
     * @param gatewayId    1..255, the top byte of every clientOrderId.
     * @param sessionIndex 1..2^24-1, never used before by this gateway id for the day (also not before a restart).
     * @param journal      the session's journal, possibly holding messages from before a restart.
     * @param metrics      counts journal writes, replays and errors.
     */
    UserSession(
        final String username,
        final int firm,
        final int gatewayId,
        final int sessionIndex,
        final SessionJournal journal,
        final GatewayMetrics metrics)
    {
        this.username = username;
        this.firm = firm;
        this.clientOrderIdBase = ((long)gatewayId << 56) | ((long)sessionIndex << 32);
        this.journal = journal;
        this.metrics = metrics;
        this.tokens = new TokenIndex(1024);
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

    /** @return a new clientOrderId: prefix and a per-session count from 1. */
    long nextClientOrderId()
    {
        return clientOrderIdBase | (++orderCount & 0xFFFF_FFFFL);
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
    }

    /** Forgets the connection; the messages stay for the next login. */
    void detach()
    {
        connection = null;
    }

    /**
     * Journals the message encoded at the offset returned by {@code journal().claim(length)}; the duty cycle's
     * {@link #flush} writes it to the file and sends it. A message for a failed journal is lost and counted as an
     * error.
     *
     * @param length of the message in bytes.
     */
    void commit(final int length)
    {
        if (journal.isFailed())
        {
            metrics.error(GatewayError.JOURNAL_FAILED, username, "journal failed earlier, message lost");
            return;
        }
        try
        {
            journal.commit(length);
        }
        catch (final IOException ex)
        {
            failJournal(ex);
            return;
        }
        metrics.journalRecords.inc();
        metrics.journalWrittenBytes.inc(SessionJournal.RECORD_HEADER_LENGTH + length);
    }

    /**
     * Makes the journal durable (one write of the messages committed since the last call, and a force under
     * {@code batch}), then sends journaled messages the connection has not had yet: a replay after login, then the
     * messages of this duty cycle. A replay goes only as fast as the connection's send buffer empties (it stops at
     * the first message that does not fit, and resumes on a later call); a message produced since the login that does
     * not fit makes the connection a slow consumer.
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
            target.endSlowConsumer(ex);
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
