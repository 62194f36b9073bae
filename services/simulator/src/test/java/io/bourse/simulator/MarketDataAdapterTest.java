package io.bourse.simulator;

import com.paritytrading.juncture.nasdaq.itch50.ITCH50;
import io.bourse.common.config.SymbolDirectory;
import io.bourse.common.config.Symbols;
import io.bourse.common.time.MidnightNanoClock;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import static io.bourse.simulator.MarketDataListener.Inconsistency.DUPLICATE_ORDER;
import static io.bourse.simulator.MarketDataListener.Inconsistency.EXCESS_SHARES;
import static io.bourse.simulator.MarketDataListener.Inconsistency.UNKNOWN_LOCATE;
import static io.bourse.simulator.MarketDataListener.Inconsistency.UNKNOWN_ORDER;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/** The book builder and the trade analytics, fed hand-built ITCH 5.0 messages, observed through listeners. */
class MarketDataAdapterTest
{
    private static final long T = 34_200_000_000_000L;
    private static final long SECOND = 1_000_000_000L;
    private static final long DAY = 86_400 * SECOND;
    /** A midnight UTC, ns since the Unix epoch: the receipt clock's first day. */
    private static final long FIRST_MIDNIGHT = 20_000 * DAY;

    private final List<Object> events = new ArrayList<>();
    private final SimulatorCounters counters = new SimulatorCounters();
    /** The wall clock of the trades' receipt, ns since the Unix epoch. */
    private final AtomicLong receivedNs = new AtomicLong(FIRST_MIDNIGHT + T);
    private final FeedAnalytics analytics =
        new FeedAnalytics(2, 60 * SECOND, 60, counters, new MidnightNanoClock(receivedNs::get));
    private final MarketDataListener recorder = new MarketDataListener()
    {
        @Override
        public void onTrade(
            final int locate, final long timestampNs, final long price, final long shares, final long matchNumber)
        {
            events.add(new Trade(locate, timestampNs, price, shares));
            analytics.onTrade(locate, timestampNs, price, shares, matchNumber);
        }

        @Override
        public void onBrokenTrade(final long matchNumber)
        {
            analytics.onBrokenTrade(matchNumber);
        }

        @Override
        public void onInconsistency(final Inconsistency kind, final int locate, final long orderReferenceNumber)
        {
            events.add(new Bad(kind, locate, orderReferenceNumber));
            analytics.onInconsistency(kind, locate, orderReferenceNumber);
        }
    };
    private final OrderBooks books = new OrderBooks(2, 2, recorder);
    private final List<Long> timestamps = new ArrayList<>();
    private long matchNumber;
    private final MarketDataAdapter adapter = new MarketDataAdapter(
        "market-data session 0 (md01)", SymbolDirectory.parse("AAPL,MSFT"), counters, books, recorder,
        (messageType, timestampNs) -> timestamps.add(timestampNs));

    record Trade(int locate, long timestampNs, long price, long shares)
    {
    }

    record Bad(MarketDataListener.Inconsistency kind, int locate, long orderReferenceNumber)
    {
    }

    @Test
    void shouldBuildL3AndL2BooksFromEveryOrderMessage() throws IOException
    {
        add(1, T, 1, 'B', 100, 1_500_000);
        addMpid(1, T + 1, 2, 'B', 200, 1_500_000);
        add(1, T + 2, 3, 'B', 300, 1_490_000);
        add(1, T + 3, 4, 'S', 400, 1_510_000);
        add(1, T + 4, 5, 'S', 500, 1_520_000);
        add(2, T + 5, 6, 'S', 50, 4_000_000);
        executed(1, T + 6, 1, 40);
        executedWithPrice(1, T + 7, 4, 100, 'Y', 1_505_000);
        cancel(1, T + 8, 2, 50);
        delete(1, T + 9, 3);
        replace(1, T + 10, 5, 7, 250, 1_515_000);

        assertThat(books.orders(1)).containsExactly(
            new OrderBooks.Order(1, 'B', 60, 1_500_000),
            new OrderBooks.Order(2, 'B', 150, 1_500_000),
            new OrderBooks.Order(4, 'S', 300, 1_510_000),
            new OrderBooks.Order(7, 'S', 250, 1_515_000));
        assertThat(books.orders(2)).containsExactly(new OrderBooks.Order(6, 'S', 50, 4_000_000));
        assertThat(books.levels(1, OrderBooks.BUY)).containsExactly(new OrderBooks.Level(1_500_000, 210));
        assertThat(books.levels(1, OrderBooks.SELL)).containsExactly(
            new OrderBooks.Level(1_510_000, 300), new OrderBooks.Level(1_515_000, 250));
        assertThat(books.bestBid(1)).isEqualTo(1_500_000);
        assertThat(books.bestOffer(1)).isEqualTo(1_510_000);
        assertThat(books.bestBid(2)).isEqualTo(OrderBooks.NO_PRICE);
        assertThat(books.orderCount(1)).isEqualTo(4);
        assertThat(events).containsExactly(new Trade(1, T + 6, 1_500_000, 40), new Trade(1, T + 7, 1_505_000, 100));
        assertThat(timestamps).hasSize(11).startsWith(T).endsWith(T + 10);
        assertThat(counters.errors().total()).isZero();
    }

