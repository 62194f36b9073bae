package io.bourse.gateway;

import io.bourse.gateway.OuchMessages.Accepted;
import io.bourse.gateway.OuchMessages.Canceled;
import io.bourse.gateway.OuchMessages.Rejected;
import io.bourse.gateway.OuchMessages.SystemEventMessage;
import io.bourse.gateway.RecordingEngineProxy.Cancel;
import io.bourse.gateway.RecordingEngineProxy.NewOrder;
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
import static io.bourse.gateway.OrderEntryFixture.NANO_TIME;
import static io.bourse.gateway.OrderEntryFixture.PRICE;
import static io.bourse.gateway.OrderEntryFixture.T0;
import static io.bourse.gateway.OrderEntryFixture.T1;
import static io.bourse.gateway.OrderEntryFixture.T2;
import static io.bourse.gateway.OrderEntryFixture.id;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The close of the trading day in the order entry ({@link OrderEntry#closeMarket()}): every open order canceled
 * through the engine whatever its user's cancel on disconnect (one cancel per order with the cancels on disconnect),
 * answered Canceled 'T'; Enter Orders Rejected 'C' and Replace Orders refused as OUCH 4.2 &sect;2.2 says; Cancel
 * Orders as before.
 */
class MarketCloseTest
{
    @TempDir
    private Path journalDir;
    private OrderEntryFixture fixture;

    @AfterEach
    void close()
    {
        fixture.close();
    }

    @Test
    void shouldCancelEveryOpenOrderAtTheCloseWhateverTheCancelOnDisconnectAndAnswerCanceledT() throws IOException
    {
        fixture = new OrderEntryFixture(journalDir, RiskLimits.parse(
            RiskLimits.NO_LIMITS, List.of("bob,,,,,,N"), List.of(), Map.of()));
        fixture.enterAccepted(fixture.alice, "A1", 'B', 1);
        fixture.enterAccepted(fixture.bob, "B1", 'S', 1);
        fixture.enterOrder("A2");
        fixture.send(fixture.alice); // in flight at the close: the engine takes the cancel after it
        final int before = fixture.engine.commands().size();

        fixture.clock.set(NANO_TIME, T2);
        fixture.orderEntry.closeMarket();
        final int sent = fixture.orderEntry.retryCancels();
        fixture.orderEntry.closeMarket();
        final int sentAgain = fixture.orderEntry.retryCancels();
        fixture.events.canceled(T2, id(1, 1), 101, "AAPL", 100, 0, Ouch42.CANCEL_USER_REQUESTED);
        fixture.events.canceled(T2, id(2, 1), 101, "AAPL", 100, 0, Ouch42.CANCEL_USER_REQUESTED);
        fixture.events.accepted(T2, id(1, 2), 102, "AAPL", Side.BUY, 100, PRICE, DAY);
        fixture.events.canceled(T2, id(1, 2), 102, "AAPL", 100, 0, Ouch42.CANCEL_USER_REQUESTED);

        assertThat(sent).isEqualTo(3);
        assertThat(sentAgain).as("a second close changes nothing").isZero();
        assertThat(fixture.engine.commands().subList(before, fixture.engine.commands().size()))
            .containsExactlyInAnyOrder(
                new Cancel(0, T2, id(1, 1), 0),
                new Cancel(0, T2, id(2, 1), 0),
                new Cancel(0, T2, id(1, 2), 0));
        assertThat(fixture.messages(fixture.alice)).containsExactly(
            new Accepted(T1, "A1", 'B', 100, "AAPL", PRICE, DAY, "DEMO", 'Y', 101, 'A', 'N', 0, 'N', 'L', ' '),
            new Canceled(T2, "A1", 100, 'T'),
            new Accepted(T2, "A2", 'B', 100, "AAPL", PRICE, DAY, "DEMO", 'Y', 102, 'A', 'N', 0, 'N', 'L', ' '),
            new Canceled(T2, "A2", 100, 'T'));
        assertThat(fixture.messages(fixture.bob)).last().isEqualTo(new Canceled(T2, "B1", 100, 'T'));
        assertThat(fixture.orderEntry.openOrderCount()).isZero();
    }

    /**
     * The close's drain time ended the day with orders still open (their shard down), End of Day journaled; the shard
     * back, it answers them. None of its answers is journaled, as OUCH 4.2's End of Day is the session's last message:
     * each is counted as {@code answer_after_end_of_day}, and the orders are done all the same. Before, they followed
     * the End of Day.
     */
    @Test
    void shouldJournalNoAnswerAfterTheSessionsEndOfDayAndStillFinishTheOrders() throws IOException
    {
        fixture = new OrderEntryFixture(journalDir, RiskLimits.none());
        fixture.enterAccepted(fixture.alice, "A1", 'B', 1);
        fixture.enterOrder("A2");
        fixture.send(fixture.alice);
        fixture.clock.set(NANO_TIME, T2);
        fixture.orderEntry.closeMarket();
        assertThat(fixture.orderEntry.retryCancels()).isEqualTo(2);
        fixture.endDay(fixture.alice);

        fixture.events.canceled(T2, id(1, 1), 101, "AAPL", 100, 0, Ouch42.CANCEL_USER_REQUESTED);
        fixture.events.accepted(T2, id(1, 2), 102, "AAPL", Side.BUY, 100, PRICE, DAY);
        fixture.events.canceled(T2, id(1, 2), 102, "AAPL", 100, 0, Ouch42.CANCEL_USER_REQUESTED);

        assertThat(fixture.messages(fixture.alice)).containsExactly(
            new Accepted(T1, "A1", 'B', 100, "AAPL", PRICE, DAY, "DEMO", 'Y', 101, 'A', 'N', 0, 'N', 'L', ' '),
            new SystemEventMessage(T2, 'E'));
        assertThat(Metrics.counter(fixture.registry, "bourse_gateway_errors_total", "answer_after_end_of_day"))
            .isEqualTo(3);
        assertThat(Metrics.counter(fixture.registry, "bourse_gateway_messages_out_total", "accepted")).isOne();
        assertThat(Metrics.counter(fixture.registry, "bourse_gateway_messages_out_total", "canceled")).isZero();
        assertThat(fixture.orderEntry.openOrderCount()).isZero();
    }

    @Test
    void shouldSendOneCancelPerOrderBetweenTheCancelOnDisconnectAndTheCloseAndCountThemApart() throws IOException
    {
        fixture = new OrderEntryFixture(journalDir, RiskLimits.none());
        fixture.enterAccepted(fixture.alice, "A1", 'B', 1);
        fixture.enterAccepted(fixture.bob, "B1", 'S', 1);
        final int before = fixture.engine.commands().size();

        fixture.clock.set(NANO_TIME, T2);
        fixture.orderEntry.onSessionEnd(fixture.bob); // B1's cancel on disconnect goes; no answer yet at the close
        fixture.orderEntry.closeMarket();
        final int sentAtClose = fixture.orderEntry.retryCancels();
        fixture.orderEntry.onSessionEnd(fixture.alice); // End of Session: A1's cancel went with the close
        fixture.orderEntry.onSessionEnd(fixture.bob);

        assertThat(sentAtClose).isOne();
        assertThat(fixture.engine.commands().subList(before, fixture.engine.commands().size())).containsExactly(
            new Cancel(0, T2, id(2, 1), 0),
            new Cancel(0, T2, id(1, 1), 0));
        assertThat(Metrics.sum(fixture.registry, "bourse_gateway_cancel_on_disconnect_total")).isOne();
        assertThat(Metrics.sum(fixture.registry, "bourse_gateway_close_cancels_total")).isOne();

        fixture.events.canceled(T2, id(2, 1), 101, "AAPL", 100, 0, Ouch42.CANCEL_USER_REQUESTED);
        fixture.events.canceled(T2, id(1, 1), 101, "AAPL", 100, 0, Ouch42.CANCEL_USER_REQUESTED);
        assertThat(fixture.messages(fixture.bob)).last().as("the disconnect's cancel, not the close's")
            .isEqualTo(new Canceled(T2, "B1", 100, 'U'));
        assertThat(fixture.messages(fixture.alice)).last().isEqualTo(new Canceled(T2, "A1", 100, 'T'));
        assertThat(fixture.orderEntry.openOrderCount()).isZero();
    }

    @Test
    void shouldRejectAnEnterOrderAfterTheCloseAsExchangeClosedWhateverTheUsersOrderRate() throws IOException
    {
        fixture = new OrderEntryFixture(journalDir, RiskLimits.parse(
            RiskLimits.NO_LIMITS, List.of("alice,,,,,1,Y"), List.of(), Map.of()));
        fixture.enterAccepted(fixture.alice, "A1", 'B', 1);
        fixture.orderEntry.closeMarket();

        fixture.clock.set(NANO_TIME, T2);
        fixture.enterOrder("A2");
        fixture.send(fixture.alice);

        assertThat(fixture.messages(fixture.alice)).last().isEqualTo(new Rejected(T2, "A2", 'C'));
        assertThat(fixture.rejects("exchange_closed")).isOne();
    }

    @Test
    void shouldRejectEnterOrdersClosedCancelTheOrderOfAReplaceAndStillTakeCancelOrdersAfterTheClose()
        throws IOException
    {
        fixture = new OrderEntryFixture(journalDir, RiskLimits.none());
        fixture.enterAccepted(fixture.alice, "A1", 'B', 1);
        fixture.enterAccepted(fixture.alice, "A2", 'B', 2);
        fixture.orderEntry.closeMarket();
        final int before = fixture.engine.commands().size();

        fixture.clock.set(NANO_TIME, T2);
        fixture.enterOrder("A3");
        fixture.send(fixture.alice);
        fixture.replaceOrder("A1", "A4").shares(50);
        fixture.send(fixture.alice);
        fixture.cancelOrder("A2", 40);
        fixture.send(fixture.alice);
        fixture.events.canceled(T2, id(1, 2), 102, "AAPL", 60, 40, Ouch42.CANCEL_USER_REQUESTED);

        assertThat(fixture.engine.commands().subList(before, fixture.engine.commands().size())).containsExactly(
            new Cancel(0, T2, id(1, 1), 0),
            new Cancel(0, T2, id(1, 2), 40));
        assertThat(fixture.engine.commands()).noneMatch((command) ->
            command instanceof NewOrder order && order.clientOrderId() == id(1, 3));
        assertThat(fixture.messages(fixture.alice).subList(2, 4)).containsExactly(
            new Rejected(T2, "A3", 'C'),
            new Canceled(T2, "A2", 60, 'U'));
        assertThat(fixture.rejects("exchange_closed")).isEqualTo(2);
    }
}
