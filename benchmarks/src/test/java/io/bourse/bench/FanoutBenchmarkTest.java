package io.bourse.bench;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** {@code bourse bench fanout} for half a second at a low rate: a real media driver, fanout and TCP subscribers. */
@Timeout(60)
class FanoutBenchmarkTest
{
    private static final long RATE = 1_000;
    /** 0.2 s warm-up + 0.3 s measured at 1,000/s: messages 200 to 499 of the schedule are measured. */
    private static final long MEASURED = 300;

    @TempDir
    Path hgrmDir;

    @Test
    void shouldDeliverEveryMeasuredMessageToEverySubscriberWhenRunAtALowRate()
    {
        final FanoutBenchOptions options = new FanoutBenchOptions(RATE, 5, 0.2, 0.3, 2, 2, "backoff", false, hgrmDir);
        final ByteArrayOutputStream output = new ByteArrayOutputStream();

        final FanoutBenchmark.Run run =
            FanoutBenchmark.measure(options, new PrintStream(output, true, StandardCharsets.UTF_8));

        assertThat(run.fanout()).hasSize(1);
        final FanoutBenchmark.Step step = run.fanout().get(0);
        assertThat(step.measured()).isEqualTo(5);
        assertThat(step.measuredSent()).isEqualTo(MEASURED);
        assertThat(step.measuredReceived()).isEqualTo(5 * MEASURED);
        assertThat(step.histogram().getTotalCount()).isEqualTo(5 * MEASURED);
        assertThat(step.histogram().getMinValue()).isPositive();
        assertThat(step.unsettled()).isZero();
        assertThat(step.clientErrors()).isZero();
        assertThat(step.fanoutErrors()).isZero();
        assertThat(step.fanoutDrops()).isZero();
        assertThat(step.threads()).extracting(FanoutBenchmark.ThreadLoad::name).containsExactly(
            "fanout dispatcher+acceptor", "fanout worker 0", "fanout worker 1", "client readers (2)");
        assertThat(step.threads()).allSatisfy((load) -> assertThat(load.delta().cpuNs()).isPositive());
        assertThat(hgrmDir.resolve("fanout-1000-all-reading.hgrm")).isNotEmptyFile();
        assertThat(output.toString(StandardCharsets.UTF_8)).contains("FIX Antenna fan-out (seeds)", "out/ref",
            "ratio bourse all reading / floor");

        final FanoutBenchmark.Step floor = run.floor();
        assertThat(floor.measuredReceived()).isEqualTo(5 * MEASURED);
        assertThat(floor.histogram().getTotalCount()).isEqualTo(5 * MEASURED);
        assertThat(floor.histogram().getMinValue()).isPositive();
        assertThat(floor.unsettled()).isZero();
        assertThat(floor.clientErrors()).isZero();
        assertThat(floor.threads()).extracting(FanoutBenchmark.ThreadLoad::name).containsExactly(
            "floor thread 0", "floor thread 1", "client readers (2)");
        assertThat(hgrmDir.resolve("fanout-1000-floor.hgrm")).isNotEmptyFile();
    }

    @Test
    void shouldReadAMetricSummedOverItsSeriesAndNaNWhenAbsent()
    {
        final String exposition = """
            # TYPE bourse_fanout_errors_total counter
            bourse_fanout_errors_total{kind="slow_consumer"} 2.0
            bourse_fanout_errors_total{kind="agent_exception"} 1.0
            bourse_fanout_errors_total_created{kind="slow_consumer"} 1.7E9
            bourse_fanout_drops_total 4.0
            """;

        assertThat(FanoutBenchmark.metric(exposition, "bourse_fanout_errors_total")).isEqualTo(3.0);
        assertThat(FanoutBenchmark.metric(exposition, "bourse_fanout_drops_total")).isEqualTo(4.0);
        assertThat(FanoutBenchmark.metric(exposition, "bourse_fanout_sessions")).isNaN();
    }

    @Test
    void shouldMeasureTheSameOtherSubscribersWithAndWithoutTheStalledOne()
    {
        final FanoutBenchOptions options = new FanoutBenchOptions(RATE, 3, 0.2, 0.3, 1, 1, "yield", true, null);
        final ByteArrayOutputStream output = new ByteArrayOutputStream();

        final List<FanoutBenchmark.Step> steps =
            FanoutBenchmark.measure(options, new PrintStream(output, true, StandardCharsets.UTF_8)).fanout();

        assertThat(steps).hasSize(2);
        assertThat(steps).allSatisfy((step) ->
        {
            assertThat(step.measured()).isEqualTo(2);
            assertThat(step.measuredReceived()).isEqualTo(2 * MEASURED);
            assertThat(step.histogram().getTotalCount()).isEqualTo(2 * MEASURED);
            assertThat(step.unsettled()).isZero();
        });
        assertThat(output.toString(StandardCharsets.UTF_8)).contains("other subscribers while one is stalled");
    }

    @Test
    void shouldRejectAStallWithASingleSubscriber()
    {
        assertThatThrownBy(() -> new FanoutBenchOptions(RATE, 1, 0, 1, 1, 1, "backoff", true, null).validate())
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("--subscribers");
    }
}
