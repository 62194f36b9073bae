package io.bourse.gateway;

import io.bourse.gateway.OuchMessages.Accepted;
import io.bourse.gateway.OuchMessages.CancelPendingMessage;
import io.bourse.gateway.OuchMessages.CancelRejectMessage;
import io.bourse.gateway.OuchMessages.Canceled;
import io.bourse.gateway.OuchMessages.Executed;
import io.bourse.gateway.OuchMessages.Modified;
import io.bourse.gateway.OuchMessages.Rejected;
import io.bourse.gateway.OuchMessages.Replaced;
import io.bourse.gateway.RecordingEngineProxy.Cancel;
import io.bourse.gateway.RecordingEngineProxy.NewOrder;
import io.bourse.gateway.RecordingEngineProxy.Replace;
import io.bourse.ouch.Ouch42;
import io.bourse.sbe.engine.Side;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static io.bourse.gateway.OrderEntryFixture.DAY;
import static io.bourse.gateway.OrderEntryFixture.MAX_ORDER_SHARES;
import static io.bourse.gateway.OrderEntryFixture.PRICE;
import static io.bourse.gateway.OrderEntryFixture.T0;
import static io.bourse.gateway.OrderEntryFixture.T1;
import static io.bourse.gateway.OrderEntryFixture.T2;
import static io.bourse.gateway.OrderEntryFixture.id;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The closing cross through the order entry (OUCH 4.2 Cross Type 'C'): limit-on-close orders to the engine and back,
 * executions with liquidity flag 'C', Cancel Pending and Cancel Reject for cancels and modifies during the cross's late
 * period, the engine's cross reasons passed through, and pre-trade risk on cross orders.
 */
class ClosingCrossTest
{
    /** Another gateway's clientOrderId, for the other side of a trade. */
    private static final long OTHER = (2L << 56) | 77;

    @TempDir
    private Path journalDir;
    private OrderEntryFixture fixture;

    @AfterEach
    void close()
    {
        fixture.close();
    }

    @Test
    void shouldSendCrossTypeCToTheEngineAndEchoItInAcceptedAndReplacedWhenALimitOnCloseOrderIsEntered()
        throws IOException
    {
        fixture = new OrderEntryFixture(journalDir, RiskLimits.none());
        fixture.enterOrder("L1").buySellIndicator(Ouch42.SIDE_SELL).display(Ouch42.DISPLAY_ATTRIBUTABLE)
            .crossType(Ouch42.CROSS_TYPE_CLOSING);
        fixture.send(fixture.alice);
        fixture.events.accepted(T1, id(1, 1), 101, "AAPL", Side.SELL, 100, PRICE, DAY, 'A');
        fixture.replaceOrder("L1", "L2").shares(60).price(PRICE + 100).display(Ouch42.DISPLAY_ATTRIBUTABLE);
        fixture.send(fixture.alice);
        fixture.events.replaced(T2, id(1, 1), id(1, 2), 101, 102, "AAPL", Side.SELL, 60, PRICE + 100);

        assertThat(fixture.engine.commands()).isEqualTo(List.of(
            new NewOrder(0, T0, id(1, 1), "AAPL", false, 100, PRICE, DAY, 0, "DEMO", 'A', 'C'),
            new Replace(0, T0, id(1, 1), id(1, 2), 60, PRICE + 100, DAY)));
        assertThat(fixture.messages(fixture.alice)).isEqualTo(List.of(
            new Accepted(T1, "L1", 'S', 100, "AAPL", PRICE, DAY, "DEMO", 'A', 101, 'A', 'N', 0, 'C', 'L', ' '),
            new Replaced(T2, "L2", 'S', 60, "AAPL", PRICE + 100, DAY, "DEMO", 'A', 102, 'A', 'N', 0, 'C', 'L', "L1",
                ' ')));
        assertThat(fixture.orderEntry.openOrderCount()).isEqualTo(1);
    }

