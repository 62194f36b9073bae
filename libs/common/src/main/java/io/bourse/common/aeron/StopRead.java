package io.bourse.common.aeron;

import java.util.concurrent.TimeUnit;
import java.util.function.IntSupplier;

/**
 * The last read of a subscriber at its stop: what its streams already hold, so that nothing published before the stop
 * is left behind (the exchange stops the services in the order its data flows: the order gateway, the md-publisher,
 * then the fanout). Polls until a poll finds nothing more, or until {@link #TIMEOUT_NS} has passed, checked between
 * polls, so that a stream still being written (a publisher that does not stop) holds the stop back that long at most.
 */
public final class StopRead
{
    /** Longest time a stop reads: 1 s, in nanoseconds. */
    public static final long TIMEOUT_NS = TimeUnit.SECONDS.toNanos(1);

    private StopRead()
    {
    }

    /**
     * Polls until a poll reads nothing, or {@link #TIMEOUT_NS} has passed.
     *
     * @param poll one poll of the streams, on the agent's thread (at its {@code onClose}); returns the fragments
     *             read, 0 when there were none.
     */
    public static void readPublished(final IntSupplier poll)
    {
        final long deadlineNs = System.nanoTime() + TIMEOUT_NS;
        int read;
        do
        {
            read = poll.getAsInt();
        }
        while (read > 0 && System.nanoTime() - deadlineNs < 0);
    }
}
