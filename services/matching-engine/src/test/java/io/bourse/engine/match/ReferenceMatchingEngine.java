package io.bourse.engine.match;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A deliberately simple model of {@link MatchingEngine}, written from its documented semantics (the Javadoc of
 * {@link MatchingEngine}, {@link MatchingEngineListener} and {@link BookUpdate}; OUCH 4.2 §2.2-2.4) so that the
 * property test can require both to emit the same events and hold the same books. Every resting order of every
 * symbol sits in one plain list; the best order is found by a linear scan under an explicit priority comparator
 * (better price first, then earlier arrival). No pooling, no price levels, no maps: slow and obviously right.
 * Prices in 1/10000 dollars, sizes in shares.
 */
final class ReferenceMatchingEngine implements OrderEntry
{
    /**
     * One resting order as a book snapshot shows it.
     *
     * @param clientOrderId gateway's id.
     * @param orderId       order reference number.
     * @param side          side.
     * @param price         limit price.
     * @param remaining     resting shares.
     */
    record BookEntry(long clientOrderId, long orderId, Side side, long price, long remaining)
    {
    }

    private static final class RestingOrder
    {
        long clientOrderId;
        long orderId;
        long symbol;
        Side side;
        long price;
        long remaining;
        long arrival;
        int firm;

        RestingOrder copy()
        {
            final RestingOrder copy = new RestingOrder();
            copy.clientOrderId = clientOrderId;
            copy.orderId = orderId;
            copy.symbol = symbol;
            copy.side = side;
            copy.price = price;
            copy.remaining = remaining;
            copy.arrival = arrival;
            copy.firm = firm;
            return copy;
        }
    }

    /** Better price first (higher bid, lower offer), then earlier arrival: price-time priority. */
    private static final Comparator<RestingOrder> PRIORITY = (a, b) ->
    {
        if (a.price != b.price)
        {
            final int byPrice = Long.compare(a.price, b.price);
            return a.side == Side.BUY ? -byPrice : byPrice;
        }
        return Long.compare(a.arrival, b.arrival);
    };

    private final int shardId;
    private final long[] symbols;
    private final long maxOrderQuantity;
    private final MatchingEngineListener listener;
    private final List<RestingOrder> book = new ArrayList<>();
    private final Map<Long, TradingState> tradingStates = new HashMap<>();
    /** Per symbol with a band: {reference price, band in basis points}. */
    private final Map<Long, long[]> priceBands = new HashMap<>();
    private SelfTradePrevention selfTradePrevention = SelfTradePrevention.NONE;
    private long orderCount;
    private long matchCount;
    private long arrivalCount;

    /**
     * @param shardId          folded into order reference numbers and match numbers as {@code (n << 4) | shardId}.
     * @param symbols          packed symbols traded.
     * @param maxOrderQuantity largest accepted size in shares.
     * @param listener         receives every outcome.
     */
    ReferenceMatchingEngine(
        final int shardId, final long[] symbols, final long maxOrderQuantity, final MatchingEngineListener listener)
    {
        this.shardId = shardId;
        this.symbols = symbols.clone();
        this.maxOrderQuantity = maxOrderQuantity;
        this.listener = listener;
    }

    /**
     * @param symbol packed symbol.
     * @param side   BUY for bids, SELL for offers.
     * @return that side's resting orders in priority order.
     */
    List<BookEntry> book(final long symbol, final Side side)
    {
        final List<RestingOrder> orders = new ArrayList<>();
        for (final RestingOrder order : book)
        {
            if (order.symbol == symbol && order.side == side)
            {
                orders.add(order);
            }
        }
        orders.sort(PRIORITY);
        final List<BookEntry> entries = new ArrayList<>();
        for (final RestingOrder order : orders)
        {
            entries.add(new BookEntry(order.clientOrderId, order.orderId, order.side, order.price, order.remaining));
        }
        return entries;
    }

    /**
     * @param clientOrderId an order's gateway id.
     * @return its resting shares, 0 when it does not rest.
     */
    long openQuantity(final long clientOrderId)
    {
        final RestingOrder order = find(clientOrderId);
        return null == order ? 0 : order.remaining;
    }

    /** @return number of resting orders. */
    int openOrderCount()
    {
        return book.size();
    }

    @Override

    public boolean tradingState(final long symbol, final TradingState state)
    {
        if (!isTraded(symbol))
        {
            return false;
        }
        tradingStates.put(symbol, state);
        return true;
    }

    @Override

