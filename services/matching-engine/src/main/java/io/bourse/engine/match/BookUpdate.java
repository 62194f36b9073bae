package io.bourse.engine.match;

/**
 * What a replace did to the resting order, so that market data can show it with ITCH 5.0 semantics. A replace always
 * loses time priority (OUCH 4.2 §2.2), so the order always leaves its place in the queue.
 */
public enum BookUpdate
{
    /** The order rests under a new order id at the new price, without matching (ITCH Order Replace). */
    REPLACED,
    /**
     * The old order left the book and the replacement is entered again: it matches what crosses, and any remainder
     * rests via onOrderAdded, or, immediate-or-cancel, is canceled 'I' (not resting), crossing or not.
     */
    REMOVED
}
