package io.bourse.simulator;

import org.HdrHistogram.Histogram;

import java.io.PrintStream;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The outcome of one simulator run: the machine and the load, what was sent and what came back, the Enter Order to
 * Accepted round trip (corrected for coordinated omission: measured from each order's intended send time), and the
 * market-data messages received with their feed latency (receive time minus the ITCH 5.0 Timestamp), the trades and
 * VWAPs per symbol, the gaps of a MoldUDP64 feed and how they were filled, and the end-of-run check of the book built
 * from the feed against the fanout's snapshot.
 *
 * @param machine            e.g. {@code "2 cores, Linux 6.8 amd64, Java 25"}.
 * @param cores              available processors.
 * @param targetRate         target orders per second over all sessions (for a ramp, the mean of its steps' rates,
 *                           which the throughput achieved over the whole ramp is compared with).
 * @param scenario           the {@link Scenario} by its setting name (for a ramp, with its first and last rates).
 * @param sessions           OUCH sessions.
 * @param mdSessions         market-data sessions.
 * @param durationSeconds    configured duration, 0 for "until stopped" (and for a ramp, which ends itself).
 * @param elapsedNs          sending window actually used, ns.
 * @param daySent            Enter Orders with a day time in force sent.
 * @param iocSent            Enter Orders with time in force 0 sent.
 * @param cancelSent         Cancel Orders sent.
 * @param replaceSent        Replace Orders sent.
 * @param notSent            orders of the schedule left out while no OUCH session was logged in.
 * @param accepted           Accepted received.
 * @param rejected           Rejected received.
 * @param rejectsByReason    Rejected by Reject Reason code.
 * @param executions         Executed received.
 * @param executedShares     shares of the Executed received.
 * @param canceled           Canceled received.
 * @param replaced           Replaced received.
 * @param unanswered         Enter Orders without Accepted or Rejected at the end.
 * @param roundTrip          Enter Order to Accepted/Rejected round trip.
 * @param replaceRoundTrip   Replace Order to Replaced/Rejected round trip.
 * @param sendLag            how late each order was sent after its intended send time.
 * @param mdMessages         ITCH 5.0 messages received.
 * @param mdMessagesByType   ITCH 5.0 messages by Message Type.
 * @param mdMessagesSending  ITCH 5.0 messages received by all market-data sessions in the sending window
 *                           ({@code elapsedNs}): the message rate's, without the logins' snapshots, backfills and
 *                           what came after the last order.
 * @param feedLatency        ITCH 5.0 Timestamp to receive.
 * @param errors             the simulator's errors, every kind ({@link SimulatorError}), agent exceptions included.
 * @param mdInconsistencies  ITCH 5.0 messages that did not fit a market-data session's book.
 * @param vwapWindowSeconds  window of the rolling VWAP, seconds of ITCH time.
 * @param symbols            trades and VWAPs per symbol, from the first market-data session.
 * @param bookCheck          the end-of-run comparison of the feed's books with a snapshot.
 * @param mdGaps             the feed's gaps and their filling.
 */
public record SimulatorReport(
    String machine,
    int cores,
    long targetRate,
    String scenario,
    int sessions,
    int mdSessions,
    long durationSeconds,
    long elapsedNs,
    long daySent,
    long iocSent,
    long cancelSent,
    long replaceSent,
    long notSent,
    long accepted,
    long rejected,
    Map<Character, Long> rejectsByReason,
    long executions,
    long executedShares,
    long canceled,
    long replaced,
    long unanswered,
    Latency roundTrip,
    Latency replaceRoundTrip,
    Latency sendLag,
    long mdMessages,
    Map<Character, Long> mdMessagesByType,
    long mdMessagesSending,
    Latency feedLatency,
    long errors,
    long mdInconsistencies,
    long vwapWindowSeconds,
    List<SymbolTrades> symbols,
    BookCheck.Result bookCheck,
    GapFill mdGaps)
{
    /**
     * The gaps of the market-data feed. Over SoupBinTCP none can occur; over MoldUDP64 a gap is a Downstream Packet
     * whose Sequence Number is past the next expected one (a late join counts as one), filled by Request Packets.
     *
     * @param feed             the feed read.
     * @param gaps             gaps detected over all market-data sessions.
     * @param requests         Request Packets sent.
     * @param messages         messages recovered from the responses.
     * @param unfilledSessions sessions still short of the end of the newest packet they saw when the run ended.
     * @param relogins         times the first market-data session (whose trades are counted) was lost and logged
     *                         in or joined again; over SoupBinTCP it starts from a fresh snapshot, missing the
     *                         trades in between.
     */
    public record GapFill(
        MarketDataFeed feed, long gaps, long requests, long messages, int unfilledSessions, long relogins)
    {
        /** @return how the gaps went, for the summary. */
        String describe()
        {
            if (MarketDataFeed.MOLDUDP64 != feed)
            {
                return 0 == relogins ? "none possible (SoupBinTCP over TCP delivers every message in order)" :
                    String.format(Locale.ROOT, "the first session lost and logged in again from a fresh snapshot " +
                    "%,d time%s: the trades in between are missing from the figures below", relogins,
                    plural(relogins));
            }
            return String.format(Locale.ROOT, "%,d detected, %,d messages re-requested in %,d Request Packet%s, %s",
                gaps, messages, requests, plural(requests), 0 == unfilledSessions ? "all filled" :
                unfilledSessions + " session" + plural(unfilledSessions) + " with a gap still open");
        }
    }

    /**
     * Trades of one symbol seen on the feed: Order Executed at the resting price, printable Order Executed With Price,
     * Trade and Cross Trade.
     *
     * @param symbol      the symbol.
     * @param trades        trades of the run.
     * @param volume        shares of the run.
     * @param sessionVolume shares of the newest trade's trading day (UTC): less than {@code volume} when the run
     *                      crossed a midnight.
     * @param sessionVwap   VWAP of every trade of the newest trade's trading day (UTC), dollars; NaN without trades
     *                      that day.
     * @param rollingVwap   VWAP of the trades of the window ending at the newest trade, dollars; NaN without trades.
     */
    public record SymbolTrades(
        String symbol, long trades, long volume, long sessionVolume, double sessionVwap, double rollingVwap)
    {
    }

    /**
     * Percentiles of a latency histogram in nanoseconds.
     *
     * @param count  samples.
     * @param p50Ns  median.
     * @param p90Ns  90th percentile.
     * @param p99Ns  99th percentile.
     * @param p999Ns 99.9th percentile.
     * @param maxNs  largest sample.
     */
    public record Latency(long count, long p50Ns, long p90Ns, long p99Ns, long p999Ns, long maxNs)
    {
        /** No samples. */
        public static final Latency EMPTY = new Latency(0, 0, 0, 0, 0, 0);

        /**
         * @param histogram samples in ns.
         * @return its percentiles, {@link #EMPTY} when it has no samples.
         */
        public static Latency of(final Histogram histogram)
        {
            if (histogram.getTotalCount() == 0)
            {
                return EMPTY;
            }
            return new Latency(
                histogram.getTotalCount(),
                histogram.getValueAtPercentile(50.0),
                histogram.getValueAtPercentile(90.0),
                histogram.getValueAtPercentile(99.0),
                histogram.getValueAtPercentile(99.9),
                histogram.getMaxValue());
        }
    }

    /**
     * @return a description of this machine: cores, operating system and Java version.
     */
    public static String describeMachine()
    {
        return Runtime.getRuntime().availableProcessors() + " cores, " + System.getProperty("os.name") + ' ' +
            System.getProperty("os.version") + ' ' + System.getProperty("os.arch") + ", Java " +
            Runtime.version().feature();
    }

    /** @return every order message sent: Enter (day and IOC), Cancel and Replace. */
    public long ordersSent()
    {
        return daySent + iocSent + cancelSent + replaceSent;
    }

    /** @return orders sent per second of the sending window; 0 when the window is empty. */
    public double achievedRate()
    {
        return elapsedNs > 0 ? ordersSent() * 1e9 / elapsedNs : 0.0;
    }

    /**
     * Prints the summary, one item per line.
     *
     * @param out destination.
     */
    public void print(final PrintStream out)
    {
        out.println("=== Bourse simulator ===");
        line(out, "machine", machine);
        line(out, "load", String.format(Locale.ROOT, "%,d orders/s target (%s), %d OUCH session%s, %d " +
            "market-data session%s, %s", targetRate, scenario, sessions, plural(sessions), mdSessions, plural(mdSessions),
            durationSeconds == 0 ? "until stopped" : durationSeconds + " s"));
        line(out, "orders sent", String.format(Locale.ROOT,
            "%,d (day %,d, ioc %,d, cancel %,d, replace %,d) in %.2f s%s", ordersSent(), daySent, iocSent, cancelSent,
            replaceSent, elapsedNs / 1e9, 0 == notSent ? "" :
            String.format(Locale.ROOT, "; %,d more not sent, no OUCH session logged in", notSent)));
        line(out, "throughput", String.format(Locale.ROOT, "%,.1f orders/s achieved vs %,d target (%.1f%%)",
            achievedRate(), targetRate, targetRate > 0 ? 100.0 * achievedRate() / targetRate : 0.0));
        line(out, "accepted", String.format(Locale.ROOT, "%,d", accepted));
        line(out, "rejected", String.format(Locale.ROOT, "%,d%s", rejected, counts(rejectsByReason)));
        line(out, "executions", String.format(Locale.ROOT, "%,d (%,d shares)", executions, executedShares));
        line(out, "canceled", String.format(Locale.ROOT, "%,d", canceled));
        line(out, "replaced", String.format(Locale.ROOT, "%,d", replaced));
        line(out, "unanswered", String.format(Locale.ROOT, "%,d", unanswered));
        line(out, "order->Accepted", latency(roundTrip) + " (round trip, CO-corrected)");
        line(out, "replace->answer", latency(replaceRoundTrip) + " (Replaced or Rejected, round trip, CO-corrected)");
        line(out, "send lag", latency(sendLag) + " (sent after the intended time: the simulator's own delay)");
        line(out, "md messages", String.format(Locale.ROOT, "%,d%s", mdMessages, counts(mdMessagesByType)));
        line(out, "feed latency", latency(feedLatency) + " (ITCH timestamp -> received, order messages since joining)");
        line(out, "md message rate", String.format(Locale.ROOT, "%,.1f messages/s (received while sending, %s)",
            elapsedNs > 0 ? mdMessagesSending * 1e9 / elapsedNs : 0.0,
            1 == mdSessions ? "1 md session" : "all " + mdSessions + " md sessions"));
        line(out, "inconsistencies", String.format(Locale.ROOT, "%,d (ITCH messages that did not fit the book)",
            mdInconsistencies));
        line(out, "md gaps", mdGaps.describe());
        for (final SymbolTrades trades : symbols)
        {
            line(out, trades.symbol(), String.format(Locale.ROOT, "%,d trades, %,d shares, VWAP %s session%s, %s " +
                "rolling %d s", trades.trades(), trades.volume(), dollars(trades.sessionVwap()),
                trades.sessionVolume() == trades.volume() ? "" :
                String.format(Locale.ROOT, " (of the day's %,d shares)", trades.sessionVolume()),
                dollars(trades.rollingVwap()), vwapWindowSeconds));
        }
        line(out, "book check", bookCheck.describe());
        line(out, "errors", String.format(Locale.ROOT, "%,d", errors));
    }

    private static void line(final PrintStream out, final String name, final String value)
    {
        out.printf(Locale.ROOT, "%-16s: %s%n", name, value);
    }

    private static String plural(final long n)
    {
        return n == 1 ? "" : "s";
    }

    private static String counts(final Map<Character, Long> byCode)
    {
        if (byCode.isEmpty())
        {
            return "";
        }
        final StringBuilder sb = new StringBuilder(" (");
        for (final Map.Entry<Character, Long> entry : byCode.entrySet())
        {
            if (sb.length() > 2)
            {
                sb.append(", ");
            }
            sb.append(entry.getKey()).append(' ').append(String.format(Locale.ROOT, "%,d", entry.getValue()));
        }
        return sb.append(')').toString();
    }

    private static String latency(final Latency latency)
    {
        if (latency.count() == 0)
        {
            return "no samples";
        }
        return String.format(Locale.ROOT, "p50 %s, p90 %s, p99 %s, p99.9 %s, max %s us (%,d samples)",
            micros(latency.p50Ns()), micros(latency.p90Ns()), micros(latency.p99Ns()), micros(latency.p999Ns()),
            micros(latency.maxNs()), latency.count());
    }

    private static String dollars(final double value)
    {
        return Double.isNaN(value) ? "-" : String.format(Locale.ROOT, "$%,.4f", value);
    }

    private static String micros(final long ns)
    {
        return String.format(Locale.ROOT, "%,.1f", ns / 1000.0);
    }
}
