package io.bourse.common.config;

import org.junit.jupiter.api.Test;

import java.util.Locale;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

class SymbolDirectoryTest
{
    @Test
    void shouldGiveLocatesInListOrderAndShardsAsNumbered()
    {
        final SymbolDirectory directory = SymbolDirectory.parse("AAPL@0, msft@1,GOOG");

        assertThat(directory.shardCount()).isEqualTo(2);
        assertThat(directory.entries()).extracting(SymbolDirectory.Entry::symbol, SymbolDirectory.Entry::locate,
            SymbolDirectory.Entry::shardId).containsExactly(
            tuple("AAPL", 1, 0),
            tuple("MSFT", 2, 1),
            tuple("GOOG", 3, 0));
    }

    @Test
    void shouldRefuseAShardWithoutSymbolsBelowTheHighestOne()
    {
        // Shard 1 could not start (it owns no symbol), and the gateway would wait for it forever.
        assertThatThrownBy(() -> SymbolDirectory.parse("AAPL@0,MSFT@2"))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("shard 1 has no symbol");
        assertThatThrownBy(() -> SymbolDirectory.parse("MSFT@1"))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("shard 0 has no symbol");
    }

    @Test
    void shouldRefuseADuplicateALongSymbolAndABadShard()
    {
        assertThatThrownBy(() -> SymbolDirectory.parse("AAPL@0,aapl@0")).hasMessageContaining("duplicate symbol AAPL");
        assertThatThrownBy(() -> SymbolDirectory.parse("ABCDEFGHI@0")).hasMessageContaining("bad item");
        assertThatThrownBy(() -> SymbolDirectory.parse("AAPL@x")).hasMessageContaining("bad shard");
        assertThatThrownBy(() -> SymbolDirectory.parse(" , ")).hasMessageContaining("no symbols");
    }

    /**
     * ITCH 5.0 Stock Locate is 2 bytes: the 65,535th symbol takes the last locate, and a 65,536th would take locate 0,
     * the market's. Before, it was taken, and its locate wrapped.
     */
    @Test
    void shouldTakeAsManySymbolsAsStockLocateNumbersAndRefuseOneMore()
    {
        final String symbols = IntStream.rangeClosed(1, SymbolDirectory.MAX_SYMBOLS).mapToObj((i) -> "S" + i)
            .collect(Collectors.joining(","));

        assertThat(SymbolDirectory.parse(symbols).entries().getLast().locate()).isEqualTo(0xFFFF);
        assertThatThrownBy(() -> SymbolDirectory.parse(symbols + ",ONEMORE"))
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("more than 65535 symbols");
    }

    @Test
    void shouldTakeOnlyPrintableAsciiSymbolsAndUpperCaseThemAlikeInEveryDefaultLocale()
    {
        // A non-ASCII character packed as an ASCII one: AÉ was AI.
        assertThatThrownBy(() -> SymbolDirectory.parse("A\u00c9@0,AI@0")).hasMessageContaining("bad item 'A\u00c9@0'");
        assertThatThrownBy(() -> SymbolDirectory.parse("A\tB@0")).hasMessageContaining("bad item");
        assertThat(SymbolDirectory.parse("AI@0").find(Symbols.pack("A\u00c9"))).isNull();
        final Locale before = Locale.getDefault();
        try
        {
            Locale.setDefault(Locale.forLanguageTag("tr-TR")); // "i".toUpperCase() is the dotted capital I there
            assertThat(SymbolDirectory.parse("ibm@0").entries()).extracting(SymbolDirectory.Entry::symbol)
                .containsExactly("IBM");
        }
        finally
        {
            Locale.setDefault(before);
        }
    }
}
