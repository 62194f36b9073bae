package io.bourse.common.aeron;

import io.bourse.common.config.Settings;
import org.agrona.ErrorHandler;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.BusySpinIdleStrategy;
import org.agrona.concurrent.IdleStrategy;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;

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
        assertThat(idleStrategy(" busy ")).as("trimmed, as the other settings")
            .isInstanceOf(BusySpinIdleStrategy.class);
    }

    @ParameterizedTest
    @ValueSource(strings = {"backoff:", "backoff:1,2,3", "backoff:1,2,3,4,5", "backoff:a,2,3,4", "backoff:-1,0,1,2",
        "backoff:1,1,0,2", "backoff:1,1,5,4", "spin"})
    void shouldRefuseABadSettingNamingIt(final String setting)
    {
        assertThatIllegalArgumentException().isThrownBy(() -> idleStrategy(setting))
            .withMessageStartingWith(AgentLaunch.IDLE_STRATEGY_PROP_NAME + ": ");
    }

    @Test
    void shouldCountEveryErrorAndLogEachFaultOnceWhateverItsMessage()
    {
        final AtomicLong errors = new AtomicLong();
        final ErrorHandler handler = AgentLaunch.countingErrorHandler("test-agent", errors);
        final ByteArrayOutputStream log = new ByteArrayOutputStream();
        final PrintStream before = System.err;
        System.setErr(new PrintStream(log, true, StandardCharsets.UTF_8));
        try
        {
            for (int position = 0; position < 3; position++)
            {
                handler.onError(new IllegalStateException("ended at position " + position));
            }
            handler.onError(new IllegalStateException("another fault"));
            // Thrown by one library check from two places of Bourse's code: two faults.
            handler.onError(nullFrom(true));
            handler.onError(nullFrom(false));
        }
        finally
        {
            System.setErr(before);
        }

        // The loop's faults are one kind (thrown at one place), the last another.
        final String logged = log.toString(StandardCharsets.UTF_8);
        assertThat(errors.get()).isEqualTo(6);
        assertThat(logged.split("error \\(logged once, counted always\\)", -1)).hasSize(5);
        assertThat(logged).contains("ended at position 0", "another fault", "first place", "second place")
            .doesNotContain("ended at position 1", "ended at position 2");
    }

    private static NullPointerException nullFrom(final boolean firstPlace)
    {
        try
        {
            if (firstPlace)
            {
                Objects.requireNonNull(null, "first place");
            }
            else
            {
                Objects.requireNonNull(null, "second place");
            }
            throw new AssertionError("not thrown");
        }
        catch (final NullPointerException ex)
        {
            return ex;
        }
    }

    private static IdleStrategy idleStrategy(final String setting)
    {
        return AgentLaunch.idleStrategy(new Settings(null == setting ? Map.of() :
            Map.of(Settings.environmentName(AgentLaunch.IDLE_STRATEGY_PROP_NAME), setting)));
    }
}
