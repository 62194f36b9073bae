package io.bourse.mdpublisher;

import com.paritytrading.juncture.nasdaq.itch50.ITCH50;
import com.paritytrading.nassau.moldudp64.MoldUDP64DownstreamPacket;
import com.paritytrading.nassau.moldudp64.MoldUDP64Exception;
import io.bourse.common.time.MidnightNanoClock;
import io.bourse.common.time.SessionNames;
import io.bourse.itch.ItchReferenceData;
import io.bourse.itch.ItchTranslator;
import org.agrona.CloseHelper;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.NanoClock;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.SocketAddress;
import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/**
 * NASDAQ TotalView-ITCH 5.0 over MoldUDP64 (MoldUDP64 Protocol Specification 1.00): takes each increment of the
 * md-publisher's SBE order feed as it is encoded, on the md-publisher's thread ({@link OrderFeedListener}), so that a
 * message the order feed's Aeron publication drops under back pressure (a stalled fanout) still reaches the MoldUDP64
 * receivers; translates each once with {@link ItchTranslator}, numbers the ITCH messages of the session from 1 in a
 * {@link MoldMessageStore} and packs them into Downstream Packets that a {@link MoldSessionServer} sends to the
 * multicast group; a {@link MoldRequestServer} answers Request Packets from the store.
 *
 * <ul>
 *   <li>A session opens ({@link #onStart}) with System Event 'O' Start of Messages, one Stock Directory per symbol in
 *   locate order ({@link ItchReferenceData}), the Trading Action spin with each symbol's state in the books
 *   ({@link BookSpin}), System Events 'S' Start of System Hours and 'Q' Start of Market Hours (the engine shards accept
 *   and execute orders from their start), then an Add Order per displayed resting order in the books (none when the
 *   md-publisher starts afresh; when it restarts, those of the books it rebuilt from the event archive, whose
 *   publication the first session's opening waits for: {@link #openWhen}), all stamped with the wall clock's
 *   nanoseconds since midnight. It ends ({@link #onClose})
 *   with System Events 'M' End of Market Hours, 'E' End of System Hours and 'C' End of Messages. Then, as MoldUDP64
 *   1.00 has it, End of Session packets (Message Count 0xFFFF, the next Sequence Number) go out in place of
 *   Heartbeats for a short while ({@code endOfSessionNs}, every {@link #END_OF_SESSION_INTERVAL_NS}), while Request
 *   Packets are still answered: a receiver's last chance to fill a gap, such as a lost last packet.</li>
 *   <li>With daily sessions (the default Session, not a configured one), the session ends at each midnight UTC and
 *   the new day's opens, named after its day ({@link SessionNames#ofDate}): Sequence Numbers from 1 again, the
 *   ITCH Timestamps of a session within its day, and a receiver that joins on a later day backfills that day's
 *   session only, books included. The new session's messages wait in its store while the old one's end lasts, so
 *   that no receiver sees packets of the two mixed, then go out ({@link #openNextDay}). The messages of the duty cycle
 *   that passes midnight carry the new day's times in the old session (the switch waits for the end of that duty
 *   cycle, seconds while a stalled fanout back-pressures the order feed: {@link #doWorkWithinOffer}, since the books
 *   the new session opens with must be those of the messages taken); the old session's closing System Events are
 *   stamped with the last nanosecond of its day, or, when its last message carries the new day's time, with the
 *   wall clock's time or that message's, whichever is later: after its messages' times. The next day's session
 *   starts opening {@link #PREPARE_AHEAD_NS} before midnight, and an ended session closes once its end is over, both
 *   on a thread of their own ({@link FeedSessions}: its memory zeroed or freed, its file created or deleted), not
 *   on this agent's.</li>
 *   <li>A packet carries as many Message Blocks as fit in {@code maxPayloadLength} bytes; it is sent when the next
 *   message does not fit and at the end of every duty cycle that added a message: this agent's duty cycle follows the
 *   md-publisher's on the same thread, so a message waits at most for the rest of the duty cycle that encoded it, or
 *   until the md-publisher's next back-pressured offer, which runs this agent's duty cycle while it waits
 *   ({@link MoldFeedOfferIdleStrategy}).</li>
 *   <li>After {@code heartbeatIntervalNs} without a packet, a Heartbeat (Message Count 0, Sequence Number of the next
 *   message) goes out, so that an idle receiver still sees a gap at its end.</li>
 *   <li>Request Packets are served on this agent's thread, at most {@value #REQUESTS_PER_DUTY_CYCLE} per look at the
 *   request socket, so that the store's memory needs no synchronisation and a burst of requests delays live packets
 *   by a bounded time; a request older than the memory holds, which the session file answers, is handed over to the
 *   {@link MoldFileAnswers}' thread, so that no file read holds back the live packets. The socket is looked at no
 *   more than once per {@link #REQUEST_POLL_INTERVAL_NS}, so that a duty cycle that only sends packets makes no
 *   further system call (a request waits at most that long more). A response starts at the requested Sequence Number
 *   and holds as many of the requested messages as fit in {@code maxPayloadLength} bytes; the receiver asks again for
 *   the rest. A request for messages no longer kept or not yet taken gets no response ({@link MoldMessageStore}; a new
 *   day's session answers only for the messages of it already sent to the group, not for those still held), nor does
 *   one that names another Session than the current one or the one still ending: a response carries the Session its
 *   request names, and an earlier session's Sequence Numbers name other messages. A malformed request is counted, left
 *   unanswered, and the requests behind it are served in the same look ({@link MoldRequestServer}).</li>
 *   <li>Market data without an ITCH form (trades of displayed orders) takes no sequence number; untranslatable
 *   market data is counted as an error and left out. A failed send is counted as an error and its packet treated as
 *   lost on the network: its messages keep their sequence numbers and stay in the store, where receivers find them by
 *   re-request.</li>
 * </ul>
 * Non-blocking sockets; a send that the socket's full buffer refused is retried (by nassau, and by the
 * {@link MoldAnswerSender}), which the kernel drains at wire speed. From market data to packet, nothing is allocated.
 */
