package io.bourse.simulator;

import io.bourse.common.aeron.AgentLaunch;
import io.bourse.common.aeron.ThreadAffinity;
import io.bourse.common.config.Credentials;
import io.bourse.common.config.SettingChecks;
import io.bourse.common.config.Settings;
import io.bourse.common.config.SymbolDirectory;
import io.bourse.common.metrics.MetricsServer;
import org.agrona.concurrent.IdleStrategy;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

import static io.bourse.common.config.SettingChecks.checkPort;
import static io.bourse.common.config.SettingChecks.checkRange;

/**
 * Configuration of a simulator run. Settings ({@code bourse.simulator.*}, or {@code BOURSE_SIMULATOR_*} in the
 * environment): the order gateway ({@code gateway.host}, {@code gateway.port}) and fanout ({@code fanout.host},
 * {@code fanout.port}) addresses, the number of OUCH sessions ({@code sessions}) and their users ({@code users}), the
 * number of market-data sessions ({@code md.sessions}) and their users ({@code md.users}), the feed they read
 * ({@code md.feed}, see {@link MarketDataFeed}; for MoldUDP64 the multicast group {@code md.mold.group} and
 * {@code md.mold.port}, the local interface {@code md.mold.interface} and the re-request server
 * {@code md.mold.request.host} and {@code md.mold.request.port}, defaults equal to the md-publisher's), the load
 * ({@code rate} in orders per second over all sessions, {@code duration} in seconds, 0 = until stopped, {@code seed}),
 * the Prometheus port ({@code metrics.port}), the progress line interval ({@code progress.interval.ms}, 0 = none), the
 * directory for .hgrm histogram files ({@code hgrm.dir}, unset = none), the drain after the last order
 * ({@code drain.ms}), the connect and login timeout ({@code connect.timeout.ms}), the rolling VWAP window
 * ({@code vwap.window.seconds}), the quiet period before the end-of-run book check ({@code book.check.quiet.ms}, 0 = no
 * check) and the load scenario ({@code scenario}, see {@link Scenario}, with its parameters {@code hawkes.alpha},
 * {@code hawkes.beta}, {@code burst.size}, {@code burst.rate}, {@code zipf.exponent}, {@code book.target},
 * {@code ramp.step}, {@code ramp.max}, {@code ramp.interval.ms}, {@code ramp.p99.limit.us}). Shared settings:
 * {@code bourse.credentials.file} or {@code bourse.credentials} ({@link Credentials}), {@code bourse.symbols},
 * {@code bourse.idle.strategy}, {@code bourse.metrics.jvm}. Users must be in the credentials; by default the OUCH
 * sessions take the first users, in their order, and the market-data sessions the last ones.
 */
