package io.bourse.engine.match;

import io.bourse.common.config.Symbols;
import org.junit.jupiter.api.Test;

import static io.bourse.engine.match.EngineEvents.Accepted;
import static io.bourse.engine.match.EngineEvents.Added;
import static io.bourse.engine.match.EngineEvents.Canceled;
import static io.bourse.engine.match.EngineEvents.CrossCompleted;
import static io.bourse.engine.match.EngineEvents.CrossExecuted;
import static io.bourse.engine.match.EngineEvents.Executed;
import static io.bourse.engine.match.EngineEvents.PriorityUpdated;
import static io.bourse.engine.match.EngineEvents.Replaced;
import static io.bourse.engine.match.EngineEvents.StateChanged;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * OUCH 4.2 Order Priority Update for midpoint pegs: a resting peg's working price (the midpoint while within its
 * limit, else its limit) reported whenever it differs from the price its owner last heard, after the command's other
 * events and its peg sweep, bid pegs then offer pegs, each side in time order. Prices in 1/10000 dollars.
 */
class MatchingEnginePegPriorityTest
{
    private static final long AAPL = Symbols.pack("AAPL");
    private static final int DAY = MatchingEngine.TIME_IN_FORCE_MARKET_HOURS;
    private static final int SYSTEM_HOURS = MatchingEngine.TIME_IN_FORCE_SYSTEM_HOURS;
    private static final int IOC = MatchingEngine.TIME_IN_FORCE_IMMEDIATE_OR_CANCEL;
    private static final int SHARD = 2;
    private static final long SECOND_NS = 1_000_000_000L;

    private final EngineEvents events = new EngineEvents();
    private final MatchingEngine engine = new MatchingEngine(SHARD, new long[]{AAPL}, 1_000_000, events);

    private static long orderId(final long n)
    {
        return (n << 4) | SHARD;
    }

    private static long matchNumber(final long n)
    {
        return (n << 4) | SHARD;
    }

    /** Enters a market-hours continuous order without firm. */
    private void enter(final long id, final Side side, final long quantity, final long price, final Display display)
    {
        enter(id, side, quantity, price, display, DAY);
    }

    private void enter(
        final long id, final Side side, final long quantity, final long price, final Display display,
        final int timeInForce)
    {
        engine.newOrder(id, AAPL, side, quantity, price, timeInForce, 0, 0, display);
    }

    private void peg(final long id, final Side side, final long quantity, final long limit)
    {
        enter(id, side, quantity, limit, Display.MIDPOINT_PEG);
    }

    @Test
    void shouldUpdateRestingPegWhenTheOppositeSideArrivesAndANewPegAtOnceWhenItRests()
    {
        enter(1, Side.BUY, 100, 990_000, Display.ANONYMOUS);
        events.drain();

        peg(2, Side.BUY, 100, 1_010_000);
        assertThat(events.drain()).as("no midpoint: no working price, the limit stands").containsExactly(
            new Accepted(2, orderId(2), Side.BUY, 100, 1_010_000, DAY, Display.MIDPOINT_PEG),
            new Added(orderId(2), Side.BUY, 100, 1_010_000, Display.MIDPOINT_PEG));

        enter(3, Side.SELL, 100, 1_020_000, Display.ANONYMOUS);
        assertThat(events.drain()).containsExactly(
            new Accepted(3, orderId(3), Side.SELL, 100, 1_020_000, DAY),
            new Added(orderId(3), Side.SELL, 100, 1_020_000),
            new PriorityUpdated(2, orderId(2), Side.BUY, 1_005_000));

        peg(4, Side.BUY, 50, 1_006_000);
        peg(5, Side.BUY, 50, 1_005_000);
        assertThat(events.drain()).as("a new peg within its limit at once; one whose limit is the midpoint never")
            .containsExactly(
                new Accepted(4, orderId(4), Side.BUY, 50, 1_006_000, DAY, Display.MIDPOINT_PEG),
                new Added(orderId(4), Side.BUY, 50, 1_006_000, Display.MIDPOINT_PEG),
                new PriorityUpdated(4, orderId(4), Side.BUY, 1_005_000),
                new Accepted(5, orderId(5), Side.BUY, 50, 1_005_000, DAY, Display.MIDPOINT_PEG),
                new Added(orderId(5), Side.BUY, 50, 1_005_000, Display.MIDPOINT_PEG));
    }

