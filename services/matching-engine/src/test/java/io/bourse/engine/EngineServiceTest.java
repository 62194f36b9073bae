package io.bourse.engine;

import io.aeron.Aeron;
import io.aeron.Publication;
import io.aeron.Subscription;
import io.aeron.driver.MediaDriver;
import io.bourse.common.aeron.EmbeddedMediaDriver;
import io.bourse.common.aeron.StreamLayout;
import io.bourse.common.config.Settings;
import io.bourse.common.config.SymbolDirectory;
import io.bourse.common.metrics.MetricsEndpoint;
import io.bourse.engine.match.SelfTradePrevention;
import io.bourse.sbe.engine.BreakTradeEncoder;
import io.bourse.sbe.engine.CancelOrderEncoder;
import io.bourse.sbe.engine.CancelPendingDecoder;
import io.bourse.sbe.engine.CancelRejectedDecoder;
import io.bourse.sbe.engine.ClockTickEncoder;
import io.bourse.sbe.engine.CrossCompletedDecoder;
import io.bourse.sbe.engine.CrossLockEncoder;
import io.bourse.sbe.engine.MessageHeaderDecoder;
import io.bourse.sbe.engine.MessageHeaderEncoder;
import io.bourse.sbe.engine.NewOrderEncoder;
import io.bourse.sbe.engine.OrderAcceptedDecoder;
import io.bourse.sbe.engine.OrderAddedDecoder;
import io.bourse.sbe.engine.OrderCanceledDecoder;
import io.bourse.sbe.engine.OrderExecutedDecoder;
import io.bourse.sbe.engine.OrderPriorityUpdatedDecoder;
import io.bourse.sbe.engine.OrderRejectedDecoder;
import io.bourse.sbe.engine.OrderReplacedDecoder;
import io.bourse.sbe.engine.ReplaceOrderEncoder;
import io.bourse.sbe.engine.RunCrossEncoder;
import io.bourse.sbe.engine.SetPriceBandEncoder;
import io.bourse.sbe.engine.SetSelfTradePreventionEncoder;
import io.bourse.sbe.engine.SetTradingStateEncoder;
import io.bourse.sbe.engine.Side;
import io.bourse.sbe.engine.TradeBrokenDecoder;
import io.bourse.sbe.engine.TradingStateChangedDecoder;
import io.bourse.sbe.engine.TradingState;
import org.agrona.CloseHelper;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.SleepingMillisIdleStrategy;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

import static org.assertj.core.api.Assertions.assertThat;

/** Drives a real shard through a real embedded media driver: SBE commands in, SBE events out. */
@Timeout(30)
class EngineServiceTest
{
    private static final long PRICE = 1_000_000;
    private static final long DAY = 99_998;
    private static final long SECOND_NS = 1_000_000_000L;

    private MediaDriver driver;
    private EngineService engine;
    private Aeron aeron;
    private StreamLayout layout;

