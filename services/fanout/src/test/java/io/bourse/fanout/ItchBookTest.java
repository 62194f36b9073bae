package io.bourse.fanout;

import io.bourse.common.config.SymbolDirectory;
import io.bourse.common.time.MidnightNanoClock;
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
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.stream.Collectors;

import static io.bourse.itch.ItchEvents.AddOrder;
import static io.bourse.itch.ItchEvents.AddOrderMpid;
import static io.bourse.itch.ItchEvents.Message;
import static io.bourse.itch.ItchEvents.StockTradingAction;
import static org.assertj.core.api.Assertions.assertThat;

class ItchBookTest
{
    private static final long T = 34_200_000_000_000L;

    private final MarketDataEncoder sbe = new MarketDataEncoder();
    private static final SymbolDirectory SYMBOLS = SymbolDirectory.parse("AAPL@0,MSFT@1");
    /** Time of the Trading Action spin. */
    private static final long T0 = T - 1_000;
    /** The symbols of {@link #SYMBOLS}, by Stock Locate less 1. */
    private static final String[] SYMBOL_NAMES = {"AAPL", "MSFT"};

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

    /**
     * A new trading day (midnight UTC): what the book carries over is stamped with the day's first nanosecond, so that
     * a snapshot of the new day carries no Timestamp of the ended one (before, a login just after midnight got Stock
     * Trading Actions of 23:59:42 between System Events of 00:00:05); the orders keep their time priority, and the
     * spin after a clear is the new day's too.
     */
    @Test
    void shouldStampWhatTheBookCarriesIntoANewDayWithTheDaysFirstNanosecond()
    {
        final long lateNs = MidnightNanoClock.NANOS_PER_DAY - 18_000_000_000L; // 23:59:42
        apply(sbe.addOrder(lateNs, "AAPL", 1, Side.BUY, 100, 1_500_000));
        apply(sbe.addOrder(lateNs + 1, "AAPL", 2, Side.BUY, 100, 1_500_000));
        apply(sbe.stockTradingAction(lateNs + 2, "MSFT", TradingState.HALTED, "O1  "));

        book.startDay();
        apply(sbe.addOrder(5_000, "AAPL", 3, Side.BUY, 100, 1_500_000));

        assertThat(snapshotTimestamps(false, true, true)).containsExactly(0L, 0L, 0L, 0L, 5_000L);
        assertThat(snapshot(false, true, true).messages).containsExactly(
            new StockTradingAction(1, "AAPL", 'T', "    "),
            new StockTradingAction(2, "MSFT", 'H', "O1  "),
            new AddOrder(1, 0, 0, 1, 'B', 100, "AAPL", 1_500_000),
            new AddOrder(1, 0, 0, 2, 'B', 100, "AAPL", 1_500_000),
            new AddOrder(1, 0, 5_000, 3, 'B', 100, "AAPL", 1_500_000));
        book.clear();
        assertThat(snapshotTimestamps(false, true, true)).as("the spin after a clear").containsExactly(0L, 0L);
    }

    /** @return the Timestamp of each message of a snapshot of these symbols, nanoseconds since midnight. */
    private List<Long> snapshotTimestamps(final boolean... symbolsByLocate)
    {
        final ExpandableArrayBuffer dst = new ExpandableArrayBuffer(8);
        final int length = book.snapshot(symbolsByLocate, dst);
        final List<Long> timestamps = new ArrayList<>();
        for (int offset = 0; offset < length; offset += ItchBook.snapshotMessageLength(dst.getByte(offset)))
        {
            timestamps.add(ItchBook.timestampNs(dst, offset));
        }
        return timestamps;
    }

