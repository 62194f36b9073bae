package io.bourse.simulator;

import org.agrona.collections.Long2LongHashMap;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * Order-by-order (L3) books of every symbol, built from ITCH 5.0 messages (§4.3 Add Order, §4.4 Modify Order), with
 * the price levels (L2) and best bid and offer derived from them. Prices in 1/10000 $, sizes in shares. Orders live
 * in preallocated arrays indexed through an Agrona map by Order Reference Number; the arrays and maps grow (doubling)
 * only when the book outgrows them, so applying a message does not allocate. A message that does not fit (unknown
 * order, duplicate reference, more shares than the order has) goes to the listener and changes the book as little as
 * possible. Owned by one thread.
 */
final class OrderBooks
{
    /** Buy/Sell Indicator: buy. */
    static final byte BUY = 'B';
    /** Buy/Sell Indicator: sell. */
    static final byte SELL = 'S';
    /** Returned by the executions when the order is unknown. */
    static final long NO_PRICE = Long.MIN_VALUE;
    private static final long NO_SLOT = -1;

    private final int symbolCount;
    private final MarketDataListener listener;
    private final Long2LongHashMap slotByOrder;
    private final Long2LongHashMap[] bidLevels;
    private final Long2LongHashMap[] askLevels;
    private final int[] orderCounts;
    private long[] orderIds;
    private int[] locates;
    private byte[] sides;
    private long[] shares;
    private long[] prices;
    private int[] freeSlots;
    private int freeCount;

    /**
     * @param symbolCount   Stock Locates 1 to symbolCount are valid.
     * @param initialOrders orders the book holds before it first grows.
     * @param listener      receives the inconsistencies.
     */
    OrderBooks(final int symbolCount, final int initialOrders, final MarketDataListener listener)
    {
        this.symbolCount = symbolCount;
        this.listener = listener;
        this.slotByOrder = new Long2LongHashMap(initialOrders * 2, 0.65f, NO_SLOT);
        this.bidLevels = new Long2LongHashMap[symbolCount + 1];
        this.askLevels = new Long2LongHashMap[symbolCount + 1];
        for (int locate = 1; locate <= symbolCount; locate++)
        {
            bidLevels[locate] = new Long2LongHashMap(0);
            askLevels[locate] = new Long2LongHashMap(0);
        }
        this.orderCounts = new int[symbolCount + 1];
        allocate(initialOrders);
    }

    /**
     * ITCH 5.0 §4.3.1 Add Order (and §4.3.2 with MPID).
     *
     * @param locate               Stock Locate.
     * @param orderReferenceNumber the new order.
     * @param side                 {@link #BUY} or {@link #SELL}.
     * @param orderShares          shares displayed.
     * @param price                1/10000 $.
     */
    void add(final int locate, final long orderReferenceNumber, final byte side, final long orderShares,
        final long price)
    {
        if (!knownLocate(locate, orderReferenceNumber))
        {
            return;
        }
        if (NO_SLOT != slotByOrder.get(orderReferenceNumber))
        {
            listener.onInconsistency(MarketDataListener.Inconsistency.DUPLICATE_ORDER, locate, orderReferenceNumber);
            return;
        }
        if (0 == freeCount)
        {
            allocate(orderIds.length * 2);
        }
        final int slot = freeSlots[--freeCount];
        orderIds[slot] = orderReferenceNumber;
        locates[slot] = locate;
        sides[slot] = side;
        shares[slot] = orderShares;
        prices[slot] = price;
        slotByOrder.put(orderReferenceNumber, slot);
        orderCounts[locate]++;
        addShares(side(locate, side), price, orderShares);
    }

    /**
     * ITCH 5.0 §4.4.1 Order Executed and §4.4.2 Order Executed With Price: takes shares off the order, removing it when
     * none are left.
     *
     * @param locate               Stock Locate.
     * @param orderReferenceNumber the resting order.
     * @param executedShares       shares.
     * @return the resting order's price, {@link #NO_PRICE} when the order is unknown.
     */
    long execute(final int locate, final long orderReferenceNumber, final long executedShares)
    {
        final int slot = slot(locate, orderReferenceNumber);
        if (slot < 0)
        {
            return NO_PRICE;
        }
        final long price = prices[slot];
        reduce(slot, executedShares);
        return price;
    }

