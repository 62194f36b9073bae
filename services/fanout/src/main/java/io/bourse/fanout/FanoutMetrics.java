package io.bourse.fanout;

import io.bourse.common.metrics.ErrorKinds;
import io.bourse.common.metrics.LatencySummary;
import io.bourse.itch.ItchMessageTypes;
import io.bourse.sbe.md.AddOrderDecoder;
import io.bourse.sbe.md.BestBidOfferDecoder;
import io.bourse.sbe.md.BookSnapshotDecoder;
import io.bourse.sbe.md.BrokenTradeDecoder;
import io.bourse.sbe.md.CrossTradeDecoder;
import io.bourse.sbe.md.EndOfFeedDecoder;
import io.bourse.sbe.md.OrderCancelDecoder;
import io.bourse.sbe.md.OrderDeleteDecoder;
import io.bourse.sbe.md.OrderExecutedDecoder;
import io.bourse.sbe.md.OrderExecutedWithPriceDecoder;
import io.bourse.sbe.md.OrderReplaceDecoder;
import io.bourse.sbe.md.PriceLevelSnapshotDecoder;
import io.bourse.sbe.md.PriceLevelUpdateDecoder;
import io.bourse.sbe.md.SnapshotCompleteDecoder;
import io.bourse.sbe.md.StockTradingActionDecoder;
import io.bourse.sbe.md.TradeDecoder;
import io.prometheus.metrics.core.datapoints.CounterDataPoint;
import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.Gauge;
import io.prometheus.metrics.core.metrics.GaugeWithCallback;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import org.agrona.concurrent.ringbuffer.RingBuffer;

import java.util.Arrays;
import java.util.Queue;

/**
 * The fanout's Prometheus metrics: {@code bourse_fanout_messages_in_total{type}} (market-data messages read, by SBE
 * message), {@code bourse_fanout_messages_out_total{type}} (ITCH messages written to subscriber sockets, counted per
 * subscriber, by ITCH 5.0 message), {@code bourse_fanout_sessions} (logged-in subscribers), {@code
 * bourse_fanout_drops_total} (messages a worker missed because its ring buffer was full), {@code
 * bourse_fanout_gap_disconnects_total} (sessions whose connection ended because their worker missed messages),
 * {@code bourse_fanout_slow_consumer_disconnects_total} (sessions ended because their send buffer was full, or their
 * socket took none of their awaited answer for 15 s), {@code bourse_fanout_malformed_packets_total} (sessions ended
 * because a packet from the subscriber could not be parsed or handled), {@code bourse_fanout_send_buffer_bytes} (send
 * buffers allocated, summed over workers), {@code bourse_fanout_latency_seconds} (market-data timestamp to ITCH written
 * to the subscriber sockets at the end of the worker's duty cycle, recorded by every worker), {@code
 * bourse_fanout_service_time_seconds} (the same messages from their read off the market-data stream by the dispatcher
 * to then: the fanout's own time, where the latency also counts the gateway, the engine and the md-publisher), {@code
 * bourse_fanout_login_failures_total}, {@code bourse_fanout_login_timeouts_total}, {@code
 * bourse_fanout_pending_login_refusals_total} (connections closed at once because their worker held its most awaiting a
 * Login Request), {@code bourse_fanout_snapshots_total} (books sent as Add Orders, at login or for symbols a
 * subscription added), {@code bourse_fanout_replayed_messages_total} (kept messages sent to one session: a replay from
 * a requested sequence number, or what came while a snapshot was being written), {@code bourse_fanout_subscriptions}
 * (symbols subscribed, summed over logged-in sessions), {@code bourse_fanout_market_data_recoveries_total} (snapshots
 * of the md-publisher's books taken: at start, after a gap, after the publisher changed), {@code
 * bourse_fanout_market_data_gaps_total} (gaps in the market-data stream, and publishers gone) and {@code
 * bourse_fanout_errors_total{kind}} ({@link FanoutError}); and the depths of its queues, read at scrape time: {@code
 * bourse_fanout_worker_ring_bytes{worker}} (market data copied to a worker's ring and not yet read by it) and {@code
 * bourse_fanout_pending_catch_ups} (login and subscription requests not yet taken by the dispatcher: it takes them
 * every duty cycle while it has books, so they wait here during a market-data recovery); and, set by the dispatcher,
 * {@code bourse_fanout_catch_ups_in_progress} (requests it has taken and is still answering: a snapshot or a replay
 * being written to a worker's ring, at most four fragment limits of records per duty cycle, longer while the ring is
 * full; or waiting for one of the worker's answers under way to end, or, a login whose answer had not started at a
 * market-data gap, for the next books). Safe to update from every thread.
 */
