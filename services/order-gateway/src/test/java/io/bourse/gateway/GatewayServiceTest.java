package io.bourse.gateway;

import io.aeron.Aeron;
import io.aeron.CommonContext;
import io.aeron.ExclusivePublication;
import io.aeron.Subscription;
import io.aeron.driver.MediaDriver;
import io.aeron.logbuffer.FragmentHandler;
import io.bourse.common.aeron.EmbeddedMediaDriver;
import io.bourse.common.aeron.StreamLayout;
import io.bourse.common.config.Credentials;
import io.bourse.common.config.Settings;
import io.bourse.common.config.Symbols;
import io.bourse.common.config.SymbolDirectory;
import io.bourse.common.metrics.MetricsEndpoint;
import io.bourse.common.metrics.ReadyEndpoint;
import io.bourse.gateway.OuchMessages.Accepted;
import io.bourse.gateway.OuchMessages.Canceled;
import io.bourse.gateway.OuchMessages.Rejected;
import io.bourse.gateway.OuchMessages.SystemEventMessage;
import io.bourse.gateway.TestClient.Closed;
import io.bourse.gateway.TestClient.LoginAccepted;
import io.bourse.gateway.TestClient.LoginRejected;
import io.bourse.ouch.EnterOrder;
import io.bourse.ouch.OrderAccepted;
import io.bourse.ouch.Ouch42;
import io.bourse.sbe.engine.CancelOrderDecoder;
import io.bourse.sbe.engine.ClockTickDecoder;
import io.bourse.sbe.engine.MessageHeaderDecoder;
import io.bourse.sbe.engine.NewOrderDecoder;
import io.bourse.sbe.engine.Side;
import org.agrona.CloseHelper;
import org.agrona.concurrent.SleepingMillisIdleStrategy;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The whole gateway as launched in production, on a real embedded media driver: OUCH in over a socket, SBE NewOrder
 * out on the shard's command stream, SBE OrderAccepted in on the event stream, OUCH Accepted back to the client.
 */
@Timeout(20)
class GatewayServiceTest
{
    private static final String SESSION = "S20250102";
    private static final long PRICE = 1_500_000;

    @TempDir
    private static Path journalDir;
    private static MediaDriver driver;
    private static GatewayService gateway;
    private static Aeron aeron;
    private static StreamLayout layout;
    /** The engine shard 0 the tests play: one sequence of events. */
    private static EngineEvents engineEvents;

    record NewOrderCommand(
        long clientOrderId, String symbol, Side side, long quantity, long price, long timeInForce,
        long minimumQuantity, String firm, char display)
    {
    }

    @BeforeAll
    static void start()
    {
        driver = EmbeddedMediaDriver.launch("gateway-test");
        layout = EmbeddedMediaDriver.defaultLayout(driver);
        engineEvents = new EngineEvents(null);
        gateway = launchGateway(1, journalDir.resolve("shared"));
        aeron = Aeron.connect(new Aeron.Context().aeronDirectoryName(driver.aeronDirectoryName()));
    }

    @AfterAll
    static void stop()
    {
        CloseHelper.closeAll(aeron, gateway, driver);
    }

