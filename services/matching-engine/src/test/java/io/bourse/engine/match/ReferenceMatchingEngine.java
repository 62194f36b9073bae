package io.bourse.engine.match;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A deliberately simple model of {@link MatchingEngine}, written from its documented semantics only (the Javadoc of
 * {@link MatchingEngine}, {@link MatchingEngineListener}, {@link OrderBook#midpoint()},
 * {@link OrderBook#forEachOrder}, {@link Display}, {@link SelfTradePrevention}, {@link TradingState},
 * {@link BookUpdate} and {@link ReasonCodes}; OUCH 4.2 §2.1-2.4), so that the property test can require both to emit
 * the same events and hold the same books. Every resting order of every symbol sits in one unordered list; whatever
 * a step needs (the midpoint, the next maker, the first eligible peg, the next order to expire) is recomputed from
 * that list by a linear scan under an explicit ordering. No price levels, no queues, no pooling: slow and obviously
 * right. Prices in 1/10000 dollars, sizes in shares, time in ns since midnight.
 * <p>
 * Where the Javadoc is silent or contradicts itself, this model says which reading it takes: expiries at one instant
 * in reference number order ({@link #firstExpired()}), post-only repricing against price levels only
 * ({@link #postOnlyPrice}), a replace to a negative size rejected ({@link #replaceOrder}).
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
     * @param display       how the order shows.
     */
    record BookEntry(long clientOrderId, long orderId, Side side, long price, long remaining, Display display)
    {
    }

    private static final long NANOS_PER_SECOND = 1_000_000_000L;
    private static final long NANOS_PER_DAY = 86_400L * NANOS_PER_SECOND;
    private static final long NO_EXPIRY = Long.MAX_VALUE;
    /** A tick from $1 up ($0.01); below $1 it is $0.0001 (Display#POST_ONLY). */
    private static final long PRICE_TICK = 100;
    private static final long ONE_DOLLAR = 10_000;

    private static final class RestingOrder
    {
        long clientOrderId;
        long orderId;
        long symbol;
        Side side;
        long price;
        long remaining;
        /** Shares executed in the order/replace chain: a replace's size counts them. */
        long executed;
        Display display;
        int firm;
        int timeInForce;
        long expiryNs;
        /** Sequence of joining the book, renewed whenever the order loses priority: time priority. */
        long arrival;
        /**
         * For a peg: the price its owner last heard, its limit when it joins the book or is replaced, then each
         * priority update's.
         */
        long reported;

        boolean isPeg()
        {
            return Display.MIDPOINT_PEG == display;
        }

        RestingOrder copy()
        {
            final RestingOrder copy = new RestingOrder();
            copy.clientOrderId = clientOrderId;
            copy.orderId = orderId;
            copy.symbol = symbol;
            copy.side = side;
            copy.price = price;
            copy.remaining = remaining;
            copy.executed = executed;
            copy.display = display;
            copy.firm = firm;
            copy.timeInForce = timeInForce;
            copy.expiryNs = expiryNs;
            copy.arrival = arrival;
            copy.reported = reported;
            return copy;
        }
    }

    /** Orders at price levels: better price first (higher bid, lower offer), displayed before not, then arrival. */
    private static final Comparator<RestingOrder> LEVEL_PRIORITY =
        Comparator.comparingLong((RestingOrder order) -> Side.BUY == order.side ? -order.price : order.price)
            .thenComparing((order) -> !order.display.isDisplayed())
            .thenComparingLong((order) -> order.arrival);
    /** Midpoint pegs: time order. */
    private static final Comparator<RestingOrder> TIME_PRIORITY = Comparator.comparingLong((order) -> order.arrival);

    private final int shardId;
    private final long[] symbols;
    private final long maxOrderQuantity;
    private final MatchingEngineListener listener;
    private final List<RestingOrder> book = new ArrayList<>();
    private final Map<Long, TradingState> tradingStates = new HashMap<>();
    /** Per symbol with a band: {lowest, highest} accepted price. */
    private final Map<Long, long[]> priceBands = new HashMap<>();
    private final Map<Integer, SelfTradePrevention> firmModes = new HashMap<>();
    private SelfTradePrevention defaultMode = SelfTradePrevention.NONE;
    private long clockNs;
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
     * @return that side's resting orders as {@link OrderBook#forEachOrder} documents them: the price levels' orders
     * in priority order, then the midpoint pegs in time order.
     */
    List<BookEntry> book(final long symbol, final Side side)
    {
        final List<BookEntry> entries = new ArrayList<>();
        for (final RestingOrder order : restingOrders(symbol, side))
        {
            entries.add(new BookEntry(order.clientOrderId, order.orderId, order.side, order.price, order.remaining,
                order.display));
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

    /**
     * @return the clock: the latest timestamp given to {@link #advanceClock(long)} (a later day's on the day nearest
     * the clock), 0 before any.
     */
    long clockNs()
    {
        return clockNs;
    }

    /**
     * @param symbol a traded symbol.
     * @return its trading state.
     */
    TradingState tradingState(final long symbol)
    {
        return tradingStates.getOrDefault(symbol, TradingState.OPEN);
    }

    /**
     * @param symbol a traded symbol.
     * @return {lowest, highest} price an order may carry.
     */
    long[] priceLimits(final long symbol)
    {
        return priceBands.getOrDefault(symbol, new long[]{1, MatchingEngine.MAX_PRICE}).clone();
    }

    /**
     * @param firm a firm.
     * @return the self-trade prevention mode of its orders: NONE for firm 0, else its own or the default.
     */
    SelfTradePrevention selfTradePrevention(final int firm)
    {
        return 0 == firm ? SelfTradePrevention.NONE : firmModes.getOrDefault(firm, defaultMode);
    }

    /**
     * @param symbol a traded symbol.
     * @param side   BUY for bids, SELL for offers.
     * @return the best price of that side's displayed orders at price levels, 0 when there is none.
     */
    long bestDisplayedPrice(final long symbol, final Side side)
    {
        for (final RestingOrder order : levels(symbol, side))
        {
            if (order.display.isDisplayed())
            {
                return order.price;
            }
        }
        return 0;
    }

    /**
     * @param symbol a traded symbol.
     * @return floor of the mean of the best displayed bid and offer, 0 when either is missing.
     */
    long midpoint(final long symbol)
    {
        final long bid = bestDisplayedPrice(symbol, Side.BUY);
        final long ask = bestDisplayedPrice(symbol, Side.SELL);
        return 0 == bid || 0 == ask ? 0 : (bid + ask) / 2;
    }

    @Override
    public void advanceClock(final long timestampNs)
    {
        // More than 12 h behind: a sender counting from a later midnight, read on the day nearest the clock.
        long readNs = timestampNs;
        while (clockNs - readNs > NANOS_PER_DAY / 2)
        {
            readNs += NANOS_PER_DAY;
        }
        clockNs = Math.max(clockNs, readNs);
        RestingOrder expired;
        while (null != (expired = firstExpired()))
        {
            cancelResting(expired, ReasonCodes.CANCEL_TIMEOUT);
            sweep();
        }
    }

    @Override
    public void newOrder(
        final long clientOrderId, final long symbol, final Side side, final long quantity, final long price,
        final int timeInForce, final long minimumQuantity, final int firm, final Display display)
    {
        final byte reject =
            newOrderReject(clientOrderId, symbol, side, quantity, price, timeInForce, minimumQuantity, display);
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
        order.price = Display.POST_ONLY == display ? postOnlyPrice(symbol, side, price) : price;
        order.remaining = quantity;
        order.display = display;
        order.firm = firm;
        order.timeInForce = timeInForce;
        order.expiryNs = isTimed(timeInForce) ? clockNs + timeInForce * NANOS_PER_SECOND : NO_EXPIRY;
        listener.onOrderAccepted(clientOrderId, order.orderId, symbol, side, quantity, order.price, timeInForce,
            display);

        final long mid = midpoint(symbol);
        if (Display.POST_ONLY == display)
        {
            rest(order);
        }
        else if (minimumQuantity > 0 && executableQuantity(order, mid) < minimumQuantity)
        {
            listener.onOrderCanceled(clientOrderId, order.orderId, symbol, quantity, 0,
                ReasonCodes.CANCEL_IMMEDIATE_OR_CANCEL, false);
        }
        else
        {
            trade(order, mid, listener);
            if (order.remaining > 0 && MatchingEngine.TIME_IN_FORCE_IMMEDIATE_OR_CANCEL == timeInForce)
            {
                listener.onOrderCanceled(clientOrderId, order.orderId, symbol, order.remaining, 0,
                    ReasonCodes.CANCEL_IMMEDIATE_OR_CANCEL, false);
            }
            else if (order.remaining > 0)
            {
                rest(order);
            }
        }
        sweep();
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
        sweep();
    }

    /**
     * The size is the total the order may execute (OUCH 4.2 Replace Order Shares): the replacement's open size is the
     * size less what the order/replace chain executed. A size of 0 cancels; a size from 1 to the executed shares
     * cancels the open shares and rejects the replacement 'O'; any other replace loses priority (OUCH 4.2: a replace
     * always gives a new timestamp) and must pass the state, time in force, display, size (the requested total) and
     * price checks of an entry. A negative size is not a size the order
     * can keep, so it is rejected like any bad size ('Z').
     */
    @Override
    public void replaceOrder(
        final long clientOrderId, final long newClientOrderId, final long quantity, final long price,
        final int timeInForce)
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
        if (quantity > 0 && quantity <= order.executed)
        {
            cancelOrder(clientOrderId, 0);
            listener.onOrderRejected(newClientOrderId, order.symbol, ReasonCodes.REJECT_OTHER);
            return;
        }
        final long open = quantity - order.executed;
        final int newTimeInForce = MatchingEngine.TIME_IN_FORCE_UNCHANGED == timeInForce ? order.timeInForce :
            timeInForce;
        book.remove(order);
        final long newPrice = Display.POST_ONLY == order.display ? postOnlyPrice(order.symbol, order.side, price) :
            price;
        byte reject = changeReject(order, price, newPrice, quantity, newTimeInForce);
        if (0 == reject && newClientOrderId != clientOrderId && null != find(newClientOrderId))
        {
            reject = ReasonCodes.REJECT_OTHER;
        }
        if (0 != reject)
        {
            book.add(order);
            listener.onOrderRejected(newClientOrderId, order.symbol, reject);
            return;
        }

        order.clientOrderId = newClientOrderId;
        enterAgain(order, clientOrderId, open, newPrice, newTimeInForce);
    }

    @Override
    public long executedQuantity(final long clientOrderId)
    {
        final RestingOrder order = find(clientOrderId);
        return null == order ? 0 : order.executed;
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
        book.remove(order);
        final long newPrice = Display.POST_ONLY == order.display ? postOnlyPrice(order.symbol, order.side, price) :
            price;
        final byte reject = changeReject(order, price, newPrice, order.remaining, order.timeInForce);
        if (0 != reject)
        {
            book.add(order);
            listener.onOrderRejected(clientOrderId, order.symbol, reject);
            return;
        }
        enterAgain(order, clientOrderId, order.remaining, newPrice, order.timeInForce);
    }

    /**
     * Priority lost: the order, already off the book, comes back under a new reference number at the back of its new
     * price (a post-only order already repriced), trading first if it would execute. Another time in force is taken
     * as at entry, at the clock: a new expiry, or none; immediate-or-cancel never rests, its rest is canceled 'I'.
     */
    private void enterAgain(
        final RestingOrder order, final long oldClientOrderId, final long quantity, final long price,
        final int timeInForce)
    {
        final long oldOrderId = order.orderId;
        order.orderId = nextOrderId();
        order.price = price;
        order.remaining = quantity;
        if (timeInForce != order.timeInForce)
        {
            order.timeInForce = timeInForce;
            order.expiryNs = isTimed(timeInForce) ? clockNs + timeInForce * NANOS_PER_SECOND : NO_EXPIRY;
        }
        final boolean immediateOrCancel = MatchingEngine.TIME_IN_FORCE_IMMEDIATE_OR_CANCEL == timeInForce;
        final long mid = midpoint(order.symbol);
        if (immediateOrCancel)
        {
            listener.onOrderReplaced(oldClientOrderId, order.clientOrderId, oldOrderId, order.orderId, order.symbol,
                order.side, quantity, price, BookUpdate.REMOVED, order.display);
            trade(order, mid, listener);
            if (order.remaining > 0)
            {
                listener.onOrderCanceled(order.clientOrderId, order.orderId, order.symbol, order.remaining, 0,
                    ReasonCodes.CANCEL_IMMEDIATE_OR_CANCEL, false);
            }
        }
        else if (Display.POST_ONLY == order.display || null == nextMaker(order, mid))
        {
            order.arrival = ++arrivalCount;
            order.reported = price;
            book.add(order);
            listener.onOrderReplaced(oldClientOrderId, order.clientOrderId, oldOrderId, order.orderId, order.symbol,
                order.side, quantity, price, BookUpdate.REPLACED, order.display);
        }
        else
        {
            listener.onOrderReplaced(oldClientOrderId, order.clientOrderId, oldOrderId, order.orderId, order.symbol,
                order.side, quantity, price, BookUpdate.REMOVED, order.display);
            trade(order, mid, listener);
            if (order.remaining > 0)
            {
                rest(order);
            }
        }
        sweep();
    }

    @Override
    public boolean tradingState(final long symbol, final TradingState state)
    {
        if (!isTraded(symbol))
        {
            return false;
        }
        final TradingState previous = tradingState(symbol);
        tradingStates.put(symbol, state);
        if (previous != state)
        {
            listener.onTradingStateChanged(symbol, state);
        }
        if (TradingState.CLOSED == state && TradingState.CLOSED != previous)
        {
            final List<RestingOrder> closing = new ArrayList<>();
            closing.addAll(levels(symbol, Side.BUY));
            closing.addAll(levels(symbol, Side.SELL));
            closing.addAll(pegs(symbol, Side.BUY));
            closing.addAll(pegs(symbol, Side.SELL));
            for (final RestingOrder order : closing)
            {
                if (MatchingEngine.TIME_IN_FORCE_MARKET_HOURS == order.timeInForce)
                {
                    cancelResting(order, ReasonCodes.CANCEL_CLOSED);
                }
            }
        }
        sweep();
        return true;
    }

    /** Bounds rounded inwards: ceil(ref x (10000 - bp) / 10000) and floor(ref x (10000 + bp) / 10000), in [1, max]. */
    @Override
    public boolean priceBand(final long symbol, final long referencePrice, final int bandBasisPoints)
    {
        if (!isTraded(symbol) || referencePrice < 0 || referencePrice > MatchingEngine.MAX_PRICE ||
            bandBasisPoints < 0 || bandBasisPoints > 10_000)
        {
            return false;
        }
        if (0 == referencePrice)
        {
            priceBands.remove(symbol);
        }
        else
        {
            final long lowest = (referencePrice * (10_000 - bandBasisPoints) + 9_999) / 10_000;
            final long highest = referencePrice * (10_000 + bandBasisPoints) / 10_000;
            priceBands.put(symbol, new long[]{Math.max(1, lowest), Math.min(MatchingEngine.MAX_PRICE, highest)});
        }
        return true;
    }

    @Override
    public void selfTradePrevention(final SelfTradePrevention mode)
    {
        defaultMode = mode;
    }

    @Override
    public void selfTradePrevention(final int firm, final SelfTradePrevention mode)
    {
        if (0 == firm)
        {
            throw new IllegalArgumentException("firm 0 never self-matches");
        }
        if (null == mode)
        {
            firmModes.remove(firm);
        }
        else
        {
            firmModes.put(firm, mode);
        }
    }

    /**
     * Trades the taker, with the midpoint fixed for the whole walk, against the next maker while there is one; a
     * maker of the taker's own firm is handled by {@link #preventSelfTrade} instead. A resting taker (a peg in a
     * sweep) leaves the book when nothing of it is left.
     */
    private void trade(final RestingOrder taker, final long mid, final MatchingEngineListener out)
    {
        RestingOrder maker;
        while (taker.remaining > 0 && null != (maker = nextMaker(taker, mid)))
        {
            final SelfTradePrevention mode = selfTradePrevention(taker.firm);
            if (SelfTradePrevention.NONE != mode && taker.firm == maker.firm)
            {
                preventSelfTrade(mode, taker, maker, out);
                continue;
            }
            final long quantity = Math.min(taker.remaining, maker.remaining);
            taker.remaining -= quantity;
            maker.remaining -= quantity;
            taker.executed += quantity;
            maker.executed += quantity;
            if (0 == maker.remaining)
            {
                book.remove(maker);
            }
            out.onOrderExecuted(nextMatchNumber(), taker.symbol, quantity, makerPrice(maker, mid),
                taker.clientOrderId, taker.orderId, taker.side, maker.clientOrderId, maker.orderId, maker.remaining,
                taker.remaining);
        }
        if (0 == taker.remaining)
        {
            book.remove(taker);
        }
    }

    /**
     * Shares each order loses, per {@link SelfTradePrevention}'s Javadoc: the maker's cut first, then the taker's;
     * each reported as resting when the order is on the book.
     */
    private void preventSelfTrade(
        final SelfTradePrevention mode, final RestingOrder taker, final RestingOrder maker,
        final MatchingEngineListener out)
    {
        final long smaller = Math.min(taker.remaining, maker.remaining);
        final long makerCut = switch (mode)
        {
            case CANCEL_OLDEST, CANCEL_BOTH -> maker.remaining;
            case DECREMENT -> smaller;
            default -> 0;
        };
        final long takerCut = switch (mode)
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
                ReasonCodes.CANCEL_SELF_MATCH_PREVENTION, book.contains(taker));
        }
    }

    /**
     * @return shares of the taker that would execute if it traded now: found by trading it for real, silently, and
     * then putting the book, the taker and the match count back as they were.
     */
    private long executableQuantity(final RestingOrder taker, final long mid)
    {
        final List<RestingOrder> saved = new ArrayList<>();
        book.forEach((order) -> saved.add(order.copy()));
        final long savedRemaining = taker.remaining;
        final long savedMatchCount = matchCount;
        final EngineEventLog dryRun = new EngineEventLog();

        trade(taker, mid, dryRun);

        book.clear();
        book.addAll(saved);
        taker.remaining = savedRemaining;
        matchCount = savedMatchCount;
        return dryRun.drain().stream().filter((event) -> event instanceof EngineEventLog.Executed)
            .mapToLong((event) -> ((EngineEventLog.Executed)event).quantity()).sum();
    }

    /**
     * The peg sweep, on every open symbol: while the first eligible peg of a side crosses the other side at the
     * midpoint, it trades as a taker; when both sides' do, the later entered (higher reference number) one. Then, in
     * any trading state, the order priority updates of every symbol ({@link #updateWorkingPrices(long)}).
     */
    private void sweep()
    {
        for (final long symbol : symbols)
        {
            while (TradingState.OPEN == tradingState(symbol))
            {
                final long mid = midpoint(symbol);
                final RestingOrder buy = crossingPeg(symbol, Side.BUY, mid);
                final RestingOrder sell = crossingPeg(symbol, Side.SELL, mid);
                final RestingOrder taker = null == buy ? sell : null == sell ? buy :
                    buy.orderId > sell.orderId ? buy : sell;
                if (null == taker)
                {
                    break;
                }
                trade(taker, mid, listener);
            }
            updateWorkingPrices(symbol);
        }
    }

    /**
     * Order priority updates, re-derived from scratch: every resting peg of the symbol, bids then offers, each side in
     * time order, whose working price (the midpoint while it is eligible) or else its limit is not the price its owner
     * last heard. The engine remembers the midpoint and walks its pegs only when it moved; this model has no memory
     * but each peg's last reported price, and looks at every peg every time.
     */
    private void updateWorkingPrices(final long symbol)
    {
        final long mid = midpoint(symbol);
        for (final Side side : List.of(Side.BUY, Side.SELL))
        {
            for (final RestingOrder peg : pegs(symbol, side))
            {
                final long price = isEligible(peg, mid) ? mid : peg.price;
                if (price != peg.reported)
                {
                    peg.reported = price;
                    listener.onOrderPriorityUpdated(
                        peg.clientOrderId, peg.orderId, symbol, side, price, Display.MIDPOINT_PEG);
                }
            }
        }
    }

    /** @return the side's first eligible peg in time order when it would execute at the midpoint, else null. */
    private RestingOrder crossingPeg(final long symbol, final Side side, final long mid)
    {
        for (final RestingOrder peg : pegs(symbol, side))
        {
            if (isEligible(peg, mid))
            {
                return null == nextMaker(peg, mid) ? null : peg;
            }
        }
        return null;
    }

    /**
     * The maker the taker meets next: among the opposite orders at a price the taker accepts (a level's price, or
     * the midpoint for an eligible peg), the best price for the taker, at one price levels before pegs, displayed
     * before non-displayed, then time. A peg taker trades only while eligible, as a limit at the midpoint.
     *
     * @return the maker, or null when nothing crosses.
     */
    private RestingOrder nextMaker(final RestingOrder taker, final long mid)
    {
        if (taker.isPeg() && !isEligible(taker, mid))
        {
            return null;
        }
        final long limit = taker.isPeg() ? mid : taker.price;
        final List<RestingOrder> makers = new ArrayList<>();
        for (final RestingOrder order : book)
        {
            if (order.symbol == taker.symbol && order.side != taker.side &&
                (!order.isPeg() || isEligible(order, mid)) && crosses(taker.side, limit, makerPrice(order, mid)))
            {
                makers.add(order);
            }
        }
        final Comparator<RestingOrder> matchingOrder =
            Comparator.comparingLong((RestingOrder order) -> Side.BUY == taker.side ? makerPrice(order, mid) :
                -makerPrice(order, mid))
                .thenComparing(RestingOrder::isPeg)
                .thenComparing((order) -> !order.display.isDisplayed())
                .thenComparingLong((order) -> order.arrival);
        return makers.stream().min(matchingOrder).orElse(null);
    }

    /**
     * Display#POST_ONLY: one tick less aggressive than the best opposite price level (of any display) when the order
     * would execute against it, or its own price. The Display Javadoc counts eligible midpoint pegs too ("one tick
     * below the lowest price it would execute at"), which contradicts the engine and the wording ("the best
     * opposite level"); reported, and modelled as the engine does until the two agree: without a midpoint (0), no
     * peg is eligible.
     */
    private long postOnlyPrice(final long symbol, final Side side, final long price)
    {
        final RestingOrder probe = new RestingOrder();
        probe.symbol = symbol;
        probe.side = side;
        probe.price = price;
        probe.display = Display.POST_ONLY;
        final RestingOrder maker = nextMaker(probe, 0);
        if (null == maker)
        {
            return price;
        }
        if (Side.BUY == side)
        {
            final long centBelow = maker.price - PRICE_TICK; // the landing price picks the tick
            return centBelow >= ONE_DOLLAR ? centBelow : maker.price - 1;
        }
        return maker.price + (maker.price >= ONE_DOLLAR ? PRICE_TICK : 1);
    }

    private static long makerPrice(final RestingOrder maker, final long mid)
    {
        return maker.isPeg() ? mid : maker.price;
    }

    private static boolean isEligible(final RestingOrder peg, final long mid)
    {
        return 0 != mid && (Side.BUY == peg.side ? mid <= peg.price : mid >= peg.price);
    }

    private static boolean crosses(final Side takerSide, final long takerPrice, final long makerPrice)
    {
        return Side.BUY == takerSide ? takerPrice >= makerPrice : takerPrice <= makerPrice;
    }

    /**
     * @return the order to expire next: earliest expiry at or before the clock, then entry order; else null. A replace
     * or move that loses priority keeps the expiry but is a new entry, under its new reference number, so "entry
     * order" is reference number order (the Javadoc does not say; this is what the engine does).
     */
    private RestingOrder firstExpired()
    {
        RestingOrder first = null;
        for (final RestingOrder order : book)
        {
            if (order.expiryNs <= clockNs && (null == first || order.expiryNs < first.expiryNs ||
                (order.expiryNs == first.expiryNs && order.orderId < first.orderId)))
            {
                first = order;
            }
        }
        return first;
    }

    /** The documented reject order of an entry: S, C/H, O, D, N, Z, X (post-only: also after repricing), O. */
    private byte newOrderReject(
        final long clientOrderId, final long symbol, final Side side, final long quantity, final long price,
        final int timeInForce, final long minimumQuantity, final Display display)
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
        if (timeInForce < 0 || timeInForce > MatchingEngine.TIME_IN_FORCE_SYSTEM_HOURS)
        {
            return ReasonCodes.REJECT_OTHER;
        }
        if (null == display || (Display.POST_ONLY == display && immediateOrCancel))
        {
            return ReasonCodes.REJECT_INVALID_DISPLAY_TYPE;
        }
        if (0 != minimumQuantity && (minimumQuantity < 0 || minimumQuantity > quantity || !immediateOrCancel))
        {
            return ReasonCodes.REJECT_INVALID_MINIMUM_QUANTITY;
        }
        if (!isValidSize(quantity))
        {
            return ReasonCodes.REJECT_SHARES_THRESHOLD;
        }
        if (!isValidPrice(symbol, price) ||
            (Display.POST_ONLY == display && !isValidPrice(symbol, postOnlyPrice(symbol, side, price))))
        {
            return ReasonCodes.REJECT_INVALID_PRICE;
        }
        return null == find(clientOrderId) ? 0 : ReasonCodes.REJECT_OTHER;
    }

    /**
     * The checks of a replace or move that loses priority: C/H, O (time in force), D (post-only made
     * immediate-or-cancel), Z, X (post-only: also after repricing).
     */
    private byte changeReject(
        final RestingOrder order, final long price, final long newPrice, final long quantity, final int timeInForce)
    {
        if (0 != stateReject(order.symbol))
        {
            return stateReject(order.symbol);
        }
        if (timeInForce < 0 || timeInForce > MatchingEngine.TIME_IN_FORCE_SYSTEM_HOURS)
        {
            return ReasonCodes.REJECT_OTHER;
        }
        if (Display.POST_ONLY == order.display && MatchingEngine.TIME_IN_FORCE_IMMEDIATE_OR_CANCEL == timeInForce)
        {
            return ReasonCodes.REJECT_INVALID_DISPLAY_TYPE;
        }
        if (!isValidSize(quantity))
        {
            return ReasonCodes.REJECT_SHARES_THRESHOLD;
        }
        return isValidPrice(order.symbol, price) && isValidPrice(order.symbol, newPrice) ? 0 :
            ReasonCodes.REJECT_INVALID_PRICE;
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

    private boolean isValidPrice(final long symbol, final long price)
    {
        final long[] limits = priceLimits(symbol);
        return price >= limits[0] && price <= limits[1];
    }

    private static boolean isTimed(final int timeInForce)
    {
        return timeInForce >= 1 && timeInForce <= MatchingEngine.TIME_IN_FORCE_MAX_SECONDS;
    }

    /** @return 'C' or 'H' while the symbol is closed or halted, 0 while it is open. */
    private byte stateReject(final long symbol)
    {
        return switch (tradingState(symbol))
        {
            case CLOSED -> ReasonCodes.REJECT_CLOSED;
            case HALTED -> ReasonCodes.REJECT_HALTED;
            case OPEN -> 0;
        };
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

    /** @return the side's orders at price levels in priority order, then its pegs in time order. */
    private List<RestingOrder> restingOrders(final long symbol, final Side side)
    {
        final List<RestingOrder> orders = levels(symbol, side);
        orders.addAll(pegs(symbol, side));
        return orders;
    }

    private List<RestingOrder> levels(final long symbol, final Side side)
    {
        return select(symbol, side, false, LEVEL_PRIORITY);
    }

    private List<RestingOrder> pegs(final long symbol, final Side side)
    {
        return select(symbol, side, true, TIME_PRIORITY);
    }

    private List<RestingOrder> select(
        final long symbol, final Side side, final boolean pegs, final Comparator<RestingOrder> priority)
    {
        final List<RestingOrder> orders = new ArrayList<>();
        for (final RestingOrder order : book)
        {
            if (order.symbol == symbol && order.side == side && order.isPeg() == pegs)
            {
                orders.add(order);
            }
        }
        orders.sort(priority);
        return orders;
    }

    private void rest(final RestingOrder order)
    {
        order.arrival = ++arrivalCount;
        order.reported = order.price;
        book.add(order);
        listener.onOrderAdded(
            order.orderId, order.symbol, order.side, order.remaining, order.price, order.display, order.firm);
    }

    private void cancelResting(final RestingOrder order, final byte reason)
    {
        book.remove(order);
        listener.onOrderCanceled(order.clientOrderId, order.orderId, order.symbol, order.remaining, 0, reason, true);
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
