package io.bourse.bench;

import io.aeron.Publication;
import org.agrona.concurrent.IdleStrategy;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * The benchmark's publisher thread: encodes commands {@code from} to {@code to} of a {@link SbeCommandStream} as SBE
 * and offers them on the engine's command stream, each stamped in its timestampNs field, which the engine copies into
 * the command's events. At a fixed rate (open loop) command k is due at {@code originNs + k / rate} and is stamped
 * with that intended send time, not the actual one, so a late send counts against latency (no coordinated omission);
 * at rate 0 it is sent as soon as back pressure allows and stamped just before encoding.
 *
 * <p>The last 60 µs before a send time are waited out with {@link Thread#yield()}, not a spin: above about 16,000
 * commands/s the thread never parks, and on a host with fewer cores than busy threads a spinning publisher would keep
 * the engine from a core (measured on the 2-core host at 100,000 commands/s, other builds running: command-to-first
 * event p99 of hundreds of milliseconds spinning against about 10 ms yielding). A yield with nothing else runnable
 * returns within a microsecond or so, well within a send time's precision.
 *
 * <p>An offer is retried through back pressure without a bound on attempts but with a bound on time: no progress for
 * {@link #STALL_TIMEOUT_NS} fails the run.
 */
final class CommandPublisher implements Runnable
{
    /** No accepted offer for this long fails the run. */
    static final long STALL_TIMEOUT_NS = TimeUnit.SECONDS.toNanos(10);
    /** Waits longer than this park the thread until this much before the send time, then yield until it. */
    static final long YIELD_NS = TimeUnit.MICROSECONDS.toNanos(60);

    private final SbeCommandStream stream;
    private final Publication publication;
    private final int from;
    private final int to;
    private final long rate;
    private final long originNs;
    private final IdleStrategy idleStrategy;
    private final SbeCommandStream.Encoder encoder = new SbeCommandStream.Encoder();
    private volatile boolean stopped;
    private volatile Throwable failure;

    /**
     * @param stream       the commands.
     * @param publication  the engine's command stream.
     * @param from         first command index.
     * @param to           index after the last command.
     * @param rate         commands per second, or 0 for as fast as possible.
     * @param originNs     {@link System#nanoTime()} at which command {@code from} is due.
     * @param idleStrategy how to wait through back pressure.
     */
    CommandPublisher(
        final SbeCommandStream stream, final Publication publication, final int from, final int to, final long rate,
        final long originNs, final IdleStrategy idleStrategy)
    {
        this.stream = stream;
        this.publication = publication;
        this.from = from;
        this.to = to;
        this.rate = rate;
        this.originNs = originNs;
        this.idleStrategy = idleStrategy;
    }

    @Override
    public void run()
    {
        try
        {
            for (int i = from; i < to && !stopped; i++)
            {
                final long timestampNs = 0 == rate ? System.nanoTime() : awaitSendTime(i - from);
                offer(encoder.encode(stream, i, timestampNs));
            }
        }
        catch (final RuntimeException ex)
        {
            failure = ex;
        }
    }

    /** Asks the thread to stop at the next command (after a failure elsewhere). */
    void stop()
    {
        stopped = true;
    }

    /** @return what made the publisher stop early, or null. */
    Throwable failure()
    {
        return failure;
    }

    private long awaitSendTime(final long ordinal)
    {
        final long dueNs = originNs + ordinal * 1_000_000_000L / rate;
        long waitNs;
        while ((waitNs = dueNs - System.nanoTime()) > 0)
        {
            if (waitNs > YIELD_NS)
            {
                LockSupport.parkNanos(waitNs - YIELD_NS);
            }
            else
            {
                Thread.yield();
            }
        }
        return dueNs;
    }

    private void offer(final int length)
    {
        long result = publication.offer(encoder.buffer(), 0, length);
        if (result > 0)
        {
            return;
        }
        final long deadlineNs = System.nanoTime() + STALL_TIMEOUT_NS;
        idleStrategy.reset();
        while (result < 0)
        {
            if (Publication.BACK_PRESSURED != result && Publication.ADMIN_ACTION != result)
            {
                throw new IllegalStateException("command stream offer failed: " + Publication.errorString(result));
            }
            if (stopped || System.nanoTime() - deadlineNs > 0)
            {
                throw new IllegalStateException("command stream back pressured for " +
                    TimeUnit.NANOSECONDS.toSeconds(STALL_TIMEOUT_NS) + " s: the engine stopped taking commands");
            }
            idleStrategy.idle();
            result = publication.offer(encoder.buffer(), 0, length);
        }
    }
}
