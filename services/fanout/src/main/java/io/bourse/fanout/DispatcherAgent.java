package io.bourse.fanout;

import com.paritytrading.juncture.nasdaq.itch50.ITCH50;
import io.aeron.Subscription;
import io.aeron.logbuffer.FragmentHandler;
import io.aeron.logbuffer.Header;
import io.bourse.common.aeron.StopRead;
import io.bourse.common.metrics.ErrorKinds;
import io.bourse.common.time.MidnightNanoClock;
import io.bourse.itch.ItchReferenceData;
import io.bourse.itch.ItchTranslator;
import io.bourse.sbe.md.MessageHeaderDecoder;
import org.agrona.DirectBuffer;
import org.agrona.ExpandableArrayBuffer;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.ManyToOneConcurrentArrayQueue;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.ringbuffer.RingBuffer;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;

/**
 * Reads the market-data stream, translates each L3 message, each trade against a non-displayed order and each cross
 * trade to ITCH 5.0 once ({@link ItchTranslator}), numbers it (the fanout sequence number, from 1), keeps it in the
 * {@link ReplayRing} and the {@link ItchBook}, and writes it to every worker's ring buffer. Never blocks: a worker
 * whose ring buffer is full misses the message, which is counted as a drop (and logged once per run of drops). The
 * first record that fits again is preceded by a {@link #DATA_LOST_MSG_TYPE_ID} marker, so that the worker ends the
 * sessions that missed messages, at the point of the gap, instead of letting their books silently diverge. Messages
 * without an ITCH form are only counted in; untranslatable ones are counted as errors.
 *
 * <p>The book and the stream are kept in step by the {@link MarketDataRecovery}: the book is taken from an md-publisher
 * snapshot at start, and again after a gap in the market-data sequence numbers, when the publisher goes away without
 * ending its feed (a crash), or when a next publisher comes after one ended its feed (EndOfFeed, at its stop). Until
 * then no login or subscription is answered (they wait in the queue); at a gap every worker ends its logged-in
 * sessions' connections at a data-lost marker ({@link SubscriberSession#endConnectionAtDataLost}), since their books
 * are no longer the stream's, while a login whose answer had not started waits on for the next books, and the replay
 * ring serves nothing from before the gap. Between an EndOfFeed and the next publisher the books are final: the
 * sessions logged in go on, so that a fanout stopped after the md-publisher ends their day whole, while new logins
 * and subscriptions wait, since the engine shards may still trade while an md-publisher restarts (the next
 * publisher's coming then ends the logged-in sessions, as a gap does, and the logins are answered from its books).
 *
 * <p>Between two market-data messages it answers the workers' {@link CatchUpRequest}s in the worker's ring buffer,
 * the same ordered queue as the live messages, so that a session gets no gap and no duplicate by construction:
 * <ul>
 *   <li>a login naming the day's numbered stream (SoupBinTCP 4.0 Requested Session) is answered from that stream:
 *   Login Accepted with its Requested Sequence Number n, then the kept messages n, n+1, ... of every symbol, then live
 *   messages; with n 0 or past the next number, from the next one (live messages only); with an n no longer kept
 *   (or not after the last gap, {@link ReplayRing#oldestReplayable}), Login Rejected 'S' (session not available)
 *   ({@link #SESSION_REJECTED_MSG_TYPE_ID}), since the messages it lacks cannot be sent and its stream has no other
 *   number for them;</li>
 *   <li>a login with a blank Requested Session whose n is 2 or more and still in the replay ring (or the next number)
 *   gets the same replay;</li>
 *   <li>any other login, and a change of subscription for the symbols it adds, gets the book of its symbols as it
 *   stands after message P-1 ({@link ItchBook#snapshot}), then the kept messages P, P+1, ... of those symbols that
 *   came while the answer was being written, then live messages. A login's answer starts with Login Accepted
 *   (sequence number 1), then the day's opening, ITCH 5.0 System Event 'O' and a Stock Directory per symbol of the
 *   directory, all stamped when the answer starts and written like the book, at the subscriber's pace (so that
 *   thousands of symbols do not fill its send buffer at once); its snapshot is taken once the opening is written, at
 *   once for a change of subscription. The snapshot starts with each chosen symbol's Stock Trading Action 'H' (the
 *   spin), after which the session sends System Events 'S' and 'Q', stamped as the opening
 *   ({@link SubscriberSession#sendAnswer}), then the symbols' Add Orders.</li>
 * </ul>
 * An answer is written while the worker's ring buffer is less than half full, up to four times the fragment limit of
 * records per duty cycle (faster than the stream comes, which is read a fragment limit at a time), so that live
 * messages keep their room and the answer catches up as fast as its subscriber reads it ({@link AnswerPacing}: the
 * answer's bytes in the ring and the session's send buffer within half that buffer); the session ignores the live
 * messages of its pending symbols until the answer's end record. An answer whose next message has left the replay
 * ring before it could be written ends the connection ({@link #SESSION_FAILED_MSG_TYPE_ID}; End of Session on a
 * snapshot session only, {@link SubscriberSession#endConnection}), and so does a snapshot still being written when the
 * first message after it leaves. A worker has at most {@value #MAX_ANSWERS_PER_WORKER} answers under way; its further
 * requests wait, in their order, for one of them to end, and their snapshot is taken after they start: so a storm of
 * logins (every session ended at a gap logs in again) holds that many copies of the book per worker, not one per
 * session.
 *
 * <p>At midnight UTC on the fanout's clock, between two market-data messages, the trading day ends, as the
 * md-publisher's MoldUDP64 session does: the next day's numbered stream starts ({@link SessionNames#nextDay}, named
 * after its date) and the replay ring numbers it from 1 again ({@link ReplayRing#startDay}); every answer under way or
 * waiting is void, a request of the ended day is dropped when it comes, and every worker gets a {@link
 * #DAY_END_MSG_TYPE_ID} record, in order with the stream, at which it ends the day's sessions: System Events 'M', 'E'
 * and 'C' stamped after the day's last message ({@link MidnightNanoClock#closingTimestamp}), then End of Session
 * ({@link SubscriberSession#endDay}). A worker whose ring has no room for it then gets a data-lost marker instead,
 * which ends its sessions' connections ({@link SubscriberSession#endConnectionAtDataLost}: the ended day's logins
 * waiting for their answer are rejected, a later day's wait on). The books go on: a new day's login gets the resting
 * orders as Add Orders, and the symbols' Trading Actions, stamped with the day's first nanosecond ({@link
 * ItchBook#startDay}), as the md-publisher's new session spins them.
 *
 * <p>Ring-buffer records (native byte order for the fanout's own fields; ITCH big-endian):
 * <pre>
 *   ITCH_MSG_TYPE_ID            read time (8, ns since midnight on the fanout's clock: when the dispatcher took
 *                               the message off the stream) | ITCH message (its Timestamp the market data's)
 *   DATA_LOST_MSG_TYPE_ID       one byte
 *   SESSION_START_MSG_TYPE_ID   session id (8) | Login Accepted sequence number (8) | 1 for a snapshot else 0 (8)
 *                               | the opening's timestamp (8, ns since midnight)
 *   SESSION_OPENING_MSG_TYPE_ID session id (8) | ITCH message of a login's opening, for that session only
 *   SESSION_ITCH_MSG_TYPE_ID    session id (8) | ITCH message for that session only
 *   SESSION_END_MSG_TYPE_ID     session id (8): the session's pending symbols are live from the next record
 *   SESSION_FAILED_MSG_TYPE_ID  session id (8): the answer could not be completed, end the session
 *   SESSION_REJECTED_MSG_TYPE_ID session id (8): the login named the day's stream from a message no longer kept,
 *                               Login Rejected 'S'
 *   DAY_END_MSG_TYPE_ID         the ended day's ordinal (8) | its closing System Events' timestamp (8, ns since
 *                               the clock's midnight, past a day after the first)
 * </pre>
 */
