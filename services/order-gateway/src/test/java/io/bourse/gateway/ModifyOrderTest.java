package io.bourse.gateway;

import io.bourse.gateway.OuchMessages.Accepted;
import io.bourse.gateway.OuchMessages.CancelRejectMessage;
import io.bourse.gateway.OuchMessages.Canceled;
import io.bourse.gateway.OuchMessages.Executed;
import io.bourse.gateway.OuchMessages.Modified;
import io.bourse.gateway.OuchMessages.Replaced;
import io.bourse.gateway.RecordingEngineProxy.Cancel;
import io.bourse.ouch.Ouch42;
import io.bourse.sbe.engine.Side;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

import static io.bourse.gateway.OrderEntryFixture.DAY;
import static io.bourse.gateway.OrderEntryFixture.NANO_TIME;
import static io.bourse.gateway.OrderEntryFixture.PRICE;
import static io.bourse.gateway.OrderEntryFixture.T0;
import static io.bourse.gateway.OrderEntryFixture.T1;
import static io.bourse.gateway.OrderEntryFixture.T2;
import static io.bourse.gateway.OrderEntryFixture.id;
import static org.assertj.core.api.Assertions.assertThat;

/** OUCH 4.2 Modify Order through the order entry: side changes in the sell family, size reductions, what is ignored. */
class ModifyOrderTest
{
    private OrderEntryFixture fixture;

    @BeforeEach
    void open(@TempDir final Path journalDir) throws IOException
    {
        fixture = new OrderEntryFixture(journalDir, RiskLimits.none());
    }

    @AfterEach
    void close()
    {
        fixture.close();
    }

    @Test
    void shouldChangeTheSideWithinTheSellFamilyAtOnceWithoutTheEngine()
    {
        fixture.enterAccepted(fixture.alice, "S1", 'S', 1);

        fixture.modifyOrder("S1", 'T', 100);
        fixture.send(fixture.alice);
        fixture.modifyOrder("S1", 'E', 100);
        fixture.send(fixture.alice);
        fixture.modifyOrder("S1", 'S', 100);
        fixture.send(fixture.alice);
        fixture.modifyOrder("S1", 'E', 100);
        fixture.send(fixture.alice);
        fixture.replaceOrder("S1", "S2").shares(90);
        fixture.send(fixture.alice);
        fixture.events.replaced(T2, id(1, 1), id(1, 2), 101, 102, "AAPL", Side.SELL, 90, PRICE);

        assertThat(fixture.engine.commands()).hasSize(2);
        assertThat(fixture.messages(fixture.alice).subList(1, 6)).isEqualTo(List.of(
            new Modified(T0, "S1", 'T', 100),
            new Modified(T0, "S1", 'E', 100),
            new Modified(T0, "S1", 'S', 100),
            new Modified(T0, "S1", 'E', 100),
            new Replaced(T2, "S2", 'E', 90, "AAPL", PRICE, DAY, "DEMO", 'Y', 102, 'A', 'N', 0, 'N', 'L', "S1", ' ')));
        assertThat(Metrics.counter(fixture.registry, "bourse_gateway_messages_out_total", "order_modified"))
            .isEqualTo(4);
    }

    @Test
    void shouldReduceSharesThroughAnEngineCancelAndAnswerOrderModifiedWhenItComesBack()
    {
        fixture.enterAccepted(fixture.alice, "S1", 'S', 1);

        fixture.modifyOrder("S1", 'T', 60);
        fixture.send(fixture.alice);
        final int answersBeforeEngine = fixture.messages(fixture.alice).size();
        fixture.events.canceled(T2, id(1, 1), 101, "AAPL", 40, 60, Ouch42.CANCEL_USER_REQUESTED);

        assertThat(answersBeforeEngine).isEqualTo(1);
        assertThat(fixture.engine.commands().get(1)).isEqualTo(new Cancel(0, T0, id(1, 1), 60));
        assertThat(fixture.messages(fixture.alice).get(1)).isEqualTo(new Modified(T2, "S1", 'T', 60));
        assertThat(fixture.messages(fixture.alice)).hasSize(2);
        assertThat(Metrics.counter(fixture.registry, "bourse_gateway_messages_in_total", "modify_order")).isEqualTo(1);
    }

