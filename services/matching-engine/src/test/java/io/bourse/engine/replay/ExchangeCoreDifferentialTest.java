package io.bourse.engine.replay;

import exchange.core2.collections.objpool.ObjectsPool;
import exchange.core2.core.common.CoreSymbolSpecification;
import exchange.core2.core.common.IOrder;
import exchange.core2.core.common.MatcherEventType;
import exchange.core2.core.common.MatcherTradeEvent;
import exchange.core2.core.common.OrderAction;
import exchange.core2.core.common.OrderType;
import exchange.core2.core.common.SymbolType;
import exchange.core2.core.common.cmd.CommandResultCode;
import exchange.core2.core.common.cmd.OrderCommand;
import exchange.core2.core.common.cmd.OrderCommandType;
import exchange.core2.core.common.config.LoggingConfiguration;
import exchange.core2.core.orderbook.IOrderBook;
import exchange.core2.core.orderbook.OrderBookDirectImpl;
import exchange.core2.core.orderbook.OrderBookEventsHelper;
import io.bourse.workload.ExchangeCoreCommands;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Differential test against exchange-core 0.5.3 itself: generated command streams go through exchange-core's
 * {@link OrderBookDirectImpl} (the order book of its benchmark) and, as CSV in exchange-core's dump format, through
 * {@link ExchangeCoreCommands} and {@link ExchangeCoreReplay} into Bourse's engine; the trades (taker, maker, price,
 * size, in order) and the final books must be identical. FOK_BUDGET budgets are size x band edge, as in exchange-core's
 * own generator, where the per-unit mapping is exact.
 */
class ExchangeCoreDifferentialTest
{
    private static final long BAND_LOW = 9_900;
    private static final long BAND_HIGH = 10_100;

