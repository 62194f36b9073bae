package io.bourse.simulator;

import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;

class SimulatorReportTest
{
    @Test
    void shouldPrintTheSummaryInMicrosecondsWithThroughputAgainstTarget()
    {
        final SimulatorReport report = new SimulatorReport(
            "2 cores, Linux 6.8 amd64, Java 25", 2, 1000, "steady", 4, 1, 10, 10_000_000_000L,
            5_400, 1_500, 2_000, 1_000, 0,
            6_890, 10, new TreeMap<>(Map.of('O', 7L, 'S', 3L)),
            1_234, 123_400, 2_100, 950, 0,
            new SimulatorReport.Latency(6_900, 45_250, 80_100, 150_300, 900_400, 1_200_000),
            new SimulatorReport.Latency(950, 50_000, 90_000, 160_000, 700_000, 800_000),
            new SimulatorReport.Latency(9_900, 0, 1_000, 12_000, 40_000, 95_000),
            25_000, new TreeMap<>(Map.of('A', 20_000L, 'E', 5_000L)), 20_000,
            new SimulatorReport.Latency(25_000, 12_000, 20_000, 35_000, 90_000, 250_000),
            0, 2, 60,
            List.of(new SimulatorReport.SymbolTrades("AAPL", 3, 300, 200, 150.125, 150.25),
                new SimulatorReport.SymbolTrades("MSFT", 0, 0, 0, Double.NaN, Double.NaN)),
            new BookCheck.Result(2, List.of(), null),
            new SimulatorReport.GapFill(MarketDataFeed.MOLDUDP64, 3, 5, 412, 0, 1));

        assertThat(print(report)).isEqualTo(String.join(System.lineSeparator(),
            "=== Bourse simulator ===",
            "machine         : 2 cores, Linux 6.8 amd64, Java 25",
            "load            : 1,000 orders/s target (steady), 4 OUCH sessions, 1 market-data session, 10 s",
            "orders sent     : 9,900 (day 5,400, ioc 1,500, cancel 2,000, replace 1,000) in 10.00 s",
            "throughput      : 990.0 orders/s achieved vs 1,000 target (99.0%)",
            "accepted        : 6,890",
            "rejected        : 10 (O 7, S 3)",
            "executions      : 1,234 (123,400 shares)",
            "canceled        : 2,100",
            "replaced        : 950",
            "unanswered      : 0",
            "order->Accepted : p50 45.3, p90 80.1, p99 150.3, p99.9 900.4, max 1,200.0 us (6,900 samples)" +
                " (round trip, CO-corrected)",
            "replace->answer : p50 50.0, p90 90.0, p99 160.0, p99.9 700.0, max 800.0 us (950 samples)" +
                " (Replaced or Rejected, round trip, CO-corrected)",
            "send lag        : p50 0.0, p90 1.0, p99 12.0, p99.9 40.0, max 95.0 us (9,900 samples)" +
                " (sent after the intended time: the simulator's own delay)",
            "md messages     : 25,000 (A 20,000, E 5,000)",
            "feed latency    : p50 12.0, p90 20.0, p99 35.0, p99.9 90.0, max 250.0 us (25,000 samples)" +
                " (ITCH timestamp -> received, order messages since joining)",
            "md message rate : 2,000.0 messages/s (received while sending, 1 md session)",
            "inconsistencies : 2 (ITCH messages that did not fit the book)",
            "md gaps         : 3 detected, 412 messages re-requested in 5 Request Packets, all filled",
            "AAPL            : 3 trades, 300 shares, VWAP $150.1250 session (of the day's 200 shares), $150.2500" +
                " rolling 60 s",
            "MSFT            : 0 trades, 0 shares, VWAP - session, - rolling 60 s",
            "book check      : 2 symbols equal to the snapshot",
            "errors          : 0",
            ""));
    }

    @Test
    void shouldSaySoWhenThereAreNoSamplesAndNoDuration()
    {
        final SimulatorReport report = new SimulatorReport(
            "1 cores", 1, 500, "hawkes", 1, 0, 0, 0, 0, 0, 0, 0, 250, 0, 0, Map.of(), 0, 0, 0, 0, 0,
            SimulatorReport.Latency.EMPTY, SimulatorReport.Latency.EMPTY, SimulatorReport.Latency.EMPTY, 0, Map.of(),
            0, SimulatorReport.Latency.EMPTY, 0, 0, 60, List.of(),
            BookCheck.Result.NONE, new SimulatorReport.GapFill(MarketDataFeed.SOUPBINTCP, 0, 0, 0, 0, 0));

        assertThat(print(report))
            .contains("load            : 500 orders/s target (hawkes), 1 OUCH session, 0 market-data sessions, until stopped")
            .contains("orders sent     : 0 (day 0, ioc 0, cancel 0, replace 0) in 0.00 s; 250 more not sent, no OUCH " +
                "session logged in")
            .contains("throughput      : 0.0 orders/s achieved vs 500 target (0.0%)")
            .contains("order->Accepted : no samples")
            .contains("replace->answer : no samples")
            .contains("send lag        : no samples")
            .contains("rejected        : 0" + System.lineSeparator())
            .contains("book check      : not run")
            .contains("md gaps         : none possible (SoupBinTCP over TCP delivers every message in order)");
    }

    @Test
    void shouldSayThatTradesAreMissingWhenASoupBinTcpSessionLoggedInAgainFromASnapshot()
    {
        assertThat(new SimulatorReport.GapFill(MarketDataFeed.SOUPBINTCP, 0, 0, 0, 0, 2).describe()).isEqualTo(
            "the first session lost and logged in again from a fresh snapshot 2 times: the trades in between are " +
            "missing from the figures below");
    }

    @Test
    void shouldTakePercentilesFromAHistogram()
    {
        final Histogram histogram = new Histogram(3_600_000_000_000L, 3);
        for (long us = 1; us <= 1000; us++)
        {
            histogram.recordValue(us * 1000);
        }

        final SimulatorReport.Latency latency = SimulatorReport.Latency.of(histogram);

        assertThat(latency.count()).isEqualTo(1000);
        assertThat(latency.p50Ns()).isBetween(499_000L, 501_000L);
        assertThat(latency.p99Ns()).isBetween(989_000L, 991_000L);
        assertThat(latency.maxNs()).isBetween(999_000L, 1_001_000L);
        assertThat(SimulatorReport.Latency.of(new Histogram(3))).isEqualTo(SimulatorReport.Latency.EMPTY);
    }

    private static String print(final SimulatorReport report)
    {
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8))
        {
            report.print(out);
        }
        return bytes.toString(StandardCharsets.UTF_8);
    }
}
