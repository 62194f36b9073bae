package io.bourse.fanout;

import io.aeron.Aeron;
import io.aeron.Publication;
import io.aeron.Subscription;
import io.aeron.driver.MediaDriver;
import io.bourse.common.aeron.EmbeddedMediaDriver;
import io.bourse.common.config.SymbolDirectory;
import io.bourse.common.metrics.ErrorKinds;
import io.bourse.common.time.MidnightNanoClock;
import io.bourse.itch.ItchReferenceData;
import io.bourse.itch.ItchTranslator;
import io.bourse.itch.MarketDataEncoder;
import io.bourse.sbe.md.Side;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import org.agrona.CloseHelper;
import org.agrona.ExpandableArrayBuffer;
import org.agrona.concurrent.ManyToOneConcurrentArrayQueue;
import org.agrona.concurrent.SystemNanoClock;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.ringbuffer.OneToOneRingBuffer;
import org.agrona.concurrent.ringbuffer.RingBuffer;
import org.agrona.concurrent.ringbuffer.RingBufferDescriptor;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

import static org.assertj.core.api.Assertions.assertThat;

class DispatcherAgentTest
{
    private static final int RING_CAPACITY = 1024;
    /** A pace that never holds an answer back: these tests are of the dispatcher's stream positions. */
    private static final AnswerPacing UNPACED = new AnswerPacing(Integer.MAX_VALUE);
    private static final SymbolDirectory SYMBOLS = SymbolDirectory.parse("AAPL@0");

    private static final int PUBLISHER = 7;
    /** Midnight UTC that starts 24 November 2026, ns since the epoch. */
    private static final long NOVEMBER_24_NS =
        LocalDate.of(2026, 11, 24).toEpochDay() * MidnightNanoClock.NANOS_PER_DAY;
    /** 00:00:00.1 on 25 November 2026, ns since the epoch: just after the midnight that ends the 24th. */
    private static final long JUST_AFTER_MIDNIGHT_NS =
        NOVEMBER_24_NS + MidnightNanoClock.NANOS_PER_DAY + TimeUnit.MILLISECONDS.toNanos(100);
    /** The day-end record of the run's first day, closing on its last nanosecond, as {@link #records} reads it. */
    private static final String FIRST_DAY_END_ON_ITS_LAST_NANOSECOND =
        "day-end 0 " + (MidnightNanoClock.NANOS_PER_DAY - 1);
    /** 23:59:59.5, ns since midnight. */
    private static final long HALF_A_SECOND_BEFORE_MIDNIGHT_NS =
        MidnightNanoClock.NANOS_PER_DAY - TimeUnit.MILLISECONDS.toNanos(500);

    private static final int MARKET_DATA_STREAM_ID = 3000;
    /** A real media driver for the class: the stop reads the market-data stream ({@link DispatcherAgent#onClose}). */
    private static MediaDriver driver;
    private static Aeron aeron;

    private final MarketDataEncoder encoder = new MarketDataEncoder();
    /** The dispatcher's stream, on which the tests publish only to test the stop; the others hand it messages. */
    private final Subscription marketData = aeron.addSubscription("aeron:ipc", MARKET_DATA_STREAM_ID);
    private final RingBuffer slowWorker = ring();
    private final RingBuffer fastWorker = ring();
    private final ErrorKinds<FanoutError> errors = new ErrorKinds<>("fanout", FanoutError.class);
    private final ItchTranslator translator = new ItchTranslator(SYMBOLS);
    private final ItchBook book = new ItchBook(new ItchReferenceData(SYMBOLS), 0);
    // The recovery has no stream: the tests hand messages to onMessage and answer requests with answerCatchUps; they
    // never run doWork, which polls and requests snapshots.
    private final MarketDataRecovery recovery = new MarketDataRecovery(
        null, null, () -> 1, translator, book, SystemNanoClock.INSTANCE);
    private final ManyToOneConcurrentArrayQueue<CatchUpRequest> requests = new ManyToOneConcurrentArrayQueue<>(4);
    private final PrometheusRegistry registry = new PrometheusRegistry();
    /** The wall clock, ns since the epoch: 10:00 UTC on 24 November 2026 until a test moves it. */
    private final AtomicLong wallClockNs = new AtomicLong(NOVEMBER_24_NS + TimeUnit.HOURS.toNanos(10));
    private final MidnightNanoClock clock = new MidnightNanoClock(wallClockNs::get);
    private final SessionNames sessionNames = new SessionNames("FB22000000");
    private final DispatcherAgent dispatcher = new DispatcherAgent(
        marketData, translator, book, new ItchReferenceData(SYMBOLS), clock, sessionNames, recovery,
        new RingBuffer[]{slowWorker, fastWorker}, requests, 16, 10, new FanoutMetrics(registry, errors), errors);

    @BeforeAll
    static void launchMediaDriver()
    {
        driver = EmbeddedMediaDriver.launch("dispatcher-test");
        aeron = Aeron.connect(new Aeron.Context().aeronDirectoryName(driver.aeronDirectoryName()));
    }

    @AfterAll
    static void closeMediaDriver()
    {
        CloseHelper.closeAll(aeron, driver);
    }

    @AfterEach
    void closeSubscription()
    {
        marketData.close();
    }

    private static RingBuffer ring()
    {
        return new OneToOneRingBuffer(
            new UnsafeBuffer(ByteBuffer.allocateDirect(RING_CAPACITY + RingBufferDescriptor.TRAILER_LENGTH)));
    }

    private void publishAddOrder(final long orderId)
    {
        publish(encoder.addOrder(1_000, "AAPL", orderId, Side.BUY, 100, 1_000_000));
    }

    private void publish(final int length)
    {
        dispatcher.onMessage(encoder.buffer, 0, length, PUBLISHER);
    }

    /** The book from a snapshot, then Add Orders 1 to {@code orders}, which both workers take. */
    private void publishBook(final int orders)
    {
        publish(encoder.snapshotComplete(1));
        for (int orderId = 1; orderId <= orders; orderId++)
        {
            publishAddOrder(orderId);
            drain(slowWorker);
            drain(fastWorker);
        }
    }

    private static List<String> drain(final RingBuffer ring)
    {
        final List<String> records = new ArrayList<>();
        int read;
        do
        {
            // One read stops at the end of the buffer; a wrapped ring needs a second, and one that reads only the
            // padding before the wrap reads no record.
            read = ring.read((msgTypeId, buffer, index, length) -> records.add(switch (msgTypeId)
            {
                case DispatcherAgent.DATA_LOST_MSG_TYPE_ID -> "data-lost";
                case DispatcherAgent.DAY_END_MSG_TYPE_ID -> "day-end";
                default -> "itch " + (char)buffer.getByte(index + DispatcherAgent.ITCH_OFFSET);
            }), Integer.MAX_VALUE);
        }
        while (read > 0 || ring.size() > 0);
        return records;
    }

