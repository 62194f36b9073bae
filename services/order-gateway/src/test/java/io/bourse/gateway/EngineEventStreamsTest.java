package io.bourse.gateway;

import io.aeron.Aeron;
import io.aeron.ExclusivePublication;
import io.aeron.Subscription;
import io.aeron.logbuffer.FragmentHandler;
import io.bourse.common.aeron.ArchivingDriverFixture;
import io.bourse.common.aeron.EventReplay;
import io.bourse.common.aeron.RecordedRuns;
import io.bourse.common.aeron.StreamLayout;
import io.bourse.gateway.OuchMessages.Accepted;
import io.bourse.gateway.OuchMessages.Canceled;
import io.bourse.gateway.OuchMessages.Executed;
import io.bourse.ouch.Ouch42;
import io.bourse.sbe.engine.Side;
import org.agrona.CloseHelper;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.lang.reflect.Field;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.stream.Stream;

import static io.bourse.common.Await.awaitTrue;
import static io.bourse.gateway.OrderEntryFixture.DAY;
import static io.bourse.gateway.OrderEntryFixture.PRICE;
import static io.bourse.gateway.OrderEntryFixture.T1;
import static io.bourse.gateway.OrderEntryFixture.T2;
import static io.bourse.gateway.OrderEntryFixture.id;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * One engine shard's event stream across two runs (a restarted engine), recorded in a real event archive on an
 * archiving media driver and read by {@link EngineEventStreams} into a gateway's order entry: each session gets the
 * answer to every event once, in the order the runs made them, whether the engine restarts while the gateway is
 * behind on the earlier run or the gateway restarts while an image of the earlier run lingers.
 * <p>
 * Alice has A1, A2 and A3, bob B1, each a resting buy of 100. The first run accepts them (events 1 to 4) and
 * executes 30 shares of each (5 to 8); the new run cancels A1's other 70, executes A2's and cancels B1's.
 */
@Timeout(60)
class EngineEventStreamsTest
{
    /** The other side of the executions: another gateway's order. */
    private static final long OTHER = (2L << 56) | 77;
    private static final long[] ORDERS = {id(1, 1), id(1, 2), id(1, 3), id(2, 1)};
    private static final int FIRST_RUN_EVENTS = 8;

    @TempDir
    private Path archiveDir;
    @TempDir
    private Path journalDir;
    private ArchivingDriverFixture driver;
    private StreamLayout layout;
    private Aeron aeron;
    private RecordedRuns runs;
    private final EngineEvents firstRunEvents = new EngineEvents(null);

    @BeforeEach
    void setUp()
    {
        driver = new ArchivingDriverFixture("gateway-streams-test", archiveDir);
        layout = driver.layout();
        aeron = driver.aeron();
        runs = new RecordedRuns(driver);
    }

    @AfterEach
    void tearDown()
    {
        CloseHelper.closeAll(runs, driver);
    }

    /** The gateway reads at most 4 events per image per duty cycle: still on the first run when the new one comes. */
    @Test
    void shouldAnswerTheEarlierRunToItsEndBeforeTheNewRunWhenTheEngineRestartsWhileTheGatewayIsBehind()
        throws IOException
    {
        engineRestartsWhileTheGatewayRuns(4);
    }

    /** The first run's last events and the new run's image are read in one duty cycle. */
    @Test
    void shouldAnswerTheNewRunFromWhereTheDutyCycleReadTheEarlierRunToWhenTheEngineRestarts() throws IOException
    {
        engineRestartsWhileTheGatewayRuns(4096);
    }

    /**
     * The gateway stops after answering events 1 and 2; another reader holds the first run's stream at event 5 when
     * the run stops, so the restarted gateway finds its image lingering beside the new run's, ahead of its stored
     * position.
     */
    @Test
    void shouldAnswerEveryEventOnceAfterAGatewayRestartWithAnImageOfTheEarlierRunLingeringAheadOfTheStoredPosition()
        throws IOException
    {
        gatewayRestartsWithTheEarlierRunLingering(2, 5);
    }

    /** As above, the other reader at the first run's start: the lingering image joins behind the stored position. */
    @Test
    void shouldAnswerEveryEventOnceAfterAGatewayRestartWithAnImageOfTheEarlierRunLingeringBehindTheStoredPosition()
        throws IOException
    {
        gatewayRestartsWithTheEarlierRunLingering(4, 0);
    }

