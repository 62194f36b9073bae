package io.bourse.simulator;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class ArrivalProcessTest
{
    private static final long START_NS = 5_000_000_000L;
    private static final long RATE = 1_000;
    private static final int DRAWS = 200_000;
    private static final long WINDOW_NS = 100_000_000L;

    @Test
    void shouldSpaceSteadyArrivalsEvenlyFromTheStart()
    {
        assertThat(draw(new SteadyArrivals(4), 5)).isEqualTo(List.of(
            START_NS, START_NS + 250_000_000L, START_NS + 500_000_000L, START_NS + 750_000_000L,
            START_NS + 1_000_000_000L));
    }

    @Test
    void shouldGivePoissonArrivalsTheConfiguredMeanRateAndPoissonCounts()
    {
        final long[] times = times(new PoissonArrivals(RATE, 3), DRAWS);

        assertThat(meanRate(times)).isCloseTo(RATE, within(RATE * 0.02));
        assertThat(dispersion(times)).isCloseTo(1.0, within(0.15));
    }

    @Test
    void shouldGiveHawkesArrivalsTheConfiguredMeanRate()
    {
        final long[] times = times(new HawkesArrivals(RATE, 50.0, 100.0, 3), DRAWS);

        assertThat(meanRate(times)).isCloseTo(RATE, within(RATE * 0.03));
    }

    @Test
    void shouldClusterHawkesArrivalsMoreThanPoissonWhenSelfExciting()
    {
        final double hawkes = dispersion(times(new HawkesArrivals(RATE, 50.0, 100.0, 3), DRAWS));
        final double poisson = dispersion(times(new PoissonArrivals(RATE, 3), DRAWS));

        assertThat(hawkes).isGreaterThan(2.0).isGreaterThan(poisson * 2.0);
    }

    @Test
    void shouldSetTheHawkesBackgroundRateSoThatTheMeanIsTheRate()
    {
        assertThat(new HawkesArrivals(RATE, 30.0, 120.0, 1).mu()).isCloseTo(750.0, within(1e-9));
    }

    @Test
    void shouldRepeatTheSameArrivalsForTheSameSeedAfterARestart()
    {
        final HawkesArrivals hawkes = new HawkesArrivals(RATE, 50.0, 100.0, 9);

        assertThat(draw(hawkes, 1_000)).isEqualTo(draw(hawkes, 1_000)).isNotEqualTo(
            draw(new HawkesArrivals(RATE, 50.0, 100.0, 10), 1_000));
    }

    @Test
    void shouldSendMicroburstsAtTheBurstRateEveryBurstPeriod()
    {
        final List<Long> times = draw(new MicroburstArrivals(1_000, 4, 1_000_000), 9);

        assertThat(times).isEqualTo(List.of(
            START_NS, START_NS + 1_000, START_NS + 2_000, START_NS + 3_000,
            START_NS + 4_000_000, START_NS + 4_001_000, START_NS + 4_002_000, START_NS + 4_003_000,
            START_NS + 8_000_000));
    }

    @Test
    void shouldKeepTheMeanRateOfMicrobursts()
    {
        final long[] times = times(new MicroburstArrivals(RATE, 40, 1_000_000), 40 * 1_000);

        assertThat(meanRate(times)).isCloseTo(RATE, within(RATE * 0.01));
    }

    @Test
    void shouldRaiseTheRampRateEveryStepUpToTheMaximum()
    {
        final Ramp ramp = new Ramp(2, 2, 5, 1_000_000_000L, 1_000, (step, histogram) -> { });

        assertThat(draw(new RampArrivals(ramp), 2 + 4 + 5 + 2)).isEqualTo(List.of(
            START_NS, START_NS + 500_000_000L,
            START_NS + 1_000_000_000L, START_NS + 1_250_000_000L, START_NS + 1_500_000_000L, START_NS + 1_750_000_000L,
            START_NS + 2_000_000_000L, START_NS + 2_200_000_000L, START_NS + 2_400_000_000L,
            START_NS + 2_600_000_000L, START_NS + 2_800_000_000L,
            START_NS + 3_000_000_000L, START_NS + 3_200_000_000L));
    }

    private static List<Long> draw(final ArrivalProcess arrivals, final int count)
    {
        arrivals.start(START_NS);
        final List<Long> times = new ArrayList<>();
        for (int i = 0; i < count; i++)
        {
            times.add(arrivals.next());
        }
        return times;
    }

    private static long[] times(final ArrivalProcess arrivals, final int count)
    {
        arrivals.start(START_NS);
        final long[] times = new long[count];
        long previous = START_NS;
        for (int i = 0; i < count; i++)
        {
            times[i] = arrivals.next();
            assertThat(times[i]).isGreaterThanOrEqualTo(previous);
            previous = times[i];
        }
        return times;
    }

    private static double meanRate(final long[] times)
    {
        return times.length * 1e9 / (times[times.length - 1] - START_NS);
    }

    /** Variance over mean of the counts per 100 ms window: 1 for Poisson arrivals, above 1 for clustered ones. */
    private static double dispersion(final long[] times)
    {
        final int windows = (int)((times[times.length - 1] - START_NS) / WINDOW_NS);
        final long[] counts = new long[windows];
        for (final long time : times)
        {
            final int window = (int)((time - START_NS) / WINDOW_NS);
            if (window < windows)
            {
                counts[window]++;
            }
        }
        double sum = 0.0;
        double squares = 0.0;
        for (final long count : counts)
        {
            sum += count;
            squares += (double)count * count;
        }
        final double mean = sum / windows;
        return (squares / windows - mean * mean) / mean;
    }
}
