package io.bourse.common.net;

import io.prometheus.metrics.core.datapoints.GaugeDataPoint;

import java.nio.ByteBuffer;
import java.util.ArrayDeque;

/**
 * The send buffers of one agent's client connections ({@link SessionSendChannel}): direct buffers of one fixed
 * capacity, allocated when a connection is accepted and none is free, and kept for the next connection when one
 * closes. The pool therefore holds as many buffers as there were connections open at the busiest moment, never more
 * than the service's bounds allow (sessions, connections waiting to log in, closed connections lingering); the bytes
 * allocated are added to a gauge (e.g. {@code bourse_gateway_send_buffer_bytes}), which several pools may share. Used
 * only by the agent thread that owns it.
 */
public final class SendBufferPool
{
    private final int capacity;
    private final GaugeDataPoint allocatedBytes;
    private final ArrayDeque<ByteBuffer> free = new ArrayDeque<>();

    /**
     * @param capacity       bytes per buffer.
     * @param allocatedBytes gauge of the bytes allocated so far, in use or free; incremented by each allocation.
     */
    public SendBufferPool(final int capacity, final GaugeDataPoint allocatedBytes)
    {
        this.capacity = capacity;
        this.allocatedBytes = allocatedBytes;
    }

    /** @return bytes per buffer. */
    public int capacity()
    {
        return capacity;
    }

    /** @return a free buffer, or a new one if none is free; its content is undefined. */
    public ByteBuffer acquire()
    {
        final ByteBuffer buffer = free.pollLast();
        if (null != buffer)
        {
            return buffer;
        }
        allocatedBytes.inc(capacity);
        return ByteBuffer.allocateDirect(capacity);
    }

    /**
     * @param buffer a buffer from {@link #acquire()} that its connection no longer uses.
     */
    public void release(final ByteBuffer buffer)
    {
        free.addLast(buffer);
    }
}
