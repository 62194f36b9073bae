package io.bourse.gateway;

import io.bourse.common.aeron.AgentHost;
import io.bourse.common.aeron.AgentLaunch;
import io.bourse.common.aeron.EventArchive;
import io.bourse.common.aeron.StreamLayout;
import io.bourse.common.aeron.ThreadAffinity;
import io.bourse.common.config.Credentials;
import io.bourse.common.config.Settings;
import io.bourse.common.config.SymbolDirectory;
import io.bourse.common.metrics.MetricsServer;
import io.bourse.common.time.MidnightNanoClock;
import io.bourse.common.time.MonotonicEpochNanoClock;
import io.bourse.common.time.SessionNames;
import org.agrona.concurrent.EpochNanoClock;
import org.agrona.concurrent.IdleStrategy;

import java.nio.file.Path;
import java.time.LocalTime;
import java.time.format.DateTimeParseException;

import static io.bourse.common.config.SettingChecks.checkPort;
import static io.bourse.common.config.SettingChecks.checkPositive;
import static io.bourse.common.config.SettingChecks.checkRange;

/**
 * Configuration of the order gateway. Settings (system property, or the environment variable in upper case with
 * underscores): {@value #PORT_PROP_NAME} (OUCH/SoupBinTCP port, default {@value #PORT_DEFAULT}),
 * {@value #BIND_ADDRESS_PROP_NAME} (default {@value #BIND_ADDRESS_DEFAULT}), {@value #METRICS_PORT_PROP_NAME}
 * (default {@value #METRICS_PORT_DEFAULT}), {@value #GATEWAY_ID_PROP_NAME} (1..255, the top byte of the gateway's
 * clientOrderIds, default {@value #GATEWAY_ID_DEFAULT}), {@value #MAX_SESSIONS_PROP_NAME} (users logged in at once,
 * default {@value #MAX_SESSIONS_DEFAULT}), {@value #MAX_PENDING_LOGINS_PROP_NAME} (connections open at once that have
 * not logged in yet, default {@value #MAX_PENDING_LOGINS_DEFAULT}), {@value #LOGIN_TIMEOUT_MS_PROP_NAME} (how long a
 * new connection may take to send its Login Request before it is closed, default {@value #LOGIN_TIMEOUT_MS_DEFAULT}
 * ms), {@value #END_OF_SESSION_LINGER_MS_PROP_NAME} (how long a closed connection keeps its socket open for the
 * client to take what its send buffer still holds (End of Session last once the day is over) and close its end, default
 * {@value #END_OF_SESSION_LINGER_MS_DEFAULT} ms),
 * {@value #SEND_BUFFER_BYTES_PROP_NAME} (each connection's send buffer: a client that falls further behind is
 * disconnected as a slow consumer, default {@value #SEND_BUFFER_BYTES_DEFAULT}),
 * {@value #SOCKET_SEND_BUFFER_BYTES_PROP_NAME} (the kernel's send buffer of each client socket, SO_SNDBUF, default 0:
 * the kernel's own sizing), {@value #MAX_ORDER_SHARES_PROP_NAME} (largest Shares accepted, default
 * {@value #MAX_ORDER_SHARES_DEFAULT}), {@value #MAX_SESSION_TOKENS_PROP_NAME} and {@value #MAX_DAY_TOKENS_PROP_NAME}
 * (the day's capacity of Order Tokens per session and over all sessions, which bounds the heap the token indexes take;
 * a new token beyond either is Rejected, default {@value #MAX_SESSION_TOKENS_DEFAULT} and
 * {@value #MAX_DAY_TOKENS_DEFAULT}), {@value #CLOCK_TICK_INTERVAL_MS_PROP_NAME} (how often the gateway sends every
 * engine shard a ClockTick, so that good-till-seconds orders expire without order flow, default
 * {@value #CLOCK_TICK_INTERVAL_MS_DEFAULT} ms), {@value #SESSION_PROP_NAME} (SoupBinTCP session name, at most 10
 * characters, default today's UTC date as yyyyMMdd), {@value #CLOSE_TIME_PROP_NAME} (the UTC time of day the
 * gateway closes the trading day at, {@code HH:mm}, {@code HH:mm:ss} or with a fraction of a second, {@code 00:00}
 * the day's end, see {@link MarketClose}; default none: the gateway never closes), {@value #JOURNAL_DIR_PROP_NAME}
 * (where the session journals go, one directory per session and one file per user in it, default
 * {@code bourse-gateway-journal} under {@code java.io.tmpdir}: it survives a gateway restart),
 * {@value #JOURNAL_SYNC_PROP_NAME} ({@code none} or {@code batch}, see {@link JournalSync}, default {@code none}),
 * {@value #JOURNAL_PRETOUCH_BYTES_PROP_NAME} (the most that a thread of its own fills a journal with zeros ahead of
 * its records, so that the agent's writes find their pages in the page cache; each journal gets what its recent rate
 * needs, {@link JournalPretoucher}; at least 65,536, 0
 * for no such thread, default {@value #JOURNAL_PRETOUCH_BYTES_DEFAULT}), {@value #JOURNAL_RETENTION_DAYS_PROP_NAME}
 * (with daily sessions, the journals of a day closed and done with more than this many days before the current one,
 * and not among this many latest days, are deleted, {@link JournalStore#expiredDays}; default
 * {@value #JOURNAL_RETENTION_DAYS_DEFAULT}: every day's are kept), {@code bourse.credentials.file} (default
 * {@code deploy/credentials.csv}) or {@code bourse.credentials} (the users themselves, {@link Credentials}),
 * {@code bourse.metrics.jvm} (default true), the pre-trade risk limits and per-user
 * options of {@link RiskLimits} ({@code bourse.gateway.risk.*}, {@code bourse.gateway.cancel.on.disconnect}), plus
 * the {@link StreamLayout}, the {@link SymbolDirectory}, the idle strategy, the {@link ThreadAffinity}, the
 * {@link EventArchive} the gateway replays the engine events it did not hear from, when enabled, and the wall clock
 * its trading days, close and OUCH timestamps follow.
 */
