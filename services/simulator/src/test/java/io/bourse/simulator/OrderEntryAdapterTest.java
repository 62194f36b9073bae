package io.bourse.simulator;

import io.bourse.common.config.Symbols;
import io.bourse.common.metrics.LatencySummary;
import io.bourse.ouch.OrderAccepted;
import io.bourse.ouch.AiqCanceled;
import io.bourse.ouch.OrderCanceled;
import io.bourse.ouch.OrderExecuted;
import io.bourse.ouch.OrderRejected;
import io.bourse.ouch.OrderReplaced;
import io.bourse.ouch.Ouch42;
import org.HdrHistogram.Histogram;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.withinPercentage;

class OrderEntryAdapterTest
{
    private static final long AAPL = Symbols.pack("AAPL");
    private static final long MSFT = Symbols.pack("MSFT");

    private final OrderTokens tokens = new OrderTokens(5, 0);
    private final OpenOrders openOrders = new OpenOrders(16);
    private final InFlightOrders inFlight = new InFlightOrders(16);
    private final InFlightOrders replacesInFlight = new InFlightOrders(16);
    private final SimulatorCounters counters = new SimulatorCounters();
    private final LatencyTracker roundTrip = new LatencyTracker(new LatencySummary("test_seconds", "test"));
    private final LatencyTracker replaceRoundTrip =
        new LatencyTracker(new LatencySummary("test_replace_seconds", "test"));
    private final OrderEntryAdapter adapter = new OrderEntryAdapter(tokens, openOrders, inFlight, replacesInFlight,
        new long[]{AAPL, MSFT}, counters, roundTrip, replaceRoundTrip);
    private final ByteBuffer payload = ByteBuffer.allocateDirect(128);
    private final UnsafeBuffer buffer = new UnsafeBuffer(payload);
    private final byte[] token = new byte[OrderTokens.LENGTH];
    private final byte[] previousToken = new byte[OrderTokens.LENGTH];

    @Test
    void shouldMeasureTheRoundTripFromTheIntendedSendTimeAndTrackLiveOrders()
    {
        inFlight.add(1, 1_000);
        inFlight.add(2, 2_000);
        adapter.nowNs(50_000);

        accepted(1, 'B', 300, MSFT, 990_000, Ouch42.TIME_IN_FORCE_MARKET_HOURS, Ouch42.ORDER_STATE_LIVE);
        accepted(2, 'S', 100, AAPL, 980_000, Ouch42.TIME_IN_FORCE_IMMEDIATE_OR_CANCEL, Ouch42.ORDER_STATE_LIVE);

        assertThat(roundTrip.sampleInterval().getTotalCount()).isEqualTo(2);
        assertThat(roundTrip.total().getMinValue()).isCloseTo(48_000L, withinPercentage(0.1));
        assertThat(roundTrip.total().getMaxValue()).isCloseTo(49_000L, withinPercentage(0.1));
        assertThat(inFlight.size()).isZero();
        assertThat(open()).containsExactly(new Open(1, 1, 'B', 990_000, 300, 0));
        assertThat(counters.get(SimulatorCounter.ACCEPTED)).isEqualTo(2);
    }

    @Test
    void shouldFollowExecutionsCancelsAndReplaces()
    {
        accepted(1, 'B', 500, AAPL, 990_000, Ouch42.TIME_IN_FORCE_MARKET_HOURS, Ouch42.ORDER_STATE_LIVE);
        accepted(2, 'S', 200, AAPL, 1_010_000, Ouch42.TIME_IN_FORCE_MARKET_HOURS, Ouch42.ORDER_STATE_LIVE);
        accepted(3, 'S', 100, MSFT, 1_020_000, Ouch42.TIME_IN_FORCE_MARKET_HOURS, Ouch42.ORDER_STATE_LIVE);

        executed(1, 200);
        canceled(1, 100);
        executed(2, 200);
        executed(3, 40);
        replaced(3, 4, 'S', 300, MSFT, 1_030_000);

        assertThat(open()).containsExactly(
            new Open(1, 0, 'B', 990_000, 200, 200),
            new Open(4, 1, 'S', 1_030_000, 300, 40));
        assertThat(List.of(
            counters.get(SimulatorCounter.EXECUTED),
            counters.get(SimulatorCounter.EXECUTED_SHARES),
            counters.get(SimulatorCounter.CANCELED),
            counters.get(SimulatorCounter.REPLACED)))
            .containsExactly(3L, 440L, 1L, 1L);
    }