    private record Event(long sequenceNumber, String text)
    {
    }

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
        final EngineContext ctx = new EngineContext()
            .shardId(1)
            .metricsPort(0)
            .jvmMetrics(false)
            .streamLayout(layout)
            .symbolDirectory(SymbolDirectory.parse("AAPL@1,MSFT@0"))
            .idleStrategy(new SleepingMillisIdleStrategy(1));
        configure.accept(ctx);
        engine = EngineService.launch(ctx);
        aeron = Aeron.connect(new Aeron.Context().aeronDirectoryName(driver.aeronDirectoryName()));
    }

    @AfterEach
    void tearDown()
    {
        CloseHelper.closeAll(aeron, engine, driver);
    }

    @Test
    void shouldPublishSequencedEventsWhenOrdersCross()
    {
        final Subscription events = aeron.addSubscription(layout.eventChannel(), layout.eventStreamId(1));
        final Publication commands = connect(events);

        send(commands, 11, "AAPL", Side.BUY, 100, 777);
        send(commands, 12, "AAPL", Side.SELL, 60, 778);
        send(commands, 13, "MSFT", Side.SELL, 60, 779);

        assertThat(await(events, 5)).containsExactly(
            new Event(1, "accepted 11 AAPL BUY 100@" + PRICE + " Y t=777"),
            new Event(2, "added BUY 100@" + PRICE + " Y"),
            new Event(3, "accepted 12 AAPL SELL 60@" + PRICE + " Y t=778"),
            new Event(4, "executed 60@" + PRICE + " taker 12 maker 11 match " + ((1 << 4) | 1) + " t=778"),
            new Event(5, "rejected 13 S"));
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
            new Event(1, "accepted 11 AAPL BUY 100@" + PRICE + " Y t=" + SECOND_NS),
            new Event(2, "added BUY 100@" + PRICE + " Y"),
            new Event(3, "canceled 11 100 leaves 0 T resting t=" + 6 * SECOND_NS));
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
            new Event(1, "accepted 11 AAPL BUY 100@" + PRICE + " Y t=" + SECOND_NS),
            new Event(2, "added BUY 100@" + PRICE + " Y"),
            new Event(3, "replaced 11->12 " + (16 + 1) + "->" + (2 * 16 + 1) + " 100@" + PRICE + " REPLACED N t=" +
                2 * SECOND_NS),
            new Event(4, "canceled 12 100 leaves 0 T resting t=" + 7 * SECOND_NS));
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

        assertThat(await(events, 5)).containsExactly(
            new Event(1, "trading-state AAPL HALTED"),
            new Event(2, "rejected 11 H"),
            new Event(3, "trading-state AAPL OPEN"),
            new Event(4, "accepted 12 AAPL BUY 100@" + PRICE + " Y t=778"),
            new Event(5, "added BUY 100@" + PRICE + " Y"));
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
            new Event(1, "accepted 11 AAPL SELL 100@" + PRICE + " Y t=1"),
            new Event(2, "added SELL 100@" + PRICE + " Y"),
            new Event(3, "accepted 12 AAPL BUY 40@" + PRICE + " Y t=2"),
            new Event(4, "canceled 12 40 leaves 0 Q not-resting t=2"),
            new Event(5, "accepted 13 AAPL BUY 40@" + PRICE + " Y t=3"),
            new Event(6, "executed 40@" + PRICE + " taker 13 maker 11 match " + ((1 << 4) | 1) + " t=3"));
    }

    @Test
    void shouldCarryTheFirmOfAnAttributableOrderThatRests()
    {
        final Subscription events = aeron.addSubscription(layout.eventChannel(), layout.eventStreamId(1));
        final Publication commands = connect(events);

        send(commands, newOrder(11, "AAPL", Side.BUY, 100, PRICE, DAY, 1).firm("GSCO").display((byte)'A'));
        send(commands, newOrder(12, "AAPL", Side.BUY, 100, PRICE, DAY, 2).display((byte)'A'));

        assertThat(await(events, 4)).containsExactly(
            new Event(1, "accepted 11 AAPL BUY 100@" + PRICE + " A t=1"),
            new Event(2, "added BUY 100@" + PRICE + " A firm 'GSCO'"),
            new Event(3, "accepted 12 AAPL BUY 100@" + PRICE + " A t=2"),
            new Event(4, "added BUY 100@" + PRICE + " A firm ''"));
    }

    @Test
    void shouldCarryDisplayNonDisplayedWhenHiddenOrderRests()
    {
        final Subscription events = aeron.addSubscription(layout.eventChannel(), layout.eventStreamId(1));
        final Publication commands = connect(events);

        send(commands, newOrder(11, "AAPL", Side.BUY, 100, PRICE, DAY, 1).display((byte)'N'));
        send(commands, newOrder(12, "AAPL", Side.BUY, 100, PRICE, DAY, 2).display((byte)'I'));

        assertThat(await(events, 3)).containsExactly(
            new Event(1, "accepted 11 AAPL BUY 100@" + PRICE + " N t=1"),
            new Event(2, "added BUY 100@" + PRICE + " N"),
            new Event(3, "rejected 12 D"));
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

        assertThat(await(events, 4)).containsExactly(
            new Event(1, "rejected 11 X"),
            new Event(2, "accepted 12 AAPL BUY 100@" + (PRICE + 10_000) + " Y t=2"),
            new Event(3, "added BUY 100@" + (PRICE + 10_000) + " Y"),
            new Event(4, "rejected 13 X"));
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

        assertThat(await(events, 2)).containsExactly(
            new Event(1, "accepted 11 AAPL BUY 100@" + PRICE + " Y t=777"),
            new Event(2, "added BUY 100@" + PRICE + " Y"));
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
        final long matchNumber = (1 << 4) | 1;

        send(commands, 11, "AAPL", Side.BUY, 100, 777);
        send(commands, 12, "AAPL", Side.SELL, 60, 778);
        breakTrade(commands, "AAPL", matchNumber, 'Q', 779);
        breakTrade(commands, "AAPL", matchNumber + 16, 'S', 780);
        breakTrade(commands, "MSFT", matchNumber, 'S', 781);
        breakTrade(commands, "AAPL", matchNumber, 'E', 782);
        breakTrade(commands, "AAPL", matchNumber, 'S', 783);
        send(commands, 13, "AAPL", Side.SELL, 60, 784);

        assertThat(await(events, 8)).containsExactly(
            new Event(1, "accepted 11 AAPL BUY 100@" + PRICE + " Y t=777"),
            new Event(2, "added BUY 100@" + PRICE + " Y"),
            new Event(3, "accepted 12 AAPL SELL 60@" + PRICE + " Y t=778"),
            new Event(4, "executed 60@" + PRICE + " taker 12 maker 11 match " + matchNumber + " t=778"),
            new Event(5, "broken AAPL 60@" + PRICE + " taker 12/" + (2 * 16 + 1) + " maker 11/" + (16 + 1) +
                " match " + matchNumber + " E t=782"),
            new Event(6, "accepted 13 AAPL SELL 60@" + PRICE + " Y t=784"),
            new Event(7, "executed 40@" + PRICE + " taker 13 maker 11 match " + (2 * 16 + 1) + " t=784"),
            new Event(8, "added SELL 20@" + PRICE + " Y"));
        assertThat(scrapeMetrics()).contains(
            "bourse_engine_admin_rejects_total{reason=\"invalid_break_reason\"} 1.0",
            "bourse_engine_admin_rejects_total{reason=\"unknown_match_number\"} 2.0",
            "bourse_engine_admin_rejects_total{reason=\"trade_already_broken\"} 1.0",
            "bourse_engine_commands_total{type=\"break_trade\"} 5.0",
            "bourse_engine_events_total{type=\"trade_broken\"} 1.0")
            .containsPattern("bourse_aeron_subscriber_lag_bytes\\{session=\"-?[0-9]+\",stream=\"1001\"} ");
    }

    /**
     * NewOrder's cross type (C, N, and O which the engine does not run), a closing-cross replace, CrossLock,
     * CancelOrder during the lock (CancelPending, CancelRejected), RunCross refused until the symbol is open, then the
     * cross: OrderExecuted with cross type C, the pending order's cancel and CrossCompleted; every refused cross
     * command counted by reason.
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

        final long firstMatch = (1 << 4) | 1;
        assertThat(await(events, 13)).containsExactly(
            new Event(1, "accepted 11 AAPL BUY 100@" + (PRICE + 500) + " Y t=2"),
            new Event(2, "accepted 12 AAPL BUY 100@" + PRICE + " Y t=3"),
            new Event(3, "accepted 13 AAPL SELL 150@" + PRICE + " Y t=4"),
            new Event(4, "added SELL 150@" + PRICE + " Y"),
            new Event(5, "rejected 14 R"),
            new Event(6, "replaced 12->15 " + (2 * 16 + 1) + "->" + (4 * 16 + 1) + " 100@" + (PRICE - 100) +
                " REPLACED C t=6"),
            new Event(7, "cancel-pending 15/" + (4 * 16 + 1) + " AAPL t=10"),
            new Event(8, "cancel-rejected 11/" + (16 + 1) + " AAPL t=11"),
            new Event(9, "trading-state AAPL HALTED"),
            new Event(10, "trading-state AAPL OPEN"),
            new Event(11, "executed C 100@" + PRICE + " taker 11 maker 13 match " + firstMatch + " t=13"),
            new Event(12, "canceled 15 100 leaves 0 U not-resting t=13"),
            new Event(13, "cross AAPL 100@" + PRICE + " match " + (firstMatch + 16) + " C t=13"));
        assertThat(scrapeMetrics()).contains(
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

        final long pegOrderId = (3 << 4) | 1;
        assertThat(await(events, 10)).containsExactly(
            new Event(1, "accepted 11 AAPL BUY 100@" + (PRICE - 10_000) + " Y t=1"),
            new Event(2, "added BUY 100@" + (PRICE - 10_000) + " Y"),
            new Event(3, "accepted 12 AAPL SELL 100@" + (PRICE + 10_000) + " Y t=2"),
            new Event(4, "added SELL 100@" + (PRICE + 10_000) + " Y"),
            new Event(5, "accepted 13 AAPL BUY 100@" + (PRICE + 5_000) + " M t=3"),
            new Event(6, "added BUY 100@" + (PRICE + 5_000) + " M"),
            new Event(7, "priority-updated 13/" + pegOrderId + " AAPL BUY @" + PRICE + " M t=3"),
            new Event(8, "accepted 14 AAPL BUY 100@" + (PRICE + 2_000) + " Y t=4"),
            new Event(9, "added BUY 100@" + (PRICE + 2_000) + " Y"),
            new Event(10, "priority-updated 13/" + pegOrderId + " AAPL BUY @" + (PRICE + 5_000) + " M t=4"));
        assertThat(scrapeMetrics()).contains("bourse_engine_events_total{type=\"order_priority_updated\"} 2.0");
    }

    @Test
    void shouldHoldEventsAndStopTakingCommandsWhenTheEventStreamIsFullThenLoseNothing()
    {
        launch("aeron:ipc?term-length=65536", (ctx) -> {});
        final Subscription events = aeron.addSubscription(layout.eventChannel(), layout.eventStreamId(1));
        final Publication commands = connect(events);

        // 3,000 resting orders make 6,000 events, several times the 32 KiB window of a 64 KiB term: the engine
        // must hold what the stream refuses and stop taking commands until the subscriber reads again.
        final int orders = 3_000;
        for (int i = 1; i <= orders; i++)
        {
            send(commands, i, "AAPL", i % 2 == 0 ? Side.BUY : Side.SELL, 1, PRICE + (i % 2 == 0 ? -i : i), i);
        }

        final long[] expectedSequence = {1};
        final int[] received = {0};
        final long deadlineNs = System.nanoTime() + 20_000_000_000L;
        while (received[0] < 2 * orders && System.nanoTime() < deadlineNs)
        {
            if (0 == events.poll((buffer, offset, length, frameHeader) ->
            {
                // every engine event starts with its sequence number, right after the SBE header
                assertThat(buffer.getLong(offset + MessageHeaderDecoder.ENCODED_LENGTH, ByteOrder.LITTLE_ENDIAN))
                    .isEqualTo(expectedSequence[0]++);
                received[0]++;
            }, 100))
            {
                Thread.onSpinWait();
            }
        }

        assertThat(received[0]).isEqualTo(2 * orders);
    }

    private Publication connect(final Subscription events)
    {
        final Publication commands = aeron.addExclusivePublication(layout.commandChannel(), layout.commandStreamId(1));
        while (!commands.isConnected() || !events.isConnected())
        {
            Thread.onSpinWait();
        }
        return commands;
    }

    /** Decodes events into text until {@code count} have arrived (or 10 s passed). */
    private static List<Event> await(final Subscription events, final int count)
    {
        final List<Event> received = new ArrayList<>();
        final MessageHeaderDecoder header = new MessageHeaderDecoder();
        final OrderAcceptedDecoder accepted = new OrderAcceptedDecoder();
        final OrderAddedDecoder added = new OrderAddedDecoder();
        final OrderExecutedDecoder executed = new OrderExecutedDecoder();
        final OrderRejectedDecoder rejected = new OrderRejectedDecoder();
        final OrderCanceledDecoder canceled = new OrderCanceledDecoder();
        final TradeBrokenDecoder broken = new TradeBrokenDecoder();
        final OrderReplacedDecoder replaced = new OrderReplacedDecoder();
        final CancelPendingDecoder cancelPending = new CancelPendingDecoder();
        final CancelRejectedDecoder cancelRejected = new CancelRejectedDecoder();
        final CrossCompletedDecoder crossCompleted = new CrossCompletedDecoder();
        final OrderPriorityUpdatedDecoder priorityUpdated = new OrderPriorityUpdatedDecoder();
        final TradingStateChangedDecoder stateChanged = new TradingStateChangedDecoder();
        final long deadlineNs = System.nanoTime() + 10_000_000_000L;
        while (received.size() < count && System.nanoTime() < deadlineNs)
        {
            events.poll((buffer, offset, length, frameHeader) ->
            {
                header.wrap(buffer, offset);
                assertThat(header.schemaId()).isEqualTo(MessageHeaderDecoder.SCHEMA_ID);
                final int body = offset + MessageHeaderDecoder.ENCODED_LENGTH;
                switch (header.templateId())
                {
                    case OrderAcceptedDecoder.TEMPLATE_ID ->
                    {
                        accepted.wrap(buffer, body, header.blockLength(), header.version());
                        received.add(new Event(accepted.sequenceNumber(), "accepted " + accepted.clientOrderId() +
                            " " + accepted.symbol().trim() + " " + accepted.side() + " " + accepted.quantity() +
                            "@" + accepted.price() + " " + (char)accepted.display() + " t=" + accepted.timestampNs()));
                    }
                    case OrderAddedDecoder.TEMPLATE_ID ->
                    {
                        added.wrap(buffer, body, header.blockLength(), header.version());
                        received.add(new Event(added.sequenceNumber(), "added " + added.side() + " " +
                            added.quantity() + "@" + added.price() + " " + (char)added.display() +
                            ('A' == added.display() ? " firm '" + added.firm() + "'" : "")));
                    }
                    case OrderExecutedDecoder.TEMPLATE_ID ->
                    {
                        executed.wrap(buffer, body, header.blockLength(), header.version());
                        received.add(new Event(executed.sequenceNumber(), "executed " +
                            ('C' == executed.crossType() ? "C " : 'N' == executed.crossType() ? "" : "? ") +
                            executed.quantity() + "@" +
                            executed.price() + " taker " + executed.takerClientOrderId() + " maker " +
                            executed.makerClientOrderId() + " match " + executed.matchNumber() + " t=" +
                            executed.timestampNs()));
                    }
                    case OrderRejectedDecoder.TEMPLATE_ID ->
                    {
                        rejected.wrap(buffer, body, header.blockLength(), header.version());
                        received.add(new Event(rejected.sequenceNumber(), "rejected " + rejected.clientOrderId() +
                            " " + (char)rejected.reason()));
                    }
                    case OrderCanceledDecoder.TEMPLATE_ID ->
                    {
                        canceled.wrap(buffer, body, header.blockLength(), header.version());
                        received.add(new Event(canceled.sequenceNumber(), "canceled " + canceled.clientOrderId() +
                            " " + canceled.canceledQuantity() + " leaves " + canceled.leavesQuantity() + " " +
                            (char)canceled.reason() + (1 == canceled.wasResting() ? " resting" : " not-resting") +
                            " t=" + canceled.timestampNs()));
                    }
                    case TradeBrokenDecoder.TEMPLATE_ID ->
                    {
                        broken.wrap(buffer, body, header.blockLength(), header.version());
                        received.add(new Event(broken.sequenceNumber(), "broken " + broken.symbol().trim() + " " +
                            broken.quantity() + "@" + broken.price() + " taker " + broken.takerClientOrderId() + "/" +
                            broken.takerOrderId() + " maker " + broken.makerClientOrderId() + "/" +
                            broken.makerOrderId() + " match " + broken.matchNumber() + " " + (char)broken.reason() +
                            " t=" + broken.timestampNs()));
                    }
                    case OrderReplacedDecoder.TEMPLATE_ID ->
                    {
                        replaced.wrap(buffer, body, header.blockLength(), header.version());
                        received.add(new Event(replaced.sequenceNumber(), "replaced " + replaced.clientOrderId() +
                            "->" + replaced.newClientOrderId() + " " + replaced.orderId() + "->" +
                            replaced.newOrderId() + " " + replaced.quantity() + "@" + replaced.price() + " " +
                            replaced.bookUpdate() + " " + (char)replaced.crossType() + " t=" + replaced.timestampNs()));
                    }
                    case CancelPendingDecoder.TEMPLATE_ID ->
                    {
                        cancelPending.wrap(buffer, body, header.blockLength(), header.version());
                        received.add(new Event(cancelPending.sequenceNumber(), "cancel-pending " +
                            cancelPending.clientOrderId() + "/" + cancelPending.orderId() + " " +
                            cancelPending.symbol().trim() + " t=" + cancelPending.timestampNs()));
                    }
                    case CancelRejectedDecoder.TEMPLATE_ID ->
                    {
                        cancelRejected.wrap(buffer, body, header.blockLength(), header.version());
                        received.add(new Event(cancelRejected.sequenceNumber(), "cancel-rejected " +
                            cancelRejected.clientOrderId() + "/" + cancelRejected.orderId() + " " +
                            cancelRejected.symbol().trim() + " t=" + cancelRejected.timestampNs()));
                    }
                    case CrossCompletedDecoder.TEMPLATE_ID ->
                    {
                        crossCompleted.wrap(buffer, body, header.blockLength(), header.version());
                        received.add(new Event(crossCompleted.sequenceNumber(), "cross " +
                            crossCompleted.symbol().trim() + " " + crossCompleted.shares() + "@" +
                            crossCompleted.price() + " match " + crossCompleted.matchNumber() + " " +
                            (char)crossCompleted.crossType() + " t=" + crossCompleted.timestampNs()));
                    }
                    case OrderPriorityUpdatedDecoder.TEMPLATE_ID ->
                    {
                        priorityUpdated.wrap(buffer, body, header.blockLength(), header.version());
                        received.add(new Event(priorityUpdated.sequenceNumber(), "priority-updated " +
                            priorityUpdated.clientOrderId() + "/" + priorityUpdated.orderId() + " " +
                            priorityUpdated.symbol().trim() + " " + priorityUpdated.side() + " @" +
                            priorityUpdated.price() + " " + (char)priorityUpdated.display() + " t=" +
                            priorityUpdated.timestampNs()));
                    }
                    case TradingStateChangedDecoder.TEMPLATE_ID ->
                    {
                        stateChanged.wrap(buffer, body, header.blockLength(), header.version());
                        received.add(new Event(stateChanged.sequenceNumber(), "trading-state " +
                            stateChanged.symbol().trim() + " " + stateChanged.state()));
                    }
                    default -> received.add(new Event(-1, "unexpected template " + header.templateId()));
                }
            }, 10);
            Thread.onSpinWait();
        }
        return received;
    }

    private String scrapeMetrics() throws Exception
    {
        return MetricsEndpoint.scrape(engine.metricsPort());
    }

    private static void send(
        final Publication publication, final long clientOrderId, final String symbol, final Side side,
        final long quantity, final long timestampNs)
    {
        send(publication, clientOrderId, symbol, side, quantity, PRICE, timestampNs);
    }

    private static void send(
        final Publication publication, final long clientOrderId, final String symbol, final Side side,
        final long quantity, final long price, final long timestampNs)
    {
        send(publication, newOrder(clientOrderId, symbol, side, quantity, price, DAY, timestampNs)
            .firm("DEMO")
            .display((byte)'Y'));
    }

    /** @return a NewOrder without firm or minimum quantity, display still to set, in its own buffer. */
    private static NewOrderEncoder newOrder(
        final long clientOrderId, final String symbol, final Side side, final long quantity, final long price,
        final long timeInForce, final long timestampNs)
    {
        return new NewOrderEncoder().wrapAndApplyHeader(new UnsafeBuffer(new byte[128]), 0, new MessageHeaderEncoder())
            .timestampNs(timestampNs)
            .clientOrderId(clientOrderId)
            .symbol(String.format("%-8s", symbol))
            .side(side)
            .quantity(quantity)
            .price(price)
            .timeInForce(timeInForce)
            .firm("    ")
            .minimumQuantity(0);
    }

    private static void send(final Publication publication, final NewOrderEncoder encoder)
    {
        offer(publication, encoder.buffer(), MessageHeaderEncoder.ENCODED_LENGTH + encoder.encodedLength());
    }

    private static void clockTick(final Publication publication, final long timestampNs)
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[64]);
        final ClockTickEncoder encoder = new ClockTickEncoder()
            .wrapAndApplyHeader(buffer, 0, new MessageHeaderEncoder())
            .timestampNs(timestampNs);
        offer(publication, buffer, MessageHeaderEncoder.ENCODED_LENGTH + encoder.encodedLength());
    }

    private static void tradingState(final Publication publication, final String symbol, final TradingState state)
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[64]);
        final SetTradingStateEncoder encoder = new SetTradingStateEncoder()
            .wrapAndApplyHeader(buffer, 0, new MessageHeaderEncoder())
            .timestampNs(1)
            .symbol(String.format("%-8s", symbol))
            .state(state);
        offer(publication, buffer, MessageHeaderEncoder.ENCODED_LENGTH + encoder.encodedLength());
    }

    private static void priceBand(
        final Publication publication, final String symbol, final long referencePrice, final int bandBasisPoints)
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[64]);
        final SetPriceBandEncoder encoder = new SetPriceBandEncoder()
            .wrapAndApplyHeader(buffer, 0, new MessageHeaderEncoder())
            .timestampNs(1)
            .symbol(String.format("%-8s", symbol))
            .referencePrice(referencePrice)
            .bandBasisPoints(bandBasisPoints);
        offer(publication, buffer, MessageHeaderEncoder.ENCODED_LENGTH + encoder.encodedLength());
    }

    private static void selfTradePrevention(
        final Publication publication, final String firm, final SelfTradePrevention mode)
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[64]);
        final SetSelfTradePreventionEncoder encoder = new SetSelfTradePreventionEncoder()
            .wrapAndApplyHeader(buffer, 0, new MessageHeaderEncoder())
            .timestampNs(1)
            .firm(firm)
            .mode(io.bourse.sbe.engine.SelfTradePrevention.valueOf(mode.name()));
        offer(publication, buffer, MessageHeaderEncoder.ENCODED_LENGTH + encoder.encodedLength());
    }

    private static void breakTrade(
        final Publication publication, final String symbol, final long matchNumber, final char reason,
        final long timestampNs)
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[64]);
        final BreakTradeEncoder encoder = new BreakTradeEncoder()
            .wrapAndApplyHeader(buffer, 0, new MessageHeaderEncoder())
            .timestampNs(timestampNs)
            .symbol(String.format("%-8s", symbol))
            .matchNumber(matchNumber)
            .reason((byte)reason);
        offer(publication, buffer, MessageHeaderEncoder.ENCODED_LENGTH + encoder.encodedLength());
    }

    private static void cancel(
        final Publication publication, final long clientOrderId, final long quantity, final long timestampNs)
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[64]);
        final CancelOrderEncoder encoder = new CancelOrderEncoder()
            .wrapAndApplyHeader(buffer, 0, new MessageHeaderEncoder())
            .timestampNs(timestampNs)
            .clientOrderId(clientOrderId)
            .quantity(quantity);
        offer(publication, buffer, MessageHeaderEncoder.ENCODED_LENGTH + encoder.encodedLength());
    }

    private static void replace(
        final Publication publication, final long clientOrderId, final long newClientOrderId, final long quantity,
        final long price, final long timeInForce, final long timestampNs)
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[64]);
        final ReplaceOrderEncoder encoder = new ReplaceOrderEncoder()
            .wrapAndApplyHeader(buffer, 0, new MessageHeaderEncoder())
            .timestampNs(timestampNs)
            .clientOrderId(clientOrderId)
            .newClientOrderId(newClientOrderId)
            .quantity(quantity)
            .price(price)
            .timeInForce(timeInForce);
        offer(publication, buffer, MessageHeaderEncoder.ENCODED_LENGTH + encoder.encodedLength());
    }

    private static void crossLock(final Publication publication, final String symbol, final long timestampNs)
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[64]);
        final CrossLockEncoder encoder = new CrossLockEncoder()
            .wrapAndApplyHeader(buffer, 0, new MessageHeaderEncoder())
            .timestampNs(timestampNs)
            .symbol(String.format("%-8s", symbol));
        offer(publication, buffer, MessageHeaderEncoder.ENCODED_LENGTH + encoder.encodedLength());
    }

    private static void runCross(final Publication publication, final String symbol, final long timestampNs)
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[64]);
        final RunCrossEncoder encoder = new RunCrossEncoder()
            .wrapAndApplyHeader(buffer, 0, new MessageHeaderEncoder())
            .timestampNs(timestampNs)
            .symbol(String.format("%-8s", symbol));
        offer(publication, buffer, MessageHeaderEncoder.ENCODED_LENGTH + encoder.encodedLength());
    }

    private static void offer(final Publication publication, final DirectBuffer buffer, final int length)
    {
        while (publication.offer(buffer, 0, length) < 0)
        {
            Thread.yield();
        }
    }
}
