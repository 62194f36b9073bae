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
    private static final long AAPL = Symbols.pack("AAPL");
    private static final long MSFT = Symbols.pack("MSFT");
    private static final long GOOG = Symbols.pack("GOOG");

    @TempDir
    private Path dir;

    @Test
    void shouldFindTheLastTradeStoredForEachSymbolWhenOpenedAgain() throws IOException
    {
        try (CollarReferences references = CollarReferences.open(dir, SymbolDirectory.parse("AAPL@0,MSFT@1")))
        {
            assertThat(references.price(AAPL)).isZero();
            references.store(MSFT, 3_000_000);
            references.store(MSFT, 3_000_100);
            references.store(GOOG, 900_000); // not traded here: left out
        }

        try (CollarReferences references =
            CollarReferences.open(dir, SymbolDirectory.parse("AAPL@0,MSFT@1,GOOG@0")))
        {
            assertThat(references.price(MSFT)).isEqualTo(3_000_100);
            assertThat(references.price(AAPL)).isZero();
            assertThat(references.price(GOOG)).as("an entry the file did not have").isZero();
        }
    }

    /** A gateway restarted with the symbols in another order finds no reference at a locate another symbol stored. */
    @Test
    void shouldTakeNoReferenceStoredForAnotherSymbolAtItsLocate() throws IOException
    {
        try (CollarReferences references = CollarReferences.open(dir, SymbolDirectory.parse("AAPL@0,MSFT@1")))
        {
            references.store(MSFT, 3_000_000);
        }

        try (CollarReferences references = CollarReferences.open(dir, SymbolDirectory.parse("MSFT@0,AAPL@1")))
        {
            assertThat(references.price(MSFT)).isZero();
            assertThat(references.price(AAPL)).isZero();
            references.store(AAPL, 1_500_000);
            assertThat(references.price(AAPL)).isEqualTo(1_500_000);
        }
    }
}
