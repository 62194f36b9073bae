package io.bourse.engine;

import io.aeron.Publication;
import io.aeron.Subscription;
import io.bourse.common.EngineEventTemplates;
import io.bourse.common.config.Symbols;
import io.bourse.common.metrics.MetricsEndpoint;
import io.bourse.engine.match.SelfTradePrevention;
import io.bourse.sbe.engine.AdminResponseCode;
import io.bourse.sbe.engine.AdminResponseDecoder;
import io.bourse.sbe.engine.CancelOrderEncoder;
import io.bourse.sbe.engine.CancelPendingDecoder;
import io.bourse.sbe.engine.CancelRejectedDecoder;
import io.bourse.sbe.engine.ClockTickEncoder;
import io.bourse.sbe.engine.CommandStreamJoinedDecoder;
import io.bourse.sbe.engine.CrossCompletedDecoder;
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
import io.bourse.sbe.engine.RunStartedDecoder;
import io.bourse.sbe.engine.SequencedCommandDecoder;
import io.bourse.sbe.engine.Side;
import io.bourse.sbe.engine.TradeBrokenDecoder;
import io.bourse.sbe.engine.TradingStateChangedDecoder;
import io.bourse.sbe.engine.TradingState;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.IntPredicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A test's side of a real shard's streams: SBE commands encoded and offered on the command stream, and the events
 * read back from the event stream as one line of text each, with their sequence numbers.
 */
final class ShardStreams
{
    /** $100.00 in 1/10000 dollars. */
    static final long PRICE = 1_000_000;
    /** Time in force: market hours. */
    static final long DAY = 99_998;

    /** The sequence number of an {@link Event} that has none: an AdminResponse. */
    static final long NO_SEQUENCE_NUMBER = 0;

    /** The shard's count of events its event stream refused at first. */
    static final String EVENTS_HELD = "bourse_engine_events_held_total";

    /** One event: its shard sequence number ({@link #NO_SEQUENCE_NUMBER} for none) and its fields as text. */
    record Event(long sequenceNumber, String text)
    {
    }

    private ShardStreams()
    {
    }

    /**
     * @param commandTemplateId the admin command's template id.
     * @param symbol            its symbol, "" for none.
     * @param code              the shard's answer.
     * @param timestampNs       the command's timestamp.
     * @return the AdminResponse as {@link #await} renders it.
     */
    static Event adminResponse(
        final int commandTemplateId, final String symbol, final AdminResponseCode code, final long timestampNs)
    {
        return new Event(NO_SEQUENCE_NUMBER, "admin-response " + commandTemplateId + " " + symbol + " " + code +
            " t=" + timestampNs);
    }

    /**
     * Sends {@link #sendRestingOrders the 3,000 resting orders}, more than a 64 KiB term's window holds, then waits up
     * to 10 s until the shard holds back events of theirs: {@code bourse_engine_events_held_total} passes its count
     * before the orders. That count is not always 0: the run's RunStarted is held too when the shard started before
     * its subscriber came, and waiting for a count of 1 then returned before the shard had taken a single order.
     *
     * @param commands    the command stream, connected.
     * @param metricsPort the shard's metrics port.
     * @return the orders sent.
     */
    static int sendRestingOrdersUntilHeld(final Publication commands, final int metricsPort) throws Exception
    {
        final double heldBefore = metric(metricsPort, EVENTS_HELD);
        final int orders = sendRestingOrders(commands);
        final long deadlineNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (metric(metricsPort, EVENTS_HELD) <= heldBefore)
        {
            assertThat(System.nanoTime()).as("events held").isLessThan(deadlineNs);
            Thread.sleep(1);
        }
        return orders;
    }

