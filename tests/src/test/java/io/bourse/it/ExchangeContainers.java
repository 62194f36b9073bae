package io.bourse.it;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.model.Bind;
import com.github.dockerjava.api.model.HostConfig;
import com.github.dockerjava.api.model.Volume;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.TestWatcher;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.output.ToStringConsumer;
import org.testcontainers.containers.wait.strategy.Wait;
import org.testcontainers.containers.wait.strategy.WaitStrategy;
import org.testcontainers.lifecycle.Startables;
import org.testcontainers.utility.DockerImageName;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Stream;

/**
 * The exchange as the compose file runs it, for a test class ({@code @RegisterExtension static}): one container per
 * service from the image of the repository's Dockerfile (media driver, engine shards 0 and 1, order gateway and, when
 * asked for, market-data publisher and fan-out, and the simulator sending a continuous order flow), on host networking
 * and the host's IPC namespace, started before the class's tests and stopped after them; the containers' logs are
 * printed when a test fails. The order gateway keeps its session journals in a Docker volume of its own, as in the
 * compose file, so that {@link #restartGateway} starts a new gateway container on the journals of the old one; as in
 * the compose file, the media driver runs the event archive and the engine shards record their event streams in it (in
 * the media driver container's own file system, where the compose file gives it a volume), for the restarted gateway
 * ({@link #restartGateway}) or md-publisher ({@link #restartMdPublisher}) to replay what it did not hear; a restarted
 * fanout ({@link #restartFanout}) takes the md-publisher's books from a snapshot. The services listen on their default
 * TCP ports, so a compose stack must not be running on the same host, and test classes using this extension must not
 * run in parallel. Each service but the simulator counts as started once the compose file's health check passes in its
 * container ({@code deploy/ready.sh}: the service's {@code /ready} answers 200, and the gateway's and the fanout's
 * client port opens).
 */
final class ExchangeContainers implements BeforeAllCallback, AfterAllCallback, TestWatcher
{
    /** OUCH 4.2 over SoupBinTCP, order gateway. */
    static final int OUCH_PORT = 15000;
    /** ITCH 5.0 over SoupBinTCP, fan-out. */
    static final int ITCH_PORT = 16000;
    /** Prometheus endpoint (and {@code /ready}) of the order gateway. */
    static final int GATEWAY_METRICS_PORT = 9401;
    private static final int DRIVER_METRICS_PORT = 9400;
    private static final int MD_PUBLISHER_METRICS_PORT = 9402;
    private static final int FANOUT_METRICS_PORT = 9403;
    /** Of engine shard 0; shard n's is this + n. */
    private static final int ENGINE_METRICS_PORT = 9410;

    private static final String AERON_DIR = "/dev/shm/aeron-bourse-it";
    /** The compose file's mount point of the gateway-journal volume. */
    private static final String JOURNAL_DIR = "/var/lib/bourse/gateway-journal";
    private static final String GATEWAY = "order-gateway";
    private static final String MD_PUBLISHER = "md-publisher";
    private static final String FANOUT = "fanout";
    private static final Duration STARTUP_TIMEOUT = Duration.ofSeconds(120);
    private static final int STOP_TIMEOUT_SECONDS = 10;
    /** Orders per second over all of the simulator's sessions: load that a 2-core host carries beside the tests. */
    private static final String SIMULATOR_RATE = "200";
    /** The compose file's health check in the image; the ports it asks follow. */
    private static final String READY_CHECK = "bash /opt/bourse/deploy/ready.sh";
    /** The simulator's first progress line: its sessions are logged in and it is sending orders. */
    private static final String SIMULATOR_SENDING_LOG = "(?s).*\\] sent .*";

