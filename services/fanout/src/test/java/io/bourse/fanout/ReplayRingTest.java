package io.bourse.fanout;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class ReplayRingTest
{
    private final ReplayRing ring = new ReplayRing(4);
    private final UnsafeBuffer message = new UnsafeBuffer(new byte[]{'A', 0, 1});

    @Test
    void shouldReplayFromTheOldestKeptMessage()
    {
        for (int i = 0; i < 6; i++)
        {
            ring.append(message, 0, 3);
        }

        assertThat(ring.nextSequence()).isEqualTo(7);
        assertThat(ring.oldestSequence()).isEqualTo(3);
        assertThat(ring.oldestReplayable()).isEqualTo(3);
        assertThat(ring.contains(2)).isFalse();
        assertThat(ring.contains(3)).isTrue();
    }

    /** A new trading day's stream is numbered from 1 again, and serves none of the ended day's messages. */
    @Test
    void shouldNumberANewDaysStreamFrom1ServingNoneOfTheEndedDays()
    {
        for (int i = 0; i < 6; i++)
        {
            ring.append(message, 0, 3);
        }
        ring.cutAtGap();
        ring.startDay();

        assertThat(ring.nextSequence()).isEqualTo(1);
        assertThat(ring.contains(1)).isFalse();
        assertThat(ring.oldestReplayable()).isEqualTo(1);
        assertThat(ring.append(message, 0, 3)).isEqualTo(1);
        assertThat(ring.append(message, 0, 3)).isEqualTo(2);
        assertThat(ring.contains(1)).isTrue();
        assertThat(ring.contains(3)).isFalse();
        assertThat(ring.oldestReplayable()).isEqualTo(1);
    }

    @Test
    void shouldReplayNothingFromBeforeAGapNorFromItsFirstNumberButKeepTheMessagesAfterIt()
    {
        ring.append(message, 0, 3);
        ring.append(message, 0, 3);
        ring.cutAtGap();

        assertThat(ring.oldestSequence()).isEqualTo(3);
        assertThat(ring.oldestReplayable()).isEqualTo(4);
        assertThat(ring.contains(2)).isFalse();

        ring.append(message, 0, 3);
        ring.append(message, 0, 3);
        assertThat(ring.contains(3)).isTrue();
        assertThat(ring.oldestReplayable()).isEqualTo(4);
        for (int i = 0; i < 4; i++)
        {
            ring.append(message, 0, 3);
        }
        assertThat(ring.oldestSequence()).isEqualTo(5);
        assertThat(ring.oldestReplayable()).isEqualTo(5);
    }
}
