package io.bourse.gateway;

import io.bourse.ouch.Ouch42;
import org.agrona.DirectBuffer;

import java.nio.ByteOrder;

/**
 * Every OUCH 4.2 Order Token a session used today, mapped to a long value (the order's clientOrderId, or
 * {@link #USED} for a token that was rejected). Tokens are day-unique, so entries are never removed. Open addressing
 * with linear probing over the 14 token bytes held as two longs, each entry's two longs and value side by side in one
 * array, so that a lookup in a table far larger than the caches costs one cache miss, not three: lookups and inserts
 * do not allocate; the table doubles when half full.
 */
final class TokenIndex
{
    /** Returned by {@link #get} for a token never seen. */
    static final long MISSING = 0;
    /** Value of a token that was used but names no order (it was rejected). */
    static final long USED = -1;

    private static final ByteOrder ORDER = ByteOrder.BIG_ENDIAN;
    /** An entry: the token's high long, its low long, the value. */
    private static final int ENTRY_LONGS = 3;
    private static final int LOW = 1;
    private static final int VALUE = 2;

    private long[] entries;
    private int mask;
    private int size;

    /**
     * @param initialCapacity expected number of tokens; rounded up to a power of two and doubled.
     */
    TokenIndex(final int initialCapacity)
    {
        allocate(Integer.highestOneBit(Math.max(8, initialCapacity) * 2 - 1) * 2);
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
        final long[] entries = this.entries;
        for (int i = hash(high, low) & mask; ; i = (i + 1) & mask)
        {
            final int entry = i * ENTRY_LONGS;
            final long value = entries[entry + VALUE];
            if (MISSING == value || (entries[entry] == high && entries[entry + LOW] == low))
            {
                return value;
            }
        }
    }

    /**
     * Sets a token's value, adding the token when new.
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
        if (insert(high(buffer, offset), low(buffer, offset), value) && ++size * 2 > mask + 1)
        {
            rehash();
        }
    }

    /** @return number of tokens held. */
    int size()
    {
        return size;
    }

    private boolean insert(final long high, final long low, final long value)
    {
        final long[] entries = this.entries;
        for (int i = hash(high, low) & mask; ; i = (i + 1) & mask)
        {
            final int entry = i * ENTRY_LONGS;
            if (MISSING == entries[entry + VALUE])
            {
                entries[entry] = high;
                entries[entry + LOW] = low;
                entries[entry + VALUE] = value;
                return true;
            }
            if (entries[entry] == high && entries[entry + LOW] == low)
            {
                entries[entry + VALUE] = value;
                return false;
            }
        }
    }

    private void rehash()
    {
        final long[] old = entries;
        allocate((mask + 1) * 2);
        for (int entry = 0; entry < old.length; entry += ENTRY_LONGS)
        {
            if (MISSING != old[entry + VALUE])
            {
                insert(old[entry], old[entry + LOW], old[entry + VALUE]);
            }
        }
    }

    private void allocate(final int capacity)
    {
        entries = new long[capacity * ENTRY_LONGS]; // zeros: every value MISSING
        mask = capacity - 1;
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

    private static int hash(final long high, final long low)
    {
        final long h = (high * 0x9E37_79B9_7F4A_7C15L) ^ (low * 0xC2B2_AE3D_27D4_EB4FL);
        return (int)(h ^ (h >>> 29));
    }
}
