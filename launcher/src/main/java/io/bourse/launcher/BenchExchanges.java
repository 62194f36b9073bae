package io.bourse.launcher;

import io.bourse.bench.ExchangeTarget;
import io.bourse.common.config.Credentials;
import io.bourse.common.config.Settings;
import io.bourse.common.config.SymbolDirectory;
import io.bourse.fanout.FanoutContext;
import io.bourse.gateway.GatewayContext;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

/**
 * The exchanges {@code bourse bench e2e} (and the suite) can measure, on this host: {@code embedded} starts the whole
 * exchange in this JVM as {@code ./bourse exchange} does ({@link EmbeddedExchange}), {@code compose} starts the
 * exchange's services (not the simulator, Prometheus or Grafana) with {@code docker compose up --build --wait}, the
 * event archive off as in the embedded exchange unless {@code BOURSE_ARCHIVE_ENABLED} is set, and removes them
 * afterwards, {@code running} measures one already up. Each takes its ports, symbols and users from the settings
 * its services run with ({@code BOURSE_*}; users from {@code BOURSE_CREDENTIALS} or deploy/credentials.csv; under
 * compose only the settings the compose file passes on, {@value #SYMBOLS_ENV} and {@value #CREDENTIALS_ENV}, the
 * ports being the compose file's): the OUCH sessions log in as the first users, the ITCH subscriber as the last. An
 * exchange is started only once those settings are found good, and removed again when its start fails.
 */
final class BenchExchanges
{
    /**
     * The compose project the benchmark's stack runs as: its own, so that removing its containers and volumes never
     * touches the user's stack (the compose file's project, {@code bourse}: its gateway journals and event archive).
     */
    static final String COMPOSE_PROJECT = "bourse-bench";
    /**
     * The benchmark stack's Aeron directory, on the host's /dev/shm (the services share the host's IPC namespace): its
     * own, as its media driver deletes its directory when it starts, so that a user's media driver running in the
     * default one keeps its own.
     */
    static final String COMPOSE_AERON_DIR = "/dev/shm/aeron-bourse-bench";
    /** The services of docker-compose.yml that carry an order from OUCH to ITCH. */
    static final List<String> COMPOSE_SERVICES =
        List.of("media-driver", "engine-0", "engine-1", "order-gateway", "md-publisher", "fanout");
    private static final long COMPOSE_TIMEOUT_MINUTES = 15;
    /** The compose file's Aeron directory of every service. */
    private static final String AERON_DIR_ENV = "BOURSE_AERON_DIR";
    /** The compose file's switch of the event archive (on by default there, off in the embedded exchange). */
    private static final String ARCHIVE_ENABLED_ENV = "BOURSE_ARCHIVE_ENABLED";
    /** The compose file's close time of the gateway (00:00 by default there; the embedded exchange never closes). */
    private static final String CLOSE_TIME_ENV = "BOURSE_GATEWAY_CLOSE_TIME";
    /** The compose file's symbols, passed on to every service. */
    private static final String SYMBOLS_ENV = "BOURSE_SYMBOLS";
    /** The compose file's users, passed on to the gateway and the fanout. */
    private static final String CREDENTIALS_ENV = "BOURSE_CREDENTIALS";

    private BenchExchanges()
    {
    }

    /**
     * @param target      {@code embedded}, {@code compose} or {@code running}.
     * @param composeFile docker-compose.yml, for {@code compose}.
     * @return its launcher.
     * @throws IllegalArgumentException for an unknown target.
     */
    static ExchangeTarget.Launcher forName(final String target, final Path composeFile)
    {
        return switch (target)
        {
            case "embedded" -> BenchExchanges::embedded;
            case "compose" -> (progress) -> compose(composeFile, progress);
            case "running" -> (progress) -> new ExchangeTarget.Running(
                target("running", "an exchange already running on this host", Settings.fromEnvironment()), () ->
                {
                });
            default -> throw new IllegalArgumentException(
                "--target must be embedded, compose or running: " + target);
        };
    }