    @Test
    void shouldKeepACancelInFlightPendingThroughAnotherPartialCanceledUntilItsOwnAnswer()
    {
        accepted(1, 'B', 500, AAPL, 990_000, Ouch42.TIME_IN_FORCE_MARKET_HOURS, Ouch42.ORDER_STATE_LIVE);
        openOrders.markCancelPending(openOrders.slotOf(1), 100);

        aiqCanceled(1, 150); // self-match prevention's decrement, before the exchange takes the cancel
        final boolean pendingAfterDecrement = openOrders.isPending(openOrders.slotOf(1));
        canceled(1, 250); // the cancel's answer: 100 shares left

        assertThat(pendingAfterDecrement).isTrue();
        assertThat(openOrders.isPending(openOrders.slotOf(1))).isFalse();
        assertThat(open()).containsExactly(new Open(1, 0, 'B', 990_000, 100, 0));
    }

    @Test
    void shouldCountRejectsByReasonAndEndTheirRoundTrip()
    {
        inFlight.add(1, 0);

        rejected(1, Ouch42.REJECT_INVALID_PRICE);
        rejected(9, Ouch42.REJECT_INVALID_PRICE);

        assertThat(counters.rejectsByReason()).isEqualTo(Map.of('X', 2L));
        assertThat(inFlight.size()).isZero();
        assertThat(roundTrip.sampleInterval().getTotalCount()).isEqualTo(1);
    }

    @Test
    void shouldLetAnOrderBeTargetedAgainOnceItsReplacementIsRejected()
    {
        accepted(1, 'B', 500, AAPL, 990_000, Ouch42.TIME_IN_FORCE_MARKET_HOURS, Ouch42.ORDER_STATE_LIVE);
        openOrders.markReplacePending(openOrders.slotOf(1), 2);

        rejected(2, Ouch42.REJECT_INVALID_PRICE);

        assertThat(openOrders.isPending(openOrders.slotOf(1))).isFalse();
        assertThat(open()).containsExactly(new Open(1, 0, 'B', 990_000, 500, 0));
    }

    @Test
    void shouldMeasureAReplacesRoundTripToItsReplacedOrRejectedApartFromTheEnterOrders()
    {
        accepted(1, 'B', 500, AAPL, 990_000, Ouch42.TIME_IN_FORCE_MARKET_HOURS, Ouch42.ORDER_STATE_LIVE);
        accepted(2, 'B', 500, AAPL, 980_000, Ouch42.TIME_IN_FORCE_MARKET_HOURS, Ouch42.ORDER_STATE_LIVE);
        replacesInFlight.add(3, 10_000);
        replacesInFlight.add(4, 20_000);
        inFlight.add(5, 30_000);
        openOrders.markReplacePending(openOrders.slotOf(2), 4);
        adapter.nowNs(100_000);

        replaced(1, 3, 'B', 500, AAPL, 1_000_000);
        rejected(4, Ouch42.REJECT_INVALID_PRICE);
        rejected(5, Ouch42.REJECT_INVALID_PRICE);

        final Histogram replaces = replaceRoundTrip.sampleInterval();
        assertThat(replaces.getTotalCount()).isEqualTo(2);
        assertThat(replaces.getMinValue()).isCloseTo(80_000L, withinPercentage(0.1));
        assertThat(replaces.getMaxValue()).isCloseTo(90_000L, withinPercentage(0.1));
        final Histogram enters = roundTrip.sampleInterval();
        assertThat(enters.getTotalCount()).isEqualTo(1);
        assertThat(enters.getMaxValue()).isCloseTo(70_000L, withinPercentage(0.1));
        assertThat(replacesInFlight.size()).isZero();
        assertThat(openOrders.isPending(openOrders.slotOf(2))).isFalse();
    }

