package io.bourse.simulator;

import com.paritytrading.nassau.MessageListener;
import io.bourse.common.config.Symbols;
import io.bourse.ouch.AiqCanceled;
import io.bourse.ouch.OrderAccepted;
import io.bourse.ouch.OrderCanceled;
import io.bourse.ouch.OrderExecuted;
import io.bourse.ouch.OrderRejected;
import io.bourse.ouch.OrderReplaced;
import io.bourse.ouch.Ouch42;
import io.bourse.ouch.SystemEvent;
import org.agrona.concurrent.NanoClock;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteBuffer;

/**
 * Decodes the OUCH 4.2 outbound messages of one session and applies them: Accepted and Rejected end an Enter Order's
 * round trip (measured from its intended send time), and Accepted (order state Live), Executed, Canceled and Replaced
 * keep the session's {@link OpenOrders} in step with the exchange. Every message is counted by type; a message
 * shorter than its type's fixed length, or carrying a token this session did not send, is counted as an error and
 * skipped. Owned by the order-entry thread; no allocation.
 */
final class OrderEntryAdapter implements MessageListener
{
    private final UnsafeBuffer rx = new UnsafeBuffer(0, 0);
    private final OrderAccepted accepted = new OrderAccepted();
    private final OrderRejected rejected = new OrderRejected();
    private final OrderExecuted executed = new OrderExecuted();
    private final OrderCanceled canceled = new OrderCanceled();
    private final AiqCanceled aiqCanceled = new AiqCanceled();
    private final OrderReplaced replaced = new OrderReplaced();
    private final byte[] token = new byte[Ouch42.TOKEN_LENGTH];
    private final OrderTokens tokens;
    private final OpenOrders openOrders;
    private final InFlightOrders inFlight;
    private final InFlightOrders replacesInFlight;
    private final long[] packedSymbols;
    private final SimulatorCounters counters;
    private final LatencyTracker roundTrip;
    private final LatencyTracker replaceRoundTrip;
    private long nowNs;
    private NanoClock loginClock;
    private boolean endOfDay;

    /**
     * @param tokens           the session's token scheme.
     * @param openOrders       the session's open orders.
     * @param inFlight         the session's Enter Orders awaiting an answer, by token counter.
     * @param replacesInFlight the session's Replace Orders awaiting an answer, by the replacement's token counter.
     * @param packedSymbols    symbols in directory order (index = symbol index).
     * @param counters         where to count.
     * @param roundTrip        where to record Enter Order round trips (to Accepted or Rejected).
     * @param replaceRoundTrip where to record Replace Order round trips (to Replaced or Rejected).
     */
    OrderEntryAdapter(
        final OrderTokens tokens,
        final OpenOrders openOrders,
        final InFlightOrders inFlight,
        final InFlightOrders replacesInFlight,
        final long[] packedSymbols,
        final SimulatorCounters counters,
        final LatencyTracker roundTrip,
        final LatencyTracker replaceRoundTrip)
    {
        this.tokens = tokens;
        this.openOrders = openOrders;
        this.inFlight = inFlight;
        this.replacesInFlight = replacesInFlight;
        this.packedSymbols = packedSymbols;
        this.counters = counters;
        this.roundTrip = roundTrip;
        this.replaceRoundTrip = replaceRoundTrip;
    }

    /**
     * Sets the receive time of the messages delivered next.
     *
     * @param nowNs {@link System#nanoTime()} scale, as the intended send times.
     */
    void nowNs(final long nowNs)
    {
        this.nowNs = nowNs;
        loginClock = null;
    }

    /**
     * Stamps each message delivered next with the clock's time as it is delivered, until the next {@link #nowNs}: for
     * a blocking login, which reads for up to about a second (the answers a resumed session missed come with its Login
     * Accepted).
     *
     * @param clock {@link System#nanoTime()} scale, as the intended send times.
     */
    void nowAtEachMessage(final NanoClock clock)
    {
        loginClock = clock;
    }

