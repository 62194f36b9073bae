package io.bourse.bench;

import org.agrona.concurrent.IdleStrategy;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;

/**
 * The idle strategy of a server thread whose path a benchmark measures only part of the time: while its standby
 * switch is on (the other path is measured), a duty cycle that found no work sleeps {@link #STANDBY_PARK_NS}, where
 * the configured strategy would spin, yield or park for up to 50 µs and poll its sockets and streams again, taking
 * 10-15% of a core from the path under test on a 2-core host. A duty cycle that found work resets the configured
 * strategy, so a thread taken off standby follows it again from its first duty cycle with work; the step's warm-up
 * covers the switch. Thread-safe switch, one strategy per thread.
 */
final class StandbyIdleStrategy implements IdleStrategy
{
    /** Sleep of an idle duty cycle on standby: 1 ms, well inside the sessions' 1 s heartbeat interval. */
    static final long STANDBY_PARK_NS = TimeUnit.MILLISECONDS.toNanos(1);

    private final IdleStrategy delegate;
    private final AtomicBoolean standby;

    /**
     * @param delegate the strategy followed while not on standby.
     * @param standby  on while the thread's path is not measured.
     */
    StandbyIdleStrategy(final IdleStrategy delegate, final AtomicBoolean standby)
    {
        this.delegate = delegate;
        this.standby = standby;
    }

    /** {@inheritDoc} */
    @Override
    public void idle(final int workCount)
    {
        if (workCount <= 0 && standby.get())
        {
            LockSupport.parkNanos(STANDBY_PARK_NS);
            return;
        }
        delegate.idle(workCount);
    }

    /** {@inheritDoc} */
    @Override
    public void idle()
    {
        if (standby.get())
        {
            LockSupport.parkNanos(STANDBY_PARK_NS);
            return;
        }
        delegate.idle();
    }

    /** {@inheritDoc} */
    @Override
    public void reset()
    {
        delegate.reset();
    }

    /** {@inheritDoc} */
    @Override
    public String alias()
    {
        return delegate.alias();
    }
}
