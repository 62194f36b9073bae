package io.bourse.engine;

import io.aeron.Aeron;
import io.aeron.Publication;
import io.aeron.Subscription;
import io.aeron.driver.MediaDriver;
import io.aeron.driver.status.PublisherLimit;
import io.bourse.common.EngineNumbering;
import io.bourse.common.aeron.EmbeddedMediaDriver;
import io.bourse.common.aeron.StreamCounters;
import io.bourse.common.aeron.StreamLayout;
import io.bourse.common.config.Settings;
import io.bourse.common.config.SymbolDirectory;
import io.bourse.common.metrics.MetricsEndpoint;
import io.bourse.engine.ShardStreams.Event;
import io.bourse.engine.match.SelfTradePrevention;
import io.bourse.sbe.engine.AdminResponseCode;
import io.bourse.common.time.MidnightNanoClock;
import io.bourse.sbe.engine.BreakTradeEncoder;
import io.bourse.sbe.engine.CommandStreamJoinedDecoder;
import io.bourse.sbe.engine.CrossLockEncoder;
import io.bourse.sbe.engine.MessageHeaderDecoder;
import io.bourse.sbe.engine.MessageHeaderEncoder;
import io.bourse.sbe.engine.NewOrderEncoder;
import io.bourse.sbe.engine.OrderAcceptedDecoder;
import io.bourse.sbe.engine.ReplaceOrderEncoder;
import io.bourse.sbe.engine.RunCrossEncoder;
import io.bourse.sbe.engine.SetPriceBandEncoder;
import io.bourse.sbe.engine.SetSelfTradePreventionEncoder;
import io.bourse.sbe.engine.SetTradingStateEncoder;
import io.bourse.sbe.engine.Side;
import io.bourse.sbe.engine.StartNumberingEncoder;
import io.bourse.sbe.engine.TradingState;
import org.agrona.CloseHelper;
import org.agrona.concurrent.NanoClock;
import org.agrona.concurrent.SleepingMillisIdleStrategy;
import org.agrona.concurrent.SystemEpochNanoClock;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static io.bourse.common.Await.awaitAsserted;
import static io.bourse.common.time.MidnightNanoClock.NANOS_PER_DAY;
import static io.bourse.engine.ShardStreams.DAY;
import static io.bourse.engine.ShardStreams.EVENTS_HELD;
import static io.bourse.engine.ShardStreams.PRICE;
import static io.bourse.engine.ShardStreams.adminResponse;
import static io.bourse.engine.ShardStreams.await;
import static io.bourse.engine.ShardStreams.breakTrade;
import static io.bourse.engine.ShardStreams.cancel;
import static io.bourse.engine.ShardStreams.clockTick;
import static io.bourse.engine.ShardStreams.crossLock;
import static io.bourse.engine.ShardStreams.metric;
import static io.bourse.engine.ShardStreams.newOrder;
import static io.bourse.engine.ShardStreams.quoteThenCross;
import static io.bourse.engine.ShardStreams.offer;
import static io.bourse.engine.ShardStreams.priceBand;
import static io.bourse.engine.ShardStreams.readSequencedEvents;
import static io.bourse.engine.ShardStreams.replace;
import static io.bourse.engine.ShardStreams.runCross;
import static io.bourse.engine.ShardStreams.selfTradePrevention;
import static io.bourse.engine.ShardStreams.send;
import static io.bourse.engine.ShardStreams.tradeThenBreakATradeAbove;
import static io.bourse.engine.ShardStreams.sendRestingOrders;
import static io.bourse.engine.ShardStreams.sendRestingOrdersUntilHeld;
import static io.bourse.engine.ShardStreams.tradingState;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/** Drives a real shard through a real embedded media driver: SBE commands in, SBE events out. */
@Timeout(30)
class EngineServiceTest
{
    private static final long SECOND_NS = 1_000_000_000L;
    private static final String SERVICE_TIME_COUNT = "bourse_engine_service_time_seconds_count";
    private static final String SERVICE_TIME_SUM = "bourse_engine_service_time_seconds_sum";
    /** The wall clock of the shards these tests launch, ns since the Unix epoch: their numbering starts there. */
    private static final long START_EPOCH_NS = 1_763_000_000_000_000_000L;

    private MediaDriver driver;
    private EngineService engine;
    private Aeron aeron;
    private StreamLayout layout;
    /** The RunStarted the last {@link #connect} read. */
    private Event runStarted;

    @BeforeEach
    void setUp()
    {
        launch("aeron:ipc", (ctx) -> {});
    }

    private void launch(final String eventChannel, final Consumer<EngineContext> configure)
    {
        CloseHelper.closeAll(aeron, engine, driver);
        driver = EmbeddedMediaDriver.launch("engine-test");
        layout = new StreamLayout(
            driver.aeronDirectoryName(), "aeron:ipc", 1000, eventChannel, 2000, "aeron:ipc", 3000, "aeron:ipc", 3002,
            3003, 3004, "aeron:ipc", 3001);
        engine = launchShard(configure);
        aeron = Aeron.connect(new Aeron.Context().aeronDirectoryName(driver.aeronDirectoryName()));
    }

    /** Starts a run of shard 1 on the driver of {@link #launch}. */
    private EngineService launchShard(final Consumer<EngineContext> configure)
    {
        final EngineContext ctx = new EngineContext()
            .shardId(1)
            .metricsPort(0)
            .jvmMetrics(false)
            .streamLayout(layout)
            .symbolDirectory(SymbolDirectory.parse("AAPL@1,MSFT@0"))
            .idleStrategy(new SleepingMillisIdleStrategy(1))
            .epochClock(() -> START_EPOCH_NS);
        configure.accept(ctx);
        return EngineService.launch(ctx);
    }

    @AfterEach
    void tearDown()
    {
        CloseHelper.closeAll(aeron, engine, driver);
    }

    /**
     * @param n the 1-based count of the run's order reference numbers (or match numbers).
     * @return the n-th one shard 1 gives, numbering from {@link #START_EPOCH_NS} in units of 100 ns.
     */
    private static long number(final long n)
    {
        return ((START_EPOCH_NS / EngineNumbering.NANOS_PER_NUMBER + n) << 4) | 1;
    }

