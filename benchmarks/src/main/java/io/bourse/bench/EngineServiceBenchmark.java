package io.bourse.bench;

import io.aeron.Aeron;
import io.aeron.ExclusivePublication;
import io.aeron.Subscription;
import io.aeron.driver.MediaDriver;
import io.aeron.driver.ThreadingMode;
import io.bourse.common.aeron.StreamLayout;
import io.bourse.common.config.SymbolDirectory;
import io.bourse.common.config.Symbols;
import io.bourse.engine.EngineContext;
import io.bourse.engine.EngineService;
import io.bourse.engine.replay.ExchangeCoreReplay;
import io.bourse.workload.ExchangeCoreCommands;
import org.HdrHistogram.Histogram;
import org.agrona.CloseHelper;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.YieldingIdleStrategy;

import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.function.ToDoubleFunction;

/**
 * {@code bourse bench engine-service}: exchange-core's benchmark stream through a real {@link EngineService} (one
 * shard, one symbol) with its Aeron input and output in the loop, beside Bourse's matching core alone on the same
 * commands, in the same run. An embedded media driver (its own directory under /dev/shm, deleted on start and
 * shutdown) carries the engine's command and event streams over {@code aeron:ipc}.
 *
 * <p>The stream is first translated into what the engine protocol can express ({@link SbeCommandStream}: MOVE as a
 * ReplaceOrder for the open plus the executed shares, so the open size stays, REDUCE as a CancelOrder down to the open
 * size minus the reduction, FOK_BUDGET as an IOC without its minimum quantity), replaying it once through a reference
 * core to learn open sizes, how many events each command makes and the {@link EventChecksum} of those events. Each
 * iteration then:
 * <ol>
 *     <li>runs the core alone on the translated BENCH commands (after the SETUP ones, untimed): one throughput pass
 *     and one pass with {@link System#nanoTime()} around each command, each of which must end on the reference
 *     checksum or the run fails; likewise the {@code bench engine} core on exchange-core's own stream, for
 *     reference;</li>
 *     <li>launches a fresh engine service, sends the SETUP commands and waits for their events, then starts a
 *     {@link CommandPublisher} thread for the BENCH commands while the calling thread polls the event stream with an
 *     {@link EventCounter}, until every expected event has arrived. Throughput is BENCH commands over the time from
 *     the first send to the last event; latency is command to first event (see {@link CommandPublisher} for the
 *     timestamps at a fixed rate). The service's events, decoded, must have the reference core's checksum after
 *     SETUP and after BENCH (every field but sequence number and timestamp, in order), and its event and trade
 *     counts, without a sequence gap, or the run fails.</li>
 * </ol>
 *
 * <p>Allocation is measured where the claim is made: the engine agent's own thread
 * ({@link EngineService#agentThread()}), over the BENCH phase, by {@link com.sun.management.ThreadMXBean}; beside it
 * the subscriber thread's and the core alone's. The engine keeps the configured idle strategy, as does the publisher
 * when back pressured; the subscriber polls in a yielding loop ({@link YieldingIdleStrategy}: {@link Thread#yield()}
 * between empty polls, never a sleep or park), so that the measured command-to-first-event latency holds no park of
 * the benchmark's own (a backoff strategy's parks last tens of microseconds on Linux). Yielding rather than spinning
 * lets the engine and publisher threads have the core when they are runnable on a host with fewer cores than threads.
 */
public final class EngineServiceBenchmark
{
    private static final int SHARD = 0;
    private static final int FRAGMENT_LIMIT = 256;
    private static final long HIGHEST_TRACKABLE_NS = TimeUnit.SECONDS.toNanos(60);
    private static final int SIGNIFICANT_DIGITS = 3;
    private static final long CONNECT_TIMEOUT_NS = TimeUnit.SECONDS.toNanos(10);
    private static final int COMMAND_STREAM_ID_BASE = 1_000_000;
    private static final int EVENT_STREAM_ID_BASE = 2_000_000;
    /** Unused: the benchmark runs no md-publisher. */
    private static final int MARKET_DATA_STREAM_ID = 3_000_000;
    private static final String SERVICE_NAME = "engine service over Aeron IPC";
    /** Report names of the cores, in the order of the cores list: the same commands, then bench engine's stream. */
    private static final List<String> CORE_NAMES =
        List.of("core alone, same commands", "core alone, bench engine stream");
    /** The one symbol the service trades: exchange-core's benchmark symbol as the replay names it. */
    private static final String SYMBOL = Symbols.toString(ExchangeCoreReplay.SYMBOL);

