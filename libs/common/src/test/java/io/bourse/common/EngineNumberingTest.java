package io.bourse.common;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class EngineNumberingTest
{
    @Test
    void shouldNumberARunThatRecoveredNothingAboveEveryNumberAnEarlierRunGaveInTheTimeItLived()
    {
        final long earlierStartNs = 1_795_461_501_035_032_800L; // 2026-11-22
        final long startNs = earlierStartNs + 60_000_000_000L; // a minute later
        final long earlierBase = EngineNumbering.numberBase(earlierStartNs);
        final long base = EngineNumbering.numberBase(startNs);
        // the earlier run gave 10 numbers a µs for the minute it lived: its counts went up to base
        final long earliersLastNumber = (base << EngineNumbering.SHARD_BITS) | 15;

        assertThat(base - earlierBase).isEqualTo(600_000_000L);
        assertThat(EngineNumbering.firstOfRun(base)).isGreaterThan(earliersLastNumber)
            .isEqualTo((base + 1) << EngineNumbering.SHARD_BITS);
        assertThat(EngineNumbering.startEpochNs(base)).isEqualTo(startNs);
        assertThat(EngineNumbering.numberBase(startNs + EngineNumbering.NANOS_PER_NUMBER - 1)).isEqualTo(base);
    }

    @Test
    void shouldKeepTheNumbersOfTheHighestBasePositive()
    {
        final long lastCount = EngineNumbering.MAX_NUMBER_BASE + EngineNumbering.MAX_NUMBER_BASE - 1;

        assertThat(EngineNumbering.firstOfRun(EngineNumbering.MAX_NUMBER_BASE)).isPositive();
        assertThat((lastCount << EngineNumbering.SHARD_BITS) | 15).isPositive();
        assertThat(((lastCount + 1) << EngineNumbering.SHARD_BITS) | 15).isNegative();
    }
}
