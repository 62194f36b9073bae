package io.bourse.bench;

import io.bourse.common.aeron.AgentLaunch;
import io.bourse.common.config.Settings;
import org.agrona.concurrent.IdleStrategy;

import java.util.Map;

/** The {@code --idle} option the benchmarks share: the idle strategy of the server threads, by name. */
final class IdleOption
{
    private IdleOption()
    {
    }

    /**
     * @param idle the option's value.
     * @throws IllegalArgumentException naming the option when the name is unknown or missing.
     */
    static void validate(final String idle)
    {
        try
        {
            newIdleStrategy(idle);
        }
        catch (final IllegalArgumentException ex)
        {
            throw new IllegalArgumentException("--idle must be backoff, busy, yield or sleep: " + idle, ex);
        }
    }

    /**
     * @param idle {@code backoff}, {@code busy}, {@code yield} or {@code sleep}, as
     *             {@link AgentLaunch#idleStrategy(Settings)} knows them.
     * @return a new instance of that strategy (one per thread); a {@code -Dbourse.idle.strategy} system property takes
     * precedence, as it does for every Bourse service.
     * @throws IllegalArgumentException for an unknown or missing name.
     */
    static IdleStrategy newIdleStrategy(final String idle)
    {
        if (null == idle)
        {
            throw new IllegalArgumentException("no idle strategy");
        }
        return AgentLaunch.idleStrategy(
            new Settings(Map.of(Settings.environmentName(AgentLaunch.IDLE_STRATEGY_PROP_NAME), idle)));
    }
}
