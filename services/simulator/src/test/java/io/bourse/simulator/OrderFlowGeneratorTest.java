package io.bourse.simulator;

import org.junit.jupiter.api.Test;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

import static io.bourse.simulator.OrderFlowGenerator.LOT;
import static io.bourse.simulator.OrderFlowGenerator.MAX_LOTS;
import static io.bourse.simulator.OrderFlowGenerator.MAX_OFFSET_TICKS;
import static io.bourse.simulator.OrderFlowGenerator.TICK;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

class OrderFlowGeneratorTest
{
    private static final int SYMBOLS = 4;

    @Test
    void shouldGiveTheSameFlowForTheSameSeed()
    {
        assertThat(flow(7, 2_000)).isEqualTo(flow(7, 2_000));
    }

    @Test
    void shouldGiveADifferentFlowForAnotherSeed()
    {
        assertThat(flow(7, 200)).isNotEqualTo(flow(8, 200));
    }

    @Test
    void shouldStartWithADayOrderWhenThereIsNothingToCancelOrReplace()
    {
        final OrderAction action = new OrderAction();

        new OrderFlowGenerator(SYMBOLS, 1).next(new OpenOrders(10), 0, action);

        assertThat(action.type()).isIn(OrderAction.DAY, OrderAction.IOC);
    }

    @Test
    void shouldProduceTheConfiguredMixOnceOrdersRest()
    {
        final List<Action> actions = flow(3, 100_000);
        final int[] byType = new int[4];
        for (final Action action : actions)
        {
            byType[action.type()]++;
        }

        assertThat(byType[OrderAction.DAY] / 100_000.0).isCloseTo(0.55, within(0.015));
        assertThat(byType[OrderAction.IOC] / 100_000.0).isCloseTo(0.15, within(0.015));
        assertThat(byType[OrderAction.CANCEL] / 100_000.0).isCloseTo(0.20, within(0.015));
        assertThat(byType[OrderAction.REPLACE] / 100_000.0).isCloseTo(0.10, within(0.015));
    }

    @Test
    void shouldProduceExchangeCoresMoveHeavyMix()
    {
        final int count = 100_000;
        final int[] byType = byType(flow(
            new OrderFlowGenerator(SYMBOLS, 3, OrderFlowGenerator.EXCHANGE_CORE, 0.0), new OpenOrders(count), count));

        assertThat(byType[OrderAction.DAY] / (double)count).isCloseTo(0.126, within(0.01));
        assertThat(byType[OrderAction.IOC] / (double)count).isCloseTo(0.019, within(0.005));
        assertThat(byType[OrderAction.CANCEL] / (double)count).isCloseTo(0.144, within(0.01));
        assertThat(byType[OrderAction.REPLACE] / (double)count).isCloseTo(0.711, within(0.01));
    }

    @Test
    void shouldHoldTheBookAroundTheTargetWhenOneIsSet()
    {
        final int target = 200;
        final OpenOrders openOrders = new OpenOrders(10_000);
        final OrderFlowGenerator generator = new OrderFlowGenerator(
            SYMBOLS, 5, OrderFlowGenerator.EXCHANGE_CORE.withBookTarget(target), 0.0);
        flow(generator, openOrders, 20_000);
        int lowest = Integer.MAX_VALUE;
        int highest = 0;
        final int[] byType = new int[4];

        for (int i = 0; i < 50; i++)
        {
            final List<Action> actions = flow(generator, openOrders, 1_000);
            lowest = Math.min(lowest, openOrders.size());
            highest = Math.max(highest, openOrders.size());
            final int[] counts = byType(actions);
            for (int type = 0; type < byType.length; type++)
            {
                byType[type] += counts[type];
            }
        }

        assertThat(lowest).isGreaterThanOrEqualTo(target - 5);
        assertThat(highest).isLessThanOrEqualTo(target);
        assertThat(byType[OrderAction.REPLACE] / 50_000.0).isCloseTo(0.711, within(0.01));
    }

