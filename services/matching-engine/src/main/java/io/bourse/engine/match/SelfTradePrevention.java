package io.bourse.engine.match;

/**
 * What the engine does when a taker (an incoming order, or a resting midpoint peg in a peg sweep) would trade with
 * a resting (maker) order of the same non-zero firm, set per firm by
 * {@link MatchingEngine#selfTradePrevention(int, SelfTradePrevention)} or for every other firm by
 * {@link MatchingEngine#selfTradePrevention(SelfTradePrevention)}. Every share it takes away is reported by
 * {@link MatchingEngineListener#onOrderCanceled} with OUCH 4.2 cancel reason 'Q' (self-match prevention), the maker's
 * cancel (resting) before the taker's (not resting, except a peg's in a sweep); nothing trades between the two
 * orders. Orders of firm 0 have no firm and never count as a self-match.
 */
public enum SelfTradePrevention
{
    /** No prevention: orders of one firm trade with each other like any others (exchange-core's behaviour). */
    NONE,
    /**
     * Cancel newest: the taker's whole remainder is canceled and matching stops; the maker stays untouched, and the
     * taker does not rest.
     */
    CANCEL_NEWEST,
    /**
     * Cancel oldest: the maker is canceled whole and matching continues with the next maker in priority order; the
     * taker then trades, rests or is canceled as if the maker had never been there.
     */
    CANCEL_OLDEST,
    /** Cancel both: the maker is canceled whole, then the taker's whole remainder, and matching stops. */
    CANCEL_BOTH,
    /**
     * Decrement: both orders are reduced by the smaller of their open sizes, without a trade; the one that had more
     * keeps the difference: a maker stays on the book in its place in the queue, a taker continues to match with the
     * next maker and then rests or is canceled as usual. Equal sizes remove both.
     */
    DECREMENT
}
