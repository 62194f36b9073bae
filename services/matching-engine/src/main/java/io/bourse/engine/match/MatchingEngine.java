package io.bourse.engine.match;

import io.bourse.common.EngineNumbering;
import io.bourse.common.time.MidnightNanoClock;
import org.agrona.collections.Int2ObjectHashMap;
import org.agrona.collections.Long2ObjectHashMap;

import java.util.Objects;

/**
 * A deterministic matching engine for the symbols of one shard, driven by OUCH 4.2 order semantics: limit orders in
 * price-time priority, trades at the resting order's price, partial fills across price levels.
 *
 * <ul>
 *   <li>Time in force (OUCH 4.2 §2.1): 0 immediate-or-cancel, 99998 market hours and 99999 system hours (day
 *       orders), and 1 to 99997 seconds: a good-till-seconds order rests until the engine's clock passes its entry
 *       time (or the replace that gave it this time in force) plus that many seconds, then is canceled with reason
 *       'T'. The clock is the sequenced input's own: {@link #advanceClock(long)} with each command's timestamp,
 *       never the wall clock.</li>
 *   <li>Minimum quantity on immediate-or-cancel orders (fill-or-kill when it equals the size).</li>
 *   <li>{@link Display}: displayed orders (attributable, anonymous, post-only) have priority over non-displayed ones
 *       at the same price; post-only orders never take liquidity (repriced); midpoint peg orders execute at the
 *       midpoint of the displayed best bid and offer.</li>
 *   <li>Cancel down to a new size keeping priority; replace, which always loses priority (OUCH 4.2 §2.2: a new
 *       timestamp for time priority, whatever it changes); and exchange-core's MOVE ({@link #moveOrder(long, long)}).
 *       </li>
 *   <li>Per symbol a {@linkplain #tradingState(long, TradingState) trading state} and an optional
 *       {@linkplain #priceBand(long, long, int) price band}; a per-order maximum size; per firm a
 *       {@linkplain #selfTradePrevention(int, SelfTradePrevention) self-trade prevention} mode.</li>
 *   <li>NASDAQ's closing cross, simplified: limit-on-close orders ({@link CrossType#CLOSING}), a late period
 *       ({@link #crossLock(long)}) and a single-price cross ({@link #runCross(long)}); see below.</li>
 * </ul>
 *
 * <p><b>Midpoint peg orders.</b> They rest apart from the price levels, in one time-ordered queue per side, and are
 * never displayed. The midpoint is {@link OrderBook#midpoint()}: {@code floor((best displayed bid + best displayed
 * offer) / 2)}, none when a side has no displayed order. A peg is <i>eligible</i> while there is a midpoint within its
 * limit price (midpoint &le; limit for a buy, &ge; limit for a sell), and then it takes or offers liquidity at the
 * midpoint only. Whenever an order starts executing as a taker the midpoint is taken once, from the book as it is at
 * that moment (for a replace or move, after the old order left its level), and stays fixed while that taker executes:
 * the taker meets the makers in price order, at each price first the level's orders (displayed, then non-displayed),
 * and the eligible opposite pegs (in time order, skipping ineligible ones) at the midpoint's price, after any level
 * at the same price. An incoming peg executes as a limit order priced at the midpoint, if it is eligible; then its
 * remainder rests in the queue (or is canceled, immediate-or-cancel). After every command, and after each expiry,
 * while the symbol is {@link TradingState#OPEN}, a <i>peg sweep</i> runs: as long as an eligible resting peg crosses
 * the opposite side at the new midpoint (an opposite eligible peg, or a level priced at or through the midpoint),
 * the first eligible peg in time order of that side executes as a taker (when both sides have one that crosses,
 * the one entered later, by order reference number, is the taker). Self-trade prevention applies as usual.
 *
 * <p><b>Order priority updates</b> (OUCH 4.2 Order Priority Update 'T'). A resting peg's <i>working price</i> is the
 * midpoint while the peg is eligible; while it is not (no midpoint, or one beyond its limit) it has none and its limit
 * stands in for it. The owner first hears the limit, in {@link MatchingEngineListener#onOrderAccepted}, and again in
 * {@link MatchingEngineListener#onOrderReplaced} after every replace or move (the replacement's id is told its limit).
 * Whenever a command, an expiry, a trading-state change or a cross leaves a resting peg with a working price (or limit)
 * other than the price its owner last heard, {@link MatchingEngineListener#onOrderPriorityUpdated} reports the new one,
 * once, after the other events and after the peg sweep: bid pegs in time order, then offer pegs in time order. So a peg
 * that rests while the midpoint is within its limit is updated at once (after a replace too), a peg that executes in
 * full or is canceled never is, and a peg partly executed (or canceled down) at an unchanged midpoint is not again; a
 * midpoint that moves and comes back within one command reports nothing. The working price does not depend on the
 * trading state: while the symbol is {@link TradingState#HALTED} or {@link TradingState#CLOSED} pegs do not execute,
 * but a midpoint moved by cancels or expiries is reported all the same, so that the owner knows the price its peg will
 * work at when the symbol opens (a halt or close alone moves nothing and reports nothing). Only books with resting pegs
 * pay: the engine remembers the midpoint at which it last brought a book's pegs up to date and walks the peg queues
 * only when it has moved; otherwise it checks only the peg the command placed or replaced, if any.
 *
 * <p><b>Closing cross</b> (NASDAQ's closing cross, simplified; OUCH 4.2 Cross Type 'C', Cancel Pending 'P', Cancel
 * Reject 'I', liquidity flag 'C'; ITCH 5.0 Cross Trade 'Q'). An order entered with {@link CrossType#CLOSING} is a
 * limit-on-close order: it rests in its symbol's <i>cross book</i>, apart from the continuous book, in price-time
 * priority; it never trades continuously, is not in the best bid and offer or the midpoint, has no
 * {@link MatchingEngineListener#onOrderAdded} (market data never shows it; its cancels are reported not resting), and
 * executes only when the symbol's cross runs.
 * <ul>
 *   <li><i>Entry</i> ({@link #newOrder(long, long, Side, long, long, int, long, int, Display, CrossType)}): accepted
 *       while the symbol is {@link TradingState#OPEN} or {@link TradingState#HALTED} and its cross is not locked.
 *       Rejected, changing nothing, with the first fault in this order: 'S' a symbol this shard does not trade; 'R'
 *       (not allowed in this type of cross) a cross Bourse does not run (opening 'O', halt/IPO 'H': a null cross
 *       type); 'C' the symbol is {@link TradingState#CLOSED}; 'M' (outside of the permitted times) the cross is
 *       locked; 'O' a time in force outside 0 to 99999; 'R' a time in force other than market or system hours
 *       (immediate-or-cancel and good-till-seconds mean nothing for an order that waits for the cross); 'D' a display
 *       other than attributable 'A' or anonymous 'Y'; 'N' any minimum quantity; 'Z' a size of 0 or above the limit;
 *       'X' a price outside (0, {@link #MAX_PRICE}] or the symbol's price band; 'O' a client order id already open.
 *       So of a continuous order's checks, the maximum size, the price range and the price band apply (at entry and
 *       on a replace); the firm is kept, but self-trade prevention does not apply in the cross
 *       (below); the sub-penny tick is the gateway's check, as for every order.</li>
 *   <li><i>Before the lock</i>, cancels ({@link #cancelOrder}, {@link #reduceOrder}) and replaces
 *       ({@link #replaceOrder}) work as for a continuous order, in the cross book, with reason 'U': a replace
 *       (rejected 'C' when the symbol is CLOSED, 'O' or 'R' for a time in force an entry could not have) takes a new
 *       reference number at the back of its new price in the cross book and never executes, reported through
 *       {@link MatchingEngineListener#onCrossOrderReplaced}. A move ({@link #moveOrder})
 *       is rejected 'R'.</li>
 *   <li><i>The late period</i>, from {@link #crossLock(long)} (admin command CrossLock) to the end of the cross:
 *       new closing-cross orders are rejected 'M', and so is every replace of one, whatever its size (an
 *       OrderRejected for the replacement id, as for any refused replace). A full cancel (new size 0) answers
 *       {@link MatchingEngineListener#onCancelPending}: the order stays in the cross and whatever it leaves
 *       unexecuted is canceled right after the cross. A partial cancel (a new size above 0 and below the open size)
 *       answers {@link MatchingEngineListener#onCancelRejected}: the order is unchanged and no cancel is scheduled
 *       (a pending one stays pending). A new size at or above the open size does nothing, as always. Continuous
 *       orders do not feel the lock.</li>
 *   <li><i>The cross</i>, {@link #runCross(long)} (admin command RunCross), only while the symbol is OPEN and
 *       locked. The price is the one {@link CrossPrice} finds: among the limit prices of the closing-cross orders and
 *       of the continuous book's displayed and non-displayed orders (midpoint pegs take no part), the price that
 *       maximises the executable shares {@code min(B, S)}, B being the buy interest priced at or above it and S the
 *       sell interest at or below it; ties go to the smallest imbalance {@code |B - S|}, then to the price closest to
 *       the reference price (the symbol's {@linkplain OrderBook#lastTradePrice() last trade not broken}, else the
 *       {@linkplain OrderBook#midpoint() midpoint} of the displayed best bid and offer, else none), then to the lower
 *       price. Everything executes at that one price: the buys by price descending, the sells by price ascending,
 *       and at one price the continuous level's queue (in its own priority, displayed before non-displayed) and the
 *       cross book's queue are merged by arrival, the head with the lower reference number first. The first buy and
 *       the first sell execute the smaller of their open sizes, reported by one
 *       {@link MatchingEngineListener#onCrossExecuted} with its own match number, and so on until {@code min(B, S)}
 *       shares have executed. The continuous book never rests crossed, so at most one order of a pair comes from it:
 *       partly filled, it keeps resting in its place; filled, it leaves the book (the execution's maker leaves 0).
 *       Then every closing-cross order left, cross bids in priority order and then cross offers, is canceled whole
 *       with reason 'C' (cross canceled), or 'U' (user requested) when its cancel was pending; then
 *       {@link MatchingEngineListener#onCrossCompleted} reports the price, the shares and a match number of its own
 *       (0, 0 and 0 when nothing could execute: no execution then, and every closing-cross order is canceled); the
 *       cross unlocks, and a peg sweep runs on the changed book. A new cross cycle may start at once: Bourse has no
 *       trading-day roll yet, so nothing else resets.</li>
 *   <li>Self-trade prevention does not apply to cross executions: the price and volume are those of the whole
 *       interest, as NASDAQ's crosses do not apply anti-internalization to cross orders in every case either.</li>
 *   <li>On entering CLOSED, market-hours closing-cross orders are canceled with reason 'E' like the continuous ones,
 *       after them (cross bids, then cross offers); trading states do not change the lock. While the symbol is
 *       HALTED closing-cross orders are accepted and RunCross is refused, until the symbol is OPEN again.</li>
 * </ul>
 *
 * <p>Every outcome goes to the {@link MatchingEngineListener}; the continuous book never rests crossed (pegs included,
 * at the midpoint). No wall clock, no randomness, no hash-order iteration: the same commands give the same events.
 * Order reference numbers and match numbers are {@code (count << 4) | shardId}, unique across up to 16 shards. Not
 * thread safe: one engine thread owns it.
 */
