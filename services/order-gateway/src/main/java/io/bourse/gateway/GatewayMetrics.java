package io.bourse.gateway;

import io.bourse.common.metrics.ErrorKinds;
import io.bourse.common.metrics.LatencySummary;
import io.bourse.common.metrics.SingleWriterCounter;
import io.prometheus.metrics.core.datapoints.CounterDataPoint;
import io.prometheus.metrics.core.datapoints.GaugeDataPoint;
import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.Gauge;
import io.prometheus.metrics.model.registry.PrometheusRegistry;

import java.util.concurrent.atomic.AtomicLong;

/**
 * The gateway's Prometheus metrics, every labelled data point resolved at start-up so that the agent thread only
 * increments: {@code bourse_gateway_messages_in_total{type}}, {@code bourse_gateway_messages_out_total{type}},
 * {@code bourse_gateway_rejects_total{reason}}, {@code bourse_gateway_sessions}, {@code
 * bourse_gateway_pending_logins} (connections not logged in yet), {@code bourse_gateway_lingering_connections}
 * (closed connections whose socket stays open for the client to take its last packets), {@code
 * bourse_gateway_login_failures_total},
 * {@code bourse_gateway_login_timeouts_total} (connections closed for not logging in in time), {@code
 * bourse_gateway_slow_consumer_disconnects_total} (connections closed because their send buffer was full), {@code
 * bourse_gateway_send_buffer_bytes} (memory allocated for the connections' send buffers), {@code
 * bourse_gateway_order_latency_seconds} (OUCH request received to the
 * engine's answer sent to the client), {@code bourse_gateway_cancel_on_disconnect_total} (cancels sent for the open
 * orders of sessions that ended), {@code bourse_gateway_close_cancels_total} (cancels sent for the orders open at the
 * close of the trading day), {@code bourse_gateway_system_cancels_total} (orders canceled to their owners, OUCH 4.2
 * Canceled 'Z', because a new run of their shard started without them), {@code bourse_gateway_cancels_resent_total}
 * (cancels sent again because a new run of their shard joined the command stream past them and the order is still
 * above the size they asked for, and clients' cancels sent once their shard could take them),
 * {@code bourse_gateway_unmatched_events_total} (engine events of this gateway
 * for orders it no longer knows), {@code bourse_gateway_duplicate_events_total} (engine events heard again after a
 * restart, which the journals already answer), {@code bourse_gateway_replayed_events_total} (engine events
 * replayed from the event archive, those the gateway had not heard when it joined a stream), {@code
 * bourse_gateway_clock_ticks_total{result}} (ClockTicks to the engine shards, {@code sent} or {@code failed}), the
 * session journals' {@code
 * bourse_gateway_journal_written_bytes_total} (records with their headers, private records included), {@code
 * bourse_gateway_journal_records_total} (sequenced messages), {@code bourse_gateway_journal_syncs_total} (forces
 * under {@code bourse.gateway.journal.sync=batch}), {@code bourse_gateway_journal_truncations_total} (torn tails cut
 * off at start-up) and {@code bourse_gateway_journal_pretouched_bytes_total} (zeros the journal pretoucher thread
 * wrote ahead of the records), {@code bourse_gateway_replayed_messages_total} (sequenced messages sent again after a
 * login with a requested sequence number), {@code bourse_gateway_reads_deferred_total} (client reads put off to a
 * later duty cycle because an engine command stream had no room for what one read can carry) and
 * {@code bourse_gateway_errors_total{kind}} (a {@link GatewayError} in lower case, or
 * {@value ErrorKinds#AGENT_EXCEPTION}; {@link ErrorKinds}).
 */
