package io.bourse.engine;

import io.aeron.Aeron;
import io.aeron.ExclusivePublication;
import io.aeron.Publication;
import io.aeron.Subscription;
import io.aeron.archive.client.AeronArchive;
import io.bourse.common.EngineNumbering;
import io.bourse.common.aeron.ArchivingDriverFixture;
import io.bourse.common.aeron.EventArchive;
import io.bourse.common.aeron.EventReplay;
import io.bourse.common.aeron.StreamLayout;
import io.bourse.common.aeron.StreamRecordings;
import io.bourse.common.config.SymbolDirectory;
import io.bourse.common.config.Symbols;
import io.bourse.common.metrics.MetricsEndpoint;
import io.bourse.common.metrics.ReadyEndpoint;
import io.bourse.common.time.MidnightNanoClock;
import io.bourse.engine.ShardStreams.Event;
import io.bourse.sbe.engine.AdminResponseCode;
import io.bourse.sbe.engine.BreakTradeEncoder;
import io.bourse.sbe.engine.ClockTickEncoder;
import io.bourse.sbe.engine.MessageHeaderDecoder;
import io.bourse.sbe.engine.MessageHeaderEncoder;
import io.bourse.sbe.engine.NewOrderDecoder;
import io.bourse.sbe.engine.NewOrderEncoder;
import io.bourse.sbe.engine.OrderAcceptedEncoder;
import io.bourse.sbe.engine.SequencedCommandDecoder;
import io.bourse.sbe.engine.SequencedCommandEncoder;
import io.bourse.sbe.engine.SetPriceBandEncoder;
import io.bourse.sbe.engine.SetTradingStateEncoder;
import io.bourse.sbe.engine.Side;
import io.bourse.sbe.engine.TradingState;
import io.bourse.sbe.engine.TradingStateChangedEncoder;
import org.agrona.CloseHelper;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.SleepingMillisIdleStrategy;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.stream.LongStream;

import static io.bourse.engine.ShardStreams.DAY;
import static io.bourse.engine.ShardStreams.PRICE;
import static io.bourse.engine.ShardStreams.adminResponse;
import static io.bourse.engine.ShardStreams.await;
import static io.bourse.engine.ShardStreams.awaitAfterStart;
import static io.bourse.engine.ShardStreams.awaitQuiet;
import static io.bourse.engine.ShardStreams.breakTrade;
import static io.bourse.engine.ShardStreams.cancel;
import static io.bourse.engine.ShardStreams.metric;
import static io.bourse.engine.ShardStreams.newOrder;
import static io.bourse.engine.ShardStreams.offer;
import static io.bourse.engine.ShardStreams.priceBand;
import static io.bourse.engine.ShardStreams.quoteThenCross;
import static io.bourse.engine.ShardStreams.readSequencedEvents;
import static io.bourse.engine.ShardStreams.send;
import static io.bourse.engine.ShardStreams.sendRestingOrdersUntilHeld;
import static io.bourse.engine.ShardStreams.tradeThenBreakATradeAbove;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A real shard recording its event stream in a real Aeron Archive, run by an archiving embedded media driver, and
 * recovering its state from those recordings when it restarts.
 */
@Timeout(60)
class EngineRecoveryTest
{
    private static final int SHARD = 1;
    /** The command stream image of the commands a test's recorded run took: no publication of the test's. */
    private static final int TAKEN_SESSION_ID = 0x0BAD;
    /** Where on that image such a command was taken. */
    private static final long TAKEN_POSITION = 64;
    /** The wall clock of the shards these tests launch, ns since the Unix epoch, unless a test moves it. */
    private static final long START_EPOCH_NS = 1_763_000_000_000_000_000L;
    /**
     * The first order reference number (and match number) of a run recorded by an engine of schema version 7 or
     * older, which took no StartNumbering and counted from 0.
     */
    private static final long UNNUMBERED_FIRST = (1 << 4) | SHARD;

    @TempDir
    private Path archiveDir;
    private EventArchive archive;
    private ArchivingDriverFixture driver;
    private StreamLayout layout;
    private Aeron aeron;
    /** The wall clock's time, in ns since the Unix epoch, that the next shard launched starts its numbering from. */
    private long epochNs = START_EPOCH_NS;

    private record Recording(long recordingId, int sessionId, long stopPosition)
    {
    }

    @BeforeEach
    void setUp()
    {
        driver = new ArchivingDriverFixture("event-recording-test", archiveDir);
        archive = driver.archive();
        layout = driver.layout();
        aeron = driver.aeron();
    }

    @AfterEach
    void tearDown()
    {
        CloseHelper.close(driver);
    }

    @Test
    void shouldRecordEachRunOfTheShardAndKeepTheEarlierRuns() throws Exception
    {
        try (EngineService ignored = launchShard())
        {
            assertThat(recordings()).singleElement().satisfies((recording) ->
                assertThat(recording.stopPosition()).isEqualTo(AeronArchive.NULL_POSITION));
        }
        final Recording first = awaitStopped();

        try (EngineService ignored = launchShard())
        {
            assertThat(recordings()).satisfiesExactly(
                (recording) -> assertThat(recording).isEqualTo(first),
                (recording) ->
                {
                    assertThat(recording.recordingId()).isGreaterThan(first.recordingId());
                    assertThat(recording.sessionId()).isNotEqualTo(first.sessionId());
                    assertThat(recording.stopPosition()).isEqualTo(AeronArchive.NULL_POSITION);
                });
        }
    }