    /**
     * Random message sequences, applied to the book and to a model that keeps every order with its arrival and sorts
     * them at each snapshot (locate, bids then offers, best price first, then time priority): after every message, the
     * snapshot of a random choice of symbols must equal the model's, and the book must hold a price level for each
     * price with an order and no other, so the book's price levels stay in price-time priority through adds,
     * executions, cancels, deletes, replaces (some onto a live order's reference), trading actions and clears. The
     * seed is fixed: every build checks the same sequences; a failure names the sequence and the message.
     */
    @Test
    void shouldWriteTheSameSnapshotAsSortingEveryOrderByPriceAndTimeAfterEachOfRandomMessages()
    {
        final Random random = new Random(20_261_125L);
        int mostLevels = 0;
        for (int sequence = 0; sequence < 300; sequence++)
        {
            final BookModel model = new BookModel();
            book.clear();
            final int steps = 1 + random.nextInt(300);
            for (int step = 0; step < steps; step++)
            {
                final String message = model.applyRandom(random, step);
                final boolean[] chosen = new boolean[1 + SYMBOL_NAMES.length];
                for (int locate = 1; locate < chosen.length; locate++)
                {
                    chosen[locate] = random.nextBoolean();
                }
                assertThat(snapshot(chosen).messages)
                    .as("sequence %d, step %d: %s", sequence, step, message)
                    .isEqualTo(model.snapshot(chosen));
                assertThat(book.levelCount()).as("price levels, sequence %d, step %d: %s", sequence, step, message)
                    .isEqualTo(model.levelCount());
                mostLevels = Math.max(mostLevels, model.mostLevelsOnASide());
            }
        }
        assertThat(mostLevels).as("most price levels on one side: past the 16 a side starts with").isGreaterThan(16);
    }

    /** The orders and trading actions a random sequence gave, each order with its place in time priority. */
    private final class BookModel
    {
        private record Order(
            int locate, String symbol, long reference, char side, long shares, long price, long timestampNs,
            String attribution, long priority)
        {
        }

        private final Map<Long, Order> orders = new LinkedHashMap<>();
        private final Map<Integer, StockTradingAction> tradingActions = new HashMap<>();
        private long nextReference = 1;
        private long nextPriority;

        /** Applies one random message to the model and the book. @return the message, for a failure's report. */
        String applyRandom(final Random random, final int step)
        {
            final long timestampNs = T + step;
            final List<Order> live = new ArrayList<>(orders.values());
            final Order order = live.isEmpty() ? null : live.get(random.nextInt(live.size()));
            final int kind = null == order ? 0 : random.nextInt(100);
            if (kind < 40)
            {
                final int locate = 1 + random.nextInt(SYMBOL_NAMES.length);
                final Side side = random.nextBoolean() ? Side.BUY : Side.SELL;
                final long shares = 1 + random.nextInt(500);
                final long price = randomPrice(random);
                final String attribution = random.nextInt(5) == 0 ? "GSCO" : "    ";
                final long reference = nextReference(random, live);
                apply(sbe.addOrder(timestampNs, SYMBOL_NAMES[locate - 1], reference, side, shares, price,
                    attribution));
                put(locate, reference, Side.BUY == side ? 'B' : 'S', shares, price, timestampNs, attribution);
                return "add " + orders.get(reference);
            }
            if (kind < 55)
            {
                final long shares = random.nextBoolean() ? order.shares : 1 + random.nextInt((int)order.shares);
                apply(random.nextBoolean() ?
                    sbe.orderExecuted(timestampNs, order.symbol, order.reference, shares, step, order.price) :
                    sbe.orderExecutedWithPrice(
                        timestampNs, order.symbol, order.reference, shares, step, BooleanType.TRUE, order.price - 1));
                reduce(order, shares);
                return "execute " + shares + " of " + order;
            }
            if (kind < 65)
            {
                final long shares = 1 + random.nextInt((int)order.shares);
                apply(sbe.orderCancel(timestampNs, order.symbol, order.reference, shares));
                reduce(order, shares);
                return "cancel " + shares + " of " + order;
            }
            if (kind < 75)
            {
                apply(sbe.orderDelete(timestampNs, order.symbol, order.reference));
                orders.remove(order.reference);
                return "delete " + order;
            }
            if (kind < 93)
            {
                final long reference = nextReference(random, live);
                final long shares = 1 + random.nextInt(500);
                final long price = random.nextBoolean() ? order.price : randomPrice(random);
                apply(sbe.orderReplace(timestampNs, order.symbol, order.reference, reference, shares, price));
                orders.remove(order.reference);
                put(order.locate, reference, order.side, shares, price, timestampNs, order.attribution);
                return "replace " + order + " by " + orders.get(reference);
            }
            if (kind < 98)
            {
                final int locate = 1 + random.nextInt(SYMBOL_NAMES.length);
                final boolean halted = random.nextBoolean();
                apply(sbe.stockTradingAction(timestampNs, SYMBOL_NAMES[locate - 1],
                    halted ? TradingState.HALTED : TradingState.TRADING, halted ? "O1  " : "    "));
                tradingActions.put(locate, new StockTradingAction(
                    locate, SYMBOL_NAMES[locate - 1], halted ? 'H' : 'T', halted ? "O1  " : "    "));
                return "trading action " + tradingActions.get(locate);
            }
            book.clear();
            orders.clear();
            tradingActions.clear();
            return "clear";
        }

