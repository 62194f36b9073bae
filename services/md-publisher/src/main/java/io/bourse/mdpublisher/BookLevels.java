package io.bourse.mdpublisher;

import java.util.ArrayDeque;
import java.util.Arrays;

/**
 * The price levels of one side of a book, in an array sorted so that the best level is last (bids ascending, offers
 * descending): the best level is O(1), any level is a binary search away. Levels come from and return to a pool.
 * Each level holds its orders in time priority. The side's depth (levels, orders, shares) is kept in plain fields that
 * the metrics thread reads as a racy snapshot, never through the level array, which this side's owner may be
 * reallocating.
 */
final class BookLevels
{
    private final Side side;
    private final ArrayDeque<PriceLevel> levelPool;
    private PriceLevel[] levels = new PriceLevel[64];
    private int count;
    private int orderCount;
    private long totalShares;

    BookLevels(final Side side, final ArrayDeque<PriceLevel> levelPool)
    {
        this.side = side;
        this.levelPool = levelPool;
    }

    /** @return number of price levels on this side. */
    int levelCount()
    {
        return count;
    }

    /** @return number of displayed orders on this side. */
    int orderCount()
    {
        return orderCount;
    }

    /** @return displayed open shares on this side. */
    long totalShares()
    {
        return totalShares;
    }

    /** @return the best level, or null when the side is empty. */
    PriceLevel best()
    {
        return 0 == count ? null : levels[count - 1];
    }

    /**
     * @param price a price.
     * @return the level at that price, or null.
     */
    PriceLevel find(final long price)
    {
        final int index = search(price);
        return index >= 0 ? levels[index] : null;
    }

    /**
     * @param index from 0, the best level, to {@link #levelCount()} - 1, the worst.
     * @return the level.
     */
    PriceLevel level(final int index)
    {
        return levels[count - 1 - index];
    }

    /**
     * Adds an order's open shares to the level at its price, creating the level if needed, behind the level's other
     * orders in time priority.
     */
    void add(final BookOrder order)
    {
        final int index = search(order.price);
        final PriceLevel level;
        if (index >= 0)
        {
            level = levels[index];
        }
        else
        {
            level = insertLevel(-(index + 1), order.price);
        }
        level.totalShares += order.openShares;
        level.orderCount++;
        level.append(order);
        order.level = level;
        orderCount++;
        totalShares += order.openShares;
    }

    /** Takes an order's open shares off its level, dropping the level when no order is left. */
    void remove(final BookOrder order)
    {
        final PriceLevel level = order.level;
        level.totalShares -= order.openShares;
        level.orderCount--;
        level.unlink(order);
        order.level = null;
        orderCount--;
        totalShares -= order.openShares;
        if (0 == level.orderCount)
        {
            final int index = search(level.price);
            System.arraycopy(levels, index + 1, levels, index, count - index - 1);
            levels[--count] = null;
            levelPool.addLast(level);
        }
    }

    /** Reduces an order's open shares in place. */
    void reduce(final BookOrder order, final long shares)
    {
        order.openShares -= shares;
        order.level.totalShares -= shares;
        totalShares -= shares;
    }

    private PriceLevel insertLevel(final int index, final long price)
    {
        if (count == levels.length)
        {
            levels = Arrays.copyOf(levels, count * 2);
        }
        System.arraycopy(levels, index, levels, index + 1, count - index);
        PriceLevel level = levelPool.pollLast();
        if (null == level)
        {
            level = new PriceLevel();
        }
        level.init(price);
        levels[index] = level;
        count++;
        return level;
    }

    /** @return the index of the price, or {@code -(insertionPoint + 1)} when absent. */
    private int search(final long price)
    {
        int lo = 0;
        int hi = count - 1;
        while (lo <= hi)
        {
            final int mid = (lo + hi) >>> 1;
            final long midPrice = levels[mid].price;
            if (midPrice == price)
            {
                return mid;
            }
            // Sorted worst..best: a better price sits at a higher index.
            if (side.isBetter(price, midPrice))
            {
                lo = mid + 1;
            }
            else
            {
                hi = mid - 1;
            }
        }
        return -(lo + 1);
    }
}
