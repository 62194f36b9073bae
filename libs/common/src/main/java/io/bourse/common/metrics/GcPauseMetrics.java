package io.bourse.common.metrics;

import com.sun.management.GarbageCollectionNotificationInfo;
import io.prometheus.metrics.core.metrics.GaugeWithCallback;
import io.prometheus.metrics.core.metrics.Histogram;
import io.prometheus.metrics.model.registry.PrometheusRegistry;

import javax.management.ListenerNotFoundException;
import javax.management.Notification;
import javax.management.NotificationEmitter;
import javax.management.NotificationListener;
import javax.management.openmbean.CompositeData;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * The JVM's stop-the-world GC pauses, from its GC notifications ({@code com.sun.management}, whose durations are whole
 * milliseconds), per collector that pauses ({@code gc}: the collector's MXBean name, e.g. {@code G1 Young Generation},
 * and {@code G1 Concurrent GC} for the Remark and Cleanup pauses of G1's concurrent cycle; not the {@code ... Cycles}
 * collectors of ZGC and Shenandoah, whose cycles run beside the application):
 * <ul>
 *     <li>{@code bourse_jvm_gc_pause_seconds{gc}}, a histogram of the pauses (buckets from 1 ms to 10 s; a pause of
 *     less than a millisecond is recorded as 0);</li>
 *     <li>{@code bourse_jvm_gc_pause_max_seconds{gc}}, the longest pause that ended within the last
 *     {@value #WINDOW_SECONDS} seconds, 0 when none did.</li>
 * </ul>
 * The Prometheus client's {@code jvm_gc_collection_seconds} gives only counts and totals. A maximum over a window
 * always has a value, where a quantile of an interval without a GC has none. Every series is exported from registration
 * on.
 */
public final class GcPauseMetrics implements AutoCloseable
{
    /** How far back {@code bourse_jvm_gc_pause_max_seconds} looks, in seconds. */
    public static final int WINDOW_SECONDS = 60;
    private static final long WINDOW_NS = WINDOW_SECONDS * 1_000_000_000L;

    private final List<NotificationEmitter> emitters = new ArrayList<>();
    private final NotificationListener listener = this::onNotification;
    private final Histogram pauses;
    private final Map<String, PauseWindow> windows = new LinkedHashMap<>();
    private final LongSupplier nanoClock;

    /**
     * Registers both metrics, with a series for each collector that pauses, without listening to anything yet.
     *
     * @param registry   where to register.
     * @param collectors the names of the JVM's GC MXBeans.
     * @param nanoClock  the clock of the window, {@link System#nanoTime()} but in tests.
     */
    GcPauseMetrics(final PrometheusRegistry registry, final List<String> collectors, final LongSupplier nanoClock)
    {
        this.nanoClock = nanoClock;
        pauses = Histogram.builder()
            .name("bourse_jvm_gc_pause_seconds")
            .help("Stop-the-world GC pauses (millisecond resolution), by collector")
            .labelNames("gc")
            .classicOnly()
            .classicUpperBounds(0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10)
            .register(registry);
        for (final String collector : collectors)
        {
            if (pauses(collector))
            {
                pauses.initLabelValues(collector);
                windows.put(collector, new PauseWindow());
            }
        }
        GaugeWithCallback.builder()
            .name("bourse_jvm_gc_pause_max_seconds")
            .help("Longest stop-the-world GC pause that ended in the last " + WINDOW_SECONDS + " s, 0 if none")
            .labelNames("gc")
            .callback((callback) ->
            {
                final long nowNs = nanoClock.getAsLong();
                windows.forEach((gc, window) -> callback.call(window.maxSeconds(nowNs), gc));
            })
            .register(registry);
    }

    /**
     * Registers both metrics and starts listening to the GC notifications of every collector that pauses.
     *
     * @param registry where to register.
     * @return the listening metrics; {@link #close()} stops listening.
     */
    public static GcPauseMetrics register(final PrometheusRegistry registry)
    {
        final List<GarbageCollectorMXBean> collectors = ManagementFactory.getGarbageCollectorMXBeans();
        final GcPauseMetrics metrics = new GcPauseMetrics(
            registry, collectors.stream().map(GarbageCollectorMXBean::getName).toList(), System::nanoTime);
        for (final GarbageCollectorMXBean collector : collectors)
        {
            if (collector instanceof NotificationEmitter emitter && metrics.windows.containsKey(collector.getName()))
            {
                emitter.addNotificationListener(metrics.listener, null, null);
                metrics.emitters.add(emitter);
            }
        }
        return metrics;
    }

    /**
     * @param collectorName a GC MXBean's name.
     * @return false for the collectors whose notifications are concurrent cycles, not pauses: ZGC's and Shenandoah's
     * {@code ... Cycles}.
     */
    static boolean pauses(final String collectorName)
    {
        return !collectorName.endsWith("Cycles");
    }

    /**
     * Records a pause: what a GC notification of a collector that pauses does.
     *
     * @param gc         the collector's name, one registered.
     * @param durationMs the pause, in milliseconds.
     * @param endNs      the window's clock when it ended (or was heard of).
     * @throws NullPointerException for a collector not registered.
     */
    void onPause(final String gc, final long durationMs, final long endNs)
    {
        pauses.labelValues(gc).observe(durationMs / 1000.0);
        windows.get(gc).onPause(durationMs, endNs);
    }

    /** Stops listening to the GC notifications. */
    @Override
    public void close()
    {
        for (final NotificationEmitter emitter : emitters)
        {
            try
            {
                emitter.removeNotificationListener(listener);
            }
            catch (final ListenerNotFoundException ignore)
            {
                // Not listening to it: nothing to stop.
            }
        }
        emitters.clear();
    }

    private void onNotification(final Notification notification, final Object handback)
    {
        if (GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION.equals(notification.getType()))
        {
            final GarbageCollectionNotificationInfo info =
                GarbageCollectionNotificationInfo.from((CompositeData)notification.getUserData());
            if (windows.containsKey(info.getGcName()))
            {
                onPause(info.getGcName(), info.getGcInfo().getDuration(), nanoClock.getAsLong());
            }
        }
    }

    /**
     * The pauses of one collector within the window that may still be its longest: each shorter than every earlier one
     * kept, newest last. Recorded on the JVM's notification thread, read on a scrape's.
     */
    private static final class PauseWindow
    {
        private final ArrayDeque<Pause> pauses = new ArrayDeque<>();

        synchronized void onPause(final long durationMs, final long endNs)
        {
            while (!pauses.isEmpty() && pauses.peekLast().durationMs() <= durationMs)
            {
                pauses.pollLast();
            }
            pauses.addLast(new Pause(durationMs, endNs));
        }

        synchronized double maxSeconds(final long nowNs)
        {
            while (!pauses.isEmpty() && nowNs - pauses.peekFirst().endNs() > WINDOW_NS)
            {
                pauses.pollFirst();
            }
            return pauses.isEmpty() ? 0.0 : pauses.peekFirst().durationMs() / 1000.0;
        }
    }

    private record Pause(long durationMs, long endNs)
    {
    }
}