    /** Each live record carries when the dispatcher read its message, on the fanout's clock: the service time's. */
    @Test
    void shouldStampEachLiveRecordWithTheTimeItsMessageWasRead()
    {
        publish(encoder.snapshotComplete(1));
        final long beforeNs = clock.nanosSinceMidnight();
        publishAddOrder(1);
        final long afterNs = clock.nanosSinceMidnight();

        final List<Long> readTimes = new ArrayList<>();
        fastWorker.read((msgTypeId, buffer, index, length) ->
            readTimes.add(buffer.getLong(index + DispatcherAgent.READ_TIME_OFFSET)), Integer.MAX_VALUE);

        assertThat(readTimes).singleElement().satisfies((readNs) -> assertThat(readNs).isBetween(beforeNs, afterNs));
    }

    @Test
    void shouldMarkTheGapBeforeTheNextMessageWhenAWorkerRingOverflowed()
    {
        publish(encoder.snapshotComplete(1));
        final List<String> fastRecords = new ArrayList<>();
        for (int orderId = 1; orderId <= 40; orderId++)
        {
            publishAddOrder(orderId);
            fastRecords.addAll(drain(fastWorker));
        }
        final List<String> slowBeforeGap = drain(slowWorker);

        publishAddOrder(41);
        fastRecords.addAll(drain(fastWorker));

        assertThat(slowBeforeGap).hasSizeBetween(5, 39).containsOnly("itch A");
        assertThat(drain(slowWorker)).containsExactly("data-lost", "itch A");
        assertThat(fastRecords).hasSize(41).containsOnly("itch A");
    }

    @Test
    void shouldWriteADataLostMarkerStillPendingAtTheStopOnceTheWorkerMakesRoom() throws Exception
    {
        publish(encoder.snapshotComplete(1));
        publishAddOrder(1);
        for (int i = 0; i < 3; i++)
        {
            publish(encoder.orderCancel(1_000, "AAPL", 1, 10));
        }
        for (int orderId = 2; orderId <= 16; orderId++)
        {
            publishAddOrder(orderId);
        }
        drain(fastWorker);
        // 16 Add Order records of 56 bytes and 3 Order Cancel records of 40: 1,016 of the slow worker's 1,024 bytes,
        // too few left for the marker (16) after the next drop.
        publishAddOrder(17);
        assertThat(drain(fastWorker)).containsExactly("itch A");

        final List<String> records = stopWhileTheSlowWorkerMakesRoom();

        assertThat(records).hasSize(20).endsWith("itch A", "data-lost");
    }

    @Test
    void shouldStopAtOnceWithNoDataLostMarkerPending()
    {
        publish(encoder.snapshotComplete(1));
        publishAddOrder(1);

        dispatcher.onClose();

        assertThat(drain(slowWorker)).containsExactly("itch A");
    }

    @Test
    void shouldSkipIncrementsUntilASnapshotThenApplyTheOnesAfterIt()
    {
        publishAddOrder(1);
        assertThat(recovery.isLive()).isFalse();

        publish(encoder.bookSnapshot(5, 0, "AAPL", new long[]{1, 'B', 100, 1_000_000, 1_000}));
        assertThat(recovery.isLive()).isFalse();
        publish(encoder.snapshotComplete(5, 1));
        assertThat(recovery.isLive()).isTrue();
        assertThat(book.orderCount()).isEqualTo(1);
        assertThat(drain(fastWorker)).isEmpty();

        publishAddOrder(2);
        assertThat(book.orderCount()).isEqualTo(2);
        assertThat(drain(fastWorker)).containsExactly("itch A");
        assertThat(errors.total()).isZero();
    }

    @Test
    void shouldKeepTheAttributionOfTheSnapshotsOrders()
    {
        final long gsco = 0x4753_434FL;
        publish(encoder.bookSnapshot(5, 0, "AAPL",
            new long[]{1, 'B', 100, 1_000_000, 1_000, gsco}, new long[]{2, 'B', 100, 1_000_000, 1_001}));
        publish(encoder.snapshotComplete(5, 1));

        final ExpandableArrayBuffer snapshot = new ExpandableArrayBuffer(256);
        final int length = book.snapshot(new boolean[]{false, true}, snapshot);
        final int first = ItchTranslator.STOCK_TRADING_ACTION_LENGTH;
        assertThat(length).isEqualTo(first + ItchTranslator.ADD_ORDER_MPID_LENGTH + ItchTranslator.ADD_ORDER_LENGTH);
        assertThat((char)snapshot.getByte(first)).isEqualTo('F');
        assertThat(snapshot.getInt(first + ItchTranslator.ADD_ORDER_LENGTH, ByteOrder.BIG_ENDIAN)).isEqualTo((int)gsco);
        assertThat((char)snapshot.getByte(first + ItchTranslator.ADD_ORDER_MPID_LENGTH)).isEqualTo('A');
    }

    @Test
    void shouldNotTakeASnapshotWithAMessageMissing()
    {
        publish(encoder.bookSnapshot(5, 0, "AAPL", new long[]{1, 'B', 100, 1_000_000, 1_000}));
        publish(encoder.snapshotComplete(5, 2));
        assertThat(recovery.isLive()).isFalse();

        publish(encoder.bookSnapshot(6, 0, "AAPL", new long[]{1, 'B', 100, 1_000_000, 1_000}));
        final int skipped = encoder.bookSnapshot(6, 1, "AAPL", new long[]{2, 'B', 100, 1_000_000, 1_000});
        publish(encoder.bookSnapshot(6, 2, "AAPL", new long[]{3, 'B', 100, 1_000_000, 1_000}));
        publish(encoder.snapshotComplete(6, 3));
        assertThat(skipped).isPositive();
        assertThat(recovery.isLive()).isFalse();
    }

    @Test
    void shouldEndEverySessionAndCutTheReplayAtAGapInTheSequenceNumbers()
    {
        publish(encoder.snapshotComplete(1));
        publishAddOrder(1);
        drain(slowWorker);
        drain(fastWorker);

        encoder.addOrder(1_000, "AAPL", 2, Side.BUY, 100, 1_000_000);
        publishAddOrder(3);

        assertThat(recovery.isLive()).isFalse();
        assertThat(drain(slowWorker)).containsExactly("data-lost");
        assertThat(drain(fastWorker)).containsExactly("data-lost");
        assertThat(book.orderCount()).isEqualTo(1);

        publish(encoder.bookSnapshot(9, 0, "AAPL",
            new long[]{1, 'B', 100, 1_000_000, 1_000}, new long[]{2, 'B', 100, 1_000_000, 1_000},
            new long[]{3, 'B', 100, 1_000_000, 1_000}));
        publish(encoder.snapshotComplete(9, 1));
        assertThat(recovery.isLive()).isTrue();
        assertThat(book.orderCount()).isEqualTo(3);
        publishAddOrder(4);
        assertThat(drain(fastWorker)).containsExactly("itch A");
    }

