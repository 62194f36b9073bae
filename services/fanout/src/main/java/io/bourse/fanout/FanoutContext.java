package io.bourse.fanout;

import io.bourse.common.aeron.AgentLaunch;
import io.bourse.common.aeron.StreamLayout;
import io.bourse.common.aeron.ThreadAffinity;
import io.bourse.common.config.Credentials;
import io.bourse.common.config.Settings;
import io.bourse.common.config.SymbolDirectory;
import io.bourse.common.metrics.MetricsServer;
import io.bourse.common.time.MonotonicEpochNanoClock;
import org.agrona.BitUtil;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.EpochNanoClock;
import org.agrona.concurrent.IdleStrategy;

import java.nio.file.Path;
import java.util.function.Supplier;

import static io.bourse.common.config.SettingChecks.checkPort;
import static io.bourse.common.config.SettingChecks.checkPositive;
import static io.bourse.common.config.SettingChecks.checkRange;

/**
 * Configuration of the fanout: the market-data stream to read, the symbols, who may log in, the ITCH/SoupBinTCP port,
 * the metrics endpoint, the number of workers and their limits, and how many messages are kept for replay. Settings
 * {@code bourse.fanout.*} (environment {@code BOURSE_FANOUT_*}) plus the shared stream layout, symbol list and
 * credentials ({@code bourse.credentials.file} or {@code bourse.credentials}, {@link Credentials}).
 */
public final class FanoutContext
{
    /** TCP port subscribers connect to. */
    public static final String PORT_PROP_NAME = "bourse.fanout.port";
    /** Default subscriber port (DESIGN.md). */
    public static final int PORT_DEFAULT = 16000;
    /** Port of the Prometheus endpoint. */
    public static final String METRICS_PORT_PROP_NAME = "bourse.fanout.metrics.port";
    /** Default metrics port (DESIGN.md). */
    public static final int METRICS_PORT_DEFAULT = 9403;
    /** Number of worker threads, each serving a group of sessions. */
    public static final String WORKERS_PROP_NAME = "bourse.fanout.workers";
    /** Default worker count, for a 2-core host. */
    public static final int WORKERS_DEFAULT = 2;
    /** Most sessions one worker serves; further connections to it are refused. */
    public static final String MAX_SESSIONS_PER_WORKER_PROP_NAME = "bourse.fanout.max.sessions.per.worker";
    /** Default sessions per worker: 1,024, so 2,048 subscribers with the default two workers. */
    public static final int MAX_SESSIONS_PER_WORKER_DEFAULT = 1024;
    /**
     * Most connections one worker holds at once that have sent no Login Request yet; further connections to it are
     * closed at once, so that connections that never log in cannot take every place from subscribers.
     */
    public static final String MAX_PENDING_LOGINS_PER_WORKER_PROP_NAME = "bourse.fanout.max.pending.logins.per.worker";
    /** Default connections awaiting their login per worker: 128, so 256 with two workers, as the order gateway's. */
    public static final int MAX_PENDING_LOGINS_PER_WORKER_DEFAULT = 128;
    /** Capacity in bytes of each worker's ring buffer, a power of two. */
    public static final String RING_BUFFER_SIZE_PROP_NAME = "bourse.fanout.ring.buffer.size";
    /** Default ring-buffer capacity: 1 MiB, about 16,000 ITCH messages. */
    public static final int RING_BUFFER_SIZE_DEFAULT = 1024 * 1024;
    /**
     * Capacity in bytes of each session's send buffer: a subscriber that falls further behind is ended as a slow
     * consumer.
     */
    public static final String SEND_BUFFER_BYTES_PROP_NAME = "bourse.fanout.send.buffer.bytes";
    /** Default send buffer per session: 128 KiB, about 3,000 ITCH messages, as the order gateway's. */
    public static final int SEND_BUFFER_BYTES_DEFAULT = 128 * 1024;
    /** Smallest send buffer: 4 KiB; an answer (snapshot, replay, a login's opening) goes out within half of it. */
    public static final int SEND_BUFFER_BYTES_MIN = 4 * 1024;
    /** The kernel's send buffer (SO_SNDBUF) of each subscriber socket, in bytes. */
    public static final String SOCKET_SEND_BUFFER_BYTES_PROP_NAME = "bourse.fanout.socket.send.buffer.bytes";
    /** Default SO_SNDBUF: 0, the kernel's own sizing. */
    public static final int SOCKET_SEND_BUFFER_BYTES_DEFAULT = 0;
    /** Most market-data messages the dispatcher reads, and each worker handles, per duty cycle. */
    public static final String FRAGMENT_LIMIT_PROP_NAME = "bourse.fanout.fragment.limit";
    /** Default fragment limit. */
    public static final int FRAGMENT_LIMIT_DEFAULT = 256;
    /** Number of newest ITCH messages kept for logins that request a sequence number (bounded replay). */
    public static final String REPLAY_CAPACITY_PROP_NAME = "bourse.fanout.replay.capacity";
    /** Default replay capacity: 100,000 messages, 4.8 MB. */
    public static final int REPLAY_CAPACITY_DEFAULT = 100_000;

