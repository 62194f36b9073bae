package io.bourse.engine.match;

import io.bourse.common.config.Symbols;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static io.bourse.engine.match.EngineEvents.Accepted;
import static io.bourse.engine.match.EngineEvents.Added;
import static io.bourse.engine.match.EngineEvents.Canceled;
import static io.bourse.engine.match.EngineEvents.Executed;
import static io.bourse.engine.match.EngineEvents.Rejected;
import static io.bourse.engine.match.EngineEvents.Replaced;
import static io.bourse.engine.match.EngineEvents.StateChanged;
import static org.assertj.core.api.Assertions.assertThat;

/** OUCH 4.2 Time in Force: good-till-seconds expiry on the input's clock, and market-hours orders at the close. */
class MatchingEngineTimeInForceTest
{
    private static final long AAPL = Symbols.pack("AAPL");
    private static final int MARKET_HOURS = MatchingEngine.TIME_IN_FORCE_MARKET_HOURS;
    private static final int SYSTEM_HOURS = MatchingEngine.TIME_IN_FORCE_SYSTEM_HOURS;
    private static final long SECOND = 1_000_000_000L;
    private static final long NINE_THIRTY = (9 * 3600 + 30 * 60) * SECOND;
    private static final int SHARD = 3;
    private static final byte T = ReasonCodes.CANCEL_TIMEOUT;

    private final EngineEvents events = new EngineEvents();
    private final MatchingEngine engine = new MatchingEngine(SHARD, new long[]{AAPL}, 1_000_000, events);

    private static long orderId(final long n)
    {
        return (n << 4) | SHARD;
    }

    private List<Long> openIds(final Side side)
    {
        final List<Long> ids = new ArrayList<>();
        engine.book(AAPL).forEachOrder(side,
            (clientOrderId, id, s, price, remaining, display) -> ids.add(clientOrderId));
        return ids;
    }

    @Test
    void shouldCancelWithTimeoutWhenClockReachesExpiryEarliestFirstThenEntryOrder()
    {
        engine.advanceClock(NINE_THIRTY);
        engine.newOrder(1, AAPL, Side.BUY, 100, 990_000, 10);
        engine.newOrder(2, AAPL, Side.BUY, 100, 980_000, 5);
        engine.advanceClock(NINE_THIRTY + 5 * SECOND);
        engine.newOrder(3, AAPL, Side.BUY, 100, 970_000, 5);
        engine.newOrder(4, AAPL, Side.BUY, 100, 960_000, 10);
        events.drain();

        engine.advanceClock(NINE_THIRTY + 10 * SECOND - 1);
        assertThat(events.drain()).isEmpty();
        engine.advanceClock(NINE_THIRTY + 10 * SECOND);

        assertThat(events.drain()).containsExactly(
            new Canceled(1, orderId(1), 100, 0, T, true),
            new Canceled(3, orderId(3), 100, 0, T, true));
        assertThat(openIds(Side.BUY)).containsExactly(4L);
        assertThat(engine.clockNs()).isEqualTo(NINE_THIRTY + 10 * SECOND);
    }

    @Test
    void shouldNeverMoveClockBackwards()
    {
        engine.advanceClock(NINE_THIRTY);
        engine.advanceClock(NINE_THIRTY - SECOND);
        engine.newOrder(1, AAPL, Side.SELL, 100, 1_000_000, 1);
        events.drain();

        engine.advanceClock(NINE_THIRTY + SECOND);

        assertThat(events.drain()).containsExactly(new Canceled(1, orderId(1), 100, 0, T, true));
    }

    /**
     * A gateway that ran past midnight stamped times past a day; restarted, it counts from that midnight: its times,
     * a day behind the clock, move the clock on from where its last run left it.
     */
    @Test
    void shouldReadATimestampADayBehindTheClockAsTheNextDaysAndExpireOnIt()
    {
        final long day = 86_400 * SECOND;
        engine.advanceClock(day + 2 * 3600 * SECOND);
        engine.advanceClock(2 * 3600 * SECOND + SECOND);
        assertThat(engine.clockNs()).isEqualTo(day + 2 * 3600 * SECOND + SECOND);
        engine.newOrder(1, AAPL, Side.SELL, 100, 1_000_000, 2);
        engine.advanceClock(2 * 3600 * SECOND);
        engine.advanceClock(day + 2 * 3600 * SECOND - SECOND);
        events.drain();
        assertThat(engine.clockNs()).as("never backwards, on either day").isEqualTo(day + 2 * 3600 * SECOND + SECOND);

        engine.advanceClock(2 * 3600 * SECOND + 3 * SECOND - 1);
        assertThat(events.drain()).isEmpty();
        engine.advanceClock(2 * 3600 * SECOND + 3 * SECOND);

        assertThat(events.drain()).containsExactly(new Canceled(1, orderId(1), 100, 0, T, true));
        assertThat(engine.clockNs()).isEqualTo(day + 2 * 3600 * SECOND + 3 * SECOND);
    }

