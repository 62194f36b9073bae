package io.bourse.bench;

/**
 * Requests of one connection awaiting their answer: the intended send time of each, in a preallocated ring indexed by
 * the request's counter (no allocation, no map). A counter whose slot is still taken by an older unanswered request
 * must wait ({@link #isFree(long)}), so no request is ever overwritten.
 */
final class InFlightRequests
{
    /** Returned by {@link #remove(long)} for a counter not in flight. */
    static final long NOT_IN_FLIGHT = Long.MIN_VALUE;

    private final long[] counters;
    private final long[] intendedNs;
    private final int mask;
    private int size;

    /**
     * @param capacity ring size, a power of two.
     * @throws IllegalArgumentException when not a power of two.
     */
    InFlightRequests(final int capacity)
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
     * @param counter a request counter, at least 1.
     * @return true when its slot is free.
     */
    boolean isFree(final long counter)
    {
        return 0 == counters[(int)(counter & mask)];
    }

    /**
     * @param counter    request counter, at least 1, its slot {@link #isFree(long) free}.
     * @param intendedNs its intended send time, {@link System#nanoTime()} scale.
     */
    void add(final long counter, final long intendedNs)
    {
        final int slot = (int)(counter & mask);
        counters[slot] = counter;
        this.intendedNs[slot] = intendedNs;
        size++;
    }

    /**
     * @param counter counter from an answer.
     * @return the request's intended send time, or {@link #NOT_IN_FLIGHT} when it is not awaiting an answer.
     */
    long remove(final long counter)
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

    /** @return requests in flight. */
    int size()
    {
        return size;
    }
}
