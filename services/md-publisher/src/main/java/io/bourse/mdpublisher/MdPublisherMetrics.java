package io.bourse.mdpublisher;

import io.aeron.Publication;
import io.bourse.common.metrics.ErrorKinds;
import io.bourse.common.metrics.LatencySummary;
import io.bourse.sbe.engine.CancelPendingDecoder;
import io.bourse.sbe.engine.CancelRejectedDecoder;
import io.bourse.sbe.engine.CrossCompletedDecoder;
import io.bourse.sbe.engine.OrderAcceptedDecoder;
import io.bourse.sbe.engine.OrderAddedDecoder;
import io.bourse.sbe.engine.OrderCanceledDecoder;
import io.bourse.sbe.engine.OrderExecutedDecoder;
import io.bourse.sbe.engine.OrderPriorityUpdatedDecoder;
import io.bourse.sbe.engine.OrderRejectedDecoder;
import io.bourse.sbe.engine.OrderReplacedDecoder;
import io.bourse.sbe.engine.RunStartedDecoder;
import io.bourse.sbe.engine.TradeBrokenDecoder;
import io.bourse.sbe.engine.TradingStateChangedDecoder;
import io.bourse.sbe.md.AddOrderEncoder;
import io.bourse.sbe.md.BestBidOfferEncoder;
import io.bourse.sbe.md.BrokenTradeEncoder;
import io.bourse.sbe.md.CrossTradeEncoder;
import io.bourse.sbe.md.EndOfFeedEncoder;
import io.bourse.sbe.md.Feed;
import io.bourse.sbe.md.OrderCancelEncoder;
import io.bourse.sbe.md.OrderDeleteEncoder;
import io.bourse.sbe.md.OrderExecutedWithPriceEncoder;
import io.bourse.sbe.md.OrderReplaceEncoder;
import io.bourse.sbe.md.PriceLevelUpdateEncoder;
import io.bourse.sbe.md.StockTradingActionEncoder;
import io.bourse.sbe.md.TradeEncoder;
import io.prometheus.metrics.core.datapoints.CounterDataPoint;
import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.model.registry.PrometheusRegistry;

/**
 * The md-publisher's Prometheus metrics: {@code bourse_md_events_in_total{type}} (engine events read, by SBE message
 * name), {@code bourse_md_messages_out_total{feed,type}} (market-data messages published, by feed, {@code orders},
 * {@code depth}, {@code bbo} or {@code trades}, and SBE message name; a trade counts once on each of its two feeds),
 * {@code bourse_md_publish_latency_seconds} (engine event timestamp to market data published, per message published),
 * {@code bourse_md_snapshots_total{feed}} (snapshots answered to SnapshotRequests),
 * {@code bourse_md_replayed_events_total} (engine events replayed from the event archive into the books, counted in
 * {@code bourse_md_events_in_total} too),
 * {@code bourse_md_drops_total{feed,reason}} (failed offers of market data: an increment not published, or the
 * snapshot message whose failure abandoned the snapshot, the rest of which is not offered; by feed and by reason
 * {@code not_connected},
 * no subscriber; {@code back_pressure}, still back pressured after the bounded retries;
 * {@code closed}, the publication closed or full) and {@code bourse_md_errors_total{kind}} (an {@link MdPublisherError}
 * in lower case, or {@code agent_exception}: {@link ErrorKinds}). Data points are resolved at start-up so that counting
 * allocates nothing.
 */
final class MdPublisherMetrics
{
    private static final int MAX_TEMPLATE_ID = 32;
    private static final Feed[] FEEDS = FeedPublication.FEEDS;

    private final CounterDataPoint[] eventsIn = new CounterDataPoint[MAX_TEMPLATE_ID];
    /** By feed ordinal, then market-data template id. */
    private final CounterDataPoint[][] messagesOut = new CounterDataPoint[FEEDS.length][MAX_TEMPLATE_ID];
    private final LatencySummary publishLatency;
    private final CounterDataPoint[] snapshots = new CounterDataPoint[FEEDS.length];
    /** Engine events replayed from the event archive into the books ({@link EngineEventStreams}). */
    final Counter replayedEvents;
    /** Images of an engine run that joined again after the media driver left the md-publisher behind. */
    final Counter eventStreamRejoins;
    private final CounterDataPoint[] dropsNotConnected = new CounterDataPoint[FEEDS.length];
    private final CounterDataPoint[] dropsBackPressure = new CounterDataPoint[FEEDS.length];
    private final CounterDataPoint[] dropsClosed = new CounterDataPoint[FEEDS.length];

