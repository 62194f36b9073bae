package io.bourse.mdpublisher;

import io.bourse.common.aeron.AgentLaunch;
import io.bourse.common.aeron.EventArchive;
import io.bourse.common.aeron.StreamLayout;
import io.bourse.common.aeron.ThreadAffinity;
import io.bourse.common.config.SettingChecks;
import io.bourse.common.config.Settings;
import io.bourse.common.config.SymbolDirectory;
import io.bourse.common.metrics.MetricsServer;
import io.bourse.common.time.MonotonicEpochNanoClock;
import io.bourse.common.time.SessionNames;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.EpochNanoClock;
import org.agrona.concurrent.IdleStrategy;

import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.function.Supplier;

import static io.bourse.common.config.SettingChecks.checkPort;
import static io.bourse.common.config.SettingChecks.checkPositive;
import static io.bourse.common.config.SettingChecks.checkRange;

/**
 * Configuration of the md-publisher: where the engine event streams and the market-data stream are, which symbols
 * exist, the metrics endpoint and the agent's tuning, settings {@code bourse.mdpublisher.*} (environment
 * {@code BOURSE_MDPUBLISHER_*}) plus the shared stream layout and symbol list; and its ITCH 5.0 over MoldUDP64 feed,
 * settings {@code bourse.md.mold.*} (environment {@code BOURSE_MD_MOLD_*}), whose defaults work on one host: the
 * multicast goes out on the loopback interface, where every receiver on the host can join the group.
 */
public final class MdPublisherContext
{
    /** Port of the Prometheus endpoint. */
    public static final String METRICS_PORT_PROP_NAME = "bourse.mdpublisher.metrics.port";
    /** Default metrics port (DESIGN.md). */
    public static final int METRICS_PORT_DEFAULT = 9402;
    /** Most events read from one shard's stream per duty cycle. */
    public static final String FRAGMENT_LIMIT_PROP_NAME = "bourse.mdpublisher.fragment.limit";
    /** Default fragment limit. */
    public static final int FRAGMENT_LIMIT_DEFAULT = 256;
    /** Attempts after a back-pressured offer before the message is given up (a gap in the feed). */
    public static final String OFFER_RETRIES_PROP_NAME = "bourse.mdpublisher.offer.retries";
    /** Default retries: with the back-off below, at most about 10 ms per message. */
    public static final int OFFER_RETRIES_DEFAULT = 100;
    /**
     * Most price levels per side on the L2 feed (PriceLevelUpdate), from the best; 0 for every level. A level that
     * leaves the window is published with quantity 0, one that enters it with its aggregate.
     */
    public static final String L2_DEPTH_PROP_NAME = "bourse.md.l2.depth";
    /** Default L2 depth: every level. */
    public static final int L2_DEPTH_DEFAULT = MarketDataBooks.FULL_DEPTH;
    /** Deepest limited L2 depth. */
    public static final int L2_DEPTH_MAX = 1000;

