package io.bourse.launcher;

import io.aeron.exceptions.DriverTimeoutException;
import io.bourse.common.aeron.StreamLayout;
import io.bourse.common.config.Settings;
import io.bourse.common.config.SymbolDirectory;
import io.bourse.engine.EngineMain;
import io.bourse.fanout.FanoutMain;
import io.bourse.gateway.GatewayMain;
import io.bourse.mdpublisher.MdPublisherContext;
import io.bourse.mdpublisher.MdPublisherMain;
import io.bourse.simulator.Scenario;
import io.bourse.simulator.SimulatorContext;
import io.bourse.simulator.SimulatorMain;
import io.bourse.simulator.SimulatorService;
import org.agrona.concurrent.ShutdownSignalBarrier;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.nio.file.FileSystemException;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * The {@code bourse} command line. {@code demo} and {@code exchange} run everything in one JVM; the other commands
 * run one service each, configured from {@code BOURSE_*} environment variables, as the containers do.
 */
@Command(
    name = "bourse",
    mixinStandardHelpOptions = true,
    version = "bourse 0.1.0",
    description = "Bourse: an exchange simulator (OUCH 4.2 in, ITCH 5.0 out, SBE over Aeron inside).",
    subcommands = {
        BourseMain.Demo.class,
        BourseMain.Exchange.class,
        BourseMain.MediaDriverCommand.class,
        BourseMain.EngineCommand.class,
        BourseMain.GatewayCommand.class,
        BourseMain.MdPublisherCommand.class,
        BourseMain.FanoutCommand.class,
        BourseMain.SimulatorCommand.class,
        AdminCommand.class,
        FeedCommand.class,
        ReplayCommand.class,
        BenchCommand.class,
        CommandLine.HelpCommand.class
    })
public final class BourseMain implements Runnable
{
    @CommandLine.Spec
    private CommandLine.Model.CommandSpec spec;

    /**
     * @param args a sub-command and its options; {@code --help} lists them.
     */
    public static void main(final String[] args)
    {
        FailFast.install("bourse" + (args.length > 0 ? " " + args[0] : ""));
        System.exit(commandLine().execute(args));
    }

    /**
     * @return the command line, with an exception handler that prints one line naming what failed and exits 1.
     */
    static CommandLine commandLine()
    {
        final CommandLine commandLine = new CommandLine(new BourseMain());
        commandLine.setExecutionExceptionHandler((ex, cmd, parseResult) ->
        {
            cmd.getErr().println("bourse " + cmd.getCommandName() + ": " + describe(ex));
            return 1;
        });
        return commandLine;
    }

    @Override
    public void run()
    {
        spec.commandLine().usage(System.out);
    }

    /**
     * One line naming what failed and why, e.g. which port was already in use: the messages of the exception and its
     * causes. A file-system error without a reason, whose message is only its file (a journal directory the service's
     * user may not write, e.g.), is followed by its kind: {@code /var/lib/x.journal (access denied)}; Aeron's driver
     * timeout, by what it means.
     */
    static String describe(final Throwable ex)
    {
        final StringBuilder sb = new StringBuilder();
        for (Throwable cause = ex; null != cause; cause = cause.getCause())
        {
            sb.append(cause == ex ? "" : ": ").append(cause.getMessage());
            if (cause instanceof FileSystemException fileError && null == fileError.getReason())
            {
                final String kind = cause.getClass().getSimpleName().replaceFirst("Exception$", "");
                sb.append(" (").append(kind.replaceAll("([a-z])([A-Z])", "$1 $2").toLowerCase(Locale.ROOT)).append(')');
            }
            if (cause instanceof DriverTimeoutException)
            {
                sb.append(" (no media driver answered: start `bourse media-driver` first, with the same " +
                    "BOURSE_AERON_DIR)");
            }
        }
        return sb.toString();
    }

    /**
     * @param overrides the embedded run's settings, by environment variable name: its command-line options and what
     *                  follows from the exchange it runs; they win over system properties and the environment.
     * @return settings from the overrides, then the system properties, then the environment, where the Aeron directory
     *         defaults to one of this process's own.
     */
    static Settings embeddedSettings(final Map<String, String> overrides)
    {
        final Map<String, String> environment = new HashMap<>(System.getenv());
        // Unique per process, so that it never meets a running stack's.
        environment.putIfAbsent("BOURSE_AERON_DIR", EmbeddedDirectories.aeronDirectory());
        return new Settings(overrides, environment);
    }

