package io.bourse.gateway;

import io.bourse.ouch.Ouch42;
import org.agrona.DirectBuffer;

import java.nio.ByteOrder;

/**
 * Every OUCH 4.2 Order Token a session used today, mapped to a long value (the order's clientOrderId, or
 * {@link #USED} for a token that was rejected). Tokens are day-unique, so entries are never removed. Open addressing
 * over the 14 token bytes held as two longs, each entry's two longs and value side by side in one page, so that a
 * lookup in a table far larger than the caches costs one cache miss, not three, and consecutive tokens of a client's
 * counter share blocks of slots, so most new tokens cost none ({@link #hash}): lookups and inserts do not allocate.
 * A taken slot sends the probe {@link #PROBE_STRIDE} slots on, to the next block one position further (from a
 * block's last position, the first of the block after): the tokens of a counter that lost its block's slots to
 * another counter stay side by side in the next one, where probing the next slot made the two counters' runs of
 * slots merge into clusters (17 to 49 probes per lookup with a base-36 counter at 2 million tokens; 1.5 to 2.2 this
 * way, the expected figure of linear probing at a load of at most one half). The stride is odd, so the probe visits
 * every slot of the power-of-two table (in a table of 64 slots or fewer it is plain linear probing). A slot takes 24
 * bytes and the table has 2 to 4 slots per token: 48 to 96 MB per million tokens, up to 144 MB while it grows.
 * <p>
 * The table doubles when half full, in steps so that no call does work in proportion to the number of tokens (a
 * one-shot rehash of a few hundred thousand tokens, one cache miss each, with a zeroed array of tens of MB, stalled
 * the gateway thread for tens of ms): the new table is a set of pages of at most {@link #PAGE_SLOTS} slots (3 MiB
 * each, which the JVM zeroes when it allocates them), one allocated every {@link #pageInterval} puts, so that the pages
 * come over as many puts as an eighth of the old table's slots (its load rises to at most 5/8 meanwhile). Allocated
 * one per put, the 32 to 64 pages of a session's table at 1 to 2 million tokens came in a burst of tens of ms (four
 * sessions growing together at 500,000 orders/s: stalls of about 100 ms). Then each {@link #put} moves the entries of
 * the next {@link #MIGRATE_SLOTS} slots of the old table into the new one. Meanwhile new tokens go into the new table,
 * lookups check the new table, then the old, and a token not moved yet is updated where it is. The old table is
 * dropped once every slot has moved, after one put per {@link #MIGRATE_SLOTS} of its slots, well before the new table
 * is half full.
 */
final class TokenIndex
{
    /** Returned by {@link #get} for a token never seen. */
    static final long MISSING = 0;
    /** Value of a token that was used but names no order (it was rejected). */
    static final long USED = -1;
    /** Largest page of a table, in slots; a power of two. */
    static final int PAGE_SLOTS = 1 << 17;
    /** Slots of the old table moved per {@link #put} while the table grows. */
    static final int MIGRATE_SLOTS = 8;

    private static final ByteOrder ORDER = ByteOrder.BIG_ENDIAN;
    /** An entry: the token's high long, its low long, the value. */
    private static final int ENTRY_LONGS = 3;
    private static final int LOW = 1;
    private static final int VALUE = 2;
    /** Returned by {@link #find} for a token the table does not hold. */
    private static final int ABSENT = -1;
    /** Slots of a block of consecutive tokens: 64 covers the characters 0-9, A-Z and most of a-z by their low bits. */
    private static final int BLOCK_SLOTS = 64;
    /** Distance from a taken slot to the next probed: odd, and in the next block. */
    private static final int PROBE_STRIDE = BLOCK_SLOTS + 1;
    /** Bytes of the token in the low long. */
    private static final int LOW_BYTES = Ouch42.TOKEN_LENGTH - Long.BYTES;
    private static final long LOW_MASK = (1L << (LOW_BYTES << 3)) - 1;
    private static final long SPACES = 0x2020_2020_2020_2020L;

    private final int pageSlots;
    private Table table;
    private int size;
    /** The table whose pages are being allocated before it replaces {@link #table}, else null. */
    private Table next;
    /** Puts since the last page of {@link #next} was allocated. */
    private int putsSincePage;
    /** The table being moved into {@link #table}, else null. */
    private Table old;
    /** Next slot of {@link #old} to move. */
    private int migrated;

