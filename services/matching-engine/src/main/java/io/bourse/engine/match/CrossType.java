package io.bourse.engine.match;

/**
 * The OUCH 4.2 Enter Order Cross Type values Bourse supports: the continuous market and NASDAQ's closing cross
 * (simplified, see {@link MatchingEngine}). The opening cross 'O' and the halt/IPO cross 'H' are not run; the engine
 * rejects them with 'R' ({@link ReasonCodes#REJECT_NOT_ALLOWED_IN_CROSS}).
 */
public enum CrossType
{
    /** 'N': no cross, a continuous-market order. */
    NONE((byte)'N'),
    /**
     * 'C': closing cross, a limit-on-close order: it rests in its symbol's cross book, never trades continuously, is
     * in neither the best bid and offer nor market data, and executes only when the symbol's cross runs.
     */
    CLOSING((byte)'C');

    private final byte code;

    CrossType(final byte code)
    {
        this.code = code;
    }

    /** @return the OUCH 4.2 Cross Type field value. */
    public byte code()
    {
        return code;
    }

    /**
     * @param code an OUCH 4.2 Cross Type field value.
     * @return the cross type, or null when Bourse does not run that cross (or the value is not an OUCH one).
     */
    public static CrossType fromCode(final byte code)
    {
        return switch (code)
        {
            case 'N' -> NONE;
            case 'C' -> CLOSING;
            default -> null;
        };
    }
}
