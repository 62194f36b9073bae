package io.bourse.simulator;

import com.paritytrading.juncture.nasdaq.itch50.ITCH50;
import io.bourse.common.metrics.LatencySummary;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class FeedMeterTest
{
    private final PrometheusRegistry registry = new PrometheusRegistry();
    private final SimulatorCounters counters = new SimulatorCounters();
    private final LatencyTracker latency =
        new LatencyTracker(LatencySummary.register(registry, "test_feed_latency_seconds", "test"));
    private final FeedMeter meter = new FeedMeter(counters, latency);

    @Test
    void shouldMeasureOnlyStampedMessagesThatCarryAnEngineEventsTime()
    {
        meter.onMessage(ITCH50.MESSAGE_TYPE_ADD_ORDER, 1_000);
        meter.nowNs(60_000_000_000L);
        meter.onMessage(ITCH50.MESSAGE_TYPE_SYSTEM_EVENT, 1_000);
        meter.onMessage(ITCH50.MESSAGE_TYPE_STOCK_DIRECTORY, 1_000);
        meter.onMessage(ITCH50.MESSAGE_TYPE_STOCK_TRADING_ACTION, 1_000);
        meter.onMessage(ITCH50.MESSAGE_TYPE_ADD_ORDER, 60_000_000_000L - 250_000);
        meter.onMessage(ITCH50.MESSAGE_TYPE_ORDER_EXECUTED, 60_000_000_000L - 750_000);

        final Histogram measured = latency.sampleInterval();
        assertThat(measured.getTotalCount()).isEqualTo(2);
        assertThat(measured.getMaxValue()).isBetween(749_000L, 751_000L);
        assertThat(counters.get(SimulatorCounter.MD_MESSAGES)).isEqualTo(6);
    }
}
