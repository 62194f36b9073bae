package io.bourse.bench;

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
     * @return {@code bourse / other} with two decimals and an {@code x}, e.g. {@code 2.50x}; {@code n/a} when other
     * is 0.
     */
    static String ratio(final double bourse, final double other)
    {
        return 0 == other ? "n/a" : String.format(Locale.ROOT, "%.2fx", bourse / other);
    }
}
