package io.bourse.ouch;

import org.agrona.DirectBuffer;

/**
 * OUCH 4.2 Rejected ('J', outbound): an Enter Order, or the replacement of a Replace Order, was refused; the token
 * stays used for the day.
 * <pre>
 * +--------+--------+-----------------------+
 * | Offset | Length | Field                 |
 * +--------+--------+-----------------------+
 * |      0 |      1 | Message Type 'J'      |
 * |      1 |      8 | Timestamp (integer)   |
 * |      9 |     14 | Order Token (alpha)   |
 * |     23 |      1 | Reason (alpha)        |
 * +--------+--------+-----------------------+
 * Total: 24 bytes; integers big-endian, unsigned; alphas ASCII, space padded on the right.
 * </pre>
 * The {@code String} forms of the alpha fields allocate: they are for tests and tools, not for hot paths.
 */
public final class OrderRejected extends OuchFlyweight<OrderRejected>
{
    /** Message Type. */
    public static final byte TYPE = Ouch42.REJECTED;
    /** Length of the message in bytes, Message Type included. */
    public static final int LENGTH = 24;

    /** Offset of Message Type. */
    public static final int MESSAGE_TYPE_OFFSET = 0;
    /** Offset of Timestamp (integer 8). */
    public static final int TIMESTAMP_OFFSET = 1;
    /** Offset of Order Token (alpha 14). */
    public static final int ORDER_TOKEN_OFFSET = 9;
    /** Offset of Reason (alpha 1). */
    public static final int REASON_OFFSET = 23;

    /** Creates an unwrapped flyweight: call {@link #wrap} or {@link #wrapAndApplyType} before the accessors. */
    public OrderRejected()
    {
        super(TYPE, LENGTH);
    }

    /** @return Timestamp in nanoseconds since midnight. */
    public long timestamp()
    {
        return getInt64(TIMESTAMP_OFFSET);
    }

    /**
     * @param value Timestamp.
     * @return this.
     */
    public OrderRejected timestamp(final long value)
    {
        return putInt64(TIMESTAMP_OFFSET, value);
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
    public OrderRejected orderToken(final byte[] src)
    {
        return putToken(ORDER_TOKEN_OFFSET, src);
    }

    /**
     * @param src buffer holding the 14 bytes of the Order Token, already space padded.
     * @param srcOffset of the first byte.
     * @return this.
     */
    public OrderRejected orderToken(final DirectBuffer src, final int srcOffset)
    {
        return putToken(ORDER_TOKEN_OFFSET, src, srcOffset);
    }

    /**
     * @param token at most 14 ASCII characters; space padded on the right (allocation free, but meant for tools).
     * @return this.
     * @throws IllegalArgumentException when longer than 14 characters or not ASCII.
     */
    public OrderRejected orderToken(final String token)
    {
        return putToken(ORDER_TOKEN_OFFSET, token);
    }

    /** @return the Order Token without its padding (allocates). */
    public String orderTokenAsString()
    {
        return getTokenAsString(ORDER_TOKEN_OFFSET);
    }

    /** @return Reason: why the order was rejected, a {@code REJECT_*} code of {@link Ouch42}. */
    public byte reason()
    {
        return getChar(REASON_OFFSET);
    }

    /**
     * @param value Reason code.
     * @return this.
     */
    public OrderRejected reason(final byte value)
    {
        return putChar(REASON_OFFSET, value);
    }
}