public final class MatchingEngine
{
    /** Highest accepted price: $199,999.9900 (OUCH 4.2 price field limit), in 1/10000 dollars. */
    public static final long MAX_PRICE = 1_999_999_900L;
    /** Time in force: immediate or cancel (OUCH 4.2 Enter Order, Time in Force 0). */
    public static final int TIME_IN_FORCE_IMMEDIATE_OR_CANCEL = 0;
    /** Longest good-till-seconds time in force, in seconds; 1 is the shortest. */
    public static final int TIME_IN_FORCE_MAX_SECONDS = 99_997;
    /** Time in force: market hours, a day order (99998), canceled when its symbol closes. */
    public static final int TIME_IN_FORCE_MARKET_HOURS = 99_998;
    /** Time in force: system hours, a day order (99999). */
    public static final int TIME_IN_FORCE_SYSTEM_HOURS = 99_999;
    /**
     * Time in force of a {@link #replaceOrder(long, long, long, long, int) replace} that keeps the order's (the engine
     * protocol's null value, from a sender older than the field).
     */
    public static final int TIME_IN_FORCE_UNCHANGED = -1;
    /** Default per-order size limit in shares. */
    public static final long DEFAULT_MAX_ORDER_QUANTITY = 1_000_000L;

    private static final int SHARD_BITS = EngineNumbering.SHARD_BITS;
    private static final int BASIS_POINTS = 10_000;
    private static final long NANOS_PER_SECOND = 1_000_000_000L;
    private static final long ONE_DOLLAR = 10_000L;
    private static final long CENT = 100L;

    private final int shardId;
    private final long maxOrderQuantity;
    private final MatchingEngineListener listener;
    private final Long2ObjectHashMap<OrderBook> booksBySymbol = new Long2ObjectHashMap<>();
    private final OrderMap ordersByClientId = new OrderMap();
    private final Int2ObjectHashMap<SelfTradePrevention> selfTradePreventionByFirm = new Int2ObjectHashMap<>();
    private final ExpiryQueue expiries = new ExpiryQueue();
    private final CrossPrice crossPrice = new CrossPrice();
    private SelfTradePrevention selfTradePrevention = SelfTradePrevention.NONE;
    private Order freeOrders;
    private long clockNs;
    private long orderCount;
    private long matchCount;

    /**
     * @param shardId          0..15, folded into order and match numbers.
     * @param symbols          packed symbols this shard trades.
     * @param maxOrderQuantity largest accepted order or replace size in shares.
     * @param listener         receives every outcome.
     * @throws IllegalArgumentException for a shard id outside 0..15.
     */
    public MatchingEngine(
        final int shardId, final long[] symbols, final long maxOrderQuantity, final MatchingEngineListener listener)
    {
        if (shardId < 0 || shardId >= (1 << SHARD_BITS))
        {
            throw new IllegalArgumentException("shardId must be 0..15: " + shardId);
        }
        this.shardId = shardId;
        this.maxOrderQuantity = maxOrderQuantity;
        this.listener = listener;
        for (final long symbol : symbols)
        {
            booksBySymbol.put(symbol, new OrderBook(symbol));
        }
    }

    /**
     * Raises the counts that order reference numbers and match numbers are made of to at least {@code count}, so that
     * the next order reference number is at least {@code ((count + 1) << 4) | shardId}, and the next match number
     * too; a count already higher is kept, so numbers never repeat and keep growing (match numbers must, for the
     * shard's BreakTrade registry). Both counts are 0 when the engine is built (exchange-core's replay relies on it).
     * The engine's service raises them at each run's start to its start time in units of
     * {@value EngineNumbering#NANOS_PER_NUMBER} ns since the Unix epoch ({@link EngineNumbering#numberBase}),
     * so that a run that recovered nothing (the event archive off or gone) still gives numbers above every earlier
     * run's.
     *
     * @param count the lowest count to continue from, 0 to {@link EngineNumbering#MAX_NUMBER_BASE}.
     * @throws IllegalArgumentException for a count outside that range.
     */
    public void startNumbering(final long count)
    {
        requireNumberingStart(count);
        orderCount = Math.max(orderCount, count);
        matchCount = Math.max(matchCount, count);
    }

    /**
     * Checks a count for {@link #startNumbering(long)} before it is used, e.g. before it is recorded.
     *
     * @param count the lowest count to continue from.
     * @return the count, 0 to {@link EngineNumbering#MAX_NUMBER_BASE}.
     * @throws IllegalArgumentException for a count outside that range.
     */
    public static long requireNumberingStart(final long count)
    {
        if (count < 0 || count > EngineNumbering.MAX_NUMBER_BASE)
        {
            throw new IllegalArgumentException(
                "numbering start must be 0.." + EngineNumbering.MAX_NUMBER_BASE + ": " + count);
        }
        return count;
    }

    /**
     * @param symbol packed symbol.
     * @return its book, or null when this shard does not trade it.
     */
    public OrderBook book(final long symbol)
    {
        return booksBySymbol.get(symbol);
    }

    /**
     * Sets the self-trade prevention mode of every firm without a mode of its own, from the next command on;
     * {@link SelfTradePrevention#NONE} when the engine is built (exchange-core's replay relies on it).
     *
     * @param mode the self-trade prevention mode.
     */
    public void selfTradePrevention(final SelfTradePrevention mode)
    {
        selfTradePrevention = Objects.requireNonNull(mode, "mode");
    }

    /**
     * Sets one firm's self-trade prevention mode, from the next command on: it applies when an order of that firm
     * would trade with a resting order of the same firm.
     *
     * @param firm packed 4-byte ASCII firm (OUCH 4.2 Firm), not 0.
     * @param mode the firm's mode, or null to fall back to the engine's {@link #selfTradePrevention()}.
     * @throws IllegalArgumentException for firm 0, which never self-matches.
     */
    public void selfTradePrevention(final int firm, final SelfTradePrevention mode)
    {
        if (0 == firm)
        {
            throw new IllegalArgumentException("firm 0 has no self-trade prevention");
        }
        if (null == mode)
        {
            selfTradePreventionByFirm.remove(firm);
        }
        else
        {
            selfTradePreventionByFirm.put(firm, mode);
        }
    }

    /** @return the self-trade prevention mode of firms without a mode of their own. */
    public SelfTradePrevention selfTradePrevention()
    {
        return selfTradePrevention;
    }

    /**
     * @param firm packed 4-byte ASCII firm.
     * @return the mode that applies to the firm's orders; {@link SelfTradePrevention#NONE} for firm 0.
     */
    public SelfTradePrevention selfTradePrevention(final int firm)
    {
        if (0 == firm)
        {
            return SelfTradePrevention.NONE;
        }
        final SelfTradePrevention mode = selfTradePreventionByFirm.get(firm);
        return null == mode ? selfTradePrevention : mode;
    }

    /** @return the shard this engine numbers its orders and trades for, 0 to 15. */
    public int shardId()
    {
        return shardId;
    }

    /** @return number of open orders across all books. */
    public int openOrderCount()
    {
        return ordersByClientId.size();
    }

    /**
     * @return the engine's clock in ns since midnight (of its first timestamp's day): the latest timestamp given to
     * {@link #advanceClock(long)}, a later day's read as the day nearest the clock; 0 before any.
     */
    public long clockNs()
    {
        return clockNs;
    }

    /**
     * @param timestampNs a command's time in ns since midnight (its sender's start's midnight).
     * @return the clock {@link #advanceClock(long)} would move to with it, in ns since the midnight of the clock's
     * first day; changes nothing.
     */
    public long clockAt(final long timestampNs)
    {
        // Whole days later when more than 12 h behind: within 12 h of the clock, so never back.
        return timestampNs > clockNs ?
            timestampNs : Math.max(clockNs, clockNs + MidnightNanoClock.withinADay(timestampNs - clockNs));
    }