public final class SimulatorContext
{
    /** Setting: order gateway host. */
    public static final String GATEWAY_HOST_PROP_NAME = "bourse.simulator.gateway.host";
    /** Default order gateway host. */
    public static final String GATEWAY_HOST_DEFAULT = "localhost";
    /** Setting: order gateway OUCH port. */
    public static final String GATEWAY_PORT_PROP_NAME = "bourse.simulator.gateway.port";
    /** Default order gateway OUCH port. */
    public static final int GATEWAY_PORT_DEFAULT = 15000;
    /** Setting: fanout host. */
    public static final String FANOUT_HOST_PROP_NAME = "bourse.simulator.fanout.host";
    /** Default fanout host. */
    public static final String FANOUT_HOST_DEFAULT = "localhost";
    /** Setting: fanout ITCH port. */
    public static final String FANOUT_PORT_PROP_NAME = "bourse.simulator.fanout.port";
    /** Default fanout ITCH port. */
    public static final int FANOUT_PORT_DEFAULT = 16000;
    /** Setting: number of OUCH sessions. */
    public static final String SESSIONS_PROP_NAME = "bourse.simulator.sessions";
    /** Default number of OUCH sessions. */
    public static final int SESSIONS_DEFAULT = 4;
    /** Setting: comma-separated usernames of the OUCH sessions; unset = the first users of the file. */
    public static final String USERS_PROP_NAME = "bourse.simulator.users";
    /** Setting: number of market-data sessions. */
    public static final String MD_SESSIONS_PROP_NAME = "bourse.simulator.md.sessions";
    /** Default number of market-data sessions. */
    public static final int MD_SESSIONS_DEFAULT = 1;
    /** Setting: comma-separated usernames of the market-data sessions; unset = the last users of the file. */
    public static final String MD_USERS_PROP_NAME = "bourse.simulator.md.users";
    /** Setting: the feed the market-data sessions read, {@code soupbintcp} or {@code moldudp64}. */
    public static final String MD_FEED_PROP_NAME = "bourse.simulator.md.feed";
    /** Default feed: ITCH 5.0 over SoupBinTCP from the fanout. */
    public static final MarketDataFeed MD_FEED_DEFAULT = MarketDataFeed.SOUPBINTCP;
    /** Setting: IPv4 multicast group of the md-publisher's MoldUDP64 Downstream Packets. */
    public static final String MD_MOLD_GROUP_PROP_NAME = "bourse.simulator.md.mold.group";
    /** Default MoldUDP64 group: the md-publisher's. */
    public static final String MD_MOLD_GROUP_DEFAULT = "239.192.0.1";
    /** Setting: UDP port of the MoldUDP64 group. */
    public static final String MD_MOLD_PORT_PROP_NAME = "bourse.simulator.md.mold.port";
    /** Default MoldUDP64 port: the md-publisher's. */
    public static final int MD_MOLD_PORT_DEFAULT = 17000;
    /** Setting: IPv4 address of the local interface that joins the group and sends the Request Packets. */
    public static final String MD_MOLD_INTERFACE_PROP_NAME = "bourse.simulator.md.mold.interface";
    /** Default MoldUDP64 interface: the loopback, where the md-publisher sends by default. */
    public static final String MD_MOLD_INTERFACE_DEFAULT = "127.0.0.1";
    /** Setting: host of the md-publisher's MoldUDP64 re-request server. */
    public static final String MD_MOLD_REQUEST_HOST_PROP_NAME = "bourse.simulator.md.mold.request.host";
    /** Default re-request host: the md-publisher's interface. */
    public static final String MD_MOLD_REQUEST_HOST_DEFAULT = "127.0.0.1";
    /** Setting: UDP port of the md-publisher's MoldUDP64 re-request server. */
    public static final String MD_MOLD_REQUEST_PORT_PROP_NAME = "bourse.simulator.md.mold.request.port";
    /** Default re-request port: the md-publisher's. */
    public static final int MD_MOLD_REQUEST_PORT_DEFAULT = 17001;
    /** Setting: target orders per second over all sessions. */
    public static final String RATE_PROP_NAME = "bourse.simulator.rate";
    /** Default target rate, orders per second. */
    public static final long RATE_DEFAULT = 1000;
    /** Setting: duration in seconds, 0 = until stopped. */
    public static final String DURATION_PROP_NAME = "bourse.simulator.duration";
    /** Default duration in seconds. */
    public static final long DURATION_DEFAULT = 10;
    /** Setting: random seed of the order flow. */
    public static final String SEED_PROP_NAME = "bourse.simulator.seed";
    /** Default seed: fixed, so that runs compare like with like. */
    public static final long SEED_DEFAULT = 42;
    /** Setting: Prometheus port. */
    public static final String METRICS_PORT_PROP_NAME = "bourse.simulator.metrics.port";
    /** Default Prometheus port (DESIGN.md). */
    public static final int METRICS_PORT_DEFAULT = 9404;
    /** Setting: interval of the progress line in ms, 0 = none. */
    public static final String PROGRESS_INTERVAL_PROP_NAME = "bourse.simulator.progress.interval.ms";
    /** Default progress interval in ms. */
    public static final long PROGRESS_INTERVAL_DEFAULT_MS = 1000;
    /**
     * Setting: directory for the HdrHistogram percentile files of the run (round trip and feed latency, values in
     * microseconds, {@code simulator-roundtrip-<rate>ops-<UTC time>.hgrm}); unset = none written.
     */
    public static final String HGRM_DIR_PROP_NAME = "bourse.simulator.hgrm.dir";
    /** Setting: longest wait in ms for responses to in-flight orders after the last order. */
    public static final String DRAIN_PROP_NAME = "bourse.simulator.drain.ms";
    /** Default drain in ms. */
    public static final long DRAIN_DEFAULT_MS = 1000;
    /** Setting: the window of the rolling VWAP in seconds of ITCH time. */
    public static final String VWAP_WINDOW_PROP_NAME = "bourse.simulator.vwap.window.seconds";
    /** Default rolling VWAP window in seconds. */
    public static final long VWAP_WINDOW_DEFAULT_SECONDS = 60;
    /**
     * Setting: the book check at the end of a run waits until the feed has been quiet this many ms (after the order
     * flow stopped), then until both the feed's session and a snapshot session are (the snapshot complete), then
     * watches both this long more after stopping the feed's session, and compares the book built from the feed with
     * the snapshot's: a check takes at least twice this long; 0 = no book check.
     */
    public static final String BOOK_CHECK_QUIET_PROP_NAME = "bourse.simulator.book.check.quiet.ms";
    /** Default quiet period of the book check in ms. */
    public static final long BOOK_CHECK_QUIET_DEFAULT_MS = 300;
    /** Setting: how long in ms to keep trying to connect and log in. */
    public static final String CONNECT_TIMEOUT_PROP_NAME = "bourse.simulator.connect.timeout.ms";
    /** Default connect and login timeout in ms: long enough for the exchange's containers to come up. */
    public static final long CONNECT_TIMEOUT_DEFAULT_MS = 10_000;

    /** Setting: load scenario, see {@link Scenario} (steady, exchange-core, poisson, hawkes, microburst, skewed, ramp). */
    public static final String SCENARIO_PROP_NAME = "bourse.simulator.scenario";
    /** Default scenario. */
    public static final Scenario SCENARIO_DEFAULT = Scenario.STEADY;
    /** Setting: Hawkes jump of the intensity per order, 1/s. */
    public static final String HAWKES_ALPHA_PROP_NAME = "bourse.simulator.hawkes.alpha";
    /** Default Hawkes alpha: 50/s (with beta 100/s, branching ratio 0.5: half the orders are triggered). */
    public static final double HAWKES_ALPHA_DEFAULT = 50.0;
    /** Setting: Hawkes decay rate of the jumps, 1/s, greater than alpha. */
    public static final String HAWKES_BETA_PROP_NAME = "bourse.simulator.hawkes.beta";
    /** Default Hawkes beta: 100/s (a jump decays with a 10 ms time constant). */
    public static final double HAWKES_BETA_DEFAULT = 100.0;
    /** Setting: orders per microburst. */
    public static final String BURST_SIZE_PROP_NAME = "bourse.simulator.burst.size";
    /** Default burst size: 40 (the seeds' 40-message batches). */
    public static final int BURST_SIZE_DEFAULT = 40;
    /** Setting: orders per second within a microburst. */
    public static final String BURST_RATE_PROP_NAME = "bourse.simulator.burst.rate";
    /** Default rate within a burst: 1,000,000 orders/s. */
    public static final long BURST_RATE_DEFAULT = 1_000_000;
    /** Setting: Zipf exponent of symbol popularity for the skewed scenario. */
    public static final String ZIPF_EXPONENT_PROP_NAME = "bourse.simulator.zipf.exponent";
    /** Default Zipf exponent: 1.0. */
    public static final double ZIPF_EXPONENT_DEFAULT = 1.0;
    /** Setting: resting orders per symbol the exchange-core scenario holds its book around. */
    public static final String BOOK_TARGET_PROP_NAME = "bourse.simulator.book.target";
    /** Default book target: 100 resting orders per symbol. */
    public static final int BOOK_TARGET_DEFAULT = 100;
    /** Setting: orders per second added at each ramp step, 0 = the starting rate. */
    public static final String RAMP_STEP_PROP_NAME = "bourse.simulator.ramp.step";
    /** Setting: highest ramp rate, orders per second, 0 = 20 times the starting rate. */
    public static final String RAMP_MAX_PROP_NAME = "bourse.simulator.ramp.max";
    /** Setting: length of a ramp step in milliseconds. */
    public static final String RAMP_INTERVAL_PROP_NAME = "bourse.simulator.ramp.interval.ms";
    /** Default ramp step length: 2,000 ms. */
    public static final long RAMP_INTERVAL_DEFAULT_MS = 2_000;
    /** Setting: round-trip p99 in microseconds above which the ramp stops. */
    public static final String RAMP_P99_LIMIT_PROP_NAME = "bourse.simulator.ramp.p99.limit.us";
    /** Default ramp p99 limit: 1,000 us. */
    public static final long RAMP_P99_LIMIT_DEFAULT_US = 1_000;