    @Test
    void shouldPublishNewOrderAndReturnAcceptedWhenEngineAccepts() throws Exception
    {
        try (Subscription commands = aeron.addSubscription(layout.commandChannel(), layout.commandStreamId(0));
            ExclusivePublication events = aeron.addExclusivePublication(
                layout.eventChannel(), layout.eventStreamId(0));
            TestClient client = new TestClient(gateway.port()))
        {
            awaitConnected(commands, events);
            client.login("demo01", "demo01pw", "", 0);
            final List<Object> loggedIn = client.await(2);
            assertThat(loggedIn.get(0)).isEqualTo(new LoginAccepted(SESSION, 1));
            assertThat(loggedIn.get(1)).isInstanceOf(SystemEventMessage.class);

            enterOrder(client, "T1", "AAPL");

            final long clientOrderId = (1L << 56) | (1L << 32) | 1;
            assertThat(awaitNewOrders(commands, 1)).isEqualTo(List.of(new NewOrderCommand(
                clientOrderId, "AAPL", Side.BUY, 100, PRICE, Ouch42.TIME_IN_FORCE_MARKET_HOURS, 0, "DEMO", 'Y')));

            final long timestampNs = 37_800_123_456_789L;
            offerAccepted(events, timestampNs, clientOrderId);

            final UnsafeBuffer expected = new UnsafeBuffer(new byte[OrderAccepted.LENGTH]);
            new OrderAccepted().wrapAndApplyType(expected, 0)
                .timestamp(timestampNs)
                .orderToken("T1")
                .buySellIndicator(Ouch42.SIDE_BUY)
                .shares(100)
                .stock(Symbols.pack("AAPL"))
                .price(PRICE)
                .timeInForce(Ouch42.TIME_IN_FORCE_MARKET_HOURS)
                .firm("DEMO")
                .display(Ouch42.DISPLAY_ANONYMOUS)
                .orderReferenceNumber(42)
                .capacity(Ouch42.CAPACITY_AGENCY)
                .intermarketSweepEligibility(Ouch42.ISE_NOT_ELIGIBLE)
                .minimumQuantity(0)
                .crossType(Ouch42.CROSS_TYPE_NO_CROSS)
                .orderState(Ouch42.ORDER_STATE_LIVE)
                .bboWeightIndicator(Ouch42.BBO_WEIGHT_UNSPECIFIED);
            assertThat(client.await(3)).hasSize(3);
            assertThat(client.sequencedBytes().get(1)).isEqualTo(expected.byteArray());
        }
        assertThat(scrapeMetrics(gateway))
            .contains("bourse_gateway_messages_in_total{type=\"enter_order\"} 1.0")
            .contains("bourse_gateway_messages_out_total{type=\"accepted\"} 1.0")
            .contains("bourse_gateway_order_latency_seconds_count 1");
    }

    @Test
    void shouldBeReadyOnlyWhileEveryEngineShardTakesCommandsAndPublishesEvents() throws Exception
    {
        ReadyEndpoint.awaitAnswer(gateway.metricsPort(), "503 not ready: " + noSubscriber(0));
        try (Subscription commands0 = aeron.addSubscription(layout.commandChannel(), layout.commandStreamId(0));
            ExclusivePublication events0 = aeron.addExclusivePublication(
                layout.eventChannel(), layout.eventStreamId(0)))
        {
            ReadyEndpoint.awaitAnswer(gateway.metricsPort(), "503 not ready: " + noSubscriber(1));
            try (Subscription commands1 = aeron.addSubscription(layout.commandChannel(), layout.commandStreamId(1)))
            {
                ReadyEndpoint.awaitAnswer(gateway.metricsPort(), "503 not ready: no publisher on " +
                    layout.eventChannel() + " stream " + layout.eventStreamId(1) + " (matching-engine shard 1)\n");
                try (ExclusivePublication events1 = aeron.addExclusivePublication(
                    layout.eventChannel(), layout.eventStreamId(1)))
                {
                    ReadyEndpoint.awaitAnswer(gateway.metricsPort(), "200 ready\n");
                }
            }
        }
        ReadyEndpoint.awaitAnswer(gateway.metricsPort(), "503 not ready: " + noSubscriber(0));
    }