public final class GatewayContext
{
    /** Setting name of the OUCH/SoupBinTCP port. */
    public static final String PORT_PROP_NAME = "bourse.gateway.port";
    /** Default OUCH/SoupBinTCP port. */
    public static final int PORT_DEFAULT = 15000;
    /** Setting name of the address to listen on. */
    public static final String BIND_ADDRESS_PROP_NAME = "bourse.gateway.bind.address";
    /** Default address to listen on: every interface. */
    public static final String BIND_ADDRESS_DEFAULT = "0.0.0.0";
    /** Setting name of the Prometheus port. */
    public static final String METRICS_PORT_PROP_NAME = "bourse.gateway.metrics.port";
    /** Default Prometheus port. */
    public static final int METRICS_PORT_DEFAULT = 9401;
    /** Setting name of the gateway id. */
    public static final String GATEWAY_ID_PROP_NAME = "bourse.gateway.id";
    /** Default gateway id. */
    public static final int GATEWAY_ID_DEFAULT = 1;
    /** Setting name of the most users logged in at once. */
    public static final String MAX_SESSIONS_PROP_NAME = "bourse.gateway.max.sessions";
    /**
     * Default most users logged in at once. Each costs about 205 KiB while connected with the default send buffer
     * (measured before stop 61: 145 KiB of direct memory for the send buffer and the journal's write and read
     * buffers, 60 KiB of heap for the Order Token index and the journal index, which since then keeps 8 KiB of recent
     * positions on the heap and 8 KiB of direct memory per 65,536 messages), so 2,048 fit a 512 MiB JVM, and two file
     * descriptors (its socket, and its journal file, which stays open for the day).
     */
    public static final int MAX_SESSIONS_DEFAULT = 2_048;
    /** Setting name of the most connections open at once that have not logged in yet. */
    public static final String MAX_PENDING_LOGINS_PROP_NAME = "bourse.gateway.max.pending.logins";
    /** Default most connections open at once that have not logged in yet. */
    public static final int MAX_PENDING_LOGINS_DEFAULT = 256;
    /** Setting name of the time a new connection has to send its Login Request. */
    public static final String LOGIN_TIMEOUT_MS_PROP_NAME = "bourse.gateway.login.timeout.ms";
    /** Default time a new connection has to send its Login Request, in milliseconds. */
    public static final long LOGIN_TIMEOUT_MS_DEFAULT = 5_000;
    /** Setting name of the time a closed connection keeps its socket open for the client to take what is buffered. */
    public static final String END_OF_SESSION_LINGER_MS_PROP_NAME = "bourse.gateway.end.of.session.linger.ms";
    /** Default time a closed connection keeps its socket open, in milliseconds. */
    public static final long END_OF_SESSION_LINGER_MS_DEFAULT = 1_000;
    /** Setting name of the capacity of each connection's send buffer. */
    public static final String SEND_BUFFER_BYTES_PROP_NAME = "bourse.gateway.send.buffer.bytes";
    /**
     * Default capacity of each connection's send buffer in bytes: some 1,900 OUCH Accepted messages, on top of what
     * the kernel's socket buffer holds; 2,048 of them fit the 512 MiB of direct memory of the compose file's JVMs.
     */
    public static final int SEND_BUFFER_BYTES_DEFAULT = 128 * 1024;
    /** Smallest send buffer accepted: room for a few of the longest packets. */
    public static final int SEND_BUFFER_BYTES_MIN = 4 * 1024;
    /** Setting name of the kernel's send buffer (SO_SNDBUF) of each client socket. */
    public static final String SOCKET_SEND_BUFFER_BYTES_PROP_NAME = "bourse.gateway.socket.send.buffer.bytes";
    /**
     * Default kernel send buffer of each client socket: 0 leaves it to the kernel, which on Linux grows it with the
     * traffic up to {@code net.ipv4.tcp_wmem}'s maximum (4 MiB by default); a value bounds the kernel memory a slow
     * consumer can hold, and how far behind it falls before its send buffer fills.
     */
    public static final int SOCKET_SEND_BUFFER_BYTES_DEFAULT = 0;
    /** Setting name of the largest Shares accepted. */
    public static final String MAX_ORDER_SHARES_PROP_NAME = "bourse.gateway.max.order.shares";
    /** Default largest Shares accepted: OUCH 4.2 §2.1 asks for less than 1,000,000. */
    public static final long MAX_ORDER_SHARES_DEFAULT = 999_999L;
    /** Setting name of the most Order Tokens one session may use in a trading day. */
    public static final String MAX_SESSION_TOKENS_PROP_NAME = "bourse.gateway.max.session.tokens";
    /**
     * Default most Order Tokens one session may use in a trading day, 2^22: the session's token index then takes at
     * most 201 MB of heap (302 MB while it last grows), and one session cannot use up the gateway's day capacity.
     */
    public static final long MAX_SESSION_TOKENS_DEFAULT = 1L << 22;
    /** Setting name of the UTC time of day the gateway closes the trading day at ({@link MarketClose}). */
    public static final String CLOSE_TIME_PROP_NAME = "bourse.gateway.close.time";
    /** {@link #closeTimeNs()} when the gateway never closes. */
    public static final long NO_CLOSE = -1;
    /** Setting name of the most Order Tokens all sessions together may use in a trading day. */
    public static final String MAX_DAY_TOKENS_PROP_NAME = "bourse.gateway.max.day.tokens";
    /**
     * Default most Order Tokens all sessions together may use in a trading day, 2^24: their token indexes then take at
     * most about 1.6 GB of heap (a table is at least a quarter full), within the compose file's 4 GB gateway heap.
     */
    public static final long MAX_DAY_TOKENS_DEFAULT = 1L << 24;
    /** Largest token capacity accepted, per session or per day: 2^30 tokens, far beyond any heap. */
    public static final long MAX_TOKENS_LIMIT = 1L << 30;
    /** Setting name of the interval between ClockTicks to every engine shard. */
    public static final String CLOCK_TICK_INTERVAL_MS_PROP_NAME = "bourse.gateway.clock.tick.interval.ms";
    /** Default interval between ClockTicks in milliseconds: good-till-seconds orders expire within a second. */
    public static final long CLOCK_TICK_INTERVAL_MS_DEFAULT = 1_000;
    /** Setting name of the SoupBinTCP session name. */
    public static final String SESSION_PROP_NAME = "bourse.gateway.session";
    /** Setting name of the directory of the session journals. */
    public static final String JOURNAL_DIR_PROP_NAME = "bourse.gateway.journal.dir";
    /** Default directory of the session journals: {@code bourse-gateway-journal} under {@code java.io.tmpdir}. */
    public static final String JOURNAL_DIR_DEFAULT =
        Path.of(System.getProperty("java.io.tmpdir"), "bourse-gateway-journal").toString();
    /** Setting name of the journal durability policy, {@code none} or {@code batch}. */
    public static final String JOURNAL_SYNC_PROP_NAME = "bourse.gateway.journal.sync";
    /** Default journal durability policy. */
    public static final JournalSync JOURNAL_SYNC_DEFAULT = JournalSync.NONE;
    /** Setting name of the most that the pretoucher thread fills a journal ahead of its records, in bytes. */
    public static final String JOURNAL_PRETOUCH_BYTES_PROP_NAME = "bourse.gateway.journal.pretouch.bytes";
    /** Default most pretouch distance: 1 MiB, 40 ms of one session's journal at 125,000 orders/s. */
    public static final long JOURNAL_PRETOUCH_BYTES_DEFAULT = 1024 * 1024;
    /** Setting name of the days a closed trading day's journals are kept after it, with daily sessions. */
    public static final String JOURNAL_RETENTION_DAYS_PROP_NAME = "bourse.gateway.journal.retention.days";
    /** Default journal retention: 0, every day's journals are kept. */
    public static final int JOURNAL_RETENTION_DAYS_DEFAULT = 0;

