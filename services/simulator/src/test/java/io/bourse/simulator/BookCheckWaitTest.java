package io.bourse.simulator;

import org.junit.jupiter.api.Test;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

/** The end-of-run book check's wait for a point of the stream at which the books can be compared with a snapshot. */
class BookCheckWaitTest
{
    private static final long QUIET_NS = TimeUnit.MILLISECONDS.toNanos(30);
    private static final long TIMEOUT_NS = TimeUnit.MILLISECONDS.toNanos(300);
    private static final long POLL_NS = TimeUnit.MICROSECONDS.toNanos(100);

    private final AtomicLong messages = new AtomicLong();
    /** The wait's clock: one poll interval per look at the feed, however long the test thread takes meanwhile. */
    private final AtomicLong nowNs = new AtomicLong();
    private boolean reloginPending;
    private long messagesPerPoll;

    private final SimulatorService.FirstFeed feed = new SimulatorService.FirstFeed()
    {
        @Override
        public long messages()
        {
            nowNs.addAndGet(POLL_NS);
            return messages.addAndGet(messagesPerPoll);
        }

        @Override
        public MoldSession moldSession()
        {
            return null; // SoupBinTCP
        }

        @Override
        public boolean isReloginPending()
        {
            return reloginPending;
        }
    };

    @Test
    void shouldLetTheBooksBeComparedOnceTheFeedIsQuiet()
    {
        assertThat(await()).isNull();
    }

    @Test
    void shouldSayWhyNotWhenTheFeedIsNeverQuietWithinTheTimeout()
    {
        messagesPerPoll = 1;

        assertThat(await())
            .isEqualTo("was not quiet for 30 ms within 300 ms");
    }

    @Test
    void shouldSayWhyNotWhenTheSessionIsNotLoggedInAgainWithinTheTimeout()
    {
        reloginPending = true;

        assertThat(await())
            .isEqualTo("was not logged in again");
    }

    private String await()
    {
        return SimulatorService.awaitComparableBooks(
            new FeedQuiet("feed session", feed, QUIET_NS, () -> null, nowNs.get()), TIMEOUT_NS, POLL_NS, nowNs::get);
    }
}
