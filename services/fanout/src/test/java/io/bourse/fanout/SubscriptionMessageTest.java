package io.bourse.fanout;

import io.bourse.common.config.SymbolDirectory;
import io.bourse.common.config.Symbols;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;

import static org.assertj.core.api.Assertions.assertThat;

class SubscriptionMessageTest
{
    private static final SymbolDirectory SYMBOLS = SymbolDirectory.parse("AAPL@0,MSFT@1,GOOG@0");

    private final boolean[] symbolsByLocate = new boolean[4];

    private static ByteBuffer symbols(final int count, final String... symbols)
    {
        final ByteBuffer message = ByteBuffer.allocate(3 + 8 * symbols.length).put((byte)'S').putShort((short)count);
        for (final String symbol : symbols)
        {
            message.putLong(Symbols.pack(symbol));
        }
        return message.flip();
    }

    @Test
    void shouldChooseEverySymbolWhenAll()
    {
        assertThat(SubscriptionMessage.parse(ByteBuffer.wrap(new byte[]{'A'}), SYMBOLS, symbolsByLocate)).isTrue();

        assertThat(symbolsByLocate).containsExactly(false, true, true, true);
    }

    @Test
    void shouldChooseListedSymbolsAndLeaveOutUnknownOnesWhenSymbols()
    {
        symbolsByLocate[1] = true;

        assertThat(SubscriptionMessage.parse(symbols(2, "GOOG", "IBM"), SYMBOLS, symbolsByLocate)).isTrue();

        assertThat(symbolsByLocate).containsExactly(false, false, false, true);
    }

    @Test
    void shouldRefuseMessageWhenCountDisagreesWithLengthOrTypeIsUnknown()
    {
        assertThat(SubscriptionMessage.parse(symbols(3, "GOOG", "MSFT"), SYMBOLS, symbolsByLocate)).isFalse();
        assertThat(SubscriptionMessage.parse(ByteBuffer.wrap(new byte[]{'X'}), SYMBOLS, symbolsByLocate)).isFalse();
        assertThat(SubscriptionMessage.parse(ByteBuffer.wrap(new byte[]{'S', 0}), SYMBOLS, symbolsByLocate)).isFalse();
    }
}
