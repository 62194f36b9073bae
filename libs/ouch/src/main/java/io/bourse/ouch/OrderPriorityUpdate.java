package io.bourse.ouch;

import org.agrona.DirectBuffer;

/**
 * OUCH 4.2 Order Priority Update ('T', outbound): the exchange changed the order's priority on the book (e.g. it
 * repriced the order); gives the price, display and Order Reference Number the order now rests with.
 * <pre>
 * +--------+--------+------------------------------------+
 * | Offset | Length | Field                              |
 * +--------+--------+------------------------------------+
 * |      0 |      1 | Message Type 'T'                   |
 * |      1 |      8 | Timestamp (integer)                |
 * |      9 |     14 | Order Token (alpha)                |
 * |     23 |      4 | Price (price)                      |
 * |     27 |      1 | Display (alpha)                    |
 * |     28 |      8 | Order Reference Number (integer)   |
 * +--------+--------+------------------------------------+
 * Total: 36 bytes; integers big-endian, unsigned; alphas ASCII, space padded on the right.
 * </pre>
 * The {@code String} forms of the alpha fields allocate: they are for tests and tools, not for hot paths.
 */
public final class OrderPriorityUpdate extends OuchFlyweight<OrderPriorityUpdate>
{
    /** Message Type. */
    public static final byte TYPE = Ouch42.ORDER_PRIORITY_UPDATE;
    /** Length of the message in bytes, Message Type included. */
    public static final int LENGTH = 36;

    /** Offset of Message Type. */
    public static final int MESSAGE_TYPE_OFFSET = 0;
    /** Offset of Timestamp (integer 8). */
    public static final int TIMESTAMP_OFFSET = 1;
    /** Offset of Order Token (alpha 14). */
    public static final int ORDER_TOKEN_OFFSET = 9;
    /** Offset of Price (price 4). */
    public static final int PRICE_OFFSET = 23;
    /** Offset of Display (alpha 1). */
    public static final int DISPLAY_OFFSET = 27;
    /** Offset of Order Reference Number (integer 8). */
    public static final int ORDER_REFERENCE_NUMBER_OFFSET = 28;

    /** Creates an unwrapped flyweight: call {@link #wrap} or {@link #wrapAndApplyType} before the accessors. */
    public OrderPriorityUpdate()
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
    public OrderPriorityUpdate timestamp(final long value)
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
    public OrderPriorityUpdate orderToken(final byte[] src)
    {
        return putToken(ORDER_TOKEN_OFFSET, src);
    }

    /**
     * @param src buffer holding the 14 bytes of the Order Token, already space padded.
     * @param srcOffset of the first byte.
     * @return this.
     */
    public OrderPriorityUpdate orderToken(final DirectBuffer src, final int srcOffset)
    {
        return putToken(ORDER_TOKEN_OFFSET, src, srcOffset);
    }

    /**
     * @param token at most 14 ASCII characters; space padded on the right (allocation free, but meant for tools).
     * @return this.
     * @throws IllegalArgumentException when longer than 14 characters or not ASCII.
     */
    public OrderPriorityUpdate orderToken(final String token)
    {
        return putToken(ORDER_TOKEN_OFFSET, token);
    }

    /** @return the Order Token without its padding (allocates). */
    public String orderTokenAsString()
    {
        return getTokenAsString(ORDER_TOKEN_OFFSET);
    }

    /** @return Price: the order's new price in 1/10000 dollars, unsigned. */
    public long price()
    {
        return getUInt32(PRICE_OFFSET);
    }

    /**
     * @param value Price in 1/10000 dollars; the low 32 bits are written.
     * @return this.
     */
    public OrderPriorityUpdate price(final long value)
    {
        return putUInt32(PRICE_OFFSET, value);
    }

    /** @return Display: the order's display after the update, e.g. 'Y'. */
    public byte display()
    {
        return getChar(DISPLAY_OFFSET);
    }

    /**
     * @param value Display code.
     * @return this.
     */
    public OrderPriorityUpdate display(final byte value)
    {
        return putChar(DISPLAY_OFFSET, value);
    }

    /** @return Order Reference Number: the order's new day-unique id on the book (ITCH 5.0 Order Reference Number). */
    public long orderReferenceNumber()
    {
        return getInt64(ORDER_REFERENCE_NUMBER_OFFSET);
    }

    /**
     * @param value Order Reference Number.
     * @return this.
     */
    public OrderPriorityUpdate orderReferenceNumber(final long value)
    {
        return putInt64(ORDER_REFERENCE_NUMBER_OFFSET, value);
    }
}