    /**
     * @param initialCapacity expected number of tokens; rounded up to a power of two and doubled.
     */
    TokenIndex(final int initialCapacity)
    {
        this(initialCapacity, PAGE_SLOTS);
    }

    /**
     * @param initialCapacity expected number of tokens; rounded up to a power of two and doubled.
     * @param pageSlots       largest page of a table, in slots; a power of two.
     */
    TokenIndex(final int initialCapacity, final int pageSlots)
    {
        if (Integer.bitCount(pageSlots) != 1)
        {
            throw new IllegalArgumentException("pageSlots must be a power of two: " + pageSlots);
        }
        this.pageSlots = pageSlots;
        table = new Table(Integer.highestOneBit(Math.max(8, initialCapacity) * 2 - 1) * 2, pageSlots);
        while (!table.allocatePage())
        {
            // all pages up front: nothing to spread the work over yet
        }
    }

    /**
     * @param buffer holding the 14 token bytes.
     * @param offset of the first byte.
     * @return the token's value, or {@link #MISSING}.
     */
    long get(final DirectBuffer buffer, final int offset)
    {
        final long high = high(buffer, offset);
        final long low = low(buffer, offset);
        final int hash = hash(high, low);
        int slot = find(table, hash, high, low);
        if (ABSENT != slot)
        {
            return table.value(slot);
        }
        if (null != old && ABSENT != (slot = find(old, hash, high, low)))
        {
            return old.value(slot);
        }
        return MISSING;
    }

    /**
     * Sets a token's value, adding the token when new; while the table grows, also allocates a page of the new table
     * or moves up to {@link #MIGRATE_SLOTS} slots of the old one.
     *
     * @param buffer holding the 14 token bytes.
     * @param offset of the first byte.
     * @param value  anything but {@link #MISSING}.
     */
    void put(final DirectBuffer buffer, final int offset, final long value)
    {
        if (MISSING == value)
        {
            throw new IllegalArgumentException("value must not be MISSING");
        }
        final long high = high(buffer, offset);
        final long low = low(buffer, offset);
        final int hash = hash(high, low);
        final int oldSlot = null == old ? ABSENT : find(old, hash, high, low);
        if (oldSlot >= migrated)
        {
            old.pages[oldSlot >>> old.shift][(oldSlot & old.pageMask) * ENTRY_LONGS + VALUE] = value;
        }
        else if (insert(table, hash, high, low, value) && ++size * 2 > table.mask + 1 && null == next && null == old)
        {
            next = new Table((table.mask + 1) * 2, pageSlots);
        }
        grow();
    }

    /** @return number of tokens held. */
    int size()
    {
        return size;
    }

    /** @return true while the table grows: a new table's pages are being allocated or the old table moved. */
    boolean isGrowing()
    {
        return null != next || null != old;
    }

    /**
     * @param pageSlots largest page of a table, in slots.
     * @return puts between two page allocations of a growing table: its pages, twice the old table's slots over
     * {@code pageSlots}, spread over as many puts as an eighth of the old table's slots.
     */
    static int pageInterval(final int pageSlots)
    {
        return Math.max(1, pageSlots / 16);
    }

    private void grow()
    {
        if (null != next)
        {
            if (next.isEmpty() || ++putsSincePage >= pageInterval(pageSlots))
            {
                putsSincePage = 0;
                if (next.allocatePage())
                {
                    old = table;
                    table = next;
                    next = null;
                    migrated = 0;
                }
            }
        }
        else if (null != old)
        {
            final Table old = this.old;
            final int end = Math.min(migrated + MIGRATE_SLOTS, old.mask + 1);
            for (int slot = migrated; slot < end; slot++)
            {
                final long[] page = old.pages[slot >>> old.shift];
                final int entry = (slot & old.pageMask) * ENTRY_LONGS;
                final long value = page[entry + VALUE];
                if (MISSING != value)
                {
                    final long high = page[entry];
                    final long low = page[entry + LOW];
                    insert(table, hash(high, low), high, low, value);
                }
            }
            migrated = end;
            if (end > old.mask)
            {
                this.old = null;
            }
        }
    }