    /** A new session of the feed empties the books and is counted, for the book check to see (FeedQuiet). */
    @Test
    void shouldEmptyTheBooksAndCountANewSession() throws IOException
    {
        add(1, T, 1, 'B', 100, 1_500_000);

        adapter.startSession();
        adapter.startSession();

        assertThat(books.orderCount(1)).isZero();
        assertThat(adapter.sessionStarts()).isEqualTo(2);
    }

    @Test
    void shouldReportTradesOfEveryKindAndLeaveNonPrintableCrossExecutionsToTheCrossTrade() throws IOException
    {
        add(1, T, 1, 'S', 500, 1_500_000);
        executed(1, T + 1, 1, 100);
        executedWithPrice(1, T + 2, 1, 100, 'N', 1_490_000);
        trade(1, T + 3, 300, 1_480_000);
        crossTrade(1, T + 4, 5_000_000_000L, 1_490_000);

        assertThat(events).containsExactly(
            new Trade(1, T + 1, 1_500_000, 100),
            new Trade(1, T + 3, 1_480_000, 300),
            new Trade(1, T + 4, 1_490_000, 5_000_000_000L));
        assertThat(books.orders(1)).containsExactly(new OrderBooks.Order(1, 'S', 300, 1_500_000));
    }

    @Test
    void shouldCountEveryInconsistencyAndKeepTheBookWhereItCannotApply() throws IOException
    {
        add(1, T, 1, 'B', 100, 1_500_000);
        add(1, T + 1, 1, 'S', 100, 1_600_000);
        executed(1, T + 2, 9, 10);
        cancel(1, T + 3, 9, 10);
        delete(1, T + 4, 9);
        replace(1, T + 5, 9, 10, 100, 1_500_000);
        add(1, T + 6, 2, 'B', 100, 1_500_000);
        replace(1, T + 7, 2, 1, 100, 1_500_000);
        executed(2, T + 8, 1, 10);
        add(3, T + 9, 3, 'B', 100, 1_500_000);
        executed(1, T + 10, 1, 150);
        // A printable execution of an order the books lack is still a trade, at the price it carries.
        executedWithPrice(1, T + 11, 9, 10, 'Y', 1_550_000);

        assertThat(events).containsExactly(
            new Bad(DUPLICATE_ORDER, 1, 1),
            new Bad(UNKNOWN_ORDER, 1, 9),
            new Bad(UNKNOWN_ORDER, 1, 9),
            new Bad(UNKNOWN_ORDER, 1, 9),
            new Bad(UNKNOWN_ORDER, 1, 9),
            new Bad(DUPLICATE_ORDER, 1, 1),
            new Bad(UNKNOWN_ORDER, 2, 1),
            new Bad(UNKNOWN_LOCATE, 3, 3),
            new Bad(EXCESS_SHARES, 1, 1),
            new Trade(1, T + 10, 1_500_000, 150),
            new Bad(UNKNOWN_ORDER, 1, 9),
            new Trade(1, T + 11, 1_550_000, 10));
        assertThat(books.orders(1)).isEmpty();
        assertThat(books.levels(1, OrderBooks.BUY)).isEmpty();
        assertThat(counters.get(SimulatorCounter.MD_INCONSISTENCIES)).isEqualTo(10);
        assertThat(analytics.inconsistencies(UNKNOWN_ORDER)).isEqualTo(6);
    }

