package io.bourse.mdpublisher;

import io.bourse.common.EngineNumbering;
import io.bourse.common.config.Symbols;
import io.bourse.common.metrics.ErrorKinds;
import io.bourse.sbe.engine.AdminResponseCode;
import io.bourse.sbe.engine.BookUpdate;
import io.bourse.sbe.engine.BreakTradeEncoder;
import io.bourse.sbe.engine.CrossCompletedEncoder;
import io.bourse.sbe.engine.MessageHeaderEncoder;
import io.bourse.sbe.engine.OrderAddedEncoder;
import io.bourse.sbe.engine.OrderExecutedEncoder;
import io.bourse.sbe.engine.OrderReplacedEncoder;
import io.bourse.sbe.engine.RunStartedEncoder;
import io.bourse.sbe.engine.SetTradingStateEncoder;
import io.bourse.sbe.engine.TradingState;
import io.bourse.sbe.engine.TradingStateChangedEncoder;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import org.junit.jupiter.api.Test;

import java.nio.ByteOrder;

import static io.bourse.mdpublisher.MarketDataEvents.AddOrder;
import static io.bourse.mdpublisher.MarketDataEvents.Bbo;
import static io.bourse.mdpublisher.MarketDataEvents.CrossTrade;
import static io.bourse.mdpublisher.MarketDataEvents.Delete;
import static io.bourse.mdpublisher.MarketDataEvents.Executed;
import static io.bourse.mdpublisher.MarketDataEvents.ExecutedWithPrice;
import static io.bourse.mdpublisher.MarketDataEvents.Level;
import static io.bourse.mdpublisher.MarketDataEvents.Trade;
import static io.bourse.mdpublisher.MarketDataEvents.TradingAction;
import static io.bourse.sbe.engine.Side.BUY;
import static io.bourse.sbe.engine.Side.SELL;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The engine events of schema version 2 (the closing cross, midpoint peg priority updates, trading state changes)
 * through the md-publisher's engine-event adapter and market-data books: SBE engine events, as a shard encodes them,
 * in; market data out, with the event counters.
 */
class EngineEventAdapterTest
{
    private static final long T1 = 57_300_000_000_000L;
    private static final long T2 = T1 + 1_000;
    private static final long T3 = T1 + 2_000;
    private static final long CROSS_PRICE = 1_500_300;

    private final EngineEventEncoder engine = new EngineEventEncoder();
    private final MarketDataEvents events = new MarketDataEvents();
    private final ErrorKinds<MdPublisherError> errors = new ErrorKinds<>("md-publisher", MdPublisherError.class);
    private final PrometheusRegistry registry = new PrometheusRegistry();
    private final MarketDataBooks books =
        new MarketDataBooks(
            new long[]{Symbols.pack("AAPL"), Symbols.pack("MSFT")}, MarketDataBooks.FULL_DEPTH, events, errors);
    /** AAPL on shard 0, MSFT on shard 1. */
    private final EngineEventAdapter adapter = new EngineEventAdapter(books,
        new long[][]{{Symbols.pack("AAPL")}, {Symbols.pack("MSFT")}}, new MdPublisherMetrics(registry, errors), errors);

    @Test
    void shouldAttributeTheAddOrderOfAnAttributableOrderToItsFirmAndNoOther()
    {
        onEvent(engine.orderAdded(T1, "AAPL", 17, SELL, 300, 1_500_100, 'A', "GSCO"));
        onEvent(engine.orderAdded(T1, "AAPL", 18, SELL, 200, 1_500_200, 'Y', "GSCO"));
        onEvent(engine.orderAdded(T1, "AAPL", 19, BUY, 100, 1_499_900, 'A', "    "));
        onEvent(engine.orderReplaced(T2, "AAPL", 17, 20, SELL, 250, 1_500_000, BookUpdate.REPLACED));

        final int gsco = 0x4753_434F;
        assertThat(events.drain()).filteredOn((message) -> message instanceof AddOrder).containsExactly(
            new AddOrder(T1, "AAPL", 17, Side.SELL, 300, 1_500_100, gsco),
            new AddOrder(T1, "AAPL", 18, Side.SELL, 200, 1_500_200),
            new AddOrder(T1, "AAPL", 19, Side.BUY, 100, 1_499_900));
        assertThat(books.book(Symbols.pack("AAPL")).levels(Side.SELL).best().first.attribution)
            .as("the replacing order keeps the attribution").isEqualTo(gsco);
        assertThat(errors.total()).isEqualTo(0);
    }

