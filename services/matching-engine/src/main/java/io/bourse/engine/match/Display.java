package io.bourse.engine.match;

/**
 * How an order shows on the book and in market data: the OUCH 4.2 Enter Order Display field values Bourse supports
 * (§2.1; 'I' imbalance only, 'W' mid-point peg post-only and the others are rejected by the gateway with 'D').
 *
 * <p>Displayed orders ({@link #ATTRIBUTABLE}, {@link #ANONYMOUS}, {@link #POST_ONLY}) form the best bid and offer and
 * appear in market data. At one price, every displayed order has priority over every {@link #NON_DISPLAYED} order,
 * whatever their entry times; within each group, time priority. {@link #MIDPOINT_PEG} orders rest apart from the
 * price levels, see {@link MatchingEngine}.
 */
public enum Display
{
    /** 'A': displayed, with the firm shown in market data (ITCH 5.0 Add Order with MPID Attribution 'F'). */
    ATTRIBUTABLE((byte)'A', true),
    /** 'Y': displayed anonymously (ITCH 5.0 Add Order 'A'). */
    ANONYMOUS((byte)'Y', true),
    /**
     * 'N': non-displayed (hidden): rests at its limit price behind the displayed orders at that price, executes like
     * any other order, and is not in the best bid and offer or in market data (its executions are, as trades).
     */
    NON_DISPLAYED((byte)'N', false),
    /**
     * 'P': post-only, never takes liquidity. An entry, replace or move priced at or through the best opposite price
     * level (displayed or not) is repriced, not rejected: a buy to one tick below the lowest offer level, a sell to one
     * tick above the highest bid level (the tick of the price it lands at: $0.01, 100 in 1/10000 dollars, at $1 or
     * more, $0.0001 below, so a buy against an offer at $1.0000 gets $0.9999), and is rejected with 'X' when that price
     * is not positive or lies outside the symbol's price band. It then rests without executing, displayed, anonymously;
     * midpoint pegs are not counted, and an eligible opposite peg may then execute against it as the taker in the peg
     * sweep (the post-only order only ever provides liquidity). Not allowed with time in force 0 (rejected 'D').
     */
    POST_ONLY((byte)'P', true),
    /**
     * 'M': midpoint peg: non-displayed, executes only at the midpoint of the symbol's displayed best bid and offer,
     * and only while that midpoint is within the order's price (its limit: at or below it for a buy, at or above it
     * for a sell).
     */
    MIDPOINT_PEG((byte)'M', false);

    private final byte code;
    private final boolean displayed;

    Display(final byte code, final boolean displayed)
    {
        this.code = code;
        this.displayed = displayed;
    }

    /** @return the OUCH 4.2 Display field value. */
    public byte code()
    {
        return code;
    }

    /** @return true when the order forms the best bid and offer and appears in market data. */
    public boolean isDisplayed()
    {
        return displayed;
    }

    /**
     * @param code an OUCH 4.2 Display field value.
     * @return the display, or null when Bourse does not support that value.
     */
    public static Display fromCode(final byte code)
    {
        return switch (code)
        {
            case 'A' -> ATTRIBUTABLE;
            case 'Y' -> ANONYMOUS;
            case 'N' -> NON_DISPLAYED;
            case 'P' -> POST_ONLY;
            case 'M' -> MIDPOINT_PEG;
            default -> null;
        };
    }
}