    /**
     * OUCH 4.2 &sect;2.2 cancels the order of a replace with invalid details, but the engine would only make a
     * closing-cross order's cancel pending while the cross is locked, which the gateway cannot see: the replace is
     * Rejected, its token consumed, and the order stays.
     */
    @Test
    void shouldRejectARefusedReplaceOfAClosingCrossOrderAndKeepTheOrder() throws IOException
    {
        fixture = new OrderEntryFixture(journalDir, RiskLimits.none());
        fixture.enterOrder("L1").crossType(Ouch42.CROSS_TYPE_CLOSING);
        fixture.send(fixture.alice);
        fixture.events.accepted(T1, id(1, 1), 101, "AAPL", Side.BUY, 100, PRICE, DAY);
        fixture.replaceOrder("L1", "L2").shares(MAX_ORDER_SHARES + 1);
        fixture.send(fixture.alice);
        fixture.replaceOrder("L1", "L2").shares(60);
        fixture.send(fixture.alice);

        assertThat(fixture.engine.commands()).hasSize(1);
        assertThat(fixture.messages(fixture.alice).subList(1, 2)).isEqualTo(List.of(new Rejected(T0, "L2", 'Z')));
        assertThat(fixture.rejects("invalid_shares")).isEqualTo(1);
        assertThat(fixture.rejects("duplicate_token")).as("L2, consumed by its Rejected").isEqualTo(1);
        assertThat(fixture.orderEntry.openOrderCount()).isEqualTo(1);
    }

    @Test
    void shouldSendExecutedWithLiquidityFlagCToBothPartiesAndPassTheCrossCancelThroughWhenTheCrossRuns()
        throws IOException
    {
        fixture = new OrderEntryFixture(journalDir, RiskLimits.none());
        enterCrossAccepted(fixture.alice, "L1", 'B', 1);
        fixture.enterAccepted(fixture.bob, "S1", 'S', 1);
        enterCrossAccepted(fixture.bob, "L2", 'S', 2);

        fixture.events.executed(T2, 7, "AAPL", 30, PRICE, id(1, 1), 101, Side.BUY, id(2, 1), 101, 70, 70, 'C');
        fixture.events.executed(T2, 8, "AAPL", 50, PRICE, id(1, 1), 101, Side.BUY, id(2, 2), 102, 50, 20, 'C');
        fixture.events.canceled(T2, id(1, 1), 101, "AAPL", 20, 0, Ouch42.CANCEL_CROSS, false);
        fixture.events.canceled(T2, id(2, 2), 102, "AAPL", 50, 0, Ouch42.CANCEL_CROSS, false);
        fixture.events.crossCompleted(T2, "AAPL", PRICE, 80, 9);

        assertThat(fixture.messages(fixture.alice)).isEqualTo(List.of(
            new Accepted(T1, "L1", 'B', 100, "AAPL", PRICE, DAY, "DEMO", 'Y', 101, 'A', 'N', 0, 'C', 'L', ' '),
            new Executed(T2, "L1", 30, PRICE, 'C', 7),
            new Executed(T2, "L1", 50, PRICE, 'C', 8),
            new Canceled(T2, "L1", 20, 'C')));
        assertThat(fixture.messages(fixture.bob)).isEqualTo(List.of(
            new Accepted(T1, "S1", 'S', 100, "AAPL", PRICE, DAY, "BOBS", 'Y', 101, 'A', 'N', 0, 'N', 'L', ' '),
            new Accepted(T1, "L2", 'S', 100, "AAPL", PRICE, DAY, "BOBS", 'Y', 102, 'A', 'N', 0, 'C', 'L', ' '),
            new Executed(T2, "S1", 30, PRICE, 'C', 7),
            new Executed(T2, "L2", 50, PRICE, 'C', 8),
            new Canceled(T2, "L2", 50, 'C')));
        assertThat(fixture.orderEntry.openOrderCount()).as("S1 rests on with 70").isEqualTo(1);
        assertThat(Metrics.counter(fixture.registry, "bourse_gateway_errors_total", "unknown_event"))
            .as("CrossCompleted is no unknown event").isZero();
        assertThat(Metrics.sum(fixture.registry, "bourse_gateway_errors_total")).isZero();
        assertThat(Metrics.counter(fixture.registry, "bourse_gateway_unmatched_events_total", null)).isZero();
        assertThat(Metrics.counter(fixture.registry, "bourse_gateway_messages_out_total", "executed")).isEqualTo(4);
    }

