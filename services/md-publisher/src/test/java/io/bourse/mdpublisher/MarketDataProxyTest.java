package io.bourse.mdpublisher;

import io.bourse.common.metrics.ErrorKinds;
import io.aeron.Aeron;
import io.aeron.Subscription;
import io.aeron.driver.MediaDriver;
import io.bourse.common.aeron.BoundedOffer;
import io.bourse.common.aeron.EmbeddedMediaDriver;
import io.bourse.common.aeron.StreamLayout;
import io.bourse.common.config.Symbols;
import io.bourse.common.time.MidnightNanoClock;
import io.bourse.sbe.engine.BookUpdate;
import io.bourse.sbe.md.AddOrderDecoder;
import io.bourse.sbe.md.Feed;
import io.bourse.sbe.md.MessageHeaderDecoder;
import io.bourse.sbe.md.OrderExecutedDecoder;
import io.bourse.sbe.md.TradeDecoder;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import org.agrona.CloseHelper;
import org.agrona.concurrent.BusySpinIdleStrategy;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;

import static io.bourse.common.Await.awaitTrue;
import static io.bourse.sbe.engine.Side.BUY;
import static io.bourse.sbe.engine.Side.SELL;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The md-publisher's event path, engine event to the four feeds' publications ({@link EngineEventAdapter},
 * {@link MarketDataBooks}, {@link MarketDataProxy}), on real publications of an embedded media driver with a
 * subscriber on each feed that counts what it receives.
 */
@Timeout(60)
class MarketDataProxyTest
{
    private static final long T = 34_200_000_000_000L;
    private static final int ORDERS_PER_ROUND = 10_000;
    private static final int EVENTS_PER_ORDER = 6;
    private static final int MAX_WARM_UP_ROUNDS = 20;

    private final com.sun.management.ThreadMXBean threads =
        (com.sun.management.ThreadMXBean)ManagementFactory.getThreadMXBean();
    private final EngineEventEncoder engine = new EngineEventEncoder();
    private final ErrorKinds<MdPublisherError> errors = new ErrorKinds<>("md-publisher", MdPublisherError.class);
    private MediaDriver driver;
    private Aeron aeron;
    private FeedPublication[] feeds;
    private Subscription[] subscribers;
    private final long[] received = new long[FeedPublication.FEEDS.length];
    private final List<Integer> listenedTemplateIds = new ArrayList<>();
    private long listened;
    private EngineEventAdapter adapter;

    @BeforeEach
    void setUp()
    {
        assumeTrue(threads.isThreadAllocatedMemorySupported(), "the JVM measures each thread's allocations");
        threads.setThreadAllocatedMemoryEnabled(true);
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
    }

    private void launchPath(final int l2Depth)
    {
        launchPath(l2Depth, (buffer, offset, length) -> listened++);
    }

    private void launchPath(final int l2Depth, final OrderFeedListener orderFeedListener)
    {
        final MdPublisherMetrics metrics = new MdPublisherMetrics(new PrometheusRegistry(), errors);
        final MarketDataProxy proxy = new MarketDataProxy(feeds[0], feeds[1], feeds[2], feeds[3],
            new BoundedOffer(new BusySpinIdleStrategy(), 1_000_000), orderFeedListener, new MidnightNanoClock(),
            metrics, errors);
        adapter = new EngineEventAdapter(new MarketDataBooks(new long[]{Symbols.pack("AAPL")}, l2Depth, proxy, errors),
            new long[][]{{Symbols.pack("AAPL")}}, metrics, errors);
    }

    @AfterEach
    void tearDown()
    {
        CloseHelper.closeAll(aeron, driver);
    }

    @Test
    void shouldAllocateNothingPerEventOnceWarm()
    {
        launchPath(MarketDataBooks.FULL_DEPTH);
        assertAllocatesNothingOnceWarm();
    }

    @Test
    void shouldAllocateNothingPerEventOnceWarmWithADepthLimitedL2Feed()
    {
        launchPath(2);
        assertAllocatesNothingOnceWarm();
    }

