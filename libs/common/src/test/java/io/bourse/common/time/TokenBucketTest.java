package io.bourse.common.time;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class TokenBucketTest
{
    private static final long T = 5_000_000_000L;

    @Test
    void shouldGiveOneSecondsWorthAtOnceThenOneTokenPerInterval()
    {
        final TokenBucket bucket = new TokenBucket(4);
        for (int i = 0; i < 4; i++)
        {
            assertThat(bucket.tryTake(T)).as("token %d", i).isTrue();
        }
        assertThat(bucket.tryTake(T)).isFalse();
        assertThat(bucket.tryTake(T + 249_999_999L)).isFalse();
        assertThat(bucket.tryTake(T + 250_000_000L)).isTrue();
        assertThat(bucket.tryTake(T + 250_000_000L)).isFalse();
        assertThat(bucket.isFull(T + 999_999_999L)).isFalse();
        assertThat(bucket.isFull(T + 1_250_000_000L)).isTrue();
    }

    @Test
    void shouldLimitNothingAtARateOfZero()
    {
        final TokenBucket bucket = new TokenBucket(0);
        for (int i = 0; i < 1_000; i++)
        {
            assertThat(bucket.tryTake(T)).isTrue();
        }
        assertThat(bucket.isFull(T)).isTrue();
    }

    @Test
    void shouldTakeWithoutCheckingWhenTold()
    {
        final TokenBucket bucket = new TokenBucket(1);
        bucket.take(T);
        bucket.take(T);

        // The second token was owed: the next one comes a whole interval after the first came back.
        assertThat(bucket.hasToken(T + 1_999_999_999L)).isFalse();
        assertThat(bucket.hasToken(T + 2_000_000_000L)).isTrue();
        assertThatThrownBy(() -> new TokenBucket(-1)).isInstanceOf(IllegalArgumentException.class);
    }
}
