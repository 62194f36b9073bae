package io.bourse.bench;

import io.bourse.exchangecore.ExchangeCorePipelineRamp;
import io.bourse.exchangecore.PipelineStep;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The baseline of {@code bourse bench ramp}: exchange-core 0.5.3's whole engine (its Disruptor pipeline with risk and
 * matching engines, driven through its own API) at the ramp's rates on this host, run by
 * {@link ExchangeCorePipelineRamp} in a child process on a JDK 17, because exchange-core's chronicle-core 2.19 cannot
 * start on Java 21+. The child gets this JVM's class path, the same command file, rates, step length and warm-up,
 * and reports its steps as {@link PipelineStep} lines.
 */
final class ExchangeCoreBaseline
{
    /** {@code --exchange-core-java} value: find a JDK 17 ({@link #findJava()}). */
    static final String AUTO = "auto";
    /** {@code --exchange-core-java} value: do not measure exchange-core. */
    static final String NONE = "none";
    /** exchange-core's wait strategies, by name: its pipeline threads spin, yield, block, or spin once then block. */
    static final List<String> WAIT_STRATEGIES = List.of("BUSY_SPIN", "YIELDING", "BLOCKING", "SECOND_STEP_NO_WAIT");
    /**
     * The JVM options exchange-core's pipeline needs on JDK 17: chronicle-core 2.19 reaches into the JDK's internals
     * (sun.nio.ch, jdk.internal.ref, jdk.internal.misc, reflection on java.lang).
     */
    static final List<String> JVM_OPTIONS = List.of(
        "--add-exports", "java.base/sun.nio.ch=ALL-UNNAMED", "--add-opens", "java.base/sun.nio.ch=ALL-UNNAMED",
        "--add-exports", "java.base/jdk.internal.ref=ALL-UNNAMED",
        "--add-opens", "java.base/jdk.internal.misc=ALL-UNNAMED",
        "--add-exports", "jdk.unsupported/sun.misc=ALL-UNNAMED", "--add-opens", "java.base/java.lang=ALL-UNNAMED",
        "--add-opens", "java.base/java.lang.reflect=ALL-UNNAMED", "--add-opens", "java.base/java.nio=ALL-UNNAMED",
        "--add-opens", "java.base/java.io=ALL-UNNAMED", "--add-opens", "java.base/java.util=ALL-UNNAMED");
    private static final int JAVA_VERSION = 17;
    private static final Path JVM_DIRECTORY = Path.of("/usr/lib/jvm");
    private static final long TIMEOUT_MINUTES = 30;

    private ExchangeCoreBaseline()
    {
    }

    /**
     * @param setting {@link #AUTO}, {@link #NONE} or the path of a JDK 17 {@code java}.
     * @return the {@code java} to run exchange-core with; empty for {@link #NONE} or when {@link #AUTO} finds none.
     * @throws IllegalArgumentException when the path given is not a JDK 17 {@code java}.
     */
    static Optional<Path> java(final String setting)
    {
        if (NONE.equals(setting))
        {
            return Optional.empty();
        }
        if (AUTO.equals(setting))
        {
            return findJava();
        }
        final Path java = Path.of(setting);
        if (!Files.isExecutable(java) || JAVA_VERSION != specificationVersion(java))
        {
            throw new IllegalArgumentException("--exchange-core-java: not the java of a JDK " + JAVA_VERSION + ": " +
                setting);
        }
        return Optional.of(java);
    }