final class DispatcherAgent implements Agent, FragmentHandler
{
    /** Ring-buffer message type of an ITCH message. */
    static final int ITCH_MSG_TYPE_ID = 1;
    /** Ring-buffer message type of the marker written after a run of drops (no payload beyond one byte). */
    static final int DATA_LOST_MSG_TYPE_ID = 2;
    /** Ring-buffer message type of the start of a login's answer. */
    static final int SESSION_START_MSG_TYPE_ID = 3;
    /** Ring-buffer message type of an ITCH message for one session: snapshot or replay. */
    static final int SESSION_ITCH_MSG_TYPE_ID = 4;
    /** Ring-buffer message type of the end of an answer. */
    static final int SESSION_END_MSG_TYPE_ID = 5;
    /** Ring-buffer message type of an answer that failed. */
    static final int SESSION_FAILED_MSG_TYPE_ID = 6;
    /** Ring-buffer message type of an ITCH message of a login's opening, for that session only. */
    static final int SESSION_OPENING_MSG_TYPE_ID = 7;
    /** Ring-buffer message type of the end of a trading day. */
    static final int DAY_END_MSG_TYPE_ID = 8;
    /** Ring-buffer message type of a login the day's stream cannot answer: Login Rejected 'S'. */
    static final int SESSION_REJECTED_MSG_TYPE_ID = 9;
    /** Offset of the time the dispatcher read the message, on the fanout's clock, in an ITCH record. */
    static final int READ_TIME_OFFSET = 0;
    /** Offset of the ITCH message in an ITCH record. */
    static final int ITCH_OFFSET = READ_TIME_OFFSET + Long.BYTES;
    /** Offset of the session id in a session record. */
    static final int SESSION_ID_OFFSET = 0;
    /** Offset of the Login Accepted sequence number in a start record. */
    static final int ACCEPTED_SEQUENCE_OFFSET = SESSION_ID_OFFSET + Long.BYTES;
    /** Offset of the snapshot flag in a start record. */
    static final int SNAPSHOT_FLAG_OFFSET = ACCEPTED_SEQUENCE_OFFSET + Long.BYTES;
    /** Offset of the opening's timestamp in a start record. */
    static final int OPENING_TIMESTAMP_OFFSET = SNAPSHOT_FLAG_OFFSET + Long.BYTES;
    /** Length of a start record. */
    static final int SESSION_START_LENGTH = OPENING_TIMESTAMP_OFFSET + Long.BYTES;
    /** Offset of the ITCH message in a session ITCH record. */
    static final int SESSION_ITCH_OFFSET = SESSION_ID_OFFSET + Long.BYTES;
    /** Offset of the ended day's ordinal ({@link SessionNames.Day}) in a day-end record. */
    static final int DAY_ORDINAL_OFFSET = 0;
    /** Offset of the closing System Events' timestamp in a day-end record. */
    static final int CLOSING_TIMESTAMP_OFFSET = DAY_ORDINAL_OFFSET + Long.BYTES;
    /** Length of a day-end record. */
    static final int DAY_END_LENGTH = CLOSING_TIMESTAMP_OFFSET + Long.BYTES;
    /** Offset of the Stock Locate in an ITCH message. */
    static final int ITCH_LOCATE_OFFSET = 1;
    private static final int REQUEST_LIMIT = 16;
    /** Answers a worker has under way at most: each holds its own copy of the chosen books. */
    static final int MAX_ANSWERS_PER_WORKER = 8;
    /** An answer writes this many times the fragment limit per duty cycle, so that it catches up with the stream. */
    private static final int CATCH_UP_SPEED = 4;
    /** Longest wait at the stop for a worker to make room for its pending data-lost marker: 1 s. */
    static final long STOP_MARKER_TIMEOUT_NS = TimeUnit.SECONDS.toNanos(1);
    private static final long STOP_MARKER_POLL_NS = TimeUnit.MICROSECONDS.toNanos(100);

