package io.bourse.gateway;

import io.bourse.common.config.SymbolDirectory;
import io.bourse.common.time.TokenBucket;
import io.bourse.ouch.Ouch42;
import org.agrona.collections.Int2ObjectHashMap;

import java.util.HashMap;
import java.util.Map;

/**
 * Pre-trade risk checks per user and per firm ({@link RiskLimits}): largest order in shares ('m'), largest price x
 * shares ('n'), most open orders ('O'), a price collar around the symbol's reference price ('X'), and an order rate
 * limit ('O'). An order passes when it is within its user's limits and within those of the user's firm (the OUCH 4.2
 * Firm of the user's credentials); a firm's open orders and rate count all of its users on this gateway together.
 * The user's limits are checked first, so a reject names the user's limit when both are broken.
 * <p>
 * The collar is one-sided, against the prices that would trade through the market: a buy priced above {@code reference
 * x (1 + band)}, or a sell priced below {@code reference x (1 - band)}, is rejected; passive prices are never. The
 * reference is the symbol's last trade price on this gateway's view of the engine's event streams (every trade,
 * whichever gateway's orders made it), or before the symbol's first trade the configured reference price, or none (no
 * collar); a broken trade is no reference, the one before it is. The rate limit is a token bucket per user and per firm
 * (GCRA, on the gateway's monotonic clock): up to the orders per second at once, then one more every {@code 1 / rate}
 * seconds; Enter and Replace Orders take a token from both buckets, or from neither when either is empty, and Cancel
 * and Modify Orders never do (reducing risk is always allowed). A user's open orders are the orders entered and not yet
 * done (rejected, canceled or fully executed); a replacement takes its order's place once the engine has replaced it.
 * <p>
 * Limit-on-close orders (Cross Type C) are checked like any other, collar included: their limit can set the closing
 * cross's price (the cross maximises the executable shares), so one priced far through the market is the same fat
 * finger; the cross's executions are trades like any other for the reference.
 * <p>
 * Used only by the gateway agent thread; a user's and a firm's state is created on its first order and lives for the
 * day. The day's last trades are kept on disk ({@link CollarReferences}), their only copy: after a gateway restart the
 * collar references are those trades, or the configured prices for the symbols that have not traded; the open orders
 * are counted again as the journals rebuild them ({@link OrderRebuild}); the rate buckets start full.
 */
final class PreTradeRisk
{
    private static final long BASIS_POINTS = 10_000L;

    /** The limits of a user or of a firm, with its open orders and its order rate bucket. */
    private static final class Account
    {
        private final long maxOrderShares;
        private final long maxNotional;
        private final long maxOpenOrders;
        private final int priceBandBasisPoints;
        private final TokenBucket orderRate;
        private final RejectCause rateCause;
        private final RejectCause sharesCause;
        private final RejectCause notionalCause;
        private final RejectCause openOrdersCause;
        private final RejectCause priceBandCause;
        private long openOrders;

        private Account(final RiskLimits.OrderLimits limits, final boolean firm)
        {
            this.maxOrderShares = limits.maxOrderShares();
            this.maxNotional = limits.maxNotional();
            this.maxOpenOrders = limits.maxOpenOrders();
            this.priceBandBasisPoints = limits.priceBandBasisPoints();
            orderRate = new TokenBucket(limits.ordersPerSecond());
            rateCause = firm ? RejectCause.FIRM_RATE_LIMIT : RejectCause.RATE_LIMIT;
            sharesCause = firm ? RejectCause.FIRM_MAX_ORDER_SHARES : RejectCause.RISK_MAX_ORDER_SHARES;
            notionalCause = firm ? RejectCause.FIRM_MAX_NOTIONAL : RejectCause.RISK_MAX_NOTIONAL;
            openOrdersCause = firm ? RejectCause.FIRM_MAX_OPEN_ORDERS : RejectCause.RISK_MAX_OPEN_ORDERS;
            priceBandCause = firm ? RejectCause.FIRM_PRICE_BAND : RejectCause.RISK_PRICE_BAND;
        }

        private RejectCause check(
            final boolean buy, final long shares, final long price, final long referencePrice, final boolean newOrder)
        {
            if (0 != maxOrderShares && shares > maxOrderShares)
            {
                return sharesCause;
            }
            if (0 != maxNotional && price * shares > maxNotional * Ouch42.PRICE_SCALE)
            {
                return notionalCause;
            }
            if (isOutsideCollar(priceBandBasisPoints, buy, price, referencePrice))
            {
                return priceBandCause;
            }
            if (newOrder && 0 != maxOpenOrders && openOrders >= maxOpenOrders)
            {
                return openOrdersCause;
            }
            return null;
        }
    }

    /** One user's limits and options, its state, and its firm's. */
    static final class UserRisk
    {
        final RiskLimits.UserLimits limits;
        private final Account user;
        private final Account firm;

        private UserRisk(final RiskLimits.UserLimits limits, final Account firm)
        {
            this.limits = limits;
            this.user = new Account(limits, false);
            this.firm = firm;
        }