    /** What the subscriber thread does between empty polls, as printed. */
    static final String SUBSCRIBER_IDLE = "yield";

    /** How the publisher keeps a fixed rate and what the latency is measured from, as printed. */
    static final String FIXED_RATE_SCHEDULE = "at a fixed rate the publisher parks until " +
        TimeUnit.NANOSECONDS.toMicros(CommandPublisher.YIELD_NS) + " us before each send time, then yields until " +
        "it (never spins); latency is from the intended send time";

    private static final com.sun.management.ThreadMXBean THREADS =
        (com.sun.management.ThreadMXBean)ManagementFactory.getThreadMXBean();

    /**
     * What the service did in the last pass.
     *
     * @param commands                 BENCH commands sent.
     * @param elapsedNs                first BENCH send to last event received, in nanoseconds.
     * @param events                   BENCH events received.
     * @param expectedEvents           BENCH events the reference core made.
     * @param trades                   BENCH OrderExecuted events received.
     * @param expectedTrades           BENCH OrderExecuted events the reference core made.
     * @param checksum                 {@link EventChecksum} of every event received, SETUP then BENCH.
     * @param expectedChecksum         the reference core's for the same commands ({@link SbeCommandStream#checksum()}
     *                                 for all of them).
     * @param engineAllocatedBytes     bytes the engine agent's thread allocated from the first BENCH send to the last
     *                                 BENCH event received.
     * @param subscriberAllocatedBytes bytes the subscriber thread allocated while starting the publisher thread and
     *                                 polling the BENCH events.
     */
    record ServicePass(
        int commands, long elapsedNs, long events, long expectedEvents, long trades, long expectedTrades,
        long checksum, long expectedChecksum, long engineAllocatedBytes, long subscriberAllocatedBytes)
    {
    }

    private final ServiceBenchOptions options;
    private final PrintStream out;
    private final SbeCommandStream stream;
    private final Histogram histogram = newHistogram();
    private final SbeStreamCore sameCommandsCore;
    private final double[] subscriberAllocatedBytes;

    private EngineServiceBenchmark(
        final ServiceBenchOptions options, final SbeCommandStream stream, final PrintStream out)
    {
        this.options = options;
        this.stream = stream;
        this.out = out;
        this.sameCommandsCore = new SbeStreamCore(stream);
        this.subscriberAllocatedBytes = new double[options.iterations()];
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
        run(options, load(options.commands(), out), out);
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
        final SbeCommandStream stream = translate(commands, out);
        out.printf(Locale.ROOT, "service: %s; rate %s; warm-up %d, iterations %d%n", layout(options),
            0 == options.rate() ? "max (back pressure)" : String.format(Locale.ROOT, "%,d commands/s", options.rate()),
            options.warmup(), options.iterations());
        if (0 == options.rate())
        {
            out.println("  at rate max the publisher runs ahead of the engine: the latency is mostly queueing in the " +
                "command stream; use --rate below the throughput for latency");
        }
        else
        {
            out.println("  " + FIXED_RATE_SCHEDULE);
        }
        out.println("  core alone, bench engine stream = `bourse bench engine`'s Bourse MatchingEngine figure " +
            "(exchange-core's stream and semantics, MOVE and FOK minimum included)");
        out.println();
        return new EngineServiceBenchmark(options, stream, out).run(commands);
    }

    /**
     * Loads exchange-core's stream and says how long it took.
     *
     * @param file {@code commands.csv(.gz)}.
     * @param out  where the line goes.
     * @return the commands.
     * @throws java.io.UncheckedIOException when the file cannot be read.
     */
    static ExchangeCoreCommands load(final Path file, final PrintStream out)
    {
        final long loadStartNs = System.nanoTime();
        final ExchangeCoreCommands commands = ExchangeCoreCommands.load(file);
        out.printf(Locale.ROOT, "commands: %s: %,d SETUP + %,d BENCH, loaded in %.1f s%n", file,
            commands.benchStart(), commands.count() - commands.benchStart(), (System.nanoTime() - loadStartNs) / 1e9);
        return commands;
    }