    private int port = PORT_DEFAULT;
    private String bindAddress = BIND_ADDRESS_DEFAULT;
    private int metricsPort = METRICS_PORT_DEFAULT;
    private int gatewayId = GATEWAY_ID_DEFAULT;
    private int maxSessions = MAX_SESSIONS_DEFAULT;
    private int maxPendingLogins = MAX_PENDING_LOGINS_DEFAULT;
    private long loginTimeoutMs = LOGIN_TIMEOUT_MS_DEFAULT;
    private long endOfSessionLingerMs = END_OF_SESSION_LINGER_MS_DEFAULT;
    private int sendBufferBytes = SEND_BUFFER_BYTES_DEFAULT;
    private int socketSendBufferBytes = SOCKET_SEND_BUFFER_BYTES_DEFAULT;
    private long maxOrderShares = MAX_ORDER_SHARES_DEFAULT;
    private long maxSessionTokens = MAX_SESSION_TOKENS_DEFAULT;
    private long maxDayTokens = MAX_DAY_TOKENS_DEFAULT;
    private long closeTimeNs = NO_CLOSE;
    private long clockTickIntervalMs = CLOCK_TICK_INTERVAL_MS_DEFAULT;
    private String sessionName;
    private boolean dailySessions;
    private String journalDir = JOURNAL_DIR_DEFAULT;
    private JournalSync journalSync = JOURNAL_SYNC_DEFAULT;
    private long journalPretouchBytes = JOURNAL_PRETOUCH_BYTES_DEFAULT;
    private int journalRetentionDays = JOURNAL_RETENTION_DAYS_DEFAULT;
    private String credentialsFile = Credentials.FILE_DEFAULT;
    private Credentials credentials;
    private RiskLimits riskLimits = RiskLimits.none();
    private boolean jvmMetrics = true;
    private StreamLayout streamLayout;
    private SymbolDirectory symbolDirectory;
    private IdleStrategy idleStrategy;
    private AgentHost agentHost = AgentHost.DEDICATED;
    private EpochNanoClock epochClock = new MonotonicEpochNanoClock();
    private ThreadAffinity threadAffinity = ThreadAffinity.NONE;
    private EventArchive eventArchive = EventArchive.DISABLED;

