package io.bourse.fanout;

import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.time.LocalDate;
import java.util.Locale;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SessionNamesTest
{
    @Test
    void shouldNameSnapshotSessionsInAsciiDigitsWhateverTheDefaultLocale()
    {
        final Locale defaultLocale = Locale.getDefault();
        try
        {
            // Arabic-Indic digits are this locale's own: a SoupBinTCP session is alphanumeric ASCII.
            Locale.setDefault(Locale.forLanguageTag("ar-EG"));
            final SessionNames names = new SessionNames("F1");

            assertThat(names.nextSnapshotSession()).isEqualTo("S000000001");
            assertThat(names.nextSnapshotSession()).isEqualTo("S000000002");
        }
        finally
        {
            Locale.setDefault(defaultLocale);
        }
    }

    @Test
    void shouldRefuseARunSessionThatCouldBeBlankOrASnapshotOrMoldUdp64Sessions()
    {
        assertThatThrownBy(() -> new SessionNames("")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new SessionNames("S1")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new SessionNames("1126093012")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new SessionNames("20261126")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new SessionNames("F B")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new SessionNames("FBCDEFGHIJK")).isInstanceOf(IllegalArgumentException.class);
        assertThat(new SessionNames("FBCDEFGHIJ").day().isAvailable("FBCDEFGHIJ")).isTrue();
        assertThat(new SessionNames("F1").day().isAvailable("          ")).isTrue();
        assertThat(new SessionNames("F1").day().isAvailable("F2        ")).isFalse();
    }

    /**
     * The run's first day's stream is named after the run's start, each later day's, from midnight, after its date,
     * both apart from the md-publisher's MoldUDP64 sessions; the ended day's is unavailable.
     */
    @Test
    void shouldMoveOnToTheNextDaysStreamLeavingTheEndedDaysUnavailable()
    {
        final SessionNames names = SessionNames.startingAt(Instant.parse("2026-11-24T09:30:00.999Z"));
        assertThat(names.day()).isEqualTo(new SessionNames.Day(0, "FB24093000"));

        assertThat(names.nextDay(SessionNames.ofDate(LocalDate.of(2026, 11, 25))))
            .isEqualTo(new SessionNames.Day(1, "F20261125"));
        assertThat(names.day()).isEqualTo(new SessionNames.Day(1, "F20261125"));
        assertThat(names.day().isAvailable("F20261125 ")).isTrue();
        assertThat(names.day().isAvailable("FB24093000")).isFalse();
        assertThat(names.day().isAvailable("20261125  ")).as("the md-publisher's MoldUDP64 session").isFalse();
        assertThat(names.day().isAvailable("          ")).isTrue();
        assertThat(names.nextDay(SessionNames.ofDate(LocalDate.of(2026, 11, 26))).ordinal()).isEqualTo(2);
        assertThatThrownBy(() -> names.nextDay("20261127")).isInstanceOf(IllegalArgumentException.class);
    }

    /** The run's month as one hexadecimal digit: 10 characters, so never a later day's name (9), in any year. */
    @Test
    void shouldNameTheRunsFirstDayAfterItsMonthDayAndTimeInUtc()
    {
        assertThat(SessionNames.startingAt(Instant.parse("2027-01-02T03:04:05Z")).day().session())
            .isEqualTo("F102030405");
        assertThat(SessionNames.startingAt(Instant.parse("2026-10-31T23:59:59.999Z")).day().session())
            .isEqualTo("FA31235959");
        assertThat(SessionNames.startingAt(Instant.parse("2023-12-20T23:00:00Z")).day().session())
            .as("without its month, the name of 20 December 2023's later day's stream").isEqualTo("FC20230000");
        assertThat(SessionNames.ofDate(LocalDate.of(2023, 12, 20))).isEqualTo("F20231220");
    }
}