    /**
     * ITCH 5.0 §4.4.3 Order Cancel: takes shares off the order, removing it when none are left.
     *
     * @param locate               Stock Locate.
     * @param orderReferenceNumber the order.
     * @param canceledShares       shares.
     */
    void cancel(final int locate, final long orderReferenceNumber, final long canceledShares)
    {
        final int slot = slot(locate, orderReferenceNumber);
        if (slot >= 0)
        {
            reduce(slot, canceledShares);
        }
    }

    /**
     * ITCH 5.0 §4.4.4 Order Delete.
     *
     * @param locate               Stock Locate.
     * @param orderReferenceNumber the order.
     */
    void delete(final int locate, final long orderReferenceNumber)
    {
        final int slot = slot(locate, orderReferenceNumber);
        if (slot >= 0)
        {
            remove(slot);
        }
    }

    /**
     * ITCH 5.0 §4.4.5 Order Replace: the original order goes, a new one on the same side takes its place at the back
     * of its price level.
     *
     * @param locate                       Stock Locate.
     * @param originalOrderReferenceNumber the replaced order.
     * @param newOrderReferenceNumber      the new order.
     * @param newShares                    shares displayed.
     * @param newPrice                     1/10000 $.
     */
    void replace(final int locate, final long originalOrderReferenceNumber, final long newOrderReferenceNumber,
        final long newShares, final long newPrice)
    {
        final int slot = slot(locate, originalOrderReferenceNumber);
        if (slot >= 0)
        {
            final byte side = sides[slot];
            remove(slot);
            add(locate, newOrderReferenceNumber, side, newShares, newPrice);
        }
    }

    /** @return Stock Locates 1 to this are valid. */
    int symbolCount()
    {
        return symbolCount;
    }

    /**
     * @param locate Stock Locate.
     * @return orders in that book.
     */
    int orderCount(final int locate)
    {
        return orderCounts[locate];
    }

    /**
     * @param locate Stock Locate.
     * @return the best bid price in 1/10000 $, {@link #NO_PRICE} when there is no bid.
     */
    long bestBid(final int locate)
    {
        long best = NO_PRICE;
        final Long2LongHashMap.KeyIterator prices = bidLevels[locate].keySet().iterator();
        while (prices.hasNext())
        {
            best = Math.max(best, prices.nextValue());
        }
        return best;
    }

    /**
     * @param locate Stock Locate.
     * @return the best offer price in 1/10000 $, {@link #NO_PRICE} when there is no offer.
     */
    long bestOffer(final int locate)
    {
        long best = Long.MAX_VALUE;
        final Long2LongHashMap.KeyIterator prices = askLevels[locate].keySet().iterator();
        while (prices.hasNext())
        {
            best = Math.min(best, prices.nextValue());
        }
        return Long.MAX_VALUE == best ? NO_PRICE : best;
    }

    /**
     * The L2 view of one side (allocates; not for the hot path).
     *
     * @param locate Stock Locate.
     * @param side   {@link #BUY} or {@link #SELL}.
     * @return the price levels, best first.
     */
    List<Level> levels(final int locate, final byte side)
    {
        final List<Level> result = new ArrayList<>();
        final Long2LongHashMap.EntryIterator entries = side(locate, side).entrySet().iterator();
        while (entries.hasNext())
        {
            entries.next();
            result.add(new Level(entries.getLongKey(), entries.getLongValue()));
        }
        final Comparator<Level> byPrice = Comparator.comparingLong(Level::price);
        result.sort(BUY == side ? byPrice.reversed() : byPrice);
        return result;
    }

    /**
     * The L3 view of one book (allocates; not for the hot path).
     *
     * @param locate Stock Locate.
     * @return its orders, by Order Reference Number.
     */
    List<Order> orders(final int locate)
    {
        final List<Order> result = new ArrayList<>();
        final Long2LongHashMap.EntryIterator entries = slotByOrder.entrySet().iterator();
        while (entries.hasNext())
        {
            entries.next();
            final int slot = (int)entries.getLongValue();
            if (locates[slot] == locate)
            {
                result.add(new Order(orderIds[slot], (char)sides[slot], shares[slot], prices[slot]));
            }
        }
        result.sort(Comparator.comparingLong(Order::orderReferenceNumber));
        return result;
    }

