package io.bourse.ouch;

import org.agrona.DirectBuffer;

/**
 * OUCH 4.2 Replace Order ('U', inbound): replace an open order with a new token, size and price; the new Shares are
 * the total the order may execute, what its order/replace chain has executed included (the replacement opens with
 * the rest).
 * <pre>
 * +--------+--------+-----------------------------------------+
 * | Offset | Length | Field                                   |
 * +--------+--------+-----------------------------------------+
 * |      0 |      1 | Message Type 'U'                        |
 * |      1 |     14 | Existing Order Token (alpha)            |
 * |     15 |     14 | Replacement Order Token (alpha)         |
 * |     29 |      4 | Shares (integer)                        |
 * |     33 |      4 | Price (price)                           |
 * |     37 |      4 | Time in Force (integer)                 |
 * |     41 |      1 | Display (alpha)                         |
 * |     42 |      1 | Intermarket Sweep Eligibility (alpha)   |
 * |     43 |      4 | Minimum Quantity (integer)              |
 * +--------+--------+-----------------------------------------+
 * Total: 47 bytes; integers big-endian, unsigned; alphas ASCII, space padded on the right.
 * </pre>
 * The {@code String} forms of the alpha fields allocate: they are for tests and tools, not for hot paths.
 */
public final class ReplaceOrder extends OuchFlyweight<ReplaceOrder>
{
    /** Message Type. */
    public static final byte TYPE = Ouch42.REPLACE_ORDER;
    /** Length of the message in bytes, Message Type included. */
    public static final int LENGTH = 47;

    /** Offset of Message Type. */
    public static final int MESSAGE_TYPE_OFFSET = 0;
    /** Offset of Existing Order Token (alpha 14). */
    public static final int EXISTING_ORDER_TOKEN_OFFSET = 1;
    /** Offset of Replacement Order Token (alpha 14). */
    public static final int REPLACEMENT_ORDER_TOKEN_OFFSET = 15;
    /** Offset of Shares (integer 4). */
    public static final int SHARES_OFFSET = 29;
    /** Offset of Price (price 4). */
    public static final int PRICE_OFFSET = 33;
    /** Offset of Time in Force (integer 4). */
    public static final int TIME_IN_FORCE_OFFSET = 37;
    /** Offset of Display (alpha 1). */
    public static final int DISPLAY_OFFSET = 41;
    /** Offset of Intermarket Sweep Eligibility (alpha 1). */
    public static final int INTERMARKET_SWEEP_ELIGIBILITY_OFFSET = 42;
    /** Offset of Minimum Quantity (integer 4). */
    public static final int MINIMUM_QUANTITY_OFFSET = 43;

    /** Creates an unwrapped flyweight: call {@link #wrap} or {@link #wrapAndApplyType} before the accessors. */
    public ReplaceOrder()
    {
        super(TYPE, LENGTH);
    }

    /**
     * Copies the Existing Order Token.
     *
     * @param dst receives the 14 bytes as they stand, padding included, from index 0.
     */
    public void getExistingOrderToken(final byte[] dst)
    {
        getToken(EXISTING_ORDER_TOKEN_OFFSET, dst);
    }

    /**
     * @param src the 14 bytes of the Existing Order Token, already space padded, from index 0.
     * @return this.
     */
    public ReplaceOrder existingOrderToken(final byte[] src)
    {
        return putToken(EXISTING_ORDER_TOKEN_OFFSET, src);
    }

    /**
     * @param src buffer holding the 14 bytes of the Existing Order Token, already space padded.
     * @param srcOffset of the first byte.
     * @return this.
     */
    public ReplaceOrder existingOrderToken(final DirectBuffer src, final int srcOffset)
    {
        return putToken(EXISTING_ORDER_TOKEN_OFFSET, src, srcOffset);
    }

    /**
     * @param token at most 14 ASCII characters; space padded on the right (allocation free, but meant for tools).
     * @return this.
     * @throws IllegalArgumentException when longer than 14 characters or not ASCII.
     */
    public ReplaceOrder existingOrderToken(final String token)
    {
        return putToken(EXISTING_ORDER_TOKEN_OFFSET, token);
    }

