package io.bourse.ouch;

import org.agrona.DirectBuffer;

/**
 * OUCH 4.2 Accepted ('A', outbound): the order was accepted; echoes the entered fields as the exchange understood
 * them.
 * <pre>
 * +--------+--------+-----------------------------------------+
 * | Offset | Length | Field                                   |
 * +--------+--------+-----------------------------------------+
 * |      0 |      1 | Message Type 'A'                        |
 * |      1 |      8 | Timestamp (integer)                     |
 * |      9 |     14 | Order Token (alpha)                     |
 * |     23 |      1 | Buy/Sell Indicator (alpha)              |
 * |     24 |      4 | Shares (integer)                        |
 * |     28 |      8 | Stock (alpha)                           |
 * |     36 |      4 | Price (price)                           |
 * |     40 |      4 | Time in Force (integer)                 |
 * |     44 |      4 | Firm (alpha)                            |
 * |     48 |      1 | Display (alpha)                         |
 * |     49 |      8 | Order Reference Number (integer)        |
 * |     57 |      1 | Capacity (alpha)                        |
 * |     58 |      1 | Intermarket Sweep Eligibility (alpha)   |
 * |     59 |      4 | Minimum Quantity (integer)              |
 * |     63 |      1 | Cross Type (alpha)                      |
 * |     64 |      1 | Order State (alpha)                     |
 * |     65 |      1 | BBO Weight Indicator (alpha)            |
 * +--------+--------+-----------------------------------------+
 * Total: 66 bytes; integers big-endian, unsigned; alphas ASCII, space padded on the right.
 * </pre>
 * The {@code String} forms of the alpha fields allocate: they are for tests and tools, not for hot paths.
 */
public final class OrderAccepted extends OuchFlyweight<OrderAccepted>
{
    /** Message Type. */
    public static final byte TYPE = Ouch42.ACCEPTED;
    /** Length of the message in bytes, Message Type included. */
    public static final int LENGTH = 66;

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
    /** Offset of Stock (alpha 8). */
    public static final int STOCK_OFFSET = 28;
    /** Offset of Price (price 4). */
    public static final int PRICE_OFFSET = 36;
    /** Offset of Time in Force (integer 4). */
    public static final int TIME_IN_FORCE_OFFSET = 40;
    /** Offset of Firm (alpha 4). */
    public static final int FIRM_OFFSET = 44;
    /** Offset of Display (alpha 1). */
    public static final int DISPLAY_OFFSET = 48;
    /** Offset of Order Reference Number (integer 8). */
    public static final int ORDER_REFERENCE_NUMBER_OFFSET = 49;
    /** Offset of Capacity (alpha 1). */
    public static final int CAPACITY_OFFSET = 57;
    /** Offset of Intermarket Sweep Eligibility (alpha 1). */
    public static final int INTERMARKET_SWEEP_ELIGIBILITY_OFFSET = 58;
    /** Offset of Minimum Quantity (integer 4). */
    public static final int MINIMUM_QUANTITY_OFFSET = 59;
    /** Offset of Cross Type (alpha 1). */
    public static final int CROSS_TYPE_OFFSET = 63;
    /** Offset of Order State (alpha 1). */
    public static final int ORDER_STATE_OFFSET = 64;
    /** Offset of BBO Weight Indicator (alpha 1). */
    public static final int BBO_WEIGHT_INDICATOR_OFFSET = 65;

    /** Creates an unwrapped flyweight: call {@link #wrap} or {@link #wrapAndApplyType} before the accessors. */
    public OrderAccepted()
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
    public OrderAccepted timestamp(final long value)
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
    public OrderAccepted orderToken(final byte[] src)
    {
        return putToken(ORDER_TOKEN_OFFSET, src);
    }

    /**
     * @param src buffer holding the 14 bytes of the Order Token, already space padded.
     * @param srcOffset of the first byte.
     * @return this.
     */
    public OrderAccepted orderToken(final DirectBuffer src, final int srcOffset)
    {
        return putToken(ORDER_TOKEN_OFFSET, src, srcOffset);
    }

    /**
     * @param token at most 14 ASCII characters; space padded on the right (allocation free, but meant for tools).
     * @return this.
     * @throws IllegalArgumentException when longer than 14 characters or not ASCII.
     */
    public OrderAccepted orderToken(final String token)
    {
        return putToken(ORDER_TOKEN_OFFSET, token);
    }

    /** @return the Order Token without its padding (allocates). */
    public String orderTokenAsString()
    {
        return getTokenAsString(ORDER_TOKEN_OFFSET);
    }