    /**
     * Starts the whole exchange in this JVM, its agents on their own threads unless {@code BOURSE_EXCHANGE_LAYOUT}
     * says shared.
     *
     * @param progress where start-up messages go.
     * @return the running exchange.
     * @throws IllegalArgumentException when the settings cannot make a target (fewer than 2 users): nothing started.
     */
    static ExchangeTarget.Running embedded(final PrintStream progress)
    {
        final Settings settings = BourseMain.embeddedSettings(Map.of());
        final String layout = settings.get(EmbeddedExchange.LAYOUT_PROP_NAME, "dedicated");
        final ExchangeTarget target = target("embedded", "one JVM: media driver, " +
            SymbolDirectory.fromSettings(settings).shardCount() + " engine shards, order gateway, md-publisher and " +
            "fanout, " + ("shared".equals(layout) ? "gateway and shards on one shared thread" :
            "one thread per agent") + ", idle " + settings.get("bourse.idle.strategy", "backoff"), settings);
        requireFree(settings, "a running exchange");
        progress.println("starting the embedded exchange");
        return new ExchangeTarget.Running(target, EmbeddedExchange.launch(settings));
    }

    /**
     * Starts the exchange's services with docker compose, as the project {@value #COMPOSE_PROJECT} on the Aeron
     * directory {@value #COMPOSE_AERON_DIR} (never the user's stack's), on a new gateway journal volume, and waits
     * until they are healthy. The engines start with empty books, so the journals of an earlier run (the gateway's
     * named volume) would rebuild orders they never had and keep growing the day's token index from run to run: the
     * volume is removed before the start ({@code docker compose down --volumes} of the services, which are not running:
     * the ports are free) and again when the run is over.
     *
     * @param composeFile docker-compose.yml.
     * @param progress    where docker compose's output goes.
     * @return the running exchange; closing it removes the services' containers and the gateway's journal volume.
     * @throws IllegalStateException    when docker compose fails (the services are removed again) or an exchange
     *                                  already listens on the ports.
     * @throws IllegalArgumentException when the settings cannot make a target (fewer than 2 users): nothing started.
     */
    static ExchangeTarget.Running compose(final Path composeFile, final PrintStream progress)
    {
        if (!Files.isRegularFile(composeFile))
        {
            throw new IllegalArgumentException("--compose-file: no such file: " + composeFile);
        }
        final Settings settings = composeSettings(System.getenv());
        final List<String> remove = new ArrayList<>(List.of("down", "--volumes"));
        remove.addAll(COMPOSE_SERVICES);
        final List<String> up = new ArrayList<>(List.of("up", "--detach", "--build", "--wait"));
        up.addAll(COMPOSE_SERVICES);
        // The embedded exchange records no events and never closes its trading day: the compose stack does neither,
        // unless asked, so that the two targets differ in their containers only (and a run across midnight UTC is not
        // cut by the close).
        final String set = System.getenv(ARCHIVE_ENABLED_ENV);
        final String archive = null == set || set.isBlank() ? "false" : set.strip();
        final String closeTime = Objects.requireNonNullElse(System.getenv(CLOSE_TIME_ENV), "");
        final ExchangeTarget target = target("compose", "docker compose: one container per service (" +
            String.join(", ", COMPOSE_SERVICES) + "), one JVM each, host network and IPC, cpusets of " +
            composeFile.getFileName() + ", event archive " + ("true".equals(archive) ? "on" : "off, as embedded") +
            " (" + ARCHIVE_ENABLED_ENV + "), close of the trading day " +
            (closeTime.isBlank() ? "none, as embedded" : "at " + closeTime.strip() + " UTC") + " (" + CLOSE_TIME_ENV +
            ")", settings);
        requireFree(settings, "docker compose");
        progress.println("docker compose --project-name " + COMPOSE_PROJECT + " " + String.join(" ", remove) +
            ", then " + ARCHIVE_ENABLED_ENV + "=" + archive + " " + CLOSE_TIME_ENV + "=" + closeTime +
            " docker compose --project-name " + COMPOSE_PROJECT + " " + String.join(" ", up));
        final Map<String, String> stack = Map.of(AERON_DIR_ENV, COMPOSE_AERON_DIR);
        final Runnable removeServices = () -> dockerCompose(composeFile, remove, stack, progress);
        removeServices.run();
        try
        {
            dockerCompose(composeFile, up, Map.of(ARCHIVE_ENABLED_ENV, archive, CLOSE_TIME_ENV, closeTime,
                AERON_DIR_ENV, COMPOSE_AERON_DIR), progress);
        }
        catch (final RuntimeException ex)
        {
            // Some services may be up (a port taken, one unhealthy, the wait timed out): none is left running.
            try
            {
                removeServices.run();
            }
            catch (final RuntimeException removeFailed)
            {
                ex.addSuppressed(removeFailed);
            }
            throw ex;
        }
        return new ExchangeTarget.Running(target, removeServices::run);
    }