    /**
     * Translates exchange-core's stream into engine protocol commands and describes the translation and the check.
     *
     * @param commands exchange-core's stream.
     * @param out      where the description goes.
     * @return the translated stream, with the reference core's event counts and checksums.
     */
    static SbeCommandStream translate(final ExchangeCoreCommands commands, final PrintStream out)
    {
        final SbeCommandStream stream = SbeCommandStream.translate(commands);
        out.printf(Locale.ROOT, "engine protocol translation: %,d SETUP + %,d BENCH commands sent (%,d exchange-core " +
            "commands left out: order no longer open); BENCH makes %,d events, %,d trades; reference checksum " +
            "%016x%n", stream.benchStart(), stream.count() - stream.benchStart(), stream.skipped(),
            stream.expectedEvents(stream.benchStart(), stream.count()), stream.expectedBenchTrades(),
            stream.checksum());
        out.println("  MOVE -> ReplaceOrder (open + executed size, so the open size stays, new price; loses " +
            "priority, as MOVE does), " +
            "REDUCE -> CancelOrder down to open - n, FOK_BUDGET -> IOC at budget/size, sent without its minimum " +
            "quantity (so the stream stays the one measured so far), so it may fill partly");
        out.println("  checked every pass: the service's decoded events and the core alone's must match the " +
            "reference checksum (every field but sequence number and timestamp, in order)");
        return stream;
    }

    /**
     * @param options the idle strategy and the driver threading.
     * @return the threads of a service pass and how each waits, for a report.
     */
    static String layout(final ServiceBenchOptions options)
    {
        return String.format(Locale.ROOT, "1 shard, symbol %s, aeron:ipc, embedded media driver %s; threads: " +
            "publisher (idle %s through back pressure), engine agent (idle %s), subscriber (idle %s, polls without " +
            "sleeping), media driver (%s)", SYMBOL, options.driverThreading(), options.idle(), options.idle(),
            SUBSCRIBER_IDLE, ThreadingMode.SHARED == options.driverThreading() ?
            "1 thread: conductor, sender and receiver" : options.driverThreading() + " threads");
    }

    /** @return a histogram for latencies in ns: up to 60 s, 3 significant digits. */
    static Histogram newHistogram()
    {
        return new Histogram(HIGHEST_TRACKABLE_NS, SIGNIFICANT_DIGITS);
    }

    private ServicePass run(final ExchangeCoreCommands commands)
    {
        final List<EngineUnderTest> cores = List.of(sameCommandsCore, new BourseEngine(commands));
        final EngineStats serviceStats = new EngineStats(SERVICE_NAME, options.iterations());
        final List<EngineStats> coreStats = CORE_NAMES.stream()
            .map((name) -> new EngineStats(name, options.iterations())).toList();
        final int[] benchCommands = { stream.count() - stream.benchStart(), commands.count() - commands.benchStart() };
        ServicePass last = null;
        try (Harness harness = new Harness(stream, options))
        {
            final int total = options.warmup() + options.iterations();
            for (int i = 1; i <= total; i++)
            {
                final boolean measured = i > options.warmup();
                final String label = measured ?
                    "iteration " + (i - options.warmup()) + "/" + options.iterations() :
                    "warm-up " + i + "/" + options.warmup();
                last = iteration(label, harness, cores, benchCommands, measured ? coreStats : null,
                    measured ? serviceStats : null);
            }
        }
        finally
        {
            cores.forEach(EngineUnderTest::close);
        }
        out.println();
        out.print(report(serviceStats, coreStats, benchCommands));
        return last;
    }

    private ServicePass iteration(
        final String label, final Harness harness, final List<EngineUnderTest> cores, final int[] benchCommands,
        final List<EngineStats> coreStats, final EngineStats serviceStats)
    {
        final StringBuilder line = new StringBuilder(label).append(':');
        for (int c = 0; c < cores.size(); c++)
        {
            final EngineUnderTest core = cores.get(c);
            core.reset();
            System.gc();
            final long allocatedBefore = THREADS.getCurrentThreadAllocatedBytes();
            final long elapsedNs = core.runBench();
            final long allocated = THREADS.getCurrentThreadAllocatedBytes() - allocatedBefore;
            verifyCore(core, "throughput");
            core.reset();
            System.gc();
            histogram.reset();
            core.runBenchTimed(histogram);
            verifyCore(core, "timed");
            if (null != coreStats)
            {
                coreStats.get(c).add(benchCommands[c], elapsedNs, histogram, allocated);
            }
            line.append(String.format(Locale.ROOT, " %s %.3f M/s;", CORE_NAMES.get(c),
                benchCommands[c] * 1e3 / elapsedNs));
        }

        histogram.reset();
        final ServicePass pass = harness.pass(stream.count(), options.rate(), histogram);
        if (null != serviceStats)
        {
            subscriberAllocatedBytes[serviceStats.iterations()] = pass.subscriberAllocatedBytes();
            serviceStats.add(pass.commands(), pass.elapsedNs(), histogram, pass.engineAllocatedBytes());
        }
        line.append(String.format(Locale.ROOT, " service %.3f M/s, first event p50 %,d ns p99.9 %,d ns, " +
            "engine thread allocated %,d B (%.3f B/command); trades %,d, checksums match",
            pass.commands() * 1e3 / pass.elapsedNs(), histogram.getValueAtPercentile(50),
            histogram.getValueAtPercentile(99.9), pass.engineAllocatedBytes(),
            (double)pass.engineAllocatedBytes() / pass.commands(), pass.trades()));
        out.println(line);
        return pass;
    }

