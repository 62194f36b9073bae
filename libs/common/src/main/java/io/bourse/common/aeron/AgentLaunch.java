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
 * backoff} (default, friendly to a 2-core host), {@code busy}, {@code yield} or {@code sleep}), and an error handler
 * that counts and logs each error instead of killing the thread; the thread pins itself to the CPUs its role has in
 * a {@link ThreadAffinity}.
 */
public final class AgentLaunch
{
    /** Setting name of the idle strategy. */
    public static final String IDLE_STRATEGY_PROP_NAME = "bourse.idle.strategy";

    private AgentLaunch()
    {
    }

    /**
     * @param settings source of {@value #IDLE_STRATEGY_PROP_NAME}.
     * @return a new idle strategy instance (one per agent).
     * @throws IllegalArgumentException for an unknown name.
     */
    public static IdleStrategy idleStrategy(final Settings settings)
    {
        final String name = settings.get(IDLE_STRATEGY_PROP_NAME, "backoff");
        return switch (name)
        {
            case "backoff" -> new BackoffIdleStrategy(
                100, 10, TimeUnit.MICROSECONDS.toNanos(1), TimeUnit.MICROSECONDS.toNanos(200));
            case "busy" -> new BusySpinIdleStrategy();
            case "yield" -> new YieldingIdleStrategy();
            case "sleep" -> new SleepingMillisIdleStrategy(1);
            default -> throw new IllegalArgumentException(IDLE_STRATEGY_PROP_NAME + ": unknown " + name);
        };
    }

    /**
     * An error handler that counts every error and logs the first of each kind (exception class and message) with
     * its stack trace, so that a repeating fault does not flood the log; the count shows how often it recurs.
     *
     * @param roleName  name to log with.
     * @param errorCount incremented per error.
     * @return the handler.
     */
    static ErrorHandler countingErrorHandler(final String roleName, final AtomicLong errorCount)
    {
        final Set<String> logged = ConcurrentHashMap.newKeySet();
        return (throwable) ->
        {
            errorCount.incrementAndGet();
            if (logged.add(throwable.getClass().getName() + ": " + throwable.getMessage()))
            {
                System.err.println("[" + roleName + "] error (logged once, counted always): " + throwable);
                throwable.printStackTrace(System.err);
            }
        };
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
