package io.bourse.gateway;

import io.bourse.common.config.Symbols;
import io.bourse.gateway.OuchMessages.Accepted;
import io.bourse.gateway.OuchMessages.Broken;
import io.bourse.gateway.OuchMessages.Canceled;
import io.bourse.gateway.OuchMessages.Executed;
import io.bourse.gateway.OuchMessages.Modified;
import io.bourse.gateway.OuchMessages.Rejected;
import io.bourse.gateway.OuchMessages.Replaced;
import io.bourse.gateway.OuchMessages.SystemEventMessage;
import io.bourse.gateway.RecordingEngineProxy.Cancel;
import io.bourse.gateway.RecordingEngineProxy.NewOrder;
import io.bourse.gateway.RecordingEngineProxy.Replace;
import io.bourse.ouch.OrderCanceled;
import io.bourse.ouch.Ouch42;
import io.bourse.sbe.engine.Side;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static io.bourse.gateway.OrderEntryFixture.DAY;
import static io.bourse.gateway.OrderEntryFixture.NANO_TIME;
import static io.bourse.gateway.OrderEntryFixture.PRICE;
import static io.bourse.gateway.OrderEntryFixture.T0;
import static io.bourse.gateway.OrderEntryFixture.T1;
import static io.bourse.gateway.OrderEntryFixture.T2;
import static io.bourse.gateway.OrderEntryFixture.id;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A gateway restarted on the journals of an earlier one ({@link OrderRebuild}): each test runs a first gateway's order
 * entry (alice with session index 1, bob 2), closes it, and opens a second one on the same journals (alice 3, bob 4),
 * which must know the first one's tokens and orders as the journals leave them.
 */
class OrderRebuildTest
{
    /** Another gateway's clientOrderId, for the other side of a trade. */
    private static final long OTHER = (2L << 56) | 77;
    /** Start times of two media drivers, the second a restart of the first. */
    private static final long DRIVER_A = 1_763_000_000_000L;
    private static final long DRIVER_B = DRIVER_A + 60_000;

    @TempDir
    private Path journalDir;

    @Test
    void shouldCancelReplaceAndModifyOrdersAcceptedBeforeTheRestart() throws IOException
    {
        try (OrderEntryFixture before = new OrderEntryFixture(journalDir, RiskLimits.none()))
        {
            before.enterAccepted(before.alice, "A1", 'B', 1);
            before.enterAccepted(before.alice, "A2", 'B', 2);
            before.enterAccepted(before.alice, "A3", 'S', 3);
        }

        try (OrderEntryFixture after = restart(RiskLimits.none()))
        {
            assertThat(after.orderEntry.openOrderCount()).isEqualTo(3);
            after.cancelOrder("A1", 0);
            after.send(after.alice);
            after.replaceOrder("A2", "N2").shares(60);
            after.send(after.alice);
            after.modifyOrder("A3", 'T', 40);
            after.send(after.alice);
            after.events.canceled(T2, id(1, 1), 101, "AAPL", 100, 0, Ouch42.CANCEL_USER_REQUESTED);
            after.events.replaced(T2, id(1, 2), id(3, 1), 102, 104, "AAPL", Side.BUY, 60, PRICE);
            after.events.canceled(T2, id(1, 3), 103, "AAPL", 60, 40, Ouch42.CANCEL_USER_REQUESTED);

            assertThat(after.engine.commands()).isEqualTo(List.of(
                new Cancel(0, T0, id(1, 1), 0),
                new Replace(0, T0, id(1, 2), id(3, 1), 60, PRICE, DAY),
                new Cancel(0, T0, id(1, 3), 40)));
            assertThat(after.messages(after.alice).subList(3, 6)).isEqualTo(List.of(
                new Canceled(T2, "A1", 100, 'U'),
                new Replaced(T2, "N2", 'B', 60, "AAPL", PRICE, DAY, "DEMO", 'Y', 104, 'A', 'N', 0, 'N', 'L', "A2", ' '),
                new Modified(T2, "A3", 'T', 40)));
            assertThat(after.orderEntry.openOrderCount()).isEqualTo(2);
            assertThat(Metrics.counter(after.registry, "bourse_gateway_unmatched_events_total", null)).isZero();
        }
    }

