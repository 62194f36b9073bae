package io.bourse.common.metrics;

import io.prometheus.metrics.core.metrics.CounterWithCallback;
import io.prometheus.metrics.model.registry.PrometheusRegistry;

import java.util.Locale;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.function.LongFunction;

/**
 * A service's errors by kind, for a counter {@code <name>{kind}}: the label is the kind's name in lower case, and
 * {@value #AGENT_EXCEPTION} counts the exceptions that escaped the service's agents. Each kind is logged on stderr the
 * first time it happens only, so that bad input cannot flood the log; the counter says how often it happened since.
 * Thread-safe: any thread may count. What an error's log line says is built only for the first of its kind: with
 * {@link #error(Enum, Object, String, long)} or {@link #error(Enum, Object, LongFunction, long)}, or by the caller once
 * {@link #errorToLog(Enum)} says it is the first; those allocate nothing after it.
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
        if (errorToLog(kind))
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
        if (errorToLog(kind))
        {
            log(kind, where, what + " " + value);
        }
    }

    /**
     * Counts an error and logs it if it is the first of its kind, the value formatted only then: with a function that
     * captures nothing (e.g. {@code Symbols::toString} for an 8-byte symbol), nothing is allocated after the first.
     *
     * @param kind   the kind.
     * @param where  who or what it concerns, used only for the first of its kind.
     * @param format the value's description, called only for the first of its kind.
     * @param value  e.g. a symbol packed in a long.
     */
    public void error(final E kind, final Object where, final LongFunction<String> format, final long value)
    {
        if (errorToLog(kind))
        {
            log(kind, where, format.apply(value));
        }
    }

    /**
     * Counts an error and tells whether it is the first of its kind, for a caller whose description costs something to
     * build (several fields, a remote address): it builds it and calls {@link #log(Enum, Object, Object)} only then.
     *
     * @param kind the kind.
     * @return true for the first error of its kind, which is to be logged; false for the later ones, only counted.
     */
    public boolean errorToLog(final E kind)
    {
        final int index = kind.ordinal();
        counts.incrementAndGet(index);
        return 0 == logged.get(index) && logged.compareAndSet(index, 0, 1); // no write once the first is logged
    }

    /**
     * Logs the first error of its kind, after {@link #errorToLog(Enum)} returned true, as the other methods do: {@code
     * [service] KIND (where): detail (further errors of this kind are only counted)}.
     *
     * @param kind   the kind.
     * @param where  who or what it concerns.
     * @param detail what happened, or null.
     */
    public void log(final E kind, final Object where, final Object detail)
    {
        System.err.println("[" + service + "] " + kind + " (" + where + "): " + detail +
            " (further errors of this kind are only counted)");
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
