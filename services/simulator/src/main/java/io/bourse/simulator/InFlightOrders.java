package io.bourse.simulator;

import java.util.Arrays;

/**
 * Requests of one connection awaiting their answer (here: Enter Orders awaiting Accepted or Rejected, and Replace
 * Orders awaiting Replaced or Rejected, in rings of their own; the gateway benchmark uses it too): the intended send
 * time of each, in a ring indexed by the request's counter (no per-request allocation, no map). A request still
 * unanswered when the counter has come round the ring (an exchange that has fallen that far behind: the slowest round
 * trips, which coordinated-omission correction exists to measure) doubles the ring, up to its maximum capacity; only
 * past that is it overwritten, and reported as such by {@link #add}. A caller that must never overwrite nor grow waits
 * until {@link #isFree} says so.
 */
public final class InFlightOrders
{
    /** Returned by {@link #remove(long)} for an order not in flight. */
    public static final long NOT_IN_FLIGHT = Long.MIN_VALUE;

    private final int maxCapacity;
    private long[] counters;
    private long[] intendedNs;
    private int mask;
    private int size;

    /**
     * @param capacity ring size, a power of two; it never grows.
     * @throws IllegalArgumentException when not a power of two.
     */
    public InFlightOrders(final int capacity)
    {
        this(capacity, capacity);
    }

    /**
     * @param capacity    initial ring size, a power of two.
     * @param maxCapacity largest ring size it doubles to, a power of two at least the capacity; 16 bytes per slot.
     * @throws IllegalArgumentException when either is not a power of two, or the maximum is below the capacity.
     */
    public InFlightOrders(final int capacity, final int maxCapacity)
    {
        if (capacity <= 0 || Integer.bitCount(capacity) != 1 || Integer.bitCount(maxCapacity) != 1 ||
            maxCapacity < capacity)
        {
            throw new IllegalArgumentException("capacity and maximum capacity must be powers of two, the maximum at " +
                "least the capacity: " + capacity + ", " + maxCapacity);
        }
        this.maxCapacity = maxCapacity;
        counters = new long[capacity];
        intendedNs = new long[capacity];
        mask = capacity - 1;
    }

    /**
     * @param counter    token counter of the order (an Enter Order's, or a replacement's), at least 1.
     * @param intendedNs its intended send time, {@link System#nanoTime()} scale.
     * @return true when an unanswered order was overwritten to make room (the ring at its maximum capacity).
     */
    public boolean add(final long counter, final long intendedNs)
    {
        while (0 != counters[(int)(counter & mask)] && counters.length < maxCapacity)
        {
            grow();
        }
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
     * Doubles the ring. Two requests in flight never share a slot of the larger one: their counters, distinct modulo
     * the old length, stay distinct modulo its double.
     */
    private void grow()
    {
        final long[] oldCounters = counters;
        final long[] oldIntendedNs = intendedNs;
        counters = new long[oldCounters.length << 1];
        intendedNs = new long[counters.length];
        mask = counters.length - 1;
        for (int i = 0; i < oldCounters.length; i++)
        {
            if (0 != oldCounters[i])
            {
                final int slot = (int)(oldCounters[i] & mask);
                counters[slot] = oldCounters[i];
                intendedNs[slot] = oldIntendedNs[i];
            }
        }
    }

    /**
     * @param counter token counter from an Accepted, Replaced or Rejected.
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

    /**
     * Gives up every request in flight: the trading day they were sent in is over, so no answer will come.
     *
     * @return how many were in flight.
     */
    public int clear()
    {
        final int cleared = size;
        Arrays.fill(counters, 0);
        size = 0;
        return cleared;
    }

    /** @return orders in flight. */
    public int size()
    {
        return size;
    }
}