    /**
     * The run's RunStarted comes first: shard 1, nothing recovered, its numbering's base and the time of day it
     * started; the commands' events follow from sequence number 2.
     */
    @Test
    void shouldPublishSequencedEventsWhenOrdersCross() throws Exception
    {
        final Subscription events = aeron.addSubscription(layout.eventChannel(), layout.eventStreamId(1));
        final Publication commands = connect(events);

        send(commands, 11, "AAPL", Side.BUY, 100, 777);
        send(commands, 12, "AAPL", Side.SELL, 60, 778);
        send(commands, 13, "MSFT", Side.SELL, 60, 779);

        assertThat(runStarted.text()).isEqualTo("run-started shard 1 recovered 0 numbering " +
            START_EPOCH_NS / EngineNumbering.NANOS_PER_NUMBER + " t=" + START_EPOCH_NS % NANOS_PER_DAY);
        assertThat(await(events, 5)).containsExactly(
            new Event(2, "accepted 11 AAPL BUY 100@" + PRICE + " Y t=777"),
            new Event(3, "added BUY 100@" + PRICE + " Y"),
            new Event(4, "accepted 12 AAPL SELL 60@" + PRICE + " Y t=778"),
            new Event(5, "executed 60@" + PRICE + " taker 12 maker 11 match " + number(1) + " t=778"),
            new Event(6, "rejected 13 S"));
        // The shard counts an event once it is published.
        awaitAsserted(() -> assertThat(MetricsEndpoint.scrape(engine.metricsPort()))
            .contains("bourse_engine_events_total{type=\"rejected\"} 1.0\n")
            .contains("bourse_engine_rejects_total{reason=\"invalid_stock\"} 1.0\n")
            .contains("bourse_engine_rejects_total{reason=\"halted\"} 0.0\n"));
    }

    /**
     * A message longer than the command stream's payload reaches the shard as fragments: the whole is no command (the
     * longest is far shorter), so it is counted once as unknown, and no fragment is taken as a command of its own, here
     * a valid NewOrder the second fragment starts with. The next command is taken.
     */
    @Test
    void shouldCountAFragmentedMessageOnceAsUnknownAndTakeNoneOfItsFragments() throws Exception
    {
        final Subscription events = aeron.addSubscription(layout.eventChannel(), layout.eventStreamId(1));
        final Publication commands = connect(events);
        final NewOrderEncoder order = newOrder(99, "AAPL", Side.BUY, 100, PRICE, DAY, 555).firm("DEMO")
            .display((byte)'Y');
        final int orderLength = MessageHeaderEncoder.ENCODED_LENGTH + order.encodedLength();
        final UnsafeBuffer fragmented = new UnsafeBuffer(new byte[commands.maxPayloadLength() + orderLength]);
        fragmented.putBytes(commands.maxPayloadLength(), order.buffer(), 0, orderLength);

        offer(commands, fragmented, fragmented.capacity());
        send(commands, 11, "AAPL", Side.BUY, 100, 777);

        assertThat(await(events, 2)).containsExactly(
            new Event(2, "accepted 11 AAPL BUY 100@" + PRICE + " Y t=777"),
            new Event(3, "added BUY 100@" + PRICE + " Y"));
        assertThat(MetricsEndpoint.scrape(engine.metricsPort()))
            .contains("bourse_engine_commands_total{type=\"unknown\"} 1.0\n");
    }

    @Test
    void shouldCancelTimedOrderWithTimeoutWhenClockTickPassesItsExpiry()
    {
        final Subscription events = aeron.addSubscription(layout.eventChannel(), layout.eventStreamId(1));
        final Publication commands = connect(events);

        send(commands, newOrder(11, "AAPL", Side.BUY, 100, PRICE, 5, SECOND_NS).display((byte)'Y'));
        clockTick(commands, 6 * SECOND_NS - 1);
        clockTick(commands, 6 * SECOND_NS);

        assertThat(await(events, 3)).containsExactly(
            new Event(2, "accepted 11 AAPL BUY 100@" + PRICE + " Y t=" + SECOND_NS),
            new Event(3, "added BUY 100@" + PRICE + " Y"),
            new Event(4, "canceled 11 100 leaves 0 T resting t=" + 6 * SECOND_NS));
    }

    /** ReplaceOrder's time in force (schema version 4): a day order replaced by a 5-second one expires 5 s later. */
    @Test
    void shouldExpireAReplacementFromItsReplaceWhenReplaceOrderGivesATimeInForceInSeconds()
    {
        final Subscription events = aeron.addSubscription(layout.eventChannel(), layout.eventStreamId(1));
        final Publication commands = connect(events);

        send(commands, newOrder(11, "AAPL", Side.BUY, 100, PRICE, DAY, SECOND_NS).display((byte)'Y'));
        replace(commands, 11, 12, 100, PRICE, 5, 2 * SECOND_NS);
        clockTick(commands, 7 * SECOND_NS - 1);
        clockTick(commands, 7 * SECOND_NS);

        assertThat(await(events, 4)).containsExactly(
            new Event(2, "accepted 11 AAPL BUY 100@" + PRICE + " Y t=" + SECOND_NS),
            new Event(3, "added BUY 100@" + PRICE + " Y"),
            new Event(4, "replaced 11->12 " + number(1) + "->" + number(2) + " 100@" + PRICE + " REPLACED N t=" +
                2 * SECOND_NS),
            new Event(5, "canceled 12 100 leaves 0 T resting t=" + 7 * SECOND_NS));
    }

    @Test
    void shouldRejectNewOrderWithHaltedWhenSymbolIsHaltedAndAcceptItWhenReopened()
    {
        final Subscription events = aeron.addSubscription(layout.eventChannel(), layout.eventStreamId(1));
        final Publication commands = connect(events);

        tradingState(commands, "AAPL", TradingState.HALTED);
        send(commands, 11, "AAPL", Side.BUY, 100, 777);
        tradingState(commands, "AAPL", TradingState.OPEN);
        send(commands, 12, "AAPL", Side.BUY, 100, 778);

        assertThat(await(events, 7)).containsExactly(
            new Event(2, "trading-state AAPL HALTED"),
            adminResponse(SetTradingStateEncoder.TEMPLATE_ID, "AAPL", AdminResponseCode.OK, 1),
            new Event(3, "rejected 11 H"),
            new Event(4, "trading-state AAPL OPEN"),
            adminResponse(SetTradingStateEncoder.TEMPLATE_ID, "AAPL", AdminResponseCode.OK, 1),
            new Event(5, "accepted 12 AAPL BUY 100@" + PRICE + " Y t=778"),
            new Event(6, "added BUY 100@" + PRICE + " Y"));
    }

