package io.bourse.gateway;

import io.bourse.gateway.RecordingEngineProxy.ClockTick;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class ClockTickerTest
{
    private static final long NANO_TIME = 5_000_000_000L;
    private static final long T0 = 36_000_000_000_000L;
    private static final long INTERVAL_NS = 1_000_000_000L;

    private final PrometheusRegistry registry = new PrometheusRegistry();
    private final RecordingEngineProxy engine = new RecordingEngineProxy();
    private final DutyCycleClock clock = new DutyCycleClock(null);
    private final ClockTicker ticker = new ClockTicker(INTERVAL_NS, engine, 2, clock, new GatewayMetrics(registry));

    @Test
    void shouldTickEveryShardAtOnceThenOncePerSecond()
    {
        clock.set(NANO_TIME, T0);
        assertThat(ticker.doWork()).isEqualTo(2);
        clock.set(NANO_TIME + INTERVAL_NS - 1, T0 + INTERVAL_NS - 1);
        assertThat(ticker.doWork()).isZero();
        clock.set(NANO_TIME + INTERVAL_NS, T0 + INTERVAL_NS);
        assertThat(ticker.doWork()).isEqualTo(2);

        assertThat(engine.clockTicks()).isEqualTo(List.of(
            new ClockTick(0, T0), new ClockTick(1, T0),
            new ClockTick(0, T0 + INTERVAL_NS), new ClockTick(1, T0 + INTERVAL_NS)));
        assertThat(Metrics.counter(registry, "bourse_gateway_clock_ticks_total", "sent")).isEqualTo(4);
    }

    @Test
    void shouldCountFailedTicksAndTryAgainNextSecondWhenTheShardDoesNotTakeThem()
    {
        engine.available = false;
        clock.set(NANO_TIME, T0);
        ticker.doWork();
        clock.set(NANO_TIME + 1, T0 + 1);
        ticker.doWork();
        engine.available = true;
        clock.set(NANO_TIME + INTERVAL_NS, T0 + INTERVAL_NS);
        ticker.doWork();

        assertThat(engine.clockTicks()).hasSize(4);
        assertThat(Metrics.counter(registry, "bourse_gateway_clock_ticks_total", "failed")).isEqualTo(2);
        assertThat(Metrics.counter(registry, "bourse_gateway_clock_ticks_total", "sent")).isEqualTo(2);
    }
}
