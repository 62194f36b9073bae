package io.bourse.bench;

import io.aeron.driver.ThreadingMode;
import io.bourse.exchangecore.RampRule;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Options of {@code bourse bench ramp} ({@link EngineRamp}): exchange-core's command stream, the rates to step
 * through, how long each step lasts, the warm-up, and the engine service's idle strategy and media driver threading
 * (as {@code bench engine-service} has them, {@link ServiceBenchOptions}).
 *
 * @param commands        exchange-core {@code commands.csv(.gz)}.
 * @param rates           commands per second, one step each, in the order given; each more than 0.
 * @param stepSeconds     how long a step's schedule lasts: a step sends the first {@code rate * stepSeconds} BENCH
 *                        commands (all of them when there are fewer), more than 0 and at most 60.
 * @param warmupCommands  BENCH commands sent as fast as back pressure allows before the first step, unmeasured, so
 *                        that the engine's and the client's paths are compiled; 0 for none.
 * @param idle            idle strategy of the engine agent and of the publisher through back pressure:
 *                        {@code backoff}, {@code busy}, {@code yield} or {@code sleep}.
 * @param driverThreading threading mode of the embedded media driver.
 * @param exchangeCoreJava the JDK 17 {@code java} that runs exchange-core's pipeline at the same rates, the ramp's
 *                         baseline ({@link ExchangeCoreBaseline}): {@code auto} to find one, {@code none} to leave
 *                         the baseline out, or its path.
 * @param exchangeCoreWait exchange-core's wait strategy: {@code BUSY_SPIN}, {@code YIELDING}, {@code BLOCKING} or
 *                         {@code SECOND_STEP_NO_WAIT}.
 */
public record EngineRampOptions(
    Path commands, List<Long> rates, double stepSeconds, int warmupCommands, String idle,
    ThreadingMode driverThreading, String exchangeCoreJava, String exchangeCoreWait)
{
    /** Default rates, commands per second: the rates of exchange-core's published table ({@link EngineRamp}). */
    public static final String DEFAULT_RATES =
        "125000,250000,500000,1000000,2000000,3000000,4000000,5000000,6000000";
    /**
     * Default step length: 3 s, 375,000 commands at 125,000/s and the whole 3M BENCH stream from 1M/s (where
     * exchange-core sends all 3M at every rate); all nine default steps take under 20 s when the service keeps up,
     * the whole ramp well under 2 minutes.
     */
    public static final double DEFAULT_STEP_SECONDS = 3;
    /** Default JDK 17 for exchange-core's pipeline: {@value}, the first found ({@link ExchangeCoreBaseline#findJava}).
     */
    public static final String DEFAULT_EXCHANGE_CORE_JAVA = ExchangeCoreBaseline.AUTO;
    /**
     * Default wait strategy of exchange-core's pipeline: YIELDING, its best on the 2-core host (at 125K/s p50 15 ms;
     * BLOCKING 337 ms, BUSY_SPIN, its published latency configuration's, 492 ms: five spinning threads on two cores).
     */
    public static final String DEFAULT_EXCHANGE_CORE_WAIT = "YIELDING";
    /** Default warm-up: 1,000,000 BENCH commands, as fast as back pressure allows. */
    public static final int DEFAULT_WARMUP_COMMANDS = 1_000_000;
    /** Step length of {@link #quick()}. */
    public static final double QUICK_STEP_SECONDS = 0.5;
    /**
     * Warm-up of {@link #quick()}: as long as the default's (with 300,000 the first step's p50 was hundreds of µs on
     * the 2-core host, C2 still compiling; with 1,000,000 a few µs).
     */
    public static final int QUICK_WARMUP_COMMANDS = DEFAULT_WARMUP_COMMANDS;

    private static final double MAX_STEP_SECONDS = 60;
    private static final long MAX_RATE = 1_000_000_000L;

    /**
     * @return these options with {@link #QUICK_STEP_SECONDS} steps and a {@link #QUICK_WARMUP_COMMANDS} warm-up: the
     * {@code --quick} ramp, about 7 s on the 3M stream on the 2-core host. Its short steps give fewer samples, and the
     * last commands' latency weighs more on the achieved rate (20 ms late is 4% of a 0.5 s step).
     */
    public EngineRampOptions quick()
    {
        return new EngineRampOptions(
            commands, rates, QUICK_STEP_SECONDS, QUICK_WARMUP_COMMANDS, idle, driverThreading, exchangeCoreJava,
            exchangeCoreWait);
    }

    /**
     * Checks the options before any work starts.
     *
     * @return this.
     * @throws IllegalArgumentException naming the bad option.
     */
    public EngineRampOptions validate()
    {
        if (null == rates || rates.isEmpty())
        {
            throw new IllegalArgumentException("--rates: at least one rate is needed");
        }
        for (final Long rate : rates)
        {
            if (null == rate || rate < 1 || rate > MAX_RATE)
            {
                throw new IllegalArgumentException("--rates: each rate must be 1 to 1,000,000,000 commands/s: " + rate);
            }
        }
        if (!(stepSeconds > 0 && stepSeconds <= MAX_STEP_SECONDS))
        {
            throw new IllegalArgumentException("--step-seconds must be more than 0 and at most 60: " + stepSeconds);
        }
        if (warmupCommands < 0)
        {
            throw new IllegalArgumentException("--warmup-commands must be 0 or more: " + warmupCommands);
        }
        if (!ExchangeCoreBaseline.WAIT_STRATEGIES.contains(exchangeCoreWait))
        {
            throw new IllegalArgumentException("--exchange-core-wait must be one of " +
                ExchangeCoreBaseline.WAIT_STRATEGIES + ": " + exchangeCoreWait);
        }
        if (null == exchangeCoreJava || !(ExchangeCoreBaseline.AUTO.equals(exchangeCoreJava) ||
            ExchangeCoreBaseline.NONE.equals(exchangeCoreJava) || Files.isExecutable(Path.of(exchangeCoreJava))))
        {
            throw new IllegalArgumentException("--exchange-core-java must be auto, none or an executable java: " +
                exchangeCoreJava);
        }
        service().validate();
        return this;
    }

    /**
     * @param rate          the step's rate, commands per second.
     * @param benchCommands BENCH commands in the stream.
     * @return BENCH commands the step sends: {@code ceil(rate * stepSeconds)}, at most all of them
     * ({@link RampRule#stepCommands}).
     */
    int stepCommands(final long rate, final int benchCommands)
    {
        return RampRule.stepCommands(rate, stepSeconds, benchCommands);
    }

    /**
     * @return the engine-service options of every step: the same command file, idle strategy and driver threading
     * (warm-up, iterations and rate are the ramp's own).
     */
    ServiceBenchOptions service()
    {
        return new ServiceBenchOptions(commands, 0, 1, 0, idle, driverThreading);
    }
}
