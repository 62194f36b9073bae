package io.bourse.engine.match;

import io.bourse.common.config.Symbols;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static io.bourse.engine.match.EngineEvents.Accepted;
import static io.bourse.engine.match.EngineEvents.Added;
import static io.bourse.engine.match.EngineEvents.Canceled;
import static io.bourse.engine.match.EngineEvents.Executed;
import static io.bourse.engine.match.EngineEvents.PriorityUpdated;
import static io.bourse.engine.match.EngineEvents.Rejected;
import static io.bourse.engine.match.EngineEvents.Replaced;
import static io.bourse.engine.match.EngineEvents.StateChanged;
import static org.assertj.core.api.Assertions.assertThat;

/** OUCH 4.2 Display: non-displayed priority, post-only repricing, midpoint pegs and their sweep. */
class MatchingEngineDisplayTest
{
    private static final long AAPL = Symbols.pack("AAPL");
    private static final int DAY = MatchingEngine.TIME_IN_FORCE_MARKET_HOURS;
    private static final int IOC = MatchingEngine.TIME_IN_FORCE_IMMEDIATE_OR_CANCEL;
    private static final int SHARD = 1;

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

    private void enter(final long id, final Side side, final long quantity, final long price, final Display display)
    {
        engine.newOrder(id, AAPL, side, quantity, price, DAY, 0, 0, display);
    }

    @Test
    void shouldQueueNonDisplayedBehindDisplayedAtSamePriceWhateverTheEntryTime()
    {
        enter(1, Side.SELL, 100, 1_000_000, Display.NON_DISPLAYED);
        enter(2, Side.SELL, 100, 1_000_000, Display.ANONYMOUS);
        enter(3, Side.SELL, 100, 1_000_000, Display.NON_DISPLAYED);
        enter(4, Side.SELL, 100, 1_000_000, Display.ATTRIBUTABLE);
        events.drain();

        engine.newOrder(5, AAPL, Side.BUY, 250, 1_000_000, IOC);

        assertThat(events.drain()).containsExactly(
            new Accepted(5, orderId(5), Side.BUY, 250, 1_000_000, IOC),
            new Executed(matchNumber(1), 100, 1_000_000, 5, 2, 0, 150),
            new Executed(matchNumber(2), 100, 1_000_000, 5, 4, 0, 50),
            new Executed(matchNumber(3), 50, 1_000_000, 5, 1, 50, 0));
        assertThat(book(Side.SELL)).containsExactly(
            new Resting(1, 1_000_000, 50, Display.NON_DISPLAYED),
            new Resting(3, 1_000_000, 100, Display.NON_DISPLAYED));
        assertThat(engine.book(AAPL).bestDisplayedPrice(Side.SELL)).isZero();
        assertThat(engine.book(AAPL).bestPrice(Side.SELL)).isEqualTo(1_000_000);
    }

    @Test
    void shouldKeepNonDisplayedBehindDisplayedAfterCancelDownAndReplace()
    {
        enter(1, Side.BUY, 100, 1_000_000, Display.NON_DISPLAYED);
        enter(2, Side.BUY, 100, 1_000_000, Display.ANONYMOUS);
        engine.cancelOrder(1, 60);
        engine.replaceOrder(2, 12, 100, 1_000_000);
        enter(3, Side.BUY, 10, 1_000_000, Display.ANONYMOUS);
        events.drain();

        assertThat(book(Side.BUY)).containsExactly(
            new Resting(12, 1_000_000, 100, Display.ANONYMOUS),
            new Resting(3, 1_000_000, 10, Display.ANONYMOUS),
            new Resting(1, 1_000_000, 60, Display.NON_DISPLAYED));
    }