    /**
     * Offer pegs 3 (limit 99.40) and 4 (99.80) work at the midpoint 100.00; bid pegs 5 (99.60) and 6 (99.80), entered
     * later, do not. An offer at 99.40 moves the midpoint to 99.20: the bid pegs now work there, the offer pegs no
     * longer work and fall back to their limits. Bids are reported first, whatever the entry times.
     */
    @Test
    void shouldUpdateEveryPegOnceBidsFirstInTimeOrderWhenTheMidpointMoves()
    {
        enter(1, Side.BUY, 100, 990_000, Display.ANONYMOUS);
        enter(2, Side.SELL, 100, 1_010_000, Display.ANONYMOUS);
        peg(3, Side.SELL, 100, 994_000);
        peg(4, Side.SELL, 100, 998_000);
        peg(5, Side.BUY, 100, 996_000);
        peg(6, Side.BUY, 100, 998_000);
        assertThat(events.drain()).filteredOn(PriorityUpdated.class::isInstance).containsExactly(
            new PriorityUpdated(3, orderId(3), Side.SELL, 1_000_000),
            new PriorityUpdated(4, orderId(4), Side.SELL, 1_000_000));

        enter(7, Side.SELL, 100, 994_000, Display.ANONYMOUS);

        assertThat(events.drain()).containsExactly(
            new Accepted(7, orderId(7), Side.SELL, 100, 994_000, DAY),
            new Added(orderId(7), Side.SELL, 100, 994_000),
            new PriorityUpdated(5, orderId(5), Side.BUY, 992_000),
            new PriorityUpdated(6, orderId(6), Side.BUY, 992_000),
            new PriorityUpdated(3, orderId(3), Side.SELL, 994_000),
            new PriorityUpdated(4, orderId(4), Side.SELL, 998_000));
    }

    @Test
    void shouldUpdatePegToItsLimitWhenTheMidpointMovesBeyondItOrVanishes()
    {
        enter(1, Side.BUY, 100, 990_000, Display.ANONYMOUS);
        enter(2, Side.SELL, 100, 1_010_000, Display.ANONYMOUS);
        peg(3, Side.BUY, 100, 1_002_000);
        assertThat(events.drain()).endsWith(new PriorityUpdated(3, orderId(3), Side.BUY, 1_000_000));

        enter(4, Side.BUY, 100, 1_000_000, Display.ANONYMOUS);
        engine.cancelOrder(4, 0);
        engine.cancelOrder(2, 0);

        assertThat(events.drain()).containsExactly(
            new Accepted(4, orderId(4), Side.BUY, 100, 1_000_000, DAY),
            new Added(orderId(4), Side.BUY, 100, 1_000_000),
            new PriorityUpdated(3, orderId(3), Side.BUY, 1_002_000),
            new Canceled(4, orderId(4), 100, 0, ReasonCodes.CANCEL_USER_REQUESTED, true),
            new PriorityUpdated(3, orderId(3), Side.BUY, 1_000_000),
            new Canceled(2, orderId(2), 100, 0, ReasonCodes.CANCEL_USER_REQUESTED, true),
            new PriorityUpdated(3, orderId(3), Side.BUY, 1_002_000));
    }

    @Test
    void shouldNotUpdateWhenTheMidpointStaysOrThePegIsPartlyExecutedOrCanceledDownAtIt()
    {
        enter(1, Side.BUY, 100, 990_000, Display.ANONYMOUS);
        enter(2, Side.SELL, 100, 1_010_000, Display.ANONYMOUS);
        peg(3, Side.BUY, 100, 1_005_000);
        events.drain();

        enter(4, Side.BUY, 100, 985_000, Display.ANONYMOUS);
        engine.cancelOrder(1, 40);
        engine.newOrder(5, AAPL, Side.SELL, 30, 1_000_000, IOC);
        engine.cancelOrder(3, 50);

        assertThat(events.drain()).containsExactly(
            new Accepted(4, orderId(4), Side.BUY, 100, 985_000, DAY),
            new Added(orderId(4), Side.BUY, 100, 985_000),
            new Canceled(1, orderId(1), 60, 40, ReasonCodes.CANCEL_USER_REQUESTED, true),
            new Accepted(5, orderId(5), Side.SELL, 30, 1_000_000, IOC),
            new Executed(matchNumber(1), 30, 1_000_000, 5, 3, 70, 0),
            new Canceled(3, orderId(3), 20, 50, ReasonCodes.CANCEL_USER_REQUESTED, true));
    }

