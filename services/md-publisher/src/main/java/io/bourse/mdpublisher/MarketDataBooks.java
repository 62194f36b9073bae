package io.bourse.mdpublisher;

import com.paritytrading.juncture.nasdaq.itch50.ITCH50;
import io.bourse.common.config.Symbols;
import io.bourse.common.metrics.ErrorKinds;
import io.bourse.itch.ItchReferenceData;
import org.agrona.collections.Long2LongHashMap;
import org.agrona.collections.Long2ObjectHashMap;
import org.agrona.collections.LongArrayList;

import java.util.ArrayDeque;
import java.util.function.Consumer;

/**
 * Order-by-order (L3) and price-level (L2) books of every symbol, kept from the engine events, and the market data
 * each event implies, in this order: the L3 message (ITCH 5.0 semantics), the trade for an execution, one
 * PriceLevelUpdate per level touched (at a limited L2 depth, per level that left, entered or changed in the side's
 * window), then a BestBidOffer when the best bid or offer changed.
 *
 * <p>Orders that are not displayed (OUCH 4.2 Display N non-displayed and M midpoint peg) never appear: no Add Order,
 * no level, no BBO. Only their reference numbers (and symbols) are kept, so that their later events are told apart
 * from errors: an execution against one prints a Trade alone, marked as having a maker that is not displayed (ITCH
 * 5.0 §4.5.1 Trade, non-cross: an execution of a non-displayable order), and its cancels and replaces publish nothing.
 * An order keeps its display for life, replaces included. The Trade of a displayed maker is marked displayed: Order
 * Executed has already carried that execution.
 *
 * <p>A shard's new run that recovered no earlier run holds none of their orders: they are deleted from each book of
 * the shard ({@link #onEarlierRunsLost}).
 *
 * <p>The closing cross: closing-cross orders are in no book here (the engine adds none of them; their cancels are not
 * resting and their replaces never reach this class). A cross execution looks only at its maker, since the other side
 * is always a closing-cross order: a displayed maker gets Order Executed With Price, not printable, at the cross price
 * (ITCH 5.0 §4.4.2; the cross's volume is counted once, by the Cross Trade), then its level and the BBO as for any
 * execution, and no trade; a maker that is not displayed only leaves the hidden orders when it fills; a maker that is
 * neither is a closing-cross order, and nothing is published. The end of the cross publishes Cross Trade (ITCH 5.0
 * §4.5.2) with its price, shares and match number, also when nothing executed (all 0): NASDAQ publishes the result of
 * every cross, and a subscriber learns that the cross ran.
 *
 * <p>Order reference numbers are unique per day across shards, so one map holds the orders of every symbol. Orders
 * and levels are pooled: the steady state allocates nothing. An event that does not fit the book (an unknown symbol
 * or order, sizes out of step with the engine, as after joining the event streams late) is counted as an error and
 * the book follows the engine's numbers; an execution against an unknown order is still printed as a trade, marked
 * as not displayed since no Order Executed carries it.
 * Not thread safe: the publisher thread owns it.
 *
 * <p>Each symbol's book also counts the trades it printed (every Trade, and every Cross Trade that executed shares)
 * and keeps its depth and spread, which {@link BookMetrics} exports.
 */
public final class MarketDataBooks implements EngineEventListener, BookSpin
{
    /** ITCH 5.0 Stock Trading Action Reason "O1": Operations Halt, contact Market Operations (packed big-endian). */
    static final int REASON_OPERATIONS_HALT = ('O' << 24) | ('1' << 16) | (' ' << 8) | ' ';

    /** {@link #hiddenOrders}' value of an order that is not among them: no symbol of a book packs to 0. */
    private static final long NOT_HIDDEN = 0;

    /** L2 depth meaning every price level. */
    public static final int FULL_DEPTH = 0;

