package io.bourse.bench;

/** How the in-process exchange's services map onto threads. */
public enum ThreadLayout
{
    /**
     * The gateway and every engine shard run their agents on one shared thread
     * ({@link io.bourse.common.aeron.SharedAgentThread}): no thread wake-up between the stages, and on a 2-core host
     * one core stays with the clients.
     */
    SHARED,

    /** Every service runs its agent on a thread of its own, as the services do in their own containers. */
    DEDICATED
}
