package io.bourse.launcher;

import io.aeron.exceptions.DriverTimeoutException;
import io.bourse.common.config.Settings;
import org.junit.jupiter.api.Test;

import java.io.UncheckedIOException;
import java.net.BindException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.util.HashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The one line a failed command prints: what failed and why.
 */
class BourseMainTest
{
    @Test
    void shouldNameTheKindOfAFileErrorWhoseMessageIsOnlyItsFile()
    {
        final Exception ex = new UncheckedIOException("bourse.gateway.journal.dir=/var/lib/bourse/gateway-journal",
            new AccessDeniedException("/var/lib/bourse/gateway-journal/20261123/demo01.journal"));

        assertThat(BourseMain.describe(ex)).isEqualTo("bourse.gateway.journal.dir=/var/lib/bourse/gateway-journal: " +
            "/var/lib/bourse/gateway-journal/20261123/demo01.journal (access denied)");
    }

    @Test
    void shouldSayWhatAnAeronDriverTimeoutMeans()
    {
        assertThat(BourseMain.describe(new DriverTimeoutException("CnC file not created: /dev/shm/aeron-x/cnc.dat")))
            .isEqualTo("FATAL - CnC file not created: /dev/shm/aeron-x/cnc.dat (no media driver answered: start " +
                "`bourse media-driver` first, with the same BOURSE_AERON_DIR)");
    }

    @Test
    void shouldKeepTheMessagesOfOtherErrorsAsTheyAre()
    {
        final Exception ex = new IllegalStateException("metrics port 9401",
            new BindException("Address already in use"));

        assertThat(BourseMain.describe(ex)).isEqualTo("metrics port 9401: Address already in use");
        assertThat(BourseMain.describe(new FileSystemException("/dev/shm/aeron", null, "Read-only file system")))
            .isEqualTo("/dev/shm/aeron: Read-only file system");
    }

    /**
     * The exchange's banner gives the options an admin command needs to reach it: its Aeron directory and its
     * symbols. Before, it left out the symbols, and an admin command with the default ones sent to the wrong shards.
     */
    @Test
    void shouldGiveTheAeronDirectoryAndTheSymbolsForAdminCommandsInTheExchangesBanner()
    {
        assertThat(BourseMain.Exchange.runningBanner(15000, 16000, new Settings(Map.of(
            "BOURSE_AERON_DIR", "/dev/shm/aeron-x", "BOURSE_SYMBOLS", "IBM@0,ORCL@1,SAP@1"))))
            .isEqualTo("exchange running: OUCH 4.2/SoupBinTCP on 15000, ITCH 5.0/SoupBinTCP on 16000; admin " +
                "commands: ./bourse admin ... --aeron-dir /dev/shm/aeron-x --symbols IBM@0,ORCL@1,SAP@1; Ctrl-C to " +
                "stop");
    }

    /**
     * The demo's simulator reads the MoldUDP64 feed where the embedded md-publisher sends it; a setting of its own
     * wins. Before, it kept its defaults and got no market data from an md-publisher sent elsewhere.
     */
    @Test
    void shouldPointTheDemosSimulatorAtTheMdPublishersMoldUdp64Feed()
    {
        final Map<String, String> overrides = new HashMap<>();
        BourseMain.followMoldFeed(new Settings(Map.of(
            "BOURSE_MD_MOLD_GROUP", "239.192.0.9",
            "BOURSE_MD_MOLD_PORT", "18000",
            "BOURSE_MD_MOLD_REQUEST_PORT", "18001",
            "BOURSE_MD_MOLD_INTERFACE", "127.0.0.2",
            "BOURSE_SIMULATOR_MD_MOLD_PORT", "19000")), overrides);

        assertThat(overrides).isEqualTo(Map.of(
            "BOURSE_SIMULATOR_MD_MOLD_GROUP", "239.192.0.9",
            "BOURSE_SIMULATOR_MD_MOLD_REQUEST_PORT", "18001",
            "BOURSE_SIMULATOR_MD_MOLD_INTERFACE", "127.0.0.2",
            "BOURSE_SIMULATOR_MD_MOLD_REQUEST_HOST", "127.0.0.2"));
    }

    /**
     * A demo option given on the command line wins; one not given leaves the simulator's own setting as the
     * environment gives it, else takes the demo's default. Before, the defaults hid {@code BOURSE_SIMULATOR_RATE} and
     * the like from {@code ./bourse demo}.
     */
    @Test
    void shouldTakeADemoOptionFromTheCommandLineElseFromTheSimulatorsSettingElseTheDemosDefault()
    {
        final Map<String, String> overrides = new HashMap<>();
        final Settings settings =
            new Settings(Map.of("BOURSE_SIMULATOR_RATE", "5000", "BOURSE_SIMULATOR_SESSIONS", "2"));

        BourseMain.Demo.putOption(overrides, settings, "bourse.simulator.rate", null, 1_000);
        BourseMain.Demo.putOption(overrides, settings, "bourse.simulator.sessions", 8, 4);
        BourseMain.Demo.putOption(overrides, settings, "bourse.simulator.duration", null, 10);

        assertThat(overrides).isEqualTo(Map.of("BOURSE_SIMULATOR_SESSIONS", "8", "BOURSE_SIMULATOR_DURATION", "10"));
    }

    /**
     * A demo option on the command line wins over the setting's JVM system property, which stands when the option is
     * left out. Before, the property won over the command line too.
     */
    @Test
    void shouldTakeADemoOptionFromTheCommandLineOverTheSettingsSystemProperty()
    {
        System.setProperty("bourse.simulator.rate", "5000");
        try
        {
            final Map<String, String> overrides = new HashMap<>();
            BourseMain.Demo.putOption(overrides, Settings.fromEnvironment(), "bourse.simulator.rate", 800, 1_000);
            assertThat(BourseMain.embeddedSettings(overrides).getInt("bourse.simulator.rate", 0)).isEqualTo(800);

            overrides.clear();
            BourseMain.Demo.putOption(overrides, Settings.fromEnvironment(), "bourse.simulator.rate", null, 1_000);
            assertThat(BourseMain.embeddedSettings(overrides).getInt("bourse.simulator.rate", 0)).isEqualTo(5000);
        }
        finally
        {
            System.clearProperty("bourse.simulator.rate");
        }
    }

    /** A re-request port of 0 (any free one) is the md-publisher's to choose: the simulator keeps its own setting. */
    @Test
    void shouldNotPassOnAnyFreePortToTheDemosSimulator()
    {
        final Map<String, String> overrides = new HashMap<>();
        BourseMain.followMoldFeed(new Settings(Map.of("BOURSE_MD_MOLD_REQUEST_PORT", "0")), overrides);

        assertThat(overrides).isEmpty();
    }
}
