package io.bourse.gateway;

import java.io.IOException;

/**
 * One user's SoupBinTCP session for the trading day: the sequenced messages produced for it (kept across
 * connections, so a client can log in again and resume), the connection currently logged in as this user if any,
 * the day's Order Tokens, and the clientOrderId prefix ({@code gatewayId << 56 | sessionIndex << 32}) of its orders.
 * Used only by the gateway agent thread.
 */
final class UserSession
{
    private final String username;
    private final int firm;
    private final long clientOrderIdBase;
    private final MessageStore store;
    private final TokenIndex tokens;
    private OuchConnection connection;
    private long nextToSend;
    private long orderCount;

    /**
     * @param username     the SoupBinTCP username.
     * @param firm         the user's OUCH 4.2 Firm, 4 ASCII bytes as a big-endian int.
     * @param gatewayId    1..255, the top byte of every clientOrderId.
     * @param sessionIndex 1..2^24-1, unique in this gateway for the day.
     */
    UserSession(final String username, final int firm, final int gatewayId, final int sessionIndex)
    {
        this.username = username;
        this.firm = firm;
        this.clientOrderIdBase = ((long)gatewayId << 56) | ((long)sessionIndex << 32);
        this.store = new MessageStore(64 * 1024);
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
    MessageStore store()
    {
        return store;
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
     * Binds a connection that just logged in.
     *
     * @param connection     the connection.
     * @param nextToSend     sequence number of the first message it gets (1..count + 1).
     */
    void attach(final OuchConnection connection, final long nextToSend)
    {
        this.connection = connection;
        this.nextToSend = nextToSend;
    }

    /** Forgets the connection; the messages stay for the next login. */
    void detach()
    {
        connection = null;
    }

    /**
     * Appends the message encoded at the offset returned by {@code store().claim(length)}, and sends it at once
     * when the connection is up to date.
     *
     * @param length of the message in bytes.
     */
    void commit(final int length)
    {
        final long sequenceNumber = store.commit(length);
        if (null != connection && nextToSend == sequenceNumber)
        {
            sendNext();
        }
    }

    /**
     * Sends stored messages the connection has not had yet (a replay after login).
     *
     * @param limit most messages to send in this call, so one replay cannot hold up the other sessions.
     * @return messages sent.
     */
    int flush(final int limit)
    {
        int sent = 0;
        while (sent < limit && null != connection && nextToSend <= store.count())
        {
            sendNext();
            sent++;
        }
        return sent;
    }

    private void sendNext()
    {
        final OuchConnection target = connection;
        try
        {
            target.sendSequenced(store.message(nextToSend));
            nextToSend++;
        }
        catch (final IOException ex)
        {
            target.fail(GatewayError.CONNECTION_FAILED, ex);
        }
    }
}
