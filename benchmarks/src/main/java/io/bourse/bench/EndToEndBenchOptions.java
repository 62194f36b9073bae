package io.bourse.bench;

import java.nio.file.Path;
import java.util.List;

/**
 * Options of {@code bourse bench e2e}: the open-loop rates, the OUCH sessions, how long each rate step warms up and
 * measures, and where to write the histograms.
 *
 * @param rates          orders per second over all sessions, one rate step each, in the order given.
 * @param sessions       OUCH sessions to the gateway.
 * @param warmupSeconds  unmeasured seconds at the start of every rate step, at least 0.
 * @param measureSeconds measured seconds of every rate step after the warm-up, more than 0.
 * @param hgrmDir        directory to write one {@code .hgrm} percentile distribution per rate and measure into, or
 *                       null.
 */
public record EndToEndBenchOptions(
    List<Long> rates,
    int sessions,
    double warmupSeconds,
    double measureSeconds,
    Path hgrmDir)
{
    /** Default rate steps, orders per second. */
    public static final String DEFAULT_RATES = "1000,10000,50000,100000";
    /** Default OUCH sessions: the four demo users of deploy/credentials.csv. */
    public static final int DEFAULT_SESSIONS = 4;

    /**
     * Checks the options before any work starts.
     *
     * @return this.
     * @throws IllegalArgumentException naming the bad option.
     */
    public EndToEndBenchOptions validate()
    {
        GatewayBenchOptions.validateSchedule(rates, sessions, warmupSeconds, measureSeconds, hgrmDir);
        return this;
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
}