    /**
     * Fails the run when the core alone on the same commands did not make the reference core's events.
     *
     * @throws IllegalStateException naming the pass and both checksums.
     */
    private void verifyCore(final EngineUnderTest core, final String pass)
    {
        if (core == sameCommandsCore && sameCommandsCore.checksum() != stream.checksum())
        {
            throw new IllegalStateException(String.format(Locale.ROOT, "%s, %s pass: event checksum %016x where " +
                "the reference core's is %016x", CORE_NAMES.get(0), pass, sameCommandsCore.checksum(),
                stream.checksum()));
        }
    }

    /**
     * An embedded media driver (its own directory, deleted on start and shutdown) and an Aeron client, on which each
     * {@link #pass} launches a fresh engine service: what {@code bench engine-service} and {@link EngineRamp} both
     * measure.
     */
    static final class Harness implements AutoCloseable
    {
        private final SbeCommandStream stream;
        private final ServiceBenchOptions options;
        private final MediaDriver driver;
        private final Aeron aeron;
        private SbeStreamCore reference;
        private int passes;

        /**
         * Launches the media driver and connects to it.
         *
         * @param stream  the commands every pass sends.
         * @param options the idle strategy of the engine and the publisher, and the driver's threading mode.
         */
        Harness(final SbeCommandStream stream, final ServiceBenchOptions options)
        {
            this.stream = stream;
            this.options = options;
            driver = launchDriver(options.driverThreading());
            try
            {
                aeron = Aeron.connect(new Aeron.Context().aeronDirectoryName(driver.aeronDirectoryName()));
            }
            catch (final RuntimeException ex)
            {
                CloseHelper.quietClose(driver);
                throw ex;
            }
        }

