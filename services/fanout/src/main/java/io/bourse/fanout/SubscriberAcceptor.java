package io.bourse.fanout;

import org.agrona.concurrent.Agent;
import org.agrona.concurrent.ManyToOneConcurrentArrayQueue;

import java.io.IOException;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Accepts subscriber connections on the fanout's non-blocking server socket and assigns them to the workers round
 * robin, through each worker's queue. A connection that cannot be made non-blocking, or whose worker's queue is full,
 * is closed and counted as an error. Runs on the dispatcher's thread.
 */
final class SubscriberAcceptor implements Agent
{
    private final ServerSocketChannel serverChannel;
    private final List<ManyToOneConcurrentArrayQueue<SocketChannel>> workerQueues;
    private final AtomicLong errorCount;
    private int nextWorker;

    /**
     * @param serverChannel bound and non-blocking.
     * @param workerQueues  one per worker, in worker order.
     * @param errorCount    incremented for every connection refused.
     */
    SubscriberAcceptor(
        final ServerSocketChannel serverChannel, final List<ManyToOneConcurrentArrayQueue<SocketChannel>> workerQueues,
        final AtomicLong errorCount)
    {
        this.serverChannel = serverChannel;
        this.workerQueues = workerQueues;
        this.errorCount = errorCount;
    }

    @Override
    public int doWork() throws IOException
    {
        final SocketChannel channel = serverChannel.accept();
        if (null == channel)
        {
            return 0;
        }
        final ManyToOneConcurrentArrayQueue<SocketChannel> queue = workerQueues.get(nextWorker);
        nextWorker = (nextWorker + 1) % workerQueues.size();
        try
        {
            channel.configureBlocking(false);
            if (!queue.offer(channel))
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
        return 1;
    }

    @Override
    public String roleName()
    {
        return "fanout-acceptor";
    }
}
