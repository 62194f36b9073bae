package io.bourse.bench;

import io.aeron.driver.ThreadingMode;
import io.bourse.common.aeron.AgentLaunch;
import io.bourse.common.config.Settings;
import org.agrona.concurrent.IdleStrategy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Options of {@code bourse bench gateway}: the open-loop rates, the connections, the exchange's shards, how long each
 * rate step warms up and measures, the idle strategy of the server threads and the embedded media driver's threading
 * mode, and where to write the histograms.
 *
 * @param rates           orders per second over all connections, one rate step each, in the order given.
 * @param sessions        OUCH sessions to the gateway, and as many TCP connections to the floor's echo server.
 * @param shards          matching-engine shards, one symbol each.
 * @param warmupSeconds   unmeasured seconds at the start of every rate step, at least 0.
 * @param measureSeconds  measured seconds of every rate step after the warm-up, more than 0.
 * @param idle            idle strategy of the server threads (gateway, engine shards and the floor's echo server),
 *                        by name as {@link AgentLaunch#idleStrategy(Settings)} knows them: {@code backoff},
 *                        {@code busy}, {@code yield} or {@code sleep}.
 * @param layout          whether the gateway and the engine shards share one thread or have one each.
 * @param driverThreading threading mode of the embedded media driver.
 * @param hgrmDir         directory to write one {@code .hgrm} percentile distribution per path and rate into, or null.
 */
public record GatewayBenchOptions(
    List<Long> rates,
    int sessions,
    int shards,
    double warmupSeconds,
    double measureSeconds,
    String idle,
    ThreadLayout layout,
    ThreadingMode driverThreading,
    Path hgrmDir)
{
    /** Default rate steps, orders per second: from light load to the 500,000 target. */
    public static final String DEFAULT_RATES = "10000,50000,100000,200000,500000";
    /** Default connections per path: a few, so that the gateway serves several sessions per duty cycle. */
    public static final int DEFAULT_SESSIONS = 4;
    /** Default shards: one, so that a 2-core host runs one engine thread beside the gateway and the client. */
    public static final int DEFAULT_SHARDS = 1;
    /** Default warm-up per rate step, seconds: enough for C2 to compile the client's and the servers' paths. */
    public static final double DEFAULT_WARMUP_SECONDS = 2;
    /** Default measured time per rate step, seconds. */
    public static final double DEFAULT_MEASURE_SECONDS = 5;
    /** Default server idle strategy: {@code backoff}, every Bourse service's default. */
    public static final String DEFAULT_IDLE = "backoff";
    /** Default thread layout: the gateway and the shards share one thread, so a 2-core host keeps a core free. */
    public static final String DEFAULT_LAYOUT_NAME = "SHARED";
    /** Default driver threading mode: one driver thread (nothing moves through it over {@code aeron:ipc}). */
    public static final String DEFAULT_DRIVER_THREADING_NAME = "SHARED";
    /** Most shards: one symbol each from {@link #SYMBOLS}. */
    public static final int MAX_SHARDS = 4;
    /** Most sessions: the benchmark's user names carry two digits. */
    public static final int MAX_SESSIONS = 100;
    /** Highest rate step, orders per second. */
    public static final long MAX_RATE = 10_000_000L;
    /** The symbol of shard k is the k-th. */
    static final List<String> SYMBOLS = List.of("AAPL", "MSFT", "GOOG", "AMZN");

    /**
     * Checks the options before any work starts.
     *
     * @return this.
     * @throws IllegalArgumentException naming the bad option.
     */
    public GatewayBenchOptions validate()
    {
        validateSchedule(rates, sessions, warmupSeconds, measureSeconds, hgrmDir);
        if (shards < 1 || shards > MAX_SHARDS)
        {
            throw new IllegalArgumentException("--shards must be 1 to " + MAX_SHARDS + ": " + shards);
        }
        if (null == layout)
        {
            throw new IllegalArgumentException("--layout must be SHARED or DEDICATED");
        }
        if (null == driverThreading || ThreadingMode.INVOKER == driverThreading)
        {
            throw new IllegalArgumentException("--driver-threading must be SHARED, SHARED_NETWORK or DEDICATED: " +
                driverThreading);
        }
        IdleOption.validate(idle);
        return this;
    }

    /**
     * Checks the options an open-loop order benchmark ({@code bench gateway}, {@code bench e2e}) shares.
     *
     * @param rates          orders per second, one step each.
     * @param sessions       OUCH sessions.
     * @param warmupSeconds  unmeasured seconds per step.
     * @param measureSeconds measured seconds per step.
     * @param hgrmDir        the histogram directory, or null.
     * @throws IllegalArgumentException naming the bad option.
     */
    static void validateSchedule(
        final List<Long> rates, final int sessions, final double warmupSeconds, final double measureSeconds,
        final Path hgrmDir)
    {
        if (null == rates || rates.isEmpty() || rates.stream().anyMatch((rate) -> null == rate || rate < 2 ||
            rate > MAX_RATE))
        {
            throw new IllegalArgumentException("--rates must list rates of 2 to " + MAX_RATE + " orders/s: " + rates);
        }
        if (sessions < 1 || sessions > MAX_SESSIONS)
        {
            throw new IllegalArgumentException("--sessions must be 1 to " + MAX_SESSIONS + ": " + sessions);
        }
        if (!(warmupSeconds >= 0) || warmupSeconds > TimeUnit.HOURS.toSeconds(1))
        {
            throw new IllegalArgumentException("--warmup must be 0 to 3600 seconds: " + warmupSeconds);
        }
        if (!(measureSeconds > 0) || measureSeconds > TimeUnit.HOURS.toSeconds(1))
        {
            throw new IllegalArgumentException("--seconds must be more than 0 and at most 3600: " + measureSeconds);
        }
        if (null != hgrmDir && Files.exists(hgrmDir) && !Files.isDirectory(hgrmDir))
        {
            throw new IllegalArgumentException("--hgrm-dir is not a directory: " + hgrmDir);
        }
    }

    /**
     * @param spec comma-separated orders per second, e.g. {@code 10000,50000}; {@code _} and {@code k} allowed
     *             ({@code 10_000}, {@code 10k}).
     * @return the rates in the order given.
     * @throws IllegalArgumentException naming the bad entry.
     */
    public static List<Long> parseRates(final String spec)
    {
        return Arrays.stream(spec.split(",")).map(String::trim).map((entry) ->
        {
            final String digits = entry.replace("_", "");
            final boolean thousands = digits.endsWith("k") || digits.endsWith("K");
            try
            {
                final long value = Long.parseLong(thousands ? digits.substring(0, digits.length() - 1) : digits);
                return thousands ? Math.multiplyExact(value, 1_000L) : value;
            }
            catch (final NumberFormatException | ArithmeticException ex)
            {
                throw new IllegalArgumentException("--rates: not a rate: '" + entry + "'", ex);
            }
        }).toList();
    }

    /** @return the warm-up per rate step in nanoseconds. */
    long warmupNs()
    {
        return Math.round(warmupSeconds * 1e9);
    }

    /** @return the measured time per rate step in nanoseconds. */
    long measureNs()
    {
        return Math.round(measureSeconds * 1e9);
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
}
