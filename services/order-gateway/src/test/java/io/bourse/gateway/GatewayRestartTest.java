package io.bourse.gateway;

import io.aeron.Aeron;
import io.aeron.ChannelUri;
import io.aeron.Publication;
import io.aeron.Subscription;
import io.aeron.archive.client.AeronArchive;
import io.aeron.archive.codecs.SourceLocation;
import io.aeron.archive.status.RecordingPos;
import io.aeron.driver.status.PublisherLimit;
import io.aeron.driver.status.SubscriberPos;
import io.bourse.common.aeron.EventArchive;
import io.bourse.common.aeron.StreamCounters;
import io.bourse.common.config.Credentials;
import io.bourse.common.config.SymbolDirectory;
import io.bourse.common.metrics.MetricsEndpoint;
import io.bourse.common.metrics.ReadyEndpoint;
import io.bourse.common.time.MidnightNanoClock;
import io.bourse.common.time.MonotonicEpochNanoClock;
import io.bourse.common.time.SessionNames;
import io.bourse.engine.EngineService;
import io.bourse.gateway.OuchMessages.Accepted;
import io.bourse.gateway.OuchMessages.Canceled;
import io.bourse.gateway.OuchMessages.Executed;
import io.bourse.gateway.OuchMessages.Modified;
import io.bourse.gateway.OuchMessages.Rejected;
import io.bourse.gateway.OuchMessages.Replaced;
import io.bourse.gateway.OuchMessages.SystemEventMessage;
import io.bourse.gateway.TestClient.Closed;
import io.bourse.gateway.TestClient.EndOfSession;
import io.bourse.gateway.TestClient.LoginAccepted;
import io.bourse.gateway.TestClient.LoginRejected;
import io.bourse.ouch.Ouch42;
import io.bourse.sbe.engine.CancelOrderDecoder;
import io.bourse.sbe.engine.MessageHeaderDecoder;
import io.bourse.sbe.engine.NewOrderDecoder;
import org.agrona.CloseHelper;
import org.agrona.concurrent.EpochNanoClock;
import org.agrona.concurrent.SleepingMillisIdleStrategy;
import org.agrona.concurrent.status.CountersReader;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.LocalDate;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The gateway restarted in front of two real matching-engine shards: a first gateway takes orders, is closed, and a
 * second one launched on the same journal directory must know them (their tokens, open shares and clientOrderIds) as
 * the journals leave them ({@link OrderRebuild}). The users keep their orders on disconnect, so that the engine still
 * has them after the first gateway stops. Each test has its own journal directory, gateway id and prices. The shards
 * record their event streams in the {@link EventArchive}, as deployed, and each gateway replays from it what its
 * subscriptions joined too late to hear.
 */
@Timeout(60)
class GatewayRestartTest
{
    private static final String SESSION = "S20250106";
    private static final long DAY = Ouch42.TIME_IN_FORCE_MARKET_HOURS;
    private static final String[] IGNORED = {"timestamp", "orderReferenceNumber", "matchNumber"};

    /** {@link EngineShards#SYMBOLS} and IBM on a third shard, which runs only where a test starts it. */
    private static final SymbolDirectory WITH_SHARD_2 = SymbolDirectory.parse("AAPL@0,MSFT@1,GOOG@0,AMZN@1,IBM@2");

    private static EngineShards engine;

    @TempDir
    private static Path archiveDir;
    @TempDir
    private Path journalDir;

    record Command(String type, long clientOrderId)
    {
    }

    @BeforeAll
    static void start()
    {
        engine = new EngineShards("gateway-restart-test", Map.of(),
            new EventArchive(true, archiveDir.toString(), EventArchive.REPLAY_STREAM_DEFAULT));
    }

    @AfterAll
    static void stop()
    {
        CloseHelper.close(engine);
    }

    @Test
    void shouldCancelReplaceAndModifyOrdersAcceptedBeforeTheRestart() throws Exception
    {
        try (GatewayService first = launch(11);
            TestClient client = TestClient.login(first.port(), "ord01", 1))
        {
            client.enterOrder("C1", "GOOG", Ouch42.SIDE_BUY, 100, 100_000, DAY);
            client.enterOrder("C2", "GOOG", Ouch42.SIDE_BUY, 100, 100_100, DAY);
            client.enterOrder("C3", "AMZN", Ouch42.SIDE_SELL, 100, 90_000_000, DAY);
            assertThat(client.await(5).subList(2, 5)).allMatch(Accepted.class::isInstance);
        }

        try (GatewayService second = launch(11);
            TestClient client = TestClient.login(second.port(), "ord01", 0))
        {
            client.cancelOrder("C1", 0);
            assertThat(client.await(2)).hasSize(2);
            client.replaceOrder("C2", "N2", 60, 100_100, DAY);
            assertThat(client.await(3)).hasSize(3);
            client.modifyOrder("C3", Ouch42.SIDE_SELL_SHORT, 40);

            assertThat(client.await(4).subList(1, 4)).usingRecursiveFieldByFieldElementComparatorIgnoringFields(IGNORED)
                .containsExactly(
                    new Canceled(0, "C1", 100, 'U'),
                    new Replaced(0, "N2", 'B', 60, "GOOG", 100_100, DAY, "DEMO", 'Y', 0, 'A', 'N', 0, 'N', 'L', "C2",
                        ' '),
                    new Modified(0, "C3", 'T', 40));
            assertThat(MetricsEndpoint.scrape(second.metricsPort())).contains("bourse_gateway_open_orders 2.0")
                .containsPattern("bourse_aeron_subscriber_lag_bytes\\{session=\"-?[0-9]+\",stream=\"2000\"} ")
                .containsPattern("bourse_aeron_subscriber_lag_bytes\\{session=\"-?[0-9]+\",stream=\"2001\"} ");
        }
    }

    /** A resent Enter Order gets no answer, before a restart and after it (OUCH 4.2 section 1.1). */
    @Test
    void shouldIgnoreATokenUsedBeforeTheRestartAsADuplicateTokenIsIgnored() throws Exception
    {
        try (GatewayService first = launch(12);
            TestClient client = TestClient.login(first.port(), "ord01", 1))
        {
            client.enterOrder("D1", "GOOG", Ouch42.SIDE_BUY, 100, 90_000, DAY);
            assertThat(client.await(3).get(2)).isInstanceOf(Accepted.class);
            client.enterOrder("D1", "GOOG", Ouch42.SIDE_BUY, 100, 90_000, DAY);
            client.enterOrder("E1", "GOOG", Ouch42.SIDE_BUY, 100, 90_000, DAY);
            assertThat(client.await(4).get(3)).as("D1 again ignored")
                .isInstanceOfSatisfying(Accepted.class, (accepted) -> assertThat(accepted.token()).isEqualTo("E1"));
        }

        try (GatewayService second = launch(12);
            TestClient client = TestClient.login(second.port(), "ord01", 0))
        {
            client.enterOrder("D1", "GOOG", Ouch42.SIDE_BUY, 100, 90_000, DAY);
            client.enterOrder("E2", "GOOG", Ouch42.SIDE_BUY, 100, 90_000, DAY);

            assertThat(client.await(2).get(1)).as("D1 ignored after the restart too")
                .isInstanceOfSatisfying(Accepted.class, (accepted) -> assertThat(accepted.token()).isEqualTo("E2"));
            assertThat(MetricsEndpoint.scrape(second.metricsPort()))
                .contains("bourse_gateway_rejects_total{reason=\"duplicate_token\"} 1.0");
        }
    }

