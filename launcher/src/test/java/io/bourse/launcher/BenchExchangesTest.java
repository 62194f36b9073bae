package io.bourse.launcher;

import io.bourse.common.config.Credentials;
import io.bourse.common.config.Settings;
import io.bourse.common.config.SymbolDirectory;
import io.bourse.gateway.GatewayContext;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The exchanges {@code bourse bench} measures: their settings are checked before anything starts, so that settings
 * no target can use (here one user, where the OUCH sessions and the ITCH subscriber need two) leave no exchange
 * running behind a failed run; under compose, the settings are those the compose file passes on to its services.
 */
class BenchExchangesTest
{
    private final ByteArrayOutputStream progress = new ByteArrayOutputStream();

    @AfterEach
    void tearDown()
    {
        System.clearProperty(Credentials.PROP_NAME);
    }

    @Test
    void shouldStartNoEmbeddedExchangeWhenTheSettingsHaveTooFewUsers()
    {
        System.setProperty(Credentials.PROP_NAME, "demo01,demo01pw,DEMO");

        assertThatThrownBy(() -> BenchExchanges.embedded(new PrintStream(progress, true, StandardCharsets.UTF_8)))
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("at least 2 users");
        assertThat(progress.toString(StandardCharsets.UTF_8)).as("nothing started").isEmpty();
    }

    @Test
    void shouldRunNoDockerComposeWhenTheSettingsHaveTooFewUsers(@TempDir final Path dir) throws IOException
    {
        final Path composeFile = Files.writeString(dir.resolve("docker-compose.yml"), "services: {}\n");
        System.setProperty(Credentials.PROP_NAME, "demo01,demo01pw,DEMO");

        assertThatThrownBy(() -> BenchExchanges.compose(composeFile,
            new PrintStream(progress, true, StandardCharsets.UTF_8)))
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("at least 2 users");
        assertThat(progress.toString(StandardCharsets.UTF_8)).as("no docker compose command").isEmpty();
    }

    @Test
    void shouldTakeOnlyTheSymbolsAndUsersOfTheEnvironmentForComposeWhichKeepsItsOwnPorts()
    {
        final Settings settings = BenchExchanges.composeSettings(Map.of(
            "BOURSE_GATEWAY_PORT", "16000",
            "BOURSE_SYMBOLS", "IBM@0,ORCL@1",
            "BOURSE_CREDENTIALS", "a,apw,F;b,bpw,F"));

        assertThat(GatewayContext.fromSettings(settings).port()).isEqualTo(GatewayContext.PORT_DEFAULT);
        assertThat(SymbolDirectory.fromSettings(settings).symbolsOfShard(1).getFirst().symbol()).isEqualTo("ORCL");
        assertThat(settings.get(Credentials.PROP_NAME, "")).isEqualTo("a,apw,F;b,bpw,F");
    }
}
