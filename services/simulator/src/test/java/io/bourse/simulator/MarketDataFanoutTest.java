package io.bourse.simulator;

import io.aeron.Aeron;
import io.aeron.Publication;
import io.aeron.driver.MediaDriver;
import io.bourse.common.aeron.EmbeddedMediaDriver;
import io.bourse.common.aeron.StreamLayout;
import io.bourse.common.config.Credentials;
import io.bourse.common.config.SymbolDirectory;
import io.bourse.common.metrics.LatencySummary;
import io.bourse.common.time.MidnightNanoClock;
import io.bourse.fanout.FanoutContext;
import io.bourse.fanout.FanoutService;
import io.bourse.itch.MarketDataEncoder;
import io.bourse.sbe.md.Side;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import org.agrona.CloseHelper;
import org.agrona.concurrent.SystemNanoClock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import static io.bourse.common.Await.awaitTrue;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The market-data client against a real fanout (real media driver, SBE market data offered by the test): the books
 * built from the feed by a {@link MarketDataAdapter} over a {@link SoupClient}, then the {@link BookCheck} against a
 * second session's snapshot.
 */
@Timeout(30)
class MarketDataFanoutTest
{
    private static final long T = 34_200_123_456_789L;
    private static final SymbolDirectory SYMBOLS = SymbolDirectory.parse("AAPL@0,MSFT@1");
    private static final Credentials.User USER = new Credentials.User("sub1", "secret1", "SUBA");
    private static final Runnable NOTHING = () ->
    {
    };

    @TempDir
    Path tempDir;

    private final MarketDataEncoder sbe = new MarketDataEncoder();
    private final SimulatorCounters counters = new SimulatorCounters();
    private final FeedAnalytics analytics =
        new FeedAnalytics(2, 60_000_000_000L, 60, counters, new MidnightNanoClock());
    private final OrderBooks books = new OrderBooks(2, 16, analytics);
    private MediaDriver driver;
    private FanoutService fanout;
    private Aeron aeron;
    private StreamLayout layout;
    private Publication marketData;
    private SoupClient session;
    /** ITCH messages the feed session delivered. */
    private long feedMessages;
    /** Times the feed session was opened again. */
    private long feedSessionStarts;

    @BeforeEach
    void setUp() throws IOException
    {
        driver = EmbeddedMediaDriver.launch("simulator-md-test");
        final String aeronDir = driver.aeronDirectoryName();
        final Path credentials = Files.writeString(
            tempDir.resolve("credentials.csv"), "username,password,firm\nsub1,secret1,SUBA\n");
        layout = EmbeddedMediaDriver.defaultLayout(driver);
        fanout = FanoutService.launch(new FanoutContext()
            .layout(layout)
            .symbolDirectory(SYMBOLS)
            .credentialsFile(credentials)
            .port(0)
            .metricsPort(0)
            .jvmMetrics(false)
            .workerCount(1));
        aeron = Aeron.connect(new Aeron.Context().aeronDirectoryName(aeronDir));
        marketData = aeron.addPublication(layout.marketDataChannel(), layout.marketDataStreamId());
        awaitTrue(marketData::isConnected);
        // The md-publisher's answer to the fanout's snapshot request, before anything was published: no book.
        offer(sbe.snapshotComplete(1));
        final MarketDataAdapter adapter = new MarketDataAdapter("feed session", SYMBOLS, counters, books, analytics,
            (messageType, timestampNs) -> feedMessages++);
        session = SoupClient.connect(adapter.sessionName(), "localhost", fanout.port(), USER, adapter, 5_000);
    }

    @AfterEach
    void tearDown()
    {
        CloseHelper.closeAll(session, aeron, fanout, driver);
    }

