package io.bourse.gateway;

import io.bourse.common.config.SymbolDirectory;
import io.bourse.ouch.EnterOrder;
import io.bourse.ouch.Ouch42;
import io.bourse.ouch.ReplaceOrder;

/**
 * The field rules of OUCH 4.2 Enter Order and Replace Order that need no state but the order being replaced: each
 * check returns the first fault as a {@link RejectCause}, or null. Prices in 1/10000 dollars, shares unsigned.
 * <p>
 * Enter Order, in this order: Buy/Sell Indicator B, S, T or E; Shares 1 to the safety threshold; Stock traded here;
 * Price 1 to $199,999.99, in whole cents from $1 up (any 1/10000 dollar below $1, as Reg NMS Rule 612 allows); Time in
 * Force 0 to 99999; Firm blank or upper-case letters and digits, left-justified; Display A, Y, N, P or M, and not
 * post-only with time in force 0; Capacity A, P, R or O; Intermarket Sweep Eligibility Y or N; Minimum Quantity at most
 * the shares and only on an immediate-or-cancel order; Cross Type N, or C (a limit-on-close order for the closing
 * cross) with Time in Force 99998 or 99999 ('R': the order waits for the cross, so immediate-or-cancel and
 * good-till-seconds mean nothing) and Display A or Y ('D'), the engine's own rules for such an order (a minimum
 * quantity is already refused, as it needs time in force 0), O and H being crosses Bourse does not run ('R'); Customer
 * Type R, N or blank. The gateway checks every rule of the fields themselves, the engine those that depend on the
 * book's state (trading state, cross lock, price band, duplicate ids).
 * <p>
 * Replace Order: Shares 1 to the threshold (0 is a cancel, handled before); Price as above; Time in Force 0 to 99999
 * (another than the order's applies as at entry, from the replace); Display that of the order (market data keeps an
 * order's display for life), and not a post-only order made immediate-or-cancel; Intermarket Sweep Eligibility Y or N;
 * Minimum Quantity 0; for a closing-cross order, Time in Force 99998 or 99999 ('R').
 */
final class OrderValidation
{
    /** $1.00 in 1/10000 dollars: from here up prices are in whole cents. */
    static final long ONE_DOLLAR = 10_000L;
    /** $0.01 in 1/10000 dollars, the tick of prices from $1 up. */
    static final long CENT = 100L;

    private static final int BLANK_FIRM = 0x2020_2020;

    private OrderValidation()
    {
    }

    /**
     * @param message        the Enter Order, length already checked.
     * @param maxOrderShares the safety threshold in shares.
     * @param symbol         the directory entry of the message's Stock, or null when not traded here.
     * @param userFirm       the firm of the user who sent it, packed: the only one its Firm may name (blank names it).
     * @return the first fault, or null when every field is valid.
     */
    static RejectCause checkEnterOrder(
        final EnterOrder message, final long maxOrderShares, final SymbolDirectory.Entry symbol, final int userFirm)
    {
        final long shares = message.shares();
        final long timeInForce = message.timeInForce();
        final byte display = message.display();
        final long minimumQuantity = message.minimumQuantity();
        if (!isSide(message.buySellIndicator()))
        {
            return RejectCause.INVALID_SIDE;
        }
        if (!isValidShares(shares, maxOrderShares))
        {
            return RejectCause.INVALID_SHARES;
        }
        if (null == symbol)
        {
            return RejectCause.INVALID_STOCK;
        }
        final RejectCause priceProblem = checkPrice(message.price());
        if (null != priceProblem)
        {
            return priceProblem;
        }
        if (timeInForce > Ouch42.TIME_IN_FORCE_SYSTEM_HOURS)
        {
            return RejectCause.INVALID_TIME_IN_FORCE;
        }
        if (!isValidFirm(message.firm()))
        {
            return RejectCause.INVALID_FIRM;
        }
        if (!isBlankFirm(message.firm()) && message.firm() != userFirm)
        {
            return RejectCause.FIRM_NOT_AUTHORIZED;
        }
        if (!isSupportedDisplay(display) || isPostOnlyImmediateOrCancel(display, timeInForce))
        {
            return RejectCause.INVALID_DISPLAY;
        }
        if (!isValidCapacity(message.capacity()))
        {
            return RejectCause.INVALID_CAPACITY;
        }
        if (!isValidIntermarketSweepEligibility(message.intermarketSweepEligibility()))
        {
            return RejectCause.INVALID_INTERMARKET_SWEEP;
        }
        if (minimumQuantity > shares ||
            (minimumQuantity > 0 && Ouch42.TIME_IN_FORCE_IMMEDIATE_OR_CANCEL != timeInForce))
        {
            return RejectCause.INVALID_MINIMUM_QUANTITY;
        }
        final RejectCause crossProblem = checkCrossType(message.crossType(), timeInForce, display);
        if (null != crossProblem)
        {
            return crossProblem;
        }
        return isValidCustomerType(message.customerType()) ? null : RejectCause.INVALID_CUSTOMER_TYPE;
    }