    /** @return the Existing Order Token without its padding (allocates). */
    public String existingOrderTokenAsString()
    {
        return getTokenAsString(EXISTING_ORDER_TOKEN_OFFSET);
    }

    /**
     * Copies the Replacement Order Token.
     *
     * @param dst receives the 14 bytes as they stand, padding included, from index 0.
     */
    public void getReplacementOrderToken(final byte[] dst)
    {
        getToken(REPLACEMENT_ORDER_TOKEN_OFFSET, dst);
    }

    /**
     * @param src the 14 bytes of the Replacement Order Token, already space padded, from index 0.
     * @return this.
     */
    public ReplaceOrder replacementOrderToken(final byte[] src)
    {
        return putToken(REPLACEMENT_ORDER_TOKEN_OFFSET, src);
    }

    /**
     * @param src buffer holding the 14 bytes of the Replacement Order Token, already space padded.
     * @param srcOffset of the first byte.
     * @return this.
     */
    public ReplaceOrder replacementOrderToken(final DirectBuffer src, final int srcOffset)
    {
        return putToken(REPLACEMENT_ORDER_TOKEN_OFFSET, src, srcOffset);
    }

    /**
     * @param token at most 14 ASCII characters; space padded on the right (allocation free, but meant for tools).
     * @return this.
     * @throws IllegalArgumentException when longer than 14 characters or not ASCII.
     */
    public ReplaceOrder replacementOrderToken(final String token)
    {
        return putToken(REPLACEMENT_ORDER_TOKEN_OFFSET, token);
    }

    /** @return the Replacement Order Token without its padding (allocates). */
    public String replacementOrderTokenAsString()
    {
        return getTokenAsString(REPLACEMENT_ORDER_TOKEN_OFFSET);
    }

    /** @return Shares, unsigned. */
    public long shares()
    {
        return getUInt32(SHARES_OFFSET);
    }

    /**
     * @param value Shares; the low 32 bits are written.
     * @return this.
     */
    public ReplaceOrder shares(final long value)
    {
        return putUInt32(SHARES_OFFSET, value);
    }

    /** @return Price in 1/10000 dollars, unsigned. */
    public long price()
    {
        return getUInt32(PRICE_OFFSET);
    }

    /**
     * @param value Price in 1/10000 dollars; the low 32 bits are written.
     * @return this.
     */
    public ReplaceOrder price(final long value)
    {
        return putUInt32(PRICE_OFFSET, value);
    }

    /** @return Time in Force in seconds (0 immediate or cancel, 99998 market hours, 99999 system hours). */
    public long timeInForce()
    {
        return getUInt32(TIME_IN_FORCE_OFFSET);
    }

    /**
     * @param value Time in Force; the low 32 bits are written.
     * @return this.
     */
    public ReplaceOrder timeInForce(final long value)
    {
        return putUInt32(TIME_IN_FORCE_OFFSET, value);
    }

    /** @return Display, e.g. 'Y' anonymous-price to display. */
    public byte display()
    {
        return getChar(DISPLAY_OFFSET);
    }

    /**
     * @param value Display code.
     * @return this.
     */
    public ReplaceOrder display(final byte value)
    {
        return putChar(DISPLAY_OFFSET, value);
    }

    /** @return Intermarket Sweep Eligibility: 'Y' or 'N'. */
    public byte intermarketSweepEligibility()
    {
        return getChar(INTERMARKET_SWEEP_ELIGIBILITY_OFFSET);
    }

    /**
     * @param value Intermarket Sweep Eligibility code.
     * @return this.
     */
    public ReplaceOrder intermarketSweepEligibility(final byte value)
    {
        return putChar(INTERMARKET_SWEEP_ELIGIBILITY_OFFSET, value);
    }

    /** @return Minimum Quantity in shares, unsigned (0 = none). */
    public long minimumQuantity()
    {
        return getUInt32(MINIMUM_QUANTITY_OFFSET);
    }

    /**
     * @param value Minimum Quantity; the low 32 bits are written.
     * @return this.
     */
    public ReplaceOrder minimumQuantity(final long value)
    {
        return putUInt32(MINIMUM_QUANTITY_OFFSET, value);
    }
}