    /**
     * The md-publisher's stop: EndOfFeed after the last increment applied leaves the book final and in step, and ends
     * no session (the fanout that stops next ends their day whole), while a login waits (the engines may still trade
     * while an md-publisher restarts). The first increment of a next publisher then ends the sessions at a data-lost
     * marker, as a gap does, and is no second publisher's error; the login is answered from that publisher's books.
     */
    @Test
    void shouldKeepTheBookAndTheSessionsAtAnEndOfFeedUntilANextPublishersIncrement()
    {
        publishBook(2);

        publish(encoder.endOfFeed());
        assertThat(recovery.isLive()).isTrue();
        assertThat(recovery.isEnded()).isTrue();
        assertThat(drain(slowWorker)).isEmpty();
        assertThat(drain(fastWorker)).isEmpty();
        assertThat(book.orderCount()).isEqualTo(2);
        assertThat(requests.offer(new CatchUpRequest(1, 12, 0, true, false, 0, new boolean[]{false, true}, UNPACED)))
            .isTrue();
        dispatcher.answerCatchUps();
        assertThat(records(fastWorker)).as("no answer from the ended feed's books").isEmpty();

        final MarketDataEncoder nextPublisher = new MarketDataEncoder();
        final int length = nextPublisher.addOrder(1_000, "AAPL", 1, Side.BUY, 100, 1_000_000);
        dispatcher.onMessage(nextPublisher.buffer, 0, length, PUBLISHER + 1);
        assertThat(recovery.isLive()).isFalse();
        assertThat(recovery.lastGapCause()).isEqualTo(
            "a next md-publisher's increment came after the last one ended its feed");
        assertThat(drain(slowWorker)).containsExactly("data-lost");
        assertThat(drain(fastWorker)).containsExactly("data-lost");
        assertThat(errors.total()).isZero();
        assertThat(messagesIn("end_of_feed")).isOne();

        dispatcher.onMessage(nextPublisher.buffer, 0, nextPublisher.snapshotComplete(2), PUBLISHER + 1);
        dispatcher.answerCatchUps();
        dispatcher.answerCatchUps();
        assertThat(records(fastWorker)).as("the opening (System Event 'O', the symbol's Stock Directory), then the " +
            "next publisher's book: its Stock Trading Action, no order").containsExactly(
            "start 12 1", "record 7 12", "record 7 12", "record 4 12", "end 12");
    }

    /** An EndOfFeed that names a later increment than the last one applied tells of increments missing: a gap. */
    @Test
    void shouldTakeAnEndOfFeedAfterAnIncrementNotAppliedAsAGap()
    {
        publishBook(1);

        publish(encoder.endOfFeed(2));
        assertThat(recovery.isLive()).isFalse();
        assertThat(recovery.lastGapCause()).isEqualTo(
            "the md-publisher ended its feed after sequence number 2, expected 1");
        assertThat(drain(slowWorker)).containsExactly("data-lost");
        assertThat(drain(fastWorker)).containsExactly("data-lost");
    }

    /** Nothing may follow the end of a feed on its image: an increment after it is a gap. */
    @Test
    void shouldTakeAnIncrementOfTheImageThatEndedItsFeedAsAGap()
    {
        publishBook(1);
        publish(encoder.endOfFeed());

        publishAddOrder(2);
        assertThat(recovery.isLive()).isFalse();
        assertThat(recovery.lastGapCause()).isEqualTo(
            "an increment after the md-publisher ended its feed after sequence number 1");
        assertThat(drain(fastWorker)).containsExactly("data-lost");
    }

    @Test
    void shouldCountACatchUpInProgressUntilItsWorkerHasTakenTheWholeAnswer()
    {
        final int orders = 40;
        publishBook(orders);
        final boolean[] symbols = {false, true};
        assertThat(requests.offer(new CatchUpRequest(0, 7, 0, true, false, 0, symbols, UNPACED))).isTrue();
        assertThat(catchUpsInProgress()).isZero();

        final List<Integer> answer = new ArrayList<>();
        assertThat(dispatcher.answerCatchUps()).as("request and first records").isPositive();
        assertThat(catchUpsInProgress()).as("the ring took part of the snapshot").isEqualTo(1);
        final int cycles = 1 + answerAll(slowWorker, answer);

        assertThat(cycles).as("the answer took several duty cycles").isGreaterThan(2);
        assertThat(answer.getFirst()).isEqualTo(DispatcherAgent.SESSION_START_MSG_TYPE_ID);
        assertThat(answer.getLast()).isEqualTo(DispatcherAgent.SESSION_END_MSG_TYPE_ID);
        assertThat(answer.subList(1, 2 + SYMBOLS.entries().size())).as("System Event 'O', the Stock Directory")
            .containsOnly(DispatcherAgent.SESSION_OPENING_MSG_TYPE_ID);
        assertThat(answer.subList(2 + SYMBOLS.entries().size(), answer.size() - 1))
            .as("the symbol's Trading Action, then its orders").hasSize(1 + orders)
            .containsOnly(DispatcherAgent.SESSION_ITCH_MSG_TYPE_ID);
        assertThat(drain(fastWorker)).as("nothing for the other worker's sessions").isEmpty();
    }

    /**
     * A Login Request naming the day's stream gets that stream or Login Rejected 'S', never a snapshot session
     * (SoupBinTCP 4.0: the session named or none): from message 1 while it is kept, from the next for 0 or a number
     * past it; rejected once the message asked for has left the replay history (16 messages here). Before, 1 and any
     * number no longer kept got a snapshot session, numbered from 1 again under another name.
     */
    @Test
    void shouldAnswerALoginNamingTheDaysStreamFromItsNumberOrRejectIt()
    {
        publishBook(3);
        assertThat(namedLogin(1, 1)).containsExactly("start 1 1", "order 1 1", "order 1 2", "order 1 3", "end 1");
        assertThat(namedLogin(2, 0)).containsExactly("start 2 4", "end 2");
        assertThat(namedLogin(3, 9)).containsExactly("start 3 4", "end 3");

        for (int orderId = 4; orderId <= 20; orderId++)
        {
            publishAddOrder(orderId);
            drain(slowWorker);
            drain(fastWorker);
        }
        assertThat(namedLogin(4, 1)).containsExactly("rejected 4");
        assertThat(namedLogin(5, 5)).startsWith("start 5 5", "order 5 5").endsWith("order 5 20", "end 5").hasSize(18);
        assertThat(errors.total()).isZero();

        // A gap in the market data after message 20 (order 21 never comes): a session that has everything up to 20
        // lacks what the gap lost, so 21 is rejected, also once message 21 (order 23) has come; 0 is the next message,
        // and a session that has message 21 goes on from 22.
        encoder.addOrder(1_000, "AAPL", 21, Side.BUY, 100, 1_000_000);
        publishAddOrder(22);
        publish(encoder.bookSnapshot(9, 0, "AAPL", new long[]{1, 'B', 100, 1_000_000, 1_000}));
        publish(encoder.snapshotComplete(9, 1));
        drain(slowWorker);
        drain(fastWorker);
        assertThat(namedLogin(6, 21)).containsExactly("rejected 6");
        assertThat(namedLogin(7, 0)).containsExactly("start 7 21", "end 7");
        publishAddOrder(23);
        drain(slowWorker);
        drain(fastWorker);
        assertThat(namedLogin(8, 21)).containsExactly("rejected 8");
        assertThat(namedLogin(9, 22)).containsExactly("start 9 22", "end 9");
    }

