package io.bourse.bench;

import io.aeron.driver.ThreadingMode;
import org.agrona.concurrent.BusySpinIdleStrategy;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ServiceBenchOptionsTest
{
    @TempDir
    Path dir;

    private ServiceBenchOptions options(
        final int warmup, final int iterations, final long rate, final String idle, final ThreadingMode threading)
        throws IOException
    {
        return new ServiceBenchOptions(
            Files.writeString(dir.resolve("commands.csv"), ""), warmup, iterations, rate, idle, threading);
    }

    @Test
    void shouldAcceptDefaults() throws IOException
    {
        final ServiceBenchOptions options = options(ServiceBenchOptions.DEFAULT_WARMUP,
            ServiceBenchOptions.DEFAULT_ITERATIONS, ServiceBenchOptions.DEFAULT_RATE, ServiceBenchOptions.DEFAULT_IDLE,
            ServiceBenchOptions.DEFAULT_DRIVER_THREADING);

        assertThat(options.validate()).isSameAs(options);
    }

    @Test
    void shouldMakeTheNamedIdleStrategyWhenValid() throws IOException
    {
        assertThat(options(0, 1, 1_000, "busy", ThreadingMode.DEDICATED).validate().newIdleStrategy())
            .isInstanceOf(BusySpinIdleStrategy.class);
    }

    @Test
    void shouldNameCommandsWhenFileMissing()
    {
        assertThatThrownBy(() -> new ServiceBenchOptions(
            dir.resolve("missing.csv.gz"), 0, 1, 0, "backoff", ThreadingMode.SHARED).validate())
            .isInstanceOf(IllegalArgumentException.class).hasMessageStartingWith("--commands");
    }

    @Test
    void shouldNameWarmupWhenNegative() throws IOException
    {
        final ServiceBenchOptions options = options(-1, 1, 0, "backoff", ThreadingMode.SHARED);

        assertThatThrownBy(options::validate)
            .isInstanceOf(IllegalArgumentException.class).hasMessageStartingWith("--warmup");
    }

    @Test
    void shouldNameIterationsWhenZero() throws IOException
    {
        final ServiceBenchOptions options = options(0, 0, 0, "backoff", ThreadingMode.SHARED);

        assertThatThrownBy(options::validate)
            .isInstanceOf(IllegalArgumentException.class).hasMessageStartingWith("--iterations");
    }

    @Test
    void shouldNameRateWhenNegative() throws IOException
    {
        final ServiceBenchOptions options = options(0, 1, -1, "backoff", ThreadingMode.SHARED);

        assertThatThrownBy(options::validate)
            .isInstanceOf(IllegalArgumentException.class).hasMessageStartingWith("--rate");
    }

    @Test
    void shouldNameIdleWhenUnknown() throws IOException
    {
        final ServiceBenchOptions options = options(0, 1, 0, "nap", ThreadingMode.SHARED);

        assertThatThrownBy(options::validate)
            .isInstanceOf(IllegalArgumentException.class).hasMessageStartingWith("--idle");
    }

    @Test
    void shouldNameDriverThreadingWhenInvoker() throws IOException
    {
        final ServiceBenchOptions options = options(0, 1, 0, "backoff", ThreadingMode.INVOKER);

        assertThatThrownBy(options::validate)
            .isInstanceOf(IllegalArgumentException.class).hasMessageStartingWith("--driver-threading");
    }

    @Test
    void shouldNameDriverThreadingWhenMissing() throws IOException
    {
        final ServiceBenchOptions options = options(0, 1, 0, "backoff", null);

        assertThatThrownBy(options::validate)
            .isInstanceOf(IllegalArgumentException.class).hasMessageStartingWith("--driver-threading");
    }
}
