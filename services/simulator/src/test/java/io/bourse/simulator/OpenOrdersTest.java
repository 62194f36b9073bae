package io.bourse.simulator;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class OpenOrdersTest
{
    private final OpenOrders openOrders = new OpenOrders(3);

    @Test
    void shouldTrackAddedOrdersBySlot()
    {
        openOrders.add(10, 0, (byte)'B', 990_000, 300, 0);
        openOrders.add(11, 1, (byte)'S', 1_010_000, 100, 0);

        assertThat(orders()).containsExactly(
            new Open(10, 0, 'B', 990_000, 300),
            new Open(11, 1, 'S', 1_010_000, 100));
    }

    @Test
    void shouldCountAnOrdersExecutionsAndCarryThemWhenItMovesSlot()
    {
        openOrders.add(10, 0, (byte)'B', 990_000, 300, 0);
        openOrders.add(11, 1, (byte)'S', 1_010_000, 100, 250);

        openOrders.execute(10, 100);
        openOrders.execute(11, 30);
        openOrders.reduce(11, 20);
        openOrders.execute(10, 200);

        assertThat(openOrders.slotOf(10)).isEqualTo(-1);
        assertThat(openOrders.slotOf(11)).isZero();
        assertThat(openOrders.shares(0)).isEqualTo(50);
        assertThat(openOrders.executed(0)).isEqualTo(280);
    }

    @Test
    void shouldMoveTheLastOrderIntoTheSlotOfARemovedOne()
    {
        openOrders.add(10, 0, (byte)'B', 990_000, 300, 0);
        openOrders.add(11, 1, (byte)'S', 1_010_000, 100, 0);
        openOrders.add(12, 2, (byte)'B', 980_000, 200, 0);

        openOrders.remove(10);

        assertThat(orders()).containsExactly(
            new Open(12, 2, 'B', 980_000, 200),
            new Open(11, 1, 'S', 1_010_000, 100));
        assertThat(openOrders.slotOf(12)).isZero();
        assertThat(openOrders.slotOf(10)).isEqualTo(-1);
    }

    @Test
    void shouldForgetEveryOrderWhenClearedAndTrackNewOnesFromTheFirstSlot()
    {
        openOrders.add(10, 0, (byte)'B', 990_000, 300, 0);
        openOrders.add(11, 1, (byte)'S', 1_010_000, 100, 0);
        openOrders.markReplacePending(openOrders.slotOf(11), 12);

        openOrders.clear();
        openOrders.onReplacementRejected(12);
        openOrders.add(13, 1, (byte)'S', 1_020_000, 200, 0);

        assertThat(orders()).containsExactly(new Open(13, 1, 'S', 1_020_000, 200));
        assertThat(openOrders.slotOf(10)).isEqualTo(-1);
        assertThat(openOrders.slotOf(11)).isEqualTo(-1);
        assertThat(openOrders.isPending(0)).isFalse();
    }

    @Test
    void shouldReduceSharesAndRemoveWhenNoneRemain()
    {
        openOrders.add(10, 0, (byte)'B', 990_000, 300, 0);
        openOrders.add(11, 1, (byte)'S', 1_010_000, 100, 0);

        openOrders.reduce(10, 100);
        openOrders.reduce(11, 100);

        assertThat(orders()).containsExactly(new Open(10, 0, 'B', 990_000, 200));
    }

    @Test
    void shouldRefuseOrdersWhenFullOrAlreadyTracked()
    {
        assertThat(openOrders.add(1, 0, (byte)'B', 1, 100, 0)).isTrue();
        assertThat(openOrders.add(1, 0, (byte)'B', 1, 100, 0)).isFalse();
        assertThat(openOrders.add(2, 0, (byte)'B', 1, 100, 0)).isTrue();
        assertThat(openOrders.add(3, 0, (byte)'B', 1, 100, 0)).isTrue();
        assertThat(openOrders.size()).isEqualTo(openOrders.capacity());
        assertThat(openOrders.add(4, 0, (byte)'B', 1, 100, 0)).isFalse();
    }

    @Test
    void shouldKeepThePendingMarkUntilTheCancelLeavesTheSharesItAskedFor()
    {
        openOrders.add(10, 0, (byte)'B', 990_000, 300, 0);
        openOrders.markCancelPending(openOrders.slotOf(10), 150);

        openOrders.reduce(10, 100);
        final boolean pendingAfterExecution = openOrders.isPending(openOrders.slotOf(10));
        openOrders.reduce(10, 50);

        assertThat(pendingAfterExecution).isTrue();
        assertThat(openOrders.isPending(openOrders.slotOf(10))).isFalse();
        assertThat(openOrders.shares(openOrders.slotOf(10))).isEqualTo(150);
    }

    @Test
    void shouldClearACancelThatAnExecutionLeftWithNothingToDo()
    {
        openOrders.add(10, 0, (byte)'B', 990_000, 400, 0);
        openOrders.add(11, 0, (byte)'B', 980_000, 400, 0);
        openOrders.markCancelPending(openOrders.slotOf(10), 200);
        openOrders.markCancelPending(openOrders.slotOf(11), 200);

        openOrders.reduce(10, 300);
        openOrders.reduce(11, 100);

        assertThat(openOrders.isPending(openOrders.slotOf(10))).isFalse();
        assertThat(openOrders.isPending(openOrders.slotOf(11))).isTrue();
    }

    @Test
    void shouldClearAReplaceWhoseReplacementWasRejectedEvenAfterTheOrderMovedSlot()
    {
        openOrders.add(10, 0, (byte)'B', 990_000, 400, 0);
        openOrders.add(11, 0, (byte)'B', 980_000, 400, 0);
        openOrders.add(12, 0, (byte)'B', 970_000, 400, 0);
        openOrders.markReplacePending(openOrders.slotOf(12), 13);
        openOrders.markReplacePending(openOrders.slotOf(11), 14);
        openOrders.remove(10);

        openOrders.onReplacementRejected(13);

        assertThat(openOrders.isPending(openOrders.slotOf(12))).isFalse();
        assertThat(openOrders.isPending(openOrders.slotOf(11))).isTrue();
    }

    private List<Open> orders()
    {
        final List<Open> result = new ArrayList<>();
        for (int slot = 0; slot < openOrders.size(); slot++)
        {
            result.add(new Open(openOrders.counter(slot), openOrders.symbolIndex(slot), (char)openOrders.side(slot),
                openOrders.price(slot), openOrders.shares(slot)));
        }
        return result;
    }

    private record Open(long counter, int symbolIndex, char side, long price, long shares)
    {
    }
}