    @Override
    public void message(final ByteBuffer buffer)
    {
        final int length = buffer.remaining();
        if (length < 1)
        {
            counters.errors().error(SimulatorError.MALFORMED_OUCH, "order gateway", "empty message");
            return;
        }
        rx.wrap(buffer, buffer.position(), length);
        switch (rx.getByte(0))
        {
            case OrderAccepted.TYPE ->
            {
                if (hasLength(length, OrderAccepted.LENGTH))
                {
                    onAccepted(accepted.wrap(rx, 0));
                }
            }
            case OrderRejected.TYPE ->
            {
                if (hasLength(length, OrderRejected.LENGTH))
                {
                    onRejected(rejected.wrap(rx, 0));
                }
            }
            case OrderExecuted.TYPE ->
            {
                if (hasLength(length, OrderExecuted.LENGTH))
                {
                    onExecuted(executed.wrap(rx, 0));
                }
            }
            case OrderCanceled.TYPE ->
            {
                if (hasLength(length, OrderCanceled.LENGTH))
                {
                    canceled.wrap(rx, 0).getOrderToken(token);
                    onCanceled(canceled.decrementShares());
                }
            }
            case AiqCanceled.TYPE ->
            {
                if (hasLength(length, AiqCanceled.LENGTH))
                {
                    aiqCanceled.wrap(rx, 0).getOrderToken(token);
                    onCanceled(aiqCanceled.decrementShares());
                }
            }
            case OrderReplaced.TYPE ->
            {
                if (hasLength(length, OrderReplaced.LENGTH))
                {
                    onReplaced(replaced.wrap(rx, 0));
                }
            }
            case SystemEvent.TYPE ->
            {
                counters.increment(SimulatorCounter.SYSTEM_EVENT);
                if (hasLength(length, SystemEvent.LENGTH) &&
                    Ouch42.EVENT_END_OF_DAY == rx.getByte(SystemEvent.EVENT_CODE_OFFSET))
                {
                    endOfDay = true;
                }
            }
            default -> counters.increment(SimulatorCounter.OTHER_IN);
        }
    }

    /**
     * @return true once the session got the OUCH 4.2 System Event End of Day, until {@link #clearEndOfDay()}: the
     * exchange closed the day.
     */
    boolean isEndOfDay()
    {
        return endOfDay;
    }

    /** The session heard its End of Day and waits for the next day's session: a later End of Day is the next day's. */
    void clearEndOfDay()
    {
        endOfDay = false;
    }

    /** @return true when the message has its type's length: OUCH 4.2's messages have fixed lengths. */
    private boolean hasLength(final int length, final int required)
    {
        if (length != required)
        {
            if (counters.errors().errorToLog(SimulatorError.MALFORMED_OUCH))
            {
                counters.errors().log(SimulatorError.MALFORMED_OUCH, "order gateway", "message type '" +
                    (char)rx.getByte(0) + "' of " + length + " bytes, not its " + required);
            }
            return false;
        }
        return true;
    }

    private void onAccepted(final OrderAccepted message)
    {
        counters.increment(SimulatorCounter.ACCEPTED);
        message.getOrderToken(token);
        final long counter = ownCounter();
        if (counter < 0)
        {
            return;
        }
        endRoundTrip(inFlight, roundTrip, counter);
        if (Ouch42.ORDER_STATE_LIVE == message.orderState())
        {
            track(counter, message.stock(), message.buySellIndicator(), message.price(), message.shares(),
                message.timeInForce(), 0);
        }
    }

    private void onRejected(final OrderRejected message)
    {
        counters.onRejected(message.reason());
        message.getOrderToken(token);
        final long counter = ownCounter();
        if (counter >= 0 && !endRoundTrip(inFlight, roundTrip, counter))
        {
            endRoundTrip(replacesInFlight, replaceRoundTrip, counter);
            openOrders.onReplacementRejected(counter);
        }
    }

