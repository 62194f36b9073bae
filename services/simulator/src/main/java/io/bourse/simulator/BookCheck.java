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
 * SoupBinTCP 4.0 session, which receives System Event, the Stock Directory and every book as Add Orders, then the
 * live messages, builds its own {@link OrderBooks} from them and compares the two, order by order (Order Reference
 * Number, side, shares and price; L3, hence L2 and the best bid and offer too). The two must stand at the same point
 * of the stream: the simulator runs the check at the end of a run, after its order flow has stopped, and the feed's
 * session goes on reading while the check waits until both sessions have been quiet for the quiet period (what
 * another client of the exchange changes meanwhile reaches both), then stops it ({@link Feed#freeze}). A change that
 * comes as it stops, seen on either session within a quiet period after, leaves the books not compared (a failed
 * check, saying so) rather than reported as differing.
 */
final class BookCheck
{
    private static final long POLL_NS = TimeUnit.MILLISECONDS.toNanos(1);

    private BookCheck()
    {
    }

    /** The market-data session whose books are checked, read on a thread of its own until {@link #freeze}. */
    interface Feed
    {
        /** @return the session's name, for the report. */
        String name();

        /**
         * Looks at the session.
         *
         * @param nowNs monotonic time now, in nanoseconds.
         * @return whether its books stand at a point of the stream: quiet for the quiet period, nothing missing.
         */
        boolean isComparable(long nowNs);

        /** @return ITCH messages the session has delivered so far; any thread. */
        long messages();

        /** @return ITCH messages the session had delivered at the last look ({@link #isComparable}). */
        long messagesAtLastLook();

        /**
         * @return whether the session was opened again (a login or join again, which empties its books) since the last
         *         look ({@link #isComparable}); any thread.
         */
        boolean startedAgainSinceLastLook();

        /**
         * @param timeoutMs how long the session was looked at, in milliseconds.
         * @return why its books were not comparable at the last look ({@link #isComparable}).
         */
        String whyNot(long timeoutMs);

        /**
         * Stops the session's reading, its thread joined: its books change no more and may be read on the caller's.
         *
         * @return its books.
         */
        OrderBooks freeze();
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
     * @param feed            the session whose books are checked, frozen once it and the snapshot session are quiet.
     * @param symbolDirectory the symbols, by Stock Locate.
     * @param host            fanout host.
     * @param port            fanout port.
     * @param user            who logs in.
     * @param quietMs         the snapshot is complete, and the two sessions stand at the same point of the stream,
     *                        once both have been silent this long (the snapshot session after its Stock Directory).
     * @param timeoutMs       longest time to connect, log in, receive the snapshot and see both sessions quiet.
     * @param counters        where the snapshot session's malformed messages are counted as errors.
     * @return the symbols compared and the mismatches; or a failed check when the feed's session was not comparable in
     *         time ({@link Feed#whyNot}) or the exchange changed as it stopped.
     * @throws IOException when the snapshot session cannot log in, ends, or is not complete and quiet in time.
     */
    static Result run(
        final Feed feed,
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
        final long quietNs = TimeUnit.MILLISECONDS.toNanos(quietMs);
        final OrderBooks feedBooks;
        try (SoupClient session = SoupClient.connect(adapter.sessionName(), host, port, user, adapter, timeoutMs))
        {
            long lastCount = -1;
            long lastChangeNs = System.nanoTime();
            while (true)
            {
                poll(session);
                final long nowNs = System.nanoTime();
                final boolean feedComparable = feed.isComparable(nowNs);
                final boolean snapshotChanged = received[0] != lastCount;
                if (snapshotChanged)
                {
                    lastCount = received[0];
                    lastChangeNs = nowNs;
                }
                final boolean snapshotQuiet =
                    !snapshotChanged && lastCount > symbolCount && nowNs - lastChangeNs >= quietNs;
                if (snapshotQuiet && feedComparable)
                {
                    break;
                }
                if (nowNs - deadlineNs >= 0)
                {
                    if (snapshotQuiet)
                    {
                        return Result.failed(feed.name() + " " + feed.whyNot(timeoutMs));
                    }
                    throw new IOException(session.name() + ": snapshot not complete and quiet within " + timeoutMs +
                        " ms");
                }
                LockSupport.parkNanos(POLL_NS);
            }
            final long feedMessages = feed.messagesAtLastLook();
            feedBooks = feed.freeze();
            final long frozenNs = System.nanoTime();
            while (System.nanoTime() - frozenNs < quietNs)
            {
                poll(session);
                LockSupport.parkNanos(POLL_NS);
            }
            if (feed.startedAgainSinceLastLook())
            {
                return Result.failed(feed.name() + " was opened again as it stopped for the check, its books " +
                    "emptied: not compared");
            }
            final long feedChange = feed.messages() - feedMessages;
            final long snapshotChange = received[0] - lastCount;
            if (0 != feedChange || 0 != snapshotChange)
            {
                return Result.failed("the exchange changed as " + feed.name() + " stopped for the check (" +
                    feedChange + " messages more on it, " + snapshotChange + " on the snapshot session): not compared");
            }
        }
        return new Result(symbolCount, compare(feedBooks, snapshotBooks, symbolDirectory), null);
    }

    private static void poll(final SoupClient session) throws IOException
    {
        session.poll();
        if (!session.isActive())
        {
            throw new IOException(session.name() + " ended before the check completed");
        }
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
