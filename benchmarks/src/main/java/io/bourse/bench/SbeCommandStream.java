package io.bourse.bench;

import io.bourse.common.config.Symbols;
import io.bourse.engine.match.BookUpdate;
import io.bourse.engine.match.Display;
import io.bourse.engine.match.MatchingEngine;
import io.bourse.engine.match.MatchingEngineListener;
import io.bourse.engine.match.Side;
import io.bourse.engine.replay.ExchangeCoreReplay;
import io.bourse.sbe.engine.CancelOrderEncoder;
import io.bourse.sbe.engine.MessageHeaderEncoder;
import io.bourse.sbe.engine.NewOrderEncoder;
import io.bourse.sbe.engine.ReplaceOrderEncoder;
import io.bourse.workload.ExchangeCoreCommands;
import org.agrona.collections.Long2LongHashMap;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * exchange-core's command stream translated into what the engine protocol (engine-schema.xml NewOrder, CancelOrder,
 * ReplaceOrder) can express, with the number of events each command makes, found by applying the translation to a
 * reference {@link MatchingEngine} (one symbol, {@link ExchangeCoreReplay#SYMBOL}) while translating:
 * <ul>
 *     <li>PLACE GTC: NewOrder, system hours (99999); PLACE IOC: NewOrder, immediate or cancel (0).</li>
 *     <li>PLACE FOK_BUDGET: NewOrder, immediate or cancel, at the per-unit limit budget / size (rounded down for a
 *     buy, up for a sell), WITHOUT its fill-or-kill minimum (minimumQuantity 0, so that the stream stays the one
 *     measured so far), so such an order can fill partly where exchange-core would kill it.</li>
 *     <li>Every NewOrder is displayed anonymously (Display 'Y') and has no firm, as the reference core's
 *     {@code newOrder} without those arguments.</li>
 *     <li>MOVE: ReplaceOrder at the new price, under a new client order id, for the open size plus the shares the
 *     order/replace chain has executed (a replace's size is the total the order may execute, OUCH 4.2 Replace), so
 *     the open size stays. Like MOVE, it leaves its queue even at an unchanged price (every replace loses priority).
 *     </li>
 *     <li>REDUCE by n: CancelOrder down to open size - n (0 when n reaches the open size); CANCEL: CancelOrder to
 *     0.</li>
 * </ul>
 * A CANCEL, REDUCE or MOVE whose order is no longer open in the reference engine (the FOK_BUDGET difference can fill
 * an order exchange-core leaves resting) is dropped from the stream and counted in {@link #skipped()}; so is any
 * command the reference engine answers with no event. Every command left makes at least one event, so the first event
 * of each command can be told apart by counting. The engine service applies the same commands in the same order and,
 * being deterministic, must publish exactly {@link #expectedEvents(int)} events for each, with the same content: the
 * {@link EventChecksum} of the reference core's events is kept ({@link #setupChecksum()}, {@link #checksum()}).
 *
 * <p>Prices stay exchange-core ticks and sizes lots (read as 1/10000 dollars and shares). Held in primitive arrays;
 * the publisher encodes from them without allocating.
 */
final class SbeCommandStream
{
    /** Operation: NewOrder. */
    static final byte NEW_ORDER = 0;
    /** Operation: CancelOrder. */
    static final byte CANCEL_ORDER = 1;
    /** Operation: ReplaceOrder. */
    static final byte REPLACE_ORDER = 2;

    /** First client order id given to a replacement; exchange-core's own order ids stay far below it. */
    static final long REPLACEMENT_ID_BASE = 1L << 40;
    /** Per-order size limit of the reference engine and of the service: the SBE Quantity field's range (uint32). */
    static final long MAX_ORDER_QUANTITY = 0xFFFF_FFFFL;

    /** A blank Firm: like the reference core's orders, the service's have no firm, so never self-match. */
    private static final byte[] NO_FIRM = "    ".getBytes(StandardCharsets.US_ASCII);

    private final int count;
    private final int benchStart;
    private final int skipped;
    private final long expectedBenchTrades;
    private final long setupChecksum;
    private final long checksum;
    private final byte[] operations;
    private final boolean[] buys;
    private final int[] timesInForce;
    private final long[] clientOrderIds;
    private final long[] newClientOrderIds;
    private final long[] quantities;
    private final long[] prices;
    private final int[] expectedEvents;

    private SbeCommandStream(final Translator translator)
    {
        count = translator.count;
        benchStart = translator.benchStart;
        skipped = translator.skipped;
        expectedBenchTrades = translator.trades;
        setupChecksum = translator.setupChecksum;
        checksum = translator.checksum.checksum();
        operations = Arrays.copyOf(translator.operations, count);
        buys = Arrays.copyOf(translator.buys, count);
        timesInForce = Arrays.copyOf(translator.timesInForce, count);
        clientOrderIds = Arrays.copyOf(translator.clientOrderIds, count);
        newClientOrderIds = Arrays.copyOf(translator.newClientOrderIds, count);
        quantities = Arrays.copyOf(translator.quantities, count);
        prices = Arrays.copyOf(translator.prices, count);
        expectedEvents = Arrays.copyOf(translator.events, count);
    }

    /**
     * @param commands exchange-core's stream.
     * @return the translation, with the events each command makes on a fresh engine.
     * @throws IllegalArgumentException for a command kind or order type it does not know.
     */
    static SbeCommandStream translate(final ExchangeCoreCommands commands)
    {
        final Translator translator = new Translator(commands.count());
        for (int i = 0; i < commands.count(); i++)
        {
            if (i == commands.benchStart())
            {
                translator.startBench();
            }
            translator.translate(commands, i);
        }
        if (commands.benchStart() == commands.count())
        {
            translator.startBench();
        }
        return new SbeCommandStream(translator);
    }

    /** @return commands, SETUP and BENCH. */
    int count()
    {
        return count;
    }

    /** @return index of the first BENCH command. */
    int benchStart()
    {
        return benchStart;
    }

    /** @return exchange-core commands left out: their order was not open, or they would make no event. */
    int skipped()
    {
        return skipped;
    }

    /** @return trades (OrderExecuted events) the BENCH commands make after the SETUP commands. */
    long expectedBenchTrades()
    {
        return expectedBenchTrades;
    }

    /** @return {@link EventChecksum} of the events the SETUP commands make on a fresh core. */
    long setupChecksum()
    {
        return setupChecksum;
    }

    /** @return {@link EventChecksum} of the events all commands, SETUP then BENCH, make on a fresh core. */
    long checksum()
    {
        return checksum;
    }

    /**
     * @param index command index.
     * @return events the command makes, at least 1.
     */
    int expectedEvents(final int index)
    {
        return expectedEvents[index];
    }

    /**
     * @param from first command index.
     * @param to   index after the last command.
     * @return events those commands make.
     */
    long expectedEvents(final int from, final int to)
    {
        long events = 0;
        for (int i = from; i < to; i++)
        {
            events += expectedEvents[i];
        }
        return events;
    }

    /**
     * Applies one command straight to a matching core, as the engine service's command adapter would.
     *
     * @param engine a core trading {@link ExchangeCoreReplay#SYMBOL} with {@link #MAX_ORDER_QUANTITY}.
     * @param index  command index.
     */
    void apply(final MatchingEngine engine, final int index)
    {
        apply(engine, operations[index], buys[index], timesInForce[index], clientOrderIds[index],
            newClientOrderIds[index], quantities[index], prices[index]);
    }

    private static void apply(
        final MatchingEngine engine, final byte operation, final boolean buy, final int timeInForce,
        final long clientOrderId, final long newClientOrderId, final long quantity, final long price)
    {
        switch (operation)
        {
            case NEW_ORDER -> engine.newOrder(
                clientOrderId, ExchangeCoreReplay.SYMBOL, buy ? Side.BUY : Side.SELL, quantity, price, timeInForce);
            case CANCEL_ORDER -> engine.cancelOrder(clientOrderId, quantity);
            default -> engine.replaceOrder(clientOrderId, newClientOrderId, quantity, price);
        }
    }

    /**
     * @param listener receives the engine's events.
     * @return a fresh core as the service runs it: shard 0, {@link ExchangeCoreReplay#SYMBOL}, size limit
     * {@link #MAX_ORDER_QUANTITY}.
     */
    static MatchingEngine newEngine(final MatchingEngineListener listener)
    {
        return new MatchingEngine(0, new long[]{ ExchangeCoreReplay.SYMBOL }, MAX_ORDER_QUANTITY, listener);
    }

    /** Encodes commands of a stream as SBE messages into its own buffer; one per publishing thread. */
    static final class Encoder
    {
        private final UnsafeBuffer buffer = new UnsafeBuffer(ByteBuffer.allocateDirect(128));
        private final MessageHeaderEncoder header = new MessageHeaderEncoder();
        private final NewOrderEncoder newOrder = new NewOrderEncoder();
        private final CancelOrderEncoder cancelOrder = new CancelOrderEncoder();
        private final ReplaceOrderEncoder replaceOrder = new ReplaceOrderEncoder();

        /** @return the buffer holding the last encoded message at offset 0. */
        UnsafeBuffer buffer()
        {
            return buffer;
        }

        /**
         * @param stream      the commands.
         * @param index       command index.
         * @param timestampNs stamped into the command's timestampNs; the engine copies it into the command's events.
         * @return the encoded length in bytes, header included.
         */
        int encode(final SbeCommandStream stream, final int index, final long timestampNs)
        {
            final int length = switch (stream.operations[index])
            {
                case NEW_ORDER ->
                {
                    newOrder.wrapAndApplyHeader(buffer, 0, header)
                        .timestampNs(timestampNs)
                        .clientOrderId(stream.clientOrderIds[index]);
                    Symbols.unpack(ExchangeCoreReplay.SYMBOL, buffer,
                        MessageHeaderEncoder.ENCODED_LENGTH + NewOrderEncoder.symbolEncodingOffset());
                    newOrder.side(stream.buys[index] ? io.bourse.sbe.engine.Side.BUY : io.bourse.sbe.engine.Side.SELL)
                        .quantity(stream.quantities[index])
                        .price(stream.prices[index])
                        .timeInForce(stream.timesInForce[index])
                        .putFirm(NO_FIRM, 0)
                        .minimumQuantity(0)
                        .display(Display.ANONYMOUS.code());
                    yield newOrder.encodedLength();
                }
                case CANCEL_ORDER -> cancelOrder.wrapAndApplyHeader(buffer, 0, header)
                    .timestampNs(timestampNs)
                    .clientOrderId(stream.clientOrderIds[index])
                    .quantity(stream.quantities[index])
                    .encodedLength();
                default -> replaceOrder.wrapAndApplyHeader(buffer, 0, header)
                    .timestampNs(timestampNs)
                    .clientOrderId(stream.clientOrderIds[index])
                    .newClientOrderId(stream.newClientOrderIds[index])
                    .quantity(stream.quantities[index])
                    .price(stream.prices[index])
                    .timeInForce(ReplaceOrderEncoder.timeInForceNullValue())
                    .encodedLength();
            };
            return MessageHeaderEncoder.ENCODED_LENGTH + length;
        }
    }

    /**
     * Builds the arrays, applying each translated command to a reference core to learn open sizes and events, whose
     * checksum it keeps.
     */
    private static final class Translator implements MatchingEngineListener
    {
        private static final long NOT_OPEN = -1;

        private final MatchingEngine engine = newEngine(this);
        private final Long2LongHashMap clientOrderIdByExchangeCoreId = new Long2LongHashMap(NOT_OPEN);
        private final EventChecksum checksum = new EventChecksum();
        private final byte[] operations;
        private final boolean[] buys;
        private final int[] timesInForce;
        private final long[] clientOrderIds;
        private final long[] newClientOrderIds;
        private final long[] quantities;
        private final long[] prices;
        private final int[] events;
        private int count;
        private int benchStart;
        private int skipped;
        private long trades;
        private long setupChecksum;
        private long nextReplacementId = REPLACEMENT_ID_BASE;

        Translator(final int capacity)
        {
            operations = new byte[capacity];
            buys = new boolean[capacity];
            timesInForce = new int[capacity];
            clientOrderIds = new long[capacity];
            newClientOrderIds = new long[capacity];
            quantities = new long[capacity];
            prices = new long[capacity];
            events = new int[capacity];
        }

        void startBench()
        {
            benchStart = count;
            trades = 0;
            setupChecksum = checksum.checksum();
        }

        void translate(final ExchangeCoreCommands commands, final int index)
        {
            final long exchangeCoreId = commands.orderId(index);
            final byte kind = commands.kind(index);
            if (ExchangeCoreCommands.PLACE == kind)
            {
                place(commands, index, exchangeCoreId);
                return;
            }
            final long clientOrderId = clientOrderIdByExchangeCoreId.get(exchangeCoreId);
            final long open = NOT_OPEN == clientOrderId ? 0 : engine.openQuantity(clientOrderId);
            if (0 == open)
            {
                skipped++;
                return;
            }
            switch (kind)
            {
                case ExchangeCoreCommands.MOVE ->
                {
                    final long newClientOrderId = nextReplacementId++;
                    add(REPLACE_ORDER, false, 0, clientOrderId, newClientOrderId,
                        open + engine.executedQuantity(clientOrderId), commands.price(index));
                    if (0 == engine.openQuantity(clientOrderId))
                    {
                        clientOrderIdByExchangeCoreId.put(exchangeCoreId, newClientOrderId);
                    }
                }
                case ExchangeCoreCommands.REDUCE -> add(CANCEL_ORDER, false, 0, clientOrderId, 0,
                    Math.max(0, open - commands.size(index)), 0);
                case ExchangeCoreCommands.CANCEL -> add(CANCEL_ORDER, false, 0, clientOrderId, 0, 0, 0);
                default -> throw new IllegalArgumentException("command " + index + ": kind " + kind);
            }
        }

        private void place(final ExchangeCoreCommands commands, final int index, final long exchangeCoreId)
        {
            final boolean buy = ExchangeCoreCommands.SIDE_BUY == commands.side(index);
            final long price = commands.price(index);
            final long size = commands.size(index);
            switch (commands.orderType(index))
            {
                case ExchangeCoreCommands.TYPE_GTC -> add(NEW_ORDER, buy, MatchingEngine.TIME_IN_FORCE_SYSTEM_HOURS,
                    exchangeCoreId, 0, size, price);
                case ExchangeCoreCommands.TYPE_IOC -> add(NEW_ORDER, buy,
                    MatchingEngine.TIME_IN_FORCE_IMMEDIATE_OR_CANCEL, exchangeCoreId, 0, size, price);
                case ExchangeCoreCommands.TYPE_FOK_BUDGET -> add(NEW_ORDER, buy,
                    MatchingEngine.TIME_IN_FORCE_IMMEDIATE_OR_CANCEL, exchangeCoreId, 0, size,
                    buy ? Math.floorDiv(price, size) : -Math.floorDiv(-price, size));
                default -> throw new IllegalArgumentException(
                    "command " + index + ": order type " + commands.orderType(index));
            }
            clientOrderIdByExchangeCoreId.put(exchangeCoreId, exchangeCoreId);
        }

        private void add(
            final byte operation, final boolean buy, final int timeInForce, final long clientOrderId,
            final long newClientOrderId, final long quantity, final long price)
        {
            operations[count] = operation;
            buys[count] = buy;
            timesInForce[count] = timeInForce;
            clientOrderIds[count] = clientOrderId;
            newClientOrderIds[count] = newClientOrderId;
            quantities[count] = quantity;
            prices[count] = price;
            events[count] = 0;
            // The event callbacks count into events[count] while the command runs.
            apply(engine, operation, buy, timeInForce, clientOrderId, newClientOrderId, quantity, price);
            if (0 == events[count])
            {
                skipped++;
                return;
            }
            count++;
        }

        @Override
        public void onOrderAccepted(
            final long clientOrderId, final long orderId, final long symbol, final Side side, final long quantity,
            final long price, final int timeInForce, final Display display)
        {
            events[count]++;
            checksum.onOrderAccepted(clientOrderId, orderId, symbol, side, quantity, price, timeInForce, display);
        }

        @Override
        public void onOrderRejected(final long clientOrderId, final long symbol, final byte reason)
        {
            events[count]++;
            checksum.onOrderRejected(clientOrderId, symbol, reason);
        }

        @Override
        public void onOrderAdded(
            final long orderId, final long symbol, final Side side, final long quantity, final long price,
            final Display display, final int firm)
        {
            events[count]++;
            checksum.onOrderAdded(orderId, symbol, side, quantity, price, display, firm);
        }

        @Override
        public void onOrderExecuted(
            final long matchNumber, final long symbol, final long quantity, final long price,
            final long takerClientOrderId, final long takerOrderId, final Side takerSide,
            final long makerClientOrderId, final long makerOrderId, final long makerLeaves, final long takerLeaves)
        {
            events[count]++;
            trades++;
            checksum.onOrderExecuted(matchNumber, symbol, quantity, price, takerClientOrderId, takerOrderId, takerSide,
                makerClientOrderId, makerOrderId, makerLeaves, takerLeaves);
        }

        @Override
        public void onOrderCanceled(
            final long clientOrderId, final long orderId, final long symbol, final long canceledQuantity,
            final long leaves, final byte reason, final boolean wasResting)
        {
            events[count]++;
            checksum.onOrderCanceled(clientOrderId, orderId, symbol, canceledQuantity, leaves, reason, wasResting);
        }

        @Override
        public void onOrderReplaced(
            final long clientOrderId, final long newClientOrderId, final long orderId, final long newOrderId,
            final long symbol, final Side side, final long quantity, final long price, final BookUpdate bookUpdate,
            final Display display)
        {
            events[count]++;
            checksum.onOrderReplaced(clientOrderId, newClientOrderId, orderId, newOrderId, symbol, side, quantity,
                price, bookUpdate, display);
        }
    }
}
