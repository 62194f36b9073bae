package io.bourse.bench;

import io.bourse.common.aeron.AgentLaunch;
import io.bourse.common.config.Settings;
import org.agrona.concurrent.IdleStrategy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * Options of {@code bourse bench fanout}: the input rate, the subscribers, how long the step warms up and measures,
 * the fanout's workers, the client threads that read the subscribers, how many rounds compare the others' latency
 * with one subscriber stalled, and where to write the histograms.
 *
 * @param rate           market-data messages per second offered to the fanout, on a fixed schedule.
 * @param subscribers    SoupBinTCP subscriber connections, each subscribed to every symbol.
 * @param warmupSeconds  unmeasured seconds at the start of the step, at least 0.
 * @param measureSeconds measured seconds after the warm-up, more than 0.
 * @param workers        the fanout's worker threads, each serving a group of subscribers.
 * @param readers        client threads reading the subscribers (round robin over the threads).
 * @param idle           idle strategy of the fanout's threads, by name as {@link AgentLaunch#idleStrategy(Settings)}
 *                       knows them: {@code backoff} (the fanout's default), {@code busy}, {@code yield} or
 *                       {@code sleep}.
 * @param stallRounds    0 for no stall; else the rounds of the stall comparison, each a step with all subscribers
 *                       reading and a step with one of them not reading during the measured window, in the order
 *                       BAAB (one stalled first in odd rounds, all reading first in even ones) so that the host's
 *                       drift and the JIT's warming fall on both kinds alike.
 * @param hgrmDir        directory to write one {@code .hgrm} percentile distribution per step into, or null.
 */
public record FanoutBenchOptions(
    long rate,
    int subscribers,
    double warmupSeconds,
    double measureSeconds,
    int workers,
    int readers,
    String idle,
    int stallRounds,
    Path hgrmDir)
{
    /** Default input rate, messages/s: with 100 subscribers, 1,000,000 messages/s out, about 50x the reference. */
    public static final long DEFAULT_RATE = 10_000;
    /** Default subscribers, as issue 5 asks. */
    public static final int DEFAULT_SUBSCRIBERS = 100;
    /** Default warm-up, seconds: enough for C2 to compile the fanout's and the clients' paths. */
    public static final double DEFAULT_WARMUP_SECONDS = 2;
    /** Default measured time, seconds. */
    public static final double DEFAULT_MEASURE_SECONDS = 5;
    /** Default fanout workers, the fanout's own default for a 2-core host. */
    public static final int DEFAULT_WORKERS = 2;
    /** Default client reader threads: one, so that a 2-core host keeps a core for the fanout. */
    public static final int DEFAULT_READERS = 1;
    /** Default idle strategy of the fanout's threads: {@code backoff}, every Bourse service's default. */
    public static final String DEFAULT_IDLE = "backoff";
    /** Most subscribers: the benchmark's user names carry three digits. */
    public static final int MAX_SUBSCRIBERS = 999;
    /** Most workers or readers. */
    public static final int MAX_THREADS = 16;
    /** Rounds of the stall comparison with {@code --stall} and no count: BAAB, each kind measured twice. */
    public static final int DEFAULT_STALL_ROUNDS = 2;
    /** Most rounds of the stall comparison. */
    public static final int MAX_STALL_ROUNDS = 10;
    /** Highest input rate, messages per second. */
    public static final long MAX_RATE = 10_000_000L;

    /**
     * Checks the options before any work starts.
     *
     * @return this.
     * @throws IllegalArgumentException naming the bad option.
     */
    public FanoutBenchOptions validate()
    {
        if (rate < 1 || rate > MAX_RATE)
        {
            throw new IllegalArgumentException("--rate must be 1 to " + MAX_RATE + " messages/s: " + rate);
        }
        if (stallRounds < 0 || stallRounds > MAX_STALL_ROUNDS)
        {
            throw new IllegalArgumentException("--stall must be 0 (none) to " + MAX_STALL_ROUNDS + " rounds: " +
                stallRounds);
        }
        if (subscribers < (stall() ? 2 : 1) || subscribers > MAX_SUBSCRIBERS)
        {
            throw new IllegalArgumentException("--subscribers must be " + (stall() ? "2 (with --stall)" : "1") +
                " to " + MAX_SUBSCRIBERS + ": " + subscribers);
        }
        if (!(warmupSeconds >= 0) || warmupSeconds > TimeUnit.HOURS.toSeconds(1))
        {
            throw new IllegalArgumentException("--warmup must be 0 to 3600 seconds: " + warmupSeconds);
        }
        if (!(measureSeconds > 0) || measureSeconds > TimeUnit.HOURS.toSeconds(1))
        {
            throw new IllegalArgumentException("--seconds must be more than 0 and at most 3600: " + measureSeconds);
        }
        if (workers < 1 || workers > MAX_THREADS)
        {
            throw new IllegalArgumentException("--workers must be 1 to " + MAX_THREADS + ": " + workers);
        }
        if (readers < 1 || readers > MAX_THREADS)
        {
            throw new IllegalArgumentException("--readers must be 1 to " + MAX_THREADS + ": " + readers);
        }
        if (measuredCount() < 1)
        {
            throw new IllegalArgumentException("--rate x --seconds must be at least one message: " + rate + " x " +
                measureSeconds);
        }
        if (null != hgrmDir && Files.exists(hgrmDir) && !Files.isDirectory(hgrmDir))
        {
            throw new IllegalArgumentException("--hgrm-dir is not a directory: " + hgrmDir);
        }
        IdleOption.validate(idle);
        return this;
    }

    /**
     * @return a new instance of the {@link #idle()} strategy (one per thread); a {@code -Dbourse.idle.strategy}
     * system property takes precedence, as it does for every Bourse service.
     * @throws IllegalArgumentException for an unknown name.
     */
    IdleStrategy newIdleStrategy()
    {
        return IdleOption.newIdleStrategy(idle);
    }

    /** @return true when the run compares the other subscribers' latency with and without one stalled. */
    boolean stall()
    {
        return stallRounds > 0;
    }

    /** @return messages sent during the warm-up: the first ones of the schedule. */
    long warmupCount()
    {
        return Math.round(warmupSeconds * rate);
    }

    /** @return messages sent during the measured window, after the warm-up ones. */
    long measuredCount()
    {
        return Math.round(measureSeconds * rate);
    }
}