    /**
     * Moves the engine's clock to a command's timestamp (never backwards: an earlier timestamp, as from a gateway
     * whose clock lags another's, leaves it where it is), then cancels every good-till-seconds order whose expiry is
     * at or before the clock, with reason 'T', earliest expiry first and, at one expiry, in order of reference
     * number (a replace or move counts as a new entry; the expiry itself stays unless the replace
     * gives another time in force). Call it with each command's timestamp before applying the command, and with the
     * timestamp of clock ticks in the sequenced input, so that orders expire without order flow.
     * <p>
     * A timestamp more than 12 hours behind the clock counts from a later midnight than the clock does: its sender
     * (a gateway restarted after a midnight the clock's sender ran past, or one started on a later date) counts its
     * time from the midnight of its own start. It is read as that time on the day nearest the clock, whole days
     * later, and moves the clock on as its sender's time goes on; otherwise the clock would wait, up to a day, until
     * that sender's time caught up with it, and a good-till-seconds order would live that much longer.
     *
     * @param timestampNs the command's time in ns since midnight (its sender's start's midnight).
     */
    public void advanceClock(final long timestampNs)
    {
        clockNs = clockAt(timestampNs);
        Order order;
        while (null != (order = expiries.first()) && order.expiryNs <= clockNs)
        {
            final OrderBook book = order.book;
            cancelResting(order, ReasonCodes.CANCEL_TIMEOUT);
            settlePegs(book);
        }
    }

    /**
     * Enters an anonymous displayed limit order without a minimum quantity (OUCH 4.2 Enter Order, Minimum Quantity
     * 0) or firm; see {@link #newOrder(long, long, Side, long, long, int, long, int, Display)}.
     *
     * @param clientOrderId gateway's unique id.
     * @param symbol        packed symbol.
     * @param side          side.
     * @param quantity      shares.
     * @param price         limit price in 1/10000 dollars.
     * @param timeInForce   OUCH 4.2 Time in Force.
     */
    public void newOrder(
        final long clientOrderId, final long symbol, final Side side, final long quantity, final long price,
        final int timeInForce)
    {
        newOrder(clientOrderId, symbol, side, quantity, price, timeInForce, 0, 0, Display.ANONYMOUS);
    }

    /**
     * Enters an anonymous displayed limit order without a firm, which never counts as a self-match; see
     * {@link #newOrder(long, long, Side, long, long, int, long, int, Display)}.
     *
     * @param clientOrderId   gateway's unique id.
     * @param symbol          packed symbol.
     * @param side            side.
     * @param quantity        shares.
     * @param price           limit price in 1/10000 dollars.
     * @param timeInForce     OUCH 4.2 Time in Force.
     * @param minimumQuantity shares that must execute on entry or nothing does; 0 for no minimum.
     */
    public void newOrder(
        final long clientOrderId, final long symbol, final Side side, final long quantity, final long price,
        final int timeInForce, final long minimumQuantity)
    {
        newOrder(clientOrderId, symbol, side, quantity, price, timeInForce, minimumQuantity, 0, Display.ANONYMOUS);
    }

    /**
     * Enters an anonymous displayed limit order; see
     * {@link #newOrder(long, long, Side, long, long, int, long, int, Display)}.
     *
     * @param clientOrderId   gateway's unique id.
     * @param symbol          packed symbol.
     * @param side            side.
     * @param quantity        shares.
     * @param price           limit price in 1/10000 dollars.
     * @param timeInForce     OUCH 4.2 Time in Force.
     * @param minimumQuantity shares that must execute on entry or nothing does; 0 for no minimum.
     * @param firm            packed 4-byte ASCII firm for self-trade prevention; 0 for none.
     */
    public void newOrder(
        final long clientOrderId, final long symbol, final Side side, final long quantity, final long price,
        final int timeInForce, final long minimumQuantity, final int firm)
    {
        newOrder(clientOrderId, symbol, side, quantity, price, timeInForce, minimumQuantity, firm, Display.ANONYMOUS);
    }

    /**
     * Enters a limit order (OUCH 4.2 §2.1 Enter Order). Rejected, changing nothing, with the first fault in this
     * order: 'S' a symbol this shard does not trade; 'C' or 'H' the symbol is {@link TradingState#CLOSED} or
     * {@link TradingState#HALTED}; 'O' a time in force outside 0 to 99999; 'D' no display (an unsupported OUCH
     * value), or post-only with time in force 0; 'N' a minimum quantity that is negative, above the size, or set on
     * an order that is not immediate-or-cancel; 'Z' a size of 0 or above the limit; 'X' a price outside
     * (0, {@link #MAX_PRICE}] or the symbol's {@linkplain #priceBand(long, long, int) price band} (for post-only, also
     * after repricing); 'O' a client order id already open.
     *
     * <p>Once accepted, a post-only order is repriced if it would execute, then rests without executing; any other
     * order executes against the book (see the class comment for midpoint pegs), then rests, or is canceled with
     * reason 'I' when immediate-or-cancel. A good-till-seconds order expires {@code timeInForce} seconds after the
     * engine's clock at entry.
     *
     * <p>A minimum quantity (OUCH 4.2 Minimum Quantity) is checked before anything trades: when fewer than that many
     * shares would execute on entry, the order trades nothing and is canceled whole with reason 'I' (OUCH 4.2 has no
     * dedicated reason). A minimum equal to the size makes a fill-or-kill order; Bourse accepts a minimum only on
     * immediate-or-cancel orders, so that it never has to be remembered on a resting order. The count walks the
     * makers exactly as matching would, midpoint pegs included, and under self-trade prevention counts only shares
     * that would really execute: it skips the firm's own orders under {@link SelfTradePrevention#CANCEL_OLDEST},
     * stops at the first of them under {@link SelfTradePrevention#CANCEL_NEWEST} and
     * {@link SelfTradePrevention#CANCEL_BOTH}, and uses up its own size on them without executing under
     * {@link SelfTradePrevention#DECREMENT}; when the minimum is not reached nothing happens to any resting order.
     *
     * <p>While matching, a resting order of the same non-zero firm is handled as the firm's
     * {@linkplain #selfTradePrevention(int) self-trade prevention mode} says, with cancels reported with reason 'Q'.
     *
     * @param clientOrderId   gateway's unique id.
     * @param symbol          packed symbol.
     * @param side            side.
     * @param quantity        shares.
     * @param price           limit price in 1/10000 dollars; for a midpoint peg, its limit.
     * @param timeInForce     0 immediate-or-cancel, 1 to 99997 seconds, {@link #TIME_IN_FORCE_MARKET_HOURS} or
     *                        {@link #TIME_IN_FORCE_SYSTEM_HOURS}.
     * @param minimumQuantity shares that must execute on entry or nothing does; 0 for no minimum.
     * @param firm            packed 4-byte ASCII firm (OUCH 4.2 Firm) for self-trade prevention; 0 for none.
     * @param display         how the order shows; null for an OUCH Display value Bourse does not support.
     */
    public void newOrder(
        final long clientOrderId, final long symbol, final Side side, final long quantity, final long price,
        final int timeInForce, final long minimumQuantity, final int firm, final Display display)
    {
        final OrderBook book = booksBySymbol.get(symbol);
        byte reject = null == book ? ReasonCodes.REJECT_INVALID_STOCK :
            validateNew(book, quantity, price, timeInForce, minimumQuantity, display);
        long entryPrice = price;
        if (0 == reject && Display.POST_ONLY == display)
        {
            entryPrice = postOnlyPrice(book, side, price);
            reject = isWithinBand(book, entryPrice) ? 0 : ReasonCodes.REJECT_INVALID_PRICE;
        }
        if (0 == reject)
        {
            reject = validateNewId(clientOrderId);
        }
        if (0 != reject)
        {
            listener.onOrderRejected(clientOrderId, symbol, reject);
            return;
        }

        final Order order = allocate();
        order.init(clientOrderId, nextOrderId(), book, side, entryPrice, quantity, firm, display, timeInForce);
        order.expiryNs = expiryNs(timeInForce);
        listener.onOrderAccepted(clientOrderId, order.orderId, symbol, side, quantity, entryPrice, timeInForce,
            display);
        if (minimumQuantity > 0 && !canFill(book, order, minimumQuantity))
        {
            cancelImmediateOrCancel(order);
            return;
        }
        if (Display.POST_ONLY != display)
        {
            match(book, order);
        }
        if (order.remaining > 0)
        {
            if (TIME_IN_FORCE_IMMEDIATE_OR_CANCEL == timeInForce)
            {
                cancelImmediateOrCancel(order);
            }
            else
            {
                rest(book, order);
                listener.onOrderAdded(order.orderId, symbol, side, order.remaining, entryPrice, display, order.firm);
            }
        }
        else
        {
            release(order);
        }
        settlePegs(book);
    }

    /**
     * Enters an order of a cross type (OUCH 4.2 §2.1 Enter Order, Cross Type): {@link CrossType#NONE} is the
     * continuous order of {@link #newOrder(long, long, Side, long, long, int, long, int, Display)};
     * {@link CrossType#CLOSING} a limit-on-close order for the symbol's closing cross, checked and rested in its cross
     * book as the class comment says; null, a cross Bourse does not run, is rejected with 'R' after the symbol's
     * check.
     *
     * @param clientOrderId   gateway's unique id.
     * @param symbol          packed symbol.
     * @param side            side.
     * @param quantity        shares.
     * @param price           limit price in 1/10000 dollars; for a midpoint peg, its limit.
     * @param timeInForce     OUCH 4.2 Time in Force; a closing-cross order's must be
     *                        {@link #TIME_IN_FORCE_MARKET_HOURS} or {@link #TIME_IN_FORCE_SYSTEM_HOURS}.
     * @param minimumQuantity shares that must execute on entry or nothing does; 0 for no minimum (and for every
     *                        closing-cross order).
     * @param firm            packed 4-byte ASCII firm (OUCH 4.2 Firm); 0 for none.
     * @param display         how the order shows; null for an OUCH Display value Bourse does not support.
     * @param crossType       the cross; null for an OUCH Cross Type value Bourse does not run.
     */
    public void newOrder(
        final long clientOrderId, final long symbol, final Side side, final long quantity, final long price,
        final int timeInForce, final long minimumQuantity, final int firm, final Display display,
        final CrossType crossType)
    {
        if (CrossType.NONE == crossType)
        {
            newOrder(clientOrderId, symbol, side, quantity, price, timeInForce, minimumQuantity, firm, display);
            return;
        }
        final OrderBook book = booksBySymbol.get(symbol);
        byte reject = null == book ? ReasonCodes.REJECT_INVALID_STOCK :
            null == crossType ? ReasonCodes.REJECT_NOT_ALLOWED_IN_CROSS :
            validateCrossOrder(book, quantity, price, timeInForce, minimumQuantity, display);
        if (0 == reject)
        {
            reject = validateNewId(clientOrderId);
        }
        if (0 != reject)
        {
            listener.onOrderRejected(clientOrderId, symbol, reject);
            return;
        }
        final Order order = allocate();
        order.init(clientOrderId, nextOrderId(), book, side, price, quantity, firm, display, timeInForce);
        order.cross = true;
        listener.onOrderAccepted(clientOrderId, order.orderId, symbol, side, quantity, price, timeInForce, display);
        book.crossSide(side).add(order);
        ordersByClientId.put(order);
    }