    /**
     * @param overrides the embedded run's settings.
     * @param exchange  the running embedded exchange.
     * @return the simulator's settings: it connects to the embedded gateway and fanout where they listen (the ports
     *         bound, also for port 0), and reads the md-publisher's MoldUDP64 feed where it is sent
     *         ({@link #followMoldFeed}), unless told otherwise.
     */
    static Settings simulatorSettings(final Map<String, String> overrides, final EmbeddedExchange exchange)
    {
        final Settings settings = embeddedSettings(overrides);
        final Map<String, String> simulatorOverrides = new HashMap<>(overrides);
        followMoldFeed(settings, simulatorOverrides);
        if (null == settings.get(SimulatorContext.GATEWAY_PORT_PROP_NAME, null))
        {
            simulatorOverrides.put(Settings.environmentName(SimulatorContext.GATEWAY_PORT_PROP_NAME),
                Integer.toString(exchange.gatewayPort()));
        }
        if (null == settings.get(SimulatorContext.FANOUT_PORT_PROP_NAME, null))
        {
            simulatorOverrides.put(Settings.environmentName(SimulatorContext.FANOUT_PORT_PROP_NAME),
                Integer.toString(exchange.fanoutPort()));
        }
        return embeddedSettings(simulatorOverrides);
    }

    /**
     * Points the simulator's MoldUDP64 session at the md-publisher's feed as the embedded exchange's settings give it:
     * each of the group, port, interface and re-request port that the md-publisher is given and the simulator is not,
     * and the interface as the re-request server's host (the md-publisher binds it there). A port of 0 (any free one)
     * is not passed on: the simulator needs the port itself. Before, the demo's simulator kept its defaults, so an
     * md-publisher sent elsewhere left it with no market data.
     *
     * @param settings           the embedded run's settings.
     * @param simulatorOverrides where the simulator's settings go, as environment variables.
     */
    static void followMoldFeed(final Settings settings, final Map<String, String> simulatorOverrides)
    {
        final Map<String, String> simulatorToPublisher = Map.of(
            SimulatorContext.MD_MOLD_GROUP_PROP_NAME, MdPublisherContext.MOLD_GROUP_PROP_NAME,
            SimulatorContext.MD_MOLD_PORT_PROP_NAME, MdPublisherContext.MOLD_PORT_PROP_NAME,
            SimulatorContext.MD_MOLD_INTERFACE_PROP_NAME, MdPublisherContext.MOLD_INTERFACE_PROP_NAME,
            SimulatorContext.MD_MOLD_REQUEST_HOST_PROP_NAME, MdPublisherContext.MOLD_INTERFACE_PROP_NAME,
            SimulatorContext.MD_MOLD_REQUEST_PORT_PROP_NAME, MdPublisherContext.MOLD_REQUEST_PORT_PROP_NAME);
        simulatorToPublisher.forEach((simulator, publisher) ->
        {
            final String value = settings.get(publisher, null);
            if (null == settings.get(simulator, null) && null != value && !"0".equals(value.strip()))
            {
                simulatorOverrides.put(Settings.environmentName(simulator), value);
            }
        });
    }

    @Command(name = "demo", mixinStandardHelpOptions = true,
        description = "Run the whole exchange and the simulator in one JVM, print the simulator's summary, exit.")
    static final class Demo implements Callable<Integer>
    {
        @Option(names = "--duration", paramLabel = "SECONDS",
            description = "How long the simulator sends orders (default: BOURSE_SIMULATOR_DURATION, else 10).")
        Integer durationSeconds;

        @Option(names = "--rate", paramLabel = "ORDERS_PER_SECOND",
            description = "Open-loop order rate across all sessions (default: BOURSE_SIMULATOR_RATE, else 1000).")
        Integer rate;

        @Option(names = "--sessions", paramLabel = "N",
            description = "OUCH sessions the simulator opens (default: BOURSE_SIMULATOR_SESSIONS, else 4).")
        Integer sessions;

