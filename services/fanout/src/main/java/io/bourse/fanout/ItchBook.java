package io.bourse.fanout;

import com.paritytrading.juncture.nasdaq.itch50.ITCH50;
import io.bourse.itch.ItchReferenceData;
import io.bourse.itch.ItchTranslator;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.collections.Int2ObjectHashMap;
import org.agrona.collections.Long2ObjectHashMap;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteOrder;
import java.util.ArrayDeque;
import java.util.Arrays;

/**
 * The displayed orders of every symbol (an L3 book: order reference number to locate, side, price, shares), kept from
 * the ITCH 5.0 messages the fanout publishes: Add Order (§4.3.1) and Add Order with MPID Attribution (§4.3.2) add,
 * Order Executed (§4.4.1), Order Executed With Price (§4.4.2) and Order Cancel (§4.4.3) take shares off, Order Delete
 * (§4.4.4) removes, Order Replace (§4.4.5) removes the original and adds the new order with a new time priority and the
 * original's attribution. Non-displayed orders never appear in ITCH, so never here; trades and broken trades leave the
 * book as it is. Stock Trading Action (§4.2.2) is kept, the latest per symbol, starting from the Trading Action spin of
 * the fanout's start (every symbol trading).
 *
 * <p>{@link #snapshot} writes the chosen symbols' latest Stock Trading Actions in locate order (the spin ITCH
 * requires, ITCH 5.0 &sect;4.2.2: a symbol without one is taken as halted), then, symbol by symbol in locate order,
 * their books as ITCH Add Order messages (with MPID Attribution for an attributed order), bids first from the highest
 * price, then offers from the lowest, each price level in time priority; each message keeps the Timestamp of the
 * message that gave it. The book is kept in that order as the messages come, per symbol and side a sorted array of
 * price levels, each a queue of its orders, so that a snapshot walks only the chosen symbols' orders, without sorting
 * or allocating (but for its destination's growth); a price level is found by binary search, an order by its reference
 * number. Applying messages reuses pooled orders and price levels (no allocation once the pools and the sides' arrays
 * have grown, but a symbol's first order and first trading action). Single-threaded: the dispatcher's.
 */
final class ItchBook
{
    private static final int LOCATE_OFFSET = 1;
    private static final int REFERENCE_OFFSET = 11;
    private static final int ADD_SIDE_OFFSET = 19;
    private static final int ADD_SHARES_OFFSET = 20;
    private static final int ADD_STOCK_OFFSET = 24;
    private static final int ADD_PRICE_OFFSET = 32;
    private static final int ADD_ATTRIBUTION_OFFSET = 36;
    private static final int EXECUTED_SHARES_OFFSET = 19;
    private static final int CANCELED_SHARES_OFFSET = 19;
    private static final int REPLACE_NEW_REFERENCE_OFFSET = 19;
    private static final int REPLACE_SHARES_OFFSET = 27;
    private static final int REPLACE_PRICE_OFFSET = 31;

    /** One displayed order, in the queue of its price level. */
    private static final class Order
    {
        long reference;
        int locate;
        byte side;
        long shares;
        long stock;
        long price;
        long timestampNs;
        /** The MPID of an Add Order with MPID Attribution, big-endian; 0 for an anonymous Add Order. */
        int attribution;
        PriceLevel level;
        Order previous;
        Order next;
    }

    /** The displayed orders at one price on one side of a symbol's book, in time priority: the first is the oldest. */
    private static final class PriceLevel
    {
        BookSide side;
        long price;
        Order first;
        Order last;
    }

    /**
     * One side of a symbol's book: its price levels from the worst price to the best (bids by ascending price, offers
     * by descending price), so that the levels near the BBO, where most orders arrive and leave, are the cheapest to
     * insert and remove.
     */
    private static final class BookSide
    {
        private final boolean bids;
        private PriceLevel[] levels = new PriceLevel[16];
        private int size;

        BookSide(final boolean bids)
        {
            this.bids = bids;
        }