    private final Subscription subscription;
    private final ItchTranslator translator;
    private final RingBuffer[] workerRings;
    private final ManyToOneConcurrentArrayQueue<CatchUpRequest> requests;
    private final ReplayRing replay;
    private final ItchBook book;
    private final ItchReferenceData referenceData;
    private final MidnightNanoClock clock;
    private final SessionNames sessionNames;
    private final MarketDataRecovery recovery;
    private final List<CatchUp> catchUps = new ArrayList<>();
    /** Per worker, requests taken and waiting for one of its answers under way to end, oldest first. */
    private final List<ArrayDeque<CatchUpRequest>> waitingRequests = new ArrayList<>();
    private final boolean[] dropping;
    /** Per worker, its current run of drops is logged. */
    private final boolean[] dropLogged;
    private final int fragmentLimit;
    private final int answerLimit;
    private final FanoutMetrics metrics;
    private final ErrorKinds<FanoutError> errors;
    private final ByteBuffer record = ByteBuffer.allocateDirect(ITCH_OFFSET + ItchTranslator.MAX_LENGTH);
    private final UnsafeBuffer recordBuffer = new UnsafeBuffer(record);
    private final UnsafeBuffer sessionRecord =
        new UnsafeBuffer(ByteBuffer.allocateDirect(SESSION_START_LENGTH + ItchTranslator.MAX_LENGTH));
    private final UnsafeBuffer dayEndRecord = new UnsafeBuffer(ByteBuffer.allocateDirect(DAY_END_LENGTH));
    private final Consumer<CatchUpRequest> onRequest = this::onRequest;
    private int catchUpsPublished;
    /** The midnight that ends the current trading day, on the clock. */
    private long dayEndNs;
    /** True from {@link #onClose}: the log of a day ended then names no next day's stream as started. */
    private boolean stopping;