    @Test
    void shouldSendTheCancelsOfModifyOrdersAgainInTheirOrderWhenANewRunJoinsPastThemAndAnswerWhatThatRunDoes()
    {
        fixture.enterAccepted(fixture.alice, "S1", 'S', 1);
        fixture.modifyOrder("S1", 'T', 60);
        fixture.send(fixture.alice);
        fixture.modifyOrder("S1", 'T', 30);
        fixture.send(fixture.alice);
        final long joinPosition = fixture.engine.commandStreamPosition();

        final EngineEvents nextRun = new EngineEvents(EngineEvents.adapter(fixture.orderEntry, fixture.metrics), 2);
        nextRun.commandStreamJoined(0, RecordingEngineProxy.COMMAND_SESSION_ID, joinPosition);
        nextRun.canceled(T2, id(1, 1), 101, "AAPL", 40, 60, Ouch42.CANCEL_USER_REQUESTED);
        nextRun.canceled(T2, id(1, 1), 101, "AAPL", 30, 30, Ouch42.CANCEL_USER_REQUESTED);

        assertThat(fixture.engine.commands().subList(3, fixture.engine.commands().size()))
            .as("the Modify Orders' cancels, sent again in their order").isEqualTo(
                List.of(new Cancel(0, T0, id(1, 1), 60), new Cancel(0, T0, id(1, 1), 30)));
        assertThat(fixture.messages(fixture.alice).subList(1, 3)).isEqualTo(
            List.of(new Modified(T2, "S1", 'T', 60), new Modified(T2, "S1", 'T', 30)));
        assertThat(fixture.messages(fixture.alice)).hasSize(3);
    }

    @Test
    void shouldCancelTheRestAndAnswerOrderModifiedWhenTheNewSizeIsZero()
    {
        fixture.enterAccepted(fixture.alice, "B1", 'B', 1);

        fixture.modifyOrder("B1", 'B', 0);
        fixture.send(fixture.alice);
        fixture.events.canceled(T2, id(1, 1), 101, "AAPL", 100, 0, Ouch42.CANCEL_USER_REQUESTED);
        fixture.modifyOrder("B1", 'B', 0);
        fixture.send(fixture.alice);

        assertThat(fixture.engine.commands().subList(1, 2)).isEqualTo(List.of(new Cancel(0, T0, id(1, 1), 0)));
        assertThat(fixture.messages(fixture.alice).subList(1, 2)).isEqualTo(List.of(new Modified(T2, "B1", 'B', 0)));
        assertThat(fixture.messages(fixture.alice)).hasSize(2);
        assertThat(fixture.orderEntry.openOrderCount()).isZero();
    }

    @Test
    void shouldIgnoreModifyThatCrossesBuyAndSellRaisesSharesOrNamesNoOrder()
    {
        fixture.enterAccepted(fixture.alice, "B1", 'B', 1);
        fixture.enterAccepted(fixture.alice, "S1", 'T', 2);

        fixture.modifyOrder("B1", 'S', 100);
        fixture.send(fixture.alice);
        fixture.modifyOrder("S1", 'B', 50);
        fixture.send(fixture.alice);
        fixture.modifyOrder("S1", 'X', 50);
        fixture.send(fixture.alice);
        fixture.modifyOrder("S1", 'T', 101);
        fixture.send(fixture.alice);
        fixture.modifyOrder("NONE", 'S', 10);
        fixture.send(fixture.alice);
        fixture.modifyOrder("S1", 'S', 10);
        fixture.send(fixture.bob);

        assertThat(fixture.engine.commands()).hasSize(2);
        assertThat(fixture.messages(fixture.alice)).hasSize(2).allMatch(Accepted.class::isInstance);
        assertThat(fixture.messages(fixture.bob)).isEmpty();
        assertThat(fixture.rejects("modify_side")).isEqualTo(3);
        assertThat(fixture.rejects("modify_increase")).isEqualTo(1);
        assertThat(fixture.rejects("unknown_order")).isEqualTo(2);
    }

