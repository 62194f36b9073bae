package io.bourse.gateway;

import io.bourse.ouch.Ouch42;
import org.agrona.DirectBuffer;

import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * Every OUCH 4.2 Order Token a session used today, mapped to a long value (the order's clientOrderId, or
 * {@link #USED} for a token that was rejected). Tokens are day-unique, so entries are never removed. Open addressing
 * with linear probing over the 14 token bytes held as two longs: lookups and inserts do not allocate; the table
 * doubles when half full.
 */
final class TokenIndex
{
    /** Returned by {@link #get} for a token never seen. */
    static final long MISSING = 0;
    /** Value of a token that was used but names no order (it was rejected). */
    static final long USED = -1;

    private static final ByteOrder ORDER = ByteOrder.BIG_ENDIAN;

    private long[] highs;
    private long[] lows;
    private long[] values;
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
        final int mask = values.length - 1;
        for (int i = hash(high, low) & mask; ; i = (i + 1) & mask)
        {
            final long value = values[i];
            if (MISSING == value || (highs[i] == high && lows[i] == low))
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
        if (insert(high(buffer, offset), low(buffer, offset), value) && ++size * 2 > values.length)
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
        final int mask = values.length - 1;
        for (int i = hash(high, low) & mask; ; i = (i + 1) & mask)
        {
            if (MISSING == values[i])
            {
                highs[i] = high;
                lows[i] = low;
                values[i] = value;
                return true;
            }
            if (highs[i] == high && lows[i] == low)
            {
                values[i] = value;
                return false;
            }
        }
    }

    private void rehash()
    {
        final long[] oldHighs = highs;
        final long[] oldLows = lows;
        final long[] oldValues = values;
        allocate(oldValues.length * 2);
        for (int i = 0; i < oldValues.length; i++)
        {
            if (MISSING != oldValues[i])
            {
                insert(oldHighs[i], oldLows[i], oldValues[i]);
            }
        }
    }

    private void allocate(final int capacity)
    {
        highs = new long[capacity];
        lows = new long[capacity];
        values = new long[capacity];
        Arrays.fill(values, MISSING);
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