    private static int find(final Table table, final int hash, final long high, final long low)
    {
        final long[][] pages = table.pages;
        for (int slot = hash & table.mask; ; slot = (slot + PROBE_STRIDE) & table.mask)
        {
            final long[] page = pages[slot >>> table.shift];
            final int entry = (slot & table.pageMask) * ENTRY_LONGS;
            if (MISSING == page[entry + VALUE])
            {
                return ABSENT;
            }
            if (page[entry] == high && page[entry + LOW] == low)
            {
                return slot;
            }
        }
    }

    private static boolean insert(final Table table, final int hash, final long high, final long low, final long value)
    {
        final long[][] pages = table.pages;
        for (int slot = hash & table.mask; ; slot = (slot + PROBE_STRIDE) & table.mask)
        {
            final long[] page = pages[slot >>> table.shift];
            final int entry = (slot & table.pageMask) * ENTRY_LONGS;
            if (MISSING == page[entry + VALUE])
            {
                page[entry] = high;
                page[entry + LOW] = low;
                page[entry + VALUE] = value;
                return true;
            }
            if (page[entry] == high && page[entry + LOW] == low)
            {
                page[entry + VALUE] = value;
                return false;
            }
        }
    }

    private static long high(final DirectBuffer buffer, final int offset)
    {
        return buffer.getLong(offset, ORDER);
    }

    private static long low(final DirectBuffer buffer, final int offset)
    {
        // Bytes 8..13 of the token; Ouch42.TOKEN_LENGTH is 14.
        return ((buffer.getInt(offset + 8, ORDER) & 0xFFFF_FFFFL) << 16) |
            (buffer.getShort(offset + Ouch42.TOKEN_LENGTH - 2, ORDER) & 0xFFFFL);
    }

    /**
     * Tokens that differ only in their last character before the space padding (OUCH alpha fields are left-justified),
     * as a client's counter makes them, hash to the same block of {@link #BLOCK_SLOTS} slots, placed by that
     * character: consecutive tokens share cache lines, where a uniform hash cost a cache miss per new token in a table
     * far larger than the caches. The rest of the token picks the block and rotates the positions in it, so that the
     * few characters a counter uses (36 of base 36, 10 of base 10) fill each position of the table evenly.
     */
    private static int hash(final long high, final long low)
    {
        final int lowSpaces = Long.numberOfTrailingZeros((low ^ SPACES) & LOW_MASK) >>> 3;
        final long last;
        final long h;
        if (lowSpaces < LOW_BYTES)
        {
            final int shift = lowSpaces << 3;
            last = low >>> shift;
            h = (high * 0x9E37_79B9_7F4A_7C15L) ^ (((low & ~(0xFFL << shift)) + lowSpaces) * 0xC2B2_AE3D_27D4_EB4FL);
        }
        else
        {
            final int shift = Math.min(Long.numberOfTrailingZeros(high ^ SPACES) >>> 3, Long.BYTES - 1) << 3;
            last = high >>> shift;
            h = ((high & ~(0xFFL << shift)) * 0x9E37_79B9_7F4A_7C15L) ^ ((LOW_BYTES + shift) * 0xC2B2_AE3D_27D4_EB4FL);
        }
        final int rotation = (int)(h >>> 58);
        return ((int)(h ^ (h >>> 29)) & ~(BLOCK_SLOTS - 1)) | (((int)last + rotation) & (BLOCK_SLOTS - 1));
    }

    /** A power-of-two number of slots in equal pages: slot s is entry s % page slots of page s / page slots. */
    private static final class Table
    {
        final long[][] pages;
        final int mask;
        final int shift;
        final int pageMask;
        private int allocated;

        Table(final int capacity, final int largestPage)
        {
            final int pageSlots = Math.min(capacity, largestPage);
            pages = new long[capacity / pageSlots][];
            mask = capacity - 1;
            shift = Integer.numberOfTrailingZeros(pageSlots);
            pageMask = pageSlots - 1;
        }

        /** @return true while no page is allocated. */
        boolean isEmpty()
        {
            return 0 == allocated;
        }

        /** @return true once every page is allocated, with this call's page. */
        boolean allocatePage()
        {
            pages[allocated++] = new long[(pageMask + 1) * ENTRY_LONGS]; // zeros: every value MISSING
            return allocated == pages.length;
        }

        long value(final int slot)
        {
            return pages[slot >>> shift][(slot & pageMask) * ENTRY_LONGS + VALUE];
        }
    }
}
