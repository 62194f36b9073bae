package io.bourse.simulator;

import org.HdrHistogram.Histogram;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The ramp scenario's rule: the rate starts at {@code startRate} and rises by {@code stepRate} every {@code stepNs}
 * up to {@code maxRate}; after each step the round trips of that step are judged, and the ramp stops at the first
 * step that breaks, or after the step at the maximum rate. A step breaks when its p99 exceeds {@code p99LimitNs}, or
 * when fewer than {@value #MIN_ANSWERED_PERCENT}% of the Enter Orders it sent were answered within it (an exchange
 * that stalls leaves no round trip to judge). Called from one thread (the progress thread); the steps are kept for the
 * end-of-run table.
 */
public final class Ramp
{
    /** Least share of a step's Enter Orders answered within the step, in percent, for the step not to break. */
    public static final int MIN_ANSWERED_PERCENT = 90;

    /** Told about every judged step, e.g. to write its histogram. */
    @FunctionalInterface
    public interface Listener
    {
        /**
         * @param step      the step's row.
         * @param roundTrip the step's round trips in ns, valid during the call.
         */
        void onStep(Step step, Histogram roundTrip);
    }

    /**
     * One row of the ramp table; latencies in ns (coordinated-omission corrected round trips).
     *
     * @param index  step number from 0.
     * @param rate   target orders per second of the step.
     * @param sent   Enter Orders sent during the step.
     * @param count  round trips measured: Enter Orders answered during the step.
     * @param p50Ns  median.
     * @param p90Ns  90th percentile.
     * @param p99Ns  99th percentile.
     * @param p999Ns 99.9th percentile.
     * @param maxNs  largest.
     * @param broke  true when the p99 exceeded the limit or too few of the Enter Orders due were answered.
     * @param notSent Enter Orders due during the step but not sent, no OUCH session being logged in: an estimate, as
     *                the schedule's orders not sent have no type; see {@link #enterOrdersNotSent}.
     */
    public record Step(int index, long rate, long sent, long count, long p50Ns, long p90Ns, long p99Ns, long p999Ns,
        long maxNs, boolean broke, long notSent)
    {
        /**
         * @return true when fewer than {@value #MIN_ANSWERED_PERCENT}% of the Enter Orders due (sent, or not sent for
         *         want of a session) were answered.
         */
        public boolean isUnanswered()
        {
            return tooFewAnswered(count, sent + notSent);
        }
    }

    private final long startRate;
    private final long stepRate;
    private final long maxRate;
    private final long stepNs;
    private final long p99LimitNs;
    private final Listener listener;
    private final List<Step> steps = new ArrayList<>();
    private boolean done;

    /**
     * @param startRate  orders per second of the first step, at least 1.
     * @param stepRate   orders per second added each step, at least 1.
     * @param maxRate    highest rate, at least {@code startRate}.
     * @param stepNs     length of a step in ns, positive.
     * @param p99LimitNs p99 round trip in ns above which the ramp counts as broken.
     * @param listener   told about every judged step.
     */
    public Ramp(
        final long startRate,
        final long stepRate,
        final long maxRate,
        final long stepNs,
        final long p99LimitNs,
        final Listener listener)
    {
        this.startRate = startRate;
        this.stepRate = stepRate;
        this.maxRate = maxRate;
        this.stepNs = stepNs;
        this.p99LimitNs = p99LimitNs;
        this.listener = listener;
    }

    /**
     * @param step step number from 0.
     * @return its target orders per second.
     */
    public long rateOfStep(final int step)
    {
        return Math.min(maxRate, startRate + step * stepRate);
    }

    /** @return orders per second added each step. */
    public long stepRate()
    {
        return stepRate;
    }

    /** @return highest rate, orders per second. */
    public long maxRate()
    {
        return maxRate;
    }

    /** @return length of a step in ns. */
    public long stepNs()
    {
        return stepNs;
    }

