package io.bourse.gateway;

import io.bourse.common.time.MidnightNanoClock;

import java.time.LocalTime;
import java.util.concurrent.TimeUnit;

/**
 * The close of the trading day at the configured UTC time of day ({@code bourse.gateway.close.time}), in the order
 * an exchange closes its order entry ports:
 * <ol>
 *     <li>{@link State#OPEN} until the gateway's clock (ns since midnight UTC) reaches the close time; a gateway that
 *     never closes ({@link GatewayContext#NO_CLOSE}) stays open, unless its journals show the day closed already.</li>
 *     <li>At the close, {@link State#CLOSING}: new orders are Rejected 'C' and every open order gets a cancel through
 *     the engine (but one whose cancel on disconnect went already), answered Canceled 'T'
 *     ({@link OrderEntry#closeMarket()}).</li>
 *     <li>Once no order is open (the cancels answered, or a closing-cross order's after the cross), or
 *     {@value #DRAIN_SECONDS} s after the close with orders still open (an engine shard that stays down, a cross that
 *     never runs; logged), {@link State#CLOSED}: every session of the day gets the OUCH 4.2 System Event End of Day,
 *     the last message of its day, and each logged-in session gets SoupBinTCP End of Session once it has been sent
 *     everything journaled, and so does each later login after its replay ({@link SessionRegistry#endDay()}).</li>
 * </ol>
 * The states only move forward, for one {@link TradingDay}: a gateway started after the day's close time closes it at
 * once, as the day opens, before any engine event is read ({@link TradingDays}), and one restarted on journals that
 * hold the End of Day closes at once whatever its close time, and ends the day at once too: the day's drain was over
 * before the restart (End of Day is journaled only after it), so the orders the journals leave open get their cancels
 * again but no second wait, and each session ends after its replay. The next day, at the next midnight UTC, has a
 * close of its own ({@link TradingDays}); a day with a configured session name, the only one, stays closed. Driven by
 * the gateway agent's duty cycle; the state may be read on any thread.
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
        /** End of Day sent: sessions end once they have had everything. */
        CLOSED
    }

    /** Longest wait from the close for the open orders to be done before the day ends anyway. */
    static final long DRAIN_SECONDS = 30;
    private static final long DRAIN_NS = TimeUnit.SECONDS.toNanos(DRAIN_SECONDS);

    private final long dayStartNs;
    private final long closeTimeNs;
    private final boolean closedBefore;
    private final OrderEntry orderEntry;
    private final SessionRegistry registry;
    private long drainDeadlineNs;
    private volatile State state = State.OPEN;

    /**
     * @param dayStartNs  the midnight UTC the day starts at, on the gateway's clock (ns since the midnight of its
     *                    start: 0 for its first day, a multiple of a day's nanoseconds for a later one).
     * @param closeTimeNs the close, ns since the day's midnight UTC (a day's ns: at its end, the next midnight); or
     *                    {@link GatewayContext#NO_CLOSE}.
     * @param orderEntry  the order logic to close.
     * @param registry    the sessions to tell, restored from the journals: when one holds the End of Day, the day was
     *                    closed before a restart and closes again at once.
     */
    MarketClose(
        final long dayStartNs, final long closeTimeNs, final OrderEntry orderEntry, final SessionRegistry registry)
    {
        this.dayStartNs = dayStartNs;
        this.closeTimeNs = closeTimeNs;
        this.closedBefore = registry.hasEndOfDay();
        this.orderEntry = orderEntry;
        this.registry = registry;
    }

    /**
     * Moves the day on when it is time: to {@link State#CLOSING} at the close time, then to {@link State#CLOSED} once
     * no order is open or the drain time is over.
     *
     * @param midnightNs the duty cycle's time, ns since the midnight UTC of the gateway's start (past a day after a
     *                   midnight).
     * @return 1 when the state moved, else 0.
     */
    int doWork(final long midnightNs)
    {
        final State current = state;
        if (State.OPEN == current)
        {
            if (!closedBefore && (GatewayContext.NO_CLOSE == closeTimeNs || midnightNs - dayStartNs < closeTimeNs))
            {
                return 0;
            }
            final int openOrders = orderEntry.openOrderCount();
            orderEntry.closeMarket();
            drainDeadlineNs = midnightNs + DRAIN_NS;
            state = State.CLOSING;
            System.out.println("order-gateway: market closed" + (closedBefore ? " (before a restart)" :
                " at " + LocalTime.ofNanoOfDay(MidnightNanoClock.timeOfDay(closeTimeNs)) + " UTC") +
                ": new orders are rejected, " + openOrders + " open orders are being canceled");
        }
        else if (State.CLOSED == current)
        {
            return 0;
        }
        final int openOrders = orderEntry.openOrderCount();
        if (!closedBefore && 0 != openOrders && midnightNs - drainDeadlineNs < 0)
        {
            return State.OPEN == current ? 1 : 0;
        }
        registry.endDay();
        state = State.CLOSED;
        System.out.println("order-gateway: trading day over, " + (0 == openOrders ? "every order done" :
            openOrders + " orders still open " + (closedBefore ? "after the drain before the restart" :
            DRAIN_SECONDS + " s after the close")) +
            "; End of Day sent, sessions end once they have had every message");
        return 1;
    }

    /** @return where the day stands; any thread. */
    State state()
    {
        return state;
    }
}