    /** Displayed: sell 17 for 300 at 150.01 and sell 18 for 200 at 150.02; bid 19 for 100 at 149.99. */
    private void restContinuousBook()
    {
        onEvent(engine.orderAdded(T1, "AAPL", 17, SELL, 300, 1_500_100, 'Y'));
        onEvent(engine.orderAdded(T1, "AAPL", 18, SELL, 200, 1_500_200, 'A'));
        onEvent(engine.orderAdded(T1, "AAPL", 19, BUY, 100, 1_499_900, 'Y'));
        events.drain();
    }

    @Test
    void shouldPublishNonPrintableExecutionWithPriceThenLevelAndBboWhenADisplayedOrderIsPartlyExecutedInTheCross()
    {
        restContinuousBook();

        onEvent(engine.crossExecuted(T2, "AAPL", 33, 100, CROSS_PRICE, SELL, 40, 17, 200));

        // No trade: the Cross Trade carries the cross's volume. The level is the order's own price, not the cross's.
        assertThat(events.drain()).containsExactly(
            new ExecutedWithPrice(T2, "AAPL", 17, 100, 33, false, CROSS_PRICE),
            new Level(T2, "AAPL", Side.SELL, 1_500_100, 200, 1),
            new Bbo(T2, "AAPL", 1_499_900, 100, 1_500_100, 200));
        assertThat(books.openOrderCount()).isEqualTo(3);
        assertThat(errors.total()).isEqualTo(0);
    }

    @Test
    void shouldRemoveTheOrderAndRevealTheNextLevelWhenADisplayedOrderIsFullyExecutedInTheCross()
    {
        restContinuousBook();

        onEvent(engine.crossExecuted(T2, "AAPL", 33, 300, CROSS_PRICE, SELL, 40, 17, 0));
        onEvent(engine.crossExecuted(T2, "AAPL", 34, 100, CROSS_PRICE, BUY, 41, 19, 0));

        assertThat(events.drain()).containsExactly(
            new ExecutedWithPrice(T2, "AAPL", 17, 300, 33, false, CROSS_PRICE),
            new Level(T2, "AAPL", Side.SELL, 1_500_100, 0, 0),
            new Bbo(T2, "AAPL", 1_499_900, 100, 1_500_200, 200),
            new ExecutedWithPrice(T2, "AAPL", 19, 100, 34, false, CROSS_PRICE),
            new Level(T2, "AAPL", Side.BUY, 1_499_900, 0, 0),
            new Bbo(T2, "AAPL", 0, 0, 1_500_200, 200));
        assertThat(books.openOrderCount()).isEqualTo(1);
        assertThat(errors.total()).isEqualTo(0);
    }

    @Test
    void shouldPublishNothingAndForgetTheOrderWhenItFillsWhenAMakerThatIsNotDisplayedExecutesInTheCross()
    {
        restContinuousBook();
        onEvent(engine.orderAdded(T1, "AAPL", 20, SELL, 500, 1_500_000, 'N'));

        onEvent(engine.crossExecuted(T2, "AAPL", 33, 200, CROSS_PRICE, SELL, 40, 20, 300));
        assertThat(books.hiddenOrderCount()).isEqualTo(1);
        onEvent(engine.crossExecuted(T2, "AAPL", 34, 300, CROSS_PRICE, SELL, 41, 20, 0));

        assertThat(events.drain()).isEmpty();
        assertThat(books.hiddenOrderCount()).isZero();
        assertThat(books.openOrderCount()).isEqualTo(3);
        assertThat(errors.total()).isEqualTo(0);
    }

    @Test
    void shouldPublishNothingWhenTwoClosingCrossOrdersExecute()
    {
        restContinuousBook();

        // The maker of a cross-versus-cross fill is the closing-cross sell, in no market-data book.
        onEvent(engine.crossExecuted(T2, "AAPL", 33, 400, CROSS_PRICE, SELL, 40, 98, 100));
        onEvent(engine.crossExecuted(T2, "AAPL", 34, 100, CROSS_PRICE, SELL, 41, 98, 0));

        assertThat(events.drain()).isEmpty();
        assertThat(books.openOrderCount()).isEqualTo(3);
        assertThat(errors.total()).isEqualTo(0);
        assertThat(Counters.value(registry, "bourse_md_events_in", "executed")).isEqualTo(2);
    }