    private final boolean marketData;
    private final boolean simulator;
    /** Containers by name, in start order, with the log output each one produced. */
    private final Map<String, GenericContainer<?>> containers = new LinkedHashMap<>();
    private final Map<String, ToStringConsumer> logs = new LinkedHashMap<>();
    private DockerImageName image;
    private String journalVolume;
    private String sessionName;
    /** The engine shards' containers by shard id, each the one started last. */
    private final GenericContainer<?>[] engines = new GenericContainer<?>[2];
    private int engineStarts;
    private GenericContainer<?> gateway;
    private int gatewayStarts;
    private GenericContainer<?> mdPublisher;
    private int mdPublisherStarts;
    private GenericContainer<?> fanout;
    private int fanoutStarts;

    private ExchangeContainers(final boolean marketData, final boolean simulator)
    {
        this.marketData = marketData;
        this.simulator = simulator;
    }

    /** @return every service, market data included: an ITCH 5.0 subscriber can log in on {@link #ITCH_PORT}. */
    static ExchangeContainers withMarketData()
    {
        return new ExchangeContainers(true, false);
    }

    /** @return the services that order entry needs: media driver, both engine shards and the order gateway. */
    static ExchangeContainers orderEntryOnly()
    {
        return new ExchangeContainers(false, false);
    }

    /**
     * @return every service, market data included, and the simulator (as in the compose file, its metrics on port
     * 9404) sending {@value #SIMULATOR_RATE} orders per second until the class's tests end, started once it sends.
     */
    static ExchangeContainers withLoad()
    {
        return new ExchangeContainers(true, true);
    }

    /**
     * Builds the image (a cache hit when nothing changed) and starts the services in dependency order; on failure
     * prints their logs.
     *
     * @param context the test class.
     */
    @Override
    public void beforeAll(final ExtensionContext context)
    {
        image = DockerImageName.parse(BourseImage.build());
        journalVolume = "bourse-it-gateway-journal-" + UUID.randomUUID();
        // One session name for every gateway container of the class, also when a restart crosses midnight UTC.
        sessionName = LocalDate.now(ZoneOffset.UTC).format(DateTimeFormatter.BASIC_ISO_DATE);
        try
        {
            start(service("media-driver", "media-driver", Map.of(), ready(DRIVER_METRICS_PORT)));
            for (int shard = 0; shard < engines.length; shard++)
            {
                engines[shard] = newEngine(shard);
            }
            start(engines);
            gateway = newGateway();
            if (marketData)
            {
                mdPublisher = newMdPublisher();
                start(gateway, mdPublisher);
                fanout = newFanout();
                start(fanout);
            }
            else
            {
                start(gateway);
            }
            if (simulator)
            {
                start(service("simulator", "simulator",
                    Map.of("BOURSE_SIMULATOR_RATE", SIMULATOR_RATE, "BOURSE_SIMULATOR_DURATION", "0"),
                    Wait.forLogMessage(SIMULATOR_SENDING_LOG, 1)));
            }
        }
        catch (final RuntimeException ex)
        {
            dumpLogs("start-up");
            throw ex; // JUnit still calls afterAll, which stops what started
        }
    }

    /**
     * Stops the services in the compose file's stop order, each with SIGTERM first so that it closes cleanly (the media
     * driver then deletes its Aeron directory from /dev/shm), removes the containers and the journal volume. That order
     * is the reverse start order but for the gateway, the md-publisher and the fanout, which stop in the order the
     * stop's own data flows (the fanout starts last here only because its health waits for the md-publisher's books).
     *
     * @param context the test class.
     */
    @Override
    public void afterAll(final ExtensionContext context)
    {
        final List<String> stopOrder = new ArrayList<>(containers.keySet());
        Collections.reverse(stopOrder);
        final List<String> dataFlow = Stream.of(GATEWAY, MD_PUBLISHER, FANOUT).filter(stopOrder::contains).toList();
        if (!dataFlow.isEmpty())
        {
            final int first = dataFlow.stream().mapToInt(stopOrder::indexOf).min().orElseThrow();
            stopOrder.removeAll(dataFlow);
            stopOrder.addAll(first, dataFlow);
        }
        for (final String name : stopOrder)
        {
            stop(containers.get(name));
        }
        containers.clear();
        if (null != journalVolume)
        {
            final DockerClient docker = DockerClientFactory.instance().client();
            if (!docker.listVolumesCmd().withFilter("name", List.of(journalVolume)).exec().getVolumes().isEmpty())
            {
                docker.removeVolumeCmd(journalVolume).exec();
            }
            journalVolume = null;
        }
    }

