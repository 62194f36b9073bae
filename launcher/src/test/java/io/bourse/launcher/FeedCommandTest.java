package io.bourse.launcher;

import io.aeron.Aeron;
import io.aeron.Publication;
import io.aeron.driver.MediaDriver;
import io.bourse.common.aeron.EmbeddedMediaDriver;
import io.bourse.common.aeron.StreamLayout;
import io.bourse.common.config.SymbolDirectory;
import io.bourse.common.metrics.MetricsEndpoint;
import io.bourse.engine.EngineService;
import io.bourse.mdpublisher.MdPublisherContext;
import io.bourse.mdpublisher.MdPublisherService;
import org.agrona.CloseHelper;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static io.bourse.common.Await.awaitTrue;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code bourse feed} against a real engine shard and md-publisher on an embedded media driver: it joins the BBO and
 * depth feeds after orders rest, prints their snapshots, then the increments that follow.
 */
@Timeout(30)
class FeedCommandTest
{
    private static final String SYMBOLS = "AAPL@0,MSFT@0";

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();
    /** Runs the command, which follows the feed until its count; shut down after each test, stopping a stuck one. */
    private final ExecutorService background = Executors.newSingleThreadExecutor();
    private MediaDriver driver;
    private EngineService engine;
    private MdPublisherService mdPublisher;
    private Aeron aeron;
    private EngineOrders orders;

    @BeforeEach
    void setUp()
    {
        driver = EmbeddedMediaDriver.launch("feed-test");
        final StreamLayout layout = EmbeddedMediaDriver.defaultLayout(driver);
        engine = EngineOrders.launchShard0(layout, SYMBOLS);
        mdPublisher = MdPublisherService.launch(new MdPublisherContext()
            .layout(layout)
            .symbolDirectory(SymbolDirectory.parse(SYMBOLS))
            .metricsPort(0)
            .jvmMetrics(false)
            .moldEnabled(false));
        aeron = Aeron.connect(new Aeron.Context().aeronDirectoryName(driver.aeronDirectoryName()));
        final Publication commands = aeron.addExclusivePublication(layout.commandChannel(), layout.commandStreamId(0));
        awaitTrue(commands::isConnected);
        orders = new EngineOrders(commands);
    }

    @AfterEach
    void tearDown()
    {
        background.shutdownNow();
        CloseHelper.closeAll(aeron, mdPublisher, engine, driver);
    }

    @Test
    void shouldPrintTheBboFeedFromItsSnapshotThenEachIncrementInSequence() throws Exception
    {
        orders.newOrder("BUY", 100, 1_499_900, "ABCD", 'N');
        orders.newOrder("SELL", 200, 1_500_100, "ABCD", 'N');
        orders.newOrder("BUY", 50, 1_499_900, "ABCD", 'N');
        awaitPublished("bbo", 3);

        final Future<Integer> feed =
            background.submit(() -> feed("--feed", "bbo", "--count", "2"));
        awaitTrue(() -> out.toString().contains("snapshot complete"));
        orders.newOrder("BUY", 10, 1_500_000, "ABCD", 'N');
        orders.newOrder("SELL", 200, 1_500_100, "ABCD", 'N');

        assertThat(feed.get()).isEqualTo(0);
        assertThat(err.toString()).isEmpty();
        assertThat(out.toString().lines().skip(1)).containsExactly(
            "#3 snapshot AAPL B 150 @ 149.9900 (2 orders)",
            "#3 snapshot AAPL S 200 @ 150.0100 (1 orders)",
            "#3 snapshot complete: 2 messages; live from #4",
            "#4 BBO AAPL 150.0000 x 10 | 150.0100 x 200",
            "#5 BBO AAPL 150.0000 x 10 | 150.0100 x 400",
            "2 increments printed, 0 gaps, 0 duplicates, 0 other messages skipped");
    }

    @Test
    void shouldPrintTheDepthFeedOfTheChosenSymbolsOnly() throws Exception
    {
        orders.newOrder("MSFT", "BUY", 100, 1_499_900, "ABCD", 'N');
        orders.newOrder("AAPL", "BUY", 300, 1_000_000, "ABCD", 'N');
        orders.newOrder("MSFT", "BUY", 100, 1_499_800, "ABCD", 'N');
        awaitPublished("depth", 3);

        final Future<Integer> feed =
            background.submit(() -> feed("--feed", "depth", "--symbol", "msft", "--count", "1")); // any case
        awaitTrue(() -> out.toString().contains("snapshot complete"));
        orders.newOrder("AAPL", "BUY", 100, 1_000_000, "ABCD", 'N');
        orders.newOrder("MSFT", "SELL", 100, 1_499_900, "ABCD", 'N');

        assertThat(feed.get()).isEqualTo(0);
        assertThat(out.toString().lines().skip(1)).containsExactly(
            "#3 snapshot MSFT B 100 @ 149.9900 (1 orders)",
            "#3 snapshot MSFT B 100 @ 149.9800 (1 orders)",
            "#3 snapshot complete: 2 messages; live from #4",
            "#5 level MSFT B 0 @ 149.9900 (0 orders)",
            "1 increments printed, 0 gaps, 0 duplicates, 0 other messages skipped");
    }

    @Test
    void shouldRefuseAnUnknownFeed()
    {
        assertThat(feed("--feed", "orders")).isEqualTo(2);
        assertThat(feed("--count", "-1")).isEqualTo(2);
        assertThat(feed("--seconds", "-1")).isEqualTo(2);
        assertThat(err.toString()).contains("--feed must be depth, bbo or trades: orders")
            .contains("--count must be 0 (no limit) or positive: -1")
            .contains("--seconds must be 0 (no limit) or positive: -1");
    }

    /** Waits until the md-publisher has published that many increments of the feed, which no one subscribed yet. */
    private void awaitPublished(final String feed, final int increments)
    {
        final String dropped =
            "bourse_md_drops_total{feed=\"" + feed + "\",reason=\"not_connected\"} " + increments + ".0\n";
        awaitTrue(() ->
        {
            try
            {
                return MetricsEndpoint.scrape(mdPublisher.metricsPort()).contains(dropped);
            }
            catch (final Exception ex)
            {
                throw new AssertionError("md-publisher metrics: " + ex, ex);
            }
        });
    }

    /** Runs {@code bourse feed} with the arguments on the test's driver, for 20 s at most unless they say. */
    private int feed(final String... args)
    {
        final List<String> all = new ArrayList<>(List.of("feed"));
        all.addAll(List.of(args));
        all.addAll(List.of("--aeron-dir", driver.aeronDirectoryName()));
        if (!all.contains("--seconds"))
        {
            all.add("--seconds=20");
        }
        return BourseMain.commandLine()
            .setOut(new PrintWriter(out, true))
            .setErr(new PrintWriter(err, true))
            .execute(all.toArray(String[]::new));
    }
}