        /**
         * Launches a fresh engine service, sends the SETUP commands as fast as back pressure allows and waits for
         * their events, then sends BENCH commands up to {@code end} at {@code rate} from a publisher thread while
         * this thread polls their events, recording each command's first-event latency; checks every event against
         * the reference core's.
         *
         * @param end       index after the last command to send: {@link SbeCommandStream#count()} for every BENCH
         *                  command, less for a prefix of them (its reference is then replayed on a core first).
         * @param rate      BENCH commands per second on a fixed schedule, or 0 for as fast as back pressure allows.
         * @param histogram receives the BENCH commands' command-to-first-event latencies, ns.
         * @return what the service did.
         * @throws IllegalStateException when the service's events differ from the reference core's, or it stalls.
         */
        ServicePass pass(final int end, final long rate, final Histogram histogram)
        {
            if (end <= stream.benchStart() || end > stream.count())
            {
                throw new IllegalArgumentException("BENCH commands end at " + end + ", outside (" +
                    stream.benchStart() + ", " + stream.count() + "]");
            }
            final long expectedChecksum;
            final long expectedTrades;
            if (end == stream.count())
            {
                expectedChecksum = stream.checksum();
                expectedTrades = stream.expectedBenchTrades();
            }
            else
            {
                reference = null == reference ? new SbeStreamCore(stream) : reference;
                reference.reset();
                final long setupTrades = reference.trades();
                reference.runBench(end);
                expectedChecksum = reference.checksum();
                expectedTrades = reference.trades() - setupTrades;
            }
            final StreamLayout layout = streamLayout(driver.aeronDirectoryName(), passes++);
            try (EngineService service = EngineService.launch(engineContext(layout, options.newIdleStrategy()));
                ExclusivePublication commands = aeron.addExclusivePublication(
                    layout.commandChannel(), layout.commandStreamId(SHARD));
                Subscription events = aeron.addSubscription(layout.eventChannel(), layout.eventStreamId(SHARD)))
            {
                awaitConnected(commands, events);
                final EventCounter counter = new EventCounter(stream, histogram);
                phase(commands, events, counter, 0, stream.benchStart(), 0);
                if (counter.checksum() != stream.setupChecksum())
                {
                    throw new IllegalStateException(String.format(Locale.ROOT, "the service's SETUP events differ " +
                        "from the reference core's: checksum %016x where the reference's is %016x", counter.checksum(),
                        stream.setupChecksum()));
                }
                final long setupTrades = counter.trades();
                final long setupEvents = counter.events();
                final long engineThreadId = engineThreadId(service);
                System.gc();
                counter.recording(true);
                final long engineAllocatedBefore = THREADS.getThreadAllocatedBytes(engineThreadId);
                final long allocatedBefore = THREADS.getCurrentThreadAllocatedBytes();
                final long elapsedNs = phase(commands, events, counter, stream.benchStart(), end, rate);
                final long allocated = THREADS.getCurrentThreadAllocatedBytes() - allocatedBefore;
                final long engineAllocated = THREADS.getThreadAllocatedBytes(engineThreadId) - engineAllocatedBefore;
                final ServicePass pass = new ServicePass(end - stream.benchStart(), elapsedNs,
                    counter.events() - setupEvents, stream.expectedEvents(stream.benchStart(), end),
                    counter.trades() - setupTrades, expectedTrades, counter.checksum(), expectedChecksum,
                    engineAllocated, allocated);
                if (counter.sequenceGaps() > 0 || counter.unexpected() > 0 ||
                    pass.checksum() != pass.expectedChecksum() || pass.trades() != pass.expectedTrades() ||
                    pass.events() != pass.expectedEvents())
                {
                    throw new IllegalStateException(String.format(Locale.ROOT, "the service disagrees with the " +
                        "reference core: checksum %016x where the reference's is %016x, %s, sequence gaps %d, " +
                        "unexpected messages %d", pass.checksum(), pass.expectedChecksum(), pass,
                        counter.sequenceGaps(), counter.unexpected()));
                }
                return pass;
            }
        }

        /**
         * Sends commands {@code from} to {@code to} from a publisher thread and polls their events on this thread,
         * yielding between empty polls, until all have arrived.
         *
         * @return nanoseconds from the publisher's origin to the last event.
         */
        private long phase(
            final ExclusivePublication commands, final Subscription events, final EventCounter counter,
            final int from, final int to, final long rate)
        {
            final long phaseEvents = stream.expectedEvents(from, to);
            final long expectedEvents = counter.events() + phaseEvents;
            final IdleStrategy idle = new YieldingIdleStrategy();
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
                    else if (null != publisher.failure() ||
                        nowNs - lastProgressNs > CommandPublisher.STALL_TIMEOUT_NS)
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

        /** Closes the client, then the media driver, which deletes its directory. */
        @Override
        public void close()
        {
            CloseHelper.closeAll(aeron, driver);
        }
    }

    /**
     * @param layout       the streams, on a running media driver.
     * @param idleStrategy the engine agent's.
     * @return the benchmark's engine service: shard {@value #SHARD}, exchange-core's symbol, the reference core's size
     * limit, its numbering from 0 as the reference core's (a wall clock at the Unix epoch: a service numbers from its
     * start time), an ephemeral metrics port without JVM metrics.
     */
    static EngineContext engineContext(final StreamLayout layout, final IdleStrategy idleStrategy)
    {
        return new EngineContext()
            .shardId(SHARD)
            .metricsPort(0)
            .jvmMetrics(false)
            .maxOrderQuantity(SbeCommandStream.MAX_ORDER_QUANTITY)
            .streamLayout(layout)
            .symbolDirectory(SymbolDirectory.parse(SYMBOL + "@" + SHARD))
            .idleStrategy(idleStrategy)
            .epochClock(() -> 0);
    }

