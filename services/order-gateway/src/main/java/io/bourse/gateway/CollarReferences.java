package io.bourse.gateway;

import io.bourse.common.LastTrades;
import io.bourse.common.config.SymbolDirectory;
import org.agrona.IoUtil;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.IOException;
import java.nio.MappedByteBuffer;
import java.nio.file.Path;

/**
 * Per symbol, the day's last trades the gateway heard ({@link LastTrades}): the collar reference of its pre-trade
 * risk checks ({@link PreTradeRisk}) is the price of the newest one not broken. Kept so that a gateway restarted during
 * the day collars orders around it from its first order (without it, a restart knew only the trades of the engine
 * events it replays, those after the positions its journals had answered, {@link EventPositions}, or none without the
 * event archive), and so that a broken trade (engine TradeBroken, an operator's BreakTrade) gives the reference back
 * to the trade before it: a trade broken as clearly erroneous must not centre the collar on its price; when every
 * trade kept is broken the reference is the configured one again. Kept in the day's journal directory, in a file
 * mapped into memory, so that a store reaches the page cache (it survives a crash of the process) without a system
 * call; it is never forced.
 * <pre>
 *   File {@value #FILE_NAME}, native byte order, for each symbol of the directory, 1,056 bytes at 1,056 x (Stock
 *   Locate - 1):
 *   +--------+--------+--------------------------------------------------------------------------+
 *   | Offset | Length | Field                                                                    |
 *   +--------+--------+--------------------------------------------------------------------------+
 *   |      0 |      8 | Symbol, packed (io.bourse.common.config.Symbols); 0: none                |
 *   |      8 |  1,048 | Its last trades (io.bourse.common.LastTrades)                            |
 *   +--------+--------+--------------------------------------------------------------------------+
 * </pre>
 * An entry whose symbol is not the directory's at that locate (a gateway restarted with other symbols) is no reference.
 * A trade already stored (an engine event replayed after a restart) is left out, and a crash while a trade is stored
 * leaves the kept trades as they were; the replayed event stores it again ({@link LastTrades}). A file of an earlier
 * version ({@code collar-references}, one trade per symbol, before stop 100) is not read: a gateway of this version
 * restarted on a day that one began collars around the configured references until each symbol trades. The only copy
 * of the last trades: {@link PreTradeRisk} reads and stores them here, by the symbol's directory entry (no lookup of
 * its own). Used by the gateway agent's thread; opened and closed by the {@link JournalStore}.
 */
final class CollarReferences implements AutoCloseable
{
    /** Name of the file in the day's journal directory (not a journal's suffix). */
    static final String FILE_NAME = "collar-trades";
    private static final int SYMBOL_OFFSET = 0;
    private static final int TRADES_OFFSET = 8;
    /** Length of a symbol's entry. */
    static final int ENTRY_LENGTH = TRADES_OFFSET + LastTrades.LENGTH;

    /** The file's mapping; null for references in memory only. */
    private final MappedByteBuffer mapping;
    private final UnsafeBuffer buffer;
    private final LastTrades trades = new LastTrades();

    private CollarReferences(final MappedByteBuffer mapping, final UnsafeBuffer buffer)
    {
        this.mapping = mapping;
        this.buffer = buffer;
    }

    /**
     * Opens the file, created with no trade when missing; a file of fewer symbols keeps its entries and the others
     * start empty.
     *
     * @param directory the day's journal directory.
     * @param symbols   the gateway's symbols.
     * @return the references.
     * @throws IOException when the file cannot be created or mapped.
     */
    static CollarReferences open(final Path directory, final SymbolDirectory symbols) throws IOException
    {
        final MappedByteBuffer mapping =
            MappedFiles.mapZeroFilled(directory.resolve(FILE_NAME), symbols.entries().size() * ENTRY_LENGTH);
        return new CollarReferences(mapping, new UnsafeBuffer(mapping));
    }

    /**
     * References kept in memory only, none at the start, for an order entry that hears no trade: that of an earlier
     * day whose open orders are rebuilt to be canceled ({@link TradingDays#cancelOrdersOfOtherDays}), which must not
     * need a file in that day's directory.
     *
     * @param symbols the gateway's symbols.
     * @return the references, to close as any.
     */
    static CollarReferences inMemory(final SymbolDirectory symbols)
    {
        return new CollarReferences(null, new UnsafeBuffer(new byte[symbols.entries().size() * ENTRY_LENGTH]));
    }

    /**
     * @param entry a symbol of the directory the file was opened with.
     * @return the price of its newest stored trade not broken, in 1/10000 dollars; 0 when none is.
     */
    long price(final SymbolDirectory.Entry entry)
    {
        final int offset = (entry.locate() - 1) * ENTRY_LENGTH;
        if (entry.packed() != buffer.getLongVolatile(offset + SYMBOL_OFFSET))
        {
            return 0;
        }
        return trades.wrap(buffer, offset + TRADES_OFFSET).price();
    }

    /**
     * Stores a trade as its symbol's newest, unless it is one already stored (its match number is not above the
     * newest's); the oldest of {@value LastTrades#TRADES} kept is dropped.
     *
     * @param entry       a symbol of the directory the file was opened with.
     * @param matchNumber the trade's engine match number, positive.
     * @param price       the trade's price, in 1/10000 dollars, positive.
     */
    void store(final SymbolDirectory.Entry entry, final long matchNumber, final long price)
    {
        final long symbol = entry.packed();
        final int offset = (entry.locate() - 1) * ENTRY_LENGTH;
        trades.wrap(buffer, offset + TRADES_OFFSET);
        if (symbol != buffer.getLong(offset + SYMBOL_OFFSET))
        {
            // Emptied while the entry changes symbols: a crash in between must not pair a symbol with another's trades.
            buffer.putLongVolatile(offset + SYMBOL_OFFSET, 0);
            trades.clear();
            buffer.putLongVolatile(offset + SYMBOL_OFFSET, symbol);
        }
        trades.store(matchNumber, price);
    }

    /**
     * A trade broken: it is no reference from now on. A trade not among the symbol's kept ones (older, or of a
     * symbol whose entry holds another's) is left out.
     *
     * @param entry       a symbol of the directory the file was opened with.
     * @param matchNumber the broken trade's engine match number.
     */
    void broken(final SymbolDirectory.Entry entry, final long matchNumber)
    {
        final int offset = (entry.locate() - 1) * ENTRY_LENGTH;
        if (entry.packed() == buffer.getLong(offset + SYMBOL_OFFSET))
        {
            trades.wrap(buffer, offset + TRADES_OFFSET).broken(matchNumber);
        }
    }

    /** Unmaps the file, if any. */
    @Override
    public void close()
    {
        if (null != mapping)
        {
            IoUtil.unmap(mapping);
        }
    }
}