    @Test
    void shouldHandEachOrderFeedIncrementToTheListenerAfterItsOfferEvenWhenTheOfferFails()
    {
        launchPath(MarketDataBooks.FULL_DEPTH, (buffer, offset, length) ->
        {
            final MessageHeaderDecoder header = new MessageHeaderDecoder().wrap(buffer, offset);
            listenedTemplateIds.add(header.templateId());
        });
        subscribers[Feed.ORDERS.ordinal()].close();
        awaitTrue(() -> !feeds[Feed.ORDERS.ordinal()].publication.isConnected());

        onEvent(engine.orderAdded(T, "AAPL", 1, SELL, 100, 1_000_000, 'Y'));
        onEvent(engine.orderExecuted(T, "AAPL", 2, 100, 1_000_000, BUY, 3, 1, 0));

        // The order feed's three increments, none published (no subscriber); not the depth, BBO or trades feeds'.
        assertThat(listenedTemplateIds).containsExactly(
            AddOrderDecoder.TEMPLATE_ID, OrderExecutedDecoder.TEMPLATE_ID, TradeDecoder.TEMPLATE_ID);
        assertThat(feeds[Feed.ORDERS.ordinal()].lastSequenceNumber()).isEqualTo(3);
        assertThat(errors.total()).isEqualTo(0);
    }

    /**
     * Per order, on one of 7 prices around a resting bid: it rests, trades in part, is replaced, trades in part again
     * and is canceled; rounds of 10,000 orders. Warm once a round allocates less than a byte per event (at most
     * {@value #MAX_WARM_UP_ROUNDS} rounds: the interpreter and C1 code allocate what escape analysis removes once C2
     * has compiled the path, which on a busy host can take several rounds), then the round after that must too.
     */
    private void assertAllocatesNothingOnceWarm()
    {
        onEvent(engine.orderAdded(T, "AAPL", 1, BUY, 1_000, 990_000, 'Y'));
        final long lessThanAByteAnEvent = (long)EVENTS_PER_ORDER * ORDERS_PER_ROUND;
        int round = 0;
        while (round < MAX_WARM_UP_ROUNDS && round(round) >= lessThanAByteAnEvent)
        {
            round++;
        }
        final long allocatedBytes = round(round + 1);
        drain();

        for (final Feed feed : FeedPublication.FEEDS)
        {
            assertThat(received[feed.ordinal()]).as("%s received", feed)
                .isPositive()
                .isEqualTo(feeds[feed.ordinal()].lastSequenceNumber());
        }
        assertThat(listened).as("order-feed increments handed to the listener")
            .isEqualTo(feeds[Feed.ORDERS.ordinal()].lastSequenceNumber());
        assertThat(errors.total()).isEqualTo(0);
        // Less than a byte per event over the round after warm-up: an allocation per event or message would be 16 or
        // more.
        assertThat(allocatedBytes).isLessThan(lessThanAByteAnEvent);
    }

    /**
     * @param round from 0; its orders' ids and match numbers follow the earlier rounds'.
     * @return bytes the event path allocated over the round's events.
     */
    private long round(final int round)
    {
        long allocatedBytes = 0;
        for (int i = 1; i <= ORDERS_PER_ROUND; i++)
        {
            final long orderId = 2L * ((long)round * ORDERS_PER_ROUND + i);
            final long matchNumber = orderId;
            final long price = 1_000_000 + i % 7;
            allocatedBytes += onEvent(engine.orderAdded(T, "AAPL", orderId, SELL, 100, price, 'Y'));
            allocatedBytes += onEvent(engine.orderExecuted(
                T, "AAPL", matchNumber, 30, price, BUY, 1_000_000_000 + orderId, orderId, 70));
            allocatedBytes += onEvent(engine.orderReplaced(
                T, "AAPL", orderId, orderId + 1, SELL, 60, price + 1, BookUpdate.REPLACED));
            allocatedBytes += onEvent(engine.orderExecuted(
                T, "AAPL", matchNumber + 1, 20, price + 1, BUY, 1_000_000_000 + orderId, orderId + 1, 40));
            allocatedBytes += onEvent(engine.orderCanceled(T, "AAPL", orderId + 1, 40, 0));
            allocatedBytes += onEvent(engine.orderAccepted(T, "AAPL", orderId, SELL, price));
            drain();
        }
        return allocatedBytes;
    }

    private void drain()
    {
        for (int i = 0; i < subscribers.length; i++)
        {
            final int feed = i;
            while (subscribers[i].poll((buffer, offset, length, header) -> received[feed]++, 100) > 0)
            {
                Thread.onSpinWait();
            }
        }
    }

    /** @return the bytes the event path allocated on this thread for one engine event. */
    private long onEvent(final int length)
    {
        final long before = threads.getCurrentThreadAllocatedBytes();
        adapter.onFragment(engine.buffer, 0, length, null);
        return threads.getCurrentThreadAllocatedBytes() - before;
    }
}