    @Test
    void shouldIgnoreEveryTokenUsedBeforeTheRestartAsADuplicate() throws IOException
    {
        try (OrderEntryFixture before = new OrderEntryFixture(journalDir, RiskLimits.none()))
        {
            before.enterAccepted(before.alice, "D1", 'B', 1);
            before.enterOrder("D1");
            before.send(before.alice);
            assertThat(before.messages(before.alice)).as("D1's Accepted; D1 again silently ignored").hasSize(1);
            before.enterOrder("Z1").shares(0);
            before.send(before.alice);
            before.replaceOrder("D1", "R0").shares(0);
            before.send(before.alice);
            before.enterOrder("P1");
            before.send(before.alice);
            before.enterOrder("J1");
            before.send(before.alice);
            before.events.rejected(T1, id(1, 3), "AAPL", Ouch42.REJECT_CLOSED);
        }

        try (OrderEntryFixture after = restart(RiskLimits.none()))
        {
            final int replayed = after.messages(after.alice).size();
            for (final String token : List.of("D1", "Z1", "R0", "P1", "J1", "F1"))
            {
                after.enterOrder(token);
                after.send(after.alice);
            }

            assertThat(after.messages(after.alice)).as("each used token silently ignored, as before the restart")
                .hasSize(replayed);
            assertThat(after.rejects("duplicate_token")).isEqualTo(5);
            assertThat(after.orderEntry.openOrderCount()).as("D1, P1 and F1").isEqualTo(3);
            assertThat(after.engine.commands()).isEqualTo(List.of(
                new NewOrder(0, T0, id(3, 1), "AAPL", true, 100, PRICE, DAY, 0, "DEMO", 'Y', 'N')));
        }
    }

    @Test
    void shouldAnswerTheEnginesEventsForOrdersSentBeforeTheRestartToTheirSessions() throws IOException
    {
        try (OrderEntryFixture before = new OrderEntryFixture(journalDir, RiskLimits.none()))
        {
            before.enterAccepted(before.alice, "E1", 'S', 1);
            before.enterOrder("P1").firm("DEMO").capacity(Ouch42.CAPACITY_PRINCIPAL)
                .display(Ouch42.DISPLAY_ATTRIBUTABLE).intermarketSweepEligibility(Ouch42.ISE_ELIGIBLE);
            before.send(before.alice);
            before.enterOrder("P1");
            before.send(before.alice);
            before.replaceOrder("E1", "E2").shares(80);
            before.send(before.alice);
            before.enterAccepted(before.bob, "B1", 'B', 1);
            before.events.executed(T1, 7, "AAPL", 100, PRICE, OTHER, 300, Side.SELL, id(2, 1), 101, 0, 0);
        }

        try (OrderEntryFixture after = restart(RiskLimits.none()))
        {
            assertThat(after.orderEntry.openOrderCount()).isEqualTo(3);
            after.events.accepted(T2, id(1, 2), 201, "AAPL", Side.BUY, 100, PRICE, DAY, 'A');
            after.events.replaced(T2, id(1, 1), id(1, 3), 101, 203, "AAPL", Side.SELL, 80, PRICE);
            after.events.executed(T2, 8, "AAPL", 30, PRICE, OTHER, 301, Side.BUY, id(1, 3), 203, 50, 0);
            after.events.tradeBroken(T2, 7, "AAPL", 100, PRICE, OTHER, 300, id(2, 1), 101,
                Ouch42.BROKEN_TRADE_ERRONEOUS);

            assertThat(after.messages(after.alice).subList(1, 4)).as("P1 sent again before the restart: ignored")
                .isEqualTo(List.of(
                    new Accepted(T2, "P1", 'B', 100, "AAPL", PRICE, DAY, "DEMO", 'A', 201, 'P', 'Y', 0, 'N', 'L', ' '),
                    new Replaced(T2, "E2", 'S', 80, "AAPL", PRICE, DAY, "DEMO", 'Y', 203, 'A', 'N', 0, 'N', 'L', "E1",
                        ' '),
                    new Executed(T2, "E2", 30, PRICE, 'A', 8)));
            assertThat(after.messages(after.bob).subList(2, 3)).isEqualTo(List.of(new Broken(T2, "B1", 7, 'E')));
            assertThat(after.messages(after.alice)).hasSize(4);
            assertThat(after.messages(after.bob)).hasSize(3);
            assertThat(after.orderEntry.openOrderCount()).isEqualTo(2);
            assertThat(Metrics.counter(after.registry, "bourse_gateway_unmatched_events_total", null)).isZero();
        }
    }

