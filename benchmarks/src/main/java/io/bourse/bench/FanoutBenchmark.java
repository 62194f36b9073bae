package io.bourse.bench;

import io.aeron.Aeron;
import io.aeron.Publication;
import io.aeron.driver.MediaDriver;
import io.aeron.driver.ThreadingMode;
import io.bourse.common.aeron.StreamLayout;
import io.bourse.common.config.Credentials;
import io.bourse.common.config.Settings;
import io.bourse.common.config.SymbolDirectory;
import io.bourse.common.time.MidnightNanoClock;
import io.bourse.fanout.FanoutContext;
import io.bourse.fanout.FanoutService;
import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.DataPointSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import org.HdrHistogram.Histogram;
import org.agrona.CloseHelper;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.function.DoubleSupplier;
import java.util.stream.IntStream;

/**
 * {@code bourse bench fanout}: one market-data stream at a fixed rate through the real fanout ({@link FanoutService},
 * ITCH 5.0 over SoupBinTCP 4.0) to N subscribers over real TCP, beside the FIX Antenna Java fan-out benchmark's
 * published figures.
 *
 * <p>In this JVM: an embedded media driver, the fanout on an ephemeral loopback port with the benchmark's users, one
 * publisher (the calling thread) that offers SBE market data ({@link MarketDataCycles}) on the market-data stream open
 * loop, and N subscribers ({@link ItchSubscriber}) read by client threads ({@link SubscriberReader}). Every message's
 * timestamp is its intended send time on the schedule, ns since midnight from the one {@link MidnightNanoClock} the
 * subscribers also read at receipt, so input-to-subscriber latency includes any delay of the publisher behind its
 * schedule (coordinated-omission corrected). The messages whose timestamps fall in the measured window (after the
 * warm-up) are counted and their latencies recorded into HdrHistograms (3 significant digits).
 *
 * <p>First, at the same rate and to as many subscribers, its floor ({@link FanoutFloor}): the same messages written
 * straight to the subscribers' sockets by threads that follow the schedule themselves, so that the fanout's figures
 * can be read as ratios to what this host's TCP writes allow, measured in the same run.
 *
 * <p>With a stall, the run compares two kinds of step, each on a fresh driver and fanout: every subscriber reading, and
 * subscriber 0 not reading from the start of the measured window; subscriber 0 is left out of both kinds' figures, so
 * that they compare the same subscribers. The comparison is over the {@link StallPeriod}: from the window's start until
 * the fanout ends the stalled subscriber as a slow consumer (seen in its metrics registry, polled every
 * {@value #STALL_POLL_MS} ms), and the same length of window in the steps with every subscriber reading; after it, the
 * stalled one is gone and the fanout serves one subscriber fewer. Each round runs one step of each kind, one stalled
 * first in odd rounds and all reading first in even ones (BAAB), so that the host's drift and the JIT's warming fall on
 * both kinds alike, and every step with all reading has one with a stall before it. A warm-up step with one subscriber
 * stalled runs first, left out of the comparison, so that the JIT has compiled the paths of both kinds: the first
 * fanout of the JVM runs while the JIT still compiles its paths, and the first stall of the JVM's life deoptimises the
 * workers' hot methods (the branches of a session waiting for its socket and of a full send buffer, never taken before;
 * seen with {@code -Xlog:deoptimization}), which then run slower until compiled again; each kind's histograms are
 * pooled over its rounds, and the spread of a percentile between the runs of one kind shows how much this host's
 * run-to-run noise alone moves it. The report gives in and out rates, p50/p90/p99/p99.9/p99.99/max, the ratios to the
 * floor and to FIX Antenna, whether the step was sustained (everything received, p99 under 100 us) and the change in
 * the other subscribers' pooled p50 and p99 while one is stalled.
 */
public final class FanoutBenchmark
{
    /** The latency bound of "sustained": p99 under 100 us. */
    public static final long P99_LIMIT_NS = TimeUnit.MICROSECONDS.toNanos(100);
    /** FIX Antenna Java fan-out benchmark (seeds): messages per second in. */
    static final double REFERENCE_IN_RATE = 4_955;
    /** FIX Antenna Java fan-out benchmark (seeds): messages per second out. */
    static final double REFERENCE_OUT_RATE = 19_840;
    /** FIX Antenna Java fan-out benchmark (seeds): p50, p90, p99, p99.9, p99.99 and max, us. */
    static final double[] REFERENCE_US = { 135, 287, 607, 863, 3_071, 49_151 };
    /** Output rate target of issue 5, as a multiple of the reference's. */
    static final double TARGET_OUT_MULTIPLE = 50;
    /** Largest change, percent, of the other subscribers' latency while one is stalled, for issue 5. */
    static final double TARGET_STALL_CHANGE_PERCENT = 20;

    private static final String SYMBOL_DIRECTORY = "AAPL@0,MSFT@1,GOOG@0,AMZN@1";
    private static final List<String> SYMBOLS = List.of("AAPL", "MSFT", "GOOG", "AMZN");
    private static final double[] PERCENTILES = { 50, 90, 99, 99.9, 99.99, 100 };
    private static final String[] PERCENTILE_LABELS = { "p50", "p90", "p99", "p99.9", "p99.99", "max" };
    /** The stalled subscriber's receive buffer, bytes: small, so that the fanout's sends back up within seconds. */
    private static final int STALLED_RECEIVE_BUFFER = 4096;
    /**
     * The fanout's kernel send buffer per subscriber (SO_SNDBUF) in the stall runs, bytes: bounded, so that a stalled
     * subscriber fills it and then its 128 KiB session buffer within the measured window and is disconnected as a slow
     * consumer, instead of parking megabytes in the kernel; set in every step so that they compare like with like.
     */
    private static final int STALL_SOCKET_SEND_BUFFER = 64 * 1024;
    private static final long LOGIN_TIMEOUT_NS = TimeUnit.SECONDS.toNanos(20);
    private static final long DRAIN_TIMEOUT_NS = TimeUnit.SECONDS.toNanos(10);
    private static final long STALLED_READ_TIMEOUT_NS = TimeUnit.MILLISECONDS.toNanos(500);
    /**
     * How often the steps of a stall comparison poll the fanout's metrics registry for the slow consumer's end, ms:
     * those with all reading too, until their stall period ends, so that both kinds carry the same polls.
     */
    private static final long STALL_POLL_MS = 5;
    /** {@code bourse_fanout_slow_consumer_disconnects_total} in the registry: a counter's name has no suffix. */
    private static final String SLOW_CONSUMER_DISCONNECTS = "bourse_fanout_slow_consumer_disconnects";
    private static final long SCHEDULE_LEAD_NS = TimeUnit.MILLISECONDS.toNanos(50);
    /** Closer than this to a send time the publisher spins; farther, it yields. */
    private static final long SPIN_NS = TimeUnit.MICROSECONDS.toNanos(20);
    private static final String ALL_READING = "all reading";
    private static final String ONE_STALLED = "one stalled";
    private static final String WARM_UP = "warm-up";
    private static final String FLOOR = "floor";
    private static final String COLUMN = "%12s";
    /** Client reader threads are named so, then their index; Linux keeps the first 15 bytes, common to all. */
    private static final String READER_THREAD = "fanout-bench-reader-";
    /** The fanout's worker threads, {@code fanout-worker-<n>}: also their role in the thread affinity. */
    static final String WORKER_THREAD = "fanout-worker-";
    /**
     * Linux keeps 15 bytes of a thread name, so {@code fanout-worker-1} is also workers 10 to 19: past 10 workers the
     * report sums them.
     */
    private static final int MAX_WORKERS_APART = 10;

