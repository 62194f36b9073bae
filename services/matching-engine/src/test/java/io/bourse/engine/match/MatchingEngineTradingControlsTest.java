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

/** Trading states and price bands per symbol. */
class MatchingEngineTradingControlsTest
{
    private static final long AAPL = Symbols.pack("AAPL");
    private static final long GOOG = Symbols.pack("GOOG");
    private static final int DAY = MatchingEngine.TIME_IN_FORCE_MARKET_HOURS;
    private static final int SHARD = 2;

    private final EngineEvents events = new EngineEvents();
    private final MatchingEngine engine = new MatchingEngine(SHARD, new long[]{AAPL}, 1_000_000, events);

    private static long orderId(final long n)
    {
        return (n << 4) | SHARD;
    }

    private record Resting(long clientOrderId, long price, long remaining)
    {
    }

    private List<Resting> book(final Side side)
    {
        final List<Resting> orders = new ArrayList<>();
        engine.book(AAPL).forEachOrder(side,
            (clientOrderId, id, s, price, remaining, display) ->
                orders.add(new Resting(clientOrderId, price, remaining)));
        return orders;
    }

    @Test
    void shouldBeOpenWithoutBandWhenBuilt()
    {
        final OrderBook book = engine.book(AAPL);

        assertThat(List.of(book.tradingState(), book.referencePrice(), book.bandBasisPoints(), book.lowestPrice(),
            book.highestPrice())).containsExactly(TradingState.OPEN, 0L, 0, 1L, MatchingEngine.MAX_PRICE);
    }

    @Test
    void shouldRejectEntriesReplacesAndMovesButAllowCancelsWhenHalted()
    {
        engine.newOrder(1, AAPL, Side.BUY, 100, 1_000_000, DAY);
        engine.newOrder(2, AAPL, Side.BUY, 100, 990_000, DAY);
        events.drain();

        assertThat(engine.tradingState(AAPL, TradingState.HALTED)).isTrue();
        engine.newOrder(3, AAPL, Side.SELL, 100, 1_000_000, DAY);
        engine.replaceOrder(1, 11, 150, 1_000_000);
        engine.replaceOrder(1, 11, 50, 1_000_100);
        engine.moveOrder(1, 1_000_100);
        engine.replaceOrder(1, 11, 50, 1_000_000);
        engine.cancelOrder(1, 40);
        engine.replaceOrder(2, 12, 0, 990_000);

        assertThat(events.drain()).containsExactly(
            new StateChanged(TradingState.HALTED),
            new Rejected(3, ReasonCodes.REJECT_HALTED),
            new Rejected(11, ReasonCodes.REJECT_HALTED),
            new Rejected(11, ReasonCodes.REJECT_HALTED),
            new Rejected(1, ReasonCodes.REJECT_HALTED),
            new Rejected(11, ReasonCodes.REJECT_HALTED),
            new Canceled(1, orderId(1), 60, 40, ReasonCodes.CANCEL_USER_REQUESTED, true),
            new Canceled(2, orderId(2), 100, 0, ReasonCodes.CANCEL_USER_REQUESTED, true));
        assertThat(book(Side.BUY)).containsExactly(new Resting(1, 1_000_000, 40));
    }

    @Test
    void shouldRejectEntriesWithClosedBeforeOtherFaultsWhenClosed()
    {
        engine.tradingState(AAPL, TradingState.CLOSED);

        engine.newOrder(1, AAPL, Side.BUY, 0, -1, 12_345);
        engine.newOrder(2, GOOG, Side.BUY, 100, 1_000_000, DAY);

        assertThat(events.drain()).containsExactly(
            new StateChanged(TradingState.CLOSED),
            new Rejected(1, ReasonCodes.REJECT_CLOSED),
            new Rejected(2, ReasonCodes.REJECT_INVALID_STOCK));
        assertThat(engine.book(AAPL).tradingState()).isEqualTo(TradingState.CLOSED);
    }

    @Test
    void shouldTradeAgainstRestingOrdersWhenReopened()
    {
        engine.newOrder(1, AAPL, Side.SELL, 100, 1_000_000, DAY);
        engine.tradingState(AAPL, TradingState.HALTED);
        engine.tradingState(AAPL, TradingState.OPEN);
        events.drain();

        engine.newOrder(2, AAPL, Side.BUY, 100, 1_000_000, DAY);

        assertThat(events.drain()).containsExactly(
            new Accepted(2, orderId(2), Side.BUY, 100, 1_000_000, DAY),
            new Executed((1 << 4) | SHARD, 100, 1_000_000, 2, 1, 0, 0));
    }