    @Override
    public void testFailed(final ExtensionContext context, final Throwable cause)
    {
        dumpLogs(context.getDisplayName());
    }

    /**
     * Stops the order gateway as {@code docker compose restart} would (SIGTERM: it ends every session with End of
     * Session) and starts a new gateway container on the same journal volume.
     */
    void restartGateway()
    {
        stop(gateway);
        gateway = newGateway();
        start(gateway);
    }

    /**
     * Stops an engine shard as {@code docker compose restart} would (SIGTERM: it closes its event stream, whose
     * recording the event archive stops) and starts a new container of the shard, which is ready once it has
     * recovered its state from the recordings of its earlier runs.
     *
     * @param shard the shard id, 0 or 1.
     */
    void restartEngine(final int shard)
    {
        stop(engines[shard]);
        engines[shard] = newEngine(shard);
        start(engines[shard]);
    }

    /**
     * Kills an engine shard's container ({@code docker kill}, SIGKILL: no shutdown, its Aeron client and its
     * publications left to the media driver's client liveness timeout) and starts a new engine container, which is
     * ready once it has recovered the shard's state from the event archive.
     *
     * @param shard the shard.
     */
    void killEngine(final int shard)
    {
        final GenericContainer<?> engine = engines[shard];
        engine.getDockerClient().killContainerCmd(engine.getContainerId()).exec();
        engine.stop();
        engines[shard] = newEngine(shard);
        start(engines[shard]);
    }

    /**
     * Stops the md-publisher as {@code docker compose restart} would and starts a new md-publisher container, which is
     * ready once it has caught every engine shard's event stream up from the event archive.
     */
    void restartMdPublisher()
    {
        stop(mdPublisher);
        mdPublisher = newMdPublisher();
        start(mdPublisher);
    }

    /**
     * Stops the fanout as {@code docker compose restart} would (SIGTERM) and starts a new fanout container, which is
     * ready once it has the md-publisher's books from a snapshot and its ITCH port is open.
     */
    void restartFanout()
    {
        stop(fanout);
        fanout = newFanout();
        start(fanout);
    }

    /** @return the md-publisher's container, the one started last. */
    GenericContainer<?> mdPublisher()
    {
        return mdPublisher;
    }

    /** @return the order gateway's container, the one started last. */
    GenericContainer<?> gateway()
    {
        return gateway;
    }