    public boolean priceBand(final long symbol, final long referencePrice, final int bandBasisPoints)
    {
        if (referencePrice < 0 || referencePrice > MatchingEngine.MAX_PRICE || bandBasisPoints < 0 ||
            bandBasisPoints > 10_000)
        {
            throw new IllegalArgumentException("price band out of range");
        }
        if (!isTraded(symbol))
        {
            return false;
        }
        if (0 == referencePrice)
        {
            priceBands.remove(symbol);
        }
        else
        {
            priceBands.put(symbol, new long[]{referencePrice, bandBasisPoints});
        }
        return true;
    }

    @Override

    public void newOrder(
        final long clientOrderId, final long symbol, final Side side, final long quantity, final long price,
        final int timeInForce, final long minimumQuantity, final int firm)
    {
        final byte reject = newOrderReject(clientOrderId, symbol, quantity, price, timeInForce, minimumQuantity);
        if (0 != reject)
        {
            listener.onOrderRejected(clientOrderId, symbol, reject);
            return;
        }

        final RestingOrder order = new RestingOrder();
        order.clientOrderId = clientOrderId;
        order.orderId = nextOrderId();
        order.symbol = symbol;
        order.side = side;
        order.price = price;
        order.remaining = quantity;
        order.firm = firm;
        listener.onOrderAccepted(clientOrderId, order.orderId, symbol, side, quantity, price, timeInForce,
            Display.ANONYMOUS);

        if (minimumQuantity > 0 && executableQuantity(order) < minimumQuantity)
        {
            listener.onOrderCanceled(clientOrderId, order.orderId, symbol, quantity, 0,
                ReasonCodes.CANCEL_IMMEDIATE_OR_CANCEL, false);
            return;
        }
        trade(order, listener);
        if (0 == order.remaining)
        {
            return;
        }
        if (MatchingEngine.TIME_IN_FORCE_IMMEDIATE_OR_CANCEL == timeInForce)
        {
            listener.onOrderCanceled(clientOrderId, order.orderId, symbol, order.remaining, 0,
                ReasonCodes.CANCEL_IMMEDIATE_OR_CANCEL, false);
            return;
        }
        addToBook(order);
        listener.onOrderAdded(order.orderId, symbol, side, order.remaining, price, Display.ANONYMOUS);
    }

    @Override

    public void cancelOrder(final long clientOrderId, final long quantity)
    {
        final RestingOrder order = find(clientOrderId);
        if (null == order || quantity < 0 || quantity >= order.remaining)
        {
            return;
        }
        final long canceled = order.remaining - quantity;
        order.remaining = quantity;
        if (0 == quantity)
        {
            book.remove(order);
        }
        listener.onOrderCanceled(clientOrderId, order.orderId, order.symbol, canceled, quantity,
            ReasonCodes.CANCEL_USER_REQUESTED, true);
    }

    @Override

    public void replaceOrder(
        final long clientOrderId, final long newClientOrderId, final long quantity, final long price)
    {
        final RestingOrder order = find(clientOrderId);
        if (null == order)
        {
            listener.onOrderRejected(newClientOrderId, 0, ReasonCodes.REJECT_OTHER);
            return;
        }
        if (0 == quantity)
        {
            cancelOrder(clientOrderId, 0);
            return;
        }
        final byte reject = stateReject(order.symbol) != 0 ? stateReject(order.symbol) :
            !isValidSize(quantity) ? ReasonCodes.REJECT_SHARES_THRESHOLD :
            !isValidPrice(order.symbol, price) ? ReasonCodes.REJECT_INVALID_PRICE :
            newClientOrderId != clientOrderId && null != find(newClientOrderId) ? ReasonCodes.REJECT_OTHER : 0;
        if (0 != reject)
        {
            listener.onOrderRejected(newClientOrderId, order.symbol, reject);
            return;
        }

        order.clientOrderId = newClientOrderId;
        if (price == order.price && quantity <= order.remaining)
        {
            order.remaining = quantity;
            listener.onOrderReplaced(clientOrderId, newClientOrderId, order.orderId, order.orderId, order.symbol,
                order.side, quantity, price, BookUpdate.PRIORITY_KEPT, Display.ANONYMOUS);
            return;
        }
        enterAgain(order, clientOrderId, quantity, price);
    }

    @Override