final class MoldFeedAgent implements Agent, OrderFeedListener, BookSpin.Listener
{
    /** Time between two End of Session packets while the session ends, in nanoseconds: 100 ms. */
    static final long END_OF_SESSION_INTERVAL_NS = TimeUnit.MILLISECONDS.toNanos(100);
    /** Most Request Packets served (looked up in the store, answered when it holds them) per duty cycle. */
    static final int REQUESTS_PER_DUTY_CYCLE = 16;
    /**
     * Most datagrams read from the request socket per duty cycle, those dropped unserved (malformed, or past their
     * requester's rate) included: a flood of them cannot hold the feed's thread, nor fill the socket's queue so fast
     * that the others' requests wait behind them for long.
     */
    static final int DATAGRAMS_PER_DUTY_CYCLE = 256;
    /** Least time between two looks at the request socket, in nanoseconds: 100 us. */
    static final long REQUEST_POLL_INTERVAL_NS = TimeUnit.MICROSECONDS.toNanos(100);
    /** How long before midnight the next day's session starts opening ({@link FeedSessions#prepare}): 10 s. */
    static final long PREPARE_AHEAD_NS = TimeUnit.SECONDS.toNanos(10);
    /** Most packets of held messages sent per duty cycle, once a new day's session may send. */
    static final int HELD_PACKETS_PER_DUTY_CYCLE = 16;
    /** Longest ITCH message of the feed: the longest the translator writes, longer than any reference data. */
    static final int MAX_MESSAGE_LENGTH =
        Math.max(ItchTranslator.MAX_LENGTH, ItchReferenceData.STOCK_DIRECTORY_LENGTH);

