package io.bourse.engine.match;

/**
 * Open orders by client order id: open addressing with linear probing over the orders themselves (each order's own
 * {@link Order#clientOrderId} is its key), Fibonacci hashing, and backward-shift deletion, so that a lookup reads one
 * array slot and the order it finds. Grows (allocating) only when more than half full; never iterated, so its layout
 * cannot affect the engine's output.
 */
final class OrderMap
{
    private static final long FIBONACCI = 0x9E3779B97F4A7C15L;
    private static final int INITIAL_CAPACITY_BITS = 12;

    private Order[] slots;
    private int mask;
    private int shift;
    private int size;

    OrderMap()
    {
        allocate(INITIAL_CAPACITY_BITS);
    }

    int size()
    {
        return size;
    }

    /**
     * @param clientOrderId the key.
     * @return the open order with that id, or null.
     */
    Order get(final long clientOrderId)
    {
        final Order[] slots = this.slots;
        final int mask = this.mask;
        for (int index = home(clientOrderId); ; index = (index + 1) & mask)
        {
            final Order order = slots[index];
            if (null == order || order.clientOrderId == clientOrderId)
            {
                return order;
            }
        }
    }

    /**
     * Adds an order under its client order id, replacing an order already there with the same id.
     *
     * @param order the order, keyed by its current {@link Order#clientOrderId}.
     */
    void put(final Order order)
    {
        final long clientOrderId = order.clientOrderId;
        int index = home(clientOrderId);
        Order existing;
        while (null != (existing = slots[index]))
        {
            if (existing.clientOrderId == clientOrderId)
            {
                slots[index] = order;
                return;
            }
            index = (index + 1) & mask;
        }
        slots[index] = order;
        if (++size > (mask + 1) >>> 1)
        {
            grow();
        }
    }

    /**
     * Removes the order with that id, if any, while the order still carries it.
     *
     * @param clientOrderId the key.
     */
    void remove(final long clientOrderId)
    {
        final Order[] slots = this.slots;
        final int mask = this.mask;
        int hole = home(clientOrderId);
        Order order;
        while (null != (order = slots[hole]) && order.clientOrderId != clientOrderId)
        {
            hole = (hole + 1) & mask;
        }
        if (null == order)
        {
            return;
        }
        slots[hole] = null;
        size--;
        // Backward-shift: move each later order of the probe run into the hole unless its home lies after the hole.
        for (int index = (hole + 1) & mask; null != (order = slots[index]); index = (index + 1) & mask)
        {
            if (((index - home(order.clientOrderId)) & mask) >= ((index - hole) & mask))
            {
                slots[hole] = order;
                slots[index] = null;
                hole = index;
            }
        }
    }

    private int home(final long clientOrderId)
    {
        return (int)((clientOrderId * FIBONACCI) >>> shift);
    }

    private void allocate(final int capacityBits)
    {
        slots = new Order[1 << capacityBits];
        mask = (1 << capacityBits) - 1;
        shift = 64 - capacityBits;
    }

    private void grow()
    {
        final Order[] old = slots;
        allocate(Integer.numberOfTrailingZeros(old.length) + 1);
        size = 0;
        for (final Order order : old)
        {
            if (null != order)
            {
                put(order);
            }
        }
    }
}
