package io.bourse.mdpublisher;

import io.aeron.Publication;
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
import io.bourse.sbe.engine.TradeBrokenDecoder;
import io.bourse.sbe.engine.TradingStateChangedDecoder;
import io.bourse.sbe.md.AddOrderEncoder;
import io.bourse.sbe.md.BestBidOfferEncoder;
import io.bourse.sbe.md.BrokenTradeEncoder;
import io.bourse.sbe.md.CrossTradeEncoder;
import io.bourse.sbe.md.OrderCancelEncoder;
import io.bourse.sbe.md.OrderDeleteEncoder;
import io.bourse.sbe.md.OrderExecutedWithPriceEncoder;
import io.bourse.sbe.md.OrderReplaceEncoder;
import io.bourse.sbe.md.PriceLevelUpdateEncoder;
import io.bourse.sbe.md.StockTradingActionEncoder;
import io.bourse.sbe.md.TradeEncoder;
import io.prometheus.metrics.core.datapoints.CounterDataPoint;
import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.CounterWithCallback;
import io.prometheus.metrics.model.registry.PrometheusRegistry;

import java.util.concurrent.atomic.AtomicLong;

/**
 * The md-publisher's Prometheus metrics: {@code bourse_md_events_in_total{type}} (engine events read, by SBE message
 * name), {@code bourse_md_messages_out_total{type}} (market-data messages published, by SBE message name),
 * {@code bourse_md_publish_latency_seconds} (engine event timestamp to market data published),
 * {@code bourse_md_snapshots_total} (snapshots answered to SnapshotRequests),
 * {@code bourse_md_replayed_events_total} (engine events replayed from the event archive into the books, counted in
 * {@code bourse_md_events_in_total} too),
 * {@code bourse_md_drops_total{reason}} (failed offers of market data: an increment not published, or the snapshot
 * message whose failure abandoned the snapshot, the rest of which is not offered; by reason {@code not_connected},
 * no subscriber; {@code back_pressure}, still back pressured after the bounded retries;
 * {@code closed}, the publication closed or full) and {@code bourse_md_errors_total}. Data points are resolved at
 * start-up so that counting allocates nothing.
 */
final class MdPublisherMetrics
{
    private static final int MAX_TEMPLATE_ID = 32;

    private final CounterDataPoint[] eventsIn = new CounterDataPoint[MAX_TEMPLATE_ID];
    private final CounterDataPoint[] messagesOut = new CounterDataPoint[MAX_TEMPLATE_ID];
    private final LatencySummary publishLatency;
    private final Counter snapshots;
    /** Engine events replayed from the event archive into the books ({@link EngineEventStreams}). */
    final Counter replayedEvents;
    private final CounterDataPoint dropsNotConnected;
    private final CounterDataPoint dropsBackPressure;
    private final CounterDataPoint dropsClosed;

    /**
     * @param registry   where to register.
     * @param errorCount read at scrape time as {@code bourse_md_errors_total}.
     */
    MdPublisherMetrics(final PrometheusRegistry registry, final AtomicLong errorCount)
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

        final Counter messages = Counter.builder()
            .name("bourse_md_messages_out_total")
            .help("Market-data messages published, by type")
            .labelNames("type")
            .withoutExemplars()
            .register(registry);
        messagesOut[AddOrderEncoder.TEMPLATE_ID] = messages.labelValues("add_order");
        messagesOut[io.bourse.sbe.md.OrderExecutedEncoder.TEMPLATE_ID] = messages.labelValues("order_executed");
        messagesOut[OrderExecutedWithPriceEncoder.TEMPLATE_ID] = messages.labelValues("order_executed_with_price");
        messagesOut[OrderCancelEncoder.TEMPLATE_ID] = messages.labelValues("order_cancel");
        messagesOut[OrderDeleteEncoder.TEMPLATE_ID] = messages.labelValues("order_delete");
        messagesOut[OrderReplaceEncoder.TEMPLATE_ID] = messages.labelValues("order_replace");
        messagesOut[TradeEncoder.TEMPLATE_ID] = messages.labelValues("trade");
        messagesOut[BrokenTradeEncoder.TEMPLATE_ID] = messages.labelValues("broken_trade");
        messagesOut[CrossTradeEncoder.TEMPLATE_ID] = messages.labelValues("cross_trade");
        messagesOut[StockTradingActionEncoder.TEMPLATE_ID] = messages.labelValues("stock_trading_action");
        messagesOut[PriceLevelUpdateEncoder.TEMPLATE_ID] = messages.labelValues("price_level_update");
        messagesOut[BestBidOfferEncoder.TEMPLATE_ID] = messages.labelValues("best_bid_offer");

        publishLatency = LatencySummary.register(
            registry, "bourse_md_publish_latency_seconds", "Engine event timestamp to market data published");

        snapshots = Counter.builder()
            .name("bourse_md_snapshots_total")
            .help("Snapshots of every book published on the market-data stream, one per SnapshotRequest answered")
            .withoutExemplars()
            .register(registry);

        replayedEvents = Counter.builder()
            .name("bourse_md_replayed_events_total")
            .help("Engine events replayed from the event archive into the books, of runs the md-publisher joined late")
            .withoutExemplars()
            .register(registry);

        final Counter drops = Counter.builder()
            .name("bourse_md_drops_total")
            .help("Market-data offers that failed (an increment, or the message that abandoned a snapshot), by reason")
            .labelNames("reason")
            .withoutExemplars()
            .register(registry);
        dropsNotConnected = drops.labelValues("not_connected");
        dropsBackPressure = drops.labelValues("back_pressure");
        dropsClosed = drops.labelValues("closed");

        CounterWithCallback.builder()
            .name("bourse_md_errors_total")
            .help("Events that did not fit the book, undecodable messages, failed publications and agent errors")
            .callback((callback) -> callback.call(errorCount.get()))
            .register(registry);
    }

    /** @param templateId engine event template id, known to {@link EngineEventAdapter}. */
    void onEventIn(final int templateId)
    {
        eventsIn[templateId].inc();
    }

    /**
     * Counts one market-data message that was not published.
     *
     * @param offerResult the last {@link Publication#offer} result, negative.
     */
    void onDrop(final long offerResult)
    {
        if (Publication.NOT_CONNECTED == offerResult)
        {
            dropsNotConnected.inc();
        }
        else if (Publication.BACK_PRESSURED == offerResult || Publication.ADMIN_ACTION == offerResult)
        {
            dropsBackPressure.inc();
        }
        else
        {
            dropsClosed.inc();
        }
    }

    /** Counts one snapshot published whole. */
    void onSnapshot()
    {
        snapshots.inc();
    }

    /**
     * @param templateId market-data template id.
     * @param latencyNs  engine event timestamp to published, in nanoseconds.
     */
    void onMessageOut(final int templateId, final long latencyNs)
    {
        messagesOut[templateId].inc();
        publishLatency.recordNs(latencyNs);
    }
}
