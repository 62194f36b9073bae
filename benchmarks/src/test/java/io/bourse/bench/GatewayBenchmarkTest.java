package io.bourse.bench;

import io.aeron.driver.ThreadingMode;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Both paths of {@code bourse bench gateway} for half a second at a low rate: a real gateway, engine and echo. */
@Timeout(60)
class GatewayBenchmarkTest
{
    private static final long RATE = 2_000;
    /** 0.2 s warm-up + 0.3 s measured at 2,000/s: orders 400 to 999 of the schedule are measured. */
    private static final long MEASURED = 600;

    @TempDir
    Path hgrmDir;

    @ParameterizedTest
    @EnumSource(ThreadLayout.class)
    void shouldAnswerAndRecordEveryMeasuredOrderOnBothPathsWhenRunAtALowRate(final ThreadLayout layout)
    {
        final GatewayBenchOptions options = new GatewayBenchOptions(
            List.of(RATE), 3, 2, 0.2, 0.3, "backoff", layout, ThreadingMode.SHARED, hgrmDir);
        final ByteArrayOutputStream output = new ByteArrayOutputStream();

        final List<GatewayBenchmark.RatePair> results =
            GatewayBenchmark.measure(options, new PrintStream(output, true, StandardCharsets.UTF_8));

        assertThat(results).hasSize(1);
        final GatewayBenchmark.RatePair pair = results.get(0);
        assertThat(List.of(pair.floor(), pair.gateway())).allSatisfy((step) ->
        {
            assertThat(step.rate()).isEqualTo(RATE);
            assertThat(step.measuredSent()).isEqualTo(MEASURED);
            assertThat(step.histogram().getTotalCount()).isEqualTo(MEASURED);
            assertThat(step.notSent()).isZero();
            assertThat(step.unsettled()).isZero();
            assertThat(step.errors()).isZero();
            assertThat(step.histogram().getMinValue()).isPositive();
        });
        assertThat(pair.floor().path()).isEqualTo(GatewayBenchmark.FLOOR);
        assertThat(pair.gateway().path()).isEqualTo(GatewayBenchmark.GATEWAY);
        assertThat(hgrmDir.resolve("floor-2000.hgrm")).isNotEmptyFile();
        assertThat(hgrmDir.resolve("gateway-2000.hgrm")).isNotEmptyFile();
        assertThat(output.toString(StandardCharsets.UTF_8)).contains("ratio gateway / floor", "highest rate with p99");
    }

    @Test
    void shouldShowTheRejectedOrdersOfAStepInTheReportTableAndNotCallItSustained()
    {
        final RateStep floor = step(GatewayBenchmark.FLOOR, 0);
        final RateStep gateway = step(GatewayBenchmark.GATEWAY, 5);

        final String report = GatewayBenchmark.report(List.of(new GatewayBenchmark.RatePair(floor, gateway)));

        assertThat(report.lines().filter((line) -> line.startsWith("  " + GatewayBenchmark.GATEWAY + " ")))
            .singleElement().satisfies((line) -> assertThat(line.trim().split(" +")).endsWith("1.0", "0", "5"));
        assertThat(report).contains(
            GatewayBenchmark.GATEWAY + " none of the rates, " + GatewayBenchmark.FLOOR + " 1,000/s");
    }

    private static RateStep step(final String path, final long errors)
    {
        final Histogram histogram = new Histogram(3);
        histogram.recordValue(20_000);
        return new RateStep(path, 1_000, 1_000, 0, 0, errors, 1_000, 1, histogram, List.of());
    }
}