    /**
     * Starts a symbol's closing-cross late period (admin command CrossLock): from now until its cross has run,
     * closing-cross orders and replaces of them are rejected 'M', full cancels of them are pending and partial cancels
     * rejected; see the class comment. A command of the sequenced input, like the order commands; publishes no event.
     *
     * @param symbol packed symbol.
     * @return false, changing nothing, when this shard does not trade the symbol or its cross is already locked.
     */
    public boolean crossLock(final long symbol)
    {
        final OrderBook book = booksBySymbol.get(symbol);
        if (null == book || book.crossLocked)
        {
            return false;
        }
        book.crossLocked = true;
        return true;
    }

    /**
     * An execution broken (admin command BreakTrade, once its caller has found it an execution of the symbol's, not
     * broken yet): it is no longer the symbol's last trade, which the closing cross's reference price is; the newest
     * trade before it not broken is ({@link OrderBook#lastTradePrice()}). Publishes no event: the caller publishes the
     * TradeBroken.
     *
     * @param symbol      packed symbol.
     * @param matchNumber the execution's match number.
     * @return false, changing nothing, when this shard does not trade the symbol.
     */
    public boolean tradeBroken(final long symbol, final long matchNumber)
    {
        final OrderBook book = booksBySymbol.get(symbol);
        if (null == book)
        {
            return false;
        }
        book.lastTrades.broken(matchNumber);
        return true;
    }

    /**
     * Runs a symbol's closing cross (admin command RunCross): executions at the cross price, cancels of the
     * closing-cross orders left, {@link MatchingEngineListener#onCrossCompleted}, unlock, peg sweep; see the class
     * comment. A command of the sequenced input, like the order commands.
     *
     * @param symbol packed symbol.
     * @return false, changing nothing, when this shard does not trade the symbol, its cross is not locked, or it is
     * not {@link TradingState#OPEN}.
     */
    public boolean runCross(final long symbol)
    {
        final OrderBook book = booksBySymbol.get(symbol);
        if (null == book || !book.crossLocked || TradingState.OPEN != book.tradingState)
        {
            return false;
        }
        final long lastTradePrice = book.lastTradePrice();
        final long referencePrice = 0 != lastTradePrice ? lastTradePrice : book.midpoint();
        long price = 0;
        long shares = 0;
        long matchNumber = 0;
        if (crossPrice.find(book, referencePrice))
        {
            price = crossPrice.price();
            shares = crossPrice.shares();
            executeCross(book, price, shares);
            matchNumber = nextMatchNumber();
            book.lastTrades.store(matchNumber, price);
        }
        cancelCrossOrders(book.crossBids);
        cancelCrossOrders(book.crossAsks);
        book.crossLocked = false;
        listener.onCrossCompleted(symbol, price, shares, matchNumber, CrossType.CLOSING);
        settlePegs(book);
        return true;
    }

    /** Executes {@code shares} at the cross price, pairing the buys and the sells in cross priority. */
    private void executeCross(final OrderBook book, final long price, final long shares)
    {
        long left = shares;
        while (left > 0)
        {
            final Order buy = firstInCross(book.bids, book.crossBids, Side.BUY);
            final Order sell = firstInCross(book.asks, book.crossAsks, Side.SELL);
            final long quantity = Math.min(buy.remaining, sell.remaining);
            left -= quantity;
            final Order maker = buy.cross ? sell : buy;
            final Order taker = maker == buy ? sell : buy;
            final long makerClientOrderId = maker.clientOrderId;
            final long makerOrderId = maker.orderId;
            final long takerClientOrderId = taker.clientOrderId;
            final long takerOrderId = taker.orderId;
            final Side takerSide = taker.side;
            final long makerLeaves = fillInCross(maker, quantity);
            final long takerLeaves = fillInCross(taker, quantity);
            listener.onCrossExecuted(nextMatchNumber(), book.symbol(), quantity, price,
                takerClientOrderId, takerOrderId, takerSide, makerClientOrderId, makerOrderId, makerLeaves,
                takerLeaves);
        }
    }

    /**
     * @return the first order of one side in cross priority: of the two books' best levels the better priced, and at
     * one price the level whose head arrived first; null when both are empty.
     */
    private static Order firstInCross(final BookSide continuous, final BookSide cross, final Side side)
    {
        final PriceLevel level = continuous.best();
        final PriceLevel crossLevel = cross.best();
        if (null == crossLevel)
        {
            return null == level ? null : level.head;
        }
        if (null == level || (level.price == crossLevel.price ? crossLevel.head.orderId < level.head.orderId :
            isBetterPrice(side, crossLevel.price, level.price)))
        {
            return crossLevel.head;
        }
        return level.head;
    }

    private static boolean isBetterPrice(final Side side, final long price, final long otherPrice)
    {
        return Side.BUY == side ? price > otherPrice : price < otherPrice;
    }

    /** Takes a cross execution's shares off an order, which leaves its book when filled; returns its leaves. */
    private long fillInCross(final Order order, final long quantity)
    {
        order.level.reduce(order, quantity);
        order.executed += quantity;
        final long leaves = order.remaining;
        if (0 == leaves)
        {
            removeFromBook(order);
            ordersByClientId.remove(order.clientOrderId);
            release(order);
        }
        return leaves;
    }

    /** Cancels every order of a cross book side, in priority order: 'U' when its cancel was pending, else 'C'. */
    private void cancelCrossOrders(final BookSide crossSide)
    {
        PriceLevel level;
        while (null != (level = crossSide.best()))
        {
            final Order order = level.head;
            cancelResting(order, order.cancelPending ? ReasonCodes.CANCEL_USER_REQUESTED : ReasonCodes.CANCEL_CROSS);
        }
    }

    /**
     * @param clientOrderId an order's gateway id.
     * @return its open (resting) shares, or 0 when it is not open.
     */
    public long openQuantity(final long clientOrderId)
    {
        final Order order = ordersByClientId.get(clientOrderId);
        return null == order ? 0 : order.remaining;
    }

    /**
     * @param clientOrderId an order's current client id.
     * @return shares its order/replace chain has executed (what a Replace Order's Shares counts besides the open
     * size), 0 when the order is not open.
     */
    public long executedQuantity(final long clientOrderId)
    {
        final Order order = ordersByClientId.get(clientOrderId);
        return null == order ? 0 : order.executed;
    }

    /**
     * Sets a symbol's trading state. While it is not {@link TradingState#OPEN}, new orders, replaces and moves are
     * rejected, 'C' when {@link TradingState#CLOSED} and 'H' when {@link TradingState#HALTED} (OUCH 4.2 Rejected
     * reasons), before any other check but the symbol's; cancels (and replaces to a size of 0, which cancel) still
     * work, and orders still expire; nothing executes, not even midpoint pegs. Resting orders stay, except that on
     * entering CLOSED from another state every resting market-hours order (time in force 99998) of the symbol is
     * canceled with reason 'E' (bids in priority order, then offers, then bid pegs, then offer pegs); system-hours and
     * good-till-seconds orders stay. On entering OPEN, a peg sweep runs. A change of state is announced first
     * ({@link MatchingEngineListener#onTradingStateChanged}). Every symbol is OPEN when the engine is built. A command
     * of the sequenced input, like the order commands.
     *
     * @param symbol packed symbol.
     * @param state  the new state.
     * @return false, changing nothing, when this shard does not trade the symbol.
     */
    public boolean tradingState(final long symbol, final TradingState state)
    {
        Objects.requireNonNull(state, "state");
        final OrderBook book = booksBySymbol.get(symbol);
        if (null == book)
        {
            return false;
        }
        final TradingState previous = book.tradingState;
        book.tradingState = state;
        if (previous != state)
        {
            listener.onTradingStateChanged(symbol, state);
        }
        if (TradingState.CLOSED == state && TradingState.CLOSED != previous)
        {
            cancelMarketHoursOrders(book);
        }
        settlePegs(book);
        return true;
    }

