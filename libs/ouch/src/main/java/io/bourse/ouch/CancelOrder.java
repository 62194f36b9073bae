package io.bourse.ouch;

import org.agrona.DirectBuffer;

/**
 * OUCH 4.2 Cancel Order ('X', inbound): reduce an order to a new intended size; Shares 0 cancels it entirely.
 * <pre>
 * +--------+--------+-----------------------+
 * | Offset | Length | Field                 |
 * +--------+--------+-----------------------+
 * |      0 |      1 | Message Type 'X'      |
 * |      1 |     14 | Order Token (alpha)   |
 * |     15 |      4 | Shares (integer)      |
 * +--------+--------+-----------------------+
 * Total: 19 bytes; integers big-endian, unsigned; alphas ASCII, space padded on the right.
 * </pre>
 * The {@code String} forms of the alpha fields allocate: they are for tests and tools, not for hot paths.
 */
public final class CancelOrder extends OuchFlyweight<CancelOrder>
{
    /** Message Type. */
    public static final byte TYPE = Ouch42.CANCEL_ORDER;
    /** Length of the message in bytes, Message Type included. */
    public static final int LENGTH = 19;

    /** Offset of Message Type. */
    public static final int MESSAGE_TYPE_OFFSET = 0;
    /** Offset of Order Token (alpha 14). */
    public static final int ORDER_TOKEN_OFFSET = 1;
    /** Offset of Shares (integer 4). */
    public static final int SHARES_OFFSET = 15;

    /** Creates an unwrapped flyweight: call {@link #wrap} or {@link #wrapAndApplyType} before the accessors. */
    public CancelOrder()
    {
        super(TYPE, LENGTH);
    }

    /**
     * Copies the Order Token.
     *
     * @param dst receives the 14 bytes as they stand, padding included, from index 0.
     */
    public void getOrderToken(final byte[] dst)
    {
        getToken(ORDER_TOKEN_OFFSET, dst);
    }

    /**
     * @param src the 14 bytes of the Order Token, already space padded, from index 0.
     * @return this.
     */
    public CancelOrder orderToken(final byte[] src)
    {
        return putToken(ORDER_TOKEN_OFFSET, src);
    }

    /**
     * @param src buffer holding the 14 bytes of the Order Token, already space padded.
     * @param srcOffset of the first byte.
     * @return this.
     */
    public CancelOrder orderToken(final DirectBuffer src, final int srcOffset)
    {
        return putToken(ORDER_TOKEN_OFFSET, src, srcOffset);
    }

    /**
     * @param token at most 14 ASCII characters; space padded on the right (allocation free, but meant for tools).
     * @return this.
     * @throws IllegalArgumentException when longer than 14 characters or not ASCII.
     */
    public CancelOrder orderToken(final String token)
    {
        return putToken(ORDER_TOKEN_OFFSET, token);
    }

    /** @return the Order Token without its padding (allocates). */
    public String orderTokenAsString()
    {
        return getTokenAsString(ORDER_TOKEN_OFFSET);
    }

    /** @return Shares: the new intended order size, unsigned (0 cancels the whole order). */
    public long shares()
    {
        return getUInt32(SHARES_OFFSET);
    }

    /**
     * @param value Shares; the low 32 bits are written.
     * @return this.
     */
    public CancelOrder shares(final long value)
    {
        return putUInt32(SHARES_OFFSET, value);
    }
}
