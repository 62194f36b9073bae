package io.bourse.gateway;

import io.aeron.Aeron;
import io.aeron.Subscription;
import io.aeron.archive.ArchivingMediaDriver;
import io.aeron.driver.MediaDriver;
import io.aeron.driver.status.PublisherLimit;
import io.aeron.driver.status.PublisherPos;
import io.bourse.common.aeron.EmbeddedMediaDriver;
import io.bourse.common.aeron.EventArchive;
import io.bourse.common.aeron.StreamCounters;
import io.bourse.common.aeron.StreamLayout;
import io.bourse.common.config.Credentials;
import io.bourse.common.config.SymbolDirectory;
import io.bourse.common.metrics.MetricsEndpoint;
import io.bourse.engine.EngineContext;
import io.bourse.engine.EngineService;
import io.bourse.gateway.OuchMessages.Accepted;
import io.bourse.gateway.OuchMessages.Canceled;
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
 * its drain timed out), and the shard's next run, behind a real gateway on a real media driver. The next run joins the
 * gateway's command publication past that command and says so (CommandStreamJoined): the gateway rejects a lost order
 * 'H', and sends a lost cancel again. Before, the client waited for the answer for good.
 */
@Timeout(60)
class CommandLostWithEngineRunTest
{
    /** More than the 32 KiB window of the event stream's 64 KiB term holds of the shard's Rejected events. */
    private static final int ORDERS = 600;
    /** The event stream's term length, bytes: a 32 KiB window. */
    private static final int EVENT_TERM_LENGTH = 64 * 1024;
    private static final Pattern EVENTS_HELD_LINE =
        Pattern.compile("(?m)^" + Pattern.quote("bourse_engine_events_held_total") + " (\\S+)$");
    /** A directory in which AAPL is shard 1's: shard 0 rejects every AAPL order 'S', one event each. */
    private static final SymbolDirectory NOT_TRADING_AAPL = SymbolDirectory.parse("AAPL@1,MSFT@0");
    private static final SymbolDirectory TRADING_AAPL = SymbolDirectory.parse("AAPL@0");

    @TempDir
    private Path journalDir;
    @TempDir
    private Path archiveDir;