    @Test
    void shouldAnswerAtOnceWhenExecutionsAlreadyTookTheOrderBelowTheNewSize()
    {
        fixture.enterAccepted(fixture.alice, "S1", 'S', 1);
        fixture.modifyOrder("S1", 'E', 60);
        fixture.send(fixture.alice);

        fixture.events.executed(T2, 9, "AAPL", 50, PRICE, id(2, 1), 200, Side.BUY, id(1, 1), 101, 50, 0);

        assertThat(fixture.messages(fixture.alice).subList(1, 3)).isEqualTo(List.of(
            new Executed(T2, "S1", 50, PRICE, 'A', 9),
            new Modified(T2, "S1", 'E', 50)));
        assertThat(fixture.engine.commands().get(1)).isEqualTo(new Cancel(0, T0, id(1, 1), 60));
    }

    @Test
    void shouldAnswerCancelsAndModifiesInTheOrderTheEngineAppliedThem()
    {
        fixture.enterAccepted(fixture.alice, "S1", 'S', 1);
        fixture.cancelOrder("S1", 80);
        fixture.send(fixture.alice);
        fixture.modifyOrder("S1", 'T', 50);
        fixture.send(fixture.alice);
        fixture.modifyOrder("S1", 'T', 70);
        fixture.send(fixture.alice);
        fixture.cancelOrder("S1", 30);
        fixture.send(fixture.alice);
        fixture.modifyOrder("S1", 'S', 20);
        fixture.send(fixture.alice);

        fixture.events.canceled(T1, id(1, 1), 101, "AAPL", 20, 80, Ouch42.CANCEL_USER_REQUESTED);
        fixture.events.canceled(T2, id(1, 1), 101, "AAPL", 30, 50, Ouch42.CANCEL_USER_REQUESTED);
        fixture.events.canceled(T2, id(1, 1), 101, "AAPL", 20, 30, Ouch42.CANCEL_USER_REQUESTED);
        fixture.events.canceled(T2, id(1, 1), 101, "AAPL", 10, 20, Ouch42.CANCEL_USER_REQUESTED);

        assertThat(fixture.engine.commands().subList(1, 6)).isEqualTo(List.of(
            new Cancel(0, T0, id(1, 1), 80),
            new Cancel(0, T0, id(1, 1), 50),
            new Cancel(0, T0, id(1, 1), 70),
            new Cancel(0, T0, id(1, 1), 30),
            new Cancel(0, T0, id(1, 1), 20)));
        assertThat(fixture.messages(fixture.alice).subList(1, 6)).isEqualTo(List.of(
            new Canceled(T1, "S1", 20, 'U'),
            new Modified(T2, "S1", 'T', 50),
            new Modified(T2, "S1", 'T', 50),
            new Canceled(T2, "S1", 20, 'U'),
            new Modified(T2, "S1", 'S', 20)));
        assertThat(fixture.messages(fixture.alice)).hasSize(6);
    }

    @Test
    void shouldAnswerAModifyOfAnOrderNotYetAcceptedAfterItsAcceptedWhichShowsTheEnteredSide()
    {
        fixture.enterOrder("S1").buySellIndicator(Ouch42.SIDE_SELL);
        fixture.send(fixture.alice);
        fixture.modifyOrder("S1", 'T', 100);
        fixture.send(fixture.alice);
        final int answersBeforeAccepted = fixture.messages(fixture.alice).size();
        fixture.events.accepted(T1, id(1, 1), 101, "AAPL", Side.SELL, 100, PRICE, DAY);
        fixture.replaceOrder("S1", "S2").shares(90);
        fixture.send(fixture.alice);
        fixture.events.replaced(T2, id(1, 1), id(1, 2), 101, 102, "AAPL", Side.SELL, 90, PRICE);

        assertThat(answersBeforeAccepted).isZero();
        assertThat(fixture.messages(fixture.alice)).isEqualTo(List.of(
            new Accepted(T1, "S1", 'S', 100, "AAPL", PRICE, DAY, "DEMO", 'Y', 101, 'A', 'N', 0, 'N', 'L', ' '),
            new Modified(T1, "S1", 'T', 100),
            new Replaced(T2, "S2", 'T', 90, "AAPL", PRICE, DAY, "DEMO", 'Y', 102, 'A', 'N', 0, 'N', 'L', "S1", ' ')));
    }