    /**
     * One step: the fanout at the input rate, every subscriber reading or one stalled; or the pooled figures of the
     * stall comparison's steps of one kind.
     *
     * @param name               {@value #FLOOR}, {@value #ALL_READING}, {@value #ONE_STALLED} or {@value #WARM_UP}
     *                           (one stalled, before the stall comparison and left out of it).
     * @param round              of the stall comparison, from 1; 0 for the floor, the one step without a stall, the
     *                           warm-up step, and pooled figures.
     * @param rate               the scheduled input rate, messages/s.
     * @param measured           subscribers whose figures count (all but the stalling one with {@code --stall}).
     * @param measuredSent       messages sent in the measured window.
     * @param measuredReceived   of those, received, summed over the measured subscribers.
     * @param inRate             messages sent in the window per second of the window, or of the time it took.
     * @param outRate            messages of the window received per second from the window's start to the last one.
     * @param histogram          input-to-subscriber latency of the measured subscribers, ns.
     * @param stallHistogram     of those, the messages whose Timestamps fall in the stall period, ns; empty without
     *                           a stall.
     * @param stallPeriodNs      the stall period's length from the window's start, ns; 0 without a stall.
     * @param unsettled          messages of the whole schedule not received by a measured subscriber at the end.
     * @param backPressured      offers refused by back pressure (and retried).
     * @param clientErrors       subscriber connections that failed or were closed, the stalled one excluded.
     * @param stalledClosed      in the stalled step, true when the fanout closed the stalled subscriber's connection.
     * @param stalledEndOfSession in the stalled step, true when the stalled subscriber got End of Session.
     * @param fanoutErrors       {@code bourse_fanout_errors_total} at the end, every kind.
     * @param fanoutDrops        {@code bourse_fanout_drops_total} at the end.
     * @param threads            CPU time and system calls of the fanout's and the readers' threads over the window.
     */
    record Step(
        String name,
        int round,
        long rate,
        int measured,
        long measuredSent,
        long measuredReceived,
        double inRate,
        double outRate,
        Histogram histogram,
        Histogram stallHistogram,
        long stallPeriodNs,
        long unsettled,
        long backPressured,
        long clientErrors,
        boolean stalledClosed,
        boolean stalledEndOfSession,
        double fanoutErrors,
        double fanoutDrops,
        List<ThreadLoad> threads)
    {
        /**
         * @return true when every measured subscriber got every message, none failed, and p99 is under
         * {@link #P99_LIMIT_NS}.
         */
        boolean sustained()
        {
            return 0 == unsettled && 0 == clientErrors && measuredReceived == measuredSent * measured &&
                histogram.getTotalCount() == measuredReceived && BenchReport.percentile(histogram, 99) < P99_LIMIT_NS;
        }

        /** @return true for a step with one subscriber stalled: {@value #ONE_STALLED} or {@value #WARM_UP}. */
        boolean stalled()
        {
            return ONE_STALLED.equals(name) || WARM_UP.equals(name);
        }

        /** @return the name, then the round when there is one, e.g. {@code one stalled 2}. */
        String label()
        {
            return 0 == round ? name : name + " " + round;
        }

        /**
         * @param runs steps of one kind, at one rate, with the same subscribers.
         * @return their figures together: counts summed, rates and stall periods averaged, histograms added; no thread
         * loads.
         */
        static Step pool(final List<Step> runs)
        {
            final Histogram histogram = new Histogram(3);
            final Histogram stallHistogram = new Histogram(3);
            runs.forEach((step) ->
            {
                histogram.add(step.histogram());
                stallHistogram.add(step.stallHistogram());
            });
            final Step first = runs.get(0);
            return new Step(first.name(), 0, first.rate(), first.measured(),
                runs.stream().mapToLong(Step::measuredSent).sum(),
                runs.stream().mapToLong(Step::measuredReceived).sum(),
                runs.stream().mapToDouble(Step::inRate).average().orElseThrow(),
                runs.stream().mapToDouble(Step::outRate).average().orElseThrow(), histogram, stallHistogram,
                Math.round(runs.stream().mapToLong(Step::stallPeriodNs).average().orElseThrow()),
                runs.stream().mapToLong(Step::unsettled).sum(), runs.stream().mapToLong(Step::backPressured).sum(),
                runs.stream().mapToLong(Step::clientErrors).sum(), runs.stream().allMatch(Step::stalledClosed),
                runs.stream().allMatch(Step::stalledEndOfSession),
                runs.stream().mapToDouble(Step::fanoutErrors).sum(), runs.stream().mapToDouble(Step::fanoutDrops).sum(),
                List.of());
        }
    }

    /**
     * What one group of threads did over the measured window.
     *
     * @param name  the threads, for the report.
     * @param delta their read and write system calls and CPU time over the window.
     */
    record ThreadLoad(String name, ThreadActivity.Sample delta)
    {
    }

    /**
     * What the subscribers of a step log in to and read from: the fanout, or its {@link FanoutFloor}.
     */
    interface Feed
    {
        /** @return the SoupBinTCP port on 127.0.0.1. */
        int port();

        /**
         * Readies the threads that carry the messages, once every subscriber's session has started.
         *
         * @return those threads, to sample over the measured window.
         * @throws IOException when the feed cannot run.
         */
        List<ThreadActivity> prepare() throws IOException;