    /**
     * @param settings where to read the settings.
     * @return a context filled from the settings.
     * @throws IllegalArgumentException naming a setting that is not a number, or a journal sync policy unknown.
     */
    public static GatewayContext fromSettings(final Settings settings)
    {
        return new GatewayContext()
            .port(settings.getInt(PORT_PROP_NAME, PORT_DEFAULT))
            .bindAddress(settings.get(BIND_ADDRESS_PROP_NAME, BIND_ADDRESS_DEFAULT))
            .metricsPort(settings.getInt(METRICS_PORT_PROP_NAME, METRICS_PORT_DEFAULT))
            .gatewayId(settings.getInt(GATEWAY_ID_PROP_NAME, GATEWAY_ID_DEFAULT))
            .maxSessions(settings.getInt(MAX_SESSIONS_PROP_NAME, MAX_SESSIONS_DEFAULT))
            .maxPendingLogins(settings.getInt(MAX_PENDING_LOGINS_PROP_NAME, MAX_PENDING_LOGINS_DEFAULT))
            .loginTimeoutMs(settings.getLong(LOGIN_TIMEOUT_MS_PROP_NAME, LOGIN_TIMEOUT_MS_DEFAULT))
            .endOfSessionLingerMs(
                settings.getLong(END_OF_SESSION_LINGER_MS_PROP_NAME, END_OF_SESSION_LINGER_MS_DEFAULT))
            .sendBufferBytes(settings.getInt(SEND_BUFFER_BYTES_PROP_NAME, SEND_BUFFER_BYTES_DEFAULT))
            .socketSendBufferBytes(
                settings.getInt(SOCKET_SEND_BUFFER_BYTES_PROP_NAME, SOCKET_SEND_BUFFER_BYTES_DEFAULT))
            .maxOrderShares(settings.getLong(MAX_ORDER_SHARES_PROP_NAME, MAX_ORDER_SHARES_DEFAULT))
            .maxSessionTokens(settings.getLong(MAX_SESSION_TOKENS_PROP_NAME, MAX_SESSION_TOKENS_DEFAULT))
            .maxDayTokens(settings.getLong(MAX_DAY_TOKENS_PROP_NAME, MAX_DAY_TOKENS_DEFAULT))
            .clockTickIntervalMs(settings.getLong(CLOCK_TICK_INTERVAL_MS_PROP_NAME, CLOCK_TICK_INTERVAL_MS_DEFAULT))
            .sessionName(settings.get(SESSION_PROP_NAME, null))
            .closeTimeNs(closeTimeNs(settings.get(CLOSE_TIME_PROP_NAME, null)))
            .journalDir(settings.get(JOURNAL_DIR_PROP_NAME, JOURNAL_DIR_DEFAULT))
            .journalSync(journalSync(settings))
            .journalPretouchBytes(settings.getLong(JOURNAL_PRETOUCH_BYTES_PROP_NAME, JOURNAL_PRETOUCH_BYTES_DEFAULT))
            .journalRetentionDays(settings.getInt(JOURNAL_RETENTION_DAYS_PROP_NAME, JOURNAL_RETENTION_DAYS_DEFAULT))
            .credentialsFile(settings.get(Credentials.FILE_PROP_NAME, Credentials.FILE_DEFAULT))
            .credentials(Credentials.inline(settings))
            .riskLimits(RiskLimits.fromSettings(settings))
            .jvmMetrics(MetricsServer.jvmMetrics(settings))
            .streamLayout(StreamLayout.fromSettings(settings))
            .symbolDirectory(SymbolDirectory.fromSettings(settings))
            .idleStrategy(AgentLaunch.idleStrategy(settings))
            .threadAffinity(ThreadAffinity.fromSettings(settings))
            .eventArchive(EventArchive.fromSettings(settings));
    }

