package io.bourse.bench;

import com.paritytrading.nassau.MessageListener;
import com.paritytrading.nassau.soupbintcp.SoupBinTCP;
import com.paritytrading.nassau.soupbintcp.SoupBinTCPClient;
import com.paritytrading.nassau.soupbintcp.SoupBinTCPClientStatusListener;
import io.bourse.common.config.Credentials;
import io.bourse.ouch.EnterOrder;
import io.bourse.ouch.OrderAccepted;
import io.bourse.ouch.OrderExecuted;
import io.bourse.ouch.OrderRejected;
import io.bourse.ouch.Ouch42;
import io.bourse.simulator.OrderTokens;
import org.agrona.CloseHelper;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * An OUCH 4.2 session to the order gateway over SoupBinTCP 4.0: logs in (nassau's client), then sends Enter Orders as
 * Unsequenced Data packets it frames itself into the send buffer (so that a socket that takes only part of them never
 * blocks the client thread, which nassau's send would), and reads the answers through nassau's client. Accepted ends
 * an Enter Order's round trip; Executed is counted; anything else (Rejected, Canceled, an unknown token) is an error.
 *
 * <p>The orders keep the book small: order {@code 2p} of the schedule buys and order {@code 2p + 1} sells 100 shares
 * of the same symbol (symbol {@code p} modulo the symbols, one per shard) at the same price, $100.00, as day orders,
 * so every pair trades and each order ends fully executed. Orders go round robin over the sessions, so the two of a
 * pair are usually of two sessions (users of firms of their own; self-trade prevention is off in any case); whichever
 * reaches the engine first rests until the other takes it.
 */
final class OuchOrderConnection extends RoundTripConnection implements MessageListener, SoupBinTCPClientStatusListener
{
    /**
     * The answers an end-to-end measurement follows beside the round trip ({@link EndToEndLatency}); called on the
     * client thread as each answer is read.
     */
    interface OrderEvents
    {
        /** Follows nothing: the gateway benchmark. */
        OrderEvents NONE = new OrderEvents()
        {
            @Override
            public void onAccepted(final long counter, final long orderReferenceNumber, final long intendedNs)
            {
            }

            @Override
            public void onExecuted(final long counter, final byte liquidityFlag, final long matchNumber)
            {
            }
        };

        /**
         * OUCH 4.2 Accepted.
         *
         * @param counter              the order's counter, from its Order Token.
         * @param orderReferenceNumber the exchange's id of the order, as ITCH 5.0 Add Order carries it.
         * @param intendedNs           the Enter Order's intended send time, {@link System#nanoTime()} scale.
         */
        void onAccepted(long counter, long orderReferenceNumber, long intendedNs);

        /**
         * OUCH 4.2 Executed.
         *
         * @param counter       the order's counter, from its Order Token.
         * @param liquidityFlag {@code A} added (the order rested), {@code R} removed (it took a resting order).
         * @param matchNumber   the execution's match number, as ITCH 5.0 Order Executed carries it.
         */
        void onExecuted(long counter, byte liquidityFlag, long matchNumber);
    }

    /** Shares of every order. */
    static final long SHARES = 100;
    /** Price of every order: $100.00 in 1/10000 $. */
    static final long PRICE = 100 * Ouch42.PRICE_SCALE;

    private static final int REQUEST_LENGTH = PingPongServer.HEADER_LENGTH + EnterOrder.LENGTH;
    private static final long LOGIN_POLL_NS = TimeUnit.MILLISECONDS.toNanos(1);

    private final SoupBinTCPClient client;
    private final OrderTokens tokens;
    private final long[] packedSymbols;
    private final int firm;
    private final EnterOrder enterOrder = new EnterOrder();
    private final OrderAccepted accepted = new OrderAccepted();
    private final OrderRejected rejected = new OrderRejected();
    private final OrderExecuted executed = new OrderExecuted();
    private final OrderEvents events;
    private final UnsafeBuffer message = new UnsafeBuffer(0, 0);
    private final byte[] token = new byte[Ouch42.TOKEN_LENGTH];
    private boolean loggedIn;
    private String ended;
    private long receivedNs;
    private long acceptedCount;
    private long executedCount;

    private OuchOrderConnection(
        final int index, final int runId, final int port, final Credentials.User user, final long[] packedSymbols,
        final OrderEvents events) throws IOException
    {
        super("OUCH session " + index + " (" + user.username() + ")", connect(port), REQUEST_LENGTH);
        this.client = new SoupBinTCPClient(channel(), this, this);
        this.tokens = new OrderTokens(runId, index);
        this.packedSymbols = packedSymbols;
        this.firm = Ouch42.packFirm(user.firm());
        this.events = events;
    }

    /**
     * Connects and logs in (SoupBinTCP 4.0 Login Request, current session, next sequence number), waiting for the
     * Login Accepted.
     *
     * @param index         session index: part of its Order Tokens, and its name.
     * @param runId         part of its Order Tokens, 0..{@value OrderTokens#MAX_RUN_ID}: a gateway that has seen an
     *                      earlier run of the day (its journals kept) ignores a token it has seen, a resend.
     * @param port          the gateway's loopback port.
     * @param user          who logs in.
     * @param packedSymbols the symbols to trade, one per shard.
     * @param events        gets the Accepted and Executed answers.
     * @param timeoutMs     longest wait for the Login Accepted.
     * @return the logged-in session.
     * @throws IOException naming the session when the connection or the login fails.
     */
    static OuchOrderConnection login(
        final int index, final int runId, final int port, final Credentials.User user, final long[] packedSymbols,
        final OrderEvents events, final long timeoutMs) throws IOException
    {
        final OuchOrderConnection connection =
            new OuchOrderConnection(index, runId, port, user, packedSymbols, events);
        try
        {
            final SoupBinTCP.LoginRequest request = new SoupBinTCP.LoginRequest();
            request.setUsername(user.username());
            request.setPassword(user.password());
            request.setRequestedSession("");
            request.setRequestedSequenceNumber(0);
            connection.client.login(request);
            final long deadlineNs = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
            while (!connection.loggedIn)
            {
                if (connection.client.receive() < 0 || null != connection.ended)
                {
                    throw new IOException(connection.name() + ": login failed: " +
                        (null != connection.ended ? connection.ended : "connection closed"));
                }
                if (System.nanoTime() - deadlineNs > 0)
                {
                    throw new IOException(connection.name() + ": no Login Accepted within " + timeoutMs + " ms");
                }
                LockSupport.parkNanos(LOGIN_POLL_NS);
            }
            return connection;
        }
        catch (final IOException | RuntimeException ex)
        {
            CloseHelper.quietClose(connection.channel());
            throw ex;
        }
    }

    @Override
    void encodeRequest(final UnsafeBuffer buffer, final int offset, final long counter, final long index)
    {
        buffer.putShort(offset, (short)(EnterOrder.LENGTH + 1), PingPongServer.BYTE_ORDER);
        buffer.putByte(offset + 2, PingPongServer.UNSEQUENCED_DATA);
        tokens.encode(counter, token);
        enterOrder.wrapAndApplyType(buffer, offset + PingPongServer.HEADER_LENGTH).limitOrder(token,
            0 == (index & 1) ? Ouch42.SIDE_BUY : Ouch42.SIDE_SELL, SHARES,
            packedSymbols[(int)((index >> 1) % packedSymbols.length)], PRICE, Ouch42.TIME_IN_FORCE_MARKET_HOURS, firm);
    }

    /**
     * Reads the answers that have arrived, then, when no order waits in the send buffer (whose packets nassau's
     * heartbeat must not cut into), lets nassau send a heartbeat if it has sent none for a second.
     */
    @Override
    int poll() throws IOException
    {
        receivedNs = System.nanoTime();
        final int bytes = client.receive();
        if (bytes < 0)
        {
            throw new EOFException(name() + ": closed by the gateway");
        }
        if (!hasUnsentBytes())
        {
            client.keepAlive();
        }
        if (null != ended)
        {
            throw new IOException(name() + ": " + ended);
        }
        return bytes;
    }

    /** @return orders accepted and not yet executed: every order ends executed once its pair's other order is in. */
    @Override
    long outstanding()
    {
        return acceptedCount - executedCount;
    }

    /** @return Accepted received for this session's orders. */
    long acceptedCount()
    {
        return acceptedCount;
    }

    /** @return Executed received. */
    long executedCount()
    {
        return executedCount;
    }

    @Override
    public void message(final ByteBuffer buffer)
    {
        final int length = buffer.remaining();
        message.wrap(buffer, buffer.position(), length);
        final byte type = length > 0 ? message.getByte(0) : 0;
        if (Ouch42.ACCEPTED == type && length >= OrderAccepted.LENGTH)
        {
            accepted.wrap(message, 0).getOrderToken(token);
            acceptedCount++;
            final long counter = tokens.decode(token);
            events.onAccepted(counter, accepted.orderReferenceNumber(), onAnswer(counter, receivedNs));
        }
        else if (Ouch42.EXECUTED == type && length >= OrderExecuted.LENGTH)
        {
            executedCount++;
            executed.wrap(message, 0).getOrderToken(token);
            events.onExecuted(tokens.decode(token), executed.liquidityFlag(), executed.matchNumber());
        }
        else if (Ouch42.REJECTED == type && length >= OrderRejected.LENGTH)
        {
            rejected.wrap(message, 0).getOrderToken(token);
            onFailedAnswer(tokens.decode(token));
        }
        else if (Ouch42.SYSTEM_EVENT != type)
        {
            onError();
        }
    }

    @Override
    public void heartbeatTimeout(final SoupBinTCPClient session)
    {
        ended = "gateway silent for 15 s";
    }

    @Override
    public void loginAccepted(final SoupBinTCPClient session, final SoupBinTCP.LoginAccepted payload)
    {
        loggedIn = true;
    }

    @Override
    public void loginRejected(final SoupBinTCPClient session, final SoupBinTCP.LoginRejected payload)
    {
        ended = "Login Rejected, reason " + (char)payload.getRejectReasonCode();
    }

    @Override
    public void endOfSession(final SoupBinTCPClient session)
    {
        ended = "End of Session from the gateway";
    }

    /** Logs out (SoupBinTCP Logout Request) when no order is half written, then closes the connection. */
    @Override
    public void close() throws IOException
    {
        try
        {
            if (null == ended && !hasUnsentBytes())
            {
                client.logout();
            }
        }
        finally
        {
            super.close();
        }
    }
}