    @Test
    void shouldKeepExpiryAcrossReplaceAndForgetFilledOrders()
    {
        engine.newOrder(1, AAPL, Side.SELL, 100, 1_000_000, 60);
        engine.newOrder(2, AAPL, Side.SELL, 100, 1_010_000, 60);
        engine.replaceOrder(1, 11, 100, 1_020_000);
        engine.newOrder(3, AAPL, Side.BUY, 100, 1_010_000, MARKET_HOURS);
        events.drain();

        engine.advanceClock(60 * SECOND);

        assertThat(events.drain()).containsExactly(new Canceled(11, orderId(3), 100, 0, T, true));
        assertThat(engine.openOrderCount()).isZero();
    }

    @Test
    void shouldCancelMarketHoursOrdersButKeepOthersWhenClosed()
    {
        engine.newOrder(1, AAPL, Side.BUY, 100, 990_000, SYSTEM_HOURS);
        engine.newOrder(2, AAPL, Side.BUY, 100, 990_000, MARKET_HOURS);
        engine.newOrder(3, AAPL, Side.SELL, 100, 1_010_000, MARKET_HOURS);
        engine.newOrder(4, AAPL, Side.SELL, 100, 1_020_000, 600);
        engine.newOrder(5, AAPL, Side.BUY, 100, 980_000, MARKET_HOURS, 0, 0, Display.MIDPOINT_PEG);
        engine.newOrder(6, AAPL, Side.BUY, 100, 985_000, MARKET_HOURS, 0, 0, Display.NON_DISPLAYED);
        events.drain();

        engine.tradingState(AAPL, TradingState.CLOSED);
        engine.tradingState(AAPL, TradingState.CLOSED);

        final byte e = ReasonCodes.CANCEL_CLOSED;
        assertThat(events.drain()).containsExactly(
            new StateChanged(TradingState.CLOSED),
            new Canceled(2, orderId(2), 100, 0, e, true),
            new Canceled(6, orderId(6), 100, 0, e, true),
            new Canceled(3, orderId(3), 100, 0, e, true),
            new Canceled(5, orderId(5), 100, 0, e, true));
        assertThat(openIds(Side.BUY)).containsExactly(1L);
        assertThat(openIds(Side.SELL)).containsExactly(4L);
    }

    @Test
    void shouldExpireWhileHaltedAndMatchTimedOrdersLikeAnyOther()
    {
        engine.newOrder(1, AAPL, Side.SELL, 100, 1_000_000, 30);
        engine.newOrder(2, AAPL, Side.BUY, 40, 1_000_000, 30);
        engine.tradingState(AAPL, TradingState.HALTED);
        events.drain();

        engine.advanceClock(30 * SECOND);

        assertThat(events.drain()).containsExactly(new Canceled(1, orderId(1), 60, 0, T, true));
    }

    @Test
    void shouldReportTimedOrderWithItsTimeInForce()
    {
        engine.newOrder(1, AAPL, Side.SELL, 100, 1_000_000, MatchingEngine.TIME_IN_FORCE_MAX_SECONDS);
        engine.replaceOrder(1, 11, 90, 1_000_000);

        assertThat(events.drain()).containsExactly(
            new Accepted(1, orderId(1), Side.SELL, 100, 1_000_000, MatchingEngine.TIME_IN_FORCE_MAX_SECONDS),
            new Added(orderId(1), Side.SELL, 100, 1_000_000),
            new Replaced(1, 11, orderId(1), orderId(2), 90, 1_000_000, BookUpdate.REPLACED));
    }