    /**
     * @param metricsPort the shard's metrics port.
     * @param series      a series as the scrape writes it, its name and labels, e.g.
     *                    {@code bourse_engine_commands_total{type="new_order"}}.
     * @return its value in a scrape taken now; fails the test when the scrape has no such series.
     */
    static double metric(final int metricsPort, final String series) throws Exception
    {
        final Matcher value = Pattern.compile("(?m)^" + Pattern.quote(series) + " (\\S+)$")
            .matcher(MetricsEndpoint.scrape(metricsPort));
        assertThat(value.find()).as(series + " exported").isTrue();
        return Double.parseDouble(value.group(1));
    }

    /** Sends 3,000 orders that all rest, alternately a buy below and a sell above {@code PRICE}: 6,000 events. */
    static int sendRestingOrders(final Publication commands)
    {
        final int orders = 3_000;
        for (int i = 1; i <= orders; i++)
        {
            send(commands, i, "AAPL", i % 2 == 0 ? Side.BUY : Side.SELL, 1, PRICE + (i % 2 == 0 ? -i : i), i);
        }
        return orders;
    }

    /**
     * Reads events until {@code count} have arrived or 20 s have passed, checking that their sequence numbers run
     * from {@code fromSequenceNumber} (2: the run's RunStarted is 1) without a gap; SequencedCommands (with the event
     * archive on), AdminResponses and CommandStreamJoined, which have none, are skipped, and so is the run's
     * RunStarted, which a subscriber that joined after the run started (with the archive on) may not hear.
     *
     * @return the events read.
     */
    static int readSequencedEvents(final Subscription events, final long fromSequenceNumber, final int count)
    {
        final long[] expectedSequence = {fromSequenceNumber};
        final int[] received = {0};
        final long deadlineNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (received[0] < count && System.nanoTime() < deadlineNs)
        {
            if (0 == events.poll((buffer, offset, length, frameHeader) ->
            {
                final short templateId = buffer.getShort(
                    offset + MessageHeaderDecoder.templateIdEncodingOffset(), ByteOrder.LITTLE_ENDIAN);
                if (!EngineEventTemplates.isNumbered(templateId))
                {
                    return;
                }
                if (RunStartedDecoder.TEMPLATE_ID == templateId)
                {
                    return;
                }
                // every engine event starts with its sequence number, right after the SBE header
                assertThat(buffer.getLong(offset + MessageHeaderDecoder.ENCODED_LENGTH, ByteOrder.LITTLE_ENDIAN))
                    .isEqualTo(expectedSequence[0]++);
                received[0]++;
            }, 100))
            {
                Thread.onSpinWait();
            }
        }
        return received[0];
    }

    /** Decodes events into text until {@code count} have arrived (or 10 s passed). */
    static List<Event> await(final Subscription events, final int count)
    {
        return await(events, (sessionId) -> true, count, Long.MAX_VALUE, false);
    }

    /**
     * As {@link #await(Subscription, int)}, leaving out RunStarted: for a subscription that joined a running shard
     * recorded by the event archive, which may have published it before the subscription joined.
     */
    static List<Event> awaitAfterStart(final Subscription events, final int count)
    {
        return await(events, (sessionId) -> true, count, Long.MAX_VALUE, true);
    }

    /**
     * Decodes the events of one run of the shard into text until none has come for {@code quietMs} (or 10 s passed),
     * skipping those of other runs.
     */
    static List<Event> awaitQuiet(final Subscription events, final int sessionId, final long quietMs)
    {
        return await(events, (session) -> session == sessionId, Integer.MAX_VALUE,
            TimeUnit.MILLISECONDS.toNanos(quietMs), false);
    }

    /**
     * Decodes the events of one run of the shard (its event publication's Aeron session id) into text until
     * {@code count} have arrived (or 10 s passed), skipping those of an earlier run whose image lingers.
     */
    static List<Event> await(final Subscription events, final int sessionId, final int count)
    {
        return await(events, (session) -> session == sessionId, count, Long.MAX_VALUE, false);
    }