    @Test
    void shouldSendExecutedToTheOwnerOfAnOrderRestingSinceBeforeTheRestart() throws Exception
    {
        try (GatewayService first = launch(13);
            TestClient client = TestClient.login(first.port(), "ord01", 1))
        {
            client.enterOrder("E1", "MSFT", Ouch42.SIDE_SELL, 100, 2_500_000, DAY);
            assertThat(client.await(3).get(2)).isInstanceOf(Accepted.class);
        }

        try (GatewayService second = launch(13))
        {
            try (TestClient buyer = TestClient.login(second.port(), "cpt01", 1))
            {
                buyer.enterOrder("X1", "MSFT", Ouch42.SIDE_BUY, 60, 2_500_000,
                    Ouch42.TIME_IN_FORCE_IMMEDIATE_OR_CANCEL);
                assertThat(buyer.await(4).get(3)).usingRecursiveComparison().ignoringFields(IGNORED)
                    .isEqualTo(new Executed(0, "X1", 60, 2_500_000, 'R', 0));
            }
            try (TestClient seller = TestClient.login(second.port(), "ord01", 3))
            {
                assertThat(seller.await(2).get(1)).usingRecursiveComparison().ignoringFields(IGNORED)
                    .isEqualTo(new Executed(0, "E1", 60, 2_500_000, 'A', 0));
                seller.cancelOrder("E1", 0);

                assertThat(seller.await(3).get(2)).usingRecursiveComparison().ignoringFields(IGNORED)
                    .isEqualTo(new Canceled(0, "E1", 40, 'U'));
            }
            assertThat(MetricsEndpoint.scrape(second.metricsPort()))
                .contains("bourse_gateway_unmatched_events_total 0.0");
        }
    }

    @Test
    void shouldSendTheExecutedOfAnOrderThatTradedWhileNoGatewayRanFromTheEventArchive(
        @TempDir final Path otherJournalDir) throws Exception
    {
        try (GatewayService first = launch(17);
            TestClient client = TestClient.login(first.port(), "ord01", 1))
        {
            client.enterOrder("W1", "MSFT", Ouch42.SIDE_BUY, 100, 2_000_000, DAY);
            assertThat(client.await(3).get(2)).isInstanceOf(Accepted.class);
        }
        // No gateway 17 runs: another gateway's client trades against W1, the engine publishes W1's execution.
        final Executed taken = sellFromAnotherGateway(18, otherJournalDir, "Y1", 60, 2_000_000);
        // As after a gateway process restart: the closed gateways' subscriptions are gone, the next one joins the
        // shard's stream at its newest event, after W1's execution.
        awaitEventSubscribers(1, 1);

        try (GatewayService second = launch(17);
            TestClient client = TestClient.login(second.port(), "ord01", 1))
        {
            final List<Object> replayed = client.await(4);
            assertThat(replayed.get(1)).isInstanceOf(SystemEventMessage.class);
            assertThat(replayed.get(2)).isInstanceOfSatisfying(Accepted.class,
                (accepted) -> assertThat(accepted.token()).isEqualTo("W1"));
            assertThat(replayed.get(3)).usingRecursiveComparison().ignoringFields("timestamp")
                .isEqualTo(new Executed(0, "W1", 60, 2_000_000, 'A', taken.matchNumber()));
            client.cancelOrder("W1", 0);

            assertThat(client.await(5).get(4)).usingRecursiveComparison().ignoringFields(IGNORED)
                .isEqualTo(new Canceled(0, "W1", 40, 'U'));
            assertThat(MetricsEndpoint.scrape(second.metricsPort()))
                .containsPattern("bourse_gateway_replayed_events_total [1-9]")
                .contains("bourse_gateway_unmatched_events_total 0.0")
                .contains("bourse_gateway_open_orders 0.0")
                .contains("bourse_gateway_errors_total{kind=\"event_replay_failed\"} 0.0");
        }
    }

    @Test
    void shouldReplayOnlyTheEventsAfterThePositionTheStoppedGatewayAnsweredThrough(
        @TempDir final Path otherJournalDir) throws Exception
    {
        final int churn = 100;
        try (GatewayService first = launch(19);
            TestClient client = TestClient.login(first.port(), "ord01", 1))
        {
            for (int i = 0; i < churn; i++)
            {
                client.enterOrder("Q" + i, "MSFT", Ouch42.SIDE_BUY, 100, 1_600_000, DAY);
            }
            client.await(2 + churn);
            for (int i = 0; i < churn; i++)
            {
                client.cancelOrder("Q" + i, 0);
            }
            client.await(2 + 2 * churn);
            client.enterOrder("V1", "MSFT", Ouch42.SIDE_BUY, 100, 1_700_000, DAY);
            assertThat(client.await(3 + 2 * churn).get(2 + 2 * churn)).isInstanceOf(Accepted.class);
        }
        final Executed taken = sellFromAnotherGateway(22, otherJournalDir, "Y2", 60, 1_700_000);
        awaitEventSubscribers(1, 1);

        try (GatewayService second = launch(19);
            TestClient client = TestClient.login(second.port(), "ord01", 3 + 2 * churn))
        {
            assertThat(client.await(2).get(1)).usingRecursiveComparison().ignoringFields("timestamp")
                .isEqualTo(new Executed(0, "V1", 60, 1_700_000, 'A', taken.matchNumber()));
            client.cancelOrder("V1", 0);
            assertThat(client.await(3).get(2)).usingRecursiveComparison().ignoringFields(IGNORED)
                .isEqualTo(new Canceled(0, "V1", 40, 'U'));
            // From the start of the shard's run the replay would take the churn's 200 events and more.
            final String metrics = MetricsEndpoint.scrape(second.metricsPort());
            assertThat(replayedEvents(metrics)).isBetween(1.0, 20.0);
            assertThat(metrics).contains("bourse_gateway_errors_total{kind=\"event_replay_failed\"} 0.0");
        }
    }

    @Test
    void shouldNotReuseTheClientOrderIdsOfAGatewayWhoseJournalsAreGone(
        @TempDir final Path emptiedJournalDir, @TempDir final Path otherJournalDir) throws Exception
    {
        try (GatewayService first = launch(23);
            TestClient client = TestClient.login(first.port(), "ord01", 1))
        {
            client.enterOrder("R1", "MSFT", Ouch42.SIDE_BUY, 100, 1_800_000, DAY);
            assertThat(client.await(3).get(2)).isInstanceOf(Accepted.class);
        }
        awaitEventSubscribers(1, 1);

        // Gateway 23 again, its journals gone: its first session would take session index 1 again, and R2 the
        // clientOrderId R1 rests in the book with. The catch-up hears R1's events before any login is accepted.
        try (GatewayService second = launch(23, emptiedJournalDir);
            TestClient client = TestClient.login(second.port(), "ord01", 1))
        {
            client.enterOrder("R2", "MSFT", Ouch42.SIDE_BUY, 100, 1_800_000, DAY);
            assertThat(client.await(3).get(2)).isInstanceOf(Accepted.class);

            // R1 first (time priority), all of it: its execution is no order's of the second gateway, R2 still rests.
            sellFromAnotherGateway(24, otherJournalDir, "Y3", 100, 1_800_000);
            client.cancelOrder("R2", 0);

            assertThat(client.await(4).get(3)).usingRecursiveComparison().ignoringFields(IGNORED)
                .isEqualTo(new Canceled(0, "R2", 100, 'U'));
            assertThat(MetricsEndpoint.scrape(second.metricsPort()))
                .contains("bourse_gateway_errors_total{kind=\"unknown_session_index\"} 1.0")
                .contains("bourse_gateway_unmatched_events_total 1.0")
                .contains("bourse_gateway_open_orders 0.0");
        }
    }