    /**
     * @return the records of the answer to a Login Request naming the day's stream, run to its end.
     */
    private List<String> namedLogin(final long sessionId, final long requestedSequence)
    {
        assertThat(requests.offer(
            new CatchUpRequest(0, sessionId, 0, true, true, requestedSequence, new boolean[]{false, true}, UNPACED)))
            .isTrue();
        final List<String> answer = new ArrayList<>();
        for (int cycle = 0; cycle < 10; cycle++)
        {
            dispatcher.answerCatchUps();
            answer.addAll(records(slowWorker));
        }
        assertThat(catchUpsInProgress()).isZero();
        return answer;
    }

    @Test
    void shouldDropTheAnswerOfASessionThatEndedAndOnlyThatOne()
    {
        publishBook(40);
        final boolean[] symbols = {false, true};
        assertThat(requests.offer(new CatchUpRequest(0, 7, 0, true, false, 0, symbols, UNPACED))).isTrue();
        assertThat(requests.offer(new CatchUpRequest(1, 7, 0, true, false, 0, symbols, UNPACED))).isTrue();
        dispatcher.answerCatchUps();
        assertThat(catchUpsInProgress()).as("both answers under way").isEqualTo(2);

        // Session 7 of worker 0 ends; session 7 of worker 1 is another one.
        assertThat(requests.offer(CatchUpRequest.cancel(0, 7))).isTrue();
        drain(slowWorker);
        final List<Integer> otherAnswer = new ArrayList<>();
        answerAll(fastWorker, otherAnswer);

        assertThat(drain(slowWorker)).as("nothing more of the ended session's answer").isEmpty();
        assertThat(otherAnswer.getLast()).isEqualTo(DispatcherAgent.SESSION_END_MSG_TYPE_ID);
        assertThat(errors.total()).isZero();
    }

    /**
     * A storm of logins on one worker (here eight and three more): eight answers are under way at once, each with its
     * own copy of the book; the others wait, taken from the queue, and start as those end. Every session gets its
     * whole answer. Rings large enough for every answer at once, so that only the limit holds them back.
     */
    @Test
    void shouldAnswerAtMostEightRequestsOfAWorkerAtOnceAndTheRestAsThoseEnd()
    {
        final LoginStorm storm = new LoginStorm(DispatcherAgent.MAX_ANSWERS_PER_WORKER + 3);

        final List<String> answers = storm.answerAll();

        final int firstEnd = answers.indexOf(answers.stream().filter((record) -> record.startsWith(LoginStorm.END))
            .findFirst().orElseThrow());
        assertThat(answers.subList(0, firstEnd)).as("answers started before the first ended")
            .filteredOn((record) -> record.startsWith(LoginStorm.START))
            .hasSize(DispatcherAgent.MAX_ANSWERS_PER_WORKER);
        assertThat(answers).filteredOn((record) -> record.startsWith(LoginStorm.END)).hasSize(storm.sessions)
            .doesNotHaveDuplicates();
        assertThat(answers).as("the last session's start, System Event 'O', Stock Directory, Trading Action, 100 " +
            "orders and end").filteredOn((record) -> record.endsWith(" " + storm.sessions))
            .hasSize(1 + 2 + 1 + 100 + 1);
        assertThat(errors.total()).isZero();
    }

    @Test
    void shouldDropAWaitingRequestWhoseSessionEnded()
    {
        final LoginStorm storm = new LoginStorm(DispatcherAgent.MAX_ANSWERS_PER_WORKER + 1);
        storm.dispatcher.answerCatchUps();
        assertThat(gauge(storm.registry, "bourse_fanout_catch_ups_in_progress")).isEqualTo(storm.sessions);

        assertThat(storm.requests.offer(CatchUpRequest.cancel(0, storm.sessions))).isTrue();
        final List<String> answers = storm.answerAll();

        assertThat(answers).filteredOn((record) -> record.endsWith(" " + storm.sessions)).isEmpty();
        assertThat(answers).filteredOn((record) -> record.startsWith(LoginStorm.END))
            .hasSize(DispatcherAgent.MAX_ANSWERS_PER_WORKER);
    }

    /**
     * A gap voids the answers under way, whose sessions the worker ends at its data-lost marker, but not a login whose
     * answer had not started (here the ninth, waiting behind the worker's eight under way): it waits on and is answered
     * from the books taken next. Before stop 112 it was dropped, and the worker rejected its login ('S').
     */
    @Test
    void shouldAnswerALoginWhoseAnswerHadNotStartedAtAGapFromTheBooksTakenNext()
    {
        final LoginStorm storm = new LoginStorm(DispatcherAgent.MAX_ANSWERS_PER_WORKER + 1);
        storm.dispatcher.answerCatchUps();
        encoder.addOrder(1_000, "AAPL", 101, Side.BUY, 100, 1_000_000); // lost
        storm.dispatcher.onMessage(
            encoder.buffer, 0, encoder.addOrder(1_000, "AAPL", 102, Side.BUY, 100, 1_000_000), PUBLISHER);
        final List<String> toTheMarker = new ArrayList<>();
        storm.worker.read((msgTypeId, buffer, index, length) -> toTheMarker.add(msgTypeId + " " +
            (DispatcherAgent.DATA_LOST_MSG_TYPE_ID == msgTypeId ? "" :
            buffer.getLong(index + DispatcherAgent.SESSION_ID_OFFSET, ByteOrder.nativeOrder()))), Integer.MAX_VALUE);

        storm.dispatcher.onMessage(encoder.buffer, 0, encoder.snapshotComplete(2), PUBLISHER);
        final List<String> answers = storm.answerAll();

        assertThat(toTheMarker).as("the eight started, the ninth not, then the marker")
            .filteredOn((record) -> record.startsWith(LoginStorm.START)).hasSize(DispatcherAgent.MAX_ANSWERS_PER_WORKER)
            .doesNotContain(LoginStorm.START + storm.sessions);
        assertThat(toTheMarker.getLast()).isEqualTo(DispatcherAgent.DATA_LOST_MSG_TYPE_ID + " ");
        assertThat(answers).as("the ninth's answer from the books taken next: its start, System Event 'O', Stock " +
            "Directory, Trading Action and end, and nothing more of the others'").containsExactly(
            LoginStorm.START + storm.sessions, "7 " + storm.sessions, "7 " + storm.sessions, "4 " + storm.sessions,
            LoginStorm.END + storm.sessions);
        assertThat(errors.total()).isZero();
    }

