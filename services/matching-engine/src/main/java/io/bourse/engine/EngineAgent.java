package io.bourse.engine;

import io.aeron.Subscription;
import io.bourse.common.metrics.LatencySummary;
import io.bourse.engine.match.MatchingEngine;
import org.agrona.concurrent.Agent;

import java.util.concurrent.atomic.AtomicLong;

/**
 * The shard's single thread: polls the command stream and lets the {@link CommandAdapter} apply each command to the
 * matching engine, whose events the {@link EventProxy} publishes before the next command is read. After each batch it
 * publishes the open order count for the metrics thread (which must not read the engine's maps).
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
        return workCount;
    }

    @Override
    public String roleName()
    {
        return "matching-engine-" + shardId;
    }
}
