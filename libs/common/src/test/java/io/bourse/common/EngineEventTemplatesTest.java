package io.bourse.common;

import io.bourse.sbe.engine.AdminResponseEncoder;
import io.bourse.sbe.engine.CommandStreamJoinedEncoder;
import io.bourse.sbe.engine.SequencedCommandEncoder;
import org.junit.jupiter.api.Test;

import java.util.Arrays;

import static org.assertj.core.api.Assertions.assertThat;

class EngineEventTemplatesTest
{
    /** Checked against the generated codecs, so that a new event without a sequence number breaks it. */
    @Test
    void shouldNumberEveryMessageWithASequenceNumberFieldAndNoneOfTheOthersOfTheEventStream() throws Exception
    {
        int numbered = 0;
        for (final Class<?> message : EngineBlockLengthsTest.MESSAGES)
        {
            final boolean hasSequenceNumber = Arrays.stream(message.getMethods())
                .anyMatch((method) -> method.getName().equals("sequenceNumberId"));
            if (hasSequenceNumber)
            {
                assertThat(EngineEventTemplates.isNumbered(message.getField("TEMPLATE_ID").getInt(null)))
                    .as(message.getSimpleName()).isTrue();
                numbered++;
            }
        }
        assertThat(numbered).isEqualTo(13);
        assertThat(EngineEventTemplates.isNumbered(SequencedCommandEncoder.TEMPLATE_ID)).isFalse();
        assertThat(EngineEventTemplates.isNumbered(AdminResponseEncoder.TEMPLATE_ID)).isFalse();
        assertThat(EngineEventTemplates.isNumbered(CommandStreamJoinedEncoder.TEMPLATE_ID)).isFalse();
    }
}