    @Test
    void shouldGiveAReplacementItsNewTimeInForceFromTheReplaceAtTheBackOfItsLevel()
    {
        engine.advanceClock(NINE_THIRTY);
        engine.newOrder(1, AAPL, Side.SELL, 100, 1_000_000, MARKET_HOURS);
        engine.newOrder(2, AAPL, Side.SELL, 100, 1_000_000, MARKET_HOURS);
        engine.newOrder(3, AAPL, Side.SELL, 100, 1_010_000, 5);
        engine.advanceClock(NINE_THIRTY + 2 * SECOND);
        events.drain();

        engine.replaceOrder(1, 11, 100, 1_000_000, 10);
        engine.replaceOrder(3, 31, 100, 1_010_000, SYSTEM_HOURS);

        assertThat(events.drain()).containsExactly(
            new Replaced(1, 11, orderId(1), orderId(4), 100, 1_000_000, BookUpdate.REPLACED),
            new Replaced(3, 31, orderId(3), orderId(5), 100, 1_010_000, BookUpdate.REPLACED));
        assertThat(openIds(Side.SELL)).containsExactly(2L, 11L, 31L);

        engine.advanceClock(NINE_THIRTY + 12 * SECOND - 1);
        assertThat(events.drain()).isEmpty();
        engine.advanceClock(NINE_THIRTY + 12 * SECOND);

        assertThat(events.drain()).containsExactly(new Canceled(11, orderId(4), 100, 0, T, true));
        assertThat(openIds(Side.SELL)).containsExactly(2L, 31L);
    }

    @Test
    void shouldExecuteAndCancelTheRestWithIWhenAReplaceMakesAnOrderImmediateOrCancel()
    {
        engine.newOrder(1, AAPL, Side.SELL, 60, 1_000_000, MARKET_HOURS);
        engine.newOrder(2, AAPL, Side.BUY, 100, 990_000, 30);
        engine.newOrder(3, AAPL, Side.BUY, 100, 980_000, MARKET_HOURS);
        events.drain();

        engine.replaceOrder(2, 21, 100, 1_000_000, MatchingEngine.TIME_IN_FORCE_IMMEDIATE_OR_CANCEL);
        engine.replaceOrder(3, 31, 100, 980_000, MatchingEngine.TIME_IN_FORCE_IMMEDIATE_OR_CANCEL);

        final byte i = ReasonCodes.CANCEL_IMMEDIATE_OR_CANCEL;
        assertThat(events.drain()).containsExactly(
            new Replaced(2, 21, orderId(2), orderId(4), 100, 1_000_000, BookUpdate.REMOVED),
            new Executed(orderId(1), 60, 1_000_000, 21, 1, 0, 40),
            new Canceled(21, orderId(4), 40, 0, i, false),
            new Replaced(3, 31, orderId(3), orderId(5), 100, 980_000, BookUpdate.REMOVED),
            new Canceled(31, orderId(5), 100, 0, i, false));
        assertThat(engine.openOrderCount()).isZero();

        engine.advanceClock(30 * SECOND);
        assertThat(events.drain()).isEmpty();
    }

    @Test
    void shouldRejectAReplaceToATimeInForceAnEntryCouldNotHaveAndKeepTheOrder()
    {
        engine.newOrder(1, AAPL, Side.SELL, 100, 1_000_000, MARKET_HOURS, 0, 0, Display.POST_ONLY);
        engine.newOrder(2, AAPL, Side.SELL, 100, 1_010_000, 20);
        events.drain();

        engine.replaceOrder(1, 11, 100, 1_000_000, MatchingEngine.TIME_IN_FORCE_IMMEDIATE_OR_CANCEL);
        engine.replaceOrder(2, 21, 100, 1_010_000, SYSTEM_HOURS + 1);
        engine.replaceOrder(2, 22, 100, 1_010_000, -2);
        engine.replaceOrder(2, 23, 50, 1_010_000, MatchingEngine.TIME_IN_FORCE_UNCHANGED);

        assertThat(events.drain()).containsExactly(
            new Rejected(11, ReasonCodes.REJECT_INVALID_DISPLAY_TYPE),
            new Rejected(21, ReasonCodes.REJECT_OTHER),
            new Rejected(22, ReasonCodes.REJECT_OTHER),
            new Replaced(2, 23, orderId(2), orderId(3), 50, 1_010_000, BookUpdate.REPLACED));
        assertThat(openIds(Side.SELL)).containsExactly(1L, 23L);

        engine.advanceClock(20 * SECOND);

        assertThat(events.drain()).containsExactly(new Canceled(23, orderId(3), 50, 0, T, true));
    }
}