    /**
     * After a restart, the cancel on disconnect kept for an order rebuilt open goes at the first retry, whatever the
     * monotonic clock reads: System.nanoTime may be negative. Before, the retry waited for the clock to pass 0, the
     * retry time left unset.
     */
    @Test
    void shouldSendTheCancelOnDisconnectOfAnOrderRebuiltOpenAtTheFirstRetryWhateverTheMonotonicClock()
        throws IOException
    {
        try (OrderEntryFixture before = new OrderEntryFixture(journalDir, RiskLimits.none()))
        {
            before.enterAccepted(before.alice, "E1", 'B', 1);
        }

        try (OrderEntryFixture after = restart(RiskLimits.none()))
        {
            after.clock.set(-TimeUnit.DAYS.toNanos(1), T1);
            after.orderEntry.keepCancelsOnDisconnectOfRestoredOrders();

            assertThat(after.orderEntry.retryCancels()).isEqualTo(1);
            assertThat(after.engine.commands()).isEqualTo(List.of(new Cancel(0, T1, id(1, 1), 0)));
        }
    }

    @Test
    void shouldCountOrdersOpenBeforeTheRestartAgainstTheOpenOrderLimit() throws IOException
    {
        shouldCountOrdersOpenBeforeTheRestartAgainst(
            RiskLimits.parse(RiskLimits.NO_LIMITS, List.of("alice,,,2,,,Y"), List.of(), Map.of()),
            "risk_max_open_orders");
    }

    @Test
    void shouldCountOrdersOpenBeforeTheRestartAgainstTheFirmsOpenOrderLimit() throws IOException
    {
        shouldCountOrdersOpenBeforeTheRestartAgainst(
            RiskLimits.parse(RiskLimits.NO_LIMITS, List.of(), List.of("DEMO,,,2,,"), Map.of()),
            "firm_max_open_orders");
    }

    private void shouldCountOrdersOpenBeforeTheRestartAgainst(final RiskLimits limits, final String rejectReason)
        throws IOException
    {
        try (OrderEntryFixture before = new OrderEntryFixture(journalDir, limits))
        {
            before.enterAccepted(before.alice, "A1", 'B', 1);
            before.enterOrder("A2");
            before.send(before.alice);
            before.replaceOrder("A1", "A3").shares(50);
            before.send(before.alice);
        }

        try (OrderEntryFixture after = restart(limits))
        {
            final int replayed = after.messages(after.alice).size();
            after.enterOrder("A4");
            after.send(after.alice);
            after.events.canceled(T1, id(1, 1), 101, "AAPL", 100, 0, Ouch42.CANCEL_TIMEOUT);
            after.enterOrder("A5");
            after.send(after.alice);

            assertThat(after.messages(after.alice).subList(replayed, replayed + 2)).isEqualTo(List.of(
                new Rejected(T0, "A4", 'O'),
                new Canceled(T1, "A1", 100, 'T')));
            assertThat(after.rejects(rejectReason)).isEqualTo(1);
            assertThat(after.engine.commands()).isEqualTo(List.of(
                new NewOrder(0, T0, id(3, 1), "AAPL", true, 100, PRICE, DAY, 0, "DEMO", 'Y', 'N')));
        }
    }

    @Test
    void shouldRebuildFromTheIntactRecordsWhenTheJournalTailIsTorn() throws IOException
    {
        try (OrderEntryFixture before = new OrderEntryFixture(journalDir, RiskLimits.none()))
        {
            before.enterAccepted(before.alice, "A1", 'B', 1);
            before.cancelOrder("A1", 60);
            before.send(before.alice);
            before.events.canceled(T2, id(1, 1), 101, "AAPL", 40, 60, Ouch42.CANCEL_USER_REQUESTED);
        }
        try (FileChannel channel = FileChannel.open(journalDir.resolve("alice.journal"), StandardOpenOption.WRITE))
        {
            channel.truncate(channel.size() - 3);
        }

        try (OrderEntryFixture after = restart(RiskLimits.none()))
        {
            after.modifyOrder("A1", 'B', 80);
            after.send(after.alice);
            after.events.canceled(T2, id(1, 1), 101, "AAPL", 20, 80, Ouch42.CANCEL_USER_REQUESTED);

            assertThat(after.alice.journal().truncatedBytes()).isEqualTo(
                SessionJournal.RECORD_HEADER_LENGTH + OrderCanceled.LENGTH - 3);
            assertThat(after.engine.commands()).isEqualTo(List.of(new Cancel(0, T0, id(1, 1), 80)));
            assertThat(after.messages(after.alice)).isEqualTo(List.of(
                new Accepted(T1, "A1", 'B', 100, "AAPL", PRICE, DAY, "DEMO", 'Y', 101, 'A', 'N', 0, 'N', 'L', ' '),
                new Modified(T2, "A1", 'B', 80)));
        }
    }