    /**
     * The first run is not recorded (the archive was off for it) and the gateway joins it after its start: its
     * catch-up fails, and its image, read live with a gap, still holds the new run back until it is read to its end.
     * Before, only an image read without a gap did, and the two runs were read by turns.
     */
    @Test
    void shouldAnswerTheEarlierRunToItsEndBeforeTheNewRunWhenTheEarlierRunsImageHasAGap() throws IOException
    {
        try (OrderEntryFixture gateway = new OrderEntryFixture(journalDir, RiskLimits.none());
            EventPositions positions = EventPositions.open(journalDir, 2))
        {
            enterOrders(gateway);
            // A short term, so that the media driver soon moves the position a new subscriber joins at.
            final String channel = "aeron:ipc?term-length=65536";
            final ExclusivePublication firstRun = aeron.addExclusivePublication(channel, layout.eventStreamId(0));
            final Subscription subscription;
            try (Subscription otherReader = aeron.addSubscription(channel, layout.eventStreamId(0)))
            {
                // Another gateway's executions, then Accepted A1 and A2, read by another reader before this gateway
                // subscribes: it joins after them.
                awaitTrue(firstRun::isConnected);
                for (int i = 0; i < 500; i++)
                {
                    publish(firstRun, firstRunEvents, firstRunEvents.executed(
                        T2, 1000 + i, "AAPL", 1, PRICE, OTHER, 300, Side.SELL, OTHER + 1, 301, 1000, 0));
                    awaitTrue(() -> otherReader.poll((buffer, offset, length, header) -> { }, 10) > 0);
                }
                publishFirstRun(firstRun, 1, 2);
                final int[] read = {0};
                awaitTrue(() -> (read[0] += otherReader.poll((buffer, offset, length, header) -> { }, 10)) == 2);
                subscription = aeron.addSubscription(channel, layout.eventStreamId(0));
                awaitTrue(() -> subscription.imageCount() > 0);
            }
            assertThat(subscription.imageAtIndex(0).joinPosition()).isPositive();
            final EngineEventStreams streams = streams(subscription, gateway, positions);
            dutyCycle(streams, gateway, 4);

            publishFirstRun(firstRun, 3, FIRST_RUN_EVENTS);
            firstRun.close();
            publishNewRun();
            awaitTrue(() -> subscription.imageCount() == 2);
            untilTheNewRunIsAnswered(streams, gateway, 4);

            assertThat(Metrics.counter(gateway.registry, "bourse_gateway_errors_total", "event_replay_failed"))
                .as("the first run's image has a gap").isEqualTo(1);
            // Accepted A1 and A2 are heard or not, as the join position falls (the driver moves it in steps).
            assertAnsweredOnceInOrder(gateway, List.of("A1", "A2"));
        }
    }

    /**
     * The gateway stops after answering events 1 and 2 of the first run and restarts on the second run, past its
     * start: its catch-up replays the first run from the stored position; the shard restarts meanwhile, so the second
     * run's own replay finds a newer run recording (SUPERSEDED), and the third run's image catches up as the shard's
     * first again. Every event must be answered once.
     */
    @Test
    void shouldAnswerTheEarlierRunsOnceWhenTheShardRestartsWhileTheyAreReplayed() throws Exception
    {
        final ExclusivePublication firstRun = runs.start(0);
        answerThenStop(firstRun, 2);
        publishFirstRun(firstRun, 3, FIRST_RUN_EVENTS);
        runs.stop(firstRun);
        final ExclusivePublication secondRun = publishNewRun();

        try (OrderEntryFixture after = new OrderEntryFixture(journalDir, RiskLimits.none(), 3, 4);
            EventPositions positions = EventPositions.open(journalDir, 2);
            Subscription subscription = runs.subscribePastTheStart(0))
        {
            final EngineEventStreams streams = streams(subscription, after, positions);
            // The shard restarts while the first run is replayed: hooked into the replay's handler, which the
            // catch-up owns (nothing else runs between two replayed events).
            final Field field = EngineEventStreams.class.getDeclaredField("replayHandler");
            field.setAccessible(true);
            final FragmentHandler replayHandler = (FragmentHandler)field.get(streams);
            final ExclusivePublication[] thirdRun = new ExclusivePublication[1];
            field.set(streams, (FragmentHandler)(buffer, offset, length, header) ->
            {
                replayHandler.onFragment(buffer, offset, length, header);
                if (null == thirdRun[0])
                {
                    runs.stop(secondRun);
                    thirdRun[0] = runs.start(0);
                }
            });
            untilTheNewRunIsAnswered(streams, after, 4096);

            assertThat(thirdRun[0]).as("the shard restarted during the replay").isNotNull();
            assertAnsweredOnceInOrder(after);
            assertThat(Metrics.counter(after.registry, "bourse_gateway_duplicate_events_total", null))
                .as("the first run replayed once").isEqualTo(0);
        }
    }