    @Test
    void shouldReplayJournaledMessagesThenLiveOnesWhenGatewayIsRestarted() throws Exception
    {
        final int gatewayId = 2;
        final Path restartJournalDir = journalDir.resolve("restart");
        final long timestampNs = 37_800_000_000_000L;
        try (Subscription commands = aeron.addSubscription(layout.commandChannel(), layout.commandStreamId(0));
            ExclusivePublication events = aeron.addExclusivePublication(
                layout.eventChannel(), layout.eventStreamId(0)))
        {
            final List<byte[]> beforeRestart;
            try (GatewayService first = launchGateway(gatewayId, restartJournalDir);
                TestClient client = new TestClient(first.port()))
            {
                awaitConnected(commands, events);
                client.login("demo02", "demo02pw", "", 0);
                enterOrder(client, "R1", "AAPL");
                final long clientOrderId = ((long)gatewayId << 56) | (1L << 32) | 1;
                assertThat(awaitNewOrders(commands, 1).get(0).clientOrderId()).isEqualTo(clientOrderId);
                offerAccepted(events, timestampNs, clientOrderId);
                assertThat(client.await(3).get(2)).isInstanceOf(Accepted.class);
                enterOrder(client, "R2", "IBM");
                assertThat(client.await(4).get(0)).isEqualTo(new LoginAccepted(SESSION, 1));
                beforeRestart = client.sequencedBytes();
                assertThat(beforeRestart).hasSize(3);
            }

            try (GatewayService second = launchGateway(gatewayId, restartJournalDir);
                TestClient client = new TestClient(second.port()))
            {
                client.login("demo02", "demo02pw", SESSION, 2);
                assertThat(client.await(3)).isEqualTo(List.of(
                    new LoginAccepted(SESSION, 2),
                    OuchMessages.decode(beforeRestart.get(1)),
                    OuchMessages.decode(beforeRestart.get(2))));

                enterOrder(client, "R3", "AAPL");
                final long clientOrderId = ((long)gatewayId << 56) | (2L << 32) | 1;
                assertThat(awaitNewOrders(commands, 1).get(0).clientOrderId()).isEqualTo(clientOrderId);
                offerAccepted(events, timestampNs + 1, clientOrderId);
                assertThat(client.await(4).get(3)).isInstanceOf(Accepted.class);
                client.logout();

                final List<Object> received = client.await(5);
                assertThat(received).hasSize(5);
                assertThat(received.get(4)).isEqualTo(new Closed());
                assertThat(((Accepted)received.get(3)).token()).isEqualTo("R3");
                final List<byte[]> afterRestart = client.sequencedBytes();
                assertThat(afterRestart.subList(0, 2)).containsExactly(beforeRestart.get(1), beforeRestart.get(2));
                assertThat(scrapeMetrics(second))
                    .contains("bourse_gateway_replayed_messages_total 2.0")
                    .contains("bourse_gateway_journal_records_total 1.0")
                    .contains("bourse_gateway_journal_truncations_total 0.0");
            }
        }
    }

    @Test
    void shouldTickEveryShardsClockOverItsCommandStream() throws Exception
    {
        try (Subscription shard0 = aeron.addSubscription(layout.commandChannel(), layout.commandStreamId(0));
            Subscription shard1 = aeron.addSubscription(layout.commandChannel(), layout.commandStreamId(1)))
        {
            assertThat(awaitClockTick(shard0)).isPositive();
            assertThat(awaitClockTick(shard1)).isPositive();
        }
    }

    @Test
    void shouldRejectLoginWhenCredentialsAreWrong() throws Exception
    {
        try (TestClient client = new TestClient(gateway.port()))
        {
            client.login("demo02", "nope", "", 0);

            assertThat(client.await(2)).isEqualTo(List.of(new LoginRejected('A'), new Closed()));
        }
    }

    @Test
    void shouldLogInTheUsersOfTheEnvironmentAndRejectOthers() throws Exception
    {
        final GatewayContext ctx = GatewayContext.fromSettings(new Settings(Map.of(
            "BOURSE_CREDENTIALS", "envu01,envu01pw,ENVF;envu02,envu02pw,ENVF")));
        try (GatewayService envGateway = GatewayService.launch(ctx
            .port(0)
            .bindAddress("127.0.0.1")
            .metricsPort(0)
            .jvmMetrics(false)
            .gatewayId(2)
            .sessionName(SESSION)
            .journalDir(journalDir.resolve("environment").toString())
            .streamLayout(layout)
            .symbolDirectory(SymbolDirectory.parse("AAPL@0,MSFT@1"))
            .idleStrategy(new SleepingMillisIdleStrategy(1)));
            TestClient envUser = new TestClient(envGateway.port());
            TestClient otherUser = new TestClient(envGateway.port()))
        {
            envUser.login("envu02", "envu02pw", "", 0);
            otherUser.login("demo01", "demo01pw", "", 0);

            final List<Object> loggedIn = envUser.await(2);
            assertThat(loggedIn.get(0)).isEqualTo(new LoginAccepted(SESSION, 1));
            assertThat(((SystemEventMessage)loggedIn.get(1)).eventCode()).isEqualTo((char)Ouch42.EVENT_START_OF_DAY);
            assertThat(otherUser.await(2)).isEqualTo(List.of(new LoginRejected('A'), new Closed()));
        }
    }