    /** Uniform random commands on a narrow price range: many crossings, fills, and commands on orders not open. */
    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 4, 5})
    @Timeout(20)
    void shouldProduceExchangeCoresTradesAndBookWhenCommandsAreRandom(final long seed) throws IOException
    {
        assertSameOutcome(new Generator(seed, 40_000, false));
    }

    /** exchange-core's benchmark mix: mostly MOVEs around a drifting mid, the book held near a target size. */
    @ParameterizedTest
    @ValueSource(longs = {11, 12, 13})
    @Timeout(20)
    void shouldProduceExchangeCoresTradesAndBookWhenCommandsAreExchangeCoreLike(final long seed) throws IOException
    {
        assertSameOutcome(new Generator(seed, 100_000, true));
    }

    private static void assertSameOutcome(final Generator generator) throws IOException
    {
        generator.run();
        final ExchangeCoreCommands commands = ExchangeCoreCommands.read(
            new ByteArrayInputStream(generator.csv.toString().getBytes(StandardCharsets.US_ASCII)));
        final List<String> bourseTrades = new ArrayList<>();
        final ExchangeCoreReplay replay = new ExchangeCoreReplay(
            (taker, maker, price, size) -> bourseTrades.add(taker + "," + maker + "," + price + "," + size));

        replay.replay(commands);

        assertThat(commands.count()).isEqualTo(generator.count);
        assertThat(generator.trades).as("exchange-core traded").isNotEmpty();
        assertSameRows("trade", bourseTrades, generator.trades);
        final List<String> bourseBook = new ArrayList<>();
        replay.forEachRestingOrder((clientOrderId, orderId, side, price, remaining, display) ->
            bourseBook.add(clientOrderId + "," + side + "," + price + "," + remaining));
        assertSameRows("resting order", bourseBook, generator.finalBook());
        assertThat(replay.rejectCount()).isZero();
    }

    private static void assertSameRows(final String what, final List<String> actual, final List<String> expected)
    {
        for (int i = 0, n = Math.min(actual.size(), expected.size()); i < n; i++)
        {
            assertThat(actual.get(i)).as("%s %d (0-based)", what, i).isEqualTo(expected.get(i));
        }
        assertThat(actual.size()).as("%s count", what).isEqualTo(expected.size());
    }

    /**
     * Generates commands, applies each to exchange-core at once (so that later commands can target live orders),
     * records exchange-core's trades and writes the stream as exchange-core dump CSV.
     */
    private static final class Generator
    {
        private final Random random;
        private final int length;
        private final boolean exchangeCoreLike;
        private final IOrderBook book = new OrderBookDirectImpl(
            CoreSymbolSpecification.builder().symbolId(1).type(SymbolType.FUTURES_CONTRACT).baseScaleK(1)
                .quoteScaleK(1).build(),
            ObjectsPool.createDefaultTestPool(), OrderBookEventsHelper.NON_POOLED_EVENTS_HELPER,
            LoggingConfiguration.DEFAULT);
        private final List<Long> live = new ArrayList<>();
        private final Map<Long, Integer> liveIndex = new HashMap<>();
        private final Map<Long, Long> owners = new HashMap<>();
        private final StringBuilder csv = new StringBuilder(
            "seq,phase,cmd,order_id,uid,side,price,size,order_type,reserve_price\n");
        private final List<String> trades = new ArrayList<>();
        private long nextOrderId = 1;
        private long mid = 10_000;
        private int count;

        Generator(final long seed, final int length, final boolean exchangeCoreLike)
        {
            this.random = new Random(seed);
            this.length = length;
            this.exchangeCoreLike = exchangeCoreLike;
        }

        void run()
        {
            for (int i = 0; i < length; i++)
            {
                if (exchangeCoreLike)
                {
                    nextExchangeCoreLike();
                }
                else
                {
                    nextRandom();
                }
            }
        }

        private void nextRandom()
        {
            final int dice = random.nextInt(100);
            if (dice < 40 || live.isEmpty())
            {
                place(OrderType.GTC, 1 + random.nextInt(50), 9_990 + random.nextInt(21));
            }
            else if (dice < 50)
            {
                place(OrderType.IOC, 1 + random.nextInt(80), 9_990 + random.nextInt(21));
            }
            else if (dice < 55)
            {
                place(OrderType.FOK_BUDGET, 1 + random.nextInt(120), 0);
            }
            else if (dice < 75)
            {
                move(randomLiveOrder(), 9_990 + random.nextInt(21));
            }
            else if (dice < 85)
            {
                reduce(randomLiveOrder(), 1 + random.nextInt(30));
            }
            else if (dice < 95)
            {
                cancel(randomLiveOrder());
            }
            else
            {
                // An id that is filled, canceled or never existed: an error without effect in both engines.
                final long orderId = 1 + random.nextInt((int)nextOrderId);
                if (random.nextBoolean())
                {
                    cancel(orderId);
                }
                else
                {
                    move(orderId, 9_990 + random.nextInt(21));
                }
            }
        }

        private void nextExchangeCoreLike()
        {
            final int target = 200;
            mid = Math.max(9_950, Math.min(10_050, mid + random.nextInt(3) - 1));
            final int dice = random.nextInt(10_000);
            final boolean grow = live.size() < target;
            if (live.isEmpty() || dice < (grow ? 1_800 : 900))
            {
                final boolean buy = random.nextBoolean();
                final long offset = (long)(Math.abs(random.nextGaussian()) * 6);
                place(OrderType.GTC, 1 + random.nextInt(30), buy ? mid - 1 - offset : mid + 1 + offset);
            }
            else if (dice < 2_000)
            {
                place(OrderType.IOC, 1 + random.nextInt(40), 0);
            }
            else if (dice < 2_010)
            {
                place(OrderType.FOK_BUDGET, 1 + random.nextInt(60), 0);
            }
            else if (dice < (grow ? 2_400 : 2_800))
            {
                cancel(randomLiveOrder());
            }
            else if (dice < 3_100)
            {
                reduce(randomLiveOrder(), 1 + random.nextInt(10));
            }
            else
            {
                final long orderId = randomLiveOrder();
                final IOrder order = book.getOrderById(orderId);
                final long price = order.getAction() == OrderAction.BID ?
                    mid - (long)(Math.abs(random.nextGaussian()) * 4) + random.nextInt(2) :
                    mid + (long)(Math.abs(random.nextGaussian()) * 4) - random.nextInt(2);
                move(orderId, price);
            }
        }

        private long randomLiveOrder()
        {
            return live.get(random.nextInt(live.size()));
        }

        /** @param price limit price, or 0 for the band edge (IOC) or the band-edge budget (FOK_BUDGET). */
        private void place(final OrderType type, final long size, final long price)
        {
            final boolean buy = random.nextBoolean();
            final long edge = buy ? BAND_HIGH : BAND_LOW;
            final long commandPrice = OrderType.FOK_BUDGET == type ? size * edge : 0 == price ? edge : price;
            final long orderId = nextOrderId++;
            final long uid = 1 + random.nextInt(10);
            final OrderCommand cmd = command(OrderCommandType.PLACE_ORDER, orderId, uid);
            cmd.action = buy ? OrderAction.BID : OrderAction.ASK;
            cmd.orderType = type;
            cmd.price = commandPrice;
            cmd.size = size;
            cmd.reserveBidPrice = buy ? BAND_HIGH : 0;
            row("PLACE", orderId, uid, buy ? "BUY" : "SELL", Long.toString(commandPrice), Long.toString(size),
                type.name(), Long.toString(cmd.reserveBidPrice));
            apply(cmd);
            owners.put(orderId, uid);
            if (OrderType.GTC == type && null != book.getOrderById(orderId))
            {
                liveIndex.put(orderId, live.size());
                live.add(orderId);
            }
        }

        private void move(final long orderId, final long price)
        {
            final OrderCommand cmd = command(OrderCommandType.MOVE_ORDER, orderId, owner(orderId));
            cmd.price = price;
            row("MOVE", orderId, cmd.uid, "", Long.toString(price), "", "", "");
            apply(cmd);
        }

        private void reduce(final long orderId, final long amount)
        {
            final OrderCommand cmd = command(OrderCommandType.REDUCE_ORDER, orderId, owner(orderId));
            cmd.size = amount;
            row("REDUCE", orderId, cmd.uid, "", "", Long.toString(amount), "", "");
            apply(cmd);
        }

        private void cancel(final long orderId)
        {
            final OrderCommand cmd = command(OrderCommandType.CANCEL_ORDER, orderId, owner(orderId));
            row("CANCEL", orderId, cmd.uid, "", "", "", "", "");
            apply(cmd);
        }

        private long owner(final long orderId)
        {
            return owners.getOrDefault(orderId, 1L);
        }

        private static OrderCommand command(final OrderCommandType type, final long orderId, final long uid)
        {
            final OrderCommand cmd = new OrderCommand();
            cmd.command = type;
            cmd.orderId = orderId;
            cmd.symbol = 1;
            cmd.uid = uid;
            // What exchange-core's risk engine sets on a command it passes on; processCommand ignores a PLACE without.
            cmd.resultCode = CommandResultCode.VALID_FOR_MATCHING_ENGINE;
            return cmd;
        }

        private void row(
            final String kind, final long orderId, final long uid, final String side, final String price,
            final String size, final String type, final String reservePrice)
        {
            csv.append(count++).append(",BENCH,").append(kind).append(',').append(orderId).append(',').append(uid)
                .append(',').append(side).append(',').append(price).append(',').append(size).append(',').append(type)
                .append(',').append(reservePrice).append('\n');
        }

        private void apply(final OrderCommand cmd)
        {
            IOrderBook.processCommand(book, cmd);
            for (MatcherTradeEvent event = cmd.matcherEvent; null != event; event = event.nextEvent)
            {
                if (MatcherEventType.TRADE == event.eventType)
                {
                    trades.add(cmd.orderId + "," + event.matchedOrderId + "," + event.price + "," + event.size);
                    if (event.matchedOrderCompleted)
                    {
                        removeLive(event.matchedOrderId);
                    }
                }
            }
            if (null == book.getOrderById(cmd.orderId))
            {
                removeLive(cmd.orderId);
            }
        }

        private void removeLive(final long orderId)
        {
            final Integer index = liveIndex.remove(orderId);
            if (null != index)
            {
                final long last = live.remove(live.size() - 1);
                if (last != orderId)
                {
                    live.set(index, last);
                    liveIndex.put(last, index);
                }
            }
        }

        List<String> finalBook()
        {
            final List<String> rows = new ArrayList<>();
            Stream.concat(book.askOrdersStream(true), book.bidOrdersStream(true)).forEach(order -> rows.add(
                order.getOrderId() + "," + (order.getAction() == OrderAction.ASK ? "SELL" : "BUY") + "," +
                    order.getPrice() + "," + (order.getSize() - order.getFilled())));
            return rows;
        }
    }
}