    /**
     * Checks the settings before launch, names today's session if unset, and loads the credentials file unless
     * credentials were given.
     *
     * @return this.
     * @throws IllegalStateException naming the bad setting.
     */
    public GatewayContext conclude()
    {
        if (null == streamLayout || null == symbolDirectory || null == idleStrategy || null == agentHost ||
            null == threadAffinity || null == eventArchive || null == epochClock)
        {
            throw new IllegalStateException("streamLayout, symbolDirectory, idleStrategy, agentHost, threadAffinity, " +
                "eventArchive and epochClock are required");
        }
        checkPort(PORT_PROP_NAME, port);
        checkPort(METRICS_PORT_PROP_NAME, metricsPort);
        checkRange(GATEWAY_ID_PROP_NAME, gatewayId, 1, 255);
        checkPositive(MAX_SESSIONS_PROP_NAME, maxSessions);
        checkPositive(MAX_PENDING_LOGINS_PROP_NAME, maxPendingLogins);
        checkPositive(LOGIN_TIMEOUT_MS_PROP_NAME, loginTimeoutMs);
        checkRange(END_OF_SESSION_LINGER_MS_PROP_NAME, endOfSessionLingerMs, 0, 60_000);
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
        if (maxOrderShares < 1 || maxOrderShares > 0xFFFF_FFFFL)
        {
            throw new IllegalStateException(MAX_ORDER_SHARES_PROP_NAME + " must be 1..2^32-1: " + maxOrderShares);
        }
        if (maxSessionTokens < 1 || maxSessionTokens > MAX_TOKENS_LIMIT)
        {
            throw new IllegalStateException(MAX_SESSION_TOKENS_PROP_NAME + " must be 1..2^30: " + maxSessionTokens);
        }
        if (maxDayTokens < 1 || maxDayTokens > MAX_TOKENS_LIMIT)
        {
            throw new IllegalStateException(MAX_DAY_TOKENS_PROP_NAME + " must be 1..2^30: " + maxDayTokens);
        }
        checkPositive(CLOCK_TICK_INTERVAL_MS_PROP_NAME, clockTickIntervalMs);
        if (null == sessionName)
        {
            dailySessions = true;
        }
        sessionName = SessionNames.resolve(sessionName, SESSION_PROP_NAME);
        if (NO_CLOSE != closeTimeNs && (closeTimeNs <= 0 || closeTimeNs > MidnightNanoClock.NANOS_PER_DAY))
        {
            throw new IllegalStateException(
                CLOSE_TIME_PROP_NAME + " must be a time of day after midnight, up to the day's end (00:00): " +
                closeTimeNs + " ns");
        }
        if (null == journalDir || journalDir.isBlank() || null == journalSync)
        {
            throw new IllegalStateException(JOURNAL_DIR_PROP_NAME + " and " + JOURNAL_SYNC_PROP_NAME + " are required");
        }
        if (journalRetentionDays < 0)
        {
            throw new IllegalStateException(
                JOURNAL_RETENTION_DAYS_PROP_NAME + " must be 0 (keep every day) or more: " + journalRetentionDays);
        }
        if (0 != journalPretouchBytes && journalPretouchBytes < SessionJournal.ZERO_FILL_LENGTH)
        {
            throw new IllegalStateException(JOURNAL_PRETOUCH_BYTES_PROP_NAME + " must be 0 or at least " +
                SessionJournal.ZERO_FILL_LENGTH + ": " + journalPretouchBytes);
        }
        if (null == riskLimits)
        {
            throw new IllegalStateException("riskLimits is required");
        }
        riskLimits.validate(symbolDirectory);
        if (null == credentials)
        {
            credentials = Credentials.loadConfigured(Path.of(credentialsFile));
        }
        return this;
    }

    private static JournalSync journalSync(final Settings settings)
    {
        final String name = settings.get(JOURNAL_SYNC_PROP_NAME, JOURNAL_SYNC_DEFAULT.name());
        try
        {
            return JournalSync.fromName(name);
        }
        catch (final IllegalArgumentException ex)
        {
            throw new IllegalArgumentException(JOURNAL_SYNC_PROP_NAME + ": " + ex.getMessage(), ex);
        }
    }

    private static long closeTimeNs(final String closeTime)
    {
        if (null == closeTime || closeTime.isBlank())
        {
            return NO_CLOSE;
        }
        try
        {
            final long timeOfDayNs = LocalTime.parse(closeTime.trim()).toNanoOfDay();
            // A day that closes at midnight closes at its end, not the moment it starts.
            return 0 == timeOfDayNs ? MidnightNanoClock.NANOS_PER_DAY : timeOfDayNs;
        }
        catch (final DateTimeParseException ex)
        {
            throw new IllegalArgumentException(
                CLOSE_TIME_PROP_NAME + " must be a UTC time of day, HH:mm or HH:mm:ss: " + closeTime, ex);
        }
    }

