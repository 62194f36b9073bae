package io.bourse.engine;

import io.bourse.common.metrics.LatencySummary;
import io.bourse.common.metrics.SingleWriterCounter;
import io.bourse.engine.match.ReasonCodes;
import io.prometheus.metrics.core.datapoints.CounterDataPoint;
import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.model.registry.PrometheusRegistry;

import java.util.Arrays;
import java.util.EnumSet;

/**
 * The shard's Prometheus metrics, with every labelled data point resolved at start-up so that the engine thread
 * only increments: {@code bourse_engine_commands_total{type}}, {@code bourse_engine_events_total{type}},
 * {@code bourse_engine_events_held_total} (events the event stream refused at first, held and published later in
 * order), {@code bourse_engine_duplicate_commands_total} (commands heard again after a restart that an earlier run
 * took, skipped: {@link TakenCommands}), {@code bourse_engine_rejects_total{reason}} (the OrderRejected events by
 * OUCH 4.2 reason), {@code bourse_engine_admin_rejects_total{reason}} (admin commands the shard
 * refused, see {@link AdminReject}) and the summary {@code bourse_engine_service_time_seconds} (command handed over,
 * or the end of the same poll's previous command, to all its events published, or held when the event stream pushes
 * back; {@link CommandAdapter}). The commands include the shard's settings
 * that changed since its earlier runs, taken at its start ({@link StartConfiguration}).
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
    private final SingleWriterCounter rejected;
    /** Per OUCH 4.2 Rejected reason code (7-bit ASCII): its counter, "other" for a code the core does not use. */
    private final SingleWriterCounter[] rejectsByReason = new SingleWriterCounter[128];
    final SingleWriterCounter added;
    final SingleWriterCounter executed;
    final SingleWriterCounter canceled;
    final SingleWriterCounter replaced;
    final SingleWriterCounter tradeBroken;
    final SingleWriterCounter cancelPending;
    final SingleWriterCounter cancelRejected;
    final SingleWriterCounter crossCompleted;
    final SingleWriterCounter priorityUpdated;
    final SingleWriterCounter tradingStateChanged;
    final SingleWriterCounter adminResponse;
    final SingleWriterCounter runStarted;
    final SingleWriterCounter commandStreamJoined;
    final Counter eventsHeld;
    final Counter duplicateCommands;
    final LatencySummary serviceTime;
    private final CounterDataPoint[] adminRejects;
    private final EnumSet<AdminReject> loggedAdminRejects;

    /**
     * @param registry         where the metrics are registered.
     * @param logAdminRejects  true to log the first refused admin command of each kind; false in recovery, where the
     *                         refusals replayed were logged by the run that took them.
     */
    EngineMetrics(final PrometheusRegistry registry, final boolean logAdminRejects)
    {
        loggedAdminRejects = logAdminRejects ? EnumSet.noneOf(AdminReject.class) : EnumSet.allOf(AdminReject.class);
        final SingleWriterCounter.Family commands = SingleWriterCounter.family(registry,
            "bourse_engine_commands_total", "Commands received by type", "type");
        newOrders = commands.counter("new_order");
        cancels = commands.counter("cancel_order");
        replaces = commands.counter("replace_order");
        clockTicks = commands.counter("clock_tick");
        tradingStates = commands.counter("set_trading_state");
        priceBands = commands.counter("set_price_band");
        selfTradePreventions = commands.counter("set_self_trade_prevention");
        breakTrades = commands.counter("break_trade");
        crossLocks = commands.counter("cross_lock");
        runCrosses = commands.counter("run_cross");
        unknownCommands = commands.counter("unknown");
        final SingleWriterCounter.Family events = SingleWriterCounter.family(registry,
            "bourse_engine_events_total", "Events published by type", "type");
        accepted = events.counter("accepted");
        rejected = events.counter("rejected");
        added = events.counter("added");
        executed = events.counter("executed");
        canceled = events.counter("canceled");
        replaced = events.counter("replaced");
        tradeBroken = events.counter("trade_broken");
        cancelPending = events.counter("cancel_pending");
        cancelRejected = events.counter("cancel_rejected");
        crossCompleted = events.counter("cross_completed");
        priorityUpdated = events.counter("order_priority_updated");
        tradingStateChanged = events.counter("trading_state_changed");
        adminResponse = events.counter("admin_response");
        runStarted = events.counter("run_started");
        commandStreamJoined = events.counter("command_stream_joined");
        final SingleWriterCounter.Family rejects = SingleWriterCounter.family(registry, "bourse_engine_rejects_total",
            "Orders and replaces the matching core rejected (OrderRejected events), by OUCH 4.2 reason", "reason");
        final SingleWriterCounter other = rejects.counter("other");
        Arrays.fill(rejectsByReason, other);
        rejectsByReason[ReasonCodes.REJECT_INVALID_STOCK] = rejects.counter("invalid_stock");
        rejectsByReason[ReasonCodes.REJECT_INVALID_PRICE] = rejects.counter("invalid_price");
        rejectsByReason[ReasonCodes.REJECT_SHARES_THRESHOLD] = rejects.counter("shares_threshold");
        rejectsByReason[ReasonCodes.REJECT_INVALID_MINIMUM_QUANTITY] = rejects.counter("invalid_minimum_quantity");
        rejectsByReason[ReasonCodes.REJECT_HALTED] = rejects.counter("halted");
        rejectsByReason[ReasonCodes.REJECT_CLOSED] = rejects.counter("closed");
        rejectsByReason[ReasonCodes.REJECT_INVALID_DISPLAY_TYPE] = rejects.counter("invalid_display_type");
        rejectsByReason[ReasonCodes.REJECT_OUTSIDE_PERMITTED_TIMES] = rejects.counter("outside_permitted_times");
        rejectsByReason[ReasonCodes.REJECT_NOT_ALLOWED_IN_CROSS] = rejects.counter("not_allowed_in_cross");
        eventsHeld = Counter.builder().withoutExemplars().name("bourse_engine_events_held_total")
            .help("Events the event stream refused at first (back pressure, no subscriber), held and published later")
            .register(registry);
        duplicateCommands = Counter.builder().withoutExemplars().name("bourse_engine_duplicate_commands_total")
            .help("Commands heard again after a restart that an earlier run of the shard had taken: skipped")
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
     * Counts an OrderRejected event, by its reason.
     *
     * @param reason OUCH 4.2 Rejected reason code ({@link ReasonCodes}).
     */
    void rejected(final byte reason)
    {
        rejected.inc();
        rejectsByReason[reason & 0x7F].inc();
    }

    /**
     * Counts a refused admin command and logs it if it is the first of its kind (when logging). Admin commands are
     * rare, so the detail may be built by the caller.
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