        /** @return the index of the level at the price, or -(insertion point) - 1 (binary search, worst to best). */
        private int indexOf(final long price)
        {
            final long rank = bids ? price : -price;
            int low = 0;
            int high = size - 1;
            while (low <= high)
            {
                final int middle = (low + high) >>> 1;
                final long middleRank = bids ? levels[middle].price : -levels[middle].price;
                if (middleRank < rank)
                {
                    low = middle + 1;
                }
                else if (middleRank > rank)
                {
                    high = middle - 1;
                }
                else
                {
                    return middle;
                }
            }
            return -low - 1;
        }
    }

    /** A symbol's book: its bids and its offers. */
    private static final class SymbolBook
    {
        final BookSide bids = new BookSide(true);
        final BookSide offers = new BookSide(false);
    }

    private final Long2ObjectHashMap<Order> orders = new Long2ObjectHashMap<>();
    /** The books by Stock Locate, from a symbol's first order on; grows to the highest locate seen. */
    private SymbolBook[] books;
    /** The latest Stock Trading Action of each symbol, by Stock Locate (the spin's until an operator changes it). */
    private final Int2ObjectHashMap<byte[]> tradingActions = new Int2ObjectHashMap<>();
    private final ArrayDeque<Order> pool = new ArrayDeque<>();
    private final ArrayDeque<PriceLevel> levelPool = new ArrayDeque<>();
    private final ItchReferenceData referenceData;
    /** The Timestamp of the Trading Action spin after a {@link #clear}: the fanout's start, then 0 from a new day. */
    private long spinTimestampNs;

    /**
     * @param referenceData the symbols' Trading Action spin ({@link ItchReferenceData#stockTradingAction}).
     * @param timestampNs   of the spin: the fanout's start, nanoseconds since midnight.
     */
    ItchBook(final ItchReferenceData referenceData, final long timestampNs)
    {
        this.referenceData = referenceData;
        this.spinTimestampNs = timestampNs;
        this.books = new SymbolBook[referenceData.symbolCount() + 1];
        applySpin();
    }

    /**
     * Forgets every order and trading action: the book is as at construction, empty with every symbol trading, ready
     * for a snapshot's messages.
     */
    void clear()
    {
        for (final Order order : orders.values())
        {
            order.level = null;
            order.previous = null;
            order.next = null;
            pool.addFirst(order);
        }
        orders.clear();
        for (final SymbolBook book : books)
        {
            if (null != book)
            {
                clear(book.bids);
                clear(book.offers);
            }
        }
        applySpin();
    }

    /**
     * Midnight UTC has started a new trading day: what the book carries over, every resting order and every symbol's
     * latest Stock Trading Action, and the spin after a later {@link #clear}, is stamped with the new day's first
     * nanosecond (Timestamp 0), so that a snapshot of the new day carries no Timestamp of an earlier one (ITCH 5.0
     * Timestamps are nanoseconds since the day's midnight; the md-publisher's new day's session spins its resting
     * orders with its opening likewise). The orders keep their time priority. Once a day, on the dispatcher's thread:
     * a walk of every order.
     */
    void startDay()
    {
        spinTimestampNs = 0;
        for (final Order order : orders.values())
        {
            order.timestampNs = 0;
        }
        for (final byte[] tradingAction : tradingActions.values())
        {
            Arrays.fill(tradingAction, ItchTranslator.TIMESTAMP_OFFSET,
                ItchTranslator.TIMESTAMP_OFFSET + Short.BYTES + Integer.BYTES, (byte)0); // the 6-byte Timestamp
        }
    }

    private void clear(final BookSide side)
    {
        for (int i = 0; i < side.size; i++)
        {
            final PriceLevel level = side.levels[i];
            level.side = null;
            level.first = null;
            level.last = null;
            levelPool.addFirst(level);
            side.levels[i] = null;
        }
        side.size = 0;
    }

    private void applySpin()
    {
        for (int i = 0; i < referenceData.symbolCount(); i++)
        {
            apply(new UnsafeBuffer(referenceData.stockTradingAction(i, spinTimestampNs)), 0);
        }
    }

