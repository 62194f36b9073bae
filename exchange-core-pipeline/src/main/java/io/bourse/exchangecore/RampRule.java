package io.bourse.exchangecore;

import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * How {@code bourse bench ramp} sizes and judges a rate step, one rule for both sides of its JVM split: Bourse's
 * steps (the benchmarks) and exchange-core's ({@link ExchangeCorePipelineRamp}, on a JDK 17). A step sends the first
 * {@code rate * stepSeconds} BENCH commands; it is broken when it achieves less than {@value #SUSTAINED_FRACTION} of
 * its rate or its median latency is above {@link #P50_LIMIT_NS} ns (1 ms: the engine no longer keeps up and commands
 * queue), and a ramp stops after its first broken step.
 */
public final class RampRule
{
    /** Fraction of the target rate a step must achieve not to be broken. */
    public static final double SUSTAINED_FRACTION = 0.99;
    /** Median latency above which a step is broken: 1 ms, in ns. */
    public static final long P50_LIMIT_NS = TimeUnit.MILLISECONDS.toNanos(1);

    private RampRule()
    {
    }

    /**
     * @param rate          the step's rate, commands per second.
     * @param stepSeconds   how long the step's schedule lasts, s.
     * @param benchCommands BENCH commands in the stream.
     * @return BENCH commands the step sends: {@code ceil(rate * stepSeconds)}, at least 1, at most all of them.
     */
    public static int stepCommands(final long rate, final double stepSeconds, final int benchCommands)
    {
        return (int)Math.min(benchCommands, Math.max(1, (long)Math.ceil(rate * stepSeconds)));
    }

    /**
     * @param targetRate   commands per second offered.
     * @param achievedRate commands per second achieved, from the first intended send to the last result.
     * @param p50Ns        the step's median latency, ns.
     * @return why the step is broken (its achieved rate under {@value #SUSTAINED_FRACTION} of the target, else its
     * p50 over {@link #P50_LIMIT_NS}, in µs); null when it is not.
     */
    public static String breakReason(final long targetRate, final double achievedRate, final long p50Ns)
    {
        if (achievedRate < SUSTAINED_FRACTION * targetRate)
        {
            return String.format(Locale.ROOT, "achieved %,.0f commands/s, under %.0f%% of %,d", achievedRate,
                SUSTAINED_FRACTION * 100, targetRate);
        }
        if (p50Ns > P50_LIMIT_NS)
        {
            return String.format(Locale.ROOT, "p50 %,.1f µs over %,.1f µs", p50Ns / 1000.0, P50_LIMIT_NS / 1000.0);
        }
        return null;
    }
}
