package io.bourse.gateway;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SessionIndexesTest
{
    private static final int GATEWAY_ID = 7;

    @Test
    void shouldStartPastTheLargestJournaledIndex()
    {
        final SessionIndexes indexes = new SessionIndexes(4);

        assertThat(indexes.take()).isEqualTo(5);
        assertThat(indexes.take()).isEqualTo(6);
    }

    @Test
    void shouldTakeIndexesPastEveryIndexHeardInTheEventsOfUntrackedOrders()
    {
        final SessionIndexes indexes = new SessionIndexes(2);

        assertThat(indexes.onUntrackedOrder(clientOrderId(2, 41))).as("a journaled index").isFalse();
        assertThat(indexes.onUntrackedOrder(clientOrderId(9, 1))).isTrue();
        assertThat(indexes.onUntrackedOrder(clientOrderId(9, 2))).as("heard before").isFalse();
        assertThat(indexes.onUntrackedOrder(clientOrderId(5, 1))).as("below one heard").isFalse();

        assertThat(indexes.take()).isEqualTo(10);
    }

    @Test
    void shouldReadTheSessionIndexAcrossItsWhole24Bits()
    {
        final SessionIndexes indexes = new SessionIndexes(0);

        assertThat(indexes.onUntrackedOrder(clientOrderId(0xAB_CDEF, 0xFFFF_FFFFL))).isTrue();

        assertThat(indexes.take()).isEqualTo(0xAB_CDF0);
    }

    @Test
    void shouldBeExhaustedOnceTheLargestIndexIsTaken()
    {
        final SessionIndexes indexes = new SessionIndexes(SessionIndexes.MAX_SESSION_INDEX - 1);

        assertThat(indexes.isExhausted()).isFalse();
        assertThat(indexes.take()).isEqualTo(SessionIndexes.MAX_SESSION_INDEX);
        assertThat(indexes.isExhausted()).isTrue();
        assertThatThrownBy(indexes::take).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void shouldBeExhaustedWhenTheLargestIndexIsHeard()
    {
        final SessionIndexes indexes = new SessionIndexes(0);

        indexes.onUntrackedOrder(clientOrderId(SessionIndexes.MAX_SESSION_INDEX, 1));

        assertThat(indexes.isExhausted()).isTrue();
    }

    private static long clientOrderId(final int sessionIndex, final long count)
    {
        return ((long)GATEWAY_ID << 56) | ((long)sessionIndex << 32) | count;
    }
}
