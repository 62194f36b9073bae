package io.bourse.ouch;

/**
 * Constants of NASDAQ OUCH 4.2: message types by direction, field sizes, and the code values of the character
 * fields (Buy/Sell Indicator, Time in Force, Display, Capacity, Order State, Liquidity Flag, Event Code and the
 * Rejected, Canceled and Broken Trade reasons), named as the specification names them.
 */
public final class Ouch42
{
    // Inbound messages (client to exchange), OUCH 4.2 §2.
    /** Enter Order message type. */
    public static final byte ENTER_ORDER = 'O';
    /** Replace Order message type. */
    public static final byte REPLACE_ORDER = 'U';
    /** Cancel Order message type. */
    public static final byte CANCEL_ORDER = 'X';
    /** Modify Order message type. */
    public static final byte MODIFY_ORDER = 'M';

    // Outbound sequenced messages (exchange to client), OUCH 4.2 §3.
    /** System Event message type. */
    public static final byte SYSTEM_EVENT = 'S';
    /** Accepted message type. */
    public static final byte ACCEPTED = 'A';
    /** Replaced message type. */
    public static final byte REPLACED = 'U';
    /** Canceled message type. */
    public static final byte CANCELED = 'C';
    /** Executed message type. */
    public static final byte EXECUTED = 'E';
    /** Rejected message type. */
    public static final byte REJECTED = 'J';
    /** AIQ Canceled message type. */
    public static final byte AIQ_CANCELED = 'D';
    /** Broken Trade message type. */
    public static final byte BROKEN_TRADE = 'B';
    /** Cancel Pending message type. */
    public static final byte CANCEL_PENDING = 'P';
    /** Cancel Reject message type. */
    public static final byte CANCEL_REJECT = 'I';
    /** Order Priority Update message type. */
    public static final byte ORDER_PRIORITY_UPDATE = 'T';
    /** Order Modified message type. */
    public static final byte ORDER_MODIFIED = 'M';

    // Field sizes and value ranges, OUCH 4.2 §1.2 Data Types and §2.
    /** Length in bytes of an Order Token (alpha, space padded). */
    public static final int TOKEN_LENGTH = 14;
    /** Length in bytes of the Stock field (alpha, space padded). */
    public static final int STOCK_LENGTH = 8;
    /** Length in bytes of the Firm field (alpha, space padded). */
    public static final int FIRM_LENGTH = 4;
    /** Prices carry 4 implied decimal places: price units per dollar. */
    public static final long PRICE_SCALE = 10_000L;
    /** Highest valid price, $199,999.9900, in 1/10000 dollars. */
    public static final long MAX_PRICE = 1_999_999_900L;

    // Buy/Sell Indicator.
    /** Buy. */
    public static final byte SIDE_BUY = 'B';
    /** Sell. */
    public static final byte SIDE_SELL = 'S';
    /** Sell short. */
    public static final byte SIDE_SELL_SHORT = 'T';
    /** Sell short exempt. */
    public static final byte SIDE_SELL_SHORT_EXEMPT = 'E';

    // Time in Force, seconds.
    /** Immediate or cancel. */
    public static final long TIME_IN_FORCE_IMMEDIATE_OR_CANCEL = 0;
    /** Market hours: the order lives until the end of the market hours. */
    public static final long TIME_IN_FORCE_MARKET_HOURS = 99_998;
    /** System hours: the order lives until the end of the system hours. */
    public static final long TIME_IN_FORCE_SYSTEM_HOURS = 99_999;

    // Display.
    /** Display: attributable, price to display. */
    public static final byte DISPLAY_ATTRIBUTABLE = 'A';
    /** Display: anonymous, price to display. */
    public static final byte DISPLAY_ANONYMOUS = 'Y';
    /** Display: non-display. */
    public static final byte DISPLAY_NON_DISPLAY = 'N';
    /** Display: post-only. */
    public static final byte DISPLAY_POST_ONLY = 'P';
    /** Display: imbalance only. */
    public static final byte DISPLAY_IMBALANCE_ONLY = 'I';
    /** Display: mid-point peg. */
    public static final byte DISPLAY_MID_POINT_PEG = 'M';

    // Capacity.
    /** Capacity: agency. */
    public static final byte CAPACITY_AGENCY = 'A';
    /** Capacity: principal. */
    public static final byte CAPACITY_PRINCIPAL = 'P';
    /** Capacity: riskless. */
    public static final byte CAPACITY_RISKLESS = 'R';
    /** Capacity: other. */
    public static final byte CAPACITY_OTHER = 'O';

