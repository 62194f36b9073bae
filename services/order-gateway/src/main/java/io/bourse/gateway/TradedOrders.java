package io.bourse.gateway;

import io.bourse.ouch.Ouch42;
import org.agrona.DirectBuffer;
import org.agrona.ExpandableArrayBuffer;
import org.agrona.collections.Hashing;
import org.agrona.collections.Long2LongHashMap;

import java.util.Arrays;

/**
 * The session and Order Token of every order of this gateway that traded today, by clientOrderId, so that an engine
 * TradeBroken can be answered with OUCH 4.2 Broken Trade even when the order is done (fully executed, canceled) and
 * its {@link OrderState} gone. An order is recorded at its first execution; the registry grows (doubling) only when
 * full and is bounded by the orders that trade in a day. Orders that traded before a gateway restart are not known
 * after it. Used only by the gateway agent thread.
 */
final class TradedOrders
{
    /** Returned by {@link #find(long)} for an order that never traded here. */
    static final int MISSING = -1;

    private final Long2LongHashMap indexByClientOrderId;
    private UserSession[] sessions;
    private final ExpandableArrayBuffer tokens;
    private int size;

    /**
     * @param initialCapacity orders held before the registry first grows.
     */
    TradedOrders(final int initialCapacity)
    {
        indexByClientOrderId = new Long2LongHashMap(initialCapacity * 2, Hashing.DEFAULT_LOAD_FACTOR, MISSING);
        sessions = new UserSession[initialCapacity];
        tokens = new ExpandableArrayBuffer(initialCapacity * Ouch42.TOKEN_LENGTH);
    }

    /**
     * Records an order at an execution of it; later executions of the same order change nothing.
     *
     * @param order the traded order.
     */
    void onExecuted(final OrderState order)
    {
        if (MISSING != indexByClientOrderId.get(order.clientOrderId))
        {
            return;
        }
        if (size == sessions.length)
        {
            sessions = Arrays.copyOf(sessions, size * 2);
        }
        final int index = size++;
        sessions[index] = order.session;
        tokens.putBytes(tokenOffset(index), order.token);
        indexByClientOrderId.put(order.clientOrderId, index);
    }

    /**
     * @param clientOrderId one of this gateway's clientOrderIds.
     * @return the index for {@link #session(int)} and {@link #tokenOffset(int)}, or {@link #MISSING}.
     */
    int find(final long clientOrderId)
    {
        return (int)indexByClientOrderId.get(clientOrderId);
    }

    /**
     * @param index from {@link #find(long)}.
     * @return the session the order was entered on.
     */
    UserSession session(final int index)
    {
        return sessions[index];
    }

    /**
     * @return the buffer holding the tokens, {@link Ouch42#TOKEN_LENGTH} bytes each at {@link #tokenOffset(int)}.
     */
    DirectBuffer tokens()
    {
        return tokens;
    }

    /**
     * @param index from {@link #find(long)}.
     * @return where the order's token starts in {@link #tokens()}.
     */
    static int tokenOffset(final int index)
    {
        return index * Ouch42.TOKEN_LENGTH;
    }
}