    private boolean knownLocate(final int locate, final long orderReferenceNumber)
    {
        if (locate < 1 || locate > symbolCount)
        {
            listener.onInconsistency(MarketDataListener.Inconsistency.UNKNOWN_LOCATE, locate, orderReferenceNumber);
            return false;
        }
        return true;
    }

    private int slot(final int locate, final long orderReferenceNumber)
    {
        if (!knownLocate(locate, orderReferenceNumber))
        {
            return -1;
        }
        final long slot = slotByOrder.get(orderReferenceNumber);
        if (NO_SLOT == slot || locates[(int)slot] != locate)
        {
            listener.onInconsistency(MarketDataListener.Inconsistency.UNKNOWN_ORDER, locate, orderReferenceNumber);
            return -1;
        }
        return (int)slot;
    }

    private void reduce(final int slot, final long reduction)
    {
        if (reduction > shares[slot])
        {
            listener.onInconsistency(MarketDataListener.Inconsistency.EXCESS_SHARES, locates[slot], orderIds[slot]);
        }
        if (reduction >= shares[slot])
        {
            remove(slot);
        }
        else
        {
            shares[slot] -= reduction;
            addShares(side(locates[slot], sides[slot]), prices[slot], -reduction);
        }
    }

    /**
     * Empties every book, as before a new session's snapshot (a market-data session logged in again); the capacity the
     * books grew to stays.
     */
    void clear()
    {
        slotByOrder.clear();
        for (int locate = 1; locate <= symbolCount; locate++)
        {
            bidLevels[locate].clear();
            askLevels[locate].clear();
        }
        Arrays.fill(orderCounts, 0);
        freeCount = 0;
        for (int slot = orderIds.length - 1; slot >= 0; slot--)
        {
            freeSlots[freeCount++] = slot;
        }
    }

    private void remove(final int slot)
    {
        final int locate = locates[slot];
        addShares(side(locate, sides[slot]), prices[slot], -shares[slot]);
        slotByOrder.remove(orderIds[slot]);
        orderCounts[locate]--;
        freeSlots[freeCount++] = slot;
    }

    private static void addShares(final Long2LongHashMap levels, final long price, final long delta)
    {
        final long total = levels.get(price) + delta;
        if (total > 0)
        {
            levels.put(price, total);
        }
        else
        {
            levels.remove(price);
        }
    }

    private Long2LongHashMap side(final int locate, final byte side)
    {
        return BUY == side ? bidLevels[locate] : askLevels[locate];
    }

    private void allocate(final int capacity)
    {
        final int previous = null == orderIds ? 0 : orderIds.length;
        orderIds = null == orderIds ? new long[capacity] : Arrays.copyOf(orderIds, capacity);
        locates = null == locates ? new int[capacity] : Arrays.copyOf(locates, capacity);
        sides = null == sides ? new byte[capacity] : Arrays.copyOf(sides, capacity);
        shares = null == shares ? new long[capacity] : Arrays.copyOf(shares, capacity);
        prices = null == prices ? new long[capacity] : Arrays.copyOf(prices, capacity);
        freeSlots = null == freeSlots ? new int[capacity] : Arrays.copyOf(freeSlots, capacity);
        for (int slot = capacity - 1; slot >= previous; slot--)
        {
            freeSlots[freeCount++] = slot;
        }
    }

    /**
     * One price level (L2).
     *
     * @param price  1/10000 $.
     * @param shares displayed shares at that price.
     */
    record Level(long price, long shares)
    {
    }

    /**
     * One resting order (L3).
     *
     * @param orderReferenceNumber its ITCH Order Reference Number.
     * @param side                 'B' or 'S'.
     * @param shares               displayed shares.
     * @param price                1/10000 $.
     */
    record Order(long orderReferenceNumber, char side, long shares, long price)
    {
    }
}
