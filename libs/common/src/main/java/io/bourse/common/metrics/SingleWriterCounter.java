package io.bourse.common.metrics;

import io.prometheus.metrics.core.metrics.CounterWithCallback;
import io.prometheus.metrics.model.registry.PrometheusRegistry;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * A count that one thread keeps (a service's agent, on its hot path) and a Prometheus scrape reads: an increment is a
 * plain add published with release semantics, no atomic read-modify-write. A Prometheus {@code Counter} costs a
 * {@code LongAdder} compare-and-swap per increment, several per order on the gateway and engine threads. Counters are
 * registered as {@link CounterWithCallback} families, every label value present from the start (at 0).
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
     * Registers a counter family with one label and a counter per label value.
     *
     * @param registry    where to register.
     * @param name        metric name, e.g. {@code bourse_gateway_messages_in_total}.
     * @param help        its help text.
     * @param labelName   the label, e.g. {@code type}.
     * @param labelValues the label's values, in the order of the returned counters.
     * @return one counter per label value.
     */
    public static SingleWriterCounter[] register(
        final PrometheusRegistry registry, final String name, final String help, final String labelName,
        final String... labelValues)
    {
        final SingleWriterCounter[] counters = new SingleWriterCounter[labelValues.length];
        for (int i = 0; i < counters.length; i++)
        {
            counters[i] = new SingleWriterCounter();
        }
        CounterWithCallback.builder().name(name).help(help).labelNames(labelName)
            .callback((callback) ->
            {
                for (int i = 0; i < counters.length; i++)
                {
                    callback.call(counters[i].get(), labelValues[i]);
                }
            })
            .register(registry);
        return counters;
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
}
