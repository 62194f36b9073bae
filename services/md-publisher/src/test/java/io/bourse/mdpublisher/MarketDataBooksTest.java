package io.bourse.mdpublisher;

import io.bourse.common.metrics.ErrorKinds;
import io.bourse.common.config.Symbols;
import io.bourse.common.time.MidnightNanoClock;
import org.junit.jupiter.api.Test;


import static io.bourse.mdpublisher.MarketDataEvents.AddOrder;
import static io.bourse.mdpublisher.MarketDataEvents.Bbo;
import static io.bourse.mdpublisher.MarketDataEvents.Broken;
import static io.bourse.mdpublisher.MarketDataEvents.Cancel;
import static io.bourse.mdpublisher.MarketDataEvents.Delete;
import static io.bourse.mdpublisher.MarketDataEvents.Executed;
import static io.bourse.mdpublisher.MarketDataEvents.Level;
import static io.bourse.mdpublisher.MarketDataEvents.Replace;
import static io.bourse.mdpublisher.MarketDataEvents.Trade;
import static io.bourse.mdpublisher.MarketDataEvents.TradingAction;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class MarketDataBooksTest
{
    private static final long AAPL = Symbols.pack("AAPL");
    private static final long MSFT = Symbols.pack("MSFT");
    private static final long T1 = 34_200_000_000_000L;
    private static final long T2 = T1 + 1_000;
    private static final long T3 = T1 + 2_000;
    private static final long TAKER = 1_001;

    private final MarketDataEvents events = new MarketDataEvents();
    private final ErrorKinds<MdPublisherError> errors = new ErrorKinds<>("md-publisher", MdPublisherError.class);
    private final MarketDataBooks books = new MarketDataBooks(
        new long[]{AAPL, MSFT}, MarketDataBooks.FULL_DEPTH, events, errors);

    @Test
    void shouldPublishAddOrderLevelAndBboWhenOrderRests()
    {
        books.onOrderAdded(T1, 17, AAPL, Side.BUY, 100, 1_500_000, true, 0);

        assertThat(events.drain()).containsExactly(
            new AddOrder(T1, "AAPL", 17, Side.BUY, 100, 1_500_000),
            new Level(T1, "AAPL", Side.BUY, 1_500_000, 100, 1),
            new Bbo(T1, "AAPL", 1_500_000, 100, 0, 0));
        assertThat(errors.total()).isEqualTo(0);
    }

    @Test
    void shouldPublishBrokenTradeAndLeaveTheBookWhenATradeIsBroken()
    {
        books.onOrderAdded(T1, 17, AAPL, Side.SELL, 100, 1_500_100, true, 0);
        books.onOrderExecuted(T2, 33, AAPL, 40, 1_500_100, Side.BUY, 49, 0, 17, 60);
        events.drain();

        books.onTradeBroken(T3, 33, AAPL);
        books.onTradeBroken(T3, 34, Symbols.pack("GOOG"));
        books.onOrderCanceled(T3, 17, AAPL, 60, 0, true);

        assertThat(events.drain()).containsExactly(
            new Broken(T3, "AAPL", 33),
            new Delete(T3, "AAPL", 17),
            new Level(T3, "AAPL", Side.SELL, 1_500_100, 0, 0),
            new Bbo(T3, "AAPL", 0, 0, 0, 0));
        assertThat(errors.total()).isEqualTo(1);
    }

    @Test
    void shouldPublishBboOnlyWhenTheBestChanges()
    {
        books.onOrderAdded(T1, 17, AAPL, Side.SELL, 100, 1_500_100, true, 0);
        events.drain();

        books.onOrderAdded(T2, 33, AAPL, Side.SELL, 200, 1_500_200, true, 0);
        books.onOrderAdded(T3, 49, AAPL, Side.SELL, 300, 1_500_100, true, 0);

        assertThat(events.drain()).containsExactly(
            new AddOrder(T2, "AAPL", 33, Side.SELL, 200, 1_500_200),
            new Level(T2, "AAPL", Side.SELL, 1_500_200, 200, 1),
            new AddOrder(T3, "AAPL", 49, Side.SELL, 300, 1_500_100),
            new Level(T3, "AAPL", Side.SELL, 1_500_100, 400, 2),
            new Bbo(T3, "AAPL", 0, 0, 1_500_100, 400));
    }

    @Test
    void shouldKeepSymbolsApart()
    {
        books.onOrderAdded(T1, 17, AAPL, Side.BUY, 100, 1_500_000, true, 0);
        events.drain();

        books.onOrderAdded(T2, 18, MSFT, Side.BUY, 100, 4_000_000, true, 0);

        assertThat(events.drain()).containsExactly(
            new AddOrder(T2, "MSFT", 18, Side.BUY, 100, 4_000_000),
            new Level(T2, "MSFT", Side.BUY, 4_000_000, 100, 1),
            new Bbo(T2, "MSFT", 4_000_000, 100, 0, 0));
    }

    @Test
    void shouldPublishExecutionTradeMarkedMakerDisplayedLevelAndBboWhenMakerIsPartiallyFilled()
    {
        books.onOrderAdded(T1, 17, AAPL, Side.SELL, 300, 1_500_100, true, 0);
        events.drain();

        books.onOrderExecuted(T2, 5, AAPL, 100, 1_500_100, Side.BUY, TAKER, 0, 17, 200);

        assertThat(events.drain()).containsExactly(
            new Executed(T2, "AAPL", 17, 100, 5, 1_500_100),
            new Trade(T2, "AAPL", 5, Side.BUY, 100, 1_500_100, true),
            new Level(T2, "AAPL", Side.SELL, 1_500_100, 200, 1),
            new Bbo(T2, "AAPL", 0, 0, 1_500_100, 200));
        assertThat(books.openOrderCount()).isEqualTo(1);
        assertThat(errors.total()).isEqualTo(0);
    }

    @Test
    void shouldRemoveMakerAndRevealNextLevelWhenMakerIsFullyFilled()
    {
        books.onOrderAdded(T1, 17, AAPL, Side.BUY, 100, 1_500_000, true, 0);
        books.onOrderAdded(T1, 33, AAPL, Side.BUY, 200, 1_499_900, true, 0);
        events.drain();

        books.onOrderExecuted(T2, 5, AAPL, 100, 1_500_000, Side.SELL, TAKER, 0, 17, 0);

        assertThat(events.drain()).containsExactly(
            new Executed(T2, "AAPL", 17, 100, 5, 1_500_000),
            new Trade(T2, "AAPL", 5, Side.SELL, 100, 1_500_000, true),
            new Level(T2, "AAPL", Side.BUY, 1_500_000, 0, 0),
            new Bbo(T2, "AAPL", 1_499_900, 200, 0, 0));
        assertThat(books.openOrderCount()).isEqualTo(1);
        assertThat(errors.total()).isEqualTo(0);
    }

    @Test
    void shouldPublishOrderCancelWhenPartiallyCanceled()
    {
        books.onOrderAdded(T1, 17, AAPL, Side.BUY, 300, 1_500_000, true, 0);
        events.drain();

        books.onOrderCanceled(T2, 17, AAPL, 100, 200, true);

        assertThat(events.drain()).containsExactly(
            new Cancel(T2, "AAPL", 17, 100),
            new Level(T2, "AAPL", Side.BUY, 1_500_000, 200, 1),
            new Bbo(T2, "AAPL", 1_500_000, 200, 0, 0));
    }

    @Test
    void shouldPublishOrderDeleteWhenCanceledToZero()
    {
        books.onOrderAdded(T1, 17, AAPL, Side.SELL, 300, 1_500_100, true, 0);
        books.onOrderAdded(T1, 33, AAPL, Side.SELL, 100, 1_500_100, true, 0);
        events.drain();

        books.onOrderCanceled(T2, 17, AAPL, 300, 0, true);

        assertThat(events.drain()).containsExactly(
            new Delete(T2, "AAPL", 17),
            new Level(T2, "AAPL", Side.SELL, 1_500_100, 100, 1),
            new Bbo(T2, "AAPL", 0, 0, 1_500_100, 100));
        assertThat(books.openOrderCount()).isEqualTo(1);
    }

    @Test
    void shouldPublishNothingWhenCanceledOrderNeverRested()
    {
        books.onOrderCanceled(T1, 17, AAPL, 100, 0, false);

        assertThat(events.drain()).isEmpty();
        assertThat(errors.total()).isEqualTo(0);
    }

    @Test
    void shouldPublishOrderReplaceAndTheLevelOnceWhenReplacedAtTheSamePriceWithFewerShares()
    {
        books.onOrderAdded(T1, 17, AAPL, Side.BUY, 300, 1_500_000, true, 0);
        books.onOrderAdded(T1, 33, AAPL, Side.BUY, 100, 1_500_000, true, 0);
        events.drain();

        books.onOrderReplaced(T2, 17, 49, AAPL, Side.BUY, 120, 1_500_000, ReplaceKind.REPLACED);

        assertThat(events.drain()).containsExactly(
            new Replace(T2, "AAPL", 17, 49, 120, 1_500_000),
            new Level(T2, "AAPL", Side.BUY, 1_500_000, 220, 2),
            new Bbo(T2, "AAPL", 1_500_000, 220, 0, 0));
        assertThat(errors.total()).isEqualTo(0);
    }

    @Test
    void shouldPublishOrderReplaceAndBothLevelsWhenReplacedAtNewPrice()
    {
        books.onOrderAdded(T1, 17, AAPL, Side.BUY, 100, 1_500_000, true, 0);
        books.onOrderAdded(T1, 33, AAPL, Side.BUY, 100, 1_499_900, true, 0);
        events.drain();

        books.onOrderReplaced(T2, 33, 49, AAPL, Side.BUY, 250, 1_500_100, ReplaceKind.REPLACED);

        assertThat(events.drain()).containsExactly(
            new Replace(T2, "AAPL", 33, 49, 250, 1_500_100),
            new Level(T2, "AAPL", Side.BUY, 1_499_900, 0, 0),
            new Level(T2, "AAPL", Side.BUY, 1_500_100, 250, 1),
            new Bbo(T2, "AAPL", 1_500_100, 250, 0, 0));

        books.onOrderCanceled(T3, 49, AAPL, 250, 0, true);

        assertThat(events.drain()).containsExactly(
            new Delete(T3, "AAPL", 49),
            new Level(T3, "AAPL", Side.BUY, 1_500_100, 0, 0),
            new Bbo(T3, "AAPL", 1_500_000, 100, 0, 0));
        assertThat(errors.total()).isEqualTo(0);
    }

    @Test
    void shouldPublishOneLevelWhenReplacedWithLargerSizeAtSamePrice()
    {
        books.onOrderAdded(T1, 17, AAPL, Side.SELL, 100, 1_500_100, true, 0);
        books.onOrderAdded(T1, 33, AAPL, Side.SELL, 100, 1_500_100, true, 0);
        events.drain();

        books.onOrderReplaced(T2, 17, 49, AAPL, Side.SELL, 300, 1_500_100, ReplaceKind.REPLACED);

        assertThat(events.drain()).containsExactly(
            new Replace(T2, "AAPL", 17, 49, 300, 1_500_100),
            new Level(T2, "AAPL", Side.SELL, 1_500_100, 400, 2),
            new Bbo(T2, "AAPL", 0, 0, 1_500_100, 400));
    }

    @Test
    void shouldPublishOrderDeleteThenAddWhenReplacementMatchedAndRests()
    {
        books.onOrderAdded(T1, 17, AAPL, Side.BUY, 100, 1_500_000, true, 0);
        books.onOrderAdded(T1, 33, AAPL, Side.SELL, 50, 1_500_100, true, 0);
        events.drain();

        books.onOrderReplaced(T2, 17, 49, AAPL, Side.BUY, 100, 1_500_100, ReplaceKind.REMOVED);
        books.onOrderExecuted(T2, 5, AAPL, 50, 1_500_100, Side.BUY, TAKER, 0, 33, 0);
        books.onOrderAdded(T2, 49, AAPL, Side.BUY, 50, 1_500_100, true, 0);

        assertThat(events.drain()).containsExactly(
            new Delete(T2, "AAPL", 17),
            new Level(T2, "AAPL", Side.BUY, 1_500_000, 0, 0),
            new Bbo(T2, "AAPL", 0, 0, 1_500_100, 50),
            new Executed(T2, "AAPL", 33, 50, 5, 1_500_100),
            new Trade(T2, "AAPL", 5, Side.BUY, 50, 1_500_100, true),
            new Level(T2, "AAPL", Side.SELL, 1_500_100, 0, 0),
            new Bbo(T2, "AAPL", 0, 0, 0, 0),
            new AddOrder(T2, "AAPL", 49, Side.BUY, 50, 1_500_100),
            new Level(T2, "AAPL", Side.BUY, 1_500_100, 50, 1),
            new Bbo(T2, "AAPL", 1_500_100, 50, 0, 0));
        assertThat(books.openOrderCount()).isEqualTo(1);
        assertThat(errors.total()).isEqualTo(0);
    }

    @Test
    void shouldPrintTradeMarkedMakerNotDisplayedAndCountErrorWhenMakerIsUnknown()
    {
        books.onOrderExecuted(T1, 5, AAPL, 100, 1_500_000, Side.SELL, TAKER, 0, 99, 0);

        assertThat(events.drain()).containsExactly(new Trade(T1, "AAPL", 5, Side.SELL, 100, 1_500_000, false));
        assertThat(errors.total()).isEqualTo(1);
    }

    @Test
    void shouldPublishNothingWhenAnOrderThatIsNotDisplayedRests()
    {
        books.onOrderAdded(T1, 17, AAPL, Side.BUY, 100, 1_500_000, true, 0);
        events.drain();

        books.onOrderAdded(T2, 33, AAPL, Side.BUY, 500, 1_500_000, false, 0);
        books.onOrderAdded(T2, 49, AAPL, Side.SELL, 500, 1_500_100, false, 0);

        assertThat(events.drain()).isEmpty();
        assertThat(books.openOrderCount()).isEqualTo(1);
        assertThat(books.hiddenOrderCount()).isEqualTo(2);
        assertThat(errors.total()).isEqualTo(0);
    }

    @Test
    void shouldPublishOnlyTheTradeMarkedMakerNotDisplayedWhenTheMakerIsNotDisplayed()
    {
        books.onOrderAdded(T1, 17, AAPL, Side.SELL, 100, 1_500_100, true, 0);
        books.onOrderAdded(T1, 33, AAPL, Side.SELL, 300, 1_500_100, false, 0);
        events.drain();

        books.onOrderExecuted(T2, 5, AAPL, 200, 1_500_100, Side.BUY, TAKER, 0, 33, 100);
        books.onOrderExecuted(T3, 6, AAPL, 100, 1_500_100, Side.BUY, TAKER + 1, 0, 33, 0);

        assertThat(events.drain()).containsExactly(
            new Trade(T2, "AAPL", 5, Side.BUY, 200, 1_500_100, false),
            new Trade(T3, "AAPL", 6, Side.BUY, 100, 1_500_100, false));
        assertThat(books.hiddenOrderCount()).isZero();
        assertThat(books.openOrderCount()).isEqualTo(1);
        assertThat(errors.total()).isEqualTo(0);
    }

    @Test
    void shouldIgnoreCancelsAndReplacesOfAnOrderThatIsNotDisplayed()
    {
        books.onOrderAdded(T1, 17, AAPL, Side.BUY, 300, 1_500_000, false, 0);

        books.onOrderCanceled(T2, 17, AAPL, 100, 200, true);
        books.onOrderReplaced(T2, 17, 33, AAPL, Side.BUY, 150, 1_499_900, ReplaceKind.REPLACED);
        books.onOrderReplaced(T3, 33, 49, AAPL, Side.BUY, 150, 1_500_100, ReplaceKind.REMOVED);
        books.onOrderAdded(T3, 49, AAPL, Side.BUY, 150, 1_500_100, false, 0);
        books.onOrderCanceled(T3, 49, AAPL, 150, 0, true);

        assertThat(events.drain()).isEmpty();
        assertThat(books.hiddenOrderCount()).isZero();
        assertThat(errors.total()).isEqualTo(0);
    }

    @Test
    void shouldKeepAReplacedDisplayedOrderDisplayed()
    {
        books.onOrderAdded(T1, 17, AAPL, Side.SELL, 300, 1_500_100, true, 0);
        books.onOrderReplaced(T2, 17, 33, AAPL, Side.SELL, 300, 1_500_200, ReplaceKind.REPLACED);
        events.drain();

        books.onOrderExecuted(T3, 5, AAPL, 100, 1_500_200, Side.BUY, TAKER, 0, 33, 200);

        assertThat(events.drain()).containsExactly(
            new Executed(T3, "AAPL", 33, 100, 5, 1_500_200),
            new Trade(T3, "AAPL", 5, Side.BUY, 100, 1_500_200, true),
            new Level(T3, "AAPL", Side.SELL, 1_500_200, 200, 1),
            new Bbo(T3, "AAPL", 0, 0, 1_500_200, 200));
        assertThat(errors.total()).isEqualTo(0);
    }

    @Test
    void shouldForgetARestingMidpointPegWhenItFillsAsTheTaker()
    {
        books.onOrderAdded(T1, 17, AAPL, Side.SELL, 100, 1_500_100, true, 0);
        books.onOrderAdded(T1, 33, AAPL, Side.BUY, 100, 1_500_200, false, 0);
        events.drain();

        books.onOrderExecuted(T2, 5, AAPL, 100, 1_500_100, Side.BUY, 33, 0, 17, 0);

        assertThat(events.drain()).containsExactly(
            new Executed(T2, "AAPL", 17, 100, 5, 1_500_100),
            new Trade(T2, "AAPL", 5, Side.BUY, 100, 1_500_100, true),
            new Level(T2, "AAPL", Side.SELL, 1_500_100, 0, 0),
            new Bbo(T2, "AAPL", 0, 0, 0, 0));
        assertThat(books.hiddenOrderCount()).isZero();
        assertThat(books.openOrderCount()).isZero();
        assertThat(errors.total()).isEqualTo(0);
    }

    @Test
    void shouldCountErrorsWhenAnUnknownOrderIsCanceledOrReplaced()
    {
        books.onOrderCanceled(T1, 99, AAPL, 100, 50, true);
        books.onOrderReplaced(T1, 98, 95, AAPL, Side.BUY, 100, 1_500_000, ReplaceKind.REMOVED);
        books.onOrderReplaced(T1, 97, 96, AAPL, Side.BUY, 100, 1_500_000, ReplaceKind.REPLACED);

        assertThat(events.drain()).isEmpty();
        assertThat(errors.count(MdPublisherError.BOOK_MISMATCH)).isEqualTo(3);
    }

    @Test
    void shouldCountErrorAndPublishNothingWhenSymbolIsUnknownOrOrderIdIsTaken()
    {
        books.onOrderAdded(T1, 17, Symbols.pack("IBM"), Side.BUY, 100, 1_500_000, true, 0);
        books.onOrderAdded(T1, 33, AAPL, Side.BUY, 100, 1_500_000, true, 0);
        events.drain();

        books.onOrderAdded(T2, 33, AAPL, Side.BUY, 100, 1_500_000, true, 0);
        books.onOrderCanceled(T2, 99, AAPL, 100, 0, true);

        assertThat(events.drain()).isEmpty();
        assertThat(errors.count(MdPublisherError.UNKNOWN_SYMBOL)).as("IBM").isEqualTo(1);
        assertThat(errors.count(MdPublisherError.BOOK_MISMATCH)).as("order 33 added twice, order 99 canceled")
            .isEqualTo(2);
    }

    @Test
    void shouldReuseLevelsAndOrdersWhenBookEmptiesAndRefills()
    {
        for (int round = 0; round < 3; round++)
        {
            final long orderId = 100 + round;
            books.onOrderAdded(T1, orderId, AAPL, Side.BUY, 100, 1_500_000 + round, true, 0);
            books.onOrderCanceled(T2, orderId, AAPL, 100, 0, true);

            assertThat(events.drain()).containsExactly(
                new AddOrder(T1, "AAPL", orderId, Side.BUY, 100, 1_500_000 + round),
                new Level(T1, "AAPL", Side.BUY, 1_500_000 + round, 100, 1),
                new Bbo(T1, "AAPL", 1_500_000 + round, 100, 0, 0),
                new Delete(T2, "AAPL", orderId),
                new Level(T2, "AAPL", Side.BUY, 1_500_000 + round, 0, 0),
                new Bbo(T2, "AAPL", 0, 0, 0, 0));
        }
        assertThat(books.openOrderCount()).isZero();
    }

    @Test
    void shouldStampTheRestingOrdersAndSetTradingStatesWithTheMidnightThatStartsANewDay()
    {
        final long midnight = MidnightNanoClock.NANOS_PER_DAY;
        books.onOrderAdded(T1, 1, AAPL, Side.BUY, 100, 1_500_000, true, 0);
        books.onOrderAdded(T2, 2, AAPL, Side.BUY, 200, 1_500_000, true, 0);
        books.onOrderAdded(T2, 3, AAPL, Side.SELL, 300, 1_500_100, true, 0);
        books.onOrderAdded(T2, 4, AAPL, Side.SELL, 400, 1_500_100, false, 0);
        books.onTradingStateChanged(T3, MSFT, io.bourse.sbe.engine.TradingState.HALTED);
        events.drain();

        books.startDay(midnight);

        assertThat(events.drain()).as("nothing published").isEmpty();
        books.publishBooks(new long[]{AAPL, MSFT}, midnight + 5);
        assertThat(events.drain()).as("time priority kept; AAPL's trading state never set").containsExactly(
            new AddOrder(midnight, "AAPL", 1, Side.BUY, 100, 1_500_000),
            new AddOrder(midnight, "AAPL", 2, Side.BUY, 200, 1_500_000),
            new AddOrder(midnight, "AAPL", 3, Side.SELL, 300, 1_500_100),
            new Level(midnight + 5, "AAPL", Side.BUY, 1_500_000, 300, 2),
            new Level(midnight + 5, "AAPL", Side.SELL, 1_500_100, 300, 1),
            new Bbo(midnight + 5, "AAPL", 1_500_000, 300, 1_500_100, 300),
            new TradingAction(midnight, "MSFT", 'H', "O1  "));
        assertThat(errors.total()).isEqualTo(0);
    }

    @Test
    void shouldPublishTheRebuiltBooksAsTheyStandInPriorityOrderWithinTheL2Window()
    {
        final MarketDataBooks top1 = new MarketDataBooks(new long[]{AAPL, MSFT}, 1, events, errors);
        top1.rebuilding(true);
        top1.onOrderAdded(T1, 1, AAPL, Side.BUY, 100, 1_499_900, true, 0);
        top1.onOrderAdded(T1, 2, AAPL, Side.BUY, 200, 1_500_000, true, 0);
        top1.onOrderAdded(T2, 3, AAPL, Side.BUY, 300, 1_500_000, true, 0x46524D31);
        top1.onOrderAdded(T2, 4, AAPL, Side.SELL, 400, 1_500_100, true, 0);
        top1.onOrderAdded(T2, 5, AAPL, Side.SELL, 500, 1_500_100, false, 0);
        top1.onOrderExecuted(T3, 33, AAPL, 150, 1_500_000, Side.SELL, 49, 0, 2, 50);
        top1.onOrderAdded(T2, 6, MSFT, Side.SELL, 10, 4_000_000, true, 0);
        top1.onTradingStateChanged(T3, MSFT, io.bourse.sbe.engine.TradingState.HALTED);
        top1.rebuilding(false);
        assertThat(events.drain()).as("nothing while rebuilding").isEmpty();
        assertThat(top1.holdsUnpublished(new long[]{AAPL, MSFT})).isTrue();

        assertThat(top1.publishBooks(new long[]{AAPL}, T3 + 1)).isEqualTo(4);
        assertThat(top1.holdsUnpublished(new long[]{AAPL})).isFalse();
        assertThat(top1.holdsUnpublished(new long[]{AAPL, MSFT})).isTrue();
        assertThat(events.drain()).as("one shard's symbols; bids best first, each level oldest first").containsExactly(
            new AddOrder(T1, "AAPL", 2, Side.BUY, 50, 1_500_000),
            new AddOrder(T2, "AAPL", 3, Side.BUY, 300, 1_500_000, 0x46524D31),
            new AddOrder(T1, "AAPL", 1, Side.BUY, 100, 1_499_900),
            new AddOrder(T2, "AAPL", 4, Side.SELL, 400, 1_500_100),
            new Level(T3 + 1, "AAPL", Side.BUY, 1_500_000, 350, 2),
            new Level(T3 + 1, "AAPL", Side.SELL, 1_500_100, 400, 1),
            new Bbo(T3 + 1, "AAPL", 1_500_000, 350, 1_500_100, 400));

        assertThat(top1.publishBooks(new long[]{MSFT, Symbols.pack("GOOG")}, T3 + 2)).isEqualTo(1);
        assertThat(events.drain()).containsExactly(
            new TradingAction(T3, "MSFT", 'H', "O1  "),
            new AddOrder(T2, "MSFT", 6, Side.SELL, 10, 4_000_000),
            new Level(T3 + 2, "MSFT", Side.SELL, 4_000_000, 10, 1),
            new Bbo(T3 + 2, "MSFT", 0, 0, 4_000_000, 10));
        assertThat(top1.holdsUnpublished(new long[]{AAPL, MSFT})).isFalse();
        assertThat(errors.total()).isEqualTo(0);
    }

    @Test
    void shouldPublishOnlyTheBestLevelsAndWhatEntersOrLeavesThemWhenL2DepthIsLimited()
    {
        final MarketDataBooks top2 = new MarketDataBooks(new long[]{AAPL}, 2, events, errors);
        top2.onOrderAdded(T1, 1, AAPL, Side.BUY, 100, 1_500_000, true, 0);
        top2.onOrderAdded(T1, 2, AAPL, Side.BUY, 200, 1_499_900, true, 0);
        assertThat(events.drain()).contains(
            new Level(T1, "AAPL", Side.BUY, 1_500_000, 100, 1),
            new Level(T1, "AAPL", Side.BUY, 1_499_900, 200, 1));

        top2.onOrderAdded(T1, 3, AAPL, Side.BUY, 300, 1_499_800, true, 0);
        top2.onOrderAdded(T1, 4, AAPL, Side.BUY, 50, 1_499_800, true, 0);
        assertThat(events.drain()).as("a third level is out of the window").containsExactly(
            new AddOrder(T1, "AAPL", 3, Side.BUY, 300, 1_499_800),
            new AddOrder(T1, "AAPL", 4, Side.BUY, 50, 1_499_800));

        top2.onOrderAdded(T2, 5, AAPL, Side.BUY, 10, 1_500_100, true, 0);
        assertThat(events.drain()).as("a better level pushes the second one out").containsExactly(
            new AddOrder(T2, "AAPL", 5, Side.BUY, 10, 1_500_100),
            new Level(T2, "AAPL", Side.BUY, 1_499_900, 0, 0),
            new Level(T2, "AAPL", Side.BUY, 1_500_100, 10, 1),
            new Bbo(T2, "AAPL", 1_500_100, 10, 0, 0));

        top2.onOrderCanceled(T2, 5, AAPL, 10, 0, true);
        top2.onOrderCanceled(T2, 1, AAPL, 100, 0, true);
        assertThat(events.drain()).as("the levels below move up, each with its aggregate").containsExactly(
            new Delete(T2, "AAPL", 5),
            new Level(T2, "AAPL", Side.BUY, 1_500_100, 0, 0),
            new Level(T2, "AAPL", Side.BUY, 1_499_900, 200, 1),
            new Bbo(T2, "AAPL", 1_500_000, 100, 0, 0),
            new Delete(T2, "AAPL", 1),
            new Level(T2, "AAPL", Side.BUY, 1_500_000, 0, 0),
            new Level(T2, "AAPL", Side.BUY, 1_499_800, 350, 2),
            new Bbo(T2, "AAPL", 1_499_900, 200, 0, 0));

        top2.onOrderAdded(T3, 6, AAPL, Side.BUY, 70, 1_499_700, true, 0);
        top2.onOrderReplaced(T3, 2, 7, AAPL, Side.BUY, 200, 1_499_600, ReplaceKind.REPLACED);
        assertThat(events.drain()).as("an order replaced out of the window, each level published once").containsExactly(
            new AddOrder(T3, "AAPL", 6, Side.BUY, 70, 1_499_700),
            new Replace(T3, "AAPL", 2, 7, 200, 1_499_600),
            new Level(T3, "AAPL", Side.BUY, 1_499_900, 0, 0),
            new Level(T3, "AAPL", Side.BUY, 1_499_700, 70, 1),
            new Bbo(T3, "AAPL", 1_499_800, 350, 0, 0));
        assertThat(errors.total()).isEqualTo(0);
    }

    @Test
    void shouldDeleteTheEarlierRunsOrdersAndPublishWhatChangedInTheL2WindowAtALimitedDepth()
    {
        final MarketDataBooks top2 = new MarketDataBooks(new long[]{AAPL}, 2, events, errors);
        top2.onOrderAdded(T1, 1, AAPL, Side.BUY, 100, 1_500_000, true, 0);
        top2.onOrderAdded(T1, 2, AAPL, Side.BUY, 200, 1_499_900, true, 0);
        top2.onOrderAdded(T1, 3, AAPL, Side.BUY, 300, 1_499_800, true, 0);
        top2.onOrderAdded(T1, 4, AAPL, Side.BUY, 50, 1_500_000, true, 0);
        top2.onOrderAdded(T1, 5, AAPL, Side.SELL, 10, 1_500_100, false, 0);
        top2.onOrderAdded(T2, 104, AAPL, Side.BUY, 70, 1_499_900, true, 0);
        top2.onOrderAdded(T2, 105, AAPL, Side.SELL, 10, 1_500_200, false, 0);
        events.drain();

        top2.onEarlierRunsLost(T3, new long[]{AAPL}, 100); // the run's first number

        assertThat(events.drain()).as("the run's own order 104 stays").containsExactly(
            new Delete(T3, "AAPL", 1),
            new Delete(T3, "AAPL", 4),
            new Delete(T3, "AAPL", 2),
            new Delete(T3, "AAPL", 3),
            new Level(T3, "AAPL", Side.BUY, 1_500_000, 0, 0),
            new Level(T3, "AAPL", Side.BUY, 1_499_900, 70, 1),
            new Bbo(T3, "AAPL", 1_499_900, 70, 0, 0));
        assertThat(top2.openOrderCount()).isEqualTo(1);
        assertThat(top2.hiddenOrderCount()).isEqualTo(1);

        top2.onEarlierRunsLost(T3, new long[]{MSFT}, 100);
        assertThat(events.drain()).isEmpty();
        assertThat(errors.total()).as("MSFT has no book here").isEqualTo(1);
    }

    @Test
    void shouldRefuseASymbolPackedAsZero()
    {
        assertThatThrownBy(() -> new MarketDataBooks(new long[]{AAPL, 0}, 0, events, errors))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessage("a symbol packed as 0 (8 NUL bytes) is no symbol");
    }
}