    @Test
    void shouldAcceptLoginsWhileAShardThatHasNoRunIsDown() throws Exception
    {
        // Shard 3 never runs in this class, so the archive holds no run of it (shard 2's last run, if another test
        // left one, is replayed).
        try (GatewayService gateway = GatewayService.launch(context(26, journalDir, engine, engine.eventArchive())
            .symbolDirectory(SymbolDirectory.parse("AAPL@0,MSFT@1,GOOG@0,AMZN@1,IBM@2,ORCL@3"))))
        {
            awaitReady(gateway.metricsPort(), "503 not ready: no subscriber on aeron:ipc stream " +
                engine.layout().commandStreamId(2) + " (matching-engine shard 2)\n");
            try (TestClient client = TestClient.login(gateway.port(), "ord01", 1))
            {
                client.enterOrder("D1", "ORCL", Ouch42.SIDE_BUY, 100, 1_000_000, DAY);
                client.enterOrder("D2", "MSFT", Ouch42.SIDE_BUY, 100, 1_000_000, DAY);

                final List<Object> answers = client.await(4);
                assertThat(answers.get(2)).usingRecursiveComparison().ignoringFields(IGNORED)
                    .isEqualTo(new Rejected(0, "D1", 'H'));
                assertThat(answers.get(3)).isInstanceOfSatisfying(Accepted.class,
                    (accepted) -> assertThat(accepted.token()).isEqualTo("D2"));
            }
        }
    }

    /**
     * No gateway listens while an order of its trades and then the order's engine shard restarts (recovering its
     * state from its earlier run): the restarted gateway replays the earlier run from its stored position, so the
     * owner gets its Executed, then the new run; the recovered shard still holds the order's rest, which cancels.
     */
    @Test
    void shouldSendTheExecutedOfAnEarlierRunOfAShardThatRestartedWhileNoGatewayRan(
        @TempDir final Path otherJournalDir) throws Exception
    {
        assertExecutedOfAnEarlierRunReachesItsOwner(30, otherJournalDir, "K", 1_250_000, false);
    }

    /**
     * As above, but the restarted shard is down again when the gateway starts: the gateway replays the earlier run from
     * its stored position and then the stopped last run whole, before any login; when the shard comes back a third
     * time, its new run continues from there and the order's rest cancels.
     */
    @Test
    void shouldSendTheExecutedOfAnEarlierRunOfAShardThatIsDownWhenTheGatewayStarts(
        @TempDir final Path otherJournalDir) throws Exception
    {
        assertExecutedOfAnEarlierRunReachesItsOwner(32, otherJournalDir, "L", 1_260_000, true);
    }

    /**
     * Gateway {@code gatewayId} rests a day buy of 100 IBM (shard 2) and stops; gateway {@code gatewayId + 1} sells 60
     * into it; shard 2 restarts (and stops again when {@code downAtStart}); gateway {@code gatewayId} starts again and
     * must send the owner its Accepted and the Executed, then cancel the rest of 40 (shard 2 started again first when
     * it was down).
     *
     * @param price the price in 1/10000 dollars, above every other IBM bid of this class's tests.
     */
    private void assertExecutedOfAnEarlierRunReachesItsOwner(
        final int gatewayId, final Path otherJournalDir, final String tokenStem, final long price,
        final boolean downAtStart) throws Exception
    {
        final String token = tokenStem + 1;
        Executed taken;
        EngineService shard2 = engine.launchShard(2, WITH_SHARD_2);
        try
        {
            try (GatewayService first = GatewayService.launch(
                context(gatewayId, journalDir, engine, engine.eventArchive()).symbolDirectory(WITH_SHARD_2));
                TestClient client = TestClient.login(first.port(), "ord01", 1))
            {
                client.enterOrder(token, "IBM", Ouch42.SIDE_BUY, 100, price, DAY);
                assertThat(client.await(3).get(2)).isInstanceOf(Accepted.class);
            }
            try (GatewayService other = GatewayService.launch(
                context(gatewayId + 1, otherJournalDir, engine, engine.eventArchive()).symbolDirectory(WITH_SHARD_2));
                TestClient seller = TestClient.login(other.port(), "cpt01", 1))
            {
                seller.enterOrder(tokenStem + 2, "IBM", Ouch42.SIDE_SELL, 60, price,
                    Ouch42.TIME_IN_FORCE_IMMEDIATE_OR_CANCEL);
                taken = (Executed)seller.await(4).get(3);
            }
            shard2.close();
            shard2 = engine.launchShard(2, WITH_SHARD_2);
            if (downAtStart)
            {
                shard2.close();
                // Until the driver frees the closed publication, a new subscriber still gets an image of it.
                awaitStreamCounters(engine.layout().eventStreamId(2), PublisherLimit.PUBLISHER_LIMIT_TYPE_ID, 0);
            }

            try (GatewayService second = GatewayService.launch(
                context(gatewayId, journalDir, engine, engine.eventArchive()).symbolDirectory(WITH_SHARD_2));
                TestClient client = TestClient.login(second.port(), "ord01", 1))
            {
                final List<Object> replayed = client.await(4);
                assertThat(replayed.get(2)).isInstanceOfSatisfying(Accepted.class,
                    (accepted) -> assertThat(accepted.token()).isEqualTo(token));
                assertThat(replayed.get(3)).usingRecursiveComparison().ignoringFields("timestamp")
                    .isEqualTo(new Executed(0, token, 60, price, 'A', taken.matchNumber()));
                if (downAtStart)
                {
                    shard2 = engine.launchShard(2, WITH_SHARD_2);
                    // The Cancel must find the gateway's command publication connected to the new run.
                    awaitStreamCounters(
                        engine.layout().commandStreamId(2), SubscriberPos.SUBSCRIBER_POSITION_TYPE_ID, 1);
                }
                client.cancelOrder(token, 0);

                assertThat(client.await(5).get(4)).usingRecursiveComparison().ignoringFields(IGNORED)
                    .isEqualTo(new Canceled(0, token, 40, 'U'));
                assertThat(MetricsEndpoint.scrape(second.metricsPort()))
                    .contains("bourse_gateway_unmatched_events_total 0.0")
                    .contains("bourse_gateway_open_orders 0.0")
                    .contains("bourse_gateway_errors_total{kind=\"event_replay_failed\"} 0.0");
            }
        }
        finally
        {
            shard2.close();
        }
    }

