package io.bourse.common.aeron;

import org.agrona.ErrorHandler;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.AgentRunner;
import org.agrona.concurrent.AgentTerminationException;
import org.agrona.concurrent.DynamicCompositeAgent;
import org.agrona.concurrent.IdleStrategy;

import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;

/**
 * One thread that runs the agents of several services, one duty cycle of each in turn, idling with one idle strategy
 * only when none of them did work: an order then goes from the gateway's socket read through the engine and back to
 * the gateway's socket write on one thread, with no thread to wake up between the stages, and a 2-core host keeps a
 * core for the clients. Built on Agrona's {@link DynamicCompositeAgent}, so that services join and leave while it
 * runs. An error one agent throws is counted against that agent's own service and does not skip the others' cycles.
 */
public final class SharedAgentThread implements AgentHost, AutoCloseable
{
    private final DynamicCompositeAgent composite;
    private final AgentRunner runner;

    /**
     * Starts the thread, with no agents yet, not pinned to any CPU.
     *
     * @param roleName     the thread's name.
     * @param idleStrategy how the thread idles when no agent did work.
     * @param errorCount   incremented for errors of the thread itself (an agent's own errors go to its service).
     */
    public SharedAgentThread(final String roleName, final IdleStrategy idleStrategy, final AtomicLong errorCount)
    {
        this(roleName, idleStrategy, ThreadAffinity.NONE, errorCount);
    }

    /**
     * Starts the thread, with no agents yet, pinned to the CPUs of its role.
     *
     * @param roleName       the thread's name and role.
     * @param idleStrategy   how the thread idles when no agent did work.
     * @param threadAffinity the CPUs of the thread's role, if it has any.
     * @param errorCount     incremented for errors of the thread itself (an agent's own errors go to its service).
     */
    public SharedAgentThread(
        final String roleName, final IdleStrategy idleStrategy, final ThreadAffinity threadAffinity,
        final AtomicLong errorCount)
    {
        composite = new DynamicCompositeAgent(roleName);
        runner = AgentLaunch.start(composite, idleStrategy, threadAffinity, errorCount);
        while (DynamicCompositeAgent.Status.INIT == composite.status())
        {
            Thread.onSpinWait();
        }
    }

    /**
     * Adds an agent to the shared thread and waits until its {@code onStart} has run there; one whose
     * {@code onStart} throws is not added (the error counts against the shared thread).
     *
     * @param agent          the agent.
     * @param idleStrategy   ignored: the shared thread idles with its own strategy.
     * @param threadAffinity ignored: the shared thread is pinned by its own role.
     * @param errorCount     incremented on every error the agent throws.
     * @return the running agent; closing it removes it from the thread and waits for its {@code onClose}.
     * @throws IllegalStateException when this thread is closed, or the agent's {@code onStart} threw (the cause).
     */
    @Override
    public synchronized HostedAgent run(
        final Agent agent, final IdleStrategy idleStrategy, final ThreadAffinity threadAffinity,
        final AtomicLong errorCount)
    {
        final ErrorCountingAgent counted = new ErrorCountingAgent(
            agent, AgentLaunch.countingErrorHandler(agent.roleName(), errorCount));
        checkActive();
        awaitChange(() -> composite.tryAdd(counted), composite::hasAddAgentCompleted);
        counted.awaitStart(() -> DynamicCompositeAgent.Status.ACTIVE == composite.status() && !runner.isClosed());
        return new HostedAgent()
        {
            public Thread thread()
            {
                return runner.thread();
            }

            public void close()
            {
                remove(counted);
            }
        };
    }

    /** Stops the thread; agents still on it are closed on it. */
    @Override
    public void close()
    {
        runner.close();
    }

    private synchronized void remove(final Agent agent)
    {
        if (DynamicCompositeAgent.Status.ACTIVE == composite.status())
        {
            awaitChange(() -> composite.tryRemove(agent), composite::hasRemoveAgentCompleted);
        }
    }

    private void awaitChange(final BooleanSupplier request,
        final BooleanSupplier completed)
    {
        while (!request.getAsBoolean())
        {
            checkActive();
            Thread.yield();
        }
        while (!completed.getAsBoolean())
        {
            checkActive();
            Thread.yield();
        }
    }

    private void checkActive()
    {
        if (DynamicCompositeAgent.Status.ACTIVE != composite.status() || runner.isClosed())
        {
            throw new IllegalStateException(composite.roleName() + " is closed");
        }
    }

    /**
     * Counts and logs what one agent throws in its duty cycle, so that the composite goes on to the next agent; its
     * start is watched for {@link #run}.
     */
    private static final class ErrorCountingAgent extends StartWatchingAgent
    {
        private final ErrorHandler errorHandler;

        ErrorCountingAgent(final Agent delegate, final ErrorHandler errorHandler)
        {
            super(delegate);
            this.errorHandler = errorHandler;
        }

        @Override
        public int doWork()
        {
            try
            {
                return delegate.doWork();
            }
            catch (final AgentTerminationException ex)
            {
                throw ex;
            }
            catch (final Exception ex)
            {
                errorHandler.onError(ex);
                return 0;
            }
        }
    }
}
