package io.bourse.simulator;

import io.bourse.common.config.Credentials;
import io.bourse.common.config.Settings;
import io.bourse.common.config.SymbolDirectory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SimulatorContextTest
{
    private static final Credentials CREDENTIALS = Credentials.parse(List.of(
        "username,password,firm",
        "demo01,pw1,DEMO",
        "demo02,pw2,DEMO",
        "demo03,pw3,DEMO",
        "md01,pw4,DEMO",
        "md02,pw5,DEMO"));

    private static SimulatorContext context()
    {
        return new SimulatorContext()
            .credentials(CREDENTIALS)
            .symbolDirectory(SymbolDirectory.parse("AAPL@0,MSFT@1"))
            .runId(1);
    }

    @Test
    void shouldGiveOrderEntryTheFirstUsersAndMarketDataTheLastByDefault()
    {
        final SimulatorContext ctx = context().sessions(2).mdSessions(1).conclude();

        assertThat(ctx.orderEntryUsers()).extracting(Credentials.User::username).containsExactly("demo01", "demo02");
        assertThat(ctx.marketDataUsers()).extracting(Credentials.User::username).containsExactly("md02");
    }

    @Test
    void shouldUseTheNamedUsers()
    {
        final SimulatorContext ctx = context().sessions(2).users(List.of("demo03", "md01"))
            .mdSessions(1).mdUsers(List.of("demo01")).conclude();

        assertThat(ctx.orderEntryUsers()).extracting(Credentials.User::username).containsExactly("demo03", "md01");
        assertThat(ctx.marketDataUsers()).extracting(Credentials.User::username).containsExactly("demo01");
    }

    @Test
    void shouldNameTheSettingOfAnUnknownUser()
    {
        assertThatThrownBy(() -> context().sessions(1).users(List.of("nobody")).conclude())
            .isInstanceOf(IllegalStateException.class)
            .hasMessageContaining(SimulatorContext.USERS_PROP_NAME)
            .hasMessageContaining("nobody");
    }

    @Test
    void shouldNameTheSettingWhenThereAreMoreSessionsThanUsers()
    {
        assertThatThrownBy(() -> context().sessions(6).conclude())
            .isInstanceOf(IllegalStateException.class)
            .hasMessageContaining(SimulatorContext.USERS_PROP_NAME);
        assertThatThrownBy(() -> context().sessions(1).users(List.of("demo01")).mdSessions(2)
            .mdUsers(List.of("md01")).conclude())
            .isInstanceOf(IllegalStateException.class)
            .hasMessageContaining(SimulatorContext.MD_USERS_PROP_NAME);
    }

    @Test
    void shouldNameTheBadSetting()
    {
        assertThatThrownBy(() -> context().rate(0).conclude())
            .isInstanceOf(IllegalStateException.class).hasMessageContaining(SimulatorContext.RATE_PROP_NAME);
        assertThatThrownBy(() -> context().sessions(0).conclude())
            .isInstanceOf(IllegalStateException.class).hasMessageContaining(SimulatorContext.SESSIONS_PROP_NAME);
        assertThatThrownBy(() -> context().gatewayPort(70_000).conclude())
            .isInstanceOf(IllegalStateException.class).hasMessageContaining(SimulatorContext.GATEWAY_PORT_PROP_NAME);
        assertThatThrownBy(() -> context().durationSeconds(-1).conclude())
            .isInstanceOf(IllegalStateException.class).hasMessageContaining(SimulatorContext.DURATION_PROP_NAME);
        assertThatThrownBy(() -> context().hawkesAlpha(100).hawkesBeta(100).conclude())
            .isInstanceOf(IllegalStateException.class).hasMessageContaining(SimulatorContext.HAWKES_BETA_PROP_NAME);
        assertThatThrownBy(() -> context().scenario(Scenario.MICROBURST).rate(5_000).burstRate(1_000).conclude())
            .isInstanceOf(IllegalStateException.class).hasMessageContaining(SimulatorContext.BURST_RATE_PROP_NAME);
        // The burst rate is the microburst scenario's alone: no other scenario is held under it.
        assertThat(context().scenario(Scenario.STEADY).rate(2_000_000).conclude().rate()).isEqualTo(2_000_000);
        assertThatThrownBy(() -> context().zipfExponent(-1).conclude())
            .isInstanceOf(IllegalStateException.class).hasMessageContaining(SimulatorContext.ZIPF_EXPONENT_PROP_NAME);
        assertThatThrownBy(() -> context().rate(1_000).rampMax(500).conclude())
            .isInstanceOf(IllegalStateException.class).hasMessageContaining(SimulatorContext.RAMP_MAX_PROP_NAME);
        // The exchange-core book target over the sessions: 2 symbols x 6,000 on 1 session is above the 10,000 tracked.
        assertThatThrownBy(() -> context().scenario(Scenario.EXCHANGE_CORE).sessions(1).bookTarget(6_000).conclude())
            .isInstanceOf(IllegalStateException.class).hasMessageContaining("12000 resting orders per OUCH session");
        assertThat(context().scenario(Scenario.EXCHANGE_CORE).sessions(2).bookTarget(6_000).conclude()
            .sessionBookTarget()).isEqualTo(6_000);
    }

    @Test
    void shouldDefaultTheRampToStepsOfTheRateUpToTwentyTimesIt()
    {
        final SimulatorContext ctx = context().rate(500).conclude();

        assertThat(ctx.scenario()).isEqualTo(Scenario.STEADY);
        assertThat(ctx.rampStep()).isEqualTo(500);
        assertThat(ctx.rampMax()).isEqualTo(10_000);
    }

    @Test
    void shouldNameTheScenarioSettingAndTheKnownScenariosWhenTheNameIsUnknown(@TempDir final Path dir)
        throws IOException
    {
        final Path file = Files.writeString(dir.resolve("credentials.csv"), "demo01,pw1,DEMO\n");
        final Settings settings = new Settings(Map.of(
            "BOURSE_CREDENTIALS_FILE", file.toString(), "BOURSE_SIMULATOR_SCENARIO", "tsunami"));

        assertThatThrownBy(() -> SimulatorContext.fromSettings(settings))
            .isInstanceOf(IllegalStateException.class)
            .hasMessageContaining(SimulatorContext.SCENARIO_PROP_NAME)
            .hasMessageContaining("[steady, exchange-core, poisson, hawkes, microburst, skewed, ramp]");
    }

    @Test
    void shouldReadSettingsFromTheEnvironment(@TempDir final Path dir) throws IOException
    {
        final Path file = Files.writeString(dir.resolve("credentials.csv"), "demo01,pw1,DEMO\ntrdr01,pw2,FIRM\n" +
            "trdr02,pw3,FIRM\nmd01,pw4,DEMO\n");
        final Settings settings = new Settings(Map.of(
            "BOURSE_CREDENTIALS_FILE", file.toString(),
            "BOURSE_SIMULATOR_GATEWAY_PORT", "25000",
            "BOURSE_SIMULATOR_SESSIONS", "2",
            "BOURSE_SIMULATOR_USERS", "trdr01, trdr02",
            "BOURSE_SIMULATOR_RATE", "5000",
            "BOURSE_SIMULATOR_DURATION", "0",
            "BOURSE_SIMULATOR_HGRM_DIR", "/tmp/hgrm",
            "BOURSE_SIMULATOR_SCENARIO", "Exchange-Core",
            "BOURSE_SIMULATOR_HAWKES_ALPHA", "20.5",
            "BOURSE_SIMULATOR_ZIPF_EXPONENT", "1.5"));

        final SimulatorContext ctx = SimulatorContext.fromSettings(settings).conclude();

        assertThat(ctx.gatewayPort()).isEqualTo(25000);
        assertThat(ctx.fanoutPort()).isEqualTo(SimulatorContext.FANOUT_PORT_DEFAULT);
        assertThat(ctx.orderEntryUsers()).extracting(Credentials.User::username).containsExactly("trdr01", "trdr02");
        assertThat(ctx.marketDataUsers()).extracting(Credentials.User::username).containsExactly("md01");
        assertThat(ctx.rate()).isEqualTo(5000);
        assertThat(ctx.durationSeconds()).isZero();
        assertThat(ctx.hgrmDir()).hasToString("/tmp/hgrm");
        assertThat(ctx.metricsPort()).isEqualTo(9404);
        assertThat(ctx.scenario()).isEqualTo(Scenario.EXCHANGE_CORE);
        assertThat(ctx.hawkesAlpha()).isEqualTo(20.5);
        assertThat(ctx.hawkesBeta()).isEqualTo(SimulatorContext.HAWKES_BETA_DEFAULT);
        assertThat(ctx.zipfExponent()).isEqualTo(1.5);
    }

    @Test
    void shouldTakeTheUsersOfTheEnvironmentFirstForOrderEntryLastForMarketData()
    {
        final Settings settings = new Settings(Map.of(
            "BOURSE_CREDENTIALS", "envu01,envu01pw,ENVF;envu02,envu02pw,ENVF;envmd,envmdpw,ENVF",
            "BOURSE_SIMULATOR_SESSIONS", "2"));

        final SimulatorContext ctx = SimulatorContext.fromSettings(settings).conclude();

        assertThat(ctx.orderEntryUsers()).extracting(Credentials.User::username).containsExactly("envu01", "envu02");
        assertThat(ctx.marketDataUsers()).containsExactly(new Credentials.User("envmd", "envmdpw", "ENVF"));
    }

    @Test
    void shouldReadTheMoldUdp64FeedWithTheMdPublishersAddressesByDefault(@TempDir final Path dir) throws IOException
    {
        final Path file = Files.writeString(dir.resolve("credentials.csv"), "demo01,pw1,DEMO\nmd01,pw4,DEMO\n");
        final Settings settings = new Settings(Map.of(
            "BOURSE_CREDENTIALS_FILE", file.toString(),
            "BOURSE_SIMULATOR_SESSIONS", "1",
            "BOURSE_SIMULATOR_MD_FEED", "MoldUDP64",
            "BOURSE_SIMULATOR_MD_MOLD_REQUEST_PORT", "27001"));

        final SimulatorContext ctx = SimulatorContext.fromSettings(settings).conclude();

        assertThat(ctx.mdFeed()).isEqualTo(MarketDataFeed.MOLDUDP64);
        assertThat(ctx.moldGroupAddress()).hasToString("/239.192.0.1:17000");
        assertThat(ctx.moldInterfaceAddress().getHostAddress()).isEqualTo("127.0.0.1");
        assertThat(ctx.moldRequestAddress()).hasToString("/127.0.0.1:27001");
        assertThat(context().conclude().mdFeed()).isEqualTo(MarketDataFeed.SOUPBINTCP);
    }

    @Test
    void shouldNameTheBadMoldUdp64Setting(@TempDir final Path dir) throws IOException
    {
        final Path file = Files.writeString(dir.resolve("credentials.csv"), "demo01,pw1,DEMO\n");

        assertThatThrownBy(() -> SimulatorContext.fromSettings(new Settings(Map.of(
            "BOURSE_CREDENTIALS_FILE", file.toString(), "BOURSE_SIMULATOR_MD_FEED", "carrier-pigeon"))))
            .isInstanceOf(IllegalStateException.class)
            .hasMessageContaining(SimulatorContext.MD_FEED_PROP_NAME)
            .hasMessageContaining("[soupbintcp, moldudp64]");
        assertThatThrownBy(() -> context().mdFeed(MarketDataFeed.MOLDUDP64).moldGroup("10.0.0.1").conclude())
            .isInstanceOf(IllegalStateException.class).hasMessageContaining(SimulatorContext.MD_MOLD_GROUP_PROP_NAME);
        assertThatThrownBy(() -> context().mdFeed(MarketDataFeed.MOLDUDP64).moldInterface("192.0.2.1").conclude())
            .isInstanceOf(IllegalStateException.class)
            .hasMessageContaining(SimulatorContext.MD_MOLD_INTERFACE_PROP_NAME);
        assertThatThrownBy(() -> context().moldRequestPort(0).conclude())
            .isInstanceOf(IllegalStateException.class)
            .hasMessageContaining(SimulatorContext.MD_MOLD_REQUEST_PORT_PROP_NAME);
    }
}
