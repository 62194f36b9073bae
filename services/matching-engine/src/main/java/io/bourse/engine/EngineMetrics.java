package io.bourse.engine;

import io.bourse.common.metrics.LatencySummary;
import io.bourse.common.metrics.SingleWriterCounter;
import io.prometheus.metrics.core.datapoints.CounterDataPoint;
import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.model.registry.PrometheusRegistry;

import java.util.EnumSet;

/**
 * The shard's Prometheus metrics, with every labelled data point resolved at start-up so that the engine thread
 * only increments: {@code bourse_engine_commands_total{type}}, {@code bourse_engine_events_total{type}},
 * {@code bourse_engine_events_held_total} (events the event stream refused at first, held and published later in
 * order), {@code bourse_engine_admin_rejects_total{reason}} (admin commands the shard refused, see
 * {@link AdminReject}) and the summary {@code bourse_engine_service_time_seconds} (command decoded to all its events
 * published, or held when the event stream pushes back).
 */
final class EngineMetrics
{
    final SingleWriterCounter newOrders;
    final SingleWriterCounter cancels;
    final SingleWriterCounter replaces;
    final SingleWriterCounter clockTicks;
    final SingleWriterCounter tradingStates;
    final SingleWriterCounter priceBands;
    final SingleWriterCounter selfTradePreventions;
    final SingleWriterCounter breakTrades;
    final SingleWriterCounter crossLocks;
    final SingleWriterCounter runCrosses;
    final SingleWriterCounter unknownCommands;
    final SingleWriterCounter accepted;
    final SingleWriterCounter rejected;
    final SingleWriterCounter added;
    final SingleWriterCounter executed;
    final SingleWriterCounter canceled;
    final SingleWriterCounter replaced;
    final SingleWriterCounter tradeBroken;
    final SingleWriterCounter cancelPending;
    final SingleWriterCounter cancelRejected;
    final SingleWriterCounter crossCompleted;
    final SingleWriterCounter priorityUpdated;
    final Counter eventsHeld;
    final LatencySummary serviceTime;
    private final CounterDataPoint[] adminRejects;
    private final EnumSet<AdminReject> loggedAdminRejects = EnumSet.noneOf(AdminReject.class);

    EngineMetrics(final PrometheusRegistry registry)
    {
        final SingleWriterCounter[] commands = SingleWriterCounter.register(registry, "bourse_engine_commands_total",
            "Commands received by type", "type",
            "new_order", "cancel_order", "replace_order", "clock_tick", "set_trading_state", "set_price_band",
            "set_self_trade_prevention", "break_trade", "cross_lock", "run_cross", "unknown");
        newOrders = commands[0];
        cancels = commands[1];
        replaces = commands[2];
        clockTicks = commands[3];
        tradingStates = commands[4];
        priceBands = commands[5];
        selfTradePreventions = commands[6];
        breakTrades = commands[7];
        crossLocks = commands[8];
        runCrosses = commands[9];
        unknownCommands = commands[10];
        final SingleWriterCounter[] events = SingleWriterCounter.register(registry, "bourse_engine_events_total",
            "Events published by type", "type",
            "accepted", "rejected", "added", "executed", "canceled", "replaced", "trade_broken", "cancel_pending",
            "cancel_rejected", "cross_completed", "order_priority_updated");
        accepted = events[0];
        rejected = events[1];
        added = events[2];
        executed = events[3];
        canceled = events[4];
        replaced = events[5];
        tradeBroken = events[6];
        cancelPending = events[7];
        cancelRejected = events[8];
        crossCompleted = events[9];
        priorityUpdated = events[10];
        eventsHeld = Counter.builder().withoutExemplars().name("bourse_engine_events_held_total")
            .help("Events the event stream refused at first (back pressure, no subscriber), held and published later")
            .register(registry);
        serviceTime = LatencySummary.registerSingleWriter(registry, "bourse_engine_service_time_seconds",
            "Time from a command taken off the input stream to all its events published or held (back pressure)");
        final Counter admin = Counter.builder().withoutExemplars().name("bourse_engine_admin_rejects_total")
            .help("Admin commands the shard refused, changing nothing, by reason").labelNames("reason")
            .register(registry);
        final AdminReject[] reasons = AdminReject.values();
        adminRejects = new CounterDataPoint[reasons.length];
        for (final AdminReject reason : reasons)
        {
            adminRejects[reason.ordinal()] = admin.labelValues(reason.label());
        }
    }

    /**
     * Counts a refused admin command and logs it if it is the first of its kind. Admin commands are rare, so the
     * detail may be built by the caller.
     *
     * @param reason why it was refused.
     * @param detail what was refused, logged with the first of its kind only.
     */
    void adminRejected(final AdminReject reason, final String detail)
    {
        adminRejects[reason.ordinal()].inc();
        if (loggedAdminRejects.add(reason))
        {
            System.err.println("[matching-engine] admin command refused, " + reason.label() + ": " + detail +
                " (further refusals of this kind are only counted)");
        }
    }
}