    /** @return OUCH/SoupBinTCP port; 0 picks a free one. */
    public int port()
    {
        return port;
    }

    /**
     * @param port OUCH/SoupBinTCP port; 0 picks a free one.
     * @return this.
     */
    public GatewayContext port(final int port)
    {
        this.port = port;
        return this;
    }

    /** @return address to listen on. */
    public String bindAddress()
    {
        return bindAddress;
    }

    /**
     * @param bindAddress address to listen on, e.g. {@code 127.0.0.1}.
     * @return this.
     */
    public GatewayContext bindAddress(final String bindAddress)
    {
        this.bindAddress = bindAddress;
        return this;
    }

    /** @return Prometheus port; 0 picks a free one. */
    public int metricsPort()
    {
        return metricsPort;
    }

    /**
     * @param metricsPort Prometheus port; 0 picks a free one.
     * @return this.
     */
    public GatewayContext metricsPort(final int metricsPort)
    {
        this.metricsPort = metricsPort;
        return this;
    }

    /** @return gateway id, 1..255. */
    public int gatewayId()
    {
        return gatewayId;
    }

    /**
     * @param gatewayId 1..255, unique among the gateways of one exchange.
     * @return this.
     */
    public GatewayContext gatewayId(final int gatewayId)
    {
        this.gatewayId = gatewayId;
        return this;
    }

    /** @return most users logged in at once. */
    public int maxSessions()
    {
        return maxSessions;
    }

    /**
     * @param maxSessions most users logged in at once; one more gets Login Rejected 'S'.
     * @return this.
     */
    public GatewayContext maxSessions(final int maxSessions)
    {
        this.maxSessions = maxSessions;
        return this;
    }

    /** @return most connections open at once that have not logged in yet. */
    public int maxPendingLogins()
    {
        return maxPendingLogins;
    }

    /**
     * @param maxPendingLogins most connections open at once that have not logged in yet; more are closed as they are
     *                         accepted.
     * @return this.
     */
    public GatewayContext maxPendingLogins(final int maxPendingLogins)
    {
        this.maxPendingLogins = maxPendingLogins;
        return this;
    }

    /** @return milliseconds a new connection has to send its Login Request. */
    public long loginTimeoutMs()
    {
        return loginTimeoutMs;
    }

    /**
     * @param loginTimeoutMs milliseconds a new connection has to send its Login Request before it is closed.
     * @return this.
     */
    public GatewayContext loginTimeoutMs(final long loginTimeoutMs)
    {
        this.loginTimeoutMs = loginTimeoutMs;
        return this;
    }

    /** @return milliseconds a closed connection keeps its socket open for the client to take what is buffered. */
    public long endOfSessionLingerMs()
    {
        return endOfSessionLingerMs;
    }

    /**
     * @param endOfSessionLingerMs milliseconds, 0..60,000, a closed connection keeps its socket open for the client to
     *                             take what its send buffer still holds (End of Session last once the day is over)
     *                             and close its end, its input dropped; 0 closes it at once, and unread input then
     *                             resets the connection.
     * @return this.
     */
    public GatewayContext endOfSessionLingerMs(final long endOfSessionLingerMs)
    {
        this.endOfSessionLingerMs = endOfSessionLingerMs;
        return this;
    }

    /** @return capacity of each connection's send buffer in bytes. */
    public int sendBufferBytes()
    {
        return sendBufferBytes;
    }

    /**
     * @param sendBufferBytes capacity of each connection's send buffer in bytes, at least
     *                        {@value #SEND_BUFFER_BYTES_MIN}: a client that falls further behind is disconnected.
     * @return this.
     */
    public GatewayContext sendBufferBytes(final int sendBufferBytes)
    {
        this.sendBufferBytes = sendBufferBytes;
        return this;
    }

    /** @return the kernel's send buffer (SO_SNDBUF) of each client socket in bytes; 0 for the kernel's own sizing. */
    public int socketSendBufferBytes()
    {
        return socketSendBufferBytes;
    }

    /**
     * @param socketSendBufferBytes the kernel's send buffer (SO_SNDBUF) of each client socket in bytes (Linux
     *                              reserves twice that); 0 for the kernel's own sizing.
     * @return this.
     */
    public GatewayContext socketSendBufferBytes(final int socketSendBufferBytes)
    {
        this.socketSendBufferBytes = socketSendBufferBytes;
        return this;
    }

    /** @return largest Shares accepted in an Enter or Replace Order. */
    public long maxOrderShares()
    {
        return maxOrderShares;
    }