    /**
     * @param registry   where to register.
     * @param errors   read at scrape time as {@code bourse_md_errors_total{kind}}.
     */
    MdPublisherMetrics(final PrometheusRegistry registry, final ErrorKinds<MdPublisherError> errors)
    {
        final Counter events = Counter.builder()
            .name("bourse_md_events_in_total")
            .help("Engine events read, by type")
            .labelNames("type")
            .withoutExemplars()
            .register(registry);
        eventsIn[OrderAcceptedDecoder.TEMPLATE_ID] = events.labelValues("accepted");
        eventsIn[OrderRejectedDecoder.TEMPLATE_ID] = events.labelValues("rejected");
        eventsIn[OrderAddedDecoder.TEMPLATE_ID] = events.labelValues("added");
        eventsIn[OrderExecutedDecoder.TEMPLATE_ID] = events.labelValues("executed");
        eventsIn[OrderCanceledDecoder.TEMPLATE_ID] = events.labelValues("canceled");
        eventsIn[OrderReplacedDecoder.TEMPLATE_ID] = events.labelValues("replaced");
        eventsIn[TradeBrokenDecoder.TEMPLATE_ID] = events.labelValues("trade_broken");
        eventsIn[CancelPendingDecoder.TEMPLATE_ID] = events.labelValues("cancel_pending");
        eventsIn[CancelRejectedDecoder.TEMPLATE_ID] = events.labelValues("cancel_rejected");
        eventsIn[CrossCompletedDecoder.TEMPLATE_ID] = events.labelValues("cross_completed");
        eventsIn[OrderPriorityUpdatedDecoder.TEMPLATE_ID] = events.labelValues("order_priority_updated");
        eventsIn[TradingStateChangedDecoder.TEMPLATE_ID] = events.labelValues("trading_state_changed");
        eventsIn[RunStartedDecoder.TEMPLATE_ID] = events.labelValues("run_started");

        final Counter messages = Counter.builder()
            .name("bourse_md_messages_out_total")
            .help("Market-data messages published, by feed and type")
            .labelNames("feed", "type")
            .withoutExemplars()
            .register(registry);
        final CounterDataPoint[] orders = messagesOut[Feed.ORDERS.ordinal()];
        orders[AddOrderEncoder.TEMPLATE_ID] = messages.labelValues("orders", "add_order");
        orders[io.bourse.sbe.md.OrderExecutedEncoder.TEMPLATE_ID] = messages.labelValues("orders", "order_executed");
        orders[OrderExecutedWithPriceEncoder.TEMPLATE_ID] =
            messages.labelValues("orders", "order_executed_with_price");
        orders[OrderCancelEncoder.TEMPLATE_ID] = messages.labelValues("orders", "order_cancel");
        orders[OrderDeleteEncoder.TEMPLATE_ID] = messages.labelValues("orders", "order_delete");
        orders[OrderReplaceEncoder.TEMPLATE_ID] = messages.labelValues("orders", "order_replace");
        orders[StockTradingActionEncoder.TEMPLATE_ID] = messages.labelValues("orders", "stock_trading_action");
        for (final Feed feed : new Feed[]{Feed.ORDERS, Feed.TRADES})
        {
            final CounterDataPoint[] ofFeed = messagesOut[feed.ordinal()];
            ofFeed[TradeEncoder.TEMPLATE_ID] = messages.labelValues(label(feed), "trade");
            ofFeed[BrokenTradeEncoder.TEMPLATE_ID] = messages.labelValues(label(feed), "broken_trade");
            ofFeed[CrossTradeEncoder.TEMPLATE_ID] = messages.labelValues(label(feed), "cross_trade");
        }
        messagesOut[Feed.DEPTH.ordinal()][PriceLevelUpdateEncoder.TEMPLATE_ID] =
            messages.labelValues("depth", "price_level_update");
        messagesOut[Feed.BBO.ordinal()][BestBidOfferEncoder.TEMPLATE_ID] =
            messages.labelValues("bbo", "best_bid_offer");
        for (final Feed feed : FEEDS)
        {
            messagesOut[feed.ordinal()][EndOfFeedEncoder.TEMPLATE_ID] =
                messages.labelValues(label(feed), "end_of_feed");
        }

        publishLatency = LatencySummary.register(
            registry, "bourse_md_publish_latency_seconds", "Engine event timestamp to market data published");

        final Counter snapshotsByFeed = Counter.builder()
            .name("bourse_md_snapshots_total")
            .help("Snapshots of every book published on a feed's stream, one per SnapshotRequest answered, by feed")
            .labelNames("feed")
            .withoutExemplars()
            .register(registry);

        replayedEvents = Counter.builder()
            .name("bourse_md_replayed_events_total")
            .help("Engine events replayed from the event archive into the books, of runs the md-publisher joined late")
            .withoutExemplars()
            .register(registry);

        eventStreamRejoins = Counter.builder()
            .name("bourse_md_event_stream_rejoins_total")
            .help("Later images of the engine run the md-publisher reads, caught up from the event archive: each " +
                "joined again after the media driver left the md-publisher behind (untethered, with the archive)")
            .withoutExemplars()
            .register(registry);

        final Counter drops = Counter.builder()
            .name("bourse_md_drops_total")
            .help("Market-data offers that failed (an increment, or the message that abandoned a snapshot), " +
                "by feed and reason")
            .labelNames("feed", "reason")
            .withoutExemplars()
            .register(registry);
        for (final Feed feed : FEEDS)
        {
            snapshots[feed.ordinal()] = snapshotsByFeed.labelValues(label(feed));
            dropsNotConnected[feed.ordinal()] = drops.labelValues(label(feed), "not_connected");
            dropsBackPressure[feed.ordinal()] = drops.labelValues(label(feed), "back_pressure");
            dropsClosed[feed.ordinal()] = drops.labelValues(label(feed), "closed");
        }

        errors.register(registry, "bourse_md_errors_total",
            "Errors by kind: events that did not fit the books, unreadable messages, failed offers, agent exceptions");
    }