    private void engineRestartsWhileTheGatewayRuns(final int fragmentLimit) throws IOException
    {
        try (OrderEntryFixture gateway = new OrderEntryFixture(journalDir, RiskLimits.none());
            EventPositions positions = EventPositions.open(journalDir, 2))
        {
            final ExclusivePublication firstRun = runs.start(0);
            final Subscription subscription = aeron.addSubscription(layout.eventChannel(), layout.eventStreamId(0));
            awaitTrue(() -> subscription.imageCount() > 0);
            final EngineEventStreams streams = streams(subscription, gateway, positions);
            dutyCycle(streams, gateway, fragmentLimit);
            enterOrders(gateway);

            publishFirstRun(firstRun, 1, FIRST_RUN_EVENTS);
            runs.stop(firstRun);
            publishNewRun();
            awaitTrue(() -> subscription.imageCount() == 2);
            untilTheNewRunIsAnswered(streams, gateway, fragmentLimit);

            assertAnsweredOnceInOrder(gateway);
            assertThat(Metrics.counter(gateway.registry, "bourse_gateway_duplicate_events_total", null)).isZero();
        }
    }

    private void gatewayRestartsWithTheEarlierRunLingering(final int answeredBeforeStop, final int otherReaderAt)
        throws IOException
    {
        final ExclusivePublication firstRun = runs.start(0);
        try (Subscription otherReader = aeron.addSubscription(layout.eventChannel(), layout.eventStreamId(0)))
        {
            awaitTrue(() -> otherReader.imageCount() > 0);
            answerThenStop(firstRun, answeredBeforeStop);
            publishFirstRun(firstRun, answeredBeforeStop + 1, FIRST_RUN_EVENTS);
            int read = 0;
            while (read < otherReaderAt)
            {
                read += otherReader.poll((buffer, offset, length, header) -> { }, 1);
            }
            runs.stop(firstRun);
            publishNewRun();

            try (OrderEntryFixture after = new OrderEntryFixture(journalDir, RiskLimits.none(), 3, 4);
                EventPositions positions = EventPositions.open(journalDir, 2);
                Subscription subscription = aeron.addSubscription(layout.eventChannel(), layout.eventStreamId(0)))
            {
                awaitTrue(() -> subscription.imageCount() == 2);
                final EngineEventStreams streams = streams(subscription, after, positions);
                untilTheNewRunIsAnswered(streams, after, 4096);

                assertAnsweredOnceInOrder(after);
            }
        }
    }

    private static void assertAnsweredOnceInOrder(final OrderEntryFixture gateway)
    {
        assertAnsweredOnceInOrder(gateway, List.of());
    }

    /**
     * @param mayMiss tokens of alice's whose Accepted the gateway may not have heard (it joined the run after them).
     */
    private static void assertAnsweredOnceInOrder(final OrderEntryFixture gateway, final List<String> mayMiss)
    {
        final Predicate<Object> heard = (message) -> !(message instanceof Accepted accepted &&
            mayMiss.contains(accepted.token()));
        assertThat(gateway.messages(gateway.alice)).filteredOn(heard).isEqualTo(Stream.of(
            accepted("A1", 101, "DEMO"),
            accepted("A2", 102, "DEMO"),
            accepted("A3", 103, "DEMO"),
            new Executed(T2, "A1", 30, PRICE, 'A', 10),
            new Executed(T2, "A2", 30, PRICE, 'A', 11),
            new Executed(T2, "A3", 30, PRICE, 'A', 12),
            new Canceled(T2, "A1", 70, 'U'),
            new Executed(T2, "A2", 70, PRICE, 'A', 21)).filter(heard).toList());
        assertThat(gateway.messages(gateway.bob)).isEqualTo(List.of(
            accepted("B1", 104, "BOBS"),
            new Executed(T2, "B1", 30, PRICE, 'A', 13),
            new Canceled(T2, "B1", 70, 'U')));
        assertThat(Metrics.counter(gateway.registry, "bourse_gateway_unmatched_events_total", null)).isZero();
        assertThat(gateway.orderEntry.openOrderCount()).as("A3 with 70 shares").isEqualTo(1);
    }

    private static Accepted accepted(final String token, final long orderReferenceNumber, final String firm)
    {
        return new Accepted(T1, token, 'B', 100, "AAPL", PRICE, DAY, firm, 'Y', orderReferenceNumber, 'A', 'N', 0, 'N',
            'L', ' ');
    }