    /** Whether the md-publisher also publishes ITCH 5.0 over MoldUDP64 multicast: {@code true} or {@code false}. */
    public static final String MOLD_ENABLED_PROP_NAME = "bourse.md.mold.enabled";
    /** The MoldUDP64 feed is on by default. */
    public static final boolean MOLD_ENABLED_DEFAULT = true;
    /** IPv4 multicast group the Downstream Packets are sent to. */
    public static final String MOLD_GROUP_PROP_NAME = "bourse.md.mold.group";
    /** Default group, in the organization-local scope (RFC 2365). */
    public static final String MOLD_GROUP_DEFAULT = "239.192.0.1";
    /** UDP port of the multicast group. */
    public static final String MOLD_PORT_PROP_NAME = "bourse.md.mold.port";
    /** Default multicast port. */
    public static final int MOLD_PORT_DEFAULT = 17000;
    /** IPv4 address of the network interface that sends the multicast and receives the Request Packets. */
    public static final String MOLD_INTERFACE_PROP_NAME = "bourse.md.mold.interface";
    /** Default interface: the loopback, so that receivers on the same host join the group through it. */
    public static final String MOLD_INTERFACE_DEFAULT = "127.0.0.1";
    /** IP time-to-live of the multicast packets: 1 keeps them on the local network. */
    public static final String MOLD_TTL_PROP_NAME = "bourse.md.mold.ttl";
    /** Default time-to-live. */
    public static final int MOLD_TTL_DEFAULT = 1;
    /** UDP port of the re-request server on the interface's address; 0 for any free port. */
    public static final String MOLD_REQUEST_PORT_PROP_NAME = "bourse.md.mold.request.port";
    /** Default re-request port. */
    public static final int MOLD_REQUEST_PORT_DEFAULT = 17001;
    /**
     * MoldUDP64 Session: 1..10 printable ASCII characters without spaces, one session for the whole run; by default
     * daily sessions, the first named after the md-publisher's start in UTC to the second,
     * {@value SessionNames#RUN_START_FORMAT}, and one more at each midnight UTC named after its day ({@code yyyyMMdd}):
     * each run, and each day of a run, numbers its messages from 1, so each is a session of its own (MoldUDP64 1.00: a
     * Sequence Number names one message of a session), and a receiver that sees the Session change knows to start
     * again from 1.
     */
    public static final String MOLD_SESSION_PROP_NAME = "bourse.md.mold.session";
    /** Most bytes of Message Blocks in one Downstream Packet or response. */
    public static final String MOLD_PAYLOAD_LENGTH_PROP_NAME = "bourse.md.mold.payload.length";
    /**
     * Largest payload, and the default: nassau's packet buffer, with which a packet (20-byte header, 8-byte UDP and
     * 20-byte IPv4 headers) fits a 1,500-byte Ethernet MTU.
     */
    public static final int MOLD_PAYLOAD_LENGTH_MAX = 1400;
    /** Smallest payload: one Message Block of the longest message. */
    public static final int MOLD_PAYLOAD_LENGTH_MIN =
        MoldMessageStore.MESSAGE_LENGTH_FIELD_LENGTH + MoldFeedAgent.MAX_MESSAGE_LENGTH;
    /** Most messages of the session kept in memory for re-requests, the newest ones. */
    public static final String MOLD_STORE_MESSAGES_PROP_NAME = "bourse.md.mold.store.messages";
    /** Default store size: 1,000,000 messages, 46 MB off-heap. */
    public static final int MOLD_STORE_MESSAGES_DEFAULT = 1_000_000;
    /**
     * Directory of the file that keeps every message of the session on disk for re-requests older than the memory
     * holds ({@link MoldSessionFile}: {@code <session>-<pid>.mold} and its index, deleted when the session ends);
     * {@value #MOLD_STORE_DIR_NONE} for none, when only the newest {@link #MOLD_STORE_MESSAGES_PROP_NAME} messages are
     * kept (an empty environment value means the default).
     */
    public static final String MOLD_STORE_DIR_PROP_NAME = "bourse.md.mold.store.dir";
    /** The {@link #MOLD_STORE_DIR_PROP_NAME} value for no session file. */
    public static final String MOLD_STORE_DIR_NONE = "none";
    /** Default session file directory: {@code bourse-md-mold} in {@code java.io.tmpdir}. */
    public static final String MOLD_STORE_DIR_DEFAULT =
        Path.of(System.getProperty("java.io.tmpdir"), "bourse-md-mold").toString();
    /** Most bytes of messages the session file keeps, from the session's first message on. */
    public static final String MOLD_STORE_FILE_BYTES_PROP_NAME = "bourse.md.mold.store.file.bytes";
    /** Default session file size limit: 1 GiB, some 30 million ITCH messages. */
    public static final long MOLD_STORE_FILE_BYTES_DEFAULT = 1L << 30;
    /**
     * Most Request Packets answered per second to one requester (its IP address and UDP port), a token bucket holding
     * one second's worth; 0 for no limit. Requests past it are dropped unanswered, counted, for the requester to ask
     * again later ({@link MoldRequestServer}).
     */
    public static final String MOLD_REQUESTS_PER_SECOND_PROP_NAME = "bourse.md.mold.requests.per.second";
    /**
     * Default request limit: 20,000 a second per requester, up to some 28 MB/s of answers, an eighth of the feed's
     * whole re-request budget ({@link MoldFeedAgent#REQUESTS_PER_DUTY_CYCLE} per
     * {@link MoldFeedAgent#REQUEST_POLL_INTERVAL_NS}); a late joiner that asks one packet at a time, from sequence
     * number 1, is not held back on loopback.
     */
    public static final int MOLD_REQUESTS_PER_SECOND_DEFAULT = 20_000;
    /**
     * Receive buffer asked for the re-request socket (SO_RCVBUF), in bytes; 0 for the kernel's default. A burst of
     * Request Packets past what it holds is dropped by the kernel before the feed reads it, counted in
     * {@code bourse_md_mold_request_socket_drops_total}; Linux gives at most twice {@code net.core.rmem_max}.
     */
    public static final String MOLD_REQUEST_RECEIVE_BUFFER_BYTES_PROP_NAME =
        "bourse.md.mold.request.receive.buffer.bytes";
    /**
     * Default request socket receive buffer: 4 MiB, which Linux doubles (where {@code net.core.rmem_max} allows it)
     * for its overhead: some 10,000 Request Packets queued at once on loopback, a 20-byte datagram taking about 830
     * bytes of it, where the kernel's default of 208 KiB holds 256.
     */
    public static final int MOLD_REQUEST_RECEIVE_BUFFER_BYTES_DEFAULT = 4 * 1024 * 1024;
    /** Time without a packet, in milliseconds, after which a Heartbeat is sent. */
    public static final String MOLD_HEARTBEAT_INTERVAL_MS_PROP_NAME = "bourse.md.mold.heartbeat.interval.ms";
    /** Default heartbeat interval: one second. */
    public static final int MOLD_HEARTBEAT_INTERVAL_MS_DEFAULT = 1000;
    /**
     * How long the MoldUDP64 session's end lasts, in milliseconds: End of Session packets in place of Heartbeats, with
     * re-requests still answered (MoldUDP64 1.00, End of Session), before the md-publisher stops.
     */
    public static final String MOLD_END_OF_SESSION_MS_PROP_NAME = "bourse.md.mold.end.of.session.ms";
    /** Default end of session: one second, an End of Session packet every 100 ms. */
    public static final int MOLD_END_OF_SESSION_MS_DEFAULT = 1000;
    /**
     * Longest end of session, in milliseconds: well within the 10 s {@code docker compose stop} gives a container
     * before it kills it.
     */
    public static final int MOLD_END_OF_SESSION_MS_MAX = 4000;

