package io.bourse.bench;

import io.aeron.driver.ThreadingMode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The end-to-end benchmark on the whole pipeline in this JVM: every measured order has both of its latencies. */
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class EndToEndBenchmarkTest
{
    @Test
    void shouldMeasureEveryOrderOnceToItsAcceptedAndOnceToItsItchMessageWhenThePipelineKeepsUp()
    {
        final GatewayBenchOptions exchangeOptions = new GatewayBenchOptions(List.of(1_000L), 2, 2, 0, 1, "backoff",
            ThreadLayout.DEDICATED, ThreadingMode.SHARED, null);
        final ByteArrayOutputStream report = new ByteArrayOutputStream();
        final List<EndToEndBenchmark.Step> steps;
        try (InProcessExchange exchange = InProcessExchange.launch(exchangeOptions, true))
        {
            steps = EndToEndBenchmark.measure(new EndToEndBenchOptions(List.of(1_000L, 2_000L), 2, 0.2, 0.5, null),
                exchange.target("test"), new PrintStream(report, true, StandardCharsets.UTF_8));
        }

        assertThat(steps).hasSize(2);
        for (final EndToEndBenchmark.Step step : steps)
        {
            assertThat(step.roundTrip().errors()).isZero();
            assertThat(step.roundTrip().unsettled()).isZero();
            assertThat(step.endToEnd().unsettled()).isZero();
            assertThat(step.roundTrip().histogram().getTotalCount()).isEqualTo(step.roundTrip().measuredSent())
                .isGreaterThan(0);
            assertThat(step.endToEnd().histogram().getTotalCount()).isEqualTo(step.roundTrip().measuredSent());
        }
        assertThat(report.toString(StandardCharsets.UTF_8))
            .contains("exchange: in-process, test", "in-process rate 2,000/s: OUCH round trip", "; end to end ");
    }
}