    @Test
    void shouldAnswerAModifyOfAReplacementNotYetReplacedWithTheOpenSizeItsReplacedShows()
    {
        fixture.enterAccepted(fixture.alice, "S1", 'S', 1);
        fixture.events.executed(T1, 9, "AAPL", 50, PRICE, id(2, 1), 200, Side.BUY, id(1, 1), 101, 50, 0);
        fixture.replaceOrder("S1", "S2").shares(100).price(PRICE + 100);
        fixture.send(fixture.alice);
        fixture.modifyOrder("S2", 'E', 70);
        fixture.send(fixture.alice);
        fixture.events.replaced(T2, id(1, 1), id(1, 2), 101, 102, "AAPL", Side.SELL, 50, PRICE + 100);

        assertThat(fixture.engine.commands().get(2)).isEqualTo(new Cancel(0, T0, id(1, 2), 70));
        assertThat(fixture.messages(fixture.alice).subList(2, 4)).isEqualTo(List.of(
            new Replaced(
                T2, "S2", 'S', 50, "AAPL", PRICE + 100, DAY, "DEMO", 'Y', 102, 'A', 'N', 0, 'N', 'L', "S1", ' '),
            new Modified(T2, "S2", 'E', 50)));
        assertThat(fixture.messages(fixture.alice)).hasSize(4);
    }

    @Test
    void shouldDropModifiesOfAnOrderThatIsDoneAndIgnoreThoseBeyondTheBacklog()
    {
        fixture.enterAccepted(fixture.alice, "S1", 'S', 1);
        for (int i = 0; i <= OrderState.MAX_PENDING_MODIFIES; i++)
        {
            fixture.modifyOrder("S1", 'T', 90 - i);
            fixture.send(fixture.alice);
        }

        fixture.events.executed(T2, 9, "AAPL", 100, PRICE, id(2, 1), 200, Side.BUY, id(1, 1), 101, 0, 0);
        fixture.modifyOrder("S1", 'T', 0);
        fixture.send(fixture.alice);

        assertThat(fixture.engine.commands()).hasSize(1 + OrderState.MAX_PENDING_MODIFIES);
        assertThat(fixture.messages(fixture.alice).subList(1, 2)).isEqualTo(List.of(
            new Executed(T2, "S1", 100, PRICE, 'A', 9)));
        assertThat(fixture.messages(fixture.alice)).hasSize(2);
        assertThat(fixture.rejects("modify_backlog")).isEqualTo(1);
        assertThat(fixture.rejects("unknown_order")).isEqualTo(1);
    }

    /**
     * A Cancel Order down to a size, then a full one, while the order's shard cannot take a command (down): neither is
     * dropped. Both are kept as one full cancel, sent once the shard can take it at the retry 100 ms on, and the
     * engine's Canceled is the client's; nothing is counted as refused.
     */
    @Test
    void shouldKeepACancelOrderItsShardCannotTakeAndSendItOnceTheShardCan()
    {
        fixture.enterAccepted(fixture.alice, "S1", 'S', 1);
        final int before = fixture.engine.commands().size();
        fixture.engine.available = false;
        fixture.cancelOrder("S1", 40);
        fixture.send(fixture.alice);
        fixture.cancelOrder("S1", 0);
        fixture.send(fixture.alice);
        final int kept = fixture.orderEntry.cancelsToRetry();
        fixture.engine.available = true;
        final int tooEarly = fixture.orderEntry.retryCancels();
        fixture.clock.set(NANO_TIME + OrderEntry.CANCEL_ON_DISCONNECT_RETRY_INTERVAL_NS, T1);
        final int retried = fixture.orderEntry.retryCancels();
        fixture.events.canceled(T2, id(1, 1), 101, "AAPL", 100, 0, Ouch42.CANCEL_USER_REQUESTED);

        assertThat(kept).isOne();
        assertThat(tooEarly).isZero();
        assertThat(retried).isOne();
        assertThat(fixture.orderEntry.cancelsToRetry()).isZero();
        assertThat(fixture.engine.commands().subList(before + 1, fixture.engine.commands().size()))
            .as("the first refused by the stream (the second waits behind it, not offered), then the one kept")
            .containsExactly(new Cancel(0, T1, id(1, 1), 0));
        assertThat(fixture.messages(fixture.alice).subList(1, fixture.messages(fixture.alice).size()))
            .isEqualTo(List.of(new Canceled(T2, "S1", 100, 'U')));
        assertThat(fixture.rejects("engine_unavailable")).isZero();
        assertThat(Metrics.counter(fixture.registry, "bourse_gateway_cancels_resent_total", null)).isOne();
    }

