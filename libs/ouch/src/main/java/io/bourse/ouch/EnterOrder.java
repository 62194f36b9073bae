package io.bourse.ouch;

import org.agrona.DirectBuffer;

/**
 * OUCH 4.2 Enter Order ('O', inbound): enter a new order, identified by a day-unique Order Token.
 * <pre>
 * +--------+--------+-----------------------------------------+
 * | Offset | Length | Field                                   |
 * +--------+--------+-----------------------------------------+
 * |      0 |      1 | Message Type 'O'                        |
 * |      1 |     14 | Order Token (alpha)                     |
 * |     15 |      1 | Buy/Sell Indicator (alpha)              |
 * |     16 |      4 | Shares (integer)                        |
 * |     20 |      8 | Stock (alpha)                           |
 * |     28 |      4 | Price (price)                           |
 * |     32 |      4 | Time in Force (integer)                 |
 * |     36 |      4 | Firm (alpha)                            |
 * |     40 |      1 | Display (alpha)                         |
 * |     41 |      1 | Capacity (alpha)                        |
 * |     42 |      1 | Intermarket Sweep Eligibility (alpha)   |
 * |     43 |      4 | Minimum Quantity (integer)              |
 * |     47 |      1 | Cross Type (alpha)                      |
 * |     48 |      1 | Customer Type (alpha)                   |
 * +--------+--------+-----------------------------------------+
 * Total: 49 bytes; integers big-endian, unsigned; alphas ASCII, space padded on the right.
 * </pre>
 * The {@code String} forms of the alpha fields allocate: they are for tests and tools, not for hot paths.
 */
public final class EnterOrder extends OuchFlyweight<EnterOrder>
{
    /** Message Type. */
    public static final byte TYPE = Ouch42.ENTER_ORDER;
    /** Length of the message in bytes, Message Type included. */
    public static final int LENGTH = 49;

    /** Offset of Message Type. */
    public static final int MESSAGE_TYPE_OFFSET = 0;
    /** Offset of Order Token (alpha 14). */
    public static final int ORDER_TOKEN_OFFSET = 1;
    /** Offset of Buy/Sell Indicator (alpha 1). */
    public static final int BUY_SELL_INDICATOR_OFFSET = 15;
    /** Offset of Shares (integer 4). */
    public static final int SHARES_OFFSET = 16;
    /** Offset of Stock (alpha 8). */
    public static final int STOCK_OFFSET = 20;
    /** Offset of Price (price 4). */
    public static final int PRICE_OFFSET = 28;
    /** Offset of Time in Force (integer 4). */
    public static final int TIME_IN_FORCE_OFFSET = 32;
    /** Offset of Firm (alpha 4). */
    public static final int FIRM_OFFSET = 36;
    /** Offset of Display (alpha 1). */
    public static final int DISPLAY_OFFSET = 40;
    /** Offset of Capacity (alpha 1). */
    public static final int CAPACITY_OFFSET = 41;
    /** Offset of Intermarket Sweep Eligibility (alpha 1). */
    public static final int INTERMARKET_SWEEP_ELIGIBILITY_OFFSET = 42;
    /** Offset of Minimum Quantity (integer 4). */
    public static final int MINIMUM_QUANTITY_OFFSET = 43;
    /** Offset of Cross Type (alpha 1). */
    public static final int CROSS_TYPE_OFFSET = 47;
    /** Offset of Customer Type (alpha 1). */
    public static final int CUSTOMER_TYPE_OFFSET = 48;

    /** Creates an unwrapped flyweight: call {@link #wrap} or {@link #wrapAndApplyType} before the accessors. */
    public EnterOrder()
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
    public EnterOrder orderToken(final byte[] src)
    {
        return putToken(ORDER_TOKEN_OFFSET, src);
    }

    /**
     * @param src buffer holding the 14 bytes of the Order Token, already space padded.
     * @param srcOffset of the first byte.
     * @return this.
     */
    public EnterOrder orderToken(final DirectBuffer src, final int srcOffset)
    {
        return putToken(ORDER_TOKEN_OFFSET, src, srcOffset);
    }

    /**
     * @param token at most 14 ASCII characters; space padded on the right (allocation free, but meant for tools).
     * @return this.
     * @throws IllegalArgumentException when longer than 14 characters or not ASCII.
     */
    public EnterOrder orderToken(final String token)
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
    public EnterOrder buySellIndicator(final byte value)
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
    public EnterOrder shares(final long value)
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
    public EnterOrder stock(final long packedStock)
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
    public EnterOrder price(final long value)
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
    public EnterOrder timeInForce(final long value)
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
    public EnterOrder firm(final int packedFirm)
    {
        return putInt32(FIRM_OFFSET, packedFirm);
    }

    /**
     * @param firm at most 4 ASCII characters; space padded on the right.
     * @return this.
     * @throws IllegalArgumentException when longer than 4 characters or not ASCII.
     */
    public EnterOrder firm(final String firm)
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
    public EnterOrder display(final byte value)
    {
        return putChar(DISPLAY_OFFSET, value);
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
    public EnterOrder capacity(final byte value)
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
    public EnterOrder intermarketSweepEligibility(final byte value)
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
    public EnterOrder minimumQuantity(final long value)
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
    public EnterOrder crossType(final byte value)
    {
        return putChar(CROSS_TYPE_OFFSET, value);
    }

    /** @return Customer Type: 'R' retail, 'N' not retail, ' ' the port's default. */
    public byte customerType()
    {
        return getChar(CUSTOMER_TYPE_OFFSET);
    }

    /**
     * @param value Customer Type code.
     * @return this.
     */
    public EnterOrder customerType(final byte value)
    {
        return putChar(CUSTOMER_TYPE_OFFSET, value);
    }

    /**
     * Writes every field of a plain limit order (OUCH 4.2 §2.1 Enter Order): the given ones, and display anonymous
     * 'Y', capacity agency 'A', not intermarket sweep eligible, no minimum quantity, no cross, not a retail customer.
     *
     * @param token       the 14-byte Order Token.
     * @param side        Buy/Sell Indicator.
     * @param shares      size in shares.
     * @param packedStock 8-byte space-padded symbol packed into a long.
     * @param price       limit price in 1/10000 dollars.
     * @param timeInForce Time in Force in seconds, or one of the special values.
     * @param packedFirm  4-byte firm packed into an int.
     * @return this flyweight.
     */
    public EnterOrder limitOrder(
        final byte[] token, final byte side, final long shares, final long packedStock, final long price,
        final long timeInForce, final int packedFirm)
    {
        return orderToken(token)
            .buySellIndicator(side)
            .shares(shares)
            .stock(packedStock)
            .price(price)
            .timeInForce(timeInForce)
            .firm(packedFirm)
            .display(Ouch42.DISPLAY_ANONYMOUS)
            .capacity(Ouch42.CAPACITY_AGENCY)
            .intermarketSweepEligibility(Ouch42.ISE_NOT_ELIGIBLE)
            .minimumQuantity(0)
            .crossType(Ouch42.CROSS_TYPE_NO_CROSS)
            .customerType(Ouch42.CUSTOMER_TYPE_NOT_RETAIL);
    }
}