    /**
     * As above, with the session's orders executing against each other: an order priced through resting orders of the
     * other side takes them off the book. While a replace moved the mid as it re-priced an order, the book held 177 of
     * 200 on average here (the mid walked through the other side's resting orders), and about half the target with
     * four sessions and the exchange's latency.
     */
    @Test
    void shouldHoldTheBookAroundTheTargetWhenOrdersPricedThroughTheOtherSideExecute()
    {
        final int target = 200;
        final OpenOrders openOrders = new OpenOrders(10_000);
        final OrderFlowGenerator generator = new OrderFlowGenerator(
            SYMBOLS, 5, OrderFlowGenerator.EXCHANGE_CORE.withBookTarget(target), 0.0);
        flow(generator, openOrders, 20_000, true);
        long restingSum = 0;
        final int samples = 50_000;
        final int[] byType = new int[4];

        for (int i = 0; i < samples; i++)
        {
            byType[flow(generator, openOrders, 1, true).getFirst().type()]++;
            restingSum += openOrders.size();
        }

        assertThat(restingSum / (double)samples).isGreaterThan(0.95 * target);
        assertThat(byType[OrderAction.DAY] / (double)samples).isCloseTo(0.126, within(0.01));
        assertThat(byType[OrderAction.CANCEL] / (double)samples).isCloseTo(0.144, within(0.01));
        assertThat(byType[OrderAction.REPLACE] / (double)samples).isCloseTo(0.711, within(0.01));
    }

    @Test
    void shouldRejectAMixThatDoesNotSumToAThousand()
    {
        assertThatThrownBy(() -> new OrderFlowGenerator.Profile(500, 100, 100, 100, 100, 0))
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("summing to 1000");
    }

    @Test
    void shouldDrawTheSymbolsOfNewOrdersWithZipfPopularity()
    {
        final int symbols = 8;
        final int count = 100_000;
        final int[] bySymbol = new int[symbols];
        for (final Action action : flow(
            new OrderFlowGenerator(symbols, 3, OrderFlowGenerator.DEFAULT, 1.2), new OpenOrders(count), count))
        {
            if (action.type() == OrderAction.DAY || action.type() == OrderAction.IOC)
            {
                bySymbol[action.symbolIndex()]++;
            }
        }

        for (int k = 1; k < symbols; k++)
        {
            assertThat(bySymbol[k]).isLessThan(bySymbol[k - 1]);
        }
        assertThat((double)bySymbol[0] / bySymbol[1]).isCloseTo(Math.pow(2, 1.2), within(0.1));
    }

    @Test
    void shouldPriceDayOrdersPassivelyAndIocOrdersThroughTheMid()
    {
        for (final Action action : flow(11, 20_000))
        {
            final long ticksFromMid = (action.price() - action.mid()) / TICK;
            final long towardsOwnSide = action.side() == 'B' ? -ticksFromMid : ticksFromMid;
            switch (action.type())
            {
                case OrderAction.DAY, OrderAction.REPLACE ->
                    assertThat(towardsOwnSide).as("%s", action).isBetween(1L, (long)MAX_OFFSET_TICKS);
                case OrderAction.IOC ->
                    assertThat(-towardsOwnSide).as("%s", action).isBetween(1L, (long)MAX_OFFSET_TICKS);
                default ->
                {
                }
            }
            assertThat(action.price() % TICK).isZero();
        }
    }

    @Test
    void shouldSizeInRoundLotsAndCancelWholeOrDownToHalf()
    {
        int partialCancels = 0;
        int wholeCancels = 0;
        for (final Action action : flow(5, 20_000))
        {
            if (action.type() == OrderAction.CANCEL)
            {
                if (action.shares() == 0)
                {
                    wholeCancels++;
                }
                else
                {
                    assertThat(action.shares()).isEqualTo(action.targetShares() / (2 * LOT) * LOT);
                    partialCancels++;
                }
            }
            if (action.type() != OrderAction.CANCEL || action.shares() != 0)
            {
                assertThat(action.shares() % LOT).isZero();
                assertThat(action.shares()).isBetween(LOT, LOT * MAX_LOTS);
            }
        }

        assertThat(partialCancels).isPositive();
        assertThat(wholeCancels).isGreaterThan(partialCancels);
    }

