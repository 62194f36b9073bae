package io.bourse.engine;

import io.bourse.common.time.MidnightNanoClock;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ExecutionsTest
{
    private static final int PAGE = 4;

    @Test
    void shouldFindEveryExecutionByMatchNumberAcrossPagesWhenManyAreRecorded()
    {
        final Executions executions = new Executions(PAGE);
        for (int i = 1; i <= 4 * PAGE + 1; i++)
        {
            executions.record(i * 16L + 3, 100 + i, 10 * i, 1_000_000 + i, 2_000 + i, 3_000 + i, 4_000 + i, 5_000 + i);
        }

        for (int i = 1; i <= 4 * PAGE + 1; i++)
        {
            final int index = executions.find(i * 16L + 3);
            assertThat(index).isNotEqualTo(Executions.MISSING);
            assertThat(new long[] {executions.matchNumber(index), executions.symbol(index),
                executions.quantity(index), executions.price(index), executions.takerClientOrderId(index),
                executions.takerOrderId(index), executions.makerClientOrderId(index),
                executions.makerOrderId(index)})
                .containsExactly(i * 16L + 3, 100 + i, 10 * i, 1_000_000 + i, 2_000 + i, 3_000 + i, 4_000 + i,
                    5_000 + i);
            assertThat(executions.isBroken(index)).isFalse();
        }
    }

    @Test
    void shouldAnswerMissingWhenTheMatchNumberWasNeverRecorded()
    {
        final Executions executions = new Executions(PAGE);
        assertThat(executions.find(19)).isEqualTo(Executions.MISSING);
        for (int i = 1; i <= PAGE + 2; i++)
        {
            executions.record(i * 16L + 3, 1, 1, 1, 1, 1, 1, 1);
        }

        assertThat(executions.find(3)).isEqualTo(Executions.MISSING);
        assertThat(executions.find(20)).isEqualTo(Executions.MISSING);
        assertThat(executions.find(PAGE * 16L + 4)).isEqualTo(Executions.MISSING);
        assertThat(executions.find((PAGE + 3) * 16L + 3)).isEqualTo(Executions.MISSING);
    }

    @Test
    void shouldKeepTheBrokenMarkOfOneExecutionOnlyWhenMarked()
    {
        final Executions executions = new Executions(PAGE);
        for (int i = 1; i <= 2 * PAGE; i++)
        {
            executions.record(i, 1, 1, 1, 1, 1, 1, 1);
        }

        executions.markBroken(executions.find(PAGE + 1));

        for (int i = 1; i <= 2 * PAGE; i++)
        {
            assertThat(executions.isBroken(executions.find(i))).isEqualTo(i == PAGE + 1);
        }
    }

    @Test
    void shouldForgetTheEarlierDaysExecutionsAndReuseTheirPagesWhenTheClockPassesMidnight()
    {
        final Executions executions = new Executions(PAGE);
        executions.onClock(0);
        for (int i = 1; i <= 2 * PAGE; i++)
        {
            executions.record(i, 1, 1, 1, 1, 1, 1, 1);
            executions.markBroken(executions.find(i));
        }
        executions.onClock(MidnightNanoClock.NANOS_PER_DAY - 1);
        assertThat(executions.find(2 * PAGE)).as("the same day").isNotEqualTo(Executions.MISSING);

        executions.onClock(MidnightNanoClock.NANOS_PER_DAY);
        for (int i = 1; i <= 2 * PAGE; i++)
        {
            assertThat(executions.find(i)).isEqualTo(Executions.MISSING);
        }
        for (int i = 2 * PAGE + 1; i <= 5 * PAGE; i++)
        {
            executions.record(i, 2, 2, 2, 2, 2, 2, 2);
        }
        executions.onClock(MidnightNanoClock.NANOS_PER_DAY + 5);

        for (int i = 2 * PAGE + 1; i <= 5 * PAGE; i++)
        {
            final int index = executions.find(i);
            assertThat(executions.matchNumber(index)).isEqualTo(i);
            assertThat(executions.symbol(index)).isEqualTo(2);
            assertThat(executions.isBroken(index)).as("a reused page's mark").isFalse();
        }
        assertThat(executions.find(1)).isEqualTo(Executions.MISSING);
    }

    @Test
    void shouldRefuseAMatchNumberThatDoesNotGrowWhenRecorded()
    {
        final Executions executions = new Executions(PAGE);
        executions.record(5, 1, 1, 1, 1, 1, 1, 1);

        assertThatThrownBy(() -> executions.record(5, 1, 1, 1, 1, 1, 1, 1))
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("5");
        assertThatThrownBy(() -> new Executions(3)).isInstanceOf(IllegalArgumentException.class);
    }
}