    /**
     * Judges the step that just ended.
     *
     * @param roundTrip the step's round trips in ns.
     * @param sent      Enter Orders sent during the step.
     * @param otherSent the step's other orders sent (OUCH 4.2 Cancel Order, Replace Order).
     * @param notSent   orders of the schedule due during the step but not sent, no OUCH session being logged in, of
     *                  any type. Their Enter Orders, estimated by {@link #enterOrdersNotSent}, count as unanswered as
     *                  those sent and not answered do, so that a step in which the exchange served no one breaks.
     * @return true to go on with the next step, false when the ramp is over (broken or at the maximum rate).
     */
    public boolean onStepEnd(final Histogram roundTrip, final long sent, final long otherSent, final long notSent)
    {
        if (done)
        {
            return false;
        }
        final int index = steps.size();
        final long rate = rateOfStep(index);
        final SimulatorReport.Latency latency = SimulatorReport.Latency.of(roundTrip);
        final long enterOrdersNotSent = enterOrdersNotSent(sent, otherSent, notSent);
        final boolean broke = latency.p99Ns() > p99LimitNs ||
            tooFewAnswered(latency.count(), sent + enterOrdersNotSent);
        final Step step = new Step(index, rate, sent, latency.count(), latency.p50Ns(), latency.p90Ns(),
            latency.p99Ns(), latency.p999Ns(), latency.maxNs(), broke, enterOrdersNotSent);
        steps.add(step);
        listener.onStep(step, roundTrip);
        done = broke || rate >= maxRate;
        return !done;
    }

    /**
     * The Enter Orders among a step's orders not sent: an order of the schedule gets its type only when a session sends
     * it, so those not sent are taken in the proportion of Enter Orders among the step's orders sent (rounded up), or
     * all as Enter Orders when the step sent none.
     *
     * @param sent      Enter Orders sent during the step.
     * @param otherSent other orders sent during the step.
     * @param notSent   orders of the schedule not sent during the step.
     * @return the estimated Enter Orders among them, at most {@code notSent}.
     */
    static long enterOrdersNotSent(final long sent, final long otherSent, final long notSent)
    {
        final long allSent = sent + otherSent;
        return 0 == allSent ? notSent : (long)Math.ceil((double)notSent * sent / allSent);
    }

    private static boolean tooFewAnswered(final long answered, final long sent)
    {
        return answered * 100 < sent * MIN_ANSWERED_PERCENT;
    }

    /** @return the judged steps in order. */
    public List<Step> steps()
    {
        return List.copyOf(steps);
    }

    /**
     * @return the mean of the judged steps' target rates, orders per second, 0 before the first: as each step lasts
     *         the same time, the rate the ramp intended over its sending window.
     */
    public long meanRate()
    {
        long sum = 0;
        for (final Step step : steps)
        {
            sum += step.rate();
        }
        return steps.isEmpty() ? 0 : Math.round((double)sum / steps.size());
    }

    /** @return the step where the ramp broke, or null if it never did. */
    public Step brokeAt()
    {
        return steps.isEmpty() || !steps.getLast().broke() ? null : steps.getLast();
    }

    /**
     * Prints the table rate → p50/p90/p99/p99.9/max in µs and where the ramp broke.
     *
     * @param out where to print.
     */
    public void print(final PrintStream out)
    {
        out.printf(Locale.ROOT, "=== Ramp: +%,d orders/s every %.1f s up to %,d, p99 limit %,.1f us ===%n",
            stepRate, stepNs / 1e9, maxRate, p99LimitNs / 1000.0);
        out.printf(Locale.ROOT, "%5s %12s %10s %10s %10s %10s %10s %10s %10s%n",
            "step", "rate/s", "sent", "samples", "p50 us", "p90 us", "p99 us", "p99.9 us", "max us");
        for (final Step step : steps)
        {
            out.printf(Locale.ROOT, "%5d %,12d %,10d %,10d %,10.1f %,10.1f %,10.1f %,10.1f %,10.1f%s%n",
                step.index(), step.rate(), step.sent(), step.count(), step.p50Ns() / 1000.0, step.p90Ns() / 1000.0,
                step.p99Ns() / 1000.0, step.p999Ns() / 1000.0, step.maxNs() / 1000.0, step.broke() ? "  <- broke" : "");
        }
        final Step broke = brokeAt();
        out.println(null == broke ? "ramp: p99 stayed within the limit up to " +
            (steps.isEmpty() ? "no step" : String.format(Locale.ROOT, "%,d orders/s", steps.getLast().rate())) :
            broke.isUnanswered() ?
            String.format(Locale.ROOT, "ramp: broke at %,d orders/s (%,d of %,d Enter Orders answered within the " +
                "step, under %d%%%s)", broke.rate(), broke.count(), broke.sent() + broke.notSent(),
                MIN_ANSWERED_PERCENT, 0 == broke.notSent() ? "" :
                String.format(Locale.ROOT, "; about %,d of them not sent, no session logged in", broke.notSent())) :
            String.format(Locale.ROOT, "ramp: broke at %,d orders/s (p99 %,.1f us > %,.1f us)",
                broke.rate(), broke.p99Ns() / 1000.0, p99LimitNs / 1000.0));
    }
}
