package io.bourse.common.metrics;

import io.prometheus.metrics.core.metrics.CounterWithCallback;
import io.prometheus.metrics.model.registry.PrometheusRegistry;

import java.util.Locale;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * A service's errors by kind, for a counter {@code <name>{kind}}: the label is the kind's name in lower case, and
 * {@value #AGENT_EXCEPTION} counts the exceptions that escaped the service's agents. Each kind is logged on stderr the
 * first time it happens only, so that bad input cannot flood the log; the counter says how often it happened since.
 * Thread-safe: any thread may count; {@link #error(Enum, Object, String, long)} allocates nothing but the first
 * time's log line.
 *
 * @param <E> the service's kinds of error.
 */
public final class ErrorKinds<E extends Enum<E>>
{
    /** {@code kind} of the exceptions that escaped an agent. */
    public static final String AGENT_EXCEPTION = "agent_exception";

    private final String service;
    private final String[] labels;
    private final AtomicLongArray counts;
    private final AtomicIntegerArray logged;
    private final AtomicLong agentExceptions = new AtomicLong();

    /**
     * @param service the service's name, the log line's prefix, e.g. {@code md-publisher}.
     * @param kinds   the enum of its kinds of error.
     */
    public ErrorKinds(final String service, final Class<E> kinds)
    {
        this.service = service;
        final E[] constants = kinds.getEnumConstants();
        this.labels = new String[constants.length];
        for (final E kind : constants)
        {
            labels[kind.ordinal()] = kind.name().toLowerCase(Locale.ROOT);
        }
        this.counts = new AtomicLongArray(constants.length);
        this.logged = new AtomicIntegerArray(constants.length);
    }

    /**
     * Registers the counter, read at scrape time: one series per kind, and one for {@value #AGENT_EXCEPTION}.
     *
     * @param registry where to register.
     * @param name     the counter's name, ending in {@code _total}.
     * @param help     its help text.
     */
    public void register(final PrometheusRegistry registry, final String name, final String help)
    {
        CounterWithCallback.builder().name(name).help(help).labelNames("kind")
            .callback((callback) ->
            {
                for (int i = 0; i < labels.length; i++)
                {
                    callback.call(counts.get(i), labels[i]);
                }
                callback.call(agentExceptions.get(), AGENT_EXCEPTION);
            })
            .register(registry);
    }

    /**
     * Counts an error and logs it if it is the first of its kind.
     *
     * @param kind   the kind.
     * @param where  who or what it concerns (a user, a remote address, a stream), used only for the first of its kind.
     * @param detail what happened, or null; used only for the first of its kind.
     */
    public void error(final E kind, final Object where, final Object detail)
    {
        counts.incrementAndGet(kind.ordinal());
        if (logged.compareAndSet(kind.ordinal(), 0, 1))
        {
            log(kind, where, detail);
        }
    }

    /**
     * Counts an error and logs it if it is the first of its kind, with no allocation after the first: for errors that
     * may come in numbers, e.g. every event of an order a gap lost.
     *
     * @param kind  the kind.
     * @param where who or what it concerns, used only for the first of its kind.
     * @param what  what the value is, e.g. {@code "order"}, used only for the first of its kind.
     * @param value e.g. the order's reference number, used only for the first of its kind.
     */
    public void error(final E kind, final Object where, final String what, final long value)
    {
        counts.incrementAndGet(kind.ordinal());
        if (logged.compareAndSet(kind.ordinal(), 0, 1))
        {
            log(kind, where, what + " " + value);
        }
    }

    /**
     * Counts an error its caller logs itself, every time (one that is rare and worth a line each, e.g. a replay that
     * failed).
     *
     * @param kind the kind.
     */
    public void increment(final E kind)
    {
        counts.incrementAndGet(kind.ordinal());
    }

    /**
     * @param kind a kind.
     * @return how many errors of that kind were counted.
     */
    public long count(final E kind)
    {
        return counts.get(kind.ordinal());
    }

    private void log(final E kind, final Object where, final Object detail)
    {
        System.err.println("[" + service + "] " + kind + " (" + where + "): " + detail +
            " (further errors of this kind are only counted)");
    }

    /**
     * @return every error counted, agent exceptions included.
     */
    public long total()
    {
        long total = agentExceptions.get();
        for (int i = 0; i < labels.length; i++)
        {
            total += counts.get(i);
        }
        return total;
    }

    /**
     * @return the count of exceptions that escaped the service's agents, for their error handlers to increment
     * ({@code AgentLaunch.countingErrorHandler}, which logs each one).
     */
    public AtomicLong agentExceptions()
    {
        return agentExceptions;
    }
}