    @Test
    void shouldCancelWithSelfMatchPreventionWhenFirmHasAModeInTheSettings()
    {
        final EngineContext fromSettings = EngineContext.fromSettings(
            new Settings(Map.of("BOURSE_ENGINE_STP_FIRMS", "ABCD:CANCEL_NEWEST")));
        launch("aeron:ipc", (ctx) -> ctx.firmSelfTradePrevention(fromSettings.firmSelfTradePrevention()));
        final Subscription events = aeron.addSubscription(layout.eventChannel(), layout.eventStreamId(1));
        final Publication commands = connect(events);

        send(commands, newOrder(11, "AAPL", Side.SELL, 100, PRICE, DAY, 1).firm("ABCD").display((byte)'Y'));
        send(commands, newOrder(12, "AAPL", Side.BUY, 40, PRICE, DAY, 2).firm("ABCD").display((byte)'Y'));
        send(commands, newOrder(13, "AAPL", Side.BUY, 40, PRICE, DAY, 3).firm("WXYZ").display((byte)'Y'));

        assertThat(await(events, 6)).containsExactly(
            new Event(2, "accepted 11 AAPL SELL 100@" + PRICE + " Y t=1"),
            new Event(3, "added SELL 100@" + PRICE + " Y"),
            new Event(4, "accepted 12 AAPL BUY 40@" + PRICE + " Y t=2"),
            new Event(5, "canceled 12 40 leaves 0 Q not-resting t=2"),
            new Event(6, "accepted 13 AAPL BUY 40@" + PRICE + " Y t=3"),
            new Event(7, "executed 40@" + PRICE + " taker 13 maker 11 match " + number(1) + " t=3"));
    }

    @Test
    void shouldCarryTheFirmOfAnAttributableOrderThatRests()
    {
        final Subscription events = aeron.addSubscription(layout.eventChannel(), layout.eventStreamId(1));
        final Publication commands = connect(events);

        send(commands, newOrder(11, "AAPL", Side.BUY, 100, PRICE, DAY, 1).firm("GSCO").display((byte)'A'));
        send(commands, newOrder(12, "AAPL", Side.BUY, 100, PRICE, DAY, 2).display((byte)'A'));

        assertThat(await(events, 4)).containsExactly(
            new Event(2, "accepted 11 AAPL BUY 100@" + PRICE + " A t=1"),
            new Event(3, "added BUY 100@" + PRICE + " A firm 'GSCO'"),
            new Event(4, "accepted 12 AAPL BUY 100@" + PRICE + " A t=2"),
            new Event(5, "added BUY 100@" + PRICE + " A firm ''"));
    }

    @Test
    void shouldCarryDisplayNonDisplayedWhenHiddenOrderRests()
    {
        final Subscription events = aeron.addSubscription(layout.eventChannel(), layout.eventStreamId(1));
        final Publication commands = connect(events);

        send(commands, newOrder(11, "AAPL", Side.BUY, 100, PRICE, DAY, 1).display((byte)'N'));
        send(commands, newOrder(12, "AAPL", Side.BUY, 100, PRICE, DAY, 2).display((byte)'I'));

        assertThat(await(events, 3)).containsExactly(
            new Event(2, "accepted 11 AAPL BUY 100@" + PRICE + " N t=1"),
            new Event(3, "added BUY 100@" + PRICE + " N"),
            new Event(4, "rejected 12 D"));
    }

    @Test
    void shouldRejectOutsideThePriceBandWhenSetAtStartOrByCommand()
    {
        final EngineContext fromSettings = EngineContext.fromSettings(
            new Settings(Map.of("BOURSE_ENGINE_PRICE_BANDS", "AAPL:1000000:100, MSFT:1:0")));
        launch("aeron:ipc", (ctx) -> ctx.priceBands(fromSettings.priceBands()));
        final Subscription events = aeron.addSubscription(layout.eventChannel(), layout.eventStreamId(1));
        final Publication commands = connect(events);

        send(commands, 11, "AAPL", Side.BUY, 100, PRICE + 10_001, 1);
        send(commands, 12, "AAPL", Side.BUY, 100, PRICE + 10_000, 2);
        priceBand(commands, "AAPL", PRICE, 0);
        send(commands, 13, "AAPL", Side.BUY, 100, PRICE + 1, 3);

        assertThat(await(events, 5)).containsExactly(
            new Event(2, "rejected 11 X"),
            new Event(3, "accepted 12 AAPL BUY 100@" + (PRICE + 10_000) + " Y t=2"),
            new Event(4, "added BUY 100@" + (PRICE + 10_000) + " Y"),
            adminResponse(SetPriceBandEncoder.TEMPLATE_ID, "AAPL", AdminResponseCode.OK, 1),
            new Event(5, "rejected 13 X"));
    }

    @Test
    void shouldCountAndSkipAdminCommandsWhenTheEngineRefusesThem() throws Exception
    {
        final Subscription events = aeron.addSubscription(layout.eventChannel(), layout.eventStreamId(1));
        final Publication commands = connect(events);

        priceBand(commands, "MSFT", PRICE, 100);
        priceBand(commands, "AAPL", PRICE, 10_001);
        tradingState(commands, "MSFT", TradingState.HALTED);
        final SetTradingStateEncoder badState = new SetTradingStateEncoder();
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[64]);
        badState.wrapAndApplyHeader(buffer, 0, new MessageHeaderEncoder()).timestampNs(1).symbol("AAPL    ");
        buffer.putByte(badState.offset() + SetTradingStateEncoder.stateEncodingOffset(), (byte)7);
        offer(commands, buffer, MessageHeaderEncoder.ENCODED_LENGTH + badState.encodedLength());
        final SetSelfTradePreventionEncoder badMode = new SetSelfTradePreventionEncoder()
            .wrapAndApplyHeader(buffer, 0, new MessageHeaderEncoder()).timestampNs(1).firm("ABCD");
        buffer.putByte(badMode.offset() + SetSelfTradePreventionEncoder.modeEncodingOffset(), (byte)9);
        offer(commands, buffer, MessageHeaderEncoder.ENCODED_LENGTH + badMode.encodedLength());
        selfTradePrevention(commands, "ABCD", SelfTradePrevention.DECREMENT);
        send(commands, 11, "AAPL", Side.BUY, 100, 777);