    /**
     * Applies one ITCH 5.0 message.
     *
     * @param buffer holds the message, big-endian as ITCH is.
     * @param offset of its Message Type byte.
     */
    void apply(final DirectBuffer buffer, final int offset)
    {
        final long reference = buffer.getLong(offset + REFERENCE_OFFSET, ByteOrder.BIG_ENDIAN);
        final byte messageType = buffer.getByte(offset);
        switch (messageType)
        {
            case ITCH50.MESSAGE_TYPE_ADD_ORDER, ITCH50.MESSAGE_TYPE_ADD_ORDER_MPID -> add(
                reference, buffer.getShort(offset + LOCATE_OFFSET, ByteOrder.BIG_ENDIAN) & 0xFFFF,
                buffer.getByte(offset + ADD_SIDE_OFFSET),
                buffer.getInt(offset + ADD_SHARES_OFFSET, ByteOrder.BIG_ENDIAN) & 0xFFFF_FFFFL,
                buffer.getLong(offset + ADD_STOCK_OFFSET, ByteOrder.BIG_ENDIAN),
                buffer.getInt(offset + ADD_PRICE_OFFSET, ByteOrder.BIG_ENDIAN) & 0xFFFF_FFFFL,
                timestampNs(buffer, offset),
                ITCH50.MESSAGE_TYPE_ADD_ORDER_MPID == messageType ?
                    buffer.getInt(offset + ADD_ATTRIBUTION_OFFSET, ByteOrder.BIG_ENDIAN) : 0);
            case ITCH50.MESSAGE_TYPE_ORDER_EXECUTED, ITCH50.MESSAGE_TYPE_ORDER_EXECUTED_WITH_PRICE -> reduce(
                reference, buffer.getInt(offset + EXECUTED_SHARES_OFFSET, ByteOrder.BIG_ENDIAN) & 0xFFFF_FFFFL);
            case ITCH50.MESSAGE_TYPE_ORDER_CANCEL -> reduce(
                reference, buffer.getInt(offset + CANCELED_SHARES_OFFSET, ByteOrder.BIG_ENDIAN) & 0xFFFF_FFFFL);
            case ITCH50.MESSAGE_TYPE_ORDER_DELETE -> remove(reference);
            case ITCH50.MESSAGE_TYPE_STOCK_TRADING_ACTION -> buffer.getBytes(offset, tradingActions.computeIfAbsent(
                buffer.getShort(offset + LOCATE_OFFSET, ByteOrder.BIG_ENDIAN) & 0xFFFF,
                (locate) -> new byte[ItchTranslator.STOCK_TRADING_ACTION_LENGTH]));
            case ITCH50.MESSAGE_TYPE_ORDER_REPLACE -> replace(
                reference, buffer.getLong(offset + REPLACE_NEW_REFERENCE_OFFSET, ByteOrder.BIG_ENDIAN),
                buffer.getInt(offset + REPLACE_SHARES_OFFSET, ByteOrder.BIG_ENDIAN) & 0xFFFF_FFFFL,
                buffer.getInt(offset + REPLACE_PRICE_OFFSET, ByteOrder.BIG_ENDIAN) & 0xFFFF_FFFFL,
                timestampNs(buffer, offset));
            default ->
            {
                // Trade, Cross Trade and Broken Trade do not change the displayed book.
            }
        }
    }

    /** @return number of displayed orders over all symbols. */
    int orderCount()
    {
        return orders.size();
    }

    /** @return number of price levels over all symbols and both sides: each price with a displayed order. */
    int levelCount()
    {
        int count = 0;
        for (final SymbolBook book : books)
        {
            count += null == book ? 0 : book.bids.size + book.offers.size;
        }
        return count;
    }

    /**
     * @param messageType the Message Type of a message {@link #snapshot} wrote.
     * @return its length: {@link ItchTranslator#STOCK_TRADING_ACTION_LENGTH} for a Stock Trading Action,
     *         {@link ItchTranslator#ADD_ORDER_MPID_LENGTH} for an Add Order with MPID Attribution, else
     *         {@link ItchTranslator#ADD_ORDER_LENGTH}.
     */
    static int snapshotMessageLength(final byte messageType)
    {
        return switch (messageType)
        {
            case ITCH50.MESSAGE_TYPE_STOCK_TRADING_ACTION -> ItchTranslator.STOCK_TRADING_ACTION_LENGTH;
            case ITCH50.MESSAGE_TYPE_ADD_ORDER_MPID -> ItchTranslator.ADD_ORDER_MPID_LENGTH;
            default -> ItchTranslator.ADD_ORDER_LENGTH;
        };
    }

