package io.bourse.bench;

import org.HdrHistogram.Histogram;

import java.util.List;

/**
 * The outcome of one path at one rate: what was sent and answered in the measured window, and its round trips.
 *
 * @param path             "TCP floor" or "gateway".
 * @param rate             target requests per second over all connections.
 * @param measuredSent     requests sent whose intended send time fell in the measured window.
 * @param notSent          requests of the schedule not sent by its end plus a grace second (the client was held back
 *                         by {@link RoundTripConnection#MAX_IN_FLIGHT}); none when the path kept up.
 * @param unsettled        requests without an answer when the drain ended, plus orders accepted but not executed.
 * @param errors           unknown answers, rejects and malformed messages.
 * @param achievedRate     measured answers per second, from the start of the measured window to the later of its
 *                         end and the last measured answer.
 * @param requestsPerWrite requests per socket write over the step (more than 1 when the client sent late requests in
 *                         one go).
 * @param histogram        measured round trips, ns, coordinated-omission corrected.
 * @param servers          the system calls of the path's server threads per request over the whole step.
 */
record RateStep(
    String path,
    long rate,
    long measuredSent,
    long notSent,
    long unsettled,
    long errors,
    double achievedRate,
    double requestsPerWrite,
    Histogram histogram,
    List<ServerLoad> servers)
{
    /**
     * The system calls and CPU time server threads used per request of a step (warm-up, measured window and drain),
     * from {@link ThreadActivity}.
     *
     * @param name             the threads, e.g. "gateway thread".
     * @param readsPerRequest  read system calls.
     * @param writesPerRequest write system calls.
     * @param cpuUsPerRequest  microseconds on a CPU, idle spinning included.
     */
    record ServerLoad(String name, double readsPerRequest, double writesPerRequest, double cpuUsPerRequest)
    {
    }

    /** Fraction of the target rate a step must achieve to count as sustained. */
    static final double SUSTAINED_FRACTION = 0.99;

    /**
     * @param p99LimitNs the latency bound.
     * @return true when every request was sent and answered (and every order executed) without error, at 99% of the
     * rate or more, with a p99 under the bound.
     */
    boolean sustained(final long p99LimitNs)
    {
        return 0 == notSent && 0 == unsettled && 0 == errors && achievedRate >= SUSTAINED_FRACTION * rate &&
            histogram.getTotalCount() > 0 && histogram.getValueAtPercentile(99) < p99LimitNs;
    }
}
