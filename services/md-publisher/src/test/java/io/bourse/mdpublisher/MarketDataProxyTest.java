package io.bourse.mdpublisher;

import io.aeron.Aeron;
import io.aeron.Subscription;
import io.aeron.driver.MediaDriver;
import io.aeron.logbuffer.FragmentHandler;
import io.bourse.common.aeron.BoundedOffer;
import io.bourse.common.aeron.EmbeddedMediaDriver;
import io.bourse.common.aeron.StreamLayout;
import io.bourse.common.config.Symbols;
import io.bourse.common.time.MidnightNanoClock;
import io.bourse.sbe.md.Feed;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import org.agrona.CloseHelper;
import org.agrona.concurrent.BusySpinIdleStrategy;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.lang.management.ManagementFactory;
import java.util.concurrent.atomic.AtomicLong;

import static io.bourse.common.Await.awaitTrue;
import static io.bourse.sbe.engine.Side.BUY;
import static io.bourse.sbe.engine.Side.SELL;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The md-publisher's event path, engine event to the four feeds' publications ({@link EngineEventAdapter},
 * {@link MarketDataBooks}, {@link MarketDataProxy}), on real publications of an embedded media driver with a
 * subscriber on each feed.
 */
@Timeout(60)
class MarketDataProxyTest
{
    private static final long T = 34_200_000_000_000L;
    private static final FragmentHandler DISCARD = (buffer, offset, length, header) -> {};

    private final com.sun.management.ThreadMXBean threads =
        (com.sun.management.ThreadMXBean)ManagementFactory.getThreadMXBean();
    private final EngineEventEncoder engine = new EngineEventEncoder();
    private final AtomicLong errors = new AtomicLong();
    private MediaDriver driver;
    private Aeron aeron;
    private FeedPublication[] feeds;
    private Subscription[] subscribers;
    private EngineEventAdapter adapter;

    @BeforeEach
    void setUp()
    {
        driver = EmbeddedMediaDriver.launch("md-proxy-test");
        final StreamLayout layout = EmbeddedMediaDriver.defaultLayout(driver);
        aeron = Aeron.connect(new Aeron.Context().aeronDirectoryName(driver.aeronDirectoryName()));
        final String[] channels =
            {layout.marketDataChannel(), layout.feedChannel(), layout.feedChannel(), layout.feedChannel()};
        final int[] streamIds =
            {layout.marketDataStreamId(), layout.depthStreamId(), layout.bboStreamId(), layout.tradesStreamId()};
        feeds = new FeedPublication[FeedPublication.FEEDS.length];
        subscribers = new Subscription[feeds.length];
        for (int i = 0; i < feeds.length; i++)
        {
            subscribers[i] = aeron.addSubscription(channels[i], streamIds[i]);
            feeds[i] = new FeedPublication(
                FeedPublication.FEEDS[i], aeron.addExclusivePublication(channels[i], streamIds[i]));
        }
        awaitTrue(() ->
        {
            for (final FeedPublication feed : feeds)
            {
                if (!feed.publication.isConnected())
                {
                    return false;
                }
            }
            return true;
        });
        final MdPublisherMetrics metrics = new MdPublisherMetrics(new PrometheusRegistry(), errors);
        final MarketDataProxy proxy = new MarketDataProxy(feeds[0], feeds[1], feeds[2], feeds[3],
            new BoundedOffer(new BusySpinIdleStrategy(), 1_000_000), new MidnightNanoClock(), metrics, errors);
        adapter = new EngineEventAdapter(
            new MarketDataBooks(new long[]{Symbols.pack("AAPL")}, MarketDataBooks.FULL_DEPTH, proxy, errors),
            metrics, errors);
    }

    @AfterEach
    void tearDown()
    {
        CloseHelper.closeAll(aeron, driver);
    }

    @Test
    void shouldAllocateNothingPerEventOnceWarm()
    {
        final int ordersPerRound = 20_000;
        long allocatedBytes = 0;
        for (int round = 0; round < 4; round++)
        {
            allocatedBytes = 0;
            for (int i = 1; i <= ordersPerRound; i++)
            {
                final long orderId = (long)round * ordersPerRound + i;
                // Rests (AddOrder, a level, the BBO), then trades in full (OrderExecuted and a Trade on the order
                // feed, the Trade on the trades feed, the level and the BBO).
                allocatedBytes += onEvent(engine.orderAdded(T, "AAPL", orderId, SELL, 100, 1_000_000 + i % 7, 'Y'));
                allocatedBytes += onEvent(engine.orderExecuted(
                    T, "AAPL", orderId, 100, 1_000_000 + i % 7, BUY, 1_000_000 + orderId, orderId, 0));
                for (final Subscription subscriber : subscribers)
                {
                    subscriber.poll(DISCARD, 100);
                }
            }
        }

        assertThat(feeds[Feed.ORDERS.ordinal()].lastSequenceNumber()).isEqualTo(4L * ordersPerRound * 3);
        assertThat(feeds[Feed.DEPTH.ordinal()].lastSequenceNumber()).isEqualTo(4L * ordersPerRound * 2);
        assertThat(feeds[Feed.BBO.ordinal()].lastSequenceNumber()).isEqualTo(4L * ordersPerRound * 2);
        assertThat(feeds[Feed.TRADES.ordinal()].lastSequenceNumber()).isEqualTo(4L * ordersPerRound);
        assertThat(errors).hasValue(0);
        // Less than a byte per event over the last 40,000: an allocation per event or message would be 16 or more.
        assertThat(allocatedBytes).isLessThan(2L * ordersPerRound);
    }

    /** @return the bytes the event path allocated on this thread for one engine event. */
    private long onEvent(final int length)
    {
        final long before = threads.getCurrentThreadAllocatedBytes();
        adapter.onFragment(engine.buffer, 0, length, null);
        return threads.getCurrentThreadAllocatedBytes() - before;
    }
}