        assertThat(await(events, 8)).containsExactly(
            adminResponse(SetPriceBandEncoder.TEMPLATE_ID, "MSFT", AdminResponseCode.UNKNOWN_SYMBOL, 1),
            adminResponse(SetPriceBandEncoder.TEMPLATE_ID, "AAPL", AdminResponseCode.INVALID_PRICE_BAND, 1),
            adminResponse(SetTradingStateEncoder.TEMPLATE_ID, "MSFT", AdminResponseCode.UNKNOWN_SYMBOL, 1),
            adminResponse(SetTradingStateEncoder.TEMPLATE_ID, "AAPL", AdminResponseCode.INVALID_TRADING_STATE, 1),
            adminResponse(SetSelfTradePreventionEncoder.TEMPLATE_ID, "",
                AdminResponseCode.INVALID_SELF_TRADE_PREVENTION, 1),
            adminResponse(SetSelfTradePreventionEncoder.TEMPLATE_ID, "", AdminResponseCode.OK, 1),
            new Event(2, "accepted 11 AAPL BUY 100@" + PRICE + " Y t=777"),
            new Event(3, "added BUY 100@" + PRICE + " Y"));
        assertThat(scrapeMetrics()).contains(
            "bourse_engine_admin_rejects_total{reason=\"unknown_symbol\"} 2.0",
            "bourse_engine_admin_rejects_total{reason=\"invalid_price_band\"} 1.0",
            "bourse_engine_admin_rejects_total{reason=\"invalid_trading_state\"} 1.0",
            "bourse_engine_admin_rejects_total{reason=\"invalid_self_trade_prevention\"} 1.0",
            "bourse_engine_commands_total{type=\"set_price_band\"} 2.0",
            "bourse_engine_commands_total{type=\"set_trading_state\"} 2.0",
            "bourse_engine_commands_total{type=\"set_self_trade_prevention\"} 2.0");
    }

    @Test
    void shouldPublishTradeBrokenOnceAndLeaveTheBookWhenAKnownTradeIsBroken() throws Exception
    {
        final Subscription events = aeron.addSubscription(layout.eventChannel(), layout.eventStreamId(1));
        final Publication commands = connect(events);
        final long matchNumber = number(1);

        send(commands, 11, "AAPL", Side.BUY, 100, 777);
        send(commands, 12, "AAPL", Side.SELL, 60, 778);
        breakTrade(commands, "AAPL", matchNumber, 'Q', 779);
        breakTrade(commands, "AAPL", number(2), 'S', 780);
        breakTrade(commands, "MSFT", matchNumber, 'S', 781);
        breakTrade(commands, "AAPL", matchNumber, 'E', 782);
        breakTrade(commands, "AAPL", matchNumber, 'S', 783);
        send(commands, 13, "AAPL", Side.SELL, 60, 784);

        assertThat(await(events, 13)).containsExactly(
            new Event(2, "accepted 11 AAPL BUY 100@" + PRICE + " Y t=777"),
            new Event(3, "added BUY 100@" + PRICE + " Y"),
            new Event(4, "accepted 12 AAPL SELL 60@" + PRICE + " Y t=778"),
            new Event(5, "executed 60@" + PRICE + " taker 12 maker 11 match " + matchNumber + " t=778"),
            adminResponse(BreakTradeEncoder.TEMPLATE_ID, "AAPL", AdminResponseCode.INVALID_BREAK_REASON, 779),
            adminResponse(BreakTradeEncoder.TEMPLATE_ID, "AAPL", AdminResponseCode.UNKNOWN_MATCH_NUMBER, 780),
            adminResponse(BreakTradeEncoder.TEMPLATE_ID, "MSFT", AdminResponseCode.UNKNOWN_MATCH_NUMBER, 781),
            new Event(6, "broken AAPL 60@" + PRICE + " taker 12/" + number(2) + " maker 11/" + number(1) +
                " match " + matchNumber + " E t=782"),
            adminResponse(BreakTradeEncoder.TEMPLATE_ID, "AAPL", AdminResponseCode.OK, 782),
            adminResponse(BreakTradeEncoder.TEMPLATE_ID, "AAPL", AdminResponseCode.TRADE_ALREADY_BROKEN, 783),
            new Event(7, "accepted 13 AAPL SELL 60@" + PRICE + " Y t=784"),
            new Event(8, "executed 40@" + PRICE + " taker 13 maker 11 match " + number(2) + " t=784"),
            new Event(9, "added SELL 20@" + PRICE + " Y"));
        assertThat(scrapeMetrics()).contains(
            "bourse_engine_admin_rejects_total{reason=\"invalid_break_reason\"} 1.0",
            "bourse_engine_admin_rejects_total{reason=\"unknown_match_number\"} 2.0",
            "bourse_engine_admin_rejects_total{reason=\"trade_already_broken\"} 1.0",
            "bourse_engine_commands_total{type=\"break_trade\"} 5.0",
            "bourse_engine_events_total{type=\"trade_broken\"} 1.0")
            .containsPattern("bourse_aeron_subscriber_lag_bytes\\{session=\"-?[0-9]+\",stream=\"1001\"} ");
    }

    @Test
    void shouldRefuseToBreakATradeOfAnEarlierDayOnceTheClockPassedMidnight() throws Exception
    {
        final Subscription events = aeron.addSubscription(layout.eventChannel(), layout.eventStreamId(1));
        final Publication commands = connect(events);
        final long beforeMidnightNs = MidnightNanoClock.NANOS_PER_DAY - 1_000_000;
        final long yesterdaysMatch = number(1);
        final long todaysMatch = number(2);

        send(commands, 11, "AAPL", Side.BUY, 100, beforeMidnightNs);
        send(commands, 12, "AAPL", Side.SELL, 60, beforeMidnightNs);
        // A gateway started after midnight stamps from its own: read as the next day.
        send(commands, 13, "AAPL", Side.SELL, 10, 5_000);
        breakTrade(commands, "AAPL", yesterdaysMatch, 'S', 6_000);
        breakTrade(commands, "AAPL", todaysMatch, 'S', 7_000);

        assertThat(await(events, 9)).containsExactly(
            new Event(2, "accepted 11 AAPL BUY 100@" + PRICE + " Y t=" + beforeMidnightNs),
            new Event(3, "added BUY 100@" + PRICE + " Y"),
            new Event(4, "accepted 12 AAPL SELL 60@" + PRICE + " Y t=" + beforeMidnightNs),
            new Event(5, "executed 60@" + PRICE + " taker 12 maker 11 match " + yesterdaysMatch + " t=" +
                beforeMidnightNs),
            new Event(6, "accepted 13 AAPL SELL 10@" + PRICE + " Y t=5000"),
            new Event(7, "executed 10@" + PRICE + " taker 13 maker 11 match " + todaysMatch + " t=5000"),
            adminResponse(BreakTradeEncoder.TEMPLATE_ID, "AAPL", AdminResponseCode.UNKNOWN_MATCH_NUMBER, 6_000),
            new Event(8, "broken AAPL 10@" + PRICE + " taker 13/" + number(3) + " maker 11/" + number(1) +
                " match " + todaysMatch + " S t=7000"),
            adminResponse(BreakTradeEncoder.TEMPLATE_ID, "AAPL", AdminResponseCode.OK, 7_000));
    }

    /**
     * NewOrder's cross type (C, N, and O which the engine does not run), a closing-cross replace, CrossLock,
     * CancelOrder during the lock (CancelPending, CancelRejected), RunCross refused until the symbol is open, then the
     * cross: OrderExecuted with cross type C, the pending order's cancel and CrossCompleted; a BreakTrade of the
     * cross's execution refused (its shares are in the Cross Trade print); every refused command counted by reason.
     */
    @Test
    void shouldRunTheClosingCrossWhenCrossCommandsAndCrossOrdersAreSent() throws Exception
    {
        final Subscription events = aeron.addSubscription(layout.eventChannel(), layout.eventStreamId(1));
        final Publication commands = connect(events);

        runCross(commands, "AAPL", 1);
        send(commands,
            newOrder(11, "AAPL", Side.BUY, 100, PRICE + 500, DAY, 2).display((byte)'Y').crossType((byte)'C'));
        send(commands, newOrder(12, "AAPL", Side.BUY, 100, PRICE, DAY, 3).display((byte)'Y').crossType((byte)'C'));
        send(commands, newOrder(13, "AAPL", Side.SELL, 150, PRICE, DAY, 4).display((byte)'Y').crossType((byte)'N'));
        send(commands, newOrder(14, "AAPL", Side.SELL, 100, PRICE, DAY, 5).display((byte)'Y').crossType((byte)'O'));
        replace(commands, 12, 15, 100, PRICE - 100, ReplaceOrderEncoder.timeInForceNullValue(), 6);
        crossLock(commands, "AAPL", 7);
        crossLock(commands, "AAPL", 8);
        crossLock(commands, "MSFT", 9);
        cancel(commands, 15, 0, 10);
        cancel(commands, 11, 50, 11);
        tradingState(commands, "AAPL", TradingState.HALTED);
        runCross(commands, "AAPL", 12);
        tradingState(commands, "AAPL", TradingState.OPEN);
        runCross(commands, "AAPL", 13);
        breakTrade(commands, "AAPL", number(1), 'S', 14);

        final long firstMatch = number(1);
        assertThat(await(events, 22)).containsExactly(
            adminResponse(RunCrossEncoder.TEMPLATE_ID, "AAPL", AdminResponseCode.CROSS_NOT_LOCKED, 1),
            new Event(2, "accepted 11 AAPL BUY 100@" + (PRICE + 500) + " Y t=2"),
            new Event(3, "accepted 12 AAPL BUY 100@" + PRICE + " Y t=3"),
            new Event(4, "accepted 13 AAPL SELL 150@" + PRICE + " Y t=4"),
            new Event(5, "added SELL 150@" + PRICE + " Y"),
            new Event(6, "rejected 14 R"),
            new Event(7, "replaced 12->15 " + number(2) + "->" + number(4) + " 100@" + (PRICE - 100) +
                " REPLACED C t=6"),
            adminResponse(CrossLockEncoder.TEMPLATE_ID, "AAPL", AdminResponseCode.OK, 7),
            adminResponse(CrossLockEncoder.TEMPLATE_ID, "AAPL", AdminResponseCode.CROSS_ALREADY_LOCKED, 8),
            adminResponse(CrossLockEncoder.TEMPLATE_ID, "MSFT", AdminResponseCode.UNKNOWN_SYMBOL, 9),
            new Event(8, "cancel-pending 15/" + number(4) + " AAPL t=10"),
            new Event(9, "cancel-rejected 11/" + number(1) + " AAPL t=11"),
            new Event(10, "trading-state AAPL HALTED"),
            adminResponse(SetTradingStateEncoder.TEMPLATE_ID, "AAPL", AdminResponseCode.OK, 1),
            adminResponse(RunCrossEncoder.TEMPLATE_ID, "AAPL", AdminResponseCode.SYMBOL_NOT_OPEN, 12),
            new Event(11, "trading-state AAPL OPEN"),
            adminResponse(SetTradingStateEncoder.TEMPLATE_ID, "AAPL", AdminResponseCode.OK, 1),
            new Event(12, "executed C 100@" + PRICE + " taker 11 maker 13 match " + firstMatch + " t=13"),
            new Event(13, "canceled 15 100 leaves 0 U not-resting t=13"),
            new Event(14, "cross AAPL 100@" + PRICE + " match " + number(2) + " C t=13"),
            adminResponse(RunCrossEncoder.TEMPLATE_ID, "AAPL", AdminResponseCode.OK, 13),
            adminResponse(BreakTradeEncoder.TEMPLATE_ID, "AAPL", AdminResponseCode.CROSS_EXECUTION, 14));
        assertThat(scrapeMetrics()).contains(
            "bourse_engine_admin_rejects_total{reason=\"cross_execution\"} 1.0",
            "bourse_engine_admin_rejects_total{reason=\"cross_not_locked\"} 1.0",
            "bourse_engine_admin_rejects_total{reason=\"cross_already_locked\"} 1.0",
            "bourse_engine_admin_rejects_total{reason=\"symbol_not_open\"} 1.0",
            "bourse_engine_admin_rejects_total{reason=\"unknown_symbol\"} 1.0",
            "bourse_engine_commands_total{type=\"cross_lock\"} 3.0",
            "bourse_engine_commands_total{type=\"run_cross\"} 3.0",
            "bourse_engine_events_total{type=\"cancel_pending\"} 1.0",
            "bourse_engine_events_total{type=\"cancel_rejected\"} 1.0",
            "bourse_engine_events_total{type=\"cross_completed\"} 1.0");
    }

    /** The closing cross's reference is the last trade not broken ({@link ShardStreams#quoteThenCross}). */
    @Test
    void shouldCrossClosestToTheTradeBeforeABrokenOne() throws Exception
    {
        final Subscription events = aeron.addSubscription(layout.eventChannel(), layout.eventStreamId(1));
        final Publication commands = connect(events);

        tradeThenBreakATradeAbove(commands, number(2));
        quoteThenCross(commands);

        assertThat(await(events, 20)).map(Event::text)
            .filteredOn((text) -> text.startsWith("executed") || text.startsWith("broken") || text.startsWith("cross"))
            .containsExactly(
                "executed 100@" + PRICE + " taker 12 maker 11 match " + number(1) + " t=2",
                "executed 100@" + (PRICE + 2_000) + " taker 14 maker 13 match " + number(2) + " t=4",
                "broken AAPL 100@" + (PRICE + 2_000) + " taker 14/" + number(4) + " maker 13/" + number(3) +
                    " match " + number(2) + " E t=5",
                "executed C 100@" + (PRICE + 100) + " taker 17 maker 18 match " + number(3) + " t=11",
                "cross AAPL 100@" + (PRICE + 100) + " match " + number(4) + " C t=11");
    }

    /**
     * A midpoint peg rests while the midpoint (99.00 + 101.00) / 2 is within its limit 100.50: OrderPriorityUpdated
     * carries its working price after OrderAdded; the midpoint moving beyond the limit carries the limit.
     */
    @Test
    void shouldPublishOrderPriorityUpdatedWhenARestingPegsWorkingPriceChanges() throws Exception
    {
        final Subscription events = aeron.addSubscription(layout.eventChannel(), layout.eventStreamId(1));
        final Publication commands = connect(events);

        send(commands, 11, "AAPL", Side.BUY, 100, PRICE - 10_000, 1);
        send(commands, 12, "AAPL", Side.SELL, 100, PRICE + 10_000, 2);
        send(commands, newOrder(13, "AAPL", Side.BUY, 100, PRICE + 5_000, DAY, 3).display((byte)'M'));
        send(commands, 14, "AAPL", Side.BUY, 100, PRICE + 2_000, 4);

        final long pegOrderId = number(3);
        assertThat(await(events, 10)).containsExactly(
            new Event(2, "accepted 11 AAPL BUY 100@" + (PRICE - 10_000) + " Y t=1"),
            new Event(3, "added BUY 100@" + (PRICE - 10_000) + " Y"),
            new Event(4, "accepted 12 AAPL SELL 100@" + (PRICE + 10_000) + " Y t=2"),
            new Event(5, "added SELL 100@" + (PRICE + 10_000) + " Y"),
            new Event(6, "accepted 13 AAPL BUY 100@" + (PRICE + 5_000) + " M t=3"),
            new Event(7, "added BUY 100@" + (PRICE + 5_000) + " M"),
            new Event(8, "priority-updated 13/" + pegOrderId + " AAPL BUY @" + PRICE + " M t=3"),
            new Event(9, "accepted 14 AAPL BUY 100@" + (PRICE + 2_000) + " Y t=4"),
            new Event(10, "added BUY 100@" + (PRICE + 2_000) + " Y"),
            new Event(11, "priority-updated 13/" + pegOrderId + " AAPL BUY @" + (PRICE + 5_000) + " M t=4"));
        assertThat(scrapeMetrics()).contains("bourse_engine_events_total{type=\"order_priority_updated\"} 2.0");
    }

    /**
     * A term rotation is no refusal: the offer that reaches a term's end rotates the log and the event goes into the next
     * term at once. Each order is sent once the event stream's window has room for its events and read before the
     * next, so nothing but the rotations could make the shard hold an event.
     */
    @Test
    void shouldPublishAcrossTermRotationsWithoutHoldingAnEvent() throws Exception
    {
        launch("aeron:ipc?term-length=65536", (ctx) -> {});
        final Subscription events = aeron.addSubscription(layout.eventChannel(), layout.eventStreamId(1));
        final Publication commands = connect(events);
        send(commands, 1, "AAPL", Side.BUY, 1, PRICE - 1, 1);
        assertThat(readSequencedEvents(events, 2, 2)).isEqualTo(2);
        final double heldBefore = metric(engine.metricsPort(), EVENTS_HELD);

        int orders = 1;
        while (events.imageAtIndex(0).position() < 4L * 65536)
        {
            orders++;
            awaitEventStreamRoom(events, 4096);
            send(commands, orders, "AAPL", orders % 2 == 0 ? Side.SELL : Side.BUY, 1,
                PRICE + (orders % 2 == 0 ? orders : -orders), orders);
            assertThat(readSequencedEvents(events, 2L * orders, 2)).as("order " + orders).isEqualTo(2);
        }

        assertThat(metric(engine.metricsPort(), EVENTS_HELD)).as("events held").isEqualTo(heldBefore);
    }

    /**
     * The commands one poll takes are timed one after the other: ten orders queued behind one the engine is taking
     * (its service-time clock holds the first read) read the clock eleven times, not twenty, and each is timed the
     * microsecond the stepping clock moves per read. The next poll's first command starts its own time: the second
     * the clock moved between the polls is in no command's time.
     */
    @Test
    void shouldTimeTheCommandsOfAPollOneAfterTheOtherWithOneClockReadEach() throws Exception
    {
        final SteppingClock clock = new SteppingClock();
        launch("aeron:ipc", (ctx) -> ctx.serviceTimeClock(clock));
        final Subscription events = aeron.addSubscription(layout.eventChannel(), layout.eventStreamId(1));
        final Publication commands = connect(events);
        final long readsBefore = clock.reads.get();
        final double countBefore = metric(engine.metricsPort(), SERVICE_TIME_COUNT);
        final double secondsBefore = metric(engine.metricsPort(), SERVICE_TIME_SUM);

        final CountDownLatch release = clock.holdNextRead();
        send(commands, 1, "AAPL", Side.BUY, 100, PRICE - 1, 1);
        assertThat(clock.held.await(10, TimeUnit.SECONDS)).as("first command's clock read").isTrue();
        for (int order = 2; order <= 10; order++)
        {
            send(commands, order, "AAPL", Side.BUY, 100, PRICE - order, order);
        }
        release.countDown();
        // a scrape waits for the duty cycle's end: once it counts the ten, their poll is over
        awaitAsserted(() -> assertThat(metric(engine.metricsPort(), SERVICE_TIME_COUNT)).isEqualTo(countBefore + 10));
        assertThat(clock.reads.get() - readsBefore).as("clock reads").isEqualTo(11);

        clock.timeNs.addAndGet(SECOND_NS);
        send(commands, 11, "AAPL", Side.BUY, 100, PRICE - 11, 11);
        awaitAsserted(() -> assertThat(metric(engine.metricsPort(), SERVICE_TIME_COUNT)).isEqualTo(countBefore + 11));
        assertThat(clock.reads.get() - readsBefore).as("clock reads").isEqualTo(13);
        assertThat(metric(engine.metricsPort(), SERVICE_TIME_SUM) - secondsBefore).as("seconds timed")
            .isCloseTo(11e-6, within(1e-9));
    }

    /** Moves 1 µs at each read; {@link #holdNextRead} holds the next read until released. */
    private static final class SteppingClock implements NanoClock
    {
        final AtomicLong reads = new AtomicLong();
        final AtomicLong timeNs = new AtomicLong();
        final CountDownLatch held = new CountDownLatch(1);
        private volatile CountDownLatch release;

        /** @return counted down to let the held read return. */
        CountDownLatch holdNextRead()
        {
            release = new CountDownLatch(1);
            return release;
        }

        @Override
        public long nanoTime()
        {
            final CountDownLatch release = this.release;
            if (null != release)
            {
                this.release = null;
                held.countDown();
                try
                {
                    assertThat(release.await(10, TimeUnit.SECONDS)).as("read released").isTrue();
                }
                catch (final InterruptedException ex)
                {
                    Thread.currentThread().interrupt();
                }
            }
            reads.incrementAndGet();
            return timeNs.addAndGet(1_000);
        }
    }

    private void awaitEventStreamRoom(final Subscription events, final int bytes)
    {
        final long deadlineNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (StreamCounters.value(aeron.countersReader(), layout.eventStreamId(1),
            PublisherLimit.PUBLISHER_LIMIT_TYPE_ID) - events.imageAtIndex(0).position() < bytes)
        {
            assertThat(System.nanoTime()).as("event stream room").isLessThan(deadlineNs);
            Thread.yield();
        }
    }

    @Test
    void shouldHoldEventsAndStopTakingCommandsWhenTheEventStreamIsFullThenLoseNothing()
    {
        launch("aeron:ipc?term-length=65536", (ctx) -> {});
        final Subscription events = aeron.addSubscription(layout.eventChannel(), layout.eventStreamId(1));
        final Publication commands = connect(events);

        // 3,000 resting orders make 6,000 events, several times the 32 KiB window of a 64 KiB term: the engine
        // must hold what the stream refuses and stop taking commands until the subscriber reads again.
        final int orders = sendRestingOrders(commands);

        assertThat(readSequencedEvents(events, 2, 2 * orders)).isEqualTo(2 * orders);
    }

    @Test
    void shouldAnswerTheCommandsSentBeforeAStopWhenItsEventsAreHeldAtTheStop() throws Exception
    {
        launch("aeron:ipc?term-length=65536", (ctx) -> {});
        final Subscription events = aeron.addSubscription(layout.eventChannel(), layout.eventStreamId(1));
        final Publication commands = connect(events);
        final int orders = sendRestingOrdersUntilHeld(commands, engine.metricsPort());

        // The stop comes while the engine holds an event and most commands are unread: it must take and answer them
        // all as the subscriber reads, before it goes (undrained, the subscriber got the 32 KiB window only).
        assertThat(stopWhileReading(events, 2 * orders)).isEqualTo(2 * orders);
    }

    /**
     * A stop right after a second gateway's command publication connected: the driver has linked it to the shard's
     * subscription, but the shard's Aeron client learns of the image only at its conductor's next duty cycle (it sleeps
     * up to 16 ms). The drain must wait for that image and answer the commands on it; before, it found nothing to take,
     * ended DRAINED, and the commands stayed on a stream the next run's subscription joins at its end.
     */
    @Test
    void shouldAnswerTheCommandsOfAPublicationThatConnectedJustBeforeTheStop() throws Exception
    {
        final Subscription events = aeron.addSubscription(layout.eventChannel(), layout.eventStreamId(1));
        connect(events);
        final int orders = 10;
        try (Publication secondGateway =
            aeron.addExclusivePublication(layout.commandChannel(), layout.commandStreamId(1)))
        {
            while (!secondGateway.isConnected())
            {
                Thread.onSpinWait();
            }
            for (int i = 1; i <= orders; i++)
            {
                send(secondGateway, i, "AAPL", Side.BUY, 1, PRICE - i, i);
            }
            assertThat(stopWhileReading(events, 2 * orders)).isEqualTo(2 * orders);
        }
    }

    /**
     * A run that stops (or dies) holding the events of the last command it took, a subscriber not reading: the command
     * is off the command stream, its events in no run, so its sender must learn that no run will answer it. Each run
     * says where it joined each command publication (CommandStreamJoined): the first at the stream's start, the next
     * where the first stopped taking. Every order the test sent up to that position was answered by the first run but
     * at most the one whose events it dropped; every order after it is answered by the next run, none before it.
     */
    @Test
    void shouldPublishWhereEachRunJoinedTheCommandStreamSoThatACommandTakenByADeadRunIsKnownUnanswered()
        throws Exception
    {
        launch("aeron:ipc?term-length=65536", (ctx) -> {});
        final Subscription events = aeron.addSubscription(layout.eventChannel(), layout.eventStreamId(1));
        // Not connect(): its read of the RunStarted could take the first run's join too.
        final Publication commands = aeron.addExclusivePublication(layout.commandChannel(), layout.commandStreamId(1));
        while (!commands.isConnected() || !events.isConnected())
        {
            Thread.onSpinWait();
        }
        final long startPosition = commands.position();
        final int firstRunEvents = events.imageAtIndex(0).sessionId();
        final int orders = sendRestingOrdersUntilHeld(commands, engine.metricsPort());
        engine.close(); // nobody reads: the drain times out and the held events go with the run

        engine = launchShard((ctx) -> {});
        final Map<Long, Integer> acceptedByRun = new HashMap<>();
        final List<Long> joins = new ArrayList<>();
        final long deadlineNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        // The next run takes the orders in the order sent: once the last is answered, a poll that finds nothing left
        // on either run's image has read everything.
        while ((!acceptedByRun.containsKey((long)orders) ||
            readAcceptedAndJoins(events, firstRunEvents, commands.sessionId(), acceptedByRun, joins) > 0) &&
            System.nanoTime() < deadlineNs)
        {
            readAcceptedAndJoins(events, firstRunEvents, commands.sessionId(), acceptedByRun, joins);
        }

        assertThat(joins).hasSize(2).first().isEqualTo(startPosition);
        final long frameLength = (commands.position() - startPosition) / orders;
        final long takenByTheFirstRun = (joins.get(1) - startPosition) / frameLength;
        assertThat(takenByTheFirstRun).isBetween(1L, orders - 1L);
        final List<Long> unanswered = new ArrayList<>();
        for (long order = 1; order <= orders; order++)
        {
            final Integer run = acceptedByRun.get(order);
            if (null == run)
            {
                unanswered.add(order);
            }
            else
            {
                assertThat(run).as("order %d", order).isEqualTo(order <= takenByTheFirstRun ? 1 : 2);
            }
        }
        // The first run's last command is unanswered unless only its OrderAdded was held (its Accepted went out).
        assertThat(unanswered).as("taken by the first run, answered by none").isSubsetOf(List.of(takenByTheFirstRun));
        assertThat(scrapeMetrics()).contains("bourse_engine_events_total{type=\"command_stream_joined\"} 1.0");
    }

    /**
     * Reads what is there: each Accepted's order with the run that published it (1 on the first run's event image,
     * 2 on the other), and the join positions of the command publication {@code commandSessionId}.
     *
     * @return the fragments read.
     */
    private static int readAcceptedAndJoins(
        final Subscription events, final int firstRunEvents, final int commandSessionId,
        final Map<Long, Integer> acceptedByRun, final List<Long> joins)
    {
        final MessageHeaderDecoder header = new MessageHeaderDecoder();
        final OrderAcceptedDecoder accepted = new OrderAcceptedDecoder();
        final CommandStreamJoinedDecoder joined = new CommandStreamJoinedDecoder();
        return events.poll((buffer, offset, length, frameHeader) ->
        {
            header.wrap(buffer, offset);
            final int body = offset + MessageHeaderDecoder.ENCODED_LENGTH;
            if (OrderAcceptedDecoder.TEMPLATE_ID == header.templateId())
            {
                accepted.wrap(buffer, body, header.blockLength(), header.version());
                acceptedByRun.put(accepted.clientOrderId(), firstRunEvents == frameHeader.sessionId() ? 1 : 2);
            }
            else if (CommandStreamJoinedDecoder.TEMPLATE_ID == header.templateId())
            {
                joined.wrap(buffer, body, header.blockLength(), header.version());
                assertThat(joined.shard()).isEqualTo((short)1);
                if (commandSessionId == joined.commandSessionId())
                {
                    joins.add(joined.joinPosition());
                }
            }
        }, 100);
    }

    /**
     * A stop while events are held and the only subscriber has gone (no event archive): nobody can take them, so the
     * drain ends at once and says how many it dropped, instead of waiting out its timeouts or dropping them unsaid.
     */
    @Test
    void shouldLogTheHeldEventsItDropsWhenNoSubscriberIsLeftAtAStop() throws Exception
    {
        launch("aeron:ipc?term-length=65536", (ctx) -> {});
        final Subscription events = aeron.addSubscription(layout.eventChannel(), layout.eventStreamId(1));
        sendRestingOrdersUntilHeld(connect(events), engine.metricsPort());
        events.close();

        final ByteArrayOutputStream log = new ByteArrayOutputStream();
        final PrintStream stderr = System.err;
        System.setErr(new PrintStream(log, true, StandardCharsets.UTF_8));
        try
        {
            engine.close();
        }
        finally
        {
            System.setErr(stderr);
        }

        assertThat(log.toString(StandardCharsets.UTF_8)).containsPattern(
            "matching-engine shard 1: stopping with no event stream subscriber left, not even the event archive's " +
            "recording: the [1-9][0-9]* messages held are dropped");
    }

    /**
     * A shard restarted on a new media driver without the event archive recovers nothing; its numbering starts from
     * its start time, so its match numbers (and order reference numbers) are above those of the day's earlier run.
     * Before, each run numbered from 1, and a gateway that outlived the first gave its sessions the same numbers twice.
     */
    @Test
    void shouldNumberAboveTheEarlierRunWhenARestartedShardRecoversNothing()
    {
        final long startCount = new SystemEpochNanoClock().nanoTime() / EngineNumbering.NANOS_PER_NUMBER;
        launch("aeron:ipc", (ctx) -> ctx.epochClock(new SystemEpochNanoClock()));
        final long earlierMatch = crossAndAwaitMatchNumber();
        launch("aeron:ipc", (ctx) -> ctx.epochClock(new SystemEpochNanoClock()));
        final long laterMatch = crossAndAwaitMatchNumber();

        assertThat(earlierMatch).isGreaterThan((startCount << 4) | 1);
        assertThat(laterMatch).isGreaterThan(earlierMatch);
    }

    /** Only the shard numbers itself: a StartNumbering on the command stream is counted as unknown and changes none. */
    @Test
    void shouldSkipAStartNumberingHeardOnTheCommandStream() throws Exception
    {
        final Subscription events = aeron.addSubscription(layout.eventChannel(), layout.eventStreamId(1));
        final Publication commands = connect(events);
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[64]);
        new StartNumberingEncoder().wrapAndApplyHeader(buffer, 0, new MessageHeaderEncoder())
            .numberBase(START_EPOCH_NS / EngineNumbering.NANOS_PER_NUMBER + 1_000_000);
        offer(commands, buffer, MessageHeaderEncoder.ENCODED_LENGTH + StartNumberingEncoder.BLOCK_LENGTH);

        send(commands, 11, "AAPL", Side.BUY, 100, 777);
        send(commands, 12, "AAPL", Side.SELL, 100, 778);

        assertThat(await(events, 4)).last()
            .isEqualTo(new Event(5, "executed 100@" + PRICE + " taker 12 maker 11 match " + number(1) + " t=778"));
        assertThat(scrapeMetrics()).contains("bourse_engine_commands_total{type=\"unknown\"} 1.0");
    }

    /** Crosses two orders on a new subscription and publication of the running shard. */
    private long crossAndAwaitMatchNumber()
    {
        final Subscription events = aeron.addSubscription(layout.eventChannel(), layout.eventStreamId(1));
        final Publication commands = connect(events);
        send(commands, 11, "AAPL", Side.BUY, 100, 777);
        send(commands, 12, "AAPL", Side.SELL, 100, 778);
        final Matcher executed =
            Pattern.compile("^executed .* match ([0-9]+) ").matcher(await(events, 4).get(3).text());
        assertThat(executed.find()).as("an execution").isTrue();
        return Long.parseLong(executed.group(1));
    }

    /**
     * Connects to the shard's streams and reads the run's first event, its RunStarted ({@link #runStarted}): shard 1
     * recovered nothing (no archive). The run's next event is sequence number 2.
     */
    private Publication connect(final Subscription events)
    {
        final Publication commands = aeron.addExclusivePublication(layout.commandChannel(), layout.commandStreamId(1));
        while (!commands.isConnected() || !events.isConnected())
        {
            Thread.onSpinWait();
        }
        final List<Event> first = await(events, 1);
        assertThat(first).hasSize(1);
        runStarted = first.getFirst();
        assertThat(runStarted.sequenceNumber()).isEqualTo(1);
        assertThat(runStarted.text()).startsWith("run-started shard 1 recovered 0 numbering ");
        return commands;
    }

    /**
     * Stops the shard on a thread of its own while this one reads its events from sequence number 2.
     *
     * @return the events read, up to {@code count} ({@link ShardStreams#readSequencedEvents}).
     */
    private int stopWhileReading(final Subscription events, final int count) throws InterruptedException
    {
        final EngineService stopping = engine;
        final Thread stop = new Thread(stopping::close, "stop");
        stop.start();
        final int received = readSequencedEvents(events, 2, count);
        stop.join();
        return received;
    }

    private String scrapeMetrics() throws Exception
    {
        return MetricsEndpoint.scrape(engine.metricsPort());
    }
}