    private final MarketDataListener publisher;
    /** Where the market data goes: the {@link #publisher}, or nowhere while the books are rebuilt. */
    private MarketDataListener listener;
    /** Events change the books without publishing ({@link #rebuilding}): a book they add to is marked unpublished. */
    private boolean rebuilding;
    private final ErrorKinds<MdPublisherError> errors;
    private final Long2ObjectHashMap<SymbolBook> books = new Long2ObjectHashMap<>();
    private final SymbolBook[] booksInOrder;
    private final Long2ObjectHashMap<BookOrder> orders = new Long2ObjectHashMap<>();
    /** The resting orders that are not displayed, by reference number: their packed symbols. */
    private final Long2LongHashMap hiddenOrders = new Long2LongHashMap(NOT_HIDDEN);
    /** The price levels of a side whose earlier runs' orders are deleted, reused ({@link #onEarlierRunsLost}). */
    private final LongArrayList clearedPrices = new LongArrayList();
    private final ArrayDeque<BookOrder> orderPool = new ArrayDeque<>();
    private final ArrayDeque<PriceLevel> levelPool = new ArrayDeque<>();

    /**
     * @param symbols    packed symbols to keep books for; events of other symbols are counted as errors.
     * @param l2Depth    most price levels per side on the L2 feed (PriceLevelUpdate), from the best; a level that
     *                   leaves that window is published with quantity 0 and one that enters it with its aggregate
     *                   ({@link PublishedLevels}); {@link #FULL_DEPTH} for every level.
     * @param listener   receives the market data.
     * @param errors     counts every event that does not fit the books.
     * @throws IllegalArgumentException when the depth is negative, or a symbol packs to 0.
     */
    public MarketDataBooks(
        final long[] symbols, final int l2Depth, final MarketDataListener listener,
        final ErrorKinds<MdPublisherError> errors)
    {
        if (l2Depth < 0)
        {
            throw new IllegalArgumentException("L2 depth must be " + FULL_DEPTH + " (every level) or positive: " +
                l2Depth);
        }
        for (final long symbol : symbols)
        {
            if (NOT_HIDDEN == symbol)
            {
                throw new IllegalArgumentException("a symbol packed as 0 (8 NUL bytes) is no symbol");
            }
        }
        this.publisher = listener;
        this.listener = listener;
        this.errors = errors;
        booksInOrder = new SymbolBook[symbols.length];
        for (int i = 0; i < symbols.length; i++)
        {
            booksInOrder[i] = new SymbolBook(symbols[i], levelPool, l2Depth);
            books.put(symbols[i], booksInOrder[i]);
        }
    }

    /**
     * Switches publishing off while the books are rebuilt from events the md-publisher did not hear live (replayed from
     * the event archive), and on again: the events change the books, the L2 windows and the BBOs as always, and their
     * market data goes nowhere ({@link DiscardedMarketData}).
     *
     * @param rebuilding true to take events without publishing, false to publish again.
     */
    void rebuilding(final boolean rebuilding)
    {
        this.rebuilding = rebuilding;
        listener = rebuilding ? DiscardedMarketData.INSTANCE : publisher;
    }

    /**
     * Publishes the books of the symbols as they stand, as increments, for subscribers whose books of them are empty:
     * the books rebuilt from events that were not published ({@link #rebuilding}). Per symbol with a book, in the
     * order given: Stock Trading Action when an operator changed its trading state (with that change's timestamp);
     * one Add Order per displayed order, with the timestamp of its time priority, bids from the best price then
     * offers, each level oldest first; one PriceLevelUpdate per level of the L2 feed (each side's best levels at a
     * limited depth, as the feed's window holds them); the BBO when a side has one.
     *
     * @param symbols     packed symbols; one without a book is skipped.
     * @param timestampNs of the levels and the BBO: now, ns since midnight.
     * @return Add Orders published.
     */
    int publishBooks(final long[] symbols, final long timestampNs)
    {
        int added = 0;
        for (final long symbol : symbols)
        {
            final SymbolBook book = books.get(symbol);
            if (null == book)
            {
                continue;
            }
            book.unpublished = false;
            if (0 != book.tradingStateTimestampNs)
            {
                listener.onStockTradingAction(
                    book.tradingStateTimestampNs, symbol, book.tradingState, book.tradingReason);
            }
            added += publishOrders(book.bids);
            added += publishOrders(book.asks);
            publishLevels(timestampNs, book, Side.BUY);
            publishLevels(timestampNs, book, Side.SELL);
            if (0 != book.bidQuantity || 0 != book.askQuantity)
            {
                listener.onBestBidOffer(
                    timestampNs, symbol, book.bidPrice, book.bidQuantity, book.askPrice, book.askQuantity);
            }
        }
        return added;
    }

