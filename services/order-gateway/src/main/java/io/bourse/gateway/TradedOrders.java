package io.bourse.gateway;

import io.bourse.ouch.Ouch42;
import org.agrona.DirectBuffer;
import org.agrona.collections.Int2ObjectHashMap;
import org.agrona.concurrent.UnsafeBuffer;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The session, engine shard and Order Token of every order of this gateway that traded today, by clientOrderId, so
 * that an engine TradeBroken can be answered with OUCH 4.2 Broken Trade even when the order is done (fully executed,
 * canceled) and its {@link OrderState} gone. An order is recorded at its first execution. Nothing is hashed or ever
 * copied to grow: the traded orders are appended to pages of {@value #PAGE_CAPACITY}, and each session keeps a
 * directory, by the per-session order count of the clientOrderId ({@code gatewayId << 56 | sessionIndex << 32 |
 * count}), of pages of {@value #PAGE_CAPACITY} slots holding an order's place in them, allocated when first touched:
 * 4 bytes per order a session entered up to its last traded one, plus 23 per traded order. Orders that traded before a
 * gateway restart are recorded again from the journals when it starts ({@link OrderRebuild}). Used only by the
 * gateway agent thread.
 */
final class TradedOrders
{
    /** Returned by {@link #find(long)} for an order that never traded here. */
    static final int MISSING = -1;
    /** Entries per page, of the traded orders and of a session's slots. */
    static final int PAGE_CAPACITY = 16 * 1024;

    private static final int PAGE_SHIFT = Integer.numberOfTrailingZeros(PAGE_CAPACITY);
    private static final int PAGE_MASK = PAGE_CAPACITY - 1;
    private static final int SESSION_INDEX_MASK = 0xFF_FFFF;

    private final Int2ObjectHashMap<int[][]> slotsBySessionIndex = new Int2ObjectHashMap<>();
    private final List<Page> pages = new ArrayList<>();
    private Page tail;
    private int size;

    /**
     * Records an order at an execution of it; later executions of the same order change nothing.
     *
     * @param order the traded order.
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
        int[][] directory = slotsBySessionIndex.get(sessionIndex);
        if (null == directory)
        {
            directory = new int[1 + (count >>> PAGE_SHIFT)][];
            slotsBySessionIndex.put(sessionIndex, directory);
        }
        else if (directory.length <= count >>> PAGE_SHIFT)
        {
            directory = Arrays.copyOf(directory, Math.max(directory.length * 2, 1 + (count >>> PAGE_SHIFT)));
            slotsBySessionIndex.put(sessionIndex, directory);
        }
        int[] slots = directory[count >>> PAGE_SHIFT];
        if (null == slots)
        {
            slots = new int[PAGE_CAPACITY];
            directory[count >>> PAGE_SHIFT] = slots;
        }
        if (0 != slots[count & PAGE_MASK])
        {
            return;
        }
        final int index = size++;
        final int slot = index & PAGE_MASK;
        if (0 == slot)
        {
            tail = new Page();
            pages.add(tail);
        }
        tail.sessions[slot] = order.session;
        tail.shardIds[slot] = order.shardId;
        tail.tokens.putBytes(slot * Ouch42.TOKEN_LENGTH, order.token, 0, Ouch42.TOKEN_LENGTH);
        slots[count & PAGE_MASK] = index + 1;
    }

    /**
     * @param clientOrderId one of this gateway's clientOrderIds.
     * @return the index for the accessors, or {@link #MISSING}.
     */
    int find(final long clientOrderId)
    {
        final int[][] directory = slotsBySessionIndex.get(sessionIndex(clientOrderId));
        final int count = (int)clientOrderId;
        if (null == directory || count < 0 || directory.length <= count >>> PAGE_SHIFT ||
            null == directory[count >>> PAGE_SHIFT])
        {
            return MISSING;
        }
        return directory[count >>> PAGE_SHIFT][count & PAGE_MASK] - 1;
    }

    /**
     * @param index from {@link #find(long)}.
     * @return the session the order was entered on.
     */
    UserSession session(final int index)
    {
        return pages.get(index >>> PAGE_SHIFT).sessions[index & PAGE_MASK];
    }

    /**
     * @param index from {@link #find(long)}.
     * @return the engine shard the order was sent to.
     */
    int shardId(final int index)
    {
        return pages.get(index >>> PAGE_SHIFT).shardIds[index & PAGE_MASK];
    }

    /**
     * @param index from {@link #find(long)}.
     * @return the buffer holding the order's token, {@link Ouch42#TOKEN_LENGTH} bytes at {@link #tokenOffset(int)}.
     */
    DirectBuffer tokens(final int index)
    {
        return pages.get(index >>> PAGE_SHIFT).tokens;
    }

    /**
     * @param index from {@link #find(long)}.
     * @return where the order's token starts in {@link #tokens(int)}.
     */
    static int tokenOffset(final int index)
    {
        return (index & PAGE_MASK) * Ouch42.TOKEN_LENGTH;
    }

    private static int sessionIndex(final long clientOrderId)
    {
        return (int)(clientOrderId >>> 32) & SESSION_INDEX_MASK;
    }

    /** One page of traded orders, in the order of their first executions. */
    private static final class Page
    {
        final UserSession[] sessions = new UserSession[PAGE_CAPACITY];
        final int[] shardIds = new int[PAGE_CAPACITY];
        final UnsafeBuffer tokens = new UnsafeBuffer(new byte[PAGE_CAPACITY * Ouch42.TOKEN_LENGTH]);
    }
}
