package io.bourse.engine.match;

/**
 * A resting or incoming order, linked intrusively into its price level's (or its side's midpoint peg) FIFO queue; a
 * released order waits in the engine's free list, linked through {@link #next}. Mutable and owned by the engine
 * thread.
 */
final class Order
{
    /** {@link #expiryIndex} of an order that is not in the expiry queue. */
    static final int NOT_TIMED = -1;

    long clientOrderId;
    long orderId;
    Side side;
    /** Limit price in 1/10000 dollars; for a midpoint peg, the limit the midpoint must not pass. */
    long price;
    long remaining;
    /**
     * Shares executed in the order's order/replace chain, kept across replaces: an OUCH 4.2 Replace Order's Shares
     * counts them (see {@link MatchingEngine#replaceOrder(long, long, long, long, int)}).
     */
    long executed;
    /** Packed 4-byte ASCII firm (OUCH 4.2 Firm), 0 for none. */
    int firm;
    Display display;
    /** {@code display.isDisplayed()}, kept beside the queue links for the price level's bookkeeping. */
    boolean displayed;
    /** OUCH 4.2 Time in Force: 0, seconds 1 to 99997, 99998 or 99999. */
    int timeInForce;
    /** Engine time in ns since midnight at which a timed order expires; 0 when it does not. */
    long expiryNs;
    /** Position in the engine's expiry queue, or {@link #NOT_TIMED}. */
    int expiryIndex = NOT_TIMED;
    /** A closing-cross order: it rests in its book's cross book, not on the continuous book. */
    boolean cross;
    /** A closing-cross order whose full cancel came during the cross lock: canceled right after the cross. */
    boolean cancelPending;
    /**
     * For a resting midpoint peg, the price its owner last heard, in 1/10000 dollars: the limit Accepted or Replaced
     * echoed, then each OrderPriorityUpdated's working price (or limit); see {@link MatchingEngine}. An int, as every
     * price the engine accepts fits OUCH 4.2's 4-byte Price ({@link MatchingEngine#MAX_PRICE}), so that it takes the
     * object's alignment padding (the order is 104 bytes with compressed references, 8 more since {@link #executed}).
     */
    int reportedPrice;
    OrderBook book;
    /** The price level (or the side's peg queue, or a cross book level) the order rests in; null while not resting. */
    PriceLevel level;
    Order prev;
    Order next;

    void init(
        final long clientOrderId, final long orderId, final OrderBook book, final Side side, final long price,
        final long quantity, final int firm, final Display display, final int timeInForce)
    {
        this.clientOrderId = clientOrderId;
        this.orderId = orderId;
        this.book = book;
        this.side = side;
        this.price = price;
        this.remaining = quantity;
        this.executed = 0;
        this.firm = firm;
        this.display = display;
        this.displayed = display.isDisplayed();
        this.timeInForce = timeInForce;
        this.expiryNs = 0;
        this.cross = false;
        this.cancelPending = false;
        this.level = null;
        this.prev = null;
        this.next = null;
    }

    boolean isPegged()
    {
        return Display.MIDPOINT_PEG == display;
    }

    void clear()
    {
        book = null;
        level = null;
        prev = null;
        next = null;
        display = null;
    }
}
