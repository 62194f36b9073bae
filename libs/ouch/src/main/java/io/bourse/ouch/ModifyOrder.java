package io.bourse.ouch;

import org.agrona.DirectBuffer;

/**
 * OUCH 4.2 Modify Order ('M', inbound): change an open order in ways that keep its priority on the book — its side
 * among sell, sell short and sell short exempt, and its size downwards.
 * <pre>
 * +--------+--------+------------------------------+
 * | Offset | Length | Field                        |
 * +--------+--------+------------------------------+
 * |      0 |      1 | Message Type 'M'             |
 * |      1 |     14 | Order Token (alpha)          |
 * |     15 |      1 | Buy/Sell Indicator (alpha)   |
 * |     16 |      4 | Shares (integer)             |
 * +--------+--------+------------------------------+
 * Total: 20 bytes; integers big-endian, unsigned; alphas ASCII, space padded on the right.
 * </pre>
 * The {@code String} forms of the alpha fields allocate: they are for tests and tools, not for hot paths.
 */
public final class ModifyOrder extends OuchFlyweight<ModifyOrder>
{
    /** Message Type. */
    public static final byte TYPE = Ouch42.MODIFY_ORDER;
    /** Length of the message in bytes, Message Type included. */
    public static final int LENGTH = 20;

    /** Offset of Message Type. */
    public static final int MESSAGE_TYPE_OFFSET = 0;
    /** Offset of Order Token (alpha 14). */
    public static final int ORDER_TOKEN_OFFSET = 1;
    /** Offset of Buy/Sell Indicator (alpha 1). */
    public static final int BUY_SELL_INDICATOR_OFFSET = 15;
    /** Offset of Shares (integer 4). */
    public static final int SHARES_OFFSET = 16;

    /** Creates an unwrapped flyweight: call {@link #wrap} or {@link #wrapAndApplyType} before the accessors. */
    public ModifyOrder()
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
    public ModifyOrder orderToken(final byte[] src)
    {
        return putToken(ORDER_TOKEN_OFFSET, src);
    }

    /**
     * @param src buffer holding the 14 bytes of the Order Token, already space padded.
     * @param srcOffset of the first byte.
     * @return this.
     */
    public ModifyOrder orderToken(final DirectBuffer src, final int srcOffset)
    {
        return putToken(ORDER_TOKEN_OFFSET, src, srcOffset);
    }

    /**
     * @param token at most 14 ASCII characters; space padded on the right (allocation free, but meant for tools).
     * @return this.
     * @throws IllegalArgumentException when longer than 14 characters or not ASCII.
     */
    public ModifyOrder orderToken(final String token)
    {
        return putToken(ORDER_TOKEN_OFFSET, token);
    }

    /** @return the Order Token without its padding (allocates). */
    public String orderTokenAsString()
    {
        return getTokenAsString(ORDER_TOKEN_OFFSET);
    }

    /**
     * @return Buy/Sell Indicator: the new side; the spec allows only changes among 'S' (sell), 'T' (sell short) and
     * 'E' (sell short exempt).
     */
    public byte buySellIndicator()
    {
        return getChar(BUY_SELL_INDICATOR_OFFSET);
    }

    /**
     * @param value Buy/Sell Indicator code.
     * @return this.
     */
    public ModifyOrder buySellIndicator(final byte value)
    {
        return putChar(BUY_SELL_INDICATOR_OFFSET, value);
    }

    /** @return Shares: the new intended order size, unsigned (0 cancels the open shares; no increase allowed). */
    public long shares()
    {
        return getUInt32(SHARES_OFFSET);
    }

    /**
     * @param value Shares; the low 32 bits are written.
     * @return this.
     */
    public ModifyOrder shares(final long value)
    {
        return putUInt32(SHARES_OFFSET, value);
    }
}