    /**
     * Three runs: the second trades against the first's resting orders, with the next order reference and match
     * numbers, and breaks the first's trade; the third cancels what the second left. Each run's events are numbered
     * from 1.
     */
    @Test
    void shouldRecoverBooksOrderReferencesMatchNumbersAndExecutionsWhenTheShardRestarts() throws Exception
    {
        final long firstMatch = number(1);
        try (EngineService ignored = launchShard())
        {
            final Subscription events = subscribeEvents();
            final Publication commands = connect(events);
            send(commands, 11, "AAPL", Side.BUY, 100, 777);
            send(commands, 12, "AAPL", Side.SELL, 60, 778);
            send(commands, 13, "AAPL", Side.BUY, 50, PRICE - 100, 779);
            assertThat(awaitAfterStart(events, 6)).hasSize(6);
        }
        awaitStopped();

        try (EngineService ignored = launchShard())
        {
            final Subscription events = subscribeEvents();
            final Publication commands = connect(events);
            send(commands, 14, "AAPL", Side.SELL, 100, PRICE - 100, 780);
            breakTrade(commands, "AAPL", firstMatch, 'E', 781);

            assertThat(awaitAfterStart(events, recordings().getLast().sessionId(), 6)).containsExactly(
                new Event(2, "accepted 14 AAPL SELL 100@" + (PRICE - 100) + " Y t=780"),
                new Event(3, "executed 40@" + PRICE + " taker 14 maker 11 match " + number(2) + " t=780"),
                new Event(4, "executed 50@" + (PRICE - 100) + " taker 14 maker 13 match " + number(3) +
                    " t=780"),
                new Event(5, "added SELL 10@" + (PRICE - 100) + " Y"),
                new Event(6, "broken AAPL 60@" + PRICE + " taker 12/" + number(2) + " maker 11/" +
                    number(1) + " match " + firstMatch + " E t=781"),
                adminResponse(BreakTradeEncoder.TEMPLATE_ID, "AAPL", AdminResponseCode.OK, 781));
        }
        awaitStopped();

        try (EngineService ignored = launchShard())
        {
            final Subscription events = subscribeEvents();
            final Publication commands = connect(events);
            cancel(commands, 14, 0, 782);
            send(commands, 15, "AAPL", Side.BUY, 5, 783);

            assertThat(awaitAfterStart(events, recordings().getLast().sessionId(), 3)).containsExactly(
                new Event(2, "canceled 14 10 leaves 0 U resting t=782"),
                new Event(3, "accepted 15 AAPL BUY 5@" + PRICE + " Y t=783"),
                new Event(4, "added BUY 5@" + PRICE + " Y"));
        }
    }

    /**
     * A run trades twice and an operator breaks its newer trade; the next run recovers the break with the books, so
     * its closing cross takes the trade before the broken one as its reference ({@link ShardStreams#quoteThenCross}).
     */
    @Test
    void shouldRecoverABrokenTradeAsNoCrossReference() throws Exception
    {
        try (EngineService ignored = launchShard())
        {
            final Subscription events = subscribeEvents();
            tradeThenBreakATradeAbove(connect(events), number(2));
            assertThat(awaitAfterStart(events, 10)).map(Event::text).contains(
                "broken AAPL 100@" + (PRICE + 2_000) + " taker 14/" + number(4) + " maker 13/" + number(3) +
                    " match " + number(2) + " E t=5");
        }
        awaitStopped();

        try (EngineService ignored = launchShard())
        {
            final Subscription events = subscribeEvents();
            quoteThenCross(connect(events));

            assertThat(awaitAfterStart(events, recordings().getLast().sessionId(), 10)).map(Event::text)
                .filteredOn((text) -> text.startsWith("executed") || text.startsWith("cross"))
                .hasSize(2)
                .allSatisfy((text) -> assertThat(text).contains(" 100@" + (PRICE + 100) + " "));
        }
    }

    /**
     * A run stopped while a slow subscriber holds its events back, with most of its commands still unread: its drain
     * takes and answers them all, each after its SequencedCommand, so the recording holds every command a subscriber
     * saw answered and the next run recovers every order: one buy sweeps all the sells.
     */
    @Test
    void shouldRecordEveryCommandItAnswersWhenItStopsWithEventsHeld() throws Exception
    {
        layout = layout.withEventChannel("aeron:ipc?term-length=65536");
        final int orders;
        try (EngineService firstRun = launchShard(); Subscription events = subscribeEvents())
        {
            orders = sendRestingOrdersUntilHeld(connect(events), firstRun.metricsPort());

            final Thread stop = new Thread(firstRun::close, "stop");
            stop.start();
            final int received;
            try
            {
                received = readSequencedEvents(events, 2, 2 * orders);
            }
            finally
            {
                stop.join();
            }
            assertThat(received).isEqualTo(2 * orders);
        }
        awaitStopped();

        try (EngineService ignored = launchShard())
        {
            final Subscription events = subscribeEvents();
            send(connect(events), orders + 1, "AAPL", Side.BUY, orders / 2, PRICE + orders, 2L * orders);

            final List<Event> sweep = awaitAfterStart(events, recordings().getLast().sessionId(), 1 + orders / 2);
            assertThat(sweep).hasSize(1 + orders / 2);
            assertThat(sweep.getLast().text()).startsWith("executed 1@" + (PRICE + orders - 1) + " taker " +
                (orders + 1) + " maker " + (orders - 1) + " ");
        }
    }

    /**
     * A run that stopped after publishing a command and its OrderAccepted but before its OrderAdded: the next run
     * publishes that OrderAdded first, as its event 1, and the order trades; the run after that recovers from both.
     */
    @Test
    void shouldPublishFirstTheEventsAnEarlierRunNeverPublished() throws Exception
    {
        recordRunThatDiedBeforeAddingOrder11();

        final Subscription events = subscribeEvents();
        try (EngineService ignored = launchShard())
        {
            assertOrder11AddedFirstThenTraded(events, 1);
        }
        awaitStopped();

        // The next restart matches that run's first event against the first run's command, then takes its own.
        try (EngineService ignored = launchShard())
        {
            final Subscription thirdRun = subscribeEvents();
            final Publication commands = connect(thirdRun);
            cancel(commands, 11, 0, 779);

            assertThat(awaitAfterStart(thirdRun, recordings().getLast().sessionId(), 1)).containsExactly(
                new Event(2, "canceled 11 40 leaves 0 U resting t=779"));
        }
    }