    /** @return Buy/Sell Indicator: 'B', 'S', 'T' (sell short) or 'E' (sell short exempt). */
    public byte buySellIndicator()
    {
        return getChar(BUY_SELL_INDICATOR_OFFSET);
    }

    /**
     * @param value Buy/Sell Indicator code.
     * @return this.
     */
    public OrderAccepted buySellIndicator(final byte value)
    {
        return putChar(BUY_SELL_INDICATOR_OFFSET, value);
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
    public OrderAccepted shares(final long value)
    {
        return putUInt32(SHARES_OFFSET, value);
    }

    /** @return Stock: the 8 space-padded bytes read as a big-endian long, the form of {@code Symbols.pack}. */
    public long stock()
    {
        return getInt64(STOCK_OFFSET);
    }

    /**
     * @param packedStock the symbol as packed by {@code io.bourse.common.config.Symbols.pack}.
     * @return this.
     */
    public OrderAccepted stock(final long packedStock)
    {
        return putInt64(STOCK_OFFSET, packedStock);
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
    public OrderAccepted price(final long value)
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
    public OrderAccepted timeInForce(final long value)
    {
        return putUInt32(TIME_IN_FORCE_OFFSET, value);
    }

    /** @return Firm: the 4 space-padded bytes read as a big-endian int. */
    public int firm()
    {
        return getInt32(FIRM_OFFSET);
    }

    /**
     * @param packedFirm the 4 bytes of the Firm as a big-endian int.
     * @return this.
     */
    public OrderAccepted firm(final int packedFirm)
    {
        return putInt32(FIRM_OFFSET, packedFirm);
    }

    /**
     * @param firm at most 4 ASCII characters; space padded on the right.
     * @return this.
     * @throws IllegalArgumentException when longer than 4 characters or not ASCII.
     */
    public OrderAccepted firm(final String firm)
    {
        return putAlpha(FIRM_OFFSET, Ouch42.FIRM_LENGTH, firm);
    }

    /** @return the Firm without its padding (allocates). */
    public String firmAsString()
    {
        return getAlphaAsString(FIRM_OFFSET, Ouch42.FIRM_LENGTH);
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
    public OrderAccepted display(final byte value)
    {
        return putChar(DISPLAY_OFFSET, value);
    }

    /** @return Order Reference Number: the day-unique id of the order on the book (ITCH 5.0 Order Reference Number). */
    public long orderReferenceNumber()
    {
        return getInt64(ORDER_REFERENCE_NUMBER_OFFSET);
    }

    /**
     * @param value Order Reference Number.
     * @return this.
     */
    public OrderAccepted orderReferenceNumber(final long value)
    {
        return putInt64(ORDER_REFERENCE_NUMBER_OFFSET, value);
    }

    /** @return Capacity: 'A' agency, 'P' principal, 'R' riskless, 'O' other. */
    public byte capacity()
    {
        return getChar(CAPACITY_OFFSET);
    }

    /**
     * @param value Capacity code.
     * @return this.
     */
    public OrderAccepted capacity(final byte value)
    {
        return putChar(CAPACITY_OFFSET, value);
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
    public OrderAccepted intermarketSweepEligibility(final byte value)
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
    public OrderAccepted minimumQuantity(final long value)
    {
        return putUInt32(MINIMUM_QUANTITY_OFFSET, value);
    }

    /** @return Cross Type, e.g. 'N' no cross (continuous market). */
    public byte crossType()
    {
        return getChar(CROSS_TYPE_OFFSET);
    }

    /**
     * @param value Cross Type code.
     * @return this.
     */
    public OrderAccepted crossType(final byte value)
    {
        return putChar(CROSS_TYPE_OFFSET, value);
    }

    /** @return Order State: 'L' live, 'D' dead. */
    public byte orderState()
    {
        return getChar(ORDER_STATE_OFFSET);
    }

    /**
     * @param value Order State code.
     * @return this.
     */
    public OrderAccepted orderState(final byte value)
    {
        return putChar(ORDER_STATE_OFFSET, value);
    }

    /** @return BBO Weight Indicator ('0'..'3', ' ' unspecified). */
    public byte bboWeightIndicator()
    {
        return getChar(BBO_WEIGHT_INDICATOR_OFFSET);
    }

    /**
     * @param value BBO Weight Indicator code.
     * @return this.
     */
    public OrderAccepted bboWeightIndicator(final byte value)
    {
        return putChar(BBO_WEIGHT_INDICATOR_OFFSET, value);
    }
}