    /**
     * Midnight UTC has started a new trading day: every displayed resting order and every trading state an operator set
     * is stamped with that midnight, so that the snapshots of the new day ({@link SnapshotPublisher}) and books
     * published after a rebuild carry no Timestamp of an earlier day (ITCH 5.0 Timestamps are nanoseconds since the
     * day's midnight, which a subscriber's snapshot gives as the orders' Add Orders: without this, an order resting
     * since 23:59:59.5 came as an Add Order of 23:59:59.5 after the new day's System Events of its morning). The
     * orders keep their time priority. Once a day, on the publisher's thread: a walk of every book.
     *
     * @param midnightNs the midnight that started the day, ns since the midnight the clock counts from: a whole
     *                   number of days, never 0 (the clock's first day has no midnight of its own), whose time of day
     *                   ({@link io.bourse.common.time.MidnightNanoClock#timeOfDay}) is 0.
     */
    void startDay(final long midnightNs)
    {
        for (final SymbolBook book : booksInOrder)
        {
            forEachOrder(book.bids, (order) -> order.timestampNs = midnightNs);
            forEachOrder(book.asks, (order) -> order.timestampNs = midnightNs);
            if (0 != book.tradingStateTimestampNs)
            {
                book.tradingStateTimestampNs = midnightNs; // 0 would mean no state was ever set
            }
        }
    }

    /**
     * @param symbols packed symbols, e.g. an engine shard's.
     * @return whether a book of them holds events taken while rebuilding that {@link #publishBooks} has not published
     * yet ({@link SymbolBook#unpublished}).
     */
    boolean holdsUnpublished(final long[] symbols)
    {
        for (final long symbol : symbols)
        {
            final SymbolBook book = books.get(symbol);
            if (null != book && book.unpublished)
            {
                return true;
            }
        }
        return false;
    }

    private int publishOrders(final BookLevels levels)
    {
        return forEachOrder(levels, (order) -> listener.onAddOrder(order.timestampNs, order.book.symbol, order.orderId,
            order.side, order.openShares, order.price, order.attribution));
    }

    /**
     * Gives each order of a side in priority order: best price level first, each level oldest first.
     *
     * @return the orders given.
     */
    private static int forEachOrder(final BookLevels levels, final Consumer<BookOrder> action)
    {
        int count = 0;
        for (int i = 0; i < levels.levelCount(); i++)
        {
            for (BookOrder order = levels.level(i).first; null != order; order = order.next)
            {
                action.accept(order);
                count++;
            }
        }
        return count;
    }

    private void publishLevels(final long timestampNs, final SymbolBook book, final Side side)
    {
        final BookLevels levels = book.levels(side);
        final PublishedLevels window = book.publishedLevels(side);
        final int count = null == window ? levels.levelCount() : Math.min(window.depth(), levels.levelCount());
        for (int i = 0; i < count; i++)
        {
            final PriceLevel level = levels.level(i);
            listener.onPriceLevelUpdate(
                timestampNs, book.symbol, side, level.price, level.totalShares, level.orderCount);
        }
    }

    /** Tells each symbol's trading state, in the order of the symbols given at construction. */
    @Override
    public void spinTradingStates(final BookSpin.Listener listener)
    {
        for (final SymbolBook book : booksInOrder)
        {
            listener.onTradingState(book.symbol, book.tradingState, book.tradingReason);
        }
    }

    /** Tells each resting order, symbol by symbol in the order given at construction, each side in priority order. */
    @Override
    public void spinOrders(final BookSpin.Listener listener)
    {
        final Consumer<BookOrder> spin = (order) -> listener.onRestingOrder(
            order.book.symbol, order.orderId, order.side, order.openShares, order.price, order.attribution);
        for (final SymbolBook book : booksInOrder)
        {
            forEachOrder(book.bids, spin);
            forEachOrder(book.asks, spin);
        }
    }

    /** @return every symbol's book, in the order of the symbols given at construction; not a copy. */
    SymbolBook[] books()
    {
        return booksInOrder;
    }

    /**
     * @param symbol a packed symbol.
     * @return its book, or null when it has none.
     */
    SymbolBook book(final long symbol)
    {
        return books.get(symbol);
    }

    /** @return number of displayed resting orders across all books. */
    public int openOrderCount()
    {
        return orders.size();
    }

