package io.bourse.common.time;

import org.junit.jupiter.api.Test;

import java.time.LocalDate;

import static org.assertj.core.api.Assertions.assertThat;

class SessionNamesTest
{
    @Test
    void shouldReadBackTheDateOfADailySessionNameAndNoOtherName()
    {
        final LocalDate date = LocalDate.of(2025, 1, 6);

        assertThat(SessionNames.dateOf(SessionNames.ofDate(date))).isEqualTo(date);
        assertThat(SessionNames.dateOf("20250101Z")).as("BASIC_ISO_DATE takes an offset; a session name does not")
            .isNull();
        assertThat(SessionNames.dateOf("S20250102")).isNull();
        assertThat(SessionNames.dateOf("20251301")).isNull();
        assertThat(SessionNames.dateOf(null)).isNull();
    }
}