    @Test
    void shouldAnswerCancelPendingAndCancelWhatTheCrossLeavesWhenAFullCancelComesDuringTheLatePeriod()
        throws IOException
    {
        fixture = new OrderEntryFixture(journalDir, RiskLimits.none());
        enterCrossAccepted(fixture.alice, "L1", 'B', 1);

        fixture.cancelOrder("L1", 0);
        fixture.send(fixture.alice);
        fixture.events.cancelPending(T1, id(1, 1), 101, "AAPL");
        fixture.cancelOrder("L1", 0);
        fixture.send(fixture.alice);
        fixture.events.cancelPending(T1, id(1, 1), 101, "AAPL");
        final long openDuringTheLock = fixture.orderEntry.openOrderCount();
        fixture.events.executed(T2, 7, "AAPL", 40, PRICE, id(1, 1), 101, Side.BUY, OTHER, 9, 0, 60, 'C');
        fixture.events.canceled(T2, id(1, 1), 101, "AAPL", 60, 0, Ouch42.CANCEL_USER_REQUESTED, false);

        assertThat(fixture.engine.commands().subList(1, 3)).isEqualTo(List.of(
            new Cancel(0, T0, id(1, 1), 0),
            new Cancel(0, T0, id(1, 1), 0)));
        assertThat(fixture.messages(fixture.alice).subList(1, 5)).isEqualTo(List.of(
            new CancelPendingMessage(T1, "L1"),
            new CancelPendingMessage(T1, "L1"),
            new Executed(T2, "L1", 40, PRICE, 'C', 7),
            new Canceled(T2, "L1", 60, 'U')));
        assertThat(openDuringTheLock).isEqualTo(1);
        assertThat(fixture.orderEntry.openOrderCount()).isZero();
        assertThat(Metrics.counter(fixture.registry, "bourse_gateway_messages_out_total", "cancel_pending"))
            .isEqualTo(2);
    }

    @Test
    void shouldAnswerCancelRejectAndPassTheLateRejectsThroughWhenTheOrderCannotChangeDuringTheLatePeriod()
        throws IOException
    {
        fixture = new OrderEntryFixture(journalDir, RiskLimits.none());
        enterCrossAccepted(fixture.alice, "L1", 'B', 1);

        fixture.cancelOrder("L1", 30);
        fixture.send(fixture.alice);
        fixture.events.cancelRejected(T1, id(1, 1), 101, "AAPL");
        fixture.replaceOrder("L1", "L2").shares(50);
        fixture.send(fixture.alice);
        fixture.events.rejected(T1, id(1, 2), "AAPL", Ouch42.REJECT_OUTSIDE_PERMITTED_TIMES);
        fixture.enterOrder("L3").crossType(Ouch42.CROSS_TYPE_CLOSING);
        fixture.send(fixture.alice);
        fixture.events.rejected(T1, id(1, 3), "AAPL", Ouch42.REJECT_OUTSIDE_PERMITTED_TIMES);
        fixture.events.canceled(T2, id(1, 1), 101, "AAPL", 100, 0, Ouch42.CANCEL_CROSS, false);

        assertThat(fixture.engine.commands().subList(1, 4)).isEqualTo(List.of(
            new Cancel(0, T0, id(1, 1), 30),
            new Replace(0, T0, id(1, 1), id(1, 2), 50, PRICE, DAY),
            new NewOrder(0, T0, id(1, 3), "AAPL", true, 100, PRICE, DAY, 0, "DEMO", 'Y', 'C')));
        assertThat(fixture.messages(fixture.alice).subList(1, 5)).isEqualTo(List.of(
            new CancelRejectMessage(T1, "L1"),
            new Rejected(T1, "L2", 'M'),
            new Rejected(T1, "L3", 'M'),
            new Canceled(T2, "L1", 100, 'C')));
        assertThat(fixture.orderEntry.openOrderCount()).isZero();
        assertThat(Metrics.counter(fixture.registry, "bourse_gateway_messages_out_total", "cancel_reject"))
            .isEqualTo(1);
    }