    private StreamLayout layout;
    private SymbolDirectory symbolDirectory;
    private int metricsPort = METRICS_PORT_DEFAULT;
    private boolean jvmMetrics = true;
    private EventArchive eventArchive = EventArchive.DISABLED;
    private int fragmentLimit = FRAGMENT_LIMIT_DEFAULT;
    private int offerRetries = OFFER_RETRIES_DEFAULT;
    private int l2Depth = L2_DEPTH_DEFAULT;
    private Supplier<IdleStrategy> idleStrategySupplier;
    private ThreadAffinity threadAffinity = ThreadAffinity.NONE;
    private EpochNanoClock epochClock;
    private boolean moldEnabled = MOLD_ENABLED_DEFAULT;
    private String moldGroup = MOLD_GROUP_DEFAULT;
    private int moldPort = MOLD_PORT_DEFAULT;
    private String moldInterface = MOLD_INTERFACE_DEFAULT;
    private int moldTtl = MOLD_TTL_DEFAULT;
    private int moldRequestPort = MOLD_REQUEST_PORT_DEFAULT;
    private String moldSession;
    private boolean moldDailySessions;
    private int moldPayloadLength = MOLD_PAYLOAD_LENGTH_MAX;
    private int moldStoreMessages = MOLD_STORE_MESSAGES_DEFAULT;
    private String moldStoreDir = MOLD_STORE_DIR_DEFAULT;
    private long moldStoreFileBytes = MOLD_STORE_FILE_BYTES_DEFAULT;
    private int moldRequestsPerSecond = MOLD_REQUESTS_PER_SECOND_DEFAULT;
    private int moldRequestReceiveBufferBytes = MOLD_REQUEST_RECEIVE_BUFFER_BYTES_DEFAULT;
    private int moldHeartbeatIntervalMs = MOLD_HEARTBEAT_INTERVAL_MS_DEFAULT;
    private int moldEndOfSessionMs = MOLD_END_OF_SESSION_MS_DEFAULT;
    private InetAddress moldGroupAddress;
    private InetAddress moldInterfaceAddress;
    private NetworkInterface moldNetworkInterface;