    private Scenario scenario = SCENARIO_DEFAULT;
    private double hawkesAlpha = HAWKES_ALPHA_DEFAULT;
    private double hawkesBeta = HAWKES_BETA_DEFAULT;
    private int burstSize = BURST_SIZE_DEFAULT;
    private long burstRate = BURST_RATE_DEFAULT;
    private double zipfExponent = ZIPF_EXPONENT_DEFAULT;
    private int bookTarget = BOOK_TARGET_DEFAULT;
    private long rampStep;
    private long rampMax;
    private long rampIntervalMs = RAMP_INTERVAL_DEFAULT_MS;
    private long rampP99LimitUs = RAMP_P99_LIMIT_DEFAULT_US;
    private String gatewayHost = GATEWAY_HOST_DEFAULT;
    private int gatewayPort = GATEWAY_PORT_DEFAULT;
    private String fanoutHost = FANOUT_HOST_DEFAULT;
    private int fanoutPort = FANOUT_PORT_DEFAULT;
    private int sessions = SESSIONS_DEFAULT;
    private List<String> users = List.of();
    private int mdSessions = MD_SESSIONS_DEFAULT;
    private List<String> mdUsers = List.of();
    private MarketDataFeed mdFeed = MD_FEED_DEFAULT;
    private String moldGroup = MD_MOLD_GROUP_DEFAULT;
    private int moldPort = MD_MOLD_PORT_DEFAULT;
    private String moldInterface = MD_MOLD_INTERFACE_DEFAULT;
    private String moldRequestHost = MD_MOLD_REQUEST_HOST_DEFAULT;
    private int moldRequestPort = MD_MOLD_REQUEST_PORT_DEFAULT;
    private InetSocketAddress moldGroupAddress;
    private InetAddress moldInterfaceAddress;
    private InetSocketAddress moldRequestAddress;
    private long rate = RATE_DEFAULT;
    private long durationSeconds = DURATION_DEFAULT;
    private long seed = SEED_DEFAULT;
    private int runId = -1;
    private int metricsPort = METRICS_PORT_DEFAULT;
    private boolean jvmMetrics = true;
    private long progressIntervalMs = PROGRESS_INTERVAL_DEFAULT_MS;
    private Path hgrmDir;
    private long drainMs = DRAIN_DEFAULT_MS;
    private long connectTimeoutMs = CONNECT_TIMEOUT_DEFAULT_MS;
    private long vwapWindowSeconds = VWAP_WINDOW_DEFAULT_SECONDS;
    private long bookCheckQuietMs = BOOK_CHECK_QUIET_DEFAULT_MS;
    private PrintStream out = System.out;
    private Credentials credentials;
    private SymbolDirectory symbolDirectory;
    private Supplier<IdleStrategy> idleStrategySupplier = () -> AgentLaunch.idleStrategy(new Settings(Map.of()));
    private ThreadAffinity threadAffinity = ThreadAffinity.NONE;
    private List<Credentials.User> orderEntryUsers;
    private List<Credentials.User> marketDataUsers;