    /**
     * A Modify Order that reduces while the order's shard cannot take a command is queued, not dropped: its cancel is
     * sent once the shard can, and answered Order Modified when the engine's cancel comes back; one whose order an
     * execution took below its size meanwhile is answered then, and its kept cancel is dropped.
     */
    @Test
    void shouldKeepTheCancelOfAModifyOrderItsShardCannotTakeAndAnswerItOnceTheEngineHasCanceled()
    {
        fixture.enterAccepted(fixture.alice, "S1", 'S', 1);
        fixture.enterAccepted(fixture.alice, "S2", 'S', 2);
        final int before = fixture.engine.commands().size();
        fixture.engine.available = false;
        fixture.modifyOrder("S1", 'T', 60);
        fixture.send(fixture.alice);
        fixture.modifyOrder("S2", 'S', 70);
        fixture.send(fixture.alice);
        final int answersWhileDown = fixture.messages(fixture.alice).size();
        fixture.events.executed(T1, 9001, "AAPL", 50, PRICE, id(2, 1), 200, Side.BUY, id(1, 2), 102, 50, 0);
        fixture.engine.available = true;
        fixture.clock.set(NANO_TIME + OrderEntry.CANCEL_ON_DISCONNECT_RETRY_INTERVAL_NS, T1);
        final int retried = fixture.orderEntry.retryCancels();
        fixture.events.canceled(T2, id(1, 1), 101, "AAPL", 40, 60, Ouch42.CANCEL_USER_REQUESTED);

        assertThat(answersWhileDown).isEqualTo(2);
        assertThat(retried).as("S2 executed below its new size meanwhile").isOne();
        assertThat(fixture.engine.commands().subList(before + 2, fixture.engine.commands().size()))
            .containsExactly(new Cancel(0, T1, id(1, 1), 60));
        assertThat(fixture.messages(fixture.alice).subList(2, fixture.messages(fixture.alice).size())).isEqualTo(
            List.of(new Executed(T1, "S2", 50, PRICE, 'A', 9001), new Modified(T1, "S2", 'S', 50),
                new Modified(T2, "S1", 'T', 60)));
        assertThat(fixture.rejects("engine_unavailable")).isZero();
    }

    /**
     * A Modify Order kept while the shard was down, then another once it can take commands, before the retry: the
     * kept one's cancel goes first, so the engine takes them in the client's order and each is answered Order
     * Modified, with no Canceled; nothing is left to retry.
     */
    @Test
    void shouldSendAKeptCancelBeforeTheClientsNextOneSoThatTheyAreAnsweredInOrder()
    {
        fixture.enterAccepted(fixture.alice, "S1", 'S', 1);
        final int before = fixture.engine.commands().size();
        fixture.engine.available = false;
        fixture.modifyOrder("S1", 'T', 60);
        fixture.send(fixture.alice);
        fixture.engine.available = true;
        fixture.modifyOrder("S1", 'T', 50);
        fixture.send(fixture.alice);
        fixture.events.canceled(T1, id(1, 1), 101, "AAPL", 40, 60, Ouch42.CANCEL_USER_REQUESTED);
        fixture.events.canceled(T2, id(1, 1), 101, "AAPL", 10, 50, Ouch42.CANCEL_USER_REQUESTED);

        assertThat(fixture.engine.commands().subList(before + 1, fixture.engine.commands().size()))
            .containsExactly(new Cancel(0, T0, id(1, 1), 60), new Cancel(0, T0, id(1, 1), 50));
        assertThat(fixture.messages(fixture.alice).subList(1, fixture.messages(fixture.alice).size())).isEqualTo(
            List.of(new Modified(T1, "S1", 'T', 60), new Modified(T2, "S1", 'T', 50)));
        assertThat(fixture.orderEntry.cancelsToRetry()).isZero();
    }

