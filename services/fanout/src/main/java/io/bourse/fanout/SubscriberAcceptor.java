package io.bourse.fanout;

import org.agrona.concurrent.Agent;
import org.agrona.concurrent.NanoClock;

import java.io.IOException;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Accepts subscriber connections on the fanout's non-blocking server socket and assigns each to the worker with the
 * fewest sessions and waiting connections (the first of those after the last one assigned, on a tie), through the
 * worker's queue, so that sessions that ended on one worker leave room that the next connections fill. A connection
 * that cannot be made non-blocking, or whose worker's queue is full, is closed and counted as an error. Runs on the
 * dispatcher's thread, which carries the market data: it asks the socket at most once per
 * {@link #ACCEPT_INTERVAL_NS} (a new connection waits at most that long, far below a subscriber's login time), so that
 * the dispatcher's duty cycle makes no system call while it polls the stream.
 */
final class SubscriberAcceptor implements Agent
{
    /** Time between two looks at the server socket, in nanoseconds: 1 ms. */
    static final long ACCEPT_INTERVAL_NS = TimeUnit.MILLISECONDS.toNanos(1);
    /** Most connections accepted per look. */
    static final int ACCEPTS_PER_INTERVAL = 16;

    private final ServerSocketChannel serverChannel;
    private final List<WorkerAgent> workers;
    private final NanoClock nanoClock;
    private final AtomicLong errorCount;
    private long nextAcceptNs;
    private int nextWorker;

    /**
     * @param serverChannel bound and non-blocking.
     * @param workers       the fanout's workers, in worker order.
     * @param nanoClock     monotonic time of the looks at the socket.
     * @param errorCount    incremented for every connection refused.
     */
    SubscriberAcceptor(
        final ServerSocketChannel serverChannel, final List<WorkerAgent> workers, final NanoClock nanoClock,
        final AtomicLong errorCount)
    {
        this.serverChannel = serverChannel;
        this.workers = workers;
        this.nanoClock = nanoClock;
        this.errorCount = errorCount;
        this.nextAcceptNs = nanoClock.nanoTime();
    }

    /**
     * Once the interval since the last look has passed, accepts up to {@value #ACCEPTS_PER_INTERVAL} connections.
     *
     * @return connections accepted.
     * @throws IOException when the server socket fails.
     */
    @Override
    public int doWork() throws IOException
    {
        final long nowNs = nanoClock.nanoTime();
        if (nowNs - nextAcceptNs < 0)
        {
            return 0;
        }
        nextAcceptNs = nowNs + ACCEPT_INTERVAL_NS;
        int accepted = 0;
        SocketChannel channel;
        while (accepted < ACCEPTS_PER_INTERVAL && null != (channel = serverChannel.accept()))
        {
            accepted++;
            assign(channel);
        }
        return accepted;
    }

    private void assign(final SocketChannel channel) throws IOException
    {
        final int count = workers.size();
        int chosen = nextWorker;
        int leastLoad = workers.get(chosen).load();
        for (int i = 1; i < count; i++)
        {
            final int worker = (nextWorker + i) % count;
            final int load = workers.get(worker).load();
            if (load < leastLoad)
            {
                chosen = worker;
                leastLoad = load;
            }
        }
        nextWorker = (chosen + 1) % count;
        try
        {
            channel.configureBlocking(false);
            if (!workers.get(chosen).offerConnection(channel))
            {
                throw new IOException("worker connection queue full");
            }
        }
        catch (final IOException ex)
        {
            errorCount.incrementAndGet();
            System.err.println("[fanout-acceptor] connection refused: " + ex.getMessage());
            channel.close();
        }
    }

    @Override
    public String roleName()
    {
        return "fanout-acceptor";
    }
}
