package io.bourse.simulator;

import io.bourse.common.metrics.LatencySummary;
import io.bourse.common.time.MidnightNanoClock;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import org.agrona.concurrent.CachedNanoClock;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** The agent's attempts to log a lost session in again, on a clock the test moves. */
class MarketDataAgentTest
{
    private final CachedNanoClock nanoClock = new CachedNanoClock();
    private final SimulatorCounters counters = new SimulatorCounters();
    private final List<Long> attemptsMs = new ArrayList<>();
    private final List<FeedSession> opened = new ArrayList<>();
    private boolean failAttempts;
    /** The session open last: the one whose End of Messages the agent asks about. */
    private FeedSession current;

    @Test
    void shouldWaitTwiceAsLongAfterEachFailureAndStartAgainAfterASessionThatLasted() throws IOException
    {
        final FeedSession first = new FeedSession();
        final MarketDataAgent agent = agent(first);

        first.lose();
        failAttempts = true;
        runUntil(agent, 10_000); // attempts 1 s after the loss, then 2 s and 4 s after the previous one: 1, 3, 7
        failAttempts = false;
        runUntil(agent, 16_000); // 8 s after the failed attempt at 7 s: 15, which logs in
        opened.getLast().lose(); // lost at 16 s, 1 s after its opening: 16 s later, at 32 s
        runUntil(agent, 100_000);
        opened.getLast().lose(); // lost at 100 s, 68 s after its opening: 1 s later
        runUntil(agent, 101_500);

        assertThat(attemptsMs).containsExactly(1_000L, 3_000L, 7_000L, 15_000L, 32_000L, 101_000L);
        assertThat(agent.isActive(0)).isTrue();
        assertThat(counters.errors().count(SimulatorError.MD_SESSION_LOST)).as("sessions lost").isEqualTo(3);
    }

    @Test
    void shouldWaitNoLongerThanTheLongestInterval()
    {
        final FeedSession first = new FeedSession();
        final MarketDataAgent agent = agent(first);
        failAttempts = true;

        first.lose();
        runUntil(agent, 200_000);

        // 1, 3, 7, 15, 31, then every 32 s.
        assertThat(attemptsMs).containsExactly(1_000L, 3_000L, 7_000L, 15_000L, 31_000L, 63_000L, 95_000L,
            127_000L, 159_000L, 191_000L);
        assertThat(ReloginSchedule.MAX_RELOGIN_INTERVAL_MS).isEqualTo(32_000L);
    }

    @Test
    void shouldTryAtOnceAndThenEverySecondOnceAskedToLogInPromptly()
    {
        final FeedSession first = new FeedSession();
        final MarketDataAgent agent = agent(first);
        failAttempts = true;

        first.lose();
        runUntil(agent, 10_000); // 1, 3, 7; the next would be at 15 s
        agent.reloginPromptly(); // the end of the run
        runUntil(agent, 12_500);

        assertThat(attemptsMs).containsExactly(1_000L, 3_000L, 7_000L, 10_000L, 11_000L, 12_000L);
    }

    @Test
    void shouldOpenAgainWithoutAnErrorASessionTheServerEndedAfterItsEndOfMessages()
    {
        final FeedSession first = new FeedSession();
        final MarketDataAgent agent = agent(first);

        first.endInOrder(); // End of Messages, then the server ends the session: the MoldUDP64 day switch
        runUntil(agent, 1_500);

        assertThat(attemptsMs).as("opened again as a lost one is").containsExactly(1_000L);
        assertThat(agent.isActive(0)).isTrue();
        assertThat(counters.errors().total()).isZero();

        opened.getLast().lose();
        runUntil(agent, 1_600);

        assertThat(counters.errors().count(SimulatorError.MD_SESSION_LOST)).as("the next session was lost")
            .isEqualTo(1);
    }

    /** @return an agent of the one session, which {@link #open} logs in again, on the test's clock. */
    private MarketDataAgent agent(final FeedSession first)
    {
        current = first;
        return new MarketDataAgent(List.of(first), this::open, (index) -> current.endOfMessages, new FeedMeter(counters,
            new LatencyTracker(LatencySummary.register(new PrometheusRegistry(), "test_md_latency_seconds", "test")),
            1, 0), counters, new MidnightNanoClock(), nanoClock);
    }

    /** Runs a duty cycle now and every 100 ms of the test's clock until the time given, in ms. */
    private void runUntil(final MarketDataAgent agent, final long untilMs)
    {
        agent.doWork();
        while (TimeUnit.NANOSECONDS.toMillis(nanoClock.nanoTime()) < untilMs)
        {
            nanoClock.advance(TimeUnit.MILLISECONDS.toNanos(100));
            agent.doWork();
        }
    }

    private MarketDataSession open(final int index) throws IOException
    {
        attemptsMs.add(TimeUnit.NANOSECONDS.toMillis(nanoClock.nanoTime()));
        if (failAttempts)
        {
            throw new IOException("connection refused");
        }
        opened.add(new FeedSession());
        current = opened.getLast();
        return current;
    }

    /** A session that the test loses. */
    private static final class FeedSession implements MarketDataSession
    {
        private boolean active = true;
        private boolean endOfMessages;

        void lose()
        {
            active = false;
        }

        /** The server sends System Event End of Messages, then ends the session. */
        void endInOrder()
        {
            endOfMessages = true;
            active = false;
        }

        @Override
        public int poll()
        {
            return 0;
        }

        @Override
        public boolean isActive()
        {
            return active;
        }

        @Override
        public String name()
        {
            return "market-data session 0";
        }

        @Override
        public void abort()
        {
            active = false;
        }

        @Override
        public void close()
        {
            active = false;
        }
    }
}