    @Test
    void shouldAnswerAModifyOrderWithCancelRejectOrCancelPendingWhenTheEngineRefusesItsCancelDuringTheLatePeriod()
        throws IOException
    {
        fixture = new OrderEntryFixture(journalDir, RiskLimits.none());
        enterCrossAccepted(fixture.alice, "S1", 'S', 1);

        fixture.modifyOrder("S1", 'T', 40);
        fixture.send(fixture.alice);
        fixture.modifyOrder("S1", 'E', 100);
        fixture.send(fixture.alice);
        fixture.events.cancelRejected(T1, id(1, 1), 101, "AAPL");
        fixture.modifyOrder("S1", 'E', 0);
        fixture.send(fixture.alice);
        fixture.events.cancelPending(T2, id(1, 1), 101, "AAPL");
        fixture.events.canceled(T2, id(1, 1), 101, "AAPL", 100, 0, Ouch42.CANCEL_USER_REQUESTED, false);

        assertThat(fixture.engine.commands().subList(1, 3)).isEqualTo(List.of(
            new Cancel(0, T0, id(1, 1), 40),
            new Cancel(0, T0, id(1, 1), 0)));
        assertThat(fixture.messages(fixture.alice).subList(1, 5)).as("the side-only modify waits its turn")
            .isEqualTo(List.of(
                new CancelRejectMessage(T1, "S1"),
                new Modified(T1, "S1", 'E', 100),
                new CancelPendingMessage(T2, "S1"),
                new Canceled(T2, "S1", 100, 'U')));
        assertThat(fixture.orderEntry.openOrderCount()).isZero();
    }

    @Test
    void shouldJournalCancelPendingForTheNextLoginWhenCancelOnDisconnectComesDuringTheLatePeriod()
        throws IOException
    {
        fixture = new OrderEntryFixture(journalDir, RiskLimits.none());
        enterCrossAccepted(fixture.alice, "L1", 'B', 1);

        fixture.orderEntry.onSessionEnd(fixture.alice);
        assertThat(fixture.orderEntry.ordersAwaitingAnswer((shard) -> true)).as("its cancel's answer").isOne();
        assertThat(fixture.orderEntry.ordersAwaitingAnswer((shard) -> false)).as("no shard answering").isZero();
        fixture.events.cancelPending(T2, id(1, 1), 101, "AAPL");
        assertThat(fixture.orderEntry.ordersAwaitingAnswer((shard) -> true)).as("canceled after the cross").isZero();

        assertThat(fixture.engine.commands().subList(1, 2)).isEqualTo(List.of(new Cancel(0, T0, id(1, 1), 0)));
        assertThat(fixture.messages(fixture.alice).subList(1, 2)).isEqualTo(List.of(
            new CancelPendingMessage(T2, "L1")));
        assertThat(fixture.orderEntry.openOrderCount()).isEqualTo(1);
        assertThat(Metrics.counter(fixture.registry, "bourse_gateway_cancel_on_disconnect_total", null)).isEqualTo(1);
    }

    @Test
    void shouldCollarALimitOnCloseOrderAroundTheLastTradeWhichTheCrossMoves() throws IOException
    {
        fixture = new OrderEntryFixture(journalDir,
            RiskLimits.parse(RiskLimits.NO_LIMITS, List.of("bob,,,,1000,,Y"), List.of(), Map.of("AAPL", PRICE)));
        fixture.enterOrder("FAT").crossType(Ouch42.CROSS_TYPE_CLOSING).price(1_700_000);
        fixture.send(fixture.bob);
        fixture.events.executed(T1, 7, "AAPL", 100, 1_600_000, OTHER, 8, Side.BUY, OTHER + 1, 9, 0, 0, 'C');
        fixture.enterOrder("FINE").crossType(Ouch42.CROSS_TYPE_CLOSING).price(1_700_000);
        fixture.send(fixture.bob);

        assertThat(fixture.messages(fixture.bob)).isEqualTo(List.of(new Rejected(T0, "FAT", 'X')));
        assertThat(fixture.engine.commands()).isEqualTo(List.of(
            new NewOrder(0, T0, id(2, 1), "AAPL", true, 100, 1_700_000, DAY, 0, "BOBS", 'Y', 'C')));
        assertThat(fixture.rejects("risk_price_band")).isEqualTo(1);
    }

    /** Enters a limit-on-close day order of 100 AAPL at $150.00 and has the engine accept it whole. */
    private void enterCrossAccepted(final UserSession session, final String token, final char side, final long count)
    {
        fixture.enterOrder(token).buySellIndicator((byte)side).crossType(Ouch42.CROSS_TYPE_CLOSING);
        fixture.send(session);
        fixture.events.accepted(T1, id(session == fixture.alice ? 1 : 2, count), 100 + count, "AAPL",
            Ouch42.SIDE_BUY == side ? Side.BUY : Side.SELL, 100, PRICE, DAY);
    }
}