    /**
     * A session with cancel on disconnect ends while its order's shard is down, so the cancel cannot go out. The gateway
     * keeps it and sends it once the shard's next run, recovered from the event archive with the order, takes
     * commands: the order does not stay in the book without its owner, who finds the Canceled at its next login.
     */
    @Test
    void shouldCancelOnDisconnectAnOrderWhoseShardWasDownWhenItsSessionEnded() throws Exception
    {
        EngineService shard2 = engine.launchShard(2, WITH_SHARD_2);
        try (GatewayService gateway = GatewayService.launch(
            context(34, journalDir, engine, engine.eventArchive()).symbolDirectory(WITH_SHARD_2)))
        {
            try (TestClient client = TestClient.login(gateway.port(), "cod01", 1))
            {
                client.enterOrder("C1", "IBM", Ouch42.SIDE_BUY, 100, 900_000, DAY);
                assertThat(client.await(3).get(2)).isInstanceOf(Accepted.class);
                shard2.close();
                // The session ends once the gateway's command stream to the shard has no subscriber left: before, a
                // command offered is kept in the stream for the shard's next run.
                ReadyEndpoint.awaitAnswer(gateway.metricsPort(), "503 not ready: no subscriber on " +
                    engine.layout().commandChannel() + " stream " + engine.layout().commandStreamId(2) +
                    " (matching-engine shard 2)\n");
            }
            final long deadlineNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (!MetricsEndpoint.scrape(gateway.metricsPort())
                .contains("\nbourse_gateway_cancels_to_retry 1.0\n"))
            {
                assertThat(System.nanoTime()).as("cancel on disconnect kept").isLessThan(deadlineNs);
                Thread.sleep(10);
            }

            shard2 = engine.launchShard(2, WITH_SHARD_2);
            try (TestClient client = TestClient.login(gateway.port(), "cod01", 3))
            {
                assertThat(client.await(2).get(1)).usingRecursiveComparison().ignoringFields(IGNORED)
                    .isEqualTo(new Canceled(0, "C1", 100, 'U'));
            }
            assertThat(MetricsEndpoint.scrape(gateway.metricsPort()))
                .contains("\nbourse_gateway_cancels_to_retry 0.0\n")
                .contains("\nbourse_gateway_cancel_on_disconnect_total 1.0\n")
                .contains("\nbourse_gateway_open_orders 0.0\n");
        }
        finally
        {
            shard2.close();
        }
    }

    /**
     * The gateway stops while a cancel on disconnect waits for its shard, which is down, so the cancel is lost with it.
     * The restarted gateway rebuilds the order from the journal: its user has cancel on disconnect and is not logged
     * in, so once the shards' events are caught up it cancels the order, which the shard's next run recovered.
     */
    @Test
    void shouldCancelAtRestartTheOpenOrdersOfUsersWithCancelOnDisconnect() throws Exception
    {
        EngineService shard2 = engine.launchShard(2, WITH_SHARD_2);
        try
        {
            try (GatewayService stopped = GatewayService.launch(
                context(35, journalDir, engine, engine.eventArchive()).symbolDirectory(WITH_SHARD_2)))
            {
                try (TestClient client = TestClient.login(stopped.port(), "cod01", 1))
                {
                    client.enterOrder("E1", "IBM", Ouch42.SIDE_BUY, 100, 910_000, DAY);
                    assertThat(client.await(3).get(2)).isInstanceOf(Accepted.class);
                    shard2.close();
                    ReadyEndpoint.awaitAnswer(stopped.metricsPort(), "503 not ready: no subscriber on " +
                        engine.layout().commandChannel() + " stream " + engine.layout().commandStreamId(2) +
                        " (matching-engine shard 2)\n");
                }
            }
            shard2 = engine.launchShard(2, WITH_SHARD_2);

            try (GatewayService restarted = GatewayService.launch(
                context(35, journalDir, engine, engine.eventArchive()).symbolDirectory(WITH_SHARD_2));
                TestClient client = TestClient.login(restarted.port(), "cod01", 3))
            {
                assertThat(client.await(2).get(1)).usingRecursiveComparison().ignoringFields(IGNORED)
                    .isEqualTo(new Canceled(0, "E1", 100, 'U'));
                assertThat(MetricsEndpoint.scrape(restarted.metricsPort()))
                    .contains("\nbourse_gateway_cancel_on_disconnect_total 1.0\n")
                    .contains("\nbourse_gateway_open_orders 0.0\n");
            }
        }
        finally
        {
            shard2.close();
        }
    }

    /**
     * The gateway stops with its shards up, so the cancel on disconnect of an open order is taken then; the restarted
     * gateway, which rebuilt the order from the journal as open, hears the Canceled in its catch-up from the event
     * archive before it would cancel the order again, so it sends none and the owner gets one Canceled.
     */
    @Test
    void shouldNotCancelAgainAtRestartAnOrderTheStoppedGatewayCanceled() throws Exception
    {
        EngineService shard2 = engine.launchShard(2, WITH_SHARD_2);
        try
        {
            try (GatewayService stopped = GatewayService.launch(
                context(36, journalDir, engine, engine.eventArchive()).symbolDirectory(WITH_SHARD_2));
                TestClient client = TestClient.login(stopped.port(), "cod01", 1))
            {
                client.enterOrder("F1", "IBM", Ouch42.SIDE_BUY, 100, 920_000, DAY);
                assertThat(client.await(3).get(2)).isInstanceOf(Accepted.class);
            }

            try (GatewayService restarted = GatewayService.launch(
                context(36, journalDir, engine, engine.eventArchive()).symbolDirectory(WITH_SHARD_2));
                TestClient client = TestClient.login(restarted.port(), "cod01", 3))
            {
                assertThat(client.await(2).get(1)).usingRecursiveComparison().ignoringFields(IGNORED)
                    .isEqualTo(new Canceled(0, "F1", 100, 'U'));
                client.enterOrder("F2", "IBM", Ouch42.SIDE_BUY, 100, 920_000, DAY);
                final List<Object> after = client.await(3);
                assertThat(after.get(2)).isInstanceOf(Accepted.class);
                assertThat(MetricsEndpoint.scrape(restarted.metricsPort()))
                    .contains("\nbourse_gateway_cancel_on_disconnect_total 0.0\n")
                    .contains("\nbourse_gateway_cancels_to_retry 0.0\n");
            }
        }
        finally
        {
            shard2.close();
        }
    }

    @Test
    void shouldRefuseLoginsWhileAShardWithNoImageStillRecordsItsRun() throws Exception
    {
        // A run of shard 2's event stream that the archive records but the gateway has no image of (it is on another
        // channel): as a shard that runs, whose image has not come yet.
        final String channel = "aeron:udp?endpoint=localhost:24601";
        final int streamId = engine.layout().eventStreamId(2);
        try (Aeron aeron = Aeron.connect(new Aeron.Context().aeronDirectoryName(engine.aeronDirectoryName()));
            AeronArchive archive = AeronArchive.connect(engine.eventArchive().clientContext(aeron));
            Publication run = aeron.addExclusivePublication(channel, streamId))
        {
            archive.startRecording(
                ChannelUri.addSessionId(channel, run.sessionId()), streamId, SourceLocation.LOCAL);
            while (CountersReader.NULL_COUNTER_ID ==
                RecordingPos.findCounterIdBySession(aeron.countersReader(), run.sessionId(), archive.archiveId()))
            {
                Thread.sleep(1);
            }
            try (GatewayService gateway = GatewayService.launch(context(27, journalDir, engine,
                engine.eventArchive()).symbolDirectory(WITH_SHARD_2)))
            {
                // Well past the first lookup of the archive, a second after the gateway's start.
                Thread.sleep(2_500);
                try (TestClient client = new TestClient(gateway.port()))
                {
                    client.login("ord01", "ord01pw", "", 1);
                    assertThat(client.await(1)).containsExactly(new LoginRejected('S'));
                }
                assertThat(MetricsEndpoint.scrape(gateway.metricsPort()))
                    .contains("bourse_gateway_errors_total{kind=\"events_not_caught_up\"} 1.0")
                    .contains("bourse_gateway_login_failures_total 1.0");

                // The run stops, as when its shard goes down: replayed (it published nothing), then logins are taken.
                archive.stopRecording(ChannelUri.addSessionId(channel, run.sessionId()), streamId);
                TestClient.login(gateway.port(), "ord01", 1).close();
            }
        }
    }

