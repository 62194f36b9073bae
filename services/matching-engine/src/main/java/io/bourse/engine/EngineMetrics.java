package io.bourse.engine;

import io.bourse.common.metrics.LatencySummary;
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
    final CounterDataPoint newOrders;
    final CounterDataPoint cancels;
    final CounterDataPoint replaces;
    final CounterDataPoint clockTicks;
    final CounterDataPoint tradingStates;
    final CounterDataPoint priceBands;
    final CounterDataPoint selfTradePreventions;
    final CounterDataPoint breakTrades;
    final CounterDataPoint crossLocks;
    final CounterDataPoint runCrosses;
    final CounterDataPoint unknownCommands;
    final CounterDataPoint accepted;
    final CounterDataPoint rejected;
    final CounterDataPoint added;
    final CounterDataPoint executed;
    final CounterDataPoint canceled;
    final CounterDataPoint replaced;
    final CounterDataPoint tradeBroken;
    final CounterDataPoint cancelPending;
    final CounterDataPoint cancelRejected;
    final CounterDataPoint crossCompleted;
    final CounterDataPoint priorityUpdated;
    final Counter eventsHeld;
    final LatencySummary serviceTime;
    private final CounterDataPoint[] adminRejects;
    private final EnumSet<AdminReject> loggedAdminRejects = EnumSet.noneOf(AdminReject.class);

    EngineMetrics(final PrometheusRegistry registry)
    {
        final Counter commands = Counter.builder().withoutExemplars().name("bourse_engine_commands_total")
            .help("Commands received by type").labelNames("type").register(registry);
        newOrders = commands.labelValues("new_order");
        cancels = commands.labelValues("cancel_order");
        replaces = commands.labelValues("replace_order");
        clockTicks = commands.labelValues("clock_tick");
        tradingStates = commands.labelValues("set_trading_state");
        priceBands = commands.labelValues("set_price_band");
        selfTradePreventions = commands.labelValues("set_self_trade_prevention");
        breakTrades = commands.labelValues("break_trade");
        crossLocks = commands.labelValues("cross_lock");
        runCrosses = commands.labelValues("run_cross");
        unknownCommands = commands.labelValues("unknown");
        final Counter events = Counter.builder().withoutExemplars().name("bourse_engine_events_total")
            .help("Events published by type").labelNames("type").register(registry);
        accepted = events.labelValues("accepted");
        rejected = events.labelValues("rejected");
        added = events.labelValues("added");
        executed = events.labelValues("executed");
        canceled = events.labelValues("canceled");
        replaced = events.labelValues("replaced");
        tradeBroken = events.labelValues("trade_broken");
        cancelPending = events.labelValues("cancel_pending");
        cancelRejected = events.labelValues("cancel_rejected");
        crossCompleted = events.labelValues("cross_completed");
        priorityUpdated = events.labelValues("order_priority_updated");
        eventsHeld = Counter.builder().withoutExemplars().name("bourse_engine_events_held_total")
            .help("Events the event stream refused at first (back pressure, no subscriber), held and published later")
            .register(registry);
        serviceTime = LatencySummary.register(registry, "bourse_engine_service_time_seconds",
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
