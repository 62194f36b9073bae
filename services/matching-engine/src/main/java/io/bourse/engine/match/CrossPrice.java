package io.bourse.engine.match;

import java.util.Arrays;

/**
 * Finds the price of a symbol's cross (see {@link MatchingEngine#runCross(long)}): among the limit prices of the buy
 * and sell interest (the closing-cross orders and the continuous book's price levels, displayed and non-displayed;
 * never the midpoint pegs), the price that maximises the executable shares {@code min(B, S)}, where B is the buy
 * interest priced at or above it and S the sell interest at or below it; ties go to the smallest imbalance
 * {@code |B - S|}, then to the price closest to the reference price (when there is one), then to the lower price.
 *
 * <p>Each side's levels are first merged into one array of prices in priority order with cumulative shares, then the
 * candidate prices are walked in ascending order, so a cross costs O(levels). The arrays are kept and only grow
 * (doubling) when a book has more levels than any before; one engine thread owns an instance.
 */
final class CrossPrice
{
    private static final int INITIAL_LEVELS = 64;

    private final Interest buys = new Interest(Side.BUY);
    private final Interest sells = new Interest(Side.SELL);
    private long price;
    private long shares;

    /**
     * Finds the cross price of a book.
     *
     * @param book           the symbol's book.
     * @param referencePrice the price ties are broken towards in 1/10000 dollars, 0 for none.
     * @return true when some shares can execute, then {@link #price()} and {@link #shares()} tell at what price and
     * how many; false when no buy interest reaches any sell interest.
     */
    boolean find(final OrderBook book, final long referencePrice)
    {
        buys.collect(book.bids, book.crossBids);
        sells.collect(book.asks, book.crossAsks);
        price = 0;
        shares = 0;
        long bestImbalance = 0;
        long bestDistance = 0;
        // Buys are in descending price order: buys.prices[0..nextBuy] are priced at or above every candidate not yet
        // walked. Sells are ascending: sells.prices[0..nextSell) at or below the previous candidate.
        int nextBuy = buys.count - 1;
        int nextSell = 0;
        while (nextBuy >= 0 || nextSell < sells.count)
        {
            final long candidate = nextBuy < 0 ? sells.prices[nextSell] : nextSell == sells.count ?
                buys.prices[nextBuy] : Math.min(buys.prices[nextBuy], sells.prices[nextSell]);
            final long buyShares = nextBuy < 0 ? 0 : buys.cumulative[nextBuy];
            if (nextBuy >= 0 && buys.prices[nextBuy] == candidate)
            {
                nextBuy--;
            }
            if (nextSell < sells.count && sells.prices[nextSell] == candidate)
            {
                nextSell++;
            }
            final long sellShares = 0 == nextSell ? 0 : sells.cumulative[nextSell - 1];
            final long executable = Math.min(buyShares, sellShares);
            if (0 == executable)
            {
                continue;
            }
            final long imbalance = Math.abs(buyShares - sellShares);
            final long distance = 0 == referencePrice ? 0 : Math.abs(candidate - referencePrice);
            if (executable > shares ||
                (executable == shares && (imbalance < bestImbalance ||
                (imbalance == bestImbalance && distance < bestDistance))))
            {
                price = candidate;
                shares = executable;
                bestImbalance = imbalance;
                bestDistance = distance;
            }
        }
        return 0 != shares;
    }

    /** @return the cross price found by the last {@link #find} that returned true, in 1/10000 dollars. */
    long price()
    {
        return price;
    }

    /** @return the shares that execute at {@link #price()}. */
    long shares()
    {
        return shares;
    }

    /** One side's interest: distinct prices in priority order, each with the shares priced at it or better. */
    private static final class Interest
    {
        private final boolean bids;
        long[] prices = new long[INITIAL_LEVELS];
        long[] cumulative = new long[INITIAL_LEVELS];
        int count;

        Interest(final Side side)
        {
            this.bids = Side.BUY == side;
        }

        /** Merges the two books' levels of this side, both in priority order, into the arrays. */
        void collect(final BookSide continuous, final BookSide cross)
        {
            count = 0;
            PriceLevel a = continuous.best();
            PriceLevel b = cross.best();
            while (null != a || null != b)
            {
                if (null == b || (null != a && isBetter(a.price, b.price)))
                {
                    append(a.price, a.totalQuantity);
                    a = continuous.next(a);
                }
                else if (null == a || isBetter(b.price, a.price))
                {
                    append(b.price, b.totalQuantity);
                    b = cross.next(b);
                }
                else
                {
                    append(a.price, a.totalQuantity + b.totalQuantity);
                    a = continuous.next(a);
                    b = cross.next(b);
                }
            }
        }

        private boolean isBetter(final long x, final long y)
        {
            return bids ? x > y : x < y;
        }

        private void append(final long price, final long quantity)
        {
            if (count == prices.length)
            {
                prices = Arrays.copyOf(prices, count * 2);
                cumulative = Arrays.copyOf(cumulative, count * 2);
            }
            prices[count] = price;
            cumulative[count] = (0 == count ? 0 : cumulative[count - 1]) + quantity;
            count++;
        }
    }
}