    /**
     * @param subscription   the market-data stream.
     * @param translator     SBE to ITCH.
     * @param book           the displayed orders and trading states, from the Trading Action spin at start.
     * @param referenceData  encodes the opening of a login's snapshot: System Event 'O' and the Stock Directory.
     * @param clock          stamps that opening, and the time each message is read (the fanout's service time); its
     *                       midnights end the trading days.
     * @param sessionNames   the trading days' streams, moved on to the next at each midnight.
     * @param recovery       keeps the book in step with the stream; rebuilds it from snapshots.
     * @param workerRings    one per worker.
     * @param requests       catch-up requests from every worker.
     * @param replayCapacity number of newest ITCH messages kept for replay.
     * @param fragmentLimit  most messages read per duty cycle; each answer writes up to four times as many records
     *                       (and steps as many kept messages) per duty cycle, so that it catches up with the stream.
     * @param metrics        counters.
     * @param errors         counts untranslatable messages, failed answers and messages of a second publisher.
     */
    DispatcherAgent(
        final Subscription subscription, final ItchTranslator translator, final ItchBook book,
        final ItchReferenceData referenceData, final MidnightNanoClock clock, final SessionNames sessionNames,
        final MarketDataRecovery recovery,
        final RingBuffer[] workerRings,
        final ManyToOneConcurrentArrayQueue<CatchUpRequest> requests, final int replayCapacity,
        final int fragmentLimit, final FanoutMetrics metrics, final ErrorKinds<FanoutError> errors)
    {
        this.subscription = subscription;
        this.translator = translator;
        this.book = book;
        this.referenceData = referenceData;
        this.clock = clock;
        this.sessionNames = sessionNames;
        this.dayEndNs = MidnightNanoClock.nextMidnight(clock.nanosSinceMidnight());
        this.recovery = recovery;
        this.workerRings = workerRings;
        this.requests = requests;
        this.replay = new ReplayRing(replayCapacity);
        this.dropping = new boolean[workerRings.length];
        this.dropLogged = new boolean[workerRings.length];
        for (int i = 0; i < workerRings.length; i++)
        {
            waitingRequests.add(new ArrayDeque<>());
        }
        this.fragmentLimit = fragmentLimit;
        this.answerLimit = CATCH_UP_SPEED * fragmentLimit;
        this.metrics = metrics;
        this.errors = errors;
    }

    @Override
    public int doWork()
    {
        int workCount = endDayAtMidnight();
        final int recoveryWork = recovery.doWork();
        if (MarketDataRecovery.GAP == recoveryWork)
        {
            onGap(recovery.lastGapCause());
        }
        else
        {
            workCount += recoveryWork;
        }
        for (int i = 0; i < dropping.length; i++)
        {
            if (dropping[i])
            {
                workCount += writeDataLost(i) ? 1 : 0;
            }
        }
        workCount += answerCatchUps();
        return workCount + subscription.poll(this, fragmentLimit);
    }

    /**
     * Ends the trading day once the clock has passed its midnight (see the class description): the next day's stream
     * starts, numbered from 1, answers of the ended day are void, and every worker gets the day-end record, or a
     * data-lost marker when its ring has no room for it.
     *
     * @return 1 when the day ended, else 0.
     */
    int endDayAtMidnight()
    {
        final long nowNs = clock.nanosSinceMidnight();
        if (nowNs < dayEndNs)
        {
            return 0;
        }
        // With no message of the day yet, the translator's time is none of the day's: the day's last nanosecond.
        final long closingNs = 1 == replay.nextSequence() ?
            dayEndNs - 1 : MidnightNanoClock.closingTimestamp(translator.timestampNs(), nowNs, dayEndNs);
        final long endedMessages = replay.nextSequence() - 1;
        final SessionNames.Day ended = sessionNames.day();
        final SessionNames.Day day = sessionNames.nextDay(SessionNames.ofDate(
            clock.startDate().plusDays(Math.floorDiv(nowNs, MidnightNanoClock.NANOS_PER_DAY))));
        dayEndRecord.putLong(DAY_ORDINAL_OFFSET, ended.ordinal());
        dayEndRecord.putLong(CLOSING_TIMESTAMP_OFFSET, closingNs);
        dayEndNs = MidnightNanoClock.nextMidnight(nowNs);
        catchUps.clear();
        waitingRequests.forEach(ArrayDeque::clear);
        replay.startDay();
        book.startDay();
        for (int workerId = 0; workerId < workerRings.length; workerId++)
        {
            writeDayEnd(workerId);
        }
        System.out.println("[fanout-dispatcher] trading day ended at midnight UTC: stream " + ended.session() +
            " ended after " + endedMessages + " messages" +
            (stopping ? ", at the stop" : ", stream " + day.session() + " started"));
        return 1;
    }

    /**
     * Writes the day-end record to a worker, after its pending data-lost marker if any: when the marker is still
     * pending, it ends the worker's sessions' connections when written, as the day end would have; when the
     * ring has no room for the record, a data-lost marker is made pending in its place.
     */
    private void writeDayEnd(final int workerId)
    {
        if (dropping[workerId] && !writeDataLost(workerId))
        {
            return;
        }
        if (!workerRings[workerId].write(DAY_END_MSG_TYPE_ID, dayEndRecord, 0, DAY_END_LENGTH))
        {
            dropping[workerId] = true;
            System.err.println("[fanout-dispatcher] worker " + workerId + " ring buffer full at the day's end: its " +
                "sessions end at a data-lost marker");
        }
    }

