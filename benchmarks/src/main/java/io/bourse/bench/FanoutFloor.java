package io.bourse.bench;

import com.paritytrading.juncture.nasdaq.itch50.ITCH50;
import com.paritytrading.nassau.soupbintcp.SoupBinTCP;
import com.paritytrading.nassau.soupbintcp.SoupBinTCPServer;
import com.paritytrading.nassau.soupbintcp.SoupBinTCPServerStatusListener;
import io.bourse.common.aeron.ThreadAffinity;
import io.bourse.common.config.Credentials;
import io.bourse.common.config.SymbolDirectory;
import io.bourse.common.time.MidnightNanoClock;
import io.bourse.itch.ItchReferenceData;
import io.bourse.itch.ItchTranslator;
import org.agrona.CloseHelper;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * The floor of {@code bourse bench fanout}, measured in the same run as the fanout: the same ITCH 5.0 messages on the
 * same schedule to the same subscribers over SoupBinTCP 4.0, with nothing between the schedule and the sockets. W
 * threads (the fanout's worker count), each owning every W-th subscriber, follow the schedule themselves (sleeping
 * until 100 us before a message's time, then waiting as the publisher does); when a message's time comes, each encodes
 * every message due by then (SBE, {@link MarketDataCycles}), translates them to ITCH ({@link ItchTranslator}, as the
 * fanout does) as SoupBinTCP Sequenced Data packets in one buffer, and writes
 * that buffer to each of its subscribers with one write system call (more only if the kernel takes part of it). No
 * Aeron hop, no dispatcher, no session state or buffers, no book: what is left is the cost of the TCP writes on this
 * host, which bounds what a fan-out of this shape can do here.
 *
 * <p>Logins are taken on a thread of their own while the subscribers connect, with nassau's SoupBinTCP server
 * session: a known username and its password get Login Accepted (session blank, next sequence number 1), then System
 * Event 'O', one Stock Directory per symbol and System Events 'S' and 'Q' (the fanout also sends its Trading Action
 * spin before 'S'); anything else gets Login Rejected 'A'.
 */
final class FanoutFloor implements FanoutBenchmark.Feed, AutoCloseable
{
    /** Floor threads are named so, then their index; Linux keeps the first 15 bytes, common to all. */
    static final String THREAD = "fanout-floor-";
    private static final long LOGIN_TIMEOUT_NS = TimeUnit.SECONDS.toNanos(20);
    private static final long SCHEDULE_POLL_NS = TimeUnit.MICROSECONDS.toNanos(100);
    /**
     * Closer than this to a send time a floor thread stops sleeping and waits as the fanout benchmark's publisher does
     * (yields, then spins): more than a park's timer slack (50 us) and wake-up.
     */
    private static final long PARK_AHEAD_NS = TimeUnit.MICROSECONDS.toNanos(100);
    /** SoupBinTCP 4.0 packet header: Packet Length (2 bytes) and Packet Type. */
    private static final int PACKET_HEADER_LENGTH = 3;
    private static final byte SEQUENCED_DATA = 'S';
    private static final int MAX_PACKET = PACKET_HEADER_LENGTH + ItchTranslator.MAX_LENGTH;
    /** Most bytes one write carries to a subscriber: the messages due when a thread wakes, up to this. */
    private static final int BATCH_BYTES = 64 * 1024;
    /** How long a subscriber's socket may take nothing before its floor thread gives the run up: it stopped reading. */
    static final long WRITE_STALL_NS = TimeUnit.SECONDS.toNanos(10);

    private final int threadCount;
    private final List<String> symbols;
    private final SymbolDirectory symbolDirectory;
    private final Map<String, String> passwords = new HashMap<>();
    private final ServerSocketChannel serverChannel;
    private final List<SoupBinTCPServer> sessions = new ArrayList<>();
    private final Thread loginThread;
    private final List<Thread> threads = new ArrayList<>();
    private final long[] lastSendNs;
    private final long writeStallNs;
    private final ThreadAffinity affinity;
    private volatile IOException loginFailure;
    private volatile IOException sendFailure;
    private volatile long scheduleStartNs = -1;
    private volatile boolean closing;
    private CountDownLatch finished;
    private volatile double intervalNs;
    private volatile long total;
    private MidnightNanoClock clock;

    /**
     * Listens on an ephemeral loopback port and starts taking the subscribers' logins.
     *
     * @param threadCount     the writing threads, 1 or more.
     * @param users           the subscribers' credentials; each logs in once.
     * @param symbols         the symbols of the schedule's messages, as {@link MarketDataCycles} takes them.
     * @param symbolDirectory their directory, for the Stock Directory messages and the translation.
     * @param writeStallNs    how long a subscriber's socket may take nothing before the run fails, ns
     *                        ({@link #WRITE_STALL_NS} in the benchmark).
     * @param affinity        pins writing thread k to the CPUs of the fanout's worker k ({@code fanout-worker-k}),
     *                        if any, so that the floor runs where the fanout's workers do; the thread logs its pinning
     *                        under that role.
     * @throws IOException when the port cannot be opened.
     */
    FanoutFloor(
        final int threadCount,
        final List<Credentials.User> users,
        final List<String> symbols,
        final SymbolDirectory symbolDirectory,
        final long writeStallNs,
        final ThreadAffinity affinity) throws IOException
    {
        this.threadCount = threadCount;
        this.affinity = affinity;
        this.writeStallNs = writeStallNs;
        this.symbols = symbols;
        this.symbolDirectory = symbolDirectory;
        users.forEach((user) -> passwords.put(user.username(), user.password()));
        lastSendNs = new long[threadCount];
        serverChannel = ServerSocketChannel.open();
        serverChannel.bind(new InetSocketAddress("127.0.0.1", 0), users.size());
        loginThread = new Thread(() -> takeLogins(users.size()), "fanout-floor-login");
        loginThread.start();
    }

    @Override
    public int port()
    {
        try
        {
            return ((InetSocketAddress)serverChannel.getLocalAddress()).getPort();
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }

    @Override
    public List<ThreadActivity> prepare() throws IOException
    {
        FanoutBenchmark.join(loginThread);
        if (null != loginFailure)
        {
            throw loginFailure;
        }
        final List<ThreadActivity> activities = new ArrayList<>();
        final CountDownLatch running = new CountDownLatch(threadCount);
        finished = new CountDownLatch(threadCount);
        for (int t = 0; t < threadCount; t++)
        {
            final List<SoupBinTCPServer> own = new ArrayList<>();
            for (int i = t; i < sessions.size(); i += threadCount)
            {
                own.add(sessions.get(i));
            }
            final int index = t;
            final Thread thread = affinity.threadFactory(FanoutBenchmark.WORKER_THREAD + t).newThread(() ->
            {
                running.countDown();
                try
                {
                    write(index, own);
                }
                catch (final RuntimeException ex)
                {
                    sendFailure = new IOException("floor thread " + index + " failed", ex);
                }
                finally
                {
                    finished.countDown();
                }
                // Alive until closed, so that the window's last sample of its CPU time and system calls finds it.
                while (!closing)
                {
                    LockSupport.parkNanos(SCHEDULE_POLL_NS);
                }
            });
            thread.setName(THREAD + t);
            threads.add(thread);
            thread.start();
        }
        try
        {
            // A thread's name reaches /proc once it runs.
            running.await();
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", ex);
        }
        for (int t = 0; t < threadCount; t++)
        {
            activities.add(ThreadActivity.find(THREAD + t, "floor thread " + t));
        }
        return activities;
    }

    @Override
    public long[] publish(
        final MidnightNanoClock clock, final long scheduleStartNs, final double intervalNs, final long total)
        throws IOException
    {
        this.clock = clock;
        this.intervalNs = intervalNs;
        this.total = total;
        this.scheduleStartNs = scheduleStartNs;
        try
        {
            finished.await();
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", ex);
        }
        if (null != sendFailure)
        {
            throw sendFailure;
        }
        long last = 0;
        for (final long sendNs : lastSendNs)
        {
            last = Math.max(last, sendNs);
        }
        return new long[] { 0, last };
    }

    @Override
    public String metrics()
    {
        return "";
    }

    @Override
    public void close()
    {
        if (scheduleStartNs < 0)
        {
            scheduleStartNs = Long.MAX_VALUE;
        }
        closing = true;
        loginThread.interrupt();
        FanoutBenchmark.join(loginThread);
        CloseHelper.quietClose(serverChannel);
        threads.forEach(FanoutBenchmark::join);
        CloseHelper.quietCloseAll(sessions);
    }

    private void takeLogins(final int count)
    {
        final List<SoupBinTCPServer> pending = new ArrayList<>();
        final List<SoupBinTCPServer> accepted = new ArrayList<>();
        final ItchReferenceData referenceData = new ItchReferenceData(symbolDirectory);
        final SoupBinTCPServerStatusListener listener = new SoupBinTCPServerStatusListener()
        {
            @Override
            public void heartbeatTimeout(final SoupBinTCPServer session) throws IOException
            {
                throw new IOException("a subscriber stopped sending heartbeats while logging in");
            }

            @Override
            public void loginRequest(final SoupBinTCPServer session, final SoupBinTCP.LoginRequest request)
                throws IOException
            {
                if (!request.getPassword().strip().equals(passwords.get(request.getUsername().strip())))
                {
                    final SoupBinTCP.LoginRejected rejected = new SoupBinTCP.LoginRejected();
                    rejected.setRejectReasonCode(SoupBinTCP.LOGIN_REJECT_CODE_NOT_AUTHORIZED);
                    session.reject(rejected);
                    throw new IOException("login rejected: " + request.getUsername().strip());
                }
                final SoupBinTCP.LoginAccepted loginAccepted = new SoupBinTCP.LoginAccepted();
                loginAccepted.setSession("");
                loginAccepted.setSequenceNumber(1);
                session.accept(loginAccepted);
                final long nowNs = new MidnightNanoClock().nanosSinceMidnight();
                session.send(referenceData.systemEvent(ITCH50.EVENT_CODE_START_OF_MESSAGES, nowNs));
                for (int i = 0; i < referenceData.symbolCount(); i++)
                {
                    session.send(referenceData.stockDirectory(i, nowNs));
                }
                session.send(referenceData.systemEvent(ITCH50.EVENT_CODE_START_OF_SYSTEM_HOURS, nowNs));
                session.send(referenceData.systemEvent(ITCH50.EVENT_CODE_START_OF_MARKET_HOURS, nowNs));
                accepted.add(session);
            }

            @Override
            public void logoutRequest(final SoupBinTCPServer session) throws IOException
            {
                throw new IOException("a subscriber logged out while logging in");
            }
        };
        final long deadline = System.nanoTime() + LOGIN_TIMEOUT_NS;
        try
        {
            serverChannel.configureBlocking(false);
            while (accepted.size() < count)
            {
                final SocketChannel channel = serverChannel.accept();
                if (null != channel)
                {
                    channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
                    channel.configureBlocking(false);
                    final SoupBinTCPServer session = new SoupBinTCPServer(channel, (payload) ->
                    {
                    }, listener);
                    pending.add(session);
                    sessions.add(session);
                }
                for (final SoupBinTCPServer session : pending)
                {
                    if (session.receive() < 0)
                    {
                        throw new IOException("a subscriber closed its connection while logging in");
                    }
                }
                pending.removeAll(accepted);
                if (System.nanoTime() > deadline || Thread.currentThread().isInterrupted())
                {
                    throw new IOException(String.format(Locale.ROOT, "floor: %d of %d subscribers logged in within " +
                        "%d s", accepted.size(), count, TimeUnit.NANOSECONDS.toSeconds(LOGIN_TIMEOUT_NS)));
                }
                LockSupport.parkNanos(SCHEDULE_POLL_NS);
            }
        }
        catch (final IOException ex)
        {
            loginFailure = ex;
        }
    }

    private void write(final int index, final List<SoupBinTCPServer> own)
    {
        final MarketDataCycles cycles = new MarketDataCycles(symbols);
        final ItchTranslator translator = new ItchTranslator(symbolDirectory);
        final ByteBuffer batch = ByteBuffer.allocateDirect(BATCH_BYTES);
        final List<SocketChannel> channels = own.stream().map(SoupBinTCPServer::getChannel).toList();
        while (scheduleStartNs < 0)
        {
            LockSupport.parkNanos(SCHEDULE_POLL_NS);
        }
        final long startNs = scheduleStartNs;
        final double interval = intervalNs;
        final long count = Long.MAX_VALUE == startNs ? 0 : total;
        try
        {
            long i = 0;
            while (i < count)
            {
                final long intendedNs = startNs + (long)(i * interval);
                long aheadNs;
                while ((aheadNs = intendedNs - clock.nanosSinceMidnight()) > PARK_AHEAD_NS)
                {
                    // Sleep through most of the wait: a floor that spins takes the cores the readers need.
                    LockSupport.parkNanos(aheadNs - PARK_AHEAD_NS);
                }
                final long nowNs = FanoutBenchmark.awaitSendTime(clock, intendedNs);
                lastSendNs[index] = nowNs;
                batch.clear();
                do
                {
                    // SoupBinTCP 4.0 Sequenced Data: Packet Length (2, big-endian), Packet Type 'S', the ITCH message.
                    final int packet = batch.position();
                    batch.position(packet + PACKET_HEADER_LENGTH);
                    final int length = translator.translate(
                        cycles.buffer, 0, cycles.encode(i, startNs + (long)(i * interval)), batch);
                    if (length <= 0)
                    {
                        throw new IOException("floor: message " + i + " has no ITCH form");
                    }
                    batch.putShort(packet, (short)(length + 1)).put(packet + 2, SEQUENCED_DATA);
                    i++;
                }
                while (i < count && startNs + (long)(i * interval) <= nowNs && batch.remaining() >= MAX_PACKET);
                batch.flip();
                for (final SocketChannel channel : channels)
                {
                    batch.rewind();
                    writeAll(channel, batch);
                }
            }
        }
        catch (final IOException ex)
        {
            sendFailure = ex;
        }
    }

    /**
     * Writes the whole batch to a subscriber, without blocking, as the kernel takes it.
     *
     * @throws IOException when the connection fails, when the socket took nothing for {@link #writeStallNs} (the
     *                     subscriber stopped reading: its reader dropped it), or when the floor closes meanwhile.
     */
    private void writeAll(final SocketChannel channel, final ByteBuffer batch) throws IOException
    {
        long stalledSinceNs = 0;
        boolean stalled = false;
        while (batch.hasRemaining())
        {
            if (channel.write(batch) > 0)
            {
                stalled = false;
            }
            else if (!stalled)
            {
                stalled = true;
                stalledSinceNs = System.nanoTime();
            }
            else if (closing || System.nanoTime() - stalledSinceNs > writeStallNs)
            {
                throw new IOException(String.format(Locale.ROOT, "floor: a subscriber's socket took nothing for " +
                    "%d ms: it stopped reading", TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - stalledSinceNs)));
            }
        }
    }
}
