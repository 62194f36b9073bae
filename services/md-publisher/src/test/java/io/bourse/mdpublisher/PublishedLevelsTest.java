package io.bourse.mdpublisher;

import io.bourse.common.metrics.ErrorKinds;
import io.bourse.common.config.Symbols;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;

import static io.bourse.mdpublisher.MarketDataEvents.Level;
import static io.bourse.mdpublisher.MarketDataEvents.Message;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A subscriber of the depth-limited L2 feed, applying its PriceLevelUpdate messages, holds exactly the best levels of
 * a full-depth subscriber fed the same engine events, after every event of a seeded random order flow (adds,
 * partial and full cancels, replaces within and across levels, executions).
 */
class PublishedLevelsTest
{
    private static final long AAPL = Symbols.pack("AAPL");
    private static final int DEPTH = 3;
    private static final long T = 34_200_000_000_000L;

    private final MarketDataEvents fullEvents = new MarketDataEvents();
    private final MarketDataEvents topEvents = new MarketDataEvents();
    private final ErrorKinds<MdPublisherError> errors = new ErrorKinds<>("md-publisher", MdPublisherError.class);
    private final MarketDataBooks full =
        new MarketDataBooks(new long[]{AAPL}, MarketDataBooks.FULL_DEPTH, fullEvents, errors);
    private final MarketDataBooks top = new MarketDataBooks(new long[]{AAPL}, DEPTH, topEvents, errors);
    private final Map<Side, NavigableMap<Long, Level>> fullView = views();
    private final Map<Side, NavigableMap<Long, Level>> topView = views();

    @Test
    void shouldHoldTheFullBooksBestLevelsAfterEveryEventOfARandomOrderFlow()
    {
        final Random random = new Random(20261121L);
        final List<long[]> resting = new ArrayList<>(); // {orderId, side ordinal, shares, price}
        long nextOrderId = 1;
        long nextMatch = 1;
        int pushedOut = 0;
        for (int event = 0; event < 5_000; event++)
        {
            final int action = random.nextInt(10);
            final long ts = T + event;
            if (resting.size() < 10 || action < 4 && resting.size() < 40)
            {
                final Side side = random.nextBoolean() ? Side.BUY : Side.SELL;
                final long shares = 1 + random.nextInt(500);
                final long price = 1_500_000 + 100L * (random.nextInt(40) - 20);
                final long orderId = nextOrderId++;
                full.onOrderAdded(ts, orderId, AAPL, side, shares, price, true, 0);
                top.onOrderAdded(ts, orderId, AAPL, side, shares, price, true, 0);
                resting.add(new long[]{orderId, side.ordinal(), shares, price});
            }
            else
            {
                final int index = random.nextInt(resting.size());
                final long[] order = resting.get(index);
                final Side side = Side.values()[(int)order[1]];
                final long cut = 1 + random.nextInt((int)order[2]);
                if (action < 6)
                {
                    full.onOrderCanceled(ts, order[0], AAPL, cut, order[2] - cut, true);
                    top.onOrderCanceled(ts, order[0], AAPL, cut, order[2] - cut, true);
                    takeOff(resting, index, cut);
                }
                else if (action < 8)
                {
                    final long newOrderId = nextOrderId++;
                    final long price = 1_500_000 + 100L * (random.nextInt(40) - 20);
                    full.onOrderReplaced(ts, order[0], newOrderId, AAPL, side, cut, price, ReplaceKind.REPLACED);
                    top.onOrderReplaced(ts, order[0], newOrderId, AAPL, side, cut, price, ReplaceKind.REPLACED);
                    resting.set(index, new long[]{newOrderId, order[1], cut, price});
                }
                else
                {
                    final Side taker = side == Side.BUY ? Side.SELL : Side.BUY;
                    final long match = nextMatch++;
                    full.onOrderExecuted(ts, match, AAPL, cut, order[3], taker, 0, 0, order[0], order[2] - cut);
                    top.onOrderExecuted(ts, match, AAPL, cut, order[3], taker, 0, 0, order[0], order[2] - cut);
                    takeOff(resting, index, cut);
                }
            }
            apply(fullEvents, fullView);
            pushedOut += apply(topEvents, topView);

            for (final Side side : Side.values())
            {
                final List<Level> best = fullView.get(side).values().stream().limit(DEPTH).toList();
                assertThat(topView.get(side).values()).as("event %d, %s", event, side).containsExactlyElementsOf(best);
            }
        }
        assertThat(errors.total()).isEqualTo(0);
        assertThat(pushedOut).as("levels left the window while still on the book").isGreaterThan(100);
    }

    private static void takeOff(final List<long[]> resting, final int index, final long shares)
    {
        final long[] order = resting.get(index);
        order[2] -= shares;
        if (0 == order[2])
        {
            Collections.swap(resting, index, resting.size() - 1);
            resting.removeLast();
        }
    }

    /**
     * Applies the L2 messages of one event to the view; on the depth-limited feed also checks that each changes it (a
     * removal of a level held, or new figures) and that no level is published twice.
     *
     * @return how many removed a level that the full book still has.
     */
    private int apply(final MarketDataEvents events, final Map<Side, NavigableMap<Long, Level>> view)
    {
        int pushedOut = 0;
        final Set<String> published = new HashSet<>();
        for (final Message message : events.drain())
        {
            if (message instanceof Level level)
            {
                final Level withoutTime = new Level(0, level.symbol(), level.side(), level.price(), level.quantity(),
                    level.orderCount());
                if (events == topEvents)
                {
                    assertThat(published.add(level.side() + " " + level.price())).as("once: %s", level).isTrue();
                    assertThat(0 == level.quantity() ? view.get(level.side()).containsKey(level.price()) :
                        !withoutTime.equals(view.get(level.side()).get(level.price()))).as("a change: %s", level)
                        .isTrue();
                }
                if (0 == level.quantity())
                {
                    view.get(level.side()).remove(level.price());
                    pushedOut += fullView.get(level.side()).containsKey(level.price()) ? 1 : 0;
                }
                else
                {
                    view.get(level.side()).put(level.price(), withoutTime);
                }
                assertThat(view.get(level.side()).size()).isLessThanOrEqualTo(events == topEvents ? DEPTH : 40);
            }
        }
        return pushedOut;
    }

    private static Map<Side, NavigableMap<Long, Level>> views()
    {
        return Map.of(Side.BUY, new TreeMap<>(Collections.reverseOrder()), Side.SELL, new TreeMap<>());
    }
}