    /**
     * @param settings where to read the settings.
     * @return a context filled from the settings.
     * @throws UncheckedIOException     when the credentials file cannot be read.
     * @throws IllegalStateException    when both credential settings are set.
     * @throws IllegalArgumentException for a malformed credentials record.
     */
    public static SimulatorContext fromSettings(final Settings settings)
    {
        final Credentials credentials;
        try
        {
            credentials = Credentials.fromSettings(settings);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(Credentials.FILE_PROP_NAME + ": cannot read " +
                settings.get(Credentials.FILE_PROP_NAME, Credentials.FILE_DEFAULT), ex);
        }
        final String hgrmDir = settings.get(HGRM_DIR_PROP_NAME, "");
        return new SimulatorContext()
            .gatewayHost(settings.get(GATEWAY_HOST_PROP_NAME, GATEWAY_HOST_DEFAULT))
            .gatewayPort(settings.getInt(GATEWAY_PORT_PROP_NAME, GATEWAY_PORT_DEFAULT))
            .fanoutHost(settings.get(FANOUT_HOST_PROP_NAME, FANOUT_HOST_DEFAULT))
            .fanoutPort(settings.getInt(FANOUT_PORT_PROP_NAME, FANOUT_PORT_DEFAULT))
            .sessions(settings.getInt(SESSIONS_PROP_NAME, SESSIONS_DEFAULT))
            .users(names(settings.get(USERS_PROP_NAME, "")))
            .mdSessions(settings.getInt(MD_SESSIONS_PROP_NAME, MD_SESSIONS_DEFAULT))
            .mdUsers(names(settings.get(MD_USERS_PROP_NAME, "")))
            .mdFeed(mdFeed(settings))
            .moldGroup(settings.get(MD_MOLD_GROUP_PROP_NAME, MD_MOLD_GROUP_DEFAULT))
            .moldPort(settings.getInt(MD_MOLD_PORT_PROP_NAME, MD_MOLD_PORT_DEFAULT))
            .moldInterface(settings.get(MD_MOLD_INTERFACE_PROP_NAME, MD_MOLD_INTERFACE_DEFAULT))
            .moldRequestHost(settings.get(MD_MOLD_REQUEST_HOST_PROP_NAME, MD_MOLD_REQUEST_HOST_DEFAULT))
            .moldRequestPort(settings.getInt(MD_MOLD_REQUEST_PORT_PROP_NAME, MD_MOLD_REQUEST_PORT_DEFAULT))
            .rate(settings.getLong(RATE_PROP_NAME, RATE_DEFAULT))
            .durationSeconds(settings.getLong(DURATION_PROP_NAME, DURATION_DEFAULT))
            .seed(settings.getLong(SEED_PROP_NAME, SEED_DEFAULT))
            .metricsPort(settings.getInt(METRICS_PORT_PROP_NAME, METRICS_PORT_DEFAULT))
            .jvmMetrics(MetricsServer.jvmMetrics(settings))
            .progressIntervalMs(settings.getLong(PROGRESS_INTERVAL_PROP_NAME, PROGRESS_INTERVAL_DEFAULT_MS))
            .hgrmDir(hgrmDir.isBlank() ? null : Path.of(hgrmDir.trim()))
            .drainMs(settings.getLong(DRAIN_PROP_NAME, DRAIN_DEFAULT_MS))
            .connectTimeoutMs(settings.getLong(CONNECT_TIMEOUT_PROP_NAME, CONNECT_TIMEOUT_DEFAULT_MS))
            .vwapWindowSeconds(settings.getLong(VWAP_WINDOW_PROP_NAME, VWAP_WINDOW_DEFAULT_SECONDS))
            .bookCheckQuietMs(settings.getLong(BOOK_CHECK_QUIET_PROP_NAME, BOOK_CHECK_QUIET_DEFAULT_MS))
            .scenario(scenario(settings))
            .hawkesAlpha(getDouble(settings, HAWKES_ALPHA_PROP_NAME, HAWKES_ALPHA_DEFAULT))
            .hawkesBeta(getDouble(settings, HAWKES_BETA_PROP_NAME, HAWKES_BETA_DEFAULT))
            .burstSize(settings.getInt(BURST_SIZE_PROP_NAME, BURST_SIZE_DEFAULT))
            .burstRate(settings.getLong(BURST_RATE_PROP_NAME, BURST_RATE_DEFAULT))
            .zipfExponent(getDouble(settings, ZIPF_EXPONENT_PROP_NAME, ZIPF_EXPONENT_DEFAULT))
            .bookTarget(settings.getInt(BOOK_TARGET_PROP_NAME, BOOK_TARGET_DEFAULT))
            .rampStep(settings.getLong(RAMP_STEP_PROP_NAME, 0))
            .rampMax(settings.getLong(RAMP_MAX_PROP_NAME, 0))
            .rampIntervalMs(settings.getLong(RAMP_INTERVAL_PROP_NAME, RAMP_INTERVAL_DEFAULT_MS))
            .rampP99LimitUs(settings.getLong(RAMP_P99_LIMIT_PROP_NAME, RAMP_P99_LIMIT_DEFAULT_US))
            .credentials(credentials)
            .symbolDirectory(SymbolDirectory.fromSettings(settings))
            .idleStrategySupplier(() -> AgentLaunch.idleStrategy(settings))
            .threadAffinity(ThreadAffinity.fromSettings(settings));
    }

