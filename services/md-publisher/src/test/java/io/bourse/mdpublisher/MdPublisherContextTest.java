package io.bourse.mdpublisher;

import io.bourse.common.aeron.StreamLayout;
import io.bourse.common.config.Settings;
import io.bourse.common.config.SymbolDirectory;
import org.junit.jupiter.api.Test;

import java.net.SocketException;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.Map;
import java.util.function.UnaryOperator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The MoldUDP64 settings: read from the environment, defaulted for one host, each bad value named. */
class MdPublisherContextTest
{
    @Test
    void shouldReadTheMoldSettingsFromTheEnvironment() throws SocketException
    {
        final MdPublisherContext ctx = MdPublisherContext.fromSettings(new Settings(Map.of(
            "BOURSE_MD_MOLD_ENABLED", "true",
            "BOURSE_MD_MOLD_GROUP", "239.255.1.2",
            "BOURSE_MD_MOLD_PORT", "26400",
            "BOURSE_MD_MOLD_INTERFACE", "127.0.0.1",
            "BOURSE_MD_MOLD_TTL", "4",
            "BOURSE_MD_MOLD_REQUEST_PORT", "26401",
            "BOURSE_MD_MOLD_SESSION", "DAY1",
            "BOURSE_MD_MOLD_PAYLOAD_LENGTH", "1000",
            "BOURSE_MD_MOLD_STORE_MESSAGES", "5000",
            "BOURSE_MD_MOLD_HEARTBEAT_INTERVAL_MS", "250"))).conclude();

        assertThat(ctx.moldEnabled()).isTrue();
        assertThat(ctx.moldGroupAddress().getHostAddress()).isEqualTo("239.255.1.2");
        assertThat(ctx.moldPort()).isEqualTo(26400);
        assertThat(ctx.moldNetworkInterface().isLoopback()).isTrue();
        assertThat(ctx.moldTtl()).isEqualTo(4);
        assertThat(ctx.moldRequestPort()).isEqualTo(26401);
        assertThat(ctx.moldSession()).isEqualTo("DAY1");
        assertThat(ctx.moldDailySessions()).as("a Session set is the run's only one").isFalse();
        assertThat(ctx.moldPayloadLength()).isEqualTo(1000);
        assertThat(ctx.moldStoreMessages()).isEqualTo(5000);
        final MdPublisherContext stored = MdPublisherContext.fromSettings(new Settings(Map.of(
            "BOURSE_MD_MOLD_STORE_DIR", "/var/tmp/mold", "BOURSE_MD_MOLD_STORE_FILE_BYTES", "65536")));
        assertThat(stored.moldStoreDir()).isEqualTo("/var/tmp/mold");
        assertThat(stored.moldStoreFileBytes()).isEqualTo(65536);
        assertThat(ctx.moldHeartbeatIntervalMs()).isEqualTo(250);
        assertThat(MdPublisherContext.fromSettings(new Settings(Map.of("BOURSE_MD_MOLD_REQUESTS_PER_SECOND", "500")))
            .conclude().moldRequestsPerSecond()).isEqualTo(500);
        assertThat(MdPublisherContext.fromSettings(new Settings(Map.of("BOURSE_MD_MOLD_REQUESTS_PER_SECOND", "0")))
            .conclude().moldRequestsPerSecond()).as("no limit").isZero();
        assertThat(MdPublisherContext.fromSettings(new Settings(Map.of(
            "BOURSE_MD_MOLD_REQUEST_RECEIVE_BUFFER_BYTES", "65536"))).conclude().moldRequestReceiveBufferBytes())
            .isEqualTo(65536);
        assertThat(MdPublisherContext.fromSettings(new Settings(Map.of("BOURSE_MD_MOLD_END_OF_SESSION_MS", "0")))
            .moldEndOfSessionMs()).isZero();
        assertThat(MdPublisherContext.fromSettings(new Settings(Map.of("BOURSE_MD_MOLD_STORE_DIR", "none")))
            .moldStoreDir()).as("no session file").isNull();
    }

    @Test
    void shouldReadTheL2DepthFromTheEnvironment()
    {
        final MdPublisherContext ctx =
            MdPublisherContext.fromSettings(new Settings(Map.of("BOURSE_MD_L2_DEPTH", "10"))).conclude();

        assertThat(ctx.l2Depth()).isEqualTo(10);
    }

    @Test
    void shouldDefaultToAFeedOnTheLoopbackNamedAfterTheRunsStart()
    {
        final Instant before = Instant.now().truncatedTo(ChronoUnit.SECONDS);
        final MdPublisherContext ctx = MdPublisherContext.fromSettings(new Settings(Map.of())).conclude();
        final Instant after = Instant.now();

        assertThat(ctx.moldEnabled()).isTrue();
        assertThat(ctx.moldGroup()).isEqualTo("239.192.0.1");
        assertThat(ctx.moldPort()).isEqualTo(17000);
        assertThat(ctx.moldInterface()).isEqualTo("127.0.0.1");
        assertThat(ctx.moldRequestPort()).isEqualTo(17001);
        assertThat(ctx.moldPayloadLength()).isEqualTo(1400);
        assertThat(ctx.moldStoreMessages()).isEqualTo(1_000_000);
        assertThat(ctx.moldStoreDir()).isEqualTo(Path.of(System.getProperty("java.io.tmpdir"), "bourse-md-mold")
            .toString());
        assertThat(ctx.moldStoreFileBytes()).isEqualTo(1L << 30);
        assertThat(ctx.moldHeartbeatIntervalMs()).isEqualTo(1000);
        assertThat(ctx.moldEndOfSessionMs()).isEqualTo(1000);
        assertThat(ctx.moldRequestsPerSecond()).isEqualTo(20_000);
        assertThat(ctx.moldRequestReceiveBufferBytes()).isEqualTo(4 * 1024 * 1024);
        assertThat(ctx.l2Depth()).isEqualTo(MarketDataBooks.FULL_DEPTH);
        // A session per run and per day, the first named after the run's start in UTC to the second, MMddHHmmss.
        assertThat(ctx.moldDailySessions()).isTrue();
        assertThat(ctx.conclude().moldDailySessions()).as("concluded again").isTrue();
        assertThat(ctx.moldSession()).matches("[0-9]{10}");
        final Instant start = LocalDateTime.parse(before.atZone(ZoneOffset.UTC).getYear() + ctx.moldSession(),
            DateTimeFormatter.ofPattern("yyyyMMddHHmmss")).toInstant(ZoneOffset.UTC);
        assertThat(start).isBetween(before, after);
        assertThat(MdPublisherContext.fromSettings(new Settings(Map.of())).moldSession("DAY1").conclude().moldSession())
            .isEqualTo("DAY1");
        assertThat(ctx.moldSession("DAY2").conclude().moldDailySessions()).as("a Session set after").isFalse();
    }

