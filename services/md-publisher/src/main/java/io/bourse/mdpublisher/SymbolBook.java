package io.bourse.mdpublisher;

import com.paritytrading.juncture.nasdaq.itch50.ITCH50;
import io.bourse.itch.ItchReferenceData;

import java.util.ArrayDeque;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The market-data book of one symbol: both sides' price levels, the best bid and offer last published (prices in
 * 1/10000 dollars, 0 for an empty side) with their spread, the trading state, and the trades printed.
 *
 * <p>The publisher thread owns it. The metrics thread reads the BBO, the spread and the sides' depth as a racy
 * snapshot of plain fields (a gauge may lag the book by a duty cycle, and the bid and the offer may come from two
 * different updates, which is why the spread is kept whole), and reads the trade counts through opaque loads of the
 * opaque stores made here, so that a counter never tears or goes back.
 */
final class SymbolBook
{
    /** {@link #spread} when a side is empty: there is no spread to show. */
    static final long NO_SPREAD = -1;

    final long symbol;
    final BookLevels bids;
    final BookLevels asks;
    private final PublishedLevels publishedBids;
    private final PublishedLevels publishedAsks;
    long bidPrice;
    long bidQuantity;
    long askPrice;
    long askQuantity;
    /** Offer minus bid of the last published BBO in 1/10000 dollars, {@link #NO_SPREAD} when a side is empty. */
    long spread = NO_SPREAD;
    /** ITCH 5.0 Stock Trading Action Trading State last published; trading until the operator changes it. */
    byte tradingState = ITCH50.TRADING_STATE_TRADING;
    /** ITCH 5.0 Stock Trading Action Reason last published, 4 ASCII bytes packed big-endian. */
    int tradingReason = ItchReferenceData.REASON_NONE;
    /** When the trading state last changed, ns since midnight; 0 when it has not since the start. */
    long tradingStateTimestampNs;
    /** Trades printed: Trade messages, and Cross Trades that executed shares. */
    final AtomicLong trades = new AtomicLong();
    /** Shares of the trades printed. */
    final AtomicLong tradedShares = new AtomicLong();
    /** Set while its shard's earlier runs' orders are taken off ({@link MarketDataBooks#onEarlierRunsLost}). */
    boolean losingEarlierRuns;
    /**
     * Set while it holds orders or a trading state from events replayed without publishing
     * ({@link MarketDataBooks#rebuilding}: by a restarted md-publisher before it subscribes, {@link BooksRebuild})
     * that {@link MarketDataBooks#publishBooks} has not published yet (it does before the agent answers a snapshot
     * request or opens a MoldUDP64 session: {@link EngineEventStreams#poll}).
     */
    boolean unpublished;

    /**
     * @param symbol    the packed symbol.
     * @param levelPool where both sides take and return their levels.
     * @param l2Depth   most price levels per side on the L2 feed, {@link MarketDataBooks#FULL_DEPTH} for every one.
     */
    SymbolBook(final long symbol, final ArrayDeque<PriceLevel> levelPool, final int l2Depth)
    {
        this.symbol = symbol;
        this.bids = new BookLevels(Side.BUY, levelPool);
        this.asks = new BookLevels(Side.SELL, levelPool);
        this.publishedBids = MarketDataBooks.FULL_DEPTH == l2Depth ? null : new PublishedLevels(Side.BUY, l2Depth);
        this.publishedAsks = MarketDataBooks.FULL_DEPTH == l2Depth ? null : new PublishedLevels(Side.SELL, l2Depth);
    }

    BookLevels levels(final Side side)
    {
        return side == Side.BUY ? bids : asks;
    }

    /** @return the side's L2 window as last published, or null when the L2 feed has every level. */
    PublishedLevels publishedLevels(final Side side)
    {
        return side == Side.BUY ? publishedBids : publishedAsks;
    }

    /**
     * Counts one printed trade; called by the publisher thread only.
     *
     * @param shares the trade's shares.
     */
    void onTrade(final long shares)
    {
        trades.setOpaque(trades.getPlain() + 1);
        tradedShares.setOpaque(tradedShares.getPlain() + shares);
    }
}