    /**
     * An order sent and never answered: the gateway restarted on the same media driver leaves it to its answer (the
     * command stream holds it); restarted on a new driver (a restart of the driver ends its streams, and every client
     * with it), it rejects it 'H', as no engine run will answer it.
     */
    @Test
    void shouldRejectAnOrderSentThroughAMediaDriverSinceRestartedButNotOneOfTheSameDriver() throws Exception
    {
        final String aeronDirectory = CommonContext.getAeronDirectoryName() + "-gateway-driver-restart-" +
            UUID.randomUUID();
        final Path journals = journalDir.resolve("driver-restart");
        final String rejects = "bourse_gateway_rejects_total{reason=\"media_driver_restarted\"}";
        final StreamLayout driverLayout = layout.withAeronDirectory(aeronDirectory);
        try (MediaDriver first = EmbeddedMediaDriver.launch("", ctx -> ctx.aeronDirectoryName(aeronDirectory));
            Aeron shardClient = Aeron.connect(new Aeron.Context().aeronDirectoryName(aeronDirectory));
            Subscription silentShard =
                shardClient.addSubscription(driverLayout.commandChannel(), driverLayout.commandStreamId(0)))
        {
            try (GatewayService gateway = launchGateway(3, journals, driverLayout);
                TestClient client = TestClient.login(gateway.port(), "demo01", 1))
            {
                enterOrder(client, "L1", "AAPL");
                assertThat(awaitNewOrders(silentShard, 1)).hasSize(1);
            }
            try (GatewayService gateway = launchGateway(3, journals, driverLayout);
                TestClient client = TestClient.login(gateway.port(), "demo01", 1))
            {
                assertThat(client.await(3)).as("Login Accepted and Start of Day only").hasSize(2);
                assertThat(scrapeMetrics(gateway)).contains("bourse_gateway_open_orders 1.0")
                    .contains(rejects + " 0.0");
            }
        }

        try (MediaDriver second = EmbeddedMediaDriver.launch("", ctx -> ctx.aeronDirectoryName(aeronDirectory));
            GatewayService gateway = launchGateway(3, journals, driverLayout);
            TestClient client = TestClient.login(gateway.port(), "demo01", 1))
        {
            final List<Object> replayed = client.await(3);
            assertThat(replayed.get(2)).usingRecursiveComparison().ignoringFields("timestamp")
                .isEqualTo(new Rejected(0, "L1", (char)Ouch42.REJECT_HALTED));
            assertThat(scrapeMetrics(gateway)).contains("bourse_gateway_open_orders 0.0").contains(rejects + " 1.0");
        }
    }

