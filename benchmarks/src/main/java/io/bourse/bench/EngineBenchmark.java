package io.bourse.bench;

import io.bourse.workload.ExchangeCoreCommands;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.HdrHistogram.Histogram;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * {@code bourse bench engine}: replays exchange-core's single-symbol benchmark stream (1,000 SETUP orders, then
 * 3,000,000 BENCH commands) on one thread, without network, through Bourse's matching core and exchange-core's
 * order book in the same run, and prints throughput, per-command service-time percentiles and the ratios between
 * them. exchange-core's full pipeline is not measured here (it cannot start on Java 21+): {@code bench ramp} runs it
 * on a JDK 17 ({@link ExchangeCoreBaseline}).
 *
 * <p>Each iteration gives every engine a fresh state and the SETUP commands untimed, then one throughput pass over
 * the BENCH commands (no per-command timing) and a second fresh pass with {@link System#nanoTime()} around each
 * command, recorded into an HdrHistogram. A GC runs before each timed pass, as in exchange-core's own benchmark.
 * Warm-up iterations run the same passes and are not reported.
 */
public final class EngineBenchmark
{
    private static final long HIGHEST_TRACKABLE_NS = TimeUnit.SECONDS.toNanos(10);
    private static final int SIGNIFICANT_DIGITS = 3;

    private final BenchOptions options;
    private final PrintStream out;
    private final com.sun.management.ThreadMXBean threads =
        (com.sun.management.ThreadMXBean)ManagementFactory.getThreadMXBean();
    private final Histogram histogram = new Histogram(HIGHEST_TRACKABLE_NS, SIGNIFICANT_DIGITS);

    private EngineBenchmark(final BenchOptions options, final PrintStream out)
    {
        this.options = options;
        this.out = out;
    }

    /**
     * Runs the whole benchmark and prints its report.
     *
     * @param options validated here first.
     * @param out     where the report goes.
     * @throws IllegalArgumentException naming a bad option.
     * @throws IllegalStateException    when an engine's trade count differs from the others' (the engines would not be
     *                                  doing the same work).
     */
    public static void run(final BenchOptions options, final PrintStream out)
    {
        measure(options, out);
    }

    /**
     * Runs the benchmark and prints its report.
     *
     * @param options validated here first.
     * @param out     where the report goes.
     * @return Bourse's figures, then exchange-core's order book's.
     */
    static List<EngineStats> measure(final BenchOptions options, final PrintStream out)
    {
        options.validate();
        return new EngineBenchmark(options, out).run();
    }

    private List<EngineStats> run()
    {
        out.print(MachineInfo.describe());
        final long loadStartNs = System.nanoTime();
        final ExchangeCoreCommands commands = ExchangeCoreCommands.load(options.commands());
        final int benchCommands = commands.count() - commands.benchStart();
        out.printf(Locale.ROOT, "commands: %s: %,d SETUP + %,d BENCH, loaded in %.1f s%n", options.commands(),
            commands.benchStart(), benchCommands, (System.nanoTime() - loadStartNs) / 1e9);

        final List<EngineUnderTest> engines = new ArrayList<>();
        try
        {
            engines.add(new BourseEngine(commands));
            engines.add(new ExchangeCoreBookEngine(commands));
            out.printf(Locale.ROOT, "warm-up %d, iterations %d%n", options.warmup(), options.iterations());
            out.println("exchange-core pipeline: not measured here: its chronicle-core 2.19 cannot start on Java 21+ " +
                "(it needs sun.nio.ch.FileChannelImpl.unmap0, removed after JDK 17); bench ramp runs it on a JDK 17");
            out.println();

            final List<EngineStats> stats = new ArrayList<>();
            for (final EngineUnderTest engine : engines)
            {
                stats.add(new EngineStats(engine.name(), options.iterations()));
            }
            for (int i = 1; i <= options.warmup(); i++)
            {
                iteration("warm-up " + i + "/" + options.warmup(), engines, null, benchCommands);
            }
            for (int i = 1; i <= options.iterations(); i++)
            {
                iteration("iteration " + i + "/" + options.iterations(), engines, stats, benchCommands);
            }
            out.println();
            out.print(BenchReport.tables(stats));
            if (null != options.jfr())
            {
                recordJfr(engines.get(0));
            }
            return stats;
        }
        finally
        {
            engines.forEach(EngineUnderTest::close);
        }
    }

    private void iteration(
        final String label, final List<EngineUnderTest> engines, final List<EngineStats> stats, final int commands)
    {
        final StringBuilder line = new StringBuilder(label).append(':');
        long expectedTrades = -1;
        for (int e = 0; e < engines.size(); e++)
        {
            final EngineUnderTest engine = engines.get(e);
            engine.reset();
            System.gc();
            final long allocatedBefore = threads.getCurrentThreadAllocatedBytes();
            final long elapsedNs = engine.runBench();
            final long allocated = threads.getCurrentThreadAllocatedBytes() - allocatedBefore;
            final long trades = engine.trades();
            final long failures = engine.failures();
            if (expectedTrades < 0)
            {
                expectedTrades = trades;
            }
            else if (trades != expectedTrades)
            {
                throw new IllegalStateException(engine.name() + " made " + trades + " trades where " +
                    engines.get(0).name() + " made " + expectedTrades + ": the engines disagree");
            }
            line.append(String.format(Locale.ROOT, " %s %.3f M/s", shortName(engine), commands * 1e3 / elapsedNs));
            if (failures > 0)
            {
                line.append(String.format(Locale.ROOT, " (%,d failed)", failures));
            }
            engine.reset();
            System.gc();
            histogram.reset();
            engine.runBenchTimed(histogram);
            line.append(String.format(Locale.ROOT, " p99.9 %,d ns", histogram.getValueAtPercentile(99.9)));
            if (null != stats)
            {
                stats.get(e).add(commands, elapsedNs, histogram, allocated);
            }
            line.append(e + 1 < engines.size() ? ";" : String.format(Locale.ROOT, "; trades %,d", trades));
        }
        out.println(line);
    }

    private static String shortName(final EngineUnderTest engine)
    {
        final String name = engine.name();
        return name.substring(name.lastIndexOf(' ') + 1);
    }

    /** One more throughput pass of Bourse's engine, alone, recorded from after its SETUP to the end of the pass. */
    private void recordJfr(final EngineUnderTest bourse)
    {
        bourse.reset();
        System.gc();
        final String thread = Thread.currentThread().getName();
        try (Recording recording = new Recording(jdk.jfr.Configuration.getConfiguration("profile")))
        {
            recording.enable("jdk.ObjectAllocationInNewTLAB").withStackTrace();
            recording.enable("jdk.ObjectAllocationOutsideTLAB").withStackTrace();
            recording.setDestination(options.jfr());
            recording.start();
            bourse.runBench();
            recording.stop();
            long allocationEvents = 0;
            for (final RecordedEvent event : RecordingFile.readAllEvents(options.jfr()))
            {
                if (event.getEventType().getName().startsWith("jdk.ObjectAllocation") &&
                    null != event.getThread() && thread.equals(event.getThread().getJavaName()))
                {
                    allocationEvents++;
                }
            }
            out.printf(Locale.ROOT, "%nJFR: %s holds one %s BENCH pass (profile settings plus TLAB allocation " +
                "events); allocation events on the benchmark thread: %,d%n", options.jfr(), bourse.name(),
                allocationEvents);
        }
        catch (final IOException | java.text.ParseException ex)
        {
            throw new UncheckedIOException("cannot record JFR into " + options.jfr(),
                ex instanceof IOException io ? io : new IOException(ex));
        }
    }
}
