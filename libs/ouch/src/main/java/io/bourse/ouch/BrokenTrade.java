package io.bourse.ouch;

import org.agrona.DirectBuffer;

/**
 * OUCH 4.2 Broken Trade ('B', outbound): an execution was broken; the trade is no longer good and will not clear.
 * Always follows the Executed message of the same Match Number.
 * <pre>
 * +--------+--------+--------------------------+
 * | Offset | Length | Field                    |
 * +--------+--------+--------------------------+
 * |      0 |      1 | Message Type 'B'         |
 * |      1 |      8 | Timestamp (integer)      |
 * |      9 |     14 | Order Token (alpha)      |
 * |     23 |      8 | Match Number (integer)   |
 * |     31 |      1 | Reason (alpha)           |
 * +--------+--------+--------------------------+
 * Total: 32 bytes; integers big-endian, unsigned; alphas ASCII, space padded on the right.
 * </pre>
 * The {@code String} forms of the alpha fields allocate: they are for tests and tools, not for hot paths.
 */
public final class BrokenTrade extends OuchFlyweight<BrokenTrade>
{
    /** Message Type. */
    public static final byte TYPE = Ouch42.BROKEN_TRADE;
    /** Length of the message in bytes, Message Type included. */
    public static final int LENGTH = 32;

    /** Offset of Message Type. */
    public static final int MESSAGE_TYPE_OFFSET = 0;
    /** Offset of Timestamp (integer 8). */
    public static final int TIMESTAMP_OFFSET = 1;
    /** Offset of Order Token (alpha 14). */
    public static final int ORDER_TOKEN_OFFSET = 9;
    /** Offset of Match Number (integer 8). */
    public static final int MATCH_NUMBER_OFFSET = 23;
    /** Offset of Reason (alpha 1). */
    public static final int REASON_OFFSET = 31;

    /** Creates an unwrapped flyweight: call {@link #wrap} or {@link #wrapAndApplyType} before the accessors. */
    public BrokenTrade()
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
    public BrokenTrade timestamp(final long value)
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
    public BrokenTrade orderToken(final byte[] src)
    {
        return putToken(ORDER_TOKEN_OFFSET, src);
    }

    /**
     * @param src buffer holding the 14 bytes of the Order Token, already space padded.
     * @param srcOffset of the first byte.
     * @return this.
     */
    public BrokenTrade orderToken(final DirectBuffer src, final int srcOffset)
    {
        return putToken(ORDER_TOKEN_OFFSET, src, srcOffset);
    }

    /**
     * @param token at most 14 ASCII characters; space padded on the right (allocation free, but meant for tools).
     * @return this.
     * @throws IllegalArgumentException when longer than 14 characters or not ASCII.
     */
    public BrokenTrade orderToken(final String token)
    {
        return putToken(ORDER_TOKEN_OFFSET, token);
    }

    /** @return the Order Token without its padding (allocates). */
    public String orderTokenAsString()
    {
        return getTokenAsString(ORDER_TOKEN_OFFSET);
    }

    /** @return Match Number: the broken execution, as its Executed message gave it (ITCH 5.0 Match Number). */
    public long matchNumber()
    {
        return getInt64(MATCH_NUMBER_OFFSET);
    }

    /**
     * @param value Match Number.
     * @return this.
     */
    public BrokenTrade matchNumber(final long value)
    {
        return putInt64(MATCH_NUMBER_OFFSET, value);
    }

    /** @return Reason: why the trade was broken, a {@code BROKEN_TRADE_*} code of {@link Ouch42}. */
    public byte reason()
    {
        return getChar(REASON_OFFSET);
    }

    /**
     * @param value Reason code.
     * @return this.
     */
    public BrokenTrade reason(final byte value)
    {
        return putChar(REASON_OFFSET, value);
    }
}