    private final ItchTranslator translator;
    private final ItchReferenceData referenceData;
    private final FeedSessions sessions;
    private final boolean dailySessions;
    private final MoldRequestServer requestServer;
    private final MoldFileAnswers fileAnswers;
    private final int maxPayloadLength;
    private final long heartbeatIntervalNs;
    private final long endOfSessionNs;
    private final NanoClock nanoClock;
    private final MidnightNanoClock midnightClock;
    private final MoldMetrics metrics;
    private final MoldUDP64DownstreamPacket packet = new MoldUDP64DownstreamPacket();
    private final ByteBuffer message = ByteBuffer.allocateDirect(MAX_MESSAGE_LENGTH);
    private final ByteBuffer heldBlocks;
    private final ByteBuffer heldMessage;
    private final MoldRequestServer.Answers answers = this::answer;
    private BookSpin bookSpin;
    /**
     * Whether the books that the md-publisher rebuilt from what the engine shards published before it started are
     * published; always by default.
     */
    private BooleanSupplier rebuiltBooksPublished = () -> true;
    /** The first session is not open yet: its opening waits for the books ({@link #openWhen}). */
    private boolean openingAwaited;
    /** The session the messages go to; null once the feed's last session ends. */
    private FeedSession current;
    /** The session before it while its end lasts, else null. */
    private FeedSession ending;
    /** The current session's messages go to its store only, sent from there once no earlier session is ending. */
    private boolean held;
    private long nextHeldSequenceNumber;
    /** Of the current session's opening messages, nanoseconds since midnight. */
    private long openingTimestampNs;
    private long nowNs;
    private long heartbeatDeadlineNs;
    private long endOfSessionPacketDeadlineNs;
    private long endOfSessionDeadlineNs;
    private long requestPollDeadlineNs;
    /** Monotonic time of the next midnight UTC, when a new day's session opens ({@code dailySessions}). */
    private long nextDayDeadlineNs;
    /** The next day's number, counted from the midnight clock's start date. */
    private long nextDay;
    private boolean socketErrorLogged;

    /**
     * @param translator          SBE market data to ITCH.
     * @param referenceData       the System Events and Stock Directories of a session's opening.
     * @param firstSession        the session the feed starts with, its store empty.
     * @param sessions            opens a new day's session, on the same sockets, and closes an ended one, off this
     *                            agent's thread.
     * @param dailySessions       whether a new session opens at each midnight UTC, named after its day
     *                            ({@link SessionNames#ofDate}); false to keep the first one for the run.
     * @param requestServer       receives Request Packets on its unicast port.
     * @param fileAnswers         answers those older than the memory holds from the session file, on its own
     *                            thread; null when the sessions have no file.
     * @param maxPayloadLength    most bytes of Message Blocks in one packet, at least 2 + {@link #MAX_MESSAGE_LENGTH}.
     * @param heartbeatIntervalNs time without a packet after which a Heartbeat is sent, in nanoseconds.
     * @param endOfSessionNs      how long the session's end lasts ({@link #endSession}), in nanoseconds; 0 for one
     *                            End of Session packet.
     * @param nanoClock           monotonic time of the heartbeat deadlines and of the next midnight.
     * @param midnightClock       wall-clock nanoseconds since midnight of the opening and closing messages, on the
     *                            same monotonic time as {@code nanoClock}.
     * @param metrics             counters.
     */
    MoldFeedAgent(
        final ItchTranslator translator, final ItchReferenceData referenceData, final FeedSession firstSession,
        final FeedSessions sessions, final boolean dailySessions,
        final MoldRequestServer requestServer, final MoldFileAnswers fileAnswers, final int maxPayloadLength,
        final long heartbeatIntervalNs,
        final long endOfSessionNs, final NanoClock nanoClock, final MidnightNanoClock midnightClock,
        final MoldMetrics metrics)
    {
        this.translator = translator;
        this.referenceData = referenceData;
        this.current = firstSession;
        this.sessions = sessions;
        this.dailySessions = dailySessions;
        this.requestServer = requestServer;
        this.fileAnswers = fileAnswers;
        this.maxPayloadLength = maxPayloadLength;
        this.heartbeatIntervalNs = heartbeatIntervalNs;
        this.endOfSessionNs = endOfSessionNs;
        this.nanoClock = nanoClock;
        this.midnightClock = midnightClock;
        this.metrics = metrics;
        this.heldBlocks = ByteBuffer.allocateDirect(maxPayloadLength);
        this.heldMessage = heldBlocks.duplicate();
    }

    /**
     * @param bookSpin the books whose trading states and resting orders each session's opening tells; set before the
     *                 agent starts.
     */
    void bookSpin(final BookSpin bookSpin)
    {
        this.bookSpin = bookSpin;
    }

