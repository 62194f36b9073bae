package io.bourse.engine;

import io.bourse.ouch.Ouch42;
import org.agrona.DirectBuffer;

/**
 * The OUCH 4.2 Firm field (4 ASCII bytes, space padded) as the int the matching core keys self-trade prevention by:
 * the bytes read big-endian, NUL bytes taken as spaces (SBE pads short strings with NUL, OUCH with spaces), and a
 * firm of only spaces packed as 0, which the core treats as no firm.
 */
final class Firms
{
    /** Length of the Firm field in bytes. */
    static final int LENGTH = Ouch42.FIRM_LENGTH;
    /** The packed firm that never self-matches: a blank Firm field. */
    static final int NONE = 0;

    private static final int BLANK = 0x2020_2020;

    private Firms()
    {
    }

    /**
     * @param buffer holds the 4 bytes.
     * @param offset of the first byte.
     * @return the packed firm, {@link #NONE} when blank (no allocation).
     */
    static int pack(final DirectBuffer buffer, final int offset)
    {
        int packed = 0;
        for (int i = 0; i < LENGTH; i++)
        {
            final byte b = buffer.getByte(offset + i);
            packed = (packed << 8) | (0 == b ? ' ' : b & 0xFF);
        }
        return BLANK == packed ? NONE : packed;
    }

    /**
     * @param firm 1 to 4 printable ASCII characters other than space, as in a setting.
     * @return the packed firm, space padded on the right.
     * @throws IllegalArgumentException for an empty or longer firm, or other characters.
     */
    static int pack(final String firm)
    {
        if (firm.isEmpty() || firm.length() > LENGTH)
        {
            throw new IllegalArgumentException("firm must be 1 to 4 characters: '" + firm + "'");
        }
        if (!firm.chars().allMatch((c) -> c > ' ' && c <= '~'))
        {
            throw new IllegalArgumentException("firm must be printable ASCII without spaces: '" + firm + "'");
        }
        return Ouch42.packFirm(firm);
    }
}