    @Test
    void shouldPublishCrossTradeWithThePriceSharesAndMatchNumberWhenTheCrossCompletes()
    {
        onEvent(engine.crossCompleted(T3, "AAPL", CROSS_PRICE, 5_000_000_000L, 65));

        assertThat(events.drain()).containsExactly(new CrossTrade(T3, "AAPL", 5_000_000_000L, CROSS_PRICE, 65));
        assertThat(Counters.value(registry, "bourse_md_events_in", "cross_completed")).isEqualTo(1);
        assertThat(errors.total()).isEqualTo(0);
    }

    @Test
    void shouldPublishCrossTradeOfNothingWhenTheCrossExecutedNothing()
    {
        onEvent(engine.crossCompleted(T3, "MSFT", 0, 0, 0));

        assertThat(events.drain()).containsExactly(new CrossTrade(T3, "MSFT", 0, 0, 0));
        assertThat(errors.total()).isEqualTo(0);
    }

    @Test
    void shouldPublishStockTradingActionHaltedByOperationsWhenHaltedOrClosedAndTradingWhenOpenAgain()
    {
        restContinuousBook();
        onEvent(engine.tradingStateChanged(T1, "AAPL", TradingState.HALTED));
        onEvent(engine.tradingStateChanged(T2, "AAPL", TradingState.OPEN));
        onEvent(engine.tradingStateChanged(T3, "MSFT", TradingState.CLOSED));

        assertThat(events.drain()).containsExactly(
            new TradingAction(T1, "AAPL", 'H', "O1  "),
            new TradingAction(T2, "AAPL", 'T', "    "),
            new TradingAction(T3, "MSFT", 'H', "O1  "));
        assertThat(books.openOrderCount()).isEqualTo(3);
        assertThat(Counters.value(registry, "bourse_md_events_in", "trading_state_changed")).isEqualTo(3);
        assertThat(errors.total()).isEqualTo(0);

        onEvent(engine.tradingStateChanged(T3, "GOOG", TradingState.HALTED));
        final int invalid = engine.tradingStateChanged(T3, "AAPL", TradingState.HALTED);
        engine.buffer.putByte(MessageHeaderEncoder.ENCODED_LENGTH + TradingStateChangedEncoder.stateEncodingOffset(),
            (byte)7);
        adapter.onFragment(engine.buffer, 0, invalid, null);

        assertThat(events.drain()).isEmpty();
        assertThat(errors.total()).isEqualTo(2);
    }

    @Test
    void shouldPublishTheWholeCrossWhenContinuousHiddenAndClosingCrossOrdersExecuteTogether()
    {
        restContinuousBook();
        onEvent(engine.orderAdded(T1, "AAPL", 20, SELL, 200, 1_500_000, 'N'));
        // Closing-cross orders: accepted, never added; a pending cancel and a refused one change nothing.
        onEvent(engine.orderAccepted(T1, "AAPL", 97, BUY, 1_500_500));
        onEvent(engine.cancelPending(T1, "AAPL", 97));
        onEvent(engine.cancelRejected(T1, "AAPL", 97));
        onEvent(engine.crossOrderReplaced(T1, "AAPL", 98, 99, SELL, 100, 1_500_300));

        onEvent(engine.crossExecuted(T2, "AAPL", 33, 200, CROSS_PRICE, SELL, 97, 20, 0));
        onEvent(engine.crossExecuted(T2, "AAPL", 34, 300, CROSS_PRICE, SELL, 97, 17, 0));
        onEvent(engine.crossExecuted(T2, "AAPL", 35, 100, CROSS_PRICE, SELL, 97, 99, 0));
        onEvent(engine.crossCompleted(T2, "AAPL", CROSS_PRICE, 600, 36));
        // The continuous market goes on after the cross.
        onEvent(engine.orderExecuted(T3, "AAPL", 37, 50, 1_500_200, BUY, 100, 18, 150));

        assertThat(events.drain()).containsExactly(
            new ExecutedWithPrice(T2, "AAPL", 17, 300, 34, false, CROSS_PRICE),
            new Level(T2, "AAPL", Side.SELL, 1_500_100, 0, 0),
            new Bbo(T2, "AAPL", 1_499_900, 100, 1_500_200, 200),
            new CrossTrade(T2, "AAPL", 600, CROSS_PRICE, 36),
            new Executed(T3, "AAPL", 18, 50, 37, 1_500_200),
            new Trade(T3, "AAPL", 37, Side.BUY, 50, 1_500_200, true),
            new Level(T3, "AAPL", Side.SELL, 1_500_200, 150, 1),
            new Bbo(T3, "AAPL", 1_499_900, 100, 1_500_200, 150));
        assertThat(books.openOrderCount()).isEqualTo(2);
        assertThat(books.hiddenOrderCount()).isZero();
        assertThat(errors.total()).isEqualTo(0);
        assertThat(Counters.value(registry, "bourse_md_events_in", "added")).isEqualTo(4);
        assertThat(Counters.value(registry, "bourse_md_events_in", "accepted")).isEqualTo(1);
        assertThat(Counters.value(registry, "bourse_md_events_in", "cancel_pending")).isEqualTo(1);
        assertThat(Counters.value(registry, "bourse_md_events_in", "cancel_rejected")).isEqualTo(1);
        assertThat(Counters.value(registry, "bourse_md_events_in", "replaced")).isEqualTo(1);
        assertThat(Counters.value(registry, "bourse_md_events_in", "executed")).isEqualTo(4);
        assertThat(Counters.value(registry, "bourse_md_events_in", "cross_completed")).isEqualTo(1);
    }