    /**
     * A run that died right after taking an operator's BreakTrade (its SequencedCommand recorded, neither its
     * TradeBroken nor its AdminResponse published): the next run publishes both first, the answer unnumbered and with
     * the command's timestamp, so that the operator's tool hears it; the run after that recovers from every run
     * without answering the command again. Before, the answer was never published: {@code bourse admin} timed out, and
     * its retry was refused (TRADE_ALREADY_BROKEN).
     */
    @Test
    void shouldAnswerAnAdminCommandAnEarlierRunTookButDiedBeforeAnswering() throws Exception
    {
        final long firstMatch = number(1);
        try (EngineService ignored = launchShard())
        {
            final Subscription events = subscribeEvents();
            final Publication commands = connect(events);
            send(commands, 11, "AAPL", Side.BUY, 100, 777);
            send(commands, 12, "AAPL", Side.SELL, 60, 778);
            assertThat(awaitAfterStart(events, 4)).hasSize(4);
        }
        awaitStopped();
        final AdminCommandEncoder admin = new AdminCommandEncoder();
        recordRun((publication) -> offerTakenCommand(publication, admin.buffer(),
            admin.breakTrade(781, Symbols.pack("AAPL"), firstMatch, (byte)'E'),
            SequencedCommandEncoder.SCHEMA_VERSION));

        final Subscription thirdRun = subscribeEvents(); // before the run starts: it publishes those at once
        try (EngineService ignored = launchShard())
        {
            cancel(connect(thirdRun), 11, 0, 782);

            assertThat(await(thirdRun, recordings().getLast().sessionId(), 4)).containsExactly(
                new Event(1, "broken AAPL 60@" + PRICE + " taker 12/" + number(2) + " maker 11/" +
                    number(1) + " match " + firstMatch + " E t=781"),
                adminResponse(BreakTradeEncoder.TEMPLATE_ID, "AAPL", AdminResponseCode.OK, 781),
                runStarted(2, 2),
                new Event(3, "canceled 11 40 leaves 0 U resting t=782"));
        }
        awaitStopped();

        final Subscription fourthRun = subscribeEvents();
        try (EngineService ignored = launchShard())
        {
            send(connect(fourthRun), 13, "AAPL", Side.BUY, 5, 783);

            assertThat(await(fourthRun, recordings().getLast().sessionId(), 3)).containsExactly(
                runStarted(1, 3),
                new Event(2, "accepted 13 AAPL BUY 5@" + PRICE + " Y t=783"),
                new Event(3, "added BUY 5@" + PRICE + " Y"));
        }
    }

    /**
     * A run that died after publishing an operator's SetTradingState and its TradingStateChanged, before its
     * AdminResponse: the next run publishes only that answer first, unnumbered, so that its own first event, its
     * RunStarted, is still numbered 1.
     */
    @Test
    void shouldAnswerAnAdminCommandWhoseRunDiedAfterItsEventsBeforeItsAnswer() throws Exception
    {
        final AdminCommandEncoder admin = new AdminCommandEncoder();
        recordRun((publication) ->
        {
            offerTakenCommand(publication, admin.buffer(), admin.tradingState(777, Symbols.pack("AAPL"),
                io.bourse.engine.match.TradingState.HALTED), SequencedCommandEncoder.SCHEMA_VERSION);
            final UnsafeBuffer buffer = new UnsafeBuffer(new byte[128]);
            final TradingStateChangedEncoder halted = new TradingStateChangedEncoder()
                .wrapAndApplyHeader(buffer, 0, new MessageHeaderEncoder())
                .sequenceNumber(1)
                .timestampNs(777)
                .symbol("AAPL    ")
                .state(TradingState.HALTED);
            offer(publication, buffer, MessageHeaderEncoder.ENCODED_LENGTH + halted.encodedLength());
        });

        final Subscription events = subscribeEvents(); // before the run starts: it publishes the answer at once
        try (EngineService ignored = launchShard())
        {
            send(connect(events), 11, "AAPL", Side.BUY, 100, 778);

            assertThat(await(events, recordings().getLast().sessionId(), 3)).containsExactly(
                adminResponse(SetTradingStateEncoder.TEMPLATE_ID, "AAPL", AdminResponseCode.OK, 777),
                runStarted(1, 1),
                new Event(2, "rejected 11 H"));
        }
    }

    /**
     * A run recorded by an engine from before schema version 7, which answered no admin command: its SetPriceBand is
     * replayed (the band rejects the next run's buy) but not answered, as nothing went missing.
     */
    @Test
    void shouldNotAnswerTheAdminCommandsOfARunRecordedBeforeSchemaVersion7() throws Exception
    {
        final AdminCommandEncoder admin = new AdminCommandEncoder();
        recordRun((publication) -> offerTakenCommand(publication, admin.buffer(),
            admin.priceBand(777, Symbols.pack("AAPL"), PRICE, 100), 6));

        final Subscription events = subscribeEvents();
        try (EngineService ignored = launchShard())
        {
            send(connect(events), 11, "AAPL", Side.BUY, 100, PRICE + PRICE / 50, 778);

            assertThat(await(events, recordings().getLast().sessionId(), 2)).containsExactly(
                runStarted(1, 1),
                new Event(2, "rejected 11 X"));
        }
    }