    /**
     * @param feed a market-data feed.
     * @return its value of the {@code feed} label: {@code orders}, {@code depth}, {@code bbo} or {@code trades}.
     */
    static String label(final Feed feed)
    {
        return switch (feed)
        {
            case ORDERS -> "orders";
            case DEPTH -> "depth";
            case BBO -> "bbo";
            case TRADES -> "trades";
            case NULL_VAL -> throw new IllegalArgumentException("no feed");
        };
    }

    /** @param templateId engine event template id, known to {@link EngineEventAdapter}. */
    void onEventIn(final int templateId)
    {
        eventsIn[templateId].inc();
    }

    /**
     * Counts one market-data message that was not published.
     *
     * @param feed        the feed it was for.
     * @param offerResult the last {@link Publication#offer} result, negative.
     */
    void onDrop(final Feed feed, final long offerResult)
    {
        if (Publication.NOT_CONNECTED == offerResult)
        {
            dropsNotConnected[feed.ordinal()].inc();
        }
        else if (Publication.BACK_PRESSURED == offerResult || Publication.ADMIN_ACTION == offerResult)
        {
            dropsBackPressure[feed.ordinal()].inc();
        }
        else
        {
            dropsClosed[feed.ordinal()].inc();
        }
    }

    /**
     * Counts one snapshot published whole.
     *
     * @param feed the feed it was published on.
     */
    void onSnapshot(final Feed feed)
    {
        snapshots[feed.ordinal()].inc();
    }

    /**
     * @param feed       the feed it was published on.
     * @param templateId market-data template id, one that feed carries.
     * @param latencyNs  engine event timestamp to published, in nanoseconds.
     */
    void onMessageOut(final Feed feed, final int templateId, final long latencyNs)
    {
        messagesOut[feed.ordinal()][templateId].inc();
        publishLatency.recordNs(latencyNs);
    }

    /**
     * Counts a feed's EndOfFeed published, in the messages out; it answers no engine event, so no latency.
     *
     * @param feed the feed ended.
     */
    void onEndOfFeed(final Feed feed)
    {
        messagesOut[feed.ordinal()][EndOfFeedEncoder.TEMPLATE_ID].inc();
    }
}