    @Test
    void shouldCountAMalformedMessageAsAnErrorLogTheFirstWithItsSessionAndGoOn() throws IOException
    {
        final String log = standardError(() ->
        {
            adapter.message(ByteBuffer.wrap(new byte[] {'Q', 0, 1}));
            adapter.message(ByteBuffer.wrap(new byte[] {'A', 0}));
        });
        add(1, T, 1, 'B', 100, 1_500_000);

        assertThat(log)
            .startsWith("[simulator] MALFORMED_ITCH (market-data session 0 (md01)): ")
            .contains("Cross Trade of 3 bytes");

        assertThat(counters.errors().count(SimulatorError.MALFORMED_ITCH)).isEqualTo(2);
        assertThat(counters.errors().total()).isEqualTo(2);
        assertThat(books.orders(1)).containsExactly(new OrderBooks.Order(1, 'B', 100, 1_500_000));
    }

    /**
     * The feed's Stock Directories are checked against the configured symbols (AAPL at locate 1, MSFT at 2): one that
     * names another symbol at its locate, or a locate the configuration lacks, is counted and its first logged. Before,
     * they were only observed, and every per-symbol figure of another exchange's feed was labelled wrong.
     */
    @Test
    void shouldCountAStockDirectoryThatNamesAnotherSymbolAtItsLocateThanTheConfiguredOnes() throws IOException
    {
        final String log = standardError(() ->
        {
            stockDirectory(1, "AAPL");
            stockDirectory(2, "GOOG");
            stockDirectory(3, "AMZN");
            stockDirectory(2, "MSFT");
        });

        assertThat(counters.errors().count(SimulatorError.STOCK_DIRECTORY_MISMATCH)).isEqualTo(2);
        assertThat(counters.errors().total()).isEqualTo(2);
        assertThat(log)
            .startsWith("[simulator] STOCK_DIRECTORY_MISMATCH (market-data session 0 (md01)): ")
            .contains("Stock Directory names GOOG at Stock Locate 2, the configured symbols (bourse.symbols) name " +
                "MSFT there");
        assertThat(timestamps).hasSize(4);
    }

    @Test
    void shouldComputeSessionAndRollingVwapOverTheWindowEndingAtTheNewestTrade()
    {
        receivedNs.set(FIRST_MIDNIGHT + T + 200 * SECOND); // after every trade of the test
        analytics.onTrade(1, T, 1_000_000, 100, 1);
        analytics.onTrade(1, T + 30 * SECOND, 2_000_000, 300, 2);
        analytics.onTrade(2, T + 30 * SECOND, 4_000_000, 10, 3);

        assertThat(analytics.sessionVwap(1)).isCloseTo(175.0, within(1e-9));
        assertThat(analytics.rollingVwap(1)).isCloseTo(175.0, within(1e-9));
        assertThat(analytics.publishedSessionVwap(2)).isCloseTo(400.0, within(1e-9));

        analytics.onTrade(2, T + 61 * SECOND, 3_000_000, 10, 4);

        assertThat(analytics.rollingVwap(1)).isCloseTo(200.0, within(1e-9));
        assertThat(analytics.sessionVwap(1)).isCloseTo(175.0, within(1e-9));
        assertThat(analytics.rollingVwap(2)).isCloseTo(350.0, within(1e-9));
        assertThat(analytics.trades(1)).isEqualTo(2);
        assertThat(analytics.volume(1)).isEqualTo(400);

        analytics.onTrade(2, T + 200 * SECOND, 3_000_000, 10, 5);

        assertThat(analytics.rollingVwap(1)).isNaN();
        assertThat(analytics.publishedRollingVwap(1)).as("another symbol's trade moved the window").isNaN();
        assertThat(analytics.publishedSessionVwap(1)).isCloseTo(175.0, within(1e-9));

        // A trade a whole window older than the newest, in the same bucket of the ring (a replay): counted in the
        // session, and the window keeps the newer trade.
        analytics.onTrade(2, T + 140 * SECOND, 9_000_000, 10, 6);

        assertThat(analytics.rollingVwap(2)).isCloseTo(300.0, within(1e-9));
        assertThat(analytics.trades(2)).isEqualTo(4);
    }

