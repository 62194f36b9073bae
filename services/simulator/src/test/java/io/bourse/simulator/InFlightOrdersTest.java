package io.bourse.simulator;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class InFlightOrdersTest
{
    @Test
    void shouldReturnTheIntendedTimeOnceAndOnlyForOrdersInFlight()
    {
        final InFlightOrders inFlight = new InFlightOrders(4);
        inFlight.add(1, 100);
        inFlight.add(2, 200);

        assertThat(inFlight.remove(2)).isEqualTo(200);
        assertThat(inFlight.remove(2)).isEqualTo(InFlightOrders.NOT_IN_FLIGHT);
        assertThat(inFlight.remove(3)).isEqualTo(InFlightOrders.NOT_IN_FLIGHT);
        assertThat(inFlight.size()).isEqualTo(1);
    }

    @Test
    void shouldGiveUpEveryOrderInFlightWhenClearedAndSayHowMany()
    {
        final InFlightOrders inFlight = new InFlightOrders(4);
        inFlight.add(1, 100);
        inFlight.add(2, 200);

        assertThat(inFlight.clear()).isEqualTo(2);
        assertThat(inFlight.size()).isZero();
        assertThat(inFlight.remove(1)).isEqualTo(InFlightOrders.NOT_IN_FLIGHT);
        assertThat(inFlight.isFree(2)).isTrue();
        assertThat(inFlight.add(5, 500)).as("nothing left to overwrite").isFalse();
    }

    @Test
    void shouldReportAnUnansweredOrderOverwrittenByTheCounterComingRound()
    {
        final InFlightOrders inFlight = new InFlightOrders(4);
        inFlight.add(1, 100);

        final boolean overwritten = inFlight.add(5, 500);

        assertThat(overwritten).isTrue();
        assertThat(inFlight.remove(1)).isEqualTo(InFlightOrders.NOT_IN_FLIGHT);
        assertThat(inFlight.remove(5)).isEqualTo(500);
        assertThat(inFlight.size()).isZero();
    }

    @Test
    void shouldDoubleTheRingRatherThanOverwriteAnUnansweredOrderUpToItsMaximumCapacity()
    {
        final InFlightOrders inFlight = new InFlightOrders(4, 8);
        inFlight.add(1, 100);
        inFlight.add(3, 300);

        assertThat(inFlight.add(5, 500)).isFalse();
        assertThat(inFlight.add(9, 900)).isTrue(); // slot of 1 in a ring of 8, the maximum: overwritten

        assertThat(inFlight.remove(1)).isEqualTo(InFlightOrders.NOT_IN_FLIGHT);
        assertThat(inFlight.remove(3)).isEqualTo(300);
        assertThat(inFlight.remove(5)).isEqualTo(500);
        assertThat(inFlight.remove(9)).isEqualTo(900);
        assertThat(inFlight.size()).isZero();
    }

    @Test
    void shouldDoubleTheRingAsOftenAsItTakesToFreeTheSlot()
    {
        final InFlightOrders inFlight = new InFlightOrders(2, 16);
        inFlight.add(1, 100);

        assertThat(inFlight.add(9, 900)).isFalse(); // 1 and 9 share a slot in rings of 2, 4 and 8; not in 16

        assertThat(inFlight.remove(1)).isEqualTo(100);
        assertThat(inFlight.remove(9)).isEqualTo(900);
        assertThat(inFlight.size()).isZero();
    }

    @Test
    void shouldScheduleOrdersEvenlyWithoutOverflow()
    {
        assertThat(SteadyArrivals.intendedNs(1_000, 3, 0)).isEqualTo(1_000);
        assertThat(SteadyArrivals.intendedNs(1_000, 3, 1)).isEqualTo(1_000 + 333_333_333);
        assertThat(SteadyArrivals.intendedNs(1_000, 3, 3)).isEqualTo(1_000 + 1_000_000_000);
        assertThat(SteadyArrivals.intendedNs(0, 1_000_000, 86_400_000_000L)).isEqualTo(86_400_000_000_000L);
    }
}
