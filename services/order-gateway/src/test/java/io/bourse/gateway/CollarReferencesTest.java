package io.bourse.gateway;

import io.bourse.common.config.SymbolDirectory;
import io.bourse.common.config.Symbols;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/** The day's last trade prices kept on disk for the collar, as a restarted gateway finds them. */
class CollarReferencesTest
{

    @TempDir
    private Path dir;

    @Test
    void shouldFindTheLastTradeStoredForEachSymbolWhenOpenedAgain() throws IOException
    {
        final SymbolDirectory symbols = SymbolDirectory.parse("AAPL@0,MSFT@1");
        try (CollarReferences references = CollarReferences.open(dir, symbols))
        {
            assertThat(references.price(entry(symbols, "AAPL"))).isZero();
            references.store(entry(symbols, "MSFT"), 3_000_000);
            references.store(entry(symbols, "MSFT"), 3_000_100);
        }

        final SymbolDirectory more = SymbolDirectory.parse("AAPL@0,MSFT@1,GOOG@0");
        try (CollarReferences references = CollarReferences.open(dir, more))
        {
            assertThat(references.price(entry(more, "MSFT"))).isEqualTo(3_000_100);
            assertThat(references.price(entry(more, "AAPL"))).isZero();
            assertThat(references.price(entry(more, "GOOG"))).as("an entry the file did not have").isZero();
        }
    }

    /** A gateway restarted with the symbols in another order finds no reference at a locate another symbol stored. */
    @Test
    void shouldTakeNoReferenceStoredForAnotherSymbolAtItsLocate() throws IOException
    {
        final SymbolDirectory symbols = SymbolDirectory.parse("AAPL@0,MSFT@1");
        try (CollarReferences references = CollarReferences.open(dir, symbols))
        {
            references.store(entry(symbols, "MSFT"), 3_000_000);
        }

        final SymbolDirectory reordered = SymbolDirectory.parse("MSFT@0,AAPL@1");
        try (CollarReferences references = CollarReferences.open(dir, reordered))
        {
            assertThat(references.price(entry(reordered, "MSFT"))).isZero();
            assertThat(references.price(entry(reordered, "AAPL"))).isZero();
            references.store(entry(reordered, "AAPL"), 1_500_000);
            assertThat(references.price(entry(reordered, "AAPL"))).isEqualTo(1_500_000);
        }
    }

    private static SymbolDirectory.Entry entry(final SymbolDirectory symbols, final String symbol)
    {
        return symbols.find(Symbols.pack(symbol));
    }
}
