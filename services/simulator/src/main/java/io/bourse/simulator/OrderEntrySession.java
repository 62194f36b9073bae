package io.bourse.simulator;

import com.paritytrading.nassau.soupbintcp.SoupBinTCP;
import io.bourse.common.config.Credentials;
import io.bourse.ouch.Ouch42;
import org.agrona.CloseHelper;
import org.agrona.concurrent.NanoClock;

import java.io.IOException;

/**
 * One OUCH 4.2 session of the simulator: its SoupBinTCP connection, its token counter (one per Enter Order and per
 * Replace Order, from 1), its open orders and its Enter and Replace Orders in flight (a Replace Order by its
 * replacement's token counter). Turns an {@link OrderAction} into the OUCH message and records what the answer must
 * be matched against. A lost session keeps them all when it {@link #resume resumes} in the same trading day; in the
 * next day they go ({@link #openNextDay}). Owned by the order-entry thread.
 */
final class OrderEntrySession implements AutoCloseable
{
    /** Enter Orders awaiting an answer per session at first: far above what a rate the exchange keeps up with holds. */
    static final int IN_FLIGHT_CAPACITY = 1 << 16;
    /**
     * Most Enter Orders awaiting an answer per session, which the ring doubles to (16 MiB of heap) when the exchange
     * falls behind, so that the slowest round trips are still measured: on one session at 100,000 orders/s, those up to
     * about 10 s; at 1,000,000/s, about 1 s.
     */
    static final int MAX_IN_FLIGHT_CAPACITY = 1 << 20;
    /** Open orders tracked per session; beyond it day orders turn into cancels. */
    static final int OPEN_ORDERS_CAPACITY = 10_000;

    private final int index;
    private final Credentials.User user;
    private final OrderTokens tokens;
    private final OpenOrders openOrders = new OpenOrders(OPEN_ORDERS_CAPACITY);
    private final InFlightOrders inFlight = new InFlightOrders(IN_FLIGHT_CAPACITY, MAX_IN_FLIGHT_CAPACITY);
    /** Fixed size: a replace the gateway ignores or answers with a Canceled only is overwritten, not kept. */
    private final InFlightOrders replacesInFlight = new InFlightOrders(IN_FLIGHT_CAPACITY);
    private final OrderEntryAdapter adapter;
    private final OrderEntryProxy proxy;
    private final long[] packedSymbols;
    private final SimulatorCounters counters;
    private final int firm;
    private final byte[] token = new byte[Ouch42.TOKEN_LENGTH];
    private final byte[] existingToken = new byte[Ouch42.TOKEN_LENGTH];
    /** Volatile: {@link #abort()} reads it on another thread. */
    private volatile SoupClient client;
    private String host;
    private int port;
    private long nextCounter = 1;

    /**
     * @param index            session index, part of the tokens.
     * @param user             who logs in; its firm goes into the Enter Orders.
     * @param runId            run id, part of the tokens.
     * @param packedSymbols    symbols in directory order.
     * @param proxy            encoder shared by the sessions of the thread.
     * @param counters         where to count.
     * @param roundTrip        where to record Enter Order round trips.
     * @param replaceRoundTrip where to record Replace Order round trips.
     */
    OrderEntrySession(
        final int index,
        final Credentials.User user,
        final int runId,
        final long[] packedSymbols,
        final OrderEntryProxy proxy,
        final SimulatorCounters counters,
        final LatencyTracker roundTrip,
        final LatencyTracker replaceRoundTrip)
    {
        this.index = index;
        this.user = user;
        this.tokens = new OrderTokens(runId, index);
        this.packedSymbols = packedSymbols;
        this.proxy = proxy;
        this.counters = counters;
        this.firm = Ouch42.packFirm(user.firm());
        this.adapter = new OrderEntryAdapter(
            tokens, openOrders, inFlight, replacesInFlight, packedSymbols, counters, roundTrip, replaceRoundTrip);
    }