final class GatewayMetrics
{
    final SingleWriterCounter enterOrderIn;
    final SingleWriterCounter replaceOrderIn;
    final SingleWriterCounter cancelOrderIn;
    final SingleWriterCounter modifyOrderIn;
    final SingleWriterCounter unknownIn;
    final SingleWriterCounter systemEventOut;
    final SingleWriterCounter acceptedOut;
    final SingleWriterCounter replacedOut;
    final SingleWriterCounter canceledOut;
    final SingleWriterCounter executedOut;
    final SingleWriterCounter rejectedOut;
    final SingleWriterCounter orderModifiedOut;
    final SingleWriterCounter aiqCanceledOut;
    final SingleWriterCounter brokenTradeOut;
    final SingleWriterCounter cancelPendingOut;
    final SingleWriterCounter cancelRejectOut;
    final SingleWriterCounter orderPriorityUpdateOut;
    final CounterDataPoint cancelOnDisconnect;
    final CounterDataPoint closeCancels;
    final CounterDataPoint systemCancels;
    final CounterDataPoint cancelsResent;
    final GaugeDataPoint sessions;
    final GaugeDataPoint pendingLogins;
    final GaugeDataPoint lingeringConnections;
    final GaugeDataPoint sendBufferBytes;
    final CounterDataPoint loginFailures;
    final CounterDataPoint loginTimeouts;
    final CounterDataPoint slowConsumerDisconnects;
    final CounterDataPoint unmatchedEvents;
    final CounterDataPoint duplicateEvents;
    final CounterDataPoint replayedEvents;
    final CounterDataPoint clockTicksSent;
    final CounterDataPoint clockTicksFailed;
    final SingleWriterCounter journalWrittenBytes;
    final SingleWriterCounter journalRecords;
    final CounterDataPoint journalSyncs;
    /** Kept by the journal pretoucher's thread. */
    final SingleWriterCounter journalPretouchedBytes;
    final CounterDataPoint journalTruncations;
    final CounterDataPoint replayedMessages;
    final SingleWriterCounter readsDeferred;
    final LatencySummary orderLatency;
    private final CounterDataPoint[] rejects;
    private final ErrorKinds<GatewayError> errors = new ErrorKinds<>("order-gateway", GatewayError.class);

    /**
     * @param registry where to register.
     */
    GatewayMetrics(final PrometheusRegistry registry)
    {
        final SingleWriterCounter.Family in = SingleWriterCounter.family(registry,
            "bourse_gateway_messages_in_total", "OUCH messages received by type", "type");
        enterOrderIn = in.counter("enter_order");
        replaceOrderIn = in.counter("replace_order");
        cancelOrderIn = in.counter("cancel_order");
        modifyOrderIn = in.counter("modify_order");
        unknownIn = in.counter("unknown");
        final SingleWriterCounter.Family out = SingleWriterCounter.family(registry,
            "bourse_gateway_messages_out_total", "OUCH sequenced messages produced by type", "type");
        systemEventOut = out.counter("system_event");
        acceptedOut = out.counter("accepted");
        replacedOut = out.counter("replaced");
        canceledOut = out.counter("canceled");
        executedOut = out.counter("executed");
        rejectedOut = out.counter("rejected");
        orderModifiedOut = out.counter("order_modified");
        aiqCanceledOut = out.counter("aiq_canceled");
        brokenTradeOut = out.counter("broken_trade");
        cancelPendingOut = out.counter("cancel_pending");
        cancelRejectOut = out.counter("cancel_reject");
        orderPriorityUpdateOut = out.counter("order_priority_update");
        final Counter rejectCounter = Counter.builder().withoutExemplars().name("bourse_gateway_rejects_total")
            .help("Requests refused, by cause").labelNames("reason").register(registry);
        final RejectCause[] causes = RejectCause.values();
        rejects = new CounterDataPoint[causes.length];
        for (final RejectCause cause : causes)
        {
            rejects[cause.ordinal()] = rejectCounter.labelValues(cause.label());
        }
        sessions = Gauge.builder().name("bourse_gateway_sessions")
            .help("SoupBinTCP sessions logged in").register(registry);
        pendingLogins = Gauge.builder().name("bourse_gateway_pending_logins")
            .help("Connections open that have not logged in yet").register(registry);
        lingeringConnections = Gauge.builder().name("bourse_gateway_lingering_connections")
            .help("Closed connections whose socket is still open for the client to take its last packets")
            .register(registry);
        sendBufferBytes = Gauge.builder().name("bourse_gateway_send_buffer_bytes")
            .help("Direct memory allocated for the connections' send buffers, in use or free for reuse")
            .register(registry);
        loginFailures = Counter.builder().withoutExemplars().name("bourse_gateway_login_failures_total")
            .help("Login Requests rejected").register(registry);
        loginTimeouts = Counter.builder().withoutExemplars().name("bourse_gateway_login_timeouts_total")
            .help("Connections closed because no Login Request came within the login timeout").register(registry);
        slowConsumerDisconnects = Counter.builder().withoutExemplars()
            .name("bourse_gateway_slow_consumer_disconnects_total")
            .help("Connections closed because the client read too slowly for its send buffer").register(registry);
        cancelOnDisconnect = Counter.builder().withoutExemplars().name("bourse_gateway_cancel_on_disconnect_total")
            .help("Cancels sent to the engine for the open orders of sessions that ended").register(registry);
        closeCancels = Counter.builder().withoutExemplars().name("bourse_gateway_close_cancels_total")
            .help("Cancels sent to the engine for the orders open at the close of the trading day").register(registry);
        systemCancels = Counter.builder().withoutExemplars().name("bourse_gateway_system_cancels_total")
            .help("Open orders canceled to their owners (OUCH Canceled 'Z') because their shard restarted without them")
            .register(registry);
        cancelsResent = Counter.builder().withoutExemplars().name("bourse_gateway_cancels_resent_total")
            .help("Cancels sent again: a new run of their shard joined the command stream past them, no run " +
                "answered; or a client's, once its shard could take it")
            .register(registry);
        unmatchedEvents = Counter.builder().withoutExemplars().name("bourse_gateway_unmatched_events_total")
            .help("Engine events for this gateway's orders that it no longer tracks").register(registry);
        duplicateEvents = Counter.builder().withoutExemplars().name("bourse_gateway_duplicate_events_total")
            .help("Engine events heard again after a restart that the session journals already answer")
            .register(registry);
        replayedEvents = Counter.builder().withoutExemplars().name("bourse_gateway_replayed_events_total")
            .help("Engine events replayed from the event archive: those before the position the gateway joined at")
            .register(registry);
        final Counter clockTicks = Counter.builder().withoutExemplars().name("bourse_gateway_clock_ticks_total")
            .help("ClockTicks offered to the engine shards: sent, or failed (not connected, back pressured)")
            .labelNames("result").register(registry);
        clockTicksSent = clockTicks.labelValues("sent");
        clockTicksFailed = clockTicks.labelValues("failed");
        journalWrittenBytes = SingleWriterCounter.register(registry, "bourse_gateway_journal_written_bytes_total",
            "Bytes appended to the session journals, record headers included");
        journalRecords = SingleWriterCounter.register(registry, "bourse_gateway_journal_records_total",
            "Sequenced messages appended to the session journals");
        journalPretouchedBytes = SingleWriterCounter.register(registry,
            "bourse_gateway_journal_pretouched_bytes_total",
            "Bytes of zeros the journal pretoucher thread wrote ahead of the session journals' records");
        journalSyncs = Counter.builder().withoutExemplars().name("bourse_gateway_journal_syncs_total")
            .help("Session journal forces to the device (journal sync batch)").register(registry);
        journalTruncations = Counter.builder().withoutExemplars().name("bourse_gateway_journal_truncations_total")
            .help("Session journals whose torn last record was truncated at start-up").register(registry);
        replayedMessages = Counter.builder().withoutExemplars().name("bourse_gateway_replayed_messages_total")
            .help("Sequenced messages sent again from the journals after a login with a requested sequence number")
            .register(registry);
        readsDeferred = SingleWriterCounter.register(registry, "bourse_gateway_reads_deferred_total",
            "Client reads put off to a later duty cycle: an engine command stream had no room for one read's commands");
        orderLatency = LatencySummary.registerSingleWriter(registry, "bourse_gateway_order_latency_seconds",
            "OUCH request received to the engine's answer sent to the client");
        errors.register(registry, "bourse_gateway_errors_total",
            "Errors by kind: protocol violations, failed connections, ..., agent_exception");
    }