    /** @return number of resting orders across all books that are not displayed. */
    public int hiddenOrderCount()
    {
        return hiddenOrders.size();
    }

    /** Publishes Add Order, the level and the BBO if it changed; nothing for an order that is not displayed. */
    @Override
    public void onOrderAdded(
        final long timestampNs, final long orderId, final long symbol, final Side side, final long quantity,
        final long price, final boolean displayed, final int attribution)
    {
        final SymbolBook book = books.get(symbol);
        if (null == book)
        {
            errors.error(MdPublisherError.UNKNOWN_SYMBOL, "OrderAdded", Symbols::toString, symbol);
            return;
        }
        if (quantity <= 0 || orders.containsKey(orderId) || hiddenOrders.containsKey(orderId))
        {
            errors.error(MdPublisherError.BOOK_MISMATCH, "OrderAdded", "order", orderId);
            return;
        }
        if (!displayed)
        {
            hiddenOrders.put(orderId, symbol);
            return;
        }
        final BookOrder order = allocate();
        order.init(orderId, book, side, price, quantity, timestampNs, attribution);
        book.levels(side).add(order);
        book.unpublished |= rebuilding;
        orders.put(orderId, order);

        listener.onAddOrder(timestampNs, symbol, orderId, side, quantity, price, attribution);
        publishLevel(timestampNs, book, side, price);
        publishBestBidOffer(timestampNs, book);
    }

    /**
     * Publishes Order Executed on the maker, the trade marked maker displayed, the maker's level and the BBO if it
     * changed; the trade alone, marked maker not displayed, when the maker is not displayed or unknown.
     */
    @Override
    public void onOrderExecuted(
        final long timestampNs, final long matchNumber, final long symbol, final long quantity, final long price,
        final Side takerSide, final long takerOrderId, final long takerLeaves, final long makerOrderId,
        final long makerLeaves)
    {
        if (0 == takerLeaves && !hiddenOrders.isEmpty())
        {
            // A resting midpoint peg taker that fills leaves the book with no other event.
            hiddenOrders.remove(takerOrderId);
        }
        final BookOrder order = orders.get(makerOrderId);
        if (null == order)
        {
            if (!isHidden(makerOrderId, makerLeaves))
            {
                errors.error(MdPublisherError.BOOK_MISMATCH, "OrderExecuted", "maker order", makerOrderId);
            }
            listener.onTrade(timestampNs, symbol, matchNumber, takerSide, quantity, price, false);
            final SymbolBook book = books.get(symbol);
            if (null != book)
            {
                book.onTrade(quantity);
            }
            return;
        }
        final SymbolBook book = order.book;
        final Side side = order.side;
        final long levelPrice = order.price;

        listener.onOrderExecuted(timestampNs, book.symbol, makerOrderId, quantity, matchNumber, price);
        listener.onTrade(timestampNs, book.symbol, matchNumber, takerSide, quantity, price, true);
        book.onTrade(quantity);
        take(order, quantity, makerLeaves);
        publishLevel(timestampNs, book, side, levelPrice);
        publishBestBidOffer(timestampNs, book);
    }

    /**
     * Publishes Order Executed With Price, not printable, on a displayed maker, then its level and the BBO if it
     * changed; nothing for a maker that is not displayed (forgotten when filled) or a closing-cross maker.
     */
    @Override
    public void onCrossExecuted(
        final long timestampNs, final long matchNumber, final long symbol, final long quantity, final long price,
        final long makerOrderId, final long makerLeaves)
    {
        final BookOrder order = orders.get(makerOrderId);
        if (null == order)
        {
            if (!books.containsKey(symbol))
            {
                errors.error(MdPublisherError.UNKNOWN_SYMBOL, "cross OrderExecuted", Symbols::toString, symbol);
            }
            else if (makerLeaves <= 0)
            {
                // A filled maker that is not displayed leaves; a closing-cross maker was never tracked.
                hiddenOrders.remove(makerOrderId);
            }
            return;
        }
        final SymbolBook book = order.book;
        final Side side = order.side;
        final long levelPrice = order.price;

        listener.onOrderExecutedWithPrice(timestampNs, book.symbol, makerOrderId, quantity, matchNumber, false, price);
        take(order, quantity, makerLeaves);
        publishLevel(timestampNs, book, side, levelPrice);
        publishBestBidOffer(timestampNs, book);
    }

