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

    @Test
    void shouldLayATimestampOnTheLatestDayNotAfterTheReferenceByMoreThanTheClocksSkew()
    {
        final long second = 1_000_000_000L;
        final long midnightOfDay1 = NANOS_PER_DAY;
        // 23:59:59 received at 00:00:01: the day before.
        assertThat(MidnightNanoClock.atOrBefore(NANOS_PER_DAY - second, midnightOfDay1 + second))
            .isEqualTo(midnightOfDay1 - second);
        // 00:00:00.5 while the clock reads 00:00:00.0: ahead by less than the skew, of the same day.
        assertThat(MidnightNanoClock.atOrBefore(second / 2, midnightOfDay1)).isEqualTo(midnightOfDay1 + second / 2);
        // 09:00 received at 22:00: that morning, not 11 hours ahead; 10:00 at 09:59:59 too, by exactly the skew.
        assertThat(MidnightNanoClock.atOrBefore(9 * 3_600 * second, midnightOfDay1 + 22 * 3_600 * second))
            .isEqualTo(midnightOfDay1 + 9 * 3_600 * second);
        final long skew = MidnightNanoClock.MAX_CLOCK_SKEW_NS;
        assertThat(MidnightNanoClock.atOrBefore(TEN_AM_NS, midnightOfDay1 + TEN_AM_NS - skew))
            .isEqualTo(midnightOfDay1 + TEN_AM_NS);
        // More than the skew ahead: the day before. A clock's time past a day counts as its time of day.
        assertThat(MidnightNanoClock.atOrBefore(3 * NANOS_PER_DAY + TEN_AM_NS, midnightOfDay1 + TEN_AM_NS - 2 * second))
            .isEqualTo(TEN_AM_NS);
    }

    @Test
    void shouldFindTheMidnightThatEndsTheDayOfATime()
    {
        assertThat(MidnightNanoClock.nextMidnight(0)).isEqualTo(NANOS_PER_DAY);
        assertThat(MidnightNanoClock.nextMidnight(NANOS_PER_DAY - 1)).isEqualTo(NANOS_PER_DAY);
        assertThat(MidnightNanoClock.nextMidnight(NANOS_PER_DAY)).as("a midnight starts its day")
            .isEqualTo(2 * NANOS_PER_DAY);
        assertThat(MidnightNanoClock.nextMidnight(2 * NANOS_PER_DAY + TEN_AM_NS)).isEqualTo(3 * NANOS_PER_DAY);
        assertThat(MidnightNanoClock.nextMidnight(-1)).as("a time before the clock's midnight").isZero();
    }

    @Test
    void shouldCloseADayAfterItsLastMessageOnItsLastNanosecondOrLaterWhenThatMessageCarriesTheNextDaysTime()
    {
        final long second = 1_000_000_000L;
        final long midnightOfDay1 = NANOS_PER_DAY;
        // Last message at 23:59:58, the day ended at 00:00:01: the day's last nanosecond.
        assertThat(MidnightNanoClock.closingTimestamp(NANOS_PER_DAY - 2 * second, midnightOfDay1 + second,
            midnightOfDay1)).isEqualTo(midnightOfDay1 - 1);
        // Last message stamped 00:00:00.5 (a time of day), taken before the day ended at 00:00:00.2: after it.
        assertThat(MidnightNanoClock.closingTimestamp(second / 2, midnightOfDay1 + second / 5, midnightOfDay1))
            .isEqualTo(midnightOfDay1 + second / 2);
        // ... and ended at 00:00:01: the clock's time, later still.
        assertThat(MidnightNanoClock.closingTimestamp(second / 2, midnightOfDay1 + second, midnightOfDay1))
            .isEqualTo(midnightOfDay1 + second);
        // The last message of an earlier day (10:00): the day's last nanosecond.
        assertThat(MidnightNanoClock.closingTimestamp(TEN_AM_NS, 2 * NANOS_PER_DAY + second, 2 * NANOS_PER_DAY))
            .isEqualTo(2 * NANOS_PER_DAY - 1);
    }
}
