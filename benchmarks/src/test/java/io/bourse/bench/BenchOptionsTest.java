package io.bourse.bench;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class BenchOptionsTest
{
    @TempDir
    Path dir;

    private Path commands() throws IOException
    {
        return Files.writeString(dir.resolve("commands.csv"), "");
    }

    @Test
    void shouldAcceptValidOptions() throws IOException
    {
        final BenchOptions options = new BenchOptions(commands(), 0, 1, dir.resolve("bourse.jfr"));

        assertThat(options.validate()).isSameAs(options);
    }

    @Test
    void shouldNameCommandsWhenFileMissing()
    {
        assertThatThrownBy(() -> new BenchOptions(dir.resolve("missing.csv.gz"), 1, 1, null).validate())
            .isInstanceOf(IllegalArgumentException.class).hasMessageStartingWith("--commands");
    }

    @Test
    void shouldNameWarmupWhenNegative() throws IOException
    {
        final Path commands = commands();

        assertThatThrownBy(() -> new BenchOptions(commands, -1, 1, null).validate())
            .isInstanceOf(IllegalArgumentException.class).hasMessageStartingWith("--warmup");
    }

    @Test
    void shouldNameIterationsWhenZero() throws IOException
    {
        final Path commands = commands();

        assertThatThrownBy(() -> new BenchOptions(commands, 0, 0, null).validate())
            .isInstanceOf(IllegalArgumentException.class).hasMessageStartingWith("--iterations");
    }

    @Test
    void shouldNameJfrWhenDirectoryMissing() throws IOException
    {
        final Path commands = commands();

        assertThatThrownBy(() -> new BenchOptions(commands, 0, 1, dir.resolve("no/such/dir/x.jfr")).validate())
            .isInstanceOf(IllegalArgumentException.class).hasMessageStartingWith("--jfr");
    }
}
