package io.bourse.gateway;

import io.bourse.common.config.SymbolDirectory;
import org.agrona.IoUtil;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.IOException;
import java.nio.MappedByteBuffer;
import java.nio.file.Path;

/**
 * Per symbol, the price of the day's last trade the gateway heard: the collar reference of its pre-trade risk checks
 * ({@link PreTradeRisk}), kept so that a gateway restarted during the day collars orders around it from its first
 * order. Without it, a restart knew only the trades of the engine events it replays, those after the positions its
 * journals had answered ({@link EventPositions}), or none without the event archive, and until a symbol traded again
 * its collar was the configured reference, or none. Kept in the day's journal directory, in a file mapped into memory,
 * so that a store reaches the page cache (it survives a crash of the process) without a system call; it is never
 * forced.
 * <pre>
 *   File {@value #FILE_NAME}, native byte order, for each symbol of the directory, 16 bytes at 16 (Stock Locate - 1):
 *   +--------+--------+-----------------------------------------------------------+
 *   | Offset | Length | Field                                                     |
 *   +--------+--------+-----------------------------------------------------------+
 *   |      0 |      8 | Symbol, packed (io.bourse.common.config.Symbols); 0: none |
 *   |      8 |      8 | Price of its last trade, in 1/10000 dollars               |
 *   +--------+--------+-----------------------------------------------------------+
 * </pre>
 * An entry whose symbol is not the directory's at that locate (a gateway restarted with other symbols) is no reference.
 * The only copy of the last trades: {@link PreTradeRisk} reads and stores them here, by the symbol's directory entry
 * (no lookup of its own). Used by the gateway agent's thread; opened and closed by the {@link JournalStore}.
 */
final class CollarReferences implements AutoCloseable
{
    /** Name of the file in the day's journal directory (not a journal's suffix). */
    static final String FILE_NAME = "collar-references";
    /** Length of a symbol's entry. */
    static final int ENTRY_LENGTH = 16;
    private static final int SYMBOL_OFFSET = 0;
    private static final int PRICE_OFFSET = 8;

    /** The file's mapping; null for references in memory only. */
    private final MappedByteBuffer mapping;
    private final UnsafeBuffer buffer;

    private CollarReferences(final MappedByteBuffer mapping, final UnsafeBuffer buffer)
    {
        this.mapping = mapping;
        this.buffer = buffer;
    }

    /**
     * Opens the file, created with no reference when missing; a file of fewer symbols keeps its entries and the others
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
     * @return the price of its last trade stored, in 1/10000 dollars; 0 when none is.
     */
    long price(final SymbolDirectory.Entry entry)
    {
        final int offset = (entry.locate() - 1) * ENTRY_LENGTH;
        return entry.packed() == buffer.getLongVolatile(offset + SYMBOL_OFFSET) ?
            buffer.getLong(offset + PRICE_OFFSET) : 0;
    }

    /**
     * Stores a trade's price as its symbol's reference.
     *
     * @param entry a symbol of the directory the file was opened with.
     * @param price the trade's price, in 1/10000 dollars.
     */
    void store(final SymbolDirectory.Entry entry, final long price)
    {
        final long symbol = entry.packed();
        final int offset = (entry.locate() - 1) * ENTRY_LENGTH;
        if (symbol == buffer.getLong(offset + SYMBOL_OFFSET))
        {
            buffer.putLongOrdered(offset + PRICE_OFFSET, price);
            return;
        }
        // Emptied while the entry changes symbols: a crash in between must not pair a symbol with another's price.
        buffer.putLongVolatile(offset + SYMBOL_OFFSET, 0);
        buffer.putLongOrdered(offset + PRICE_OFFSET, price);
        buffer.putLongVolatile(offset + SYMBOL_OFFSET, symbol);
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