    /**
     * A Modify Order kept while the shard is down, then the session's end, whose cancel on disconnect is kept too: the
     * retry sends the full cancel only, which stands for the kept one, and not the kept one after it.
     */
    @Test
    void shouldNotSendAKeptCancelAfterTheCancelOnDisconnectOfItsOrder()
    {
        fixture.enterAccepted(fixture.alice, "S1", 'S', 1);
        final int before = fixture.engine.commands().size();
        fixture.engine.available = false;
        fixture.modifyOrder("S1", 'T', 60);
        fixture.send(fixture.alice);
        fixture.orderEntry.onSessionEnd(fixture.alice);
        fixture.engine.available = true;
        fixture.clock.set(NANO_TIME + OrderEntry.CANCEL_ON_DISCONNECT_RETRY_INTERVAL_NS, T1);
        final int retried = fixture.orderEntry.retryCancels();

        assertThat(retried).isOne();
        assertThat(fixture.engine.commands().subList(before + 1, fixture.engine.commands().size()))
            .as("the Modify's refused by the stream, then the cancel on disconnect").containsExactly(
                new Cancel(0, T1, id(1, 1), 0));
        assertThat(fixture.orderEntry.cancelsToRetry()).isZero();
    }

    /**
     * A Modify Order sent, then one kept while the shard is down: the retry sends the kept one's cancel only, not again
     * the one the shard took (during a closing cross's lock that would be answered by a second Cancel Reject, matched
     * to the wrong Modify Order).
     */
    @Test
    void shouldResendOnlyTheKeptCancelsOfAnOrdersModifyOrders()
    {
        fixture.enterAccepted(fixture.alice, "S1", 'S', 1);
        final int before = fixture.engine.commands().size();
        fixture.modifyOrder("S1", 'T', 80);
        fixture.send(fixture.alice);
        fixture.engine.available = false;
        fixture.modifyOrder("S1", 'T', 50);
        fixture.send(fixture.alice);
        fixture.engine.available = true;
        fixture.clock.set(NANO_TIME + OrderEntry.CANCEL_ON_DISCONNECT_RETRY_INTERVAL_NS, T1);
        final int retried = fixture.orderEntry.retryCancels();

        assertThat(retried).isOne();
        assertThat(fixture.engine.commands().subList(before, fixture.engine.commands().size())).as(
            "the first taken, the second refused by the stream, then the second's only").containsExactly(
            new Cancel(0, T0, id(1, 1), 80), new Cancel(0, T0, id(1, 1), 50), new Cancel(0, T1, id(1, 1), 50));
        assertThat(fixture.orderEntry.cancelsToRetry()).isZero();
    }

    /**
     * During a closing cross's lock: a Modify Order sent, then one kept while the shard is down, then the engine's
     * Cancel Reject of the first. The kept one is still sent, and answered by its own Cancel Reject; before, the
     * first's Cancel Reject made the gateway forget it, unsent and never answered.
     */
    @Test
    void shouldStillSendAKeptModifyCancelAfterTheCancelRejectOfAnEarlierOne()
    {
        fixture.enterOrder("L1").buySellIndicator((byte)'S').crossType(Ouch42.CROSS_TYPE_CLOSING);
        fixture.send(fixture.alice);
        fixture.events.accepted(T1, id(1, 1), 101, "AAPL", Side.SELL, 100, PRICE, DAY);
        final int before = fixture.engine.commands().size();
        fixture.modifyOrder("L1", 'T', 80);
        fixture.send(fixture.alice);
        fixture.engine.available = false;
        fixture.modifyOrder("L1", 'T', 50);
        fixture.send(fixture.alice);
        fixture.events.cancelRejected(T1, id(1, 1), 101, "AAPL");
        fixture.engine.available = true;
        fixture.clock.set(NANO_TIME + OrderEntry.CANCEL_ON_DISCONNECT_RETRY_INTERVAL_NS, T2);
        final int retried = fixture.orderEntry.retryCancels();
        fixture.events.cancelRejected(T2, id(1, 1), 101, "AAPL");

        assertThat(retried).isOne();
        assertThat(fixture.engine.commands().subList(before + 2, fixture.engine.commands().size()))
            .containsExactly(new Cancel(0, T2, id(1, 1), 50));
        assertThat(fixture.messages(fixture.alice).subList(1, fixture.messages(fixture.alice).size())).isEqualTo(
            List.of(new CancelRejectMessage(T1, "L1"), new CancelRejectMessage(T2, "L1")));
        assertThat(fixture.orderEntry.cancelsToRetry()).isZero();
    }
}
