package io.bourse.engine.match;

import io.bourse.common.LastTrades;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * The limit order book of one symbol: bids and offers in price-time priority, and apart from them the cross book of
 * closing-cross orders waiting for the symbol's cross (see {@link MatchingEngine}). Read access for tests, snapshots
 * and market data; changes go through {@link MatchingEngine}. Prices in 1/10000 dollars, sizes in shares.
 */
public final class OrderBook
{
    /** Visits resting orders in priority order. */
    @FunctionalInterface
    public interface OrderVisitor
    {
        /**
         * @param clientOrderId gateway's id of the order.
         * @param orderId       reference number.
         * @param side          side.
         * @param price         limit price.
         * @param remaining     resting shares.
         * @param display       how the order shows.
         */
        void visit(long clientOrderId, long orderId, Side side, long price, long remaining, Display display);
    }

    private final long symbol;
    TradingState tradingState = TradingState.OPEN;
    long referencePrice;
    int bandBasisPoints;
    long lowestPrice = 1;
    long highestPrice = MatchingEngine.MAX_PRICE;
    final BookSide bids;
    final BookSide asks;
    final PriceLevel bidPegs = new PriceLevel();
    final PriceLevel askPegs = new PriceLevel();
    /** Midpoint peg orders resting on both sides, kept here so the common no-peg case reads one field. */
    int pegCount;
    /** The midpoint (0: none) at which the pegs' working prices were last brought up to date (priority updates). */
    long pegMidpoint;
    /** The peg queue a peg was placed on since the pegs' working prices were last brought up to date, or null. */
    PriceLevel placedPegs;
    /** Closing-cross buy orders in price-time priority, never matched continuously. */
    final BookSide crossBids;
    /** Closing-cross sell orders in price-time priority, never matched continuously. */
    final BookSide crossAsks;
    /** In the cross's late period, from CrossLock to the end of RunCross. */
    boolean crossLocked;
    /** The symbol's last executions and cross trades, by match number: the newest not broken is the last trade. */
    final LastTrades lastTrades = new LastTrades().wrap(new UnsafeBuffer(new byte[LastTrades.LENGTH]), 0);

    OrderBook(final long symbol)
    {
        this.symbol = symbol;
        this.bids = new BookSide(Side.BUY);
        this.asks = new BookSide(Side.SELL);
        this.crossBids = new BookSide(Side.BUY);
        this.crossAsks = new BookSide(Side.SELL);
    }

    /** @return the packed symbol. */
    public long symbol()
    {
        return symbol;
    }

    /** @return whether the symbol takes new orders, replaces and moves; set by the engine. */
    public TradingState tradingState()
    {
        return tradingState;
    }

    /** @return the price band's reference price in 1/10000 dollars, 0 when the symbol has no band. */
    public long referencePrice()
    {
        return referencePrice;
    }

    /** @return the price band's half-width in basis points of the reference price, 0 when there is no band. */
    public int bandBasisPoints()
    {
        return bandBasisPoints;
    }

    /** @return the lowest price an order, replace or move may carry, in 1/10000 dollars. */
    public long lowestPrice()
    {
        return lowestPrice;
    }

    /** @return the highest price an order, replace or move may carry, in 1/10000 dollars. */
    public long highestPrice()
    {
        return highestPrice;
    }

    /** @return true from the symbol's CrossLock to the end of its RunCross (the late period before the cross). */
    public boolean crossLocked()
    {
        return crossLocked;
    }

    /**
     * @return the price of the symbol's latest trade not broken (an execution or a closing cross's trade) in 1/10000
     * dollars, of its last {@value LastTrades#TRADES}; 0 before the first, or when they are all broken
     * ({@link MatchingEngine#tradeBroken}).
     */
    public long lastTradePrice()
    {
        return lastTrades.price();
    }

    BookSide side(final Side side)
    {
        return side == Side.BUY ? bids : asks;
    }

    BookSide crossSide(final Side side)
    {
        return side == Side.BUY ? crossBids : crossAsks;
    }

    PriceLevel pegs(final Side side)
    {
        return side == Side.BUY ? bidPegs : askPegs;
    }

    boolean hasPegs()
    {
        return 0 != pegCount;
    }

    /**
     * @param side BUY for bids, SELL for offers.
     * @return the best price with a displayed order on that side, or 0 when there is none.
     */
    public long bestDisplayedPrice(final Side side)
    {
        final BookSide bookSide = side(side);
        for (PriceLevel level = bookSide.best(); null != level; level = bookSide.next(level))
        {
            if (0 != level.displayedQuantity)
            {
                return level.price;
            }
        }
        return 0;
    }

    /**
     * The price midpoint peg orders execute at: {@code floor((best displayed bid + best displayed offer) / 2)} in
     * 1/10000 dollars.
     *
     * @return the midpoint, or 0 when either side has no displayed order.
     */
    public long midpoint()
    {
        final long bid = bestDisplayedPrice(Side.BUY);
        final long ask = bestDisplayedPrice(Side.SELL);
        return 0 == bid || 0 == ask ? 0 : (bid + ask) >>> 1;
    }

    /**
     * @param side BUY for bids, SELL for offers.
     * @return number of midpoint peg orders resting on that side.
     */
    public int pegCount(final Side side)
    {
        return pegs(side).orderCount;
    }

    /**
     * @param side BUY for bids, SELL for offers.
     * @return the best price on that side, or 0 when empty.
     */
    public long bestPrice(final Side side)
    {
        final PriceLevel best = side(side).best();
        return null == best ? 0 : best.price;
    }

    /**
     * @param side BUY for bids, SELL for offers.
     * @return total shares at the best price, or 0 when empty.
     */
    public long bestQuantity(final Side side)
    {
        final PriceLevel best = side(side).best();
        return null == best ? 0 : best.totalQuantity;
    }

    /**
     * @param side BUY for bids, SELL for offers.
     * @return number of price levels on that side.
     */
    public int levelCount(final Side side)
    {
        return side(side).levelCount();
    }

    /**
     * Visits every resting order of one side in priority order: best price first, displayed before non-displayed and
     * time priority within a price; then the side's midpoint peg orders in time order (with their limit prices).
     *
     * @param side    BUY for bids, SELL for offers.
     * @param visitor receives each order.
     */
    public void forEachOrder(final Side side, final OrderVisitor visitor)
    {
        final BookSide bookSide = side(side);
        for (PriceLevel level = bookSide.best(); null != level; level = bookSide.next(level))
        {
            visitLevel(level, side, visitor);
        }
        visitLevel(pegs(side), side, visitor);
    }

    /**
     * Visits every closing-cross order of one side in priority order: best price first, then time priority.
     *
     * @param side    BUY for bids, SELL for offers.
     * @param visitor receives each order.
     */
    public void forEachCrossOrder(final Side side, final OrderVisitor visitor)
    {
        final BookSide bookSide = crossSide(side);
        for (PriceLevel level = bookSide.best(); null != level; level = bookSide.next(level))
        {
            visitLevel(level, side, visitor);
        }
    }

    private static void visitLevel(final PriceLevel level, final Side side, final OrderVisitor visitor)
    {
        for (Order order = level.head; null != order; order = order.next)
        {
            visitor.visit(order.clientOrderId, order.orderId, side, order.price, order.remaining, order.display);
        }
    }
}
