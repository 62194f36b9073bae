package io.bourse.simulator;

/**
 * Paced microbursts: bursts of {@code burstSize} orders spaced at the high {@code burstRate}, one burst every
 * {@code burstSize / rate} seconds, so the mean rate is {@code rate} while the instantaneous rate within a burst is
 * {@code burstRate} (the seeds' batch-and-pace sender: batches on the wire, a pause between them).
 */
public final class MicroburstArrivals implements ArrivalProcess
{
    private static final long NANOS_PER_SECOND = 1_000_000_000L;

    private final long rate;
    private final int burstSize;
    private final long burstRate;
    private long startNs;
    private long index;

    /**
     * @param rate      mean orders per second, at least 1.
     * @param burstSize orders per burst, at least 1.
     * @param burstRate orders per second within a burst, at least {@code rate}.
     */
    public MicroburstArrivals(final long rate, final int burstSize, final long burstRate)
    {
        this.rate = rate;
        this.burstSize = burstSize;
        this.burstRate = burstRate;
    }

    @Override
    public void start(final long startNs)
    {
        this.startNs = startNs;
        index = 0;
    }

    @Override
    public long next()
    {
        final long inBurst = index % burstSize;
        final long burstStartNs = SteadyArrivals.intendedNs(startNs, rate, index - inBurst);
        index++;
        return burstStartNs + inBurst * NANOS_PER_SECOND / burstRate;
    }
}
