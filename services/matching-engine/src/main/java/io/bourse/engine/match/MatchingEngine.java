package io.bourse.engine.match;

import org.agrona.collections.Long2ObjectHashMap;

import java.util.ArrayDeque;

/**
 * A deterministic matching engine for the symbols of one shard: limit orders (day orders for market or system hours,
 * or immediate-or-cancel) matched in price-time priority, trades at the resting order's price, partial fills across
 * price levels, cancel down to a new size keeping priority, and replace (priority kept on a size decrease at the same
 * price, lost on a price change or size increase; OUCH 4.2 §2.2-2.4 semantics). Every outcome goes to the
 * {@link MatchingEngineListener}; the book never rests crossed. No clock, no randomness, no hash-order iteration:
 * the same commands give the same events.
 *
 * <p>Order reference numbers and match numbers are {@code (count << 4) | shardId}, unique across up to 16 shards.
 * Not thread safe: one engine thread owns it.
 */
public final class MatchingEngine
{
    /** Highest accepted price: $199,999.9900 (OUCH 4.2 price field limit), in 1/10000 dollars. */
    public static final long MAX_PRICE = 1_999_999_900L;
    /** Time in force: immediate or cancel (OUCH 4.2 Enter Order, Time in Force 0). */
    public static final int TIME_IN_FORCE_IMMEDIATE_OR_CANCEL = 0;
    /** Time in force: market hours, a day order (99998). */
    public static final int TIME_IN_FORCE_MARKET_HOURS = 99_998;
    /** Time in force: system hours, a day order (99999). */
    public static final int TIME_IN_FORCE_SYSTEM_HOURS = 99_999;
    /** Default per-order size limit in shares. */
    public static final long DEFAULT_MAX_ORDER_QUANTITY = 1_000_000L;

    private static final int SHARD_BITS = 4;

    private final int shardId;
    private final long maxOrderQuantity;
    private final MatchingEngineListener listener;
    private final Long2ObjectHashMap<OrderBook> booksBySymbol = new Long2ObjectHashMap<>();
    private final Long2ObjectHashMap<Order> ordersByClientId = new Long2ObjectHashMap<>();
    private final ArrayDeque<Order> orderPool = new ArrayDeque<>();
    private final ArrayDeque<PriceLevel> levelPool = new ArrayDeque<>();
    private long orderCount;
    private long matchCount;

    /**
     * @param shardId          0..15, folded into order and match numbers.
     * @param symbols          packed symbols this shard trades.
     * @param maxOrderQuantity largest accepted order or replace size in shares.
     * @param listener         receives every outcome.
     * @throws IllegalArgumentException for a shard id outside 0..15.
     */
    public MatchingEngine(
        final int shardId, final long[] symbols, final long maxOrderQuantity, final MatchingEngineListener listener)
    {
        if (shardId < 0 || shardId >= (1 << SHARD_BITS))
        {
            throw new IllegalArgumentException("shardId must be 0..15: " + shardId);
        }
        this.shardId = shardId;
        this.maxOrderQuantity = maxOrderQuantity;
        this.listener = listener;
        for (final long symbol : symbols)
        {
            booksBySymbol.put(symbol, new OrderBook(symbol, levelPool));
        }
    }

    /**
     * @param symbol packed symbol.
     * @return its book, or null when this shard does not trade it.
     */
    public OrderBook book(final long symbol)
    {
        return booksBySymbol.get(symbol);
    }

    /** @return number of open orders across all books. */
    public int openOrderCount()
    {
        return ordersByClientId.size();
    }

