package io.bourse.common.time;

import org.agrona.concurrent.SystemEpochNanoClock;
import org.junit.jupiter.api.Test;

import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

class MonotonicEpochNanoClockTest
{
    @Test
    void shouldReadTheWallClockAndNeverGoBack()
    {
        final MonotonicEpochNanoClock clock = new MonotonicEpochNanoClock();
        final SystemEpochNanoClock wallClock = new SystemEpochNanoClock();

        final long beforeNs = wallClock.nanoTime();
        final long readNs = clock.nanoTime();
        final long afterNs = wallClock.nanoTime();

        // Between two wall-clock reads, give or take the sampling window and a wall-clock step (a millisecond).
        assertThat(readNs).isBetween(beforeNs - TimeUnit.MILLISECONDS.toNanos(1),
            afterNs + TimeUnit.MILLISECONDS.toNanos(1));
        long lastNs = clock.nanoTime();
        for (int i = 0; i < 1_000; i++)
        {
            final long nowNs = clock.nanoTime();
            assertThat(nowNs).isGreaterThanOrEqualTo(lastNs);
            lastNs = nowNs;
        }
    }
}
