package io.bourse.engine;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The shard's executions of the day, by match number, so that an operator can break one (engine-schema.xml
 * BreakTrade): symbol, shares, price (1/10000 dollars), both clientOrderIds and order reference numbers, and whether
 * it was broken. Append-only in pages of parallel primitive arrays: the shard's match numbers only grow, so a page is
 * sorted and {@link #find(long)} is a binary search, and recording a trade is a few sequential writes, with no hash
 * table to probe and nothing ever copied; a new page is allocated every {@code pageCapacity} executions and kept. The
 * registry lives as long as the shard process, a trading day. Used only by the engine agent thread.
 */
final class Executions
{
    /** Returned by {@link #find(long)} for a match number the shard never published. */
    static final int MISSING = -1;

    private final int pageShift;
    private final int pageMask;
    private final List<Page> pages = new ArrayList<>();
    private Page tail;
    private int size;

    /**
     * @param pageCapacity executions per page, a power of two.
     * @throws IllegalArgumentException when it is not a positive power of two.
     */
    Executions(final int pageCapacity)
    {
        if (pageCapacity <= 0 || Integer.bitCount(pageCapacity) != 1)
        {
            throw new IllegalArgumentException("page capacity must be a power of two: " + pageCapacity);
        }
        pageShift = Integer.numberOfTrailingZeros(pageCapacity);
        pageMask = pageCapacity - 1;
    }

    /**
     * Records an execution (engine OrderExecuted).
     *
     * @param matchNumber        unique per day, higher than every match number recorded before.
     * @param symbol             packed symbol.
     * @param quantity           shares.
     * @param price              1/10000 dollars.
     * @param takerClientOrderId the incoming order's clientOrderId.
     * @param takerOrderId       the incoming order's reference number.
     * @param makerClientOrderId the resting order's clientOrderId.
     * @param makerOrderId       the resting order's reference number.
     * @throws IllegalArgumentException when the match number is not higher than the last one recorded.
     */
    void record(
        final long matchNumber, final long symbol, final long quantity, final long price,
        final long takerClientOrderId, final long takerOrderId, final long makerClientOrderId,
        final long makerOrderId)
    {
        final int slot = size & pageMask;
        if (0 == slot)
        {
            tail = new Page(pageMask + 1);
            pages.add(tail);
        }
        else if (matchNumber <= tail.matchNumbers[slot - 1])
        {
            throw new IllegalArgumentException("match number " + matchNumber + " not above " +
                tail.matchNumbers[slot - 1]);
        }
        tail.matchNumbers[slot] = matchNumber;
        tail.symbols[slot] = symbol;
        tail.quantities[slot] = quantity;
        tail.prices[slot] = price;
        tail.takerClientOrderIds[slot] = takerClientOrderId;
        tail.makerClientOrderIds[slot] = makerClientOrderId;
        tail.takerOrderIds[slot] = takerOrderId;
        tail.makerOrderIds[slot] = makerOrderId;
        size++;
    }

    /**
     * @param matchNumber a match number.
     * @return the index of the execution for the accessors, or {@link #MISSING}.
     */
    int find(final long matchNumber)
    {
        if (pages.isEmpty())
        {
            return MISSING;
        }
        int low = 0;
        int high = pages.size() - 1;
        while (low < high)
        {
            final int middle = (low + high + 1) >>> 1;
            if (pages.get(middle).matchNumbers[0] <= matchNumber)
            {
                low = middle;
            }
            else
            {
                high = middle - 1;
            }
        }
        final int used = low == pages.size() - 1 ? size - (low << pageShift) : pageMask + 1;
        final int slot = Arrays.binarySearch(pages.get(low).matchNumbers, 0, used, matchNumber);
        return slot < 0 ? MISSING : (low << pageShift) | slot;
    }

    /** @param index from {@link #find(long)}. @return the match number. */
    long matchNumber(final int index)
    {
        return page(index).matchNumbers[index & pageMask];
    }

    /** @param index from {@link #find(long)}. @return the packed symbol. */
    long symbol(final int index)
    {
        return page(index).symbols[index & pageMask];
    }

    /** @param index from {@link #find(long)}. @return the shares executed. */
    long quantity(final int index)
    {
        return page(index).quantities[index & pageMask];
    }

    /** @param index from {@link #find(long)}. @return the price, 1/10000 dollars. */
    long price(final int index)
    {
        return page(index).prices[index & pageMask];
    }

    /** @param index from {@link #find(long)}. @return the incoming order's clientOrderId. */
    long takerClientOrderId(final int index)
    {
        return page(index).takerClientOrderIds[index & pageMask];
    }

    /** @param index from {@link #find(long)}. @return the resting order's clientOrderId. */
    long makerClientOrderId(final int index)
    {
        return page(index).makerClientOrderIds[index & pageMask];
    }

    /** @param index from {@link #find(long)}. @return the incoming order's reference number. */
    long takerOrderId(final int index)
    {
        return page(index).takerOrderIds[index & pageMask];
    }

    /** @param index from {@link #find(long)}. @return the resting order's reference number. */
    long makerOrderId(final int index)
    {
        return page(index).makerOrderIds[index & pageMask];
    }

    /** @param index from {@link #find(long)}. @return true once {@link #markBroken(int)} was called for it. */
    boolean isBroken(final int index)
    {
        return page(index).broken[index & pageMask];
    }

    /** @param index from {@link #find(long)}: the execution was broken (BreakTrade). */
    void markBroken(final int index)
    {
        page(index).broken[index & pageMask] = true;
    }

    private Page page(final int index)
    {
        return pages.get(index >>> pageShift);
    }

    /** One page of executions, in match-number order. */
    private static final class Page
    {
        final long[] matchNumbers;
        final long[] symbols;
        final long[] quantities;
        final long[] prices;
        final long[] takerClientOrderIds;
        final long[] makerClientOrderIds;
        final long[] takerOrderIds;
        final long[] makerOrderIds;
        final boolean[] broken;

        Page(final int capacity)
        {
            matchNumbers = new long[capacity];
            symbols = new long[capacity];
            quantities = new long[capacity];
            prices = new long[capacity];
            takerClientOrderIds = new long[capacity];
            makerClientOrderIds = new long[capacity];
            takerOrderIds = new long[capacity];
            makerOrderIds = new long[capacity];
            broken = new boolean[capacity];
        }
    }
}