    /**
     * @param maxOrderShares largest Shares accepted; more is rejected with 'Z'.
     * @return this.
     */
    public GatewayContext maxOrderShares(final long maxOrderShares)
    {
        this.maxOrderShares = maxOrderShares;
        return this;
    }

    /** @return most Order Tokens one session may use in a trading day; more get Rejected 'O'. */
    public long maxSessionTokens()
    {
        return maxSessionTokens;
    }

    /**
     * @param maxSessionTokens most Order Tokens one session may use in a trading day, 1..2^30; an Enter Order
     *                         with a new token beyond it is rejected with 'O' (token capacity), a Replace Order
     *                         refused as any refused replace (OUCH 4.2 &sect;2.2: the existing order canceled).
     * @return this.
     */
    public GatewayContext maxSessionTokens(final long maxSessionTokens)
    {
        this.maxSessionTokens = maxSessionTokens;
        return this;
    }

    /**
     * @return the UTC time of day the gateway closes the trading day at ({@link MarketClose}), ns since the day's
     * midnight (one day's ns for a close at its end, the next midnight); or {@link #NO_CLOSE}.
     */
    public long closeTimeNs()
    {
        return closeTimeNs;
    }

    /**
     * @param closeTimeNs the UTC time of day the gateway closes the trading day at, ns since the day's midnight (1 ns
     *                    to one day: a close at the day's end), or {@link #NO_CLOSE} for a gateway that never closes.
     * @return this.
     */
    public GatewayContext closeTimeNs(final long closeTimeNs)
    {
        this.closeTimeNs = closeTimeNs;
        return this;
    }

    /** @return most Order Tokens all sessions together may use in a trading day; more are refused. */
    public long maxDayTokens()
    {
        return maxDayTokens;
    }

    /**
     * @param maxDayTokens most Order Tokens all sessions together may use in a trading day, 1..2^30; an Enter Order
     *                     with a new token beyond it is rejected with 'O' (token capacity), a Replace Order refused
     *                     as any refused replace (OUCH 4.2 &sect;2.2: the existing order canceled).
     * @return this.
     */
    public GatewayContext maxDayTokens(final long maxDayTokens)
    {
        this.maxDayTokens = maxDayTokens;
        return this;
    }

    /** @return milliseconds between two ClockTicks to every engine shard. */
    public long clockTickIntervalMs()
    {
        return clockTickIntervalMs;
    }

    /**
     * @param clockTickIntervalMs milliseconds between two ClockTicks to every engine shard.
     * @return this.
     */
    public GatewayContext clockTickIntervalMs(final long clockTickIntervalMs)
    {
        this.clockTickIntervalMs = clockTickIntervalMs;
        return this;
    }

    /**
     * @return true when no session name was configured: each trading day is a session named after its UTC date
     * ({@code yyyyMMdd}), and a gateway whose day has closed opens the next one at the next midnight UTC
     * ({@link TradingDays}); false for a configured name, which is the only day. Set by {@link #conclude()}.
     */
    public boolean dailySessions()
    {
        return dailySessions;
    }

    /**
     * @return the configured SoupBinTCP session name, or once concluded without one, the UTC date at
     * {@link #conclude()}; the gateway names its days after its clock's dates ({@link TradingDays}).
     */
    public String sessionName()
    {
        return sessionName;
    }

    /**
     * @param sessionName SoupBinTCP session name, 1..10 printable ASCII characters; null for today's UTC date.
     * @return this.
     */
    public GatewayContext sessionName(final String sessionName)
    {
        this.sessionName = sessionName;
        return this;
    }

    /** @return directory of the session journals: one subdirectory per session, one file per user. */
    public String journalDir()
    {
        return journalDir;
    }

    /**
     * @param journalDir directory of the session journals, created if absent; a gateway restarted on the same
     *                   directory and session replays what the previous one journaled and rebuilds its open orders
     *                   from it.
     * @return this.
     */
    public GatewayContext journalDir(final String journalDir)
    {
        this.journalDir = journalDir;
        return this;
    }

    /** @return when journaled messages are forced to the device. */
    public JournalSync journalSync()
    {
        return journalSync;
    }

    /**
     * @param journalSync when journaled messages are forced to the device.
     * @return this.
     */
    public GatewayContext journalSync(final JournalSync journalSync)
    {
        this.journalSync = journalSync;
        return this;
    }

    /** @return the most that the pretoucher thread fills a journal ahead of its records, in bytes; 0 for none. */
    public long journalPretouchBytes()
    {
        return journalPretouchBytes;
    }

    /**
     * @param journalPretouchBytes the most that the pretoucher thread fills a journal ahead of its records (each gets
     *                             what its recent rate needs), in bytes: 0 for no such thread (the agent fills as it
     *                             writes), else at least 65,536.
     * @return this.
     */
    public GatewayContext journalPretouchBytes(final long journalPretouchBytes)
    {
        this.journalPretouchBytes = journalPretouchBytes;
        return this;
    }