    @Test
    void shouldHearTheLastRunOfAShardThatIsDownBeforeAnyLogin(@TempDir final Path emptiedJournalDir) throws Exception
    {
        final EngineService shard2 = engine.launchShard(2, WITH_SHARD_2);
        try (GatewayService first = GatewayService.launch(context(28, journalDir, engine, engine.eventArchive())
            .symbolDirectory(WITH_SHARD_2));
            TestClient client = TestClient.login(first.port(), "ord01", 1))
        {
            client.enterOrder("I1", "IBM", Ouch42.SIDE_BUY, 100, 1_000_000, DAY);
            assertThat(client.await(3).get(2)).isInstanceOf(Accepted.class);
        }
        finally
        {
            shard2.close(); // its recording stops with its stream
        }
        // Until the driver frees the closed publication, a new subscriber still gets an image of it.
        awaitStreamCounters(engine.layout().eventStreamId(2), PublisherLimit.PUBLISHER_LIMIT_TYPE_ID, 0);

        // Gateway 28 again, its journals gone and shard 2 down: I1's Accepted, in shard 2's last run only, must be
        // heard before the first login, which would take I1's session index (1) again.
        try (Aeron aeron = Aeron.connect(new Aeron.Context().aeronDirectoryName(engine.aeronDirectoryName()));
            Subscription commands = aeron.addSubscription(engine.layout().commandChannel(),
                engine.layout().commandStreamId(1));
            GatewayService second = GatewayService.launch(context(28, emptiedJournalDir, engine,
                engine.eventArchive()).symbolDirectory(WITH_SHARD_2));
            TestClient client = TestClient.login(second.port(), "ord01", 1))
        {
            client.enterOrder("M1", "MSFT", Ouch42.SIDE_BUY, 100, 1_000_000, DAY);
            assertThat(client.await(3).get(2)).isInstanceOf(Accepted.class);

            assertThat(awaitCommands(commands, 1)).containsExactly(new Command("NewOrder", clientOrderId(28, 2, 1)));
            assertThat(MetricsEndpoint.scrape(second.metricsPort()))
                .contains("bourse_gateway_errors_total{kind=\"unknown_session_index\"} 1.0");
        }
    }

    @Test
    @Timeout(90)
    void shouldCountAReplayFailureAndGoLiveWhenTheEventArchiveDoesNotAnswer(@TempDir final Path otherJournalDir)
        throws Exception
    {
        final EventArchive unreachable =
            new EventArchive(true, archiveDir.toString(), EventArchive.REPLAY_STREAM_DEFAULT);
        try (EngineShards noArchive = new EngineShards("gateway-restart-test-no-archive", Map.of()))
        {
            try (GatewayService first = launch(20, journalDir, noArchive, EventArchive.DISABLED);
                TestClient client = TestClient.login(first.port(), "ord01", 1))
            {
                client.enterOrder("Z1", "MSFT", Ouch42.SIDE_BUY, 100, 1_500_000, DAY);
                assertThat(client.await(3).get(2)).isInstanceOf(Accepted.class);
            }

            try (GatewayService second = launch(21, otherJournalDir, noArchive, unreachable))
            {
                // The catch-up of shard 1's stream (Z1's events) waits for the archive client's connect timeout, 10 s.
                assertThat(awaitReady(second.metricsPort(), "503 not ready: matching-engine shard "))
                    .endsWith("'s events not yet caught up from the event archive\n");
                assertThat(awaitReady(second.metricsPort(), "200")).isEqualTo("200 ready\n");
                assertThat(MetricsEndpoint.scrape(second.metricsPort()))
                    .containsPattern("bourse_gateway_errors_total\\{kind=\"event_replay_failed\"} [12]\\.0");
                try (TestClient client = TestClient.login(second.port(), "ord01", 1))
                {
                    client.enterOrder("Z2", "MSFT", Ouch42.SIDE_BUY, 100, 1_500_000, DAY);
                    assertThat(client.await(3).get(2)).isInstanceOfSatisfying(Accepted.class,
                        (accepted) -> assertThat(accepted.token()).isEqualTo("Z2"));
                }
            }
        }
    }

    @Test
    void shouldCountOrdersOpenBeforeTheRestartAgainstTheOpenOrderLimit() throws Exception
    {
        try (GatewayService first = launch(14);
            TestClient client = TestClient.login(first.port(), "lim01", 1))
        {
            client.enterOrder("L1", "AAPL", Ouch42.SIDE_BUY, 100, 10_000, DAY);
            client.enterOrder("L2", "AAPL", Ouch42.SIDE_BUY, 100, 10_000, DAY);
            assertThat(client.await(4).subList(2, 4)).allMatch(Accepted.class::isInstance);
        }
        try (Stream<Path> files = Files.walk(journalDir))
        {
            assertThat(files.map((file) -> file.getFileName().toString())).as("the day's collar references")
                .contains(CollarReferences.FILE_NAME);
        }

        try (GatewayService second = launch(14);
            TestClient client = TestClient.login(second.port(), "lim01", 0))
        {
            client.enterOrder("L3", "AAPL", Ouch42.SIDE_BUY, 100, 10_000, DAY);
            assertThat(client.await(2).get(1)).usingRecursiveComparison().ignoringFields(IGNORED)
                .isEqualTo(new Rejected(0, "L3", 'O'));
            client.cancelOrder("L1", 0);
            assertThat(client.await(3).get(2)).usingRecursiveComparison().ignoringFields(IGNORED)
                .isEqualTo(new Canceled(0, "L1", 100, 'U'));
            client.enterOrder("L4", "AAPL", Ouch42.SIDE_BUY, 100, 10_000, DAY);

            assertThat(client.await(4).get(3)).isInstanceOfSatisfying(Accepted.class,
                (accepted) -> assertThat(accepted.token()).isEqualTo("L4"));
            assertThat(MetricsEndpoint.scrape(second.metricsPort()))
                .contains("bourse_gateway_rejects_total{reason=\"risk_max_open_orders\"} 1.0");
        }
    }

    @Test
    void shouldGiveNewOrdersClientOrderIdsNeverSentBeforeTheRestart() throws Exception
    {
        try (Aeron aeron = Aeron.connect(new Aeron.Context().aeronDirectoryName(engine.aeronDirectoryName()));
            Subscription commands = aeron.addSubscription(engine.layout().commandChannel(),
                engine.layout().commandStreamId(1)))
        {
            try (GatewayService first = launch(15);
                TestClient client = TestClient.login(first.port(), "ord01", 1))
            {
                client.enterOrder("F1", "AMZN", Ouch42.SIDE_SELL, 100, 95_000_000, DAY);
                client.enterOrder("F2", "AMZN", Ouch42.SIDE_SELL, 100, 95_000_000, DAY);
                assertThat(client.await(4).subList(2, 4)).allMatch(Accepted.class::isInstance);
            }
            try (GatewayService second = launch(15);
                TestClient client = TestClient.login(second.port(), "ord01", 0))
            {
                client.enterOrder("F3", "AMZN", Ouch42.SIDE_SELL, 100, 95_000_000, DAY);
                assertThat(client.await(2).get(1)).isInstanceOf(Accepted.class);
                client.cancelOrder("F1", 0);
                assertThat(client.await(3).get(2)).isInstanceOf(Canceled.class);
            }

            assertThat(awaitCommands(commands, 4)).isEqualTo(List.of(
                new Command("NewOrder", clientOrderId(15, 1, 1)),
                new Command("NewOrder", clientOrderId(15, 1, 2)),
                new Command("NewOrder", clientOrderId(15, 2, 1)),
                new Command("CancelOrder", clientOrderId(15, 1, 1))));
        }
    }