    /**
     * Most of the session's orders have a cancel or replace in flight (a fast run: 800 commands awaiting the exchange
     * at 100,000 orders/s is 8 ms of round trip): the cancels and replaces still target the others, so the mix stays
     * exchange-core's. A pick that gave up after 4 random slots made 41.7% of the actions day orders here.
     */
    @Test
    void shouldKeepTheMixWhenMostOrdersHaveACancelOrReplaceInFlight()
    {
        final int orders = 1_000;
        final OpenOrders openOrders = new OpenOrders(2 * orders);
        for (int i = 0; i < orders; i++)
        {
            openOrders.add(i + 1, i % SYMBOLS, (byte)(i % 2 == 0 ? 'B' : 'S'), 990_000, 100, 0);
            if (i % 5 != 0)
            {
                openOrders.markCancelPending(i, 0);
            }
        }
        final OrderFlowGenerator generator =
            new OrderFlowGenerator(SYMBOLS, 21, OrderFlowGenerator.EXCHANGE_CORE, 0.0);
        final OrderAction action = new OrderAction();
        final int draws = 20_000;
        final int[] byType = new int[4];

        for (int i = 0; i < draws; i++)
        {
            generator.next(openOrders, 0, action);
            byType[action.type()]++;
            if (action.type() == OrderAction.CANCEL || action.type() == OrderAction.REPLACE)
            {
                assertThat(openOrders.isPending(action.targetSlot())).isFalse();
            }
        }

        assertThat(byType[OrderAction.DAY] / (double)draws).isCloseTo(0.126, within(0.01));
        assertThat(byType[OrderAction.REPLACE] / (double)draws).isCloseTo(0.711, within(0.01));
    }

    @Test
    void shouldTargetOnlyOrdersWithoutACancelOrReplaceInFlight()
    {
        final OrderFlowGenerator generator = new OrderFlowGenerator(SYMBOLS, 9);
        final OpenOrders openOrders = new OpenOrders(10);
        openOrders.add(1, 0, (byte)'B', 990_000, 100, 0);
        openOrders.add(2, 0, (byte)'S', 1_010_000, 100, 0);
        openOrders.markCancelPending(0, 0);
        final OrderAction action = new OrderAction();

        for (int i = 0; i < 1_000; i++)
        {
            generator.next(openOrders, 0, action);
            if (action.type() == OrderAction.CANCEL || action.type() == OrderAction.REPLACE)
            {
                assertThat(action.targetSlot()).isEqualTo(1);
            }
        }
    }

    @Test
    void shouldAddTheSharesAnOrderExecutedToTheSharesOfItsReplace()
    {
        final OrderFlowGenerator generator = new OrderFlowGenerator(SYMBOLS, 23,
            new OrderFlowGenerator.Profile(0, 0, 0, 0, 1000, 0), 0.0);
        final OpenOrders openOrders = new OpenOrders(10);
        openOrders.add(1, 0, (byte)'B', 990_000, 150, 350);
        final OrderAction action = new OrderAction();
        int keptSize = 0;

        for (int i = 0; i < 1_000; i++)
        {
            generator.next(openOrders, 0, action);
            assertThat(action.type()).isEqualTo(OrderAction.REPLACE);
            final long open = action.shares() - 350;
            assertThat(open == 150 || (open >= 100 && open <= 1_000 && open % 100 == 0)).isTrue();
            keptSize += open == 150 ? 1 : 0;
        }
        assertThat(keptSize).isBetween(400, 600);
    }

    @Test
    void shouldCancelInsteadOfAddingWhenTheSessionTracksTooManyOrders()
    {
        final OrderFlowGenerator generator = new OrderFlowGenerator(SYMBOLS, 17);
        final OpenOrders openOrders = new OpenOrders(2);
        openOrders.add(1, 0, (byte)'B', 990_000, 100, 0);
        openOrders.add(2, 0, (byte)'S', 1_010_000, 100, 0);
        final OrderAction action = new OrderAction();
        final int[] byType = new int[4];

        for (int i = 0; i < 1_000; i++)
        {
            generator.next(openOrders, 0, action);
            byType[action.type()]++;
        }

        assertThat(byType[OrderAction.DAY]).isZero();
        assertThat(byType[OrderAction.CANCEL]).isGreaterThan(byType[OrderAction.IOC] + byType[OrderAction.REPLACE]);
    }

    @Test
    void shouldSendImmediateOrCancelRatherThanARestingOrderWhenTheEnterOrdersInFlightFillTheCapacity()
    {
        final OpenOrders openOrders = new OpenOrders(10);
        openOrders.add(1, 0, (byte)'B', 990_000, 100, 0);
        openOrders.markCancelPending(0, 0); // no order to cancel or replace: every draw enters one
        final OrderAction action = new OrderAction();
        final int[] withRoom = new int[4];
        final int[] withoutRoom = new int[4];

        for (int i = 0; i < 1_000; i++)
        {
            new OrderFlowGenerator(SYMBOLS, i).next(openOrders, 8, action);
            withRoom[action.type()]++;
            new OrderFlowGenerator(SYMBOLS, i).next(openOrders, 9, action);
            withoutRoom[action.type()]++;
        }

        assertThat(withRoom[OrderAction.DAY]).isGreaterThan(withRoom[OrderAction.IOC]);
        assertThat(withRoom[OrderAction.DAY] + withRoom[OrderAction.IOC]).isEqualTo(1_000);
        assertThat(withoutRoom[OrderAction.IOC]).isEqualTo(1_000);
    }