    @Test
    void shouldRebuildAnOrderSentInTheDutyCycleBeforeACrashOfTheGateway() throws IOException
    {
        final Path crashed = Files.createDirectories(journalDir.resolve("crashed"));
        final EngineEvents shardStream;
        try (OrderEntryFixture before = new OrderEntryFixture(journalDir, RiskLimits.none()))
        {
            before.enterAccepted(before.alice, "A1", 'S', 1);
            before.alice.flush(0);
            before.enterOrder("A2");
            before.send(before.alice); // its New Order goes to the engine, its Order Sent record to the journal
            before.alice.flush(0); // the duty cycle's end, no answer from the engine yet
            // kill -9: the journals as the process leaves them, what it stored through their mappings included.
            Files.copy(journalDir.resolve("alice.journal"), crashed.resolve("alice.journal"));
            Files.copy(journalDir.resolve("bob.journal"), crashed.resolve("bob.journal"));
            shardStream = new EngineEvents((buffer, offset, length, header) -> { }, before.events);
        }

        try (OrderEntryFixture after = new OrderEntryFixture(crashed, RiskLimits.none(), 3, 4))
        {
            assertThat(after.orderEntry.openOrderCount()).as("A1 and the order the engine has as A2").isEqualTo(2);
            // The shard's stream goes on: its answer to A2, which the crashed gateway never heard.
            new EngineEvents(EngineEvents.adapter(after.orderEntry, after.metrics), shardStream)
                .accepted(T2, id(1, 2), 102, "AAPL", Side.BUY, 100, PRICE, DAY);
            after.enterOrder("A2");
            after.send(after.alice); // the token is used: a resend, ignored, not sent again

            assertThat(after.messages(after.alice).subList(1, after.messages(after.alice).size())).isEqualTo(List.of(
                new Accepted(T2, "A2", 'B', 100, "AAPL", PRICE, DAY, "DEMO", 'Y', 102, 'A', 'N', 0, 'N', 'L', ' ')));
            assertThat(after.engine.commands()).isEmpty();
            assertThat(Metrics.counter(after.registry, "bourse_gateway_unmatched_events_total", null)).isZero();
        }
    }

    /**
     * A duty cycle answers more engine events than one journal batch holds (a sweep of a big order, the close's
     * cancels, a catch-up): the journal writes a full batch into its mapping in the middle of the cycle, where a crash
     * of the process keeps it. The restarted gateway hears the shard's stream again from its start and must answer
     * exactly the events whose answers the crash lost.
     */
    @Test
    void shouldAnswerEveryEventOnceWhenTheGatewayCrashedAfterTheJournalWroteAFullBatchInTheDutyCycle()
        throws IOException
    {
        final int executions = 400; // 48 journal bytes each: more than a batch
        final Path crashed = Files.createDirectories(journalDir.resolve("crashed"));
        try (OrderEntryFixture before = new OrderEntryFixture(journalDir, RiskLimits.none()))
        {
            before.enterOrder("A1").buySellIndicator((byte)'S').shares(executions);
            before.send(before.alice);
            before.events.accepted(T1, id(1, 1), 101, "AAPL", Side.SELL, executions, PRICE, DAY);
            before.alice.flush(0);
            executeOneShareAtATime(before.events, executions);
            // kill -9 before the duty cycle's end: the journals as the process leaves them.
            Files.copy(journalDir.resolve("alice.journal"), crashed.resolve("alice.journal"));
            Files.copy(journalDir.resolve("bob.journal"), crashed.resolve("bob.journal"));
        }

        try (OrderEntryFixture after = new OrderEntryFixture(crashed, RiskLimits.none(), 3, 4))
        {
            final long kept = after.messages(after.alice).size() - 1L;
            assertThat(kept).as("the executions the crash left in the journal").isBetween(1L, executions - 1L);
            final EngineEvents heardAgain = new EngineEvents(EngineEvents.adapter(after.orderEntry, after.metrics));
            heardAgain.accepted(T1, id(1, 1), 101, "AAPL", Side.SELL, executions, PRICE, DAY);
            executeOneShareAtATime(heardAgain, executions);

            final List<Object> messages = after.messages(after.alice);
            assertThat(messages).hasSize(1 + executions);
            for (int match = 1; match <= executions; match++)
            {
                assertThat(messages.get(match)).isEqualTo(new Executed(T2, "A1", 1, PRICE, 'A', match));
            }
            assertThat(Metrics.counter(after.registry, "bourse_gateway_duplicate_events_total", null))
                .isEqualTo(1 + kept);
        }
    }