    /**
     * Makes the first session's opening wait until the books are published: an md-publisher restarted with the event
     * archive on rebuilds them from the recordings of the engine shards' streams before its agent starts, and publishes
     * them in its first duty cycle ({@link EngineEventStreams#poll}), on this agent's thread after this agent's
     * {@link #onStart}; a session opened before would announce each symbol as trading and no order in its spin, and
     * take the books' Add Orders as increments, an operator's halt following as a second Stock Trading Action. Until
     * the opening, the session sends Heartbeats (the next Sequence Number 1) and the order feed's increments are left
     * out: they are in the books, which the opening tells. Set before the agent starts; by default the first session
     * opens at once.
     *
     * @param rebuiltBooksPublished whether the rebuilt books are published; called on this agent's thread.
     */
    void openWhen(final BooleanSupplier rebuiltBooksPublished)
    {
        this.rebuiltBooksPublished = rebuiltBooksPublished;
    }

    /**
     * Opens the first session ({@link #openSession}), with the books as they stand, or, until the rebuilt books are
     * published ({@link #openWhen}), lets it wait for them: a session opened before tells every symbol trading and no
     * order, the rebuilt books following as increments (an operator's halt as a second Stock Trading Action, 'H' after
     * the spin's 'T'; before stop 64, what every restart with the event archive on did).
     */
    @Override
    public void onStart()
    {
        nowNs = nanoClock.nanoTime();
        requestPollDeadlineNs = nowNs;
        final long sinceMidnightNs = midnightClock.nanosSinceMidnight();
        nextDay = Math.floorDiv(sinceMidnightNs, MidnightNanoClock.NANOS_PER_DAY) + 1;
        nextDayDeadlineNs = nowNs + MidnightNanoClock.NANOS_PER_DAY - MidnightNanoClock.timeOfDay(sinceMidnightNs);
        if (rebuiltBooksPublished.getAsBoolean())
        {
            openSession(sinceMidnightNs);
            return;
        }
        openingAwaited = true;
        heartbeatDeadlineNs = nowNs;
    }

    /** Ends the first session's wait for the books ({@link #openWhen}) and opens it with the books as they stand. */
    private void openAwaitedSession()
    {
        openingAwaited = false;
        openSession(midnightClock.nanosSinceMidnight());
    }

    /**
     * Opens the first session once the rebuilt books are published; between two engine events only, as the spin must
     * tell the books the market data taken so far builds.
     *
     * @return 1 when it opened, else 0.
     */
    private int openAwaited()
    {
        if (!rebuiltBooksPublished.getAsBoolean())
        {
            return 0;
        }
        openAwaitedSession();
        System.out.println("[" + roleName() + "] MoldUDP64 session " + current.name + " opened with the books " +
            "published after their rebuild from the event archive");
        return 1;
    }

    /**
     * Sends the packet of the messages taken since the last duty cycle; with daily sessions, starts opening the next
     * day's session {@link #PREPARE_AHEAD_NS} before midnight, and at midnight ends the day's session and opens the
     * next day's ({@link #openNextDay}); sends an ending session's End of Session packets, or the held messages of
     * the session after it once its end is over; serves requests when the socket is due a look; sends a Heartbeat
     * when one is due.
     *
     * @return packets sent, sessions opened and ended, and requests served.
     */
    @Override
    public int doWork()
    {
        return work(true);
    }

    /**
     * A duty cycle between two attempts of a back-pressured offer ({@link MoldFeedOfferIdleStrategy}), in the middle
     * of an engine event: as {@link #doWork}, but the day's session goes on past midnight until the next
     * {@link #doWork}, since the books may hold a change whose messages are not all taken yet.
     *
     * @return packets sent, sessions ended, and requests served.
     */
    int doWorkWithinOffer()
    {
        return work(false);
    }