    @Test
    void shouldTreatAnExecutionOfAVersion1ShardAsContinuous()
    {
        restContinuousBook();
        final int length = engine.orderExecuted(T2, "AAPL", 33, 100, 1_500_100, BUY, 40, 17, 200);
        // Version 1: the block ends before crossType.
        engine.buffer.putShort(0, (short)OrderExecutedEncoder.crossTypeEncodingOffset(), ByteOrder.LITTLE_ENDIAN);
        engine.buffer.putShort(6, (short)1, ByteOrder.LITTLE_ENDIAN);

        onEvent(length - 1);

        assertThat(events.drain()).containsExactly(
            new Executed(T2, "AAPL", 17, 100, 33, 1_500_100),
            new Trade(T2, "AAPL", 33, Side.BUY, 100, 1_500_100, true),
            new Level(T2, "AAPL", Side.SELL, 1_500_100, 200, 1),
            new Bbo(T2, "AAPL", 1_499_900, 100, 1_500_100, 200));
        assertThat(errors.total()).isEqualTo(0);
    }

    @Test
    void shouldCountAndSkipAnEventWhoseBlockIsShorterThanTheFieldsOfItsVersion()
    {
        restContinuousBook();
        final int version = OrderExecutedEncoder.SCHEMA_VERSION;
        final int executed = engine.orderExecuted(T2, "AAPL", 33, 100, 1_500_100, BUY, 40, 17, 200);
        onEvent(executed, version, OrderExecutedEncoder.crossTypeEncodingOffset());
        final int added = engine.orderAdded(T2, "AAPL", 20, BUY, 100, 1_499_800, 'Y', "GSCO");
        onEvent(added, OrderAddedEncoder.firmSinceVersion(), OrderAddedEncoder.firmEncodingOffset());

        assertThat(events.drain())
            .as("a version 3 OrderAdded without its firm, a version 9 OrderExecuted without its crossType").isEmpty();
        assertThat(books.openOrderCount()).isEqualTo(3);
        assertThat(errors.count(MdPublisherError.UNREADABLE_EVENT)).isEqualTo(2);

        onEvent(engine.orderAdded(T2, "AAPL", 20, BUY, 100, 1_499_800, 'Y', "GSCO"),
            OrderAddedEncoder.firmSinceVersion() - 1, OrderAddedEncoder.firmEncodingOffset());

        assertThat(events.drain()).as("a version 2 shard's, which has no firm").containsExactly(
            new AddOrder(T2, "AAPL", 20, Side.BUY, 100, 1_499_800),
            new Level(T2, "AAPL", Side.BUY, 1_499_800, 100, 1));
        assertThat(errors.total()).isEqualTo(2);
    }

    /** Hands on the event encoded last as one of that version with that block, in a fragment of that block. */
    private void onEvent(final int length, final int version, final int blockLength)
    {
        new MessageHeaderEncoder().wrap(engine.buffer, 0).version(version).blockLength(blockLength);
        onEvent(Math.min(length, MessageHeaderEncoder.ENCODED_LENGTH + blockLength));
    }

