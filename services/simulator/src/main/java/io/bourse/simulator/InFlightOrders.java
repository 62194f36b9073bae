package io.bourse.simulator;

/**
 * Requests of one connection awaiting their answer (here: Enter Orders awaiting Accepted or Rejected; the gateway
 * benchmark uses it too): the intended send time of each, in a preallocated ring indexed by the request's counter (no
 * per-request allocation, no map). A request still unanswered when the counter has come round the ring is overwritten
 * and reported as such by {@link #add}; a caller that must never overwrite waits until {@link #isFree} says so.
 */
public final class InFlightOrders
{
    /** Returned by {@link #remove(long)} for an order not in flight. */
    public static final long NOT_IN_FLIGHT = Long.MIN_VALUE;

    private final long[] counters;
    private final long[] intendedNs;
    private final int mask;
    private int size;

    /**
     * @param capacity ring size, a power of two.
     * @throws IllegalArgumentException when not a power of two.
     */
    public InFlightOrders(final int capacity)
    {
        if (capacity <= 0 || Integer.bitCount(capacity) != 1)
        {
            throw new IllegalArgumentException("capacity must be a power of two: " + capacity);
        }
        counters = new long[capacity];
        intendedNs = new long[capacity];
        mask = capacity - 1;
    }

    /**
     * @param counter   token counter of the Enter Order, at least 1.
     * @param intendedNs its intended send time, {@link System#nanoTime()} scale.
     * @return true when an unanswered order was overwritten to make room.
     */
    public boolean add(final long counter, final long intendedNs)
    {
        final int slot = (int)(counter & mask);
        final boolean overwritten = counters[slot] != 0;
        if (!overwritten)
        {
            size++;
        }
        counters[slot] = counter;
        this.intendedNs[slot] = intendedNs;
        return overwritten;
    }

    /**
     * @param counter token counter from an Accepted or Rejected.
     * @return the order's intended send time, or {@link #NOT_IN_FLIGHT}.
     */
    public long remove(final long counter)
    {
        final int slot = (int)(counter & mask);
        if (counter < 1 || counters[slot] != counter)
        {
            return NOT_IN_FLIGHT;
        }
        counters[slot] = 0;
        size--;
        return intendedNs[slot];
    }

    /**
     * @param counter a request counter, at least 1.
     * @return true when its slot holds no unanswered request, so {@link #add} would overwrite nothing.
     */
    public boolean isFree(final long counter)
    {
        return 0 == counters[(int)(counter & mask)];
    }

    /** @return orders in flight. */
    public int size()
    {
        return size;
    }
}