    /**
     * Checks the settings and resolves the users of the sessions.
     *
     * @return this.
     * @throws IllegalStateException naming the bad setting.
     */
    public SimulatorContext conclude()
    {
        if (null == credentials || null == symbolDirectory || null == out)
        {
            throw new IllegalStateException("credentials (" + Credentials.PROP_NAME + " or " +
                Credentials.FILE_PROP_NAME + "), symbolDirectory (" +
                SymbolDirectory.SYMBOLS_PROP_NAME + ") and out are required");
        }
        if (null == idleStrategySupplier)
        {
            throw new IllegalStateException("idleStrategySupplier is required");
        }
        requirePort(GATEWAY_PORT_PROP_NAME, gatewayPort);
        requirePort(FANOUT_PORT_PROP_NAME, fanoutPort);
        checkRange(SESSIONS_PROP_NAME, sessions, 1, OrderTokens.MAX_SESSION_INDEX + 1);
        checkRange(MD_SESSIONS_PROP_NAME, mdSessions, 0, 64);
        if (null == mdFeed)
        {
            throw new IllegalStateException(MD_FEED_PROP_NAME + " is required");
        }
        requirePort(MD_MOLD_PORT_PROP_NAME, moldPort);
        requirePort(MD_MOLD_REQUEST_PORT_PROP_NAME, moldRequestPort);
        if (MarketDataFeed.MOLDUDP64 == mdFeed)
        {
            resolveMold();
        }
        checkRange(RATE_PROP_NAME, rate, 1, 10_000_000);
        checkRange(DURATION_PROP_NAME, durationSeconds, 0, 86_400);
        checkRange(PROGRESS_INTERVAL_PROP_NAME, progressIntervalMs, 0, 3_600_000);
        checkRange(DRAIN_PROP_NAME, drainMs, 0, 60_000);
        checkRange(CONNECT_TIMEOUT_PROP_NAME, connectTimeoutMs, 1, 600_000);
        checkRange(VWAP_WINDOW_PROP_NAME, vwapWindowSeconds, 1, 86_400);
        checkRange(BOOK_CHECK_QUIET_PROP_NAME, bookCheckQuietMs, 0, 60_000);
        if (null == scenario)
        {
            throw new IllegalStateException(SCENARIO_PROP_NAME + " is required");
        }
        if (!(hawkesAlpha > 0.0) || !(hawkesBeta > hawkesAlpha) || Double.isInfinite(hawkesBeta))
        {
            throw new IllegalStateException(HAWKES_ALPHA_PROP_NAME + " and " + HAWKES_BETA_PROP_NAME +
                " must satisfy 0 < alpha < beta: alpha=" + hawkesAlpha + " beta=" + hawkesBeta);
        }
        checkRange(BURST_SIZE_PROP_NAME, burstSize, 1, 1_000_000);
        if (Scenario.MICROBURST == scenario)
        {
            checkRange(BURST_RATE_PROP_NAME, burstRate, rate, 1_000_000_000);
        }
        if (!(zipfExponent >= 0.0) || zipfExponent > 10.0)
        {
            throw new IllegalStateException(ZIPF_EXPONENT_PROP_NAME + " must be 0..10: " + zipfExponent);
        }
        checkRange(BOOK_TARGET_PROP_NAME, bookTarget, 1, OrderEntrySession.OPEN_ORDERS_CAPACITY);
        if (Scenario.EXCHANGE_CORE == scenario && sessionBookTarget() > OrderEntrySession.OPEN_ORDERS_CAPACITY)
        {
            throw new IllegalStateException(BOOK_TARGET_PROP_NAME + " " + bookTarget + " on " +
                symbolDirectory.entries().size() + " symbols needs " + sessionBookTarget() + " resting orders per " +
                "OUCH session, above the " + OrderEntrySession.OPEN_ORDERS_CAPACITY + " a session tracks: " +
                "use more sessions or a lower target");
        }
        rampStep = 0 == rampStep ? rate : rampStep;
        rampMax = 0 == rampMax ? Math.min(10_000_000, 20 * rate) : rampMax;
        checkRange(RAMP_STEP_PROP_NAME, rampStep, 1, 10_000_000);
        checkRange(RAMP_MAX_PROP_NAME, rampMax, rate, 10_000_000);
        checkRange(RAMP_INTERVAL_PROP_NAME, rampIntervalMs, 100, 3_600_000);
        checkRange(RAMP_P99_LIMIT_PROP_NAME, rampP99LimitUs, 1, 3_600_000_000L);
        checkPort(METRICS_PORT_PROP_NAME, metricsPort);
        if (runId < 0)
        {
            runId = OrderTokens.runIdAt(System.currentTimeMillis());
        }
        checkRange("runId", runId, 0, OrderTokens.MAX_RUN_ID);
        final List<Credentials.User> all = credentials.users();
        orderEntryUsers = resolve(USERS_PROP_NAME, users, sessions, all.subList(0, Math.min(sessions, all.size())));
        marketDataUsers = resolve(MD_USERS_PROP_NAME, mdUsers, mdSessions,
            all.subList(Math.max(0, all.size() - mdSessions), all.size()));
        return this;
    }

    private void resolveMold()
    {
        final InetAddress group = address(MD_MOLD_GROUP_PROP_NAME, moldGroup);
        if (!group.isMulticastAddress() || group.getAddress().length != 4)
        {
            throw new IllegalStateException(MD_MOLD_GROUP_PROP_NAME + " must be an IPv4 multicast group: " +
                moldGroup);
        }
        moldGroupAddress = new InetSocketAddress(group, moldPort);
        moldInterfaceAddress = address(MD_MOLD_INTERFACE_PROP_NAME, moldInterface);
        try
        {
            if (null == NetworkInterface.getByInetAddress(moldInterfaceAddress))
            {
                throw new IllegalStateException(MD_MOLD_INTERFACE_PROP_NAME + " must be the address of a local " +
                    "interface: " + moldInterface);
            }
        }
        catch (final SocketException ex)
        {
            throw new IllegalStateException(MD_MOLD_INTERFACE_PROP_NAME + ": cannot list the local interfaces", ex);
        }
        moldRequestAddress = new InetSocketAddress(
            address(MD_MOLD_REQUEST_HOST_PROP_NAME, moldRequestHost), moldRequestPort);
    }

    private static InetAddress address(final String propName, final String host)
    {
        try
        {
            return InetAddress.getByName(host.trim());
        }
        catch (final UnknownHostException | RuntimeException ex)
        {
            throw new IllegalStateException(propName + " is not a known host or address: " + host, ex);
        }
    }

    private List<Credentials.User> resolve(
        final String propName, final List<String> names, final int count, final List<Credentials.User> defaults)
    {
        if (names.isEmpty())
        {
            if (defaults.size() < count)
            {
                throw new IllegalStateException(propName + ": " + count + " sessions need " + count +
                    " users but the credentials have " + defaults.size());
            }
            return List.copyOf(defaults);
        }
        if (names.size() < count)
        {
            throw new IllegalStateException(propName + " names " + names.size() + " users for " + count +
                " sessions: " + names);
        }
        final List<Credentials.User> resolved = new ArrayList<>();
        for (final String name : names.subList(0, count))
        {
            final Credentials.User user = find(name);
            if (null == user)
            {
                throw new IllegalStateException(propName + ": user '" + name + "' is not in the credentials");
            }
            resolved.add(user);
        }
        return List.copyOf(resolved);
    }

    private Credentials.User find(final String name)
    {
        for (final Credentials.User user : credentials.users())
        {
            if (user.username().equals(name))
            {
                return user;
            }
        }
        return null;
    }

