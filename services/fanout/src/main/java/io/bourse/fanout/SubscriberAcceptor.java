package io.bourse.fanout;

import io.bourse.common.metrics.ErrorKinds;
import org.agrona.CloseHelper;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.NanoClock;

import java.io.IOException;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Accepts subscriber connections on the fanout's non-blocking server socket and assigns each to the worker with the
 * fewest sessions and waiting connections (the first of those after the last one assigned, on a tie) among those not
 * holding their most connections awaiting a Login Request (so that connections that never log in, gone to one worker,
 * do not turn away subscribers another worker would serve), through the worker's queue, so that sessions that ended on
 * one worker leave room that the next connections fill. A connection whose worker's queue is full waits for room, and
 * the acceptor takes no other until it has gone (the rest wait in the socket's backlog), so that a burst of connections
 * is served, only later. A connection that cannot be made non-blocking is closed and counted ({@link
 * FanoutError#CONNECTION_REFUSED}). Runs on the dispatcher's thread, which carries the market data: it asks the socket
 * at most once per {@link #ACCEPT_INTERVAL_NS} (a new connection waits at most that long, far below a subscriber's
 * login time), so that the dispatcher's duty cycle makes no system call while it polls the stream.
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
    private final ErrorKinds<FanoutError> errors;
    private long nextAcceptNs;
    /** Accepted, waiting for room in its worker's queue; null when none. */
    private SocketChannel waiting;
    private int nextWorker;

    /**
     * @param serverChannel bound and non-blocking.
     * @param workers       the fanout's workers, in worker order.
     * @param nanoClock     monotonic time of the looks at the socket.
     * @param errors        counts every connection that cannot be made non-blocking.
     */
    SubscriberAcceptor(
        final ServerSocketChannel serverChannel, final List<WorkerAgent> workers, final NanoClock nanoClock,
        final ErrorKinds<FanoutError> errors)
    {
        this.serverChannel = serverChannel;
        this.workers = workers;
        this.nanoClock = nanoClock;
        this.errors = errors;
        this.nextAcceptNs = nanoClock.nanoTime();
    }

    /**
     * Once the interval since the last look has passed, hands over the connection that waited for room, then accepts
     * up to {@value #ACCEPTS_PER_INTERVAL} connections, stopping at one that finds its worker's queue full: it waits
     * for the next look, and the connections behind it in the socket's backlog.
     *
     * @return connections accepted or handed over.
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
        if (null != waiting)
        {
            if (!assign(waiting))
            {
                return 0;
            }
            waiting = null;
            accepted++;
        }
        SocketChannel channel;
        while (accepted < ACCEPTS_PER_INTERVAL && null != (channel = serverChannel.accept()))
        {
            accepted++;
            if (configure(channel) && !assign(channel))
            {
                waiting = channel;
                break;
            }
        }
        return accepted;
    }

    /** Closes the connection that waited for room, if any. */
    @Override
    public void onClose()
    {
        CloseHelper.quietClose(waiting);
        waiting = null;
    }

    private boolean configure(final SocketChannel channel)
    {
        try
        {
            channel.configureBlocking(false);
            return true;
        }
        catch (final IOException ex)
        {
            errors.error(FanoutError.CONNECTION_REFUSED, "acceptor", ex);
            CloseHelper.quietClose(channel);
            return false;
        }
    }

    /**
     * @return true when the connection went to the least-loaded worker not at its limit of connections awaiting their
     * Login Request (the least-loaded of all when every worker is, which refuses it), false when that worker's queue
     * is full.
     */
    private boolean assign(final SocketChannel channel)
    {
        final int count = workers.size();
        int chosen = nextWorker;
        int leastLoad = workers.get(chosen).load();
        boolean chosenAtLimit = workers.get(chosen).isAtPendingLoginLimit();
        for (int i = 1; i < count; i++)
        {
            final int worker = (nextWorker + i) % count;
            final int load = workers.get(worker).load();
            final boolean atLimit = workers.get(worker).isAtPendingLoginLimit();
            if ((chosenAtLimit && !atLimit) || (atLimit == chosenAtLimit && load < leastLoad))
            {
                chosen = worker;
                leastLoad = load;
                chosenAtLimit = atLimit;
            }
        }
        if (!workers.get(chosen).offerConnection(channel))
        {
            return false;
        }
        nextWorker = (chosen + 1) % count;
        return true;
    }

    @Override
    public String roleName()
    {
        return "fanout-acceptor";
    }
}