    /** One worker with a large ring, a book of 100 orders, and a login request of each session in the queue. */
    private final class LoginStorm
    {
        static final String START = DispatcherAgent.SESSION_START_MSG_TYPE_ID + " ";
        static final String END = DispatcherAgent.SESSION_END_MSG_TYPE_ID + " ";

        final int sessions;
        final RingBuffer worker = new OneToOneRingBuffer(
            new UnsafeBuffer(ByteBuffer.allocateDirect(256 * 1024 + RingBufferDescriptor.TRAILER_LENGTH)));
        final ManyToOneConcurrentArrayQueue<CatchUpRequest> requests = new ManyToOneConcurrentArrayQueue<>(64);
        final PrometheusRegistry registry = new PrometheusRegistry();
        final DispatcherAgent dispatcher = new DispatcherAgent(
            null, translator, book, new ItchReferenceData(SYMBOLS), new MidnightNanoClock(),
            new SessionNames("FB22000000"), recovery, new RingBuffer[]{worker}, requests, 16, 10,
            new FanoutMetrics(registry, errors), errors);

        LoginStorm(final int sessions)
        {
            this.sessions = sessions;
            dispatcher.onMessage(encoder.buffer, 0, encoder.snapshotComplete(1), PUBLISHER);
            for (int orderId = 1; orderId <= 100; orderId++) // more than an answer writes per duty cycle (40)
            {
                dispatcher.onMessage(
                    encoder.buffer, 0, encoder.addOrder(1_000, "AAPL", orderId, Side.BUY, 100, 1_000_000), PUBLISHER);
            }
            worker.read((msgTypeId, buffer, index, length) ->
            {
            }, Integer.MAX_VALUE);
            for (int sessionId = 1; sessionId <= sessions; sessionId++)
            {
                assertThat(requests.offer(new CatchUpRequest(
                    0, sessionId, 0, true, false, 0, new boolean[]{false, true}, UNPACED))).isTrue();
            }
        }

        /** @return "record type, session id" of every record, the worker reading as the answers are written. */
        List<String> answerAll()
        {
            final List<String> answers = new ArrayList<>();
            int cycles = 0;
            do
            {
                assertThat(cycles++).as("duty cycles").isLessThan(100);
                dispatcher.answerCatchUps();
                worker.read((msgTypeId, buffer, index, length) -> answers.add(msgTypeId + " " +
                    buffer.getLong(index + DispatcherAgent.SESSION_ID_OFFSET, ByteOrder.nativeOrder())),
                    Integer.MAX_VALUE);
            }
            while (gauge(registry, "bourse_fanout_catch_ups_in_progress") > 0);
            return answers;
        }
    }

    /**
     * A replay whose next message leaves the replay history (16 messages here) before the worker's ring takes it fails:
     * the worker gets the session's failure record, to end it, and the dispatcher counts {@code catch_up_failed}.
     */
    @Test
    void shouldFailAndCountAReplayWhoseMessagesLeftTheReplayHistory()
    {
        publish(encoder.snapshotComplete(1));
        for (int orderId = 1; orderId <= 10; orderId++)
        {
            publishAddOrder(orderId); // 560 bytes in the slow worker's ring: more than half, no room for an answer
            drain(fastWorker);
        }
        final boolean[] symbols = {false, true};
        assertThat(requests.offer(new CatchUpRequest(0, 7, 0, true, false, 2, symbols, UNPACED))).isTrue();
        dispatcher.answerCatchUps();
        assertThat(catchUpsInProgress()).as("the replay taken, not yet written").isEqualTo(1);
        for (int orderId = 11; orderId <= 30; orderId++)
        {
            publishAddOrder(orderId);
            drain(slowWorker);
            drain(fastWorker);
        }

        final List<Integer> answer = new ArrayList<>();
        answerAll(slowWorker, answer);

        assertThat(answer).containsExactly(
            DispatcherAgent.SESSION_START_MSG_TYPE_ID, DispatcherAgent.SESSION_FAILED_MSG_TYPE_ID);
        assertThat(errors.count(FanoutError.CATCH_UP_FAILED)).isEqualTo(1);
        assertThat(errors.total()).isEqualTo(1);
    }

    /**
     * A snapshot paced to a subscriber that has taken none of it (a window of 100 bytes: the Trading Action and two Add
     * Orders) fails as soon as the first message after it leaves the replay history (16 messages here), with the book
     * still being written: the rest would end in the same failure, and a subscriber that stopped reading would hold
     * the answer's place meanwhile.
     */
    @Test
    void shouldFailAPacedSnapshotOnceTheFirstMessageAfterItLeavesTheReplayHistory()
    {
        publishBook(40);
        final boolean[] symbols = {false, true};
        assertThat(requests.offer(
            new CatchUpRequest(0, 7, 0, true, false, 0, symbols, new AnswerPacing(100)))).isTrue();
        final List<Integer> answer = new ArrayList<>();
        for (int orderId = 41; orderId <= 56; orderId++)
        {
            dispatcher.answerCatchUps();
            publishAddOrder(orderId); // the 16th is the last the history holds with the first after the snapshot
            slowWorker.read((msgTypeId, buffer, index, length) -> answer.add(msgTypeId), Integer.MAX_VALUE);
            drain(fastWorker);
        }
        dispatcher.answerCatchUps();
        assertThat(catchUpsInProgress()).as("the snapshot held back by its pace").isEqualTo(1);

        publishAddOrder(57);
        answerAll(slowWorker, answer);

        assertThat(answer).filteredOn((recordType) -> DispatcherAgent.ITCH_MSG_TYPE_ID != recordType).containsExactly(
            DispatcherAgent.SESSION_START_MSG_TYPE_ID, DispatcherAgent.SESSION_OPENING_MSG_TYPE_ID,
            DispatcherAgent.SESSION_OPENING_MSG_TYPE_ID, DispatcherAgent.SESSION_ITCH_MSG_TYPE_ID,
            DispatcherAgent.SESSION_FAILED_MSG_TYPE_ID);
        assertThat(errors.count(FanoutError.CATCH_UP_FAILED)).isEqualTo(1);
        assertThat(errors.total()).isEqualTo(1);
    }

