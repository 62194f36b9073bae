package io.bourse.simulator;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class OrderTokensTest
{
    private final byte[] token = new byte[OrderTokens.LENGTH];

    @Test
    void shouldEncodeRunIdSessionAndBase36CounterSpacePaddedTo14Bytes()
    {
        final OrderTokens tokens = new OrderTokens(86_399, 3);

        tokens.encode(1, token);
        final String first = ascii(token);
        tokens.encode(36, token);
        final String second = ascii(token);
        tokens.encode(OrderTokens.MAX_COUNTER, token);
        final String last = ascii(token);

        assertThat(List.of(first, second, last)).containsExactly(
            "1UNZ031       ",
            "1UNZ0310      ",
            "1UNZ03ZZZZZZZZ");
    }

    @Test
    void shouldDecodeWhatItEncodes()
    {
        final OrderTokens tokens = new OrderTokens(1234, 1295);
        for (final long counter : new long[]{1, 35, 36, 1_000_000, OrderTokens.MAX_COUNTER})
        {
            tokens.encode(counter, token);

            assertThat(tokens.decode(token)).isEqualTo(counter);
        }
    }

    @Test
    void shouldNotDecodeTokensOfAnotherSessionOrRun()
    {
        new OrderTokens(7, 1).encode(42, token);

        assertThat(new OrderTokens(7, 2).decode(token)).isEqualTo(-1);
        assertThat(new OrderTokens(8, 1).decode(token)).isEqualTo(-1);
    }

    @Test
    void shouldNotDecodeMalformedCounters()
    {
        final OrderTokens tokens = new OrderTokens(0, 0);

        assertThat(tokens.decode(bytes("000000        "))).isEqualTo(-1);
        assertThat(tokens.decode(bytes("000000a       "))).isEqualTo(-1);
        assertThat(tokens.decode(bytes("0000001 2     "))).isEqualTo(-1);
    }

    @Test
    void shouldGiveDistinctTokensAcrossSessionsAndCounters()
    {
        final Set<String> seen = new HashSet<>();
        for (int session = 0; session < 4; session++)
        {
            final OrderTokens tokens = new OrderTokens(99, session);
            for (long counter = 1; counter <= 2_000; counter++)
            {
                tokens.encode(counter, token);
                seen.add(ascii(token));
            }
        }

        assertThat(seen).hasSize(8_000);
    }

    /**
     * The default run ids of runs started 100 ms apart, or at the same time of day on days that follow (a gateway that
     * never closes its day keeps its tokens), differ: before, the second of the day gave both runs the same tokens.
     */
    @Test
    void shouldGiveDifferentRunIdsToRunsStartedATenthOfASecondOrADayApart()
    {
        final long start = Instant.parse("2026-11-23T09:30:00.000Z").toEpochMilli();
        final Set<Integer> runIds = new HashSet<>();
        for (long epochMs = start; epochMs < start + 46 * 3_600_000L; epochMs += 100)
        {
            assertThat(runIds.add(OrderTokens.runIdAt(epochMs))).as("run id at %d", epochMs).isTrue();
        }

        assertThat(OrderTokens.runIdAt(start + 99)).isEqualTo(OrderTokens.runIdAt(start));
        assertThat(OrderTokens.runIdAt(start + 100)).isNotEqualTo(OrderTokens.runIdAt(start));
        assertThat(OrderTokens.runIdAt(start + 86_400_000)).isNotEqualTo(OrderTokens.runIdAt(start));
        assertThat(runIds).allMatch((runId) -> runId >= 0 && runId <= OrderTokens.MAX_RUN_ID);
    }

    @Test
    void shouldRejectOutOfRangeArguments()
    {
        assertThatThrownBy(() -> new OrderTokens(OrderTokens.MAX_RUN_ID + 1, 0))
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("runId");
        assertThatThrownBy(() -> new OrderTokens(0, OrderTokens.MAX_SESSION_INDEX + 1))
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("sessionIndex");
        assertThatThrownBy(() -> new OrderTokens(0, 0).encode(0, token))
            .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new OrderTokens(0, 0).encode(OrderTokens.MAX_COUNTER + 1, token))
            .isInstanceOf(IllegalArgumentException.class);
    }

    private static String ascii(final byte[] bytes)
    {
        return new String(bytes, StandardCharsets.US_ASCII);
    }

    private static byte[] bytes(final String s)
    {
        return s.getBytes(StandardCharsets.US_ASCII);
    }
}