    @Test
    void shouldTakeABrokenTradeOutOfTheVolumeAndBothVwaps() throws IOException
    {
        trade(1, T, 100, 1_000_000);
        trade(1, T + SECOND, 300, 2_000_000);
        trade(2, T + SECOND, 10, 4_000_000);

        brokenTrade(T + 2 * SECOND, 2);

        assertThat(analytics.trades(1)).isEqualTo(1);
        assertThat(analytics.volume(1)).isEqualTo(100);
        assertThat(analytics.sessionVwap(1)).isCloseTo(100.0, within(1e-9));
        assertThat(analytics.rollingVwap(1)).isCloseTo(100.0, within(1e-9));
        assertThat(analytics.publishedSessionVwap(1)).isCloseTo(100.0, within(1e-9));
        assertThat(analytics.publishedRollingVwap(1)).isCloseTo(100.0, within(1e-9));
        assertThat(analytics.trades(2)).isEqualTo(1);
        assertThat(counters.get(SimulatorCounter.MD_BROKEN_TRADES)).isEqualTo(1);

        brokenTrade(T + 3 * SECOND, 2);
        brokenTrade(T + 3 * SECOND, 99);

        assertThat(analytics.volume(1)).isEqualTo(100);
        assertThat(counters.get(SimulatorCounter.MD_BROKEN_TRADES)).isEqualTo(1);
        assertThat(counters.get(SimulatorCounter.MD_DUPLICATE_TRADES)).isEqualTo(1);
        assertThat(counters.get(SimulatorCounter.MD_BREAKS_NOT_APPLIED)).isEqualTo(1);
    }

    @Test
    void shouldCountATradeHeardAgainOnceWhileItIsAmongTheRecentTrades() throws IOException
    {
        trade(1, T, 100, 1_000_000);
        matchNumber = 0;
        trade(1, T, 100, 1_000_000);

        assertThat(analytics.trades(1)).isEqualTo(1);
        assertThat(counters.get(SimulatorCounter.MD_DUPLICATE_TRADES)).isEqualTo(1);

        // Match Numbers as Bourse's two engine shards number them: (count << 4) | shard.
        for (long count = 1; count <= RecentTrades.CAPACITY / 2; count++)
        {
            for (long shard = 0; shard < 2; shard++)
            {
                matchNumber = ((count << 4) | shard) - 1;
                trade(1, T + count, 1, 1_000_000);
            }
        }
        brokenTrade(T + SECOND, (1L << 4) | 1);
        brokenTrade(T + SECOND, 1);

        assertThat(counters.get(SimulatorCounter.MD_BROKEN_TRADES)).isEqualTo(1);
        assertThat(counters.get(SimulatorCounter.MD_BREAKS_NOT_APPLIED)).isEqualTo(1);
    }

    @Test
    void shouldKeepTheRollingWindowAndTheRecentTradesGoingAcrossMidnight() throws IOException
    {
        final long midnight = DAY;
        receivedNs.set(FIRST_MIDNIGHT + DAY + 90 * SECOND); // after every trade of the test
        trade(1, midnight - 20 * SECOND, 100, 1_000_000);
        trade(1, 10 * SECOND, 100, 3_000_000);

        assertThat(analytics.rollingVwap(1)).isCloseTo(200.0, within(1e-9));

        // A late trade of before midnight is still before it, and the next one after midnight starts no new day.
        trade(1, midnight - 10 * SECOND, 100, 2_000_000);
        trade(1, 20 * SECOND, 100, 6_000_000);

        assertThat(analytics.rollingVwap(1)).isCloseTo(300.0, within(1e-9));

        brokenTrade(30 * SECOND, 1);
        matchNumber = 2;
        trade(1, midnight - 10 * SECOND, 100, 2_000_000);

        assertThat(analytics.rollingVwap(1)).isCloseTo(1_100.0 / 3, within(1e-9));
        assertThat(analytics.trades(1)).isEqualTo(3);
        assertThat(counters.get(SimulatorCounter.MD_BROKEN_TRADES)).isEqualTo(1);
        assertThat(counters.get(SimulatorCounter.MD_DUPLICATE_TRADES)).isEqualTo(1);

        // The window ends at the newest trade: 00:01:30 is more than 60 s after all of them.
        trade(1, 90 * SECOND, 100, 5_000_000);

        assertThat(analytics.rollingVwap(1)).isCloseTo(500.0, within(1e-9));
        // The session is the day after midnight: the trades at 300, 600 and 500, not the two of the day before.
        assertThat(analytics.sessionVwap(1)).isCloseTo(1_400.0 / 3, within(1e-9));
        assertThat(analytics.trades(1)).isEqualTo(4);
    }

