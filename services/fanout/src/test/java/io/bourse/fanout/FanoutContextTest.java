package io.bourse.fanout;

import io.bourse.common.config.Credentials;
import io.bourse.common.config.Settings;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class FanoutContextTest
{
    @Test
    void shouldTakeTheSubscribersOfTheEnvironmentWithoutReadingTheFile()
    {
        final FanoutContext ctx = FanoutContext.fromSettings(new Settings(Map.of(
            "BOURSE_CREDENTIALS", "envmd1,envmd1pw,ENVF;envmd2,envmd2pw,ENVF"))).conclude();

        assertThat(ctx.credentials().users()).extracting(Credentials.User::username)
            .containsExactly("envmd1", "envmd2");
        assertThat(ctx.credentials().authenticate("envmd2", "envmd2pw")).isNotNull();
    }

    @Test
    void shouldReadTheCredentialsFileWhenTheEnvironmentGivesNoUsers(@TempDir final Path dir) throws IOException
    {
        final Path file = Files.writeString(dir.resolve("users.csv"), "username,password,firm\nsub1,secret1,SUBA\n");

        final FanoutContext ctx = FanoutContext.fromSettings(new Settings(Map.of(
            "BOURSE_CREDENTIALS_FILE", file.toString()))).conclude();

        assertThat(ctx.credentials().users()).containsExactly(new Credentials.User("sub1", "secret1", "SUBA"));
    }

    @Test
    void shouldNameTheCredentialsFileThatCannotBeRead(@TempDir final Path dir)
    {
        final Path missing = dir.resolve("missing.csv");

        assertThatThrownBy(() -> FanoutContext.fromSettings(new Settings(Map.of(
            "BOURSE_CREDENTIALS_FILE", missing.toString()))).conclude())
            .isInstanceOf(IllegalStateException.class)
            .hasMessageStartingWith(Credentials.FILE_PROP_NAME + "=" + missing);
    }

    /**
     * The replay ring's slots are one buffer: a capacity whose bytes pass an int's range is refused by name at the
     * start. Before, it failed the start with a negative buffer size, or wrapped to a small buffer.
     */
    @Test
    void shouldRefuseAReplayCapacityBeyondWhatOneBufferHolds()
    {
        final Settings users = new Settings(Map.of("BOURSE_CREDENTIALS", "envmd1,envmd1pw,ENVF"));

        assertThat(FanoutContext.fromSettings(users).replayCapacity(ReplayRing.MAX_CAPACITY).conclude()
            .replayCapacity()).isEqualTo(ReplayRing.MAX_CAPACITY);
        assertThatThrownBy(() -> FanoutContext.fromSettings(users).replayCapacity(ReplayRing.MAX_CAPACITY + 1)
            .conclude())
            .isInstanceOf(IllegalStateException.class)
            .hasMessage(FanoutContext.REPLAY_CAPACITY_PROP_NAME + " must be 1.." + ReplayRing.MAX_CAPACITY + ": " +
                (ReplayRing.MAX_CAPACITY + 1));
    }
}