        @Option(names = "--scenario", paramLabel = "NAME",
            description = "The simulator's load scenario: steady, exchange-core, poisson, hawkes, microburst, skewed " +
                "or ramp; its settings are BOURSE_SIMULATOR_* (README, Simulator scenarios) (default: " +
                "BOURSE_SIMULATOR_SCENARIO, else steady).")
        String scenario;

        @CommandLine.Mixin
        SymbolsOption symbolsOption = new SymbolsOption();

        @CommandLine.Spec
        CommandLine.Model.CommandSpec spec;

        @Override
        public Integer call()
        {
            if ((null != durationSeconds && durationSeconds <= 0) || (null != rate && rate <= 0) ||
                (null != sessions && sessions <= 0))
            {
                throw new CommandLine.ParameterException(spec.commandLine(),
                    "--duration, --rate and --sessions must be positive");
            }
            final Map<String, String> overrides = new HashMap<>();
            if (null != scenario)
            {
                try
                {
                    overrides.put(Settings.environmentName(SimulatorContext.SCENARIO_PROP_NAME),
                        Scenario.of(scenario).settingName());
                }
                catch (final IllegalArgumentException ex)
                {
                    throw new CommandLine.ParameterException(spec.commandLine(), "--scenario: " + ex.getMessage(), ex);
                }
            }
            symbolsOption.putInto(overrides);
            final Settings environment = Settings.fromEnvironment();
            putOption(overrides, environment, SimulatorContext.DURATION_PROP_NAME, durationSeconds, 10);
            putOption(overrides, environment, SimulatorContext.RATE_PROP_NAME, rate, 1_000);
            putOption(overrides, environment, SimulatorContext.SESSIONS_PROP_NAME, sessions, 4);
            final Settings settings = embeddedSettings(overrides);
            try (ShutdownSignalBarrier barrier = new ShutdownSignalBarrier();
                EmbeddedExchange exchange = EmbeddedExchange.launch(settings);
                SimulatorService simulator = SimulatorService.launch(
                    SimulatorContext.fromSettings(simulatorSettings(overrides, exchange)).jvmMetrics(false)))
            {
                // The summary comes at the end of the duration, or at once on SIGINT/SIGTERM (Ctrl-C).
                simulator.completion().whenComplete((report, error) -> barrier.signal());
                barrier.await();
                simulator.requestStop();
                simulator.awaitReport().print(System.out);
            }
            return 0;
        }

        /**
         * Gives the simulator a demo option: the value on the command line, else the setting's own (its system
         * property or environment variable, e.g. {@code BOURSE_SIMULATOR_RATE}), else the demo's default.
         *
         * @param overrides    the demo's settings, as environment variables: receives the option unless the setting's
         *                     own value stands.
         * @param settings     the settings the demo starts from.
         * @param propertyName the simulator's setting, e.g. {@code bourse.simulator.rate}.
         * @param option       the command line's value, or null when not given.
         * @param demoDefault  the value when neither the command line nor the setting gives one.
         */
        static void putOption(
            final Map<String, String> overrides, final Settings settings, final String propertyName,
            final Integer option, final int demoDefault)
        {
            if (null != option || null == settings.get(propertyName, null))
            {
                overrides.put(Settings.environmentName(propertyName),
                    Integer.toString(null != option ? option : demoDefault));
            }
        }
    }

    @Command(name = "exchange", mixinStandardHelpOptions = true,
        description = "Run the whole exchange in one JVM until Ctrl-C or SIGTERM: OUCH 4.2 on port 15000, " +
            "ITCH 5.0 subscribers on 16000, metrics on 9400-9403 and 9410+ (defaults: BOURSE_GATEWAY_PORT, " +
            "BOURSE_FANOUT_PORT and the *_METRICS_PORT settings move them).")
    static final class Exchange implements Callable<Integer>
    {
        @CommandLine.Mixin
        SymbolsOption symbolsOption = new SymbolsOption();

        @Override
        public Integer call()
        {
            final Map<String, String> overrides = new HashMap<>();
            symbolsOption.putInto(overrides);
            final Settings settings = embeddedSettings(overrides);
            try (ShutdownSignalBarrier barrier = new ShutdownSignalBarrier();
                EmbeddedExchange exchange = EmbeddedExchange.launch(settings))
            {
                System.out.println(runningBanner(exchange.gatewayPort(), exchange.fanoutPort(), settings));
                barrier.await();
            }
            System.out.println("exchange stopped");
            return 0;
        }