    /**
     * @param settings source of every setting.
     * @return a context with every field read from the settings or defaulted.
     * @throws IllegalArgumentException naming a setting that is not a valid value.
     */
    public static MdPublisherContext fromSettings(final Settings settings)
    {
        return new MdPublisherContext()
            .layout(StreamLayout.fromSettings(settings))
            .symbolDirectory(SymbolDirectory.fromSettings(settings))
            .metricsPort(settings.getInt(METRICS_PORT_PROP_NAME, METRICS_PORT_DEFAULT))
            .jvmMetrics(MetricsServer.jvmMetrics(settings))
            .eventArchive(EventArchive.fromSettings(settings))
            .fragmentLimit(settings.getInt(FRAGMENT_LIMIT_PROP_NAME, FRAGMENT_LIMIT_DEFAULT))
            .offerRetries(settings.getInt(OFFER_RETRIES_PROP_NAME, OFFER_RETRIES_DEFAULT))
            .l2Depth(settings.getInt(L2_DEPTH_PROP_NAME, L2_DEPTH_DEFAULT))
            .idleStrategySupplier(() -> AgentLaunch.idleStrategy(settings))
            .threadAffinity(ThreadAffinity.fromSettings(settings))
            .moldEnabled(settings.getBoolean(MOLD_ENABLED_PROP_NAME, MOLD_ENABLED_DEFAULT))
            .moldGroup(settings.get(MOLD_GROUP_PROP_NAME, MOLD_GROUP_DEFAULT))
            .moldPort(settings.getInt(MOLD_PORT_PROP_NAME, MOLD_PORT_DEFAULT))
            .moldInterface(settings.get(MOLD_INTERFACE_PROP_NAME, MOLD_INTERFACE_DEFAULT))
            .moldTtl(settings.getInt(MOLD_TTL_PROP_NAME, MOLD_TTL_DEFAULT))
            .moldRequestPort(settings.getInt(MOLD_REQUEST_PORT_PROP_NAME, MOLD_REQUEST_PORT_DEFAULT))
            .moldSession(settings.get(MOLD_SESSION_PROP_NAME, null))
            .moldPayloadLength(settings.getInt(MOLD_PAYLOAD_LENGTH_PROP_NAME, MOLD_PAYLOAD_LENGTH_MAX))
            .moldStoreMessages(settings.getInt(MOLD_STORE_MESSAGES_PROP_NAME, MOLD_STORE_MESSAGES_DEFAULT))
            .moldStoreDir(settings.get(MOLD_STORE_DIR_PROP_NAME, MOLD_STORE_DIR_DEFAULT))
            .moldStoreFileBytes(settings.getLong(MOLD_STORE_FILE_BYTES_PROP_NAME, MOLD_STORE_FILE_BYTES_DEFAULT))
            .moldRequestsPerSecond(
                settings.getInt(MOLD_REQUESTS_PER_SECOND_PROP_NAME, MOLD_REQUESTS_PER_SECOND_DEFAULT))
            .moldRequestReceiveBufferBytes(settings.getInt(
                MOLD_REQUEST_RECEIVE_BUFFER_BYTES_PROP_NAME, MOLD_REQUEST_RECEIVE_BUFFER_BYTES_DEFAULT))
            .moldHeartbeatIntervalMs(
                settings.getInt(MOLD_HEARTBEAT_INTERVAL_MS_PROP_NAME, MOLD_HEARTBEAT_INTERVAL_MS_DEFAULT))
            .moldEndOfSessionMs(settings.getInt(MOLD_END_OF_SESSION_MS_PROP_NAME, MOLD_END_OF_SESSION_MS_DEFAULT));
    }