    /**
     * Reads one sample of the order gateway's Prometheus endpoint, or the sum of a metric's samples.
     *
     * @param sample a metric name with its labels as exposed, e.g. {@code bourse_gateway_sessions} or
     *               {@code bourse_gateway_errors_total{kind="wrong_length"}}; a name alone of a metric with labels,
     *               e.g. {@code bourse_gateway_errors_total}, sums its samples over every label value.
     * @return its value.
     * @throws IOException          when the endpoint cannot be read.
     * @throws InterruptedException when interrupted meanwhile.
     * @throws AssertionError       when the endpoint fails or the sample is missing.
     */
    double gatewayMetric(final String sample) throws IOException, InterruptedException
    {
        final HttpResponse<String> response;
        try (HttpClient http = HttpClient.newHttpClient())
        {
            response = http.send(
                HttpRequest.newBuilder(URI.create("http://localhost:" + GATEWAY_METRICS_PORT + "/metrics")).build(),
                HttpResponse.BodyHandlers.ofString());
        }
        if (200 != response.statusCode())
        {
            throw new AssertionError("gateway /metrics answered " + response.statusCode());
        }
        final List<String> lines = response.body().lines()
            .filter((line) -> line.startsWith(sample + " ") || !sample.contains("{") && line.startsWith(sample + "{"))
            .toList();
        if (lines.isEmpty())
        {
            throw new AssertionError("no " + sample + " in the gateway's /metrics");
        }
        return lines.stream().mapToDouble((line) -> Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1)))
            .sum();
    }

    private GenericContainer<?> newMdPublisher()
    {
        mdPublisherStarts++;
        final String name = 1 == mdPublisherStarts ? MD_PUBLISHER : MD_PUBLISHER + "-" + mdPublisherStarts;
        return service(name, "md-publisher", Map.of(), ready(MD_PUBLISHER_METRICS_PORT));
    }

    private GenericContainer<?> newFanout()
    {
        fanoutStarts++;
        final String name = 1 == fanoutStarts ? FANOUT : FANOUT + "-" + fanoutStarts;
        return service(name, "fanout", Map.of(), ready(FANOUT_METRICS_PORT, ITCH_PORT));
    }

    private GenericContainer<?> newEngine(final int shard)
    {
        engineStarts++;
        final String name = "engine-" + shard + (engineStarts > engines.length ? "-" + engineStarts : "");
        return service(name, "engine", Map.of("BOURSE_ENGINE_SHARD", Integer.toString(shard)),
            ready(ENGINE_METRICS_PORT + shard));
    }

    private GenericContainer<?> newGateway()
    {
        gatewayStarts++;
        final String name = 1 == gatewayStarts ? GATEWAY : GATEWAY + "-" + gatewayStarts;
        return service(name, "gateway",
            Map.of("BOURSE_GATEWAY_JOURNAL_DIR", JOURNAL_DIR, "BOURSE_GATEWAY_SESSION", sessionName),
            ready(GATEWAY_METRICS_PORT, OUCH_PORT), new Bind(journalVolume, new Volume(JOURNAL_DIR)));
    }

    /**
     * @param ports the service's metrics port, then the client port it listens on, if any.
     * @return a wait until the compose file's health check with those ports exits 0 in the container.
     */
    private static WaitStrategy ready(final int... ports)
    {
        final StringBuilder command = new StringBuilder(READY_CHECK);
        for (final int port : ports)
        {
            command.append(' ').append(port);
        }
        return Wait.forSuccessfulCommand(command.toString());
    }

    private GenericContainer<?> service(
        final String name,
        final String command,
        final Map<String, String> environment,
        final WaitStrategy readiness,
        final Bind... volumes)
    {
        final ToStringConsumer log = new ToStringConsumer();
        logs.put(name, log);
        final GenericContainer<?> container = new GenericContainer<>(image)
            .withCommand(command)
            .withNetworkMode("host")
            .withCreateContainerCmdModifier((cmd) ->
            {
                final HostConfig hostConfig = null == cmd.getHostConfig() ? new HostConfig() : cmd.getHostConfig();
                hostConfig.withNetworkMode("host").withIpcMode("host");
                if (volumes.length > 0)
                {
                    hostConfig.withBinds(volumes);
                }
                cmd.withHostConfig(hostConfig);
            })
            .withEnv("BOURSE_AERON_DIR", AERON_DIR)
            .withEnv("BOURSE_ARCHIVE_ENABLED", "true")
            .withEnv("JAVA_TOOL_OPTIONS", "-Xmx256m")
            .withEnv(environment)
            .withLogConsumer(log)
            .waitingFor(readiness.withStartupTimeout(STARTUP_TIMEOUT));
        containers.put(name, container);
        return container;
    }

    private static void start(final GenericContainer<?>... services)
    {
        Startables.deepStart(services).join();
    }

    private static void stop(final GenericContainer<?> container)
    {
        if (container.isRunning())
        {
            container.getDockerClient().stopContainerCmd(container.getContainerId())
                .withTimeout(STOP_TIMEOUT_SECONDS).exec();
        }
        container.stop();
    }

    private void dumpLogs(final String failed)
    {
        System.err.println("==== " + failed + " failed; container logs follow");
        logs.forEach((name, log) ->
        {
            System.err.println("==== " + name);
            System.err.println(log.toUtf8String());
        });
    }
}
