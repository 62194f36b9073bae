package io.bourse.engine;

import io.bourse.common.time.MidnightNanoClock;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * The shard's executions of the day, by match number, so that an operator can break one (engine-schema.xml BreakTrade):
 * symbol, shares, price (1/10000 dollars), both clientOrderIds and order reference numbers, whether it was an execution
 * of a closing cross (never broken) and whether it was broken. Append-only in pages of fixed-size records held off the
 * Java heap (direct memory, {@value #RECORD_LENGTH} bytes per execution), so that the day's executions, which live as
 * long as the shard, are never copied by a young garbage collection: on the heap they were a large part of what each
 * young pause copied at 500,000 orders/s. The shard's match numbers only grow, so a page is sorted and {@link
 * #find(long)} is a binary search, and recording a trade is a few sequential writes into one record, with no hash table
 * to probe and nothing ever copied; a new page is allocated every {@code pageCapacity} executions and kept, up to
 * {@code maxPages}: past them, the oldest page's executions are forgotten and its page reused, so that the day's most
 * recent {@code pageCapacity * (maxPages - 1)} executions at least can be found and broken, and the direct memory held
 * stays bounded (before, a busy day's executions took it all: the allocation failed mid-command, and again at each
 * recovery of the day). When the engine's clock passes a midnight ({@link #onClock(long)}) the earlier day's executions
 * are forgotten and their pages reused, so a shard that runs for days holds one day's executions, not all it ever made.
 * The same commands find the same executions in a run and in its replay. Used only by the engine agent thread.
 * <pre>
 *   Record, 72 bytes, native byte order:
 *     0 match number        8 symbol (packed)      16 shares            24 price
 *    32 taker clientOrderId 40 taker order ref.    48 maker clientOrderId 56 maker order ref.
 *    64 broken (1 byte)    65 closing cross (1 byte)    66 padding
 * </pre>
 */
final class Executions
{
    /** Returned by {@link #find(long)} for a match number the shard never published, or no longer holds. */
    static final int MISSING = -1;
    /** Bytes of one execution's record. */
    static final int RECORD_LENGTH = 72;

    private static final int MATCH_NUMBER_OFFSET = 0;
    private static final int SYMBOL_OFFSET = 8;
    private static final int QUANTITY_OFFSET = 16;
    private static final int PRICE_OFFSET = 24;
    private static final int TAKER_CLIENT_ORDER_ID_OFFSET = 32;
    private static final int TAKER_ORDER_ID_OFFSET = 40;
    private static final int MAKER_CLIENT_ORDER_ID_OFFSET = 48;
    private static final int MAKER_ORDER_ID_OFFSET = 56;
    private static final int BROKEN_OFFSET = 64;
    private static final int CROSS_OFFSET = 65;

    private final int pageShift;
    private final int pageMask;
    private final int maxPages;
    private final List<UnsafeBuffer> pages = new ArrayList<>();
    /** Pages of an earlier day, for the next pages of this one. */
    private final List<UnsafeBuffer> sparePages = new ArrayList<>();
    private UnsafeBuffer tail;
    private int size;
    /** The start of the day after the executions', on the engine's clock. */
    private long nextDayNs = MidnightNanoClock.NANOS_PER_DAY;

    /**
     * @param pageCapacity executions per page, a power of two.
     * @param maxPages     most pages held, at least 2: {@code pageCapacity * maxPages * }{@value #RECORD_LENGTH} bytes
     *                     of direct memory at most.
     * @throws IllegalArgumentException when the capacity is not a positive power of two, a page would exceed 2 GiB, or
     *                                  fewer than 2 pages are allowed.
     */
    Executions(final int pageCapacity, final int maxPages)
    {
        if (pageCapacity <= 0 || Integer.bitCount(pageCapacity) != 1 ||
            (long)pageCapacity * RECORD_LENGTH > Integer.MAX_VALUE)
        {
            throw new IllegalArgumentException("page capacity must be a power of two: " + pageCapacity);
        }
        if (maxPages < 2)
        {
            throw new IllegalArgumentException("at least 2 pages: " + maxPages);
        }
        pageShift = Integer.numberOfTrailingZeros(pageCapacity);
        pageMask = pageCapacity - 1;
        this.maxPages = maxPages;
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
     * @param cross              true for an execution of a closing cross (OrderExecuted crossType C).
     * @throws IllegalArgumentException when the match number is not higher than the last one recorded.
     * @throws OutOfMemoryError         when no direct memory is left for a new page, below {@code maxPages}.
     */
    void record(
        final long matchNumber, final long symbol, final long quantity, final long price,
        final long takerClientOrderId, final long takerOrderId, final long makerClientOrderId,
        final long makerOrderId, final boolean cross)
    {
        if (size > 0 && matchNumber <= matchNumber(size - 1))
        {
            throw new IllegalArgumentException("match number " + matchNumber + " not above " +
                matchNumber(size - 1));
        }
        final int slot = size & pageMask;
        if (0 == slot)
        {
            if (maxPages == pages.size())
            {
                tail = pages.remove(0); // the oldest executions, forgotten
                size -= pageMask + 1;
            }
            else
            {
                tail = sparePages.isEmpty() ?
                    new UnsafeBuffer(ByteBuffer.allocateDirect((pageMask + 1) * RECORD_LENGTH)) :
                    sparePages.remove(sparePages.size() - 1);
            }
            pages.add(tail);
        }
        final int offset = slot * RECORD_LENGTH;
        tail.putLong(offset + MATCH_NUMBER_OFFSET, matchNumber);
        tail.putLong(offset + SYMBOL_OFFSET, symbol);
        tail.putLong(offset + QUANTITY_OFFSET, quantity);
        tail.putLong(offset + PRICE_OFFSET, price);
        tail.putLong(offset + TAKER_CLIENT_ORDER_ID_OFFSET, takerClientOrderId);
        tail.putLong(offset + TAKER_ORDER_ID_OFFSET, takerOrderId);
        tail.putLong(offset + MAKER_CLIENT_ORDER_ID_OFFSET, makerClientOrderId);
        tail.putLong(offset + MAKER_ORDER_ID_OFFSET, makerOrderId);
        tail.putByte(offset + BROKEN_OFFSET, (byte)0);
        tail.putByte(offset + CROSS_OFFSET, (byte)(cross ? 1 : 0));
        size++;
    }

    /**
     * Forgets the executions of earlier days when the engine's clock has reached a later day than the last call's:
     * none of them can be found or broken after it (a BreakTrade names an execution of the day). Their pages are kept
     * for the new day's executions. Call it whenever the clock moves, before the command's executions.
     *
     * @param clockNs the engine's clock from the command on ({@code MatchingEngine.clockAt(timestampNs)}), ns since
     *                the midnight of its first day.
     */
    void onClock(final long clockNs)
    {
        if (clockNs >= nextDayNs)
        {
            nextDayNs = MidnightNanoClock.nextMidnight(clockNs);
            sparePages.addAll(pages);
            pages.clear();
            tail = null;
            size = 0;
        }
    }

    /**
     * @param matchNumber a match number.
     * @return the index of the execution for the accessors, or {@link #MISSING}.
     */
    int find(final long matchNumber)
    {
        if (0 == size)
        {
            return MISSING;
        }
        int low = 0;
        int high = pages.size() - 1;
        while (low < high)
        {
            final int middle = (low + high + 1) >>> 1;
            if (pages.get(middle).getLong(MATCH_NUMBER_OFFSET) <= matchNumber)
            {
                low = middle;
            }
            else
            {
                high = middle - 1;
            }
        }
        final UnsafeBuffer page = pages.get(low);
        int first = 0;
        int last = (low == pages.size() - 1 ? size - (low << pageShift) : pageMask + 1) - 1;
        while (first <= last)
        {
            final int middle = (first + last) >>> 1;
            final long found = page.getLong(middle * RECORD_LENGTH + MATCH_NUMBER_OFFSET);
            if (found < matchNumber)
            {
                first = middle + 1;
            }
            else if (found > matchNumber)
            {
                last = middle - 1;
            }
            else
            {
                return (low << pageShift) | middle;
            }
        }
        return MISSING;
    }

    /** @param index from {@link #find(long)}. @return the match number. */
    long matchNumber(final int index)
    {
        return field(index, MATCH_NUMBER_OFFSET);
    }

    /** @param index from {@link #find(long)}. @return the packed symbol. */
    long symbol(final int index)
    {
        return field(index, SYMBOL_OFFSET);
    }

    /** @param index from {@link #find(long)}. @return the shares executed. */
    long quantity(final int index)
    {
        return field(index, QUANTITY_OFFSET);
    }

    /** @param index from {@link #find(long)}. @return the price, 1/10000 dollars. */
    long price(final int index)
    {
        return field(index, PRICE_OFFSET);
    }

    /** @param index from {@link #find(long)}. @return the incoming order's clientOrderId. */
    long takerClientOrderId(final int index)
    {
        return field(index, TAKER_CLIENT_ORDER_ID_OFFSET);
    }

    /** @param index from {@link #find(long)}. @return the resting order's clientOrderId. */
    long makerClientOrderId(final int index)
    {
        return field(index, MAKER_CLIENT_ORDER_ID_OFFSET);
    }

    /** @param index from {@link #find(long)}. @return the incoming order's reference number. */
    long takerOrderId(final int index)
    {
        return field(index, TAKER_ORDER_ID_OFFSET);
    }

    /** @param index from {@link #find(long)}. @return the resting order's reference number. */
    long makerOrderId(final int index)
    {
        return field(index, MAKER_ORDER_ID_OFFSET);
    }

    /** @param index from {@link #find(long)}. @return true once {@link #markBroken(int)} was called for it. */
    boolean isBroken(final int index)
    {
        return 0 != page(index).getByte(recordOffset(index) + BROKEN_OFFSET);
    }

    /** @param index from {@link #find(long)}. @return true for an execution of a closing cross. */
    boolean isCross(final int index)
    {
        return 0 != page(index).getByte(recordOffset(index) + CROSS_OFFSET);
    }

    /** @param index from {@link #find(long)}: the execution was broken (BreakTrade). */
    void markBroken(final int index)
    {
        page(index).putByte(recordOffset(index) + BROKEN_OFFSET, (byte)1);
    }

    private long field(final int index, final int fieldOffset)
    {
        return page(index).getLong(recordOffset(index) + fieldOffset);
    }

    private int recordOffset(final int index)
    {
        return (index & pageMask) * RECORD_LENGTH;
    }

    private UnsafeBuffer page(final int index)
    {
        return pages.get(index >>> pageShift);
    }
}