    private static Scenario scenario(final Settings settings)
    {
        try
        {
            return Scenario.of(settings.get(SCENARIO_PROP_NAME, SCENARIO_DEFAULT.settingName()));
        }
        catch (final IllegalArgumentException ex)
        {
            throw new IllegalStateException(SCENARIO_PROP_NAME + ": " + ex.getMessage(), ex);
        }
    }

    private static MarketDataFeed mdFeed(final Settings settings)
    {
        try
        {
            return MarketDataFeed.of(settings.get(MD_FEED_PROP_NAME, MD_FEED_DEFAULT.settingName()));
        }
        catch (final IllegalArgumentException ex)
        {
            throw new IllegalStateException(MD_FEED_PROP_NAME + ": " + ex.getMessage(), ex);
        }
    }

    private static double getDouble(final Settings settings, final String propName, final double defaultValue)
    {
        final String value = settings.get(propName, "").trim();
        try
        {
            return value.isEmpty() ? defaultValue : Double.parseDouble(value);
        }
        catch (final NumberFormatException ex)
        {
            throw new IllegalStateException(propName + " must be a number: " + value, ex);
        }
    }

    private static List<String> names(final String commaList)
    {
        return Arrays.stream(commaList.split(",")).map(String::trim).filter((s) -> !s.isEmpty()).toList();
    }

    private static void requirePort(final String propName, final int port)
    {
        checkRange(propName, port, 1, SettingChecks.MAX_PORT);
    }

    /** @return order gateway host. */
    public String gatewayHost()
    {
        return gatewayHost;
    }

    /**
     * @param gatewayHost order gateway host.
     * @return this.
     */
    public SimulatorContext gatewayHost(final String gatewayHost)
    {
        this.gatewayHost = gatewayHost;
        return this;
    }

    /** @return order gateway OUCH port. */
    public int gatewayPort()
    {
        return gatewayPort;
    }

    /**
     * @param gatewayPort order gateway OUCH port.
     * @return this.
     */
    public SimulatorContext gatewayPort(final int gatewayPort)
    {
        this.gatewayPort = gatewayPort;
        return this;
    }

    /** @return fanout host. */
    public String fanoutHost()
    {
        return fanoutHost;
    }

    /**
     * @param fanoutHost fanout host.
     * @return this.
     */
    public SimulatorContext fanoutHost(final String fanoutHost)
    {
        this.fanoutHost = fanoutHost;
        return this;
    }

    /** @return fanout ITCH port. */
    public int fanoutPort()
    {
        return fanoutPort;
    }

    /**
     * @param fanoutPort fanout ITCH port.
     * @return this.
     */
    public SimulatorContext fanoutPort(final int fanoutPort)
    {
        this.fanoutPort = fanoutPort;
        return this;
    }

    /** @return number of OUCH sessions. */
    public int sessions()
    {
        return sessions;
    }

    /**
     * @param sessions number of OUCH sessions, at least 1.
     * @return this.
     */
    public SimulatorContext sessions(final int sessions)
    {
        this.sessions = sessions;
        return this;
    }

    /** @return usernames of the OUCH sessions; empty = the first users of the credentials file. */
    public List<String> users()
    {
        return users;
    }

    /**
     * @param users usernames of the OUCH sessions; empty = the first users of the credentials file.
     * @return this.
     */
    public SimulatorContext users(final List<String> users)
    {
        this.users = List.copyOf(users);
        return this;
    }

    /** @return number of market-data sessions. */
    public int mdSessions()
    {
        return mdSessions;
    }

    /**
     * @param mdSessions number of market-data sessions, 0 for none.
     * @return this.
     */
    public SimulatorContext mdSessions(final int mdSessions)
    {
        this.mdSessions = mdSessions;
        return this;
    }

    /** @return usernames of the market-data sessions; empty = the last users of the credentials file. */
    public List<String> mdUsers()
    {
        return mdUsers;
    }

    /**
     * @param mdUsers usernames of the market-data sessions; empty = the last users of the credentials file.
     * @return this.
     */
    public SimulatorContext mdUsers(final List<String> mdUsers)
    {
        this.mdUsers = List.copyOf(mdUsers);
        return this;
    }

    /** @return the feed the market-data sessions read. */
    public MarketDataFeed mdFeed()
    {
        return mdFeed;
    }

    /**
     * @param mdFeed the feed the market-data sessions read.
     * @return this.
     */
    public SimulatorContext mdFeed(final MarketDataFeed mdFeed)
    {
        this.mdFeed = mdFeed;
        return this;
    }

    /** @return IPv4 multicast group of the MoldUDP64 feed. */
    public String moldGroup()
    {
        return moldGroup;
    }

    /**
     * @param moldGroup IPv4 multicast group of the MoldUDP64 feed, e.g. {@value #MD_MOLD_GROUP_DEFAULT}.
     * @return this.
     */
    public SimulatorContext moldGroup(final String moldGroup)
    {
        this.moldGroup = moldGroup;
        return this;
    }

    /** @return UDP port of the MoldUDP64 group. */
    public int moldPort()
    {
        return moldPort;
    }

    /**
     * @param moldPort UDP port of the MoldUDP64 group, 1..65535.
     * @return this.
     */
    public SimulatorContext moldPort(final int moldPort)
    {
        this.moldPort = moldPort;
        return this;
    }

    /** @return IPv4 address of the interface that joins the MoldUDP64 group. */
    public String moldInterface()
    {
        return moldInterface;
    }

    /**
     * @param moldInterface IPv4 address of the local interface that joins the group and sends the Request Packets.
     * @return this.
     */
    public SimulatorContext moldInterface(final String moldInterface)
    {
        this.moldInterface = moldInterface;
        return this;
    }

    /** @return host of the md-publisher's MoldUDP64 re-request server. */
    public String moldRequestHost()
    {
        return moldRequestHost;
    }

    /**
     * @param moldRequestHost host of the md-publisher's MoldUDP64 re-request server.
     * @return this.
     */
    public SimulatorContext moldRequestHost(final String moldRequestHost)
    {
        this.moldRequestHost = moldRequestHost;
        return this;
    }