    /**
     * Sets or removes a symbol's price band: from then on a new order, a replace (any: a replacement is a new order,
     * which loses priority) or a move, priced outside {@code [referencePrice x (1 - band), referencePrice x (1 +
     * band)]} is rejected with 'X' (OUCH 4.2 Rejected: invalid price), like a price outside (0, {@link #MAX_PRICE}].
     * The bounds are computed once, in exact integer arithmetic and rounded inwards, so that no accepted price lies
     * outside the exact band: lowest {@code ceil(referencePrice x (10000 - bandBasisPoints) / 10000)}, highest {@code
     * floor(referencePrice x (10000 + bandBasisPoints) / 10000)}, then clamped to [1, {@link #MAX_PRICE}]. Resting
     * orders outside a new band stay on the book and can still execute, as makers. No symbol has a band when the engine
     * is built.
     *
     * @param symbol          packed symbol.
     * @param referencePrice  band centre in 1/10000 dollars, 1 to {@link #MAX_PRICE}; 0 removes the band.
     * @param bandBasisPoints half-width in basis points (1/10000) of the reference price, 0 to 10000; 0 with a
     *                        reference price allows that price only.
     * @return false, changing nothing, when this shard does not trade the symbol or the reference price or band is
     * outside those ranges.
     */
    public boolean priceBand(final long symbol, final long referencePrice, final int bandBasisPoints)
    {
        final OrderBook book = booksBySymbol.get(symbol);
        if (null == book || referencePrice < 0 || referencePrice > MAX_PRICE || bandBasisPoints < 0 ||
            bandBasisPoints > BASIS_POINTS)
        {
            return false;
        }
        final boolean banded = 0 != referencePrice;
        book.referencePrice = referencePrice;
        book.bandBasisPoints = banded ? bandBasisPoints : 0;
        book.lowestPrice = !banded ? 1 :
            Math.max(1, (referencePrice * (BASIS_POINTS - bandBasisPoints) + BASIS_POINTS - 1) / BASIS_POINTS);
        book.highestPrice = !banded ? MAX_PRICE :
            Math.min(MAX_PRICE, referencePrice * (BASIS_POINTS + bandBasisPoints) / BASIS_POINTS);
        return true;
    }

    /**
     * Cancels an open order down to a new size (OUCH 4.2 §2.3 Cancel Order): 0 removes it, a smaller size reduces it
     * keeping time priority, a size at or above the open size does nothing. An unknown id or a negative size (which
     * the unsigned OUCH and SBE fields cannot carry) does nothing.
     *
     * @param clientOrderId the order.
     * @param quantity      new intended size in shares.
     */
    public void cancelOrder(final long clientOrderId, final long quantity)
    {
        final Order order = quantity < 0 ? null : ordersByClientId.get(clientOrderId);
        if (null == order || quantity >= order.remaining)
        {
            return;
        }
        cancelDown(order, quantity);
    }

    /**
     * Takes shares off an open order the way exchange-core's REDUCE command does: the whole order when the amount is at
     * least its open size, otherwise a cancel down to the open size minus the amount, keeping time priority; reported
     * like {@link #cancelOrder(long, long)}. OUCH 4.2 has no such message: this serves the exchange-core replay, with
     * one lookup where an open-quantity query and a cancel would take two.
     *
     * @param clientOrderId the order.
     * @param amount        shares to cancel; 0 or less changes nothing.
     * @return false, changing nothing, when the order is not open.
     */
    public boolean reduceOrder(final long clientOrderId, final long amount)
    {
        final Order order = ordersByClientId.get(clientOrderId);
        if (null == order)
        {
            return false;
        }
        if (amount > 0)
        {
            cancelDown(order, amount >= order.remaining ? 0 : order.remaining - amount);
        }
        return true;
    }

    /** Cancels an open order down to a smaller size, 0 removing it. */
    private void cancelDown(final Order order, final long quantity)
    {
        if (order.cross)
        {
            cancelCrossDown(order, quantity);
            return;
        }
        final long clientOrderId = order.clientOrderId;
        final OrderBook book = order.book;
        if (0 == quantity)
        {
            cancelResting(order, ReasonCodes.CANCEL_USER_REQUESTED);
            settlePegs(book);
        }
        else
        {
            final long canceled = order.remaining - quantity;
            order.level.reduce(order, canceled);
            listener.onOrderCanceled(clientOrderId, order.orderId, book.symbol(), canceled, quantity,
                ReasonCodes.CANCEL_USER_REQUESTED, true);
        }
    }

    /**
     * Cancels a closing-cross order down to a smaller size: during the cross lock only answered (pending when 0,
     * rejected otherwise), before it as a continuous order's cancel in the cross book, reported not resting.
     */
    private void cancelCrossDown(final Order order, final long quantity)
    {
        final OrderBook book = order.book;
        if (book.crossLocked)
        {
            if (0 == quantity)
            {
                order.cancelPending = true;
                listener.onCancelPending(order.clientOrderId, order.orderId, book.symbol());
            }
            else
            {
                listener.onCancelRejected(order.clientOrderId, order.orderId, book.symbol());
            }
        }
        else if (0 == quantity)
        {
            cancelResting(order, ReasonCodes.CANCEL_USER_REQUESTED);
        }
        else
        {
            final long canceled = order.remaining - quantity;
            order.level.reduce(order, canceled);
            listener.onOrderCanceled(order.clientOrderId, order.orderId, book.symbol(), canceled, quantity,
                ReasonCodes.CANCEL_USER_REQUESTED, false);
        }
    }

    /**
     * Replaces an open order keeping its time in force; see {@link #replaceOrder(long, long, long, long, int)}.
     *
     * @param clientOrderId    the open order.
     * @param newClientOrderId the replacement's id.
     * @param quantity         shares the order may execute in all, those its order/replace chain has executed
     *                         included (OUCH 4.2 Replace Order Shares).
     * @param price            new limit price in 1/10000 dollars.
     */
    public void replaceOrder(
        final long clientOrderId, final long newClientOrderId, final long quantity, final long price)
    {
        replaceOrder(clientOrderId, newClientOrderId, quantity, price, TIME_IN_FORCE_UNCHANGED);
    }

    /**
     * Replaces an open order (OUCH 4.2 §2.2 Replace Order); the replacement keeps the order's side, display and firm.
     * Its Shares is the total the order may execute, so the replacement's open size is {@code quantity} less the
     * shares its order/replace chain has already executed ({@link #executedQuantity}): enter 500, execute 100, replace
     * with 500 and 400 are open. A size of 0 cancels the order; a size from 1 to the executed shares leaves nothing to
     * execute, so the order's open shares are canceled (reason 'U') and the replacement is rejected with 'O' (as the
     * FIX order state matrices amend an order replaced to its executed quantity). Otherwise the order always loses its
     * time priority, as OUCH 4.2 says of every replace, even one that only lowers the size at the same price (Cancel
     * Order or Modify Order do that keeping priority): it gets a new reference number and the back of the queue at
     * its new price, executing first if the price crosses (a post-only order is repriced instead, and never executes).
     * A new time in force applies as at entry, from the replace: a good-till-seconds one expires that many seconds
     * after it, and an immediate-or-cancel replacement executes what it can and its rest is canceled with 'I' (after
     * the replace is reported); the same time in force keeps the order's expiry. Rejected with 'O' when the order is
     * not open, then 'C' or 'H' when its symbol is not {@link TradingState#OPEN}, 'O' for a time in force outside 0 to
     * 99999, 'D' for immediate-or-cancel on a post-only order, 'Z' for a bad size (the requested total, above {@code
     * maxOrderQuantity}), 'X' for a price outside (0, {@link #MAX_PRICE}] or the symbol's price band (a post-only
     * order's also after repricing), and 'O' when the new id is taken; the first fault in that order is reported. A
     * closing-cross order is replaced in its cross book and never executes, and every replace of one is rejected with
     * 'M' during its symbol's cross lock (see the class comment). The Replaced event reports the replacement's open
     * size.
     *
     * @param clientOrderId    the open order.
     * @param newClientOrderId the replacement's id.
     * @param quantity         shares the order may execute in all, those its order/replace chain has executed
     *                         included (OUCH 4.2 Replace Order Shares).
     * @param price            new limit price in 1/10000 dollars.
     * @param timeInForce      OUCH 4.2 Time in Force of the replacement (0, seconds 1 to 99997, 99998 or 99999), or
     *                         {@link #TIME_IN_FORCE_UNCHANGED} to keep the order's.
     */
    public void replaceOrder(
        final long clientOrderId, final long newClientOrderId, final long quantity, final long price,
        final int timeInForce)
    {
        final Order order = ordersByClientId.get(clientOrderId);
        if (null == order)
        {
            listener.onOrderRejected(newClientOrderId, 0, ReasonCodes.REJECT_OTHER);
            return;
        }
        final int newTimeInForce = TIME_IN_FORCE_UNCHANGED == timeInForce ? order.timeInForce : timeInForce;
        if (order.cross)
        {
            replaceCrossOrder(order, newClientOrderId, quantity, price, newTimeInForce);
            return;
        }
        final OrderBook book = order.book;
        if (0 == quantity)
        {
            cancelOrder(clientOrderId, 0);
            return;
        }
        if (quantity > 0 && quantity <= order.executed)
        {
            final long symbol = book.symbol();
            cancelOrder(clientOrderId, 0);
            listener.onOrderRejected(newClientOrderId, symbol, ReasonCodes.REJECT_OTHER);
            return;
        }
        final long open = quantity - order.executed;
        byte reject = validateReplace(book, quantity, price, newTimeInForce, order.display);
        long newPrice = price;
        if (0 == reject && Display.POST_ONLY == order.display)
        {
            newPrice = postOnlyPrice(book, order.side, price);
            reject = isWithinBand(book, newPrice) ? 0 : ReasonCodes.REJECT_INVALID_PRICE;
        }
        if (!renameForReplace(order, newClientOrderId, reject))
        {
            return;
        }
        if (newTimeInForce == order.timeInForce)
        {
            reenter(order, clientOrderId, open, newPrice);
        }
        else
        {
            reenterWithTimeInForce(order, clientOrderId, open, newPrice, newTimeInForce);
        }
        settlePegs(book);
    }

