package io.bourse.ouch;

import org.agrona.DirectBuffer;

/**
 * OUCH 4.2 AIQ Canceled ('D', outbound): the order was reduced or canceled by anti-internalization (self-match
 * prevention); also says how many shares were kept from trading, and at what price and liquidity they would have
 * traded.
 * <pre>
 * +--------+--------+---------------------------------------------+
 * | Offset | Length | Field                                       |
 * +--------+--------+---------------------------------------------+
 * |      0 |      1 | Message Type 'D'                            |
 * |      1 |      8 | Timestamp (integer)                         |
 * |      9 |     14 | Order Token (alpha)                         |
 * |     23 |      4 | Decrement Shares (integer)                  |
 * |     27 |      1 | Reason (alpha)                              |
 * |     28 |      4 | Quantity Prevented from Trading (integer)   |
 * |     32 |      4 | Execution Price (price)                     |
 * |     36 |      1 | Liquidity Flag (alpha)                      |
 * +--------+--------+---------------------------------------------+
 * Total: 37 bytes; integers big-endian, unsigned; alphas ASCII, space padded on the right.
 * </pre>
 * The {@code String} forms of the alpha fields allocate: they are for tests and tools, not for hot paths.
 */
public final class AiqCanceled extends OuchFlyweight<AiqCanceled>
{
    /** Message Type. */
    public static final byte TYPE = Ouch42.AIQ_CANCELED;
    /** Length of the message in bytes, Message Type included. */
    public static final int LENGTH = 37;

    /** Offset of Message Type. */
    public static final int MESSAGE_TYPE_OFFSET = 0;
    /** Offset of Timestamp (integer 8). */
    public static final int TIMESTAMP_OFFSET = 1;
    /** Offset of Order Token (alpha 14). */
    public static final int ORDER_TOKEN_OFFSET = 9;
    /** Offset of Decrement Shares (integer 4). */
    public static final int DECREMENT_SHARES_OFFSET = 23;
    /** Offset of Reason (alpha 1). */
    public static final int REASON_OFFSET = 27;
    /** Offset of Quantity Prevented from Trading (integer 4). */
    public static final int QUANTITY_PREVENTED_FROM_TRADING_OFFSET = 28;
    /** Offset of Execution Price (price 4). */
    public static final int EXECUTION_PRICE_OFFSET = 32;
    /** Offset of Liquidity Flag (alpha 1). */
    public static final int LIQUIDITY_FLAG_OFFSET = 36;

    /** Creates an unwrapped flyweight: call {@link #wrap} or {@link #wrapAndApplyType} before the accessors. */
    public AiqCanceled()
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
    public AiqCanceled timestamp(final long value)
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
    public AiqCanceled orderToken(final byte[] src)
    {
        return putToken(ORDER_TOKEN_OFFSET, src);
    }

    /**
     * @param src buffer holding the 14 bytes of the Order Token, already space padded.
     * @param srcOffset of the first byte.
     * @return this.
     */
    public AiqCanceled orderToken(final DirectBuffer src, final int srcOffset)
    {
        return putToken(ORDER_TOKEN_OFFSET, src, srcOffset);
    }

    /**
     * @param token at most 14 ASCII characters; space padded on the right (allocation free, but meant for tools).
     * @return this.
     * @throws IllegalArgumentException when longer than 14 characters or not ASCII.
     */
    public AiqCanceled orderToken(final String token)
    {
        return putToken(ORDER_TOKEN_OFFSET, token);
    }

    /** @return the Order Token without its padding (allocates). */
    public String orderTokenAsString()
    {
        return getTokenAsString(ORDER_TOKEN_OFFSET);
    }

    /** @return Decrement Shares: shares taken off the order by this cancel, unsigned. */
    public long decrementShares()
    {
        return getUInt32(DECREMENT_SHARES_OFFSET);
    }

    /**
     * @param value Decrement Shares; the low 32 bits are written.
     * @return this.
     */
    public AiqCanceled decrementShares(final long value)
    {
        return putUInt32(DECREMENT_SHARES_OFFSET, value);
    }

    /** @return Reason: always {@link Ouch42#CANCEL_SELF_MATCH_PREVENTION} ('Q') for this message. */
    public byte reason()
    {
        return getChar(REASON_OFFSET);
    }

    /**
     * @param value Reason code.
     * @return this.
     */
    public AiqCanceled reason(final byte value)
    {
        return putChar(REASON_OFFSET, value);
    }

    /** @return Quantity Prevented from Trading: shares that would have executed but for the self-match, unsigned. */
    public long quantityPreventedFromTrading()
    {
        return getUInt32(QUANTITY_PREVENTED_FROM_TRADING_OFFSET);
    }

    /**
     * @param value Quantity Prevented from Trading; the low 32 bits are written.
     * @return this.
     */
    public AiqCanceled quantityPreventedFromTrading(final long value)
    {
        return putUInt32(QUANTITY_PREVENTED_FROM_TRADING_OFFSET, value);
    }

    /** @return Execution Price: the price the prevented trade would have had, in 1/10000 dollars, unsigned. */
    public long executionPrice()
    {
        return getUInt32(EXECUTION_PRICE_OFFSET);
    }

    /**
     * @param value Execution Price in 1/10000 dollars; the low 32 bits are written.
     * @return this.
     */
    public AiqCanceled executionPrice(final long value)
    {
        return putUInt32(EXECUTION_PRICE_OFFSET, value);
    }

    /** @return Liquidity Flag the prevented trade would have had: 'A' added, 'R' removed. */
    public byte liquidityFlag()
    {
        return getChar(LIQUIDITY_FLAG_OFFSET);
    }

    /**
     * @param value Liquidity Flag code.
     * @return this.
     */
    public AiqCanceled liquidityFlag(final byte value)
    {
        return putChar(LIQUIDITY_FLAG_OFFSET, value);
    }
}