    @Test
    void shouldRepricePostOnlyOneTickAwayInsteadOfTakingLiquidity()
    {
        enter(1, Side.SELL, 100, 1_000_000, Display.NON_DISPLAYED);
        enter(2, Side.BUY, 100, 5_000, Display.ANONYMOUS);
        events.drain();

        enter(3, Side.BUY, 50, 1_010_000, Display.POST_ONLY);
        enter(4, Side.SELL, 50, 4_000, Display.POST_ONLY);
        enter(5, Side.BUY, 50, 990_000, Display.POST_ONLY);

        assertThat(events.drain()).containsExactly(
            new Accepted(3, orderId(3), Side.BUY, 50, 999_900, DAY, Display.POST_ONLY),
            new Added(orderId(3), Side.BUY, 50, 999_900, Display.POST_ONLY),
            new Accepted(4, orderId(4), Side.SELL, 50, 1_000_000, DAY, Display.POST_ONLY),
            new Added(orderId(4), Side.SELL, 50, 1_000_000, Display.POST_ONLY),
            new Accepted(5, orderId(5), Side.BUY, 50, 990_000, DAY, Display.POST_ONLY),
            new Added(orderId(5), Side.BUY, 50, 990_000, Display.POST_ONLY));
    }

    @Test
    void shouldRepricePostOnlyByOneHundredthOfACentBelowOneDollar()
    {
        enter(1, Side.SELL, 100, 5_000, Display.ANONYMOUS);
        events.drain();

        enter(2, Side.BUY, 50, 6_000, Display.POST_ONLY);

        assertThat(events.drain()).containsExactly(
            new Accepted(2, orderId(2), Side.BUY, 50, 4_999, DAY, Display.POST_ONLY),
            new Added(orderId(2), Side.BUY, 50, 4_999, Display.POST_ONLY));
    }

    /**
     * The tick is the one of the price a post-only order lands at: a buy against an offer at exactly $1.0000 rests at
     * $0.9999, below a dollar, not a cent lower (before, the tick was taken from the offer's price, so $0.9900); a sell
     * against a bid at $0.9999 rests at $1.0000.
     */
    @Test
    void shouldRepricePostOnlyWithTheTickOfThePriceItLandsAtAroundOneDollar()
    {
        enter(1, Side.SELL, 100, 10_000, Display.ANONYMOUS);
        events.drain();

        enter(2, Side.BUY, 50, 10_200, Display.POST_ONLY);
        enter(3, Side.SELL, 50, 9_000, Display.POST_ONLY);

        assertThat(events.drain()).containsExactly(
            new Accepted(2, orderId(2), Side.BUY, 50, 9_999, DAY, Display.POST_ONLY),
            new Added(orderId(2), Side.BUY, 50, 9_999, Display.POST_ONLY),
            new Accepted(3, orderId(3), Side.SELL, 50, 10_000, DAY, Display.POST_ONLY),
            new Added(orderId(3), Side.SELL, 50, 10_000, Display.POST_ONLY));
    }

    @Test
    void shouldRejectPostOnlyWhenImmediateOrCancelOrRepricedOutsideBand()
    {
        enter(1, Side.SELL, 100, 1_000_000, Display.ANONYMOUS);
        engine.priceBand(AAPL, 1_000_000, 0);
        events.drain();

        engine.newOrder(2, AAPL, Side.BUY, 10, 1_000_000, IOC, 0, 0, Display.POST_ONLY);
        enter(3, Side.BUY, 10, 1_000_000, Display.POST_ONLY);
        engine.newOrder(4, AAPL, Side.BUY, 10, 1_000_000, DAY, 0, 0, null);

        assertThat(events.drain()).containsExactly(
            new Rejected(2, ReasonCodes.REJECT_INVALID_DISPLAY_TYPE),
            new Rejected(3, ReasonCodes.REJECT_INVALID_PRICE),
            new Rejected(4, ReasonCodes.REJECT_INVALID_DISPLAY_TYPE));
        assertThat(book(Side.BUY)).isEmpty();
    }