        /**
         * Carries the whole schedule, message i at {@code scheduleStartNs + i * intervalNs}, and returns when the
         * last one is on its way.
         *
         * @param clock           ns since midnight, the subscribers' clock.
         * @param scheduleStartNs time of message 0.
         * @param intervalNs      time between two messages.
         * @param total           messages in the schedule.
         * @return offers refused by back pressure (and retried), and the send time of the last message (ns since
         * midnight).
         * @throws IOException when a subscriber's connection fails.
         */
        long[] publish(MidnightNanoClock clock, long scheduleStartNs, double intervalNs, long total)
            throws IOException;

        /** @return the feed's Prometheus text exposition at the end of the step, empty if it has none. */
        String metrics();

        /**
         * @return sessions the feed has ended as slow consumers so far, read in process so that a poll costs the feed
         * nothing; 0 for a feed without that policy.
         */
        default double slowConsumerDisconnects()
        {
            return 0;
        }
    }

    /**
     * A run: the floor, then the fanout with every subscriber reading, or with {@code --stall} the rounds of the stall
     * comparison.
     *
     * @param floor  the {@link FanoutFloor} at the same rate to the same subscribers.
     * @param fanout the fanout's steps in the order they ran.
     */
    record Run(Step floor, List<Step> fanout)
    {
        /**
         * @param stalled true for the steps with one subscriber stalled, false for those with every one reading.
         * @return those steps, in the order they ran.
         */
        List<Step> ofKind(final boolean stalled)
        {
            final String name = stalled ? ONE_STALLED : ALL_READING;
            return fanout.stream().filter((step) -> name.equals(step.name())).toList();
        }
    }

    private FanoutBenchmark()
    {
    }

    /**
     * Runs the whole benchmark and prints its report.
     *
     * @param options validated here first.
     * @param out     where the report goes.
     * @throws IllegalArgumentException naming a bad option.
     * @throws UncheckedIOException     when a connection fails or a histogram cannot be written.
     */
    public static void run(final FanoutBenchOptions options, final PrintStream out)
    {
        measure(options, out);
    }

    /**
     * Runs the benchmark and prints its report.
     *
     * @param options validated here first.
     * @param out     where the report goes.
     * @return the floor and the fanout's steps.
     */
    static Run measure(final FanoutBenchOptions options, final PrintStream out)
    {
        options.validate();
        final long startNs = System.nanoTime();
        out.print(MachineInfo.describe());
        out.printf(Locale.ROOT, "load average before the run: %.2f (1 min; other processes share this host)%n",
            ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
        describe(options, out);
        final Step floor = runFloor(options);
        out.println(stepLine(floor));
        final List<Step> steps = new ArrayList<>();
        steps.add(options.stall() ? runStep(options, WARM_UP, true, 0, 0) :
            runStep(options, ALL_READING, false, 0, 0));
        out.println(stepLine(steps.get(0)));
        long stallPeriodNs = 0;
        for (int round = 1; round <= options.stallRounds(); round++)
        {
            final boolean stalledFirst = 1 == round % 2;
            for (final boolean stall : new boolean[] { stalledFirst, !stalledFirst })
            {
                final Step step = runStep(options, stall ? ONE_STALLED : ALL_READING, stall, round, stallPeriodNs);
                stallPeriodNs = step.stallPeriodNs();
                steps.add(step);
                out.println(stepLine(step));
            }
        }
        final Run run = new Run(floor, List.copyOf(steps));
        writeHistogram(options.hgrmDir(), floor.rate(), floor.label(), floor.histogram());
        for (final Step step : steps)
        {
            writeHistogram(options.hgrmDir(), step.rate(), step.label().replace(' ', '-'), step.histogram());
        }
        if (options.stall())
        {
            for (final Step pooled : List.of(Step.pool(run.ofKind(false)), Step.pool(run.ofKind(true))))
            {
                final String name = pooled.name().replace(' ', '-') + "-pooled";
                writeHistogram(options.hgrmDir(), pooled.rate(), name, pooled.histogram());
                writeHistogram(options.hgrmDir(), pooled.rate(), name + "-stall-period", pooled.stallHistogram());
            }
        }
        out.println();
        out.print(report(run));
        out.printf(Locale.ROOT, "total run time %.1f s%n", (System.nanoTime() - startNs) / 1e9);
        return run;
    }

    private static void describe(final FanoutBenchOptions options, final PrintStream out)
    {
        out.printf(Locale.ROOT, "fanout: the real FanoutService, %d worker%s + 1 dispatcher/acceptor thread, idle " +
            "%s, on 127.0.0.1; embedded media driver SHARED; market data over aeron:ipc%n", options.workers(),
            1 == options.workers() ? "" : "s", options.idle());
        out.printf(Locale.ROOT, "load: %,d msg/s in, open loop from 1 publisher thread, cycles of SBE AddOrder, " +
            "OrderExecuted, OrderDelete over %d symbols -> ITCH 5.0 'A' (36 bytes), 'E' (31), 'D' (19) in " +
            "SoupBinTCP Sequenced Data; %d subscribers for every symbol over TCP, read by %d client thread%s " +
            "(yield when idle, never sleep); %.1f s warm-up + %.1f s measured%n", options.rate(), SYMBOLS.size(),
            options.subscribers(), options.readers(), 1 == options.readers() ? "" : "s", options.warmupSeconds(),
            options.measureSeconds());
        out.println("latency: message timestamp = its intended send time on the schedule (ns since midnight, " +
            "MidnightNanoClock, the clock the subscribers read after each read call) -> receipt, so publisher " +
            "delay counts (coordinated-omission corrected); HdrHistogram, 3 significant digits");
        if (options.stall())
        {
            out.println("stall: a warm-up step with one stalled (so that the JIT has compiled both kinds' paths), " +
                "then " + options.stallRounds() + " round" + (1 == options.stallRounds() ? "" : "s") +
                " of two steps, each on a fresh fanout, one stalled first in odd rounds and all reading first in " +
                "even ones (BAAB): subscriber 0 (receive buffer " + STALLED_RECEIVE_BUFFER + " bytes) not reading " +
                "from the start of the measured window, and all reading; subscriber 0 is left out of every step's " +
                "figures; compared over the stall period, from the window's start until the fanout ends the stalled " +
                "subscriber (its registry's slow-consumer count polled every " + STALL_POLL_MS + " ms in every " +
                "step), and as long a stretch in the steps with all reading; each kind's histograms are pooled over " +
                "its rounds; the fanout's SO_SNDBUF is " + STALL_SOCKET_SEND_BUFFER + " bytes in every step");
        }
        out.printf(Locale.ROOT, "floor, measured first: %d thread%s (one per fanout worker), each owning its share " +
            "of the subscribers, follow%s the schedule and write every message due to each of %s subscribers in one " +
            "write (SoupBinTCP Sequenced Data framed in place, logins through nassau); no Aeron, dispatcher or " +
            "session buffers%n", options.workers(), 1 == options.workers() ? "" : "s", 1 == options.workers() ? "s" : "",
            1 == options.workers() ? "its" : "their");
        out.println("thread affinity: " + BenchSuite.affinity() + (InProcessExchange.threadAffinity().isEmpty() ? "" :
            "; floor thread k takes fanout-worker-k's CPUs (and logs its pinning as that role)"));
        out.println("reference: FIX Antenna Java fan-out benchmark (seeds): 4,955 msg/s in, 19,840 msg/s out " +
            "(4 consumers), measured on the wire (tcpdump), other hardware");
    }

    /**
     * @param stallPeriodNs with every subscriber reading in a stall comparison, the stall period's length in the last
     *                      step with a stall, ns; else not read.
     */
    private static Step runStep(
        final FanoutBenchOptions options, final String name, final boolean stall, final int round,
        final long stallPeriodNs)
    {
        final List<Credentials.User> users = users(options);
        Path credentials = null;
        final List<AutoCloseable> opened = new ArrayList<>();
        try
        {
            credentials = Files.createTempFile("bourse-bench-fanout-credentials", ".csv");
            final List<String> lines = new ArrayList<>(List.of("username,password,firm"));
            users.forEach((user) -> lines.add(user.username() + "," + user.password() + "," + user.firm()));
            Files.write(credentials, lines);
            final MediaDriver driver = EngineServiceBenchmark.launchDriver(ThreadingMode.SHARED);
            opened.add(driver);
            final StreamLayout layout =
                StreamLayout.fromSettings(new Settings(Map.of()))
                    .withAeronDirectory(driver.aeronDirectoryName());
            final FanoutService fanout = FanoutService.launch(new FanoutContext()
                .layout(layout)
                .symbolDirectory(SymbolDirectory.parse(SYMBOL_DIRECTORY))
                .credentialsFile(credentials)
                .port(0)
                .metricsPort(0)
                .jvmMetrics(false)
                .workerCount(options.workers())
                .maxSessionsPerWorker(options.subscribers())
                .socketSendBufferBytes(options.stall() ? STALL_SOCKET_SEND_BUFFER : 0)
                .threadAffinity(InProcessExchange.threadAffinity())
                .idleStrategySupplier(options::newIdleStrategy));
            opened.add(fanout);
            final Aeron aeron = Aeron.connect(new Aeron.Context().aeronDirectoryName(driver.aeronDirectoryName()));
            opened.add(aeron);
            final Publication publication =
                aeron.addPublication(layout.marketDataChannel(), layout.marketDataStreamId());
            await(publication::isConnected, "the fanout's subscription to the market-data stream");
            final MarketDataCycles snapshot = new MarketDataCycles(SYMBOLS);
            final int snapshotLength = snapshot.encodeEmptySnapshot();
            await(() -> publication.offer(snapshot.buffer, 0, snapshotLength) > 0, "the fanout's books (a snapshot)");
            return measureStep(options, name, round, stall, stallPeriodNs, users,
                new FanoutFeed(options, fanout, publication), opened);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex.getMessage(), ex);
        }
        finally
        {
            closeInReverse(opened);
            if (null != credentials)
            {
                credentials.toFile().delete();
            }
        }
    }

