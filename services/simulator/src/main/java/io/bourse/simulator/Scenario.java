package io.bourse.simulator;

import java.util.Arrays;
import java.util.Locale;

/**
 * A named load shape, chosen with {@code bourse.simulator.scenario} ({@code BOURSE_SIMULATOR_SCENARIO}): when orders
 * are due ({@link ArrivalProcess}) and what they are ({@link OrderMix}). Every scenario is open loop and measures
 * round trips from the intended send times (coordinated-omission corrected).
 */
public enum Scenario
{
    /** Fixed rate, the default order mix. */
    STEADY,
    /**
     * Fixed rate, exchange-core's benchmark mix (mostly replaces, then cancels and partial cancels), each session
     * holding its book around {@code book.target} resting orders per symbol.
     */
    EXCHANGE_CORE,
    /** Poisson arrivals (exponential gaps) at the mean rate, the default order mix. */
    POISSON,
    /** Self-exciting Hawkes arrivals ({@code hawkes.alpha}, {@code hawkes.beta}) at the mean rate. */
    HAWKES,
    /** Bursts of {@code burst.size} orders at {@code burst.rate}, paced so the mean is the rate. */
    MICROBURST,
    /** Fixed rate, symbols drawn with Zipf popularity ({@code zipf.exponent}), first symbol busiest. */
    SKEWED,
    /**
     * Fixed rate raised by {@code ramp.step} every {@code ramp.interval.ms} from the rate up to {@code ramp.max},
     * stopping at the first step whose round-trip p99 exceeds {@code ramp.p99.limit.us}.
     */
    RAMP;

    /** @return the name used in settings, e.g. {@code exchange-core}. */
    public String settingName()
    {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /**
     * @param name setting value, case-insensitive, e.g. {@code hawkes}.
     * @return the scenario.
     * @throws IllegalArgumentException naming the known scenarios if the name is not one of them.
     */
    public static Scenario of(final String name)
    {
        for (final Scenario scenario : values())
        {
            if (scenario.settingName().equalsIgnoreCase(name.trim()))
            {
                return scenario;
            }
        }
        throw new IllegalArgumentException("unknown scenario '" + name + "', expected one of " +
            Arrays.stream(values()).map(Scenario::settingName).toList());
    }

    /**
     * @param ctx  the run's settings.
     * @param ramp the ramp rule for {@link #RAMP}, else unused (may be null).
     * @return the arrival process of this scenario.
     */
    ArrivalProcess arrivals(final SimulatorContext ctx, final Ramp ramp)
    {
        return switch (this)
        {
            case POISSON -> new PoissonArrivals(ctx.rate(), ctx.seed());
            case HAWKES -> new HawkesArrivals(ctx.rate(), ctx.hawkesAlpha(), ctx.hawkesBeta(), ctx.seed());
            case MICROBURST -> new MicroburstArrivals(ctx.rate(), ctx.burstSize(), ctx.burstRate());
            case RAMP -> new RampArrivals(ramp);
            default -> new SteadyArrivals(ctx.rate());
        };
    }

    /**
     * @param ctx         the run's settings.
     * @param symbolCount symbols in the directory.
     * @return the order mix of this scenario.
     */
    OrderMix orderMix(final SimulatorContext ctx, final int symbolCount)
    {
        return switch (this)
        {
            case EXCHANGE_CORE -> new OrderFlowGenerator(symbolCount, ctx.seed(),
                OrderFlowGenerator.EXCHANGE_CORE.withBookTarget((int)ctx.sessionBookTarget()), 0.0);
            case SKEWED -> new OrderFlowGenerator(symbolCount, ctx.seed(), OrderFlowGenerator.DEFAULT,
                ctx.zipfExponent());
            default -> new OrderFlowGenerator(symbolCount, ctx.seed());
        };
    }
}