    @Test
    void shouldRepricePostOnlyReplaceAndKeepItsDisplay()
    {
        enter(1, Side.SELL, 100, 1_000_000, Display.ANONYMOUS);
        enter(2, Side.BUY, 100, 990_000, Display.POST_ONLY);
        events.drain();

        engine.replaceOrder(2, 12, 100, 1_000_000);

        assertThat(events.drain()).containsExactly(
            new Replaced(2, 12, orderId(2), orderId(3), 100, 999_900, BookUpdate.REPLACED, Display.POST_ONLY));
    }

    @Test
    void shouldExecuteIncomingOrderAgainstEligiblePegAtMidpointBeforeWorseLevels()
    {
        enter(1, Side.BUY, 100, 990_000, Display.ANONYMOUS);
        enter(2, Side.SELL, 100, 1_010_000, Display.ANONYMOUS);
        enter(3, Side.SELL, 100, 1_020_000, Display.MIDPOINT_PEG);
        enter(4, Side.SELL, 100, 1_000_000, Display.MIDPOINT_PEG);
        events.drain();

        engine.newOrder(5, AAPL, Side.BUY, 150, 1_010_000, IOC);

        assertThat(events.drain()).containsExactly(
            new Accepted(5, orderId(5), Side.BUY, 150, 1_010_000, IOC),
            new Executed(matchNumber(1), 100, 1_000_000, 5, 4, 0, 50),
            new Executed(matchNumber(2), 50, 1_010_000, 5, 2, 50, 0));
        assertThat(book(Side.SELL)).containsExactly(
            new Resting(2, 1_010_000, 50, Display.ANONYMOUS),
            new Resting(3, 1_020_000, 100, Display.MIDPOINT_PEG));
    }

    @Test
    void shouldExecuteIncomingPegAtMidpointAndRestRemainderInPegQueue()
    {
        enter(1, Side.BUY, 100, 990_000, Display.ANONYMOUS);
        enter(2, Side.SELL, 100, 1_010_000, Display.ANONYMOUS);
        enter(3, Side.SELL, 40, 995_000, Display.NON_DISPLAYED);
        events.drain();

        enter(4, Side.BUY, 100, 1_005_000, Display.MIDPOINT_PEG);

        assertThat(events.drain()).containsExactly(
            new Accepted(4, orderId(4), Side.BUY, 100, 1_005_000, DAY, Display.MIDPOINT_PEG),
            new Executed(matchNumber(1), 40, 995_000, 4, 3, 0, 60),
            new Added(orderId(4), Side.BUY, 60, 1_005_000, Display.MIDPOINT_PEG),
            new PriorityUpdated(4, orderId(4), Side.BUY, 1_000_000));
        assertThat(book(Side.BUY)).containsExactly(
            new Resting(1, 990_000, 100, Display.ANONYMOUS),
            new Resting(4, 1_005_000, 60, Display.MIDPOINT_PEG));
        assertThat(engine.book(AAPL).pegCount(Side.BUY)).isEqualTo(1);
    }

    @Test
    void shouldSweepRestingPegsWhenMidpointMovesIntoTheirLimits()
    {
        enter(1, Side.BUY, 100, 990_000, Display.ANONYMOUS);
        enter(2, Side.SELL, 100, 1_030_000, Display.ANONYMOUS);
        enter(3, Side.BUY, 100, 1_000_000, Display.MIDPOINT_PEG);
        enter(4, Side.SELL, 60, 995_000, Display.MIDPOINT_PEG);
        assertThat(engine.book(AAPL).midpoint()).isEqualTo(1_010_000);
        events.drain();

        engine.replaceOrder(2, 12, 100, 1_010_000);

        assertThat(events.drain()).containsExactly(
            new Replaced(2, 12, orderId(2), orderId(5), 100, 1_010_000, BookUpdate.REPLACED),
            new Executed(matchNumber(1), 60, 1_000_000, 4, 3, 40, 0));
        assertThat(book(Side.BUY)).containsExactly(
            new Resting(1, 990_000, 100, Display.ANONYMOUS),
            new Resting(3, 1_000_000, 40, Display.MIDPOINT_PEG));
        assertThat(book(Side.SELL)).containsExactly(new Resting(12, 1_010_000, 100, Display.ANONYMOUS));
    }