    /**
     * @param environment the benchmark's environment.
     * @return the settings the compose file's services run with: of the environment, only what the compose file
     *         passes on to them (symbols, users); the ports are the compose file's, the settings' defaults. A system
     *         property of this JVM ({@code -Dbourse.gateway.port}) still comes first, as for any setting: it does not
     *         reach the containers either, so leave those unset for the compose target.
     */
    static Settings composeSettings(final Map<String, String> environment)
    {
        final Map<String, String> passedOn = new HashMap<>();
        for (final String name : List.of(SYMBOLS_ENV, CREDENTIALS_ENV))
        {
            final String value = environment.get(name);
            if (null != value)
            {
                passedOn.put(name, value);
            }
        }
        return new Settings(passedOn);
    }

    private static ExchangeTarget target(final String name, final String layout, final Settings settings)
    {
        try
        {
            final List<Credentials.User> users = Credentials.fromSettings(settings).users();
            if (users.size() < 2)
            {
                throw new IllegalArgumentException(
                    "the credentials need at least 2 users (OUCH sessions, an ITCH subscriber): " + users.size());
            }
            final SymbolDirectory directory = SymbolDirectory.fromSettings(settings);
            final List<String> symbols = new ArrayList<>();
            for (int shard = 0; shard < directory.shardCount(); shard++)
            {
                symbols.add(directory.symbolsOfShard(shard).get(0).symbol());
            }
            return new ExchangeTarget(name, layout,
                GatewayContext.fromSettings(settings).port(), FanoutContext.fromSettings(settings).port(),
                users.subList(0, users.size() - 1), users.get(users.size() - 1), symbols);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot read the credentials: " + ex.getMessage(), ex);
        }
    }

    /** Refuses to start a second exchange over one that listens on the gateway's port. */
    private static void requireFree(final Settings settings, final String what)
    {
        final int port = GatewayContext.fromSettings(settings).port();
        try (Socket socket = new Socket())
        {
            socket.connect(new InetSocketAddress("127.0.0.1", port), 200);
        }
        catch (final IOException free)
        {
            return;
        }
        throw new IllegalStateException("something already listens on the gateway's port " + port + ": stop it " +
            "before starting " + what + ", or measure it with --target running");
    }

    private static void dockerCompose(
        final Path composeFile, final List<String> arguments, final Map<String, String> environment,
        final PrintStream progress)
    {
        final List<String> command = new ArrayList<>(
            List.of("docker", "compose", "--project-name", COMPOSE_PROJECT, "-f", composeFile.toString()));
        command.addAll(arguments);
        try
        {
            final ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
            builder.environment().putAll(environment);
            final Process process = builder.start();
            try (BufferedReader output = new BufferedReader(
                new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8)))
            {
                output.lines().forEach(progress::println);
            }
            if (!process.waitFor(COMPOSE_TIMEOUT_MINUTES, TimeUnit.MINUTES))
            {
                process.destroyForcibly();
                throw new IllegalStateException(String.join(" ", command) + ": no end after " +
                    COMPOSE_TIMEOUT_MINUTES + " minutes");
            }
            if (process.exitValue() != 0)
            {
                throw new IllegalStateException(String.join(" ", command) + ": exit " + process.exitValue());
            }
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(String.join(" ", command) + ": " + ex.getMessage(), ex);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(String.join(" ", command) + ": interrupted", ex);
        }
    }
}
