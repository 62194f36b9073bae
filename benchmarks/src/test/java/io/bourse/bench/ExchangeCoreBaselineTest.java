package io.bourse.bench;

import io.aeron.driver.ThreadingMode;
import io.bourse.exchangecore.PipelineStep;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

class ExchangeCoreBaselineTest
{
    @TempDir
    Path dir;

    @Test
    void shouldCarryAStepAndItsHistogramOverOneLine()
    {
        final Histogram histogram = new Histogram(3);
        histogram.recordValue(1_500);
        histogram.recordValueWithCount(2_000_000, 3);
        final PipelineStep step = new PipelineStep(125_000, 4, 2_000_000L, 0, 7, histogram);

        final PipelineStep parsed = PipelineStep.parse(step.toLine());

        assertThat(step.toLine()).startsWith("STEP 125000 4 2000000 0 7 ").doesNotContain("\n");
        assertThat(parsed).usingRecursiveComparison().ignoringFields("histogram").isEqualTo(step);
        assertThat(parsed.histogram()).isEqualTo(histogram);
        assertThat(parsed.achievedRate()).isEqualTo(2_000.0);
        assertThatThrownBy(() -> PipelineStep.parse("STEP 1 2 3")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> PipelineStep.parse("STEP 1 2 3 4 5 not-base64!"))
            .isInstanceOf(IllegalArgumentException.class).hasMessageStartingWith("bad step line");
    }

    @Test
    void shouldRefuseAJavaThatIsNotAJdk17() throws IOException
    {
        final Path notJava = Files.writeString(dir.resolve("java"), "not a program");

        assertThat(ExchangeCoreBaseline.java(ExchangeCoreBaseline.NONE)).isEmpty();
        assertThatThrownBy(() -> ExchangeCoreBaseline.java(notJava.toString()))
            .isInstanceOf(IllegalArgumentException.class).hasMessageStartingWith("--exchange-core-java");
        assertThatThrownBy(() -> ExchangeCoreBaseline.java(Path.of(System.getProperty("java.home"), "bin", "java")
            .toString())).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    @Timeout(180)
    void shouldRunExchangeCoresWholeEngineOnAJdk17AndStopAfterItsFirstBrokenStep() throws IOException
    {
        final Optional<Path> java = ExchangeCoreBaseline.findJava();
        assumeTrue(java.isPresent(), "no JDK 17 on this machine");
        final Path file = Files.writeString(dir.resolve("commands.csv"),
            EngineServiceBenchmarkTest.csv(EngineServiceBenchmarkTest.randomStream(42)));
        final int benchCommands = io.bourse.workload.ExchangeCoreCommands.load(file).count() -
            io.bourse.workload.ExchangeCoreCommands.load(file).benchStart();
        final ByteArrayOutputStream progress = new ByteArrayOutputStream();
        // 200/s for 0.25 s: 50 commands; 1e9/s is out of reach: all of them, broken. exchange-core's pipeline may
        // already break at 200/s on a small host (p50 over 1 ms), which ends its ramp there.
        final List<Long> rates = List.of(200L, 1_000_000_000L, 3_000L);
        final EngineRampOptions options = new EngineRampOptions(file, rates, 0.25, 20, "backoff",
            ThreadingMode.SHARED, java.get().toString(), "YIELDING").validate();

        final List<EngineRamp.Step> steps = ExchangeCoreBaseline.ramp(java.get(), options,
            new PrintStream(progress, true, StandardCharsets.UTF_8));

        assertThat(steps).isNotEmpty().hasSizeLessThanOrEqualTo(2);
        assertThat(steps).extracting(EngineRamp.Step::targetRate).isEqualTo(rates.subList(0, steps.size()));
        assertThat(steps).extracting(EngineRamp.Step::commands)
            .isEqualTo(List.of(50, benchCommands).subList(0, steps.size()));
        assertThat(steps).allSatisfy((step) ->
            assertThat(step.histogram().getTotalCount()).isEqualTo(step.commands()));
        assertThat(steps.getLast().breakReason()).isNotNull();
        assertThat(steps.subList(0, steps.size() - 1)).allSatisfy((step) -> assertThat(step.breakReason()).isNull());
        assertThat(progress.toString(StandardCharsets.UTF_8))
            .contains("  exchange-core: exchange-core pipeline on Java 17")
            .contains("  exchange-core: warm-up: 20 commands at full speed")
            .contains("  exchange-core: rate 200/s: 50 commands")
            .doesNotContain("STEP ");
    }
}