    /**
     * Gives a replaced order its new clientOrderId, or rejects the replace: with the reason found so far, else 'O'
     * when the new clientOrderId is in use.
     *
     * @return true when the order now has the new id; false when the replace was rejected (reported).
     */
    private boolean renameForReplace(final Order order, final long newClientOrderId, final byte rejectSoFar)
    {
        final byte reject = 0 != rejectSoFar ? rejectSoFar : validateId(newClientOrderId, order.clientOrderId);
        if (0 != reject)
        {
            listener.onOrderRejected(newClientOrderId, order.book.symbol(), reject);
            return false;
        }
        ordersByClientId.remove(order.clientOrderId);
        order.clientOrderId = newClientOrderId;
        ordersByClientId.put(order);
        return true;
    }

    /** Replaces a closing-cross order in its cross book, as the class comment says; it never executes. */
    private void replaceCrossOrder(
        final Order order, final long newClientOrderId, final long quantity, final long price, final int timeInForce)
    {
        final OrderBook book = order.book;
        if (book.crossLocked)
        {
            listener.onOrderRejected(newClientOrderId, book.symbol(), ReasonCodes.REJECT_OUTSIDE_PERMITTED_TIMES);
            return;
        }
        final long clientOrderId = order.clientOrderId;
        if (0 == quantity)
        {
            cancelResting(order, ReasonCodes.CANCEL_USER_REQUESTED);
            return;
        }
        final byte timeInForceReject = crossTimeInForceReject(timeInForce);
        final byte reject =
            TradingState.CLOSED == book.tradingState ? ReasonCodes.REJECT_CLOSED :
            0 != timeInForceReject ? timeInForceReject :
            validateSizeAndPrice(book, quantity, price);
        if (!renameForReplace(order, newClientOrderId, reject))
        {
            return;
        }
        final long orderId = order.orderId;
        final BookSide crossSide = book.crossSide(order.side);
        crossSide.remove(order);
        order.orderId = nextOrderId();
        order.price = price;
        order.remaining = quantity;
        order.timeInForce = timeInForce;
        crossSide.add(order);
        listener.onCrossOrderReplaced(clientOrderId, newClientOrderId, orderId, order.orderId, book.symbol(),
            order.side, quantity, price, order.display);
    }

    /**
     * Moves an open order to a new price the way exchange-core's MOVE command does: the order keeps its client id and
     * open size but always leaves its queue, even at an unchanged price, gets a new reference number, executes first
     * if the new price crosses (a post-only order is repriced instead), and any remainder rests at the back of the new
     * price level. Reported like a replace, with {@code clientOrderId} as both the old and the new
     * id. OUCH 4.2 has no such message: this serves the exchange-core replay and differential test. Rejected with 'O'
     * and symbol 0 when the order is not open, then 'R' for a closing-cross order, 'C' or 'H' when its symbol is not
     * {@link TradingState#OPEN}, 'X' for a price outside (0, {@link #MAX_PRICE}] or the symbol's price band.
     *
     * @param clientOrderId the open order.
     * @param price         new limit price in 1/10000 dollars.
     */
    public void moveOrder(final long clientOrderId, final long price)
    {
        final Order order = ordersByClientId.get(clientOrderId);
        if (null == order)
        {
            listener.onOrderRejected(clientOrderId, 0, ReasonCodes.REJECT_OTHER);
            return;
        }
        final OrderBook book = order.book;
        byte reject = order.cross ? ReasonCodes.REJECT_NOT_ALLOWED_IN_CROSS :
            validateChange(book, order.remaining, price);
        long newPrice = price;
        if (0 == reject && Display.POST_ONLY == order.display)
        {
            newPrice = postOnlyPrice(book, order.side, price);
            reject = isWithinBand(book, newPrice) ? 0 : ReasonCodes.REJECT_INVALID_PRICE;
        }
        if (0 != reject)
        {
            listener.onOrderRejected(clientOrderId, book.symbol(), reject);
            return;
        }
        reenter(order, clientOrderId, order.remaining, newPrice);
        settlePegs(book);
    }

    /**
     * Takes an open order, already registered under its new client id, off the book and enters it again with a new
     * reference number, price and size: rests it when it does not cross (or is post-only), otherwise executes it
     * and rests the remainder.
     */
    private void reenter(final Order order, final long oldClientOrderId, final long quantity, final long price)
    {
        final OrderBook book = order.book;
        final long newClientOrderId = order.clientOrderId;
        final long oldOrderId = takeOff(order, quantity, price);
        if (Display.POST_ONLY == order.display || !crossesOnEntry(book, order))
        {
            place(book, order);
            listener.onOrderReplaced(oldClientOrderId, newClientOrderId, oldOrderId, order.orderId, book.symbol(),
                order.side, quantity, price, BookUpdate.REPLACED, order.display);
            return;
        }

        ordersByClientId.remove(newClientOrderId);
        listener.onOrderReplaced(oldClientOrderId, newClientOrderId, oldOrderId, order.orderId, book.symbol(),
            order.side, quantity, price, BookUpdate.REMOVED, order.display);
        match(book, order);
        if (order.remaining > 0)
        {
            rest(book, order);
            listener.onOrderAdded(
                order.orderId, book.symbol(), order.side, order.remaining, price, order.display, order.firm);
        }
        else
        {
            release(order);
        }
    }

    /**
     * {@link #reenter} with another time in force, taken as at entry: a new expiry counted from the engine's clock, or
     * none; an immediate-or-cancel replacement never rests: it leaves the book (reported REMOVED), executes what
     * crosses and its remainder is canceled with 'I'.
     */
    private void reenterWithTimeInForce(
        final Order order, final long oldClientOrderId, final long quantity, final long price, final int timeInForce)
    {
        if (TIME_IN_FORCE_IMMEDIATE_OR_CANCEL != timeInForce)
        {
            order.timeInForce = timeInForce; // the expiry queue removes by position: takeOff still finds the order
            order.expiryNs = expiryNs(timeInForce);
            reenter(order, oldClientOrderId, quantity, price);
            return;
        }
        final OrderBook book = order.book;
        final long newClientOrderId = order.clientOrderId;
        final long oldOrderId = takeOff(order, quantity, price);
        order.timeInForce = timeInForce;
        order.expiryNs = 0;
        ordersByClientId.remove(newClientOrderId);
        listener.onOrderReplaced(oldClientOrderId, newClientOrderId, oldOrderId, order.orderId, book.symbol(),
            order.side, quantity, price, BookUpdate.REMOVED, order.display);
        if (crossesOnEntry(book, order)) // never post-only: that is rejected 'D'
        {
            match(book, order);
        }
        if (order.remaining > 0)
        {
            cancelImmediateOrCancel(order);
        }
        else
        {
            release(order);
        }
    }

    /**
     * Takes a resting order off its level or peg queue and out of the expiry queue, leaving it in the id map, and gives
     * it a new reference number, price and size.
     *
     * @return its reference number before.
     */
    private long takeOff(final Order order, final long quantity, final long price)
    {
        final long oldOrderId = order.orderId;
        removeResting(order);
        order.orderId = nextOrderId();
        order.price = price;
        order.remaining = quantity;
        return oldOrderId;
    }

    /** @return true when an order off the book would execute against something if it entered now. */
    private boolean crossesOnEntry(final OrderBook book, final Order order)
    {
        final Side side = order.side;
        final PriceLevel best = book.side(side.opposite()).best();
        if (0 == book.pegCount && !order.isPegged())
        {
            return null != best && crosses(side, order.price, best.price);
        }
        final PriceLevel pegs = book.pegs(side.opposite());
        final long mid = book.midpoint();
        long limit = order.price;
        if (order.isPegged())
        {
            if (!isEligible(side, order.price, mid))
            {
                return false;
            }
            limit = mid;
        }
        return (null != best && crosses(side, limit, best.price)) ||
            (0 != mid && crosses(side, limit, mid) && null != firstEligiblePeg(pegs, mid));
    }

    /** @return the first fault of a new order but a duplicate id, or 0. */
    private byte validateNew(
        final OrderBook book, final long quantity, final long price, final int timeInForce,
        final long minimumQuantity, final Display display)
    {
        final byte stateReject = book.tradingState.rejectReason();
        final byte timeInForceReject = timeInForceReject(timeInForce, display);
        return 0 != stateReject ? stateReject :
            0 != timeInForceReject ? timeInForceReject :
            null == display ? ReasonCodes.REJECT_INVALID_DISPLAY_TYPE :
            !isValidMinimum(minimumQuantity, quantity, timeInForce) ? ReasonCodes.REJECT_INVALID_MINIMUM_QUANTITY :
            validateSizeAndPrice(book, quantity, price);
    }

    /** @return the first fault of a move, or 0. */
    private byte validateChange(final OrderBook book, final long quantity, final long price)
    {
        final byte stateReject = book.tradingState.rejectReason();
        return 0 != stateReject ? stateReject : validateSizeAndPrice(book, quantity, price);
    }

    /**
     * @return the first fault of a replace but a duplicate id and a post-only order's repriced
     * price (the caller's), or 0.
     */
    private byte validateReplace(
        final OrderBook book, final long quantity, final long price, final int timeInForce, final Display display)
    {
        final byte stateReject = book.tradingState.rejectReason();
        final byte timeInForceReject = timeInForceReject(timeInForce, display);
        return 0 != stateReject ? stateReject :
            0 != timeInForceReject ? timeInForceReject :
            validateSizeAndPrice(book, quantity, price);
    }