    public void moveOrder(final long clientOrderId, final long price)
    {
        final RestingOrder order = find(clientOrderId);
        if (null == order)
        {
            listener.onOrderRejected(clientOrderId, 0, ReasonCodes.REJECT_OTHER);
            return;
        }
        final byte reject = stateReject(order.symbol) != 0 ? stateReject(order.symbol) :
            !isValidPrice(order.symbol, price) ? ReasonCodes.REJECT_INVALID_PRICE : 0;
        if (0 != reject)
        {
            listener.onOrderRejected(clientOrderId, order.symbol, reject);
            return;
        }
        enterAgain(order, clientOrderId, order.remaining, price);
    }

    /** Priority lost: the order leaves the book and comes back as a new arrival, trading first if it crosses. */
    private void enterAgain(
        final RestingOrder order, final long oldClientOrderId, final long quantity, final long price)
    {
        final long oldOrderId = order.orderId;
        book.remove(order);
        order.orderId = nextOrderId();
        order.price = price;
        order.remaining = quantity;
        final RestingOrder bestMaker = bestMaker(order);
        if (null == bestMaker || !crosses(order, bestMaker))
        {
            addToBook(order);
            listener.onOrderReplaced(oldClientOrderId, order.clientOrderId, oldOrderId, order.orderId, order.symbol,
                order.side, quantity, price, BookUpdate.REPLACED, Display.ANONYMOUS);
            return;
        }
        listener.onOrderReplaced(oldClientOrderId, order.clientOrderId, oldOrderId, order.orderId, order.symbol,
            order.side, quantity, price, BookUpdate.REMOVED, Display.ANONYMOUS);
        trade(order, listener);
        if (order.remaining > 0)
        {
            addToBook(order);
            listener.onOrderAdded(order.orderId, order.symbol, order.side, order.remaining, price, Display.ANONYMOUS);
        }
    }

    @Override

    public void selfTradePrevention(final SelfTradePrevention mode)
    {
        selfTradePrevention = mode;
    }

    /**
     * Trades the taker against the best resting order, at the resting order's price, while they cross; a resting
     * order of the taker's own (non-zero) firm is handled by {@link #preventSelfTrade} instead.
     */
    private void trade(final RestingOrder taker, final MatchingEngineListener out)
    {
        RestingOrder maker;
        while (taker.remaining > 0 && null != (maker = bestMaker(taker)) && crosses(taker, maker))
        {
            if (SelfTradePrevention.NONE != selfTradePrevention && 0 != taker.firm && taker.firm == maker.firm)
            {
                preventSelfTrade(taker, maker, out);
                continue;
            }
            final long quantity = Math.min(taker.remaining, maker.remaining);
            taker.remaining -= quantity;
            maker.remaining -= quantity;
            if (0 == maker.remaining)
            {
                book.remove(maker);
            }
            out.onOrderExecuted(nextMatchNumber(), taker.symbol, quantity, maker.price,
                taker.clientOrderId, taker.orderId, taker.side, maker.clientOrderId, maker.orderId, maker.remaining,
                taker.remaining);
        }
    }

    /** Shares each order loses, per {@link SelfTradePrevention}'s Javadoc: the maker's cut first, then the taker's. */
    private void preventSelfTrade(final RestingOrder taker, final RestingOrder maker, final MatchingEngineListener out)
    {
        final long smaller = Math.min(taker.remaining, maker.remaining);
        final long makerCut = switch (selfTradePrevention)
        {
            case CANCEL_OLDEST, CANCEL_BOTH -> maker.remaining;
            case DECREMENT -> smaller;
            default -> 0;
        };
        final long takerCut = switch (selfTradePrevention)
        {
            case CANCEL_NEWEST, CANCEL_BOTH -> taker.remaining;
            case DECREMENT -> smaller;
            default -> 0;
        };
        if (makerCut > 0)
        {
            maker.remaining -= makerCut;
            if (0 == maker.remaining)
            {
                book.remove(maker);
            }
            out.onOrderCanceled(maker.clientOrderId, maker.orderId, maker.symbol, makerCut, maker.remaining,
                ReasonCodes.CANCEL_SELF_MATCH_PREVENTION, true);
        }
        if (takerCut > 0)
        {
            taker.remaining -= takerCut;
            out.onOrderCanceled(taker.clientOrderId, taker.orderId, taker.symbol, takerCut, taker.remaining,
                ReasonCodes.CANCEL_SELF_MATCH_PREVENTION, false);
        }
    }

