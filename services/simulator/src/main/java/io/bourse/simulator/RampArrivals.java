package io.bourse.simulator;

/**
 * Fixed rate raised step by step: step {@code k} lasts {@code stepNs} and runs at {@link Ramp#rateOfStep(int)};
 * after the step at the maximum rate the rate stays there. Whether the ramp goes on is decided by {@link Ramp} from
 * the latencies, which stops the sender.
 */
public final class RampArrivals implements ArrivalProcess
{
    private final Ramp ramp;
    private long stepStartNs;
    private long rate;
    private long indexInStep;

    /**
     * @param ramp the rate schedule.
     */
    public RampArrivals(final Ramp ramp)
    {
        this.ramp = ramp;
    }

    @Override
    public void start(final long startNs)
    {
        stepStartNs = startNs;
        rate = ramp.rateOfStep(0);
        indexInStep = 0;
    }

    @Override
    public long next()
    {
        long intendedNs = SteadyArrivals.intendedNs(stepStartNs, rate, indexInStep);
        while (intendedNs - (stepStartNs + ramp.stepNs()) >= 0 && rate < ramp.maxRate())
        {
            stepStartNs += ramp.stepNs();
            rate = Math.min(ramp.maxRate(), rate + ramp.stepRate());
            indexInStep = 0;
            intendedNs = stepStartNs;
        }
        indexInStep++;
        return intendedNs;
    }
}
