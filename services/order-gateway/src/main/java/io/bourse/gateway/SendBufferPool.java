package io.bourse.gateway;

import io.prometheus.metrics.core.datapoints.GaugeDataPoint;

import java.nio.ByteBuffer;
import java.util.ArrayDeque;

/**
 * The send buffers of the client connections: direct buffers of one fixed capacity, allocated when a connection is
 * accepted and none is free, and kept for the next connection when one closes. The pool therefore holds as many
 * buffers as there were connections open at the busiest moment, never more than the configured session and pending
 * login bounds allow; the bytes allocated are exported as {@code bourse_gateway_send_buffer_bytes}. Used only by the
 * gateway agent thread.
 */
final class SendBufferPool
{
    private final int capacity;
    private final GaugeDataPoint allocatedBytes;
    private final ArrayDeque<ByteBuffer> free = new ArrayDeque<>();
    private long allocated;

    /**
     * @param capacity       bytes per buffer.
     * @param allocatedBytes gauge of the bytes allocated so far, in use or free.
     */
    SendBufferPool(final int capacity, final GaugeDataPoint allocatedBytes)
    {
        this.capacity = capacity;
        this.allocatedBytes = allocatedBytes;
    }

    /** @return bytes per buffer. */
    int capacity()
    {
        return capacity;
    }

    /** @return a free buffer, or a new one if none is free; its content is undefined. */
    ByteBuffer acquire()
    {
        final ByteBuffer buffer = free.pollLast();
        if (null != buffer)
        {
            return buffer;
        }
        allocated += capacity;
        allocatedBytes.set(allocated);
        return ByteBuffer.allocateDirect(capacity);
    }

    /**
     * @param buffer a buffer from {@link #acquire()} that its connection no longer uses.
     */
    void release(final ByteBuffer buffer)
    {
        free.addLast(buffer);
    }
}
