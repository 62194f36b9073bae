package io.bourse.bench;

import org.HdrHistogram.Histogram;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/**
 * Formats the benchmark's result tables: throughput and service-time percentiles (min, median, max across
 * iterations) per engine, then the ratios of the first engine (Bourse) to each of the others, medians against
 * medians. A ratio above 1 means Bourse is higher: better for throughput, worse for a service time.
 */
public final class BenchReport
{
    private static final String NAME_FORMAT = "  %-44s";
    private static final String NUMBER_FORMAT = " %13s";

    private BenchReport()
    {
    }

    /**
     * @param engines Bourse first, then the engines it is compared with.
     * @return the throughput, service-time and ratio tables.
     */
    public static String tables(final List<EngineStats> engines)
    {
        final StringBuilder sb = new StringBuilder();
        throughputTable(sb, engines);
        sb.append('\n');
        allocationTable(sb, engines);
        sb.append('\n');
        latencyTable(sb, engines);
        sb.append('\n');
        ratioTable(sb, engines);
        return sb.toString();
    }

    private static void throughputTable(final StringBuilder sb, final List<EngineStats> engines)
    {
        sb.append(String.format(Locale.ROOT, "%-46s" + NUMBER_FORMAT + NUMBER_FORMAT + NUMBER_FORMAT + "%n",
            "throughput, million commands/s", "min", "median", "max"));
        for (final EngineStats engine : engines)
        {
            sb.append(String.format(Locale.ROOT, NAME_FORMAT, engine.name()));
            for (final EngineStats.Summary summary : EngineStats.Summary.values())
            {
                sb.append(String.format(Locale.ROOT, NUMBER_FORMAT, mcps(engine.throughput(summary))));
            }
            sb.append('\n');
        }
    }

    private static void allocationTable(final StringBuilder sb, final List<EngineStats> engines)
    {
        sb.append(String.format(Locale.ROOT, "%-46s" + NUMBER_FORMAT + NUMBER_FORMAT + NUMBER_FORMAT + "%n",
            "allocated per pass by bench thread, bytes", "min", "median", "max"));
        for (final EngineStats engine : engines)
        {
            sb.append(String.format(Locale.ROOT, NAME_FORMAT, engine.name()));
            for (final EngineStats.Summary summary : EngineStats.Summary.values())
            {
                sb.append(String.format(Locale.ROOT, NUMBER_FORMAT, whole(engine.allocatedBytes(summary))));
            }
            sb.append('\n');
        }
    }

    private static void latencyTable(final StringBuilder sb, final List<EngineStats> engines)
    {
        sb.append(String.format(Locale.ROOT, "%-46s", "service time per command, ns"));
        for (final String label : EngineStats.LATENCY_LABELS)
        {
            sb.append(String.format(Locale.ROOT, NUMBER_FORMAT, label));
        }
        sb.append('\n');
        for (final EngineStats engine : engines)
        {
            for (final EngineStats.Summary summary : EngineStats.Summary.values())
            {
                final String name = EngineStats.Summary.MIN == summary ? engine.name() : "";
                sb.append(String.format(Locale.ROOT, "  %-36s%-8s", name, summary.name().toLowerCase(Locale.ROOT)));
                for (int column = 0; column < EngineStats.LATENCY_LABELS.length; column++)
                {
                    sb.append(String.format(Locale.ROOT, NUMBER_FORMAT, whole(engine.latencyNs(column, summary))));
                }
                sb.append('\n');
            }
        }
    }

    private static void ratioTable(final StringBuilder sb, final List<EngineStats> engines)
    {
        final EngineStats bourse = engines.get(0);
        sb.append(String.format(Locale.ROOT, "%-46s" + NUMBER_FORMAT, "ratio " + bourse.name() + " / other, medians",
            "throughput"));
        for (final String label : EngineStats.LATENCY_LABELS)
        {
            sb.append(String.format(Locale.ROOT, NUMBER_FORMAT, label));
        }
        sb.append('\n');
        for (int i = 1; i < engines.size(); i++)
        {
            final EngineStats other = engines.get(i);
            sb.append(String.format(Locale.ROOT, NAME_FORMAT + NUMBER_FORMAT, "vs " + other.name(),
                ratio(bourse.throughput(EngineStats.Summary.MEDIAN), other.throughput(EngineStats.Summary.MEDIAN))));
            for (int column = 0; column < EngineStats.LATENCY_LABELS.length; column++)
            {
                sb.append(String.format(Locale.ROOT, NUMBER_FORMAT, ratio(
                    bourse.latencyNs(column, EngineStats.Summary.MEDIAN),
                    other.latencyNs(column, EngineStats.Summary.MEDIAN))));
            }
            sb.append('\n');
        }
    }

    /**
     * @param millionsPerSecond throughput.
     * @return with three decimals, e.g. {@code 12.346}.
     */
    static String mcps(final double millionsPerSecond)
    {
        return String.format(Locale.ROOT, "%.3f", millionsPerSecond);
    }

    /**
     * @param value nanoseconds or bytes (a median of an even count can end in .5).
     * @return rounded to a whole number, with thousands separators, e.g. {@code 1,234}.
     */
    static String whole(final double value)
    {
        return String.format(Locale.ROOT, "%,d", Math.round(value));
    }

    /**
     * @param bourse Bourse's figure.
     * @param other  the other engine's figure.
     * @return {@code bourse / other} with two decimals and an {@code x}, e.g. {@code 2.50x}, under 0.01 with two
     * significant digits, e.g. {@code 0.0018x}; {@code n/a} when other is 0.
     */
    static String ratio(final double bourse, final double other)
    {
        if (0 == other)
        {
            return "n/a";
        }
        final double ratio = bourse / other;
        return ratio > 0 && ratio < 0.01 ? String.format(Locale.ROOT, "%.2gx", ratio) :
            String.format(Locale.ROOT, "%.2fx", ratio);
    }

    /**
     * @param histogram  round trips or latencies in ns.
     * @param percentile 0 to 100; 100 is the maximum.
     * @return the value at that percentile in ns, or 0 for an empty histogram.
     */
    static long percentile(final Histogram histogram, final double percentile)
    {
        if (0 == histogram.getTotalCount())
        {
            return 0;
        }
        return percentile >= 100 ? histogram.getMaxValue() : histogram.getValueAtPercentile(percentile);
    }

    /**
     * @param ns a latency in ns.
     * @return it in µs with one decimal and thousands separators, e.g. {@code 1,234.5}.
     */
    static String micros(final long ns)
    {
        return String.format(Locale.ROOT, "%,.1f", ns / 1000.0);
    }

    /**
     * Writes a histogram's percentile distribution (HdrHistogram's .hgrm text, values in µs).
     *
     * @param file      where.
     * @param histogram values in ns.
     * @throws IOException when the file cannot be written.
     */
    static void writeHgrm(final Path file, final Histogram histogram) throws IOException
    {
        try (PrintStream out = new PrintStream(Files.newOutputStream(file), false, StandardCharsets.US_ASCII))
        {
            histogram.outputPercentileDistribution(out, 1000.0);
        }
    }
}