    private static void executeOneShareAtATime(final EngineEvents events, final int executions)
    {
        for (int match = 1; match <= executions; match++)
        {
            events.executed(T2, match, "AAPL", 1, PRICE, OTHER, 300 + match, Side.BUY, id(1, 1), 101,
                executions - match, 0);
        }
    }

    @Test
    void shouldIgnoreEngineEventsHeardAgainWhoseAnswersTheJournalHolds() throws IOException
    {
        try (OrderEntryFixture before = new OrderEntryFixture(journalDir, RiskLimits.none()))
        {
            before.enterAccepted(before.alice, "A1", 'S', 1);
            before.events.executed(T2, 7, "AAPL", 30, PRICE, OTHER, 300, Side.BUY, id(1, 1), 101, 70, 0);
            before.alice.flush(0);
        }

        try (OrderEntryFixture after = restart(RiskLimits.none()))
        {
            after.events.accepted(T1, id(1, 1), 101, "AAPL", Side.SELL, 100, PRICE, DAY);
            after.events.executed(T2, 7, "AAPL", 30, PRICE, OTHER, 300, Side.BUY, id(1, 1), 101, 70, 0);
            after.events.canceled(T2, id(1, 1), 101, "AAPL", 70, 0, Ouch42.CANCEL_USER_REQUESTED);

            assertThat(after.messages(after.alice)).isEqualTo(List.of(
                new Accepted(T1, "A1", 'S', 100, "AAPL", PRICE, DAY, "DEMO", 'Y', 101, 'A', 'N', 0, 'N', 'L', ' '),
                new Executed(T2, "A1", 30, PRICE, 'A', 7),
                new Canceled(T2, "A1", 70, 'U')));
            assertThat(Metrics.counter(after.registry, "bourse_gateway_duplicate_events_total", null)).isEqualTo(2);
            assertThat(after.orderEntry.openOrderCount()).isZero();
        }
    }

    /**
     * A running gateway hears again events it answered (a replay of the stream from a stored position that went stale,
     * e.g. after a journal failure): those before the last it answered are duplicates, not answered twice.
     */
    @Test
    void shouldIgnoreEngineEventsHeardAgainThatARunningGatewayAnsweredSince() throws IOException
    {
        try (OrderEntryFixture fixture = new OrderEntryFixture(journalDir, RiskLimits.none()))
        {
            fixture.enterAccepted(fixture.alice, "A1", 'S', 1);
            fixture.events.executed(T2, 7, "AAPL", 30, PRICE, OTHER, 300, Side.BUY, id(1, 1), 101, 70, 0);
            fixture.events.executed(T2, 8, "AAPL", 20, PRICE, OTHER, 301, Side.BUY, id(1, 1), 101, 50, 0);

            final EngineEvents replay = new EngineEvents(EngineEvents.adapter(fixture.orderEntry, fixture.metrics));
            replay.accepted(T1, id(1, 1), 101, "AAPL", Side.SELL, 100, PRICE, DAY);
            replay.executed(T2, 7, "AAPL", 30, PRICE, OTHER, 300, Side.BUY, id(1, 1), 101, 70, 0);

            assertThat(fixture.messages(fixture.alice)).isEqualTo(List.of(
                new Accepted(T1, "A1", 'S', 100, "AAPL", PRICE, DAY, "DEMO", 'Y', 101, 'A', 'N', 0, 'N', 'L', ' '),
                new Executed(T2, "A1", 30, PRICE, 'A', 7),
                new Executed(T2, "A1", 20, PRICE, 'A', 8)));
            assertThat(Metrics.counter(fixture.registry, "bourse_gateway_duplicate_events_total", null)).isEqualTo(2);
        }
    }

