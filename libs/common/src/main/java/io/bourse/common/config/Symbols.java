package io.bourse.common.config;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * Symbols as 8 space-padded ASCII bytes (ITCH 5.0 / OUCH 4.2 Stock), packed big-endian into a long so that hot paths
 * can key maps by symbol without allocating.
 */
public final class Symbols
{
    /** Length of the Stock field in bytes. */
    public static final int LENGTH = 8;

    private Symbols()
    {
    }

    /**
     * @param symbol up to 8 ASCII characters.
     * @return the packed form: the space-padded bytes read as a big-endian long; a character outside ASCII packs as
     *         DEL (0x7F), which no symbol of a {@link SymbolDirectory} holds, so that a lookup of it finds none (it
     *         was masked to 7 bits: AÉ packed as AI).
     * @throws IllegalArgumentException when longer than 8 characters.
     */
    public static long pack(final String symbol)
    {
        if (symbol.length() > LENGTH)
        {
            throw new IllegalArgumentException("symbol longer than 8: " + symbol);
        }
        long packed = 0;
        for (int i = 0; i < LENGTH; i++)
        {
            final int c = i < symbol.length() ? Math.min(symbol.charAt(i), 0x7F) : ' ';
            packed = (packed << 8) | c;
        }
        return packed;
    }

    /**
     * @param buffer holds the 8 bytes.
     * @param offset of the first byte.
     * @return the packed form of the bytes as they stand (no trimming).
     */
    public static long pack(final DirectBuffer buffer, final int offset)
    {
        long packed = 0;
        for (int i = 0; i < LENGTH; i++)
        {
            packed = (packed << 8) | (buffer.getByte(offset + i) & 0xFF);
        }
        return packed;
    }

    /**
     * Writes the 8 bytes of a packed symbol.
     *
     * @param packed the symbol.
     * @param buffer destination.
     * @param offset of the first byte.
     */
    public static void unpack(final long packed, final MutableDirectBuffer buffer, final int offset)
    {
        for (int i = 0; i < LENGTH; i++)
        {
            buffer.putByte(offset + i, (byte)(packed >>> (8 * (LENGTH - 1 - i))));
        }
    }

    /**
     * @param packed the symbol.
     * @return the symbol with trailing spaces removed (allocates; not for hot paths).
     */
    public static String toString(final long packed)
    {
        final StringBuilder sb = new StringBuilder(LENGTH);
        for (int i = 0; i < LENGTH; i++)
        {
            sb.append((char)((packed >>> (8 * (LENGTH - 1 - i))) & 0xFF));
        }
        return sb.toString().stripTrailing();
    }
}
