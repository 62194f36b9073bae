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
     * @param openOrders      the session's open orders (targets of cancels and replaces).
     * @param entriesInFlight the session's Enter Orders awaiting their Accepted or Rejected: each may yet rest, so the
     *                        book the choice is made for holds up to this many orders more than {@code openOrders}.
     * @param action          filled with the choice.
     */
    void next(OpenOrders openOrders, int entriesInFlight, OrderAction action);
}