    @Test
    void shouldCountAnErrorAndPublishNothingWhenACrossTypeIsNotOneTheEngineSendsOrTheSymbolIsUnknown()
    {
        restContinuousBook();

        final int executed = engine.crossExecuted(T2, "AAPL", 33, 100, CROSS_PRICE, SELL, 40, 17, 200);
        engine.buffer.putByte(MessageHeaderEncoder.ENCODED_LENGTH + OrderExecutedEncoder.crossTypeEncodingOffset(),
            (byte)'O');
        onEvent(executed);
        final int replaced = engine.crossOrderReplaced(T2, "AAPL", 98, 99, SELL, 100, 1_500_300);
        engine.buffer.putByte(MessageHeaderEncoder.ENCODED_LENGTH + OrderReplacedEncoder.crossTypeEncodingOffset(),
            (byte)'H');
        onEvent(replaced);
        final int completed = engine.crossCompleted(T3, "AAPL", CROSS_PRICE, 100, 65);
        engine.buffer.putByte(MessageHeaderEncoder.ENCODED_LENGTH + CrossCompletedEncoder.crossTypeEncodingOffset(),
            (byte)'N');
        onEvent(completed);
        onEvent(engine.crossCompleted(T3, "GOOG", CROSS_PRICE, 100, 66));
        onEvent(engine.crossExecuted(T3, "GOOG", 67, 100, CROSS_PRICE, SELL, 40, 98, 0));

        assertThat(events.drain()).isEmpty();
        assertThat(errors.total()).isEqualTo(5);
        assertThat(errors.count(MdPublisherError.INVALID_EVENT)).as("the three cross types").isEqualTo(3);
        assertThat(errors.count(MdPublisherError.UNKNOWN_SYMBOL)).isEqualTo(2);
        assertThat(books.openOrderCount()).isEqualTo(3);
    }

    @Test
    void shouldLeaveTheBookAsItWasWhenAClosingCrossOrderIsAcceptedCanceledOrReplaced()
    {
        restContinuousBook();

        onEvent(engine.orderAccepted(T2, "AAPL", 97, SELL, 1_499_900));
        onEvent(engine.cancelPending(T2, "AAPL", 97));
        onEvent(engine.cancelRejected(T2, "AAPL", 97));
        onEvent(engine.crossOrderReplaced(T2, "AAPL", 97, 99, SELL, 100, 1_499_800));
        onEvent(engine.orderAdded(T3, "AAPL", 100, BUY, 100, 1_499_800, 'Y'));

        assertThat(events.drain()).containsExactly(
            new AddOrder(T3, "AAPL", 100, Side.BUY, 100, 1_499_800),
            new Level(T3, "AAPL", Side.BUY, 1_499_800, 100, 1));
        assertThat(errors.total()).isEqualTo(0);
        assertThat(Counters.value(registry, "bourse_md_events_in", "cancel_pending")).isEqualTo(1);
        assertThat(Counters.value(registry, "bourse_md_events_in", "cancel_rejected")).isEqualTo(1);
        assertThat(Counters.value(registry, "bourse_md_events_in", "replaced")).isEqualTo(1);
    }

    @Test
    void shouldCountAndIgnoreThePriorityUpdateOfAMidpointPeg()
    {
        restContinuousBook();
        onEvent(engine.orderAdded(T1, "AAPL", 20, BUY, 100, 1_500_000, 'M'));

        onEvent(engine.orderPriorityUpdated(T2, "AAPL", 20, BUY, 1_500_000));
        onEvent(engine.orderExecuted(T3, "AAPL", 33, 100, 1_500_000, SELL, 40, 20, 0));

        assertThat(events.drain()).containsExactly(new Trade(T3, "AAPL", 33, Side.SELL, 100, 1_500_000, false));
        assertThat(books.hiddenOrderCount()).isZero();
        assertThat(errors.total()).isEqualTo(0);
        assertThat(Counters.value(registry, "bourse_md_events_in", "order_priority_updated")).isEqualTo(1);
    }

