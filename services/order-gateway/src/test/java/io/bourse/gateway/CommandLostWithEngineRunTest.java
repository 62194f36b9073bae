package io.bourse.gateway;

import io.aeron.Aeron;
import io.aeron.Subscription;
import io.aeron.driver.MediaDriver;
import io.bourse.common.aeron.EmbeddedMediaDriver;
import io.bourse.common.aeron.StreamLayout;
import io.bourse.common.config.Credentials;
import io.bourse.common.config.SymbolDirectory;
import io.bourse.common.metrics.MetricsEndpoint;
import io.bourse.engine.EngineContext;
import io.bourse.engine.EngineService;
import io.bourse.gateway.OuchMessages.Rejected;
import io.bourse.ouch.EnterOrder;
import io.bourse.ouch.Ouch42;
import org.agrona.CloseHelper;
import org.agrona.concurrent.SleepingMillisIdleStrategy;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A real engine shard that stops holding the events of the last command it took (an event subscriber not reading,
 * its drain timed out), and the shard's next run, behind a real gateway on a real media driver. The shard does not
 * trade AAPL, so each of the client's AAPL orders has one event, Rejected 'S' (invalid stock), and the command whose
 * event the first run held is the order it took and never answered. The next run joins the gateway's command
 * publication past that order and says so (CommandStreamJoined): the gateway rejects it 'H'. Before, its client
 * waited for its answer for good.
 */
@Timeout(60)
class CommandLostWithEngineRunTest
{
    /** More than the 32 KiB window of the event stream's 64 KiB term holds of the shard's Rejected events. */
    private static final int ORDERS = 600;
    private static final String EVENTS_HELD = "bourse_engine_events_held_total";

    @TempDir
    private Path journalDir;

    @Test
    void shouldRejectTheOrderARunTookAndNeverAnsweredWhenTheShardsNextRunJoinsPastIt() throws Exception
    {
        try (MediaDriver driver = EmbeddedMediaDriver.launch("command-lost-with-run"))
        {
            final StreamLayout layout = EmbeddedMediaDriver.defaultLayout(driver)
                .withEventChannel("aeron:ipc?term-length=65536");
            EngineService shard = launchShard(layout);
            try (Aeron aeron = Aeron.connect(new Aeron.Context().aeronDirectoryName(layout.aeronDirectoryName()));
                Subscription notReading = aeron.addSubscription(layout.eventChannel(), layout.eventStreamId(0));
                GatewayService gateway = launchGateway(layout);
                TestClient client = TestClient.login(gateway.port(), "demo01", 1))
            {
                final UnsafeBuffer request = new UnsafeBuffer(new byte[EnterOrder.LENGTH]);
                for (int i = 1; i <= ORDERS; i++)
                {
                    EnterOrders.encode(request, "F" + i, "AAPL");
                    client.send(request, EnterOrder.LENGTH);
                }
                awaitEventsHeld(shard);
                shard.close(); // nobody reads the held event: the drain times out and the run goes without it
                notReading.close();
                client.keepAlive(); // 5 s of the client's silence so far; the gateway ends a session at 15 s
                shard = launchShard(layout);

                final List<Rejected> answers = awaitAnswers(client);
                assertThat(answers).as("an answer to every order").hasSize(ORDERS);
                assertThat(answers.stream().map(Rejected::reason))
                    .containsOnly((char)Ouch42.REJECT_INVALID_STOCK, (char)Ouch42.REJECT_HALTED)
                    .filteredOn((reason) -> (char)Ouch42.REJECT_HALTED == reason).hasSize(1);
                assertThat(MetricsEndpoint.scrape(gateway.metricsPort()))
                    .contains("bourse_gateway_rejects_total{reason=\"command_lost_with_engine_run\"} 1.0")
                    .contains("bourse_gateway_open_orders 0.0");
            }
            finally
            {
                CloseHelper.close(shard);
            }
        }
    }

    /** Shard 0 of a directory in which AAPL is shard 1's: it rejects every AAPL order 'S', one event each. */
    private static EngineService launchShard(final StreamLayout layout)
    {
        return EngineService.launch(new EngineContext()
            .shardId(0)
            .metricsPort(0)
            .jvmMetrics(false)
            .streamLayout(layout)
            .symbolDirectory(SymbolDirectory.parse("AAPL@1,MSFT@0"))
            .idleStrategy(new SleepingMillisIdleStrategy(1)));
    }

    private GatewayService launchGateway(final StreamLayout layout)
    {
        return GatewayService.launch(new GatewayContext()
            .port(0)
            .bindAddress("127.0.0.1")
            .metricsPort(0)
            .jvmMetrics(false)
            .sessionName("S20250104")
            .journalDir(journalDir.toString())
            .credentials(Credentials.parse(List.of("demo01,demo01pw,DEMO")))
            .streamLayout(layout)
            .symbolDirectory(SymbolDirectory.parse("AAPL@0"))
            .idleStrategy(new SleepingMillisIdleStrategy(1)));
    }

    private static void awaitEventsHeld(final EngineService shard) throws Exception
    {
        final Pattern held = Pattern.compile("(?m)^" + Pattern.quote(EVENTS_HELD) + " (\\S+)$");
        final long deadlineNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (true)
        {
            final Matcher value = held.matcher(MetricsEndpoint.scrape(shard.metricsPort()));
            if (value.find() && Double.parseDouble(value.group(1)) > 0)
            {
                return;
            }
            assertThat(System.nanoTime()).as("events held").isLessThan(deadlineNs);
            Thread.sleep(1);
        }
    }

    /**
     * @return the Rejected the client received, once it has one for every order, or after 20 s, or once its session
     *         ended; the client heartbeats meanwhile.
     */
    private static List<Rejected> awaitAnswers(final TestClient client) throws Exception
    {
        final long deadlineNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        List<Object> received = client.await(2 + ORDERS);
        while (received.size() < 2 + ORDERS && System.nanoTime() < deadlineNs)
        {
            client.keepAlive();
            received = client.await(2 + ORDERS);
        }
        return received.stream().filter(Rejected.class::isInstance).map(Rejected.class::cast).toList();
    }
}
