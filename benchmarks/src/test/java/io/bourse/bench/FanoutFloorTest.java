package io.bourse.bench;

import io.bourse.common.config.Credentials;
import io.bourse.common.config.SymbolDirectory;
import io.bourse.common.time.MidnightNanoClock;
import org.agrona.CloseHelper;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The fanout benchmark's floor over real loopback subscribers: what it does when one stops reading. */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD) // a floor stuck on a socket ignores interrupts
class FanoutFloorTest
{
    private static final List<String> SYMBOLS = List.of("AAPL", "MSFT");
    private static final int SUBSCRIBER_RECEIVE_BUFFER = 4096;

    private final List<AutoCloseable> opened = new ArrayList<>();

    @AfterEach
    void close()
    {
        CloseHelper.closeAll(opened.reversed());
    }

    @Test
    void shouldFailThePublishWhenASubscriberStopsReadingInsteadOfWritingToItForever() throws IOException
    {
        final List<Credentials.User> users = List.of(new Credentials.User("sub000", "pw0", "FIRM"));
        final FanoutFloor floor = new FanoutFloor(
            1, users, SYMBOLS, SymbolDirectory.parse("AAPL@0,MSFT@1"), TimeUnit.MILLISECONDS.toNanos(500));
        opened.add(floor);
        final MidnightNanoClock clock = new MidnightNanoClock();
        opened.add(ItchSubscriber.login(floor.port(), users.get(0), clock, SUBSCRIBER_RECEIVE_BUFFER));
        floor.prepare();

        // Never read: 100,000 messages a second fill the socket's buffers within a second or two.
        assertThatThrownBy(() -> floor.publish(clock, clock.nanosSinceMidnight(), 10_000, 10_000_000))
            .isInstanceOf(IOException.class)
            .hasMessageContaining("a subscriber's socket took nothing for");
    }
}