final class FanoutMetrics
{
    /** Largest SBE template id of the market-data schema counted by type. */
    private static final int MAX_TEMPLATE_ID = 31;
    /** Per SBE template id of the market-data schema: its {@code type} counter, "other" for any other id. */
    private final CounterDataPoint[] messagesIn = new CounterDataPoint[MAX_TEMPLATE_ID + 1];
    /** Per ITCH 5.0 message type (7-bit ASCII): its {@code type} counter, "other" for a type Bourse does not send. */
    private final CounterDataPoint[] messagesOut = new CounterDataPoint[128];
    private final CounterDataPoint drops;
    private final CounterDataPoint gapDisconnects;
    private final CounterDataPoint slowConsumerDisconnects;
    private final CounterDataPoint malformedPackets;
    private final Gauge sendBufferBytes;
    private final CounterDataPoint loginFailures;
    private final CounterDataPoint loginTimeouts;
    private final CounterDataPoint pendingLoginRefusals;
    private final CounterDataPoint snapshots;
    private final CounterDataPoint replayedMessages;
    private final CounterDataPoint recoveries;
    private final CounterDataPoint marketDataGaps;
    private final Gauge sessions;
    private final Gauge subscriptions;
    private final Gauge catchUpsInProgress;
    private final LatencySummary latency;
    private final LatencySummary serviceTime;

    /**
     * @param registry where to register.
     * @param errors   read at scrape time as {@code bourse_fanout_errors_total{kind}}.
     */
    FanoutMetrics(final PrometheusRegistry registry, final ErrorKinds<FanoutError> errors)
    {
        final Counter in = Counter.builder().name("bourse_fanout_messages_in_total")
            .help("Market-data messages read, by SBE message of the market-data schema").labelNames("type")
            .withoutExemplars().register(registry);
        Arrays.fill(messagesIn, in.labelValues("other"));
        messagesIn[AddOrderDecoder.TEMPLATE_ID] = in.labelValues("add_order");
        messagesIn[OrderExecutedDecoder.TEMPLATE_ID] = in.labelValues("order_executed");
        messagesIn[OrderCancelDecoder.TEMPLATE_ID] = in.labelValues("order_cancel");
        messagesIn[OrderDeleteDecoder.TEMPLATE_ID] = in.labelValues("order_delete");
        messagesIn[OrderReplaceDecoder.TEMPLATE_ID] = in.labelValues("order_replace");
        messagesIn[OrderExecutedWithPriceDecoder.TEMPLATE_ID] = in.labelValues("order_executed_with_price");
        messagesIn[TradeDecoder.TEMPLATE_ID] = in.labelValues("trade");
        messagesIn[PriceLevelUpdateDecoder.TEMPLATE_ID] = in.labelValues("price_level_update");
        messagesIn[BestBidOfferDecoder.TEMPLATE_ID] = in.labelValues("best_bid_offer");
        messagesIn[BrokenTradeDecoder.TEMPLATE_ID] = in.labelValues("broken_trade");
        messagesIn[CrossTradeDecoder.TEMPLATE_ID] = in.labelValues("cross_trade");
        messagesIn[StockTradingActionDecoder.TEMPLATE_ID] = in.labelValues("stock_trading_action");
        messagesIn[BookSnapshotDecoder.TEMPLATE_ID] = in.labelValues("book_snapshot");
        messagesIn[SnapshotCompleteDecoder.TEMPLATE_ID] = in.labelValues("snapshot_complete");
        messagesIn[PriceLevelSnapshotDecoder.TEMPLATE_ID] = in.labelValues("price_level_snapshot");
        messagesIn[EndOfFeedDecoder.TEMPLATE_ID] = in.labelValues("end_of_feed");
        final Counter out = Counter.builder().name("bourse_fanout_messages_out_total")
            .help("ITCH 5.0 messages written to subscriber sockets, counted per subscriber, by type")
            .labelNames("type").withoutExemplars().register(registry);
        Arrays.fill(messagesOut, out.labelValues(ItchMessageTypes.OTHER));
        for (final byte type : ItchMessageTypes.types())
        {
            messagesOut[type] = out.labelValues(ItchMessageTypes.label(type));
        }
        drops = counter(registry, "bourse_fanout_drops_total", "Messages dropped because a worker's ring was full");
        gapDisconnects = counter(registry, "bourse_fanout_gap_disconnects_total",
            "Sessions ended because their worker missed messages");
        slowConsumerDisconnects = counter(registry, "bourse_fanout_slow_consumer_disconnects_total",
            "Sessions ended because their send buffer was full or they took none of their answer for 15 s");
        malformedPackets = counter(registry, "bourse_fanout_malformed_packets_total",
            "Sessions ended because a packet from the subscriber could not be parsed or handled");
        sendBufferBytes = Gauge.builder()
            .name("bourse_fanout_send_buffer_bytes")
            .help("Bytes of subscriber send buffers allocated, in use or free")
            .withoutExemplars()
            .register(registry);
        loginFailures = counter(registry, "bourse_fanout_login_failures_total", "Login Requests rejected");
        loginTimeouts = counter(registry, "bourse_fanout_login_timeouts_total",
            "Connections closed for sending no Login Request within the login timeout");
        pendingLoginRefusals = counter(registry, "bourse_fanout_pending_login_refusals_total",
            "Connections closed at once because their worker held its most connections awaiting a Login Request");
        snapshots = counter(registry, "bourse_fanout_snapshots_total", "Books sent to a session as Add Orders");
        replayedMessages = counter(
            registry, "bourse_fanout_replayed_messages_total", "Kept ITCH messages sent to one session");
        recoveries = counter(registry, "bourse_fanout_market_data_recoveries_total",
            "Snapshots of the md-publisher's books taken: at start, after a gap, after the publisher changed");
        marketDataGaps = counter(registry, "bourse_fanout_market_data_gaps_total",
            "Gaps in the market-data stream, and publishers gone");
        subscriptions = Gauge.builder()
            .name("bourse_fanout_subscriptions")
            .help("Symbols subscribed, summed over logged-in sessions")
            .withoutExemplars()
            .register(registry);
        sessions = Gauge.builder()
            .name("bourse_fanout_sessions")
            .help("Logged-in subscriber sessions")
            .withoutExemplars()
            .register(registry);
        catchUpsInProgress = Gauge.builder()
            .name("bourse_fanout_catch_ups_in_progress")
            .help("Login and subscription requests taken by the dispatcher whose snapshot or replay is being written " +
                "or waits for one of its worker's answers under way to end, or for the books after a market-data gap")
            .withoutExemplars()
            .register(registry);
        latency = LatencySummary.register(registry, "bourse_fanout_latency_seconds",
            "Market-data timestamp to ITCH written to a subscriber socket");
        serviceTime = LatencySummary.register(registry, "bourse_fanout_service_time_seconds",
            "Market-data message read off the stream by the dispatcher to its ITCH written to the subscriber sockets");
        errors.register(registry, "bourse_fanout_errors_total",
            "Errors by kind: failed sessions and catch-ups, bad input, refused connections, agent exceptions");
    }