    @Test
    void shouldJournalTheEngineAnswersToTheOrdersInFlightWhenStoppingBeforeAMediaDriverRestart() throws Exception
    {
        final String aeronDirectory = CommonContext.getAeronDirectoryName() + "-gateway-stop-in-flight-" +
            UUID.randomUUID();
        final Path journals = journalDir.resolve("stop-in-flight");
        final StreamLayout driverLayout = layout.withAeronDirectory(aeronDirectory);
        final long timestampNs = 37_800_000_000_000L;
        final int gatewayId = 4;
        final long clientOrderId = ((long)gatewayId << 56) | (1L << 32) | 1;
        try (MediaDriver first = EmbeddedMediaDriver.launch("", ctx -> ctx.aeronDirectoryName(aeronDirectory));
            Aeron shardClient = Aeron.connect(new Aeron.Context().aeronDirectoryName(aeronDirectory));
            Subscription commands =
                shardClient.addSubscription(driverLayout.commandChannel(), driverLayout.commandStreamId(0));
            ExclusivePublication events =
                shardClient.addExclusivePublication(driverLayout.eventChannel(), driverLayout.eventStreamId(0));
            GatewayService gateway = launchGateway(gatewayId, journals, driverLayout);
            TestClient client = TestClient.login(gateway.port(), "demo02", 1))
        {
            awaitConnected(commands, events);
            enterOrder(client, "F1", "AAPL");
            assertThat(awaitNewOrders(commands, 1).get(0).clientOrderId()).isEqualTo(clientOrderId);

            final CompletableFuture<Void> stopped = CompletableFuture.runAsync(gateway::close);
            offerAccepted(events, timestampNs, clientOrderId); // read before or during the stop's wait
            awaitCancel(commands, clientOrderId); // its cancel on disconnect, at the stop
            offer(events, engineEvents.canceled(
                timestampNs + 1, clientOrderId, 42, "AAPL", 100, 0, Ouch42.CANCEL_USER_REQUESTED));
            stopped.get(10, TimeUnit.SECONDS);
        }

        try (MediaDriver second = EmbeddedMediaDriver.launch("", ctx -> ctx.aeronDirectoryName(aeronDirectory));
            GatewayService gateway = launchGateway(gatewayId, journals, driverLayout);
            TestClient client = TestClient.login(gateway.port(), "demo02", 1))
        {
            final List<Object> replayed = client.await(4);
            assertThat(((Accepted)replayed.get(2)).token()).isEqualTo("F1");
            assertThat(replayed.get(3)).isEqualTo(
                new Canceled(timestampNs + 1, "F1", 100, (char)Ouch42.CANCEL_USER_REQUESTED));
            assertThat(scrapeMetrics(gateway)).contains("bourse_gateway_open_orders 0.0")
                .contains("bourse_gateway_rejects_total{reason=\"media_driver_restarted\"} 0.0");
        }
    }

    private static GatewayService launchGateway(final int gatewayId, final Path journalDirectory)
    {
        return launchGateway(gatewayId, journalDirectory, layout);
    }

    private static GatewayService launchGateway(
        final int gatewayId, final Path journalDirectory, final StreamLayout streamLayout)
    {
        return GatewayService.launch(new GatewayContext()
            .port(0)
            .bindAddress("127.0.0.1")
            .metricsPort(0)
            .jvmMetrics(false)
            .gatewayId(gatewayId)
            .sessionName(SESSION)
            .journalDir(journalDirectory.toString())
            .credentials(Credentials.parse(List.of("demo01,demo01pw,DEMO", "demo02,demo02pw,DEMO")))
            .streamLayout(streamLayout)
            .symbolDirectory(SymbolDirectory.parse("AAPL@0,MSFT@1"))
            .idleStrategy(new SleepingMillisIdleStrategy(1)));
    }

    private static void enterOrder(final TestClient client, final String token, final String stock)
        throws IOException
    {
        final UnsafeBuffer request = new UnsafeBuffer(new byte[EnterOrder.LENGTH]);
        EnterOrders.encode(request, token, stock);
        client.send(request, EnterOrder.LENGTH);
    }

    /**
     * Plays the engine: offers an SBE OrderAccepted for 100 AAPL at {@link #PRICE}, order reference number 42, with the
     * shard's next sequence number.
     */
    private static void offerAccepted(
        final ExclusivePublication events, final long timestampNs, final long clientOrderId)
        throws InterruptedException
    {
        offer(events, engineEvents.accepted(timestampNs, clientOrderId, 42, "AAPL", Side.BUY, 100, PRICE,
            Ouch42.TIME_IN_FORCE_MARKET_HOURS));
    }

    private static void offer(final ExclusivePublication events, final int length) throws InterruptedException
    {
        while (events.offer(engineEvents.buffer(), 0, length) < 0)
        {
            Thread.sleep(1);
        }
    }