    /**
     * @return shares of the taker that would execute if it traded now: found by trading it for real, silently, and
     * then putting the book, the taker and the match count back as they were.
     */
    private long executableQuantity(final RestingOrder taker)
    {
        final List<RestingOrder> saved = new ArrayList<>();
        book.forEach((order) -> saved.add(order.copy()));
        final long savedRemaining = taker.remaining;
        final long savedMatchCount = matchCount;
        final EngineEventLog dryRun = new EngineEventLog();

        trade(taker, dryRun);

        book.clear();
        book.addAll(saved);
        taker.remaining = savedRemaining;
        matchCount = savedMatchCount;
        return dryRun.drain().stream().filter((event) -> event instanceof EngineEventLog.Executed)
            .mapToLong((event) -> ((EngineEventLog.Executed)event).quantity()).sum();
    }

    private RestingOrder bestMaker(final RestingOrder taker)
    {
        RestingOrder best = null;
        for (final RestingOrder order : book)
        {
            if (order.symbol == taker.symbol && order.side != taker.side &&
                (null == best || PRIORITY.compare(order, best) < 0))
            {
                best = order;
            }
        }
        return best;
    }

    private static boolean crosses(final RestingOrder taker, final RestingOrder maker)
    {
        return taker.side == Side.BUY ? taker.price >= maker.price : taker.price <= maker.price;
    }

    /**
     * The engine's Javadoc lists the reject reasons but not which wins when a command has several faults; the
     * property test found the engine's order, which this follows: symbol, trading state, time in force, minimum
     * quantity, size, price, duplicate id.
     */
    private byte newOrderReject(
        final long clientOrderId, final long symbol, final long quantity, final long price, final int timeInForce,
        final long minimumQuantity)
    {
        final boolean immediateOrCancel = MatchingEngine.TIME_IN_FORCE_IMMEDIATE_OR_CANCEL == timeInForce;
        if (!isTraded(symbol))
        {
            return ReasonCodes.REJECT_INVALID_STOCK;
        }
        if (0 != stateReject(symbol))
        {
            return stateReject(symbol);
        }
        if (!immediateOrCancel && MatchingEngine.TIME_IN_FORCE_MARKET_HOURS != timeInForce &&
            MatchingEngine.TIME_IN_FORCE_SYSTEM_HOURS != timeInForce)
        {
            return ReasonCodes.REJECT_OTHER;
        }
        if (0 != minimumQuantity && (minimumQuantity < 0 || minimumQuantity > quantity || !immediateOrCancel))
        {
            return ReasonCodes.REJECT_INVALID_MINIMUM_QUANTITY;
        }
        if (!isValidSize(quantity))
        {
            return ReasonCodes.REJECT_SHARES_THRESHOLD;
        }
        if (!isValidPrice(symbol, price))
        {
            return ReasonCodes.REJECT_INVALID_PRICE;
        }
        return null == find(clientOrderId) ? 0 : ReasonCodes.REJECT_OTHER;
    }

    private boolean isTraded(final long symbol)
    {
        for (final long traded : symbols)
        {
            if (traded == symbol)
            {
                return true;
            }
        }
        return false;
    }

    private boolean isValidSize(final long quantity)
    {
        return quantity > 0 && quantity <= maxOrderQuantity;
    }

    /** @return 'C' or 'H' while the symbol is closed or halted, 0 while it is open (the default). */
    private byte stateReject(final long symbol)
    {
        return switch (tradingStates.getOrDefault(symbol, TradingState.OPEN))
        {
            case CLOSED -> ReasonCodes.REJECT_CLOSED;
            case HALTED -> ReasonCodes.REJECT_HALTED;
            case OPEN -> 0;
        };
    }

    /** Within (0, MAX_PRICE] and, for a banded symbol, within ref x (1 +- bp/10000), compared exactly (scaled). */
    private boolean isValidPrice(final long symbol, final long price)
    {
        final long[] band = priceBands.get(symbol);
        return price > 0 && price <= MatchingEngine.MAX_PRICE && (null == band ||
            (price * 10_000 >= band[0] * (10_000 - band[1]) && price * 10_000 <= band[0] * (10_000 + band[1])));
    }

    private RestingOrder find(final long clientOrderId)
    {
        for (final RestingOrder order : book)
        {
            if (order.clientOrderId == clientOrderId)
            {
                return order;
            }
        }
        return null;
    }

    private void addToBook(final RestingOrder order)
    {
        order.arrival = ++arrivalCount;
        book.add(order);
    }

    private long nextOrderId()
    {
        return (++orderCount << 4) | shardId;
    }

    private long nextMatchNumber()
    {
        return (++matchCount << 4) | shardId;
    }
}