    /**
     * A login's opening, System Event 'O' and a Stock Directory per symbol (here 1,000), is written like the book, at
     * the subscriber's pace (a window of 1,000 bytes): no more than the window goes out until the worker reports the
     * session took it; then the symbol's Trading Action and its orders follow. Before, the worker wrote the opening
     * into the send buffer at once, whatever its size. The snapshot is taken once the opening is written: the 20 orders
     * that came meanwhile, more than the replay history keeps (16), are in it, and the answer does not fail.
     */
    @Test
    void shouldWriteALoginsOpeningAtItsSubscribersPaceBeforeTheBook()
    {
        final StringBuilder names = new StringBuilder("AAPL@0");
        for (int i = 2; i <= 1_000; i++)
        {
            names.append(",S").append(i).append("@0");
        }
        final SymbolDirectory symbols = SymbolDirectory.parse(names.toString());
        final ItchTranslator manyTranslator = new ItchTranslator(symbols);
        final ItchBook manyBook = new ItchBook(new ItchReferenceData(symbols), 0);
        final RingBuffer worker = new OneToOneRingBuffer(
            new UnsafeBuffer(ByteBuffer.allocateDirect(256 * 1024 + RingBufferDescriptor.TRAILER_LENGTH)));
        final DispatcherAgent manyDispatcher = new DispatcherAgent(
            null, manyTranslator, manyBook, new ItchReferenceData(symbols), new MidnightNanoClock(),
            new SessionNames("FB22000000"),
            new MarketDataRecovery(null, null, () -> 1, manyTranslator, manyBook, SystemNanoClock.INSTANCE),
            new RingBuffer[]{worker}, requests, 16, 10, new FanoutMetrics(new PrometheusRegistry(), errors), errors);
        manyDispatcher.onMessage(encoder.buffer, 0, encoder.snapshotComplete(1), PUBLISHER);
        manyDispatcher.onMessage(
            encoder.buffer, 0, encoder.addOrder(1_000, "AAPL", 1, Side.BUY, 100, 1_000_000), PUBLISHER);
        worker.read((msgTypeId, buffer, index, length) ->
        {
        }, Integer.MAX_VALUE);
        final boolean[] chosen = new boolean[1 + 1_000];
        chosen[1] = true;
        final AnswerPacing pacing = new AnswerPacing(1_000);
        assertThat(requests.offer(new CatchUpRequest(0, 7, 0, true, false, 0, chosen, pacing))).isTrue();

        final StringBuilder messageTypes = new StringBuilder();
        final List<Integer> directoryLocates = new ArrayList<>();
        final int[] cycleBytes = new int[1];
        final int[] openingRecords = new int[1];
        boolean ended = false;
        int orders = 1;
        for (int cycle = 0; !ended; cycle++)
        {
            assertThat(cycle).as("duty cycles").isLessThan(1_000);
            if (cycle > 0 && orders < 21)
            {
                orders++;
                manyDispatcher.onMessage(encoder.buffer, 0,
                    encoder.addOrder(1_000 + orders, "AAPL", orders, Side.BUY, 100, 1_000_000 - orders), PUBLISHER);
            }
            manyDispatcher.answerCatchUps();
            manyDispatcher.answerCatchUps(); // nothing more until the session takes some
            cycleBytes[0] = 0;
            final boolean[] end = new boolean[1];
            worker.read((msgTypeId, buffer, index, length) ->
            {
                if (DispatcherAgent.SESSION_OPENING_MSG_TYPE_ID == msgTypeId ||
                    DispatcherAgent.SESSION_ITCH_MSG_TYPE_ID == msgTypeId)
                {
                    final int itch = index + DispatcherAgent.SESSION_ITCH_OFFSET;
                    final char type = (char)buffer.getByte(itch);
                    messageTypes.append(type);
                    if ('R' == type)
                    {
                        directoryLocates.add(
                            buffer.getShort(itch + DispatcherAgent.ITCH_LOCATE_OFFSET, ByteOrder.BIG_ENDIAN) & 0xFFFF);
                    }
                    cycleBytes[0] += length - DispatcherAgent.SESSION_ITCH_OFFSET;
                    openingRecords[0] += DispatcherAgent.SESSION_OPENING_MSG_TYPE_ID == msgTypeId ? 1 : 0;
                }
                end[0] |= DispatcherAgent.SESSION_END_MSG_TYPE_ID == msgTypeId;
            }, Integer.MAX_VALUE);
            assertThat(cycleBytes[0]).as("bytes written before the session took any").isLessThanOrEqualTo(1_000);
            pacing.onTaken(cycleBytes[0], 0);
            ended = end[0];
        }

        assertThat(orders).isEqualTo(21);
        assertThat(messageTypes.toString()).isEqualTo("S" + "R".repeat(1_000) + "H" + "A".repeat(orders));
        assertThat(openingRecords[0]).as("opening records").isEqualTo(1 + 1_000);
        assertThat(directoryLocates).hasSize(1_000).isSorted().doesNotHaveDuplicates();
        assertThat(errors.total()).isZero();
    }

    /** A market-data message the dispatcher cannot translate (an unknown symbol) is skipped and counted. */
    @Test
    void shouldSkipAndCountAMessageThatHasNoItchTranslation()
    {
        publish(encoder.snapshotComplete(1));
        publish(encoder.addOrder(1_000, "ZZZZ", 1, Side.BUY, 100, 1_000_000));
        publishAddOrder(2);

        assertThat(drain(fastWorker)).containsExactly("itch A");
        assertThat(book.orderCount()).isEqualTo(1);
        assertThat(errors.count(FanoutError.UNTRANSLATABLE_MESSAGE)).isEqualTo(1);
        assertThat(errors.total()).isEqualTo(1);
    }

