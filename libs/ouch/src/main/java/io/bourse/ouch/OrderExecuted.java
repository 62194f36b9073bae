package io.bourse.ouch;

import org.agrona.DirectBuffer;

/**
 * OUCH 4.2 Executed ('E', outbound): the order was (partially) executed.
 * <pre>
 * +--------+--------+-----------------------------+
 * | Offset | Length | Field                       |
 * +--------+--------+-----------------------------+
 * |      0 |      1 | Message Type 'E'            |
 * |      1 |      8 | Timestamp (integer)         |
 * |      9 |     14 | Order Token (alpha)         |
 * |     23 |      4 | Executed Shares (integer)   |
 * |     27 |      4 | Execution Price (price)     |
 * |     31 |      1 | Liquidity Flag (alpha)      |
 * |     32 |      8 | Match Number (integer)      |
 * +--------+--------+-----------------------------+
 * Total: 40 bytes; integers big-endian, unsigned; alphas ASCII, space padded on the right.
 * </pre>
 * The {@code String} forms of the alpha fields allocate: they are for tests and tools, not for hot paths.
 */
public final class OrderExecuted extends OuchFlyweight<OrderExecuted>
{
    /** Message Type. */
    public static final byte TYPE = Ouch42.EXECUTED;
    /** Length of the message in bytes, Message Type included. */
    public static final int LENGTH = 40;

    /** Offset of Message Type. */
    public static final int MESSAGE_TYPE_OFFSET = 0;
    /** Offset of Timestamp (integer 8). */
    public static final int TIMESTAMP_OFFSET = 1;
    /** Offset of Order Token (alpha 14). */
    public static final int ORDER_TOKEN_OFFSET = 9;
    /** Offset of Executed Shares (integer 4). */
    public static final int EXECUTED_SHARES_OFFSET = 23;
    /** Offset of Execution Price (price 4). */
    public static final int EXECUTION_PRICE_OFFSET = 27;
    /** Offset of Liquidity Flag (alpha 1). */
    public static final int LIQUIDITY_FLAG_OFFSET = 31;
    /** Offset of Match Number (integer 8). */
    public static final int MATCH_NUMBER_OFFSET = 32;

    /** Creates an unwrapped flyweight: call {@link #wrap} or {@link #wrapAndApplyType} before the accessors. */
    public OrderExecuted()
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
    public OrderExecuted timestamp(final long value)
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
    public OrderExecuted orderToken(final byte[] src)
    {
        return putToken(ORDER_TOKEN_OFFSET, src);
    }

    /**
     * @param src buffer holding the 14 bytes of the Order Token, already space padded.
     * @param srcOffset of the first byte.
     * @return this.
     */
    public OrderExecuted orderToken(final DirectBuffer src, final int srcOffset)
    {
        return putToken(ORDER_TOKEN_OFFSET, src, srcOffset);
    }

    /**
     * @param token at most 14 ASCII characters; space padded on the right (allocation free, but meant for tools).
     * @return this.
     * @throws IllegalArgumentException when longer than 14 characters or not ASCII.
     */
    public OrderExecuted orderToken(final String token)
    {
        return putToken(ORDER_TOKEN_OFFSET, token);
    }

    /** @return the Order Token without its padding (allocates). */
    public String orderTokenAsString()
    {
        return getTokenAsString(ORDER_TOKEN_OFFSET);
    }

    /** @return Executed Shares, unsigned. */
    public long executedShares()
    {
        return getUInt32(EXECUTED_SHARES_OFFSET);
    }

    /**
     * @param value Executed Shares; the low 32 bits are written.
     * @return this.
     */
    public OrderExecuted executedShares(final long value)
    {
        return putUInt32(EXECUTED_SHARES_OFFSET, value);
    }

    /** @return Execution Price in 1/10000 dollars, unsigned. */
    public long executionPrice()
    {
        return getUInt32(EXECUTION_PRICE_OFFSET);
    }

    /**
     * @param value Execution Price in 1/10000 dollars; the low 32 bits are written.
     * @return this.
     */
    public OrderExecuted executionPrice(final long value)
    {
        return putUInt32(EXECUTION_PRICE_OFFSET, value);
    }

    /** @return Liquidity Flag: 'A' added (maker), 'R' removed (taker). */
    public byte liquidityFlag()
    {
        return getChar(LIQUIDITY_FLAG_OFFSET);
    }

    /**
     * @param value Liquidity Flag code.
     * @return this.
     */
    public OrderExecuted liquidityFlag(final byte value)
    {
        return putChar(LIQUIDITY_FLAG_OFFSET, value);
    }

    /** @return Match Number: day-unique id of the execution, the same for both sides (ITCH 5.0 Match Number). */
    public long matchNumber()
    {
        return getInt64(MATCH_NUMBER_OFFSET);
    }

    /**
     * @param value Match Number.
     * @return this.
     */
    public OrderExecuted matchNumber(final long value)
    {
        return putInt64(MATCH_NUMBER_OFFSET, value);
    }
}