    @Test
    void shouldLayATradeOfMoreThanTwelveHoursAgoInThePastNotAheadOfTheLiveOnes() throws IOException
    {
        // A MoldUDP64 join at 22:00 backfills its session from a 09:00 trade.
        final long tenPm = 22 * 3_600 * SECOND;
        receivedNs.set(FIRST_MIDNIGHT + tenPm);
        trade(1, 9 * 3_600 * SECOND, 100, 1_000_000);
        trade(1, tenPm, 100, 2_000_000);

        assertThat(analytics.rollingVwap(1)).isCloseTo(200.0, within(1e-9));
        assertThat(analytics.sessionVwap(1)).isCloseTo(150.0, within(1e-9));

        // A trade stamped ahead of its receipt by no more than the clocks' skew is of today.
        trade(1, tenPm + MidnightNanoClock.MAX_CLOCK_SKEW_NS, 100, 3_000_000);

        assertThat(analytics.rollingVwap(1)).isCloseTo(250.0, within(1e-9));
    }

    @Test
    void shouldStartTheRollingWindowAfreshWithTheFirstTradeAfterAQuietNight() throws IOException
    {
        final long eightAm = 8 * 3_600 * SECOND;
        receivedNs.set(FIRST_MIDNIGHT + eightAm);
        trade(1, eightAm - SECOND, 100, 1_000_000);

        // 16 hours later (a close at 08:00, the next day opened at midnight): 8 hours before the last trade's time of
        // day, but on the next day.
        receivedNs.set(FIRST_MIDNIGHT + DAY + 5 * SECOND);
        trade(1, 5 * SECOND, 100, 3_000_000);

        assertThat(analytics.rollingVwap(1)).isCloseTo(300.0, within(1e-9));
        assertThat(analytics.sessionVwap(1)).as("the new day's session").isCloseTo(300.0, within(1e-9));
    }

    /**
     * The session VWAP is the trading day's: a trade of a new day starts every symbol's afresh, NaN until its first
     * trade of the day; a late trade, or a break, of the day before leaves it be.
     */
    @Test
    void shouldStartEverySymbolsSessionVwapAfreshOnANewDay() throws IOException
    {
        final long elevenPm = 23 * 3_600 * SECOND;
        receivedNs.set(FIRST_MIDNIGHT + elevenPm);
        trade(1, elevenPm, 100, 1_000_000);
        trade(2, elevenPm, 100, 4_000_000);

        receivedNs.set(FIRST_MIDNIGHT + DAY + 5 * SECOND);
        trade(1, 5 * SECOND, 100, 3_000_000);

        assertThat(analytics.sessionVwap(1)).isCloseTo(300.0, within(1e-9));
        assertThat(analytics.sessionVolume(1)).as("of the new day").isEqualTo(100);
        assertThat(analytics.volume(1)).as("of the run").isEqualTo(200);
        assertThat(analytics.sessionVwap(2)).isNaN();
        assertThat(analytics.sessionVolume(2)).isZero();
        assertThat(analytics.publishedSessionVwap(2)).as("published when the day moved").isNaN();
        assertThat(analytics.rollingVwap(2)).isNaN();

        trade(2, DAY - SECOND, 100, 8_000_000);
        brokenTrade(6 * SECOND, 1);

        assertThat(analytics.sessionVwap(2)).as("a late trade of the day before").isNaN();
        assertThat(analytics.sessionVwap(1)).as("a break of the day before").isCloseTo(300.0, within(1e-9));
        assertThat(analytics.trades(1)).isEqualTo(1);
        assertThat(analytics.volume(2)).isEqualTo(200);
        trade(2, 6 * SECOND, 300, 5_000_000);
        assertThat(analytics.publishedSessionVwap(2)).isCloseTo(500.0, within(1e-9));
    }

