package io.bourse.fanout;

import io.bourse.common.config.SymbolDirectory;
import io.bourse.itch.ItchEvents;
import io.bourse.itch.ItchReferenceData;
import io.bourse.itch.ItchTranslator;
import io.bourse.itch.MarketDataEncoder;
import io.bourse.sbe.md.BooleanType;
import io.bourse.sbe.md.Side;
import io.bourse.sbe.md.TradingState;
import org.agrona.ExpandableArrayBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.ByteBuffer;

import static io.bourse.itch.ItchEvents.AddOrder;
import static io.bourse.itch.ItchEvents.AddOrderMpid;
import static io.bourse.itch.ItchEvents.StockTradingAction;
import static org.assertj.core.api.Assertions.assertThat;

class ItchBookTest
{
    private static final long T = 34_200_000_000_000L;

    private final MarketDataEncoder sbe = new MarketDataEncoder();
    private static final SymbolDirectory SYMBOLS = SymbolDirectory.parse("AAPL@0,MSFT@1");
    /** Time of the Trading Action spin. */
    private static final long T0 = T - 1_000;

    private final ItchTranslator translator = new ItchTranslator(SYMBOLS);
    private final ByteBuffer itch = ByteBuffer.allocateDirect(ItchTranslator.MAX_LENGTH);
    private final ItchBook book = new ItchBook(new ItchReferenceData(SYMBOLS), T0);

    private void apply(final int sbeLength)
    {
        itch.clear();
        assertThat(translator.translate(sbe.buffer, 0, sbeLength, itch)).isPositive();
        book.apply(new UnsafeBuffer(itch), 0);
    }

    private ItchEvents snapshot(final boolean... symbolsByLocate)
    {
        final ExpandableArrayBuffer dst = new ExpandableArrayBuffer(8);
        final int length = book.snapshot(symbolsByLocate, dst);
        final ItchEvents events = new ItchEvents();
        for (int offset = 0; offset < length; )
        {
            final int messageLength = ItchBook.snapshotMessageLength(dst.getByte(offset));
            final ByteBuffer message = ByteBuffer.allocate(messageLength);
            dst.getBytes(offset, message, 0, messageLength);
            offset += messageLength;
            try
            {
                events.parser().message(message);
            }
            catch (final IOException ex)
            {
                throw new AssertionError(ex);
            }
        }
        return events;
    }

    @Test
    void shouldWriteBidsHighFirstThenOffersLowFirstInTimePriorityWhenOrdersWereExecutedReplacedAndCanceled()
    {
        apply(sbe.addOrder(T + 1, "AAPL", 1, Side.BUY, 100, 1_500_000));
        apply(sbe.addOrder(T + 2, "AAPL", 2, Side.BUY, 200, 1_510_000));
        apply(sbe.addOrder(T + 3, "AAPL", 3, Side.SELL, 300, 1_520_000));
        apply(sbe.addOrder(T + 4, "AAPL", 4, Side.BUY, 100, 1_510_000));
        apply(sbe.addOrder(T + 5, "MSFT", 5, Side.SELL, 500, 4_000_000));
        apply(sbe.addOrder(T + 6, "AAPL", 6, Side.SELL, 100, 1_515_000));
        apply(sbe.orderExecuted(T + 7, "AAPL", 2, 50, 1, 1_510_000));
        apply(sbe.orderExecutedWithPrice(T + 8, "AAPL", 3, 100, 2, BooleanType.FALSE, 1_519_000));
        apply(sbe.orderReplace(T + 9, "AAPL", 1, 7, 150, 1_510_000));
        apply(sbe.orderCancel(T + 10, "AAPL", 6, 40));
        apply(sbe.orderExecuted(T + 11, "AAPL", 4, 100, 3, 1_510_000));

        assertThat(book.orderCount()).isEqualTo(5);
        assertThat(snapshot(false, true, false).messages).containsExactly(
            new StockTradingAction(1, "AAPL", 'T', "    "),
            new AddOrder(1, 0, T + 2, 2, 'B', 150, "AAPL", 1_510_000),
            new AddOrder(1, 0, T + 9, 7, 'B', 150, "AAPL", 1_510_000),
            new AddOrder(1, 0, T + 6, 6, 'S', 60, "AAPL", 1_515_000),
            new AddOrder(1, 0, T + 3, 3, 'S', 200, "AAPL", 1_520_000));
        assertThat(snapshot(false, true, true).messages).hasSize(7)
            .last().isEqualTo(new AddOrder(2, 0, T + 5, 5, 'S', 500, "MSFT", 4_000_000));
    }

    @Test
    void shouldKeepTheAttributionOfAnAttributedOrderThroughReplacesAndWriteItAsAddOrderWithMpidAttribution()
    {
        apply(sbe.addOrder(T + 1, "AAPL", 1, Side.BUY, 100, 1_500_000, "GSCO"));
        apply(sbe.addOrder(T + 2, "AAPL", 2, Side.BUY, 200, 1_500_000));
        apply(sbe.orderReplace(T + 3, "AAPL", 1, 3, 150, 1_510_000));

        assertThat(snapshot(false, true, false).messages).containsExactly(
            new StockTradingAction(1, "AAPL", 'T', "    "),
            new AddOrderMpid(1, 0, T + 3, 3, 'B', 150, "AAPL", 1_510_000, "GSCO"),
            new AddOrder(1, 0, T + 2, 2, 'B', 200, "AAPL", 1_500_000));
    }

    @Test
    void shouldWriteEachSymbolsLatestStockTradingActionAsASpinBeforeTheOrders()
    {
        apply(sbe.addOrder(T + 1, "AAPL", 1, Side.BUY, 100, 1_500_000));
        apply(sbe.addOrder(T + 2, "MSFT", 2, Side.SELL, 200, 4_000_000));
        apply(sbe.stockTradingAction(T + 3, "MSFT", TradingState.HALTED, "O1  "));
        apply(sbe.stockTradingAction(T + 4, "AAPL", TradingState.HALTED, "O1  "));
        apply(sbe.stockTradingAction(T + 5, "AAPL", TradingState.TRADING, "    "));

        assertThat(book.orderCount()).isEqualTo(2);
        assertThat(snapshot(false, true, true).messages).containsExactly(
            new StockTradingAction(1, "AAPL", 'T', "    "),
            new StockTradingAction(2, "MSFT", 'H', "O1  "),
            new AddOrder(1, 0, T + 1, 1, 'B', 100, "AAPL", 1_500_000),
            new AddOrder(2, 0, T + 2, 2, 'S', 200, "MSFT", 4_000_000));
        assertThat(snapshot(false, false, true).messages).containsExactly(
            new StockTradingAction(2, "MSFT", 'H', "O1  "),
            new AddOrder(2, 0, T + 2, 2, 'S', 200, "MSFT", 4_000_000));
    }
}