    /** @return the first fault of a new closing-cross order but a duplicate id, or 0. */
    private byte validateCrossOrder(
        final OrderBook book, final long quantity, final long price, final int timeInForce,
        final long minimumQuantity, final Display display)
    {
        final byte timeInForceReject = crossTimeInForceReject(timeInForce);
        return TradingState.CLOSED == book.tradingState ? ReasonCodes.REJECT_CLOSED :
            book.crossLocked ? ReasonCodes.REJECT_OUTSIDE_PERMITTED_TIMES :
            0 != timeInForceReject ? timeInForceReject :
            Display.ANONYMOUS != display && Display.ATTRIBUTABLE != display ? ReasonCodes.REJECT_INVALID_DISPLAY_TYPE :
            0 != minimumQuantity ? ReasonCodes.REJECT_INVALID_MINIMUM_QUANTITY :
            validateSizeAndPrice(book, quantity, price);
    }

    private byte validateSizeAndPrice(final OrderBook book, final long quantity, final long price)
    {
        return quantity <= 0 || quantity > maxOrderQuantity ? ReasonCodes.REJECT_SHARES_THRESHOLD :
            !isWithinBand(book, price) ? ReasonCodes.REJECT_INVALID_PRICE : 0;
    }

    /** A new order's id must name no open order, 0 included. */
    private byte validateNewId(final long clientOrderId)
    {
        return null != ordersByClientId.get(clientOrderId) ? ReasonCodes.REJECT_OTHER : 0;
    }

    /** A replacement's id must name no open order but the one it replaces. */
    private byte validateId(final long clientOrderId, final long replacedId)
    {
        return clientOrderId == replacedId ? 0 : validateNewId(clientOrderId);
    }

    private static boolean isWithinBand(final OrderBook book, final long price)
    {
        return price >= book.lowestPrice && price <= book.highestPrice;
    }

    private static boolean isValidMinimum(final long minimumQuantity, final long quantity, final int timeInForce)
    {
        return 0 == minimumQuantity ||
            (minimumQuantity > 0 && minimumQuantity <= quantity && TIME_IN_FORCE_IMMEDIATE_OR_CANCEL == timeInForce);
    }

    private static boolean isTimed(final int timeInForce)
    {
        return timeInForce > TIME_IN_FORCE_IMMEDIATE_OR_CANCEL && timeInForce <= TIME_IN_FORCE_MAX_SECONDS;
    }

    /** @return 'O' for a time in force outside 0 to 99999, 'D' for immediate-or-cancel on a post-only order, or 0. */
    private static byte timeInForceReject(final int timeInForce, final Display display)
    {
        return timeInForce < 0 || timeInForce > TIME_IN_FORCE_SYSTEM_HOURS ? ReasonCodes.REJECT_OTHER :
            Display.POST_ONLY == display && TIME_IN_FORCE_IMMEDIATE_OR_CANCEL == timeInForce ?
                ReasonCodes.REJECT_INVALID_DISPLAY_TYPE : 0;
    }

    /**
     * @return 'O' for a time in force outside 0 to 99999, 'R' for one other than market or system hours (a
     * closing-cross order waits for the cross), or 0.
     */
    private static byte crossTimeInForceReject(final int timeInForce)
    {
        return timeInForce < 0 || timeInForce > TIME_IN_FORCE_SYSTEM_HOURS ? ReasonCodes.REJECT_OTHER :
            timeInForce < TIME_IN_FORCE_MARKET_HOURS ? ReasonCodes.REJECT_NOT_ALLOWED_IN_CROSS : 0;
    }

    /** @return engine time in ns since midnight at which an order given this time in force now expires, 0 for none. */
    private long expiryNs(final int timeInForce)
    {
        return isTimed(timeInForce) ? clockNs + timeInForce * NANOS_PER_SECOND : 0;
    }

    /** Cancels what an immediate-or-cancel order, not resting, did not execute with reason 'I', and releases it. */
    private void cancelImmediateOrCancel(final Order order)
    {
        listener.onOrderCanceled(order.clientOrderId, order.orderId, order.book.symbol(), order.remaining, 0,
            ReasonCodes.CANCEL_IMMEDIATE_OR_CANCEL, false);
        release(order);
    }

    /**
     * @return the price a post-only order gets: its own when it would not execute against a price level, otherwise
     * one tick less aggressive than the best opposite level, the tick of the price it lands at (a cent at $1.00 or
     * more, 1/100 of a cent below: a buy against an offer at $1.0000 gets $0.9999).
     */
    private static long postOnlyPrice(final OrderBook book, final Side side, final long price)
    {
        final PriceLevel best = book.side(side.opposite()).best();
        if (null == best || !crosses(side, price, best.price))
        {
            return price;
        }
        if (Side.BUY == side)
        {
            return best.price - (best.price - CENT >= ONE_DOLLAR ? CENT : 1);
        }
        return best.price + (best.price >= ONE_DOLLAR ? CENT : 1);
    }

    /** @return true when a peg of that side and limit may execute at the midpoint; false when there is none. */
    private static boolean isEligible(final Side side, final long limit, final long mid)
    {
        return 0 != mid && (Side.BUY == side ? mid <= limit : mid >= limit);
    }

    /** @return the first peg in the queue eligible at the midpoint, or null. */
    private static Order firstEligiblePeg(final PriceLevel pegs, final long mid)
    {
        for (Order peg = pegs.head; null != peg; peg = peg.next)
        {
            if (isEligible(peg.side, peg.price, mid))
            {
                return peg;
            }
        }
        return null;
    }

    private static Order nextEligiblePeg(final Order after, final long mid)
    {
        for (Order peg = after.next; null != peg; peg = peg.next)
        {
            if (isEligible(peg.side, peg.price, mid))
            {
                return peg;
            }
        }
        return null;
    }

    /** @return true when at least {@code minimum} shares of the taker would execute on entry. */
    private boolean canFill(final OrderBook book, final Order taker, final long minimum)
    {
        final Side side = taker.side;
        final BookSide makers = book.side(side.opposite());
        final SelfTradePrevention mode = selfTradePrevention(taker.firm);
        if (SelfTradePrevention.NONE == mode && !book.hasPegs() && !taker.isPegged())
        {
            long available = 0;
            for (PriceLevel level = makers.best(); null != level && available < minimum; level = makers.next(level))
            {
                if (!crosses(side, taker.price, level.price))
                {
                    break;
                }
                available += level.totalQuantity;
            }
            return available >= minimum;
        }
        return executableQuantity(book, taker, minimum, mode) >= minimum;
    }

    /**
     * Walks the makers order by order in the order {@link #match} would meet them, without changing them, and counts
     * the shares that would execute, stopping once {@code minimum} is reached.
     */
    private long executableQuantity(
        final OrderBook book, final Order taker, final long minimum, final SelfTradePrevention mode)
    {
        final Side side = taker.side;
        final BookSide makers = book.side(side.opposite());
        final long mid = book.midpoint();
        long limit = taker.price;
        if (taker.isPegged())
        {
            if (!isEligible(side, taker.price, mid))
            {
                return 0;
            }
            limit = mid;
        }
        Order peg = 0 != mid && crosses(side, limit, mid) ? firstEligiblePeg(book.pegs(side.opposite()), mid) : null;
        PriceLevel level = makers.best();
        Order maker = null;
        long open = taker.remaining;
        long executable = 0;
        while (executable < minimum && open > 0)
        {
            if (null == maker)
            {
                if (null != level && crosses(side, limit, level.price) &&
                    (null == peg || crosses(side, mid, level.price)))
                {
                    maker = level.head;
                    level = makers.next(level);
                }
                else if (null != peg)
                {
                    maker = peg;
                    peg = null;
                }
                else
                {
                    break;
                }
            }
            final long shares = Math.min(open, maker.remaining);
            if (0 == taker.firm || maker.firm != taker.firm || SelfTradePrevention.NONE == mode)
            {
                executable += shares;
                open -= shares;
            }
            else if (SelfTradePrevention.DECREMENT == mode)
            {
                open -= shares;
            }
            else if (SelfTradePrevention.CANCEL_OLDEST != mode)
            {
                break;
            }
            if (maker.isPegged())
            {
                peg = nextEligiblePeg(maker, mid);
                maker = null;
            }
            else
            {
                maker = maker.next;
            }
        }
        return executable;
    }

    private static boolean crosses(final Side takerSide, final long takerPrice, final long makerPrice)
    {
        return takerSide == Side.BUY ? takerPrice >= makerPrice : takerPrice <= makerPrice;
    }

    /**
     * Executes a taker (incoming, or a resting peg during a sweep) against the opposite side until it is filled or
     * nothing crosses, with the midpoint taken once at the start.
     */
    private void match(final OrderBook book, final Order taker)
    {
        final Side side = taker.side;
        final BookSide makers = book.side(side.opposite());
        final PriceLevel pegs = book.pegs(side.opposite());
        final boolean pegged = taker.isPegged();
        final long mid = pegged || (0 != book.pegCount && 0 != pegs.orderCount) ? book.midpoint() : 0;
        long limit = taker.price;
        if (pegged)
        {
            if (!isEligible(side, taker.price, mid))
            {
                return;
            }
            limit = mid;
        }
        final boolean pegsCross = 0 != mid && crosses(side, limit, mid);
        while (taker.remaining > 0)
        {
            final PriceLevel level = makers.best();
            final Order peg = pegsCross && 0 != pegs.orderCount ? firstEligiblePeg(pegs, mid) : null;
            final Order maker;
            final long price;
            if (null != level && crosses(side, limit, level.price) && (null == peg || crosses(side, mid, level.price)))
            {
                maker = level.head;
                price = level.price;
            }
            else if (null != peg)
            {
                maker = peg;
                price = mid;
            }
            else
            {
                return;
            }
            if (0 != taker.firm && maker.firm == taker.firm)
            {
                final SelfTradePrevention mode = selfTradePrevention(taker.firm);
                if (SelfTradePrevention.NONE != mode)
                {
                    preventSelfTrade(book, mode, taker, maker);
                    continue;
                }
            }
            execute(book, taker, maker, price);
        }
    }