    /**
     * A gateway stopped before its close and started on a later date cancels the orders the earlier day's journals
     * leave open, which the engine still holds (without the event archive nothing but the journals tells it their
     * clientOrderIds), and gives its own sessions indexes past theirs. A day whose cancels were taken is marked and
     * not canceled again at the next start; a day stopped before its close is.
     */
    @Test
    void shouldCancelTheOpenOrdersOfAnEarlierDayAndGiveSessionsIndexesPastItsWhenStartedOnALaterDate() throws Exception
    {
        final long dayNs = MidnightNanoClock.NANOS_PER_DAY;
        final EpochNanoClock today = new MonotonicEpochNanoClock();
        final EpochNanoClock twoDaysLater = () -> today.nanoTime() + 2 * dayNs;
        final EpochNanoClock threeDaysLater = () -> today.nanoTime() + 3 * dayNs;
        final List<String> days = new ArrayList<>();
        try (EngineShards noArchive = new EngineShards("gateway-restart-test-later-date", Map.of());
            Aeron aeron = Aeron.connect(new Aeron.Context().aeronDirectoryName(noArchive.aeronDirectoryName()));
            Subscription commands = aeron.addSubscription(noArchive.layout().commandChannel(),
                noArchive.layout().commandStreamId(1)))
        {
            try (GatewayService first = GatewayService.launch(
                context(17, journalDir, noArchive, EventArchive.DISABLED).sessionName(null).epochClock(today)))
            {
                for (final String user : List.of("ord01", "cpt01"))
                {
                    try (TestClient client = TestClient.login(first.port(), user, 1))
                    {
                        client.enterOrder("L1", "AMZN", Ouch42.SIDE_SELL, 100, 95_000_000, DAY);
                        assertThat(client.await(3).get(2)).isInstanceOf(Accepted.class);
                        days.add(((LoginAccepted)client.await(1).getFirst()).session());
                    }
                }
            }
            try (GatewayService second = GatewayService.launch(
                context(17, journalDir, noArchive, EventArchive.DISABLED).sessionName(null).epochClock(twoDaysLater)))
            {
                try (TestClient client = TestClient.login(second.port(), "ord01", 1))
                {
                    days.add(((LoginAccepted)client.await(1).getFirst()).session());
                    assertThat(days.get(2)).isEqualTo(SessionNames.ofDate(LocalDate.parse(days.get(0),
                        DateTimeFormatter.BASIC_ISO_DATE).plusDays(2)));
                    assertBuyRestsUntilCanceled(client, 95_000_000);
                }
                try (TestClient client = TestClient.login(second.port(), "cpt01", 1))
                {
                    client.enterOrder("L1", "AMZN", Ouch42.SIDE_SELL, 100, 96_000_000, DAY);
                    assertThat(client.await(3).get(2)).isInstanceOf(Accepted.class);
                }
                assertThat(MetricsEndpoint.scrape(second.metricsPort()))
                    .contains("bourse_gateway_close_cancels_total 2.0");
            }
            assertThat(journalDir.resolve(days.get(0)).resolve(JournalStore.ORDERS_CANCELED_FILE)).exists();
            assertThat(journalDir.resolve(days.get(2)).resolve(JournalStore.ORDERS_CANCELED_FILE)).doesNotExist();

            // The later day stopped before its close too: its open order is canceled, the first day's are not again.
            try (GatewayService third = GatewayService.launch(context(17, journalDir, noArchive,
                EventArchive.DISABLED).sessionName(null).epochClock(threeDaysLater));
                TestClient client = TestClient.login(third.port(), "ord01", 1))
            {
                assertBuyRestsUntilCanceled(client, 96_000_000);
                assertThat(MetricsEndpoint.scrape(third.metricsPort()))
                    .contains("bourse_gateway_close_cancels_total 1.0");
            }
            assertThat(journalDir.resolve(days.get(2)).resolve(JournalStore.ORDERS_CANCELED_FILE)).exists();

            final List<Command> sent = awaitCommands(commands, 10);
            assertThat(sent.subList(0, 2)).isEqualTo(List.of(new Command("NewOrder", clientOrderId(17, 1, 1)),
                new Command("NewOrder", clientOrderId(17, 2, 1))));
            assertThat(sent.subList(2, 4)).as("the first day's orders canceled, in any order")
                .containsExactlyInAnyOrder(new Command("CancelOrder", clientOrderId(17, 1, 1)),
                    new Command("CancelOrder", clientOrderId(17, 2, 1)));
            assertThat(sent.subList(4, 10)).as("session indexes 3 and 4, then 5, past the earlier days'").isEqualTo(
                List.of(new Command("NewOrder", clientOrderId(17, 3, 1)),
                    new Command("CancelOrder", clientOrderId(17, 3, 1)),
                    new Command("NewOrder", clientOrderId(17, 4, 1)),
                    new Command("CancelOrder", clientOrderId(17, 4, 1)),
                    new Command("NewOrder", clientOrderId(17, 5, 1)),
                    new Command("CancelOrder", clientOrderId(17, 5, 1))));
        }
    }

    /**
     * A gateway that ran past midnight UTC stamped its commands with times past a day (its clock counts from the
     * midnight of its start), and the engine's clock, which never goes back, followed; the gateway restarted after
     * that midnight counts from it, a day less. Its good-till-seconds order still expires after its seconds, not once
     * the restarted gateway's clock has caught up with the engine's a day later.
     */
    @Test
    void shouldExpireAGoodTillSecondsOrderOnTimeAfterARestartPastMidnight() throws Exception
    {
        // The wall clock an hour before the next midnight UTC, moved on past it while the first gateway runs.
        final MonotonicEpochNanoClock system = new MonotonicEpochNanoClock();
        final AtomicLong offsetNs = anHourBeforeTheNextMidnight(system);
        final EpochNanoClock wallClock = () -> system.nanoTime() + offsetNs.get();
        try (EngineShards shards = new EngineShards("gateway-restart-test-past-midnight", Map.of()))
        {
            try (GatewayService first = GatewayService.launch(context(18, journalDir, shards, EventArchive.DISABLED)
                .epochClock(wallClock).clockTickIntervalMs(100));
                TestClient client = TestClient.login(first.port(), "ord01", 1))
            {
                offsetNs.addAndGet(TimeUnit.HOURS.toNanos(3));
                // Taken at 02:00 on the first gateway's clock: 26 h since the midnight of its start, the engine's too.
                client.enterOrder("P1", "AMZN", Ouch42.SIDE_SELL, 100, 97_000_000, DAY);
                assertThat(client.await(3).get(2)).isInstanceOf(Accepted.class);
            }

            try (GatewayService second = GatewayService.launch(context(18, journalDir, shards, EventArchive.DISABLED)
                .epochClock(wallClock).clockTickIntervalMs(100));
                TestClient client = TestClient.login(second.port(), "ord01", 3))
            {
                client.enterOrder("P2", "AMZN", Ouch42.SIDE_BUY, 100, 96_000_000, 1);

                assertThat(client.await(3)).usingRecursiveFieldByFieldElementComparatorIgnoringFields(IGNORED)
                    .as("the order canceled T within its second and the next ticks")
                    .containsExactly(new LoginAccepted(SESSION, 3),
                        new Accepted(0, "P2", 'B', 100, "AMZN", 96_000_000, 1, "DEMO", 'Y', 0, 'A', 'N', 0, 'N', 'L',
                            ' '),
                        new Canceled(0, "P2", 100, 'T'));
            }
        }
    }