    /**
     * The catch-ups' part of a duty cycle, while the book is live and its feed not ended: takes up to
     * {@value #REQUEST_LIMIT} new requests, starts those waiting for which their worker has room, and writes the next
     * records of every answer under way to its worker's ring, a bounded number each and while the ring is less than
     * half full; then, live or not, sets {@code bourse_fanout_catch_ups_in_progress} to the requests taken and not yet
     * answered in full (the logins kept through a recovery among them).
     *
     * @return requests taken plus records written.
     */
    int answerCatchUps()
    {
        int workCount = 0;
        int waiting = 0;
        if (recovery.isLive() && !recovery.isEnded())
        {
            workCount += requests.drain(onRequest, REQUEST_LIMIT);
            for (int workerId = 0; workerId < waitingRequests.size(); workerId++)
            {
                final ArrayDeque<CatchUpRequest> queue = waitingRequests.get(workerId);
                while (!queue.isEmpty() && answersUnderWay(workerId) < MAX_ANSWERS_PER_WORKER)
                {
                    startAnswer(queue.pollFirst());
                }
            }
            workCount += writeAnswers();
        }
        for (int workerId = 0; workerId < waitingRequests.size(); workerId++)
        {
            waiting += waitingRequests.get(workerId).size(); // also the logins kept through a recovery (voidAnswers)
        }
        if (catchUps.size() + waiting != catchUpsPublished)
        {
            catchUpsPublished = catchUps.size() + waiting;
            metrics.catchUpsInProgress(catchUpsPublished);
        }
        return workCount;
    }

    @Override
    public String roleName()
    {
        return "fanout-dispatcher";
    }

    /** Translates one market-data message, keeps it, and hands it to every worker. */
    @Override
    public void onFragment(final DirectBuffer buffer, final int offset, final int length, final Header header)
    {
        onMessage(buffer, offset, length, header.sessionId());
    }

    /**
     * Takes one market-data message: a recovery message to the {@link MarketDataRecovery}, an increment to the
     * workers when it is the next of the stream.
     *
     * @param buffer    holds the SBE message.
     * @param offset    of its header.
     * @param length    of the message.
     * @param sessionId of the Aeron image it came on: its publisher.
     */
    void onMessage(final DirectBuffer buffer, final int offset, final int length, final int sessionId)
    {
        final int templateId = length < MessageHeaderDecoder.ENCODED_LENGTH ? -1 : buffer.getShort(
            offset + MessageHeaderDecoder.templateIdEncodingOffset(), ByteOrder.LITTLE_ENDIAN) & 0xFFFF;
        metrics.onMessageIn(templateId);
        switch (recovery.onMessage(buffer, offset, length, sessionId))
        {
            case MarketDataRecovery.RECOVERED ->
            {
                metrics.onRecovered();
                System.out.println("[fanout-dispatcher] books taken from an md-publisher snapshot: " +
                    book.orderCount() + " displayed orders");
                return;
            }
            case MarketDataRecovery.TAKEN, MarketDataRecovery.SKIP ->
            {
                return;
            }
            case MarketDataRecovery.OTHER_PUBLISHER ->
            {
                errors.error(FanoutError.OTHER_PUBLISHER, "market data", "image session id", sessionId);
                return;
            }
            case MarketDataRecovery.GAP ->
            {
                onGap(recovery.lastGapCause());
                return;
            }
            case MarketDataRecovery.ENDED ->
            {
                System.out.println("[fanout-dispatcher] the md-publisher ended its feed after " +
                    (replay.nextSequence() - 1) + " ITCH messages of the day: the books are final, the sessions go " +
                    "on until the fanout stops (their day then ends whole) or a next md-publisher comes (their " +
                    "connections end); logins wait for it");
                return;
            }
            default ->
            {
            }
        }
        final long readNs = clock.nanosSinceMidnight();
        record.clear().position(ITCH_OFFSET);
        final int itchLength = translator.translate(buffer, offset, length, record);
        if (itchLength > 0)
        {
            replay.append(recordBuffer, ITCH_OFFSET, itchLength);
            book.apply(recordBuffer, ITCH_OFFSET);
            recordBuffer.putLong(READ_TIME_OFFSET, readNs);
            for (int i = 0; i < workerRings.length; i++)
            {
                dispatch(i, ITCH_OFFSET + itchLength);
            }
        }
        else if (ItchTranslator.NOT_TRANSLATED == itchLength)
        {
            errors.error(FanoutError.UNTRANSLATABLE_MESSAGE, "market data", "template", templateId);
        }
    }

