package io.bourse.common.aeron;

import org.agrona.concurrent.Agent;
import org.agrona.concurrent.AgentRunner;
import org.agrona.concurrent.IdleStrategy;

import java.util.concurrent.atomic.AtomicLong;

/**
 * Where a service runs its agent: on a thread of its own ({@link #DEDICATED}, what every service does by default and
 * in its own container), or beside other services' agents on one shared thread ({@link SharedAgentThread}), which is
 * how a small host runs the whole exchange in one process without more busy threads than cores, as Aeron's media
 * driver does with its {@code SHARED} threading mode.
 */
@FunctionalInterface
public interface AgentHost
{
    /**
     * Every agent on a new thread of its own, named after its role, with its own idle strategy, pinned to its role's
     * CPUs.
     */
    AgentHost DEDICATED = (agent, idleStrategy, threadAffinity, errorCount) ->
    {
        final StartWatchingAgent watched = new StartWatchingAgent(agent);
        final AgentRunner runner = AgentLaunch.start(watched, idleStrategy, threadAffinity, errorCount);
        watched.awaitStart(() -> !runner.isClosed() && (null == runner.thread() || runner.thread().isAlive()));
        return new HostedAgent()
        {
            public Thread thread()
            {
                return runner.thread();
            }

            public void close()
            {
                runner.close();
            }
        };
    };

    /**
     * Starts running an agent: its {@code onStart} and then its duty cycles run on the host's thread.
     *
     * @param agent          the agent.
     * @param idleStrategy   its idle strategy when it has a thread of its own; a shared thread uses its own instead.
     * @param threadAffinity the CPUs of the agent's role when it has a thread of its own; a shared thread is pinned
     *                       by its own role instead.
     * @param errorCount     incremented on every error the agent throws; the error does not stop the agent or, on a
     *                       shared thread, the other agents.
     * @return the running agent, once its {@code onStart} has run; close it to stop it (its {@code onClose} runs on
     * the host's thread).
     * @throws IllegalStateException when the host is closed, or when the agent's {@code onStart} threw (the cause):
     *                               the agent never runs.
     */
    HostedAgent run(Agent agent, IdleStrategy idleStrategy, ThreadAffinity threadAffinity, AtomicLong errorCount);

    /** An agent running on a host's thread. */
    interface HostedAgent extends AutoCloseable
    {
        /** @return the thread the agent runs on, or null until that thread has started. */
        Thread thread();

        /** Stops the agent and waits until its {@code onClose} has run. */
        @Override
        void close();
    }
}