    /**
     * @return the first {@code bin/java} of a JDK 17 under {@code /usr/lib/jvm}, else the {@code java} on the
     * {@code PATH} when it is a JDK 17; empty when there is none.
     */
    static Optional<Path> findJava()
    {
        final List<Path> candidates = new ArrayList<>();
        if (Files.isDirectory(JVM_DIRECTORY))
        {
            try (Stream<Path> homes = Files.list(JVM_DIRECTORY))
            {
                homes.sorted().map((home) -> home.resolve("bin/java")).filter(Files::isExecutable)
                    .forEach(candidates::add);
            }
            catch (final IOException ex)
            {
                throw new UncheckedIOException("cannot list " + JVM_DIRECTORY, ex);
            }
        }
        Stream.of(System.getenv().getOrDefault("PATH", "").split(":")).filter((dir) -> !dir.isEmpty())
            .map((dir) -> Path.of(dir, "java")).filter(Files::isExecutable).findFirst().ifPresent(candidates::add);
        return candidates.stream().filter((java) -> JAVA_VERSION == specificationVersion(java)).findFirst();
    }

    /**
     * Runs exchange-core's ramp in a JDK 17 child process; its progress lines go to {@code out}, indented.
     *
     * @param java         a JDK 17 {@code java}.
     * @param options      the ramp's command file, rates, step length, warm-up and exchange-core wait strategy.
     * @param out          where the child's progress goes.
     * @return the steps, the last one broken when exchange-core's ramp stopped early.
     * @throws IllegalStateException when the child fails or runs past 30 minutes.
     */
    static List<EngineRamp.Step> ramp(final Path java, final EngineRampOptions options, final PrintStream out)
    {
        final List<String> command = new ArrayList<>();
        command.add(java.toString());
        command.addAll(JVM_OPTIONS);
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), ExchangeCorePipelineRamp.class.getName(),
            "--commands", options.commands().toString(),
            "--rates", options.rates().stream().map(String::valueOf).collect(Collectors.joining(",")),
            "--step-seconds", Double.toString(options.stepSeconds()),
            "--warmup-commands", Integer.toString(options.warmupCommands()),
            "--wait-strategy", options.exchangeCoreWait()));
        final List<EngineRamp.Step> steps = new ArrayList<>();
        final List<String> lastLines = new ArrayList<>();
        try
        {
            final Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
            try (BufferedReader lines = new BufferedReader(
                new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8)))
            {
                for (String line = lines.readLine(); null != line; line = lines.readLine())
                {
                    if (line.startsWith(PipelineStep.PREFIX))
                    {
                        steps.add(step(PipelineStep.parse(line)));
                        continue;
                    }
                    out.println("  exchange-core: " + line);
                    lastLines.add(line);
                    if (lastLines.size() > 20)
                    {
                        lastLines.remove(0);
                    }
                }
            }
            if (!process.waitFor(TIMEOUT_MINUTES, TimeUnit.MINUTES))
            {
                process.destroyForcibly();
                throw new IllegalStateException("exchange-core's ramp did not end within " + TIMEOUT_MINUTES +
                    " minutes");
            }
            if (0 != process.exitValue())
            {
                throw new IllegalStateException("exchange-core's ramp failed, exit " + process.exitValue() + ": " +
                    String.join(" | ", lastLines));
            }
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot run " + java + ": " + ex.getMessage(), ex);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while exchange-core's ramp ran", ex);
        }
        return steps;
    }

    private static EngineRamp.Step step(final PipelineStep step)
    {
        return new EngineRamp.Step(step.rate(), step.commands(), step.achievedRate(), step.histogram());
    }

    private static int specificationVersion(final Path java)
    {
        try
        {
            final Process process = new ProcessBuilder(java.toString(), "-XshowSettings:properties", "-version")
                .redirectErrorStream(true).start();
            final String output;
            try (BufferedReader lines = new BufferedReader(
                new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8)))
            {
                output = lines.lines().filter((line) -> line.contains("java.specification.version"))
                    .findFirst().orElse("");
            }
            process.waitFor(1, TimeUnit.MINUTES);
            return Integer.parseInt(output.substring(output.indexOf('=') + 1).trim());
        }
        catch (final IOException | NumberFormatException | InterruptedException ex)
        {
            if (ex instanceof InterruptedException)
            {
                Thread.currentThread().interrupt();
            }
            return -1;
        }
    }
}