    /**
     * Midnight UTC on the fanout's clock ends the trading day: every worker gets the day-end record, in order with the
     * stream, naming the ended day and the closing System Events' time (the day's last nanosecond, after its last
     * message of 23:59:59.5); the next day's stream is named after its date and numbered from 1, so that a replay from
     * 2 starts at the new day's second message; a request of the ended day is not answered, nor is the rest of an
     * answer under way at midnight.
     */
    @Test
    void shouldEndTheTradingDayAtMidnightInEveryWorkersRingAndNumberTheNextDaysStreamFrom1()
    {
        publish(encoder.snapshotComplete(1));
        for (int orderId = 1; orderId <= 3; orderId++)
        {
            publish(encoder.addOrder(HALF_A_SECOND_BEFORE_MIDNIGHT_NS, "AAPL", orderId, Side.BUY, 100, 1_000_000));
        }
        drain(slowWorker);
        drain(fastWorker);
        final boolean[] symbols = {false, true};
        assertThat(requests.offer(
            new CatchUpRequest(0, 9, 0, true, false, 0, symbols, new AnswerPacing(100)))).isTrue();
        dispatcher.answerCatchUps();
        assertThat(catchUpsInProgress()).as("an answer paced to its subscriber, under way").isEqualTo(1);
        assertThat(records(slowWorker)).as("its start and opening").startsWith("start 9 1");

        wallClockNs.set(NOVEMBER_24_NS + MidnightNanoClock.NANOS_PER_DAY - TimeUnit.MILLISECONDS.toNanos(100));
        assertThat(dispatcher.endDayAtMidnight()).as("23:59:59.9").isZero();
        wallClockNs.set(JUST_AFTER_MIDNIGHT_NS);
        assertThat(dispatcher.endDayAtMidnight()).as("00:00:00.1").isEqualTo(1);
        assertThat(dispatcher.endDayAtMidnight()).as("once a day").isZero();

        final String dayEnd = FIRST_DAY_END_ON_ITS_LAST_NANOSECOND;
        assertThat(records(slowWorker)).containsExactly(dayEnd);
        assertThat(records(fastWorker)).containsExactly(dayEnd);
        assertThat(sessionNames.day()).isEqualTo(new SessionNames.Day(1, "F20261125"));
        // The books go on, what they carry stamped with the new day's first nanosecond (before, 23:59:59.5).
        final ExpandableArrayBuffer snapshot = new ExpandableArrayBuffer(256);
        final int snapshotLength = book.snapshot(symbols, snapshot);
        for (int offset = 0; offset < snapshotLength;
            offset += ItchBook.snapshotMessageLength(snapshot.getByte(offset)))
        {
            assertThat(ItchBook.timestampNs(snapshot, offset)).as("Timestamp at %d", offset).isZero();
        }
        assertThat(book.orderCount()).isEqualTo(3);

        publish(encoder.addOrder(1_000, "AAPL", 4, Side.BUY, 100, 1_000_000));
        publish(encoder.addOrder(2_000, "AAPL", 5, Side.BUY, 100, 1_000_000));
        drain(slowWorker);
        drain(fastWorker);
        assertThat(requests.offer(new CatchUpRequest(0, 10, 0, true, false, 2, symbols, UNPACED))).isTrue();
        assertThat(requests.offer(new CatchUpRequest(1, 11, 1, true, false, 2, symbols, UNPACED))).isTrue();
        dispatcher.answerCatchUps();
        dispatcher.answerCatchUps();

        assertThat(catchUpsInProgress()).isZero();
        assertThat(records(slowWorker)).as("nothing for the ended day's sessions").isEmpty();
        assertThat(records(fastWorker)).containsExactly("start 11 2", "order 11 5", "end 11");
        assertThat(errors.total()).isZero();
    }

    /**
     * A day without a message of the stream (the books taken from a snapshot, nothing traded) closes on its last
     * nanosecond, not at the time the day ended: no message of the day carries a later time.
     */
    @Test
    void shouldCloseADayWithoutMessagesOnItsLastNanosecond()
    {
        publish(encoder.snapshotComplete(1));
        wallClockNs.set(JUST_AFTER_MIDNIGHT_NS);

        assertThat(dispatcher.endDayAtMidnight()).isEqualTo(1);
        assertThat(records(fastWorker)).containsExactly(FIRST_DAY_END_ON_ITS_LAST_NANOSECOND);
    }

    /**
     * A stop just after midnight, before a duty cycle has ended the day, ends it first: the workers, which end their
     * sessions after the dispatcher has stopped, read the day-end record and close the ended day's sessions on its last
     * nanosecond, not at the stop's time of 00:00:00.1, which is before the day's last message.
     */
    /**
     * The stop reads what the md-publisher published before it stopped, up to its EndOfFeed, before the day ends: the
     * exchange stops the md-publisher first, and the last duty cycle may have polled before its last messages came.
     */
    @Test
    void shouldReadTheMarketDataAlreadyPublishedAtTheStop()
    {
        try (Publication publisher = aeron.addExclusivePublication("aeron:ipc", MARKET_DATA_STREAM_ID))
        {
            while (!publisher.isConnected() || null == marketData.imageBySessionId(publisher.sessionId()))
            {
                Thread.yield();
            }
            dispatcher.onMessage(encoder.buffer, 0, encoder.snapshotComplete(1), publisher.sessionId());
            offer(publisher, encoder.addOrder(1_000, "AAPL", 1, Side.BUY, 100, 1_000_000));
            offer(publisher, encoder.orderDelete(2_000, "AAPL", 1));
            offer(publisher, encoder.endOfFeed());

            dispatcher.onClose();
        }

        assertThat(drain(slowWorker)).containsExactly("itch A", "itch D");
        assertThat(recovery.isEnded()).isTrue();
        assertThat(book.orderCount()).isZero();
    }

    /** Offers the message last encoded. */
    private void offer(final Publication publication, final int length)
    {
        assertThat(publication.offer(encoder.buffer, 0, length)).isPositive();
    }

    @Test
    void shouldEndTheDayAtAStopAfterMidnightBeforeTheWorkersEndTheirSessions()
    {
        publish(encoder.snapshotComplete(1));
        publish(encoder.addOrder(HALF_A_SECOND_BEFORE_MIDNIGHT_NS, "AAPL", 1, Side.BUY, 100, 1_000_000));
        drain(slowWorker);
        drain(fastWorker);
        wallClockNs.set(JUST_AFTER_MIDNIGHT_NS);

        dispatcher.onClose();

        final String dayEnd = FIRST_DAY_END_ON_ITS_LAST_NANOSECOND;
        assertThat(records(slowWorker)).containsExactly(dayEnd);
        assertThat(records(fastWorker)).containsExactly(dayEnd);
        assertThat(sessionNames.day()).isEqualTo(new SessionNames.Day(1, "F20261125"));
    }

    /**
     * A stop just after midnight whose worker ring has no room for the day-end record (18 records of 56 bytes leave 16
     * of 1,024, short of its 24): the stop writes the data-lost marker in its place once the worker, still running,
     * has made room, so that the worker ends that day's sessions with End of Session alone.
     */
    @Test
    void shouldWriteTheDataLostMarkerAtAStopAfterMidnightWhenARingHasNoRoomForTheDayEnd() throws Exception
    {
        publish(encoder.snapshotComplete(1));
        for (int orderId = 1; orderId <= 18; orderId++)
        {
            publishAddOrder(orderId);
            drain(fastWorker);
        }
        wallClockNs.set(JUST_AFTER_MIDNIGHT_NS);

        final List<String> records = stopWhileTheSlowWorkerMakesRoom();

        assertThat(records).hasSize(19).endsWith("itch A", "data-lost");
        assertThat(drain(fastWorker)).containsExactly("day-end");
    }