    /**
     * @return with daily sessions, the days a closed trading day's journals are kept after it (deleted once the
     * current day is more than this many days later); 0 to keep every day's.
     */
    public int journalRetentionDays()
    {
        return journalRetentionDays;
    }

    /**
     * @param journalRetentionDays the days a closed trading day's journals are kept after it, with daily sessions;
     *                             0 to keep every day's.
     * @return this.
     */
    public GatewayContext journalRetentionDays(final int journalRetentionDays)
    {
        this.journalRetentionDays = journalRetentionDays;
        return this;
    }

    /** @return path of the credentials CSV file. */
    public String credentialsFile()
    {
        return credentialsFile;
    }

    /**
     * @param credentialsFile path of the credentials CSV file, read by {@link #conclude()} unless credentials are set.
     * @return this.
     */
    public GatewayContext credentialsFile(final String credentialsFile)
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
     * @param credentials who may log in, instead of the file.
     * @return this.
     */
    public GatewayContext credentials(final Credentials credentials)
    {
        this.credentials = credentials;
        return this;
    }

    /** @return every user's pre-trade risk limits and options. */
    public RiskLimits riskLimits()
    {
        return riskLimits;
    }

    /**
     * @param riskLimits every user's pre-trade risk limits and options; {@link RiskLimits#none()} by default.
     * @return this.
     */
    public GatewayContext riskLimits(final RiskLimits riskLimits)
    {
        this.riskLimits = riskLimits;
        return this;
    }

    /** @return true to export JVM metrics. */
    public boolean jvmMetrics()
    {
        return jvmMetrics;
    }

    /**
     * @param jvmMetrics true to export JVM metrics (one service per JVM should).
     * @return this.
     */
    public GatewayContext jvmMetrics(final boolean jvmMetrics)
    {
        this.jvmMetrics = jvmMetrics;
        return this;
    }

    /** @return the Aeron stream layout. */
    public StreamLayout streamLayout()
    {
        return streamLayout;
    }

    /**
     * @param streamLayout the Aeron stream layout.
     * @return this.
     */
    public GatewayContext streamLayout(final StreamLayout streamLayout)
    {
        this.streamLayout = streamLayout;
        return this;
    }

    /** @return the symbols and their shards. */
    public SymbolDirectory symbolDirectory()
    {
        return symbolDirectory;
    }

    /**
     * @param symbolDirectory the symbols and their shards.
     * @return this.
     */
    public GatewayContext symbolDirectory(final SymbolDirectory symbolDirectory)
    {
        this.symbolDirectory = symbolDirectory;
        return this;
    }

    /** @return the gateway agent's idle strategy. */
    public IdleStrategy idleStrategy()
    {
        return idleStrategy;
    }

    /**
     * @param idleStrategy the gateway agent's idle strategy.
     * @return this.
     */
    public GatewayContext idleStrategy(final IdleStrategy idleStrategy)
    {
        this.idleStrategy = idleStrategy;
        return this;
    }

    /** @return the wall clock, ns since the Unix epoch; by default the system's ({@link MonotonicEpochNanoClock}). */
    public EpochNanoClock epochClock()
    {
        return epochClock;
    }

    /**
     * @param epochClock the wall clock the gateway reads, ns since the Unix epoch: its UTC date names the first trading
     *                   day, its time of day is the OUCH timestamps' and decides the close and the next day's opening.
     *                   Set to run a day's close and rollover at another time than the host's (a test).
     * @return this.
     */
    public GatewayContext epochClock(final EpochNanoClock epochClock)
    {
        this.epochClock = epochClock;
        return this;
    }

    /** @return the CPUs the gateway agent's thread is pinned to, by role; none by default. */
    public ThreadAffinity threadAffinity()
    {
        return threadAffinity;
    }

    /**
     * @param threadAffinity the CPUs the gateway agent's thread is pinned to, by role
     *                       ({@value ThreadAffinity#THREAD_AFFINITY_PROP_NAME}).
     * @return this.
     */
    public GatewayContext threadAffinity(final ThreadAffinity threadAffinity)
    {
        this.threadAffinity = threadAffinity;
        return this;
    }

    /** @return where the gateway agent runs: by default a thread of its own. */
    public AgentHost agentHost()
    {
        return agentHost;
    }

    /**
     * @param agentHost where the gateway agent runs, e.g. a {@link io.bourse.common.aeron.SharedAgentThread} it shares
     *                  with the other services of an embedded exchange (which then idles with its own strategy).
     * @return this.
     */
    public GatewayContext agentHost(final AgentHost agentHost)
    {
        this.agentHost = agentHost;
        return this;
    }

    /** @return the event archive the gateway replays missed engine events from, when enabled. */
    public EventArchive eventArchive()
    {
        return eventArchive;
    }

    /**
     * @param eventArchive the event archive (default {@link EventArchive#DISABLED}).
     * @return this.
     */
    public GatewayContext eventArchive(final EventArchive eventArchive)
    {
        this.eventArchive = eventArchive;
        return this;
    }
}