    @Test
    void shouldAnswerTheEventsOfARestartedEngineWhoseSequenceNumbersStartAgain() throws IOException
    {
        try (OrderEntryFixture before = new OrderEntryFixture(journalDir, RiskLimits.none()))
        {
            before.enterAccepted(before.alice, "A1", 'S', 1);
            before.events.executed(T2, 7, "AAPL", 30, PRICE, OTHER, 300, Side.BUY, id(1, 1), 101, 70, 0);
            before.alice.flush(0);
        }

        try (OrderEntryFixture after = restart(RiskLimits.none()))
        {
            final EngineEvents restartedEngine = new EngineEvents(
                EngineEvents.adapter(after.orderEntry, after.metrics), EngineEvents.FIRST_ENGINE_STREAM + 1);
            after.enterOrder("A2").buySellIndicator(Ouch42.SIDE_SELL);
            after.send(after.alice);
            restartedEngine.accepted(T1, id(3, 1), 1, "AAPL", Side.SELL, 100, PRICE, DAY);
            restartedEngine.executed(T2, 1, "AAPL", 100, PRICE, OTHER, 300, Side.BUY, id(3, 1), 1, 0, 0);

            assertThat(after.messages(after.alice)).isEqualTo(List.of(
                new Accepted(T1, "A1", 'S', 100, "AAPL", PRICE, DAY, "DEMO", 'Y', 101, 'A', 'N', 0, 'N', 'L', ' '),
                new Executed(T2, "A1", 30, PRICE, 'A', 7),
                new Accepted(T1, "A2", 'S', 100, "AAPL", PRICE, DAY, "DEMO", 'Y', 1, 'A', 'N', 0, 'N', 'L', ' '),
                new Executed(T2, "A2", 100, PRICE, 'A', 1)));
            assertThat(Metrics.counter(after.registry, "bourse_gateway_duplicate_events_total", null)).isZero();
        }
    }

    @Test
    void shouldAnswerCanceledWhenAModifyOrderWasInFlightAtTheRestart() throws IOException
    {
        try (OrderEntryFixture before = new OrderEntryFixture(journalDir, RiskLimits.none()))
        {
            before.enterAccepted(before.alice, "S1", 'S', 1);
            before.modifyOrder("S1", 'T', 60);
            before.send(before.alice);
        }

        try (OrderEntryFixture after = restart(RiskLimits.none()))
        {
            after.events.canceled(T2, id(1, 1), 101, "AAPL", 40, 60, Ouch42.CANCEL_USER_REQUESTED);
            after.modifyOrder("S1", 'S', 60);
            after.send(after.alice);

            assertThat(after.messages(after.alice).subList(1, 3)).isEqualTo(List.of(
                new Canceled(T2, "S1", 40, 'U'),
                new Modified(T0, "S1", 'S', 60)));
        }
    }

    @Test
    void shouldLeaveOutOrdersSentToAShardTheGatewayNoLongerHasButKeepTheirTokensUsed(@TempDir final Path otherDir)
        throws IOException
    {
        try (OrderEntryFixture before = new OrderEntryFixture(journalDir, RiskLimits.none()))
        {
            before.enterAccepted(before.alice, "A1", 'B', 1);
            before.enterOrder("M1").stock(Symbols.pack("MSFT"));
            before.send(before.alice);
        }

        try (OrderEntryFixture other = new OrderEntryFixture(otherDir, RiskLimits.none());
            SessionJournal journal = SessionJournal.open(journalDir.resolve("alice.journal"), JournalSync.NONE))
        {
            final UserSession alice = new UserSession(
                "alice", OrderEntryTest.firm("DEMO"), OrderEntryFixture.GATEWAY_ID, 3, 2, journal, other.metrics);
            final OrderRebuild oneShard = new OrderRebuild(other.orderEntry, 1);
            oneShard.rebuild(alice);
            other.enterOrder("M1");
            other.send(alice);

            assertThat(oneShard.openOrderCount()).isEqualTo(1);
            assertThat(oneShard.skippedOrderCount()).isEqualTo(1);
            assertThat(other.rejects("duplicate_token")).isEqualTo(1);
        }
    }