    /**
     * A run died before answering an admin command, and the next was an engine that recovered without that answer
     * (schema version 7 too, before the answer was published): it took its next command without publishing it. That
     * run is recovered all the same, the answer dropped at its command rather than taken for a divergence, and the new
     * run publishes first only the OrderAdded it left.
     */
    @Test
    void shouldRecoverARunThatNeverPublishedTheAnswerAnEarlierRunLeft() throws Exception
    {
        final AdminCommandEncoder admin = new AdminCommandEncoder();
        recordRun((publication) -> offerTakenCommand(publication, admin.buffer(),
            admin.priceBand(776, Symbols.pack("AAPL"), PRICE, 100), SequencedCommandEncoder.SCHEMA_VERSION));
        recordRunThatDiedBeforeAddingOrder11();

        final Subscription events = subscribeEvents();
        try (EngineService ignored = launchShard())
        {
            assertOrder11AddedFirstThenTraded(events, 2);
        }
    }

    /**
     * Three runs a second apart on the wall clock: each numbers from its start (the second's numbers jump above the
     * first's), and the third replays both runs' StartNumbering where they took it, so that the replay gives the
     * recorded numbers (else it would diverge from the second run), breaks the second run's trade by its match number
     * and numbers its own trade from its own start.
     */
    @Test
    void shouldReplayEachRunsNumberingWhenTheWallClockMovedBetweenRuns() throws Exception
    {
        try (EngineService ignored = launchShard())
        {
            final Subscription events = subscribeEvents();
            final Publication commands = connect(events);
            send(commands, 11, "AAPL", Side.BUY, 100, 777);
            send(commands, 12, "AAPL", Side.SELL, 60, 778);
            assertThat(awaitAfterStart(events, 4).getLast())
                .isEqualTo(new Event(5, "executed 60@" + PRICE + " taker 12 maker 11 match " + number(1) + " t=778"));
        }
        awaitStopped();

        final long secondStartNs = START_EPOCH_NS + 1_000_000_000;
        epochNs = secondStartNs;
        try (EngineService ignored = launchShard())
        {
            final Subscription events = subscribeEvents();
            send(connect(events), 13, "AAPL", Side.SELL, 40, 779);
            assertThat(awaitAfterStart(events, recordings().getLast().sessionId(), 2).getLast()).isEqualTo(new Event(3,
                "executed 40@" + PRICE + " taker 13 maker 11 match " + numberFrom(secondStartNs, 1) + " t=779"));
        }
        awaitStopped();

        final long thirdStartNs = START_EPOCH_NS + 2_000_000_000;
        epochNs = thirdStartNs;
        try (EngineService ignored = launchShard())
        {
            final Subscription events = subscribeEvents();
            final Publication commands = connect(events);
            breakTrade(commands, "AAPL", numberFrom(secondStartNs, 1), 'E', 780);
            send(commands, 14, "AAPL", Side.BUY, 10, 781);
            send(commands, 15, "AAPL", Side.SELL, 10, 782);

            assertThat(awaitAfterStart(events, recordings().getLast().sessionId(), 6)).containsExactly(
                new Event(2, "broken AAPL 40@" + PRICE + " taker 13/" + numberFrom(secondStartNs, 1) + " maker 11/" +
                    number(1) + " match " + numberFrom(secondStartNs, 1) + " E t=780"),
                adminResponse(BreakTradeEncoder.TEMPLATE_ID, "AAPL", AdminResponseCode.OK, 780),
                new Event(3, "accepted 14 AAPL BUY 10@" + PRICE + " Y t=781"),
                new Event(4, "added BUY 10@" + PRICE + " Y"),
                new Event(5, "accepted 15 AAPL SELL 10@" + PRICE + " Y t=782"),
                new Event(6, "executed 10@" + PRICE + " taker 15 maker 14 match " + numberFrom(thirdStartNs, 1) +
                    " t=782"));
        }
    }

    /**
     * A run recorded by the engine of an earlier schema version (5 and 6 wrote the events as 7 does, but for the
     * version in their message header) is recovered as any other: an upgrade needs a restart of the shard, which must
     * start. Before, every recorded event was taken for a divergence and the shard refused to start.
     */
    @Test
    void shouldRecoverARunRecordedByTheEngineOfAnEarlierSchemaVersion() throws Exception
    {
        recordRun((publication) ->
        {
            offerCommand(publication, newOrder(11, "AAPL", Side.BUY, 100, PRICE, DAY, 777)
                .firm("DEMO").display((byte)'Y'));
            offerAccepted(publication, 1, 777, 11, UNNUMBERED_FIRST, 6);
        });

        final Subscription events = subscribeEvents();
        try (EngineService ignored = launchShard())
        {
            send(connect(events), 12, "AAPL", Side.SELL, 100, 778);

            assertThat(await(events, recordings().getLast().sessionId(), 4)).containsExactly(
                new Event(1, "added BUY 100@" + PRICE + " Y"),
                runStarted(2, 1),
                new Event(3, "accepted 12 AAPL SELL 100@" + PRICE + " Y t=778"),
                new Event(4, "executed 100@" + PRICE + " taker 12 maker 11 match " + number(1) + " t=778"));
        }
    }

    /**
     * A restarted shard hears again the commands its earlier run took: its command subscription joins the stream where
     * the slowest subscriber stands, here one that never reads (in a deployment, the subscription of a killed run,
     * until the media driver times it out). It skips and counts them, and takes the first new one against the
     * recovered book.
     */
    @Test
    void shouldSkipTheCommandsAnEarlierRunTookWhenItHearsThemAgain() throws Exception
    {
        try (Subscription neverRead = aeron.addSubscription(layout.commandChannel(), layout.commandStreamId(SHARD)))
        {
            final Publication commands;
            try (EngineService ignored = launchShard())
            {
                final Subscription events = subscribeEvents();
                commands = connect(events);
                send(commands, 11, "AAPL", Side.BUY, 100, 777);
                send(commands, 12, "AAPL", Side.SELL, 60, 778);
                assertThat(awaitAfterStart(events, 4)).hasSize(4);
            }
            awaitStopped();
            assertThat(neverRead.imageCount()).isOne();

            try (EngineService shard = launchShard())
            {
                final Subscription events = subscribeEvents();
                while (!events.isConnected())
                {
                    Thread.onSpinWait();
                }
                send(commands, 13, "AAPL", Side.SELL, 40, 779);

                assertThat(awaitAfterStart(events, recordings().getLast().sessionId(), 2)).containsExactly(
                    new Event(2, "accepted 13 AAPL SELL 40@" + PRICE + " Y t=779"),
                    new Event(3, "executed 40@" + PRICE + " taker 13 maker 11 match " + number(2) + " t=779"));
                assertThat(MetricsEndpoint.scrape(shard.metricsPort()))
                    .contains("bourse_engine_duplicate_commands_total 2.0")
                    .contains("bourse_engine_commands_total{type=\"new_order\"} 1.0");
            }
        }
    }

