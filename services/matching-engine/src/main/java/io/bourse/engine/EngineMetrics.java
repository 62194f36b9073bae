package io.bourse.engine;

import io.bourse.common.metrics.LatencySummary;
import io.prometheus.metrics.core.datapoints.CounterDataPoint;
import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.model.registry.PrometheusRegistry;

/**
 * The shard's Prometheus metrics, with every labelled data point resolved at start-up so that the engine thread
 * only increments: {@code bourse_engine_commands_total{type}}, {@code bourse_engine_events_total{type}},
 * {@code bourse_engine_events_held_total} (events the event stream refused at first, held and published later in
 * order) and the summary {@code bourse_engine_service_time_seconds} (command decoded to all its events published,
 * or held when the event stream pushes back).
 */
final class EngineMetrics
{
    final CounterDataPoint newOrders;
    final CounterDataPoint cancels;
    final CounterDataPoint replaces;
    final CounterDataPoint unknownCommands;
    final CounterDataPoint accepted;
    final CounterDataPoint rejected;
    final CounterDataPoint added;
    final CounterDataPoint executed;
    final CounterDataPoint canceled;
    final CounterDataPoint replaced;
    final Counter eventsHeld;
    final LatencySummary serviceTime;

    EngineMetrics(final PrometheusRegistry registry)
    {
        final Counter commands = Counter.builder().name("bourse_engine_commands_total")
            .help("Commands received by type").labelNames("type").register(registry);
        newOrders = commands.labelValues("new_order");
        cancels = commands.labelValues("cancel_order");
        replaces = commands.labelValues("replace_order");
        unknownCommands = commands.labelValues("unknown");
        final Counter events = Counter.builder().name("bourse_engine_events_total")
            .help("Events published by type").labelNames("type").register(registry);
        accepted = events.labelValues("accepted");
        rejected = events.labelValues("rejected");
        added = events.labelValues("added");
        executed = events.labelValues("executed");
        canceled = events.labelValues("canceled");
        replaced = events.labelValues("replaced");
        eventsHeld = Counter.builder().name("bourse_engine_events_held_total")
            .help("Events the event stream refused at first (back pressure, no subscriber), held and published later")
            .register(registry);
        serviceTime = LatencySummary.register(registry, "bourse_engine_service_time_seconds",
            "Time from a command taken off the input stream to all its events published or held (back pressure)");
    }
}
