package io.bourse.launcher;

import io.aeron.Aeron;
import io.aeron.driver.ThreadingMode;
import io.bourse.common.aeron.EventArchive;
import io.bourse.common.aeron.StreamLayout;
import io.bourse.common.aeron.ThreadAffinity;
import io.bourse.common.config.EmbeddedTestSettings;
import io.bourse.common.config.Settings;
import io.bourse.simulator.SimulatorContext;
import io.bourse.launcher.MediaDriverService.UntetheredTimeouts;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.net.InetAddress;
import java.net.Socket;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The embedded exchange next to a running media driver: pointed at that driver's directory (as a compose stack's
 * {@code BOURSE_AERON_DIR} would), it refuses to start rather than delete the directory under the driver's clients;
 * and the ports it binds.
 */
@Timeout(30)
class EmbeddedExchangeTest
{
    @Test
    void shouldRefuseToStartOnTheDirectoryOfAnActiveMediaDriverAndLeaveThatDriverRunning()
    {
        final String directory = EmbeddedTestSettings.newAeronDirectory();
        try (MediaDriverService running = MediaDriverService.launch(directory, ThreadingMode.SHARED,
            StreamLayout.IPC_TERM_LENGTH_DEFAULT, UntetheredTimeouts.DEFAULT, -1, false, ThreadAffinity.NONE,
            EventArchive.DISABLED))
        {
            assertThatThrownBy(() -> EmbeddedExchange.launch(new Settings(Map.of("BOURSE_AERON_DIR", directory))))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("a media driver is active in " + directory);

            try (Aeron aeron = Aeron.connect(new Aeron.Context().aeronDirectoryName(directory)))
            {
                assertThat(aeron.isClosed()).isFalse();
            }
        }
    }

    /**
     * Ports set to 0 are bound to free ones: the exchange reports those (the {@code exchange} banner printed 0), and
     * the demo's simulator connects to them.
     */
    @Test
    void shouldReportTheGatewayAndFanoutPortsBoundForPortZeroAndPointTheDemosSimulatorAtThem() throws IOException
    {
        final Map<String, String> overrides = EmbeddedTestSettings.onFreePorts();
        try (EmbeddedExchange exchange = EmbeddedExchange.launch(new Settings(overrides)))
        {
            assertThat(exchange.gatewayPort()).isPositive();
            assertThat(exchange.fanoutPort()).isPositive().isNotEqualTo(exchange.gatewayPort());
            for (final int port : new int[] {exchange.gatewayPort(), exchange.fanoutPort()})
            {
                try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port))
                {
                    assertThat(socket.isConnected()).isTrue();
                }
            }
            final SimulatorContext simulator =
                SimulatorContext.fromSettings(BourseMain.simulatorSettings(overrides, exchange));
            assertThat(simulator.gatewayPort()).isEqualTo(exchange.gatewayPort());
            assertThat(simulator.fanoutPort()).isEqualTo(exchange.fanoutPort());
        }
    }
}