    /** Publishes Cross Trade, also for a cross that executed nothing; the book is unchanged. */
    @Override
    public void onCrossCompleted(
        final long timestampNs, final long symbol, final long shares, final long price, final long matchNumber)
    {
        final SymbolBook book = books.get(symbol);
        if (null == book)
        {
            errors.error(MdPublisherError.UNKNOWN_SYMBOL, "CrossCompleted", Symbols::toString, symbol);
            return;
        }
        listener.onCrossTrade(timestampNs, symbol, shares, price, matchNumber);
        if (shares > 0)
        {
            book.onTrade(shares);
        }
    }

    /**
     * Publishes Stock Trading Action: an OPEN symbol is trading ({@code T}, no reason), a HALTED or CLOSED one halted
     * ({@code H}) for reason {@code O1} (Operations Halt, contact Market Operations: the operator set it). The book
     * is unchanged; the cancels that closing causes follow as events of their own.
     */
    @Override
    public void onTradingStateChanged(
        final long timestampNs, final long symbol, final io.bourse.sbe.engine.TradingState state)
    {
        final SymbolBook book = books.get(symbol);
        if (null == book)
        {
            errors.error(MdPublisherError.UNKNOWN_SYMBOL, "TradingStateChanged", Symbols::toString, symbol);
            return;
        }
        final boolean trading = io.bourse.sbe.engine.TradingState.OPEN == state;
        book.tradingState = trading ? ITCH50.TRADING_STATE_TRADING : ITCH50.TRADING_STATE_HALTED;
        book.tradingReason = trading ? ItchReferenceData.REASON_NONE : REASON_OPERATIONS_HALT;
        book.tradingStateTimestampNs = timestampNs;
        book.unpublished |= rebuilding;
        listener.onStockTradingAction(timestampNs, symbol, book.tradingState, book.tradingReason);
    }

    /** Publishes Broken Trade; the book is unchanged (a broken trade restores no order). */
    @Override
    public void onTradeBroken(final long timestampNs, final long matchNumber, final long symbol)
    {
        if (!books.containsKey(symbol))
        {
            errors.error(MdPublisherError.UNKNOWN_SYMBOL, "TradeBroken", Symbols::toString, symbol);
            return;
        }
        listener.onBrokenTrade(timestampNs, symbol, matchNumber);
    }

    /**
     * Takes off the books of the symbols every order numbered below the new run's first number (their shard's earlier
     * runs', which the run does not hold). Per symbol, in the order given, bids then offers: Order Delete (ITCH 5.0
     * §4.4.3) for each such displayed order of the side, best price first, each level oldest first, then each level
     * that held them, with what it still holds (0 when emptied; at a limited L2 depth, what changed in the side's
     * window); then the BBO when it changed, and Stock Trading Action T (trading, no reason) when the symbol was halted
     * or closed: a new run's books trade. Such orders that are not displayed are forgotten, in one pass over them all.
     * The orders the run numbered itself (its first number and above) stay, so hearing it again deletes nothing more.
     * A symbol without a book is an error; one that holds no such order and trades publishes nothing.
     */
    @Override
    public void onEarlierRunsLost(final long timestampNs, final long[] symbols, final long firstOfRun)
    {
        for (final long symbol : symbols)
        {
            final SymbolBook book = books.get(symbol);
            if (null == book)
            {
                errors.error(MdPublisherError.UNKNOWN_SYMBOL, "RunStarted", Symbols::toString, symbol);
            }
            else
            {
                book.losingEarlierRuns = true;
            }
        }
        if (!hiddenOrders.isEmpty())
        {
            final Long2LongHashMap.EntryIterator hidden = hiddenOrders.entrySet().iterator();
            while (hidden.hasNext())
            {
                hidden.next();
                if (hidden.getLongKey() < firstOfRun && books.get(hidden.getLongValue()).losingEarlierRuns)
                {
                    hidden.remove();
                }
            }
        }
        for (final long symbol : symbols)
        {
            final SymbolBook book = books.get(symbol);
            if (null != book && book.losingEarlierRuns)
            {
                book.losingEarlierRuns = false;
                deleteBelow(timestampNs, book, Side.BUY, firstOfRun);
                deleteBelow(timestampNs, book, Side.SELL, firstOfRun);
                publishBestBidOffer(timestampNs, book);
                if (ITCH50.TRADING_STATE_TRADING != book.tradingState)
                {
                    book.tradingState = ITCH50.TRADING_STATE_TRADING;
                    book.tradingReason = ItchReferenceData.REASON_NONE;
                    book.tradingStateTimestampNs = 0; // as at the start: nothing for publishBooks to tell
                    listener.onStockTradingAction(timestampNs, symbol, book.tradingState, book.tradingReason);
                }
            }
        }
    }