        /**
         * Takes a token from the user's bucket and one from its firm's, or none when either is empty.
         *
         * @param nowNs monotonic time in nanoseconds.
         * @return null when the order is within both rates, else the cause to reject it with ({@link
         * RejectCause#RATE_LIMIT} for the user's, {@link RejectCause#FIRM_RATE_LIMIT} for the firm's).
         */
        RejectCause admit(final long nowNs)
        {
            if (!user.orderRate.hasToken(nowNs))
            {
                return user.rateCause;
            }
            if (!firm.orderRate.hasToken(nowNs))
            {
                return firm.rateCause;
            }
            user.orderRate.take(nowNs);
            firm.orderRate.take(nowNs);
            return null;
        }

        /** An order of the user started to count as open. */
        void onOrderOpened()
        {
            user.openOrders++;
            firm.openOrders++;
        }

        /** An order of the user that counted as open is done. */
        void onOrderClosed()
        {
            user.openOrders--;
            firm.openOrders--;
        }
    }

    private final RiskLimits limits;
    private final SymbolDirectory symbols;
    private final Map<String, UserRisk> users = new HashMap<>();
    private final Int2ObjectHashMap<Account> firms = new Int2ObjectHashMap<>();
    /** Configured reference price of each symbol, by Stock Locate - 1, in 1/10000 dollars; 0 for none. */
    private final long[] configuredPrices;
    private final CollarReferences lastTrades;

    /**
     * @param limits     the limits of every user and firm and the configured reference prices.
     * @param symbols    the tradable symbols.
     * @param lastTrades the day's last trades, the collar references in place of the configured ones: those of a
     *                   gateway restarted during the day, or none; every trade is stored there from now on.
     */
    PreTradeRisk(final RiskLimits limits, final SymbolDirectory symbols, final CollarReferences lastTrades)
    {
        this.limits = limits;
        this.symbols = symbols;
        this.lastTrades = lastTrades;
        configuredPrices = new long[symbols.entries().size()];
        for (final SymbolDirectory.Entry entry : symbols.entries())
        {
            configuredPrices[entry.locate() - 1] = limits.referencePrice(entry.symbol());
        }
    }

    /**
     * @param session a logged-in user.
     * @return its risk state, created on first use, with its firm's.
     */
    UserRisk user(final UserSession session)
    {
        UserRisk user = users.get(session.username());
        if (null == user)
        {
            user = new UserRisk(limits.forUser(session.username()), firm(session.firm()));
            users.put(session.username(), user);
        }
        return user;
    }

    /**
     * Checks an order against the user's limits, then its firm's (the rate is checked apart, by {@link
     * UserRisk#admit}).
     *
     * @param user     the user.
     * @param buy      true for a buy, false for any sell side.
     * @param shares   order size.
     * @param price    limit price in 1/10000 dollars.
     * @param symbol   the order's symbol; null for one no longer in the directory (no collar).
     * @param newOrder true for an Enter Order (which adds an open order), false for a Replace Order (which does not).
     * @return the first limit broken, or null.
     */
    RejectCause check(
        final UserRisk user, final boolean buy, final long shares, final long price,
        final SymbolDirectory.Entry symbol, final boolean newOrder)
    {
        final long referencePrice = referencePrice(symbol);
        final RejectCause cause = user.user.check(buy, shares, price, referencePrice, newOrder);
        return null != cause ? cause : user.firm.check(buy, shares, price, referencePrice, newOrder);
    }

    /**
     * A trade on the engine's event stream: its price becomes the symbol's collar reference, stored on disk; a symbol
     * not in the directory is left out, and so is a trade already stored (an event replayed after a restart).
     *
     * @param symbol      packed symbol.
     * @param matchNumber the execution's engine match number.
     * @param price       trade price in 1/10000 dollars.
     */
    void onTrade(final long symbol, final long matchNumber, final long price)
    {
        final SymbolDirectory.Entry entry = symbols.find(symbol);
        if (null != entry)
        {
            lastTrades.store(entry, matchNumber, price);
        }
    }

    /**
     * A trade broken on the engine's event stream (TradeBroken): it is the collar reference no more; the symbol's
     * newest trade not broken is, else its configured reference ({@link CollarReferences} keeps the last
     * {@value io.bourse.common.LastTrades#TRADES} trades).
     *
     * @param symbol      packed symbol.
     * @param matchNumber the broken execution's engine match number.
     */
    void onTradeBroken(final long symbol, final long matchNumber)
    {
        final SymbolDirectory.Entry entry = symbols.find(symbol);
        if (null != entry)
        {
            lastTrades.broken(entry, matchNumber);
        }
    }

    /**
     * @return the price of the symbol's last trade today not broken, else its configured reference, else 0 (no
     * collar).
     */
    private long referencePrice(final SymbolDirectory.Entry symbol)
    {
        if (null == symbol)
        {
            return 0;
        }
        final long lastTrade = lastTrades.price(symbol);
        return 0 != lastTrade ? lastTrade : configuredPrices[symbol.locate() - 1];
    }

    private Account firm(final int firm)
    {
        Account account = firms.get(firm);
        if (null == account)
        {
            account = new Account(limits.forFirm(firm), true);
            firms.put(firm, account);
        }
        return account;
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