    private StreamLayout layout;
    private SymbolDirectory symbolDirectory;
    private Path credentialsFile;
    private Credentials credentials;
    private int port = PORT_DEFAULT;
    private int metricsPort = METRICS_PORT_DEFAULT;
    private boolean jvmMetrics = true;
    private int workerCount = WORKERS_DEFAULT;
    private int maxSessionsPerWorker = MAX_SESSIONS_PER_WORKER_DEFAULT;
    private int maxPendingLoginsPerWorker = MAX_PENDING_LOGINS_PER_WORKER_DEFAULT;
    private int ringBufferSize = RING_BUFFER_SIZE_DEFAULT;
    private int sendBufferBytes = SEND_BUFFER_BYTES_DEFAULT;
    private int socketSendBufferBytes = SOCKET_SEND_BUFFER_BYTES_DEFAULT;
    private int fragmentLimit = FRAGMENT_LIMIT_DEFAULT;
    private int replayCapacity = REPLAY_CAPACITY_DEFAULT;
    private Supplier<IdleStrategy> idleStrategySupplier;
    private ThreadAffinity threadAffinity = ThreadAffinity.NONE;
    private EpochNanoClock epochClock = new MonotonicEpochNanoClock();

    /**
     * @param settings source of every setting.
     * @return a context with every field read from the settings or defaulted.
     * @throws IllegalArgumentException naming a setting that is not a valid value.
     */
    public static FanoutContext fromSettings(final Settings settings)
    {
        return new FanoutContext()
            .layout(StreamLayout.fromSettings(settings))
            .symbolDirectory(SymbolDirectory.fromSettings(settings))
            .credentialsFile(Path.of(settings.get(Credentials.FILE_PROP_NAME, Credentials.FILE_DEFAULT)))
            .credentials(Credentials.inline(settings))
            .port(settings.getInt(PORT_PROP_NAME, PORT_DEFAULT))
            .metricsPort(settings.getInt(METRICS_PORT_PROP_NAME, METRICS_PORT_DEFAULT))
            .jvmMetrics(MetricsServer.jvmMetrics(settings))
            .workerCount(settings.getInt(WORKERS_PROP_NAME, WORKERS_DEFAULT))
            .maxSessionsPerWorker(settings.getInt(MAX_SESSIONS_PER_WORKER_PROP_NAME, MAX_SESSIONS_PER_WORKER_DEFAULT))
            .maxPendingLoginsPerWorker(settings.getInt(
                MAX_PENDING_LOGINS_PER_WORKER_PROP_NAME, MAX_PENDING_LOGINS_PER_WORKER_DEFAULT))
            .ringBufferSize(settings.getInt(RING_BUFFER_SIZE_PROP_NAME, RING_BUFFER_SIZE_DEFAULT))
            .sendBufferBytes(settings.getInt(SEND_BUFFER_BYTES_PROP_NAME, SEND_BUFFER_BYTES_DEFAULT))
            .socketSendBufferBytes(
                settings.getInt(SOCKET_SEND_BUFFER_BYTES_PROP_NAME, SOCKET_SEND_BUFFER_BYTES_DEFAULT))
            .fragmentLimit(settings.getInt(FRAGMENT_LIMIT_PROP_NAME, FRAGMENT_LIMIT_DEFAULT))
            .replayCapacity(settings.getInt(REPLAY_CAPACITY_PROP_NAME, REPLAY_CAPACITY_DEFAULT))
            .idleStrategySupplier(() -> AgentLaunch.idleStrategy(settings))
            .threadAffinity(ThreadAffinity.fromSettings(settings));
    }