    /**
     * @param message        the Replace Order, length already checked, Shares not 0.
     * @param maxOrderShares the safety threshold in shares.
     * @param existing       the open order it replaces.
     * @return the first fault, or null when every field is valid.
     */
    static RejectCause checkReplaceOrder(
        final ReplaceOrder message, final long maxOrderShares, final OrderState existing)
    {
        if (!isValidShares(message.shares(), maxOrderShares))
        {
            return RejectCause.INVALID_SHARES;
        }
        final RejectCause priceProblem = checkPrice(message.price());
        if (null != priceProblem)
        {
            return priceProblem;
        }
        final long timeInForce = message.timeInForce();
        if (timeInForce > Ouch42.TIME_IN_FORCE_SYSTEM_HOURS)
        {
            return RejectCause.INVALID_TIME_IN_FORCE;
        }
        if (message.display() != existing.display)
        {
            return RejectCause.DISPLAY_CHANGE;
        }
        if (isPostOnlyImmediateOrCancel(existing.display, timeInForce))
        {
            return RejectCause.INVALID_DISPLAY;
        }
        if (!isValidIntermarketSweepEligibility(message.intermarketSweepEligibility()))
        {
            return RejectCause.INVALID_INTERMARKET_SWEEP;
        }
        if (0 != message.minimumQuantity())
        {
            return RejectCause.REPLACE_MINIMUM_QUANTITY;
        }
        return checkCrossType(existing.crossType, timeInForce, existing.display);
    }

    /**
     * @param price in 1/10000 dollars.
     * @return {@link RejectCause#INVALID_PRICE} outside 1 to $199,999.99, {@link RejectCause#OFF_TICK_PRICE} for a
     * price from $1 up that is not in whole cents, otherwise null.
     */
    static RejectCause checkPrice(final long price)
    {
        if (price < 1 || price > Ouch42.MAX_PRICE)
        {
            return RejectCause.INVALID_PRICE;
        }
        return price >= ONE_DOLLAR && 0 != price % CENT ? RejectCause.OFF_TICK_PRICE : null;
    }

    /**
     * @param side a Buy/Sell Indicator.
     * @return true for B, S, T and E.
     */
    static boolean isSide(final byte side)
    {
        return Ouch42.SIDE_BUY == side || isSellSide(side);
    }

    /**
     * @param side a Buy/Sell Indicator.
     * @return true for the sell family: S (sell), T (sell short) and E (sell short exempt).
     */
    static boolean isSellSide(final byte side)
    {
        return Ouch42.SIDE_SELL == side || Ouch42.SIDE_SELL_SHORT == side || Ouch42.SIDE_SELL_SHORT_EXEMPT == side;
    }

    /**
     * @param firm the OUCH 4.2 Firm as a big-endian int of 4 ASCII bytes.
     * @return true when blank (4 spaces, or 4 NUL bytes from a client that does not pad).
     */
    static boolean isBlankFirm(final int firm)
    {
        return BLANK_FIRM == firm || 0 == firm;
    }

    private static boolean isValidShares(final long shares, final long maxOrderShares)
    {
        return shares >= 1 && shares <= maxOrderShares;
    }

    /**
     * @param firm the OUCH 4.2 Firm as a big-endian int of 4 ASCII bytes.
     * @return true when blank, or upper-case letters and digits left-justified with space padding.
     */
    static boolean isValidFirm(final int firm)
    {
        if (isBlankFirm(firm))
        {
            return true;
        }
        boolean padding = false;
        for (int shift = 24; shift >= 0; shift -= 8)
        {
            final int b = (firm >>> shift) & 0xFF;
            if (' ' == b)
            {
                padding = true;
            }
            else if (padding || !((b >= 'A' && b <= 'Z') || (b >= '0' && b <= '9')))
            {
                return false;
            }
        }
        return true;
    }

    private static boolean isSupportedDisplay(final byte display)
    {
        return Ouch42.DISPLAY_ATTRIBUTABLE == display || Ouch42.DISPLAY_ANONYMOUS == display ||
            Ouch42.DISPLAY_NON_DISPLAY == display || Ouch42.DISPLAY_POST_ONLY == display ||
            Ouch42.DISPLAY_MID_POINT_PEG == display;
    }

    private static boolean isValidCapacity(final byte capacity)
    {
        return Ouch42.CAPACITY_AGENCY == capacity || Ouch42.CAPACITY_PRINCIPAL == capacity ||
            Ouch42.CAPACITY_RISKLESS == capacity || Ouch42.CAPACITY_OTHER == capacity;
    }

    /** @return true for a post-only order immediate-or-cancel: it could never rest, and never takes liquidity. */
    private static boolean isPostOnlyImmediateOrCancel(final byte display, final long timeInForce)
    {
        return Ouch42.DISPLAY_POST_ONLY == display && Ouch42.TIME_IN_FORCE_IMMEDIATE_OR_CANCEL == timeInForce;
    }

    private static boolean isValidIntermarketSweepEligibility(final byte eligibility)
    {
        return Ouch42.ISE_ELIGIBLE == eligibility || Ouch42.ISE_NOT_ELIGIBLE == eligibility;
    }

    private static RejectCause checkCrossType(final byte crossType, final long timeInForce, final byte display)
    {
        if (Ouch42.CROSS_TYPE_NO_CROSS == crossType)
        {
            return null;
        }
        if (Ouch42.CROSS_TYPE_CLOSING == crossType)
        {
            if (Ouch42.TIME_IN_FORCE_MARKET_HOURS != timeInForce && Ouch42.TIME_IN_FORCE_SYSTEM_HOURS != timeInForce)
            {
                return RejectCause.CROSS_TIME_IN_FORCE;
            }
            return Ouch42.DISPLAY_ATTRIBUTABLE == display || Ouch42.DISPLAY_ANONYMOUS == display ?
                null : RejectCause.CROSS_DISPLAY;
        }
        return Ouch42.CROSS_TYPE_OPENING == crossType || Ouch42.CROSS_TYPE_HALT_IPO == crossType ?
            RejectCause.CROSS_NOT_SUPPORTED : RejectCause.INVALID_CROSS_TYPE;
    }

    private static boolean isValidCustomerType(final byte customerType)
    {
        return Ouch42.CUSTOMER_TYPE_RETAIL == customerType || Ouch42.CUSTOMER_TYPE_NOT_RETAIL == customerType ||
            Ouch42.CUSTOMER_TYPE_DEFAULT == customerType;
    }
}