    private int work(final boolean betweenEvents)
    {
        nowNs = nanoClock.nanoTime();
        int workCount = 0;
        if (packet.messageCount() > 0)
        {
            sendPacket();
            workCount++;
        }
        if (openingAwaited && betweenEvents)
        {
            workCount += openAwaited();
        }
        if (dailySessions && null != current && !openingAwaited && !sessions.isPrepared() &&
            nowNs - (nextDayDeadlineNs - PREPARE_AHEAD_NS) >= 0)
        {
            sessions.prepare(nextDayName());
        }
        if (betweenEvents && null != current && !openingAwaited && isPastMidnight())
        {
            openNextDay();
            workCount++;
        }
        if (null != ending)
        {
            workCount += continueEnding();
        }
        if (null == ending && held)
        {
            workCount += sendHeld();
        }
        if (nowNs - requestPollDeadlineNs >= 0)
        {
            requestPollDeadlineNs = nowNs + REQUEST_POLL_INTERVAL_NS;
            workCount += serveRequests();
        }
        if (null != current && !held && nowNs - heartbeatDeadlineNs >= 0)
        {
            sendHeartbeat();
            workCount++;
        }
        return workCount;
    }

    /**
     * Ends the session and lets its end run its course: {@link #endSession}, then duty cycles (End of Session packets,
     * requests answered) until {@link #isSessionOver}, or until the thread is interrupted. The md-publisher's own
     * duty cycle has stopped: no market data comes after the end.
     */
    @Override
    public void onClose()
    {
        endSession();
        while (!isSessionOver() && !Thread.currentThread().isInterrupted())
        {
            if (0 == doWork())
            {
                LockSupport.parkNanos(REQUEST_POLL_INTERVAL_NS);
            }
        }
    }

    /**
     * Ends the feed's session ({@link #endCurrentSession}); no session follows it. Nothing may be taken after it. Its
     * closing System Events carry the stop's time, or, with daily sessions stopped after a midnight that has not yet
     * ended the day's session (between two duty cycles), the ended day's closing time, as at midnight.
     */
    void endSession()
    {
        nowNs = nanoClock.nanoTime();
        if (openingAwaited)
        {
            // opened first, with the books as they stand: a receiver sees a whole session, Start to End of Messages
            openAwaitedSession();
        }
        final long sinceMidnightNs = midnightClock.nanosSinceMidnight();
        endCurrentSession(isPastMidnight() ? dayClosingNs(sinceMidnightNs) : sinceMidnightNs);
    }

    /** @return whether the feed's last session has ended and its end has lasted its time, as of the last duty cycle. */
    boolean isSessionOver()
    {
        return null == current && null == ending;
    }

    /** @return the current session's name; null once the last one has ended. */
    String sessionName()
    {
        return null == current ? null : current.name;
    }

    /**
     * Closes the sessions still open (an end cut short, or a feed that never ran): their stores' files are deleted and
     * their memory freed. Call once the agent has stopped.
     */
    void closeSessions()
    {
        CloseHelper.closeAll(ending, current);
        ending = null;
        current = null;
    }

    @Override
    public String roleName()
    {
        return "md-mold";
    }

    /**
     * Translates one order-feed increment and appends it to the packet under the next sequence number; the packet goes
     * out when the next message does not fit or at the end of the next duty cycle. Left out while the first session's
     * opening waits for the books ({@link #openWhen}), which its opening then tells.
     */
    @Override
    public void onOrderFeedMessage(final DirectBuffer buffer, final int offset, final int length)
    {
        if (openingAwaited)
        {
            return; // in the books, which the session's opening tells
        }
        message.clear();
        appendTranslated(translator.translate(buffer, offset, length, message));
    }

    /** A symbol's Stock Trading Action of the Trading Action spin, stamped with the session's opening. */
    @Override
    public void onTradingState(final long symbol, final byte tradingState, final int reason)
    {
        message.clear();
        appendTranslated(translator.stockTradingAction(openingTimestampNs, symbol, tradingState, reason, message));
    }

    /** A resting order's Add Order of a new day's session, stamped with the session's opening. */
    @Override
    public void onRestingOrder(
        final long symbol, final long orderId, final Side side, final long openShares, final long price,
        final int attribution)
    {
        message.clear();
        appendTranslated(translator.addOrder(openingTimestampNs, symbol, orderId, side == Side.BUY ?
            io.bourse.sbe.md.Side.BUY.value() : io.bourse.sbe.md.Side.SELL.value(), openShares, price, attribution,
            message));
    }

