package io.bourse.bench;

import io.aeron.Aeron;
import io.aeron.ExclusivePublication;
import io.aeron.Subscription;
import io.aeron.driver.MediaDriver;
import io.bourse.common.aeron.StreamLayout;
import io.bourse.common.config.SymbolDirectory;
import io.bourse.common.config.Symbols;
import io.bourse.engine.EngineContext;
import io.bourse.engine.EngineService;
import io.bourse.engine.replay.ExchangeCoreCommands;
import io.bourse.engine.replay.ExchangeCoreReplay;
import org.HdrHistogram.Histogram;
import org.agrona.CloseHelper;
import org.agrona.concurrent.IdleStrategy;

import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * {@code bourse bench engine-service}: exchange-core's benchmark stream through a real {@link EngineService} (one
 * shard, one symbol) with its Aeron input and output in the loop, beside Bourse's matching core alone on the same
 * commands, in the same run. An embedded media driver (its own directory under /dev/shm, deleted on start and
 * shutdown) carries the engine's command and event streams over {@code aeron:ipc}.
 *
 * <p>The stream is first translated into what the engine protocol can express ({@link SbeCommandStream}: MOVE as a
 * ReplaceOrder to the open size, REDUCE as a CancelOrder down to the open size minus the reduction, FOK_BUDGET as an
 * IOC without its minimum quantity), replaying it once through a reference core to learn open sizes and how many
 * events each command makes. Each iteration then:
 * <ol>
 *     <li>runs the core alone on the translated BENCH commands (after the SETUP ones, untimed): one throughput pass
 *     and one pass with {@link System#nanoTime()} around each command; likewise the {@code bench engine} core on
 *     exchange-core's own stream, for reference;</li>
 *     <li>launches a fresh engine service, sends the SETUP commands and waits for their events, then starts a
 *     {@link CommandPublisher} thread for the BENCH commands while the calling thread polls the event stream with an
 *     {@link EventCounter}, until every expected event has arrived. Throughput is BENCH commands over the time from
 *     the first send to the last event; latency is command to first event (see {@link CommandPublisher} for the
 *     timestamps at a fixed rate). The service must publish exactly the reference core's events and trades, without
 *     a sequence gap, or the run fails.</li>
 * </ol>
 */
public final class EngineServiceBenchmark
{
    private static final int SHARD = 0;
    private static final int FRAGMENT_LIMIT = 256;
    private static final long HIGHEST_TRACKABLE_NS = TimeUnit.SECONDS.toNanos(60);
    private static final int SIGNIFICANT_DIGITS = 3;
    private static final long CONNECT_TIMEOUT_NS = TimeUnit.SECONDS.toNanos(10);
    private static final String SERVICE_NAME = "engine service over Aeron IPC";
    /** Report names of the cores, in the order of the cores list: the same commands, then bench engine's stream. */
    private static final List<String> CORE_NAMES =
        List.of("core alone, same commands", "core alone, bench engine stream");
    /** The one symbol the service trades: exchange-core's benchmark symbol as the replay names it. */
    private static final String SYMBOL = Symbols.toString(ExchangeCoreReplay.SYMBOL);

    /**
     * What the service did in the last pass.
     *
     * @param commands                 BENCH commands sent.
     * @param elapsedNs                first BENCH send to last event received, in nanoseconds.
     * @param events                   BENCH events received.
     * @param expectedEvents           BENCH events the reference core made.
     * @param trades                   BENCH OrderExecuted events received.
     * @param subscriberAllocatedBytes bytes the subscriber thread allocated while starting the publisher thread and
     *                                 polling the BENCH events.
     */
    record ServicePass(
        int commands, long elapsedNs, long events, long expectedEvents, long trades, long subscriberAllocatedBytes)
    {
    }

    private final ServiceBenchOptions options;
    private final PrintStream out;
    private final SbeCommandStream stream;
    private final com.sun.management.ThreadMXBean threads =
        (com.sun.management.ThreadMXBean)ManagementFactory.getThreadMXBean();
    private final Histogram histogram = new Histogram(HIGHEST_TRACKABLE_NS, SIGNIFICANT_DIGITS);
    private Aeron aeron;
    private StreamLayout layout;

    private EngineServiceBenchmark(
        final ServiceBenchOptions options, final SbeCommandStream stream, final PrintStream out)
    {
        this.options = options;
        this.stream = stream;
        this.out = out;
    }

    /**
     * Runs the whole benchmark and prints its report.
     *
     * @param options validated here first.
     * @param out     where the report goes.
     * @throws IllegalArgumentException naming a bad option.
     * @throws IllegalStateException    when the service's events differ from the reference core's, or it stalls.
     */
    public static void run(final ServiceBenchOptions options, final PrintStream out)
    {
        options.validate();
        out.print(MachineInfo.describe());
        final long loadStartNs = System.nanoTime();
        final ExchangeCoreCommands commands = ExchangeCoreCommands.load(options.commands());
        out.printf(Locale.ROOT, "commands: %s: %,d SETUP + %,d BENCH, loaded in %.1f s%n", options.commands(),
            commands.benchStart(), commands.count() - commands.benchStart(), (System.nanoTime() - loadStartNs) / 1e9);
        run(options, commands, out);
    }

    /**
     * Runs the benchmark on commands already loaded; the options' command file is not read.
     *
     * @param options    warm-up, iterations, rate, idle strategy and driver threading.
     * @param commands   exchange-core's stream.
     * @param out        where the report goes.
     * @return the service's last measured pass.
     * @throws IllegalStateException when the service's events differ from the reference core's, or it stalls.
     */
    static ServicePass run(
        final ServiceBenchOptions options, final ExchangeCoreCommands commands, final PrintStream out)
    {
        final SbeCommandStream stream = SbeCommandStream.translate(commands);
        out.printf(Locale.ROOT, "engine protocol translation: %,d SETUP + %,d BENCH commands sent (%,d exchange-core " +
            "commands left out: order no longer open); BENCH makes %,d events, %,d trades%n",
            stream.benchStart(), stream.count() - stream.benchStart(), stream.skipped(),
            stream.expectedEvents(stream.benchStart(), stream.count()), stream.expectedBenchTrades());
        out.println("  MOVE -> ReplaceOrder (open size, new price; keeps priority when price and size are " +
            "unchanged), " +
            "REDUCE -> CancelOrder down to open - n, FOK_BUDGET -> IOC at budget/size: NewOrder cannot carry its " +
            "minimum quantity yet, so it may fill partly");
        out.printf(Locale.ROOT, "service: 1 shard, symbol %s, aeron:ipc, media driver %s, idle %s, rate %s; " +
            "warm-up %d, iterations %d%n", SYMBOL, options.driverThreading(), options.idle(),
            0 == options.rate() ? "max (back pressure)" : String.format(Locale.ROOT, "%,d commands/s", options.rate()),
            options.warmup(), options.iterations());
        if (0 == options.rate())
        {
            out.println("  at rate max the publisher runs ahead of the engine: the latency is mostly queueing in the " +
                "command stream; use --rate below the throughput for latency");
        }
        out.println("  core alone, bench engine stream = `bourse bench engine`'s Bourse MatchingEngine figure " +
            "(exchange-core's stream and semantics, MOVE and FOK minimum included)");
        out.println();
        return new EngineServiceBenchmark(options, stream, out).run(commands);
    }

    private ServicePass run(final ExchangeCoreCommands commands)
    {
        final List<EngineUnderTest> cores = List.of(new SbeStreamCore(stream), new BourseEngine(commands));
        final EngineStats serviceStats = new EngineStats(SERVICE_NAME, options.iterations());
        final List<EngineStats> coreStats = CORE_NAMES.stream()
            .map((name) -> new EngineStats(name, options.iterations())).toList();
        final String aeronDir = aeronDirectory();
        ServicePass last = null;
        try (MediaDriver driver = MediaDriver.launchEmbedded(new MediaDriver.Context()
            .aeronDirectoryName(aeronDir)
            .threadingMode(options.driverThreading())
            .dirDeleteOnStart(true)
            .dirDeleteOnShutdown(true)))
        {
            layout = new StreamLayout(driver.aeronDirectoryName(), StreamLayout.CHANNEL_DEFAULT, 1000,
                StreamLayout.CHANNEL_DEFAULT, 2000, StreamLayout.CHANNEL_DEFAULT, 3000);
            aeron = Aeron.connect(new Aeron.Context().aeronDirectoryName(driver.aeronDirectoryName()));
            final int[] benchCommands =
                { stream.count() - stream.benchStart(), commands.count() - commands.benchStart() };
            final int total = options.warmup() + options.iterations();
            for (int i = 1; i <= total; i++)
            {
                final boolean measured = i > options.warmup();
                final String label = measured ?
                    "iteration " + (i - options.warmup()) + "/" + options.iterations() :
                    "warm-up " + i + "/" + options.warmup();
                last = iteration(
                    label, cores, benchCommands, measured ? coreStats : null, measured ? serviceStats : null);
            }
        }
        finally
        {
            CloseHelper.close(aeron);
            cores.forEach(EngineUnderTest::close);
        }
        out.println();
        out.print(report(serviceStats, coreStats, options.rate()));
        return last;
    }

    private ServicePass iteration(
        final String label, final List<EngineUnderTest> cores, final int[] benchCommands,
        final List<EngineStats> coreStats, final EngineStats serviceStats)
    {
        final StringBuilder line = new StringBuilder(label).append(':');
        for (int c = 0; c < cores.size(); c++)
        {
            final EngineUnderTest core = cores.get(c);
            core.reset();
            System.gc();
            final long allocatedBefore = threads.getCurrentThreadAllocatedBytes();
            final long elapsedNs = core.runBench();
            final long allocated = threads.getCurrentThreadAllocatedBytes() - allocatedBefore;
            core.reset();
            System.gc();
            histogram.reset();
            core.runBenchTimed(histogram);
            if (null != coreStats)
            {
                coreStats.get(c).add(benchCommands[c], elapsedNs, histogram, allocated);
            }
            line.append(String.format(Locale.ROOT, " %s %.3f M/s;", CORE_NAMES.get(c),
                benchCommands[c] * 1e3 / elapsedNs));
        }

        histogram.reset();
        final ServicePass pass = servicePass();
        if (null != serviceStats)
        {
            serviceStats.add(pass.commands(), pass.elapsedNs(), histogram, pass.subscriberAllocatedBytes());
        }
        line.append(String.format(Locale.ROOT, " service %.3f M/s, first event p50 %,d ns p99.9 %,d ns; trades %,d",
            pass.commands() * 1e3 / pass.elapsedNs(), histogram.getValueAtPercentile(50),
            histogram.getValueAtPercentile(99.9), pass.trades()));
        out.println(line);
        return pass;
    }

    private ServicePass servicePass()
    {
        try (EngineService service = EngineService.launch(engineContext());
            ExclusivePublication commands = aeron.addExclusivePublication(
                layout.commandChannel(), layout.commandStreamId(SHARD));
            Subscription events = aeron.addSubscription(layout.eventChannel(), layout.eventStreamId(SHARD)))
        {
            awaitConnected(commands, events);
            final EventCounter counter = new EventCounter(stream, histogram);
            phase(commands, events, counter, 0, stream.benchStart(), 0);
            final long setupTrades = counter.trades();
            final long setupEvents = counter.events();
            System.gc();
            counter.recording(true);
            final long allocatedBefore = threads.getCurrentThreadAllocatedBytes();
            final long elapsedNs =
                phase(commands, events, counter, stream.benchStart(), stream.count(), options.rate());
            final long allocated = threads.getCurrentThreadAllocatedBytes() - allocatedBefore;
            final ServicePass pass = new ServicePass(stream.count() - stream.benchStart(), elapsedNs,
                counter.events() - setupEvents, stream.expectedEvents(stream.benchStart(), stream.count()),
                counter.trades() - setupTrades, allocated);
            if (counter.sequenceGaps() > 0 || counter.unexpected() > 0 ||
                pass.trades() != stream.expectedBenchTrades() || pass.events() != pass.expectedEvents())
            {
                throw new IllegalStateException("the service disagrees with the reference core: " + pass +
                    ", expected trades " + stream.expectedBenchTrades() + ", sequence gaps " +
                    counter.sequenceGaps() + ", unexpected messages " + counter.unexpected());
            }
            return pass;
        }
    }

    /**
     * Sends commands {@code from} to {@code to} from a publisher thread and polls their events on this thread until
     * all have arrived.
     *
     * @return nanoseconds from the publisher's origin to the last event.
     */
    private long phase(
        final ExclusivePublication commands, final Subscription events, final EventCounter counter, final int from,
        final int to, final long rate)
    {
        final long phaseEvents = stream.expectedEvents(from, to);
        final long expectedEvents = counter.events() + phaseEvents;
        final IdleStrategy idle = options.newIdleStrategy();
        final long startNs = System.nanoTime();
        final CommandPublisher publisher =
            new CommandPublisher(stream, commands, from, to, rate, startNs, options.newIdleStrategy());
        final Thread thread = new Thread(publisher, "bench-command-publisher");
        thread.start();
        try
        {
            long lastProgressNs = startNs;
            while (counter.events() < expectedEvents)
            {
                final int fragments = events.poll(counter, FRAGMENT_LIMIT);
                final long nowNs = System.nanoTime();
                if (fragments > 0)
                {
                    lastProgressNs = nowNs;
                }
                else if (null != publisher.failure() || nowNs - lastProgressNs > CommandPublisher.STALL_TIMEOUT_NS)
                {
                    throw new IllegalStateException("events stalled: received " +
                        (counter.events() - expectedEvents + phaseEvents) + " of " + phaseEvents +
                        (null != publisher.failure() ? ": " + publisher.failure().getMessage() : ""),
                        publisher.failure());
                }
                idle.idle(fragments);
            }
            return System.nanoTime() - startNs;
        }
        finally
        {
            publisher.stop();
            join(thread);
        }
    }

    private EngineContext engineContext()
    {
        return new EngineContext()
            .shardId(SHARD)
            .metricsPort(0)
            .jvmMetrics(false)
            .maxOrderQuantity(SbeCommandStream.MAX_ORDER_QUANTITY)
            .streamLayout(layout)
            .symbolDirectory(SymbolDirectory.parse(SYMBOL + "@" + SHARD))
            .idleStrategy(options.newIdleStrategy());
    }

    private static void awaitConnected(final ExclusivePublication commands, final Subscription events)
    {
        final long deadlineNs = System.nanoTime() + CONNECT_TIMEOUT_NS;
        while (!commands.isConnected() || !events.isConnected())
        {
            if (System.nanoTime() - deadlineNs > 0)
            {
                throw new IllegalStateException("the engine service did not connect to the command and event " +
                    "streams within " + TimeUnit.NANOSECONDS.toSeconds(CONNECT_TIMEOUT_NS) + " s");
            }
            Thread.onSpinWait();
        }
    }

    private static void join(final Thread thread)
    {
        try
        {
            thread.join();
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for the publisher", ex);
        }
    }

    /** @return a fresh media driver directory: under /dev/shm where there is one, else the temporary directory. */
    private static String aeronDirectory()
    {
        final Path shm = Path.of("/dev/shm");
        final Path parent = Files.isDirectory(shm) ? shm : Path.of(System.getProperty("java.io.tmpdir"));
        return parent.resolve("bourse-bench-" + ProcessHandle.current().pid() + "-" + System.nanoTime()).toString();
    }

    private static String report(final EngineStats service, final List<EngineStats> cores, final long rate)
    {
        final StringBuilder sb = new StringBuilder();
        sb.append(String.format(Locale.ROOT, "%-46s%12s%12s%12s%n", "throughput, million commands/s",
            "min", "median", "max"));
        throughputRow(sb, service);
        cores.forEach((core) -> throughputRow(sb, core));
        sb.append('\n');
        latencyRows(sb, "command to first event over Aeron, ns", service);
        latencyRows(sb, "core alone service time per command, ns", cores.get(0));
        sb.append('\n');
        sb.append(String.format(Locale.ROOT, "%-46s%12s%n", "allocated per pass by the measuring thread, bytes",
            "median"));
        sb.append(String.format(Locale.ROOT, "  %-44s%12s%n", "subscriber thread (+ publisher thread start)",
            BenchReport.whole(service.allocatedBytes(EngineStats.Summary.MEDIAN))));
        for (final EngineStats core : cores)
        {
            sb.append(String.format(Locale.ROOT, "  %-44s%12s%n", core.name(),
                BenchReport.whole(core.allocatedBytes(EngineStats.Summary.MEDIAN))));
        }
        sb.append('\n');
        if (0 != rate)
        {
            sb.append("ratio service over Aeron / core alone: not measured at a fixed rate (the service ran at the " +
                "offered rate); run with --rate 0\n");
            return sb.toString();
        }
        final double serviceMedian = service.throughput(EngineStats.Summary.MEDIAN);
        for (final EngineStats core : cores)
        {
            sb.append(String.format(Locale.ROOT, "ratio service over Aeron / %s, throughput medians, same run: %s%n",
                core.name(), BenchReport.ratio(serviceMedian, core.throughput(EngineStats.Summary.MEDIAN))));
        }
        return sb.toString();
    }

    private static void throughputRow(final StringBuilder sb, final EngineStats stats)
    {
        sb.append(String.format(Locale.ROOT, "  %-44s", stats.name()));
        for (final EngineStats.Summary summary : EngineStats.Summary.values())
        {
            sb.append(String.format(Locale.ROOT, "%12s", BenchReport.mcps(stats.throughput(summary))));
        }
        sb.append('\n');
    }

    private static void latencyRows(final StringBuilder sb, final String title, final EngineStats stats)
    {
        sb.append(String.format(Locale.ROOT, "%-46s", title));
        for (final String label : EngineStats.LATENCY_LABELS)
        {
            sb.append(String.format(Locale.ROOT, "%12s", label));
        }
        sb.append('\n');
        for (final EngineStats.Summary summary : EngineStats.Summary.values())
        {
            sb.append(String.format(Locale.ROOT, "  %-44s", summary.name().toLowerCase(Locale.ROOT)));
            for (int column = 0; column < EngineStats.LATENCY_LABELS.length; column++)
            {
                sb.append(String.format(Locale.ROOT, "%12s", BenchReport.whole(stats.latencyNs(column, summary))));
            }
            sb.append('\n');
        }
    }
}
