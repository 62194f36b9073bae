package io.bourse.engine.match;

import java.util.ArrayDeque;
import java.util.Arrays;

/**
 * One side of an order book: price levels in an array sorted so that the best level is last (bids ascending, offers
 * descending), which makes taking from the top and removing an emptied best level O(1). Levels are pooled.
 */
final class BookSide
{
    private final Side side;
    private final ArrayDeque<PriceLevel> levelPool;
    private PriceLevel[] levels = new PriceLevel[64];
    private int count;

    BookSide(final Side side, final ArrayDeque<PriceLevel> levelPool)
    {
        this.side = side;
        this.levelPool = levelPool;
    }

    /** @return the best level, or null when the side is empty. */
    PriceLevel best()
    {
        return 0 == count ? null : levels[count - 1];
    }

    int levelCount()
    {
        return count;
    }

    /**
     * @param depth 0 for the best level.
     * @return the level at that depth.
     */
    PriceLevel levelAt(final int depth)
    {
        return levels[count - 1 - depth];
    }

    /** @return true when {@code a} is a better price than {@code b} on this side. */
    boolean isBetter(final long a, final long b)
    {
        return side == Side.BUY ? a > b : a < b;
    }

    /** Appends an order at its price, creating the level if needed (time priority: last in its level). */
    void add(final Order order)
    {
        final long price = order.price;
        int lo = 0;
        int hi = count - 1;
        while (lo <= hi)
        {
            final int mid = (lo + hi) >>> 1;
            final long midPrice = levels[mid].price;
            if (midPrice == price)
            {
                levels[mid].append(order);
                return;
            }
            // Array is sorted worst..best: a better price sits at a higher index.
            if (isBetter(price, midPrice))
            {
                lo = mid + 1;
            }
            else
            {
                hi = mid - 1;
            }
        }
        if (count == levels.length)
        {
            levels = Arrays.copyOf(levels, count * 2);
        }
        System.arraycopy(levels, lo, levels, lo + 1, count - lo);
        PriceLevel level = levelPool.pollLast();
        if (null == level)
        {
            level = new PriceLevel();
        }
        level.init(price);
        levels[lo] = level;
        count++;
        level.append(order);
    }

    /** Removes an order from its level, dropping the level when it empties. */
    void remove(final Order order)
    {
        final PriceLevel level = order.level;
        level.remove(order);
        if (level.isEmpty())
        {
            removeLevel(level);
        }
    }

    /** Reduces a resting order's size in place, keeping its time priority. */
    void reduce(final Order order, final long quantity)
    {
        order.remaining -= quantity;
        order.level.totalQuantity -= quantity;
    }

    private void removeLevel(final PriceLevel level)
    {
        if (levels[count - 1] == level)
        {
            levels[--count] = null;
        }
        else
        {
            final int index = indexOf(level.price);
            System.arraycopy(levels, index + 1, levels, index, count - index - 1);
            levels[--count] = null;
        }
        levelPool.addLast(level);
    }

    private int indexOf(final long price)
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
            if (isBetter(price, midPrice))
            {
                lo = mid + 1;
            }
            else
            {
                hi = mid - 1;
            }
        }
        throw new IllegalStateException("no level at " + price);
    }
}