    /**
     * Checks every field, defaulting the idle strategy to back-off when unset.
     *
     * @return this.
     * @throws IllegalStateException naming the first field that is missing or out of range.
     */
    public MdPublisherContext conclude()
    {
        if (null == layout)
        {
            throw new IllegalStateException("layout must be set");
        }
        if (null == symbolDirectory)
        {
            throw new IllegalStateException("symbolDirectory must be set");
        }
        checkPort(METRICS_PORT_PROP_NAME, metricsPort);
        checkPositive(FRAGMENT_LIMIT_PROP_NAME, fragmentLimit);
        if (offerRetries < 0)
        {
            throw new IllegalStateException(OFFER_RETRIES_PROP_NAME + " must not be negative: " + offerRetries);
        }
        checkRange(L2_DEPTH_PROP_NAME, l2Depth, 0, L2_DEPTH_MAX);
        if (null == idleStrategySupplier)
        {
            idleStrategySupplier = BackoffIdleStrategy::new;
        }
        if (null == epochClock)
        {
            epochClock = new MonotonicEpochNanoClock();
        }
        if (moldEnabled)
        {
            concludeMold();
        }
        return this;
    }

    private void concludeMold()
    {
        moldGroupAddress = ipv4Address(MOLD_GROUP_PROP_NAME, moldGroup);
        if (!moldGroupAddress.isMulticastAddress())
        {
            throw new IllegalStateException(MOLD_GROUP_PROP_NAME + " must be an IPv4 multicast group: " + moldGroup);
        }
        checkRange(MOLD_PORT_PROP_NAME, moldPort, 1, SettingChecks.MAX_PORT);
        moldInterfaceAddress = ipv4Address(MOLD_INTERFACE_PROP_NAME, moldInterface);
        try
        {
            moldNetworkInterface = NetworkInterface.getByInetAddress(moldInterfaceAddress);
        }
        catch (final SocketException ex)
        {
            throw new IllegalStateException(MOLD_INTERFACE_PROP_NAME + ": cannot list interfaces", ex);
        }
        if (null == moldNetworkInterface)
        {
            throw new IllegalStateException(
                MOLD_INTERFACE_PROP_NAME + " must be the address of a local interface: " + moldInterface);
        }
        checkRange(MOLD_TTL_PROP_NAME, moldTtl, 0, 255);
        checkPort(MOLD_REQUEST_PORT_PROP_NAME, moldRequestPort);
        if (null == moldSession)
        {
            moldDailySessions = true;
            moldSession = SessionNames.runStart(Instant.now());
        }
        moldSession = SessionNames.resolve(moldSession, MOLD_SESSION_PROP_NAME);
        checkRange(MOLD_PAYLOAD_LENGTH_PROP_NAME, moldPayloadLength, MOLD_PAYLOAD_LENGTH_MIN, MOLD_PAYLOAD_LENGTH_MAX);
        checkRange(MOLD_STORE_MESSAGES_PROP_NAME, moldStoreMessages, 1,
            MoldMessageStore.maxCapacity(MoldFeedAgent.MAX_MESSAGE_LENGTH));
        checkPositive(MOLD_STORE_FILE_BYTES_PROP_NAME, moldStoreFileBytes);
        checkRange(MOLD_REQUESTS_PER_SECOND_PROP_NAME, moldRequestsPerSecond, 0, Integer.MAX_VALUE);
        checkRange(
            MOLD_REQUEST_RECEIVE_BUFFER_BYTES_PROP_NAME, moldRequestReceiveBufferBytes, 0, Integer.MAX_VALUE);
        checkRange(MOLD_HEARTBEAT_INTERVAL_MS_PROP_NAME, moldHeartbeatIntervalMs, 1, Integer.MAX_VALUE);
        checkRange(MOLD_END_OF_SESSION_MS_PROP_NAME, moldEndOfSessionMs, 0, MOLD_END_OF_SESSION_MS_MAX);
    }