    /**
     * The shard does not trade AAPL, so each of the client's AAPL orders has one event, Rejected 'S' (invalid stock),
     * and the command whose event the first run held is the order it took and never answered.
     */
    @Test
    void shouldRejectTheOrderARunTookAndNeverAnsweredWhenTheShardsNextRunJoinsPastIt() throws Exception
    {
        try (MediaDriver driver = EmbeddedMediaDriver.launch("command-lost-with-run"))
        {
            final StreamLayout layout = smallEventTerm(EmbeddedMediaDriver.defaultLayout(driver));
            EngineService shard = launchShard(layout, NOT_TRADING_AAPL, EventArchive.DISABLED);
            try (Aeron aeron = Aeron.connect(new Aeron.Context().aeronDirectoryName(layout.aeronDirectoryName()));
                Subscription notReading = aeron.addSubscription(layout.eventChannel(), layout.eventStreamId(0));
                GatewayService gateway = launchGateway(layout, EventArchive.DISABLED);
                TestClient client = TestClient.login(gateway.port(), "demo01", 1))
            {
                sendOrders(client, 0, ORDERS);
                awaitHeldForGood(shard, 0, client, 2 + ORDERS);
                shard.close(); // nobody reads the held event: the drain times out and the run goes without it
                notReading.close();
                client.keepAlive(); // 8 s of the client's silence so far; the gateway ends a session at 15 s
                shard = launchShard(layout, NOT_TRADING_AAPL, EventArchive.DISABLED);

                final List<Rejected> answers = awaitAnswers(client, 2 + ORDERS, Rejected.class);
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

    /**
     * The shard trades AAPL and records its events in the archive, each run recovering the earlier ones. The client's
     * AAPL orders are all accepted, each resting, before an event subscriber that does not read joins; then each of
     * its full cancels has one event, Canceled, and the command whose event the first run held is the cancel it took
     * and never answered. The next run recovers the order without that cancel and joins past it: the gateway sends the
     * cancel again and the new run cancels the order.
     */
    @Test
    void shouldSendAgainTheCancelARunTookAndNeverAnsweredWhenTheShardsNextRunJoinsPastIt() throws Exception
    {
        final EventArchive archive = new EventArchive(true, archiveDir.toString(), EventArchive.REPLAY_STREAM_DEFAULT);
        try (ArchivingMediaDriver driver = EmbeddedMediaDriver.launchWithArchive("cancel-lost-with-run", archive))
        {
            final StreamLayout layout = smallEventTerm(EmbeddedMediaDriver.defaultLayout(driver.mediaDriver()));
            EngineService shard = launchShard(layout, TRADING_AAPL, archive);
            try (Aeron aeron = Aeron.connect(new Aeron.Context().aeronDirectoryName(layout.aeronDirectoryName()));
                GatewayService gateway = launchGateway(layout, archive);
                TestClient client = TestClient.login(gateway.port(), "demo01", 1))
            {
                int orders = enterOrders(client, 0, ORDERS);
                // The gateway and the archive read to the stream's end, where the subscriber joins. The driver moves
                // a publication's limit only in steps of an eighth of its window, so the window from the join is
                // whole only when the limit's last step was taken at the stream's end; more orders until it was.
                for (int attempt = 1; !isEventLimitAtWindowFromEnd(aeron, layout); attempt++)
                {
                    assertThat(attempt).as("orders until the event stream's limit is a window past its end")
                        .isLessThan(20);
                    orders = enterOrders(client, orders, 40);
                }
                final Subscription notReading = aeron.addSubscription(layout.eventChannel(), layout.eventStreamId(0));
                while (!notReading.isConnected())
                {
                    Thread.sleep(1);
                }
                final double heldBefore = eventsHeld(shard);
                for (int i = 1; i <= orders; i++)
                {
                    client.cancelOrder("F" + i, 0);
                }
                // From the join, each cancel is a SequencedCommand (96 bytes) and a Canceled (128): the 32 KiB window
                // holds 146 of them and 64 bytes, so the next SequencedCommand is held and its cancel is in no
                // recording.
                awaitHeldForGood(shard, heldBefore, client, 2 + 2 * orders);
                shard.close(); // nobody reads the held event: the drain times out and the run goes without it
                notReading.close();
                client.keepAlive(); // 8 s of the client's silence so far; the gateway ends a session at 15 s
                shard = launchShard(layout, TRADING_AAPL, archive);

                final List<Canceled> answers = awaitAnswers(client, 2 + 2 * orders, Canceled.class);
                assertThat(answers).as("every order canceled").hasSize(orders)
                    .extracting(Canceled::reason).containsOnly((char)Ouch42.CANCEL_USER_REQUESTED);
                assertThat(MetricsEndpoint.scrape(gateway.metricsPort()))
                    .contains("bourse_gateway_cancels_resent_total 1.0")
                    .contains("bourse_gateway_open_orders 0.0");
            }
            finally
            {
                CloseHelper.close(shard);
            }
        }
    }

    /** Sends day orders F{from + 1} to F{from + count} for AAPL. */
    private static void sendOrders(final TestClient client, final int from, final int count) throws Exception
    {
        final UnsafeBuffer request = new UnsafeBuffer(new byte[EnterOrder.LENGTH]);
        for (int i = from + 1; i <= from + count; i++)
        {
            EnterOrders.encode(request, "F" + i, "AAPL");
            client.send(request, EnterOrder.LENGTH);
        }
    }

    /**
     * Enters day orders F{from + 1} to F{from + count} for AAPL, all resting, and waits for their Accepted and 500 ms
     * more, for the gateway, the archive and the driver to take in their events.
     *
     * @return the orders entered so far: {@code from + count}.
     */
    private static int enterOrders(final TestClient client, final int from, final int count) throws Exception
    {
        sendOrders(client, from, count);
        assertThat(awaitAnswers(client, 2 + from + count, Accepted.class)).hasSize(from + count);
        Thread.sleep(500);
        return from + count;
    }

    /** @return whether shard 0's event stream has its limit at a whole window (half its term) past its end. */
    private static boolean isEventLimitAtWindowFromEnd(final Aeron aeron, final StreamLayout layout)
    {
        final int streamId = layout.eventStreamId(0);
        return StreamCounters.value(aeron.countersReader(), streamId, PublisherLimit.PUBLISHER_LIMIT_TYPE_ID) ==
            StreamCounters.value(aeron.countersReader(), streamId, PublisherPos.PUBLISHER_POS_TYPE_ID) + EVENT_TERM_LENGTH / 2;
    }

    private static StreamLayout smallEventTerm(final StreamLayout layout)
    {
        return layout.withEventChannel("aeron:ipc?term-length=" + EVENT_TERM_LENGTH);
    }

    /** Shard 0 with the archive or without. */
    private static EngineService launchShard(
        final StreamLayout layout, final SymbolDirectory symbols, final EventArchive archive)
    {
        return EngineService.launch(new EngineContext()
            .shardId(0)
            .metricsPort(0)
            .jvmMetrics(false)
            .streamLayout(layout)
            .symbolDirectory(symbols)
            .eventArchive(archive)
            .idleStrategy(new SleepingMillisIdleStrategy(1)));
    }

    private GatewayService launchGateway(final StreamLayout layout, final EventArchive archive)
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
            .symbolDirectory(TRADING_AAPL)
            .eventArchive(archive)
            .clockTickIntervalMs(TimeUnit.HOURS.toMillis(1)) // no ClockTick among the test's commands
            .idleStrategy(new SleepingMillisIdleStrategy(1)));
    }

    /**
     * Waits until the shard holds an event for good: a hold counted past {@code heldBefore}, then the client's messages
     * stopping short of {@code messages} through its 3 s wait. A hold while the gateway or the archive lags is let go,
     * and a shard closed during one drains whole, losing nothing; the subscriber that never reads stops the run for
     * good once its window is full, which the commands sent overrun.
     */
    private static void awaitHeldForGood(
        final EngineService shard, final double heldBefore, final TestClient client, final int messages)
        throws Exception
    {
        final long deadlineNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (eventsHeld(shard) <= heldBefore)
        {
            assertThat(System.nanoTime()).as("events held").isLessThan(deadlineNs);
            Thread.sleep(1);
        }
        assertThat(client.await(messages)).as("an event held for good").hasSizeLessThan(messages);
    }

    /** @return the shard's count of events held at first, from its metrics endpoint. */
    private static double eventsHeld(final EngineService shard) throws Exception
    {
        final Matcher value = EVENTS_HELD_LINE.matcher(MetricsEndpoint.scrape(shard.metricsPort()));
        return value.find() ? Double.parseDouble(value.group(1)) : 0;
    }

    /**
     * @return the messages of a type the client received, once it has the count of messages, or after 20 s, or once
     *         its session ended; the client heartbeats meanwhile.
     */
    private static <T> List<T> awaitAnswers(final TestClient client, final int count, final Class<T> type)
        throws Exception
    {
        final long deadlineNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        List<Object> received = client.await(count);
        while (received.size() < count && System.nanoTime() < deadlineNs)
        {
            client.keepAlive();
            received = client.await(count);
        }
        return received.stream().filter(type::isInstance).map(type::cast).toList();
    }
}
