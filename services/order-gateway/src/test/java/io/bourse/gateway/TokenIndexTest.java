package io.bourse.gateway;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

@Timeout(30) // a table that never grows would probe forever
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
    void shouldTellApartCounterTokensOfEveryLengthLeftOrRightJustifiedThatShareBlocks()
    {
        final TokenIndex index = new TokenIndex(8, 32);
        final List<String> tokens = new ArrayList<>();
        for (int length = 1; length <= 14; length++)
        {
            for (int counter = 0; counter < 100; counter++)
            {
                final String digits = Long.toString(counter * 7919L, 36).toUpperCase();
                final String padded = ("0".repeat(14) + digits).substring(14 + digits.length() - length);
                tokens.add(padded);
                tokens.add(" ".repeat(14 - length) + padded);
                if (length < 14)
                {
                    tokens.add(padded.substring(0, length - 1) + " " + padded.charAt(length - 1));
                }
            }
        }
        final List<String> distinct = tokens.stream().distinct().toList();
        for (int i = 0; i < distinct.size(); i++)
        {
            index.put(token(distinct.get(i)), 2, i + 1);
        }

        assertThat(index.size()).isEqualTo(distinct.size());
        for (int i = 0; i < distinct.size(); i++)
        {
            assertThat(index.get(token(distinct.get(i)), 2)).as(distinct.get(i)).isEqualTo(i + 1);
        }
        assertThat(index.get(token("ZZZZZZZZZZZZZ"), 2)).isEqualTo(TokenIndex.MISSING);
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

    @Test
    void shouldFindEveryTokenAfterEveryPutWhileTheTableGrowsInPages()
    {
        final TokenIndex index = new TokenIndex(8, 64);
        int growingPuts = 0;
        for (int i = 1; i <= 3_200; i++)
        {
            index.put(token(i), 2, i);
            growingPuts += index.isGrowing() ? 1 : 0;

            assertThat(index.size()).isEqualTo(i);
            assertThat(wrongValues(index, i)).as("tokens not found after put %d", i).isEmpty();
            assertThat(index.get(token(i + 1), 2)).isEqualTo(TokenIndex.MISSING);
        }

        // 16 -> 8192 slots, nine growths: the first page of the new table allocated by the put that starts the
        // growth, each of the others pageInterval(64) = 4 puts after the one before, then one put per 8 old slots
        // moved.
        assertThat(TokenIndex.pageInterval(64)).isEqualTo(4);
        int expectedGrowingPuts = 0;
        for (int oldSlots = 16; oldSlots <= 4096; oldSlots *= 2)
        {
            expectedGrowingPuts += (Math.max(1, oldSlots * 2 / 64) - 1) * 4 + oldSlots / TokenIndex.MIGRATE_SLOTS;
        }
        assertThat(index.isGrowing()).isFalse();
        assertThat(growingPuts).isEqualTo(expectedGrowingPuts);
    }

    @Test
    void shouldKeepTheLatestValueOfEveryTokenWhenTokensAreUpdatedWhileTheTableGrows()
    {
        final Random random = new Random(42);
        final TokenIndex index = new TokenIndex(8, 32);
        final List<Long> values = new ArrayList<>(); // token i + 1 -> its value
        int updatesWhileGrowing = 0;
        for (int step = 1; step <= 4_000; step++)
        {
            if (values.isEmpty() || random.nextInt(10) < 6)
            {
                values.add(TokenIndex.USED);
                index.put(token(values.size()), 2, TokenIndex.USED);
            }
            else
            {
                final int i = random.nextInt(values.size());
                updatesWhileGrowing += index.isGrowing() ? 1 : 0;
                values.set(i, (long)step);
                index.put(token(i + 1), 2, step);
            }

            assertThat(index.size()).isEqualTo(values.size());
            final List<String> wrong = new ArrayList<>();
            for (int i = 0; i < values.size(); i++)
            {
                final long value = index.get(token(i + 1), 2);
                if (value != values.get(i))
                {
                    wrong.add(token(i + 1).getStringWithoutLengthAscii(2, 14) + "=" + value);
                }
            }
            assertThat(wrong).as("wrong values after step %d", step).isEmpty();
            assertThat(index.get(token(values.size() + 1), 2)).isEqualTo(TokenIndex.MISSING);
        }
        assertThat(updatesWhileGrowing).isGreaterThan(100);
    }

    @Test
    void shouldFindEveryTokenWhenTheTableGrowsPastOnePageOfTheDefaultSize()
    {
        final int tokens = TokenIndex.PAGE_SLOTS * 2;
        final TokenIndex index = new TokenIndex(1024);
        int earlier = 0;
        for (int i = 1; i <= tokens; i++)
        {
            index.put(token(i), 2, i);
            if (index.isGrowing())
            {
                earlier = earlier % i + 1;
                assertThat(index.get(token(i), 2)).isEqualTo(i);
                assertThat(index.get(token(earlier), 2)).isEqualTo(earlier);
            }
        }

        assertThat(index.isGrowing()).isFalse();
        assertThat(wrongValues(index, tokens)).isEmpty();
        assertThat(index.get(token(tokens + 1), 2)).isEqualTo(TokenIndex.MISSING);
    }

    @Test
    void shouldRejectPagesThatAreNotAPowerOfTwo()
    {
        assertThatThrownBy(() -> new TokenIndex(8, 48))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("pageSlots");
    }

    private List<Integer> wrongValues(final TokenIndex index, final int tokens)
    {
        final List<Integer> wrong = new ArrayList<>();
        for (int i = 1; i <= tokens; i++)
        {
            if (index.get(token(i), 2) != i)
            {
                wrong.add(i);
            }
        }
        return wrong;
    }

    private UnsafeBuffer token(final int i)
    {
        buffer.putByte(2, (byte)'T');
        buffer.putNaturalPaddedIntAscii(3, 13, i);
        return buffer;
    }

    private UnsafeBuffer token(final String token)
    {
        buffer.putBytes(2, String.format("%-14s", token).getBytes(StandardCharsets.US_ASCII));
        return buffer;
    }
}