    private static InetAddress ipv4Address(final String name, final String value)
    {
        try
        {
            final InetAddress address = InetAddress.getByName(value);
            if (address instanceof Inet4Address)
            {
                return address;
            }
        }
        catch (final UnknownHostException ex)
        {
            throw new IllegalStateException(name + " is not an address: " + value, ex);
        }
        throw new IllegalStateException(name + " must be an IPv4 address: " + value);
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
    public MdPublisherContext layout(final StreamLayout layout)
    {
        this.layout = layout;
        return this;
    }

    /** @return the symbols and their shards. */
    public SymbolDirectory symbolDirectory()
    {
        return symbolDirectory;
    }

    /**
     * @param symbolDirectory the symbols and their shards; one event stream is read per shard.
     * @return this.
     */
    public MdPublisherContext symbolDirectory(final SymbolDirectory symbolDirectory)
    {
        this.symbolDirectory = symbolDirectory;
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
    public MdPublisherContext metricsPort(final int metricsPort)
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
    public MdPublisherContext jvmMetrics(final boolean jvmMetrics)
    {
        this.jvmMetrics = jvmMetrics;
        return this;
    }

    /** @return the event archive the books of a run heard only in part are rebuilt from, when enabled. */
    public EventArchive eventArchive()
    {
        return eventArchive;
    }

    /**
     * @param eventArchive the event archive (default {@link EventArchive#DISABLED}): when enabled, an engine shard's
     *                     events published before the md-publisher's subscription joined are replayed from it into the
     *                     books.
     * @return this.
     */
    public MdPublisherContext eventArchive(final EventArchive eventArchive)
    {
        this.eventArchive = eventArchive;
        return this;
    }

    /** @return most events read from one stream per duty cycle. */
    public int fragmentLimit()
    {
        return fragmentLimit;
    }

    /**
     * @param fragmentLimit most events read from one stream per duty cycle.
     * @return this.
     */
    public MdPublisherContext fragmentLimit(final int fragmentLimit)
    {
        this.fragmentLimit = fragmentLimit;
        return this;
    }

    /** @return attempts after a back-pressured offer. */
    public int offerRetries()
    {
        return offerRetries;
    }

    /**
     * @param offerRetries attempts after a back-pressured offer before the message is given up.
     * @return this.
     */
    public MdPublisherContext offerRetries(final int offerRetries)
    {
        this.offerRetries = offerRetries;
        return this;
    }

    /** @return most price levels per side on the L2 feed, {@link MarketDataBooks#FULL_DEPTH} for every level. */
    public int l2Depth()
    {
        return l2Depth;
    }

    /**
     * @param l2Depth most price levels per side on the L2 feed, 1..{@value #L2_DEPTH_MAX}, or
     *                {@link MarketDataBooks#FULL_DEPTH} for every level; checked by {@link #conclude()}.
     * @return this.
     */
    public MdPublisherContext l2Depth(final int l2Depth)
    {
        this.l2Depth = l2Depth;
        return this;
    }

    /** @return makes the agent's idle strategy. */
    public Supplier<IdleStrategy> idleStrategySupplier()
    {
        return idleStrategySupplier;
    }

    /**
     * @param idleStrategySupplier makes the agent's idle strategy.
     * @return this.
     */
    public MdPublisherContext idleStrategySupplier(final Supplier<IdleStrategy> idleStrategySupplier)
    {
        this.idleStrategySupplier = idleStrategySupplier;
        return this;
    }

    /** @return the wall clock, ns since the Unix epoch; null until concluded unless set. */
    public EpochNanoClock epochClock()
    {
        return epochClock;
    }

    /**
     * @param epochClock the wall clock, ns since the Unix epoch: of the feeds' own times (snapshots, levels, the
     *                   MoldUDP64 session's System Events) and of the midnights UTC that start the books' trading
     *                   days (the MoldUDP64 session's day also ends by the monotonic clock, set to this one at its
     *                   start); by default the monotonic clock offset to the wall clock once
     *                   ({@link MonotonicEpochNanoClock}).
     * @return this.
     */
    public MdPublisherContext epochClock(final EpochNanoClock epochClock)
    {
        this.epochClock = epochClock;
        return this;
    }

    /** @return the CPUs the agent's thread is pinned to, by role; none by default. */
    public ThreadAffinity threadAffinity()
    {
        return threadAffinity;
    }

    /**
     * @param threadAffinity the CPUs the agent's thread is pinned to, by role
     *                       ({@value ThreadAffinity#THREAD_AFFINITY_PROP_NAME}).
     * @return this.
     */
    public MdPublisherContext threadAffinity(final ThreadAffinity threadAffinity)
    {
        this.threadAffinity = threadAffinity;
        return this;
    }

    /** @return true when the ITCH 5.0 over MoldUDP64 feed runs. */
    public boolean moldEnabled()
    {
        return moldEnabled;
    }

    /**
     * @param moldEnabled true to publish ITCH 5.0 over MoldUDP64 multicast too.
     * @return this.
     */
    public MdPublisherContext moldEnabled(final boolean moldEnabled)
    {
        this.moldEnabled = moldEnabled;
        return this;
    }

    /** @return the IPv4 multicast group of the Downstream Packets, as set. */
    public String moldGroup()
    {
        return moldGroup;
    }

    /**
     * @param moldGroup IPv4 multicast group of the Downstream Packets, e.g. {@value #MOLD_GROUP_DEFAULT}.
     * @return this.
     */
    public MdPublisherContext moldGroup(final String moldGroup)
    {
        this.moldGroup = moldGroup;
        return this;
    }

    /** @return UDP port of the multicast group. */
    public int moldPort()
    {
        return moldPort;
    }

    /**
     * @param moldPort UDP port of the multicast group, 1..65535.
     * @return this.
     */
    public MdPublisherContext moldPort(final int moldPort)
    {
        this.moldPort = moldPort;
        return this;
    }

    /** @return IPv4 address of the interface that sends the multicast and receives requests, as set. */
    public String moldInterface()
    {
        return moldInterface;
    }

    /**
     * @param moldInterface IPv4 address of the interface that sends the multicast and receives requests.
     * @return this.
     */
    public MdPublisherContext moldInterface(final String moldInterface)
    {
        this.moldInterface = moldInterface;
        return this;
    }

    /** @return IP time-to-live of the multicast packets. */
    public int moldTtl()
    {
        return moldTtl;
    }

    /**
     * @param moldTtl IP time-to-live of the multicast packets, 0..255.
     * @return this.
     */
    public MdPublisherContext moldTtl(final int moldTtl)
    {
        this.moldTtl = moldTtl;
        return this;
    }

    /** @return UDP port of the re-request server, 0 for any free port. */
    public int moldRequestPort()
    {
        return moldRequestPort;
    }

    /**
     * @param moldRequestPort UDP port of the re-request server, 0 for any free port.
     * @return this.
     */
    public MdPublisherContext moldRequestPort(final int moldRequestPort)
    {
        this.moldRequestPort = moldRequestPort;
        return this;
    }

    /** @return the MoldUDP64 Session, the first of the run's with daily sessions; null until concluded unless set. */
    public String moldSession()
    {
        return moldSession;
    }

    /**
     * @return whether a new MoldUDP64 session opens at each midnight UTC: when no Session was set; false until
     *         concluded.
     */
    public boolean moldDailySessions()
    {
        return moldDailySessions;
    }

    /**
     * @param moldSession MoldUDP64 Session, 1..10 printable ASCII characters without spaces (sent space-padded);
     *                    null for daily sessions, the first named after the run's start time in UTC
     *                    ({@value SessionNames#RUN_START_FORMAT}), one more at each midnight UTC named after its day
     *                    ({@code yyyyMMdd}). A Session set here is the only one of the run, across midnights, and the
     *                    same in every run, so a restarted md-publisher numbers a new session's messages from 1 under
     *                    the name of the last: set another one for each run.
     * @return this.
     */
    public MdPublisherContext moldSession(final String moldSession)
    {
        this.moldSession = moldSession;
        this.moldDailySessions = false;
        return this;
    }

    /** @return most bytes of Message Blocks in one packet or response. */
    public int moldPayloadLength()
    {
        return moldPayloadLength;
    }

    /**
     * @param moldPayloadLength most bytes of Message Blocks in one packet or response, from
     *                          {@link #MOLD_PAYLOAD_LENGTH_MIN} to {@value #MOLD_PAYLOAD_LENGTH_MAX}.
     * @return this.
     */
    public MdPublisherContext moldPayloadLength(final int moldPayloadLength)
    {
        this.moldPayloadLength = moldPayloadLength;
        return this;
    }

    /** @return most messages kept for re-requests. */
    public int moldStoreMessages()
    {
        return moldStoreMessages;
    }

    /**
     * @param moldStoreMessages most messages kept for re-requests, the newest ones; each takes 46 bytes off-heap.
     * @return this.
     */
    public MdPublisherContext moldStoreMessages(final int moldStoreMessages)
    {
        this.moldStoreMessages = moldStoreMessages;
        return this;
    }

    /** @return directory of the session file, or null for none. */
    public String moldStoreDir()
    {
        return moldStoreDir;
    }

    /**
     * @param moldStoreDir directory of the file that keeps every message of the session ({@link MoldSessionFile});
     *                     null, blank or {@value #MOLD_STORE_DIR_NONE} for none.
     * @return this.
     */
    public MdPublisherContext moldStoreDir(final String moldStoreDir)
    {
        this.moldStoreDir = null == moldStoreDir || moldStoreDir.isBlank() ||
            MOLD_STORE_DIR_NONE.equalsIgnoreCase(moldStoreDir) ? null : moldStoreDir;
        return this;
    }

    /** @return most bytes of messages the session file keeps. */
    public long moldStoreFileBytes()
    {
        return moldStoreFileBytes;
    }

    /**
     * @param moldStoreFileBytes most bytes of messages (as MoldUDP64 Message Blocks) the session file keeps, at
     *                           least 1.
     * @return this.
     */
    public MdPublisherContext moldStoreFileBytes(final long moldStoreFileBytes)
    {
        this.moldStoreFileBytes = moldStoreFileBytes;
        return this;
    }

    /** @return most Request Packets answered per second to one requester, 0 for no limit. */
    public int moldRequestsPerSecond()
    {
        return moldRequestsPerSecond;
    }

    /**
     * @param moldRequestsPerSecond most Request Packets answered per second to one requester (IP address and UDP
     *                              port), 0 for no limit.
     * @return this.
     */
    public MdPublisherContext moldRequestsPerSecond(final int moldRequestsPerSecond)
    {
        this.moldRequestsPerSecond = moldRequestsPerSecond;
        return this;
    }

    /** @return receive buffer asked for the re-request socket, in bytes; 0 for the kernel's default. */
    public int moldRequestReceiveBufferBytes()
    {
        return moldRequestReceiveBufferBytes;
    }

    /**
     * @param moldRequestReceiveBufferBytes receive buffer asked for the re-request socket (SO_RCVBUF), in bytes; 0 for
     *                                      the kernel's default. The kernel may give less (Linux: at most twice
     *                                      {@code net.core.rmem_max}), which the feed logs at start.
     * @return this.
     */
    public MdPublisherContext moldRequestReceiveBufferBytes(final int moldRequestReceiveBufferBytes)
    {
        this.moldRequestReceiveBufferBytes = moldRequestReceiveBufferBytes;
        return this;
    }

    /** @return time without a packet after which a Heartbeat is sent, in milliseconds. */
    public int moldHeartbeatIntervalMs()
    {
        return moldHeartbeatIntervalMs;
    }

    /**
     * @param moldHeartbeatIntervalMs time without a packet after which a Heartbeat is sent, in milliseconds.
     * @return this.
     */
    public MdPublisherContext moldHeartbeatIntervalMs(final int moldHeartbeatIntervalMs)
    {
        this.moldHeartbeatIntervalMs = moldHeartbeatIntervalMs;
        return this;
    }

    /** @return how long the MoldUDP64 session's end lasts, in milliseconds. */
    public int moldEndOfSessionMs()
    {
        return moldEndOfSessionMs;
    }

    /**
     * @param moldEndOfSessionMs how long the MoldUDP64 session's end lasts, 0..{@value #MOLD_END_OF_SESSION_MS_MAX}
     *                           ms: End of Session packets every 100 ms and re-requests answered; 0 sends one End
     *                           of Session packet and stops.
     * @return this.
     */
    public MdPublisherContext moldEndOfSessionMs(final int moldEndOfSessionMs)
    {
        this.moldEndOfSessionMs = moldEndOfSessionMs;
        return this;
    }

    /** @return the multicast group; set by {@link #conclude()} when the feed is on. */
    InetAddress moldGroupAddress()
    {
        return moldGroupAddress;
    }

    /** @return the interface's address; set by {@link #conclude()} when the feed is on. */
    InetAddress moldInterfaceAddress()
    {
        return moldInterfaceAddress;
    }

    /** @return the interface; set by {@link #conclude()} when the feed is on. */
    NetworkInterface moldNetworkInterface()
    {
        return moldNetworkInterface;
    }
}
