package io.bourse.itch;

import com.paritytrading.juncture.nasdaq.itch50.ITCH50;
import org.junit.jupiter.api.Test;

import java.util.HashSet;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

class ItchMessageTypesTest
{
    @Test
    void shouldLabelEachTypeBourseSendsOnceAndAnyOtherAsOther()
    {
        final Set<String> labels = new HashSet<>();
        for (final byte type : ItchMessageTypes.types())
        {
            assertThat(labels.add(ItchMessageTypes.label(type))).as("label of %c", (char)type).isTrue();
        }

        assertThat(labels).hasSize(13).doesNotContain(ItchMessageTypes.OTHER);
        assertThat(ItchMessageTypes.label(ITCH50.MESSAGE_TYPE_ADD_ORDER)).isEqualTo("add_order");
        assertThat(ItchMessageTypes.label(ITCH50.MESSAGE_TYPE_ORDER_EXECUTED_WITH_PRICE))
            .isEqualTo("order_executed_with_price");
        assertThat(ItchMessageTypes.label(ITCH50.MESSAGE_TYPE_NOII)).isEqualTo(ItchMessageTypes.OTHER);
    }
}
