package io.bourse.simulator;

/**
 * Chooses what a session sends next: Enter, Cancel or Replace Order with their symbol, side, price and size.
 * Implementations are deterministic for a seed, do no I/O, read no clock and do not allocate.
 */
public interface OrderMix
{
    /**
     * Chooses the next action of a session.
     *
     * @param openOrders the session's open orders (targets of cancels and replaces).
     * @param action     filled with the choice.
     */
    void next(OpenOrders openOrders, OrderAction action);
}