    @Test
    void shouldIgnoreControlsWhenSymbolNotTraded()
    {
        assertThat(engine.tradingState(GOOG, TradingState.HALTED)).isFalse();
        assertThat(engine.priceBand(GOOG, 1_000_000, 100)).isFalse();
        assertThat(events.drain()).isEmpty();
    }

    @Test
    void shouldRejectPricesOutsideBandWithBoundsRoundedInwards()
    {
        assertThat(engine.priceBand(AAPL, 1_000_050, 100)).isTrue();
        assertThat(List.of(engine.book(AAPL).lowestPrice(), engine.book(AAPL).highestPrice()))
            .containsExactly(990_050L, 1_010_050L);
        assertThat(engine.priceBand(AAPL, 1_000_003, 1)).isTrue();

        engine.newOrder(1, AAPL, Side.BUY, 100, 999_902, DAY);
        engine.newOrder(2, AAPL, Side.BUY, 100, 999_903, DAY);
        engine.newOrder(3, AAPL, Side.SELL, 100, 1_000_103, DAY);
        engine.newOrder(4, AAPL, Side.SELL, 100, 1_000_104, DAY);

        assertThat(events.drain()).containsExactly(
            new Rejected(1, ReasonCodes.REJECT_INVALID_PRICE),
            new Accepted(2, orderId(1), Side.BUY, 100, 999_903, DAY),
            new Added(orderId(1), Side.BUY, 100, 999_903),
            new Accepted(3, orderId(2), Side.SELL, 100, 1_000_103, DAY),
            new Added(orderId(2), Side.SELL, 100, 1_000_103),
            new Rejected(4, ReasonCodes.REJECT_INVALID_PRICE));
        assertThat(List.of(engine.book(AAPL).lowestPrice(), engine.book(AAPL).highestPrice()))
            .containsExactly(999_903L, 1_000_103L);
    }

    @Test
    void shouldCheckReplacesAndMovesAgainstBandAndKeepRestingOrdersOutsideNewBand()
    {
        engine.newOrder(1, AAPL, Side.BUY, 100, 900_000, DAY);
        events.drain();
        engine.priceBand(AAPL, 1_000_000, 500);

        engine.replaceOrder(1, 11, 150, 900_000);
        engine.moveOrder(1, 940_000);
        engine.replaceOrder(1, 11, 50, 900_000);
        engine.moveOrder(1, 950_000);

        assertThat(events.drain()).containsExactly(
            new Rejected(11, ReasonCodes.REJECT_INVALID_PRICE),
            new Rejected(1, ReasonCodes.REJECT_INVALID_PRICE),
            new Rejected(11, ReasonCodes.REJECT_INVALID_PRICE),
            new Replaced(1, 1, orderId(1), orderId(2), 100, 950_000, BookUpdate.REPLACED));
        assertThat(book(Side.BUY)).containsExactly(new Resting(1, 950_000, 100));
    }

    @Test
    void shouldAcceptAnyValidPriceWhenBandRemovedOrFullWidth()
    {
        engine.priceBand(AAPL, 1_000_000, 10_000);
        assertThat(List.of(engine.book(AAPL).lowestPrice(), engine.book(AAPL).highestPrice()))
            .containsExactly(1L, 2_000_000L);

        engine.priceBand(AAPL, 0, 300);

        final OrderBook book = engine.book(AAPL);
        assertThat(List.of(book.referencePrice(), book.bandBasisPoints(), book.lowestPrice(), book.highestPrice()))
            .containsExactly(0L, 0, 1L, MatchingEngine.MAX_PRICE);
    }

    @Test
    void shouldRefuseBandAndKeepOldOneWhenOutOfRange()
    {
        engine.priceBand(AAPL, 1_000_000, 500);

        assertThat(List.of(engine.priceBand(AAPL, -1, 100), engine.priceBand(AAPL, MatchingEngine.MAX_PRICE + 1, 100),
            engine.priceBand(AAPL, 1_000_000, 10_001), engine.priceBand(AAPL, 1_000_000, -1)))
            .containsOnly(false);
        assertThat(List.of(engine.book(AAPL).lowestPrice(), engine.book(AAPL).highestPrice()))
            .containsExactly(950_000L, 1_050_000L);
    }
}