    /**
     * The shard's settings change between two runs (the price band widened from 1% to 5%): each run's settings are in
     * its input log, so the second run replays the first under the first's band (the buy it rejected is rejected
     * again, not accepted, and recovery does not diverge), then applies its own: the same price is accepted now.
     */
    @Test
    void shouldRecoverAnEarlierRunUnderItsOwnSettingsWhenTheSettingsChangeBetweenRuns() throws Exception
    {
        final long twoPercentAbove = PRICE + PRICE / 50;
        try (EngineService ignored = launchShard((ctx) -> ctx.priceBands(
            List.of(new EngineContext.PriceBand("AAPL", PRICE, 100)))))
        {
            final Subscription events = subscribeEvents();
            final Publication commands = connect(events);
            send(commands, 11, "AAPL", Side.BUY, 100, twoPercentAbove, 777);
            send(commands, 12, "AAPL", Side.SELL, 100, PRICE, 778);
            assertThat(awaitAfterStart(events, 3)).containsExactly(
                new Event(2, "rejected 11 X"),
                new Event(3, "accepted 12 AAPL SELL 100@" + PRICE + " Y t=778"),
                new Event(4, "added SELL 100@" + PRICE + " Y"));
        }
        awaitStopped();

        try (EngineService ignored = launchShard((ctx) -> ctx.priceBands(
            List.of(new EngineContext.PriceBand("AAPL", PRICE, 500)))))
        {
            final Subscription events = subscribeEvents();
            final Publication commands = connect(events);
            send(commands, 13, "AAPL", Side.BUY, 100, twoPercentAbove, 779);

            assertThat(awaitAfterStart(events, recordings().getLast().sessionId(), 2)).containsExactly(
                new Event(2, "accepted 13 AAPL BUY 100@" + twoPercentAbove + " Y t=779"),
                new Event(3, "executed 100@" + PRICE + " taker 13 maker 12 match " + number(1) + " t=779"));
        }
    }

    /**
     * An operator's admin command outlives a restart with unchanged settings: the new run takes only the settings that
     * changed since the earlier runs', so the band an admin command widened to 5% stays at 5% instead of going back to
     * the settings' 1%.
     */
    @Test
    void shouldKeepAnAdminChangeWhenTheShardRestartsWithTheSameSettings() throws Exception
    {
        assertAdminChangeOutlivesRestart(
            (ctx) -> ctx.priceBands(List.of(new EngineContext.PriceBand("AAPL", PRICE, 100))));
    }

    /** As above with the symbol given twice in the settings, the later band (1%) winning: nothing changed either. */
    @Test
    void shouldKeepAnAdminChangeWhenTheShardRestartsWithASymbolGivenTwiceInTheSameSettings() throws Exception
    {
        assertAdminChangeOutlivesRestart((ctx) -> ctx.priceBands(List.of(
            new EngineContext.PriceBand("AAPL", PRICE, 300), new EngineContext.PriceBand("AAPL", PRICE, 100))));
    }

    private void assertAdminChangeOutlivesRestart(final Consumer<EngineContext> onePercentBand) throws Exception
    {
        final long twoPercentAbove = PRICE + PRICE / 50;
        try (EngineService ignored = launchShard(onePercentBand))
        {
            final Subscription events = subscribeEvents();
            final Publication commands = connect(events);
            priceBand(commands, "AAPL", PRICE, 500);
            send(commands, 11, "AAPL", Side.SELL, 100, twoPercentAbove, 777);
            assertThat(awaitAfterStart(events, 3)).containsExactly(
                adminResponse(SetPriceBandEncoder.TEMPLATE_ID, "AAPL", AdminResponseCode.OK, 1),
                new Event(2, "accepted 11 AAPL SELL 100@" + twoPercentAbove + " Y t=777"),
                new Event(3, "added SELL 100@" + twoPercentAbove + " Y"));
        }
        awaitStopped();

        try (EngineService ignored = launchShard(onePercentBand))
        {
            final Subscription events = subscribeEvents();
            final Publication commands = connect(events);
            send(commands, 12, "AAPL", Side.BUY, 100, twoPercentAbove, 778);

            assertThat(awaitAfterStart(events, recordings().getLast().sessionId(), 2)).containsExactly(
                new Event(2, "accepted 12 AAPL BUY 100@" + twoPercentAbove + " Y t=778"),
                new Event(3, "executed 100@" + twoPercentAbove + " taker 12 maker 11 match " + number(1) +
                    " t=778"));
        }
    }

