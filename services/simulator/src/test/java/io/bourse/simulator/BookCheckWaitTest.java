package io.bourse.simulator;

import org.agrona.concurrent.Agent;
import org.agrona.concurrent.AgentRunner;
import org.agrona.concurrent.SleepingMillisIdleStrategy;
import org.junit.jupiter.api.Test;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
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
    private long sessionStarts;
    private long sessionStartsPerPoll;

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

        @Override
        public long sessionStarts()
        {
            return sessionStarts += sessionStartsPerPoll;
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

    /** A session opened again empties its books, though no message came: the quiet period starts again. */
    @Test
    void shouldNotCallTheFeedQuietWhileItsSessionIsOpenedAgainAndAgain()
    {
        sessionStartsPerPoll = 1;

        assertThat(await())
            .isEqualTo("was not quiet for 30 ms within 300 ms");
    }

    /**
     * The book check's stop of the market-data agent waits for its thread to end though another thread is closing its
     * runner (the run's close, timed out): Agrona's second close returns at once. Before, the check could read the
     * books while the agent's thread still ran.
     */
    @Test
    void shouldWaitForTheAgentsThreadToEndWhileAnotherThreadClosesItsRunner() throws InterruptedException
    {
        final CountDownLatch running = new CountDownLatch(1);
        final CountDownLatch closing = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);
        final AtomicBoolean ended = new AtomicBoolean();
        final AgentRunner runner = new AgentRunner(new SleepingMillisIdleStrategy(1), Throwable::printStackTrace, null,
            new Agent()
            {
                @Override
                public int doWork()
                {
                    running.countDown();
                    return 0;
                }

                @Override
                public void onClose()
                {
                    closing.countDown();
                    awaitQuietly(release);
                    ended.set(true);
                }

                @Override
                public String roleName()
                {
                    return "simulator-market-data";
                }
            });
        AgentRunner.startOnThread(runner);
        assertThat(running.await(5, TimeUnit.SECONDS)).isTrue();
        final Thread otherCloser = new Thread(runner::close);
        otherCloser.start();
        assertThat(closing.await(5, TimeUnit.SECONDS)).isTrue();

        final Thread checker = new Thread(() -> SimulatorService.closeAndAwait(runner));
        checker.start();
        checker.join(200);
        assertThat(checker.isAlive()).as("waiting for the agent's thread").isTrue();
        release.countDown();
        checker.join(5_000);
        assertThat(checker.isAlive()).isFalse();
        assertThat(ended).isTrue();
        otherCloser.join(5_000);
    }

    private static void awaitQuietly(final CountDownLatch latch)
    {
        try
        {
            latch.await(10, TimeUnit.SECONDS);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
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
