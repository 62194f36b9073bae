package io.bourse.engine.match;

import java.util.Arrays;

/**
 * The open timed orders (OUCH 4.2 Time in Force in seconds) ordered by expiry: a binary min-heap on
 * ({@link Order#expiryNs}, {@link Order#orderId}), so that orders expiring at the same nanosecond leave in the order
 * they were entered (deterministic). Each order keeps its heap position in {@link Order#expiryIndex}, so a fill or
 * cancel removes it in O(log n). Grows (allocating) only past its largest size so far.
 */
final class ExpiryQueue
{
    private Order[] heap = new Order[64];
    private int size;

    boolean isEmpty()
    {
        return 0 == size;
    }

    /** @return the order that expires first, or null when the queue is empty. */
    Order first()
    {
        return 0 == size ? null : heap[0];
    }

    void add(final Order order)
    {
        if (size == heap.length)
        {
            heap = Arrays.copyOf(heap, size * 2);
        }
        heap[size] = order;
        order.expiryIndex = size;
        siftUp(size++);
    }

    void remove(final Order order)
    {
        final int index = order.expiryIndex;
        order.expiryIndex = Order.NOT_TIMED;
        final Order last = heap[--size];
        heap[size] = null;
        if (index == size)
        {
            return;
        }
        heap[index] = last;
        last.expiryIndex = index;
        if (index > 0 && isEarlier(last, heap[(index - 1) >>> 1]))
        {
            siftUp(index);
        }
        else
        {
            siftDown(index);
        }
    }

    private void siftUp(final int start)
    {
        int index = start;
        final Order order = heap[index];
        while (index > 0)
        {
            final int parent = (index - 1) >>> 1;
            final Order above = heap[parent];
            if (!isEarlier(order, above))
            {
                break;
            }
            heap[index] = above;
            above.expiryIndex = index;
            index = parent;
        }
        heap[index] = order;
        order.expiryIndex = index;
    }

    private void siftDown(final int start)
    {
        int index = start;
        final Order order = heap[index];
        while (true)
        {
            int child = (index << 1) + 1;
            if (child >= size)
            {
                break;
            }
            if (child + 1 < size && isEarlier(heap[child + 1], heap[child]))
            {
                child++;
            }
            final Order below = heap[child];
            if (!isEarlier(below, order))
            {
                break;
            }
            heap[index] = below;
            below.expiryIndex = index;
            index = child;
        }
        heap[index] = order;
        order.expiryIndex = index;
    }

    private static boolean isEarlier(final Order a, final Order b)
    {
        return a.expiryNs < b.expiryNs || (a.expiryNs == b.expiryNs && a.orderId < b.orderId);
    }
}