    private void execute(final OrderBook book, final Order taker, final Order maker, final long price)
    {
        final long quantity = Math.min(taker.remaining, maker.remaining);
        reduceTaker(taker, quantity);
        maker.level.reduce(maker, quantity);
        taker.executed += quantity;
        maker.executed += quantity;
        final long makerLeaves = maker.remaining;
        final long makerClientOrderId = maker.clientOrderId;
        final long makerOrderId = maker.orderId;
        if (0 == makerLeaves)
        {
            removeResting(maker);
            ordersByClientId.remove(makerClientOrderId);
            release(maker);
        }
        final long matchNumber = nextMatchNumber();
        book.lastTrades.store(matchNumber, price);
        listener.onOrderExecuted(matchNumber, book.symbol(), quantity, price,
            taker.clientOrderId, taker.orderId, taker.side, makerClientOrderId, makerOrderId, makerLeaves,
            taker.remaining);
    }

    private static void reduceTaker(final Order taker, final long quantity)
    {
        if (null == taker.level)
        {
            taker.remaining -= quantity;
        }
        else
        {
            taker.level.reduce(taker, quantity);
        }
    }

    /** Applies a firm's {@link SelfTradePrevention} mode to a taker and a maker of that firm. */
    private void preventSelfTrade(
        final OrderBook book, final SelfTradePrevention mode, final Order taker, final Order maker)
    {
        switch (mode)
        {
            case CANCEL_NEWEST -> cancelTaker(book, taker, taker.remaining);
            case CANCEL_OLDEST -> cancelMaker(book, maker, maker.remaining);
            case CANCEL_BOTH ->
            {
                cancelMaker(book, maker, maker.remaining);
                cancelTaker(book, taker, taker.remaining);
            }
            default ->
            {
                final long quantity = Math.min(taker.remaining, maker.remaining);
                cancelMaker(book, maker, quantity);
                cancelTaker(book, taker, quantity);
            }
        }
    }

    private void cancelMaker(final OrderBook book, final Order maker, final long quantity)
    {
        final long leaves = maker.remaining - quantity;
        final long clientOrderId = maker.clientOrderId;
        final long orderId = maker.orderId;
        if (0 == leaves)
        {
            removeResting(maker);
            ordersByClientId.remove(clientOrderId);
            release(maker);
        }
        else
        {
            maker.level.reduce(maker, quantity);
        }
        listener.onOrderCanceled(clientOrderId, orderId, book.symbol(), quantity, leaves,
            ReasonCodes.CANCEL_SELF_MATCH_PREVENTION, true);
    }

    private void cancelTaker(final OrderBook book, final Order taker, final long quantity)
    {
        reduceTaker(taker, quantity);
        listener.onOrderCanceled(taker.clientOrderId, taker.orderId, book.symbol(), quantity, taker.remaining,
            ReasonCodes.CANCEL_SELF_MATCH_PREVENTION, null != taker.level);
    }

    /**
     * Ends a command, an expiry, a trading-state change or a cross on a book: the peg sweep, then the order priority
     * updates (see the class comment). One field read when the book has no pegs.
     */
    private void settlePegs(final OrderBook book)
    {
        if (book.hasPegs())
        {
            sweepPegs(book);
            updatePegPrices(book);
        }
    }

    /**
     * Executes resting midpoint pegs that the midpoint has moved into a cross, until none crosses; see the class
     * comment. Does nothing unless the book has pegs and is {@link TradingState#OPEN}.
     */
    private void sweepPegs(final OrderBook book)
    {
        while (book.hasPegs() && TradingState.OPEN == book.tradingState)
        {
            final long mid = book.midpoint();
            if (0 == mid)
            {
                return;
            }
            final Order buyPeg = firstEligiblePeg(book.bidPegs, mid);
            final Order sellPeg = firstEligiblePeg(book.askPegs, mid);
            final PriceLevel bestAsk = book.asks.best();
            final PriceLevel bestBid = book.bids.best();
            final boolean buyCrosses = null != buyPeg &&
                (null != sellPeg || (null != bestAsk && bestAsk.price <= mid));
            final boolean sellCrosses = null != sellPeg &&
                (null != buyPeg || (null != bestBid && bestBid.price >= mid));
            final Order taker;
            if (buyCrosses && sellCrosses)
            {
                taker = buyPeg.orderId > sellPeg.orderId ? buyPeg : sellPeg;
            }
            else if (buyCrosses)
            {
                taker = buyPeg;
            }
            else if (sellCrosses)
            {
                taker = sellPeg;
            }
            else
            {
                return;
            }
            match(book, taker);
            if (0 == taker.remaining)
            {
                removeResting(taker);
                ordersByClientId.remove(taker.clientOrderId);
                release(taker);
            }
        }
    }

    /**
     * Reports every resting peg whose working price (or limit) is not the price its owner last heard. Every peg was up
     * to date at {@link OrderBook#pegMidpoint} after the previous call, so the queues are walked only when the
     * midpoint has moved since; otherwise only a peg placed since can be out of date, and as at most one order is
     * placed between two calls, it is the tail of its queue if it still rests.
     */
    private void updatePegPrices(final OrderBook book)
    {
        final PriceLevel placed = book.placedPegs;
        book.placedPegs = null;
        if (!book.hasPegs())
        {
            return;
        }
        final long mid = book.midpoint();
        if (mid != book.pegMidpoint)
        {
            book.pegMidpoint = mid;
            for (Order peg = book.bidPegs.head; null != peg; peg = peg.next)
            {
                updatePegPrice(peg, mid);
            }
            for (Order peg = book.askPegs.head; null != peg; peg = peg.next)
            {
                updatePegPrice(peg, mid);
            }
        }
        else if (null != placed && null != placed.tail)
        {
            updatePegPrice(placed.tail, mid);
        }
    }

    /** Reports a peg's working price, or its limit when it has none, if its owner last heard another price. */
    private void updatePegPrice(final Order peg, final long mid)
    {
        final long price = isEligible(peg.side, peg.price, mid) ? mid : peg.price;
        if (price != peg.reportedPrice)
        {
            peg.reportedPrice = (int)price;
            listener.onOrderPriorityUpdated(
                peg.clientOrderId, peg.orderId, peg.book.symbol(), peg.side, price, peg.display);
        }
    }

    /** Cancels market-hours orders of a closing book, in the documented order. */
    private void cancelMarketHoursOrders(final OrderBook book)
    {
        cancelMarketHoursOrders(book.bids);
        cancelMarketHoursOrders(book.asks);
        cancelMarketHoursOrders(book.bidPegs);
        cancelMarketHoursOrders(book.askPegs);
        cancelMarketHoursOrders(book.crossBids);
        cancelMarketHoursOrders(book.crossAsks);
    }

    private void cancelMarketHoursOrders(final BookSide bookSide)
    {
        PriceLevel level = bookSide.best();
        while (null != level)
        {
            final PriceLevel next = bookSide.next(level);
            cancelMarketHoursOrders(level);
            level = next;
        }
    }

    private void cancelMarketHoursOrders(final PriceLevel level)
    {
        Order order = level.head;
        while (null != order)
        {
            final Order next = order.next;
            if (TIME_IN_FORCE_MARKET_HOURS == order.timeInForce)
            {
                cancelResting(order, ReasonCodes.CANCEL_CLOSED);
            }
            order = next;
        }
    }

    /**
     * Removes a resting order (continuous or closing-cross) whole and reports it canceled with the reason, resting
     * only when it was on the continuous book.
     */
    private void cancelResting(final Order order, final byte reason)
    {
        final long clientOrderId = order.clientOrderId;
        final long orderId = order.orderId;
        final long canceled = order.remaining;
        final long symbol = order.book.symbol();
        final boolean continuous = !order.cross;
        removeFromBook(order);
        ordersByClientId.remove(clientOrderId);
        release(order);
        listener.onOrderCanceled(clientOrderId, orderId, symbol, canceled, 0, reason, continuous);
    }

    /** Takes a resting order off the continuous book ({@link #removeResting}) or off its cross book. */
    private void removeFromBook(final Order order)
    {
        if (order.cross)
        {
            order.book.crossSide(order.side).remove(order);
        }
        else
        {
            removeResting(order);
        }
    }

    private void rest(final OrderBook book, final Order order)
    {
        place(book, order);
        ordersByClientId.put(order);
    }

    /** Puts an order, already in the id map, on its level or peg queue, and a timed one in the expiry queue. */
    private void place(final OrderBook book, final Order order)
    {
        if (order.isPegged())
        {
            final PriceLevel pegs = book.pegs(order.side);
            pegs.append(order);
            book.pegCount++;
            book.placedPegs = pegs;
            order.reportedPrice = (int)order.price;
        }
        else
        {
            book.side(order.side).add(order);
        }
        if (0 != order.expiryNs)
        {
            expiries.add(order);
        }
    }

    /** Takes a resting order off its level or peg queue and out of the expiry queue, leaving it in the id map. */
    private void removeResting(final Order order)
    {
        if (order.isPegged())
        {
            order.level.remove(order);
            order.book.pegCount--;
        }
        else
        {
            order.book.side(order.side).remove(order);
        }
        if (Order.NOT_TIMED != order.expiryIndex)
        {
            expiries.remove(order);
        }
    }

    private long nextOrderId()
    {
        return (++orderCount << SHARD_BITS) | shardId;
    }

    private long nextMatchNumber()
    {
        return (++matchCount << SHARD_BITS) | shardId;
    }

    private Order allocate()
    {
        final Order order = freeOrders;
        if (null == order)
        {
            return new Order();
        }
        freeOrders = order.next;
        return order;
    }

    private void release(final Order order)
    {
        order.clear();
        order.next = freeOrders;
        freeOrders = order;
    }
}