    @Test
    void shouldRebuildClosingCrossOrdersThroughCancelRejectCancelPendingAndCrossExecutions() throws IOException
    {
        try (OrderEntryFixture before = new OrderEntryFixture(journalDir, RiskLimits.none()))
        {
            before.enterOrder("L1").crossType(Ouch42.CROSS_TYPE_CLOSING);
            before.send(before.alice);
            before.events.accepted(T1, id(1, 1), 101, "AAPL", Side.BUY, 100, PRICE, DAY);
            before.enterOrder("L2").crossType(Ouch42.CROSS_TYPE_CLOSING);
            before.send(before.alice);
            before.events.accepted(T1, id(1, 2), 102, "AAPL", Side.BUY, 100, PRICE, DAY);
            before.cancelOrder("L1", 30);
            before.send(before.alice);
            before.events.cancelRejected(T1, id(1, 1), 101, "AAPL");
            before.cancelOrder("L1", 0);
            before.send(before.alice);
            before.events.cancelPending(T1, id(1, 1), 101, "AAPL");
            before.events.executed(T2, 7, "AAPL", 40, PRICE, id(1, 1), 101, Side.BUY, OTHER, 9, 0, 60, 'C');
        }

        try (OrderEntryFixture after = restart(RiskLimits.none()))
        {
            final int replayed = after.messages(after.alice).size();
            after.modifyOrder("L1", 'B', 60);
            after.send(after.alice);
            after.events.canceled(T2, id(1, 1), 101, "AAPL", 60, 0, Ouch42.CANCEL_USER_REQUESTED, false);
            after.replaceOrder("L2", "L3").shares(50);
            after.send(after.alice);
            after.events.replaced(T2, id(1, 2), id(3, 1), 102, 103, "AAPL", Side.BUY, 50, PRICE);

            assertThat(after.engine.commands()).as("the modify needs no cancel: 60 shares are open").isEqualTo(
                List.of(new Replace(0, T0, id(1, 2), id(3, 1), 50, PRICE, DAY)));
            assertThat(after.messages(after.alice).subList(replayed, replayed + 3)).isEqualTo(List.of(
                new Modified(T0, "L1", 'B', 60),
                new Canceled(T2, "L1", 60, 'U'),
                new Replaced(T2, "L3", 'B', 50, "AAPL", PRICE, DAY, "DEMO", 'Y', 103, 'A', 'N', 0, 'C', 'L', "L2",
                    ' ')));
            assertThat(after.orderEntry.openOrderCount()).isEqualTo(1);
            assertThat(Metrics.counter(after.registry, "bourse_gateway_unmatched_events_total", null)).isZero();
        }
    }

    @Test
    void shouldRejectTheOrdersAndReplacementsSentThroughAMediaDriverSinceRestartedOnce() throws IOException
    {
        try (OrderEntryFixture before = new OrderEntryFixture(journalDir, RiskLimits.none(), 1, 2, DRIVER_A))
        {
            before.enterAccepted(before.alice, "A1", 'B', 1);
            before.replaceOrder("A1", "R1").shares(60);
            before.send(before.alice);
            before.enterOrder("P1");
            before.send(before.alice);
            for (int i = 3; i <= 9; i++)
            {
                before.enterOrder("P" + i);
                before.send(before.alice);
            }
            before.enterOrder("P2");
            before.send(before.bob);
            before.enterOrder("J1");
            before.send(before.bob);
            before.events.rejected(T1, id(2, 2), "AAPL", Ouch42.REJECT_CLOSED);
        }
        assertThat(mediaDriverRecords("alice")).isEqualTo(List.of(DRIVER_A));
        assertThat(mediaDriverRecords("bob")).isEqualTo(List.of(DRIVER_A));

        try (OrderEntryFixture after = new OrderEntryFixture(journalDir, RiskLimits.none(), 3, 4, DRIVER_B))
        {
            assertThat(after.orderEntry.openOrderCount()).isEqualTo(11);
            assertThat(after.orderEntry.rejectOrdersLostWithTheirMediaDriver()).isEqualTo(10);

            final List<Object> alice = after.messages(after.alice);
            assertThat(alice.subList(alice.size() - 9, alice.size())).as("in the order sent").containsExactly(
                new Rejected(T0, "R1", 'H'),
                new Rejected(T0, "P1", 'H'),
                new Rejected(T0, "P3", 'H'),
                new Rejected(T0, "P4", 'H'),
                new Rejected(T0, "P5", 'H'),
                new Rejected(T0, "P6", 'H'),
                new Rejected(T0, "P7", 'H'),
                new Rejected(T0, "P8", 'H'),
                new Rejected(T0, "P9", 'H'));
            assertThat(after.messages(after.bob)).endsWith(new Rejected(T0, "P2", 'H'));
            assertThat(after.rejects("media_driver_restarted")).isEqualTo(10);
            assertThat(after.orderEntry.openOrderCount()).as("A1 stays, for its shard's new run").isEqualTo(1);
            after.enterOrder("N1");
            after.send(after.alice);
            assertThat(after.engine.commands()).as("N1 sent").hasSize(1);
        }
        assertThat(mediaDriverRecords("alice")).isEqualTo(List.of(DRIVER_A, DRIVER_B));
        assertThat(mediaDriverRecords("bob")).isEqualTo(List.of(DRIVER_A));

        try (OrderEntryFixture again = new OrderEntryFixture(journalDir, RiskLimits.none(), 5, 6, DRIVER_B))
        {
            assertThat(again.orderEntry.openOrderCount()).as("A1, and N1 sent through this driver").isEqualTo(2);
            assertThat(again.orderEntry.rejectOrdersLostWithTheirMediaDriver()).isZero();
        }
    }