    /**
     * Enters a limit order (OUCH 4.2 Enter Order). Rejected with 'S' for a symbol this shard does not trade, 'Z' for
     * a size of 0 or above the limit, 'X' for a price outside (0, {@link #MAX_PRICE}], 'O' for a client order id
     * already open or a time in force other than 0, 99998 and 99999 (timed orders are not supported yet).
     *
     * @param clientOrderId gateway's unique id.
     * @param symbol        packed symbol.
     * @param side          side.
     * @param quantity      shares.
     * @param price         limit price in 1/10000 dollars.
     * @param timeInForce   {@link #TIME_IN_FORCE_IMMEDIATE_OR_CANCEL}, {@link #TIME_IN_FORCE_MARKET_HOURS} or
     *                      {@link #TIME_IN_FORCE_SYSTEM_HOURS}.
     */
    public void newOrder(
        final long clientOrderId, final long symbol, final Side side, final long quantity, final long price,
        final int timeInForce)
    {
        final OrderBook book = booksBySymbol.get(symbol);
        final byte reject = null == book ? ReasonCodes.REJECT_INVALID_STOCK :
            isSupported(timeInForce) ? validate(quantity, price, clientOrderId, 0) : ReasonCodes.REJECT_OTHER;
        if (0 != reject)
        {
            listener.onOrderRejected(clientOrderId, symbol, reject);
            return;
        }

        final Order order = allocate();
        order.init(clientOrderId, nextOrderId(), book, side, price, quantity);
        listener.onOrderAccepted(clientOrderId, order.orderId, symbol, side, quantity, price, timeInForce);
        match(book, order);
        if (order.remaining > 0)
        {
            if (TIME_IN_FORCE_IMMEDIATE_OR_CANCEL == timeInForce)
            {
                listener.onOrderCanceled(clientOrderId, order.orderId, symbol, order.remaining, 0,
                    ReasonCodes.CANCEL_IMMEDIATE_OR_CANCEL, false);
                release(order);
            }
            else
            {
                rest(book, order);
                listener.onOrderAdded(order.orderId, symbol, side, order.remaining, price);
            }
        }
        else
        {
            release(order);
        }
    }

    /**
     * Cancels an open order down to a new size (OUCH 4.2 Cancel Order): 0 removes it, a smaller size reduces it
     * keeping time priority, a size at or above the open size does nothing. An unknown id does nothing.
     *
     * @param clientOrderId the order.
     * @param quantity      new intended size in shares.
     */
    public void cancelOrder(final long clientOrderId, final long quantity)
    {
        final Order order = ordersByClientId.get(clientOrderId);
        if (null == order || quantity >= order.remaining)
        {
            return;
        }
        final OrderBook book = order.book;
        final long canceled = order.remaining - quantity;
        if (0 == quantity)
        {
            book.side(order.side).remove(order);
            ordersByClientId.remove(clientOrderId);
            listener.onOrderCanceled(clientOrderId, order.orderId, book.symbol(), canceled, 0,
                ReasonCodes.CANCEL_USER_REQUESTED, true);
            release(order);
        }
        else
        {
            book.side(order.side).reduce(order, canceled);
            listener.onOrderCanceled(clientOrderId, order.orderId, book.symbol(), canceled, quantity,
                ReasonCodes.CANCEL_USER_REQUESTED, true);
        }
    }

