package io.bourse.engine;

import io.aeron.Subscription;
import io.bourse.common.metrics.LatencySummary;
import io.bourse.engine.match.MatchingEngine;
import org.agrona.concurrent.Agent;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * The shard's single thread: polls the command stream and lets the {@link CommandAdapter} apply each command to the
 * matching engine, whose events the {@link EventProxy} publishes before the next command is read. After each batch it
 * publishes the open order count for the metrics thread (which must not read the engine's maps). At a stop it first
 * drains ({@link #awaitDrained(long)}): what it took is answered before it goes.
 */
final class EngineAgent implements Agent
{
    /**
     * Commands taken per duty cycle. A gateway sends up to a few hundred per client read, many reads per cycle; at 64
     * the shard fell behind its gateways on a shared thread and the backlog in the command and event terms pushed the
     * per-order cost up with cache misses ({@code bench gateway} at 500,000/s, 64 MiB terms: 2.9 to 3.1 us of
     * exchange-thread CPU per order at 64, 2.3 us at 1024 and more).
     */
    private static final int FRAGMENT_LIMIT = 1024;

    private final int shardId;
    private final Subscription commands;
    private final CommandAdapter commandAdapter;
    private final EventProxy eventProxy;
    private final MatchingEngine engine;
    private final AtomicLong openOrderCount;
    private final LatencySummary serviceTime;
    /** Set by the closing thread: report the first duty cycle with nothing left to do. */
    private volatile boolean draining;
    /** Set by this agent once draining: nothing held back that a subscriber could take, no command unread. */
    private volatile boolean drained;

    /**
     * @param shardId        this shard's id, for the role name.
     * @param commands       the shard's command stream.
     * @param commandAdapter applies each command to the engine and records its service time.
     * @param eventProxy     publishes the engine's events.
     * @param engine         the shard's matching engine.
     * @param openOrderCount published after each batch for the metrics thread.
     * @param serviceTime    the summary the command adapter records into: one batch per duty cycle.
     */
    EngineAgent(
        final int shardId, final Subscription commands, final CommandAdapter commandAdapter,
        final EventProxy eventProxy, final MatchingEngine engine, final AtomicLong openOrderCount,
        final LatencySummary serviceTime)
    {
        this.shardId = shardId;
        this.eventProxy = eventProxy;
        this.commands = commands;
        this.commandAdapter = commandAdapter;
        this.engine = engine;
        this.openOrderCount = openOrderCount;
        this.serviceTime = serviceTime;
    }

    @Override
    public int doWork()
    {
        final int workCount;
        serviceTime.beginBatch();
        try
        {
            workCount = eventProxy.publishHeld() + commands.controlledPoll(commandAdapter, FRAGMENT_LIMIT);
        }
        finally
        {
            serviceTime.endBatch();
        }
        if (workCount > 0)
        {
            openOrderCount.setRelease(engine.openOrderCount());
        }
        else if (draining && (eventProxy.canPublish() || !eventProxy.isConnected()))
        {
            drained = true;
        }
        return workCount;
    }

    /**
     * Lets the shard stop without losing a command it took (SIGTERM, {@code docker compose stop}): called on the
     * closing thread before the agent is closed, it asks the agent to report the first duty cycle in which it
     * published no held event and found no command left on the command stream, with no event held back (or no
     * subscriber left to take one, not even the event archive's recording), and waits for that. Meanwhile the agent
     * runs as before: it publishes the events the stream refused and takes the commands the gateways sent before the
     * stop, answering them. Without this, the events held at the stop were lost, and with them a command whose
     * SequencedCommand was among them: taken, never answered and, not being in the input log, never recovered.
     *
     * @param timeoutNs how long to wait, in ns.
     * @return true when drained; false at the timeout: a subscriber of the event stream stopped reading, or the
     *         gateways kept the command stream busy throughout.
     */
    boolean awaitDrained(final long timeoutNs)
    {
        draining = true;
        final long deadlineNs = System.nanoTime() + timeoutNs;
        while (!drained)
        {
            if (System.nanoTime() - deadlineNs >= 0)
            {
                return false;
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
        }
        return true;
    }

    @Override
    public String roleName()
    {
        return "matching-engine-" + shardId;
    }
}
