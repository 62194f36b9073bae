package io.bourse.bench;

import io.aeron.driver.ThreadingMode;
import io.bourse.common.aeron.AgentLaunch;
import io.bourse.common.config.Settings;
import org.agrona.concurrent.IdleStrategy;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Options of {@code bourse bench engine-service}: the command stream, warm-up and measured iterations, the offered
 * rate, the idle strategy of the engine and of the benchmark's publisher (the subscriber always polls in a yielding
 * loop, see {@link EngineServiceBenchmark}), and the embedded media driver's threading mode.
 *
 * @param commands        exchange-core {@code commands.csv(.gz)}.
 * @param warmup          unmeasured iterations first, at least 0.
 * @param iterations      measured iterations, at least 1.
 * @param rate            commands per second offered on a fixed schedule (open loop), or 0 for as fast as back
 *                        pressure allows.
 * @param idle            idle strategy of the engine agent and of the publisher through back pressure, by name as
 *                        {@link AgentLaunch#idleStrategy(Settings)} knows them: {@code backoff}, {@code busy},
 *                        {@code yield} or {@code sleep}.
 * @param driverThreading threading mode of the embedded media driver.
 */
public record ServiceBenchOptions(
    Path commands, int warmup, int iterations, long rate, String idle, ThreadingMode driverThreading)
{
    /** Default warm-up iterations: a few full passes, enough for C2 to compile the engine's and the client's paths. */
    public static final int DEFAULT_WARMUP = 3;
    /** Default measured iterations: each service pass of the 3M-command stream takes seconds. */
    public static final int DEFAULT_ITERATIONS = 5;
    /** Default rate: 0, as fast as back pressure allows (throughput). */
    public static final long DEFAULT_RATE = 0;
    /**
     * Default idle strategy: {@code backoff}, every Bourse service's default. With the engine and the publisher
     * busy-spinning beside the yielding subscriber, a 2-core host would have three threads that never sleep on two
     * cores; {@code busy} is for hosts with a core per thread.
     */
    public static final String DEFAULT_IDLE = "backoff";
    /**
     * Default driver threading mode: SHARED, one driver thread. Over {@code aeron:ipc} the sender and receiver have
     * nothing to do, so DEDICATED only adds two threads competing for the cores the engine and the client use.
     */
    public static final String DEFAULT_DRIVER_THREADING_NAME = "SHARED";
    /** {@link #DEFAULT_DRIVER_THREADING_NAME} as a threading mode. */
    public static final ThreadingMode DEFAULT_DRIVER_THREADING = ThreadingMode.valueOf(DEFAULT_DRIVER_THREADING_NAME);

    /**
     * Checks the options before any work starts.
     *
     * @return this.
     * @throws IllegalArgumentException naming the bad option.
     */
    public ServiceBenchOptions validate()
    {
        if (null == commands || !Files.isRegularFile(commands))
        {
            throw new IllegalArgumentException("--commands: no such file: " + commands +
                " (exchange-core's commands.csv.gz, see ../shared/data/exchange-core/README.md)");
        }
        if (warmup < 0)
        {
            throw new IllegalArgumentException("--warmup must be 0 or more: " + warmup);
        }
        if (iterations < 1)
        {
            throw new IllegalArgumentException("--iterations must be 1 or more: " + iterations);
        }
        if (rate < 0 || rate > 1_000_000_000L)
        {
            throw new IllegalArgumentException("--rate must be 0 (as fast as possible) to 1,000,000,000: " + rate);
        }
        if (null == driverThreading || ThreadingMode.INVOKER == driverThreading)
        {
            throw new IllegalArgumentException("--driver-threading must be SHARED, SHARED_NETWORK or DEDICATED " +
                "(INVOKER would need the benchmark to run the driver's duty cycle): " + driverThreading);
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
}
