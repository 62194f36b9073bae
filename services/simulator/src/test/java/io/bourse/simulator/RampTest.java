package io.bourse.simulator;

import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class RampTest
{
    private static final long LIMIT_NS = 500_000;

    private final List<Ramp.Step> heard = new ArrayList<>();
    private final List<Long> heardCounts = new ArrayList<>();
    private final Ramp ramp = new Ramp(1_000, 1_000, 4_000, 2_000_000_000L, LIMIT_NS,
        (step, histogram) ->
        {
            heard.add(step);
            heardCounts.add(histogram.getTotalCount());
        });

    @Test
    void shouldStopAtTheFirstStepWhoseP99ExceedsTheLimit()
    {
        assertThat(ramp.onStepEnd(latencies(100, 200_000), 100, 0, 0)).isTrue();
        assertThat(ramp.onStepEnd(latencies(200, 400_000), 200, 0, 0)).isTrue();
        assertThat(ramp.onStepEnd(latencies(300, 900_000), 300, 0, 0)).isFalse();
        assertThat(ramp.onStepEnd(latencies(400, 100), 400, 0, 0)).isFalse();

        assertThat(heard).isEqualTo(ramp.steps());
        assertThat(heardCounts).isEqualTo(List.of(100L, 200L, 300L));
        assertThat(ramp.steps()).extracting(Ramp.Step::rate).isEqualTo(List.of(1_000L, 2_000L, 3_000L));
        assertThat(ramp.steps()).extracting(Ramp.Step::broke).isEqualTo(List.of(false, false, true));
        assertThat(ramp.brokeAt()).isEqualTo(ramp.steps().get(2));
    }

    @Test
    void shouldStopAfterTheMaximumRateWhenTheLatencyHolds()
    {
        for (int i = 0; i < 3; i++)
        {
            assertThat(ramp.onStepEnd(latencies(10, 100_000), 10, 0, 0)).isTrue();
        }

        assertThat(ramp.onStepEnd(latencies(10, 100_000), 10, 0, 0)).isFalse();
        assertThat(ramp.steps()).extracting(Ramp.Step::rate).isEqualTo(List.of(1_000L, 2_000L, 3_000L, 4_000L));
        assertThat(ramp.meanRate()).isEqualTo(2_500);
        assertThat(ramp.brokeAt()).isNull();
    }

    @Test
    void shouldTreatAStepThatSentNoEnterOrderAsNotBroken()
    {
        assertThat(ramp.onStepEnd(new Histogram(3), 0, 0, 0)).isTrue();
        assertThat(ramp.steps()).isEqualTo(List.of(new Ramp.Step(0, 1_000, 0, 0, 0, 0, 0, 0, 0, false, 0)));
    }

    @Test
    void shouldBreakAtAStepWhoseEnterOrdersWereDueButNotSentForWantOfASession()
    {
        assertThat(ramp.onStepEnd(latencies(1_000, 100_000), 1_000, 0, 0)).isTrue();
        assertThat(ramp.onStepEnd(new Histogram(3), 0, 0, 2_000)).as("no session logged in: nothing sent").isFalse();
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();

        ramp.print(new PrintStream(bytes, true, StandardCharsets.UTF_8));

        assertThat(ramp.steps()).extracting(Ramp.Step::broke).isEqualTo(List.of(false, true));
        assertThat(bytes.toString(StandardCharsets.UTF_8)).contains("ramp: broke at 2,000 orders/s (0 of 2,000 Enter " +
            "Orders answered within the step, under 90%; about 2,000 of them not sent, no session logged in)");
    }

    @Test
    void shouldCountAsEnterOrdersOnlyTheirShareOfTheOrdersNotSent()
    {
        assertThat(ramp.onStepEnd(latencies(1_000, 100_000), 1_000, 1_000, 200))
            .as("1,000 of 1,100 Enter Orders due answered: half of the 200 not sent would have been Enter Orders")
            .isTrue();
        assertThat(ramp.onStepEnd(latencies(1_000, 100_000), 1_000, 1_000, 400))
            .as("1,000 of 1,200 answered").isFalse();
        assertThat(ramp.steps()).extracting(Ramp.Step::notSent).isEqualTo(List.of(100L, 200L));
        assertThat(Ramp.enterOrdersNotSent(1, 2, 1)).as("rounded up").isEqualTo(1);
    }

    @Test
    void shouldBreakAtAStepWhoseEnterOrdersWereNotAnsweredWithinIt()
    {
        assertThat(ramp.onStepEnd(latencies(900, 100_000), 1_000, 0, 0)).isTrue();
        assertThat(ramp.onStepEnd(new Histogram(3), 2_000, 0, 0)).isFalse();
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();

        ramp.print(new PrintStream(bytes, true, StandardCharsets.UTF_8));

        assertThat(ramp.steps()).extracting(Ramp.Step::broke).isEqualTo(List.of(false, true));
        assertThat(bytes.toString(StandardCharsets.UTF_8))
            .contains("ramp: broke at 2,000 orders/s (0 of 2,000 Enter Orders answered within the step, under 90%)");
    }

    @Test
    void shouldPrintTheTableAndWhereItBroke()
    {
        ramp.onStepEnd(latencies(1_000, 200_000), 1_000, 0, 0);
        ramp.onStepEnd(latencies(1_000, 700_000), 1_000, 0, 0);
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();

        ramp.print(new PrintStream(bytes, true, StandardCharsets.UTF_8));

        final String text = bytes.toString(StandardCharsets.UTF_8);
        assertThat(text).contains("    0        1,000      1,000      1,000      200.1      200.1      200.1" +
                "      200.1      200.1")
            .contains("<- broke").contains("ramp: broke at 2,000 orders/s (p99 700.4 us > 500.0 us)");
    }

    private static Histogram latencies(final int count, final long valueNs)
    {
        final Histogram histogram = new Histogram(3_600_000_000_000L, 3);
        histogram.recordValueWithCount(valueNs, count);
        return histogram;
    }
}
