package io.bourse.common.aeron;

import org.agrona.concurrent.Agent;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

@Timeout(10)
class SharedAgentThreadTest
{
    private final List<String> calls = new CopyOnWriteArrayList<>();

    @Test
    void shouldRunEveryAgentOnOneThreadAndCloseItOnThatThreadWhenRemoved()
    {
        try (SharedAgentThread thread = new SharedAgentThread("shared", new BackoffIdleStrategy(), new AtomicLong()))
        {
            final RecordingAgent first = new RecordingAgent("first", false);
            final RecordingAgent second = new RecordingAgent("second", false);
            final AgentHost.HostedAgent hostedFirst = thread.run(first, null, null, new AtomicLong());
            final AgentHost.HostedAgent hostedSecond = thread.run(second, null, null, new AtomicLong());
            awaitCycles(first, 10);
            awaitCycles(second, 10);

            hostedFirst.close();
            final long firstCycles = first.cycles.get();
            awaitCycles(second, second.cycles.get() + 10);
            hostedSecond.close();

            assertThat(first.cycles.get()).isEqualTo(firstCycles);
            assertThat(first.threads).containsOnly(hostedFirst.thread()).isNotEmpty();
            assertThat(second.threads).containsOnly(hostedFirst.thread());
            assertThat(hostedFirst.thread().getName()).isEqualTo("shared");
            assertThat(calls).containsSubsequence("first:start", "first:close")
                .containsSubsequence("second:start", "second:close");
        }
    }

    @Test
    void shouldCountAnAgentsErrorAgainstItAndKeepRunningTheOthersWhenItThrows()
    {
        final AtomicLong threadErrors = new AtomicLong();
        try (SharedAgentThread thread = new SharedAgentThread("shared", new BackoffIdleStrategy(), threadErrors))
        {
            final RecordingAgent failing = new RecordingAgent("failing", true);
            final RecordingAgent healthy = new RecordingAgent("healthy", false);
            final AtomicLong failingErrors = new AtomicLong();
            final AtomicLong healthyErrors = new AtomicLong();
            thread.run(failing, null, null, failingErrors);
            thread.run(healthy, null, null, healthyErrors);

            awaitCycles(failing, 100);
            awaitCycles(healthy, 100);

            assertThat(failingErrors.get()).isGreaterThanOrEqualTo(99);
            assertThat(healthyErrors.get()).isZero();
            assertThat(threadErrors.get()).isZero();
        }
    }

    @Test
    void shouldRefuseAnAgentWhenClosed()
    {
        final SharedAgentThread thread = new SharedAgentThread("shared", new BackoffIdleStrategy(), new AtomicLong());
        final RecordingAgent agent = new RecordingAgent("late", false);
        final AgentHost.HostedAgent hosted = thread.run(agent, null, null, new AtomicLong());
        thread.close();

        hosted.close();
        assertThatThrownBy(() -> thread.run(new RecordingAgent("refused", false), null, null, new AtomicLong()))
            .isInstanceOf(IllegalStateException.class).hasMessageContaining("shared");
        assertThat(calls).containsSubsequence("late:start", "late:close").doesNotContain("refused:start");
    }

    @Test
    void shouldRefuseAnAgentWhoseStartFailsAndKeepRunningTheOthers()
    {
        try (SharedAgentThread thread = new SharedAgentThread("shared", new BackoffIdleStrategy(), new AtomicLong()))
        {
            final RecordingAgent failing = new RecordingAgent("failing-start", false);
            failing.startFailure = new IllegalStateException("no session file");

            assertThatThrownBy(() -> thread.run(failing, null, null, new AtomicLong()))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("failing-start failed to start: no session file")
                .hasCause(failing.startFailure);
            final RecordingAgent healthy = new RecordingAgent("healthy", false);
            thread.run(healthy, null, null, new AtomicLong());
            awaitCycles(healthy, 10);
            assertThat(failing.cycles.get()).isZero();
        }
    }

    @Test
    void shouldRefuseAnAgentWhoseStartFailsOnAThreadOfItsOwn()
    {
        final RecordingAgent failing = new RecordingAgent("failing-start", false);
        failing.startFailure = new IllegalStateException("no session file");
        final AtomicLong errors = new AtomicLong();

        assertThatThrownBy(() -> AgentHost.DEDICATED.run(
            failing, new BackoffIdleStrategy(), ThreadAffinity.NONE, errors))
            .isInstanceOf(IllegalStateException.class)
            .hasMessage("failing-start failed to start: no session file")
            .hasCause(failing.startFailure);
        assertThat(failing.cycles.get()).isZero();
        while (errors.get() == 0)
        {
            Thread.onSpinWait(); // the runner counts the error after run() was told of it
        }
        assertThat(errors.get()).isEqualTo(1);
    }

    private static void awaitCycles(final RecordingAgent agent, final long cycles)
    {
        while (agent.cycles.get() < cycles)
        {
            Thread.onSpinWait();
        }
    }

    private final class RecordingAgent implements Agent
    {
        private final String name;
        private final boolean failing;
        private final AtomicLong cycles = new AtomicLong();
        private final List<Thread> threads = new CopyOnWriteArrayList<>();
        private RuntimeException startFailure;

        RecordingAgent(final String name, final boolean failing)
        {
            this.name = name;
            this.failing = failing;
        }

        public void onStart()
        {
            calls.add(name + ":start");
            if (null != startFailure)
            {
                throw startFailure;
            }
        }

        public int doWork()
        {
            cycles.incrementAndGet();
            if (threads.isEmpty())
            {
                threads.add(Thread.currentThread());
            }
            if (failing)
            {
                throw new IllegalStateException(name + " fails every cycle");
            }
            return 0;
        }

        public void onClose()
        {
            calls.add(name + ":close");
        }

        public String roleName()
        {
            return name;
        }
    }
}