    @Test
    void shouldNameTheBadMoldSetting()
    {
        assertBad((ctx) -> ctx.moldGroup("10.1.2.3"), MdPublisherContext.MOLD_GROUP_PROP_NAME);
        assertBad((ctx) -> ctx.moldGroup("ff02::1"), MdPublisherContext.MOLD_GROUP_PROP_NAME);
        assertBad((ctx) -> ctx.moldPort(0), MdPublisherContext.MOLD_PORT_PROP_NAME);
        assertBad((ctx) -> ctx.moldInterface("192.0.2.1"), MdPublisherContext.MOLD_INTERFACE_PROP_NAME);
        assertBad((ctx) -> ctx.moldTtl(256), MdPublisherContext.MOLD_TTL_PROP_NAME);
        assertBad((ctx) -> ctx.moldRequestPort(65536), MdPublisherContext.MOLD_REQUEST_PORT_PROP_NAME);
        assertBad((ctx) -> ctx.moldSession("ELEVENCHARS"), MdPublisherContext.MOLD_SESSION_PROP_NAME);
        assertBad((ctx) -> ctx.moldSession("A B"), MdPublisherContext.MOLD_SESSION_PROP_NAME);
        assertBad((ctx) -> ctx.moldPayloadLength(45), MdPublisherContext.MOLD_PAYLOAD_LENGTH_PROP_NAME);
        assertBad((ctx) -> ctx.moldPayloadLength(1401), MdPublisherContext.MOLD_PAYLOAD_LENGTH_PROP_NAME);
        assertBad((ctx) -> ctx.moldStoreMessages(0), MdPublisherContext.MOLD_STORE_MESSAGES_PROP_NAME);
        assertBad((ctx) -> ctx.moldStoreMessages(50_000_000), MdPublisherContext.MOLD_STORE_MESSAGES_PROP_NAME);
        assertBad((ctx) -> ctx.moldStoreFileBytes(0), MdPublisherContext.MOLD_STORE_FILE_BYTES_PROP_NAME);
        assertBad((ctx) -> ctx.moldHeartbeatIntervalMs(0), MdPublisherContext.MOLD_HEARTBEAT_INTERVAL_MS_PROP_NAME);
        assertBad((ctx) -> ctx.moldEndOfSessionMs(-1), MdPublisherContext.MOLD_END_OF_SESSION_MS_PROP_NAME);
        assertBad((ctx) -> ctx.moldEndOfSessionMs(4001), MdPublisherContext.MOLD_END_OF_SESSION_MS_PROP_NAME);
        assertBad((ctx) -> ctx.moldRequestsPerSecond(-1), MdPublisherContext.MOLD_REQUESTS_PER_SECOND_PROP_NAME);
        assertBad((ctx) -> ctx.moldRequestReceiveBufferBytes(-1),
            MdPublisherContext.MOLD_REQUEST_RECEIVE_BUFFER_BYTES_PROP_NAME);
        assertBad((ctx) -> ctx.l2Depth(-1), MdPublisherContext.L2_DEPTH_PROP_NAME);
        assertBad((ctx) -> ctx.l2Depth(1001), MdPublisherContext.L2_DEPTH_PROP_NAME);
        assertThatThrownBy(() -> MdPublisherContext.fromSettings(new Settings(Map.of("BOURSE_MD_MOLD_ENABLED", "yes"))))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining(MdPublisherContext.MOLD_ENABLED_PROP_NAME);
    }

    @Test
    void shouldAcceptTheExtremePayloadLengths()
    {
        assertThat(context().moldPayloadLength(46).conclude().moldPayloadLength()).isEqualTo(46);
        assertThat(context().moldPayloadLength(1400).conclude().moldPayloadLength()).isEqualTo(1400);
    }

    @Test
    void shouldNotCheckTheMoldSettingsWhenTheFeedIsOff()
    {
        final MdPublisherContext ctx = context().moldEnabled(false).moldGroup("10.1.2.3").conclude();

        assertThat(ctx.moldGroupAddress()).isNull();
    }

    private static MdPublisherContext context()
    {
        return new MdPublisherContext()
            .layout(StreamLayout.fromSettings(new Settings(Map.of())))
            .symbolDirectory(SymbolDirectory.parse("AAPL@0"));
    }

    private static void assertBad(final UnaryOperator<MdPublisherContext> change, final String settingName)
    {
        assertThatThrownBy(() -> change.apply(context()).conclude())
            .isInstanceOf(IllegalStateException.class)
            .hasMessageStartingWith(settingName);
    }
}