    /**
     * Writes the chosen symbols, in locate order, as ITCH 5.0 messages one after the other: first each symbol's latest
     * Stock Trading Action (the spin), then each symbol's displayed orders as Add Order
     * ({@link #snapshotMessageLength}).
     *
     * @param symbolsByLocate true at the Stock Locate of each symbol wanted.
     * @param dst             receives the messages from offset 0; grows when it can (an expandable buffer).
     * @return bytes written.
     */
    int snapshot(final boolean[] symbolsByLocate, final MutableDirectBuffer dst)
    {
        int offset = 0;
        for (int locate = 0; locate < symbolsByLocate.length; locate++)
        {
            final byte[] tradingAction = symbolsByLocate[locate] ? tradingActions.get(locate) : null;
            if (null != tradingAction)
            {
                dst.putBytes(offset, tradingAction);
                offset += tradingAction.length;
            }
        }
        for (int locate = 0; locate < symbolsByLocate.length; locate++)
        {
            final SymbolBook book = symbolsByLocate[locate] && locate < books.length ? books[locate] : null;
            if (null != book)
            {
                offset = putSide(book.bids, dst, offset);
                offset = putSide(book.offers, dst, offset);
            }
        }
        return offset;
    }

    /** @return the offset after the side's orders, written best price first, each level in time priority. */
    private static int putSide(final BookSide side, final MutableDirectBuffer dst, final int offset)
    {
        int position = offset;
        for (int i = side.size - 1; i >= 0; i--)
        {
            for (Order order = side.levels[i].first; null != order; order = order.next)
            {
                position += putAddOrder(order, dst, position);
            }
        }
        return position;
    }

    /** @return bytes written: an Add Order, or an Add Order with MPID Attribution for an attributed order. */
    private static int putAddOrder(final Order order, final MutableDirectBuffer dst, final int offset)
    {
        dst.putByte(offset, ITCH50.MESSAGE_TYPE_ADD_ORDER);
        dst.putShort(offset + LOCATE_OFFSET, (short)order.locate, ByteOrder.BIG_ENDIAN);
        dst.putShort(offset + LOCATE_OFFSET + Short.BYTES, (short)0, ByteOrder.BIG_ENDIAN);
        final int timestamp = offset + ItchTranslator.TIMESTAMP_OFFSET;
        dst.putShort(timestamp, (short)ItchTranslator.timestampHigh(order.timestampNs), ByteOrder.BIG_ENDIAN);
        dst.putInt(timestamp + Short.BYTES, (int)ItchTranslator.timestampLow(order.timestampNs), ByteOrder.BIG_ENDIAN);
        dst.putLong(offset + REFERENCE_OFFSET, order.reference, ByteOrder.BIG_ENDIAN);
        dst.putByte(offset + ADD_SIDE_OFFSET, order.side);
        dst.putInt(offset + ADD_SHARES_OFFSET, (int)order.shares, ByteOrder.BIG_ENDIAN);
        dst.putLong(offset + ADD_STOCK_OFFSET, order.stock, ByteOrder.BIG_ENDIAN);
        dst.putInt(offset + ADD_PRICE_OFFSET, (int)order.price, ByteOrder.BIG_ENDIAN);
        if (0 == order.attribution)
        {
            return ItchTranslator.ADD_ORDER_LENGTH;
        }
        dst.putByte(offset, ITCH50.MESSAGE_TYPE_ADD_ORDER_MPID);
        dst.putInt(offset + ADD_ATTRIBUTION_OFFSET, order.attribution, ByteOrder.BIG_ENDIAN);
        return ItchTranslator.ADD_ORDER_MPID_LENGTH;
    }