    @Test
    void shouldBuildTheBookFromTheFeedEqualToTheSnapshotOfASecondSession() throws IOException
    {
        offer(sbe.addOrder(T + 1, "AAPL", 1, Side.BUY, 100, 1_500_000));
        offer(sbe.addOrder(T + 2, "AAPL", 2, Side.BUY, 200, 1_510_000));
        offer(sbe.addOrder(T + 3, "AAPL", 3, Side.SELL, 300, 1_520_000));
        offer(sbe.addOrder(T + 4, "MSFT", 4, Side.SELL, 500, 4_000_000));
        offer(sbe.orderExecuted(T + 5, "AAPL", 2, 50, 1, 1_510_000));
        offer(sbe.orderReplace(T + 6, "AAPL", 1, 5, 150, 1_505_000));
        offer(sbe.orderCancel(T + 7, "AAPL", 3, 100));
        offer(sbe.orderExecuted(T + 8, "MSFT", 4, 500, 2, 4_000_000));
        offer(sbe.addOrder(T + 9, "MSFT", 6, Side.BUY, 10, 3_990_000));
        offer(sbe.orderDelete(T + 10, "MSFT", 6));
        offer(sbe.addOrder(T + 11, "MSFT", 7, Side.BUY, 20, 3_980_000));
        pollUntil(() -> books.orderCount(2) == 1 && books.orders(2).getFirst().orderReferenceNumber() == 7);

        assertThat(books.orders(1)).containsExactly(
            new OrderBooks.Order(2, 'B', 150, 1_510_000),
            new OrderBooks.Order(3, 'S', 200, 1_520_000),
            new OrderBooks.Order(5, 'B', 150, 1_505_000));
        assertThat(analytics.trades(1)).isEqualTo(1);
        assertThat(analytics.sessionVwap(1)).isEqualTo(151.0);
        assertThat(analytics.sessionVwap(2)).isEqualTo(400.0);
        assertThat(counters.get(SimulatorCounter.MD_INCONSISTENCIES)).isZero();

        final BookCheck.Result result =
            BookCheck.run(feed(NOTHING, NOTHING), SYMBOLS, "localhost", fanout.port(), USER, 200, 5_000, counters);

        assertThat(result).isEqualTo(new BookCheck.Result(2, List.of(), null));
        assertThat(result.describe()).isEqualTo("2 symbols equal to the snapshot");
    }

    /**
     * Another client of the exchange changes a book as the check starts: the feed's session goes on reading until
     * both it and the snapshot session are quiet, so the two books take the change alike. Before, the feed's session
     * stopped first, and the check reported the change as a difference.
     */
    @Test
    void shouldCompareTheBooksAfterAChangeThatCameDuringTheCheck() throws IOException
    {
        offer(sbe.addOrder(T + 1, "AAPL", 1, Side.BUY, 100, 1_500_000));
        offer(sbe.addOrder(T + 2, "MSFT", 2, Side.SELL, 100, 4_000_000));
        pollUntil(() -> books.orderCount(2) == 1);
        final int[] looks = new int[1];

        final BookCheck.Result result = BookCheck.run(feed(() ->
        {
            if (2 == ++looks[0]) // the check's first look, its snapshot session logged in
            {
                offer(sbe.orderExecuted(T + 3, "MSFT", 2, 40, 1, 4_000_000));
                offer(sbe.addOrder(T + 4, "AAPL", 3, Side.SELL, 300, 1_520_000));
            }
        }, NOTHING), SYMBOLS, "localhost", fanout.port(), USER, 200, 5_000, counters);

        assertThat(result).isEqualTo(new BookCheck.Result(2, List.of(), null));
        assertThat(books.orders(1)).containsExactly(
            new OrderBooks.Order(1, 'B', 100, 1_500_000), new OrderBooks.Order(3, 'S', 300, 1_520_000));
        assertThat(books.orders(2)).containsExactly(new OrderBooks.Order(2, 'S', 60, 4_000_000));
    }

    @Test
    void shouldReportTheSymbolWhoseBookDiffersFromTheSnapshot() throws IOException
    {
        offer(sbe.addOrder(T + 1, "AAPL", 1, Side.BUY, 100, 1_500_000));
        offer(sbe.addOrder(T + 2, "MSFT", 2, Side.SELL, 100, 4_000_000));
        pollUntil(() -> books.orderCount(2) == 1);
        books.cancel(2, 2, 10);

        final BookCheck.Result result =
            BookCheck.run(feed(NOTHING, NOTHING), SYMBOLS, "localhost", fanout.port(), USER, 200, 5_000, counters);

        assertThat(result).isEqualTo(new BookCheck.Result(2, List.of("MSFT: 1 orders from the feed, 1 in the " +
            "snapshot; first difference: feed order 2 S 90 @ 4000000, snapshot order 2 S 100 @ 4000000"), null));
    }