    @Test
    void shouldStopAwaitingAReplaceOnceItsOrderHasLeftTheBook()
    {
        accepted(1, 'B', 500, AAPL, 990_000, Ouch42.TIME_IN_FORCE_MARKET_HOURS, Ouch42.ORDER_STATE_LIVE);
        accepted(2, 'S', 300, MSFT, 1_010_000, Ouch42.TIME_IN_FORCE_MARKET_HOURS, Ouch42.ORDER_STATE_LIVE);
        accepted(3, 'S', 200, MSFT, 1_020_000, Ouch42.TIME_IN_FORCE_MARKET_HOURS, Ouch42.ORDER_STATE_LIVE);
        accepted(4, 'B', 400, AAPL, 980_000, Ouch42.TIME_IN_FORCE_MARKET_HOURS, Ouch42.ORDER_STATE_LIVE);
        for (long order = 1; order <= 4; order++)
        {
            replacesInFlight.add(order + 10, 10_000);
            openOrders.markReplacePending(openOrders.slotOf(order), order + 10);
        }
        adapter.nowNs(100_000);

        // Order 1 executes in full before its replace reaches the exchange, which ignores the replace (OUCH 4.2 §2.2);
        // order 2's replace fails the gateway's checks: the order is canceled out ('U'), the replacement never
        // answered; order 3 executes in part, and order 4 is canceled in part (self-trade prevention's decrement):
        // their replaces are still awaited, and neither order is targeted again meanwhile.
        executed(1, 200);
        executed(1, 300);
        canceled(2, 300);
        executed(3, 100);
        canceled(4, 150);

        assertThat(replacesInFlight.size()).isEqualTo(2);
        assertThat(replacesInFlight.remove(13)).isEqualTo(10_000);
        assertThat(replacesInFlight.remove(14)).isEqualTo(10_000);
        assertThat(replaceRoundTrip.sampleInterval().getTotalCount()).isZero();
        assertThat(open()).containsExactlyInAnyOrder(
            new Open(3, 1, 'S', 1_020_000, 100, 100), new Open(4, 0, 'B', 980_000, 250, 0));
        assertThat(openOrders.isPending(openOrders.slotOf(3))).isTrue();
        assertThat(openOrders.isPending(openOrders.slotOf(4))).isTrue();
        assertThat(openOrders.pendingReplacement(4)).isEqualTo(14);
    }

    /**
     * The gateway answers a self-match prevention's cancel with AIQ Canceled 'D' in place of Canceled: its shares
     * leave the order. Before, 'D' was counted as another message and the order kept them.
     */
    @Test
    void shouldReduceTheOrderByTheDecrementSharesOfAnAiqCanceled()
    {
        accepted(1, 'B', 500, AAPL, 990_000, Ouch42.TIME_IN_FORCE_MARKET_HOURS, Ouch42.ORDER_STATE_LIVE);
        accepted(2, 'S', 200, AAPL, 1_010_000, Ouch42.TIME_IN_FORCE_MARKET_HOURS, Ouch42.ORDER_STATE_LIVE);

        aiqCanceled(1, 200);
        aiqCanceled(2, 200);

        assertThat(open()).containsExactly(new Open(1, 0, 'B', 990_000, 300, 0));
        assertThat(counters.get(SimulatorCounter.CANCELED)).isEqualTo(2);
        assertThat(counters.get(SimulatorCounter.OTHER_IN)).isZero();
    }

