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
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

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
 * message that gave it. Applying messages reuses pooled orders (no allocation once the pool has grown, and one buffer
 * per symbol for its trading action); a snapshot allocates, being rare. Single-threaded: the dispatcher's.
 */
final class ItchBook
{
    private static final int LOCATE_OFFSET = 1;
    private static final int TIMESTAMP_OFFSET = 5;
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
    private static final Comparator<Order> PRICE_TIME = Comparator
        .comparingInt((Order order) -> order.locate)
        .thenComparingInt((order) -> order.side == ITCH50.BUY ? 0 : 1)
        .thenComparingLong((order) -> order.side == ITCH50.BUY ? -order.price : order.price)
        .thenComparingLong((order) -> order.priority);

    /** One displayed order. */
    private static final class Order
    {
        long reference;
        int locate;
        byte side;
        long shares;
        long stock;
        long price;
        long timestampNs;
        long priority;
        /** The MPID of an Add Order with MPID Attribution, big-endian; 0 for an anonymous Add Order. */
        int attribution;
    }

    private final Long2ObjectHashMap<Order> orders = new Long2ObjectHashMap<>();
    /** The latest Stock Trading Action of each symbol, by Stock Locate (the spin's until an operator changes it). */
    private final Int2ObjectHashMap<byte[]> tradingActions = new Int2ObjectHashMap<>();
    private final ArrayDeque<Order> pool = new ArrayDeque<>();
    private final ItchReferenceData referenceData;
    private final long spinTimestampNs;
    private long nextPriority;

    /**
     * @param referenceData the symbols' Trading Action spin ({@link ItchReferenceData#stockTradingAction}).
     * @param timestampNs   of the spin: the fanout's start, nanoseconds since midnight.
     */
    ItchBook(final ItchReferenceData referenceData, final long timestampNs)
    {
        this.referenceData = referenceData;
        this.spinTimestampNs = timestampNs;
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
            pool.addFirst(order);
        }
        orders.clear();
        applySpin();
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
        final List<Order> chosen = new ArrayList<>();
        for (final Order order : orders.values())
        {
            if (order.locate < symbolsByLocate.length && symbolsByLocate[order.locate])
            {
                chosen.add(order);
            }
        }
        chosen.sort(PRICE_TIME);
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
        for (final Order order : chosen)
        {
            offset += putAddOrder(order, dst, offset);
        }
        return offset;
    }

    /** @return bytes written: an Add Order, or an Add Order with MPID Attribution for an attributed order. */
    private static int putAddOrder(final Order order, final MutableDirectBuffer dst, final int offset)
    {
        dst.putByte(offset, ITCH50.MESSAGE_TYPE_ADD_ORDER);
        dst.putShort(offset + LOCATE_OFFSET, (short)order.locate, ByteOrder.BIG_ENDIAN);
        dst.putShort(offset + LOCATE_OFFSET + Short.BYTES, (short)0, ByteOrder.BIG_ENDIAN);
        dst.putShort(
            offset + TIMESTAMP_OFFSET, (short)ItchTranslator.timestampHigh(order.timestampNs), ByteOrder.BIG_ENDIAN);
        dst.putInt(offset + TIMESTAMP_OFFSET + Short.BYTES, (int)ItchTranslator.timestampLow(order.timestampNs),
            ByteOrder.BIG_ENDIAN);
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

    private static long timestampNs(final DirectBuffer buffer, final int offset)
    {
        return ((long)(buffer.getShort(offset + TIMESTAMP_OFFSET, ByteOrder.BIG_ENDIAN) & 0xFFFF) << 32) |
            (buffer.getInt(offset + TIMESTAMP_OFFSET + Short.BYTES, ByteOrder.BIG_ENDIAN) & 0xFFFF_FFFFL);
    }

    private void add(
        final long reference, final int locate, final byte side, final long shares, final long stock, final long price,
        final long timestampNs, final int attribution)
    {
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
        order.priority = nextPriority++;
        final Order previous = orders.put(reference, order);
        if (null != previous)
        {
            pool.addFirst(previous);
        }
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
            pool.addFirst(order);
        }
    }

    private void replace(
        final long reference, final long newReference, final long shares, final long price, final long timestampNs)
    {
        final Order original = orders.remove(reference);
        if (null != original)
        {
            add(newReference, original.locate, original.side, shares, original.stock, price, timestampNs,
                original.attribution);
            pool.addFirst(original);
        }
    }
}