    /** Appends the ITCH message the translator wrote into {@link #message}, or counts one it could not write. */
    private void appendTranslated(final int itchLength)
    {
        if (itchLength > 0)
        {
            append(message.flip());
        }
        else if (ItchTranslator.NOT_TRANSLATED == itchLength)
        {
            // Counted only: one bad message is no reason to fill the log; the md-publisher logs its own errors.
            metrics.onError();
        }
    }

    /**
     * Opens the current session (ITCH 5.0 &sect;4.1, &sect;4.2): System Event 'O' Start of Messages, one Stock
     * Directory per symbol, the Trading Action spin (one Stock Trading Action per symbol, its state in the books),
     * System Events 'S' Start of System Hours and 'Q' Start of Market Hours (the engine shards accept and execute
     * orders from their start), then an Add Order per displayed resting order in the books, in time priority; all
     * stamped with the opening's time.
     */
    private void openSession(final long timestampNs)
    {
        openingTimestampNs = timestampNs;
        append(referenceData.systemEvent(ITCH50.EVENT_CODE_START_OF_MESSAGES, timestampNs));
        for (int i = 0; i < referenceData.symbolCount(); i++)
        {
            append(referenceData.stockDirectory(i, timestampNs));
        }
        bookSpin.spinTradingStates(this);
        append(referenceData.systemEvent(ITCH50.EVENT_CODE_START_OF_SYSTEM_HOURS, timestampNs));
        append(referenceData.systemEvent(ITCH50.EVENT_CODE_START_OF_MARKET_HOURS, timestampNs));
        bookSpin.spinOrders(this);
        if (!held)
        {
            sendPacket();
        }
    }

    /**
     * Midnight UTC: the day's session ends ({@link #endCurrentSession}, stamped after its messages' times:
     * {@link MidnightNanoClock#closingTimestamp}) and the new day's, prepared ahead
     * ({@link FeedSessions#take}, waited for while still opening), opens ({@link #openSession}), named after its day
     * ({@link #nextDayName}), its Sequence Numbers from 1 again and its times of day from 0. Its messages are held in
     * its store while the ended session's End of Session packets go out, so that no receiver sees the two sessions'
     * packets mixed (nassau's client does not look at the Session); then they go out,
     * {@value #HELD_PACKETS_PER_DUTY_CYCLE} packets per duty cycle, and the session is live.
     */
    private void openNextDay()
    {
        final long timestampNs = midnightClock.nanosSinceMidnight();
        final long closingNs = dayClosingNs(timestampNs);
        nextDay++;
        nextDayDeadlineNs += MidnightNanoClock.NANOS_PER_DAY;
        // Taken first: should it have failed (to the agent's error handler), the day's session goes on.
        final FeedSession next = sessions.take();
        endCurrentSession(closingNs);
        current = next;
        held = true;
        nextHeldSequenceNumber = 1;
        openSession(timestampNs);
        System.out.println("[" + roleName() + "] MoldUDP64 session " + ending.name + " ended at midnight UTC; " +
            "session " + current.name + " opened with " + (current.store.nextSequenceNumber() - 1) + " messages");
    }

    /**
     * @return true with daily sessions once the monotonic clock's last reading (a duty cycle's, or the stop's) has
     *         passed the midnight that ends the current day's session, which then is to end.
     */
    private boolean isPastMidnight()
    {
        return dailySessions && nowNs - nextDayDeadlineNs >= 0;
    }

    /**
     * @param sinceMidnightNs the clock's time, at or after the midnight that ended the day.
     * @return the ended day's closing System Events' timestamp, after its messages' times
     *         ({@link MidnightNanoClock#closingTimestamp}).
     */
    private long dayClosingNs(final long sinceMidnightNs)
    {
        return MidnightNanoClock.closingTimestamp(
            translator.timestampNs(), sinceMidnightNs, nextDay * MidnightNanoClock.NANOS_PER_DAY);
    }

    /**
     * @return the name of the next day's session, its date ({@link SessionNames#ofDate}, {@code yyyyMMdd}): 8
     *         characters, never a run's first session's ({@link SessionNames#runStart}, 10).
     */
    private String nextDayName()
    {
        return SessionNames.ofDate(midnightClock.startDate().plusDays(nextDay));
    }

