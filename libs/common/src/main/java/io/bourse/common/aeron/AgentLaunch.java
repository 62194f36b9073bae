package io.bourse.common.aeron;

import io.bourse.common.config.Settings;
import org.agrona.ErrorHandler;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.AgentRunner;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.BusySpinIdleStrategy;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.SleepingMillisIdleStrategy;
import org.agrona.concurrent.YieldingIdleStrategy;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Starts agents on their own threads with the configured idle strategy ({@code bourse.idle.strategy}: {@code
 * backoff} (default, friendly to a 2-core host), {@code backoff:SPINS,YIELDS,MIN_PARK_US,MAX_PARK_US}, {@code busy},
 * {@code yield} or {@code sleep}), and an error handler that counts and logs each error instead of killing the thread;
 * the thread pins itself to the CPUs its role has in a {@link ThreadAffinity}.
 */
public final class AgentLaunch
{
    /** Setting name of the idle strategy. */
    public static final String IDLE_STRATEGY_PROP_NAME = "bourse.idle.strategy";
    /** Busy polls of the default back-off before it yields. */
    public static final int BACKOFF_SPINS = 20;
    /** {@code Thread.yield()} calls of the default back-off before it parks. */
    public static final int BACKOFF_YIELDS = 10;
    /** First park of the default back-off, in microseconds; each next one doubles. */
    public static final int BACKOFF_MIN_PARK_US = 1;
    /** Longest park of the default back-off, in microseconds. */
    public static final int BACKOFF_MAX_PARK_US = 50;

    private static final String BACKOFF = "backoff";
    private static final String BOURSE_PACKAGE_PREFIX = "io.bourse.";

    private AgentLaunch()
    {
    }

    /**
     * The idle strategy named by {@value #IDLE_STRATEGY_PROP_NAME}:
     * <ul>
     *   <li>{@code backoff} (default): Agrona's {@link BackoffIdleStrategy} with {@value #BACKOFF_SPINS} spins,
     *   {@value #BACKOFF_YIELDS} yields, then parks from {@value #BACKOFF_MIN_PARK_US} us doubling up to
     *   {@value #BACKOFF_MAX_PARK_US} us; few spins, because on a host with more agent threads than cores every
     *   spin takes a core from a thread that has work;</li>
     *   <li>{@code backoff:SPINS,YIELDS,MIN_PARK_US,MAX_PARK_US}: the same with these four numbers, e.g.
     *   {@code backoff:100,10,1,1000};</li>
     *   <li>{@code busy}, {@code yield}, {@code sleep} (1 ms): Agrona's busy-spin, yielding and sleeping strategies.</li>
     * </ul>
     *
     * @param settings source of {@value #IDLE_STRATEGY_PROP_NAME}.
     * @return a new idle strategy instance (one per agent).
     * @throws IllegalArgumentException naming the setting for an unknown name or bad back-off numbers.
     */
    public static IdleStrategy idleStrategy(final Settings settings)
    {
        final String name = settings.get(IDLE_STRATEGY_PROP_NAME, BACKOFF).strip();
        if (name.startsWith(BACKOFF + ":"))
        {
            return backoff(name);
        }
        return switch (name)
        {
            case BACKOFF -> backoff(BACKOFF_SPINS, BACKOFF_YIELDS, BACKOFF_MIN_PARK_US, BACKOFF_MAX_PARK_US);
            case "busy" -> new BusySpinIdleStrategy();
            case "yield" -> new YieldingIdleStrategy();
            case "sleep" -> new SleepingMillisIdleStrategy(1);
            default -> throw new IllegalArgumentException(IDLE_STRATEGY_PROP_NAME + ": unknown " + name);
        };
    }

