package io.bourse.engine.match;

import io.bourse.common.EngineNumbering;
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
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class MatchingEngineTest
{
    private static final long AAPL = Symbols.pack("AAPL");
    private static final int DAY = 99_998;
    private static final int IOC = 0;
    private static final int SHARD = 1;

    private final EngineEvents events = new EngineEvents();
    private final MatchingEngine engine = new MatchingEngine(SHARD, new long[]{AAPL}, 1_000_000, events);

    /** Order reference number the engine assigns to its n-th order (from 1). */
    private static long orderId(final long n)
    {
        return (n << 4) | SHARD;
    }

    private static long matchNumber(final long n)
    {
        return (n << 4) | SHARD;
    }

    private record Resting(long orderId, Side side, long price, long remaining)
    {
    }

    private List<Resting> book(final Side side)
    {
        final List<Resting> orders = new ArrayList<>();
        engine.book(AAPL).forEachOrder(side,
            (clientOrderId, id, s, price, remaining, display) -> orders.add(new Resting(id, s, price, remaining)));
        return orders;
    }

    @Test
    void shouldRestLimitOrderWhenNothingCrosses()
    {
        engine.newOrder(1, AAPL, Side.BUY, 100, 1_000_000, DAY);

        assertThat(events.drain()).containsExactly(
            new Accepted(1, orderId(1), Side.BUY, 100, 1_000_000, DAY),
            new Added(orderId(1), Side.BUY, 100, 1_000_000));
        assertThat(book(Side.BUY)).containsExactly(new Resting(orderId(1), Side.BUY, 1_000_000, 100));
    }

    @Test
    void shouldFillAcrossLevelsAtMakerPricesInPriceTimeOrder()
    {
        engine.newOrder(1, AAPL, Side.SELL, 100, 1_000_200, DAY);
        engine.newOrder(2, AAPL, Side.SELL, 100, 1_000_100, DAY);
        engine.newOrder(3, AAPL, Side.SELL, 100, 1_000_100, DAY);
        events.drain();

        engine.newOrder(4, AAPL, Side.BUY, 250, 1_000_200, DAY);

        assertThat(events.drain()).containsExactly(
            new Accepted(4, orderId(4), Side.BUY, 250, 1_000_200, DAY),
            new Executed(matchNumber(1), 100, 1_000_100, 4, 2, 0, 150),
            new Executed(matchNumber(2), 100, 1_000_100, 4, 3, 0, 50),
            new Executed(matchNumber(3), 50, 1_000_200, 4, 1, 50, 0));
        assertThat(book(Side.SELL)).containsExactly(new Resting(orderId(1), Side.SELL, 1_000_200, 50));
        assertThat(book(Side.BUY)).isEmpty();
    }

    /** StartNumbering raises both counts, never lowers them, and refuses a count out of range. */
    @Test
    void shouldContinueNumberingFromTheStartGivenAndNeverLowerIt()
    {
        engine.newOrder(1, AAPL, Side.SELL, 100, 1_000_000, DAY);
        engine.startNumbering(1_000);
        engine.newOrder(2, AAPL, Side.BUY, 40, 1_000_000, DAY);
        engine.startNumbering(5);
        engine.newOrder(3, AAPL, Side.BUY, 60, 1_000_000, DAY);

        assertThat(events.drain()).containsExactly(
            new Accepted(1, orderId(1), Side.SELL, 100, 1_000_000, DAY),
            new Added(orderId(1), Side.SELL, 100, 1_000_000),
            new Accepted(2, orderId(1_001), Side.BUY, 40, 1_000_000, DAY),
            new Executed(matchNumber(1_001), 40, 1_000_000, 2, 1, 60, 0),
            new Accepted(3, orderId(1_002), Side.BUY, 60, 1_000_000, DAY),
            new Executed(matchNumber(1_002), 60, 1_000_000, 3, 1, 0, 0));
        assertThatThrownBy(() -> engine.startNumbering(-1)).isInstanceOf(IllegalArgumentException.class);
        engine.startNumbering(EngineNumbering.MAX_NUMBER_BASE);
        engine.newOrder(4, AAPL, Side.BUY, 100, 1_000_000, DAY);
        assertThat(events.drain()).first().isEqualTo(new Accepted(4,
            ((EngineNumbering.MAX_NUMBER_BASE + 1) << 4) | SHARD, Side.BUY, 100, 1_000_000, DAY));
        assertThatThrownBy(() -> engine.startNumbering(EngineNumbering.MAX_NUMBER_BASE + 1))
            .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void shouldRestRemainderWhenDayOrderIsPartiallyFilled()
    {
        engine.newOrder(1, AAPL, Side.SELL, 40, 1_000_000, DAY);
        events.drain();

        engine.newOrder(2, AAPL, Side.BUY, 100, 1_000_100, DAY);

        assertThat(events.drain()).containsExactly(
            new Accepted(2, orderId(2), Side.BUY, 100, 1_000_100, DAY),
            new Executed(matchNumber(1), 40, 1_000_000, 2, 1, 0, 60),
            new Added(orderId(2), Side.BUY, 60, 1_000_100));
        assertThat(engine.book(AAPL).bestPrice(Side.BUY)).isEqualTo(1_000_100);
        assertThat(engine.book(AAPL).bestPrice(Side.SELL)).isZero();
    }

    @Test
    void shouldCancelRemainderWhenImmediateOrCancel()
    {
        engine.newOrder(1, AAPL, Side.SELL, 40, 1_000_000, DAY);
        events.drain();

        engine.newOrder(2, AAPL, Side.BUY, 100, 1_000_000, IOC);

        assertThat(events.drain()).containsExactly(
            new Accepted(2, orderId(2), Side.BUY, 100, 1_000_000, IOC),
            new Executed(matchNumber(1), 40, 1_000_000, 2, 1, 0, 60),
            new Canceled(2, orderId(2), 60, 0, ReasonCodes.CANCEL_IMMEDIATE_OR_CANCEL, false));
        assertThat(book(Side.BUY)).isEmpty();
        assertThat(engine.openOrderCount()).isZero();
    }

    @Test
    void shouldRejectWhenSymbolSizePriceIdOrTimeInForceInvalid()
    {
        engine.newOrder(1, Symbols.pack("MSFT"), Side.BUY, 100, 1_000_000, DAY);
        engine.newOrder(2, AAPL, Side.BUY, 0, 1_000_000, DAY);
        engine.newOrder(3, AAPL, Side.BUY, 1_000_001, 1_000_000, DAY);
        engine.newOrder(4, AAPL, Side.BUY, 100, 0, DAY);
        engine.newOrder(5, AAPL, Side.BUY, 100, MatchingEngine.MAX_PRICE + 1, DAY);
        engine.newOrder(6, AAPL, Side.BUY, 100, 1_000_000, DAY);
        engine.newOrder(6, AAPL, Side.BUY, 100, 1_000_000, DAY);
        engine.newOrder(7, AAPL, Side.BUY, 100, 1_000_000, 100_000);
        engine.newOrder(8, AAPL, Side.BUY, 100, 1_000_000, -1);
        engine.newOrder(0, AAPL, Side.BUY, 100, 1_000_000, DAY);
        engine.newOrder(0, AAPL, Side.BUY, 50, 990_000, DAY);

        assertThat(events.drain()).containsExactly(
            new Rejected(1, ReasonCodes.REJECT_INVALID_STOCK),
            new Rejected(2, ReasonCodes.REJECT_SHARES_THRESHOLD),
            new Rejected(3, ReasonCodes.REJECT_SHARES_THRESHOLD),
            new Rejected(4, ReasonCodes.REJECT_INVALID_PRICE),
            new Rejected(5, ReasonCodes.REJECT_INVALID_PRICE),
            new Accepted(6, orderId(1), Side.BUY, 100, 1_000_000, DAY),
            new Added(orderId(1), Side.BUY, 100, 1_000_000),
            new Rejected(6, ReasonCodes.REJECT_OTHER),
            new Rejected(7, ReasonCodes.REJECT_OTHER),
            new Rejected(8, ReasonCodes.REJECT_OTHER),
            new Accepted(0, orderId(2), Side.BUY, 100, 1_000_000, DAY),
            new Added(orderId(2), Side.BUY, 100, 1_000_000),
            new Rejected(0, ReasonCodes.REJECT_OTHER));
        assertThat(engine.openOrderCount()).as("id 0 open once, as any id").isEqualTo(2);
    }

    @Test
    void shouldKeepPriorityWhenCanceledDownToNewSize()
    {
        engine.newOrder(1, AAPL, Side.BUY, 100, 1_000_000, DAY);
        engine.newOrder(2, AAPL, Side.BUY, 100, 1_000_000, DAY);
        events.drain();

        engine.cancelOrder(1, 30);
        engine.cancelOrder(1, 30);

        assertThat(events.drain()).containsExactly(
            new Canceled(1, orderId(1), 70, 30, ReasonCodes.CANCEL_USER_REQUESTED, true));
        assertThat(book(Side.BUY)).containsExactly(
            new Resting(orderId(1), Side.BUY, 1_000_000, 30),
            new Resting(orderId(2), Side.BUY, 1_000_000, 100));
        assertThat(engine.book(AAPL).bestQuantity(Side.BUY)).isEqualTo(130);
    }

    @Test
    void shouldIgnoreCancelWhenNewSizeIsNegative()
    {
        engine.newOrder(1, AAPL, Side.BUY, 1, 1_000_000, DAY);
        events.drain();

        engine.cancelOrder(1, -1);

        assertThat(events.drain()).isEmpty();
        assertThat(book(Side.BUY)).containsExactly(new Resting(orderId(1), Side.BUY, 1_000_000, 1));
    }

    @Test
    void shouldRemoveOrderAndLevelWhenCanceledToZero()
    {
        engine.newOrder(1, AAPL, Side.SELL, 100, 1_000_000, DAY);
        events.drain();

        engine.cancelOrder(1, 0);
        engine.cancelOrder(1, 0);

        assertThat(events.drain()).containsExactly(
            new Canceled(1, orderId(1), 100, 0, ReasonCodes.CANCEL_USER_REQUESTED, true));
        assertThat(engine.book(AAPL).levelCount(Side.SELL)).isZero();
        assertThat(engine.openOrderCount()).isZero();
    }

    @Test
    void shouldLosePriorityWhenReplaceOnlyDecreasesSizeAtSamePriceAsOuchSaysOfEveryReplace()
    {
        engine.newOrder(1, AAPL, Side.BUY, 100, 1_000_000, DAY);
        engine.newOrder(2, AAPL, Side.BUY, 100, 1_000_000, DAY);
        events.drain();

        engine.replaceOrder(1, 11, 60, 1_000_000);

        assertThat(events.drain()).containsExactly(
            new Replaced(1, 11, orderId(1), orderId(3), 60, 1_000_000, BookUpdate.REPLACED));
        assertThat(book(Side.BUY)).containsExactly(
            new Resting(orderId(2), Side.BUY, 1_000_000, 100),
            new Resting(orderId(3), Side.BUY, 1_000_000, 60));

        engine.newOrder(3, AAPL, Side.SELL, 100, 1_000_000, IOC);

        assertThat(events.drain()).contains(new Executed(matchNumber(1), 100, 1_000_000, 3, 2, 0, 0));
        assertThat(book(Side.BUY)).containsExactly(new Resting(orderId(3), Side.BUY, 1_000_000, 60));
    }

    @Test
    void shouldLosePriorityWhenReplaceIncreasesSize()
    {
        engine.newOrder(1, AAPL, Side.BUY, 100, 1_000_000, DAY);
        engine.newOrder(2, AAPL, Side.BUY, 100, 1_000_000, DAY);
        events.drain();

        engine.replaceOrder(1, 11, 200, 1_000_000);

        assertThat(events.drain()).containsExactly(
            new Replaced(1, 11, orderId(1), orderId(3), 200, 1_000_000, BookUpdate.REPLACED));
        assertThat(book(Side.BUY)).containsExactly(
            new Resting(orderId(2), Side.BUY, 1_000_000, 100),
            new Resting(orderId(3), Side.BUY, 1_000_000, 200));
    }

    @Test
    void shouldMatchAndRestRemainderWhenReplacedPriceCrosses()
    {
        engine.newOrder(1, AAPL, Side.SELL, 50, 1_000_100, DAY);
        engine.newOrder(2, AAPL, Side.BUY, 100, 1_000_000, DAY);
        events.drain();

        engine.replaceOrder(2, 12, 100, 1_000_100);

        assertThat(events.drain()).containsExactly(
            new Replaced(2, 12, orderId(2), orderId(3), 100, 1_000_100, BookUpdate.REMOVED),
            new Executed(matchNumber(1), 50, 1_000_100, 12, 1, 0, 50),
            new Added(orderId(3), Side.BUY, 50, 1_000_100));
        assertThat(book(Side.BUY)).containsExactly(new Resting(orderId(3), Side.BUY, 1_000_100, 50));
        assertThat(book(Side.SELL)).isEmpty();

        engine.cancelOrder(12, 0);
        assertThat(events.drain()).containsExactly(
            new Canceled(12, orderId(3), 50, 0, ReasonCodes.CANCEL_USER_REQUESTED, true));
    }

    @Test
    void shouldCountTheSharesItsChainExecutedInAReplacesSize()
    {
        engine.newOrder(1, AAPL, Side.SELL, 500, 1_000_100, DAY);
        engine.newOrder(2, AAPL, Side.BUY, 100, 1_000_100, IOC);
        events.drain();

        engine.replaceOrder(1, 11, 500, 1_000_100);
        engine.replaceOrder(11, 12, 500, 1_000_200);
        assertThat(events.drain()).containsExactly(
            new Replaced(1, 11, orderId(1), orderId(3), 400, 1_000_100, BookUpdate.REPLACED),
            new Replaced(11, 12, orderId(3), orderId(4), 400, 1_000_200, BookUpdate.REPLACED));
        assertThat(engine.executedQuantity(12)).isEqualTo(100);

        engine.newOrder(3, AAPL, Side.BUY, 150, 1_000_200, IOC);
        events.drain();
        engine.replaceOrder(12, 13, 600, 1_000_200);
        assertThat(events.drain()).containsExactly(
            new Replaced(12, 13, orderId(4), orderId(6), 350, 1_000_200, BookUpdate.REPLACED));
        assertThat(book(Side.SELL)).containsExactly(new Resting(orderId(6), Side.SELL, 1_000_200, 350));

        engine.replaceOrder(13, 14, 250, 1_000_200);
        assertThat(events.drain()).containsExactly(
            new Canceled(13, orderId(6), 350, 0, ReasonCodes.CANCEL_USER_REQUESTED, true),
            new Rejected(14, ReasonCodes.REJECT_OTHER));
        assertThat(book(Side.SELL)).isEmpty();
        assertThat(engine.openOrderCount()).isZero();
    }

    @Test
    void shouldRejectReplaceWhenOrderNotOpenOrNewIdTaken()
    {
        engine.newOrder(1, AAPL, Side.BUY, 100, 1_000_000, DAY);
        engine.newOrder(2, AAPL, Side.BUY, 100, 990_000, DAY);
        events.drain();

        engine.replaceOrder(9, 19, 100, 1_000_000);
        engine.replaceOrder(1, 2, 100, 1_010_000);
        engine.replaceOrder(1, 11, 100, -1);

        assertThat(events.drain()).containsExactly(
            new Rejected(19, ReasonCodes.REJECT_OTHER),
            new Rejected(2, ReasonCodes.REJECT_OTHER),
            new Rejected(11, ReasonCodes.REJECT_INVALID_PRICE));
        assertThat(book(Side.BUY)).hasSize(2);
    }

    @Test
    void shouldFillWholeOrderWhenFillOrKillCanBeFilledWithinLimit()
    {
        engine.newOrder(1, AAPL, Side.SELL, 60, 1_000_000, DAY);
        engine.newOrder(2, AAPL, Side.SELL, 60, 1_000_100, DAY);
        events.drain();

        engine.newOrder(3, AAPL, Side.BUY, 100, 1_000_100, IOC, 100);

        assertThat(events.drain()).containsExactly(
            new Accepted(3, orderId(3), Side.BUY, 100, 1_000_100, IOC),
            new Executed(matchNumber(1), 60, 1_000_000, 3, 1, 0, 40),
            new Executed(matchNumber(2), 40, 1_000_100, 3, 2, 20, 0));
        assertThat(book(Side.SELL)).containsExactly(new Resting(orderId(2), Side.SELL, 1_000_100, 20));
    }

    @Test
    void shouldCancelWholeOrderAndTradeNothingWhenMinimumQuantityCannotBeFilled()
    {
        engine.newOrder(1, AAPL, Side.SELL, 60, 1_000_000, DAY);
        engine.newOrder(2, AAPL, Side.SELL, 60, 1_000_200, DAY);
        events.drain();

        engine.newOrder(3, AAPL, Side.BUY, 100, 1_000_100, IOC, 100);
        engine.newOrder(4, AAPL, Side.BUY, 100, 1_000_100, IOC, 61);

        assertThat(events.drain()).containsExactly(
            new Accepted(3, orderId(3), Side.BUY, 100, 1_000_100, IOC),
            new Canceled(3, orderId(3), 100, 0, ReasonCodes.CANCEL_IMMEDIATE_OR_CANCEL, false),
            new Accepted(4, orderId(4), Side.BUY, 100, 1_000_100, IOC),
            new Canceled(4, orderId(4), 100, 0, ReasonCodes.CANCEL_IMMEDIATE_OR_CANCEL, false));
        assertThat(book(Side.SELL)).containsExactly(
            new Resting(orderId(1), Side.SELL, 1_000_000, 60),
            new Resting(orderId(2), Side.SELL, 1_000_200, 60));
        assertThat(engine.openOrderCount()).isEqualTo(2);
    }

    @Test
    void shouldCancelRemainderWhenMinimumQuantityIsMetButNotTheWholeSize()
    {
        engine.newOrder(1, AAPL, Side.BUY, 60, 1_000_000, DAY);
        events.drain();

        engine.newOrder(2, AAPL, Side.SELL, 100, 1_000_000, IOC, 50);

        assertThat(events.drain()).containsExactly(
            new Accepted(2, orderId(2), Side.SELL, 100, 1_000_000, IOC),
            new Executed(matchNumber(1), 60, 1_000_000, 2, 1, 0, 40),
            new Canceled(2, orderId(2), 40, 0, ReasonCodes.CANCEL_IMMEDIATE_OR_CANCEL, false));
    }

    @Test
    void shouldRejectMinimumQuantityWhenNegativeAboveSizeOrOnOrderThatCanRest()
    {
        engine.newOrder(1, AAPL, Side.BUY, 100, 1_000_000, IOC, -1);
        engine.newOrder(2, AAPL, Side.BUY, 100, 1_000_000, IOC, 101);
        engine.newOrder(3, AAPL, Side.BUY, 100, 1_000_000, DAY, 100);

        assertThat(events.drain()).containsExactly(
            new Rejected(1, ReasonCodes.REJECT_INVALID_MINIMUM_QUANTITY),
            new Rejected(2, ReasonCodes.REJECT_INVALID_MINIMUM_QUANTITY),
            new Rejected(3, ReasonCodes.REJECT_INVALID_MINIMUM_QUANTITY));
        assertThat(engine.openOrderCount()).isZero();
    }

    @Test
    void shouldLosePriorityWhenMovedToSamePrice()
    {
        engine.newOrder(1, AAPL, Side.BUY, 100, 1_000_000, DAY);
        engine.newOrder(2, AAPL, Side.BUY, 100, 1_000_000, DAY);
        events.drain();

        engine.moveOrder(1, 1_000_000);

        assertThat(events.drain()).containsExactly(
            new Replaced(1, 1, orderId(1), orderId(3), 100, 1_000_000, BookUpdate.REPLACED));
        assertThat(book(Side.BUY)).containsExactly(
            new Resting(orderId(2), Side.BUY, 1_000_000, 100),
            new Resting(orderId(3), Side.BUY, 1_000_000, 100));
        assertThat(engine.openQuantity(1)).isEqualTo(100);
    }

    @Test
    void shouldTradeOnArrivalAndRestRemainderUnderSameIdWhenMovedAcross()
    {
        engine.newOrder(1, AAPL, Side.SELL, 30, 1_000_100, DAY);
        engine.newOrder(2, AAPL, Side.BUY, 100, 1_000_000, DAY);
        engine.cancelOrder(2, 80);
        events.drain();

        engine.moveOrder(2, 1_000_200);

        assertThat(events.drain()).containsExactly(
            new Replaced(2, 2, orderId(2), orderId(3), 80, 1_000_200, BookUpdate.REMOVED),
            new Executed(matchNumber(1), 30, 1_000_100, 2, 1, 0, 50),
            new Added(orderId(3), Side.BUY, 50, 1_000_200));
        assertThat(book(Side.BUY)).containsExactly(new Resting(orderId(3), Side.BUY, 1_000_200, 50));
        assertThat(engine.openQuantity(2)).isEqualTo(50);
        assertThat(engine.openQuantity(1)).isZero();
    }

    @Test
    void shouldRejectMoveWhenOrderNotOpenOrPriceInvalid()
    {
        engine.newOrder(1, AAPL, Side.BUY, 100, 1_000_000, DAY);
        events.drain();

        engine.moveOrder(9, 1_000_000);
        engine.moveOrder(1, 0);

        assertThat(events.drain()).containsExactly(
            new Rejected(9, ReasonCodes.REJECT_OTHER),
            new Rejected(1, ReasonCodes.REJECT_INVALID_PRICE));
        assertThat(book(Side.BUY)).containsExactly(new Resting(orderId(1), Side.BUY, 1_000_000, 100));
    }

    @Test
    void shouldNeverRestCrossedAndConserveQuantityUnderRandomFlow()
    {
        final java.util.Random random = new java.util.Random(42);
        long clientOrderId = 0;
        long entered = 0;
        for (int i = 0; i < 20_000; i++)
        {
            final int action = random.nextInt(10);
            if (action < 7 || clientOrderId == 0)
            {
                final long quantity = 1 + random.nextInt(500);
                entered += quantity;
                engine.newOrder(++clientOrderId, AAPL, random.nextBoolean() ? Side.BUY : Side.SELL, quantity,
                    990_000 + 100L * random.nextInt(200), random.nextInt(5) == 0 ? IOC : DAY);
            }
            else
            {
                engine.cancelOrder(1 + random.nextInt((int)clientOrderId), random.nextInt(3) == 0 ? 0 : 10);
            }
            final OrderBook book = engine.book(AAPL);
            final long bid = book.bestPrice(Side.BUY);
            final long ask = book.bestPrice(Side.SELL);
            assertThat(bid == 0 || ask == 0 || bid < ask).as("crossed at step %d: %d >= %d", i, bid, ask).isTrue();
        }

        long executedTwice = 0;
        long canceled = 0;
        for (final EngineEvents.Event event : events.events)
        {
            if (event instanceof Executed executed)
            {
                executedTwice += 2 * executed.quantity();
            }
            else if (event instanceof Canceled cancel)
            {
                canceled += cancel.canceled();
            }
        }
        final long resting = book(Side.BUY).stream().mapToLong(Resting::remaining).sum() +
            book(Side.SELL).stream().mapToLong(Resting::remaining).sum();
        assertThat(executedTwice + canceled + resting).isEqualTo(entered);
    }

    @Test
    void shouldReduceByAmountKeepingPriorityAndRemoveWhenAmountReachesOpenSize()
    {
        engine.newOrder(1, AAPL, Side.BUY, 100, 1_000_000, DAY);
        engine.newOrder(2, AAPL, Side.BUY, 100, 1_000_000, DAY);
        events.drain();

        assertThat(List.of(engine.reduceOrder(1, 30), engine.reduceOrder(1, 0), engine.reduceOrder(2, 500),
            engine.reduceOrder(2, 1))).containsExactly(true, true, true, false);

        assertThat(events.drain()).containsExactly(
            new Canceled(1, orderId(1), 30, 70, ReasonCodes.CANCEL_USER_REQUESTED, true),
            new Canceled(2, orderId(2), 100, 0, ReasonCodes.CANCEL_USER_REQUESTED, true));
        assertThat(book(Side.BUY)).containsExactly(new Resting(orderId(1), Side.BUY, 1_000_000, 70));
    }
}