    /** @return UDP port of the md-publisher's MoldUDP64 re-request server. */
    public int moldRequestPort()
    {
        return moldRequestPort;
    }

    /**
     * @param moldRequestPort UDP port of the md-publisher's MoldUDP64 re-request server, 1..65535.
     * @return this.
     */
    public SimulatorContext moldRequestPort(final int moldRequestPort)
    {
        this.moldRequestPort = moldRequestPort;
        return this;
    }

    /** @return the MoldUDP64 group and port; set by {@link #conclude()} for {@link MarketDataFeed#MOLDUDP64}. */
    InetSocketAddress moldGroupAddress()
    {
        return moldGroupAddress;
    }

    /** @return the MoldUDP64 interface; set by {@link #conclude()} for {@link MarketDataFeed#MOLDUDP64}. */
    InetAddress moldInterfaceAddress()
    {
        return moldInterfaceAddress;
    }

    /** @return the re-request server; set by {@link #conclude()} for {@link MarketDataFeed#MOLDUDP64}. */
    InetSocketAddress moldRequestAddress()
    {
        return moldRequestAddress;
    }

    /** @return target orders per second over all sessions. */
    public long rate()
    {
        return rate;
    }

    /**
     * @param rate target orders per second over all sessions.
     * @return this.
     */
    public SimulatorContext rate(final long rate)
    {
        this.rate = rate;
        return this;
    }

    /** @return duration in seconds, 0 = until stopped. */
    public long durationSeconds()
    {
        return durationSeconds;
    }

    /**
     * @param durationSeconds duration in seconds, 0 = until stopped.
     * @return this.
     */
    public SimulatorContext durationSeconds(final long durationSeconds)
    {
        this.durationSeconds = durationSeconds;
        return this;
    }

    /** @return random seed of the order flow. */
    public long seed()
    {
        return seed;
    }

    /**
     * @param seed random seed of the order flow.
     * @return this.
     */
    public SimulatorContext seed(final long seed)
    {
        this.seed = seed;
        return this;
    }

    /** @return run id in the order tokens; -1 until {@link #conclude()} picks {@link OrderTokens#runIdAt} of now. */
    public int runId()
    {
        return runId;
    }