    /**
     * @param buffer holds an ITCH 5.0 message, big-endian.
     * @param offset of its Message Type byte.
     * @return its Timestamp: nanoseconds since the latest midnight.
     */
    static long timestampNs(final DirectBuffer buffer, final int offset)
    {
        return ItchTranslator.timeOfDayNs(
            buffer.getShort(offset + ItchTranslator.TIMESTAMP_OFFSET, ByteOrder.BIG_ENDIAN),
            buffer.getInt(offset + ItchTranslator.TIMESTAMP_OFFSET + Short.BYTES, ByteOrder.BIG_ENDIAN));
    }

    private void add(
        final long reference, final int locate, final byte side, final long shares, final long stock, final long price,
        final long timestampNs, final int attribution)
    {
        remove(reference); // a reference number reused: the latest Add Order stands
        final Order pooled = pool.pollFirst();
        final Order order = null == pooled ? new Order() : pooled;
        order.reference = reference;
        order.locate = locate;
        order.side = side;
        order.shares = shares;
        order.stock = stock;
        order.price = price;
        order.timestampNs = timestampNs;
        order.attribution = attribution;
        orders.put(reference, order);
        final SymbolBook book = book(locate);
        enqueue(order, ITCH50.BUY == side ? book.bids : book.offers);
    }

    /** @return the symbol's book, created on its first order. */
    private SymbolBook book(final int locate)
    {
        if (locate >= books.length)
        {
            books = Arrays.copyOf(books, locate + 1);
        }
        SymbolBook book = books[locate];
        if (null == book)
        {
            book = new SymbolBook();
            books[locate] = book;
        }
        return book;
    }

    /** Puts the order last in the time priority of its price level, adding the level when it is the first there. */
    private void enqueue(final Order order, final BookSide side)
    {
        final int index = side.indexOf(order.price);
        final PriceLevel level;
        if (index >= 0)
        {
            level = side.levels[index];
        }
        else
        {
            final PriceLevel pooled = levelPool.pollFirst();
            level = null == pooled ? new PriceLevel() : pooled;
            level.side = side;
            level.price = order.price;
            final int insertion = -index - 1;
            if (side.size == side.levels.length)
            {
                side.levels = Arrays.copyOf(side.levels, side.size * 2);
            }
            System.arraycopy(side.levels, insertion, side.levels, insertion + 1, side.size - insertion);
            side.levels[insertion] = level;
            side.size++;
        }
        order.level = level;
        order.previous = level.last;
        order.next = null;
        if (null == level.last)
        {
            level.first = order;
        }
        else
        {
            level.last.next = order;
        }
        level.last = order;
    }

    private void reduce(final long reference, final long shares)
    {
        final Order order = orders.get(reference);
        if (null != order)
        {
            order.shares -= shares;
            if (order.shares <= 0)
            {
                remove(reference);
            }
        }
    }

    private void remove(final long reference)
    {
        final Order order = orders.remove(reference);
        if (null != order)
        {
            dequeue(order);
            pool.addFirst(order);
        }
    }

    /** Takes the order out of its price level's queue, and the level out of its side when it was the last there. */
    private void dequeue(final Order order)
    {
        final PriceLevel level = order.level;
        if (null == order.previous)
        {
            level.first = order.next;
        }
        else
        {
            order.previous.next = order.next;
        }
        if (null == order.next)
        {
            level.last = order.previous;
        }
        else
        {
            order.next.previous = order.previous;
        }
        order.level = null;
        order.previous = null;
        order.next = null;
        if (null == level.first)
        {
            final BookSide side = level.side;
            final int index = side.indexOf(level.price);
            System.arraycopy(side.levels, index + 1, side.levels, index, side.size - index - 1);
            side.levels[--side.size] = null;
            level.side = null;
            levelPool.addFirst(level);
        }
    }

    private void replace(
        final long reference, final long newReference, final long shares, final long price, final long timestampNs)
    {
        final Order original = orders.get(reference);
        if (null != original)
        {
            final int locate = original.locate;
            final byte side = original.side;
            final long stock = original.stock;
            final int attribution = original.attribution;
            remove(reference);
            add(newReference, locate, side, shares, stock, price, timestampNs, attribution);
        }
    }
}