    /**
     * The offer moves from 103.00 to 101.00 and the midpoint from 101.00 to 100.00: bid peg 3 (limit 100.50) and offer
     * peg 4 (limit 99.50) now cross; 4, entered later, takes 60 from 3. Only 3, still resting, is updated.
     */
    @Test
    void shouldUpdateOnlyThePegLeftRestingWhenTheSweepExecutesAnotherInFull()
    {
        enter(1, Side.BUY, 100, 990_000, Display.ANONYMOUS);
        enter(2, Side.SELL, 100, 1_030_000, Display.ANONYMOUS);
        peg(3, Side.BUY, 100, 1_005_000);
        peg(4, Side.SELL, 60, 995_000);
        assertThat(events.drain()).filteredOn(PriorityUpdated.class::isInstance)
            .containsExactly(new PriorityUpdated(4, orderId(4), Side.SELL, 1_010_000));

        engine.replaceOrder(2, 12, 100, 1_010_000);

        assertThat(events.drain()).containsExactly(
            new Replaced(2, 12, orderId(2), orderId(5), 100, 1_010_000, BookUpdate.REPLACED),
            new Executed(matchNumber(1), 60, 1_000_000, 4, 3, 40, 0),
            new PriorityUpdated(3, orderId(3), Side.BUY, 1_000_000));
    }

    /**
     * Pegs do not execute while the symbol is halted, but their working price follows the midpoint in every state:
     * the halt itself reports nothing, a cancel during it moves the midpoint and reports both pegs (now crossing), and
     * the reopening's sweep executes them at the price already reported, with no further update.
     */
    @Test
    void shouldReportMidpointMovesWhileHaltedWithoutExecutingAndSweepWhenReopened()
    {
        enter(1, Side.BUY, 100, 990_000, Display.ANONYMOUS);
        enter(2, Side.BUY, 100, 970_000, Display.ANONYMOUS);
        enter(3, Side.SELL, 100, 1_030_000, Display.ANONYMOUS);
        peg(4, Side.BUY, 100, 1_002_000);
        peg(5, Side.SELL, 60, 995_000);
        assertThat(events.drain()).filteredOn(PriorityUpdated.class::isInstance)
            .containsExactly(new PriorityUpdated(5, orderId(5), Side.SELL, 1_010_000));

        engine.tradingState(AAPL, TradingState.HALTED);
        assertThat(events.drain()).containsExactly(new StateChanged(TradingState.HALTED));

        engine.cancelOrder(1, 0);
        assertThat(events.drain()).containsExactly(
            new Canceled(1, orderId(1), 100, 0, ReasonCodes.CANCEL_USER_REQUESTED, true),
            new PriorityUpdated(4, orderId(4), Side.BUY, 1_000_000),
            new PriorityUpdated(5, orderId(5), Side.SELL, 1_000_000));

        engine.tradingState(AAPL, TradingState.OPEN);
        assertThat(events.drain()).containsExactly(
            new StateChanged(TradingState.OPEN),
            new Executed(matchNumber(1), 60, 1_000_000, 5, 4, 40, 0));
    }

    @Test
    void shouldCancelMarketHoursPegWithoutUpdateAndUpdateTheOthersToTheirLimitWhenClosingRemovesTheMidpoint()
    {
        enter(1, Side.BUY, 100, 990_000, Display.ANONYMOUS);
        enter(2, Side.SELL, 100, 1_010_000, Display.ANONYMOUS, SYSTEM_HOURS);
        peg(3, Side.BUY, 100, 1_005_000);
        enter(4, Side.BUY, 100, 1_004_000, Display.MIDPOINT_PEG, SYSTEM_HOURS);
        assertThat(events.drain()).filteredOn(PriorityUpdated.class::isInstance).containsExactly(
            new PriorityUpdated(3, orderId(3), Side.BUY, 1_000_000),
            new PriorityUpdated(4, orderId(4), Side.BUY, 1_000_000));

        engine.tradingState(AAPL, TradingState.CLOSED);

        assertThat(events.drain()).containsExactly(
            new StateChanged(TradingState.CLOSED),
            new Canceled(1, orderId(1), 100, 0, ReasonCodes.CANCEL_CLOSED, true),
            new Canceled(3, orderId(3), 100, 0, ReasonCodes.CANCEL_CLOSED, true),
            new PriorityUpdated(4, orderId(4), Side.BUY, 1_004_000));
    }