    /**
     * Malformed commands on the command stream, a NewOrder whose side is neither buy nor sell, one shorter than its
     * block and a ClockTick whose header gives it no block: each is counted and skipped, the shard goes on taking the
     * next command, and its next run recovers from the recording (where the first one is, as a SequencedCommand)
     * without diverging. Before, the side's enum getter threw: the poll offered that command again every duty cycle,
     * and the replay failed at every start.
     */
    @Test
    void shouldSkipMalformedCommandsAndStillRecoverTheRun() throws Exception
    {
        try (EngineService shard = launchShard())
        {
            final Subscription events = subscribeEvents();
            final Publication commands = connect(events);
            final NewOrderEncoder badSide = newOrder(11, "AAPL", Side.BUY, 100, PRICE, DAY, 777).firm("DEMO");
            badSide.buffer().putByte(MessageHeaderEncoder.ENCODED_LENGTH + NewOrderEncoder.sideEncodingOffset(),
                (byte)'X');
            send(commands, badSide);
            offer(commands, newOrder(12, "AAPL", Side.BUY, 100, PRICE, DAY, 778).buffer(),
                MessageHeaderEncoder.ENCODED_LENGTH + 10);
            final UnsafeBuffer emptyClockTick = new UnsafeBuffer(new byte[MessageHeaderEncoder.ENCODED_LENGTH]);
            new MessageHeaderEncoder().wrap(emptyClockTick, 0).blockLength(0).templateId(ClockTickEncoder.TEMPLATE_ID)
                .schemaId(ClockTickEncoder.SCHEMA_ID).version(ClockTickEncoder.SCHEMA_VERSION);
            offer(commands, emptyClockTick, MessageHeaderEncoder.ENCODED_LENGTH);
            send(commands, 13, "AAPL", Side.BUY, 100, 779);

            assertThat(awaitAfterStart(events, 2)).containsExactly(
                new Event(2, "accepted 13 AAPL BUY 100@" + PRICE + " Y t=779"),
                new Event(3, "added BUY 100@" + PRICE + " Y"));
            assertThat(MetricsEndpoint.scrape(shard.metricsPort()))
                .contains("bourse_engine_commands_total{type=\"unknown\"} 3.0\n");
        }
        awaitStopped();

        try (EngineService ignored = launchShard())
        {
            final Subscription events = subscribeEvents();
            send(connect(events), 14, "AAPL", Side.SELL, 100, 780);

            assertThat(awaitAfterStart(events, recordings().getLast().sessionId(), 2)).containsExactly(
                new Event(2, "accepted 14 AAPL SELL 100@" + PRICE + " Y t=780"),
                new Event(3, "executed 100@" + PRICE + " taker 14 maker 13 match " + number(1) + " t=780"));
        }
    }

    /**
     * The archive stops recording a running shard (its disk full, or an operator): the shard takes no more commands,
     * whose answers no recording would hold, and says so on /ready. The command sent meanwhile stays on the command
     * stream, and the shard's next run, which recovers the recorded order, takes and answers it.
     */
    @Test
    void shouldTakeNoMoreCommandsOnceItsRecordingStopsAndLeaveThemToTheNextRun() throws Exception
    {
        final Publication commands;
        try (EngineService shard = launchShard())
        {
            final Subscription events = subscribeEvents();
            commands = connect(events);
            send(commands, 11, "AAPL", Side.BUY, 100, 777);
            assertThat(awaitAfterStart(events, 2)).hasSize(2);
            try (AeronArchive client = AeronArchive.connect(archive.clientContext(aeron)))
            {
                assertThat(client.tryStopRecordingByIdentity(recordings().getLast().recordingId())).isTrue();
            }
            ReadyEndpoint.awaitAnswer(shard.metricsPort(),
                "503 not ready: the event archive stopped recording the shard's events: taking no commands\n");

            send(commands, 12, "AAPL", Side.SELL, 100, 778);
            Thread.sleep(200);
            assertThat(events.poll((buffer, offset, length, header) -> { }, 10)).as("events after the stop").isZero();
        }
        awaitStopped();

        try (EngineService ignored = launchShard())
        {
            final Subscription events = subscribeEvents();
            connect(events);
            assertThat(awaitAfterStart(events, recordings().getLast().sessionId(), 2)).containsExactly(
                new Event(2, "accepted 12 AAPL SELL 100@" + PRICE + " Y t=778"),
                new Event(3, "executed 100@" + PRICE + " taker 12 maker 11 match " + number(1) + " t=778"));
        }
    }

    /**
     * The archive stops recording while a slow subscriber holds the shard's events back: the shard publishes none of
     * those it holds, as the next run publishes first the events its recording's commands had that no run published.
     * Before, both runs published them (the same order accepted twice), and a SequencedCommand among them reached
     * the subscribers with its answers but no recording. A command whose own SequencedCommand was held is in no
     * recording and answered by no run (the README's "A restarted engine shard recovers its state").
     */
    @Test
    void shouldPublishNoHeldEventOnceItsRecordingStopsAndLeaveThemToTheNextRun() throws Exception
    {
        layout = layout.withEventChannel("aeron:ipc?term-length=65536");
        final List<Event> firstRunEvents;
        final int firstRunTook;
        final int orders;
        try (EngineService firstRun = launchShard(); Subscription events = subscribeEvents())
        {
            orders = sendRestingOrdersUntilHeld(connect(events), firstRun.metricsPort());
            final int firstRunStream = recordings().getLast().sessionId();
            try (AeronArchive client = AeronArchive.connect(archive.clientContext(aeron)))
            {
                assertThat(client.tryStopRecordingByIdentity(recordings().getLast().recordingId())).isTrue();
            }
            ReadyEndpoint.awaitAnswer(firstRun.metricsPort(),
                "503 not ready: the event archive stopped recording the shard's events: taking no commands\n");
            firstRunEvents = awaitQuiet(events, firstRunStream, 500);
            firstRunTook = newOrdersTaken(firstRun.metricsPort());
        }
        final Recording firstRecording = awaitStopped();

        final Subscription events = subscribeEvents(); // before the run starts: it publishes those events at once
        try (EngineService ignored = launchShard())
        {
            connect(events);
            // Until the last order is accepted: read until 500 ms passed without an event, a stall of the run cut the
            // list short.
            final int secondRunStream = recordings().getLast().sessionId();
            final List<Event> published = new ArrayList<>();
            final long deadlineNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while (published.stream().map(EngineRecoveryTest::acceptedOrder).noneMatch(Long.valueOf(orders)::equals))
            {
                assertThat(System.nanoTime()).as("order " + orders + " accepted").isLessThan(deadlineNs);
                published.addAll(awaitQuiet(events, secondRunStream, 100));
            }
            assertThat(published).as("the first run's unpublished events").isNotEmpty();
            assertThat(published.getFirst().sequenceNumber()).isEqualTo(1);

            final List<Long> accepted = new ArrayList<>();
            for (final Event event : firstRunEvents)
            {
                accepted.add(acceptedOrder(event));
            }
            for (final Event event : published)
            {
                accepted.add(acceptedOrder(event));
            }
            accepted.removeIf(Objects::isNull);
            // The first run's recording holds every order it took but, when the stop came while it held that order's
            // own SequencedCommand, the last: in no recording, no run answers that one (where the window's end falls
            // depends on the messages' sizes). The second run takes the orders after it live.
            final int recorded = (int)lastRecordedNewOrder(firstRecording);
            assertThat(recorded).as("orders recorded of the " + firstRunTook + " the first run took")
                .isIn(firstRunTook, firstRunTook - 1);
            assertThat(accepted).as("each recorded order, then each later one, accepted once, in order, by one run " +
                "or the other").isEqualTo(LongStream.concat(LongStream.rangeClosed(1, recorded),
                LongStream.rangeClosed(firstRunTook + 1, accepted.getLast())).boxed().toList());
        }
    }