    @Test
    void shouldSkipTheShardsAnswerToAnAdminCommandAndWhereItsRunJoinedACommandStreamWithoutMarketDataOrAnError()
    {
        restContinuousBook();

        onEvent(engine.adminResponse(T1, SetTradingStateEncoder.TEMPLATE_ID, "AAPL", AdminResponseCode.OK));
        onEvent(engine.adminResponse(T2, BreakTradeEncoder.TEMPLATE_ID, "MSFT", AdminResponseCode.UNKNOWN_SYMBOL));
        onEvent(engine.commandStreamJoined(0, 42, 4_096));

        assertThat(events.drain()).isEmpty();
        assertThat(books.openOrderCount()).isEqualTo(3);
        assertThat(errors.total()).isEqualTo(0);
    }

    @Test
    void shouldDeleteTheEarlierRunsOrdersOfTheShardsBooksAndTradeThemWhenItsNewRunRecoveredNoEarlierRun()
    {
        final long base = 100; // the new runs' number base: the earlier runs numbered below its first number
        final long first = EngineNumbering.firstOfRun(base);
        restContinuousBook();
        onEvent(engine.orderAdded(T1, "AAPL", 20, SELL, 500, 1_500_000, 'N'));
        onEvent(engine.orderAdded(T1, "MSFT", 21, BUY, 100, 4_000_000, 'Y'));
        onEvent(engine.orderAdded(T1, "MSFT", 22, BUY, 100, 4_000_100, 'N'));
        onEvent(engine.tradingStateChanged(T1, "AAPL", TradingState.HALTED));
        events.drain();

        onEvent(engine.runStarted(T2, 0, 3, base));
        onEvent(engine.runStarted(T2, 1, 0, base));

        assertThat(events.drain()).as("shard 0's run holds its earlier runs' orders; shard 1's does not")
            .containsExactly(
                new Delete(T2, "MSFT", 21),
                new Level(T2, "MSFT", Side.BUY, 4_000_000, 0, 0),
                new Bbo(T2, "MSFT", 0, 0, 0, 0));
        assertThat(books.openOrderCount()).isEqualTo(3);
        assertThat(books.hiddenOrderCount()).isEqualTo(1);

        onEvent(engine.runStarted(T3, 0, 0, base));

        assertThat(events.drain()).containsExactly(
            new Delete(T3, "AAPL", 19),
            new Level(T3, "AAPL", Side.BUY, 1_499_900, 0, 0),
            new Delete(T3, "AAPL", 17),
            new Delete(T3, "AAPL", 18),
            new Level(T3, "AAPL", Side.SELL, 1_500_100, 0, 0),
            new Level(T3, "AAPL", Side.SELL, 1_500_200, 0, 0),
            new Bbo(T3, "AAPL", 0, 0, 0, 0),
            new TradingAction(T3, "AAPL", 'T', "    "));
        assertThat(books.openOrderCount()).isZero();
        assertThat(books.hiddenOrderCount()).isZero();
        assertThat(Counters.value(registry, "bourse_md_events_in", "run_started")).isEqualTo(3);
        assertThat(errors.total()).isEqualTo(0);

        onEvent(engine.orderAdded(T3, "AAPL", first, SELL, 100, 1_500_100, 'Y'));
        onEvent(engine.orderAdded(T3, "AAPL", first + 16, SELL, 100, 1_500_200, 'N'));
        events.drain();
        onEvent(engine.runStarted(T3, 0, 0, base));

        assertThat(events.drain()).as("heard again: the orders the run numbered itself stay").isEmpty();
        assertThat(books.openOrderCount()).isEqualTo(1);
        assertThat(books.hiddenOrderCount()).isEqualTo(1);
        assertThat(errors.total()).isEqualTo(0);

        onEvent(engine.runStarted(T3, 2, 0, base));

        assertThat(events.drain()).isEmpty();
        assertThat(errors.total()).as("a shard the md-publisher does not know").isEqualTo(1);

        engine.runStarted(T3, 0, 0, 2 * base);
        final int truncated = RunStartedEncoder.recoveredRunsEncodingOffset();
        new MessageHeaderEncoder().wrap(engine.buffer, 0).blockLength(truncated);
        onEvent(MessageHeaderEncoder.ENCODED_LENGTH + truncated);

        assertThat(events.drain()).isEmpty();
        assertThat(books.openOrderCount()).isEqualTo(1);
        assertThat(errors.total()).as("a RunStarted whose block ends before its recoveredRuns").isEqualTo(2);
    }

    private void onEvent(final int length)
    {
        adapter.onFragment(engine.buffer, 0, length, null);
    }
}