    /**
     * Replaces an open order (OUCH 4.2 Replace Order). A size of 0 cancels it. Same price and a size not above the
     * open size keeps priority; otherwise the order gets a new reference number and the back of the queue at its new
     * price, matching first if the price crosses. Rejected with 'O' when the order is not open or the new id is
     * taken, 'Z' or 'X' for a bad size or price.
     *
     * @param clientOrderId    the open order.
     * @param newClientOrderId the replacement's id.
     * @param quantity         new open size in shares.
     * @param price            new limit price.
     */
    public void replaceOrder(
        final long clientOrderId, final long newClientOrderId, final long quantity, final long price)
    {
        final Order order = ordersByClientId.get(clientOrderId);
        if (null == order)
        {
            listener.onOrderRejected(newClientOrderId, 0, ReasonCodes.REJECT_OTHER);
            return;
        }
        final OrderBook book = order.book;
        if (0 == quantity)
        {
            cancelOrder(clientOrderId, 0);
            return;
        }
        final byte reject = validate(quantity, price, newClientOrderId, clientOrderId);
        if (0 != reject)
        {
            listener.onOrderRejected(newClientOrderId, book.symbol(), reject);
            return;
        }

        final BookSide bookSide = book.side(order.side);
        ordersByClientId.remove(clientOrderId);
        order.clientOrderId = newClientOrderId;
        ordersByClientId.put(newClientOrderId, order);

        if (price == order.price && quantity <= order.remaining)
        {
            bookSide.reduce(order, order.remaining - quantity);
            listener.onOrderReplaced(clientOrderId, newClientOrderId, order.orderId, order.orderId, book.symbol(),
                order.side, quantity, price, BookUpdate.PRIORITY_KEPT);
            return;
        }

        final long oldOrderId = order.orderId;
        bookSide.remove(order);
        order.orderId = nextOrderId();
        order.price = price;
        order.remaining = quantity;
        final PriceLevel opposite = book.side(order.side.opposite()).best();
        final boolean crosses = null != opposite && crosses(order.side, price, opposite.price);
        if (!crosses)
        {
            bookSide.add(order);
            listener.onOrderReplaced(clientOrderId, newClientOrderId, oldOrderId, order.orderId, book.symbol(),
                order.side, quantity, price, BookUpdate.REPLACED);
            return;
        }

        ordersByClientId.remove(newClientOrderId);
        listener.onOrderReplaced(clientOrderId, newClientOrderId, oldOrderId, order.orderId, book.symbol(),
            order.side, quantity, price, BookUpdate.REMOVED);
        match(book, order);
        if (order.remaining > 0)
        {
            rest(book, order);
            listener.onOrderAdded(order.orderId, book.symbol(), order.side, order.remaining, price);
        }
        else
        {
            release(order);
        }
    }

    private byte validate(final long quantity, final long price, final long clientOrderId, final long replacedId)
    {
        if (quantity <= 0 || quantity > maxOrderQuantity)
        {
            return ReasonCodes.REJECT_SHARES_THRESHOLD;
        }
        if (price <= 0 || price > MAX_PRICE)
        {
            return ReasonCodes.REJECT_INVALID_PRICE;
        }
        if (clientOrderId != replacedId && ordersByClientId.containsKey(clientOrderId))
        {
            return ReasonCodes.REJECT_OTHER;
        }
        return 0;
    }

    private static boolean isSupported(final int timeInForce)
    {
        return TIME_IN_FORCE_IMMEDIATE_OR_CANCEL == timeInForce || TIME_IN_FORCE_MARKET_HOURS == timeInForce ||
            TIME_IN_FORCE_SYSTEM_HOURS == timeInForce;
    }

    private static boolean crosses(final Side takerSide, final long takerPrice, final long makerPrice)
    {
        return takerSide == Side.BUY ? takerPrice >= makerPrice : takerPrice <= makerPrice;
    }

    private void match(final OrderBook book, final Order taker)
    {
        final BookSide makers = book.side(taker.side.opposite());
        PriceLevel level;
        while (taker.remaining > 0 && null != (level = makers.best()) && crosses(taker.side, taker.price, level.price))
        {
            final Order maker = level.head;
            final long price = level.price;
            final long quantity = Math.min(taker.remaining, maker.remaining);
            taker.remaining -= quantity;
            makers.reduce(maker, quantity);
            final long makerLeaves = maker.remaining;
            final long makerClientOrderId = maker.clientOrderId;
            final long makerOrderId = maker.orderId;
            if (0 == makerLeaves)
            {
                makers.remove(maker);
                ordersByClientId.remove(makerClientOrderId);
                release(maker);
            }
            listener.onOrderExecuted(nextMatchNumber(), book.symbol(), quantity, price,
                taker.clientOrderId, taker.orderId, taker.side, makerClientOrderId, makerOrderId, makerLeaves,
                taker.remaining);
        }
    }

    private void rest(final OrderBook book, final Order order)
    {
        book.side(order.side).add(order);
        ordersByClientId.put(order.clientOrderId, order);
    }

    private long nextOrderId()
    {
        return (++orderCount << SHARD_BITS) | shardId;
    }

    private long nextMatchNumber()
    {
        return (++matchCount << SHARD_BITS) | shardId;
    }

    private Order allocate()
    {
        final Order order = orderPool.pollLast();
        return null == order ? new Order() : order;
    }

    private void release(final Order order)
    {
        order.clear();
        orderPool.addLast(order);
    }
}