    /**
     * @return the RunStarted of the next shard launched (numbering from {@link #epochNs}), as {@link ShardStreams}
     *         renders it.
     */
    private Event runStarted(final long sequenceNumber, final int recoveredRuns)
    {
        return new Event(sequenceNumber, "run-started shard " + SHARD + " recovered " + recoveredRuns + " numbering " +
            epochNs / EngineNumbering.NANOS_PER_NUMBER + " t=" + epochNs % MidnightNanoClock.NANOS_PER_DAY);
    }

    /** @return the client order id of an OrderAccepted, null for another event. */
    private static Long acceptedOrder(final Event event)
    {
        return event.text().startsWith("accepted ") ? Long.valueOf(event.text().split(" ")[1]) : null;
    }

    /** A recorded event the replay does not produce (another configuration, or not this engine's log). */
    @Test
    void shouldRefuseToStartWhenTheReplayDivergesFromTheRecordedRun() throws Exception
    {
        recordRun((publication) ->
        {
            offerCommand(publication, newOrder(11, "AAPL", Side.BUY, 100, PRICE, DAY, 777)
                .firm("DEMO").display((byte)'Y'));
            offerAccepted(publication, 1, 777, 11, UNNUMBERED_FIRST + 1);
        });

        assertThatThrownBy(this::launchShard)
            .isInstanceOf(IllegalStateException.class)
            .hasMessageContaining("recovery diverged");
    }

    /**
     * @param n the 1-based count of the order reference numbers (or match numbers) of the runs started at
     *          {@link #START_EPOCH_NS}.
     * @return the n-th one the shard gives.
     */
    private static long number(final long n)
    {
        return numberFrom(START_EPOCH_NS, n);
    }

    /**
     * @param startNs a run's start, ns since the Unix epoch.
     * @param n       the 1-based count of the order reference numbers (or match numbers) given since.
     * @return the n-th one the shard gives from there.
     */
    private static long numberFrom(final long startNs, final long n)
    {
        return ((startNs / EngineNumbering.NANOS_PER_NUMBER + n) << 4) | SHARD;
    }

    private EngineService launchShard()
    {
        return launchShard((ctx) -> {});
    }

    private EngineService launchShard(final Consumer<EngineContext> settings)
    {
        final EngineContext ctx = new EngineContext()
            .shardId(SHARD)
            .metricsPort(0)
            .jvmMetrics(false)
            .streamLayout(layout)
            .symbolDirectory(SymbolDirectory.parse("AAPL@1,MSFT@0"))
            .eventArchive(archive)
            .idleStrategy(new SleepingMillisIdleStrategy(1))
            .epochClock(() -> epochNs);
        settings.accept(ctx);
        return EngineService.launch(ctx);
    }

    /** The archive stops a recording once it sees the closed shard's stream end. */
    private Recording awaitStopped() throws InterruptedException
    {
        final long deadlineNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (true)
        {
            final List<Recording> recordings = recordings();
            assertThat(recordings).isNotEmpty();
            if (recordings.stream().allMatch((recording) -> AeronArchive.NULL_POSITION != recording.stopPosition()))
            {
                return recordings.getLast();
            }
            assertThat(System.nanoTime()).as("recording stopped").isLessThan(deadlineNs);
            Thread.sleep(10);
        }
    }

    private Subscription subscribeEvents()
    {
        return aeron.addSubscription(layout.eventChannel(), layout.eventStreamId(SHARD));
    }

    private Publication connect(final Subscription events)
    {
        final Publication commands =
            aeron.addExclusivePublication(layout.commandChannel(), layout.commandStreamId(SHARD));
        while (!commands.isConnected() || !events.isConnected())
        {
            Thread.onSpinWait();
        }
        return commands;
    }

    /** Records a run that took order 11 (BUY 100 AAPL, t=777) and published its OrderAccepted, not its OrderAdded. */
    private void recordRunThatDiedBeforeAddingOrder11() throws InterruptedException
    {
        recordRun((publication) ->
        {
            offerCommand(publication, newOrder(11, "AAPL", Side.BUY, 100, PRICE, DAY, 777)
                .firm("DEMO").display((byte)'Y'));
            offerAccepted(publication, 1, 777, 11, UNNUMBERED_FIRST);
        });
    }