    /** Deletes the orders of one side of a book numbered below a number, then publishes the levels that held them. */
    private void deleteBelow(final long timestampNs, final SymbolBook book, final Side side, final long below)
    {
        final BookLevels levels = book.levels(side);
        clearedPrices.clear();
        for (int i = 0; i < levels.levelCount(); i++)
        {
            clearedPrices.addLong(levels.level(i).price);
        }
        int touched = 0;
        for (int i = 0; i < clearedPrices.size(); i++)
        {
            final long price = clearedPrices.getLong(i);
            BookOrder order = levels.find(price).first;
            boolean deleted = false;
            while (null != order)
            {
                final BookOrder next = order.next;
                if (order.orderId < below)
                {
                    listener.onOrderDelete(timestampNs, book.symbol, order.orderId);
                    remove(order);
                    deleted = true;
                }
                order = next;
            }
            if (deleted)
            {
                clearedPrices.setLong(touched++, price);
            }
        }
        for (int i = 0; i < touched; i++)
        {
            publishLevel(timestampNs, book, side, clearedPrices.getLong(i));
        }
    }

    /**
     * Publishes Order Cancel (shares left) or Order Delete (none left), the level and the BBO if it changed; nothing
     * for an order that never rested or is not displayed.
     */
    @Override
    public void onOrderCanceled(
        final long timestampNs, final long orderId, final long symbol, final long canceled, final long leaves,
        final boolean wasResting)
    {
        if (!wasResting)
        {
            return;
        }
        final BookOrder order = orders.get(orderId);
        if (null == order)
        {
            if (!isHidden(orderId, leaves))
            {
                errors.error(MdPublisherError.BOOK_MISMATCH, "OrderCanceled", "order", orderId);
            }
            return;
        }
        final SymbolBook book = order.book;
        final Side side = order.side;
        final long levelPrice = order.price;

        if (leaves > 0)
        {
            listener.onOrderCancel(timestampNs, book.symbol, orderId, canceled);
        }
        else
        {
            listener.onOrderDelete(timestampNs, book.symbol, orderId);
        }
        take(order, canceled, leaves);
        publishLevel(timestampNs, book, side, levelPrice);
        publishBestBidOffer(timestampNs, book);
    }

    /**
     * Publishes, by what the replace did: Order Replace (rests under a new reference number) or Order Delete (removed;
     * a remainder arrives later as an added order); then the levels touched and the BBO if it changed. Nothing for an
     * order that is not displayed; its replacement is not displayed either.
     */
    @Override
    public void onOrderReplaced(
        final long timestampNs, final long orderId, final long newOrderId, final long symbol, final Side side,
        final long quantity, final long price, final ReplaceKind bookUpdate)
    {
        final BookOrder order = orders.get(orderId);
        if (null == order)
        {
            if (ReplaceKind.REPLACED == bookUpdate)
            {
                // Its replacement is not displayed either, and rests on the same book.
                final long hiddenSymbol = hiddenOrders.remove(orderId);
                if (NOT_HIDDEN == hiddenSymbol || NOT_HIDDEN != hiddenOrders.putIfAbsent(newOrderId, hiddenSymbol))
                {
                    errors.error(MdPublisherError.BOOK_MISMATCH, "OrderReplaced", "hidden order", orderId);
                }
            }
            else if (!isHidden(orderId, 0))
            {
                errors.error(MdPublisherError.BOOK_MISMATCH, "OrderReplaced", "order", orderId);
            }
            return;
        }
        switch (bookUpdate)
        {
            case REPLACED -> replace(timestampNs, order, newOrderId, quantity, price);
            case REMOVED -> delete(timestampNs, order);
        }
    }

