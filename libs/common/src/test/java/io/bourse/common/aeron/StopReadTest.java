package io.bourse.common.aeron;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class StopReadTest
{
    /** The stop reads until a poll finds nothing, and polls no more after it. */
    @Test
    void shouldPollUntilAPollReadsNothing()
    {
        final int[] reads = {10, 3, 0, 7};
        final List<Integer> polled = new ArrayList<>();

        StopRead.readPublished(() ->
        {
            final int read = reads[polled.size()];
            polled.add(read);
            return read;
        });

        assertThat(polled).containsExactly(10, 3, 0);
    }
}