    /**
     * Midnight while the book is recovering (no snapshot yet) ends the day as when it is live: the day-end record,
     * closing on the day's last nanosecond, since the dispatcher sent none of the day's messages; a login of the new
     * day waits for the snapshot and is then answered on the new day's stream, numbered from 1.
     */
    @Test
    void shouldEndTheDayWhileRecoveringAndAnswerTheNextDaysLoginOnceTheBookIsLive()
    {
        publish(encoder.addOrder(HALF_A_SECOND_BEFORE_MIDNIGHT_NS, "AAPL", 1, Side.BUY, 100, 1_000_000));
        assertThat(recovery.isLive()).isFalse();
        wallClockNs.set(JUST_AFTER_MIDNIGHT_NS);

        assertThat(dispatcher.endDayAtMidnight()).isEqualTo(1);
        final String dayEnd = FIRST_DAY_END_ON_ITS_LAST_NANOSECOND;
        assertThat(records(slowWorker)).containsExactly(dayEnd);
        assertThat(records(fastWorker)).containsExactly(dayEnd);

        assertThat(requests.offer(new CatchUpRequest(1, 12, 1, true, false, 1, new boolean[]{false, true}, UNPACED)))
            .isTrue();
        dispatcher.answerCatchUps();
        assertThat(records(fastWorker)).as("no answer while recovering").isEmpty();
        publish(encoder.snapshotComplete(1));
        publish(encoder.addOrder(1_000, "AAPL", 2, Side.BUY, 100, 1_000_000));
        drain(slowWorker);
        drain(fastWorker);
        dispatcher.answerCatchUps();
        dispatcher.answerCatchUps();

        assertThat(records(fastWorker)).as("a snapshot from the new day's 1: the opening (System Event 'O', the " +
            "symbol's Stock Directory), then the book (its Stock Trading Action, order 2's Add Order)")
            .containsExactly("start 12 1", "record 7 12", "record 7 12", "record 4 12", "order 12 2", "end 12");
        assertThat(errors.total()).isZero();
    }

    /**
     * A worker whose ring has no room for the day-end record at midnight (18 records of 56 bytes leave 16 of 1,024,
     * short of the record's 24) gets a data-lost marker before its next record instead, which ends its sessions.
     */
    @Test
    void shouldMarkTheDataLostForAWorkerWhoseRingHasNoRoomForTheDayEnd()
    {
        publish(encoder.snapshotComplete(1));
        for (int orderId = 1; orderId <= 18; orderId++)
        {
            publishAddOrder(orderId);
            drain(fastWorker);
        }
        assertThat(slowWorker.size()).isEqualTo(RING_CAPACITY - 16);

        wallClockNs.addAndGet(MidnightNanoClock.NANOS_PER_DAY);
        assertThat(dispatcher.endDayAtMidnight()).isEqualTo(1);
        assertThat(drain(slowWorker)).hasSize(18).containsOnly("itch A");
        publishAddOrder(19);

        assertThat(drain(slowWorker)).containsExactly("data-lost", "itch A");
        assertThat(drain(fastWorker)).containsExactly("day-end", "itch A");
    }

    /**
     * Stops the dispatcher while the slow worker still reads: it makes room 50 ms into the stop, on a thread of its
     * own.
     *
     * @return what the slow worker read, in order, then what the stop left in its ring.
     */
    private List<String> stopWhileTheSlowWorkerMakesRoom() throws InterruptedException
    {
        final List<String> records = new ArrayList<>();
        final Thread worker = Thread.ofPlatform().start(() ->
        {
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(50));
            records.addAll(drain(slowWorker));
        });
        dispatcher.onClose();
        worker.join();
        records.addAll(drain(slowWorker));
        return records;
    }

    /**
     * @return what the worker's ring holds, read: answers as "start", "order" (an Add Order) or "end" with their
     *         session id, a start with its Login Accepted sequence number; day ends with the ended day and the closing
     *         time.
     */
    private static List<String> records(final RingBuffer ring)
    {
        final List<String> records = new ArrayList<>();
        ring.read((msgTypeId, buffer, index, length) ->
        {
            final long sessionId = buffer.getLong(index + DispatcherAgent.SESSION_ID_OFFSET);
            final int itch = index + DispatcherAgent.SESSION_ITCH_OFFSET;
            records.add(switch (msgTypeId)
            {
                case DispatcherAgent.DAY_END_MSG_TYPE_ID -> "day-end " +
                    buffer.getLong(index + DispatcherAgent.DAY_ORDINAL_OFFSET) + " " +
                    buffer.getLong(index + DispatcherAgent.CLOSING_TIMESTAMP_OFFSET);
                case DispatcherAgent.SESSION_START_MSG_TYPE_ID -> "start " + sessionId + " " +
                    buffer.getLong(index + DispatcherAgent.ACCEPTED_SEQUENCE_OFFSET);
                case DispatcherAgent.SESSION_END_MSG_TYPE_ID -> "end " + sessionId;
                case DispatcherAgent.SESSION_REJECTED_MSG_TYPE_ID -> "rejected " + sessionId;
                default -> 'A' == buffer.getByte(itch) ?
                    "order " + sessionId + " " +
                    buffer.getLong(itch + TestSubscriber.ORDER_REFERENCE_OFFSET, ByteOrder.BIG_ENDIAN) :
                    "record " + msgTypeId + " " + sessionId;
            });
        }, Integer.MAX_VALUE);
        return records;
    }

    /**
     * Runs the dispatcher's answers until none is in progress, the worker taking every record meanwhile.
     *
     * @return the duty cycles it took.
     */
    private int answerAll(final RingBuffer worker, final List<Integer> recordTypes)
    {
        int cycles = 0;
        while (catchUpsInProgress() > 0)
        {
            assertThat(cycles++).as("duty cycles").isLessThan(100);
            worker.read((msgTypeId, buffer, index, length) -> recordTypes.add(msgTypeId), Integer.MAX_VALUE);
            dispatcher.answerCatchUps();
        }
        worker.read((msgTypeId, buffer, index, length) -> recordTypes.add(msgTypeId), Integer.MAX_VALUE);
        return cycles;
    }

    /** @return the value of {@code bourse_fanout_catch_ups_in_progress}. */
    private double catchUpsInProgress()
    {
        return gauge(registry, "bourse_fanout_catch_ups_in_progress");
    }

    /** @return the value of {@code bourse_fanout_messages_in_total} for this type. */
    private double messagesIn(final String type)
    {
        return ((CounterSnapshot)metric(registry, "bourse_fanout_messages_in")).getDataPoints().stream()
            .filter((point) -> type.equals(point.getLabels().get("type")))
            .findFirst().orElseThrow().getValue();
    }

    private static double gauge(final PrometheusRegistry registry, final String name)
    {
        return ((GaugeSnapshot)metric(registry, name)).getDataPoints().getFirst().getValue();
    }

    private static MetricSnapshot metric(final PrometheusRegistry registry, final String name)
    {
        return registry.scrape().stream()
            .filter((metric) -> metric.getMetadata().getPrometheusName().equals(name))
            .findFirst().orElseThrow();
    }

    @Test
    void shouldIgnoreAndCountTheMessagesOfASecondPublisher()
    {
        publish(encoder.snapshotComplete(1));
        final int length = encoder.addOrder(1_000, "AAPL", 1, Side.BUY, 100, 1_000_000);
        dispatcher.onMessage(encoder.buffer, 0, length, PUBLISHER + 1);

        assertThat(drain(fastWorker)).isEmpty();
        assertThat(errors.count(FanoutError.OTHER_PUBLISHER)).isEqualTo(1);
        assertThat(errors.total()).isEqualTo(1);
        assertThat(recovery.isLive()).isTrue();
    }
}
