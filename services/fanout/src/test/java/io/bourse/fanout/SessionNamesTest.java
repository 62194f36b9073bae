package io.bourse.fanout;

import org.junit.jupiter.api.Test;

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
            final SessionNames names = new SessionNames("R1");

            assertThat(names.nextSnapshotSession()).isEqualTo("S000000001");
            assertThat(names.nextSnapshotSession()).isEqualTo("S000000002");
        }
        finally
        {
            Locale.setDefault(defaultLocale);
        }
    }

    @Test
    void shouldRefuseARunSessionThatCouldBeBlankOrASnapshotSessions()
    {
        assertThatThrownBy(() -> new SessionNames("")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new SessionNames("S1")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new SessionNames("A B")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new SessionNames("ABCDEFGHIJK")).isInstanceOf(IllegalArgumentException.class);
        assertThat(new SessionNames("ABCDEFGHIJ").day().isAvailable("ABCDEFGHIJ")).isTrue();
        assertThat(new SessionNames("R1").day().isAvailable("          ")).isTrue();
        assertThat(new SessionNames("R1").day().isAvailable("R2        ")).isFalse();
    }

    /** Each midnight starts a day, whose stream the dispatcher names after its date; the ended day's is unavailable. */
    @Test
    void shouldMoveOnToTheNextDaysStreamLeavingTheEndedDaysUnavailable()
    {
        final SessionNames names = new SessionNames("1124093000");

        assertThat(names.nextDay("20261125")).isEqualTo(new SessionNames.Day(1, "20261125"));
        assertThat(names.day()).isEqualTo(new SessionNames.Day(1, "20261125"));
        assertThat(names.day().isAvailable("20261125  ")).isTrue();
        assertThat(names.day().isAvailable("1124093000")).isFalse();
        assertThat(names.day().isAvailable("          ")).isTrue();
        assertThat(names.nextDay("20261126").ordinal()).isEqualTo(2);
        assertThatThrownBy(() -> names.nextDay("S20261127")).isInstanceOf(IllegalArgumentException.class);
    }
}
