package io.bourse.simulator;

import org.junit.jupiter.api.Test;

import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class ZipfPopularityTest
{
    private static final int SYMBOLS = 50;
    private static final int DRAWS = 500_000;

    @Test
    void shouldRankSymbolsByZipfPopularity()
    {
        final ZipfPopularity zipf = new ZipfPopularity(SYMBOLS, 1.0);
        final int[] counts = counts(zipf);

        for (int k = 1; k < 10; k++)
        {
            assertThat(counts[k]).isLessThan(counts[k - 1]);
        }
        for (int k = 0; k < SYMBOLS; k++)
        {
            assertThat(counts[k] / (double)DRAWS).isCloseTo(zipf.probability(k), within(0.004));
        }
        assertThat((double)counts[0] / counts[1]).isCloseTo(2.0, within(0.05));
        assertThat((double)counts[0] / counts[9]).isCloseTo(10.0, within(0.5));
    }

    @Test
    void shouldMakeEverySymbolEquallyPopularWithExponentZero()
    {
        final ZipfPopularity zipf = new ZipfPopularity(SYMBOLS, 0.0);
        final int[] counts = counts(zipf);

        for (int k = 0; k < SYMBOLS; k++)
        {
            assertThat(zipf.probability(k)).isCloseTo(1.0 / SYMBOLS, within(1e-12));
            assertThat(counts[k] / (double)DRAWS).isCloseTo(1.0 / SYMBOLS, within(0.002));
        }
    }

    @Test
    void shouldAlwaysPickTheOnlySymbol()
    {
        assertThat(counts(new ZipfPopularity(1, 2.0), 1)[0]).isEqualTo(DRAWS);
    }

    private static int[] counts(final ZipfPopularity zipf)
    {
        return counts(zipf, SYMBOLS);
    }

    private static int[] counts(final ZipfPopularity zipf, final int symbols)
    {
        final SplittableRandom random = new SplittableRandom(5);
        final int[] counts = new int[symbols];
        for (int i = 0; i < DRAWS; i++)
        {
            counts[zipf.sample(random)]++;
        }
        return counts;
    }
}