    /** Waits for a CancelOrder of the order on the stream, skipping any other command. */
    private static void awaitCancel(final Subscription commands, final long clientOrderId) throws InterruptedException
    {
        final MessageHeaderDecoder header = new MessageHeaderDecoder();
        final CancelOrderDecoder cancel = new CancelOrderDecoder();
        final boolean[] seen = {false};
        pollUntil(commands, () -> seen[0], (buffer, offset, length, frameHeader) ->
        {
            header.wrap(buffer, offset);
            if (CancelOrderDecoder.TEMPLATE_ID == header.templateId())
            {
                cancel.wrap(buffer, offset + MessageHeaderDecoder.ENCODED_LENGTH, header.blockLength(),
                    header.version());
                seen[0] |= clientOrderId == cancel.clientOrderId();
            }
        });
    }

    private static void awaitConnected(final Subscription commands, final ExclusivePublication events)
        throws InterruptedException
    {
        while (!commands.isConnected() || !events.isConnected())
        {
            Thread.sleep(1);
        }
    }

    private static List<NewOrderCommand> awaitNewOrders(final Subscription commands, final int count)
        throws InterruptedException
    {
        final List<NewOrderCommand> received = new ArrayList<>();
        final MessageHeaderDecoder header = new MessageHeaderDecoder();
        final NewOrderDecoder newOrder = new NewOrderDecoder();
        pollUntil(commands, () -> received.size() >= count, (buffer, offset, length, frameHeader) ->
        {
            header.wrap(buffer, offset);
            assertThat(header.schemaId()).isEqualTo(MessageHeaderDecoder.SCHEMA_ID);
            if (ClockTickDecoder.TEMPLATE_ID == header.templateId() ||
                CancelOrderDecoder.TEMPLATE_ID == header.templateId())
            {
                // Clock ticks, and the cancels on disconnect of the clients of earlier tests.
                return;
            }
            assertThat(header.templateId()).isEqualTo(NewOrderDecoder.TEMPLATE_ID);
            newOrder.wrap(buffer, offset + MessageHeaderDecoder.ENCODED_LENGTH, header.blockLength(),
                header.version());
            assertThat(newOrder.timestampNs()).isPositive();
            final int firm = buffer.getInt(
                newOrder.offset() + NewOrderDecoder.firmEncodingOffset(), ByteOrder.BIG_ENDIAN);
            received.add(new NewOrderCommand(newOrder.clientOrderId(), newOrder.symbol().trim(), newOrder.side(),
                newOrder.quantity(), newOrder.price(), newOrder.timeInForce(), newOrder.minimumQuantity(),
                RecordingEngineProxy.firm(firm), (char)newOrder.display()));
        });
        return received;
    }

    /** @return the timestamp of the first ClockTick on the stream, skipping any other command. */
    private static long awaitClockTick(final Subscription commands) throws InterruptedException
    {
        final MessageHeaderDecoder header = new MessageHeaderDecoder();
        final ClockTickDecoder clockTick = new ClockTickDecoder();
        final long[] timestampNs = {0};
        pollUntil(commands, () -> 0 != timestampNs[0], (buffer, offset, length, frameHeader) ->
        {
            header.wrap(buffer, offset);
            if (ClockTickDecoder.TEMPLATE_ID == header.templateId() && 0 == timestampNs[0])
            {
                clockTick.wrap(buffer, offset + MessageHeaderDecoder.ENCODED_LENGTH, header.blockLength(),
                    header.version());
                timestampNs[0] = clockTick.timestampNs();
            }
        });
        return timestampNs[0];
    }

    /** Polls the command stream, 10 fragments at a time and a millisecond apart while none comes, until done. */
    private static void pollUntil(
        final Subscription commands, final BooleanSupplier done, final FragmentHandler handler)
        throws InterruptedException
    {
        while (!done.getAsBoolean())
        {
            if (0 == commands.poll(handler, 10))
            {
                Thread.sleep(1);
            }
        }
    }

    private static String noSubscriber(final int shard)
    {
        return "no subscriber on " + layout.commandChannel() + " stream " + layout.commandStreamId(shard) +
            " (matching-engine shard " + shard + ")\n";
    }

    private static String scrapeMetrics(final GatewayService service) throws Exception
    {
        return MetricsEndpoint.scrape(service.metricsPort());
    }
}