    @Test
    void shouldCountMessagesOfAnotherLengthThanTheirTypesAndForeignTokensAsErrors()
    {
        payload.clear().limit(OrderAccepted.LENGTH - 1);
        buffer.putByte(0, OrderAccepted.TYPE);
        adapter.message(payload);
        payload.clear().limit(OrderAccepted.LENGTH + 1);
        adapter.message(payload);
        new OrderTokens(6, 0).encode(1, token);
        new OrderExecuted().wrapAndApplyType(buffer, 0).orderToken(token).executedShares(100);
        deliver(OrderExecuted.LENGTH);

        assertThat(counters.errors().count(SimulatorError.MALFORMED_OUCH)).isEqualTo(2);
        assertThat(counters.errors().count(SimulatorError.UNKNOWN_ORDER_TOKEN)).isEqualTo(1);
        assertThat(counters.errors().total()).isEqualTo(3);
        assertThat(counters.get(SimulatorCounter.ACCEPTED)).isZero();
    }

    private void accepted(
        final long counter, final char side, final long shares, final long stock, final long price,
        final long timeInForce, final byte state)
    {
        tokens.encode(counter, token);
        new OrderAccepted().wrapAndApplyType(buffer, 0).orderToken(token).buySellIndicator((byte)side)
            .shares(shares).stock(stock).price(price).timeInForce(timeInForce).orderState(state);
        deliver(OrderAccepted.LENGTH);
    }

    private void executed(final long counter, final long shares)
    {
        tokens.encode(counter, token);
        new OrderExecuted().wrapAndApplyType(buffer, 0).orderToken(token).executedShares(shares);
        deliver(OrderExecuted.LENGTH);
    }

    private void canceled(final long counter, final long decrement)
    {
        tokens.encode(counter, token);
        new OrderCanceled().wrapAndApplyType(buffer, 0).orderToken(token).decrementShares(decrement)
            .reason(Ouch42.CANCEL_USER_REQUESTED);
        deliver(OrderCanceled.LENGTH);
    }

    private void aiqCanceled(final long counter, final long decrement)
    {
        tokens.encode(counter, token);
        new AiqCanceled().wrapAndApplyType(buffer, 0).orderToken(token).decrementShares(decrement)
            .reason(Ouch42.CANCEL_SELF_MATCH_PREVENTION);
        deliver(AiqCanceled.LENGTH);
    }

    private void rejected(final long counter, final byte reason)
    {
        tokens.encode(counter, token);
        new OrderRejected().wrapAndApplyType(buffer, 0).orderToken(token).reason(reason);
        deliver(OrderRejected.LENGTH);
    }

    private void replaced(
        final long previous, final long counter, final char side, final long shares, final long stock,
        final long price)
    {
        tokens.encode(previous, previousToken);
        tokens.encode(counter, token);
        new OrderReplaced().wrapAndApplyType(buffer, 0).replacementOrderToken(token).buySellIndicator((byte)side)
            .shares(shares).stock(stock).price(price).timeInForce(Ouch42.TIME_IN_FORCE_MARKET_HOURS)
            .orderState(Ouch42.ORDER_STATE_LIVE).previousOrderToken(previousToken);
        deliver(OrderReplaced.LENGTH);
    }

    private void deliver(final int length)
    {
        payload.clear().limit(length);
        adapter.message(payload);
    }

    private List<Open> open()
    {
        final List<Open> result = new ArrayList<>();
        for (int slot = 0; slot < openOrders.size(); slot++)
        {
            result.add(new Open(openOrders.counter(slot), openOrders.symbolIndex(slot), (char)openOrders.side(slot),
                openOrders.price(slot), openOrders.shares(slot), openOrders.executed(slot)));
        }
        return result;
    }

    /** An open order as tracked: open shares, and the shares its order/replace chain executed. */
    private record Open(long counter, int symbolIndex, char side, long price, long shares, long executed)
    {
    }
}
