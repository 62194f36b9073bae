package io.bourse.gateway;

import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;

import static org.assertj.core.api.Assertions.assertThat;

class MessageStoreTest
{
    @Test
    void shouldReturnEachMessageBySequenceNumberWhenStoreGrows()
    {
        final MessageStore store = new MessageStore(16);
        for (int i = 1; i <= 3_000; i++)
        {
            final int length = 1 + i % 80;
            final int offset = store.claim(length);
            for (int b = 0; b < length; b++)
            {
                store.buffer().putByte(offset + b, (byte)i);
            }
            assertThat(store.commit(length)).isEqualTo(i);
        }

        assertThat(store.count()).isEqualTo(3_000);
        for (int i = 1; i <= 3_000; i++)
        {
            final ByteBuffer message = store.message(i);
            assertThat(message.remaining()).isEqualTo(1 + i % 80);
            while (message.hasRemaining())
            {
                assertThat(message.get()).isEqualTo((byte)i);
            }
        }
    }
}