    // Intermarket Sweep Eligibility.
    /** Intermarket sweep eligible. */
    public static final byte ISE_ELIGIBLE = 'Y';
    /** Not intermarket sweep eligible. */
    public static final byte ISE_NOT_ELIGIBLE = 'N';

    // Cross Type.
    /** Cross Type: no cross, continuous market. */
    public static final byte CROSS_TYPE_NO_CROSS = 'N';
    /** Cross Type: opening cross. */
    public static final byte CROSS_TYPE_OPENING = 'O';
    /** Cross Type: closing cross. */
    public static final byte CROSS_TYPE_CLOSING = 'C';
    /** Cross Type: halt/IPO cross. */
    public static final byte CROSS_TYPE_HALT_IPO = 'H';

    // Customer Type.
    /** Customer Type: retail designated. */
    public static final byte CUSTOMER_TYPE_RETAIL = 'R';
    /** Customer Type: not retail designated. */
    public static final byte CUSTOMER_TYPE_NOT_RETAIL = 'N';
    /** Customer Type: use the port's default. */
    public static final byte CUSTOMER_TYPE_DEFAULT = ' ';

    // Order State.
    /** Order State: live, the order is on the book or being worked. */
    public static final byte ORDER_STATE_LIVE = 'L';
    /** Order State: dead, the order was accepted and is already done (e.g. an immediate-or-cancel order). */
    public static final byte ORDER_STATE_DEAD = 'D';

    // BBO Weight Indicator.
    /** BBO Weight Indicator: unspecified. */
    public static final byte BBO_WEIGHT_UNSPECIFIED = ' ';

    // Liquidity Flag.
    /** Liquidity Flag: added liquidity (the resting maker). */
    public static final byte LIQUIDITY_ADDED = 'A';
    /** Liquidity Flag: removed liquidity (the incoming taker). */
    public static final byte LIQUIDITY_REMOVED = 'R';
    /** Liquidity Flag: opening cross. */
    public static final byte LIQUIDITY_OPENING_CROSS = 'O';
    /** Liquidity Flag: closing cross. */
    public static final byte LIQUIDITY_CLOSING_CROSS = 'C';

    // System Event Event Code.
    /** Event Code: start of day, always the first message of the day. */
    public static final byte EVENT_START_OF_DAY = 'S';
    /** Event Code: end of day, no further messages follow. */
    public static final byte EVENT_END_OF_DAY = 'E';

    // Rejected reasons, OUCH 4.2 Rejected Order Message.
    /** Rejected: test mode, the account cannot enter orders in non-test securities. */
    public static final byte REJECT_TEST_MODE = 'T';
    /** Rejected: a trading halt is in effect for the stock. */
    public static final byte REJECT_HALTED = 'H';
    /** Rejected: shares exceed the configured safety threshold. */
    public static final byte REJECT_SHARES_EXCEED_THRESHOLD = 'Z';
    /** Rejected: invalid stock. */
    public static final byte REJECT_INVALID_STOCK = 'S';
    /** Rejected: invalid Display type. */
    public static final byte REJECT_INVALID_DISPLAY_TYPE = 'D';
    /** Rejected: the exchange is closed. */
    public static final byte REJECT_CLOSED = 'C';
    /** Rejected: requested firm not authorized for the requested clearing type on this account. */
    public static final byte REJECT_FIRM_NOT_AUTHORIZED = 'L';
    /** Rejected: outside of the permitted times for the requested clearing type. */
    public static final byte REJECT_OUTSIDE_PERMITTED_TIMES = 'M';
    /** Rejected: the order is not allowed in this type of cross. */
    public static final byte REJECT_NOT_ALLOWED_IN_CROSS = 'R';
    /** Rejected: invalid price. */
    public static final byte REJECT_INVALID_PRICE = 'X';
    /** Rejected: invalid minimum quantity. */
    public static final byte REJECT_INVALID_MINIMUM_QUANTITY = 'N';
    /** Rejected: other. */
    public static final byte REJECT_OTHER = 'O';
    /** Rejected: invalid mid-point post only price. */
    public static final byte REJECT_INVALID_MID_POINT_POST_ONLY_PRICE = 'W';
    /** Rejected: reject all enabled (risk management). */
    public static final byte REJECT_ALL_ENABLED = 'a';
    /** Rejected: easy to borrow (ETB) reject. */
    public static final byte REJECT_EASY_TO_BORROW = 'b';
    /** Rejected: restricted symbol list reject. */
    public static final byte REJECT_RESTRICTED_SYMBOL = 'c';
    /** Rejected: ISO order restriction. */
    public static final byte REJECT_ISO_RESTRICTION = 'd';
    /** Rejected: odd lot order restriction. */
    public static final byte REJECT_ODD_LOT_RESTRICTION = 'e';
    /** Rejected: mid-point order restriction. */
    public static final byte REJECT_MID_POINT_RESTRICTION = 'f';
    /** Rejected: pre-market order restriction. */
    public static final byte REJECT_PRE_MARKET_RESTRICTION = 'g';
    /** Rejected: post-market order restriction. */
    public static final byte REJECT_POST_MARKET_RESTRICTION = 'h';
    /** Rejected: short sale order restriction. */
    public static final byte REJECT_SHORT_SALE_RESTRICTION = 'i';
    /** Rejected: on open order restriction. */
    public static final byte REJECT_ON_OPEN_RESTRICTION = 'j';
    /** Rejected: on close order restriction. */
    public static final byte REJECT_ON_CLOSE_RESTRICTION = 'k';
    /** Rejected: two sided quote reject. */
    public static final byte REJECT_TWO_SIDED_QUOTE = 'l';
    /** Rejected: exceeded shares limit. */
    public static final byte REJECT_EXCEEDED_SHARES_LIMIT = 'm';
    /** Rejected: exceeded dollar value limit. */
    public static final byte REJECT_EXCEEDED_DOLLAR_VALUE_LIMIT = 'n';