    /**
     * The book is no longer the stream's: every worker ends its logged-in sessions at a data-lost marker (written now,
     * or before its next record when its ring is full), pending answers are void, the replay ring serves nothing from
     * before, and logins, those whose answer had not started among them, wait until the recovery has a snapshot.
     */
    private void onGap(final String why)
    {
        metrics.onMarketDataGap();
        replay.cutAtGap();
        for (int i = 0; i < workerRings.length; i++)
        {
            voidAnswers(i);
            dropping[i] = true;
            writeDataLost(i);
        }
        System.err.println("[fanout-dispatcher] market-data gap (" + why + "): sessions ended, recovering from a " +
            "snapshot");
    }

    private void onRequest(final CatchUpRequest request)
    {
        final ArrayDeque<CatchUpRequest> waiting = waitingRequests.get(request.workerId());
        if (!request.isCancel() && request.day() != sessionNames.day().ordinal())
        {
            return; // of an ended day, whose sessions the day-end record ends
        }
        if (request.isCancel())
        {
            catchUps.removeIf((catchUp) ->
                catchUp.request.workerId() == request.workerId() && catchUp.request.sessionId() == request.sessionId());
            waiting.removeIf((waitingRequest) -> waitingRequest.sessionId() == request.sessionId());
            return;
        }
        waiting.addLast(request); // started in this duty cycle when its worker has room (answerCatchUps)
    }

    private int answersUnderWay(final int workerId)
    {
        int count = 0;
        for (int i = 0, size = catchUps.size(); i < size; i++)
        {
            count += catchUps.get(i).request.workerId() == workerId ? 1 : 0;
        }
        return count;
    }

    /**
     * Starts the answer to a request: a replay from the requested number, else a snapshot of the books, taken once a
     * login's opening is written ({@link CatchUp#write}); a login naming the day's stream gets the replay or Login
     * Rejected 'S', never a snapshot session, since SoupBinTCP 4.0 gives a Login Request that names a session that
     * session or nothing.
     */
    private void startAnswer(final CatchUpRequest request)
    {
        final long requested = request.requestedSequence();
        final long next = replay.nextSequence();
        final boolean replayable = requested >= replay.oldestReplayable() && requested <= next; // oldest is 1 or more
        final long cursor;
        if (request.named())
        {
            // 0 is the next message, and so is a number past it: nothing to send before the live messages.
            cursor = 0 == requested || requested > next ? next : replayable ? requested : CatchUp.NOT_AVAILABLE;
        }
        else
        {
            cursor = request.login() && requested > 1 && replayable ? requested : CatchUp.SNAPSHOT;
        }
        catchUps.add(new CatchUp(request, cursor));
    }

    private int writeAnswers()
    {
        int workCount = 0;
        for (int i = catchUps.size() - 1; i >= 0; i--)
        {
            final CatchUp catchUp = catchUps.get(i);
            if (!dropping[catchUp.request.workerId()])
            {
                workCount += catchUp.write(workerRings[catchUp.request.workerId()]);
                if (catchUp.done)
                {
                    catchUps.remove(i);
                }
            }
        }
        return workCount;
    }

    private void dispatch(final int workerId, final int recordLength)
    {
        final RingBuffer ring = workerRings[workerId];
        if (dropping[workerId])
        {
            writeDataLost(workerId);
        }
        if (!dropping[workerId] && ring.write(ITCH_MSG_TYPE_ID, recordBuffer, 0, recordLength))
        {
            dropLogged[workerId] = false; // the run of drops is over
            return;
        }
        metrics.onDrop();
        if (!dropping[workerId])
        {
            // No answer is written to the worker until the marker, which voids them.
            dropping[workerId] = true;
            if (!dropLogged[workerId])
            {
                // Once per run of drops, though the marker may fit before a record that does not.
                dropLogged[workerId] = true;
                System.err.println("[fanout-dispatcher] worker " + workerId + " ring buffer full: dropping messages");
            }
        }
    }

