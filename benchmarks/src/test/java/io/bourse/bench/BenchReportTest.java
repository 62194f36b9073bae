package io.bourse.bench;

import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class BenchReportTest
{
    @Test
    void shouldFormatRatioWithTwoDecimalsWhenOtherIsPositive()
    {
        assertThat(BenchReport.ratio(10.0, 4.0)).isEqualTo("2.50x");
        assertThat(BenchReport.ratio(1.0, 3.0)).isEqualTo("0.33x");
        assertThat(BenchReport.ratio(4_900, 2_791_423)).isEqualTo("0.0018x");
    }

    @Test
    void shouldNotDivideWhenOtherIsZero()
    {
        assertThat(BenchReport.ratio(1.0, 0.0)).isEqualTo("n/a");
    }

    @Test
    void shouldFormatWholeNumbersWithThousandsSeparators()
    {
        assertThat(BenchReport.whole(1_234_567.4)).isEqualTo("1,234,567");
        assertThat(BenchReport.whole(126.5)).isEqualTo("127");
        assertThat(BenchReport.mcps(12.34567)).isEqualTo("12.346");
    }

    @Test
    void shouldTakeMiddleOrMeanOfMiddleTwoWhenSummarisingMedian()
    {
        assertThat(EngineStats.summarise(new double[]{ 3, 1, 2 }, EngineStats.Summary.MEDIAN)).isEqualTo(2.0);
        assertThat(EngineStats.summarise(new double[]{ 4, 1, 3, 2 }, EngineStats.Summary.MEDIAN)).isEqualTo(2.5);
        assertThat(EngineStats.summarise(new double[]{ 4, 1, 3, 2 }, EngineStats.Summary.MIN)).isEqualTo(1.0);
        assertThat(EngineStats.summarise(new double[]{ 4, 1, 3, 2 }, EngineStats.Summary.MAX)).isEqualTo(4.0);
    }

    @Test
    void shouldReportPercentilesAndThroughputPerIteration()
    {
        final EngineStats stats = new EngineStats("engine", 2);
        stats.add(3_000_000, 1_000_000_000L, histogram(100, 1_000), 0);
        stats.add(3_000_000, 500_000_000L, histogram(200, 2_000), 16);

        assertThat(stats.throughput(EngineStats.Summary.MIN)).isEqualTo(3.0);
        assertThat(stats.throughput(EngineStats.Summary.MAX)).isEqualTo(6.0);
        assertThat(stats.latencyNs(0, EngineStats.Summary.MIN)).isEqualTo(100.0);
        assertThat(stats.latencyNs(5, EngineStats.Summary.MAX)).isBetween(1_999.0, 2_001.0);
        assertThat(stats.allocatedBytes(EngineStats.Summary.MEDIAN)).isEqualTo(8.0);
        assertThatThrownBy(() -> stats.add(1, 1, histogram(1, 1), 0)).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void shouldPrintRatiosOfFirstEngineToEachOther()
    {
        final EngineStats bourse = new EngineStats("bourse", 1);
        bourse.add(10_000_000, 1_000_000_000L, histogram(100, 100), 0);
        final EngineStats book = new EngineStats("book", 1);
        book.add(10_000_000, 2_000_000_000L, histogram(200, 200), 1_000);

        final String tables = BenchReport.tables(List.of(bourse, book));

        assertThat(tables)
            .contains("  vs book  ")
            .containsPattern("vs book +2\\.00x +0\\.50x +0\\.50x");
    }

    private static Histogram histogram(final long value, final long max)
    {
        final Histogram histogram = new Histogram(10_000_000_000L, 3);
        for (int i = 0; i < 100; i++)
        {
            histogram.recordValue(value);
        }
        histogram.recordValue(max);
        return histogram;
    }
}
