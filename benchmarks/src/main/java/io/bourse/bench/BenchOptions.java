package io.bourse.bench;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Options of {@code bourse bench engine}: the command stream, how many warm-up and measured iterations, and an
 * optional JFR recording of Bourse's measured passes.
 *
 * @param commands   exchange-core {@code commands.csv(.gz)}.
 * @param warmup     unmeasured iterations first, at least 0.
 * @param iterations measured iterations, at least 1.
 * @param jfr        JFR file to record Bourse's measured passes into, or null for none.
 */
public record BenchOptions(Path commands, int warmup, int iterations, Path jfr)
{
    /** Default command stream, relative to the repository root (the {@code bourse} script runs from there). */
    public static final String DEFAULT_COMMANDS = "../shared/data/exchange-core/commands.csv.gz";
    /** Default warm-up iterations: enough for C2 to compile every engine's hot path. */
    public static final int DEFAULT_WARMUP = 10;
    /** Default measured iterations: several, so that min/median/max mean something, in about 2-4 minutes. */
    public static final int DEFAULT_ITERATIONS = 40;

    /**
     * Checks the options before any work starts.
     *
     * @return this.
     * @throws IllegalArgumentException naming the bad option.
     */
    public BenchOptions validate()
    {
        if (null == commands || !Files.isRegularFile(commands))
        {
            throw new IllegalArgumentException("--commands: no such file: " + commands +
                " (exchange-core's commands.csv.gz, see ../shared/data/exchange-core/README.md)");
        }
        if (warmup < 0)
        {
            throw new IllegalArgumentException("--warmup must be 0 or more: " + warmup);
        }
        if (iterations < 1)
        {
            throw new IllegalArgumentException("--iterations must be 1 or more: " + iterations);
        }
        if (null != jfr && (Files.isDirectory(jfr) ||
            (null != jfr.toAbsolutePath().getParent() && !Files.isDirectory(jfr.toAbsolutePath().getParent()))))
        {
            throw new IllegalArgumentException("--jfr: cannot write a file at " + jfr);
        }
        return this;
    }
}
