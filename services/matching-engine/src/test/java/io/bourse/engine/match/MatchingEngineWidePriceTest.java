package io.bourse.engine.match;

import io.bourse.common.config.Symbols;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static io.bourse.engine.match.EngineEvents.Executed;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Books whose prices lie both inside and far outside the window of directly indexed prices that a book side centres
 * on its first price (8,192 consecutive prices): the same price-time order, best prices and trades either way.
 */
class MatchingEngineWidePriceTest
{
    private static final long AAPL = Symbols.pack("AAPL");
    private static final int DAY = 99_998;
    private static final int IOC = 0;
    private static final int SHARD = 1;

    private final EngineEvents events = new EngineEvents();
    private final MatchingEngine engine = new MatchingEngine(SHARD, new long[]{AAPL}, 1_000_000, events);

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

    private static long matchNumber(final long n)
    {
        return (n << 4) | SHARD;
    }

    @Test
    void shouldKeepPriceTimeOrderWhenBidsLieFarOutsideTheFirstPricesWindow()
    {
        engine.newOrder(1, AAPL, Side.BUY, 10, 1_000_000, DAY);
        engine.newOrder(2, AAPL, Side.BUY, 20, 2_000_000, DAY);
        engine.newOrder(3, AAPL, Side.BUY, 30, 10_000, DAY);
        engine.newOrder(4, AAPL, Side.BUY, 40, 1_003_000, DAY);
        engine.newOrder(5, AAPL, Side.BUY, 50, 990_000, DAY);
        engine.newOrder(6, AAPL, Side.BUY, 60, 2_000_000, DAY);
        engine.newOrder(7, AAPL, Side.BUY, 70, 1_000_000, DAY);

        assertThat(book(Side.BUY)).containsExactly(
            new Resting(2, 2_000_000, 20), new Resting(6, 2_000_000, 60), new Resting(4, 1_003_000, 40),
            new Resting(1, 1_000_000, 10), new Resting(7, 1_000_000, 70), new Resting(5, 990_000, 50),
            new Resting(3, 10_000, 30));
        assertThat(engine.book(AAPL).levelCount(Side.BUY)).isEqualTo(5);

        engine.cancelOrder(2, 0);
        engine.cancelOrder(6, 0);
        assertThat(engine.book(AAPL).bestPrice(Side.BUY)).isEqualTo(1_003_000);
        engine.cancelOrder(4, 0);
        engine.cancelOrder(1, 0);
        engine.cancelOrder(7, 0);
        assertThat(engine.book(AAPL).bestPrice(Side.BUY)).isEqualTo(990_000);
        engine.cancelOrder(5, 0);
        assertThat(engine.book(AAPL).bestPrice(Side.BUY)).isEqualTo(10_000);
        assertThat(engine.book(AAPL).levelCount(Side.BUY)).isEqualTo(1);
    }

    @Test
    void shouldSweepOffersInPriceOrderAcrossTheWindowAndBeyondIt()
    {
        engine.newOrder(1, AAPL, Side.SELL, 10, 1_000_000, DAY);
        engine.newOrder(2, AAPL, Side.SELL, 20, 1_000_100, DAY);
        engine.newOrder(3, AAPL, Side.SELL, 30, 900_000, DAY);
        engine.newOrder(4, AAPL, Side.SELL, 40, 5_000_000, DAY);
        engine.newOrder(5, AAPL, Side.SELL, 50, 1_000_000, DAY);
        assertThat(engine.book(AAPL).bestPrice(Side.SELL)).isEqualTo(900_000);
        events.drain();

        engine.newOrder(6, AAPL, Side.BUY, 150, 5_000_000, IOC);

        assertThat(events.drain()).filteredOn(Executed.class::isInstance).containsExactly(
            new Executed(matchNumber(1), 30, 900_000, 6, 3, 0, 120),
            new Executed(matchNumber(2), 10, 1_000_000, 6, 1, 0, 110),
            new Executed(matchNumber(3), 50, 1_000_000, 6, 5, 0, 60),
            new Executed(matchNumber(4), 20, 1_000_100, 6, 2, 0, 40),
            new Executed(matchNumber(5), 40, 5_000_000, 6, 4, 0, 0));
        assertThat(book(Side.SELL)).isEmpty();
        assertThat(engine.book(AAPL).levelCount(Side.SELL)).isZero();
    }

    @Test
    void shouldRecentreOnANewPriceWhenTheSideEmpties()
    {
        engine.newOrder(1, AAPL, Side.SELL, 10, 1_000_000, DAY);
        engine.cancelOrder(1, 0);
        engine.newOrder(2, AAPL, Side.SELL, 10, 50_000_000, DAY);
        engine.newOrder(3, AAPL, Side.SELL, 10, 50_000_100, DAY);
        engine.newOrder(4, AAPL, Side.SELL, 10, 1_000_000, DAY);
        events.drain();

        engine.moveOrder(4, 50_000_050);

        assertThat(book(Side.SELL)).containsExactly(
            new Resting(2, 50_000_000, 10), new Resting(4, 50_000_050, 10), new Resting(3, 50_000_100, 10));
    }

    @Test
    void shouldKillFillOrKillWhenOnlyLevelsOutsideTheWindowCouldFillIt()
    {
        engine.newOrder(1, AAPL, Side.SELL, 10, 1_000_000, DAY);
        engine.newOrder(2, AAPL, Side.SELL, 10, 3_000_000, DAY);
        events.drain();

        engine.newOrder(3, AAPL, Side.BUY, 20, 2_000_000, IOC, 20);
        engine.newOrder(4, AAPL, Side.BUY, 20, 3_000_000, IOC, 20);

        assertThat(events.drain()).filteredOn(Executed.class::isInstance).containsExactly(
            new Executed(matchNumber(1), 10, 1_000_000, 4, 1, 0, 10),
            new Executed(matchNumber(2), 10, 3_000_000, 4, 2, 0, 0));
    }
}