    private void onExecuted(final OrderExecuted message)
    {
        counters.increment(SimulatorCounter.EXECUTED);
        counters.add(SimulatorCounter.EXECUTED_SHARES, message.executedShares());
        message.getOrderToken(token);
        final long counter = ownCounter();
        if (counter >= 0)
        {
            final long replacement = openOrders.pendingReplacement(counter);
            openOrders.execute(counter, message.executedShares());
            forgetIgnoredReplace(counter, replacement);
        }
    }

    /**
     * OUCH 4.2 Canceled, or AIQ Canceled (self-match prevention's, which the gateway sends in its place), of the order
     * whose token was just read.
     */
    private void onCanceled(final long decrementShares)
    {
        counters.increment(SimulatorCounter.CANCELED);
        final long counter = ownCounter();
        if (counter >= 0)
        {
            final long replacement = openOrders.pendingReplacement(counter);
            // Answers a cancel in flight once the shares left are those it asked for (OpenOrders.reduce); a decrement
            // of part of the order for another cause (self-match prevention's AIQ Canceled) leaves a cancel or replace
            // in flight pending.
            openOrders.reduce(counter, decrementShares);
            forgetIgnoredReplace(counter, replacement);
        }
    }

    /**
     * A replace in flight for an order that has now left the book (fully executed, or canceled, as when the replace
     * itself failed the gateway's checks: Canceled 'U') usually gets no Replaced nor Rejected: OUCH 4.2 &sect;2.2
     * ignores a replace of an order no longer open. It is no longer awaited. One the gateway had already passed on
     * gets the engine's Rejected 'O' all the same, which then finds it no longer in flight: that round trip is not
     * recorded.
     */
    private void forgetIgnoredReplace(final long counter, final long replacement)
    {
        if (OpenOrders.NONE != replacement && openOrders.slotOf(counter) < 0)
        {
            replacesInFlight.remove(replacement);
        }
    }

    private void onReplaced(final OrderReplaced message)
    {
        counters.increment(SimulatorCounter.REPLACED);
        message.getPreviousOrderToken(token);
        final long previous = ownCounter();
        final int previousSlot = previous >= 0 ? openOrders.slotOf(previous) : -1;
        final long executed = previousSlot >= 0 ? openOrders.executed(previousSlot) : 0;
        if (previous >= 0)
        {
            openOrders.remove(previous);
        }
        message.getReplacementOrderToken(token);
        final long counter = ownCounter();
        if (counter >= 0)
        {
            endRoundTrip(replacesInFlight, replaceRoundTrip, counter);
        }
        if (counter >= 0 && Ouch42.ORDER_STATE_LIVE == message.orderState())
        {
            track(counter, message.stock(), message.buySellIndicator(), message.price(), message.shares(),
                message.timeInForce(), executed);
        }
    }

    private long ownCounter()
    {
        final long counter = tokens.decode(token);
        if (counter < 0)
        {
            counters.errors().error(SimulatorError.UNKNOWN_ORDER_TOKEN, "order gateway",
                (type) -> "a message of type '" + (char)type + "'", rx.getByte(0));
        }
        return counter;
    }

    /** @return true when the order was in flight there, its round trip now recorded. */
    private boolean endRoundTrip(final InFlightOrders orders, final LatencyTracker latency, final long counter)
    {
        final long intendedNs = orders.remove(counter);
        if (InFlightOrders.NOT_IN_FLIGHT != intendedNs)
        {
            latency.recordNs((null == loginClock ? nowNs : loginClock.nanoTime()) - intendedNs);
            return true;
        }
        return false;
    }

    private void track(
        final long counter, final long stock, final byte side, final long price, final long shares,
        final long timeInForce, final long executed)
    {
        if (Ouch42.TIME_IN_FORCE_IMMEDIATE_OR_CANCEL == timeInForce)
        {
            return;
        }
        for (int i = 0; i < packedSymbols.length; i++)
        {
            if (packedSymbols[i] == stock)
            {
                openOrders.add(counter, i, side, price, shares, executed);
                return;
            }
        }
        counters.errors().error(SimulatorError.UNKNOWN_SYMBOL, "order gateway Accepted or Replaced", Symbols::toString,
            stock);
    }
}