    /**
     * Answers that come 16 actions after their order, as a gateway's round trip at speed: no Accepted ever finds the
     * session's tracking full (before, each freed place let the day orders of a round trip go, and all but one of their
     * Accepted orders rested in the exchange untracked).
     */
    @Test
    void shouldTrackEveryAcceptedOrderWhenTheAnswersLagTheOrders()
    {
        final int lag = 16;
        final OpenOrders openOrders = new OpenOrders(50);
        final OrderFlowGenerator generator = new OrderFlowGenerator(SYMBOLS, 23);
        final OrderAction action = new OrderAction();
        final ArrayDeque<long[]> inFlight = new ArrayDeque<>();
        int entriesInFlight = 0;
        long counter = 0;
        int rested = 0;

        for (int i = 0; i < 20_000; i++)
        {
            generator.next(openOrders, entriesInFlight, action);
            final int slot = action.targetSlot();
            final long order = switch (action.type())
            {
                case OrderAction.CANCEL ->
                {
                    openOrders.markCancelPending(slot, action.shares());
                    yield openOrders.counter(slot);
                }
                case OrderAction.REPLACE ->
                {
                    openOrders.markReplacePending(slot, ++counter);
                    yield openOrders.counter(slot);
                }
                default -> ++counter;
            };
            entriesInFlight += action.type() == OrderAction.DAY || action.type() == OrderAction.IOC ? 1 : 0;
            inFlight.addLast(new long[]{action.type(), order, counter, action.symbolIndex(), action.side(),
                action.price(), action.shares()});
            if (inFlight.size() <= lag)
            {
                continue;
            }
            final long[] answered = inFlight.removeFirst();
            final int type = (int)answered[0];
            entriesInFlight -= type == OrderAction.DAY || type == OrderAction.IOC ? 1 : 0;
            final int answeredSlot = openOrders.slotOf(answered[1]);
            if (OrderAction.DAY == type)
            {
                assertThat(openOrders.add(answered[1], (int)answered[3], (byte)answered[4], answered[5], answered[6], 0))
                    .as("Accepted of order %d tracked", answered[1]).isTrue();
                rested++;
            }
            else if (OrderAction.CANCEL == type && answeredSlot >= 0)
            {
                openOrders.reduce(answered[1], openOrders.shares(answeredSlot) - answered[6]);
            }
            else if (OrderAction.REPLACE == type && answeredSlot >= 0)
            {
                openOrders.remove(answered[1]);
                assertThat(openOrders.add(answered[2], (int)answered[3], (byte)answered[4], answered[5], answered[6],
                    0)).as("Replaced of order %d tracked", answered[1]).isTrue();
            }
        }

        assertThat(rested).as("day orders rested").isGreaterThan(1_000);
        assertThat(openOrders.size()).isGreaterThan(openOrders.capacity() / 2);
    }

    @Test
    void shouldWalkTheMidInTicks()
    {
        final OrderFlowGenerator generator = new OrderFlowGenerator(1, 13);
        final OpenOrders openOrders = new OpenOrders(1);
        final OrderAction action = new OrderAction();
        long previous = generator.mid(0);
        boolean moved = false;

        for (int i = 0; i < 1_000; i++)
        {
            generator.next(openOrders, 0, action);
            final long mid = generator.mid(0);
            assertThat(Math.abs(mid - previous)).isIn(0L, TICK);
            moved |= mid != previous;
            previous = mid;
        }

        assertThat(moved).isTrue();
    }

    /** A tick down as likely as a tick up: the mid of a long run stays around its start, without a trend. */
    @Test
    void shouldWalkTheMidWithoutDrift()
    {
        final int draws = 400_000;
        final OrderFlowGenerator generator = new OrderFlowGenerator(1, 17);
        final OpenOrders openOrders = new OpenOrders(1);
        final OrderAction action = new OrderAction();
        long previous = generator.mid(0);
        int up = 0;
        int down = 0;

        for (int i = 0; i < draws; i++)
        {
            generator.next(openOrders, 0, action);
            final long mid = generator.mid(0);
            up += mid > previous ? 1 : 0;
            down += mid < previous ? 1 : 0;
            previous = mid;
        }

        // About 12% of draws each way; 5 standard deviations of their difference (sqrt(0.24 draws) ticks) at most.
        assertThat(up / (double)draws).isCloseTo(0.12, within(0.005));
        assertThat((double)Math.abs(up - down)).isLessThan(5 * Math.sqrt(0.24 * draws));
    }

