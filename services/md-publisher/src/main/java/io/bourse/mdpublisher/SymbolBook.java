package io.bourse.mdpublisher;

import java.util.ArrayDeque;

/** The market-data book of one symbol: both sides' price levels and the best bid and offer last published. */
final class SymbolBook
{
    final long symbol;
    final BookLevels bids;
    final BookLevels asks;
    long bidPrice;
    long bidQuantity;
    long askPrice;
    long askQuantity;

    SymbolBook(final long symbol, final ArrayDeque<PriceLevel> levelPool)
    {
        this.symbol = symbol;
        this.bids = new BookLevels(Side.BUY, levelPool);
        this.asks = new BookLevels(Side.SELL, levelPool);
    }

    BookLevels levels(final Side side)
    {
        return side == Side.BUY ? bids : asks;
    }
}
