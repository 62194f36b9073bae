package io.bourse.engine;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class TakenCommandsTest
{
    private final TakenCommands taken = new TakenCommands();

    @Test
    void shouldSkipTheCommandsOfAnImageUpToTheLastPositionTakenThenForgetTheImage()
    {
        taken.taken(7, 64);
        taken.taken(7, 128);
        taken.taken(-3, 96);

        assertThat(taken.wasTaken(7, 64)).isTrue();
        assertThat(taken.wasTaken(7, 128)).isTrue();
        assertThat(taken.wasTaken(7, 192)).isFalse();
        assertThat(taken.wasTaken(7, 128)).as("the image's entry is gone once a command passed it").isFalse();
        assertThat(taken.isEmpty()).isFalse();

        assertThat(taken.wasTaken(-3, 96)).isTrue();
        assertThat(taken.wasTaken(-3, 160)).isFalse();
        assertThat(taken.isEmpty()).isTrue();
    }

    @Test
    void shouldTakeEveryCommandOfAnImageNoEarlierRunRead()
    {
        taken.taken(7, 128);

        assertThat(taken.wasTaken(8, 64)).isFalse();
        assertThat(taken.wasTaken(7, 64)).isTrue();
    }
}