        /** @return 1 in 50 a live order's reference, even the order's own (the latest Add stands), else a new one. */
        private long nextReference(final Random random, final List<Order> live)
        {
            return !live.isEmpty() && 0 == random.nextInt(50) ?
                live.get(random.nextInt(live.size())).reference : nextReference++;
        }

        /** @return one of 40 prices a tick apart: a side can grow past its first 16 price levels. */
        private static long randomPrice(final Random random)
        {
            return 1_000_000 + 100L * random.nextInt(40);
        }

        /** @return the most price levels on one side of one symbol. */
        int mostLevelsOnASide()
        {
            return orders.values().stream()
                .collect(Collectors.groupingBy((order) -> order.locate + " " + order.side,
                    Collectors.mapping(Order::price, Collectors.toSet())))
                .values().stream().mapToInt(Set::size).max().orElse(0);
        }

        /** @return the distinct prices of each side of each symbol. */
        int levelCount()
        {
            return (int)orders.values().stream()
                .map((order) -> order.locate + " " + order.side + " " + order.price).distinct().count();
        }

        /** Adds an order last in time priority, in place of any order with its reference. */
        private void put(
            final int locate, final long reference, final char side, final long shares, final long price,
            final long timestampNs, final String attribution)
        {
            orders.put(reference, new Order(locate, SYMBOL_NAMES[locate - 1], reference, side, shares, price,
                timestampNs, attribution, nextPriority++));
        }

        private void reduce(final Order order, final long shares)
        {
            if (shares == order.shares)
            {
                orders.remove(order.reference);
            }
            else
            {
                orders.put(order.reference, new Order(order.locate, order.symbol, order.reference, order.side,
                    order.shares - shares, order.price, order.timestampNs, order.attribution, order.priority));
            }
        }

        /** @return the messages the snapshot of the chosen symbols must hold, by sorting every order. */
        List<Message> snapshot(final boolean[] chosen)
        {
            final List<Message> messages = new ArrayList<>();
            for (int locate = 1; locate < chosen.length; locate++)
            {
                if (chosen[locate])
                {
                    messages.add(tradingActions.getOrDefault(
                        locate, new StockTradingAction(locate, SYMBOL_NAMES[locate - 1], 'T', "    ")));
                }
            }
            orders.values().stream()
                .filter((order) -> chosen[order.locate])
                .sorted(Comparator.comparingInt(Order::locate)
                    .thenComparing((order) -> 'B' == order.side ? 0 : 1)
                    .thenComparingLong((order) -> 'B' == order.side ? -order.price : order.price)
                    .thenComparingLong(Order::priority))
                .forEach((order) -> messages.add("    ".equals(order.attribution) ?
                    new AddOrder(order.locate, 0, order.timestampNs, order.reference, order.side, order.shares,
                        order.symbol, order.price) :
                    new AddOrderMpid(order.locate, 0, order.timestampNs, order.reference, order.side, order.shares,
                        order.symbol, order.price, order.attribution)));
            return messages;
        }
    }
}