    /**
     * Ends the current session (ITCH 5.0 &sect;4.1): System Events 'M' End of Market Hours, 'E' End of System Hours
     * and 'C' End of Messages, then the first End of Session packet (MoldUDP64 1.00); while the end lasts
     * ({@code endOfSessionNs}), End of Session packets go out every {@link #END_OF_SESSION_INTERVAL_NS} in place of
     * Heartbeats and Request Packets naming the session are still answered: a receiver's last chance to fill a gap,
     * such as a lost last packet. A session still ending before it ends at once, and held messages go out first.
     */
    private void endCurrentSession(final long timestampNs)
    {
        if (null != ending)
        {
            sessions.retire(ending);
            ending = null;
        }
        while (held)
        {
            sendHeld();
        }
        append(referenceData.systemEvent(ITCH50.EVENT_CODE_END_OF_MARKET_HOURS, timestampNs));
        append(referenceData.systemEvent(ITCH50.EVENT_CODE_END_OF_SYSTEM_HOURS, timestampNs));
        append(referenceData.systemEvent(ITCH50.EVENT_CODE_END_OF_MESSAGES, timestampNs));
        sendPacket();
        ending = current;
        current = null;
        endOfSessionDeadlineNs = nowNs + endOfSessionNs;
        sendEndOfSession();
    }

    /**
     * @return 1 when an End of Session packet went out or the end is over (the session handed to
     *         {@link FeedSessions#retire}), else 0.
     */
    private int continueEnding()
    {
        if (nowNs - endOfSessionDeadlineNs >= 0)
        {
            sessions.retire(ending);
            ending = null;
            return 1;
        }
        if (nowNs - endOfSessionPacketDeadlineNs >= 0)
        {
            sendEndOfSession();
            return 1;
        }
        return 0;
    }

    private void append(final ByteBuffer itch)
    {
        if (held)
        {
            current.store.append(itch);
            return;
        }
        final int blockLength = MoldMessageStore.MESSAGE_LENGTH_FIELD_LENGTH + itch.remaining();
        if (packet.payload().position() + blockLength > maxPayloadLength)
        {
            sendPacket();
        }
        current.store.append(itch);
        put(itch);
    }

    private void put(final ByteBuffer itch)
    {
        try
        {
            packet.put(itch);
        }
        catch (final MoldUDP64Exception ex)
        {
            // Cannot happen: a packet is sent before a block that would not fit maxPayloadLength, at most nassau's.
            throw new UncheckedIOException(ex);
        }
    }

    /**
     * Sends held messages from the store, {@value #HELD_PACKETS_PER_DUTY_CYCLE} packets at most; the session is live
     * once none is left.
     *
     * @return packets sent.
     */
    private int sendHeld()
    {
        final MoldMessageStore store = current.store;
        int packets = 0;
        while (packets < HELD_PACKETS_PER_DUTY_CYCLE && nextHeldSequenceNumber < store.nextSequenceNumber())
        {
            heldBlocks.clear();
            final int count = store.get(heldBlocks, nextHeldSequenceNumber, Integer.MAX_VALUE);
            if (0 == count)
            {
                // More held than the memory keeps, and not in a session file: the newest kept go on, and receivers see
                // the gap, which no request can fill.
                final long kept = Math.max(nextHeldSequenceNumber + 1, store.firstSequenceNumber());
                metrics.onError();
                System.err.println("[" + roleName() + "] MoldUDP64 session " + current.name + ": held messages " +
                    nextHeldSequenceNumber + " to " + (kept - 1) + " no longer kept, not sent " +
                    "(BOURSE_MD_MOLD_STORE_MESSAGES, BOURSE_MD_MOLD_STORE_DIR)");
                nextHeldSequenceNumber = kept;
                current.server.nextSequenceNumber(kept);
                continue;
            }
            heldBlocks.flip();
            while (heldBlocks.hasRemaining())
            {
                final int start = heldBlocks.position() + MoldMessageStore.MESSAGE_LENGTH_FIELD_LENGTH;
                final int end = start + (heldBlocks.getShort(heldBlocks.position()) & 0xFFFF);
                put(heldMessage.limit(end).position(start));
                heldBlocks.position(end);
            }
            nextHeldSequenceNumber += count;
            sendPacket();
            packets++;
        }
        held = nextHeldSequenceNumber < store.nextSequenceNumber();
        return packets;
    }