    /**
     * Checks every field, defaulting the idle strategy to back-off when unset, and reads the credentials file unless
     * credentials are set.
     *
     * @return this.
     * @throws IllegalStateException naming the first field that is missing or out of range, or the credentials file
     *                               that cannot be read or parsed.
     */
    public FanoutContext conclude()
    {
        if (null == layout)
        {
            throw new IllegalStateException("layout must be set");
        }
        if (null == symbolDirectory)
        {
            throw new IllegalStateException("symbolDirectory must be set");
        }
        if (null == epochClock)
        {
            throw new IllegalStateException("epochClock must be set");
        }
        if (null == credentials)
        {
            if (null == credentialsFile)
            {
                throw new IllegalStateException(Credentials.FILE_PROP_NAME + " must be set");
            }
            credentials = Credentials.loadConfigured(credentialsFile);
        }
        checkPort(PORT_PROP_NAME, port);
        checkPort(METRICS_PORT_PROP_NAME, metricsPort);
        checkPositive(WORKERS_PROP_NAME, workerCount);
        checkPositive(MAX_SESSIONS_PER_WORKER_PROP_NAME, maxSessionsPerWorker);
        checkPositive(MAX_PENDING_LOGINS_PER_WORKER_PROP_NAME, maxPendingLoginsPerWorker);
        if (!BitUtil.isPowerOfTwo(ringBufferSize) || ringBufferSize < 4096)
        {
            throw new IllegalStateException(
                RING_BUFFER_SIZE_PROP_NAME + " must be a power of two of at least 4096: " + ringBufferSize);
        }
        if (sendBufferBytes < SEND_BUFFER_BYTES_MIN)
        {
            throw new IllegalStateException(
                SEND_BUFFER_BYTES_PROP_NAME + " must be at least " + SEND_BUFFER_BYTES_MIN + ": " + sendBufferBytes);
        }
        if (socketSendBufferBytes < 0)
        {
            throw new IllegalStateException(
                SOCKET_SEND_BUFFER_BYTES_PROP_NAME + " must be 0 or positive: " + socketSendBufferBytes);
        }
        checkPositive(FRAGMENT_LIMIT_PROP_NAME, fragmentLimit);
        checkRange(REPLAY_CAPACITY_PROP_NAME, replayCapacity, 1, ReplayRing.MAX_CAPACITY);
        if (null == idleStrategySupplier)
        {
            idleStrategySupplier = BackoffIdleStrategy::new;
        }
        return this;
    }

    /** @return the Aeron directory, channels and stream ids. */
    public StreamLayout layout()
    {
        return layout;
    }

    /**
     * @param layout the Aeron directory, channels and stream ids.
     * @return this.
     */
    public FanoutContext layout(final StreamLayout layout)
    {
        this.layout = layout;
        return this;
    }

    /** @return the symbols, which give the Stock Locate codes and the Stock Directory. */
    public SymbolDirectory symbolDirectory()
    {
        return symbolDirectory;
    }

    /**
     * @param symbolDirectory the symbols, which give the Stock Locate codes and the Stock Directory.
     * @return this.
     */
    public FanoutContext symbolDirectory(final SymbolDirectory symbolDirectory)
    {
        this.symbolDirectory = symbolDirectory;
        return this;
    }

    /** @return the CSV file of users who may log in. */
    public Path credentialsFile()
    {
        return credentialsFile;
    }

    /**
     * @param credentialsFile the CSV file of users who may log in ({@link Credentials}), read by {@link #conclude()}
     *                        unless credentials are set.
     * @return this.
     */
    public FanoutContext credentialsFile(final Path credentialsFile)
    {
        this.credentialsFile = credentialsFile;
        return this;
    }

    /** @return who may log in; null until concluded unless set. */
    public Credentials credentials()
    {
        return credentials;
    }

    /**
     * @param credentials who may log in, instead of the file; null to read the file.
     * @return this.
     */
    public FanoutContext credentials(final Credentials credentials)
    {
        this.credentials = credentials;
        return this;
    }

    /** @return TCP port subscribers connect to, 0 for any free port. */
    public int port()
    {
        return port;
    }

    /**
     * @param port TCP port subscribers connect to, 0 for any free port.
     * @return this.
     */
    public FanoutContext port(final int port)
    {
        this.port = port;
        return this;
    }

    /** @return port of the Prometheus endpoint, 0 for any free port. */
    public int metricsPort()
    {
        return metricsPort;
    }

    /**
     * @param metricsPort port of the Prometheus endpoint, 0 for any free port.
     * @return this.
     */
    public FanoutContext metricsPort(final int metricsPort)
    {
        this.metricsPort = metricsPort;
        return this;
    }

    /** @return true when the endpoint exports the JVM metrics too. */
    public boolean jvmMetrics()
    {
        return jvmMetrics;
    }

    /**
     * @param jvmMetrics true to export the JVM metrics too (one service per JVM should).
     * @return this.
     */
    public FanoutContext jvmMetrics(final boolean jvmMetrics)
    {
        this.jvmMetrics = jvmMetrics;
        return this;
    }

    /** @return number of worker threads. */
    public int workerCount()
    {
        return workerCount;
    }

    /**
     * @param workerCount number of worker threads, each serving a group of sessions.
     * @return this.
     */
    public FanoutContext workerCount(final int workerCount)
    {
        this.workerCount = workerCount;
        return this;
    }

    /** @return most sessions one worker serves. */
    public int maxSessionsPerWorker()
    {
        return maxSessionsPerWorker;
    }

