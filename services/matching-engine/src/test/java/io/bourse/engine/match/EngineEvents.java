package io.bourse.engine.match;

import java.util.ArrayList;
import java.util.List;

/** Records the matching core's events as values so that tests can compare whole lists. */
final class EngineEvents implements MatchingEngineListener
{
    sealed interface Event permits Accepted, Rejected, Added, Executed, Canceled, Replaced, CrossReplaced,
        CrossExecuted, CancelPending, CancelRejected, CrossCompleted, PriorityUpdated, StateChanged
    {
    }

    record Accepted(long clientOrderId, long orderId, Side side, long quantity, long price, int timeInForce,
        Display display) implements Event
    {
        /** An anonymous displayed order's acceptance. */
        Accepted(
            final long clientOrderId, final long orderId, final Side side, final long quantity, final long price,
            final int timeInForce)
        {
            this(clientOrderId, orderId, side, quantity, price, timeInForce, Display.ANONYMOUS);
        }
    }

    record Rejected(long clientOrderId, byte reason) implements Event
    {
    }

    record Added(long orderId, Side side, long quantity, long price, Display display) implements Event
    {
        /** An anonymous displayed order resting. */
        Added(final long orderId, final Side side, final long quantity, final long price)
        {
            this(orderId, side, quantity, price, Display.ANONYMOUS);
        }
    }

    record Executed(long matchNumber, long quantity, long price, long takerClientOrderId, long makerClientOrderId,
        long makerLeaves, long takerLeaves) implements Event
    {
    }

    record Canceled(long clientOrderId, long orderId, long canceled, long leaves, byte reason, boolean wasResting)
        implements Event
    {
    }

    record Replaced(long clientOrderId, long newClientOrderId, long orderId, long newOrderId, long quantity,
        long price, BookUpdate bookUpdate, Display display) implements Event
    {
        /** An anonymous displayed order's replace. */
        Replaced(
            final long clientOrderId, final long newClientOrderId, final long orderId, final long newOrderId,
            final long quantity, final long price, final BookUpdate bookUpdate)
        {
            this(clientOrderId, newClientOrderId, orderId, newOrderId, quantity, price, bookUpdate, Display.ANONYMOUS);
        }
    }

    record CrossReplaced(long clientOrderId, long newClientOrderId, long orderId, long newOrderId, long quantity,
        long price) implements Event
    {
    }

    record CrossExecuted(long matchNumber, long quantity, long price, long takerClientOrderId, Side takerSide,
        long makerClientOrderId, long makerLeaves, long takerLeaves) implements Event
    {
    }

    record CancelPending(long clientOrderId, long orderId) implements Event
    {
    }

    record CancelRejected(long clientOrderId, long orderId) implements Event
    {
    }

    record CrossCompleted(long price, long shares, long matchNumber, CrossType crossType) implements Event
    {
    }

    record PriorityUpdated(long clientOrderId, long orderId, Side side, long price, Display display) implements Event
    {
        /** A midpoint peg's update, the only kind there is. */
        PriorityUpdated(final long clientOrderId, final long orderId, final Side side, final long price)
        {
            this(clientOrderId, orderId, side, price, Display.MIDPOINT_PEG);
        }
    }

    record StateChanged(TradingState state) implements Event
    {
    }

    final List<Event> events = new ArrayList<>();

    List<Event> drain()
    {
        final List<Event> copy = List.copyOf(events);
        events.clear();
        return copy;
    }

    @Override
    public void onOrderAccepted(
        final long clientOrderId, final long orderId, final long symbol, final Side side, final long quantity,
        final long price, final int timeInForce,
        final Display display)
    {
        events.add(new Accepted(clientOrderId, orderId, side, quantity, price, timeInForce, display));
    }

    @Override
    public void onOrderRejected(final long clientOrderId, final long symbol, final byte reason)
    {
        events.add(new Rejected(clientOrderId, reason));
    }

    @Override
    public void onOrderAdded(
        final long orderId, final long symbol, final Side side, final long quantity, final long price,
        final Display display, final int firm)
    {
        events.add(new Added(orderId, side, quantity, price, display));
    }

    @Override
    public void onOrderExecuted(
        final long matchNumber, final long symbol, final long quantity, final long price,
        final long takerClientOrderId, final long takerOrderId, final Side takerSide,
        final long makerClientOrderId, final long makerOrderId, final long makerLeaves, final long takerLeaves)
    {
        events.add(new Executed(matchNumber, quantity, price, takerClientOrderId, makerClientOrderId, makerLeaves,
            takerLeaves));
    }

    @Override
    public void onOrderCanceled(
        final long clientOrderId, final long orderId, final long symbol, final long canceled, final long leaves,
        final byte reason, final boolean wasResting)
    {
        events.add(new Canceled(clientOrderId, orderId, canceled, leaves, reason, wasResting));
    }

    @Override
    public void onOrderReplaced(
        final long clientOrderId, final long newClientOrderId, final long orderId, final long newOrderId,
        final long symbol, final Side side, final long quantity, final long price, final BookUpdate bookUpdate,
        final Display display)
    {
        events.add(
            new Replaced(clientOrderId, newClientOrderId, orderId, newOrderId, quantity, price, bookUpdate, display));
    }

    @Override
    public void onCrossOrderReplaced(
        final long clientOrderId, final long newClientOrderId, final long orderId, final long newOrderId,
        final long symbol, final Side side, final long quantity, final long price, final Display display)
    {
        events.add(new CrossReplaced(clientOrderId, newClientOrderId, orderId, newOrderId, quantity, price));
    }

    @Override
    public void onCrossExecuted(
        final long matchNumber, final long symbol, final long quantity, final long price,
        final long takerClientOrderId, final long takerOrderId, final Side takerSide,
        final long makerClientOrderId, final long makerOrderId, final long makerLeaves, final long takerLeaves)
    {
        events.add(new CrossExecuted(matchNumber, quantity, price, takerClientOrderId, takerSide, makerClientOrderId,
            makerLeaves, takerLeaves));
    }

    @Override
    public void onCancelPending(final long clientOrderId, final long orderId, final long symbol)
    {
        events.add(new CancelPending(clientOrderId, orderId));
    }

    @Override
    public void onCancelRejected(final long clientOrderId, final long orderId, final long symbol)
    {
        events.add(new CancelRejected(clientOrderId, orderId));
    }

    @Override
    public void onCrossCompleted(
        final long symbol, final long price, final long shares, final long matchNumber, final CrossType crossType)
    {
        events.add(new CrossCompleted(price, shares, matchNumber, crossType));
    }

    @Override
    public void onOrderPriorityUpdated(
        final long clientOrderId, final long orderId, final long symbol, final Side side, final long price,
        final Display display)
    {
        events.add(new PriorityUpdated(clientOrderId, orderId, side, price, display));
    }

    @Override
    public void onTradingStateChanged(final long symbol, final TradingState state)
    {
        events.add(new StateChanged(state));
    }
}