    /**
     * Connects and logs in (SoupBinTCP 4.0 Login Request), blocking until accepted.
     *
     * @param host      order gateway host.
     * @param port      order gateway port.
     * @param timeoutMs how long to keep trying.
     * @throws IOException naming the session when the connection or login fails.
     */
    void connect(final String host, final int port, final long timeoutMs) throws IOException
    {
        this.host = host;
        this.port = port;
        client = SoupClient.connect(name(), host, port, user, adapter, timeoutMs);
    }

    /**
     * Logs the lost session in again ({@link SoupClient#resume}: SoupBinTCP 4.0 Login Request for its session, from
     * the sequence number after the last message it got), blocking until accepted. The gateway first sends the OUCH
     * messages the session missed (answers to its orders in flight, the Canceled messages of cancel on disconnect),
     * which apply to its open orders and orders in flight as any others; their round trips still count from the orders'
     * intended send times.
     *
     * @param clock     receive time of each message read during the login, {@link System#nanoTime()} scale.
     * @param timeoutMs how long to keep trying.
     * @return null, or when the lost session's login was Login Rejected 'S' and the gateway's current session is
     *         another (the lost one's day ended meanwhile), that session's name: the session goes on there
     *         ({@link #openNextDay}).
     * @throws IOException naming the session when the connection or the login fails, e.g. Login Rejected 'S' while
     *                     the gateway still holds the lost connection or has not caught up the engine's events.
     */
    String resume(final NanoClock clock, final long timeoutMs) throws IOException
    {
        adapter.nowAtEachMessage(clock);
        try
        {
            client = SoupClient.resume(client, host, port, user, adapter, timeoutMs);
            return null;
        }
        catch (final SoupClient.LoginRejectedException ex)
        {
            // Not the gateway's session any more (a day that ended while the session was lost): its current one's?
            final String day = SoupBinTCP.LOGIN_REJECT_CODE_SESSION_NOT_AVAILABLE == ex.reasonCode() ?
                openNextDay(clock, timeoutMs) : null;
            if (null == day)
            {
                throw ex;
            }
            return day;
        }
    }

    /**
     * The gateway ended the session after its End of Day ({@link #isDayOver()}): closes it, and from now on it waits
     * for the next day's session ({@link #openNextDay}); {@link #isDayOver()} is false again, for the next day's End of
     * Day.
     */
    void awaitNextDay()
    {
        adapter.clearEndOfDay();
        CloseHelper.quietClose(this);
    }

    /**
     * After {@link #awaitNextDay()} or a lost session's Login Rejected 'S': connects and logs in to the gateway's
     * current session (requested session blank, from its next message), blocking until accepted. When that is still
     * the session the lost one was in, the exchange has not opened the next day yet: the connection is logged out and
     * closed, and the session stays as it was. Otherwise the session goes on in the new day, with the same token
     * counter: the new day's tokens are new anyway. The closed day's open orders and orders in flight go: OUCH 4.2
     * Order Tokens name orders of their day only, so no cancel or replace of the new day can reach them, and no answer
     * to them comes in the new day's session. The close cancels the open orders and answers those in flight, but its
     * drain may run out with some still open, and a lost session misses the answers; the Enter Orders still in flight
     * are counted unanswered.
     *
     * @param clock     receive time of each message read during the login, {@link System#nanoTime()} scale.
     * @param timeoutMs how long to keep trying.
     * @return the new day's session name, or null while the gateway's session is still the closed day's.
     * @throws IOException naming the session when the connection or the login fails.
     */
    String openNextDay(final NanoClock clock, final long timeoutMs) throws IOException
    {
        adapter.nowAtEachMessage(clock);
        final SoupClient next = SoupClient.connect(name(), host, port, user, adapter, timeoutMs);
        if (next.acceptedSession().equals(client.acceptedSession()))
        {
            next.close();
            return null;
        }
        client = next;
        counters.add(SimulatorCounter.UNANSWERED, inFlight.clear());
        replacesInFlight.clear();
        openOrders.clear();
        return next.acceptedSession();
    }

