package io.bourse.common.aeron;

import io.bourse.common.config.Settings;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.BusySpinIdleStrategy;
import org.agrona.concurrent.IdleStrategy;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class AgentLaunchTest
{
    @Test
    void shouldDefaultToABackoffWithFewSpinsThenYieldsThenParksUpTo50Microseconds()
    {
        assertThat(idleStrategy(null)).isInstanceOf(BackoffIdleStrategy.class).hasToString(
            "BackoffIdleStrategy{alias=backoff, maxSpins=20, maxYields=10, minParkPeriodNs=1000, " +
            "maxParkPeriodNs=50000}");
        assertThat(idleStrategy("backoff")).hasToString(idleStrategy(null).toString());
    }

    @Test
    void shouldTakeTheBackoffsFourNumbersFromTheSetting()
    {
        assertThat(idleStrategy("backoff:100, 0,5,1000")).hasToString(
            "BackoffIdleStrategy{alias=backoff, maxSpins=100, maxYields=0, minParkPeriodNs=5000, " +
            "maxParkPeriodNs=1000000}");
    }

    @Test
    void shouldKnowAgronasOtherStrategiesByName()
    {
        assertThat(idleStrategy("busy")).isInstanceOf(BusySpinIdleStrategy.class);
        assertThat(idleStrategy(" busy ")).as("as the other settings, trimmed").isInstanceOf(BusySpinIdleStrategy.class);
    }

    @ParameterizedTest
    @ValueSource(strings = {"backoff:", "backoff:1,2,3", "backoff:1,2,3,4,5", "backoff:a,2,3,4", "backoff:-1,0,1,2",
        "backoff:1,1,0,2", "backoff:1,1,5,4", "spin"})
    void shouldRefuseABadSettingNamingIt(final String setting)
    {
        assertThatIllegalArgumentException().isThrownBy(() -> idleStrategy(setting))
            .withMessageStartingWith(AgentLaunch.IDLE_STRATEGY_PROP_NAME + ": ");
    }

    private static IdleStrategy idleStrategy(final String setting)
    {
        return AgentLaunch.idleStrategy(new Settings(null == setting ? Map.of() :
            Map.of(Settings.environmentName(AgentLaunch.IDLE_STRATEGY_PROP_NAME), setting)));
    }
}
