package io.bourse.common.config;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SettingChecksTest
{
    @Test
    void shouldNameTheSettingTheRangeAndTheValueWhenOutsideTheRange()
    {
        assertThatCode(() -> SettingChecks.checkRange("bourse.x", 1, 1, 255)).doesNotThrowAnyException();
        assertThatCode(() -> SettingChecks.checkRange("bourse.x", 255, 1, 255)).doesNotThrowAnyException();
        assertThatThrownBy(() -> SettingChecks.checkRange("bourse.x", 256, 1, 255))
            .isInstanceOf(IllegalStateException.class).hasMessage("bourse.x must be 1..255: 256");
        assertThatThrownBy(() -> SettingChecks.checkRange("bourse.x", 0, 1, 255))
            .hasMessage("bourse.x must be 1..255: 0");
    }

    @Test
    void shouldTakePortsFrom0To65535()
    {
        assertThatCode(() -> SettingChecks.checkPort("bourse.port", 0)).doesNotThrowAnyException();
        assertThatCode(() -> SettingChecks.checkPort("bourse.port", 65535)).doesNotThrowAnyException();
        assertThatThrownBy(() -> SettingChecks.checkPort("bourse.port", 65536))
            .isInstanceOf(IllegalStateException.class).hasMessage("bourse.port must be 0..65535: 65536");
        assertThatThrownBy(() -> SettingChecks.checkPort("bourse.port", -1))
            .hasMessage("bourse.port must be 0..65535: -1");
    }

    @Test
    void shouldRefuseZeroAndNegativeWherePositiveIsRequired()
    {
        assertThatCode(() -> SettingChecks.checkPositive("bourse.n", 1)).doesNotThrowAnyException();
        assertThatThrownBy(() -> SettingChecks.checkPositive("bourse.n", 0))
            .isInstanceOf(IllegalStateException.class).hasMessage("bourse.n must be positive: 0");
        assertThatThrownBy(() -> SettingChecks.checkPositive("bourse.n", -5))
            .hasMessage("bourse.n must be positive: -5");
    }
}