    /**
     * A new day publishes every symbol's session VWAP afresh also when its first trade leaves the rolling window where
     * it was: a window of 7 s in 60 buckets of 116,666,666 ns has one from 23:59:59.899 to 00:00:00.016.
     */
    @Test
    void shouldPublishEverySymbolsSessionVwapAfreshWhenTheDayMovesWithinABucket()
    {
        final FeedAnalytics sevenSeconds =
            new FeedAnalytics(2, 7 * SECOND, 60, counters, new MidnightNanoClock(receivedNs::get));
        final long millisecond = SECOND / 1_000;
        receivedNs.set(FIRST_MIDNIGHT + DAY + 20 * millisecond);
        sevenSeconds.onTrade(2, DAY - 20 * millisecond, 1_000_000, 100, 1);
        assertThat(sevenSeconds.publishedSessionVwap(2)).isCloseTo(100.0, within(1e-9));

        sevenSeconds.onTrade(1, 10 * millisecond, 2_000_000, 100, 2);

        assertThat(sevenSeconds.publishedSessionVwap(1)).isCloseTo(200.0, within(1e-9));
        assertThat(sevenSeconds.publishedSessionVwap(2)).as("yesterday's no more").isNaN();
    }

    private void add(final int locate, final long timestampNs, final long orderReferenceNumber, final char side,
        final long shares, final long price) throws IOException
    {
        final ITCH50.AddOrder message = new ITCH50.AddOrder();
        message.stockLocate = locate;
        message.timestampHigh = (int)(timestampNs >>> 32);
        message.timestampLow = timestampNs & 0xFFFF_FFFFL;
        message.orderReferenceNumber = orderReferenceNumber;
        message.buySellIndicator = (byte)side;
        message.shares = shares;
        message.stock = Symbols.pack("AAPL");
        message.price = price;
        deliver(message);
    }

    private void addMpid(final int locate, final long timestampNs, final long orderReferenceNumber, final char side,
        final long shares, final long price) throws IOException
    {
        final ITCH50.AddOrderMPID message = new ITCH50.AddOrderMPID();
        message.stockLocate = locate;
        message.timestampHigh = (int)(timestampNs >>> 32);
        message.timestampLow = timestampNs & 0xFFFF_FFFFL;
        message.orderReferenceNumber = orderReferenceNumber;
        message.buySellIndicator = (byte)side;
        message.shares = shares;
        message.stock = Symbols.pack("AAPL");
        message.price = price;
        message.attribution = 0x42525345;
        deliver(message);
    }

    private void executed(final int locate, final long timestampNs, final long orderReferenceNumber,
        final long shares) throws IOException
    {
        final ITCH50.OrderExecuted message = new ITCH50.OrderExecuted();
        message.stockLocate = locate;
        message.timestampHigh = (int)(timestampNs >>> 32);
        message.timestampLow = timestampNs & 0xFFFF_FFFFL;
        message.orderReferenceNumber = orderReferenceNumber;
        message.executedShares = shares;
        message.matchNumber = ++matchNumber;
        deliver(message);
    }

    private void executedWithPrice(final int locate, final long timestampNs, final long orderReferenceNumber,
        final long shares, final char printable, final long price) throws IOException
    {
        final ITCH50.OrderExecutedWithPrice message = new ITCH50.OrderExecutedWithPrice();
        message.stockLocate = locate;
        message.timestampHigh = (int)(timestampNs >>> 32);
        message.timestampLow = timestampNs & 0xFFFF_FFFFL;
        message.orderReferenceNumber = orderReferenceNumber;
        message.executedShares = shares;
        message.matchNumber = ++matchNumber;
        message.printable = (byte)printable;
        message.executionPrice = price;
        deliver(message);
    }

