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
        assertThat(new SessionNames("ABCDEFGHIJ").isAvailable("ABCDEFGHIJ")).isTrue();
        assertThat(new SessionNames("R1").isAvailable("          ")).isTrue();
        assertThat(new SessionNames("R1").isAvailable("R2        ")).isFalse();
    }
}