    /**
     * At the stop, before the workers end their sessions: first reads the market-data stream until a poll finds nothing
     * more, for up to {@link StopRead#TIMEOUT_NS} (checked between polls), so that what the md-publisher published
     * before it stopped, up to its EndOfFeed, reaches the sessions before their day ends (the exchange stops the
     * md-publisher first); then ends the trading day if midnight has passed since the last duty cycle
     * ({@link #endDayAtMidnight}), so that the ended day's sessions close at its day-end record, stamped after the
     * day's last message, not at the stop's time, which is the next day's; then writes the data-lost markers still
     * pending (a worker's ring had no room for one after its last drop, or for the day-end record), waiting up to
     * {@link #STOP_MARKER_TIMEOUT_NS} for the workers, still running, to make room. So a session that missed messages
     * is ended at the gap, without System Events 'M', 'E' and 'C', which would tell it that its day was
     * whole; a worker that makes no room in that time is logged.
     */
    @Override
    public void onClose()
    {
        StopRead.readPublished(() -> subscription.poll(this, fragmentLimit));
        stopping = true;
        endDayAtMidnight();
        final long deadlineNs = System.nanoTime() + STOP_MARKER_TIMEOUT_NS;
        boolean pending = true;
        while (pending)
        {
            pending = false;
            for (int workerId = 0; workerId < dropping.length; workerId++)
            {
                pending |= dropping[workerId] && !writeDataLost(workerId);
            }
            if (pending && System.nanoTime() - deadlineNs >= 0)
            {
                System.err.println("[fanout-dispatcher] stopping with a data-lost marker not written: a worker's " +
                    "ring had no room for " + TimeUnit.NANOSECONDS.toMillis(STOP_MARKER_TIMEOUT_NS) + " ms; its " +
                    "sessions end their day without it");
                return;
            }
            if (pending)
            {
                LockSupport.parkNanos(STOP_MARKER_POLL_NS);
            }
        }
    }

    /**
     * Writes a dropping worker's data-lost marker if its ring has room; the worker then ends every session that was
     * logged in, so the answers to that worker still pending are void, but for the logins not started yet
     * ({@link #voidAnswers}).
     *
     * @return true when written: the worker takes records again.
     */
    private boolean writeDataLost(final int workerId)
    {
        if (!workerRings[workerId].write(DATA_LOST_MSG_TYPE_ID, recordBuffer, 0, 1))
        {
            return false;
        }
        dropping[workerId] = false;
        voidAnswers(workerId);
        return true;
    }

    /**
     * The worker ends its logged-in sessions at its data-lost marker: the answers to them, under way or waiting, are
     * void. A login whose answer has not started (its Login Accepted not written) was sent nothing of the books: it
     * waits on, in its order, for an answer from the books taken next ({@link
     * SubscriberSession#endConnectionAtDataLost}).
     */
    private void voidAnswers(final int workerId)
    {
        final ArrayDeque<CatchUpRequest> waiting = waitingRequests.get(workerId);
        waiting.removeIf((request) -> !request.login());
        for (int i = catchUps.size() - 1; i >= 0; i--)
        {
            final CatchUp catchUp = catchUps.get(i);
            if (catchUp.request.workerId() == workerId)
            {
                catchUps.remove(i);
                if (!catchUp.started)
                {
                    waiting.addFirst(catchUp.request); // a login: any other starts at once
                }
            }
        }
    }

    /**
     * One answer being written: start (logins), the opening (a login's snapshot), snapshot, kept messages up to the
     * live stream, end.
     */
    private final class CatchUp
    {
        /** The first kept message of a snapshot answer, until its snapshot is taken: none. */
        static final long SNAPSHOT = Long.MAX_VALUE;
        /** The first kept message of a login the day's stream cannot answer: none, Login Rejected 'S'. */
        static final long NOT_AVAILABLE = -1;

        final CatchUpRequest request;
        private final boolean snapshotAnswer;
        /** Messages of the opening: System Event 'O' and one Stock Directory per symbol; 0 when there is none. */
        private final int openingLength;
        private final long openingNs;
        private int openingPosition;
        private DirectBuffer snapshot;
        private int snapshotLength;
        private int snapshotPosition;
        private long cursor;
        /** ITCH bytes of the answer written to the ring, for its pace. */
        private long writtenBytes;
        private boolean started;
        boolean done;

        /**
         * @param request the session's request.
         * @param cursor  the first kept message to replay, {@link #SNAPSHOT} for a snapshot (with an opening first
         *                for a login), or {@link #NOT_AVAILABLE} for a login to reject.
         */
        CatchUp(final CatchUpRequest request, final long cursor)
        {
            this.request = request;
            this.cursor = cursor;
            this.snapshotAnswer = SNAPSHOT == cursor;
            this.started = !request.login();
            this.openingLength = request.login() && snapshotAnswer ? 1 + referenceData.symbolCount() : 0;
            this.openingNs = clock.nanosSinceMidnight();
        }