    private void sendPacket()
    {
        final int messageCount = packet.messageCount();
        try
        {
            current.server.send(packet);
            metrics.onDataPacket(messageCount);
        }
        catch (final IOException ex)
        {
            onError(ex);
            // Lost like a dropped datagram: the next packet carries the sequence number after this one's messages.
            current.server.nextSequenceNumber(held ? nextHeldSequenceNumber : current.store.nextSequenceNumber());
        }
        packet.clear();
        heartbeatDeadlineNs = nowNs + heartbeatIntervalNs;
    }

    /** Sends a Heartbeat of the current session, with the next Sequence Number, and sets the next one's deadline. */
    private void sendHeartbeat()
    {
        try
        {
            current.server.sendHeartbeat();
            metrics.onHeartbeat();
        }
        catch (final IOException ex)
        {
            onError(ex);
        }
        heartbeatDeadlineNs = nowNs + heartbeatIntervalNs;
    }

    /** Sends an End of Session packet of the ending session, and sets the next one's deadline. */
    private void sendEndOfSession()
    {
        try
        {
            ending.server.sendEndOfSession();
            metrics.onEndOfSession();
        }
        catch (final IOException ex)
        {
            onError(ex);
        }
        endOfSessionPacketDeadlineNs = nowNs + END_OF_SESSION_INTERVAL_NS;
    }

    /** @return datagrams read from the request socket. */
    private int serveRequests()
    {
        int read = 0;
        int served = 0;
        try
        {
            while (served < REQUESTS_PER_DUTY_CYCLE && read < DATAGRAMS_PER_DUTY_CYCLE)
            {
                final int outcome = requestServer.serve(answers, nowNs);
                if (MoldRequestServer.NO_REQUEST == outcome)
                {
                    break;
                }
                read++;
                served += MoldRequestServer.SERVED == outcome ? 1 : 0;
            }
        }
        catch (final IOException ex)
        {
            onError(ex);
        }
        return read;
    }

    private void onError(final IOException ex)
    {
        metrics.onError();
        if (!socketErrorLogged)
        {
            socketErrorLogged = true;
            System.err.println("[" + roleName() + "] socket error (logged once, counted always in " +
                "bourse_md_mold_errors_total): " + ex);
        }
    }

    /**
     * Answers a request from the store of the session it names (the response's Session, copied from the request): of a
     * session whose messages are held, only those already sent to the group; a request the session file answers is
     * handed over to the {@link MoldFileAnswers}, which answers and counts it.
     *
     * @return the messages written; 0 for none, or a request handed over.
     */
    private int answer(
        final ByteBuffer response, final long sequenceNumber, final int requestedMessageCount,
        final SocketAddress requester)
    {
        final FeedSession session = null != current && current.isNamedIn(response) ? current :
            null != ending && ending.isNamedIn(response) ? ending : null;
        if (null == session)
        {
            metrics.onRequestForAnotherSession();
            return 0;
        }
        // Only those already sent to the group: no receiver gets a message by request before the group does. All those
        // taken are sent by now, but a held session's; the file's answer, read later, must not take those taken since.
        final long sent = session == current && held ? nextHeldSequenceNumber : session.store.nextSequenceNumber();
        int messageCount = (int)Math.max(0, Math.min(requestedMessageCount, sent - sequenceNumber));
        if (0 != messageCount && session.store.isAnsweredFromFile(sequenceNumber))
        {
            final MoldSessionFile file = session.store.sessionFile(sequenceNumber, messageCount);
            if (null != file)
            {
                fileAnswers.offer(response, requester, file, sequenceNumber, messageCount); // counted there
                return 0;
            }
            messageCount = 0; // the file failed to be written: counted, logged and dropped
        }
        else if (0 != messageCount)
        {
            messageCount = session.store.get(response, sequenceNumber, messageCount);
        }
        metrics.onRequest(messageCount);
        return messageCount;
    }
}
