package io.bourse.gateway;

import io.bourse.ouch.Ouch42;
import org.agrona.BufferUtil;
import org.agrona.DirectBuffer;
import org.agrona.collections.Int2ObjectHashMap;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The session, engine shard and Order Token of every order of this gateway that traded today, by clientOrderId, so
 * that an engine TradeBroken can be answered with OUCH 4.2 Broken Trade even when the order is done (fully executed,
 * canceled) and its {@link OrderState} gone. An order is recorded at its first execution. Nothing is hashed per order
 * or ever copied to grow, and the per-order state is held off the Java heap (direct memory), so that the day's traded
 * orders, which live as long as the gateway, are never copied by a young garbage collection: the traded orders are
 * appended to pages of {@value #PAGE_CAPACITY} records of {@value #RECORD_LENGTH} bytes (the session index of the
 * clientOrderId, the shard, the token), and each session index ({@code gatewayId << 56 | sessionIndex << 32 | count})
 * keeps its session and a directory, by the per-session order count, of pages of {@value #PAGE_CAPACITY} slots
 * holding an order's place in them plus one, allocated when first touched: 4 bytes per order a session entered up to
 * its last traded one, plus {@value #RECORD_LENGTH} per traded order. Orders that traded before a gateway restart are
 * recorded again from the journals when it starts ({@link OrderRebuild}). At the day's end the pages are freed at once
 * ({@link #free()}), not when a garbage collection finds their buffers unreachable, which on a gateway running for days
 * may come only when the direct memory limit is reached. Used only by the gateway agent thread.
 * <pre>
 *   Record, 24 bytes, native byte order:
 *     0 session index (4)   4 shard id (4)   8 Order Token (14)   22 padding (2)
 * </pre>
 */
final class TradedOrders
{
    /** Returned by {@link #find(long)} for an order that never traded here. */
    static final int MISSING = -1;
    /** Entries per page, of the traded orders and of a session's slots. */
    static final int PAGE_CAPACITY = 16 * 1024;
    /** Bytes of a traded order's record. */
    static final int RECORD_LENGTH = 24;

    private static final int PAGE_SHIFT = Integer.numberOfTrailingZeros(PAGE_CAPACITY);
    private static final int PAGE_MASK = PAGE_CAPACITY - 1;
    private static final int SESSION_INDEX_MASK = 0xFF_FFFF;
    private static final int SESSION_INDEX_OFFSET = 0;
    private static final int SHARD_ID_OFFSET = 4;
    private static final int TOKEN_OFFSET = 8;

    private final Int2ObjectHashMap<SessionOrders> bySessionIndex = new Int2ObjectHashMap<>();
    private final List<UnsafeBuffer> pages = new ArrayList<>();
    private UnsafeBuffer tail;
    private int size;

    /**
     * Records an order at an execution of it; later executions of the same order change nothing.
     *
     * @param order the traded order.
     * @throws OutOfMemoryError when no direct memory is left for a new page.
     */
    void onExecuted(final OrderState order)
    {
        if (order.traded)
        {
            return;
        }
        order.traded = true;
        final int sessionIndex = sessionIndex(order.clientOrderId);
        final int count = (int)order.clientOrderId;
        SessionOrders sessionOrders = bySessionIndex.get(sessionIndex);
        if (null == sessionOrders)
        {
            sessionOrders = new SessionOrders(order.session, 1 + (count >>> PAGE_SHIFT));
            bySessionIndex.put(sessionIndex, sessionOrders);
        }
        final UnsafeBuffer slots = sessionOrders.slots(count >>> PAGE_SHIFT);
        final int slotOffset = (count & PAGE_MASK) * Integer.BYTES;
        if (0 != slots.getInt(slotOffset))
        {
            return;
        }
        final int index = size++;
        final int slot = index & PAGE_MASK;
        if (0 == slot)
        {
            tail = new UnsafeBuffer(ByteBuffer.allocateDirect(PAGE_CAPACITY * RECORD_LENGTH));
            pages.add(tail);
        }
        final int offset = slot * RECORD_LENGTH;
        tail.putInt(offset + SESSION_INDEX_OFFSET, sessionIndex);
        tail.putInt(offset + SHARD_ID_OFFSET, order.shardId);
        tail.putBytes(offset + TOKEN_OFFSET, order.token, 0, Ouch42.TOKEN_LENGTH);
        slots.putInt(slotOffset, index + 1);
    }

    /**
     * @param clientOrderId one of this gateway's clientOrderIds.
     * @return the index for the accessors, or {@link #MISSING}.
     */
    int find(final long clientOrderId)
    {
        final SessionOrders sessionOrders = bySessionIndex.get(sessionIndex(clientOrderId));
        final int count = (int)clientOrderId;
        if (null == sessionOrders || count < 0)
        {
            return MISSING;
        }
        final UnsafeBuffer slots = sessionOrders.slotsIfAny(count >>> PAGE_SHIFT);
        return null == slots ? MISSING : slots.getInt((count & PAGE_MASK) * Integer.BYTES) - 1;
    }

    /**
     * Frees the direct memory of every page and forgets every order: {@link #find(long)} then finds none, and
     * {@link #onExecuted} starts again on new pages. No buffer of a page may be used after: {@link #tokens(int)}'s is
     * valid only until then.
     */
    void free()
    {
        for (final UnsafeBuffer page : pages)
        {
            BufferUtil.free(page);
        }
        for (final SessionOrders sessionOrders : bySessionIndex.values())
        {
            for (final UnsafeBuffer slots : sessionOrders.directory)
            {
                if (null != slots)
                {
                    BufferUtil.free(slots);
                }
            }
        }
        pages.clear();
        bySessionIndex.clear();
        tail = null;
        size = 0;
    }

    /** @return bytes of direct memory held: the pages of records and of slots. */
    long directBytes()
    {
        long bytes = (long)pages.size() * PAGE_CAPACITY * RECORD_LENGTH;
        for (final SessionOrders sessionOrders : bySessionIndex.values())
        {
            for (final UnsafeBuffer slots : sessionOrders.directory)
            {
                bytes += null == slots ? 0 : slots.capacity();
            }
        }
        return bytes;
    }

    /**
     * @param index from {@link #find(long)}.
     * @return the session the order was entered on.
     */
    UserSession session(final int index)
    {
        return bySessionIndex.get(page(index).getInt(recordOffset(index) + SESSION_INDEX_OFFSET)).session;
    }

    /**
     * @param index from {@link #find(long)}.
     * @return the engine shard the order was sent to.
     */
    int shardId(final int index)
    {
        return page(index).getInt(recordOffset(index) + SHARD_ID_OFFSET);
    }

    /**
     * @param index from {@link #find(long)}.
     * @return the buffer holding the order's token, {@link Ouch42#TOKEN_LENGTH} bytes at {@link #tokenOffset(int)}.
     */
    DirectBuffer tokens(final int index)
    {
        return page(index);
    }

    /**
     * @param index from {@link #find(long)}.
     * @return where the order's token starts in {@link #tokens(int)}.
     */
    static int tokenOffset(final int index)
    {
        return recordOffset(index) + TOKEN_OFFSET;
    }

    private UnsafeBuffer page(final int index)
    {
        return pages.get(index >>> PAGE_SHIFT);
    }

    private static int recordOffset(final int index)
    {
        return (index & PAGE_MASK) * RECORD_LENGTH;
    }

    private static int sessionIndex(final long clientOrderId)
    {
        return (int)(clientOrderId >>> 32) & SESSION_INDEX_MASK;
    }

    /** The orders of one session index: its session, and the slots of its orders by count, in pages. */
    private static final class SessionOrders
    {
        final UserSession session;
        UnsafeBuffer[] directory;

        SessionOrders(final UserSession session, final int pages)
        {
            this.session = session;
            directory = new UnsafeBuffer[pages];
        }

        /** @return the page of slots, allocated when first touched. */
        UnsafeBuffer slots(final int page)
        {
            if (directory.length <= page)
            {
                directory = Arrays.copyOf(directory, Math.max(directory.length * 2, 1 + page));
            }
            UnsafeBuffer slots = directory[page];
            if (null == slots)
            {
                slots = new UnsafeBuffer(ByteBuffer.allocateDirect(PAGE_CAPACITY * Integer.BYTES));
                directory[page] = slots;
            }
            return slots;
        }

        /** @return the page of slots, or null if none of its orders traded. */
        UnsafeBuffer slotsIfAny(final int page)
        {
            return page < directory.length ? directory[page] : null;
        }
    }
}
