package io.bourse.engine.match;

import java.util.Arrays;

/**
 * One side of an order book. Price levels live in a window of {@value #WINDOW_SIZE} consecutive prices indexed
 * directly by price, with an occupancy bitmap, so that finding, creating and dropping a level there is O(1) and the
 * next level after the best is a short bitmap scan. The window is centred on the first price of a side that was
 * empty; levels outside it sit in a sorted array. The best level is cached; emptied levels wait in a free list.
 */
final class BookSide
{
    private static final int WINDOW_BITS = 13;
    private static final int WINDOW_SIZE = 1 << WINDOW_BITS;

    private final boolean bids;
    private final PriceLevel[] window = new PriceLevel[WINDOW_SIZE];
    private final long[] occupied = new long[WINDOW_SIZE >>> 6];
    private long windowBase;
    private PriceLevel[] outside = new PriceLevel[16];
    private int outsideCount;
    private PriceLevel best;
    private PriceLevel freeLevels;
    private int count;

    BookSide(final Side side)
    {
        this.bids = Side.BUY == side;
    }

    /** @return the best level, or null when the side is empty. */
    PriceLevel best()
    {
        return best;
    }

    /**
     * @param level a level of this side.
     * @return the next level in priority order (the best one at a worse price), or null after the last.
     */
    PriceLevel next(final PriceLevel level)
    {
        return nextWorse(level.price);
    }

    int levelCount()
    {
        return count;
    }

    /** Appends an order at its price, creating the level if needed (time priority: last in its level). */
    void add(final Order order)
    {
        final long price = order.price;
        if (0 == count)
        {
            windowBase = price - (WINDOW_SIZE >> 1);
        }
        final long slot = price - windowBase;
        PriceLevel level;
        if (0 == (slot >>> WINDOW_BITS))
        {
            final int index = (int)slot;
            level = window[index];
            if (null == level)
            {
                level = newLevel(price);
                window[index] = level;
                occupied[index >>> 6] |= 1L << index;
            }
        }
        else
        {
            level = outsideLevel(price);
        }
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

    private PriceLevel newLevel(final long price)
    {
        PriceLevel level = freeLevels;
        if (null == level)
        {
            level = new PriceLevel();
        }
        else
        {
            freeLevels = level.nextFree;
        }
        level.init(price);
        count++;
        if (null == best || isBetter(price, best.price))
        {
            best = level;
        }
        return level;
    }

    private PriceLevel outsideLevel(final long price)
    {
        final int index = outsideLowerBound(price);
        if (index < outsideCount && outside[index].price == price)
        {
            return outside[index];
        }
        if (outsideCount == outside.length)
        {
            outside = Arrays.copyOf(outside, outsideCount * 2);
        }
        System.arraycopy(outside, index, outside, index + 1, outsideCount - index);
        final PriceLevel level = newLevel(price);
        outside[index] = level;
        outsideCount++;
        return level;
    }

    private void removeLevel(final PriceLevel level)
    {
        final long price = level.price;
        final long slot = price - windowBase;
        if (0 == (slot >>> WINDOW_BITS))
        {
            final int index = (int)slot;
            window[index] = null;
            occupied[index >>> 6] &= ~(1L << index);
        }
        else
        {
            final int index = outsideLowerBound(price);
            System.arraycopy(outside, index + 1, outside, index, outsideCount - index - 1);
            outside[--outsideCount] = null;
        }
        count--;
        if (best == level)
        {
            best = 0 == count ? null : nextWorse(price);
        }
        level.nextFree = freeLevels;
        freeLevels = level;
    }

    /** @return the best level at a price worse than {@code price}, or null when there is none. */
    private PriceLevel nextWorse(final long price)
    {
        final PriceLevel inWindow = bids ? windowBelow(price) : windowAbove(price);
        if (0 == outsideCount)
        {
            return inWindow;
        }
        final int index = bids ? outsideLowerBound(price) - 1 : outsideLowerBound(price + 1);
        final PriceLevel inOutside = index >= 0 && index < outsideCount ? outside[index] : null;
        if (null == inWindow)
        {
            return inOutside;
        }
        return null == inOutside || isBetter(inWindow.price, inOutside.price) ? inWindow : inOutside;
    }

    /** @return the window level with the highest price below {@code price}, or null. */
    private PriceLevel windowBelow(final long price)
    {
        final long last = Math.min(price - windowBase, WINDOW_SIZE) - 1;
        if (last < 0)
        {
            return null;
        }
        int word = (int)(last >>> 6);
        long bits = occupied[word] & (-1L >>> (63 - (last & 63)));
        while (0 == bits)
        {
            if (--word < 0)
            {
                return null;
            }
            bits = occupied[word];
        }
        return window[(word << 6) + 63 - Long.numberOfLeadingZeros(bits)];
    }

    /** @return the window level with the lowest price above {@code price}, or null. */
    private PriceLevel windowAbove(final long price)
    {
        final long first = Math.max(price - windowBase + 1, 0);
        if (first >= WINDOW_SIZE)
        {
            return null;
        }
        int word = (int)(first >>> 6);
        long bits = occupied[word] & (-1L << first);
        while (0 == bits)
        {
            if (++word == occupied.length)
            {
                return null;
            }
            bits = occupied[word];
        }
        return window[(word << 6) + Long.numberOfTrailingZeros(bits)];
    }

    /** @return index of the first level outside the window priced at or above {@code price} (ascending order). */
    private int outsideLowerBound(final long price)
    {
        int lo = 0;
        int hi = outsideCount;
        while (lo < hi)
        {
            final int mid = (lo + hi) >>> 1;
            if (outside[mid].price < price)
            {
                lo = mid + 1;
            }
            else
            {
                hi = mid;
            }
        }
        return lo;
    }

    /** @return true when {@code a} is a better price than {@code b} on this side. */
    private boolean isBetter(final long a, final long b)
    {
        return bids ? a > b : a < b;
    }
}
