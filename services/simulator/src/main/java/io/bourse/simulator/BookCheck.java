package io.bourse.simulator;

import io.bourse.common.config.Credentials;
import io.bourse.common.config.SymbolDirectory;
import io.bourse.common.time.MidnightNanoClock;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * Checks the books a market-data session built from the feed against the fanout's snapshot: logs in a second
 * SoupBinTCP 4.0 session, which receives System Event, the Stock Directory and every book as Add Orders, builds its
 * own {@link OrderBooks} from them and compares the two, order by order (Order Reference Number, side, shares and
 * price; L3, hence L2 and the best bid and offer too). The comparison is exact only when nothing changes the books
 * between the two: the simulator runs it at the end of a run, after the order flow has stopped and the feed has been
 * quiet, and it waits for the snapshot session to be quiet in the same way.
 */
final class BookCheck
{
    private static final long POLL_NS = TimeUnit.MILLISECONDS.toNanos(1);

    private BookCheck()
    {
    }

    /**
     * The outcome of one check.
     *
     * @param symbols    symbols compared, 0 when no check ran.
     * @param mismatches the symbols whose books differ, each with its first difference.
     * @param failure    why the check could not run to the end, or null.
     */
    public record Result(int symbols, List<String> mismatches, String failure)
    {
        /** No check ran. */
        public static final Result NONE = new Result(0, List.of(), null);

        /**
         * @param failure why the check could not run to the end.
         * @return a failed check.
         */
        static Result failed(final String failure)
        {
            return new Result(0, List.of(), failure);
        }

        /** @return how the check went, for the summary. */
        String describe()
        {
            if (null != failure)
            {
                return "failed: " + failure;
            }
            if (0 == symbols)
            {
                return "not run";
            }
            if (mismatches.isEmpty())
            {
                return symbols + " symbols equal to the snapshot";
            }
            return mismatches.size() + " of " + symbols + " symbols differ from the snapshot: " +
                String.join("; ", mismatches);
        }
    }

    /**
     * Runs the check, blocking the caller.
     *
     * @param feedBooks       the books built from the feed; not changed while the check runs.
     * @param symbolDirectory the symbols, by Stock Locate.
     * @param host            fanout host.
     * @param port            fanout port.
     * @param user            who logs in.
     * @param quietMs         the snapshot is complete once its session has been silent this long after the Stock
     *                        Directory.
     * @param timeoutMs       longest time to connect, log in and receive the snapshot.
     * @param counters        where the snapshot session's malformed messages are counted as errors.
     * @return the symbols compared and the mismatches.
     * @throws IOException when the session cannot log in, ends, or the snapshot does not complete in time.
     */
    static Result run(
        final OrderBooks feedBooks,
        final SymbolDirectory symbolDirectory,
        final String host,
        final int port,
        final Credentials.User user,
        final long quietMs,
        final long timeoutMs,
        final SimulatorCounters counters) throws IOException
    {
        final int symbolCount = symbolDirectory.entries().size();
        final FeedAnalytics snapshotAnalytics =
            new FeedAnalytics(symbolCount, 1, 1, new SimulatorCounters(), new MidnightNanoClock());
        final OrderBooks snapshotBooks = new OrderBooks(symbolCount, 1024, snapshotAnalytics);
        final long[] received = new long[1];
        final MarketDataAdapter adapter = new MarketDataAdapter("book check session (" + user.username() + ")",
            symbolDirectory, counters, snapshotBooks, snapshotAnalytics, (messageType, timestampNs) -> received[0]++);
        final long deadlineNs = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
        try (SoupClient session = SoupClient.connect(adapter.sessionName(), host, port, user, adapter, timeoutMs))
        {
            final long quietNs = TimeUnit.MILLISECONDS.toNanos(quietMs);
            long lastCount = -1;
            long lastChangeNs = System.nanoTime();
            while (true)
            {
                session.poll();
                if (!session.isActive())
                {
                    throw new IOException(session.name() + " ended before the snapshot completed");
                }
                final long nowNs = System.nanoTime();
                if (received[0] != lastCount)
                {
                    lastCount = received[0];
                    lastChangeNs = nowNs;
                }
                else if (lastCount > symbolCount && nowNs - lastChangeNs >= quietNs)
                {
                    break;
                }
                if (nowNs - deadlineNs >= 0)
                {
                    throw new IOException(session.name() + ": snapshot not complete within " + timeoutMs + " ms");
                }
                LockSupport.parkNanos(POLL_NS);
            }
        }
        return new Result(symbolCount, compare(feedBooks, snapshotBooks, symbolDirectory), null);
    }

    /**
     * Compares two sets of books symbol by symbol (allocates).
     *
     * @param feedBooks       built from the feed.
     * @param snapshotBooks   built from a snapshot.
     * @param symbolDirectory the symbols, by Stock Locate.
     * @return one line per symbol that differs, naming the first order that differs.
     */
    static List<String> compare(
        final OrderBooks feedBooks, final OrderBooks snapshotBooks, final SymbolDirectory symbolDirectory)
    {
        final List<String> mismatches = new ArrayList<>();
        for (final SymbolDirectory.Entry entry : symbolDirectory.entries())
        {
            final List<OrderBooks.Order> feed = feedBooks.orders(entry.locate());
            final List<OrderBooks.Order> snapshot = snapshotBooks.orders(entry.locate());
            if (!feed.equals(snapshot))
            {
                mismatches.add(entry.symbol() + ": " + firstDifference(feed, snapshot));
            }
        }
        return mismatches;
    }

    private static String firstDifference(final List<OrderBooks.Order> feed, final List<OrderBooks.Order> snapshot)
    {
        for (int i = 0, n = Math.max(feed.size(), snapshot.size()); i < n; i++)
        {
            final OrderBooks.Order fromFeed = i < feed.size() ? feed.get(i) : null;
            final OrderBooks.Order fromSnapshot = i < snapshot.size() ? snapshot.get(i) : null;
            if (null == fromFeed || !fromFeed.equals(fromSnapshot))
            {
                return feed.size() + " orders from the feed, " + snapshot.size() + " in the snapshot; first " +
                    "difference: feed " + describe(fromFeed) + ", snapshot " + describe(fromSnapshot);
            }
        }
        return "equal";
    }

    private static String describe(final OrderBooks.Order order)
    {
        return null == order ? "none" : "order " + order.orderReferenceNumber() + ' ' + order.side() + ' ' +
            order.shares() + " @ " + order.price();
    }
}
