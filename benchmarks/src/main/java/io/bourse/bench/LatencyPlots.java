package io.bourse.bench;

import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramIterationValue;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.markers.SeriesMarkers;

import java.awt.Color;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The PNG plots of the benchmark suite's report, drawn with XChart: a latency percentile distribution (x = percentile
 * on the log {@code 1/(1-p)} axis HdrHistogram's plotter uses, y = latency in us, log; one series per measurement)
 * and throughput against latency (x = achieved rate per second, y = p50, p99 and p99.9 in us, log; one series per
 * path and percentile).
 */
final class LatencyPlots
{
    /** Width of every plot, pixels. */
    static final int WIDTH = 900;
    /** Height of every plot, pixels. */
    static final int HEIGHT = 560;
    /** Percentiles of the throughput plot, with their labels. */
    private static final double[] RATE_PERCENTILES = { 50, 99, 99.9 };
    private static final String[] RATE_LABELS = { "p50", "p99", "p99.9" };
    /** Ticks per half distance to 100% when iterating a histogram's percentiles. */
    private static final int TICKS_PER_HALF_DISTANCE = 5;
    /** The percentile axis' title: XChart's own tick labels (a custom formatter can loop in its tick layout). */
    static final String PERCENTILE_AXIS = "percentile as 1/(1-p): 10 = p90, 100 = p99, 1,000 = p99.9, 10,000 = p99.99";
    /** Latencies are drawn no lower than this, us: a log axis cannot show 0. */
    private static final double FLOOR_US = 0.001;

    private LatencyPlots()
    {
    }

    /**
     * Draws the percentile distribution of each measurement, the maximum left out (it sits at 100%, infinitely far
     * on the axis).
     *
     * @param file         the PNG to write.
     * @param title        the chart's title.
     * @param measurements one series each, named by {@link SuiteMeasurement#label()}.
     * @throws UncheckedIOException when the file cannot be written.
     */
    static void percentileDistribution(final Path file, final String title, final List<SuiteMeasurement> measurements)
    {
        final XYChart chart = chart(title, PERCENTILE_AXIS, "latency, us");
        chart.getStyler().setXAxisLogarithmic(true).setYAxisLogarithmic(true);
        for (final SuiteMeasurement measurement : measurements)
        {
            final Histogram histogram = measurement.histogram();
            if (0 == histogram.getTotalCount())
            {
                continue;
            }
            final List<Double> x = new ArrayList<>();
            final List<Double> y = new ArrayList<>();
            for (final HistogramIterationValue value : histogram.percentiles(TICKS_PER_HALF_DISTANCE))
            {
                final double percentile = value.getPercentileLevelIteratedTo();
                if (percentile < 100)
                {
                    x.add(100 / (100 - percentile));
                    y.add(Math.max(FLOOR_US, value.getValueIteratedTo() / 1000.0));
                }
            }
            if (!x.isEmpty())
            {
                chart.addSeries(measurement.label(), x, y).setMarker(SeriesMarkers.NONE);
            }
        }
        write(chart, file);
    }

    /**
     * Draws achieved rate against p50, p99 and p99.9, one line per path ({@link SuiteMeasurement#path()}) and
     * percentile, the rates in the order measured.
     *
     * @param file         the PNG to write.
     * @param title        the chart's title.
     * @param rateUnit     what the rate counts, e.g. "orders/s".
     * @param measurements the points.
     * @throws UncheckedIOException when the file cannot be written.
     */
    static void throughputLatency(
        final Path file, final String title, final String rateUnit, final List<SuiteMeasurement> measurements)
    {
        final XYChart chart = chart(title, "achieved, " + rateUnit, "latency, us");
        chart.getStyler().setYAxisLogarithmic(true);
        final Map<String, List<SuiteMeasurement>> byPath = new LinkedHashMap<>();
        for (final SuiteMeasurement measurement : measurements)
        {
            if (measurement.histogram().getTotalCount() > 0)
            {
                byPath.computeIfAbsent(measurement.path(), (path) -> new ArrayList<>()).add(measurement);
            }
        }
        for (final Map.Entry<String, List<SuiteMeasurement>> path : byPath.entrySet())
        {
            for (int p = 0; p < RATE_PERCENTILES.length; p++)
            {
                final List<Double> x = new ArrayList<>();
                final List<Double> y = new ArrayList<>();
                for (final SuiteMeasurement measurement : path.getValue())
                {
                    x.add(measurement.achievedPerSecond());
                    y.add(Math.max(FLOOR_US, measurement.percentileNs(RATE_PERCENTILES[p]) / 1000.0));
                }
                final XYSeries series = chart.addSeries(path.getKey() + " " + RATE_LABELS[p], x, y);
                series.setMarker(SeriesMarkers.CIRCLE);
            }
        }
        write(chart, file);
    }

    private static XYChart chart(final String title, final String xTitle, final String yTitle)
    {
        final XYChart chart = new XYChartBuilder().width(WIDTH).height(HEIGHT).title(title)
            .xAxisTitle(xTitle).yAxisTitle(yTitle).build();
        chart.getStyler().setChartBackgroundColor(Color.WHITE).setLegendPosition(Styler.LegendPosition.OutsideS);
        return chart;
    }

    private static void write(final XYChart chart, final Path file)
    {
        try (OutputStream out = Files.newOutputStream(file))
        {
            BitmapEncoder.saveBitmap(chart, out, BitmapEncoder.BitmapFormat.PNG);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot write " + file + ": " + ex.getMessage(), ex);
        }
    }
}
