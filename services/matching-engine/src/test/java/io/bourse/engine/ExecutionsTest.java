package io.bourse.engine;

import io.bourse.common.time.MidnightNanoClock;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ExecutionsTest
{
    private static final int PAGE = 4;
    private static final int MAX_PAGES = 64;

    @Test
    void shouldFindEveryExecutionByMatchNumberAcrossPagesWhenManyAreRecorded()
    {
        final Executions executions = new Executions(PAGE, MAX_PAGES);
        for (int i = 1; i <= 4 * PAGE + 1; i++)
        {
            executions.record(
                i * 16L + 3, 100 + i, 10 * i, 1_000_000 + i, 2_000 + i, 3_000 + i, 4_000 + i, 5_000 + i, 0 == i % 3);
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
            assertThat(executions.isCross(index)).isEqualTo(0 == i % 3);
        }
    }

    /**
     * Past its most pages, the registry forgets its oldest page's executions and reuses the page: the latest ones are
     * found, the forgotten ones are missing (a BreakTrade of one is refused as an unknown match number). Before, a new
     * page was allocated every page's executions for the whole day, until direct memory ran out in the middle of a
     * command.
     */
    @Test
    void shouldForgetTheOldestPageOnceItHoldsItsMostPages()
    {
        final Executions executions = new Executions(PAGE, 2);
        for (int i = 1; i <= 3 * PAGE + 1; i++)
        {
            executions.record(i, 100 + i, 1, 1, 1, 1, 1, 1, false);
        }

        for (int i = 1; i <= 2 * PAGE; i++)
        {
            assertThat(executions.find(i)).as("match number " + i).isEqualTo(Executions.MISSING);
        }
        for (int i = 2 * PAGE + 1; i <= 3 * PAGE + 1; i++)
        {
            assertThat(executions.symbol(executions.find(i))).as("match number " + i).isEqualTo(100 + i);
        }
        executions.markBroken(executions.find(3 * PAGE + 1));
        assertThat(executions.isBroken(executions.find(3 * PAGE + 1))).isTrue();
        assertThat(executions.isBroken(executions.find(3 * PAGE))).isFalse();
    }

    @Test
    void shouldAnswerMissingWhenTheMatchNumberWasNeverRecorded()
    {
        final Executions executions = new Executions(PAGE, MAX_PAGES);
        assertThat(executions.find(19)).isEqualTo(Executions.MISSING);
        for (int i = 1; i <= PAGE + 2; i++)
        {
            executions.record(i * 16L + 3, 1, 1, 1, 1, 1, 1, 1, false);
        }

        assertThat(executions.find(3)).isEqualTo(Executions.MISSING);
        assertThat(executions.find(20)).isEqualTo(Executions.MISSING);
        assertThat(executions.find(PAGE * 16L + 4)).isEqualTo(Executions.MISSING);
        assertThat(executions.find((PAGE + 3) * 16L + 3)).isEqualTo(Executions.MISSING);
    }

    @Test
    void shouldKeepTheBrokenMarkOfOneExecutionOnlyWhenMarked()
    {
        final Executions executions = new Executions(PAGE, MAX_PAGES);
        for (int i = 1; i <= 2 * PAGE; i++)
        {
            executions.record(i, 1, 1, 1, 1, 1, 1, 1, false);
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
        final Executions executions = new Executions(PAGE, MAX_PAGES);
        executions.onClock(0);
        for (int i = 1; i <= 2 * PAGE; i++)
        {
            executions.record(i, 1, 1, 1, 1, 1, 1, 1, false);
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
            executions.record(i, 2, 2, 2, 2, 2, 2, 2, false);
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
        final Executions executions = new Executions(PAGE, MAX_PAGES);
        executions.record(5, 1, 1, 1, 1, 1, 1, 1, false);

        assertThatThrownBy(() -> executions.record(5, 1, 1, 1, 1, 1, 1, 1, false))
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("5", false);
        assertThatThrownBy(() -> new Executions(3, MAX_PAGES)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new Executions(PAGE, 1)).isInstanceOf(IllegalArgumentException.class);
    }
}