    /**
     * Runs the generator against a session whose orders are all accepted at once and never execute: day orders rest,
     * cancels and replaces take effect, immediate-or-cancel orders do not rest.
     */
    private static List<Action> flow(final long seed, final int count)
    {
        return flow(new OrderFlowGenerator(SYMBOLS, seed), new OpenOrders(count), count);
    }

    private static List<Action> flow(final OrderMix generator, final OpenOrders openOrders, final int count)
    {
        return flow(generator, openOrders, count, false);
    }

    /**
     * @param execute true for orders priced through resting orders of the other side to execute against them, whole:
     *                the resting ones leave the book, and the new order (or replacement) does not rest.
     */
    private static List<Action> flow(
        final OrderMix generator, final OpenOrders openOrders, final int count, final boolean execute)
    {
        final OrderAction action = new OrderAction();
        final List<Action> actions = new ArrayList<>();
        long counter = 0; // new orders' token counters: past those of the orders tracked from earlier calls
        for (int slot = 0; slot < openOrders.size(); slot++)
        {
            counter = Math.max(counter, openOrders.counter(slot));
        }
        for (int i = 0; i < count; i++)
        {
            generator.next(openOrders, 0, action);
            final int slot = action.targetSlot();
            final long targetShares = slot >= 0 ? openOrders.shares(slot) : 0;
            final long mid = generator instanceof OrderFlowGenerator g ? g.mid(action.symbolIndex()) : 0;
            actions.add(new Action(action.type(), action.symbolIndex(), (char)action.side(), action.price(),
                action.shares(), targetShares, mid));
            if (execute && action.type() != OrderAction.CANCEL)
            {
                executeAgainstTheBook(openOrders, action, ++counter);
                continue;
            }
            switch (action.type())
            {
                case OrderAction.DAY -> openOrders.add(++counter, action.symbolIndex(), action.side(), action.price(),
                    action.shares(), 0);
                case OrderAction.CANCEL -> openOrders.reduce(openOrders.counter(slot),
                    action.shares() == 0 ? targetShares : targetShares - action.shares());
                case OrderAction.REPLACE ->
                {
                    openOrders.remove(openOrders.counter(slot));
                    openOrders.add(++counter, action.symbolIndex(), action.side(), action.price(), action.shares(), 0);
                }
                default ->
                {
                }
            }
        }
        return actions;
    }

    /**
     * A day order, immediate-or-cancel order or replacement arriving at the session's book, matched by price and time:
     * it executes against resting orders of the other side priced at or through it, best price first, the oldest
     * first at a price, until its shares are done; a day order or replacement rests with the shares left.
     */
    private static void executeAgainstTheBook(final OpenOrders openOrders, final OrderAction action, final long counter)
    {
        final boolean buy = action.side() == 'B';
        long shares = action.shares();
        if (action.type() == OrderAction.REPLACE)
        {
            final long replaced = openOrders.counter(action.targetSlot());
            shares -= openOrders.executed(action.targetSlot()); // Replace Order Shares counts the chain's executions
            openOrders.remove(replaced);
        }
        while (shares > 0)
        {
            int best = -1;
            for (int slot = 0; slot < openOrders.size(); slot++)
            {
                final long price = openOrders.price(slot);
                if (openOrders.symbolIndex(slot) == action.symbolIndex() && openOrders.side(slot) != action.side() &&
                    (buy ? price <= action.price() : price >= action.price()) &&
                    (best < 0 || (buy ? price < openOrders.price(best) : price > openOrders.price(best)) ||
                        (price == openOrders.price(best) && openOrders.counter(slot) < openOrders.counter(best))))
                {
                    best = slot;
                }
            }
            if (best < 0)
            {
                break;
            }
            final long executed = Math.min(shares, openOrders.shares(best));
            openOrders.execute(openOrders.counter(best), executed);
            shares -= executed;
        }
        if (shares > 0 && action.type() != OrderAction.IOC)
        {
            openOrders.add(counter, action.symbolIndex(), action.side(), action.price(), shares, 0);
        }
    }

    private static int[] byType(final List<Action> actions)
    {
        final int[] byType = new int[4];
        for (final Action action : actions)
        {
            byType[action.type()]++;
        }
        return byType;
    }

    private record Action(int type, int symbolIndex, char side, long price, long shares, long targetShares, long mid)
    {
    }
}
