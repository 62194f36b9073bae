package io.bourse.simulator;

import java.util.SplittableRandom;

/**
 * Which symbol an order is for: symbol {@code k} (0-based, directory order) has probability proportional to
 * {@code 1 / (k + 1)^s} (Zipf's law with exponent {@code s}), so the first symbols of the directory are the busy ones;
 * exponent 0 is uniform. Sampling is a binary search of the precomputed cumulative distribution: no allocation.
 */
public final class ZipfPopularity
{
    private final double[] cumulative;

    /**
     * @param symbolCount number of symbols, at least 1.
     * @param exponent    Zipf exponent {@code s}, at least 0.
     */
    public ZipfPopularity(final int symbolCount, final double exponent)
    {
        cumulative = new double[symbolCount];
        double sum = 0.0;
        for (int k = 0; k < symbolCount; k++)
        {
            sum += Math.pow(k + 1, -exponent);
            cumulative[k] = sum;
        }
        for (int k = 0; k < symbolCount; k++)
        {
            cumulative[k] /= sum;
        }
    }

    /**
     * @param rank symbol index from 0.
     * @return its probability.
     */
    public double probability(final int rank)
    {
        return 0 == rank ? cumulative[0] : cumulative[rank] - cumulative[rank - 1];
    }

    /**
     * @param random source of the uniform draw.
     * @return a symbol index drawn with the Zipf probabilities.
     */
    public int sample(final SplittableRandom random)
    {
        final double u = random.nextDouble();
        int low = 0;
        int high = cumulative.length - 1;
        while (low < high)
        {
            final int middle = (low + high) >>> 1;
            if (cumulative[middle] > u)
            {
                high = middle;
            }
            else
            {
                low = middle + 1;
            }
        }
        return low;
    }
}
