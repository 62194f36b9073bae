package io.bourse.ouch;

import org.agrona.DirectBuffer;

/**
 * OUCH 4.2 Order Modified ('M', outbound): a Modify Order was applied; echoes the order's side and size as they
 * now stand, with the order's priority on the book unchanged.
 * <pre>
 * +--------+--------+------------------------------+
 * | Offset | Length | Field                        |
 * +--------+--------+------------------------------+
 * |      0 |      1 | Message Type 'M'             |
 * |      1 |      8 | Timestamp (integer)          |
 * |      9 |     14 | Order Token (alpha)          |
 * |     23 |      1 | Buy/Sell Indicator (alpha)   |
 * |     24 |      4 | Shares (integer)             |
 * +--------+--------+------------------------------+
 * Total: 28 bytes; integers big-endian, unsigned; alphas ASCII, space padded on the right.
 * </pre>
 * The {@code String} forms of the alpha fields allocate: they are for tests and tools, not for hot paths.
 */
public final class OrderModified extends OuchFlyweight<OrderModified>
{
    /** Message Type. */
    public static final byte TYPE = Ouch42.ORDER_MODIFIED;
    /** Length of the message in bytes, Message Type included. */
    public static final int LENGTH = 28;

    /** Offset of Message Type. */
    public static final int MESSAGE_TYPE_OFFSET = 0;
    /** Offset of Timestamp (integer 8). */
    public static final int TIMESTAMP_OFFSET = 1;
    /** Offset of Order Token (alpha 14). */
    public static final int ORDER_TOKEN_OFFSET = 9;
    /** Offset of Buy/Sell Indicator (alpha 1). */
    public static final int BUY_SELL_INDICATOR_OFFSET = 23;
    /** Offset of Shares (integer 4). */
    public static final int SHARES_OFFSET = 24;

    /** Creates an unwrapped flyweight: call {@link #wrap} or {@link #wrapAndApplyType} before the accessors. */
    public OrderModified()
    {
        super(TYPE, LENGTH);
    }

    /** @return Timestamp in nanoseconds since midnight. */
    public long timestamp()
    {
        return getInt64(TIMESTAMP_OFFSET);
    }

    /**
     * @param value Timestamp in nanoseconds since midnight.
     * @return this.
     */
    public OrderModified timestamp(final long value)
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
    public OrderModified orderToken(final byte[] src)
    {
        return putToken(ORDER_TOKEN_OFFSET, src);
    }

    /**
     * @param src buffer holding the 14 bytes of the Order Token, already space padded.
     * @param srcOffset of the first byte.
     * @return this.
     */
    public OrderModified orderToken(final DirectBuffer src, final int srcOffset)
    {
        return putToken(ORDER_TOKEN_OFFSET, src, srcOffset);
    }

    /**
     * @param token at most 14 ASCII characters; space padded on the right (allocation free, but meant for tools).
     * @return this.
     * @throws IllegalArgumentException when longer than 14 characters or not ASCII.
     */
    public OrderModified orderToken(final String token)
    {
        return putToken(ORDER_TOKEN_OFFSET, token);
    }

    /** @return the Order Token without its padding (allocates). */
    public String orderTokenAsString()
    {
        return getTokenAsString(ORDER_TOKEN_OFFSET);
    }

    /** @return Buy/Sell Indicator: the order's side after the modification, 'S', 'T' or 'E'. */
    public byte buySellIndicator()
    {
        return getChar(BUY_SELL_INDICATOR_OFFSET);
    }

    /**
     * @param value Buy/Sell Indicator code.
     * @return this.
     */
    public OrderModified buySellIndicator(final byte value)
    {
        return putChar(BUY_SELL_INDICATOR_OFFSET, value);
    }

    /** @return Shares: the order's size after the modification, unsigned. */
    public long shares()
    {
        return getUInt32(SHARES_OFFSET);
    }

    /**
     * @param value Shares; the low 32 bits are written.
     * @return this.
     */
    public OrderModified shares(final long value)
    {
        return putUInt32(SHARES_OFFSET, value);
    }
}
