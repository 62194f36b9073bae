package io.bourse.engine.match;

import io.bourse.common.config.Symbols;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static io.bourse.engine.match.EngineEvents.Accepted;
import static io.bourse.engine.match.EngineEvents.Added;
import static io.bourse.engine.match.EngineEvents.CancelPending;
import static io.bourse.engine.match.EngineEvents.CancelRejected;
import static io.bourse.engine.match.EngineEvents.Canceled;
import static io.bourse.engine.match.EngineEvents.CrossCompleted;
import static io.bourse.engine.match.EngineEvents.CrossExecuted;
import static io.bourse.engine.match.EngineEvents.CrossReplaced;
import static io.bourse.engine.match.EngineEvents.Executed;
import static io.bourse.engine.match.EngineEvents.Rejected;
import static io.bourse.engine.match.EngineEvents.StateChanged;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The closing cross: limit-on-close orders in the cross book, the late period's Cancel Pending and Cancel Reject, and
 * the cross itself, with a worked example for each step of the price determination. Prices in the examples are in
 * cents ({@link #price(long)}); B(p) is the buy interest priced at or above p, S(p) the sell interest at or below p.
 */
class MatchingEngineCrossTest
{
    private static final long AAPL = Symbols.pack("AAPL");
    private static final long GOOG = Symbols.pack("GOOG");
    private static final int DAY = MatchingEngine.TIME_IN_FORCE_MARKET_HOURS;
    private static final int SYSTEM_HOURS = MatchingEngine.TIME_IN_FORCE_SYSTEM_HOURS;
    private static final int SHARD = 3;
    private static final int FIRM = 0x41424344;

    private final EngineEvents events = new EngineEvents();
    private final MatchingEngine engine = new MatchingEngine(SHARD, new long[]{AAPL}, 1_000_000, events);

    /** Order reference number the engine assigns to its n-th accepted order (from 1). */
    private static long orderId(final long n)
    {
        return (n << 4) | SHARD;
    }

    /** The engine's n-th match number of the day (from 1), executions and cross trades alike. */
    private static long matchNumber(final long n)
    {
        return (n << 4) | SHARD;
    }

    /** @return a price given in cents, in 1/10000 dollars. */
    private static long price(final long cents)
    {
        return cents * 100;
    }

    private record Resting(long clientOrderId, long price, long remaining, Display display)
    {
    }

    private List<Resting> book(final Side side)
    {
        final List<Resting> orders = new ArrayList<>();
        engine.book(AAPL).forEachOrder(side, (clientOrderId, id, s, price, remaining, display) ->
            orders.add(new Resting(clientOrderId, price, remaining, display)));
        return orders;
    }

    private List<Resting> crossBook(final Side side)
    {
        final List<Resting> orders = new ArrayList<>();
        engine.book(AAPL).forEachCrossOrder(side, (clientOrderId, id, s, price, remaining, display) ->
            orders.add(new Resting(clientOrderId, price, remaining, display)));
        return orders;
    }

    /** Enters an anonymous market-hours closing-cross order without firm. */
    private void cross(final long id, final Side side, final long quantity, final long cents)
    {
        engine.newOrder(id, AAPL, side, quantity, price(cents), DAY, 0, 0, Display.ANONYMOUS, CrossType.CLOSING);
    }

    /** Enters a market-hours continuous order without firm. */
    private void enter(final long id, final Side side, final long quantity, final long cents, final Display display)
    {
        engine.newOrder(id, AAPL, side, quantity, price(cents), DAY, 0, 0, display, CrossType.NONE);
    }

    /** A continuous trade of 100 shares: a sell, then a buy at the same price, ids {@code sellId} and the next. */
    private void trade(final long sellId, final long cents)
    {
        enter(sellId, Side.SELL, 100, cents, Display.ANONYMOUS);
        enter(sellId + 1, Side.BUY, 100, cents, Display.ANONYMOUS);
    }

    private List<EngineEvents.Event> lockAndRun()
    {
        events.drain();
        assertThat(engine.crossLock(AAPL)).isTrue();
        assertThat(engine.runCross(AAPL)).isTrue();
        assertThat(engine.book(AAPL).crossLocked()).isFalse();
        return events.drain();
    }

    @Test
    void shouldRestInTheCrossBookOnlyAndNeverTradeContinuouslyWhenEnteredForTheClosingCross()
    {
        cross(1, Side.BUY, 100, 1005);
        enter(2, Side.SELL, 100, 1000, Display.ANONYMOUS);

        assertThat(events.drain()).containsExactly(
            new Accepted(1, orderId(1), Side.BUY, 100, price(1005), DAY),
            new Accepted(2, orderId(2), Side.SELL, 100, price(1000), DAY),
            new Added(orderId(2), Side.SELL, 100, price(1000)));
        assertThat(crossBook(Side.BUY)).containsExactly(new Resting(1, price(1005), 100, Display.ANONYMOUS));
        assertThat(book(Side.BUY)).isEmpty();
        assertThat(List.of(engine.book(AAPL).bestPrice(Side.BUY), engine.book(AAPL).midpoint(),
            engine.openQuantity(1), (long)engine.openOrderCount())).containsExactly(0L, 0L, 100L, 2L);
    }

    /**
     * Buys 100 at 10.05 and 200 at 10.03, sells 200 at 10.01 and 100 at 10.03. B(10.01) = 300, S = 200: 200;
     * B(10.03) = 300, S = 300: 300; B(10.05) = 100: 100. The cross is at 10.03 for 300 shares: the 10.05 buy fills
     * first, against the lowest sell, and so on.
     */
    @Test
    void shouldCrossAtThePriceOfMaximumExecutableSharesWhenItIsUnique()
    {
        cross(1, Side.BUY, 100, 1005);
        cross(2, Side.BUY, 200, 1003);
        cross(3, Side.SELL, 200, 1001);
        cross(4, Side.SELL, 100, 1003);

        assertThat(lockAndRun()).containsExactly(
            new CrossExecuted(matchNumber(1), 100, price(1003), 1, Side.BUY, 3, 100, 0),
            new CrossExecuted(matchNumber(2), 100, price(1003), 2, Side.BUY, 3, 0, 100),
            new CrossExecuted(matchNumber(3), 100, price(1003), 2, Side.BUY, 4, 0, 0),
            new CrossCompleted(price(1003), 300, matchNumber(4), CrossType.CLOSING));
        assertThat(crossBook(Side.BUY)).isEmpty();
        assertThat(crossBook(Side.SELL)).isEmpty();
        assertThat(List.of(engine.openOrderCount(), engine.book(AAPL).lastTradePrice()))
            .containsExactly(0, price(1003));
    }

    /**
     * Buys 200 at 10.05 and 300 at 10.02, sells 200 at 10.01 and 50 at 10.04. 200 shares can execute at 10.01, 10.02,
     * 10.04 and 10.05; the imbalance |B - S| is 300 at 10.01 and 10.02 (B = 500, S = 200) and 50 at 10.04 and 10.05
     * (B = 200, S = 250), so the cross is at 10.04, the lower of the last two (there is no reference price), not at
     * 10.01. The 10.02 buy and the 10.04 sell do not reach it and are canceled with 'C'.
     */
    @Test
    void shouldCrossAtTheSmallestImbalanceWhenExecutableSharesTie()
    {
        cross(1, Side.BUY, 200, 1005);
        cross(2, Side.BUY, 300, 1002);
        cross(3, Side.SELL, 200, 1001);
        cross(4, Side.SELL, 50, 1004);

        assertThat(lockAndRun()).containsExactly(
            new CrossExecuted(matchNumber(1), 200, price(1004), 1, Side.BUY, 3, 0, 0),
            new Canceled(2, orderId(2), 300, 0, ReasonCodes.CANCEL_CROSS, false),
            new Canceled(4, orderId(4), 50, 0, ReasonCodes.CANCEL_CROSS, false),
            new CrossCompleted(price(1004), 200, matchNumber(2), CrossType.CLOSING));
    }

    /**
     * A buy of 100 at 10.05 and a sell of 100 at 10.00 in the cross book, a bid at 9.96 and an offer at 10.20 on the
     * continuous book: 100 shares with imbalance 0 execute at 10.00 or 10.05. No trade yet, so the reference is the
     * midpoint 10.08, closer to 10.05.
     */
    @Test
    void shouldCrossClosestToTheMidpointWhenImbalancesTieAndNothingTraded()
    {
        enter(1, Side.BUY, 100, 996, Display.ANONYMOUS);
        enter(2, Side.SELL, 100, 1020, Display.ANONYMOUS);
        cross(3, Side.BUY, 100, 1005);
        cross(4, Side.SELL, 100, 1000);

        assertThat(lockAndRun()).containsExactly(
            new CrossExecuted(matchNumber(1), 100, price(1005), 3, Side.BUY, 4, 0, 0),
            new CrossCompleted(price(1005), 100, matchNumber(2), CrossType.CLOSING));
        assertThat(book(Side.BUY)).containsExactly(new Resting(1, price(996), 100, Display.ANONYMOUS));
        assertThat(book(Side.SELL)).containsExactly(new Resting(2, price(1020), 100, Display.ANONYMOUS));
    }

    /**
     * As above with a last trade at 10.04 and a bid at 9.80 and offer at 10.10, whose midpoint 9.95 would pick 10.00:
     * the last trade comes first and picks 10.05.
     */
    @Test
    void shouldCrossClosestToTheLastTradeBeforeTheMidpointWhenImbalancesTie()
    {
        trade(1, 1004);
        enter(3, Side.BUY, 100, 980, Display.ANONYMOUS);
        enter(4, Side.SELL, 100, 1010, Display.ANONYMOUS);
        cross(5, Side.BUY, 100, 1005);
        cross(6, Side.SELL, 100, 1000);

        assertThat(lockAndRun()).containsExactly(
            new CrossExecuted(matchNumber(2), 100, price(1005), 5, Side.BUY, 6, 0, 0),
            new CrossCompleted(price(1005), 100, matchNumber(3), CrossType.CLOSING));
    }

    /**
     * As above with trades at 10.04, 10.10 and 9.90, the last two broken by an operator, newest first: the reference
     * is the last trade not broken, 10.04, which picks 10.05; the midpoint 9.95, or the newest trade 9.90, would have
     * picked 10.00.
     */
    @Test
    void shouldCrossClosestToTheLastTradeNotBroken()
    {
        trade(1, 1004);
        trade(3, 1010);
        trade(5, 990);
        assertThat(engine.tradeBroken(AAPL, matchNumber(3))).isTrue();
        assertThat(engine.tradeBroken(GOOG, matchNumber(2))).as("a symbol the shard does not trade").isFalse();
        assertThat(engine.book(AAPL).lastTradePrice()).isEqualTo(price(1010));
        assertThat(engine.tradeBroken(AAPL, matchNumber(2))).isTrue();
        assertThat(engine.book(AAPL).lastTradePrice()).isEqualTo(price(1004));
        enter(7, Side.BUY, 100, 980, Display.ANONYMOUS);
        enter(8, Side.SELL, 100, 1010, Display.ANONYMOUS);
        cross(9, Side.BUY, 100, 1005);
        cross(10, Side.SELL, 100, 1000);

        assertThat(lockAndRun()).containsExactly(
            new CrossExecuted(matchNumber(4), 100, price(1005), 9, Side.BUY, 10, 0, 0),
            new CrossCompleted(price(1005), 100, matchNumber(5), CrossType.CLOSING));
        assertThat(engine.book(AAPL).lastTradePrice()).as("the cross's trade").isEqualTo(price(1005));
    }

    /** A buy of 100 at 10.05 and a sell of 100 at 10.00 alone: no reference price, so the lower price, 10.00. */
    @Test
    void shouldCrossAtTheLowerPriceWhenThereIsNoReferencePrice()
    {
        cross(1, Side.BUY, 100, 1005);
        cross(2, Side.SELL, 100, 1000);

        assertThat(lockAndRun()).containsExactly(
            new CrossExecuted(matchNumber(1), 100, price(1000), 1, Side.BUY, 2, 0, 0),
            new CrossCompleted(price(1000), 100, matchNumber(2), CrossType.CLOSING));
    }

    /**
     * Offers at 10.00: continuous 1 (displayed), 2 (non-displayed), 4 (displayed), so the level's queue is 1, 4, 2;
     * closing-cross 3. A closing-cross buy of 250 at 10.02 and a continuous bid at 9.90. 250 shares execute at 10.00
     * or 10.02 (imbalance 150 both), the midpoint 9.95 picks 10.00. The queues merge by arrival: 1, then 3 (before 4),
     * then 4 (partly: it keeps resting in its place, before 2).
     */
    @Test
    void shouldMergeContinuousAndCrossOrdersByPriceThenArrivalWhenTheyCrossTogether()
    {
        enter(1, Side.SELL, 100, 1000, Display.ANONYMOUS);
        enter(2, Side.SELL, 100, 1000, Display.NON_DISPLAYED);
        cross(3, Side.SELL, 100, 1000);
        enter(4, Side.SELL, 100, 1000, Display.ANONYMOUS);
        enter(5, Side.BUY, 100, 990, Display.ANONYMOUS);
        cross(6, Side.BUY, 250, 1002);

        assertThat(lockAndRun()).containsExactly(
            new CrossExecuted(matchNumber(1), 100, price(1000), 6, Side.BUY, 1, 0, 150),
            new CrossExecuted(matchNumber(2), 100, price(1000), 6, Side.BUY, 3, 0, 50),
            new CrossExecuted(matchNumber(3), 50, price(1000), 6, Side.BUY, 4, 50, 0),
            new CrossCompleted(price(1000), 250, matchNumber(4), CrossType.CLOSING));
        assertThat(book(Side.SELL)).containsExactly(
            new Resting(4, price(1000), 50, Display.ANONYMOUS),
            new Resting(2, price(1000), 100, Display.NON_DISPLAYED));
        assertThat(book(Side.BUY)).containsExactly(new Resting(5, price(990), 100, Display.ANONYMOUS));
        assertThat(engine.book(AAPL).bestQuantity(Side.SELL)).isEqualTo(150);
    }

    /**
     * Continuous bids of 200 and 100 at 10.00 and a closing-cross sell of 150 at 9.90: 150 shares at 9.90 or 10.00,
     * imbalance 150 both, no reference (one-sided book), so 9.90. The first bid is the maker, as the order on the
     * continuous book, and keeps resting ahead of the second with 50.
     */
    @Test
    void shouldKeepPartlyFilledContinuousOrderInItsPlaceWhenTheCrossTakesPartOfIt()
    {
        enter(1, Side.BUY, 200, 1000, Display.ANONYMOUS);
        enter(2, Side.BUY, 100, 1000, Display.ANONYMOUS);
        cross(3, Side.SELL, 150, 990);

        assertThat(lockAndRun()).containsExactly(
            new CrossExecuted(matchNumber(1), 150, price(990), 3, Side.SELL, 1, 50, 0),
            new CrossCompleted(price(990), 150, matchNumber(2), CrossType.CLOSING));
        assertThat(book(Side.BUY)).containsExactly(
            new Resting(1, price(1000), 50, Display.ANONYMOUS),
            new Resting(2, price(1000), 100, Display.ANONYMOUS));
    }

    /**
     * During the lock a full cancel (or an exchange-core reduce of the whole order) is pending and partial cancels
     * are refused. Buys 100 at 10.05, 200 at 10.04 and 100 at 10.01, a sell of 150 at 10.03: 150 shares at 10.03 or
     * 10.04 (imbalance 150 both), so 10.03. After the cross both pending buys, the one partly filled and the one that
     * did not reach the price, are canceled with 'U'.
     */
    @Test
    void shouldAnswerCancelPendingAndCancelRejectDuringTheLockAndCancelAfterTheCross()
    {
        cross(1, Side.BUY, 100, 1005);
        cross(2, Side.BUY, 200, 1004);
        cross(3, Side.SELL, 150, 1003);
        cross(4, Side.BUY, 100, 1001);
        events.drain();
        assertThat(engine.crossLock(AAPL)).isTrue();

        engine.cancelOrder(2, 0);
        engine.cancelOrder(1, 50);
        engine.cancelOrder(1, 100);
        engine.cancelOrder(2, 10);
        engine.reduceOrder(4, 100);

        assertThat(events.drain()).containsExactly(
            new CancelPending(2, orderId(2)),
            new CancelRejected(1, orderId(1)),
            new CancelRejected(2, orderId(2)),
            new CancelPending(4, orderId(4)));
        assertThat(crossBook(Side.BUY)).containsExactly(
            new Resting(1, price(1005), 100, Display.ANONYMOUS),
            new Resting(2, price(1004), 200, Display.ANONYMOUS),
            new Resting(4, price(1001), 100, Display.ANONYMOUS));

        assertThat(engine.runCross(AAPL)).isTrue();

        assertThat(events.drain()).containsExactly(
            new CrossExecuted(matchNumber(1), 100, price(1003), 1, Side.BUY, 3, 50, 0),
            new CrossExecuted(matchNumber(2), 50, price(1003), 2, Side.BUY, 3, 0, 150),
            new Canceled(2, orderId(2), 150, 0, ReasonCodes.CANCEL_USER_REQUESTED, false),
            new Canceled(4, orderId(4), 100, 0, ReasonCodes.CANCEL_USER_REQUESTED, false),
            new CrossCompleted(price(1003), 150, matchNumber(3), CrossType.CLOSING));
        assertThat(engine.openOrderCount()).isZero();
    }

    @Test
    void shouldTakeOnlyMarketOrSystemHoursWhenACrossOrderIsReplacedWithAnotherTimeInForceAndCloseByTheNewOne()
    {
        cross(1, Side.BUY, 100, 1000);
        events.drain();

        engine.replaceOrder(1, 11, 100, price(1000), 30);
        engine.replaceOrder(1, 12, 100, price(1000), MatchingEngine.TIME_IN_FORCE_IMMEDIATE_OR_CANCEL);
        engine.replaceOrder(1, 13, 100, price(1000), SYSTEM_HOURS + 1);
        engine.replaceOrder(1, 14, 100, price(1000), SYSTEM_HOURS);

        assertThat(events.drain()).containsExactly(
            new Rejected(11, ReasonCodes.REJECT_NOT_ALLOWED_IN_CROSS),
            new Rejected(12, ReasonCodes.REJECT_NOT_ALLOWED_IN_CROSS),
            new Rejected(13, ReasonCodes.REJECT_OTHER),
            new CrossReplaced(1, 14, orderId(1), orderId(2), 100, price(1000)));
        assertThat(crossBook(Side.BUY)).containsExactly(new Resting(14, price(1000), 100, Display.ANONYMOUS));

        cross(2, Side.BUY, 100, 990);
        engine.replaceOrder(14, 15, 100, price(1000), DAY);
        engine.replaceOrder(2, 21, 100, price(990), SYSTEM_HOURS);
        events.drain();
        engine.tradingState(AAPL, TradingState.CLOSED);

        assertThat(events.drain()).containsExactly(
            new StateChanged(TradingState.CLOSED),
            new Canceled(15, orderId(4), 100, 0, ReasonCodes.CANCEL_CLOSED, false));
        assertThat(crossBook(Side.BUY)).containsExactly(new Resting(21, price(990), 100, Display.ANONYMOUS));
    }

    @Test
    void shouldCancelAndReplaceInTheCrossBookAndRefuseMovesWhenNotLocked()
    {
        cross(1, Side.BUY, 300, 1000);
        cross(2, Side.SELL, 100, 1010);
        engine.cancelOrder(1, 200);
        engine.replaceOrder(1, 11, 150, price(1000));
        engine.replaceOrder(11, 12, 150, price(1001));
        enter(3, Side.SELL, 100, 1001, Display.ANONYMOUS);
        engine.moveOrder(2, price(1011));
        engine.replaceOrder(2, 21, 0, price(1010));

        assertThat(events.drain()).containsExactly(
            new Accepted(1, orderId(1), Side.BUY, 300, price(1000), DAY),
            new Accepted(2, orderId(2), Side.SELL, 100, price(1010), DAY),
            new Canceled(1, orderId(1), 100, 200, ReasonCodes.CANCEL_USER_REQUESTED, false),
            new CrossReplaced(1, 11, orderId(1), orderId(3), 150, price(1000)),
            new CrossReplaced(11, 12, orderId(3), orderId(4), 150, price(1001)),
            new Accepted(3, orderId(5), Side.SELL, 100, price(1001), DAY),
            new Added(orderId(5), Side.SELL, 100, price(1001)),
            new Rejected(2, ReasonCodes.REJECT_NOT_ALLOWED_IN_CROSS),
            new Canceled(2, orderId(2), 100, 0, ReasonCodes.CANCEL_USER_REQUESTED, false));
        assertThat(crossBook(Side.BUY)).containsExactly(new Resting(12, price(1001), 150, Display.ANONYMOUS));
        assertThat(crossBook(Side.SELL)).isEmpty();

        engine.cancelOrder(12, 0);

        assertThat(events.drain()).containsExactly(
            new Canceled(12, orderId(4), 150, 0, ReasonCodes.CANCEL_USER_REQUESTED, false));
        assertThat(crossBook(Side.BUY)).isEmpty();
    }

    @Test
    void shouldRejectCrossEntriesAndReplacesButNotContinuousOnesWhenLocked()
    {
        cross(1, Side.BUY, 100, 1000);
        events.drain();
        assertThat(engine.crossLock(AAPL)).isTrue();

        cross(2, Side.BUY, 100, 1000);
        engine.newOrder(3, AAPL, Side.BUY, 100, price(1000), DAY, 0, 0, Display.NON_DISPLAYED, CrossType.CLOSING);
        engine.replaceOrder(1, 11, 50, price(1000));
        engine.replaceOrder(1, 12, 0, price(1000));
        enter(4, Side.SELL, 100, 1000, Display.ANONYMOUS);

        assertThat(events.drain()).containsExactly(
            new Rejected(2, ReasonCodes.REJECT_OUTSIDE_PERMITTED_TIMES),
            new Rejected(3, ReasonCodes.REJECT_OUTSIDE_PERMITTED_TIMES),
            new Rejected(11, ReasonCodes.REJECT_OUTSIDE_PERMITTED_TIMES),
            new Rejected(12, ReasonCodes.REJECT_OUTSIDE_PERMITTED_TIMES),
            new Accepted(4, orderId(2), Side.SELL, 100, price(1000), DAY),
            new Added(orderId(2), Side.SELL, 100, price(1000)));
        assertThat(crossBook(Side.BUY)).containsExactly(new Resting(1, price(1000), 100, Display.ANONYMOUS));
    }

    @Test
    void shouldRejectCrossEntriesWithTheFirstFaultWhenInvalid()
    {
        assertThat(engine.priceBand(AAPL, price(1000), 100)).isTrue();

        engine.newOrder(1, GOOG, Side.BUY, 100, price(1000), DAY, 0, 0, Display.ANONYMOUS, CrossType.CLOSING);
        engine.newOrder(2, AAPL, Side.BUY, 100, price(1000), DAY, 0, 0, Display.ANONYMOUS, null);
        engine.newOrder(3, AAPL, Side.BUY, 0, -1, 100_000, 5, 0, null, CrossType.CLOSING);
        engine.newOrder(4, AAPL, Side.BUY, 100, price(1000), 0, 0, 0, Display.ANONYMOUS, CrossType.CLOSING);
        engine.newOrder(5, AAPL, Side.BUY, 100, price(1000), 30, 0, 0, Display.ANONYMOUS, CrossType.CLOSING);
        engine.newOrder(6, AAPL, Side.BUY, 100, price(1000), DAY, 0, 0, Display.NON_DISPLAYED, CrossType.CLOSING);
        engine.newOrder(7, AAPL, Side.BUY, 100, price(1000), DAY, 0, 0, Display.POST_ONLY, CrossType.CLOSING);
        engine.newOrder(8, AAPL, Side.BUY, 100, price(1000), DAY, 0, 0, Display.MIDPOINT_PEG, CrossType.CLOSING);
        engine.newOrder(9, AAPL, Side.BUY, 100, price(1000), DAY, 0, 0, null, CrossType.CLOSING);
        engine.newOrder(10, AAPL, Side.BUY, 100, price(1000), DAY, 100, 0, Display.ANONYMOUS, CrossType.CLOSING);
        engine.newOrder(11, AAPL, Side.BUY, 1_000_001, price(1000), DAY, 0, 0, Display.ANONYMOUS, CrossType.CLOSING);
        engine.newOrder(12, AAPL, Side.BUY, 100, price(1011), DAY, 0, 0, Display.ANONYMOUS, CrossType.CLOSING);
        engine.newOrder(13, AAPL, Side.BUY, 100, price(1010), SYSTEM_HOURS, 0, FIRM, Display.ATTRIBUTABLE,
            CrossType.CLOSING);
        engine.newOrder(13, AAPL, Side.SELL, 100, price(1000), DAY, 0, 0, Display.ANONYMOUS, CrossType.CLOSING);

        assertThat(events.drain()).containsExactly(
            new Rejected(1, ReasonCodes.REJECT_INVALID_STOCK),
            new Rejected(2, ReasonCodes.REJECT_NOT_ALLOWED_IN_CROSS),
            new Rejected(3, ReasonCodes.REJECT_OTHER),
            new Rejected(4, ReasonCodes.REJECT_NOT_ALLOWED_IN_CROSS),
            new Rejected(5, ReasonCodes.REJECT_NOT_ALLOWED_IN_CROSS),
            new Rejected(6, ReasonCodes.REJECT_INVALID_DISPLAY_TYPE),
            new Rejected(7, ReasonCodes.REJECT_INVALID_DISPLAY_TYPE),
            new Rejected(8, ReasonCodes.REJECT_INVALID_DISPLAY_TYPE),
            new Rejected(9, ReasonCodes.REJECT_INVALID_DISPLAY_TYPE),
            new Rejected(10, ReasonCodes.REJECT_INVALID_MINIMUM_QUANTITY),
            new Rejected(11, ReasonCodes.REJECT_SHARES_THRESHOLD),
            new Rejected(12, ReasonCodes.REJECT_INVALID_PRICE),
            new Accepted(13, orderId(1), Side.BUY, 100, price(1010), SYSTEM_HOURS, Display.ATTRIBUTABLE),
            new Rejected(13, ReasonCodes.REJECT_OTHER));
    }

    @Test
    void shouldAcceptCrossOrdersWhenHaltedAndRunTheCrossOnlyOnceOpenAgain()
    {
        assertThat(engine.tradingState(AAPL, TradingState.HALTED)).isTrue();
        cross(1, Side.BUY, 100, 1005);
        cross(2, Side.SELL, 100, 1000);
        enter(3, Side.SELL, 100, 1000, Display.ANONYMOUS);
        assertThat(engine.crossLock(AAPL)).isTrue();

        assertThat(engine.runCross(AAPL)).isFalse();
        assertThat(events.drain()).containsExactly(
            new StateChanged(TradingState.HALTED),
            new Accepted(1, orderId(1), Side.BUY, 100, price(1005), DAY),
            new Accepted(2, orderId(2), Side.SELL, 100, price(1000), DAY),
            new Rejected(3, ReasonCodes.REJECT_HALTED));
        assertThat(engine.book(AAPL).crossLocked()).isTrue();

        assertThat(engine.tradingState(AAPL, TradingState.OPEN)).isTrue();
        assertThat(engine.runCross(AAPL)).isTrue();

        assertThat(events.drain()).containsExactly(
            new StateChanged(TradingState.OPEN),
            new CrossExecuted(matchNumber(1), 100, price(1000), 1, Side.BUY, 2, 0, 0),
            new CrossCompleted(price(1000), 100, matchNumber(2), CrossType.CLOSING));
    }

    @Test
    void shouldRejectCrossOrdersWhenClosedAndCancelTheMarketHoursOnesOnClosing()
    {
        enter(1, Side.SELL, 100, 1010, Display.ANONYMOUS);
        cross(2, Side.BUY, 100, 1000);
        engine.newOrder(3, AAPL, Side.BUY, 100, price(999), SYSTEM_HOURS, 0, 0, Display.ANONYMOUS, CrossType.CLOSING);
        events.drain();

        assertThat(engine.tradingState(AAPL, TradingState.CLOSED)).isTrue();
        cross(4, Side.BUY, 100, 1000);
        assertThat(engine.crossLock(AAPL)).isTrue();
        cross(5, Side.BUY, 100, 1000);

        assertThat(engine.runCross(AAPL)).isFalse();
        assertThat(events.drain()).containsExactly(
            new StateChanged(TradingState.CLOSED),
            new Canceled(1, orderId(1), 100, 0, ReasonCodes.CANCEL_CLOSED, true),
            new Canceled(2, orderId(2), 100, 0, ReasonCodes.CANCEL_CLOSED, false),
            new Rejected(4, ReasonCodes.REJECT_CLOSED),
            new Rejected(5, ReasonCodes.REJECT_CLOSED));
        assertThat(crossBook(Side.BUY)).containsExactly(new Resting(3, price(999), 100, Display.ANONYMOUS));
    }

    @Test
    void shouldCancelEveryCrossOrderAndReportNothingExecutedWhenNoBuyReachesASell()
    {
        enter(1, Side.BUY, 100, 980, Display.ANONYMOUS);
        enter(2, Side.SELL, 100, 1010, Display.ANONYMOUS);
        cross(3, Side.BUY, 100, 990);
        cross(4, Side.SELL, 100, 1000);

        assertThat(lockAndRun()).containsExactly(
            new Canceled(3, orderId(3), 100, 0, ReasonCodes.CANCEL_CROSS, false),
            new Canceled(4, orderId(4), 100, 0, ReasonCodes.CANCEL_CROSS, false),
            new CrossCompleted(0, 0, 0, CrossType.CLOSING));
        assertThat(engine.runCross(AAPL)).isFalse();
        assertThat(lockAndRun()).containsExactly(new CrossCompleted(0, 0, 0, CrossType.CLOSING));
        assertThat(List.of(engine.openOrderCount(), engine.book(AAPL).lastTradePrice())).containsExactly(2, 0L);
    }

    /**
     * A bid at 9.90 and an offer at 10.10 (midpoint 10.00), a midpoint peg buy limited at 10.10 and a closing-cross
     * sell at 9.95: the peg takes no part, so no buy reaches 9.95 and nothing executes; the peg stays.
     */
    @Test
    void shouldLeaveMidpointPegsOutOfTheCross()
    {
        enter(1, Side.BUY, 100, 990, Display.ANONYMOUS);
        enter(2, Side.SELL, 100, 1010, Display.ANONYMOUS);
        enter(3, Side.BUY, 100, 1010, Display.MIDPOINT_PEG);
        cross(4, Side.SELL, 100, 995);

        assertThat(lockAndRun()).containsExactly(
            new Canceled(4, orderId(4), 100, 0, ReasonCodes.CANCEL_CROSS, false),
            new CrossCompleted(0, 0, 0, CrossType.CLOSING));
        assertThat(engine.book(AAPL).pegCount(Side.BUY)).isEqualTo(1);
    }

    @Test
    void shouldExecuteCrossOrdersOfOneFirmWhateverItsSelfTradePrevention()
    {
        engine.selfTradePrevention(FIRM, SelfTradePrevention.CANCEL_BOTH);
        engine.newOrder(1, AAPL, Side.BUY, 100, price(1000), DAY, 0, FIRM, Display.ANONYMOUS, CrossType.CLOSING);
        engine.newOrder(2, AAPL, Side.SELL, 100, price(1000), DAY, 0, FIRM, Display.ANONYMOUS, CrossType.CLOSING);

        assertThat(lockAndRun()).containsExactly(
            new CrossExecuted(matchNumber(1), 100, price(1000), 1, Side.BUY, 2, 0, 0),
            new CrossCompleted(price(1000), 100, matchNumber(2), CrossType.CLOSING));
    }

    @Test
    void shouldNumberCrossExecutionsAndTheCrossTradeInTheDaySequenceWhenContinuousTradesSurroundThem()
    {
        enter(1, Side.SELL, 100, 1000, Display.ANONYMOUS);
        enter(2, Side.BUY, 40, 1000, Display.ANONYMOUS);
        cross(3, Side.BUY, 30, 1001);
        cross(4, Side.BUY, 30, 1001);
        events.drain();

        assertThat(lockAndRun()).containsExactly(
            new CrossExecuted(matchNumber(2), 30, price(1000), 3, Side.BUY, 1, 30, 0),
            new CrossExecuted(matchNumber(3), 30, price(1000), 4, Side.BUY, 1, 0, 0),
            new CrossCompleted(price(1000), 60, matchNumber(4), CrossType.CLOSING));

        enter(5, Side.SELL, 10, 990, Display.ANONYMOUS);
        enter(6, Side.BUY, 10, 990, Display.ANONYMOUS);
        assertThat(events.drain()).containsExactly(
            new Accepted(5, orderId(5), Side.SELL, 10, price(990), DAY),
            new Added(orderId(5), Side.SELL, 10, price(990)),
            new Accepted(6, orderId(6), Side.BUY, 10, price(990), DAY),
            new Executed(matchNumber(5), 10, price(990), 6, 5, 0, 0));
    }

    @Test
    void shouldRefuseCrossCommandsWhenTheSymbolIsUnknownOrTheLockIsNotAsRequired()
    {
        assertThat(engine.crossLock(GOOG)).isFalse();
        assertThat(engine.runCross(GOOG)).isFalse();
        assertThat(engine.runCross(AAPL)).isFalse();
        assertThat(engine.crossLock(AAPL)).isTrue();
        assertThat(engine.crossLock(AAPL)).isFalse();

        assertThat(engine.book(AAPL).crossLocked()).isTrue();
        assertThat(events.drain()).isEmpty();
    }
}