    private static Step runFloor(final FanoutBenchOptions options)
    {
        final List<Credentials.User> users = users(options);
        final List<AutoCloseable> opened = new ArrayList<>();
        try
        {
            final FanoutFloor floor = new FanoutFloor(options.workers(), users, SYMBOLS,
                SymbolDirectory.parse(SYMBOL_DIRECTORY), FanoutFloor.WRITE_STALL_NS,
                InProcessExchange.threadAffinity());
            opened.add(floor);
            return measureStep(options, FLOOR, 0, false, 0, users, floor, opened);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex.getMessage(), ex);
        }
        finally
        {
            closeInReverse(opened);
        }
    }

    /** Closes what a step opened, the last opened first (subscribers, then the feed, then what it runs on). */
    private static void closeInReverse(final List<AutoCloseable> opened)
    {
        final List<AutoCloseable> reversed = new ArrayList<>(opened);
        Collections.reverse(reversed);
        CloseHelper.quietCloseAll(reversed);
    }

    private static List<Credentials.User> users(final FanoutBenchOptions options)
    {
        return IntStream.range(0, options.subscribers())
            .mapToObj((i) -> new Credentials.User(String.format(Locale.ROOT, "sub%03d", i),
                String.format(Locale.ROOT, "pw%03d", i), "FAN")).toList();
    }

    /** The real fanout, fed by one publisher (the calling thread) on the market-data stream. */
    private record FanoutFeed(FanoutBenchOptions options, FanoutService fanout, Publication publication)
        implements Feed
    {
        @Override
        public int port()
        {
            return fanout.port();
        }

        @Override
        public List<ThreadActivity> prepare()
        {
            final List<ThreadActivity> activities = new ArrayList<>();
            activities.add(ThreadActivity.find("[fanout-dispatcher,fanout-acceptor]", "fanout dispatcher+acceptor"));
            if (options.workers() > MAX_WORKERS_APART)
            {
                activities.add(ThreadActivity.findAll(WORKER_THREAD, "fanout workers (" + options.workers() + ")"));
                return activities;
            }
            for (int w = 0; w < options.workers(); w++)
            {
                activities.add(ThreadActivity.find(WORKER_THREAD + w, "fanout worker " + w));
            }
            return activities;
        }

        @Override
        public long[] publish(
            final MidnightNanoClock clock, final long scheduleStartNs, final double intervalNs, final long total)
        {
            return FanoutBenchmark.publish(publication, clock, scheduleStartNs, intervalNs, total);
        }

        @Override
        public String metrics()
        {
            return scrape(fanout.metricsPort());
        }

        /** {@code bourse_fanout_slow_consumer_disconnects_total}, from the fanout's registry. */
        @Override
        public double slowConsumerDisconnects()
        {
            double sum = 0;
            for (final MetricSnapshot snapshot : fanout.registry().scrape(SLOW_CONSUMER_DISCONNECTS::equals))
            {
                for (final DataPointSnapshot point : snapshot.getDataPoints())
                {
                    sum += ((CounterSnapshot.CounterDataPointSnapshot)point).getValue();
                }
            }
            return sum;
        }
    }

    private static Step measureStep(
        final FanoutBenchOptions options, final String name, final int round, final boolean stall,
        final long stallPeriodNs, final List<Credentials.User> users, final Feed feed,
        final List<AutoCloseable> opened)
        throws IOException
    {
        final MidnightNanoClock clock = new MidnightNanoClock();
        final List<ItchSubscriber> subscribers = new ArrayList<>();
        for (int i = 0; i < users.size(); i++)
        {
            final ItchSubscriber subscriber = ItchSubscriber.login(
                feed.port(), users.get(i), clock, stall && 0 == i ? STALLED_RECEIVE_BUFFER : 0);
            opened.add(subscriber);
            subscribers.add(subscriber);
        }
        awaitSessionStart(subscribers);

        final ItchSubscriber unrecorded = options.stall() ? subscribers.get(0) : null;
        final List<ItchSubscriber> measured = subscribers.stream().filter((s) -> s != unrecorded).toList();
        final long total = options.warmupCount() + options.measuredCount();
        final double intervalNs = 1e9 / options.rate();
        final long scheduleStartNs = clock.nanosSinceMidnight() + SCHEDULE_LEAD_NS;
        final long windowStartNs = scheduleStartNs + (long)(options.warmupCount() * intervalNs);
        final long windowEndNs = scheduleStartNs + (long)(total * intervalNs);

        final StallPeriod stallPeriod = !options.stall() || FLOOR.equals(name) ? null : new StallPeriod(windowStartNs);
        final long plannedEndNs = stall ? Long.MAX_VALUE : windowStartNs + stallPeriodNs;
        final AtomicLong clientErrors = new AtomicLong();
        final List<SubscriberReader> readers = new ArrayList<>();
        final List<Thread> threads = new ArrayList<>();
        final CountDownLatch running = new CountDownLatch(options.readers());
        for (int r = 0; r < options.readers(); r++)
        {
            final int reader = r;
            final List<ItchSubscriber> own = IntStream.range(0, subscribers.size())
                .filter((i) -> i % options.readers() == reader).mapToObj(subscribers::get).toList();
            final SubscriberReader subscriberReader =
                new SubscriberReader(own, unrecorded, stall, stallPeriod, clock, windowStartNs, windowEndNs,
                    clientErrors);
            readers.add(subscriberReader);
            final Thread thread = new Thread(() ->
            {
                running.countDown();
                subscriberReader.run();
            }, READER_THREAD + r);
            thread.setDaemon(true); // left running when the step fails, it must not keep the JVM alive
            threads.add(thread);
        }
        threads.forEach(Thread::start);
        // A thread's name reaches /proc once it runs: find the readers only after each has started.
        await(running);
        final List<ThreadActivity> activities = new ArrayList<>(feed.prepare());
        activities.add(ThreadActivity.find(READER_THREAD + 0, "client readers (" + options.readers() + ")"));
        final List<ThreadLoad> loads = new ArrayList<>();
        final Thread sampler = new Thread(
            () -> sampleWindow(activities, clock, windowStartNs, windowEndNs, loads), "fanout-bench-sampler");
        sampler.setDaemon(true);
        sampler.start();
        final AtomicReference<RuntimeException> watchFailure = new AtomicReference<>();
        final Thread watcher = null == stallPeriod ? null : new Thread(() ->
        {
            try
            {
                watchStall(
                    feed::slowConsumerDisconnects, clock, windowStartNs, windowEndNs, plannedEndNs, stallPeriod);
            }
            catch (final RuntimeException ex)
            {
                watchFailure.set(ex);
            }
        }, "fanout-bench-stall-watcher");
        if (null != watcher)
        {
            watcher.setDaemon(true);
            watcher.start();
        }

        final long[] publisherStats = feed.publish(clock, scheduleStartNs, intervalNs, total);
        final long drainDeadline = System.nanoTime() + DRAIN_TIMEOUT_NS;
        while (unsettled(measured, total) > 0 && System.nanoTime() < drainDeadline)
        {
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
        }
        final long unsettled = unsettled(measured, total);
        join(sampler);
        if (null != watcher)
        {
            join(watcher);
            if (null != watchFailure.get())
            {
                throw new IllegalStateException("polling the fanout's slow consumers failed", watchFailure.get());
            }
        }
        readers.forEach(SubscriberReader::stop);
        threads.forEach(FanoutBenchmark::join);

        final Histogram histogram = new Histogram(3);
        final Histogram stallHistogram = new Histogram(3);
        long lastReceiptNs = 0;
        for (final SubscriberReader reader : readers)
        {
            histogram.add(reader.histogram());
            stallHistogram.add(reader.stallHistogram());
            lastReceiptNs = Math.max(lastReceiptNs, reader.lastWindowReceiptNs());
        }
        final long measuredReceived = measured.stream().mapToLong(ItchSubscriber::receivedInWindow).sum();
        final double windowNs = windowEndNs - windowStartNs;
        final boolean stalledClosed = stall && readsToEnd(subscribers.get(0));
        final String metrics = feed.metrics();
        return new Step(name, round, options.rate(), measured.size(), options.measuredCount(),
            measuredReceived,
            options.measuredCount() * 1e9 / Math.max(windowNs, publisherStats[1] - windowStartNs + intervalNs),
            measuredReceived * 1e9 / Math.max(windowNs, lastReceiptNs - windowStartNs),
            histogram, stallHistogram,
            null == stallPeriod ? 0 : stallPeriod.endNs() - windowStartNs,
            unsettled, publisherStats[0], clientErrors.get(),
            stalledClosed, stall && subscribers.get(0).endOfSessionReceived(),
            metric(metrics, "bourse_fanout_errors_total"), metric(metrics, "bourse_fanout_drops_total"),
            List.copyOf(loads));
    }

    /**
     * Waits for a thread to end.
     *
     * @param thread the thread.
     * @throws IllegalStateException when interrupted.
     */
    static void join(final Thread thread)
    {
        try
        {
            thread.join();
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", ex);
        }
    }

    private static void await(final CountDownLatch latch)
    {
        try
        {
            latch.await();
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", ex);
        }
    }

    /** Samples the threads when the window starts and when it ends, from a thread of its own (not the publisher). */
    private static void sampleWindow(
        final List<ThreadActivity> activities, final MidnightNanoClock clock, final long windowStartNs,
        final long windowEndNs, final List<ThreadLoad> loads)
    {
        parkUntil(clock, windowStartNs);
        final List<ThreadActivity.Sample> start = activities.stream().map(ThreadActivity::sample).toList();
        parkUntil(clock, windowEndNs);
        for (int i = 0; i < activities.size(); i++)
        {
            if (activities.get(i).isAvailable())
            {
                loads.add(new ThreadLoad(activities.get(i).name(), activities.get(i).sample().minus(start.get(i))));
            }
        }
    }

    /**
     * Polls the fanout's slow-consumer count from the window's start, every {@value #STALL_POLL_MS} ms, until the
     * stall period ends; each poll confirms the period up to its time. With a stalled subscriber the period has no
     * planned end: the first poll that finds a slow consumer ended ends it at the last confirmed time, and the window's
     * end ends it if none does. Any slow consumer counts: at rates where the fanout ends healthy subscribers too, the
     * period ends at the first of them. With every subscriber reading, the period ends at its planned end, and the
     * polls and confirmations cost the fanout and the readers what they cost them with a stall.
     *
     * @param poll          the fanout's {@code bourse_fanout_slow_consumer_disconnects_total}.
     * @param clock         the benchmark's clock, ns since midnight.
     * @param windowStartNs first Timestamp of the measured window, ns since midnight.
     * @param windowEndNs   Timestamps from this one on are after the window.
     * @param plannedEndNs  the end with every subscriber reading, ns since midnight; Long.MAX_VALUE with a stall.
     * @param stallPeriod   the period, open.
     */
    static void watchStall(
        final DoubleSupplier poll, final MidnightNanoClock clock, final long windowStartNs, final long windowEndNs,
        final long plannedEndNs, final StallPeriod stallPeriod)
    {
        parkUntil(clock, windowStartNs);
        final long lastEndNs = Math.min(windowEndNs, plannedEndNs);
        long pollNs;
        while ((pollNs = clock.nanosSinceMidnight()) < lastEndNs)
        {
            if (poll.getAsDouble() >= 1 && Long.MAX_VALUE == plannedEndNs)
            {
                stallPeriod.end(stallPeriod.confirmedNs());
                return;
            }
            stallPeriod.confirm(pollNs);
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(STALL_POLL_MS));
        }
        stallPeriod.end(lastEndNs);
    }

    private static void parkUntil(final MidnightNanoClock clock, final long timeNs)
    {
        long nowNs;
        while ((nowNs = clock.nanosSinceMidnight()) < timeNs)
        {
            LockSupport.parkNanos(timeNs - nowNs);
        }
    }

    /**
     * Offers the whole schedule, message i at its intended time, retrying through back pressure.
     *
     * @return offers refused by back pressure, and the send time of the last measured message (ns since midnight).
     */
    private static long[] publish(
        final Publication publication, final MidnightNanoClock clock, final long scheduleStartNs,
        final double intervalNs, final long total)
    {
        final MarketDataCycles cycles = new MarketDataCycles(SYMBOLS);
        long backPressured = 0;
        long lastSendNs = 0;
        for (long i = 0; i < total; i++)
        {
            final long intendedNs = scheduleStartNs + (long)(i * intervalNs);
            final long nowNs = awaitSendTime(clock, intendedNs);
            final int length = cycles.encode(i, intendedNs);
            long result;
            while ((result = publication.offer(cycles.buffer, 0, length)) < 0)
            {
                if (Publication.CLOSED == result || Publication.MAX_POSITION_EXCEEDED == result)
                {
                    throw new IllegalStateException("market-data publication failed: " + result);
                }
                backPressured++;
                Thread.yield();
            }
            lastSendNs = nowNs;
        }
        return new long[] { backPressured, lastSendNs };
    }

    /**
     * Waits for a message's send time: yields while it is more than {@value #SPIN_NS} ns away, then spins.
     *
     * @param clock      ns since midnight.
     * @param intendedNs the send time.
     * @return the time it was read at, at or after the send time.
     */
    static long awaitSendTime(final MidnightNanoClock clock, final long intendedNs)
    {
        long nowNs;
        while ((nowNs = clock.nanosSinceMidnight()) < intendedNs)
        {
            if (intendedNs - nowNs > SPIN_NS)
            {
                Thread.yield();
            }
            else
            {
                Thread.onSpinWait();
            }
        }
        return nowNs;
    }

    private static void awaitSessionStart(final List<ItchSubscriber> subscribers) throws IOException
    {
        final long deadline = System.nanoTime() + LOGIN_TIMEOUT_NS;
        for (final ItchSubscriber subscriber : subscribers)
        {
            while (!subscriber.isStarted(SYMBOLS.size()))
            {
                for (final ItchSubscriber each : subscribers)
                {
                    if (each.receive() < 0)
                    {
                        throw new IOException("the fanout closed a subscriber before its session started");
                    }
                }
                if (System.nanoTime() > deadline)
                {
                    throw new IOException("subscribers not logged in within " +
                        TimeUnit.NANOSECONDS.toSeconds(LOGIN_TIMEOUT_NS) + " s");
                }
            }
        }
    }

    private static long unsettled(final List<ItchSubscriber> subscribers, final long total)
    {
        long unsettled = 0;
        for (final ItchSubscriber subscriber : subscribers)
        {
            unsettled += total - subscriber.received();
        }
        return unsettled;
    }

    /** @return true when what the stalled subscriber still holds ends with the fanout closing the connection. */
    private static boolean readsToEnd(final ItchSubscriber stalled)
    {
        final long deadline = System.nanoTime() + STALLED_READ_TIMEOUT_NS;
        try
        {
            while (System.nanoTime() < deadline)
            {
                if (stalled.receive() < 0)
                {
                    return true;
                }
            }
            return false;
        }
        catch (final IOException ex)
        {
            return true;
        }
    }

    private static void await(final BooleanSupplier condition, final String what)
        throws IOException
    {
        final long deadline = System.nanoTime() + LOGIN_TIMEOUT_NS;
        while (!condition.getAsBoolean())
        {
            if (System.nanoTime() > deadline)
            {
                throw new IOException("timed out waiting for " + what);
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
        }
    }

    private static String scrape(final int port)
    {
        try (HttpClient client = HttpClient.newHttpClient())
        {
            return client.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/metrics")).build(),
                HttpResponse.BodyHandlers.ofString()).body();
        }
        catch (final IOException ex)
        {
            return "";
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            return "";
        }
    }

    /**
     * @return the value of a metric in a Prometheus text exposition, summed over its series (e.g. the kinds of {@code
     * bourse_fanout_errors_total{kind}}), NaN when absent.
     */
    static double metric(final String exposition, final String name)
    {
        double sum = Double.NaN;
        for (final String line : exposition.split("\n"))
        {
            if (line.startsWith(name + " ") || line.startsWith(name + "{"))
            {
                final double value = Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
                sum = Double.isNaN(sum) ? value : sum + value;
            }
        }
        return sum;
    }

    private static String stepLine(final Step step)
    {
        final StringBuilder sb = new StringBuilder(String.format(Locale.ROOT,
            "%s: %,.0f msg/s in, %,.0f msg/s out to %d subscribers, p50 %s p99 %s p99.99 %s max %s us",
            step.label(), step.inRate(), step.outRate(), step.measured(),
            BenchReport.micros(BenchReport.percentile(step.histogram(), 50)),
            BenchReport.micros(BenchReport.percentile(step.histogram(), 99)),
            BenchReport.micros(BenchReport.percentile(step.histogram(), 99.99)),
            BenchReport.micros(BenchReport.percentile(step.histogram(), 100))));
        if (!FLOOR.equals(step.name()))
        {
            sb.append(String.format(Locale.ROOT, ", %,d back-pressured offers, fanout errors %.0f drops %.0f",
                step.backPressured(), step.fanoutErrors(), step.fanoutDrops()));
        }
        if (step.unsettled() > 0)
        {
            sb.append(String.format(Locale.ROOT, ", %,d unsettled", step.unsettled()));
        }
        if (step.clientErrors() > 0)
        {
            sb.append(String.format(Locale.ROOT, ", %,d subscriber connections failed", step.clientErrors()));
        }
        if (step.stalled())
        {
            sb.append(step.stalledClosed() ? ", stalled subscriber disconnected by the fanout" :
                ", stalled subscriber still connected");
            sb.append(step.stalledEndOfSession() ? " (End of Session received)" : " (no End of Session)");
        }
        return sb.toString();
    }

    /**
     * @param run the floor and the fanout's steps.
     * @return the table of rates and latencies beside the floor and the reference, the ratios, and the verdicts; with
     * a stall, the other subscribers' pooled change and the spread between runs of the same kind.
     */
    static String report(final Run run)
    {
        final List<Step> stalledRuns = run.ofKind(true);
        final boolean stall = !stalledRuns.isEmpty();
        final List<Step> readingRuns = run.ofKind(false);
        final Step first = stall ? Step.pool(readingRuns) : readingRuns.get(0);
        final String pooled = stall ? ", pooled" : "";
        final StringBuilder sb = new StringBuilder();
        sb.append(String.format(Locale.ROOT, "%-30s%12s%14s%10s", "input -> subscriber, us", "in/s", "out/s",
            "out/ref"));
        for (final String label : PERCENTILE_LABELS)
        {
            sb.append(String.format(Locale.ROOT, COLUMN, label));
        }
        sb.append('\n');
        final List<Step> measured = new ArrayList<>();
        measured.add(run.floor());
        measured.addAll(run.fanout());
        for (final Step step : measured)
        {
            tableRow(sb, FLOOR.equals(step.name()) ? "floor (TCP writes only)" : "bourse, " + step.label(), step);
        }
        final List<Step> verdicts = new ArrayList<>(List.of(first));
        if (stall)
        {
            verdicts.add(Step.pool(stalledRuns));
            verdicts.forEach((step) -> tableRow(sb, "bourse, " + step.name() + pooled, step));
        }
        sb.append(String.format(Locale.ROOT, "  %-28s%,12.0f%,14.0f%10s", "FIX Antenna fan-out (seeds)",
            REFERENCE_IN_RATE, REFERENCE_OUT_RATE, "1.00x"));
        for (final double reference : REFERENCE_US)
        {
            sb.append(String.format(Locale.ROOT, COLUMN, String.format(Locale.ROOT, "%,.1f", reference)));
        }
        sb.append('\n');
        sb.append(String.format(Locale.ROOT, "  %-64s", "ratio bourse " + first.name() + pooled + " / floor"));
        for (final double percentile : PERCENTILES)
        {
            sb.append(String.format(Locale.ROOT, COLUMN, BenchReport.ratio(
                BenchReport.percentile(first.histogram(), percentile),
                BenchReport.percentile(run.floor().histogram(), percentile))));
        }
        sb.append('\n');
        sb.append(String.format(Locale.ROOT, "  %-64s", "ratio bourse " + first.name() + pooled + " / FIX Antenna"));
        for (int i = 0; i < PERCENTILES.length; i++)
        {
            sb.append(String.format(Locale.ROOT, COLUMN, BenchReport.ratio(
                BenchReport.percentile(first.histogram(), PERCENTILES[i]) / 1000.0, REFERENCE_US[i])));
        }
        sb.append("\n\n");
        threadTable(sb, measured);
        sb.append('\n');
        sb.append(String.format(Locale.ROOT, "floor: %s (every message received, p99 under %d us): what this host's " +
            "TCP writes allow at this rate and subscriber count%n", run.floor().sustained() ? "sustained" :
            "NOT sustained", TimeUnit.NANOSECONDS.toMicros(P99_LIMIT_NS)));
        for (final Step step : verdicts)
        {
            sb.append(String.format(Locale.ROOT, "%s: %s (every message received by every measured subscriber, no " +
                "connection failed, p99 under %d us); out rate %s of the reference's, target %.0fx with p99 under " +
                "%d us: %s%n", step.name() + pooled, step.sustained() ? "sustained" : "NOT sustained",
                TimeUnit.NANOSECONDS.toMicros(P99_LIMIT_NS), BenchReport.ratio(step.outRate(), REFERENCE_OUT_RATE),
                TARGET_OUT_MULTIPLE, TimeUnit.NANOSECONDS.toMicros(P99_LIMIT_NS),
                step.sustained() && step.outRate() >= TARGET_OUT_MULTIPLE * REFERENCE_OUT_RATE ? "met" : "not met"));
        }
        if (stall)
        {
            sb.append('\n');
            stallComparison(sb, first, verdicts.get(1), readingRuns, stalledRuns);
        }
        return sb.toString();
    }

    private static void tableRow(final StringBuilder sb, final String label, final Step step)
    {
        sb.append(String.format(Locale.ROOT, "  %-28s%,12.0f%,14.0f%10s", label, step.inRate(), step.outRate(),
            BenchReport.ratio(step.outRate(), REFERENCE_OUT_RATE)));
        percentileCells(sb, step.histogram());
    }

    /** Appends the histogram's p50/p90/p99/p99.9/p99.99/max, us, and ends the line. */
    private static void percentileCells(final StringBuilder sb, final Histogram histogram)
    {
        for (final double percentile : PERCENTILES)
        {
            sb.append(String.format(Locale.ROOT, COLUMN,
                BenchReport.micros(BenchReport.percentile(histogram, percentile))));
        }
        sb.append('\n');
    }

    /**
     * The other subscribers' latency over the stall period, each step's and pooled, and their pooled p50 and p99
     * with one stalled against all reading, beside how far apart the runs of one kind are (a change no larger than
     * that spread cannot be told from this host's noise), and the same change over the whole window.
     */
    private static void stallComparison(
        final StringBuilder sb, final Step reading, final Step stalled, final List<Step> readingRuns,
        final List<Step> stalledRuns)
    {
        sb.append(String.format(Locale.ROOT, "%-30s%36s", "while one is stalled, us", "stall period, ms"));
        for (final String label : PERCENTILE_LABELS)
        {
            sb.append(String.format(Locale.ROOT, COLUMN, label));
        }
        sb.append('\n');
        final List<Step> rows = new ArrayList<>(stalledRuns);
        rows.addAll(readingRuns);
        rows.add(stalled);
        rows.add(reading);
        for (final Step step : rows)
        {
            sb.append(String.format(Locale.ROOT, "  %-28s%36.1f", "bourse, " + step.label() +
                (0 == step.round() ? ", pooled" : ""), step.stallPeriodNs() / 1e6));
            percentileCells(sb, step.stallHistogram());
        }
        final double p50 = change(BenchReport.percentile(stalled.stallHistogram(), 50),
            BenchReport.percentile(reading.stallHistogram(), 50));
        final double p99 = change(BenchReport.percentile(stalled.stallHistogram(), 99),
            BenchReport.percentile(reading.stallHistogram(), 99));
        sb.append(String.format(Locale.ROOT, "other subscribers while one is stalled (the stall period), pooled over " +
            "%d round%s: p50 %+.1f%%, p99 %+.1f%% (target: within %.0f%%: %s)%n", readingRuns.size(),
            1 == readingRuns.size() ? "" : "s", p50, p99, TARGET_STALL_CHANGE_PERCENT,
            Math.abs(p50) <= TARGET_STALL_CHANGE_PERCENT && Math.abs(p99) <= TARGET_STALL_CHANGE_PERCENT ?
                "met" : "not met"));
        sb.append(String.format(Locale.ROOT, "over the whole window, the stalled subscriber ended part-way: p50 " +
            "%+.1f%%, p99 %+.1f%%%n", change(BenchReport.percentile(stalled.histogram(), 50),
            BenchReport.percentile(reading.histogram(), 50)), change(BenchReport.percentile(stalled.histogram(), 99),
            BenchReport.percentile(reading.histogram(), 99))));
        if (1 == readingRuns.size())
        {
            sb.append("run-to-run noise: one run of each kind, so not measured; --stall 2 or more measures it\n");
            return;
        }
        final double reading50 = spread(readingRuns, 50);
        final double reading99 = spread(readingRuns, 99);
        final double stalled50 = spread(stalledRuns, 50);
        final double stalled99 = spread(stalledRuns, 99);
        final double noise50 = Math.max(reading50, stalled50);
        final double noise99 = Math.max(reading99, stalled99);
        final String verdict;
        if (noise50 <= TARGET_STALL_CHANGE_PERCENT && noise99 <= TARGET_STALL_CHANGE_PERCENT)
        {
            verdict = "";
        }
        else if (Math.abs(p50) <= noise50 && Math.abs(p99) <= noise99)
        {
            verdict = String.format(Locale.ROOT, " (more than the %.0f%% target, and the changes are no larger: on " +
                "this host the verdict is within the noise)", TARGET_STALL_CHANGE_PERCENT);
        }
        else
        {
            verdict = String.format(Locale.ROOT, " (more than the %.0f%% target, but a change is larger than the " +
                "noise of its percentile)", TARGET_STALL_CHANGE_PERCENT);
        }
        sb.append(String.format(Locale.ROOT, "run-to-run noise over the stall period, largest over smallest run of " +
            "the same kind: all reading p50 %.1f%%, p99 %.1f%%; one stalled p50 %.1f%%, p99 %.1f%%%s%n",
            reading50, reading99, stalled50, stalled99, verdict));
    }

    /** @return how much larger the largest of the runs' stall-period percentile is than the smallest, percent. */
    private static double spread(final List<Step> runs, final double percentile)
    {
        final long[] values = runs.stream()
            .mapToLong((step) -> BenchReport.percentile(step.stallHistogram(), percentile)).toArray();
        return change(Arrays.stream(values).max().orElseThrow(), Arrays.stream(values).min().orElseThrow());
    }

    private static void threadTable(final StringBuilder sb, final List<Step> steps)
    {
        sb.append(String.format(Locale.ROOT, "%-44s%10s%16s%16s%16s%n", "threads over the measured window", "cpu %",
            "cpu us/msg out", "writes/msg out", "reads/msg out"));
        for (final Step step : steps)
        {
            final double windowNs = step.measuredSent() * 1e9 / step.rate();
            final double out = Math.max(1, step.measuredReceived());
            for (final ThreadLoad load : step.threads())
            {
                sb.append(String.format(Locale.ROOT, "  %-42s%10.1f%16.3f%16.3f%16.3f%n",
                    step.label() + ": " + load.name(), 100.0 * load.delta().cpuNs() / windowNs,
                    load.delta().cpuNs() / 1000.0 / out, load.delta().writeCalls() / out,
                    load.delta().readCalls() / out));
            }
        }
    }

    private static double change(final long now, final long before)
    {
        return 0 == before ? Double.NaN : 100.0 * (now - before) / before;
    }

    /** Writes {@code fanout-RATE-NAME.hgrm} into the directory, if there is one. */
    private static void writeHistogram(final Path dir, final long rate, final String name, final Histogram histogram)
    {
        if (null == dir)
        {
            return;
        }
        final Path file = dir.resolve("fanout-" + rate + "-" + name + ".hgrm");
        try
        {
            Files.createDirectories(dir);
            BenchReport.writeHgrm(file, histogram);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("--hgrm-dir " + dir + ": " + ex.getMessage(), ex);
        }
    }
}