    /**
     * Reads and applies what has arrived.
     *
     * @param nowNs receive time, {@link System#nanoTime()} scale.
     * @return bytes read.
     * @throws IOException when the connection fails.
     */
    int poll(final long nowNs) throws IOException
    {
        adapter.nowNs(nowNs);
        return client.poll();
    }

    /**
     * Sends the OUCH message of an action: Enter Order (day or IOC), Cancel Order or Replace Order.
     *
     * @param action     chosen by the {@link OrderFlowGenerator} against this session's {@link #openOrders()}.
     * @param intendedNs when the schedule wanted it sent; round trips are measured from it.
     * @throws IOException when the connection fails.
     */
    void send(final OrderAction action, final long intendedNs) throws IOException
    {
        switch (action.type())
        {
            case OrderAction.DAY, OrderAction.IOC ->
            {
                final boolean ioc = OrderAction.IOC == action.type();
                final long counter = nextCounter++;
                tokens.encode(counter, token);
                if (inFlight.add(counter, intendedNs))
                {
                    counters.increment(SimulatorCounter.UNANSWERED);
                }
                proxy.enterOrder(client, token, action.side(), action.shares(), packedSymbols[action.symbolIndex()],
                    action.price(), ioc ? Ouch42.TIME_IN_FORCE_IMMEDIATE_OR_CANCEL :
                    Ouch42.TIME_IN_FORCE_MARKET_HOURS, firm);
                counters.increment(ioc ? SimulatorCounter.IOC_SENT : SimulatorCounter.DAY_SENT);
            }
            case OrderAction.CANCEL ->
            {
                tokens.encode(openOrders.counter(action.targetSlot()), token);
                openOrders.markCancelPending(action.targetSlot(), action.shares());
                proxy.cancelOrder(client, token, action.shares());
                counters.increment(SimulatorCounter.CANCEL_SENT);
            }
            case OrderAction.REPLACE ->
            {
                tokens.encode(openOrders.counter(action.targetSlot()), existingToken);
                final long replacement = nextCounter++;
                tokens.encode(replacement, token);
                openOrders.markReplacePending(action.targetSlot(), replacement);
                replacesInFlight.add(replacement, intendedNs); // one overwritten (ring full) is not timed
                proxy.replaceOrder(client, existingToken, token, action.shares(), action.price(),
                    Ouch42.TIME_IN_FORCE_MARKET_HOURS);
                counters.increment(SimulatorCounter.REPLACE_SENT);
            }
            default -> throw new IllegalArgumentException("unknown action type: " + action.type());
        }
    }

    /** @return the session's open orders, targets of its cancels and replaces. */
    OpenOrders openOrders()
    {
        return openOrders;
    }

    /** @return Enter Orders awaiting their Accepted or Rejected. */
    int inFlight()
    {
        return inFlight.size();
    }

    /**
     * @return Enter Orders awaiting their Accepted or Rejected and Replace Orders awaiting their Replaced or Rejected
     *         (not those the ring overwrote, nor those of orders that left the book meanwhile).
     */
    int awaitedAnswers()
    {
        return inFlight.size() + replacesInFlight.size();
    }

    /**
     * @return true once the gateway sent the OUCH 4.2 System Event End of Day: the trading day is closed, and the
     * session is to log in to the next day's ({@link #openNextDay}), not to resume this one.
     */
    boolean isDayOver()
    {
        return adapter.isEndOfDay();
    }

    /** @return true while connected and logged in. */
    boolean isActive()
    {
        return null != client && client.isActive();
    }

    /** @return name for messages, e.g. {@code "OUCH session 0 (demo01)"}. */
    String name()
    {
        return "OUCH session " + index + " (" + user.username() + ")";
    }

    /** Closes the connection without logging out; safe from another thread (see {@link SoupClient#abort()}). */
    void abort()
    {
        if (null != client)
        {
            client.abort();
        }
    }

    /** Logs out and closes the connection. */
    @Override
    public void close() throws IOException
    {
        if (null != client)
        {
            client.close();
        }
    }

}