    private static IdleStrategy backoff(final String spec)
    {
        final String[] numbers = spec.substring(BACKOFF.length() + 1).split(",", -1);
        final String expected = IDLE_STRATEGY_PROP_NAME + ": " + spec +
            ": expected backoff:SPINS,YIELDS,MIN_PARK_US,MAX_PARK_US, four whole numbers, 1 <= MIN_PARK_US <= " +
            "MAX_PARK_US";
        if (4 != numbers.length)
        {
            throw new IllegalArgumentException(expected);
        }
        try
        {
            final int spins = Integer.parseInt(numbers[0].trim());
            final int yields = Integer.parseInt(numbers[1].trim());
            final int minParkUs = Integer.parseInt(numbers[2].trim());
            final int maxParkUs = Integer.parseInt(numbers[3].trim());
            if (spins < 0 || yields < 0 || minParkUs < 1 || maxParkUs < minParkUs)
            {
                throw new IllegalArgumentException(expected);
            }
            return backoff(spins, yields, minParkUs, maxParkUs);
        }
        catch (final NumberFormatException ex)
        {
            throw new IllegalArgumentException(expected, ex);
        }
    }

    private static IdleStrategy backoff(final int spins, final int yields, final int minParkUs, final int maxParkUs)
    {
        return new BackoffIdleStrategy(
            spins, yields, TimeUnit.MICROSECONDS.toNanos(minParkUs), TimeUnit.MICROSECONDS.toNanos(maxParkUs));
    }

    /**
     * An error handler that counts every error and logs the first of each kind (exception class and the innermost
     * frame of Bourse's code it came through, whatever its message: one that carries a position or an order id is
     * still the same fault, and two call sites of one library check are two faults) with its stack trace, so that a
     * repeating fault neither floods the log nor grows the set of kinds logged; the count shows how often it recurs.
     *
     * @param roleName  name to log with.
     * @param errorCount incremented per error.
     * @return the handler.
     */
    public static ErrorHandler countingErrorHandler(final String roleName, final AtomicLong errorCount)
    {
        final Set<String> logged = ConcurrentHashMap.newKeySet();
        return (throwable) ->
        {
            errorCount.incrementAndGet();
            if (logged.add(throwable.getClass().getName() + " at " + innermostBourseFrame(throwable)))
            {
                System.err.println("[" + roleName + "] error (logged once, counted always): " + throwable);
                throwable.printStackTrace(System.err);
            }
        };
    }

    /** @return the innermost frame of Bourse's code in the throwable's stack trace, else its innermost frame. */
    private static String innermostBourseFrame(final Throwable throwable)
    {
        final StackTraceElement[] trace = throwable.getStackTrace();
        for (final StackTraceElement frame : trace)
        {
            if (frame.getClassName().startsWith(BOURSE_PACKAGE_PREFIX))
            {
                return frame.toString();
            }
        }
        return trace.length > 0 ? trace[0].toString() : "";
    }

    /**
     * Starts an agent on a new thread named after its role, not pinned to any CPU.
     *
     * @param agent        the agent.
     * @param idleStrategy its idle strategy.
     * @param errorCount   incremented on every error the agent throws.
     * @return the runner; close it to stop the agent (onClose runs on the agent thread).
     */
    public static AgentRunner start(final Agent agent, final IdleStrategy idleStrategy, final AtomicLong errorCount)
    {
        return start(agent, idleStrategy, ThreadAffinity.NONE, errorCount);
    }

    /**
     * Starts an agent on a new thread named after its role, which first pins itself to the role's CPUs.
     *
     * @param agent          the agent.
     * @param idleStrategy   its idle strategy.
     * @param threadAffinity the CPUs of the agent's role, if it has any.
     * @param errorCount     incremented on every error the agent throws.
     * @return the runner; close it to stop the agent (onClose runs on the agent thread).
     */
    public static AgentRunner start(
        final Agent agent, final IdleStrategy idleStrategy, final ThreadAffinity threadAffinity,
        final AtomicLong errorCount)
    {
        final AgentRunner runner = new AgentRunner(
            idleStrategy, countingErrorHandler(agent.roleName(), errorCount), null, agent);
        AgentRunner.startOnThread(runner, threadAffinity.threadFactory(agent.roleName()));
        return runner;
    }
}
