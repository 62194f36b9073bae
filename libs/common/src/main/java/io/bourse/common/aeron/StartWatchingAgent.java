package io.bourse.common.aeron;

import org.agrona.concurrent.Agent;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * An agent wrapped so that the thread that hands it to its host ({@link AgentHost}) can wait until its
 * {@code onStart} has run on the host's thread and learn whether it threw: an agent whose start failed never runs its
 * duty cycles (Agrona's runners count the error and go on without it), and its service must not start as if it did.
 * Duty cycles, close and role are the wrapped agent's.
 */
class StartWatchingAgent implements Agent
{
    /** How often a waiting starter checks that the host can still start the agent, in ms. */
    private static final long HOST_CHECK_INTERVAL_MS = 1;

    /** The wrapped agent. */
    protected final Agent delegate;
    private final CountDownLatch startEnded = new CountDownLatch(1);
    private volatile Throwable startFailure;

    /**
     * @param delegate the agent.
     */
    StartWatchingAgent(final Agent delegate)
    {
        this.delegate = delegate;
    }

    /** Runs the agent's {@code onStart} and keeps what it threw, which it throws on to the host. */
    @Override
    public void onStart()
    {
        try
        {
            delegate.onStart();
        }
        catch (final RuntimeException | Error ex)
        {
            startFailure = ex;
            throw ex;
        }
        finally
        {
            startEnded.countDown();
        }
    }

    @Override
    public int doWork() throws Exception
    {
        return delegate.doWork();
    }

    @Override
    public void onClose()
    {
        delegate.onClose();
    }

    @Override
    public String roleName()
    {
        return delegate.roleName();
    }

    /**
     * Waits until the agent's {@code onStart} has run on its host's thread.
     *
     * @param hostAlive false once the host can no longer start the agent (closed, or its thread gone).
     * @throws IllegalStateException naming the agent: with what {@code onStart} threw as the cause; when the host
     *                               went first; when the waiting thread is interrupted.
     */
    void awaitStart(final BooleanSupplier hostAlive)
    {
        try
        {
            while (!startEnded.await(HOST_CHECK_INTERVAL_MS, TimeUnit.MILLISECONDS))
            {
                if (!hostAlive.getAsBoolean() && startEnded.getCount() > 0)
                {
                    throw new IllegalStateException(roleName() + " failed to start: its thread is gone");
                }
            }
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(roleName() + " start interrupted", ex);
        }
        final Throwable failure = startFailure;
        if (null != failure)
        {
            throw new IllegalStateException(roleName() + " failed to start: " + failure.getMessage(), failure);
        }
    }
}