    @Test
    void shouldNotExecutePegsWithoutMidpointAndCancelIneligibleImmediateOrCancelPeg()
    {
        enter(1, Side.SELL, 100, 1_000_000, Display.MIDPOINT_PEG);
        events.drain();

        engine.newOrder(2, AAPL, Side.BUY, 100, 2_000_000, IOC, 0, 0, Display.MIDPOINT_PEG);
        engine.newOrder(3, AAPL, Side.BUY, 100, 2_000_000, IOC);

        assertThat(events.drain()).containsExactly(
            new Accepted(2, orderId(2), Side.BUY, 100, 2_000_000, IOC, Display.MIDPOINT_PEG),
            new Canceled(2, orderId(2), 100, 0, ReasonCodes.CANCEL_IMMEDIATE_OR_CANCEL, false),
            new Accepted(3, orderId(3), Side.BUY, 100, 2_000_000, IOC),
            new Canceled(3, orderId(3), 100, 0, ReasonCodes.CANCEL_IMMEDIATE_OR_CANCEL, false));
        assertThat(book(Side.SELL)).containsExactly(new Resting(1, 1_000_000, 100, Display.MIDPOINT_PEG));
    }

    @Test
    void shouldCountEligiblePegsForMinimumQuantity()
    {
        enter(1, Side.BUY, 100, 990_000, Display.ANONYMOUS);
        enter(2, Side.SELL, 100, 1_010_000, Display.ANONYMOUS);
        enter(3, Side.SELL, 50, 990_000, Display.MIDPOINT_PEG);
        events.drain();

        engine.newOrder(4, AAPL, Side.BUY, 200, 1_010_000, IOC, 200);
        engine.newOrder(5, AAPL, Side.BUY, 150, 1_010_000, IOC, 150);

        assertThat(events.drain()).containsExactly(
            new Accepted(4, orderId(4), Side.BUY, 200, 1_010_000, IOC),
            new Canceled(4, orderId(4), 200, 0, ReasonCodes.CANCEL_IMMEDIATE_OR_CANCEL, false),
            new Accepted(5, orderId(5), Side.BUY, 150, 1_010_000, IOC),
            new Executed(matchNumber(1), 50, 1_000_000, 5, 3, 0, 100),
            new Executed(matchNumber(2), 100, 1_010_000, 5, 2, 0, 0));
    }

    @Test
    void shouldNotTradePegsWhileHaltedAndSweepWhenReopened()
    {
        enter(1, Side.BUY, 100, 970_000, Display.ANONYMOUS);
        enter(2, Side.BUY, 100, 990_000, Display.ANONYMOUS);
        enter(3, Side.SELL, 100, 1_030_000, Display.ANONYMOUS);
        enter(4, Side.BUY, 100, 1_000_000, Display.MIDPOINT_PEG);
        enter(5, Side.SELL, 30, 995_000, Display.NON_DISPLAYED);
        engine.tradingState(AAPL, TradingState.HALTED);
        engine.cancelOrder(2, 0);
        events.drain();
        assertThat(engine.book(AAPL).midpoint()).isEqualTo(1_000_000);

        engine.tradingState(AAPL, TradingState.OPEN);

        assertThat(events.drain()).containsExactly(
            new StateChanged(TradingState.OPEN),
            new Executed(matchNumber(1), 30, 995_000, 4, 5, 0, 70));
        assertThat(book(Side.BUY)).containsExactly(
            new Resting(1, 970_000, 100, Display.ANONYMOUS),
            new Resting(4, 1_000_000, 70, Display.MIDPOINT_PEG));
        assertThat(book(Side.SELL)).containsExactly(new Resting(3, 1_030_000, 100, Display.ANONYMOUS));
    }
}