    /**
     * As {@link #await(Subscription, int, int)}, leaving out RunStarted: for a subscription that joined a running shard
     * recorded by the event archive, which may have published it before the subscription joined.
     */
    static List<Event> awaitAfterStart(final Subscription events, final int sessionId, final int count)
    {
        return await(events, (session) -> session == sessionId, count, Long.MAX_VALUE, true);
    }

    private static List<Event> await(
        final Subscription events, final IntPredicate sessions, final int count, final long quietNs,
        final boolean skipRunStarted)
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
        final AdminResponseDecoder adminResponse = new AdminResponseDecoder();
        final RunStartedDecoder runStarted = new RunStartedDecoder();
        final long deadlineNs = System.nanoTime() + 10_000_000_000L;
        long heardNs = System.nanoTime();
        while (received.size() < count && System.nanoTime() < deadlineNs && System.nanoTime() - heardNs < quietNs)
        {
            final int before = received.size();
            events.poll((buffer, offset, length, frameHeader) ->
            {
                if (!sessions.test(frameHeader.sessionId()))
                {
                    return;
                }
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
                    case AdminResponseDecoder.TEMPLATE_ID ->
                    {
                        adminResponse.wrap(buffer, body, header.blockLength(), header.version());
                        received.add(new Event(NO_SEQUENCE_NUMBER, "admin-response " +
                            adminResponse.commandTemplateId() + " " + adminResponse.symbol().trim() + " " +
                            adminResponse.code() + " t=" + adminResponse.timestampNs()));
                    }
                    case RunStartedDecoder.TEMPLATE_ID ->
                    {
                        if (skipRunStarted)
                        {
                            return;
                        }
                        runStarted.wrap(buffer, body, header.blockLength(), header.version());
                        received.add(new Event(runStarted.sequenceNumber(), "run-started shard " + runStarted.shard() +
                            " recovered " + runStarted.recoveredRuns() + " numbering " + runStarted.numberBase() +
                            " t=" + runStarted.timestampNs()));
                    }
                    case SequencedCommandDecoder.TEMPLATE_ID, CommandStreamJoinedDecoder.TEMPLATE_ID ->
                    {
                        // The shard's input log (event archive on), and where a run joined a command publication
                        // (EngineServiceTest reads those itself): no event.
                    }
                    default -> received.add(new Event(-1, "unexpected template " + header.templateId()));
                }
            }, 10);
            if (received.size() > before)
            {
                heardNs = System.nanoTime();
            }
            Thread.onSpinWait();
        }
        return received;
    }

    static void send(
        final Publication publication, final long clientOrderId, final String symbol, final Side side,
        final long quantity, final long timestampNs)
    {
        send(publication, clientOrderId, symbol, side, quantity, PRICE, timestampNs);
    }

    static void send(
        final Publication publication, final long clientOrderId, final String symbol, final Side side,
        final long quantity, final long price, final long timestampNs)
    {
        send(publication, newOrder(clientOrderId, symbol, side, quantity, price, DAY, timestampNs)
            .firm("DEMO")
            .display((byte)'Y'));
    }

    /** @return a NewOrder without firm or minimum quantity, display still to set, in its own buffer. */
    static NewOrderEncoder newOrder(
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

    static void send(final Publication publication, final NewOrderEncoder encoder)
    {
        offer(publication, encoder.buffer(), MessageHeaderEncoder.ENCODED_LENGTH + encoder.encodedLength());
    }

    static void clockTick(final Publication publication, final long timestampNs)
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[64]);
        final ClockTickEncoder encoder = new ClockTickEncoder()
            .wrapAndApplyHeader(buffer, 0, new MessageHeaderEncoder())
            .timestampNs(timestampNs);
        offer(publication, buffer, MessageHeaderEncoder.ENCODED_LENGTH + encoder.encodedLength());
    }

    static void tradingState(final Publication publication, final String symbol, final TradingState state)
    {
        final AdminCommandEncoder admin = new AdminCommandEncoder();
        offer(publication, admin.buffer(), admin.tradingState(
            1, Symbols.pack(symbol), io.bourse.engine.match.TradingState.valueOf(state.name())));
    }

    static void priceBand(
        final Publication publication, final String symbol, final long referencePrice, final int bandBasisPoints)
    {
        final AdminCommandEncoder admin = new AdminCommandEncoder();
        offer(publication, admin.buffer(), admin.priceBand(1, Symbols.pack(symbol), referencePrice, bandBasisPoints));
    }

    static void selfTradePrevention(
        final Publication publication, final String firm, final SelfTradePrevention mode)
    {
        final AdminCommandEncoder admin = new AdminCommandEncoder();
        offer(publication, admin.buffer(), admin.selfTradePrevention(1, firm, mode));
    }

    static void breakTrade(
        final Publication publication, final String symbol, final long matchNumber, final char reason,
        final long timestampNs)
    {
        final AdminCommandEncoder admin = new AdminCommandEncoder();
        offer(publication, admin.buffer(),
            admin.breakTrade(timestampNs, Symbols.pack(symbol), matchNumber, (byte)reason));
    }

    static void cancel(
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

    static void replace(
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

    static void crossLock(final Publication publication, final String symbol, final long timestampNs)
    {
        final AdminCommandEncoder admin = new AdminCommandEncoder();
        offer(publication, admin.buffer(), admin.crossLock(timestampNs, Symbols.pack(symbol)));
    }

    static void runCross(final Publication publication, final String symbol, final long timestampNs)
    {
        final AdminCommandEncoder admin = new AdminCommandEncoder();
        offer(publication, admin.buffer(), admin.runCross(timestampNs, Symbols.pack(symbol)));
    }

    /**
     * AAPL trades at 100.00 (orders 11 and 12, the run's first match number), then at 100.20 (13 and 14, its second),
     * which an operator breaks ('E'); timestamps 1 to 5.
     *
     * @param publication  the shard's command publication.
     * @param secondTrade  the run's second match number, of the trade broken.
     */
    static void tradeThenBreakATradeAbove(final Publication publication, final long secondTrade)
    {
        send(publication, 11, "AAPL", Side.BUY, 100, PRICE, 1);
        send(publication, 12, "AAPL", Side.SELL, 100, PRICE, 2);
        send(publication, 13, "AAPL", Side.SELL, 100, PRICE + 2_000, 3);
        send(publication, 14, "AAPL", Side.BUY, 100, PRICE + 2_000, 4);
        breakTrade(publication, "AAPL", secondTrade, 'E', 5);
    }

    /**
     * A bid at 99.80 and an offer at 100.30 (midpoint 100.05), a closing-cross buy at 100.05 and sell at 100.01, then
     * CrossLock and RunCross; timestamps 6 to 11: 10 events. 100 shares with imbalance 0 execute at 100.01 or 100.05,
     * the one closer to the reference: 100.01 after {@link #tradeThenBreakATradeAbove}, the last trade not broken being
     * 100.00; the broken trade, or the midpoint, would pick 100.05.
     *
     * @param publication the shard's command publication.
     */
    static void quoteThenCross(final Publication publication)
    {
        send(publication, 15, "AAPL", Side.BUY, 100, PRICE - 2_000, 6);
        send(publication, 16, "AAPL", Side.SELL, 100, PRICE + 3_000, 7);
        send(publication,
            newOrder(17, "AAPL", Side.BUY, 100, PRICE + 500, DAY, 8).display((byte)'Y').crossType((byte)'C'));
        send(publication,
            newOrder(18, "AAPL", Side.SELL, 100, PRICE + 100, DAY, 9).display((byte)'Y').crossType((byte)'C'));
        crossLock(publication, "AAPL", 10);
        runCross(publication, "AAPL", 11);
    }

    static void offer(final Publication publication, final DirectBuffer buffer, final int length)
    {
        while (publication.offer(buffer, 0, length) < 0)
        {
            Thread.yield();
        }
    }
}
