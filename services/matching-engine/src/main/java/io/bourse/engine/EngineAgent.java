package io.bourse.engine;

import io.aeron.Subscription;
import org.agrona.concurrent.Agent;

/**
 * The shard's single thread: polls the command stream and lets the {@link CommandAdapter} apply each command to the
 * matching engine, whose events the {@link EventProxy} publishes before the next command is read.
 */
final class EngineAgent implements Agent
{
    private static final int FRAGMENT_LIMIT = 64;

    private final int shardId;
    private final Subscription commands;
    private final CommandAdapter commandAdapter;

    EngineAgent(final int shardId, final Subscription commands, final CommandAdapter commandAdapter)
    {
        this.shardId = shardId;
        this.commands = commands;
        this.commandAdapter = commandAdapter;
    }

    @Override
    public int doWork()
    {
        return commands.poll(commandAdapter, FRAGMENT_LIMIT);
    }

    @Override
    public String roleName()
    {
        return "matching-engine-" + shardId;
    }
}