    private static void enterOrders(final OrderEntryFixture gateway)
    {
        for (final String token : List.of("A1", "A2", "A3"))
        {
            gateway.enterOrder(token);
            gateway.send(gateway.alice);
        }
        gateway.enterOrder("B1");
        gateway.send(gateway.bob);
    }

    /** The first run's events from one sequence number to another: 1 to 4 the Accepted, 5 to 8 the executions. */
    private void publishFirstRun(final ExclusivePublication firstRun, final int from, final int to)
    {
        for (int sequenceNumber = from; sequenceNumber <= to; sequenceNumber++)
        {
            final int order = (sequenceNumber - 1) % ORDERS.length;
            final long orderReferenceNumber = 101 + order;
            publish(firstRun, firstRunEvents, sequenceNumber <= ORDERS.length ?
                firstRunEvents.accepted(T1, ORDERS[order], orderReferenceNumber, "AAPL", Side.BUY, 100, PRICE, DAY) :
                firstRunEvents.executed(T2, 10 + order, "AAPL", 30, PRICE, OTHER, 300, Side.SELL, ORDERS[order],
                    orderReferenceNumber, 70, 0));
        }
    }

    /** A new run of the shard, once the first one stopped: cancels A1, executes A2, cancels B1. */
    /**
     * A gateway enters the orders, answers events 1 to {@code lastAnswered} of the first run, and stops: its journals
     * and its stored position stay in the journal directory.
     */
    private void answerThenStop(final ExclusivePublication firstRun, final int lastAnswered) throws IOException
    {
        try (OrderEntryFixture before = new OrderEntryFixture(journalDir, RiskLimits.none());
            EventPositions positions = EventPositions.open(journalDir, 2);
            Subscription subscription = aeron.addSubscription(layout.eventChannel(), layout.eventStreamId(0)))
        {
            awaitTrue(() -> subscription.imageCount() > 0);
            final EngineEventStreams streams = streams(subscription, before, positions);
            dutyCycle(streams, before, 4096);
            enterOrders(before);
            publishFirstRun(firstRun, 1, lastAnswered);
            for (int i = 0; i < 20; i++)
            {
                dutyCycle(streams, before, 4096);
            }
        }
    }

    /** @return the new run, whose events 1 to 3 (cancel A1, execute A2, cancel B1) are published and recorded. */
    private ExclusivePublication publishNewRun()
    {
        final ExclusivePublication newRun = runs.start(0);
        final EngineEvents events = new EngineEvents(null);
        publish(newRun, events, events.canceled(T2, id(1, 1), 101, "AAPL", 70, 0, Ouch42.CANCEL_USER_REQUESTED));
        publish(newRun, events, events.executed(T2, 21, "AAPL", 70, PRICE, OTHER, 300, Side.SELL, id(1, 2), 102, 0, 0));
        publish(newRun, events, events.canceled(T2, id(2, 1), 104, "AAPL", 70, 0, Ouch42.CANCEL_USER_REQUESTED));
        runs.awaitRecorded(newRun);
        return newRun;
    }

    private static void publish(final ExclusivePublication run, final EngineEvents events, final int length)
    {
        awaitTrue(() -> run.offer(events.buffer(), 0, length) > 0);
    }

    /**
     * Runs duty cycles until bob has the new run's Canceled B1, its last answer (10 s at most), then 10 more, in which
     * nothing more may come.
     */
    private static void untilTheNewRunIsAnswered(
        final EngineEventStreams streams, final OrderEntryFixture gateway, final int limit)
    {
        final long deadlineNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        final Canceled lastAnswer = new Canceled(T2, "B1", 70, 'U');
        while (!gateway.messages(gateway.bob).contains(lastAnswer) && System.nanoTime() < deadlineNs)
        {
            dutyCycle(streams, gateway, limit);
        }
        for (int i = 0; i < 10; i++)
        {
            dutyCycle(streams, gateway, limit);
        }
    }

    /** The gateway agent's order: events, then the sessions' answers journaled, then the positions stored. */
    private static void dutyCycle(final EngineEventStreams streams, final OrderEntryFixture gateway, final int limit)
    {
        streams.poll(limit);
        gateway.alice.flush(0);
        gateway.bob.flush(0);
        streams.onAnswersJournaled();
    }

    private EngineEventStreams streams(
        final Subscription subscription, final OrderEntryFixture gateway, final EventPositions positions)
    {
        final EngineEventStreams streams = new EngineEventStreams(new Subscription[]{subscription},
            EngineEvents.adapter(gateway.orderEntry, gateway.metrics), new EventReplay(aeron, driver.archive()),
            gateway.metrics, gateway.clock);
        streams.openDay(gateway.orderEntry, positions);
        return streams;
    }
}
