package io.bourse.common.config;

import org.junit.jupiter.api.Test;

import java.util.Locale;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SettingsTest
{
    private static final String NAME = "bourse.settings.test.value";

    @Test
    void shouldReadTheEnvironmentVariableDerivedFromThePropertyNameAndFallBackToTheDefault()
    {
        assertThat(new Settings(Map.of("BOURSE_SETTINGS_TEST_VALUE", " 42 ")).getInt(NAME, 7)).isEqualTo(42);
        assertThat(new Settings(Map.of("BOURSE_SETTINGS_TEST_VALUE", "")).getInt(NAME, 7)).isEqualTo(7);
        assertThat(new Settings(Map.of()).getLong(NAME, 7L)).isEqualTo(7L);
    }

    @Test
    void shouldTakeAnEmptySystemPropertyAsUnsetAsAnEmptyVariable()
    {
        System.setProperty(NAME, "");
        try
        {
            assertThat(new Settings(Map.of("BOURSE_SETTINGS_TEST_VALUE", "42")).getInt(NAME, 7)).isEqualTo(42);
            assertThat(new Settings(Map.of()).getInt(NAME, 7)).isEqualTo(7);
            System.setProperty(NAME, "5");
            assertThat(new Settings(Map.of("BOURSE_SETTINGS_TEST_VALUE", "42")).getInt(NAME, 7)).isEqualTo(5);
        }
        finally
        {
            System.clearProperty(NAME);
        }
    }

    /** A launcher's command-line option wins over the system property, which wins over the environment. */
    @Test
    void shouldTakeAnOverrideBeforeTheSystemPropertyAndThePropertyBeforeTheEnvironment()
    {
        System.setProperty(NAME, "5");
        try
        {
            final Map<String, String> environment = Map.of("BOURSE_SETTINGS_TEST_VALUE", "42");
            assertThat(new Settings(Map.of("BOURSE_SETTINGS_TEST_VALUE", "3"), environment).getInt(NAME, 7))
                .isEqualTo(3);
            assertThat(new Settings(Map.of("BOURSE_SETTINGS_TEST_VALUE", ""), environment).getInt(NAME, 7))
                .as("an empty override is unset").isEqualTo(5);
            assertThat(new Settings(Map.of(), environment).getInt(NAME, 7)).isEqualTo(5);
        }
        finally
        {
            System.clearProperty(NAME);
        }
    }

    @Test
    void shouldDeriveTheEnvironmentVariableAlikeInEveryDefaultLocale()
    {
        final Locale before = Locale.getDefault();
        try
        {
            Locale.setDefault(Locale.forLanguageTag("tr-TR")); // "i".toUpperCase() is the dotted capital I there
            assertThat(Settings.environmentName("bourse.idle.strategy")).isEqualTo("BOURSE_IDLE_STRATEGY");
            assertThat(new Settings(Map.of("BOURSE_IDLE_STRATEGY", "busy")).get("bourse.idle.strategy", "backoff"))
                .isEqualTo("busy");
        }
        finally
        {
            Locale.setDefault(before);
        }
    }

    @Test
    void shouldRefuseAnIntSettingOutsideTheRangeOfAnIntInsteadOfTruncatingIt()
    {
        final Settings tooLarge = new Settings(Map.of("BOURSE_SETTINGS_TEST_VALUE", "4294967297"));
        assertThat(tooLarge.getLong(NAME, 0)).isEqualTo(4_294_967_297L);
        assertThatThrownBy(() -> tooLarge.getInt(NAME, 0))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessage(NAME + " (BOURSE_SETTINGS_TEST_VALUE) is outside the range of an int: 4294967297");
        assertThat(new Settings(Map.of("BOURSE_SETTINGS_TEST_VALUE", "-2147483648")).getInt(NAME, 0))
            .isEqualTo(Integer.MIN_VALUE);
    }

    @Test
    void shouldNameTheSettingAndItsVariableWhenTheValueIsNotAnInteger()
    {
        assertThatThrownBy(() -> new Settings(Map.of("BOURSE_SETTINGS_TEST_VALUE", "1e3")).getInt(NAME, 0))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessage(NAME + " (BOURSE_SETTINGS_TEST_VALUE) is not an integer: 1e3");
    }
}