        /**
         * @param gatewayPort the OUCH port.
         * @param fanoutPort  the ITCH subscribers' port.
         * @param settings    the exchange's settings.
         * @return the line that says the exchange runs: its ports, and the options an admin command needs to reach it
         *         (its Aeron directory and its symbols, whose shards the admin command must know).
         */
        static String runningBanner(final int gatewayPort, final int fanoutPort, final Settings settings)
        {
            return "exchange running: OUCH 4.2/SoupBinTCP on " + gatewayPort + ", ITCH 5.0/SoupBinTCP on " +
                fanoutPort + "; admin commands: ./bourse admin ... --aeron-dir " +
                StreamLayout.fromSettings(settings).aeronDirectoryName() + " --symbols " +
                SymbolDirectory.fromSettings(settings) + "; Ctrl-C to stop";
        }
    }

    /** The {@code --symbols} option of the embedded commands. */
    static final class SymbolsOption
    {
        @Option(names = "--symbols", paramLabel = "LIST",
            description = "Symbols and their shards, e.g. AAPL@0,MSFT@1 (default: $BOURSE_SYMBOLS or " +
                "AAPL@0,MSFT@1,GOOG@0,AMZN@1).")
        String symbols;

        @CommandLine.Spec(CommandLine.Spec.Target.MIXEE)
        CommandLine.Model.CommandSpec command;

        /**
         * @param overrides the settings the command runs with: the symbols given, if any, go in.
         * @throws CommandLine.ParameterException for symbols the directory refuses: a usage error, before anything
         *                                        starts.
         */
        void putInto(final Map<String, String> overrides)
        {
            if (null != symbols)
            {
                try
                {
                    SymbolDirectory.parse(symbols);
                }
                catch (final IllegalArgumentException ex)
                {
                    throw new CommandLine.ParameterException(command.commandLine(), "--symbols: " +
                        ex.getMessage().replace(SymbolDirectory.SYMBOLS_PROP_NAME + ": ", ""));
                }
                overrides.put("BOURSE_SYMBOLS", symbols);
            }
        }
    }

    @Command(name = "media-driver", mixinStandardHelpOptions = true,
        description = "Run the Aeron media driver on $BOURSE_AERON_DIR (default /dev/shm/aeron-bourse), " +
            "counters on :9400/metrics.")
    static final class MediaDriverCommand implements Callable<Integer>
    {
        @Override
        public Integer call()
        {
            try (ShutdownSignalBarrier barrier = new ShutdownSignalBarrier();
                MediaDriverService ignored = MediaDriverService.launch(Settings.fromEnvironment()))
            {
                barrier.await();
            }
            return 0;
        }
    }

    @Command(name = "engine", mixinStandardHelpOptions = true,
        description = "Run matching-engine shard $BOURSE_ENGINE_SHARD (default 0).")
    static final class EngineCommand implements Runnable
    {
        @Override
        public void run()
        {
            EngineMain.main(new String[0]);
        }
    }

    @Command(name = "gateway", mixinStandardHelpOptions = true,
        description = "Run the OUCH 4.2 / SoupBinTCP order gateway (port 15000, or BOURSE_GATEWAY_PORT).")
    static final class GatewayCommand implements Runnable
    {
        @Override
        public void run()
        {
            GatewayMain.main(new String[0]);
        }
    }

    @Command(name = "md-publisher", mixinStandardHelpOptions = true,
        description = "Run the market-data publisher.")
    static final class MdPublisherCommand implements Runnable
    {
        @Override
        public void run()
        {
            MdPublisherMain.main(new String[0]);
        }
    }

    @Command(name = "fanout", mixinStandardHelpOptions = true,
        description = "Run the ITCH 5.0 / SoupBinTCP fan-out (port 16000, or BOURSE_FANOUT_PORT).")
    static final class FanoutCommand implements Runnable
    {
        @Override
        public void run()
        {
            FanoutMain.main(new String[0]);
        }
    }

    @Command(name = "simulator", mixinStandardHelpOptions = true,
        description = "Run the order-flow simulator against a running exchange ($BOURSE_SIMULATOR_* settings).")
    static final class SimulatorCommand implements Runnable
    {
        @Override
        public void run()
        {
            SimulatorMain.main(new String[0]);
        }
    }
}
