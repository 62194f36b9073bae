package io.bourse.mdpublisher;

/**
 * The L2 feed of one side of a book at a limited depth: the best {@code depth} price levels as last published
 * (price in 1/10000 dollars, total shares, order count), and the PriceLevelUpdate messages that bring a subscriber
 * from those to the side's current best levels.
 *
 * <p>A subscriber of a depth-limited feed holds at most {@code depth} levels per side. So when a level leaves the
 * window (it emptied, or a better level pushed it out) its update has quantity 0, and when a level enters the window
 * (it is new, or a level above it left) its update has its whole aggregate. The removals of an event come first,
 * then the entries and changes, best level first, so a subscriber that starts from an empty book never holds more
 * than {@code depth} levels and needs no rule of its own for a level pushed out (one that starts from the depth
 * feed's snapshot, PriceLevelSnapshot, gets exactly the window's levels). A level that stays in the window
 * is published only when its shares or order count changed; levels outside the window are never published.
 *
 * <p>Each update is one diff of the window against the side's best levels, two merges of sorted arrays of at most
 * {@code depth} entries, allocation free. Not thread safe: the publisher thread owns it.
 */
final class PublishedLevels
{
    private final Side side;
    private final long[] prices;
    private final long[] shares;
    private final int[] orderCounts;
    private int count;

    /**
     * @param side  the side whose levels these are.
     * @param depth most levels published, at least 1.
     */
    PublishedLevels(final Side side, final int depth)
    {
        this.side = side;
        this.prices = new long[depth];
        this.shares = new long[depth];
        this.orderCounts = new int[depth];
    }

    /** @return most levels published. */
    int depth()
    {
        return prices.length;
    }

    /**
     * Publishes what changed in the side's best levels since the last call, then remembers them.
     *
     * @param timestampNs the event's time, ns since midnight.
     * @param symbol      the packed symbol.
     * @param levels      the side's levels now.
     * @param listener    receives one PriceLevelUpdate per level that left (quantity 0), entered or changed.
     */
    void publish(
        final long timestampNs, final long symbol, final BookLevels levels, final MarketDataListener listener)
    {
        final int newCount = Math.min(prices.length, levels.levelCount());
        int j = 0;
        for (int i = 0; i < count; i++)
        {
            while (j < newCount && side.isBetter(levels.level(j).price, prices[i]))
            {
                j++;
            }
            if (j == newCount || levels.level(j).price != prices[i])
            {
                listener.onPriceLevelUpdate(timestampNs, symbol, side, prices[i], 0, 0);
            }
        }
        int i = 0;
        for (j = 0; j < newCount; j++)
        {
            final PriceLevel level = levels.level(j);
            while (i < count && side.isBetter(prices[i], level.price))
            {
                i++;
            }
            if (i == count || prices[i] != level.price || shares[i] != level.totalShares ||
                orderCounts[i] != level.orderCount)
            {
                listener.onPriceLevelUpdate(
                    timestampNs, symbol, side, level.price, level.totalShares, level.orderCount);
            }
        }
        for (j = 0; j < newCount; j++)
        {
            final PriceLevel level = levels.level(j);
            prices[j] = level.price;
            shares[j] = level.totalShares;
            orderCounts[j] = level.orderCount;
        }
        count = newCount;
    }
}