    /**
     * @param runId run id in the order tokens, 0..{@value OrderTokens#MAX_RUN_ID}; runs on the same day against
     *              the same gateway need different ids.
     * @return this.
     */
    public SimulatorContext runId(final int runId)
    {
        this.runId = runId;
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
    public SimulatorContext metricsPort(final int metricsPort)
    {
        this.metricsPort = metricsPort;
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
    public SimulatorContext jvmMetrics(final boolean jvmMetrics)
    {
        this.jvmMetrics = jvmMetrics;
        return this;
    }

    /** @return interval of the progress line in ms, 0 = none. */
    public long progressIntervalMs()
    {
        return progressIntervalMs;
    }

    /**
     * @param progressIntervalMs interval of the progress line in ms, 0 = none.
     * @return this.
     */
    public SimulatorContext progressIntervalMs(final long progressIntervalMs)
    {
        this.progressIntervalMs = progressIntervalMs;
        return this;
    }

    /** @return directory for the .hgrm files, or null for none. */
    public Path hgrmDir()
    {
        return hgrmDir;
    }

    /**
     * @param hgrmDir directory for the .hgrm files (created if missing), or null for none.
     * @return this.
     */
    public SimulatorContext hgrmDir(final Path hgrmDir)
    {
        this.hgrmDir = hgrmDir;
        return this;
    }

    /** @return longest wait in ms for responses to in-flight orders after the last order. */
    public long drainMs()
    {
        return drainMs;
    }

    /**
     * @param drainMs longest wait in ms for responses to in-flight orders after the last order.
     * @return this.
     */
    public SimulatorContext drainMs(final long drainMs)
    {
        this.drainMs = drainMs;
        return this;
    }

    /** @return the window of the rolling VWAP in seconds of ITCH time. */
    public long vwapWindowSeconds()
    {
        return vwapWindowSeconds;
    }

    /**
     * @param vwapWindowSeconds the window of the rolling VWAP in seconds of ITCH time.
     * @return this.
     */
    public SimulatorContext vwapWindowSeconds(final long vwapWindowSeconds)
    {
        this.vwapWindowSeconds = vwapWindowSeconds;
        return this;
    }

    /** @return quiet period in ms of the feed before the end-of-run book check; 0 = no book check. */
    public long bookCheckQuietMs()
    {
        return bookCheckQuietMs;
    }

    /**
     * @param bookCheckQuietMs quiet period in ms of the feed before the end-of-run book check; 0 = no book check.
     * @return this.
     */
    public SimulatorContext bookCheckQuietMs(final long bookCheckQuietMs)
    {
        this.bookCheckQuietMs = bookCheckQuietMs;
        return this;
    }

    /** @return how long in ms to keep trying to connect and log in. */
    public long connectTimeoutMs()
    {
        return connectTimeoutMs;
    }

    /**
     * @param connectTimeoutMs how long in ms to keep trying to connect and log in.
     * @return this.
     */
    public SimulatorContext connectTimeoutMs(final long connectTimeoutMs)
    {
        this.connectTimeoutMs = connectTimeoutMs;
        return this;
    }

    /** @return where progress lines go. */
    public PrintStream out()
    {
        return out;
    }

    /**
     * @param out where progress lines go.
     * @return this.
     */
    public SimulatorContext out(final PrintStream out)
    {
        this.out = out;
        return this;
    }

    /** @return the users who may log in. */
    public Credentials credentials()
    {
        return credentials;
    }

    /**
     * @param credentials the users who may log in (the same file the gateway and the fanout use).
     * @return this.
     */
    public SimulatorContext credentials(final Credentials credentials)
    {
        this.credentials = credentials;
        return this;
    }

    /** @return the symbols to trade. */
    public SymbolDirectory symbolDirectory()
    {
        return symbolDirectory;
    }

    /**
     * @param symbolDirectory the symbols to trade.
     * @return this.
     */
    public SimulatorContext symbolDirectory(final SymbolDirectory symbolDirectory)
    {
        this.symbolDirectory = symbolDirectory;
        return this;
    }

    /** @return source of one idle strategy per agent. */
    public Supplier<IdleStrategy> idleStrategySupplier()
    {
        return idleStrategySupplier;
    }

    /**
     * @param idleStrategySupplier source of one idle strategy per agent.
     * @return this.
     */
    public SimulatorContext idleStrategySupplier(final Supplier<IdleStrategy> idleStrategySupplier)
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
    public SimulatorContext threadAffinity(final ThreadAffinity threadAffinity)
    {
        this.threadAffinity = threadAffinity;
        return this;
    }

    /** @return the users of the OUCH sessions, one per session; set by {@link #conclude()}. */
    public List<Credentials.User> orderEntryUsers()
    {
        return orderEntryUsers;
    }

    /** @return the users of the market-data sessions, one per session; set by {@link #conclude()}. */
    public List<Credentials.User> marketDataUsers()
    {
        return marketDataUsers;
    }

    /** @return the load scenario. */
    public Scenario scenario()
    {
        return scenario;
    }

    /**
     * @param scenario the load scenario.
     * @return this.
     */
    public SimulatorContext scenario(final Scenario scenario)
    {
        this.scenario = scenario;
        return this;
    }

    /** @return Hawkes jump of the intensity per order, 1/s. */
    public double hawkesAlpha()
    {
        return hawkesAlpha;
    }

    /**
     * @param hawkesAlpha Hawkes jump of the intensity per order, 1/s.
     * @return this.
     */
    public SimulatorContext hawkesAlpha(final double hawkesAlpha)
    {
        this.hawkesAlpha = hawkesAlpha;
        return this;
    }

    /** @return Hawkes decay rate of the jumps, 1/s. */
    public double hawkesBeta()
    {
        return hawkesBeta;
    }

    /**
     * @param hawkesBeta Hawkes decay rate of the jumps, 1/s.
     * @return this.
     */
    public SimulatorContext hawkesBeta(final double hawkesBeta)
    {
        this.hawkesBeta = hawkesBeta;
        return this;
    }

    /** @return orders per microburst. */
    public int burstSize()
    {
        return burstSize;
    }

    /**
     * @param burstSize orders per microburst.
     * @return this.
     */
    public SimulatorContext burstSize(final int burstSize)
    {
        this.burstSize = burstSize;
        return this;
    }

    /** @return orders per second within a microburst. */
    public long burstRate()
    {
        return burstRate;
    }

    /**
     * @param burstRate orders per second within a microburst.
     * @return this.
     */
    public SimulatorContext burstRate(final long burstRate)
    {
        this.burstRate = burstRate;
        return this;
    }

    /** @return Zipf exponent of symbol popularity (skewed scenario), 0 = uniform. */
    public double zipfExponent()
    {
        return zipfExponent;
    }

    /**
     * @param zipfExponent Zipf exponent of symbol popularity (skewed scenario), 0 = uniform.
     * @return this.
     */
    public SimulatorContext zipfExponent(final double zipfExponent)
    {
        this.zipfExponent = zipfExponent;
        return this;
    }

    /** @return resting orders per symbol the exchange-core scenario holds its book around. */
    public int bookTarget()
    {
        return bookTarget;
    }

    /**
     * @param bookTarget resting orders per symbol the exchange-core scenario holds its book around.
     * @return this.
     */
    public SimulatorContext bookTarget(final int bookTarget)
    {
        this.bookTarget = bookTarget;
        return this;
    }

    /**
     * @return resting orders each OUCH session holds in the exchange-core scenario: the book target of every symbol
     * split over the sessions, rounded up; {@link #conclude()} refuses that scenario when it passes what a session
     * tracks.
     */
    public long sessionBookTarget()
    {
        return ((long)bookTarget * symbolDirectory.entries().size() + sessions - 1) / sessions;
    }

    /** @return orders per second added at each ramp step (0 before conclude() = the starting rate). */
    public long rampStep()
    {
        return rampStep;
    }

    /**
     * @param rampStep orders per second added at each ramp step (0 before conclude() = the starting rate).
     * @return this.
     */
    public SimulatorContext rampStep(final long rampStep)
    {
        this.rampStep = rampStep;
        return this;
    }

    /** @return highest ramp rate in orders per second (0 before conclude() = 20 times the rate). */
    public long rampMax()
    {
        return rampMax;
    }

    /**
     * @param rampMax highest ramp rate in orders per second (0 before conclude() = 20 times the rate).
     * @return this.
     */
    public SimulatorContext rampMax(final long rampMax)
    {
        this.rampMax = rampMax;
        return this;
    }

    /** @return length of a ramp step in ms. */
    public long rampIntervalMs()
    {
        return rampIntervalMs;
    }

    /**
     * @param rampIntervalMs length of a ramp step in ms.
     * @return this.
     */
    public SimulatorContext rampIntervalMs(final long rampIntervalMs)
    {
        this.rampIntervalMs = rampIntervalMs;
        return this;
    }

    /** @return round-trip p99 in microseconds above which the ramp stops. */
    public long rampP99LimitUs()
    {
        return rampP99LimitUs;
    }

    /**
     * @param rampP99LimitUs round-trip p99 in microseconds above which the ramp stops.
     * @return this.
     */
    public SimulatorContext rampP99LimitUs(final long rampP99LimitUs)
    {
        this.rampP99LimitUs = rampP99LimitUs;
        return this;
    }
}
