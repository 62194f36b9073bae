package io.bourse.engine.match;

import org.agrona.collections.Long2ObjectHashMap;

import java.util.Objects;

/**
 * A deterministic matching engine for the symbols of one shard: limit orders (day orders for market or system hours,
 * or immediate-or-cancel, optionally with a minimum quantity: fill-or-kill when it equals the size) matched in
 * price-time priority, trades at the resting order's price, partial fills across price levels, cancel down to a new
 * size keeping priority, replace (priority kept on a size decrease at the same price, lost on a price change or size
 * increase; OUCH 4.2 §2.2-2.4 semantics), and exchange-core's MOVE ({@link #moveOrder(long, long)}: a new price that
 * always loses priority). Per symbol, a {@linkplain #tradingState(long, TradingState) trading state} and an optional
 * {@linkplain #priceBand(long, long, int) price band} gate entries; per engine, a
 * {@linkplain #selfTradePrevention(SelfTradePrevention) self-trade prevention} mode keeps a firm's orders from
 * trading with each other. Every outcome goes to the {@link MatchingEngineListener}; the book never rests crossed.
 * No clock, no randomness, no hash-order iteration: the same commands give the same events.
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
    private static final int BASIS_POINTS = 10_000;

    private final int shardId;
    private final long maxOrderQuantity;
    private final MatchingEngineListener listener;
    private final Long2ObjectHashMap<OrderBook> booksBySymbol = new Long2ObjectHashMap<>();
    private final OrderMap ordersByClientId = new OrderMap();
    private SelfTradePrevention selfTradePrevention = SelfTradePrevention.NONE;
    private Order freeOrders;
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
            booksBySymbol.put(symbol, new OrderBook(symbol));
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

    /**
     * Sets what happens when an order would trade with a resting order of its own firm, from the next command on;
     * {@link SelfTradePrevention#NONE} when the engine is built (exchange-core's replay relies on it).
     *
     * @param mode the self-trade prevention mode.
     */
    public void selfTradePrevention(final SelfTradePrevention mode)
    {
        selfTradePrevention = Objects.requireNonNull(mode, "mode");
    }

    /** @return the self-trade prevention mode. */
    public SelfTradePrevention selfTradePrevention()
    {
        return selfTradePrevention;
    }

    /** @return number of open orders across all books. */
    public int openOrderCount()
    {
        return ordersByClientId.size();
    }

    /**
     * Enters a limit order without a minimum quantity (OUCH 4.2 Enter Order, Minimum Quantity 0) or firm; see
     * {@link #newOrder(long, long, Side, long, long, int, long, int)}.
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
        newOrder(clientOrderId, symbol, side, quantity, price, timeInForce, 0);
    }

    /**
     * Enters a limit order without a firm, which never counts as a self-match; see
     * {@link #newOrder(long, long, Side, long, long, int, long, int)}.
     *
     * @param clientOrderId   gateway's unique id.
     * @param symbol          packed symbol.
     * @param side            side.
     * @param quantity        shares.
     * @param price           limit price in 1/10000 dollars.
     * @param timeInForce     {@link #TIME_IN_FORCE_IMMEDIATE_OR_CANCEL}, {@link #TIME_IN_FORCE_MARKET_HOURS} or
     *                        {@link #TIME_IN_FORCE_SYSTEM_HOURS}.
     * @param minimumQuantity shares that must execute on entry or nothing does; 0 for no minimum.
     */
    public void newOrder(
        final long clientOrderId, final long symbol, final Side side, final long quantity, final long price,
        final int timeInForce, final long minimumQuantity)
    {
        newOrder(clientOrderId, symbol, side, quantity, price, timeInForce, minimumQuantity, 0);
    }

    /**
     * Enters a limit order (OUCH 4.2 Enter Order). Rejected with 'S' for a symbol this shard does not trade, 'C' or
     * 'H' while the symbol is {@link TradingState#CLOSED} or {@link TradingState#HALTED}, 'Z' for a size of 0 or above
     * the limit, 'X' for a price outside (0, {@link #MAX_PRICE}] or outside the symbol's
     * {@linkplain #priceBand(long, long, int) price band}, 'N' for a minimum quantity that is negative, above the
     * size, or set on an order that is not immediate-or-cancel, 'O' for a client order id already open or a time in
     * force other than 0, 99998 and 99999 (timed orders are not supported yet). When an order has several faults,
     * the first in this order is reported: symbol 'S', trading state 'C' or 'H', time in force 'O', minimum quantity
     * 'N', size 'Z', price 'X', duplicate id 'O'.
     *
     * <p>A minimum quantity (OUCH 4.2 Minimum Quantity) is checked before anything trades: when the opposite side
     * holds fewer than that many shares at prices within the limit, the order trades nothing and is canceled whole
     * with reason 'I' (it is an immediate-or-cancel order that could not execute; OUCH 4.2 has no dedicated cancel
     * reason). A minimum equal to the size makes a fill-or-kill order. Bourse accepts a minimum only on
     * immediate-or-cancel orders, so that a minimum never has to be remembered on a resting order. Under
     * {@linkplain #selfTradePrevention(SelfTradePrevention) self-trade prevention} an order with a firm counts only
     * the shares that would really execute: it walks the opposite orders in priority order within its limit as
     * matching would, skipping its own firm's orders under {@link SelfTradePrevention#CANCEL_OLDEST}, stopping at
     * the first of them under {@link SelfTradePrevention#CANCEL_NEWEST} and {@link SelfTradePrevention#CANCEL_BOTH},
     * and using up its own size on them without executing under {@link SelfTradePrevention#DECREMENT}; when the
     * minimum is not reached nothing happens to any resting order.
     *
     * <p>While matching, a resting order of the same non-zero firm is handled as {@link SelfTradePrevention} says
     * for the engine's mode, with cancels reported with reason 'Q'.
     *
     * @param clientOrderId   gateway's unique id.
     * @param symbol          packed symbol.
     * @param side            side.
     * @param quantity        shares.
     * @param price           limit price in 1/10000 dollars.
     * @param timeInForce     {@link #TIME_IN_FORCE_IMMEDIATE_OR_CANCEL}, {@link #TIME_IN_FORCE_MARKET_HOURS} or
     *                        {@link #TIME_IN_FORCE_SYSTEM_HOURS}.
     * @param minimumQuantity shares that must execute on entry or nothing does; 0 for no minimum.
     * @param firm            packed 4-byte ASCII firm (OUCH 4.2 Firm) for self-trade prevention; 0 for none.
     */
    public void newOrder(
        final long clientOrderId, final long symbol, final Side side, final long quantity, final long price,
        final int timeInForce, final long minimumQuantity, final int firm)
    {
        final OrderBook book = booksBySymbol.get(symbol);
        final byte reject = null == book ? ReasonCodes.REJECT_INVALID_STOCK :
            validateNew(book, clientOrderId, quantity, price, timeInForce, minimumQuantity);
        if (0 != reject)
        {
            listener.onOrderRejected(clientOrderId, symbol, reject);
            return;
        }

        final Order order = allocate();
        order.init(clientOrderId, nextOrderId(), book, side, price, quantity, firm);
        listener.onOrderAccepted(clientOrderId, order.orderId, symbol, side, quantity, price, timeInForce);
        if (minimumQuantity > 0 && !canFill(book, order, minimumQuantity))
        {
            listener.onOrderCanceled(clientOrderId, order.orderId, symbol, quantity, 0,
                ReasonCodes.CANCEL_IMMEDIATE_OR_CANCEL, false);
            release(order);
            return;
        }
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
     * @param clientOrderId an order's gateway id.
     * @return its open (resting) shares, or 0 when it is not open.
     */
    public long openQuantity(final long clientOrderId)
    {
        final Order order = ordersByClientId.get(clientOrderId);
        return null == order ? 0 : order.remaining;
    }

    /**
     * Sets a symbol's trading state. While it is not {@link TradingState#OPEN}, new orders, replaces and moves of its
     * orders are rejected, 'C' when {@link TradingState#CLOSED} and 'H' when {@link TradingState#HALTED} (OUCH 4.2
     * Rejected reasons), before any other check but the symbol's; cancels, and replaces to a size of 0 (which are
     * cancels), still work; resting orders stay where they are, and the book does not change when the state does.
     * Every symbol is OPEN when the engine is built. A command of the sequenced input, like the order commands.
     *
     * @param symbol packed symbol.
     * @param state  the new state.
     * @return false, changing nothing, when this shard does not trade the symbol.
     */
    public boolean tradingState(final long symbol, final TradingState state)
    {
        final OrderBook book = booksBySymbol.get(symbol);
        if (null == book)
        {
            return false;
        }
        book.tradingState = Objects.requireNonNull(state, "state");
        return true;
    }

    /**
     * Sets or removes a symbol's price band: from then on a new order, replace (even one that keeps the price) or move
     * priced outside {@code [referencePrice x (1 - band), referencePrice x (1 + band)]} is rejected with 'X' (OUCH 4.2
     * Rejected: invalid price), like a price outside (0, {@link #MAX_PRICE}]. The bounds are computed once, in exact
     * integer arithmetic and rounded inwards, so that no accepted price lies outside the exact band: lowest
     * {@code ceil(referencePrice x (10000 - bandBasisPoints) / 10000)}, highest
     * {@code floor(referencePrice x (10000 + bandBasisPoints) / 10000)}, then clamped to [1, {@link #MAX_PRICE}].
     * Resting orders outside a new band stay on the book. No symbol has a band when the engine is built.
     *
     * @param symbol          packed symbol.
     * @param referencePrice  band centre in 1/10000 dollars, 1 to {@link #MAX_PRICE}; 0 removes the band.
     * @param bandBasisPoints half-width in basis points (1/10000) of the reference price, 0 to 10000; 0 with a
     *                        reference price allows that price only.
     * @return false, changing nothing, when this shard does not trade the symbol.
     * @throws IllegalArgumentException for a reference price or band outside those ranges.
     */
    public boolean priceBand(final long symbol, final long referencePrice, final int bandBasisPoints)
    {
        if (referencePrice < 0 || referencePrice > MAX_PRICE || bandBasisPoints < 0 ||
            bandBasisPoints > BASIS_POINTS)
        {
            throw new IllegalArgumentException(
                "price band out of range: referencePrice=" + referencePrice + " bandBasisPoints=" + bandBasisPoints);
        }
        final OrderBook book = booksBySymbol.get(symbol);
        if (null == book)
        {
            return false;
        }
        final boolean banded = 0 != referencePrice;
        book.referencePrice = referencePrice;
        book.bandBasisPoints = banded ? bandBasisPoints : 0;
        book.lowestPrice = !banded ? 1 :
            Math.max(1, (referencePrice * (BASIS_POINTS - bandBasisPoints) + BASIS_POINTS - 1) / BASIS_POINTS);
        book.highestPrice = !banded ? MAX_PRICE :
            Math.min(MAX_PRICE, referencePrice * (BASIS_POINTS + bandBasisPoints) / BASIS_POINTS);
        return true;
    }

    /**
     * Cancels an open order down to a new size (OUCH 4.2 Cancel Order): 0 removes it, a smaller size reduces it
     * keeping time priority, a size at or above the open size does nothing. An unknown id or a negative size (which
     * the unsigned OUCH and SBE fields cannot carry) does nothing.
     *
     * @param clientOrderId the order.
     * @param quantity      new intended size in shares.
     */
    public void cancelOrder(final long clientOrderId, final long quantity)
    {
        final Order order = quantity < 0 ? null : ordersByClientId.get(clientOrderId);
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
     * price, matching first if the price crosses. Rejected with 'O' when the order is not open, then (a size of 0
     * aside) 'C' or 'H' when its symbol is not {@link TradingState#OPEN}, 'Z' for a bad size, 'X' for a price outside
     * (0, {@link #MAX_PRICE}] or the symbol's price band, 'O' when the new id is taken; the first fault in that order
     * is reported.
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
        final byte reject = validateChange(book, quantity, price, newClientOrderId, clientOrderId);
        if (0 != reject)
        {
            listener.onOrderRejected(newClientOrderId, book.symbol(), reject);
            return;
        }

        final BookSide bookSide = book.side(order.side);
        ordersByClientId.remove(clientOrderId);
        order.clientOrderId = newClientOrderId;
        ordersByClientId.put(order);

        if (price == order.price && quantity <= order.remaining)
        {
            bookSide.reduce(order, order.remaining - quantity);
            listener.onOrderReplaced(clientOrderId, newClientOrderId, order.orderId, order.orderId, book.symbol(),
                order.side, quantity, price, BookUpdate.PRIORITY_KEPT);
            return;
        }

        reenter(order, clientOrderId, quantity, price);
    }

    /**
     * Moves an open order to a new price the way exchange-core's MOVE command does: the order keeps its client id and
     * open size but always leaves its queue, even at an unchanged price, gets a new reference number, matches first if
     * the new price crosses, and any remainder rests at the back of the new price level. Reported like a replace that
     * loses priority, with {@code clientOrderId} as both the old and the new id. OUCH 4.2 has no such message: this
     * serves the exchange-core replay and differential test. Rejected with 'O' and symbol 0 when the order is not
     * open, then 'C' or 'H' when its symbol is not {@link TradingState#OPEN}, 'X' for a price outside
     * (0, {@link #MAX_PRICE}] or the symbol's price band.
     *
     * @param clientOrderId the open order.
     * @param price         new limit price in 1/10000 dollars.
     */
    public void moveOrder(final long clientOrderId, final long price)
    {
        final Order order = ordersByClientId.get(clientOrderId);
        if (null == order)
        {
            listener.onOrderRejected(clientOrderId, 0, ReasonCodes.REJECT_OTHER);
            return;
        }
        final byte reject = validateChange(order.book, order.remaining, price, clientOrderId, clientOrderId);
        if (0 != reject)
        {
            listener.onOrderRejected(clientOrderId, order.book.symbol(), reject);
            return;
        }
        reenter(order, clientOrderId, order.remaining, price);
    }

    /**
     * Takes an open order, already registered under its new client id, off its level and enters it again with a new
     * reference number, price and size: rests it when it does not cross, otherwise matches it and rests the remainder.
     */
    private void reenter(final Order order, final long oldClientOrderId, final long quantity, final long price)
    {
        final OrderBook book = order.book;
        final BookSide bookSide = book.side(order.side);
        final long newClientOrderId = order.clientOrderId;
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
            listener.onOrderReplaced(oldClientOrderId, newClientOrderId, oldOrderId, order.orderId, book.symbol(),
                order.side, quantity, price, BookUpdate.REPLACED);
            return;
        }

        ordersByClientId.remove(newClientOrderId);
        listener.onOrderReplaced(oldClientOrderId, newClientOrderId, oldOrderId, order.orderId, book.symbol(),
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

    private byte validateNew(
        final OrderBook book, final long clientOrderId, final long quantity, final long price, final int timeInForce,
        final long minimumQuantity)
    {
        final byte stateReject = book.tradingState.rejectReason();
        return 0 != stateReject ? stateReject :
            !isSupported(timeInForce) ? ReasonCodes.REJECT_OTHER :
            !isValidMinimum(minimumQuantity, quantity, timeInForce) ? ReasonCodes.REJECT_INVALID_MINIMUM_QUANTITY :
            validate(book, quantity, price, clientOrderId, 0);
    }

    private byte validateChange(
        final OrderBook book, final long quantity, final long price, final long clientOrderId, final long replacedId)
    {
        final byte stateReject = book.tradingState.rejectReason();
        return 0 != stateReject ? stateReject : validate(book, quantity, price, clientOrderId, replacedId);
    }

    private byte validate(
        final OrderBook book, final long quantity, final long price, final long clientOrderId, final long replacedId)
    {
        if (quantity <= 0 || quantity > maxOrderQuantity)
        {
            return ReasonCodes.REJECT_SHARES_THRESHOLD;
        }
        if (price < book.lowestPrice || price > book.highestPrice)
        {
            return ReasonCodes.REJECT_INVALID_PRICE;
        }
        if (clientOrderId != replacedId && null != ordersByClientId.get(clientOrderId))
        {
            return ReasonCodes.REJECT_OTHER;
        }
        return 0;
    }

    private static boolean isValidMinimum(final long minimumQuantity, final long quantity, final int timeInForce)
    {
        return 0 == minimumQuantity ||
            (minimumQuantity > 0 && minimumQuantity <= quantity && TIME_IN_FORCE_IMMEDIATE_OR_CANCEL == timeInForce);
    }

    /** @return true when at least {@code minimum} shares of the taker would execute on entry. */
    private boolean canFill(final OrderBook book, final Order taker, final long minimum)
    {
        final Side side = taker.side;
        final BookSide makers = book.side(side.opposite());
        if (isSelfMatchPossible(taker))
        {
            return canFillPreventingSelfTrade(makers, taker, minimum);
        }
        long available = 0;
        for (PriceLevel level = makers.best(); null != level && available < minimum; level = makers.next(level))
        {
            if (!crosses(side, taker.price, level.price))
            {
                break;
            }
            available += level.totalQuantity;
        }
        return available >= minimum;
    }

    /** Walks the makers order by order as {@link #match} would under self-trade prevention, without changing them. */
    private boolean canFillPreventingSelfTrade(final BookSide makers, final Order taker, final long minimum)
    {
        long open = taker.remaining;
        long executable = 0;
        for (PriceLevel level = makers.best(); null != level && crosses(taker.side, taker.price, level.price);
            level = makers.next(level))
        {
            for (Order maker = level.head; null != maker; maker = maker.next)
            {
                if (executable >= minimum || 0 == open)
                {
                    return executable >= minimum;
                }
                final long shares = Math.min(open, maker.remaining);
                if (maker.firm != taker.firm)
                {
                    executable += shares;
                    open -= shares;
                }
                else if (SelfTradePrevention.DECREMENT == selfTradePrevention)
                {
                    open -= shares;
                }
                else if (SelfTradePrevention.CANCEL_OLDEST != selfTradePrevention)
                {
                    return executable >= minimum;
                }
            }
        }
        return executable >= minimum;
    }

    private boolean isSelfMatchPossible(final Order taker)
    {
        return 0 != taker.firm && SelfTradePrevention.NONE != selfTradePrevention;
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
            if (maker.firm == taker.firm && isSelfMatchPossible(taker))
            {
                preventSelfTrade(book, makers, taker, maker);
                continue;
            }
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

    /** Applies the engine's {@link SelfTradePrevention} mode to a taker and a maker of the same firm. */
    private void preventSelfTrade(final OrderBook book, final BookSide makers, final Order taker, final Order maker)
    {
        switch (selfTradePrevention)
        {
            case CANCEL_NEWEST -> cancelTaker(book, taker, taker.remaining);
            case CANCEL_OLDEST -> cancelMaker(book, makers, maker, maker.remaining);
            case CANCEL_BOTH ->
            {
                cancelMaker(book, makers, maker, maker.remaining);
                cancelTaker(book, taker, taker.remaining);
            }
            default ->
            {
                final long quantity = Math.min(taker.remaining, maker.remaining);
                cancelMaker(book, makers, maker, quantity);
                cancelTaker(book, taker, quantity);
            }
        }
    }

    private void cancelMaker(final OrderBook book, final BookSide makers, final Order maker, final long quantity)
    {
        final long leaves = maker.remaining - quantity;
        final long clientOrderId = maker.clientOrderId;
        final long orderId = maker.orderId;
        if (0 == leaves)
        {
            makers.remove(maker);
            ordersByClientId.remove(clientOrderId);
            release(maker);
        }
        else
        {
            makers.reduce(maker, quantity);
        }
        listener.onOrderCanceled(clientOrderId, orderId, book.symbol(), quantity, leaves,
            ReasonCodes.CANCEL_SELF_MATCH_PREVENTION, true);
    }

    private void cancelTaker(final OrderBook book, final Order taker, final long quantity)
    {
        taker.remaining -= quantity;
        listener.onOrderCanceled(taker.clientOrderId, taker.orderId, book.symbol(), quantity, taker.remaining,
            ReasonCodes.CANCEL_SELF_MATCH_PREVENTION, false);
    }

    private void rest(final OrderBook book, final Order order)
    {
        book.side(order.side).add(order);
        ordersByClientId.put(order);
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
        final Order order = freeOrders;
        if (null == order)
        {
            return new Order();
        }
        freeOrders = order.next;
        return order;
    }

    private void release(final Order order)
    {
        order.clear();
        order.next = freeOrders;
        freeOrders = order;
    }
}