    /**
     * Registers the queue-depth gauges, read at scrape time.
     *
     * @param registry where to register.
     * @param rings    the workers' rings, by worker id.
     * @param catchUps the catch-up requests the dispatcher has not taken yet.
     */
    static void registerQueues(final PrometheusRegistry registry, final RingBuffer[] rings, final Queue<?> catchUps)
    {
        GaugeWithCallback.builder()
            .name("bourse_fanout_worker_ring_bytes")
            .help("Bytes of market data in a worker's ring not yet read by the worker")
            .labelNames("worker")
            .callback((callback) ->
            {
                for (int workerId = 0; workerId < rings.length; workerId++)
                {
                    callback.call(rings[workerId].size(), Integer.toString(workerId));
                }
            })
            .register(registry);
        GaugeWithCallback.builder()
            .name("bourse_fanout_pending_catch_ups")
            .help("Login and subscription requests not yet taken by the dispatcher (waiting for books)")
            .callback((callback) -> callback.call(catchUps.size()))
            .register(registry);
    }

    private static CounterDataPoint counter(final PrometheusRegistry registry, final String name, final String help)
    {
        return Counter.builder().name(name).help(help).withoutExemplars().register(registry);
    }

    /** @param count catch-up answers the dispatcher is writing now. */
    void catchUpsInProgress(final int count)
    {
        catchUpsInProgress.set(count);
    }

    /** @param templateId SBE template id of a market-data message read, or -1 for one too short to have one. */
    void onMessageIn(final int templateId)
    {
        messagesIn[templateId >= 0 && templateId <= MAX_TEMPLATE_ID ? templateId : 0].inc();
    }

    /**
     * @param type  ITCH 5.0 message type of the messages written.
     * @param count subscriber sockets written to.
     */
    void onMessagesOut(final byte type, final int count)
    {
        messagesOut[type & 0x7F].inc(count);
    }

    void onDrop()
    {
        drops.inc();
    }

    void onGapDisconnects(final int count)
    {
        gapDisconnects.inc(count);
    }

    void onSlowConsumerDisconnect()
    {
        slowConsumerDisconnects.inc();
    }

    void onMalformedPacket()
    {
        malformedPackets.inc();
    }

    /** @return the gauge every worker's {@link io.bourse.common.net.SendBufferPool} adds its allocations to. */
    Gauge sendBufferBytes()
    {
        return sendBufferBytes;
    }

    void onLoginTimeout()
    {
        loginTimeouts.inc();
    }

    void onPendingLoginRefusal()
    {
        pendingLoginRefusals.inc();
    }

    void onLoginFailure()
    {
        loginFailures.inc();
    }

    void onSnapshot()
    {
        snapshots.inc();
    }

    void onReplayed()
    {
        replayedMessages.inc();
    }

    void onRecovered()
    {
        recoveries.inc();
    }

    void onMarketDataGap()
    {
        marketDataGaps.inc();
    }

    void onSubscriptionsChanged(final int delta)
    {
        subscriptions.inc(delta);
    }

    void onSessionOpened()
    {
        sessions.inc();
    }

    void onSessionClosed()
    {
        sessions.dec();
    }

    /**
     * @return the latency summary every worker records into, in nanoseconds.
     */
    LatencySummary latency()
    {
        return latency;
    }

    /**
     * @return the service-time summary every worker records into, in nanoseconds: from the dispatcher's read of a
     * message to its ITCH written at the end of the worker's duty cycle, both on the fanout's clock.
     */
    LatencySummary serviceTime()
    {
        return serviceTime;
    }
}
