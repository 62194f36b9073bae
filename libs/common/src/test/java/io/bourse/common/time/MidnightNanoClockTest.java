package io.bourse.common.time;

import org.junit.jupiter.api.Test;

import java.time.LocalDate;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static io.bourse.common.time.MidnightNanoClock.NANOS_PER_DAY;
import static org.assertj.core.api.Assertions.assertThat;

class MidnightNanoClockTest
{
    private static final long TEN_AM_NS = TimeUnit.HOURS.toNanos(10);
    /** 2024-10-04, days since the epoch. */
    private static final long START_DAY = LocalDate.of(2024, 10, 4).toEpochDay();

    @Test
    void shouldCountFromTheMidnightOfItsStartAcrossTheNextMidnight()
    {
        final AtomicLong epochNs = new AtomicLong(START_DAY * NANOS_PER_DAY + TEN_AM_NS);
        final MidnightNanoClock clock = new MidnightNanoClock(epochNs::get);

        assertThat(clock.startDate()).isEqualTo(LocalDate.of(2024, 10, 4));
        assertThat(clock.nanosSinceMidnight()).isEqualTo(TEN_AM_NS);

        epochNs.set((START_DAY + 1) * NANOS_PER_DAY + 5);
        assertThat(clock.nanosSinceMidnight()).isEqualTo(NANOS_PER_DAY + 5);
        assertThat(MidnightNanoClock.timeOfDay(clock.nanosSinceMidnight())).isEqualTo(5);
    }

    @Test
    void shouldGiveTheTimeOfDayOfOUCHAndITCHTimestampsOnAnyDay()
    {
        assertThat(MidnightNanoClock.timeOfDay(0)).isZero();
        assertThat(MidnightNanoClock.timeOfDay(TEN_AM_NS)).isEqualTo(TEN_AM_NS);
        assertThat(MidnightNanoClock.timeOfDay(NANOS_PER_DAY - 1)).isEqualTo(NANOS_PER_DAY - 1);
        assertThat(MidnightNanoClock.timeOfDay(NANOS_PER_DAY)).isZero();
        assertThat(MidnightNanoClock.timeOfDay(3 * NANOS_PER_DAY + TEN_AM_NS)).isEqualTo(TEN_AM_NS);
        // ITCH 5.0's 6-byte Timestamp holds 3.26 days of ns: a run of 4 days must not overflow it.
        assertThat(MidnightNanoClock.timeOfDay(4 * NANOS_PER_DAY + TEN_AM_NS)).isLessThan(1L << 48);
        assertThat(MidnightNanoClock.timeOfDay(-1)).isEqualTo(NANOS_PER_DAY - 1);
    }

    @Test
    void shouldTakeADifferenceToTheNearestWholeDay()
    {
        final long receiptNs = NANOS_PER_DAY + 2_000;
        final long timestampNs = MidnightNanoClock.timeOfDay(NANOS_PER_DAY + 500);

        assertThat(MidnightNanoClock.withinADay(receiptNs - timestampNs)).isEqualTo(1_500);
        assertThat(MidnightNanoClock.withinADay(1_500)).isEqualTo(1_500);
        assertThat(MidnightNanoClock.withinADay(-1_500)).isEqualTo(-1_500);
        // An event just before midnight received just after it, on clocks of the same start.
        assertThat(MidnightNanoClock.withinADay(3 - MidnightNanoClock.timeOfDay(NANOS_PER_DAY - 7))).isEqualTo(10);
        assertThat(MidnightNanoClock.withinADay(2 * NANOS_PER_DAY - TEN_AM_NS)).isEqualTo(-TEN_AM_NS);
    }
}