    /**
     * Bids 99.00 and 98.00, offer 101.00, midpoint 100.00; a closing-cross sell of 100 at 99.00 crosses with the 99.00
     * bid (pegs take no part). The best bid becomes 98.00 and the midpoint 99.50: the peg's update follows the
     * cross's events.
     */
    @Test
    void shouldUpdatePegsAfterCrossCompletedWhenTheCrossMovesTheMidpoint()
    {
        enter(1, Side.BUY, 100, 990_000, Display.ANONYMOUS);
        enter(2, Side.BUY, 100, 980_000, Display.ANONYMOUS);
        enter(3, Side.SELL, 100, 1_010_000, Display.ANONYMOUS);
        peg(4, Side.BUY, 100, 1_005_000);
        engine.newOrder(5, AAPL, Side.SELL, 100, 990_000, DAY, 0, 0, Display.ANONYMOUS, CrossType.CLOSING);
        assertThat(events.drain()).filteredOn(PriorityUpdated.class::isInstance)
            .containsExactly(new PriorityUpdated(4, orderId(4), Side.BUY, 1_000_000));

        assertThat(engine.crossLock(AAPL)).isTrue();
        assertThat(engine.runCross(AAPL)).isTrue();

        assertThat(events.drain()).containsExactly(
            new CrossExecuted(matchNumber(1), 100, 990_000, 5, Side.SELL, 1, 0, 0),
            new CrossCompleted(990_000, 100, matchNumber(2), CrossType.CLOSING),
            new PriorityUpdated(4, orderId(4), Side.BUY, 995_000));
    }

    /**
     * Every Replaced tells the replacement's id the peg's limit, so a replace, even one at the same limit, is followed
     * by the working price again, under the new id and reference number, unless the new limit is beyond the midpoint.
     */
    @Test
    void shouldTellTheReplacementItsWorkingPriceAfterEveryReplaceOfAPeg()
    {
        enter(1, Side.BUY, 100, 990_000, Display.ANONYMOUS);
        enter(2, Side.SELL, 100, 1_010_000, Display.ANONYMOUS);
        peg(3, Side.BUY, 100, 1_005_000);
        events.drain();

        engine.replaceOrder(3, 13, 80, 1_005_000);
        engine.replaceOrder(13, 23, 80, 1_008_000);
        engine.replaceOrder(23, 33, 80, 995_000);

        assertThat(events.drain()).containsExactly(
            new Replaced(3, 13, orderId(3), orderId(4), 80, 1_005_000, BookUpdate.REPLACED, Display.MIDPOINT_PEG),
            new PriorityUpdated(13, orderId(4), Side.BUY, 1_000_000),
            new Replaced(13, 23, orderId(4), orderId(5), 80, 1_008_000, BookUpdate.REPLACED, Display.MIDPOINT_PEG),
            new PriorityUpdated(23, orderId(5), Side.BUY, 1_000_000),
            new Replaced(23, 33, orderId(5), orderId(6), 80, 995_000, BookUpdate.REPLACED, Display.MIDPOINT_PEG));
    }

    @Test
    void shouldUpdatePegWhenAnExpiryMovesTheMidpoint()
    {
        enter(1, Side.BUY, 100, 990_000, Display.ANONYMOUS);
        enter(2, Side.BUY, 100, 1_000_000, Display.ANONYMOUS, 1);
        enter(3, Side.SELL, 100, 1_010_000, Display.ANONYMOUS);
        peg(4, Side.BUY, 100, 1_002_000);
        assertThat(events.drain()).doesNotHaveAnyElementsOfTypes(PriorityUpdated.class);

        engine.advanceClock(SECOND_NS);

        assertThat(events.drain()).containsExactly(
            new Canceled(2, orderId(2), 100, 0, ReasonCodes.CANCEL_TIMEOUT, true),
            new PriorityUpdated(4, orderId(4), Side.BUY, 1_000_000));
    }
}
