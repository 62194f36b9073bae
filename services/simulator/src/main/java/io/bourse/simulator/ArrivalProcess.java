package io.bourse.simulator;

/**
 * When orders are due: a schedule of intended send times, open loop (it never waits for answers). Round trips are
 * measured from these intended times, not from when the order actually left, so a stalled sender still charges the
 * stall to every order it delayed (coordinated-omission correction). Implementations are deterministic for their
 * parameters and seed, read no clock and do not allocate after construction.
 */
public interface ArrivalProcess
{
    /**
     * Starts (or restarts) the schedule.
     *
     * @param startNs time origin of the schedule, ns on the sender's monotonic clock.
     */
    void start(long startNs);

    /**
     * Advances the schedule by one order.
     *
     * @return the intended send time of the next order in ns on the clock of {@link #start(long)}; never decreases.
     */
    long next();
}
