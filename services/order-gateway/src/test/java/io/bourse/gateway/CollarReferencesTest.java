package io.bourse.gateway;

import io.bourse.common.LastTrades;
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
            references.store(entry(symbols, "MSFT"), 17, 3_000_000);
            references.store(entry(symbols, "MSFT"), 33, 3_000_100);
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
            references.store(entry(symbols, "MSFT"), 17, 3_000_000);
        }

        final SymbolDirectory reordered = SymbolDirectory.parse("MSFT@0,AAPL@1");
        try (CollarReferences references = CollarReferences.open(dir, reordered))
        {
            assertThat(references.price(entry(reordered, "MSFT"))).isZero();
            assertThat(references.price(entry(reordered, "AAPL"))).isZero();
            references.store(entry(reordered, "AAPL"), 17, 1_500_000);
            assertThat(references.price(entry(reordered, "AAPL"))).isEqualTo(1_500_000);
        }
    }

    /**
     * A broken trade is no reference: the newest one before it is, also after a restart, and none once the last
     * {@value LastTrades#TRADES} kept are broken.
     */
    @Test
    void shouldGiveTheReferenceToTheNewestTradeNotBroken() throws IOException
    {
        final SymbolDirectory symbols = SymbolDirectory.parse("AAPL@0,MSFT@1");
        final SymbolDirectory.Entry msft = entry(symbols, "MSFT");
        final int last = LastTrades.TRADES + 2;
        try (CollarReferences references = CollarReferences.open(dir, symbols))
        {
            for (int trade = 1; trade <= last; trade++)
            {
                references.store(msft, matchNumber(trade), 3_000_000 + trade);
            }
            references.broken(msft, matchNumber(last));
            assertThat(references.price(msft)).isEqualTo(3_000_000 + last - 1);
            references.broken(msft, matchNumber(last - 2));
            assertThat(references.price(msft)).as("a trade broken behind the newest").isEqualTo(3_000_000 + last - 1);
            references.broken(msft, matchNumber(last - 1));
            assertThat(references.price(msft)).isEqualTo(3_000_000 + last - 3);
            references.broken(msft, matchNumber(2));
            references.broken(entry(symbols, "AAPL"), matchNumber(last - 3));
            assertThat(references.price(msft)).as("a trade no longer kept, and another symbol's")
                .isEqualTo(3_000_000 + last - 3);
        }

        try (CollarReferences references = CollarReferences.open(dir, symbols))
        {
            assertThat(references.price(msft)).isEqualTo(3_000_000 + last - 3);
            for (int trade = 4; trade <= last - 3; trade++)
            {
                references.broken(msft, matchNumber(trade));
            }
            assertThat(references.price(msft)).as("the oldest trade kept").isEqualTo(3_000_003);
            references.broken(msft, matchNumber(3));
            assertThat(references.price(msft)).as("the trades before the last 64 are not kept").isZero();
            references.store(msft, matchNumber(last + 1), 3_100_000);
            assertThat(references.price(msft)).isEqualTo(3_100_000);
        }
    }

    /**
     * A restarted gateway hears again the engine events after its journals' positions: their trades, already stored,
     * are left out, so the newest stays the reference and a trade broken before the restart stays broken.
     */
    @Test
    void shouldLeaveOutATradeAlreadyStored() throws IOException
    {
        final SymbolDirectory symbols = SymbolDirectory.parse("MSFT@0");
        final SymbolDirectory.Entry msft = entry(symbols, "MSFT");
        try (CollarReferences references = CollarReferences.open(dir, symbols))
        {
            references.store(msft, matchNumber(1), 3_000_000);
            references.store(msft, matchNumber(2), 3_000_100);
            references.store(msft, matchNumber(3), 6_000_000);
            references.broken(msft, matchNumber(3));
        }

        try (CollarReferences references = CollarReferences.open(dir, symbols))
        {
            references.store(msft, matchNumber(2), 3_000_100);
            references.store(msft, matchNumber(3), 6_000_000);
            assertThat(references.price(msft)).isEqualTo(3_000_100);
            references.broken(msft, matchNumber(2));
            assertThat(references.price(msft)).as("no second copy of the replayed trade").isEqualTo(3_000_000);
        }
    }

    /** @return the engine's match number of a shard's trade: its count, then the shard (1) in the low 4 bits. */
    private static long matchNumber(final int trade)
    {
        return ((long)trade << 4) | 1;
    }

    private static SymbolDirectory.Entry entry(final SymbolDirectory symbols, final String symbol)
    {
        return symbols.find(Symbols.pack(symbol));
    }
}