    private void cancel(final int locate, final long timestampNs, final long orderReferenceNumber,
        final long shares) throws IOException
    {
        final ITCH50.OrderCancel message = new ITCH50.OrderCancel();
        message.stockLocate = locate;
        message.timestampHigh = (int)(timestampNs >>> 32);
        message.timestampLow = timestampNs & 0xFFFF_FFFFL;
        message.orderReferenceNumber = orderReferenceNumber;
        message.canceledShares = shares;
        deliver(message);
    }

    private void delete(final int locate, final long timestampNs, final long orderReferenceNumber)
        throws IOException
    {
        final ITCH50.OrderDelete message = new ITCH50.OrderDelete();
        message.stockLocate = locate;
        message.timestampHigh = (int)(timestampNs >>> 32);
        message.timestampLow = timestampNs & 0xFFFF_FFFFL;
        message.orderReferenceNumber = orderReferenceNumber;
        deliver(message);
    }

    private void replace(final int locate, final long timestampNs, final long original, final long replacement,
        final long shares, final long price) throws IOException
    {
        final ITCH50.OrderReplace message = new ITCH50.OrderReplace();
        message.stockLocate = locate;
        message.timestampHigh = (int)(timestampNs >>> 32);
        message.timestampLow = timestampNs & 0xFFFF_FFFFL;
        message.originalOrderReferenceNumber = original;
        message.newOrderReferenceNumber = replacement;
        message.shares = shares;
        message.price = price;
        deliver(message);
    }

    private void trade(final int locate, final long timestampNs, final long shares, final long price)
        throws IOException
    {
        final ITCH50.Trade message = new ITCH50.Trade();
        message.stockLocate = locate;
        message.timestampHigh = (int)(timestampNs >>> 32);
        message.timestampLow = timestampNs & 0xFFFF_FFFFL;
        message.buySellIndicator = 'B';
        message.shares = shares;
        message.stock = Symbols.pack("AAPL");
        message.price = price;
        message.matchNumber = ++matchNumber;
        deliver(message);
    }

    private void brokenTrade(final long timestampNs, final long brokenMatchNumber) throws IOException
    {
        final ITCH50.BrokenTrade message = new ITCH50.BrokenTrade();
        message.stockLocate = 1;
        message.timestampHigh = (int)(timestampNs >>> 32);
        message.timestampLow = timestampNs & 0xFFFF_FFFFL;
        message.matchNumber = brokenMatchNumber;
        deliver(message);
    }

    /** ITCH 5.0 §4.5.2 Cross Trade, 40 bytes with 8-byte Shares, written by hand (juncture's layout is ITCH 4.1's). */
    private void crossTrade(final int locate, final long timestampNs, final long shares, final long price)
        throws IOException
    {
        final ByteBuffer buffer = ByteBuffer.allocate(40);
        buffer.put((byte)'Q').putShort((short)locate).putShort((short)0)
            .putShort((short)(timestampNs >>> 32)).putInt((int)timestampNs)
            .putLong(shares).putLong(Symbols.pack("AAPL")).putInt((int)price).putLong(++matchNumber).put((byte)'C');
        adapter.message(buffer.flip());
    }

    /** Feeds the adapter ITCH messages. */
    private interface Feeding
    {
        void run() throws IOException;
    }

    /** @return what the feeding wrote to the standard error stream. */
    private static String standardError(final Feeding feeding) throws IOException
    {
        final ByteArrayOutputStream log = new ByteArrayOutputStream();
        final PrintStream stderr = System.err;
        System.setErr(new PrintStream(log, true, StandardCharsets.UTF_8));
        try
        {
            feeding.run();
        }
        finally
        {
            System.setErr(stderr);
        }
        return log.toString(StandardCharsets.UTF_8);
    }

    private void stockDirectory(final int locate, final String symbol) throws IOException
    {
        final ITCH50.StockDirectory message = new ITCH50.StockDirectory();
        message.stockLocate = locate;
        message.timestampLow = T;
        message.stock = Symbols.pack(symbol);
        deliver(message);
    }

    private void deliver(final ITCH50.Message message) throws IOException
    {
        final ByteBuffer buffer = ByteBuffer.allocate(64);
        message.put(buffer);
        adapter.message(buffer.flip());
    }
}