    /**
     * @param maxSessionsPerWorker most sessions one worker serves.
     * @return this.
     */
    public FanoutContext maxSessionsPerWorker(final int maxSessionsPerWorker)
    {
        this.maxSessionsPerWorker = maxSessionsPerWorker;
        return this;
    }

    /** @return most connections one worker holds at once that have sent no Login Request yet. */
    public int maxPendingLoginsPerWorker()
    {
        return maxPendingLoginsPerWorker;
    }

    /**
     * @param maxPendingLoginsPerWorker most connections one worker holds at once that have sent no Login Request yet;
     *                                  more are closed at once.
     * @return this.
     */
    public FanoutContext maxPendingLoginsPerWorker(final int maxPendingLoginsPerWorker)
    {
        this.maxPendingLoginsPerWorker = maxPendingLoginsPerWorker;
        return this;
    }

    /** @return capacity in bytes of each worker's ring buffer. */
    public int ringBufferSize()
    {
        return ringBufferSize;
    }

    /**
     * @param ringBufferSize capacity in bytes of each worker's ring buffer, a power of two of at least 4096.
     * @return this.
     */
    public FanoutContext ringBufferSize(final int ringBufferSize)
    {
        this.ringBufferSize = ringBufferSize;
        return this;
    }

    /** @return capacity of each session's send buffer in bytes. */
    public int sendBufferBytes()
    {
        return sendBufferBytes;
    }

    /**
     * @param sendBufferBytes capacity of each session's send buffer in bytes, at least {@value #SEND_BUFFER_BYTES_MIN}:
     *                        a subscriber that falls further behind is ended as a slow consumer.
     * @return this.
     */
    public FanoutContext sendBufferBytes(final int sendBufferBytes)
    {
        this.sendBufferBytes = sendBufferBytes;
        return this;
    }

    /** @return the kernel's send buffer (SO_SNDBUF) of each subscriber socket in bytes; 0 for the kernel's sizing. */
    public int socketSendBufferBytes()
    {
        return socketSendBufferBytes;
    }

    /**
     * @param socketSendBufferBytes the kernel's send buffer (SO_SNDBUF) of each subscriber socket in bytes (Linux
     *                              doubles it), or 0 to leave it to the kernel.
     * @return this.
     */
    public FanoutContext socketSendBufferBytes(final int socketSendBufferBytes)
    {
        this.socketSendBufferBytes = socketSendBufferBytes;
        return this;
    }

    /** @return most messages read or handled per duty cycle. */
    public int fragmentLimit()
    {
        return fragmentLimit;
    }

    /**
     * @param fragmentLimit most messages the dispatcher reads, and each worker handles, per duty cycle.
     * @return this.
     */
    public FanoutContext fragmentLimit(final int fragmentLimit)
    {
        this.fragmentLimit = fragmentLimit;
        return this;
    }

    /** @return number of newest ITCH messages kept for replay. */
    public int replayCapacity()
    {
        return replayCapacity;
    }

    /**
     * @param replayCapacity number of newest ITCH messages kept for logins that request a sequence number.
     * @return this.
     */
    public FanoutContext replayCapacity(final int replayCapacity)
    {
        this.replayCapacity = replayCapacity;
        return this;
    }

    /** @return makes one idle strategy per agent thread. */
    public Supplier<IdleStrategy> idleStrategySupplier()
    {
        return idleStrategySupplier;
    }

    /**
     * @param idleStrategySupplier makes one idle strategy per agent thread.
     * @return this.
     */
    public FanoutContext idleStrategySupplier(final Supplier<IdleStrategy> idleStrategySupplier)
    {
        this.idleStrategySupplier = idleStrategySupplier;
        return this;
    }

    /** @return the CPUs the agent threads are pinned to, by role; none by default. */
    public ThreadAffinity threadAffinity()
    {
        return threadAffinity;
    }

    /**
     * @param threadAffinity the CPUs the agent threads are pinned to, by role
     *                       ({@value ThreadAffinity#THREAD_AFFINITY_PROP_NAME}).
     * @return this.
     */
    public FanoutContext threadAffinity(final ThreadAffinity threadAffinity)
    {
        this.threadAffinity = threadAffinity;
        return this;
    }

    /** @return the wall clock, ns since the Unix epoch; by default the system's ({@link MonotonicEpochNanoClock}). */
    public EpochNanoClock epochClock()
    {
        return epochClock;
    }

    /**
     * @param epochClock the wall clock the fanout reads, ns since the Unix epoch: its time names the run's numbered
     *                   stream, and its UTC midnight ends the trading day's sessions and names the next day's stream.
     *                   Set to run a day's end at another time than the host's (a test).
     * @return this.
     */
    public FanoutContext epochClock(final EpochNanoClock epochClock)
    {
        this.epochClock = epochClock;
        return this;
    }
}
