package io.bourse.fanout;

import io.bourse.common.config.SymbolDirectory;

import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * The Bourse subscription message a subscriber sends in a SoupBinTCP 4.0 Unsequenced Data packet once logged in, to
 * choose its symbols (a session that sends none gets every symbol):
 * <pre>
 *   'A'                                              every symbol
 *   'S' count (2 bytes, big-endian) symbol * count   these symbols only: 8 ASCII bytes each, space-padded as the
 *                                                    ITCH 5.0 Stock field; symbols the exchange does not list are
 *                                                    left out; count 0 means none
 * </pre>
 * Each message replaces the previous subscription.
 */
final class SubscriptionMessage
{
    /** Message type: every symbol. */
    static final byte ALL = 'A';
    /** Message type: the symbols that follow. */
    static final byte SYMBOLS = 'S';
    private static final int HEADER_LENGTH = 1 + Short.BYTES;
    private static final int SYMBOL_LENGTH = 8;

    private SubscriptionMessage()
    {
    }

    /**
     * @param symbolCount number of symbols listed.
     * @return the longest subscription message: every symbol listed.
     */
    static int maxLength(final int symbolCount)
    {
        return HEADER_LENGTH + SYMBOL_LENGTH * symbolCount;
    }

    /**
     * Reads one subscription message.
     *
     * @param payload         the Unsequenced Data payload from its position to its limit; the position is left as is.
     * @param symbolDirectory the symbols listed.
     * @param symbolsByLocate receives true at the Stock Locate of each symbol chosen, false elsewhere.
     * @return false, leaving {@code symbolsByLocate} unspecified, when the message is not one of the above.
     */
    static boolean parse(
        final ByteBuffer payload, final SymbolDirectory symbolDirectory, final boolean[] symbolsByLocate)
    {
        final int position = payload.position();
        final int length = payload.remaining();
        if (1 == length && ALL == payload.get(position))
        {
            Arrays.fill(symbolsByLocate, 1, symbolsByLocate.length, true);
            return true;
        }
        if (length < HEADER_LENGTH || SYMBOLS != payload.get(position))
        {
            return false;
        }
        final int count = payload.getShort(position + 1) & 0xFFFF;
        if (length != HEADER_LENGTH + SYMBOL_LENGTH * count)
        {
            return false;
        }
        Arrays.fill(symbolsByLocate, false);
        for (int i = 0; i < count; i++)
        {
            final SymbolDirectory.Entry entry =
                symbolDirectory.find(payload.getLong(position + HEADER_LENGTH + SYMBOL_LENGTH * i));
            if (null != entry)
            {
                symbolsByLocate[entry.locate()] = true;
            }
        }
        return true;
    }
}
