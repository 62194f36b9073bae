package io.bourse.engine.match;

/** OUCH 4.2 reason codes the matching core produces (Rejected 'J' and Canceled 'C' messages). */
public final class ReasonCodes
{
    /** Rejected: invalid stock (symbol not traded by this shard). */
    public static final byte REJECT_INVALID_STOCK = 'S';
    /** Rejected: invalid price (not positive, above the maximum, or outside the symbol's price band). */
    public static final byte REJECT_INVALID_PRICE = 'X';
    /** Rejected: shares zero or above the configured safety threshold. */
    public static final byte REJECT_SHARES_THRESHOLD = 'Z';
    /** Rejected: invalid minimum quantity (negative, above the order size, or on an order that can rest). */
    public static final byte REJECT_INVALID_MINIMUM_QUANTITY = 'N';
    /** Rejected: a trading halt is in effect for the symbol ({@link TradingState#HALTED}). */
    public static final byte REJECT_HALTED = 'H';
    /** Rejected: the exchange is closed for the symbol ({@link TradingState#CLOSED}). */
    public static final byte REJECT_CLOSED = 'C';
    /** Rejected: invalid display type (unsupported value, or post-only with time in force 0). */
    public static final byte REJECT_INVALID_DISPLAY_TYPE = 'D';
    /** Rejected: other (duplicate order id, replace of an order that is no longer open, bad time in force). */
    public static final byte REJECT_OTHER = 'O';
    /**
     * Rejected: outside of the permitted times: a closing-cross order, or a replace of one, during its symbol's cross
     * lock (the late period before the cross).
     */
    public static final byte REJECT_OUTSIDE_PERMITTED_TIMES = 'M';
    /**
     * Rejected: not allowed in this type of cross: an opening or halt/IPO cross order, a closing-cross order whose time
     * in force is not a day (market or system hours), or a move of a closing-cross order.
     */
    public static final byte REJECT_NOT_ALLOWED_IN_CROSS = 'R';

    /** Canceled: user requested. */
    public static final byte CANCEL_USER_REQUESTED = 'U';
    /** Canceled: immediate-or-cancel remainder, or a whole order whose minimum quantity could not execute. */
    public static final byte CANCEL_IMMEDIATE_OR_CANCEL = 'I';

    /** Canceled: timeout, a good-till-seconds order reached its expiry. */
    public static final byte CANCEL_TIMEOUT = 'T';
    /** Canceled: closed, a market-hours day order still resting when its symbol closed. */
    public static final byte CANCEL_CLOSED = 'E';
    /** Canceled: self-match prevention, see {@link SelfTradePrevention}. */
    public static final byte CANCEL_SELF_MATCH_PREVENTION = 'Q';
    /** Canceled: cross canceled, the unexecuted rest of a closing-cross order after its symbol's cross ran. */
    public static final byte CANCEL_CROSS = 'C';

    private ReasonCodes()
    {
    }
}
