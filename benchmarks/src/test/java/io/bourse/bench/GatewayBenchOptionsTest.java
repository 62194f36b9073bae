package io.bourse.bench;

import io.aeron.driver.ThreadingMode;
import org.agrona.concurrent.YieldingIdleStrategy;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class GatewayBenchOptionsTest
{
    private static GatewayBenchOptions options(
        final List<Long> rates, final int sessions, final int shards, final double warmup, final double seconds,
        final String idle)
    {
        return new GatewayBenchOptions(rates, sessions, shards, warmup, seconds, idle, ThreadLayout.SHARED, ThreadingMode.SHARED, null);
    }

    @Test
    void shouldAcceptDefaults()
    {
        final GatewayBenchOptions options = options(
            GatewayBenchOptions.parseRates(GatewayBenchOptions.DEFAULT_RATES), GatewayBenchOptions.DEFAULT_SESSIONS,
            GatewayBenchOptions.DEFAULT_SHARDS, GatewayBenchOptions.DEFAULT_WARMUP_SECONDS,
            GatewayBenchOptions.DEFAULT_MEASURE_SECONDS, GatewayBenchOptions.DEFAULT_IDLE);

        assertThat(options.validate()).isSameAs(options);
        assertThat(options.rates()).containsExactly(10_000L, 50_000L, 100_000L, 200_000L, 500_000L);
    }

    @Test
    void shouldParseRatesWithThousandsWhenSuffixedOrUnderscored()
    {
        assertThat(GatewayBenchOptions.parseRates("10k, 2_500,7K")).containsExactly(10_000L, 2_500L, 7_000L);
    }

    @Test
    void shouldNameRatesWhenAnEntryIsNotANumber()
    {
        assertThatThrownBy(() -> GatewayBenchOptions.parseRates("10k,fast"))
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("--rates").hasMessageContaining("fast");
    }

    @Test
    void shouldMakeTheNamedIdleStrategyWhenValid()
    {
        assertThat(options(List.of(1_000L), 1, 1, 0, 1, "yield").validate().newIdleStrategy())
            .isInstanceOf(YieldingIdleStrategy.class);
    }

    @Test
    void shouldNameTheBadOptionWhenOutOfRange()
    {
        assertThatThrownBy(() -> options(List.of(1L), 1, 1, 0, 1, "backoff").validate())
            .isInstanceOf(IllegalArgumentException.class).hasMessageStartingWith("--rates");
        assertThatThrownBy(() -> options(List.of(1_000L), 0, 1, 0, 1, "backoff").validate())
            .isInstanceOf(IllegalArgumentException.class).hasMessageStartingWith("--sessions");
        assertThatThrownBy(() -> options(List.of(1_000L), 1, GatewayBenchOptions.MAX_SHARDS + 1, 0, 1, "backoff")
            .validate()).isInstanceOf(IllegalArgumentException.class).hasMessageStartingWith("--shards");
        assertThatThrownBy(() -> options(List.of(1_000L), 1, 1, -1, 1, "backoff").validate())
            .isInstanceOf(IllegalArgumentException.class).hasMessageStartingWith("--warmup");
        assertThatThrownBy(() -> options(List.of(1_000L), 1, 1, 0, 0, "backoff").validate())
            .isInstanceOf(IllegalArgumentException.class).hasMessageStartingWith("--seconds");
        assertThatThrownBy(() -> options(List.of(1_000L), 1, 1, 0, 1, "spin").validate())
            .isInstanceOf(IllegalArgumentException.class).hasMessageStartingWith("--idle");
    }
}
