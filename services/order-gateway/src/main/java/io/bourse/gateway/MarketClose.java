package io.bourse.gateway;

import java.time.LocalTime;

/**
 * The close of the trading day at the configured UTC time of day ({@code bourse.gateway.close.time}), in the order
 * an exchange closes its order entry ports:
 * <ol>
 *     <li>{@link State#OPEN} until the gateway's clock (ns since midnight UTC) reaches the close time; a gateway that
 *     never closes ({@link GatewayContext#NO_CLOSE}) stays open.</li>
 *     <li>At the close, {@link State#CLOSING}: new orders are Rejected 'C' and every open order gets a cancel through
 *     the engine, answered Canceled 'T' ({@link OrderEntry#closeMarket()}); every session of the day gets the OUCH
 *     4.2 System Event End of Day ({@link SessionRegistry#endOfDay()}).</li>
 *     <li>Once no order is open (the cancels answered, or a closing-cross order's after the cross), {@link State#CLOSED}:
 *     each logged-in session gets SoupBinTCP End of Session once it has been sent everything journaled
 *     ({@link SessionRegistry#endSessionsOnceSent()}), and so does each later login after its replay.</li>
 * </ol>
 * The states only move forward: the gateway's session is the day's, named at its start (today's UTC date by default),
 * so a gateway started after the close time closes at once, and one that runs past midnight stays closed; a new day
 * is a gateway started on the next day's session. Driven by the gateway agent's duty cycle; the state may be read on
 * any thread.
 */
final class MarketClose
{
    /** Where the trading day stands. */
    enum State
    {
        /** Orders are taken. */
        OPEN,
        /** Past the close time: new orders refused, the open ones being canceled. */
        CLOSING,
        /** Every order of the day is done; sessions end once they have had everything. */
        CLOSED
    }

    private final long closeTimeNs;
    private final OrderEntry orderEntry;
    private final SessionRegistry registry;
    private volatile State state = State.OPEN;

    /**
     * @param closeTimeNs the close, ns since midnight UTC; or {@link GatewayContext#NO_CLOSE}.
     * @param orderEntry  the order logic to close.
     * @param registry    the sessions to tell.
     */
    MarketClose(final long closeTimeNs, final OrderEntry orderEntry, final SessionRegistry registry)
    {
        this.closeTimeNs = closeTimeNs;
        this.orderEntry = orderEntry;
        this.registry = registry;
    }

    /**
     * Moves the day on when it is time: to {@link State#CLOSING} at the close time, then to {@link State#CLOSED} once no
     * order is open. Costs one comparison while open.
     *
     * @param midnightNs the duty cycle's time, ns since midnight UTC.
     * @return 1 when the state moved, else 0.
     */
    int doWork(final long midnightNs)
    {
        final State current = state;
        if (State.OPEN == current)
        {
            if (GatewayContext.NO_CLOSE == closeTimeNs || midnightNs < closeTimeNs)
            {
                return 0;
            }
            final int openOrders = orderEntry.openOrderCount();
            orderEntry.closeMarket();
            registry.endOfDay();
            state = State.CLOSING;
            System.out.println("order-gateway: market closed at " + LocalTime.ofNanoOfDay(closeTimeNs) +
                " UTC: new orders are rejected, " + openOrders + " open orders are being canceled");
            return 1;
        }
        if (State.CLOSING == current && 0 == orderEntry.openOrderCount())
        {
            registry.endSessionsOnceSent();
            state = State.CLOSED;
            System.out.println("order-gateway: trading day over, every order done; sessions end once they have had " +
                "every message");
            return 1;
        }
        return 0;
    }

    /** @return where the day stands; any thread. */
    State state()
    {
        return state;
    }
}