    /**
     * Sends order 12, selling 60: the new run publishes order 11's OrderAdded first, as its event 1, then its
     * RunStarted, then trades.
     *
     * @param recoveredRuns the runs recorded before the new one.
     */
    private void assertOrder11AddedFirstThenTraded(final Subscription events, final int recoveredRuns)
        throws InterruptedException
    {
        send(connect(events), 12, "AAPL", Side.SELL, 60, 778);

        assertThat(await(events, recordings().getLast().sessionId(), 4)).containsExactly(
            new Event(1, "added BUY 100@" + PRICE + " Y"),
            runStarted(2, recoveredRuns),
            new Event(3, "accepted 12 AAPL SELL 60@" + PRICE + " Y t=778"),
            new Event(4, "executed 60@" + PRICE + " taker 12 maker 11 match " + number(1) + " t=778"));
    }

    /** Records a run of the shard's event stream written by the test, as a shard that stopped would have left it. */
    private void recordRun(final Consumer<ExclusivePublication> run) throws InterruptedException
    {
        try (ExclusivePublication publication =
            aeron.addExclusivePublication(layout.eventChannel(), layout.eventStreamId(SHARD)))
        {
            EventRecording.start(aeron, archive, publication);
            run.accept(publication);
        }
        awaitStopped();
    }

    /**
     * Offers a SequencedCommand that does not say where the command was taken, as a version 5 engine wrote them: the
     * recovery then has nothing to skip.
     */
    private static void offerCommand(final ExclusivePublication publication, final NewOrderEncoder newOrder)
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[256]);
        final SequencedCommandEncoder encoder = new SequencedCommandEncoder()
            .wrapAndApplyHeader(buffer, 0, new MessageHeaderEncoder())
            .commandSessionId(SequencedCommandEncoder.commandSessionIdNullValue())
            .commandPosition(SequencedCommandEncoder.commandPositionNullValue())
            .putCommand(newOrder.buffer(), 0, MessageHeaderEncoder.ENCODED_LENGTH + newOrder.encodedLength());
        offer(publication, buffer, MessageHeaderEncoder.ENCODED_LENGTH + encoder.encodedLength());
    }

    /**
     * Offers a SequencedCommand of a command taken from the command stream (an image gone since), as an engine of the
     * schema version given wrote it.
     */
    private static void offerTakenCommand(
        final ExclusivePublication publication, final DirectBuffer command, final int length, final int schemaVersion)
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[256]);
        final SequencedCommandEncoder encoder = new SequencedCommandEncoder()
            .wrapAndApplyHeader(buffer, 0, new MessageHeaderEncoder())
            .commandSessionId(TAKEN_SESSION_ID)
            .commandPosition(TAKEN_POSITION)
            .putCommand(command, 0, length);
        new MessageHeaderEncoder().wrap(buffer, 0).version(schemaVersion);
        offer(publication, buffer, MessageHeaderEncoder.ENCODED_LENGTH + encoder.encodedLength());
    }

    /** Offers the OrderAccepted a shard publishes for a day order to buy 100 AAPL at {@link ShardStreams#PRICE}. */
    private static void offerAccepted(
        final ExclusivePublication publication, final long sequenceNumber, final long timestampNs,
        final long clientOrderId, final long orderId)
    {
        offerAccepted(publication, sequenceNumber, timestampNs, clientOrderId, orderId,
            OrderAcceptedEncoder.SCHEMA_VERSION);
    }

    /** Offers an OrderAccepted as an engine of the schema version given wrote it. */
    private static void offerAccepted(
        final ExclusivePublication publication, final long sequenceNumber, final long timestampNs,
        final long clientOrderId, final long orderId, final int schemaVersion)
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[128]);
        final OrderAcceptedEncoder encoder = new OrderAcceptedEncoder()
            .wrapAndApplyHeader(buffer, 0, new MessageHeaderEncoder())
            .sequenceNumber(sequenceNumber)
            .timestampNs(timestampNs)
            .clientOrderId(clientOrderId)
            .orderId(orderId)
            .symbol("AAPL    ")
            .side(Side.BUY)
            .quantity(100)
            .price(PRICE)
            .timeInForce(DAY)
            .display((byte)'Y');
        new MessageHeaderEncoder().wrap(buffer, 0).version(schemaVersion);
        offer(publication, buffer, MessageHeaderEncoder.ENCODED_LENGTH + encoder.encodedLength());
    }

    /** @return the NewOrders a running shard took, from its metrics endpoint. */
    private static int newOrdersTaken(final int metricsPort) throws Exception
    {
        return (int)metric(metricsPort, "bourse_engine_commands_total{type=\"new_order\"}");
    }

    /** @return the client order id of the last NewOrder among a stopped recording's SequencedCommands, 0 for none. */
    private long lastRecordedNewOrder(final Recording recording)
    {
        final MessageHeaderDecoder header = new MessageHeaderDecoder();
        final SequencedCommandDecoder sequencedCommand = new SequencedCommandDecoder();
        final UnsafeBuffer command = new UnsafeBuffer(0, 0);
        final NewOrderDecoder newOrder = new NewOrderDecoder();
        final long[] last = {0};
        new EventReplay(aeron, archive).replayRecording(recording.recordingId(), 0, recording.stopPosition(),
            (buffer, offset, length, frameHeader) ->
            {
                header.wrap(buffer, offset);
                if (SequencedCommandDecoder.TEMPLATE_ID == header.templateId())
                {
                    sequencedCommand.wrapAndApplyHeader(buffer, offset, header).wrapCommand(command);
                    header.wrap(command, 0);
                    if (NewOrderDecoder.TEMPLATE_ID == header.templateId())
                    {
                        last[0] = newOrder.wrapAndApplyHeader(command, 0, header).clientOrderId();
                    }
                }
            });
        return last[0];
    }

    private List<Recording> recordings()
    {
        final List<Recording> recordings = new ArrayList<>();
        try (AeronArchive client = AeronArchive.connect(archive.clientContext(aeron)))
        {
            StreamRecordings.forEach(client, layout.eventStreamId(SHARD),
                (recordingId, sessionId, startPosition, stopPosition) ->
                recordings.add(new Recording(recordingId, sessionId, stopPosition)));
        }
        return recordings;
    }
}