    /**
     * The streams of one service pass, all on {@code aeron:ipc}, with stream ids of their own: a closed publication
     * lingers in the media driver for a while, and a subscription on the same stream id in the next pass could join
     * it (the previous engine's events would then arrive among the new engine's).
     *
     * @param aeronDirectoryName the media driver's.
     * @param pass               service passes before this one in the same media driver, 0 to 999,999.
     * @return commands on stream 1,000,000 + pass + shard, events on 2,000,000 + pass + shard (shard 0 here).
     */
    static StreamLayout streamLayout(final String aeronDirectoryName, final int pass)
    {
        return new StreamLayout(aeronDirectoryName, StreamLayout.CHANNEL_DEFAULT, COMMAND_STREAM_ID_BASE + pass,
            StreamLayout.CHANNEL_DEFAULT, EVENT_STREAM_ID_BASE + pass, StreamLayout.MARKET_DATA_CHANNEL_DEFAULT,
            MARKET_DATA_STREAM_ID, StreamLayout.FEED_CHANNEL_DEFAULT, MARKET_DATA_STREAM_ID + 2,
            MARKET_DATA_STREAM_ID + 3, MARKET_DATA_STREAM_ID + 4, StreamLayout.CHANNEL_DEFAULT,
            MARKET_DATA_STREAM_ID + 1);
    }

    /** @return the id of the service's engine agent thread, which has run since the SETUP events came. */
    private static long engineThreadId(final EngineService service)
    {
        final Thread thread = service.agentThread();
        if (null == thread)
        {
            throw new IllegalStateException("the engine agent's thread has not started");
        }
        return thread.threadId();
    }

    /**
     * Waits until the engine service has joined both streams.
     *
     * @throws IllegalStateException after 10 s.
     */
    static void awaitConnected(final ExclusivePublication commands, final Subscription events)
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

    /**
     * Launches an embedded media driver as the compose media-driver service runs: IPC terms of
     * {@link StreamLayout#IPC_TERM_LENGTH_DEFAULT}, on a fresh directory ({@link #aeronDirectory()}) deleted on close.
     *
     * @param threadingMode the driver's threading mode.
     * @return the running driver.
     */
    static MediaDriver launchDriver(final ThreadingMode threadingMode)
    {
        return MediaDriver.launchEmbedded(new MediaDriver.Context()
            .aeronDirectoryName(aeronDirectory())
            .threadingMode(threadingMode)
            .ipcTermBufferLength(StreamLayout.IPC_TERM_LENGTH_DEFAULT)
            .dirDeleteOnStart(true)
            .dirDeleteOnShutdown(true));
    }

    /** @return a fresh media driver directory: under /dev/shm where there is one, else the temporary directory. */
    static String aeronDirectory()
    {
        final Path shm = Path.of("/dev/shm");
        final Path parent = Files.isDirectory(shm) ? shm : Path.of(System.getProperty("java.io.tmpdir"));
        return parent.resolve("bourse-bench-" + ProcessHandle.current().pid() + "-" + System.nanoTime()).toString();
    }

    private String report(final EngineStats service, final List<EngineStats> cores, final int[] benchCommands)
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
        sb.append(String.format(Locale.ROOT, "%-46s%12s%12s%12s%12s%n", "allocated per BENCH pass, bytes",
            "min", "median", "max", "B/command"));
        final int serviceCommands = stream.count() - stream.benchStart();
        allocationRow(sb, "engine agent thread (service)", serviceCommands, service::allocatedBytes);
        allocationRow(sb, "subscriber thread (+ publisher thread start)", serviceCommands,
            (summary) -> EngineStats.summarise(subscriberAllocatedBytes, summary));
        for (int c = 0; c < cores.size(); c++)
        {
            final EngineStats core = cores.get(c);
            allocationRow(sb, core.name() + " (its thread)", benchCommands[c], core::allocatedBytes);
        }
        sb.append('\n');
        if (0 != options.rate())
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
        sb.append("  (service and core alone on the same commands both checked against the reference checksum)\n");
        return sb.toString();
    }

    private static void allocationRow(
        final StringBuilder sb, final String name, final int commands,
        final ToDoubleFunction<EngineStats.Summary> bytes)
    {
        sb.append(String.format(Locale.ROOT, "  %-44s", name));
        for (final EngineStats.Summary summary : EngineStats.Summary.values())
        {
            sb.append(String.format(Locale.ROOT, "%12s", BenchReport.whole(bytes.applyAsDouble(summary))));
        }
        sb.append(String.format(Locale.ROOT, "%12.3f%n", bytes.applyAsDouble(EngineStats.Summary.MEDIAN) / commands));
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
