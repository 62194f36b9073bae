package io.bourse.engine.match;

import io.bourse.common.config.Symbols;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static io.bourse.engine.match.EngineEvents.Accepted;
import static io.bourse.engine.match.EngineEvents.Added;
import static io.bourse.engine.match.EngineEvents.Canceled;
import static io.bourse.engine.match.EngineEvents.Executed;
import static io.bourse.engine.match.EngineEvents.Replaced;
import static org.assertj.core.api.Assertions.assertThat;

/** Self-trade prevention per firm, every mode. */
class MatchingEngineSelfTradeTest
{
    private static final long AAPL = Symbols.pack("AAPL");
    private static final int DAY = MatchingEngine.TIME_IN_FORCE_MARKET_HOURS;
    private static final int IOC = MatchingEngine.TIME_IN_FORCE_IMMEDIATE_OR_CANCEL;
    private static final int SHARD = 5;
    private static final int FIRM_A = 0x41414141;
    private static final int FIRM_B = 0x42424242;
    private static final long PRICE = 1_000_000;
    private static final byte Q = ReasonCodes.CANCEL_SELF_MATCH_PREVENTION;

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

    private record Resting(long clientOrderId, long remaining)
    {
    }

    private List<Resting> book(final Side side)
    {
        final List<Resting> orders = new ArrayList<>();
        engine.book(AAPL).forEachOrder(side,
            (clientOrderId, id, s, price, remaining, display) -> orders.add(new Resting(clientOrderId, remaining)));
        return orders;
    }

    /** Offers, in priority order: #1 100 shares of firm A, #2 100 of firm B, #3 100 of firm A. */
    private void restOffers(final SelfTradePrevention mode)
    {
        engine.selfTradePrevention(mode);
        engine.newOrder(1, AAPL, Side.SELL, 100, PRICE, DAY, 0, FIRM_A);
        engine.newOrder(2, AAPL, Side.SELL, 100, PRICE, DAY, 0, FIRM_B);
        engine.newOrder(3, AAPL, Side.SELL, 100, PRICE, DAY, 0, FIRM_A);
        events.drain();
    }

    @Test
    void shouldTradeWithinFirmWhenPreventionOff()
    {
        restOffers(SelfTradePrevention.NONE);

        engine.newOrder(4, AAPL, Side.BUY, 50, PRICE, DAY, 0, FIRM_A);

        assertThat(events.drain()).containsExactly(
            new Accepted(4, orderId(4), Side.BUY, 50, PRICE, DAY),
            new Executed(matchNumber(1), 50, PRICE, 4, 1, 50, 0));
        assertThat(engine.selfTradePrevention()).isEqualTo(SelfTradePrevention.NONE);
    }

    @Test
    void shouldNeverSelfMatchWhenFirmIsZero()
    {
        engine.selfTradePrevention(SelfTradePrevention.CANCEL_BOTH);
        engine.newOrder(1, AAPL, Side.SELL, 100, PRICE, DAY);
        events.drain();

        engine.newOrder(2, AAPL, Side.BUY, 100, PRICE, DAY, 0, 0);

        assertThat(events.drain()).containsExactly(
            new Accepted(2, orderId(2), Side.BUY, 100, PRICE, DAY),
            new Executed(matchNumber(1), 100, PRICE, 2, 1, 0, 0));
    }

    @Test
    void shouldCancelTakerRemainderAndStopWhenCancelNewest()
    {
        restOffers(SelfTradePrevention.CANCEL_NEWEST);
        engine.cancelOrder(1, 0);
        events.drain();

        engine.newOrder(4, AAPL, Side.BUY, 250, PRICE, DAY, 0, FIRM_A);

        assertThat(events.drain()).containsExactly(
            new Accepted(4, orderId(4), Side.BUY, 250, PRICE, DAY),
            new Executed(matchNumber(1), 100, PRICE, 4, 2, 0, 150),
            new Canceled(4, orderId(4), 150, 0, Q, false));
        assertThat(book(Side.SELL)).containsExactly(new Resting(3, 100));
        assertThat(book(Side.BUY)).isEmpty();
    }

    @Test
    void shouldCancelMakersAndContinueWhenCancelOldest()
    {
        restOffers(SelfTradePrevention.CANCEL_OLDEST);

        engine.newOrder(4, AAPL, Side.BUY, 250, PRICE, DAY, 0, FIRM_A);

        assertThat(events.drain()).containsExactly(
            new Accepted(4, orderId(4), Side.BUY, 250, PRICE, DAY),
            new Canceled(1, orderId(1), 100, 0, Q, true),
            new Executed(matchNumber(1), 100, PRICE, 4, 2, 0, 150),
            new Canceled(3, orderId(3), 100, 0, Q, true),
            new Added(orderId(4), Side.BUY, 150, PRICE));
        assertThat(book(Side.SELL)).isEmpty();
        assertThat(book(Side.BUY)).containsExactly(new Resting(4, 150));
        assertThat(engine.openOrderCount()).isEqualTo(1);
    }

    @Test
    void shouldCancelMakerThenTakerWhenCancelBoth()
    {
        restOffers(SelfTradePrevention.CANCEL_BOTH);

        engine.newOrder(4, AAPL, Side.BUY, 250, PRICE, DAY, 0, FIRM_A);

        assertThat(events.drain()).containsExactly(
            new Accepted(4, orderId(4), Side.BUY, 250, PRICE, DAY),
            new Canceled(1, orderId(1), 100, 0, Q, true),
            new Canceled(4, orderId(4), 250, 0, Q, false));
        assertThat(book(Side.SELL)).containsExactly(new Resting(2, 100), new Resting(3, 100));
    }

