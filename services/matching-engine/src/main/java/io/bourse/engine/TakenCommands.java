package io.bourse.engine;

import org.agrona.collections.Long2LongHashMap;

/**
 * Where the shard's earlier runs took their commands: per image of the command stream (an Aeron session id, the
 * publication of a gateway), the stream position just after the last command taken, from the SequencedCommands of
 * the recovered input log ({@link EngineRecovery}). A restarted shard's command subscription joins each image where
 * the stream's slowest subscriber stands, which can be before what an earlier run took: the subscription of a run that
 * was killed stays until the media driver times its client out, and a run killed within a poll had not yet moved its
 * own position past the commands it took in that poll. The live {@link CommandAdapter} skips those commands, so that
 * none is taken twice; an image's entry is dropped at its first command past it. The engine agent's; not thread-safe.
 */
final class TakenCommands
{
    private static final long NONE = -1;

    private final Long2LongHashMap positions = new Long2LongHashMap(NONE);

    /**
     * A command an earlier run took, in recovery; a later one of the same image replaces the position.
     *
     * @param sessionId Aeron session id of the command stream's image.
     * @param position  stream position just after the command, in bytes.
     */
    void taken(final int sessionId, final long position)
    {
        positions.put(sessionId, position);
    }

    /**
     * @return true when no image has an entry: the live check then costs one test. An entry stays until its image sends
     * again, so after a restart an image gone for good (a stopped gateway's) keeps one hash lookup per command.
     */
    boolean isEmpty()
    {
        return positions.isEmpty();
    }

    /**
     * @param sessionId Aeron session id of the command stream's image the command came on.
     * @param position  stream position just after the command, in bytes.
     * @return true when an earlier run took the command (at or before the image's recorded position), to be skipped;
     * false for a command past it, which also drops the image's entry.
     */
    boolean wasTaken(final int sessionId, final long position)
    {
        final long taken = positions.get(sessionId);
        if (NONE == taken)
        {
            return false;
        }
        if (position <= taken)
        {
            return true;
        }
        positions.remove(sessionId);
        return false;
    }
}
