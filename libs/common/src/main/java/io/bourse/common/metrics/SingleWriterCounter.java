package io.bourse.common.metrics;

import io.prometheus.metrics.core.metrics.CounterWithCallback;
import io.prometheus.metrics.model.registry.PrometheusRegistry;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Map;
import java.util.concurrent.ConcurrentSkipListMap;

/**
 * A count that one thread keeps (a service's agent, on its hot path) and a Prometheus scrape reads: an increment is a
 * plain add published with release semantics, no atomic read-modify-write. A Prometheus {@code Counter} costs a
 * {@code LongAdder} compare-and-swap per increment, several per order on the gateway and engine threads. Counters are
 * registered as {@link CounterWithCallback} metrics, without labels ({@link #register}) or as a {@link Family} with one
 * label, each label value exported (at 0) from the moment its counter is added at start-up.
 * <p>
 * Only the owning thread may increment; any thread may {@link #get()}.
 */
public final class SingleWriterCounter
{
    private static final VarHandle VALUE;

    static
    {
        try
        {
            VALUE = MethodHandles.lookup().findVarHandle(SingleWriterCounter.class, "value", long.class);
        }
        catch (final ReflectiveOperationException ex)
        {
            throw new ExceptionInInitializerError(ex);
        }
    }

    private long value;

    /** Adds one; owning thread only. */
    public void inc()
    {
        VALUE.setRelease(this, value + 1);
    }

    /**
     * @param amount to add, not negative; owning thread only.
     */
    public void inc(final long amount)
    {
        VALUE.setRelease(this, value + amount);
    }

    /** @return the count, from any thread. */
    public long get()
    {
        return (long)VALUE.getAcquire(this);
    }

    /**
     * Registers a counter family with one label; its counters are added per label value with {@link Family#counter}.
     *
     * @param registry  where to register.
     * @param name      metric name, e.g. {@code bourse_gateway_messages_in_total}.
     * @param help      its help text.
     * @param labelName the label, e.g. {@code type}.
     * @return the family, without counters yet.
     */
    public static Family family(
        final PrometheusRegistry registry, final String name, final String help, final String labelName)
    {
        final Family family = new Family();
        CounterWithCallback.builder().name(name).help(help).labelNames(labelName)
            .callback((callback) -> family.counters.forEach((labelValue, counter) ->
                callback.call(counter.get(), labelValue)))
            .register(registry);
        return family;
    }

    /**
     * Registers a counter without labels.
     *
     * @param registry where to register.
     * @param name     metric name, e.g. {@code bourse_gateway_journal_records_total}.
     * @param help     its help text.
     * @return the counter.
     */
    public static SingleWriterCounter register(final PrometheusRegistry registry, final String name, final String help)
    {
        final SingleWriterCounter counter = new SingleWriterCounter();
        CounterWithCallback.builder().name(name).help(help)
            .callback((callback) -> callback.call(counter.get()))
            .register(registry);
        return counter;
    }

    /** The counters of a labelled family, one per label value, exported from the moment they are added. */
    public static final class Family
    {
        private final Map<String, SingleWriterCounter> counters = new ConcurrentSkipListMap<>();

        private Family()
        {
        }

        /**
         * @param labelValue the label's value, e.g. {@code enter_order}; once per family.
         * @return that value's counter, at 0.
         * @throws IllegalArgumentException when the value has a counter already.
         */
        public SingleWriterCounter counter(final String labelValue)
        {
            final SingleWriterCounter counter = new SingleWriterCounter();
            if (null != counters.putIfAbsent(labelValue, counter))
            {
                throw new IllegalArgumentException("label value already has a counter: " + labelValue);
            }
            return counter;
        }
    }
}
