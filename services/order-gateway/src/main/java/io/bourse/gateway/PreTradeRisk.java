package io.bourse.gateway;

import io.bourse.common.config.SymbolDirectory;
import io.bourse.ouch.Ouch42;
import org.agrona.collections.Long2LongHashMap;

import java.util.HashMap;
import java.util.Map;

/**
 * Pre-trade risk checks per user ({@link RiskLimits}): largest order in shares ('m'), largest price x shares ('n'),
 * most open orders ('O'), a price collar around the symbol's reference price ('X'), and an order rate limit ('O').
 * <p>
 * The collar is one-sided, against the prices that would trade through the market: a buy priced above
 * {@code reference x (1 + band)}, or a sell priced below {@code reference x (1 - band)}, is rejected; passive prices
 * are never. The reference is the symbol's last trade price on this gateway's view of the engine's event streams (every
 * trade, whichever gateway's orders made it), or before the symbol's first trade the configured reference price, or
 * none (no collar). The rate limit is a token bucket per user (GCRA, on the gateway's monotonic clock): up to the
 * user's orders per second at once, then one more every {@code 1 / rate} seconds; Enter and Replace Orders take a
 * token, Cancel and Modify Orders never do (reducing risk is always allowed). A user's open orders are the orders
 * entered and not yet done (rejected, canceled or fully executed); a replacement takes its order's place once the
 * engine has replaced it.
 * <p>
 * Limit-on-close orders (Cross Type C) are checked like any other, collar included: their limit can set the closing
 * cross's price (the cross maximises the executable shares), so one priced far through the market is the same fat
 * finger; the cross's executions are trades like any other for the reference.
 * <p>
 * Used only by the gateway agent thread; a user's state is created on its first order and lives for the day. After a
 * gateway restart the open orders are counted again as the journals rebuild them ({@link OrderRebuild}); the rate
 * buckets start full and the collar references start from the configured prices.
 */
final class PreTradeRisk
{
    private static final long NANOS_PER_SECOND = 1_000_000_000L;
    private static final long BASIS_POINTS = 10_000L;

    /** One user's limits and the state they need. */
    static final class UserRisk
    {
        final RiskLimits.UserLimits limits;
        private final long intervalNs;
        private final long toleranceNs;
        private long theoreticalArrivalNs = Long.MIN_VALUE;
        private long openOrders;

        /**
         * @param limits the user's limits.
         */
        UserRisk(final RiskLimits.UserLimits limits)
        {
            this.limits = limits;
            final long rate = limits.ordersPerSecond();
            intervalNs = 0 == rate ? 0 : NANOS_PER_SECOND / rate;
            toleranceNs = NANOS_PER_SECOND - intervalNs;
        }

        /**
         * Takes a token from the user's bucket.
         *
         * @param nowNs monotonic time in nanoseconds.
         * @return true when the order is within the rate, false when it must be rejected.
         */
        boolean admit(final long nowNs)
        {
            if (0 == intervalNs)
            {
                return true;
            }
            final long arrivalNs = Math.max(theoreticalArrivalNs, nowNs);
            if (arrivalNs - nowNs > toleranceNs)
            {
                return false;
            }
            theoreticalArrivalNs = arrivalNs + intervalNs;
            return true;
        }

        /** @return orders tracked for the user. */
        long openOrders()
        {
            return openOrders;
        }

        /** An order of the user started to count as open. */
        void onOrderOpened()
        {
            openOrders++;
        }

        /** An order of the user that counted as open is done. */
        void onOrderClosed()
        {
            openOrders--;
        }
    }

    private final RiskLimits limits;
    private final Map<String, UserRisk> users = new HashMap<>();
    private final Long2LongHashMap referencePrices = new Long2LongHashMap(0);

    /**
     * @param limits  the limits of every user and the configured reference prices.
     * @param symbols the tradable symbols.
     */
    PreTradeRisk(final RiskLimits limits, final SymbolDirectory symbols)
    {
        this.limits = limits;
        for (final SymbolDirectory.Entry entry : symbols.entries())
        {
            final long referencePrice = limits.referencePrice(entry.symbol());
            if (0 != referencePrice)
            {
                referencePrices.put(entry.packed(), referencePrice);
            }
        }
    }

    /**
     * @param session a logged-in user.
     * @return its risk state, created on first use.
     */
    UserRisk user(final UserSession session)
    {
        UserRisk user = users.get(session.username());
        if (null == user)
        {
            user = new UserRisk(limits.forUser(session.username()));
            users.put(session.username(), user);
        }
        return user;
    }

    /**
     * Checks an order against the user's limits (the rate is checked apart, by {@link UserRisk#admit}).
     *
     * @param user     the user.
     * @param buy      true for a buy, false for any sell side.
     * @param shares   order size.
     * @param price    limit price in 1/10000 dollars.
     * @param symbol   packed symbol.
     * @param newOrder true for an Enter Order (which adds an open order), false for a Replace Order (which does not).
     * @return the first limit broken, or null.
     */
    RejectCause check(
        final UserRisk user, final boolean buy, final long shares, final long price, final long symbol,
        final boolean newOrder)
    {
        final RiskLimits.UserLimits userLimits = user.limits;
        if (0 != userLimits.maxOrderShares() && shares > userLimits.maxOrderShares())
        {
            return RejectCause.RISK_MAX_ORDER_SHARES;
        }
        if (0 != userLimits.maxNotional() && price * shares > userLimits.maxNotional() * Ouch42.PRICE_SCALE)
        {
            return RejectCause.RISK_MAX_NOTIONAL;
        }
        if (isOutsideCollar(userLimits.priceBandBasisPoints(), buy, price, referencePrices.get(symbol)))
        {
            return RejectCause.RISK_PRICE_BAND;
        }
        if (newOrder && 0 != userLimits.maxOpenOrders() && user.openOrders >= userLimits.maxOpenOrders())
        {
            return RejectCause.RISK_MAX_OPEN_ORDERS;
        }
        return null;
    }

    /**
     * A trade on the engine's event stream: its price becomes the symbol's collar reference.
     *
     * @param symbol packed symbol.
     * @param price  trade price in 1/10000 dollars.
     */
    void onTrade(final long symbol, final long price)
    {
        referencePrices.put(symbol, price);
    }

    private static boolean isOutsideCollar(
        final int bandBasisPoints, final boolean buy, final long price, final long referencePrice)
    {
        if (0 == bandBasisPoints || 0 == referencePrice)
        {
            return false;
        }
        return buy ? price * BASIS_POINTS > referencePrice * (BASIS_POINTS + bandBasisPoints) :
            price * BASIS_POINTS < referencePrice * (BASIS_POINTS - bandBasisPoints);
    }
}