    private void replace(
        final long timestampNs, final BookOrder order, final long newOrderId, final long quantity, final long price)
    {
        if (quantity <= 0 || orders.containsKey(newOrderId))
        {
            errors.error(MdPublisherError.BOOK_MISMATCH, "OrderReplaced", "new order", newOrderId);
            return;
        }
        final SymbolBook book = order.book;
        final BookLevels levels = book.levels(order.side);
        final long oldPrice = order.price;

        listener.onOrderReplace(timestampNs, book.symbol, order.orderId, newOrderId, quantity, price);
        levels.remove(order);
        orders.remove(order.orderId);
        order.orderId = newOrderId;
        order.price = price;
        order.openShares = quantity;
        order.timestampNs = timestampNs;
        levels.add(order);
        orders.put(newOrderId, order);

        publishLevel(timestampNs, book, order.side, oldPrice);
        if (price != oldPrice)
        {
            publishLevel(timestampNs, book, order.side, price);
        }
        publishBestBidOffer(timestampNs, book);
    }

    private void delete(final long timestampNs, final BookOrder order)
    {
        final SymbolBook book = order.book;
        final Side side = order.side;
        final long levelPrice = order.price;

        listener.onOrderDelete(timestampNs, book.symbol, order.orderId);
        remove(order);
        publishLevel(timestampNs, book, side, levelPrice);
        publishBestBidOffer(timestampNs, book);
    }

    /**
     * @param orderId an order that is not on the displayed book.
     * @param leaves  its shares left after the event; at 0 it is forgotten.
     * @return true when it is a resting order that is not displayed.
     */
    private boolean isHidden(final long orderId, final long leaves)
    {
        return leaves > 0 ? hiddenOrders.containsKey(orderId) : NOT_HIDDEN != hiddenOrders.remove(orderId);
    }

    /** Takes shares off an order, following the engine's leaves (and counting a disagreement), removing it at 0. */
    private void take(final BookOrder order, final long shares, final long leaves)
    {
        if (order.openShares - shares != leaves)
        {
            errors.error(MdPublisherError.BOOK_MISMATCH, "OrderExecuted", "order whose leaves differ", order.orderId);
        }
        if (leaves <= 0)
        {
            remove(order);
        }
        else
        {
            order.book.levels(order.side).reduce(order, order.openShares - leaves);
        }
    }

    private void remove(final BookOrder order)
    {
        order.book.levels(order.side).remove(order);
        orders.remove(order.orderId);
        order.clear();
        orderPool.addLast(order);
    }

    private BookOrder allocate()
    {
        final BookOrder order = orderPool.pollLast();
        return null == order ? new BookOrder() : order;
    }

    /**
     * Publishes the level at the price; at a limited L2 depth, whatever changed in the side's window instead (so a
     * second call for the same event publishes nothing more).
     */
    private void publishLevel(final long timestampNs, final SymbolBook book, final Side side, final long price)
    {
        final PublishedLevels window = book.publishedLevels(side);
        if (null != window)
        {
            window.publish(timestampNs, book.symbol, book.levels(side), listener);
            return;
        }
        final PriceLevel level = book.levels(side).find(price);
        if (null == level)
        {
            listener.onPriceLevelUpdate(timestampNs, book.symbol, side, price, 0, 0);
        }
        else
        {
            listener.onPriceLevelUpdate(timestampNs, book.symbol, side, price, level.totalShares, level.orderCount);
        }
    }

    private void publishBestBidOffer(final long timestampNs, final SymbolBook book)
    {
        final PriceLevel bid = book.bids.best();
        final PriceLevel ask = book.asks.best();
        final long bidPrice = null == bid ? 0 : bid.price;
        final long bidQuantity = null == bid ? 0 : bid.totalShares;
        final long askPrice = null == ask ? 0 : ask.price;
        final long askQuantity = null == ask ? 0 : ask.totalShares;
        if (bidPrice != book.bidPrice || bidQuantity != book.bidQuantity ||
            askPrice != book.askPrice || askQuantity != book.askQuantity)
        {
            book.bidPrice = bidPrice;
            book.bidQuantity = bidQuantity;
            book.askPrice = askPrice;
            book.askQuantity = askQuantity;
            book.spread = null == bid || null == ask ? SymbolBook.NO_SPREAD : askPrice - bidPrice;
            listener.onBestBidOffer(timestampNs, book.symbol, bidPrice, bidQuantity, askPrice, askQuantity);
        }
    }
}
