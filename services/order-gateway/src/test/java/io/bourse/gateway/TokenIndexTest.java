package io.bourse.gateway;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

class TokenIndexTest
{
    private final UnsafeBuffer buffer = new UnsafeBuffer(new byte[32]);

    @Test
    void shouldFindEveryTokenWhenTableGrowsPastItsInitialCapacity()
    {
        final TokenIndex index = new TokenIndex(8);
        for (int i = 1; i <= 10_000; i++)
        {
            index.put(token(i), 2, i);
        }

        assertThat(index.size()).isEqualTo(10_000);
        for (int i = 1; i <= 10_000; i++)
        {
            assertThat(index.get(token(i), 2)).isEqualTo(i);
        }
        assertThat(index.get(token(10_001), 2)).isEqualTo(TokenIndex.MISSING);
    }

    @Test
    void shouldTellTokensApartWhenOnlyTheirLastByteDiffers()
    {
        final TokenIndex index = new TokenIndex(8);
        index.put(token("ABCDEFGHIJKLMN"), 2, 1);
        index.put(token("ABCDEFGHIJKLMO"), 2, TokenIndex.USED);
        index.put(token("ABCDEFGHIJKLMN"), 2, 3);

        assertThat(index.size()).isEqualTo(2);
        assertThat(index.get(token("ABCDEFGHIJKLMN"), 2)).isEqualTo(3);
        assertThat(index.get(token("ABCDEFGHIJKLMO"), 2)).isEqualTo(TokenIndex.USED);
        assertThat(index.get(token("ABCDEFGHIJKLMP"), 2)).isEqualTo(TokenIndex.MISSING);
    }

    private UnsafeBuffer token(final int i)
    {
        return token(String.format("T%013d", i));
    }

    private UnsafeBuffer token(final String token)
    {
        buffer.putBytes(2, String.format("%-14s", token).getBytes(StandardCharsets.US_ASCII));
        return buffer;
    }
}