        /** @return records written, a bounded number, while the ring stays less than half full. */
        int write(final RingBuffer ring)
        {
            sessionRecord.putLong(SESSION_ID_OFFSET, request.sessionId());
            if (NOT_AVAILABLE == cursor)
            {
                done = write(ring, SESSION_REJECTED_MSG_TYPE_ID, Long.BYTES);
                return done ? 1 : 0;
            }
            int written = 0;
            if (!started)
            {
                sessionRecord.putLong(ACCEPTED_SEQUENCE_OFFSET, snapshotAnswer ? 1 : cursor);
                sessionRecord.putLong(SNAPSHOT_FLAG_OFFSET, snapshotAnswer ? 1 : 0);
                sessionRecord.putLong(OPENING_TIMESTAMP_OFFSET, openingNs);
                if (!write(ring, SESSION_START_MSG_TYPE_ID, SESSION_START_LENGTH))
                {
                    return written;
                }
                started = true;
                written++;
            }
            while (openingPosition < openingLength && written < answerLimit)
            {
                final ByteBuffer message = 0 == openingPosition ?
                    referenceData.systemEvent(ITCH50.EVENT_CODE_START_OF_MESSAGES, openingNs) :
                    referenceData.stockDirectory(openingPosition - 1, openingNs);
                final int length = message.remaining();
                sessionRecord.putBytes(SESSION_ITCH_OFFSET, message, message.position(), length);
                if (!writeItch(ring, SESSION_OPENING_MSG_TYPE_ID, length))
                {
                    return written;
                }
                openingPosition++;
                written++;
            }
            if (openingPosition < openingLength)
            {
                return written;
            }
            if (snapshotAnswer && null == snapshot)
            {
                takeSnapshot();
            }
            if (cursor < replay.nextSequence() && !replay.contains(cursor))
            {
                // Also while the book is still being written, paced to a slow reader: its rest would end the same way.
                // The ring does not move during this call, so every later message of the answer is still kept.
                fail(ring);
                return written;
            }
            while (snapshotPosition < snapshotLength && written < answerLimit)
            {
                final int length = ItchBook.snapshotMessageLength(snapshot.getByte(snapshotPosition));
                sessionRecord.putBytes(SESSION_ITCH_OFFSET, snapshot, snapshotPosition, length);
                if (!writeItch(ring, SESSION_ITCH_MSG_TYPE_ID, length))
                {
                    return written;
                }
                snapshotPosition += length;
                written++;
            }
            int steps = 0;
            while (snapshotPosition == snapshotLength && cursor < replay.nextSequence() && steps++ < answerLimit)
            {
                final DirectBuffer kept = replay.buffer();
                final int offset = replay.messageOffset(cursor);
                final int locate = kept.getShort(offset + ITCH_LOCATE_OFFSET, ByteOrder.BIG_ENDIAN) & 0xFFFF;
                if (request.symbolsByLocate()[locate])
                {
                    final int length = replay.messageLength(cursor);
                    sessionRecord.putBytes(SESSION_ITCH_OFFSET, kept, offset, length);
                    if (!writeItch(ring, SESSION_ITCH_MSG_TYPE_ID, length))
                    {
                        return written;
                    }
                    metrics.onReplayed();
                    written++;
                }
                cursor++;
            }
            if (snapshotPosition == snapshotLength && cursor == replay.nextSequence())
            {
                done = write(ring, SESSION_END_MSG_TYPE_ID, Long.BYTES);
                written += done ? 1 : 0;
            }
            return written;
        }

        /**
         * Takes the snapshot of the chosen books as they stand now, after a login's opening: the kept messages from
         * the next one on follow it. Taken here rather than when the answer starts, so that a subscriber that reads
         * the opening of many symbols slowly does not also need the messages of that time kept for it.
         */
        private void takeSnapshot()
        {
            final ExpandableArrayBuffer buffer = new ExpandableArrayBuffer(ItchTranslator.ADD_ORDER_LENGTH * 64);
            snapshotLength = book.snapshot(request.symbolsByLocate(), buffer);
            snapshot = buffer;
            cursor = replay.nextSequence();
            metrics.onSnapshot();
        }

        /**
         * The answer's next kept message has left the replay ring: writes the failure record when the ring takes it,
         * counting it then, once, and the answer is done.
         */
        private void fail(final RingBuffer ring)
        {
            done = write(ring, SESSION_FAILED_MSG_TYPE_ID, Long.BYTES);
            if (done)
            {
                errors.error(FanoutError.CATCH_UP_FAILED, "replay", "message no longer kept", cursor);
            }
        }

        /**
         * Writes the ITCH message in the session record when the session's pace and the ring take it.
         *
         * @param msgTypeId {@link #SESSION_OPENING_MSG_TYPE_ID} or {@link #SESSION_ITCH_MSG_TYPE_ID}.
         */
        private boolean writeItch(final RingBuffer ring, final int msgTypeId, final int length)
        {
            if (!request.pacing().canWrite(writtenBytes, length) ||
                !write(ring, msgTypeId, SESSION_ITCH_OFFSET + length))
            {
                return false;
            }
            writtenBytes += length;
            return true;
        }

        private boolean write(final RingBuffer ring, final int msgTypeId, final int length)
        {
            return ring.size() + length < ring.capacity() / 2 && ring.write(msgTypeId, sessionRecord, 0, length);
        }
    }
}
