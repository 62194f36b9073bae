package io.bourse.simulator;

/**
 * What a market-data session's book builder reports: trades (for the analytics) and messages that do not fit the book
 * built so far (a sign of a gap, a duplicate or a broken feed). Called on the market-data thread.
 */
interface MarketDataListener
{
    /** Kinds of book inconsistency. */
    enum Inconsistency
    {
        /** A message refers to a Stock Locate the Stock Directory did not list. */
        UNKNOWN_LOCATE,
        /** Executed, Cancel, Delete or Replace for an Order Reference Number not in the book. */
        UNKNOWN_ORDER,
        /** Add Order or Replace with an Order Reference Number already in the book. */
        DUPLICATE_ORDER,
        /** Executed or Cancel of more shares than the order has. */
        EXCESS_SHARES
    }

    /**
     * A trade that counts in volume and VWAP: Order Executed at the resting order's price, Order Executed With Price
     * when printable, Trade (non-cross) and Cross Trade.
     *
     * @param locate      Stock Locate.
     * @param timestampNs ITCH 5.0 Timestamp, ns since midnight.
     * @param price       1/10000 $.
     * @param shares      shares.
     * @param matchNumber ITCH 5.0 Match Number, day-unique (Bourse's run on across days).
     */
    void onTrade(int locate, long timestampNs, long price, long shares, long matchNumber);

    /**
     * ITCH 5.0 Broken Trade: the trade of that Match Number no longer counts.
     *
     * @param matchNumber the Match Number of an earlier trade.
     */
    void onBrokenTrade(long matchNumber);

    /**
     * A message that does not fit the book; the book keeps its state where it cannot apply the message.
     *
     * @param kind                 what is wrong.
     * @param locate               the message's Stock Locate.
     * @param orderReferenceNumber the order concerned.
     */
    void onInconsistency(Inconsistency kind, int locate, long orderReferenceNumber);
}
