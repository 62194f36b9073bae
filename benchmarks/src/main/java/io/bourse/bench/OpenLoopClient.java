package io.bourse.bench;

import io.bourse.simulator.SteadyArrivals;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.YieldingIdleStrategy;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Drives the connections of one path of {@code bourse bench gateway} from the calling thread, open loop: request
 * {@code i} of a rate step has the intended send time {@code start + i / rate}, requests go round robin over the
 * connections, and when the thread falls behind (or a connection has {@link RoundTripConnection#MAX_IN_FLIGHT}
 * requests in flight) the late requests go out as soon as it can, their round trips still counted from the intended
 * time (correcting for coordinated omission). Each duty cycle reads every connection, encodes the requests due (at
 * most {@value #MAX_SENDS_PER_CYCLE}), writes each connection's send buffer once, and yields the core when there was
 * nothing to do (never sleeps). After the schedule it drains: waits until every connection is settled, up to
 * {@value #DRAIN_SECONDS} s. The other path's connections are read every {@value #KEEP_ALIVE_INTERVAL_MS} ms meanwhile,
 * to keep their sessions alive. A {@link Feed} (the market data of {@code bourse bench e2e}) is read every duty cycle
 * beside the connections, and the drain waits for it too.
 */
final class OpenLoopClient
{
    /** What the client thread reads beside its connections every duty cycle, and waits for in the drain. */
    interface Feed
    {
        /** No feed: the gateway benchmark. */
        Feed NONE = new Feed()
        {
            @Override
            public void startStep(final long measureStartNs)
            {
            }

            @Override
            public int poll()
            {
                return 0;
            }

            @Override
            public long unsettled()
            {
                return 0;
            }
        };

        /**
         * A rate step starts.
         *
         * @param measureStartNs intended send time from which the step measures, {@link System#nanoTime()} scale.
         */
        void startStep(long measureStartNs);

        /**
         * Reads what has arrived.
         *
         * @return bytes read.
         * @throws IOException when the feed's connection fails.
         */
        int poll() throws IOException;

        /** @return what the feed still awaits of the requests sent; the drain ends when it is 0. */
        long unsettled();
    }

    /** Most requests encoded per duty cycle, so that answers are read in between even when far behind. */
    static final int MAX_SENDS_PER_CYCLE = 64;
    /** After the schedule's end, how long requests still due may be sent before the step gives up on them. */
    static final long SEND_GRACE_NS = TimeUnit.SECONDS.toNanos(1);
    /** Longest wait for the answers in flight after the last request. */
    static final int DRAIN_SECONDS = 5;
    /** How often the other path's idle connections are read. */
    static final int KEEP_ALIVE_INTERVAL_MS = 250;

    private final String path;
    private final List<? extends RoundTripConnection> connections;
    private final List<? extends RoundTripConnection> idleConnections;
    private final List<ThreadActivity> servers;
    private final Feed feed;
    private final IdleStrategy idle = new YieldingIdleStrategy();

    /**
     * @param path            name of the path, for the report.
     * @param connections     the path's connections.
     * @param idleConnections the other path's, kept alive while this one runs.
     * @param servers         the path's server threads, whose system calls each step reports.
     * @param feed            read beside the connections, or {@link Feed#NONE}.
     */
    OpenLoopClient(
        final String path,
        final List<? extends RoundTripConnection> connections,
        final List<? extends RoundTripConnection> idleConnections,
        final List<ThreadActivity> servers,
        final Feed feed)
    {
        this.path = path;
        this.connections = connections;
        this.idleConnections = idleConnections;
        this.servers = servers;
        this.feed = feed;
    }

    /**
     * Runs one rate step: warm-up, then the measured window, then the drain.
     *
     * @param rate      requests per second over all connections.
     * @param warmupNs  unmeasured time first.
     * @param measureNs measured time.
     * @return the step's outcome.
     * @throws UncheckedIOException when a connection fails.
     */
    RateStep run(final long rate, final long warmupNs, final long measureNs)
    {
        try
        {
            return runStep(rate, warmupNs, measureNs);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(path + " at " + rate + "/s: " + ex.getMessage(), ex);
        }
    }

    private RateStep runStep(final long rate, final long warmupNs, final long measureNs) throws IOException
    {
        final Step step = new Step(rate, System.nanoTime(), warmupNs, measureNs);
        long nextKeepAliveNs = step.startNs;
        while (true)
        {
            int work = 0;
            for (int i = 0, n = connections.size(); i < n; i++)
            {
                work += connections.get(i).poll();
            }
            work += feed.poll();
            final long nowNs = System.nanoTime();
            work += step.sendDue(nowNs);
            for (int i = 0, n = connections.size(); i < n; i++)
            {
                work += connections.get(i).flush();
            }
            if (step.isOver(nowNs))
            {
                return step.result();
            }
            if (nowNs - nextKeepAliveNs > 0)
            {
                for (final RoundTripConnection connection : idleConnections)
                {
                    connection.poll();
                }
                nextKeepAliveNs = nowNs + TimeUnit.MILLISECONDS.toNanos(KEEP_ALIVE_INTERVAL_MS);
            }
            idle.idle(work);
        }
    }

    private boolean settled()
    {
        if (feed.unsettled() != 0)
        {
            return false;
        }
        for (int i = 0, n = connections.size(); i < n; i++)
        {
            if (connections.get(i).unsettled() != 0)
            {
                return false;
            }
        }
        return true;
    }

    private long unsettled()
    {
        long unsettled = 0;
        for (final RoundTripConnection connection : connections)
        {
            unsettled += connection.unsettled();
        }
        return unsettled;
    }

    private long sum(final Counter counter)
    {
        long sum = 0;
        for (final RoundTripConnection connection : connections)
        {
            sum += switch (counter)
            {
                case REQUESTS -> connection.requests();
                case WRITES -> connection.writes();
                case ERRORS -> connection.errors();
            };
        }
        return sum;
    }

    /** The schedule and progress of one rate step. */
    private final class Step
    {
        private final long rate;
        private final long startNs;
        private final long measureStartNs;
        private final long measureEndNs;
        private final long total;
        private final RoundTripRecorder recorder;
        private final long requestsBefore = sum(Counter.REQUESTS);
        private final long writesBefore = sum(Counter.WRITES);
        private final long errorsBefore = sum(Counter.ERRORS);
        private final List<ThreadActivity.Sample> serversBefore = servers.stream().map(ThreadActivity::sample).toList();
        private long sent;
        private long measuredSent;
        private boolean sending = true;
        private long drainDeadlineNs;

        private Step(final long rate, final long startNs, final long warmupNs, final long measureNs)
        {
            this.rate = rate;
            this.startNs = startNs;
            this.measureStartNs = startNs + warmupNs;
            this.measureEndNs = measureStartNs + measureNs;
            this.total = (long)(rate * ((warmupNs + measureNs) / 1e9)) & ~1L;
            this.recorder = new RoundTripRecorder(measureStartNs);
            connections.forEach((connection) -> connection.recorder(recorder));
            feed.startStep(measureStartNs);
        }

        /**
         * Encodes the requests due, round robin, until one's connection cannot take it; ends the sending at the end
         * of the schedule, or a grace second later at a pair boundary with the rest not sent, or a grace second after
         * that wherever it stands: the pair's second request waits on a connection that gets no answers (its in-flight
         * ring full), and the first stays unpaired.
         */
        private int sendDue(final long nowNs)
        {
            if (!sending)
            {
                return 0;
            }
            int sends = 0;
            long dueNs;
            while (sends < MAX_SENDS_PER_CYCLE && sent < total &&
                (dueNs = SteadyArrivals.intendedNs(startNs, rate, sent)) - nowNs <= 0)
            {
                final RoundTripConnection connection = connections.get((int)(sent % connections.size()));
                if (!connection.canSend())
                {
                    break;
                }
                connection.send(sent, dueNs);
                measuredSent += dueNs - measureStartNs >= 0 ? 1 : 0;
                sent++;
                sends++;
            }
            final long graceEndNs = measureEndNs + SEND_GRACE_NS;
            if (sent == total || (nowNs - graceEndNs > 0 && (0 == (sent & 1) || nowNs - graceEndNs > SEND_GRACE_NS)))
            {
                sending = false;
                drainDeadlineNs = nowNs + TimeUnit.SECONDS.toNanos(DRAIN_SECONDS);
            }
            return sends;
        }

        private boolean isOver(final long nowNs)
        {
            return !sending && (settled() || nowNs - drainDeadlineNs > 0);
        }

        private RateStep result()
        {
            final long windowNs = Math.max(recorder.lastAnswerNs(), measureEndNs) - measureStartNs;
            final long requests = sum(Counter.REQUESTS) - requestsBefore;
            final long writes = sum(Counter.WRITES) - writesBefore;
            return new RateStep(path, rate, measuredSent, total - sent, unsettled(),
                sum(Counter.ERRORS) - errorsBefore, recorder.histogram().getTotalCount() * 1e9 / windowNs,
                writes > 0 ? (double)requests / writes : 0, recorder.histogram(), serverLoads(requests));
        }

        private List<RateStep.ServerLoad> serverLoads(final long requests)
        {
            final List<RateStep.ServerLoad> loads = new ArrayList<>();
            for (int i = 0; i < servers.size(); i++)
            {
                final ThreadActivity server = servers.get(i);
                if (server.isAvailable() && requests > 0)
                {
                    final ThreadActivity.Sample used = server.sample().minus(serversBefore.get(i));
                    loads.add(new RateStep.ServerLoad(
                        server.name(), (double)used.readCalls() / requests, (double)used.writeCalls() / requests,
                        used.cpuNs() / 1e3 / requests));
                }
            }
            return loads;
        }
    }

    private enum Counter
    {
        REQUESTS, WRITES, ERRORS
    }
}
