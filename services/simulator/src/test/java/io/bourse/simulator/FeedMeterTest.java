package io.bourse.simulator;

import com.paritytrading.juncture.nasdaq.itch50.ITCH50;
import io.bourse.common.metrics.LatencySummary;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class FeedMeterTest
{
    /** The simulator joined the feed at 00:00:59 (ns since midnight). */
    private static final long JOINED_NS = 59_000_000_000L;
    private static final long NOW_NS = 60_000_000_000L;

    private final PrometheusRegistry registry = new PrometheusRegistry();
    private final SimulatorCounters counters = new SimulatorCounters();
    private final LatencyTracker latency =
        new LatencyTracker(LatencySummary.register(registry, "test_feed_latency_seconds", "test"));
    private final FeedMeter meter = new FeedMeter(counters, latency, 2, JOINED_NS);

    @Test
    void shouldMeasureOnlyStampedMessagesOfEngineEventsAfterTheSimulatorJoined()
    {
        // Before the market-data thread stamped a receive time: with the Login Accepted.
        meter.onMessage(ITCH50.MESSAGE_TYPE_ADD_ORDER, JOINED_NS + 1_000);
        meter.nowNs(0, NOW_NS);
        meter.onMessage(ITCH50.MESSAGE_TYPE_SYSTEM_EVENT, NOW_NS - 1_000);
        meter.onMessage(ITCH50.MESSAGE_TYPE_STOCK_DIRECTORY, NOW_NS - 1_000);
        // The Trading Action spin, stamped with the feed's opening.
        meter.onMessage(ITCH50.MESSAGE_TYPE_STOCK_TRADING_ACTION, 1_000);
        // A snapshot's Add Order, stamped when the order rested, before the simulator joined.
        meter.onMessage(ITCH50.MESSAGE_TYPE_ADD_ORDER, JOINED_NS - 1);
        meter.onMessage(ITCH50.MESSAGE_TYPE_ADD_ORDER, NOW_NS - 250_000);
        meter.onMessage(ITCH50.MESSAGE_TYPE_ORDER_EXECUTED, NOW_NS - 750_000);

        final Histogram measured = latency.sampleInterval();
        assertThat(measured.getTotalCount()).isEqualTo(2);
        assertThat(measured.getMaxValue()).isBetween(749_000L, 751_000L);
        assertThat(counters.get(SimulatorCounter.MD_MESSAGES)).isEqualTo(7);
    }

    @Test
    void shouldMeasureTimestampsOfAnExchangeStartedOnAnotherDay()
    {
        final long day = 86_400_000_000_000L;
        meter.nowNs(0, NOW_NS);
        // The exchange's services started the day before the simulator: their clocks have gone on past 24 h.
        meter.onMessage(ITCH50.MESSAGE_TYPE_ADD_ORDER, day + NOW_NS - 300_000);
        // A snapshot's Add Order that rested the day before, on that clock: before the simulator joined.
        meter.onMessage(ITCH50.MESSAGE_TYPE_ADD_ORDER, day + JOINED_NS - 1);
        // A service restarted since midnight while the simulator's clock went on past 24 h.
        meter.nowNs(0, day + NOW_NS);
        meter.onMessage(ITCH50.MESSAGE_TYPE_ORDER_EXECUTED, NOW_NS - 500_000);

        // A snapshot's Add Order that rested 13 h before the simulator joined: not measured (nor as 0).
        meter.onMessage(ITCH50.MESSAGE_TYPE_ADD_ORDER, day + JOINED_NS - 13 * 3_600_000_000_000L);

        final Histogram measured = latency.sampleInterval();
        assertThat(measured.getTotalCount()).isEqualTo(2);
        assertThat(measured.getMinValue()).isBetween(299_000L, 301_000L);
        assertThat(measured.getMaxValue()).isBetween(499_000L, 501_000L);
    }

    @Test
    void shouldGoOnMeasuringMoreThanTwelveHoursAfterTheJoin()
    {
        final long thirteenHoursNs = 13 * 3_600_000_000_000L;
        final long nowNs = JOINED_NS + thirteenHoursNs;
        meter.nowNs(0, nowNs);

        meter.onMessage(ITCH50.MESSAGE_TYPE_ADD_ORDER, nowNs - 200_000);
        // A snapshot's Add Order stamped a minute before the join, 13 h on.
        meter.onMessage(ITCH50.MESSAGE_TYPE_ADD_ORDER, JOINED_NS - 60_000_000_000L);

        final Histogram measured = latency.sampleInterval();
        assertThat(measured.getTotalCount()).isOne();
        assertThat(measured.getMaxValue()).isBetween(199_000L, 201_000L);
    }

    @Test
    void shouldMeasureTheOtherSessionsMessagesDelayedWhileOneLogsInAgain()
    {
        meter.rejoined(1, NOW_NS);
        // Session 1's snapshot, from before its new login.
        meter.nowNs(1, NOW_NS + 1_000_000);
        meter.onMessage(ITCH50.MESSAGE_TYPE_ADD_ORDER, NOW_NS - 1);
        // Session 0's messages, stamped before session 1 logged in again and read after it.
        meter.nowNs(0, NOW_NS + 1_000_000);
        meter.onMessage(ITCH50.MESSAGE_TYPE_ORDER_EXECUTED, NOW_NS - 2_000_000);

        final Histogram measured = latency.sampleInterval();
        assertThat(measured.getTotalCount()).isEqualTo(1);
        assertThat(measured.getMaxValue()).isBetween(2_999_000L, 3_001_000L);
    }
}