    // Canceled reasons, OUCH 4.2 Canceled Message.
    /** Canceled: user requested cancel (answer to a Cancel Order). */
    public static final byte CANCEL_USER_REQUESTED = 'U';
    /** Canceled: immediate or cancel order, no further matches were available. */
    public static final byte CANCEL_IMMEDIATE_OR_CANCEL = 'I';
    /** Canceled: timeout, the Time in Force expired. */
    public static final byte CANCEL_TIMEOUT = 'T';
    /** Canceled: supervisory, canceled or reduced by an exchange supervisory terminal. */
    public static final byte CANCEL_SUPERVISORY = 'S';
    /** Canceled: cannot be executed because of a regulatory restriction (e.g. trade through). */
    public static final byte CANCEL_REGULATORY_RESTRICTION = 'D';
    /** Canceled: self match prevention. */
    public static final byte CANCEL_SELF_MATCH_PREVENTION = 'Q';
    /** Canceled: system cancel. */
    public static final byte CANCEL_SYSTEM = 'Z';
    /** Canceled: cross canceled. */
    public static final byte CANCEL_CROSS = 'C';
    /** Canceled: closed, a day order received after the close. */
    public static final byte CANCEL_CLOSED = 'E';
    /** Canceled: market collars, priced outside the market collar. */
    public static final byte CANCEL_MARKET_COLLARS = 'K';
    /** Canceled: halted, the on-open order's symbol remained halted. */
    public static final byte CANCEL_HALTED = 'H';
    /** Canceled: open protection, outside the opening price protection threshold. */
    public static final byte CANCEL_OPEN_PROTECTION = 'X';

    // Broken Trade reasons, OUCH 4.2 Broken Trade Message.
    /** Broken Trade: the trade was deemed clearly erroneous. */
    public static final byte BROKEN_TRADE_ERRONEOUS = 'E';
    /** Broken Trade: both parties agreed to break the trade. */
    public static final byte BROKEN_TRADE_CONSENT = 'C';
    /** Broken Trade: manually broken by an exchange supervisory terminal. */
    public static final byte BROKEN_TRADE_SUPERVISORY = 'S';
    /** Broken Trade: broken by an external third party. */
    public static final byte BROKEN_TRADE_EXTERNAL = 'X';

    private Ouch42()
    {
    }

    /**
     * @param firm a Firm (MPID) of at most 4 ASCII characters.
     * @return its 4 bytes, space padded on the right, as a big-endian int (the Firm field as it lies on the wire).
     */
    public static int packFirm(final String firm)
    {
        int packed = 0;
        for (int i = 0; i < FIRM_LENGTH; i++)
        {
            packed = (packed << 8) | (i < firm.length() ? firm.charAt(i) & 0xFF : ' ');
        }
        return packed;
    }
}