    /**
     * Counts a cancel the gateway sent on its own that a shard took.
     *
     * @param atClose true for the close's cancel of an order open at the close, false for a cancel on disconnect.
     */
    void gatewayCancel(final boolean atClose)
    {
        (atClose ? closeCancels : cancelOnDisconnect).inc();
    }

    /**
     * @param cause why a request was refused.
     */
    void reject(final RejectCause cause)
    {
        rejects[cause.ordinal()].inc();
    }

    /**
     * Counts an error and logs it if it is the first of its kind.
     *
     * @param error  the kind.
     * @param where  who or what it concerns (a user or a remote address), used only for the first of its kind.
     * @param detail what happened, or null.
     */
    void error(final GatewayError error, final Object where, final Object detail)
    {
        errors.error(error, where, detail);
    }

    /**
     * @return the errors by kind, for a caller whose error's description costs something to build: it builds it only
     * for the first of its kind ({@link ErrorKinds#errorToLog}, {@link ErrorKinds#error(Enum, Object, String, long)}).
     */
    ErrorKinds<GatewayError> errors()
    {
        return errors;
    }

    /**
     * @return the count of exceptions that escaped the gateway's agents (the agent runner's and the journal
     * pretoucher's error handlers increment it), {@code bourse_gateway_errors_total{kind="agent_exception"}}.
     */
    AtomicLong agentExceptionCount()
    {
        return errors.agentExceptions();
    }
}