    @Test
    void shouldLogInAgainWhenTheFanoutEndsTheSessionAndBuildTheBooksFromTheNewSnapshot() throws IOException
    {
        final MarketDataAdapter adapter =
            new MarketDataAdapter("feed session", SYMBOLS, counters, books, analytics, FeedObserver.NONE);
        session.close();
        session = SoupClient.connect("feed session", "localhost", fanout.port(), USER, adapter, 5_000);
        final List<SoupClient> relogins = new ArrayList<>();
        final MarketDataAgent agent = new MarketDataAgent(List.of(session), (index) ->
        {
            adapter.startSession();
            relogins.add(SoupClient.connect("feed session", "localhost", fanout.port(), USER, adapter, 5_000));
            return relogins.getLast();
        }, (index) -> adapter.isEndOfMessages(), new FeedMeter(counters, new LatencyTracker(
            LatencySummary.register(new PrometheusRegistry(), "test_feed_latency_seconds", "test")), 1, 0),
            counters, new MidnightNanoClock(), SystemNanoClock.INSTANCE);
        try
        {
            offer(sbe.addOrder(T + 1, "AAPL", 1, Side.BUY, 100, 1_500_000));
            offer(sbe.addOrder(T + 2, "MSFT", 2, Side.SELL, 100, 4_000_000));
            work(agent, () -> books.orderCount(2) == 1);

            // The md-publisher crashes: its stream goes, unended, and the fanout ends its sessions with End of Session.
            marketData.close();
            work(agent, () -> !agent.isActive(0));
            // The new md-publisher's stream, from sequence number 1, and its snapshot: MSFT 2 was canceled meanwhile.
            final MarketDataEncoder restarted = new MarketDataEncoder();
            marketData = aeron.addPublication(layout.marketDataChannel(), layout.marketDataStreamId());
            awaitTrue(marketData::isConnected);
            offer(restarted, restarted.bookSnapshot(7, 0, "AAPL", new long[] {1, 'B', 100, 1_500_000, T + 1}));
            offer(restarted, restarted.snapshotComplete(7, 1));
            work(agent, () -> agent.isActive(0) && books.orderCount(1) == 1);
            offer(restarted, restarted.addOrder(T + 12, "MSFT", 3, Side.BUY, 20, 3_980_000));
            work(agent, () -> books.orderCount(2) == 1);

            assertThat(relogins).hasSize(1);
            assertThat(books.orders(1)).containsExactly(new OrderBooks.Order(1, 'B', 100, 1_500_000));
            assertThat(books.orders(2)).containsExactly(new OrderBooks.Order(3, 'B', 20, 3_980_000));
            assertThat(counters.get(SimulatorCounter.MD_INCONSISTENCIES)).isZero();
            assertThat(counters.errors().count(SimulatorError.MD_SESSION_LOST))
                .as("a session lost, with no End of Messages").isEqualTo(1);
            assertThat(counters.errors().total()).isEqualTo(1);
        }
        finally
        {
            agent.onClose();
        }
    }

    private static void work(final MarketDataAgent agent, final BooleanSupplier condition)
    {
        awaitTrue(() ->
        {
            agent.doWork();
            return condition.getAsBoolean();
        });
    }

    /** @return {@link #feed(Runnable, Runnable, long)} quiet after 200 ms without a message. */
    private BookCheck.Feed feed(final Runnable atEachLook, final Runnable atFreeze)
    {
        return feed(atEachLook, atFreeze, 200);
    }

    /**
     * @param atEachLook what the exchange does at each of the check's looks at the feed's session, before it is read,
     *                   frozen or not.
     * @param atFreeze   what the exchange does as the check stops the feed's session.
     * @param quietMs    the quiet period.
     * @return the feed's session as the check sees it, read at each look on the test's thread until frozen.
     */
    private BookCheck.Feed feed(final Runnable atEachLook, final Runnable atFreeze, final long quietMs)
    {
        final boolean[] frozen = new boolean[1];
        final SimulatorService.FirstFeed firstFeed = new SimulatorService.FirstFeed()
        {
            @Override
            public long messages()
            {
                atEachLook.run();
                if (!frozen[0])
                {
                    try
                    {
                        session.poll();
                    }
                    catch (final IOException ex)
                    {
                        throw new UncheckedIOException(ex);
                    }
                }
                return feedMessages;
            }

            @Override
            public MoldSession moldSession()
            {
                return null;
            }

            @Override
            public boolean isReloginPending()
            {
                return false;
            }

            @Override
            public long sessionStarts()
            {
                return feedSessionStarts;
            }
        };
        return new FeedQuiet("feed session", firstFeed, TimeUnit.MILLISECONDS.toNanos(quietMs), () ->
        {
            frozen[0] = true;
            atFreeze.run();
            return books;
        }, System.nanoTime());
    }

