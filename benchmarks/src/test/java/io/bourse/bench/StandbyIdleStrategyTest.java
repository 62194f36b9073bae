package io.bourse.bench;

import org.agrona.concurrent.IdleStrategy;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.assertj.core.api.Assertions.assertThat;

class StandbyIdleStrategyTest
{
    private final List<String> calls = new ArrayList<>();
    private final AtomicBoolean standby = new AtomicBoolean();
    private final StandbyIdleStrategy strategy = new StandbyIdleStrategy(new IdleStrategy()
    {
        @Override
        public void idle(final int workCount)
        {
            calls.add("idle " + workCount);
        }

        @Override
        public void idle()
        {
            calls.add("idle");
        }

        @Override
        public void reset()
        {
            calls.add("reset");
        }

        @Override
        public String alias()
        {
            return "recording";
        }
    }, standby);

    @Test
    void shouldFollowTheConfiguredStrategyWhenNotOnStandby()
    {
        strategy.idle(0);
        strategy.idle(3);
        strategy.idle();
        strategy.reset();

        assertThat(calls).containsExactly("idle 0", "idle 3", "idle", "reset");
        assertThat(strategy.alias()).isEqualTo("recording");
    }

    @Test
    void shouldSleepInsteadOfTheConfiguredStrategyOnStandbyWhenThereWasNoWork()
    {
        standby.set(true);

        strategy.idle(0);
        strategy.idle();

        assertThat(calls).isEmpty();
    }

    @Test
    void shouldHandADutyCycleWithWorkToTheConfiguredStrategyOnStandbySoItStartsOverWhenTakenOff()
    {
        standby.set(true);

        strategy.idle(2);
        standby.set(false);
        strategy.idle(0);

        assertThat(calls).containsExactly("idle 2", "idle 0");
    }
}
