package io.bourse.launcher;

import io.bourse.common.aeron.AgentLaunch;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.AgentRunner;
import org.agrona.concurrent.SleepingMillisIdleStrategy;
import org.junit.jupiter.api.Test;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A thread killed by an {@link Error}, an agent's included, ends the process; an exception does not.
 */
class FailFastTest
{
    @Test
    void shouldExitWhenAnAgentThreadDiesOfAnError() throws InterruptedException
    {
        final CountDownLatch exited = new CountDownLatch(1);
        final Thread.UncaughtExceptionHandler before = Thread.getDefaultUncaughtExceptionHandler();
        Thread.setDefaultUncaughtExceptionHandler(FailFast.handler("test", exited::countDown));
        final AtomicLong errors = new AtomicLong();
        try (AgentRunner ignored = AgentLaunch.start(new Agent()
        {
            @Override
            public int doWork()
            {
                throw new OutOfMemoryError("simulated: the token index outgrew the heap");
            }

            @Override
            public String roleName()
            {
                return "dying-agent";
            }
        }, new SleepingMillisIdleStrategy(1), errors))
        {
            assertThat(exited.await(10, TimeUnit.SECONDS)).isTrue();
            assertThat(errors.get()).isEqualTo(1);
        }
        finally
        {
            Thread.setDefaultUncaughtExceptionHandler(before);
        }
    }

    @Test
    void shouldOnlyLogAThreadThatDiesOfAnException() throws InterruptedException
    {
        final AtomicInteger exits = new AtomicInteger();
        final Thread thread = new Thread(() ->
        {
            throw new IllegalStateException("simulated");
        });
        thread.setUncaughtExceptionHandler(FailFast.handler("test", exits::incrementAndGet));
        thread.start();
        thread.join();

        assertThat(exits.get()).isZero();
    }
}