    /**
     * A change that comes as the check stops the feed's session reaches the snapshot session only: the books are not
     * compared, and the check says why, rather than report a difference the book building did not make. (A quiet
     * period of 1 s, for the change to reach the snapshot session within it.)
     */
    @Test
    void shouldNotCompareTheBooksWhenTheExchangeChangesAsTheFeedsSessionStops() throws IOException
    {
        offer(sbe.addOrder(T + 1, "AAPL", 1, Side.BUY, 100, 1_500_000));
        pollUntil(() -> books.orderCount(1) == 1);

        final BookCheck.Result result = BookCheck.run(feed(NOTHING, () -> offer(sbe.orderDelete(T + 2, "AAPL", 1)),
            1_000), SYMBOLS, "localhost", fanout.port(), USER, 1_000, 5_000, counters);

        assertThat(result).isEqualTo(BookCheck.Result.failed("the exchange changed as feed session stopped for the " +
            "check (0 messages more on it, 1 on the snapshot session): not compared"));
        assertThat(books.orders(1)).as("the feed's books as they stopped").hasSize(1);
    }

    /**
     * A message the feed's session took after the check's last look at it, as it stopped, is seen in its count: the
     * books are not compared.
     */
    @Test
    void shouldNotCompareTheBooksWhenTheFeedsSessionTookAMessageAfterTheLastLook() throws IOException
    {
        offer(sbe.addOrder(T + 1, "AAPL", 1, Side.BUY, 100, 1_500_000));
        pollUntil(() -> books.orderCount(1) == 1);

        final BookCheck.Result result = BookCheck.run(feed(NOTHING, () ->
        {
            offer(sbe.orderDelete(T + 2, "AAPL", 1));
            try
            {
                pollUntil(() -> books.orderCount(1) == 0); // the agent's last duty cycle
            }
            catch (final IOException ex)
            {
                throw new UncheckedIOException(ex);
            }
        }), SYMBOLS, "localhost", fanout.port(), USER, 200, 5_000, counters);

        assertThat(result.failure()).startsWith("the exchange changed as feed session stopped for the check (1 " +
            "messages more on it, ").endsWith(": not compared");
        assertThat(result.symbols()).isZero();
    }

    /**
     * The feed's session lost and logged in again between the check's last look and its stop: its books emptied with
     * no message, the check does not compare them. Before, it compared empty books with the snapshot.
     */
    @Test
    void shouldNotCompareTheBooksWhenTheFeedsSessionWasOpenedAgainAsItStopped() throws IOException
    {
        offer(sbe.addOrder(T + 1, "AAPL", 1, Side.BUY, 100, 1_500_000));
        pollUntil(() -> books.orderCount(1) == 1);

        final BookCheck.Result result = BookCheck.run(feed(NOTHING, () ->
        {
            books.clear(); // as MarketDataAdapter.startSession, on the agent's last duty cycle
            feedSessionStarts++;
        }), SYMBOLS, "localhost", fanout.port(), USER, 200, 5_000, counters);

        assertThat(result).isEqualTo(BookCheck.Result.failed(
            "feed session was opened again as it stopped for the check, its books emptied: not compared"));
    }

    /** A feed's session that is never comparable (here, waiting to log in again) fails the check, saying why. */
    @Test
    void shouldFailTheCheckWhenTheFeedsSessionIsNotComparableInTime() throws IOException
    {
        final SimulatorService.FirstFeed neverLoggedInAgain = new SimulatorService.FirstFeed()
        {
            @Override
            public long messages()
            {
                return 0;
            }

            @Override
            public MoldSession moldSession()
            {
                return null;
            }

            @Override
            public boolean isReloginPending()
            {
                return true;
            }

            @Override
            public long sessionStarts()
            {
                return 0;
            }
        };

        final BookCheck.Result result = BookCheck.run(new FeedQuiet("feed session", neverLoggedInAgain,
            TimeUnit.MILLISECONDS.toNanos(200), () -> books, System.nanoTime()), SYMBOLS, "localhost", fanout.port(),
            USER, 200, 1_000, counters);

        assertThat(result).isEqualTo(BookCheck.Result.failed("feed session was not logged in again"));
    }

    private void pollUntil(final BooleanSupplier condition) throws IOException
    {
        while (!condition.getAsBoolean())
        {
            session.poll();
            Thread.yield();
        }
    }

    private void offer(final int length)
    {
        offer(sbe, length);
    }

    private void offer(final MarketDataEncoder encoder, final int length)
    {
        awaitTrue(() -> marketData.offer(encoder.buffer, 0, length) > 0);
    }
}
