package io.bourse.launcher;

import io.aeron.driver.ThreadingMode;
import io.bourse.bench.FanoutBenchOptions;
import io.bourse.bench.ServiceBenchOptions;
import io.bourse.bench.SuiteOptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class BenchCommandTest
{
    private static BenchCommand.EngineServiceBench parseEngineService(final String... args)
    {
        final CommandLine.ParseResult result = new CommandLine(new BenchCommand()).parseArgs(args);
        return (BenchCommand.EngineServiceBench)result.subcommand().commandSpec().userObject();
    }

    @Test
    void shouldUseDefaultsWhenEngineServiceHasNoOptions()
    {
        final BenchCommand.EngineServiceBench command = parseEngineService("engine-service");

        assertThat(new ServiceBenchOptions(command.commands, command.warmup, command.iterations, command.rate,
            command.idle, command.driverThreading)).isEqualTo(new ServiceBenchOptions(
            Path.of("../shared/data/exchange-core/commands.csv.gz"), ServiceBenchOptions.DEFAULT_WARMUP,
            ServiceBenchOptions.DEFAULT_ITERATIONS, 0, "backoff", ThreadingMode.SHARED));
    }

    @Test
    void shouldParseEveryEngineServiceOptionWhenGiven()
    {
        final BenchCommand.EngineServiceBench command = parseEngineService("engine-service",
            "--commands", "c.csv", "--warmup", "2", "--iterations", "7", "--rate", "250000", "--idle", "busy",
            "--driver-threading", "DEDICATED");

        assertThat(new ServiceBenchOptions(command.commands, command.warmup, command.iterations, command.rate,
            command.idle, command.driverThreading)).isEqualTo(
            new ServiceBenchOptions(Path.of("c.csv"), 2, 7, 250_000, "busy", ThreadingMode.DEDICATED));
    }

    @Test
    void shouldRefuseEngineServiceWhenDriverThreadingIsUnknown()
    {
        assertThatThrownBy(() -> parseEngineService("engine-service", "--driver-threading", "TURBO"))
            .isInstanceOf(CommandLine.ParameterException.class).hasMessageContaining("--driver-threading");
    }

    @Test
    void shouldReportBadOptionAsParameterErrorWhenValidationFails()
    {
        assertThat(usageError("engine-service", "--commands", "no-such-file.csv.gz"))
            .startsWith("--commands: no such file: no-such-file.csv.gz");
    }

    /**
     * Runs {@code bourse bench} with the arguments, which must be refused as a usage error.
     *
     * @return what it printed on standard error.
     */
    private static String usageError(final String... args)
    {
        final StringWriter err = new StringWriter();
        final CommandLine commandLine = new CommandLine(new BenchCommand()).setErr(new PrintWriter(err));

        final int exitCode = commandLine.execute(args);

        assertThat(exitCode).isEqualTo(CommandLine.ExitCode.USAGE);
        return err.toString();
    }

    private static FanoutBenchOptions parseFanout(final String... args)
    {
        final CommandLine.ParseResult result = new CommandLine(new BenchCommand()).parseArgs(args);
        final BenchCommand.FanoutBench command =
            (BenchCommand.FanoutBench)result.subcommand().commandSpec().userObject();
        return new FanoutBenchOptions(command.rate, command.subscribers, command.warmup, command.seconds,
            command.workers, command.readers, command.idle, command.stallRounds, command.hgrmDir);
    }

    @Test
    void shouldUseDefaultsWhenFanoutHasNoOptions()
    {
        assertThat(parseFanout("fanout"))
            .isEqualTo(new FanoutBenchOptions(10_000, 100, 2, 5, 2, 1, "backoff", 0, null));
    }

    @Test
    void shouldParseEveryFanoutOptionWhenGiven()
    {
        assertThat(parseFanout("fanout", "--rate", "4955", "--subscribers", "4", "--warmup", "1", "--seconds", "3",
            "--workers", "1", "--readers", "2", "--idle", "yield", "--stall", "--hgrm-dir", "out"))
            .isEqualTo(new FanoutBenchOptions(4_955, 4, 1, 3, 1, 2, "yield", 2, Path.of("out")));
    }

    @Test
    void shouldTakeTheStallRoundsWhenGivenACount()
    {
        assertThat(parseFanout("fanout", "--stall", "3").stallRounds()).isEqualTo(3);
        assertThat(parseFanout("fanout", "--stall=5", "--rate", "100").stallRounds()).isEqualTo(5);
    }

    @Test
    void shouldReportTooManyStallRoundsAsParameterError()
    {
        assertThat(usageError("fanout", "--stall", "11")).startsWith("--stall must be 0 (none) to 10 rounds: 11");
    }

    @Test
    void shouldReportBadFanoutOptionAsParameterError()
    {
        assertThat(usageError("fanout", "--subscribers", "0")).startsWith("--subscribers must be 1 to 999: 0");
    }

    @Test
    void shouldTakeTheSuiteOptionsWhenBenchHasNoSubcommandOrIsAll(@TempDir final Path dir)
    {
        for (final String[] args : List.of(new String[] { "--quick", "--report-dir", dir.toString(), "--commands",
            "absent.csv.gz" }, new String[] { "all", "--quick", "--report-dir", dir.toString(), "--commands",
            "absent.csv.gz" }, new String[] { "suite", "--quick", "--report-dir", dir.toString(), "--commands",
            "absent.csv.gz" }))
        {
            final CommandLine.ParseResult result = new CommandLine(new BenchCommand()).parseArgs(args);
            final CommandLine.Model.CommandSpec spec =
                result.hasSubcommand() ? result.subcommand().commandSpec() : result.commandSpec();
            final BenchCommand.SuiteArgs suite = result.hasSubcommand() ?
                ((BenchCommand.Suite)spec.userObject()).suite : ((BenchCommand)spec.userObject()).suite;

            final SuiteOptions options = suite.options(spec);

            assertThat(options.reportDir()).isEqualTo(dir);
            assertThat(options.engine()).as("no command file, no engine benchmark").isNull();
            assertThat(options.gateway().measureSeconds()).isEqualTo(1);
            assertThat(options.commandLine()).isEqualTo("bourse bench " + String.join(" ", args));
        }
    }

    @Test
    void shouldRefuseTheSuiteWhenTheReportDirIsAFile(@TempDir final Path dir) throws IOException
    {
        final Path file = Files.createFile(dir.resolve("taken"));
        assertThat(usageError("--report-dir", file.toString()))
            .startsWith("--report-dir is not a directory: " + file);
    }
}