    @Test
    void shouldDecrementBothAndContinueWithLargerWhenDecrement()
    {
        restOffers(SelfTradePrevention.DECREMENT);

        engine.newOrder(4, AAPL, Side.BUY, 230, PRICE, DAY, 0, FIRM_A);

        assertThat(events.drain()).containsExactly(
            new Accepted(4, orderId(4), Side.BUY, 230, PRICE, DAY),
            new Canceled(1, orderId(1), 100, 0, Q, true),
            new Canceled(4, orderId(4), 100, 130, Q, false),
            new Executed(matchNumber(1), 100, PRICE, 4, 2, 0, 30),
            new Canceled(3, orderId(3), 30, 70, Q, true),
            new Canceled(4, orderId(4), 30, 0, Q, false));
        assertThat(book(Side.SELL)).containsExactly(new Resting(3, 70));
        assertThat(book(Side.BUY)).isEmpty();
    }

    @Test
    void shouldCountOnlySharesThatWouldExecuteWhenMinimumQuantity()
    {
        restOffers(SelfTradePrevention.CANCEL_OLDEST);

        engine.newOrder(4, AAPL, Side.BUY, 150, PRICE, IOC, 150, FIRM_A);
        engine.newOrder(5, AAPL, Side.BUY, 100, PRICE, IOC, 100, FIRM_A);

        assertThat(events.drain()).containsExactly(
            new Accepted(4, orderId(4), Side.BUY, 150, PRICE, IOC),
            new Canceled(4, orderId(4), 150, 0, ReasonCodes.CANCEL_IMMEDIATE_OR_CANCEL, false),
            new Accepted(5, orderId(5), Side.BUY, 100, PRICE, IOC),
            new Canceled(1, orderId(1), 100, 0, Q, true),
            new Executed(matchNumber(1), 100, PRICE, 5, 2, 0, 0));
        assertThat(book(Side.SELL)).containsExactly(new Resting(3, 100));
    }

    @Test
    void shouldKeepFirmAcrossReplaceWhenReplacedOrderCrosses()
    {
        engine.selfTradePrevention(SelfTradePrevention.CANCEL_NEWEST);
        engine.newOrder(1, AAPL, Side.SELL, 100, PRICE, DAY, 0, FIRM_A);
        engine.newOrder(2, AAPL, Side.BUY, 100, PRICE - 100, DAY, 0, FIRM_A);
        events.drain();

        engine.replaceOrder(2, 12, 100, PRICE);

        assertThat(events.drain()).containsExactly(
            new Replaced(2, 12, orderId(2), orderId(3), 100, PRICE, BookUpdate.REMOVED),
            new Canceled(12, orderId(3), 100, 0, Q, false));
        assertThat(book(Side.SELL)).containsExactly(new Resting(1, 100));
        assertThat(book(Side.BUY)).isEmpty();
        assertThat(engine.openQuantity(12)).isZero();
    }

    @Test
    void shouldApplyFirmOwnModeOverEngineDefaultAndFallBackWhenCleared()
    {
        engine.selfTradePrevention(SelfTradePrevention.CANCEL_OLDEST);
        engine.selfTradePrevention(FIRM_B, SelfTradePrevention.CANCEL_NEWEST);
        engine.newOrder(1, AAPL, Side.SELL, 100, PRICE, DAY, 0, FIRM_A);
        engine.newOrder(2, AAPL, Side.SELL, 100, PRICE, DAY, 0, FIRM_B);
        events.drain();

        engine.newOrder(3, AAPL, Side.BUY, 100, PRICE, IOC, 0, FIRM_B);
        engine.selfTradePrevention(FIRM_B, null);
        engine.newOrder(4, AAPL, Side.BUY, 50, PRICE, IOC, 0, FIRM_A);

        assertThat(events.drain()).containsExactly(
            new Accepted(3, orderId(3), Side.BUY, 100, PRICE, IOC),
            new Executed(matchNumber(1), 100, PRICE, 3, 1, 0, 0),
            new Accepted(4, orderId(4), Side.BUY, 50, PRICE, IOC),
            new Executed(matchNumber(2), 50, PRICE, 4, 2, 50, 0));
        assertThat(engine.selfTradePrevention(FIRM_B)).isEqualTo(SelfTradePrevention.CANCEL_OLDEST);
        assertThat(engine.selfTradePrevention(0)).isEqualTo(SelfTradePrevention.NONE);
    }

    @Test
    void shouldCancelNewestForOneFirmWhileOthersTradeWithThemselves()
    {
        engine.selfTradePrevention(FIRM_A, SelfTradePrevention.CANCEL_NEWEST);
        engine.newOrder(1, AAPL, Side.SELL, 100, PRICE, DAY, 0, FIRM_A);
        engine.newOrder(2, AAPL, Side.SELL, 100, PRICE, DAY, 0, FIRM_B);
        events.drain();

        engine.newOrder(3, AAPL, Side.BUY, 100, PRICE, IOC, 0, FIRM_B);
        engine.newOrder(4, AAPL, Side.BUY, 100, PRICE, DAY, 0, FIRM_A);

        assertThat(events.drain()).containsExactly(
            new Accepted(3, orderId(3), Side.BUY, 100, PRICE, IOC),
            new Executed(matchNumber(1), 100, PRICE, 3, 1, 0, 0),
            new Accepted(4, orderId(4), Side.BUY, 100, PRICE, DAY),
            new Executed(matchNumber(2), 100, PRICE, 4, 2, 0, 0));
    }
}
