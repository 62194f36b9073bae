package io.bourse.common.config;

import org.agrona.collections.Long2ObjectHashMap;
import org.agrona.collections.LongHashSet;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;

/**
 * The symbols the exchange trades and the shard that owns each one, parsed from a list such as
 * {@code AAPL@0,MSFT@1,GOOG@0}. A symbol's locate code (ITCH 5.0 Stock Locate) is its 1-based position in the list.
 * Symbols are at most 8 ASCII characters (ITCH 5.0 / OUCH 4.2 Stock field).
 */
public final class SymbolDirectory
{
    /** Most symbols: ITCH 5.0 Stock Locate is 2 bytes, and locate 0 is the market's (System Event). */
    public static final int MAX_SYMBOLS = 65_535;
    /** Setting name of the symbol list. */
    public static final String SYMBOLS_PROP_NAME = "bourse.symbols";
    /** Default symbol list: two shards, AAPL on shard 0 and MSFT on shard 1. */
    public static final String SYMBOLS_DEFAULT = "AAPL@0,MSFT@1,GOOG@0,AMZN@1";

    /** One tradable symbol. */
    public record Entry(String symbol, int locate, int shardId, long packed)
    {
    }

    private final List<Entry> entries;
    private final Long2ObjectHashMap<Entry> entriesBySymbol = new Long2ObjectHashMap<>();
    private final int shardCount;

    private SymbolDirectory(final List<Entry> entries)
    {
        this.entries = Collections.unmodifiableList(entries);
        int maxShard = -1;
        for (final Entry entry : entries)
        {
            maxShard = Math.max(maxShard, entry.shardId());
            entriesBySymbol.put(entry.packed(), entry);
        }
        this.shardCount = maxShard + 1;
    }

    /**
     * @param spec comma-separated {@code SYMBOL@SHARD} items; a symbol without {@code @SHARD} goes to shard 0.
     * @return the directory.
     * @throws IllegalArgumentException for an empty list, a symbol longer than 8 characters or with a character
     *                                  other than printable ASCII (ITCH 5.0 Stock: alphanumeric), a duplicate, a bad
     *                                  shard number, a shard below the highest one without a symbol, or more than
     *                                  {@value #MAX_SYMBOLS} symbols.
     */
    public static SymbolDirectory parse(final String spec)
    {
        final List<Entry> entries = new ArrayList<>();
        final LongHashSet packedSymbols = new LongHashSet();
        for (final String raw : spec.split(","))
        {
            final String item = raw.trim();
            if (item.isEmpty())
            {
                continue;
            }
            final int at = item.indexOf('@');
            final String symbol = (at < 0 ? item : item.substring(0, at)).trim().toUpperCase(Locale.ROOT);
            final int shard;
            try
            {
                shard = at < 0 ? 0 : Integer.parseInt(item.substring(at + 1).trim());
            }
            catch (final NumberFormatException ex)
            {
                throw new IllegalArgumentException(SYMBOLS_PROP_NAME + ": bad shard in '" + item + "'", ex);
            }
            if (symbol.isEmpty() || symbol.length() > 8 || !isPrintableAscii(symbol) || shard < 0 || shard > 15)
            {
                throw new IllegalArgumentException(SYMBOLS_PROP_NAME + ": bad item '" + item + "'");
            }
            final long packed = Symbols.pack(symbol);
            if (!packedSymbols.add(packed))
            {
                throw new IllegalArgumentException(SYMBOLS_PROP_NAME + ": duplicate symbol " + symbol);
            }
            if (MAX_SYMBOLS == entries.size())
            {
                throw new IllegalArgumentException(SYMBOLS_PROP_NAME + ": more than " + MAX_SYMBOLS + " symbols " +
                    "(ITCH 5.0 Stock Locate, 2 bytes, numbers them from 1)");
            }
            entries.add(new Entry(symbol, entries.size() + 1, shard, packed));
        }
        if (entries.isEmpty())
        {
            throw new IllegalArgumentException(SYMBOLS_PROP_NAME + ": no symbols");
        }
        final SymbolDirectory directory = new SymbolDirectory(entries);
        for (int shard = 0; shard < directory.shardCount(); shard++)
        {
            // A shard without symbols cannot start, and the gateway would wait for it forever.
            if (directory.symbolsOfShard(shard).isEmpty())
            {
                throw new IllegalArgumentException(SYMBOLS_PROP_NAME + ": shard " + shard + " has no symbol; " +
                    "number the shards from 0 without gaps: " + spec);
            }
        }
        return directory;
    }

    private static boolean isPrintableAscii(final String symbol)
    {
        for (int i = 0; i < symbol.length(); i++)
        {
            final char c = symbol.charAt(i);
            if (c <= ' ' || c > '~')
            {
                return false;
            }
        }
        return true;
    }

    /**
     * @param settings where to read {@value #SYMBOLS_PROP_NAME} from.
     * @return the configured directory.
     */
    public static SymbolDirectory fromSettings(final Settings settings)
    {
        return parse(settings.get(SYMBOLS_PROP_NAME, SYMBOLS_DEFAULT));
    }

    /** @return every symbol in locate order. */
    public List<Entry> entries()
    {
        return entries;
    }

    /** @return number of shards: the highest shard id in the list plus one. */
    public int shardCount()
    {
        return shardCount;
    }

    /**
     * @param packed a symbol packed by {@link Symbols#pack}.
     * @return its entry, or null when the exchange does not trade it (no allocation).
     */
    public Entry find(final long packed)
    {
        return entriesBySymbol.get(packed);
    }

    /**
     * @param shardId a shard.
     * @return the symbols that shard owns, in locate order.
     */
    public List<Entry> symbolsOfShard(final int shardId)
    {
        final List<Entry> result = new ArrayList<>();
        for (final Entry entry : entries)
        {
            if (entry.shardId() == shardId)
            {
                result.add(entry);
            }
        }
        return result;
    }

    /**
     * @param entries symbols, e.g. {@link #entries()} or {@link #symbolsOfShard}.
     * @return their packed forms ({@link Symbols#pack}), in the same order.
     */
    public static long[] packed(final List<Entry> entries)
    {
        final long[] symbols = new long[entries.size()];
        for (int i = 0; i < symbols.length; i++)
        {
            symbols[i] = entries.get(i).packed();
        }
        return symbols;
    }

    /** @return the list in {@code SYMBOL@SHARD} form, as accepted by {@link #parse}. */
    @Override
    public String toString()
    {
        final StringBuilder sb = new StringBuilder();
        for (final Entry entry : entries)
        {
            if (!sb.isEmpty())
            {
                sb.append(',');
            }
            sb.append(entry.symbol()).append('@').append(entry.shardId());
        }
        return sb.toString();
    }
}
