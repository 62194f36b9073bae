package io.bourse.common;

import org.agrona.concurrent.AtomicBuffer;

/**
 * A symbol's last trades by match number, and the price of the newest one not broken: a reference price that a broken
 * trade (OUCH 4.2 Broken Trade, ITCH 5.0 Broken Trade, an operator's BreakTrade, for any reason; as a rule one far from
 * the market) must not stay. The order gateway's collar reference ({@code CollarReferences}, in a mapped file) and the
 * matching engine's closing-cross reference ({@code OrderBook}, on the heap) are both this. A flyweight over
 * {@value #LENGTH} bytes of a buffer, native byte order:
 * <pre>
 *   +--------+--------+--------------------------------------------------------------------------+
 *   | Offset | Length | Field                                                                    |
 *   +--------+--------+--------------------------------------------------------------------------+
 *   |      0 |      8 | Trades stored, n; trade k (0 to n - 1) is in slot k mod 65, and the      |
 *   |        |        | newest 64 (n - 64 to n - 1) are kept                                     |
 *   |  8 + i |     16 | Slot i, 0 to 64: the trade's Match Number (8), then its price in         |
 *   |   x 16 |        | 1/10000 dollars (8), 0 once the trade is broken                          |
 *   +--------+--------+--------------------------------------------------------------------------+
 * </pre>
 * The last {@value #TRADES} trades are kept, so an erroneous order's executions (one per resting order it took) can all
 * be broken and the reference is the trade before them, as long as they are fewer than {@value #TRADES}; when every
 * trade kept is broken there is none, the trades before them being gone. A symbol's trades are its shard's executions,
 * whose match numbers grow from trade to trade and from run to run ({@link EngineNumbering}: the host's wall clock not
 * set back between two runs), so a trade whose match number is not above the newest stored is one already stored and is
 * left out: in the gateway's file, an engine event replayed after a restart (the engine rebuilds its own from nothing
 * by replaying its commands, so it never stores one twice). A new trade goes into the one slot that holds no kept
 * trade, and the count that makes it the newest is written after it (an ordered store), so a crash in between leaves
 * the kept trades of a mapped file as they were. Not thread safe: one thread stores and reads; allocates nothing.
 */
public final class LastTrades
{
    /** Trades kept. */
    public static final int TRADES = 64;
    /** Slots: one more than the trades kept, for the next trade to be written into while they are read. */
    private static final int SLOTS = TRADES + 1;
    private static final int COUNT_OFFSET = 0;
    private static final int SLOTS_OFFSET = 8;
    private static final int SLOT_LENGTH = 16;
    private static final int MATCH_NUMBER_OFFSET = 0;
    private static final int PRICE_OFFSET = 8;
    /** Bytes of a symbol's last trades: 1,048. */
    public static final int LENGTH = SLOTS_OFFSET + SLOTS * SLOT_LENGTH;

    private AtomicBuffer buffer;
    private int offset;

    /**
     * @param buffer the buffer; all zeros is no trade.
     * @param offset where the symbol's {@value #LENGTH} bytes start, 8-byte aligned.
     * @return this flyweight, over them.
     */
    public LastTrades wrap(final AtomicBuffer buffer, final int offset)
    {
        this.buffer = buffer;
        this.offset = offset;
        return this;
    }

    /** @return the price of the newest trade stored not broken, in 1/10000 dollars; 0 when none is. */
    public long price()
    {
        final long count = buffer.getLong(offset + COUNT_OFFSET);
        for (long trade = count - 1; trade >= Math.max(0, count - TRADES); trade--)
        {
            final long price = buffer.getLong(slot(trade) + PRICE_OFFSET);
            if (0 != price)
            {
                return price;
            }
        }
        return 0;
    }

    /**
     * Stores a trade as the newest, unless it is one already stored (its match number is not above the newest's); the
     * oldest of {@value #TRADES} kept is dropped.
     *
     * @param matchNumber the trade's engine match number, positive.
     * @param price       the trade's price, in 1/10000 dollars, positive.
     */
    public void store(final long matchNumber, final long price)
    {
        final long count = buffer.getLong(offset + COUNT_OFFSET);
        if (count > 0 && matchNumber <= buffer.getLong(slot(count - 1) + MATCH_NUMBER_OFFSET))
        {
            return;
        }
        final int slot = slot(count);
        buffer.putLong(slot + MATCH_NUMBER_OFFSET, matchNumber);
        buffer.putLong(slot + PRICE_OFFSET, price);
        buffer.putLongOrdered(offset + COUNT_OFFSET, count + 1);
    }

    /**
     * A trade broken: it is no reference from now on. A trade not among the kept ones (older, or never stored) is left
     * out.
     *
     * @param matchNumber the broken trade's engine match number.
     */
    public void broken(final long matchNumber)
    {
        final long count = buffer.getLong(offset + COUNT_OFFSET);
        for (long trade = count - 1; trade >= Math.max(0, count - TRADES); trade--)
        {
            final int slot = slot(trade);
            if (matchNumber == buffer.getLong(slot + MATCH_NUMBER_OFFSET))
            {
                buffer.putLongOrdered(slot + PRICE_OFFSET, 0);
                return;
            }
        }
    }

    /** Forgets every trade stored: a count of 0, a volatile store. */
    public void clear()
    {
        buffer.putLongVolatile(offset + COUNT_OFFSET, 0);
    }

    private int slot(final long trade)
    {
        return offset + SLOTS_OFFSET + (int)(trade % SLOTS) * SLOT_LENGTH;
    }
}