    /** Buys 100 AMZN at the price, which must rest whole: the client's cancel gets all 100 shares back. */
    private static void assertBuyRestsUntilCanceled(final TestClient client, final long price) throws Exception
    {
        client.enterOrder("B1", "AMZN", Ouch42.SIDE_BUY, 100, price, DAY);
        client.cancelOrder("B1", 0);
        final List<Object> received = client.await(4);
        assertThat(received.get(2)).isInstanceOf(Accepted.class);
        assertThat(received.get(3)).usingRecursiveComparison().ignoringFields(IGNORED)
            .isEqualTo(new Canceled(0, "B1", 100, 'U'));
    }

    @Test
    void shouldRecoverFromATornJournalTailAndRebuildTheOrdersOfTheIntactPart() throws Exception
    {
        try (GatewayService first = launch(16);
            TestClient client = TestClient.login(first.port(), "ord01", 1))
        {
            client.enterOrder("K1", "AMZN", Ouch42.SIDE_SELL, 100, 96_000_000, DAY);
            assertThat(client.await(3).get(2)).isInstanceOf(Accepted.class);
            client.enterOrder("K2", "IBM", Ouch42.SIDE_SELL, 100, 96_000_000, DAY);
            assertThat(client.await(4).get(3)).usingRecursiveComparison().ignoringFields(IGNORED)
                .isEqualTo(new Rejected(0, "K2", 'S'));
        }
        final Path journal = journalDir.resolve(SESSION).resolve("ord01" + JournalStore.SUFFIX);
        try (FileChannel channel = FileChannel.open(journal, StandardOpenOption.WRITE))
        {
            channel.truncate(channel.size() - 5);
        }

        try (GatewayService second = launch(16);
            TestClient client = TestClient.login(second.port(), "ord01", 1))
        {
            final List<Object> replayed = client.await(3);
            assertThat(replayed.get(0)).isEqualTo(new LoginAccepted(SESSION, 1));
            assertThat(replayed.get(1)).isInstanceOf(SystemEventMessage.class);
            assertThat(replayed.get(2)).isInstanceOf(Accepted.class);
            client.enterOrder("K2", "AMZN", Ouch42.SIDE_SELL, 100, 96_000_000, DAY);
            client.cancelOrder("K1", 0);

            assertThat(client.await(5).subList(3, 5)).usingRecursiveFieldByFieldElementComparatorIgnoringFields(IGNORED)
                .containsExactly(
                    new Accepted(0, "K2", 'S', 100, "AMZN", 96_000_000, DAY, "DEMO", 'Y', 0, 'A', 'N', 0, 'N', 'L',
                        ' '),
                    new Canceled(0, "K1", 100, 'U'));
            assertThat(MetricsEndpoint.scrape(second.metricsPort()))
                .contains("bourse_gateway_journal_truncations_total 1.0")
                .contains("bourse_gateway_open_orders 1.0");
        }
    }

    @Test
    void shouldCancelAtAMidnightCloseThenTradeTheSameTokenInTheNextDayAlsoAfterARestart() throws Exception
    {
        // The gateway's wall clock an hour before the next midnight UTC, closing at 00:00: the day's end.
        final MonotonicEpochNanoClock system = new MonotonicEpochNanoClock();
        final AtomicLong offsetNs = anHourBeforeTheNextMidnight(system);
        final EpochNanoClock beforeMidnight = () -> system.nanoTime() + offsetNs.get();
        final LocalDate firstDate = new MidnightNanoClock(beforeMidnight).startDate();
        final String firstDay = SessionNames.ofDate(firstDate);
        final String nextDay = SessionNames.ofDate(firstDate.plusDays(1));
        final long price = 130_000;

        try (GatewayService first = GatewayService.launch(daily(41, beforeMidnight)))
        {
            try (TestClient client = TestClient.login(first.port(), "ord01", 1))
            {
                client.enterOrder("M1", "GOOG", Ouch42.SIDE_BUY, 100, price, DAY);
                assertThat(client.await(3).get(2)).isInstanceOf(Accepted.class);
                // On to a second before midnight: the close comes while the client reads.
                offsetNs.addAndGet(TimeUnit.HOURS.toNanos(1) - TimeUnit.SECONDS.toNanos(1));
                final List<Object> day = awaitClosed(client);

                assertThat(day).usingRecursiveFieldByFieldElementComparatorIgnoringFields(IGNORED)
                    .containsExactly(new LoginAccepted(firstDay, 1), new SystemEventMessage(0, 'S'),
                        new Accepted(0, "M1", 'B', 100, "GOOG", price, DAY, "DEMO", 'Y', 0, 'A', 'N', 0, 'N', 'L',
                            ' '),
                        new Canceled(0, "M1", 100, 'T'), new SystemEventMessage(0, 'E'), new EndOfSession(),
                        new Closed());
            }
            awaitDirectory(journalDir.resolve(nextDay));

            try (TestClient buyer = TestClient.login(first.port(), "ord01", 1);
                TestClient seller = TestClient.login(first.port(), "cpt01", 1))
            {
                buyer.enterOrder("M1", "GOOG", Ouch42.SIDE_BUY, 100, price, DAY);
                assertThat(buyer.await(3).get(2)).isInstanceOf(Accepted.class);
                seller.enterOrder("M1", "GOOG", Ouch42.SIDE_SELL, 60, price, Ouch42.TIME_IN_FORCE_IMMEDIATE_OR_CANCEL);
                final Executed taken = (Executed)seller.await(4).get(3);

                assertThat(buyer.await(4)).usingRecursiveFieldByFieldElementComparatorIgnoringFields(IGNORED)
                    .startsWith(new LoginAccepted(nextDay, 1), new SystemEventMessage(0, 'S'))
                    .last().usingRecursiveComparison().ignoringFields("timestamp")
                    .isEqualTo(new Executed(0, "M1", 60, price, 'A', taken.matchNumber()));
            }
            assertThat(journalDir.resolve(firstDay).resolve(JournalStore.ORDERS_CANCELED_FILE))
                .as("every order of the closed day canceled at its close").exists();
        }

        // Restarted in the new day, on its journals and positions: the day's orders known, the closed day's gone.
        try (GatewayService second = GatewayService.launch(daily(41, beforeMidnight));
            TestClient client = TestClient.login(second.port(), "ord01", 4))
        {
            client.cancelOrder("M1", 0);

            assertThat(client.await(2)).usingRecursiveFieldByFieldElementComparatorIgnoringFields(IGNORED)
                .containsExactly(new LoginAccepted(nextDay, 4), new Canceled(0, "M1", 40, 'U'));
            try (TestClient late = new TestClient(second.port()))
            {
                late.login("ord01", "ord01pw", firstDay, 1);
                assertThat(late.await(1)).containsExactly(new LoginRejected('S'));
            }
            assertThat(MetricsEndpoint.scrape(second.metricsPort()))
                .contains("bourse_gateway_open_orders 0.0")
                .contains("bourse_gateway_unmatched_events_total 0.0")
                .contains("bourse_gateway_errors_total{kind=\"event_replay_failed\"} 0.0");
        }
    }

    /** Gateway {@code gatewayId} on this test's journals with daily sessions, closing at 00:00, on that clock. */
    private GatewayContext daily(final int gatewayId, final EpochNanoClock epochClock)
    {
        return context(gatewayId, journalDir, engine, engine.eventArchive())
            .sessionName(null)
            .closeTimeNs(MidnightNanoClock.NANOS_PER_DAY)
            .epochClock(epochClock);
    }