    /**
     * A day whose close drained with an order unanswered (its shard down), End of Day journaled, then the gateway and
     * its media driver restarted: the order is released as lost with its driver, but its Rejected 'H' is not
     * journaled, as OUCH 4.2's End of Day is the session's last message. Before, the 'H' followed the End of Day.
     */
    @Test
    void shouldJournalNothingAfterTheEndOfDayForAnOrderLostWithItsMediaDriver() throws IOException
    {
        try (OrderEntryFixture before = new OrderEntryFixture(journalDir, RiskLimits.none(), 1, 2, DRIVER_A))
        {
            before.enterOrder("P1");
            before.send(before.alice);
            before.clock.set(NANO_TIME, T2);
            before.endDay(before.alice);
        }

        try (OrderEntryFixture after = new OrderEntryFixture(journalDir, RiskLimits.none(), 3, 4, DRIVER_B))
        {
            assertThat(after.alice.hasEndOfDay()).as("found in the journal").isTrue();
            assertThat(after.orderEntry.rejectOrdersLostWithTheirMediaDriver()).isOne();

            assertThat(after.messages(after.alice)).containsExactly(
                new SystemEventMessage(T2, 'S'), new SystemEventMessage(T2, 'E'));
            assertThat(after.orderEntry.openOrderCount()).as("released").isZero();
            assertThat(after.rejects("media_driver_restarted")).isOne();
            assertThat(Metrics.counter(after.registry, "bourse_gateway_messages_out_total", "rejected")).isZero();
            assertThat(Metrics.counter(after.registry, "bourse_gateway_errors_total", "answer_after_end_of_day"))
                .isOne();
        }
    }

    @Test
    void shouldLeaveOrdersSentThroughTheSameMediaDriverOrOfAnEarlierJournalToTheirAnswer() throws IOException
    {
        try (OrderEntryFixture before = new OrderEntryFixture(journalDir, RiskLimits.none(), 1, 2, 0))
        {
            before.enterOrder("P0");
            before.send(before.alice);
        }
        assertThat(mediaDriverRecords("alice")).isEmpty();
        try (OrderEntryFixture second = new OrderEntryFixture(journalDir, RiskLimits.none(), 3, 4, DRIVER_A))
        {
            second.enterOrder("P1");
            second.send(second.alice);
        }

        try (OrderEntryFixture after = new OrderEntryFixture(journalDir, RiskLimits.none(), 5, 6, DRIVER_A))
        {
            assertThat(after.orderEntry.rejectOrdersLostWithTheirMediaDriver()).isZero();
            after.events.accepted(T1, id(3, 1), 101, "AAPL", Side.BUY, 100, PRICE, DAY);

            assertThat(after.messages(after.alice)).containsExactly(
                new Accepted(T1, "P1", 'B', 100, "AAPL", PRICE, DAY, "DEMO", 'Y', 101, 'A', 'N', 0, 'N', 'L', ' '));
            assertThat(after.orderEntry.openOrderCount()).isEqualTo(2);
        }
        try (OrderEntryFixture later = new OrderEntryFixture(journalDir, RiskLimits.none(), 7, 8, DRIVER_B))
        {
            assertThat(later.orderEntry.rejectOrdersLostWithTheirMediaDriver())
                .as("P0's journal records name no driver; P1 was accepted").isZero();
            assertThat(later.orderEntry.openOrderCount()).isEqualTo(2);
        }
    }

    /** @return the Driver Start of each Media Driver record of the user's journal, in order. */
    private List<Long> mediaDriverRecords(final String user) throws IOException
    {
        try (SessionJournal journal = SessionJournal.open(journalDir.resolve(user + ".journal"), JournalSync.NONE))
        {
            return SessionJournalTest.records(journal).stream()
                .filter((record) -> record.isPrivate() &&
                    OrderRecords.MEDIA_DRIVER == record.bytes()[OrderRecords.RECORD_TYPE_OFFSET])
                .map((record) -> new UnsafeBuffer(record.bytes())
                    .getLong(OrderRecords.DRIVER_START_OFFSET, OrderRecords.ORDER))
                .toList();
        }
    }

    private OrderEntryFixture restart(final RiskLimits limits) throws IOException
    {
        return new OrderEntryFixture(journalDir, limits, 3, 4);
    }
}
