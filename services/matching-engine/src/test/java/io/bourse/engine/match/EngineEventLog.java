package io.bourse.engine.match;

import io.bourse.common.config.Symbols;

import java.util.ArrayList;
import java.util.List;

/**
 * Records every argument of every listener call as a value, so that two engines' outputs can be compared whole:
 * unlike {@link EngineEvents}, nothing is left out (symbols, taker and maker reference numbers, taker side).
 */
final class EngineEventLog implements MatchingEngineListener
{
    sealed interface Event permits Accepted, Rejected, Added, Executed, Canceled, Replaced, PriorityUpdated,
        TradingStateChanged
    {
    }

    record Accepted(long clientOrderId, long orderId, String symbol, Side side, long quantity,
        long price, int timeInForce, Display display) implements Event
    {
    }

    record Rejected(long clientOrderId, String symbol, char reason) implements Event
    {
    }

    record Added(long orderId, String symbol, Side side, long quantity, long price, Display display, int firm)
        implements Event
    {
    }

    record Executed(long matchNumber, String symbol, long quantity, long price, long takerClientOrderId,
        long takerOrderId, Side takerSide, long makerClientOrderId, long makerOrderId, long makerLeaves,
        long takerLeaves) implements Event
    {
    }

    record Canceled(long clientOrderId, long orderId, String symbol, long canceled, long leaves, char reason,
        boolean wasResting) implements Event
    {
    }

    record Replaced(long clientOrderId, long newClientOrderId, long orderId, long newOrderId, String symbol,
        Side side, long quantity, long price, BookUpdate bookUpdate, Display display) implements Event
    {
    }

    record TradingStateChanged(String symbol, TradingState state) implements Event
    {
    }

    record PriorityUpdated(long clientOrderId, long orderId, String symbol, Side side, long price, Display display)
        implements Event
    {
    }

    private final List<Event> events = new ArrayList<>();

    /** @return the symbol as text, "-" for 0 (a reject that names no symbol). */
    private static String name(final long symbol)
    {
        return 0 == symbol ? "-" : Symbols.toString(symbol);
    }

    /** @return the events since the last drain, oldest first; the log is left empty. */
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
        events.add(new Accepted(clientOrderId, orderId, name(symbol), side, quantity, price, timeInForce, display));
    }

    @Override
    public void onOrderRejected(final long clientOrderId, final long symbol, final byte reason)
    {
        events.add(new Rejected(clientOrderId, name(symbol), (char)reason));
    }

    @Override
    public void onOrderAdded(
        final long orderId, final long symbol, final Side side, final long quantity, final long price,
        final Display display, final int firm)
    {
        events.add(new Added(orderId, name(symbol), side, quantity, price, display, firm));
    }

    @Override
    public void onOrderExecuted(
        final long matchNumber, final long symbol, final long quantity, final long price,
        final long takerClientOrderId, final long takerOrderId, final Side takerSide,
        final long makerClientOrderId, final long makerOrderId, final long makerLeaves, final long takerLeaves)
    {
        events.add(new Executed(matchNumber, name(symbol), quantity, price, takerClientOrderId, takerOrderId,
            takerSide, makerClientOrderId, makerOrderId, makerLeaves, takerLeaves));
    }

    @Override
    public void onOrderCanceled(
        final long clientOrderId, final long orderId, final long symbol, final long canceled, final long leaves,
        final byte reason, final boolean wasResting)
    {
        events.add(new Canceled(clientOrderId, orderId, name(symbol), canceled, leaves, (char)reason, wasResting));
    }

    @Override
    public void onOrderReplaced(
        final long clientOrderId, final long newClientOrderId, final long orderId, final long newOrderId,
        final long symbol, final Side side, final long quantity, final long price, final BookUpdate bookUpdate,
        final Display display)
    {
        events.add(new Replaced(clientOrderId, newClientOrderId, orderId, newOrderId, name(symbol), side, quantity,
            price, bookUpdate, display));
    }

    @Override
    public void onOrderPriorityUpdated(
        final long clientOrderId, final long orderId, final long symbol, final Side side, final long price,
        final Display display)
    {
        events.add(new PriorityUpdated(clientOrderId, orderId, name(symbol), side, price, display));
    }

    @Override
    public void onTradingStateChanged(final long symbol, final TradingState state)
    {
        events.add(new TradingStateChanged(name(symbol), state));
    }
}