    /** Reads until the gateway closes the connection, for up to 15 s; returns everything received. */
    private static List<Object> awaitClosed(final TestClient client) throws Exception
    {
        final long deadlineNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
        List<Object> received = client.await(Integer.MAX_VALUE);
        while (!received.contains(new Closed()) && System.nanoTime() < deadlineNs)
        {
            received = client.await(Integer.MAX_VALUE);
        }
        return received;
    }

    private static void awaitDirectory(final Path directory) throws InterruptedException
    {
        final long deadlineNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
        while (!Files.isDirectory(directory))
        {
            assertThat(System.nanoTime()).as(directory + " created").isLessThan(deadlineNs);
            Thread.sleep(10);
        }
    }

    private GatewayService launch(final int gatewayId)
    {
        return launch(gatewayId, journalDir);
    }

    private static GatewayService launch(final int gatewayId, final Path journalDir)
    {
        return launch(gatewayId, journalDir, engine, engine.eventArchive());
    }

    private static GatewayService launch(
        final int gatewayId, final Path journalDir, final EngineShards shards, final EventArchive archive)
    {
        return GatewayService.launch(context(gatewayId, journalDir, shards, archive));
    }

    private static GatewayContext context(
        final int gatewayId, final Path journalDir, final EngineShards shards, final EventArchive archive)
    {
        return new GatewayContext()
            .port(0)
            .bindAddress("127.0.0.1")
            .metricsPort(0)
            .jvmMetrics(false)
            .gatewayId(gatewayId)
            .sessionName(SESSION)
            .journalDir(journalDir.toString())
            .credentials(Credentials.parse(
                List.of("ord01,ord01pw,DEMO", "cpt01,cpt01pw,DEMO", "lim01,lim01pw,DEMO", "cod01,cod01pw,DEMO")))
            .riskLimits(RiskLimits.parse(RiskLimits.NO_LIMITS,
                List.of("ord01,,,,,,N", "cpt01,,,,,,N", "lim01,,,2,,,N"), List.of(), Map.of()))
            .streamLayout(shards.layout())
            .symbolDirectory(EngineShards.SYMBOLS)
            .eventArchive(archive)
            .idleStrategy(new SleepingMillisIdleStrategy(1));
    }

    /**
     * Another gateway's client (cpt01, on a new journal) sells MSFT, immediate-or-cancel, against one resting buy order
     * at the price of at least as many shares.
     *
     * @return the seller's Executed, checked: all its shares at the price, removing liquidity.
     */
    private static Executed sellFromAnotherGateway(
        final int gatewayId, final Path journalDir, final String token, final long shares, final long price)
        throws Exception
    {
        try (GatewayService other = launch(gatewayId, journalDir);
            TestClient seller = TestClient.login(other.port(), "cpt01", 1))
        {
            seller.enterOrder(
                token, "MSFT", Ouch42.SIDE_SELL, shares, price, Ouch42.TIME_IN_FORCE_IMMEDIATE_OR_CANCEL);
            final Executed taken = (Executed)seller.await(4).get(3);
            assertThat(taken).usingRecursiveComparison().ignoringFields(IGNORED)
                .isEqualTo(new Executed(0, token, shares, price, 'R', 0));
            return taken;
        }
    }

    /** Polls the gateway's {@code /ready} until its answer starts with the expected text; returns that answer. */
    private static String awaitReady(final int metricsPort, final String expectedStart) throws Exception
    {
        final long deadlineNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        try (HttpClient http = HttpClient.newHttpClient())
        {
            while (true)
            {
                final HttpResponse<String> response = http.send(
                    HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + metricsPort + "/ready")).build(),
                    HttpResponse.BodyHandlers.ofString());
                final String answer = response.statusCode() + " " + response.body();
                if (answer.startsWith(expectedStart))
                {
                    return answer;
                }
                assertThat(System.nanoTime()).as("/ready answering " + expectedStart + ", last " + answer)
                    .isLessThan(deadlineNs);
                Thread.sleep(10);
            }
        }
    }

    private static double replayedEvents(final String metrics)
    {
        final Matcher matcher = Pattern.compile("(?m)^bourse_gateway_replayed_events_total (\\S+)$").matcher(metrics);
        assertThat(matcher.find()).as("bourse_gateway_replayed_events_total in " + metrics).isTrue();
        return Double.parseDouble(matcher.group(1));
    }

    /**
     * Waits until a shard's event stream has that many subscribers (images) left: the driver forgets a closed
     * client's subscriptions in its next check of its clients, and until then a new subscriber joins the stream at the
     * position of the slowest one, not at the newest event.
     */
    private static void awaitEventSubscribers(final int shardId, final int count) throws InterruptedException
    {
        awaitStreamCounters(engine.layout().eventStreamId(shardId), SubscriberPos.SUBSCRIBER_POSITION_TYPE_ID, count);
    }

    /**
     * Waits until the driver has that many counters of a type for a stream, such as the subscriber positions (one per
     * image) or the publisher limits (one per publication, gone once the driver has freed a closed one).
     */
    private static void awaitStreamCounters(final int streamId, final int typeId, final int count)
        throws InterruptedException
    {
        try (Aeron aeron = Aeron.connect(new Aeron.Context().aeronDirectoryName(engine.aeronDirectoryName())))
        {
            final CountersReader counters = aeron.countersReader();
            final long deadlineNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while (StreamCounters.count(counters, streamId, typeId) != count)
            {
                assertThat(System.nanoTime()).as("counters of type " + typeId + " of stream " + streamId)
                    .isLessThan(deadlineNs);
                Thread.sleep(10);
            }
        }
    }

    private static long clientOrderId(final int gatewayId, final int sessionIndex, final int count)
    {
        return ((long)gatewayId << 56) | ((long)sessionIndex << 32) | count;
    }

    /** @return the first New Orders and Cancel Orders on the shard's command stream, clock ticks skipped. */
    private static List<Command> awaitCommands(final Subscription commands, final int count)
        throws InterruptedException
    {
        final List<Command> received = new ArrayList<>();
        final MessageHeaderDecoder header = new MessageHeaderDecoder();
        final NewOrderDecoder newOrder = new NewOrderDecoder();
        final CancelOrderDecoder cancelOrder = new CancelOrderDecoder();
        final long deadlineNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (received.size() < count && System.nanoTime() < deadlineNs)
        {
            if (0 == commands.poll((buffer, offset, length, frameHeader) ->
            {
                header.wrap(buffer, offset);
                final int bodyOffset = offset + MessageHeaderDecoder.ENCODED_LENGTH;
                if (NewOrderDecoder.TEMPLATE_ID == header.templateId())
                {
                    newOrder.wrap(buffer, bodyOffset, header.blockLength(), header.version());
                    received.add(new Command("NewOrder", newOrder.clientOrderId()));
                }
                else if (CancelOrderDecoder.TEMPLATE_ID == header.templateId())
                {
                    cancelOrder.wrap(buffer, bodyOffset, header.blockLength(), header.version());
                    received.add(new Command("CancelOrder", cancelOrder.clientOrderId()));
                }
            }, 10))
            {
                Thread.sleep(1);
            }
        }
        return received;
    }

    /**
     * @param system the system's wall clock.
     * @return what to add to it to stand an hour before the next midnight UTC; a test moves it on from there.
     */
    private static AtomicLong anHourBeforeTheNextMidnight(final EpochNanoClock system)
    {
        final long nowNs = system.nanoTime();
        return new AtomicLong((nowNs / MidnightNanoClock.NANOS_PER_DAY + 1) * MidnightNanoClock.NANOS_PER_DAY -
            TimeUnit.HOURS.toNanos(1) - nowNs);
    }
}
