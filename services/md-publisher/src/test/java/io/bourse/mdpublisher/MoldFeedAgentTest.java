package io.bourse.mdpublisher;

import io.bourse.common.metrics.ErrorKinds;
import com.paritytrading.nassau.moldudp64.MoldUDP64ClientState;
import io.bourse.common.aeron.StreamLayout;
import io.bourse.common.config.Settings;
import io.bourse.common.config.SymbolDirectory;
import io.bourse.common.config.Symbols;
import io.bourse.common.time.MidnightNanoClock;
import io.bourse.itch.ItchEvents;
import io.bourse.itch.MarketDataEncoder;
import io.bourse.sbe.engine.TradingState;
import io.bourse.sbe.md.Side;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import org.agrona.CloseHelper;
import org.agrona.concurrent.CachedNanoClock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static io.bourse.common.Await.awaitTrue;
import static io.bourse.mdpublisher.MoldReceiver.Request;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The MoldUDP64 feed agent driven by hand under a clock the test advances: real SBE market data in, handed over as the
 * md-publisher's {@link MarketDataProxy} hands its order-feed increments, real datagrams on loopback multicast out,
 * read byte by byte or by nassau's MoldUDP64 client; Request Packets answered by the agent's re-request server.
 */
@Timeout(30)
class MoldFeedAgentTest
{
    private static final String SESSION = "BOURSETEST";
    private static final String SESSION_HEX = "424F5552534554455354";
    /** Wall clock at the session's open and close: 09:30:00.123456789, Timestamp bytes 1F1A D635BD15. */
    private static final long WALL_NS = 34_200_123_456_789L;
    private static final String WALL_TIMESTAMP = "1F1A D635BD15";
    private static final long T = 34_300_000_000_000L;
    private static final String T_TIMESTAMP = "1F32 1750D800";
    private static final long HEARTBEAT_INTERVAL_NS = TimeUnit.SECONDS.toNanos(1);
    private static final long NO_DATAGRAM_WAIT_MS = 50;
    /** End of Session: Message Count 0xFFFF with the next Sequence Number, 12. */
    private static final byte[] END_OF_SESSION_12 = hex(SESSION_HEX + " 000000000000000C FFFF");
    private static final long DATAGRAM_WAIT_MS = 1000;
    private static final String AAPL_DIRECTORY = "52 0001 0000 " + WALL_TIMESTAMP +
        " 4141504C20202020 51 4E 00000064 4E 43 5A20 54 4E 4E 31 4E 00000000 4E";
    private static final String MSFT_DIRECTORY = "52 0002 0000 " + WALL_TIMESTAMP +
        " 4D53465420202020 51 4E 00000064 4E 43 5A20 54 4E 4E 31 4E 00000000 4E";
    private static final String AAPL_TRADING = "48 0001 0000 " + WALL_TIMESTAMP + " 4141504C20202020 54 20 20202020";
    private static final String MSFT_TRADING = "48 0002 0000 " + WALL_TIMESTAMP + " 4D53465420202020 54 20 20202020";
    private static final List<ItchEvents.Message> SESSION_OPEN = List.copyOf(MoldReceiver.sessionOpening('T', "    "));

    private final MarketDataEncoder sbe = new MarketDataEncoder();
    /** The md-publisher's books, which a session's opening tells; their own market data goes nowhere. */
    private final MarketDataBooks books = new MarketDataBooks(
        new long[] {Symbols.pack("AAPL"), Symbols.pack("MSFT")}, MarketDataBooks.FULL_DEPTH,
        DiscardedMarketData.INSTANCE,
        new ErrorKinds<>("md-publisher", MdPublisherError.class));
    private final CachedNanoClock nanoClock = new CachedNanoClock();
    private final PrometheusRegistry registry = new PrometheusRegistry();
    private final List<AutoCloseable> closeables = new ArrayList<>();
    @TempDir
    private Path storeDir;
    private InetSocketAddress group;
    private MoldFeed feed;
    private MoldFeedAgent agent;
    private InetSocketAddress requestAddress;
    /** Whether the rebuilt books are published, for the first session's opening ({@link MoldFeedAgent#openWhen}). */
    private BooleanSupplier booksRebuilt = () -> true;
    /** Requests answered per second to one requester ({@link MdPublisherContext#moldRequestsPerSecond}). */
    private int requestsPerSecond = MdPublisherContext.MOLD_REQUESTS_PER_SECOND_DEFAULT;
    /** The request socket's receive buffer asked for ({@link MdPublisherContext#moldRequestReceiveBufferBytes}). */
    private int requestReceiveBufferBytes = MdPublisherContext.MOLD_REQUEST_RECEIVE_BUFFER_BYTES_DEFAULT;

    @BeforeEach
    void setUp() throws IOException
    {
        group = Multicast.randomGroup();
    }

    @AfterEach
    void tearDown()
    {
        CloseHelper.closeAll(closeables);
        CloseHelper.close(feed);
    }

    @Test
    void shouldOpenTheSessionWithStartOfMessagesStockDirectoriesTheTradingActionSpinThenSystemAndMarketHours()
        throws IOException
    {
        final DatagramChannel listener = listen();
        start(1400, 100);

        // Downstream Packet: Session, Sequence Number 1, Message Count 7; Message Blocks: Message Length, Message Data.
        // System Events (ITCH 5.0 §4.1): 'O' Start of Messages, 'S' Start of System Hours, 'Q' Start of Market Hours.
        assertThat(Multicast.receive(listener, DATAGRAM_WAIT_MS)).isEqualTo(hex(SESSION_HEX + " 0000000000000001 0007" +
            " 000C 53 0000 0000 " + WALL_TIMESTAMP + " 4F" +
            " 0027 " + AAPL_DIRECTORY +
            " 0027 " + MSFT_DIRECTORY +
            " 0019 " + AAPL_TRADING +
            " 0019 " + MSFT_TRADING +
            " 000C 53 0000 0000 " + WALL_TIMESTAMP + " 53" +
            " 000C 53 0000 0000 " + WALL_TIMESTAMP + " 51"));
        assertThat(counter("bourse_md_mold_packets", "data")).isEqualTo(1);
        assertThat(counter("bourse_md_mold_messages", null)).isEqualTo(7);
    }

    /**
     * A restarted md-publisher's first session waits for the books it rebuilt from the event archive to be published:
     * Heartbeats only, the order feed's increments meanwhile left out (the published books' Add Orders among them),
     * then, between two engine events, the opening tells the rebuilt books: MSFT halted in the Trading Action spin,
     * AAPL's resting order. Before stop 64, the session opened at once with both symbols trading, the halt following as
     * a second Stock Trading Action.
     */
    @Test
    void shouldOpenTheFirstSessionWithTheRebuiltBooksOnceTheyArePublished() throws IOException
    {
        final AtomicBoolean rebuilt = new AtomicBoolean();
        booksRebuilt = rebuilt::get;
        final DatagramChannel listener = listen();
        start(1400, 100);
        agent.doWork();
        assertThat(header(Multicast.receive(listener, DATAGRAM_WAIT_MS), SESSION)).as("a Heartbeat")
            .isEqualTo(new Header(1, 0, 20));

        books.onOrderAdded(T, 17, Symbols.pack("AAPL"), io.bourse.mdpublisher.Side.SELL, 300, 1_500_100, true, 0);
        books.onTradingStateChanged(T + 1, Symbols.pack("MSFT"), TradingState.HALTED);
        publish(sbe.addOrder(T, "AAPL", 17, Side.SELL, 300, 1_500_100));
        agent.doWork();
        rebuilt.set(true);
        agent.doWorkWithinOffer();
        assertThat(Multicast.receive(listener, NO_DATAGRAM_WAIT_MS)).as("nothing before the opening").isNull();

        final MoldReceiver receiver = open(new MoldReceiver(listen(), requestAddress));
        agent.doWork();
        pumpUntil(receiver, () -> receiver.itch.messages.size() >= 8);
        assertThat(receiver.itch.messages).containsExactlyElementsOf(openingWithMsftHalted(
            new ItchEvents.AddOrder(1, 0, WALL_NS, 17, 'S', 300, "AAPL", 1_500_100))); // at the opening's time
    }

    @Test
    void shouldSendTheMessagesOfADutyCycleInOnePacketNumberedAfterTheLastOnes() throws IOException
    {
        final DatagramChannel listener = listen();
        start(1400, 100);
        Multicast.receive(listener, DATAGRAM_WAIT_MS);

        publish(sbe.addOrder(T, "MSFT", 17, Side.BUY, 300, 1_500_100));
        // A message with no ITCH form (the md-publisher sends PriceLevelUpdate on the depth feed only) takes none.
        publish(sbe.priceLevelUpdate(T, "MSFT", 1_500_100, 300));
        publish(sbe.orderDelete(T, "MSFT", 17));
        assertThat(agent.doWork()).isEqualTo(1);

        // Sequence Number 8, Message Count 2: Add Order (ITCH 5.0 §4.3.1), Order Delete (§4.4.4); no form for the level
        assertThat(Multicast.receive(listener, DATAGRAM_WAIT_MS)).isEqualTo(hex(SESSION_HEX + " 0000000000000008 0002" +
            " 0024 41 0002 0000 " + T_TIMESTAMP + " 0000000000000011 42 0000012C 4D53465420202020 0016E3C4" +
            " 0013 44 0002 0000 " + T_TIMESTAMP + " 0000000000000011"));
        assertThat(Multicast.receive(listener, NO_DATAGRAM_WAIT_MS)).isNull();
        assertThat(counter("bourse_md_mold_packets", "data")).isEqualTo(2);
        assertThat(counter("bourse_md_mold_messages", null)).isEqualTo(9);
    }

    @Test
    void shouldStartANewPacketWhenTheNextMessageDoesNotFitThePayloadLength() throws IOException
    {
        final DatagramChannel listener = listen();
        // Two 38-byte Add Order blocks fill 76 bytes exactly. The session's opening: 14 + 41 bytes leave no room for 41
        // more, 41 + 27 none for 27 more; then 27 + 14 + 14, the end of the opening.
        start(76, 100);

        assertThat(header(Multicast.receive(listener, DATAGRAM_WAIT_MS))).isEqualTo(new Header(1, 2, 20 + 55));
        assertThat(header(Multicast.receive(listener, DATAGRAM_WAIT_MS))).isEqualTo(new Header(3, 2, 20 + 68));
        assertThat(header(Multicast.receive(listener, DATAGRAM_WAIT_MS))).isEqualTo(new Header(5, 3, 20 + 55));
        for (int orderId = 1; orderId <= 3; orderId++)
        {
            publish(sbe.addOrder(T, "AAPL", orderId, Side.SELL, 100, 1_000_000));
        }
        agent.doWork();

        assertThat(header(Multicast.receive(listener, DATAGRAM_WAIT_MS))).isEqualTo(new Header(8, 2, 20 + 76));
        assertThat(header(Multicast.receive(listener, DATAGRAM_WAIT_MS))).isEqualTo(new Header(10, 1, 20 + 38));
    }

    @Test
    void shouldSendAHeartbeatWithTheNextSequenceNumberOnlyWhenIdleForTheInterval() throws IOException
    {
        final DatagramChannel listener = listen();
        start(1400, 100);
        Multicast.receive(listener, DATAGRAM_WAIT_MS);

        nanoClock.update(HEARTBEAT_INTERVAL_NS - 1);
        assertThat(agent.doWork()).isZero();
        assertThat(Multicast.receive(listener, NO_DATAGRAM_WAIT_MS)).isNull();

        nanoClock.update(HEARTBEAT_INTERVAL_NS);
        assertThat(agent.doWork()).isEqualTo(1);
        // Heartbeat: Session, Sequence Number of the next message, Message Count 0, no Message Blocks
        assertThat(Multicast.receive(listener, DATAGRAM_WAIT_MS))
            .isEqualTo(hex(SESSION_HEX + " 0000000000000008 0000"));

        nanoClock.update(HEARTBEAT_INTERVAL_NS * 3 / 2);
        publish(sbe.addOrder(T, "AAPL", 1, Side.SELL, 100, 1_000_000));
        agent.doWork();
        assertThat(header(Multicast.receive(listener, DATAGRAM_WAIT_MS))).isEqualTo(new Header(8, 1, 20 + 38));
        nanoClock.update(HEARTBEAT_INTERVAL_NS * 5 / 2 - 1);
        agent.doWork();
        assertThat(Multicast.receive(listener, NO_DATAGRAM_WAIT_MS)).isNull();
        nanoClock.update(HEARTBEAT_INTERVAL_NS * 5 / 2);
        agent.doWork();
        assertThat(Multicast.receive(listener, DATAGRAM_WAIT_MS))
            .isEqualTo(hex(SESSION_HEX + " 0000000000000009 0000"));
        assertThat(counter("bourse_md_mold_packets", "heartbeat")).isEqualTo(2);
    }

    @Test
    void shouldAnswerARequestPacketWithTheRequestedMessages() throws IOException
    {
        start(1400, 100);
        final DatagramChannel requester = open(Multicast.unicast());

        // Request Packet: Session, Sequence Number 2, Requested Message Count 2
        requester.send(ByteBuffer.wrap(hex(SESSION_HEX + " 0000000000000002 0002")), requestAddress);
        assertThat(serveUntilAnswered(requester)).isEqualTo(hex(SESSION_HEX + " 0000000000000002 0002" +
            " 0027 " + AAPL_DIRECTORY +
            " 0027 " + MSFT_DIRECTORY));
        assertThat(counter("bourse_md_mold_requests", null)).isEqualTo(1);
        assertThat(counter("bourse_md_mold_request_messages", null)).isEqualTo(2);
    }

    @Test
    void shouldLookAtTheRequestSocketAtMostOncePerPollInterval() throws IOException
    {
        start(1400, 100);
        agent.doWork();
        final DatagramChannel requester = open(Multicast.unicast());

        // The duty cycle above took the look of this interval: the request waits for the next one.
        requester.send(ByteBuffer.wrap(hex(SESSION_HEX + " 0000000000000001 0001")), requestAddress);
        nanoClock.advance(MoldFeedAgent.REQUEST_POLL_INTERVAL_NS - 1);
        assertThat(agent.doWork()).isZero();
        assertThat(Multicast.receive(requester, NO_DATAGRAM_WAIT_MS)).isNull();

        nanoClock.advance(1);
        assertThat(agent.doWork()).isEqualTo(1);
        assertThat(header(Multicast.receive(requester, DATAGRAM_WAIT_MS))).isEqualTo(new Header(1, 1, 20 + 14));
    }

    @Test
    void shouldLeaveRequestsOutsideTheStoreUnansweredAndKeepServing() throws IOException
    {
        start(1400, 4, 0, null);
        final DatagramChannel requester = sendThreeSellsAndOpenARequester();

        // Messages 1..10 sent, 7..10 kept: 1 is gone, 11 not yet sent.
        requester.send(ByteBuffer.wrap(hex(SESSION_HEX + " 0000000000000001 0002")), requestAddress);
        requester.send(ByteBuffer.wrap(hex(SESSION_HEX + " 000000000000000B 0001")), requestAddress);
        nextRequestPoll();
        agent.doWork();
        assertThat(Multicast.receive(requester, NO_DATAGRAM_WAIT_MS)).isNull();

        requester.send(ByteBuffer.wrap(hex(SESSION_HEX + " 0000000000000009 FFFE")), requestAddress);
        assertThat(header(serveUntilAnswered(requester))).isEqualTo(new Header(9, 2, 20 + 2 * 38));
        assertThat(counter("bourse_md_mold_requests", null)).isEqualTo(3);
        assertThat(counter("bourse_md_mold_requests_unanswered", "outside_store")).isEqualTo(2);
        assertThat(counter("bourse_md_mold_requests_unanswered", "other_session")).isZero();
        assertThat(counter("bourse_md_mold_request_messages", null)).isEqualTo(2);
        assertThat(counter("bourse_md_mold_errors", null)).isZero();
    }

    /**
     * Requests older than the memory holds are handed over to the session file's answering agent, which reads the file
     * and sends the answers on its own thread (its duty cycle run here by hand): the feed's duty cycle reads no file
     * and answers the memory's request behind them in the same look. Before, the feed's thread read the file for up
     * to two requests a look, and the requests behind waited for the next look.
     */
    @Test
    void shouldHandTheSessionFilesRequestsToTheFileAnswersAndAnswerTheMemorysInTheSameLook() throws IOException
    {
        start(1400, 4);
        final DatagramChannel requester = sendThreeSellsAndOpenARequester();

        // Messages 1..10 sent, 7..10 kept in memory, all of them in the file.
        for (final String sequenceNumber : List.of("1", "2", "8", "3"))
        {
            requester.send(ByteBuffer.wrap(hex(SESSION_HEX + " 000000000000000" + sequenceNumber + " 0001")),
                requestAddress);
        }
        nextRequestPoll();
        assertThat(agent.doWork()).as("requests read").isEqualTo(4);
        assertThat(header(Multicast.receive(requester, DATAGRAM_WAIT_MS))).isEqualTo(new Header(8, 1, 20 + 38));
        assertThat(Multicast.receive(requester, NO_DATAGRAM_WAIT_MS)).isNull();
        assertThat(counter("bourse_md_mold_requests", null)).as("the memory's, answered").isEqualTo(1);

        assertThat(feed.fileAnswers().doWork()).as("the file's, answered").isEqualTo(3);
        assertThat(header(Multicast.receive(requester, DATAGRAM_WAIT_MS))).isEqualTo(new Header(1, 1, 20 + 14));
        assertThat(header(Multicast.receive(requester, DATAGRAM_WAIT_MS))).isEqualTo(new Header(2, 1, 20 + 41));
        assertThat(header(Multicast.receive(requester, DATAGRAM_WAIT_MS))).isEqualTo(new Header(3, 1, 20 + 41));
        assertThat(counter("bourse_md_mold_requests", null)).isEqualTo(4);
        assertThat(counter("bourse_md_mold_request_messages", null)).isEqualTo(4);
    }

    /**
     * Requests handed over to the session file's answers and still waiting when its agent stops are answered as it
     * stops, before the request socket and the files close. Before, they were left unanswered, and not counted.
     */
    @Test
    void shouldAnswerTheSessionFilesRequestsStillWaitingWhenTheFileAnswersStop() throws IOException
    {
        start(1400, 4);
        final DatagramChannel requester = sendThreeSellsAndOpenARequester();
        final int requests = MoldFileAnswers.ANSWERS_PER_DUTY_CYCLE + 1; // more than one of its duty cycles answers
        for (int sent = 0; sent < requests; sent += MoldFeedAgent.REQUESTS_PER_DUTY_CYCLE)
        {
            for (int i = sent; i < Math.min(sent + MoldFeedAgent.REQUESTS_PER_DUTY_CYCLE, requests); i++)
            {
                requester.send(ByteBuffer.wrap(hex(SESSION_HEX + " 0000000000000002 0001")), requestAddress);
            }
            nextRequestPoll();
            assertThat(agent.doWork()).as("requests read").isPositive();
        }
        assertThat(Multicast.receive(requester, NO_DATAGRAM_WAIT_MS)).as("none answered yet").isNull();

        feed.fileAnswers().onClose();

        for (int answered = 0; answered < requests; answered++)
        {
            assertThat(header(Multicast.receive(requester, DATAGRAM_WAIT_MS))).as("answer %d", answered)
                .isEqualTo(new Header(2, 1, 20 + 41));
        }
        assertThat(counter("bourse_md_mold_requests", null)).isEqualTo(requests);
    }

    /**
     * With {@link MoldFileAnswers#MAX_WAITING} requests waiting for the session file, one more is dropped unanswered
     * and counted; once the file's answers have caught up, the requester's next request is answered.
     */
    @Test
    void shouldDropARequestForTheSessionFileWhileItsAnswersQueueIsFull() throws IOException
    {
        start(1400, 4);
        final DatagramChannel requester = sendThreeSellsAndOpenARequester();
        final byte[] request = hex(SESSION_HEX + " 0000000000000001 0001");

        // Sent a look's worth at a time, so that the socket's buffer drops none.
        final int requests = MoldFileAnswers.MAX_WAITING + 1;
        for (int sent = 0; sent < requests; sent += MoldFeedAgent.REQUESTS_PER_DUTY_CYCLE)
        {
            for (int i = sent; i < Math.min(sent + MoldFeedAgent.REQUESTS_PER_DUTY_CYCLE, requests); i++)
            {
                requester.send(ByteBuffer.wrap(request), requestAddress);
            }
            nextRequestPoll();
            assertThat(agent.doWork()).as("requests read").isPositive();
        }
        assertThat(counter("bourse_md_mold_requests_unanswered", "file_busy")).isOne();
        assertThat(Multicast.receive(requester, NO_DATAGRAM_WAIT_MS)).as("none answered yet").isNull();

        int answered = 0;
        while (feed.fileAnswers().doWork() > 0)
        {
            for (int i = 0; i < MoldFileAnswers.ANSWERS_PER_DUTY_CYCLE; i++)
            {
                assertThat(Multicast.receive(requester, DATAGRAM_WAIT_MS)).as("answer %d", answered).isNotNull();
                answered++;
            }
        }
        assertThat(answered).isEqualTo(MoldFileAnswers.MAX_WAITING);
        requester.send(ByteBuffer.wrap(request), requestAddress);
        nextRequestPoll();
        agent.doWork();
        feed.fileAnswers().doWork();
        assertThat(header(Multicast.receive(requester, DATAGRAM_WAIT_MS))).isEqualTo(new Header(1, 1, 20 + 14));
        assertThat(counter("bourse_md_mold_requests_unanswered", "file_busy")).isOne();
        assertThat(counter("bourse_md_mold_request_messages", null)).isEqualTo(MoldFileAnswers.MAX_WAITING + 1);
    }

    /**
     * A session file whose read fails on the file answers' thread (here, cut short behind its back) is counted as an
     * error there, and dropped by the feed at its next message: requests older than the memory then go unanswered,
     * counted as outside the store, while the memory's are answered as before.
     */
    @Test
    void shouldCountASessionFileThatFailsOnTheFileAnswersThreadAndDropItAtTheNextMessage() throws IOException
    {
        start(1400, 4);
        // Past the session file's 64 KiB write buffer: messages 1..2,007, the file's first ones written out.
        for (int orderId = 1; orderId <= 2_000; orderId++)
        {
            publish(sbe.addOrder(T, "AAPL", orderId, Side.SELL, 100, 1_000_000));
            if (orderId % 20 == 0)
            {
                agent.doWork();
            }
        }
        final DatagramChannel requester = open(Multicast.unicast());
        try (FileChannel data = FileChannel.open(feed.sessionFile(), StandardOpenOption.WRITE))
        {
            data.truncate(0);
        }

        requester.send(ByteBuffer.wrap(hex(SESSION_HEX + " 0000000000000002 0001")), requestAddress);
        nextRequestPoll();
        agent.doWork();
        assertThat(feed.fileAnswers().doWork()).isOne();
        assertThat(Multicast.receive(requester, NO_DATAGRAM_WAIT_MS)).isNull();
        assertThat(counter("bourse_md_mold_errors", null)).isOne();
        assertThat(storeDir).isNotEmptyDirectory();

        publish(sbe.addOrder(T, "AAPL", 2_001, Side.SELL, 100, 1_000_000));
        agent.doWork();
        assertThat(storeDir).as("dropped at the next message").isEmptyDirectory();
        requester.send(ByteBuffer.wrap(hex(SESSION_HEX + " 0000000000000002 0001")), requestAddress);
        requester.send(ByteBuffer.wrap(hex(SESSION_HEX + " 00000000000007D8 0001")), requestAddress);
        nextRequestPoll();
        agent.doWork();
        assertThat(feed.fileAnswers().doWork()).isZero();
        assertThat(header(Multicast.receive(requester, DATAGRAM_WAIT_MS))).isEqualTo(new Header(2_008, 1, 20 + 38));
        assertThat(counter("bourse_md_mold_requests_unanswered", "outside_store")).isEqualTo(2);
        assertThat(counter("bourse_md_mold_errors", null)).isOne();
    }

    /**
     * Four malformed Request Packets (Sequence Number 0, no message requested, 5 bytes, 21 bytes) are each counted and
     * left unanswered, and the valid request behind them is answered in the same look at the socket. Before, nassau's
     * request server returned from a malformed one as from an empty socket: the look ended there, and nothing counted.
     */
    @Test
    void shouldCountMalformedRequestsAndServeTheRequestBehindThemInTheSameLook() throws IOException
    {
        start(1400, 100);
        agent.doWork();
        final DatagramChannel requester = open(Multicast.unicast());

        requester.send(ByteBuffer.wrap(hex(SESSION_HEX + " 0000000000000000 0001")), requestAddress);
        requester.send(ByteBuffer.wrap(hex(SESSION_HEX + " 0000000000000002 0000")), requestAddress);
        requester.send(ByteBuffer.wrap(hex("0102030405")), requestAddress);
        requester.send(ByteBuffer.wrap(hex(SESSION_HEX + " 0000000000000002 0001 00")), requestAddress);
        requester.send(ByteBuffer.wrap(hex(SESSION_HEX + " 0000000000000002 0001")), requestAddress);
        nextRequestPoll();

        assertThat(agent.doWork()).as("requests read").isEqualTo(5);
        assertThat(Multicast.receive(requester, DATAGRAM_WAIT_MS)).isEqualTo(hex(SESSION_HEX +
            " 0000000000000002 0001 0027 " + AAPL_DIRECTORY));
        assertThat(Multicast.receive(requester, NO_DATAGRAM_WAIT_MS)).isNull();
        assertThat(counter("bourse_md_mold_requests", null)).isEqualTo(5);
        assertThat(counter("bourse_md_mold_requests_unanswered", "malformed")).isEqualTo(4);
        assertThat(counter("bourse_md_mold_request_messages", null)).isEqualTo(1);
        assertThat(counter("bourse_md_mold_errors", null)).isZero();
    }

    /**
     * A requester past its requests per second (2 here, the bucket holding one second's worth) is left unanswered and
     * counted, while another requester is answered in the same look; once a token is back (every half second), it is
     * answered again. Before, every requester shared the look's budget of 16 requests.
     */
    @Test
    void shouldDropARequestersRequestsPastItsRateWhileAnsweringAnotherRequester() throws IOException
    {
        requestsPerSecond = 2;
        start(1400, 100);
        agent.doWork();
        final DatagramChannel flooder = open(Multicast.unicast());
        final DatagramChannel other = open(Multicast.unicast());
        final byte[] request = hex(SESSION_HEX + " 0000000000000002 0001");
        final byte[] answer = hex(SESSION_HEX + " 0000000000000002 0001 0027 " + AAPL_DIRECTORY);

        sendRequests(request, flooder, 3, other);
        assertThat(agent.doWork()).as("requests read").isEqualTo(4);
        assertThat(Multicast.receive(flooder, DATAGRAM_WAIT_MS)).isEqualTo(answer);
        assertThat(Multicast.receive(flooder, DATAGRAM_WAIT_MS)).isEqualTo(answer);
        assertThat(Multicast.receive(flooder, NO_DATAGRAM_WAIT_MS)).isNull();
        assertThat(Multicast.receive(other, DATAGRAM_WAIT_MS)).isEqualTo(answer);
        assertThat(counter("bourse_md_mold_requests", null)).isEqualTo(4);
        assertThat(counter("bourse_md_mold_requests_unanswered", "rate_limited")).isEqualTo(1);
        assertThat(counter("bourse_md_mold_request_messages", null)).isEqualTo(3);

        nanoClock.advance(TimeUnit.MILLISECONDS.toNanos(500));
        flooder.send(ByteBuffer.wrap(request), requestAddress);
        assertThat(serveUntilAnswered(flooder)).isEqualTo(answer);
        assertThat(counter("bourse_md_mold_requests_unanswered", "rate_limited")).isEqualTo(1);
    }

    /**
     * Requests dropped past their requester's rate cost a read, not a place among the requests served per look: 20
     * from one requester (1 a second) and one from another are all read in one look, and the other is answered there.
     * Before, the look ended after 16 datagrams, dropped or not, and the other's request waited behind the flood.
     */
    @Test
    void shouldServeAnotherRequesterInTheSameLookAsAFloodOfRateLimitedRequests() throws IOException
    {
        requestsPerSecond = 1;
        start(1400, 100);
        agent.doWork();
        final byte[] request = hex(SESSION_HEX + " 0000000000000002 0001");
        final DatagramChannel other = open(Multicast.unicast());

        sendRequests(request, open(Multicast.unicast()), 20, other);

        assertThat(agent.doWork()).as("requests read").isEqualTo(21);
        assertThat(Multicast.receive(other, DATAGRAM_WAIT_MS))
            .isEqualTo(hex(SESSION_HEX + " 0000000000000002 0001 0027 " + AAPL_DIRECTORY));
        assertThat(counter("bourse_md_mold_requests_unanswered", "rate_limited")).isEqualTo(19);
    }

    /**
     * A burst of Request Packets past the request socket's receive buffer (here the least the kernel gives: on Linux
     * 6.18, 2,304 bytes, two requests) is dropped by the kernel before the feed reads it: those dropped are counted from the kernel's own count (Linux
     * /proc/net/udp), so that every request sent is either read or counted as dropped. Before, the kernel's drops were
     * counted nowhere.
     */
    @Test
    void shouldCountTheRequestsTheKernelDropsAtTheFullRequestSocket() throws IOException
    {
        assumeTrue(Files.isReadable(UdpSocketDrops.PROC_NET_UDP), "Linux only");
        requestReceiveBufferBytes = 1;
        assertThat(sendBurstUntilReadOrDropped(200)).isPositive();
    }

    /**
     * The default receive buffer, 4 MiB, holds a burst of 1,000 Request Packets (from 50 receivers asking 20 each at
     * once, say), where the kernel's default of 208 KiB dropped about three quarters of them. Run where
     * {@code net.core.rmem_max} lets the socket have it all (at least 4 MiB).
     */
    @Test
    void shouldReadABurstOfRequestsWholeWithTheDefaultReceiveBuffer() throws IOException
    {
        final Path rmemMaxFile = Path.of("/proc/sys/net/core/rmem_max");
        assumeTrue(Files.isReadable(UdpSocketDrops.PROC_NET_UDP) && Files.isReadable(rmemMaxFile), "Linux only");
        final long rmemMax = Long.parseLong(Files.readAllLines(rmemMaxFile).getFirst());
        assumeTrue(rmemMax >= requestReceiveBufferBytes, "net.core.rmem_max caps the receive buffer");
        assertThat(sendBurstUntilReadOrDropped(1_000)).isZero();
    }

    @Test
    void shouldLeaveARequestNamingAnotherSessionUnansweredAndKeepServing() throws IOException
    {
        start(1400, 100);
        final DatagramChannel requester = open(Multicast.unicast());

        // An earlier run's Session, "BOURSEOLD" space-padded, then one that differs from the feed's in its last byte.
        requester.send(ByteBuffer.wrap(hex("424F555253454F4C4420 0000000000000002 0001")), requestAddress);
        requester.send(ByteBuffer.wrap(hex("424F5552534554455358 0000000000000002 0001")), requestAddress);
        for (int i = 0; i < 2; i++)
        {
            nextRequestPoll();
            agent.doWork();
        }
        assertThat(Multicast.receive(requester, NO_DATAGRAM_WAIT_MS)).isNull();

        requester.send(ByteBuffer.wrap(hex(SESSION_HEX + " 0000000000000002 0001")), requestAddress);
        assertThat(serveUntilAnswered(requester)).isEqualTo(hex(SESSION_HEX + " 0000000000000002 0001" +
            " 0027 " + AAPL_DIRECTORY));
        assertThat(counter("bourse_md_mold_requests", null)).isEqualTo(3);
        assertThat(counter("bourse_md_mold_requests_unanswered", "other_session")).isEqualTo(2);
        assertThat(counter("bourse_md_mold_requests_unanswered", "outside_store")).isZero();
        assertThat(counter("bourse_md_mold_request_messages", null)).isEqualTo(1);
    }

    @Test
    void shouldCountUntranslatableMarketDataAsAnErrorWithoutTakingASequenceNumber() throws IOException
    {
        final DatagramChannel listener = listen();
        start(1400, 100);
        Multicast.receive(listener, DATAGRAM_WAIT_MS);

        publish(sbe.addOrder(T, "IBM", 1, Side.SELL, 100, 1_000_000));
        publish(sbe.addOrder(T, "AAPL", 2, Side.SELL, 100, 1_000_000));
        agent.doWork();

        assertThat(header(Multicast.receive(listener, DATAGRAM_WAIT_MS))).isEqualTo(new Header(8, 1, 20 + 38));
        assertThat(counter("bourse_md_mold_errors", null)).isEqualTo(1);
    }

    @Test
    void shouldEndTheSessionWithEndOfMarketAndSystemHoursAndEndOfMessagesThenEndOfSession() throws IOException
    {
        final DatagramChannel listener = listen();
        start(1400, 100);
        Multicast.receive(listener, DATAGRAM_WAIT_MS);

        agent.onClose();

        // System Events 'M' End of Market Hours, 'E' End of System Hours, 'C' End of Messages
        assertThat(Multicast.receive(listener, DATAGRAM_WAIT_MS)).isEqualTo(hex(SESSION_HEX + " 0000000000000008 0003" +
            " 000C 53 0000 0000 " + WALL_TIMESTAMP + " 4D" +
            " 000C 53 0000 0000 " + WALL_TIMESTAMP + " 45" +
            " 000C 53 0000 0000 " + WALL_TIMESTAMP + " 43"));
        // End of Session: Message Count 0xFFFF with the next Sequence Number
        assertThat(Multicast.receive(listener, DATAGRAM_WAIT_MS))
            .isEqualTo(hex(SESSION_HEX + " 000000000000000B FFFF"));
        assertThat(counter("bourse_md_mold_packets", "end_of_session")).isEqualTo(1);
    }

    @Test
    void shouldSendEndOfSessionInPlaceOfHeartbeatsAndAnswerRequestsUntilTheEndHasLasted() throws IOException
    {
        final DatagramChannel listener = listen();
        start(1400, 100, 1000);
        Multicast.receive(listener, DATAGRAM_WAIT_MS);
        publish(sbe.addOrder(T, "AAPL", 1, Side.SELL, 100, 1_000_000));
        agent.doWork();
        Multicast.receive(listener, DATAGRAM_WAIT_MS);

        agent.endSession();
        assertThat(header(Multicast.receive(listener, DATAGRAM_WAIT_MS))).isEqualTo(new Header(9, 3, 20 + 3 * 14));
        assertThat(Multicast.receive(listener, DATAGRAM_WAIT_MS)).isEqualTo(END_OF_SESSION_12);
        assertThat(agent.isSessionOver()).isFalse();

        // A receiver that lost the last packets asks for them while the end lasts, and gets them.
        final DatagramChannel requester = open(Multicast.unicast());
        requester.send(ByteBuffer.wrap(hex(SESSION_HEX + " 0000000000000008 0004")), requestAddress);
        assertThat(header(serveUntilAnswered(requester))).isEqualTo(new Header(8, 4, 20 + 38 + 3 * 14));

        // End of Session packets, with the next Sequence Number, every 100 ms in place of Heartbeats.
        nanoClock.update(MoldFeedAgent.END_OF_SESSION_INTERVAL_NS);
        agent.doWork();
        assertThat(Multicast.receive(listener, DATAGRAM_WAIT_MS)).isEqualTo(END_OF_SESSION_12);
        nanoClock.update(TimeUnit.MILLISECONDS.toNanos(150));
        agent.doWork();
        assertThat(Multicast.receive(listener, NO_DATAGRAM_WAIT_MS)).isNull();
        nanoClock.update(TimeUnit.SECONDS.toNanos(1) - 1);
        agent.doWork();
        assertThat(Multicast.receive(listener, DATAGRAM_WAIT_MS)).isEqualTo(END_OF_SESSION_12);
        assertThat(agent.isSessionOver()).isFalse();
        nanoClock.update(TimeUnit.SECONDS.toNanos(1));
        agent.doWork();
        assertThat(agent.isSessionOver()).isTrue();

        assertThat(counter("bourse_md_mold_packets", "end_of_session")).isEqualTo(3);
        assertThat(counter("bourse_md_mold_packets", "heartbeat")).isZero();
        assertThat(counter("bourse_md_mold_request_messages", null)).isEqualTo(4);
    }

    /**
     * With daily sessions, midnight UTC ends the day's session and opens the next day's, named after its day,
     * numbered from 1, with the books as they stand: the symbols' trading states and the resting displayed orders in
     * time priority. Its packets wait until the ended session's End of Session packets are over, while a receiver of
     * the ended session can still fill its gaps; then a receiver that joins builds the books from the new session
     * alone.
     */
    @Test
    void shouldOpenTheNextDaysSessionAtMidnightWithTheBooksOnceTheEndedSessionsEndIsOver() throws IOException
    {
        final DatagramChannel listener = listen();
        startDailyASecondBeforeMidnight(100, 1000, storeDir.toString());
        final String firstSession = agent.sessionName();
        final byte[] firstSessionHex = Arrays.copyOf(firstSession.getBytes(StandardCharsets.US_ASCII), 10);
        assertThat(header(Multicast.receive(listener, DATAGRAM_WAIT_MS), firstSession))
            .isEqualTo(new Header(1, 7, 198));
        final long aapl = Symbols.pack("AAPL");
        final long msft = Symbols.pack("MSFT");
        books.onOrderAdded(T, 17, aapl, io.bourse.mdpublisher.Side.SELL, 300, 1_500_100, true, 0);
        books.onOrderAdded(T + 1, 18, aapl, io.bourse.mdpublisher.Side.BUY, 200, 1_499_000, true, 0);
        books.onOrderAdded(T + 2, 19, aapl, io.bourse.mdpublisher.Side.BUY, 100, 1_499_000, true,
            ('G' << 24) | ('S' << 16) | ('C' << 8) | 'O');
        books.onOrderAdded(T + 3, 20, aapl, io.bourse.mdpublisher.Side.BUY, 500, 1_499_500, false, 0);
        books.onTradingStateChanged(T + 4, msft, TradingState.HALTED);
        publish(sbe.addOrder(T, "AAPL", 17, Side.SELL, 300, 1_500_100));
        agent.doWork();
        assertThat(header(Multicast.receive(listener, DATAGRAM_WAIT_MS), firstSession)).isEqualTo(new Header(8, 1, 58));
        // Within 10 s of midnight, the next day's session opens on the sessions' thread: its store and file are ready.
        awaitSessionFiles(firstSession, "20241005");

        // Midnight, in the middle of an engine event (a back-pressured offer): the day's session goes on, its
        // Heartbeat due.
        nanoClock.update(TimeUnit.SECONDS.toNanos(1));
        agent.doWorkWithinOffer();
        assertThat(header(Multicast.receive(listener, DATAGRAM_WAIT_MS), firstSession)).isEqualTo(new Header(9, 0, 20));
        assertThat(Multicast.receive(listener, NO_DATAGRAM_WAIT_MS)).isNull();
        assertThat(agent.sessionName()).isEqualTo(firstSession);
        // Between two events: End of Market Hours, End of System Hours and End of Messages at the day's last
        // nanosecond, 23:59:59.999999999, then End of Session.
        agent.doWork();
        assertDayClosedOnItsLastNanosecond(Multicast.receive(listener, DATAGRAM_WAIT_MS), firstSession, 9);
        assertThat(header(Multicast.receive(listener, DATAGRAM_WAIT_MS), firstSession))
            .isEqualTo(new Header(12, 0xFFFF, 20));
        assertThat(agent.sessionName()).isEqualTo("20241005");
        // A receiver of the ended session that lost its last packets gets them while the end lasts.
        final DatagramChannel requester = open(Multicast.unicast());
        requester.send(ByteBuffer.allocate(20).put(firstSessionHex).putLong(10, 8).putShort(18, (short)4).clear(),
            requestAddress);
        assertThat(header(serveUntilAnswered(requester), firstSession)).isEqualTo(new Header(8, 4, 20 + 38 + 3 * 14));
        // The new session's messages, held in its store, go to no receiver by request before the group gets them.
        final byte[] newSessionHex = "20241005  ".getBytes(StandardCharsets.US_ASCII);
        final long outsideStoreBefore = counter("bourse_md_mold_requests_unanswered", "outside_store");
        requester.send(ByteBuffer.allocate(20).put(newSessionHex).putLong(10, 1).putShort(18, (short)10).clear(),
            requestAddress);
        nextRequestPoll();
        agent.doWork();
        assertThat(Multicast.receive(requester, NO_DATAGRAM_WAIT_MS)).as("no held message by request").isNull();
        assertThat(counter("bourse_md_mold_requests_unanswered", "outside_store")).isEqualTo(outsideStoreBefore + 1);
        nanoClock.update(TimeUnit.MILLISECONDS.toNanos(1_100));
        agent.doWork();
        assertThat(header(Multicast.receive(listener, DATAGRAM_WAIT_MS), firstSession))
            .isEqualTo(new Header(12, 0xFFFF, 20));
        assertThat(Multicast.receive(listener, NO_DATAGRAM_WAIT_MS)).as("no packet of the new session yet").isNull();

        // The end is over: the ended session's file is deleted on the sessions' thread, and the new session's held
        // messages go out from 1.
        nanoClock.update(TimeUnit.MILLISECONDS.toNanos(2_000));
        agent.doWork();
        // The opening's 178 bytes of blocks, two Add Orders of 38 and one with MPID Attribution of 42.
        assertThat(header(Multicast.receive(listener, DATAGRAM_WAIT_MS), "20241005"))
            .isEqualTo(new Header(1, 10, 20 + 178 + 2 * 38 + 42));
        awaitSessionFiles("20241005");
        requester.send(ByteBuffer.allocate(20).put(firstSessionHex).putLong(10, 8).putShort(18, (short)1).clear(),
            requestAddress);
        nextRequestPoll();
        agent.doWork();
        assertThat(Multicast.receive(requester, NO_DATAGRAM_WAIT_MS)).as("the ended session answers no more").isNull();
        assertThat(counter("bourse_md_mold_requests_unanswered", "other_session")).isEqualTo(1);

        // A receiver that joins the new session builds the books from it: trading states, then the orders.
        final MoldReceiver receiver = open(new MoldReceiver(listen(), requestAddress));
        publish(sbe.orderDelete(TimeUnit.SECONDS.toNanos(86_402), "AAPL", 17));
        agent.doWork();
        pumpUntil(receiver, () -> receiver.itch.messages.size() >= 11);
        assertThat(receiver.itch.messages).containsExactlyElementsOf(openingWithMsftHalted(
            new ItchEvents.AddOrder(1, 0, 0, 18, 'B', 200, "AAPL", 1_499_000),
            new ItchEvents.AddOrderMpid(1, 0, 0, 19, 'B', 100, "AAPL", 1_499_000, "GSCO"),
            new ItchEvents.AddOrder(1, 0, 0, 17, 'S', 300, "AAPL", 1_500_100),
            new ItchEvents.OrderDelete(1, TimeUnit.SECONDS.toNanos(2), 17)));
    }

    /**
     * A new day's session that holds more messages than the memory keeps, without a session file, sends the newest
     * kept: receivers see the gap of the others, counted and logged.
     */
    @Test
    void shouldSendTheHeldMessagesStillKeptWhenTheMemoryLetGoOfTheFirst() throws IOException
    {
        final DatagramChannel listener = listenToADailyFeedPastItsOpening(10);
        for (int orderId = 1; orderId <= 5; orderId++)
        {
            books.onOrderAdded(T, orderId, Symbols.pack("MSFT"), io.bourse.mdpublisher.Side.BUY, 100, 1_000_000,
                true, 0);
        }
        final long errorsBefore = counter("bourse_md_mold_errors", null);

        nanoClock.update(TimeUnit.SECONDS.toNanos(1));
        agent.doWork();
        Multicast.receive(listener, DATAGRAM_WAIT_MS); // the ended session's last messages
        Multicast.receive(listener, DATAGRAM_WAIT_MS); // its End of Session, its end lasting no time
        assertThat(header(Multicast.receive(listener, DATAGRAM_WAIT_MS), agent.sessionName()).sequenceNumber())
            .as("the new session's opening (7) and 5 Add Orders: the last 10 kept").isEqualTo(3);
        assertThat(counter("bourse_md_mold_errors", null)).isEqualTo(errorsBefore + 1);
    }

    /**
     * The ended session's closing System Events come after its last message's time: one of the new day, taken before
     * the switch (the duty cycle that passed midnight), moves them to the new day's time.
     */
    @Test
    void shouldStampTheEndedSessionsClosingAfterAMessageOfTheNewDay() throws IOException
    {
        final DatagramChannel listener = listenToADailyFeedPastItsOpening(100);
        // The engine's clock, a little ahead: 00:00:00.5 of the next day while the wall clock reads 23:59:59.
        publish(sbe.addOrder(TimeUnit.DAYS.toNanos(1) + TimeUnit.MILLISECONDS.toNanos(500), "AAPL", 1, Side.SELL, 100,
            1_000_000));

        nanoClock.update(TimeUnit.SECONDS.toNanos(1));
        agent.doWork();

        Multicast.receive(listener, DATAGRAM_WAIT_MS); // the Add Order
        final byte[] end = Multicast.receive(listener, DATAGRAM_WAIT_MS);
        assertThat(header(end, end.length > 0 ? new String(end, 0, 10, StandardCharsets.US_ASCII).strip() : null))
            .isEqualTo(new Header(9, 3, 20 + 3 * 14));
        assertThat(Arrays.copyOfRange(end, 20, end.length)).isEqualTo(hex(
            "000C 53 0000 0000 00001DCD6500 4D 000C 53 0000 0000 00001DCD6500 45" +
            " 000C 53 0000 0000 00001DCD6500 43"));
    }

    /**
     * A day whose session carried no order-feed message, only its opening (the Trading Action spin, stamped with the
     * opening's time), closes on its last nanosecond, as one with messages does, not at the clock's time of the new
     * day.
     */
    @Test
    void shouldStampTheClosingOfADayWithoutOrderFeedMessagesWithItsLastNanosecond() throws IOException
    {
        final DatagramChannel listener = listenToADailyFeedPastItsOpening(100);
        final String session = agent.sessionName();

        nanoClock.update(TimeUnit.SECONDS.toNanos(1) + TimeUnit.MILLISECONDS.toNanos(100));
        agent.doWork();

        assertDayClosedOnItsLastNanosecond(Multicast.receive(listener, DATAGRAM_WAIT_MS), session, 8);
    }

    /**
     * A stop just after midnight, before a duty cycle has ended the day's session, closes it as midnight would have:
     * on the day's last nanosecond, after its last message of 23:59:59.5, not at the stop's time of 00:00:00.1.
     */
    @Test
    void shouldStampTheClosingOfAStopAfterMidnightWithTheDaysLastNanosecond() throws IOException
    {
        final DatagramChannel listener = listenToADailyFeedPastItsOpening(100);
        final String session = agent.sessionName();
        publish(sbe.addOrder(TimeUnit.DAYS.toNanos(1) - TimeUnit.MILLISECONDS.toNanos(500), "AAPL", 1, Side.SELL, 100,
            1_000_000));
        agent.doWork();
        Multicast.receive(listener, DATAGRAM_WAIT_MS); // the Add Order

        nanoClock.update(TimeUnit.SECONDS.toNanos(1) + TimeUnit.MILLISECONDS.toNanos(100));
        agent.endSession();

        assertDayClosedOnItsLastNanosecond(Multicast.receive(listener, DATAGRAM_WAIT_MS), session, 9);
    }

    /**
     * @param end            the session's packet of End of Market Hours, End of System Hours and End of Messages.
     * @param sequenceNumber its first message's Sequence Number.
     */
    private static void assertDayClosedOnItsLastNanosecond(
        final byte[] end, final String session, final long sequenceNumber)
    {
        assertThat(header(end, session)).isEqualTo(new Header(sequenceNumber, 3, 20 + 3 * 14));
        assertThat(Arrays.copyOfRange(end, 20, end.length)).isEqualTo(hex(
            "000C 53 0000 0000 4E94914EFFFF 4D 000C 53 0000 0000 4E94914EFFFF 45" +
            " 000C 53 0000 0000 4E94914EFFFF 43"));
    }

    @Test
    void shouldCountFailedSendsAndReceivesAsErrorsAndCarryOn()
    {
        start(1400, 100);
        feed.closeSockets();

        publish(sbe.addOrder(T, "AAPL", 1, Side.SELL, 100, 1_000_000));
        agent.doWork();
        nanoClock.update(HEARTBEAT_INTERVAL_NS);
        agent.doWork();

        // Per duty cycle, a failed receive of requests; then the packet and the heartbeat that could not be sent.
        assertThat(counter("bourse_md_mold_errors", null)).isEqualTo(4);
        assertThat(counter("bourse_md_mold_packets", "data")).isEqualTo(1);
        assertThat(counter("bourse_md_mold_packets", "heartbeat")).isZero();
    }

    @Test
    void shouldAllocateNothingPerMessageOnceWarm() throws IOException
    {
        final DatagramChannel listener = listen();
        start(1400, 100_000);
        final ByteBuffer datagram = ByteBuffer.allocateDirect(2048);
        final com.sun.management.ThreadMXBean threads =
            (com.sun.management.ThreadMXBean)ManagementFactory.getThreadMXBean();
        long allocatedBytes = 0;
        for (int round = 0; round < 4; round++)
        {
            allocatedBytes = 0;
            for (int orderId = 1; orderId <= 20_000; orderId++)
            {
                final int length = sbe.addOrder(T, "AAPL", orderId, Side.SELL, 100, 1_000_000);
                final boolean packetDue = orderId % 10 == 0;
                final long before = threads.getCurrentThreadAllocatedBytes();
                publish(length);
                if (packetDue)
                {
                    agent.doWork();
                }
                allocatedBytes += threads.getCurrentThreadAllocatedBytes() - before;
                if (packetDue)
                {
                    while (null != listener.receive(datagram.clear()))
                    {
                        datagram.clear();
                    }
                }
            }
        }

        // Less than a byte per message over the last 20,000: an allocation per message or packet would be 16 or more.
        assertThat(allocatedBytes).isLessThan(20_000);
        assertThat(counter("bourse_md_mold_messages", null)).isEqualTo(7 + 4 * 20_000);
    }

    @Test
    void shouldFillAGapByReRequestWhenPacketsAreLostOnTheWay() throws IOException
    {
        final DatagramChannel relayIn = listen();
        final DatagramChannel clientChannel = Multicast.unicast();
        start(1400, 100);
        final MoldReceiver receiver = open(new MoldReceiver(clientChannel, requestAddress));
        final Set<Long> lost = Set.of(10L, 11L, 12L);
        final List<ItchEvents.Message> expected = new ArrayList<>(SESSION_OPEN);
        for (int orderId = 1; orderId <= 10; orderId++)
        {
            publish(sbe.addOrder(T + orderId, "AAPL", orderId, Side.SELL, 100, 1_000_000));
            agent.doWork();
            expected.add(new ItchEvents.AddOrder(1, 0, T + orderId, orderId, 'S', 100, "AAPL", 1_000_000));
        }

        // Relay packets 1..17 in order, but for the ones carrying sequence numbers 10, 11 and 12.
        byte[] datagram;
        while (null != (datagram = Multicast.receive(relayIn, NO_DATAGRAM_WAIT_MS)))
        {
            if (!lost.contains(header(datagram).sequenceNumber()))
            {
                relayIn.send(ByteBuffer.wrap(datagram), clientChannel.getLocalAddress());
            }
        }
        pumpUntil(receiver, () -> receiver.itch.messages.size() >= expected.size());

        assertThat(receiver.itch.messages).isEqualTo(expected);
        assertThat(receiver.states).containsExactly(
            MoldUDP64ClientState.SYNCHRONIZED, MoldUDP64ClientState.GAP_FILL, MoldUDP64ClientState.SYNCHRONIZED);
        // The gap 10..12 and packet 13, which showed it, then 14..17, which went by while the gap was being filled.
        assertThat(receiver.requests).containsExactly(new Request(10, 4), new Request(14, 4));
        assertThat(counter("bourse_md_mold_request_messages", null)).isEqualTo(8);
    }

    @Test
    void shouldBackfillALateJoinerFromItsFirstHeartbeatInResponsesOfAtMostOnePayload() throws IOException
    {
        start(1400, 1000);
        final List<ItchEvents.Message> expected = new ArrayList<>(SESSION_OPEN);
        final MoldReceiver receiver = joinLateAfterBuyOrders(100, expected);

        assertThat(receiver.itch.messages).isEqualTo(expected);
        assertThat(receiver.states).containsExactly(MoldUDP64ClientState.BACKFILL, MoldUDP64ClientState.SYNCHRONIZED);
        // 1,400 bytes hold the 178 of the session's opening and 32 Add Order blocks of 38 bytes, then 36 blocks.
        assertThat(receiver.requests).containsExactly(new Request(1, 107), new Request(40, 68), new Request(76, 32));
        assertThat(counter("bourse_md_mold_request_messages", null)).isEqualTo(107);
    }

    /**
     * A receiver that joins after the memory has let go of the session's start still gets all of it, from the session
     * file; the file is deleted when the feed closes.
     */
    @Test
    void shouldBackfillALateJoinerPastTheMemoryFromTheSessionFile() throws IOException
    {
        start(1400, 10);
        final List<ItchEvents.Message> expected = new ArrayList<>(SESSION_OPEN);
        final MoldReceiver receiver = joinLateAfterBuyOrders(2_000, expected);

        assertThat(receiver.itch.messages).isEqualTo(expected);
        assertThat(counter("bourse_md_mold_request_messages", null)).isEqualTo(expected.size());
        assertThat(counter("bourse_md_mold_requests_unanswered", "outside_store")).isZero();
        assertThat(storeDir).isNotEmptyDirectory();
        feed.close();
        feed = null;
        assertThat(storeDir).isEmptyDirectory();
    }

    /**
     * Publishes Add Orders to buy MSFT, a packet every 20, then opens a receiver, which joins at the next Heartbeat and
     * backfills by re-request until it has every message of the session.
     *
     * @param orders   Add Orders to publish.
     * @param expected the session's messages so far, to which the Add Orders are added.
     * @return the receiver, done.
     */
    private MoldReceiver joinLateAfterBuyOrders(final int orders, final List<ItchEvents.Message> expected)
        throws IOException
    {
        for (int orderId = 1; orderId <= orders; orderId++)
        {
            publish(sbe.addOrder(T, "MSFT", orderId, Side.BUY, 100, 1_000_000));
            expected.add(new ItchEvents.AddOrder(2, 0, T, orderId, 'B', 100, "MSFT", 1_000_000));
            if (orderId % 20 == 0)
            {
                agent.doWork();
            }
        }
        final MoldReceiver receiver = open(new MoldReceiver(listen(), requestAddress));
        nanoClock.update(HEARTBEAT_INTERVAL_NS);
        agent.doWork();
        pumpUntil(receiver, () -> receiver.itch.messages.size() >= expected.size());
        return receiver;
    }

    private void start(final int payloadLength, final int storeMessages)
    {
        start(payloadLength, storeMessages, 0);
    }

    private void start(final int payloadLength, final int storeMessages, final int endOfSessionMs)
    {
        start(payloadLength, storeMessages, endOfSessionMs, storeDir.toString());
    }

    /** Starts the feed with its session file in {@code storeDir}, or none for null. */
    private void start(final int payloadLength, final int storeMessages, final int endOfSessionMs,
        final String storeDir)
    {
        final long epochNs = TimeUnit.DAYS.toNanos(20_000) + WALL_NS;
        start(payloadLength, storeMessages, endOfSessionMs, storeDir, SESSION, new MidnightNanoClock(() -> epochNs));
    }

    /**
     * Starts the feed with its session file in {@code storeDir}, or none for null, under a Session, or daily sessions
     * for null, its opening and closing messages and its midnights on that clock.
     */
    private void start(final int payloadLength, final int storeMessages, final int endOfSessionMs,
        final String storeDir, final String session, final MidnightNanoClock midnightClock)
    {
        final MdPublisherContext ctx = new MdPublisherContext()
            .layout(StreamLayout.fromSettings(new Settings(Map.of())))
            .symbolDirectory(SymbolDirectory.parse("AAPL@0,MSFT@1"))
            .moldGroup(group.getAddress().getHostAddress())
            .moldPort(group.getPort())
            .moldRequestPort(0)
            .moldSession(session)
            .moldPayloadLength(payloadLength)
            .moldStoreMessages(storeMessages)
            .moldStoreDir(storeDir)
            .moldEndOfSessionMs(endOfSessionMs)
            .moldRequestsPerSecond(requestsPerSecond)
            .moldRequestReceiveBufferBytes(requestReceiveBufferBytes)
            .conclude();
        feed = MoldFeed.open(ctx, registry, nanoClock, midnightClock);
        agent = feed.agent();
        agent.bookSpin(books);
        agent.openWhen(booksRebuilt);
        requestAddress = new InetSocketAddress(Multicast.LOOPBACK, feed.requestPort());
        agent.onStart();
    }

    /**
     * Joins the group, starts the feed with daily sessions a second before midnight ({@link
     * #startDailyASecondBeforeMidnight}, no session file, End of Session lasting no time) and takes its opening.
     *
     * @param storeMessages the messages the memory keeps.
     * @return the group's listener, past the opening's packet.
     */
    private DatagramChannel listenToADailyFeedPastItsOpening(final int storeMessages) throws IOException
    {
        final DatagramChannel listener = listen();
        startDailyASecondBeforeMidnight(storeMessages, 0, null);
        Multicast.receive(listener, DATAGRAM_WAIT_MS);
        return listener;
    }

    /**
     * Starts the feed with daily sessions, the wall clock at 23:59:59 of day 20,000 (2024-10-04) when the monotonic
     * clock reads 0: midnight at 1 s.
     */
    private void startDailyASecondBeforeMidnight(
        final int storeMessages, final int endOfSessionMs, final String storeDir)
    {
        final long secondBeforeMidnightNs = TimeUnit.DAYS.toNanos(20_001) - TimeUnit.SECONDS.toNanos(1);
        start(1400, storeMessages, endOfSessionMs, storeDir, null,
            new MidnightNanoClock(() -> secondBeforeMidnightNs + nanoClock.nanoTime()));
    }

    /**
     * Waits, at most 10 s, until the store directory holds the files of those sessions and no other: the sessions'
     * thread creates and deletes them ({@link FeedSessions}).
     */
    private void awaitSessionFiles(final String... sessions) throws IOException
    {
        final Set<String> expected = Set.of(sessions);
        final long deadlineNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        Set<String> present = sessionFiles();
        while (!present.equals(expected) && System.nanoTime() - deadlineNs < 0)
        {
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
            present = sessionFiles();
        }
        assertThat(present).isEqualTo(expected);
    }

    /** @return the sessions whose files are in the store directory ({@code <session>-<pid>.mold} and its index). */
    private Set<String> sessionFiles() throws IOException
    {
        try (Stream<Path> files = Files.list(storeDir))
        {
            return files.map((file) -> file.getFileName().toString())
                .map((name) -> name.substring(0, name.lastIndexOf('-')))
                .collect(Collectors.toSet());
        }
    }

    /**
     * @param after the messages after the opening.
     * @return a session's opening ({@link #SESSION_OPEN}) while an operator has MSFT halted: its Stock Trading Action
     *         in the spin is 'H'; then those.
     */
    private static List<ItchEvents.Message> openingWithMsftHalted(final ItchEvents.Message... after)
    {
        final List<ItchEvents.Message> messages = new ArrayList<>(SESSION_OPEN);
        final ItchEvents.Message msftTrading = new ItchEvents.StockTradingAction(2, "MSFT", 'T', "    ");
        messages.set(messages.indexOf(msftTrading), new ItchEvents.StockTradingAction(2, "MSFT", 'H', "O1  "));
        messages.addAll(List.of(after));
        return messages;
    }

    private void publish(final int length)
    {
        agent.onOrderFeedMessage(sbe.buffer, 0, length);
    }

    private byte[] serveUntilAnswered(final DatagramChannel requester) throws IOException
    {
        final long deadlineNs = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(DATAGRAM_WAIT_MS);
        byte[] response = null;
        while (null == response && System.nanoTime() - deadlineNs < 0)
        {
            nextRequestPoll();
            agent.doWork();
            runFileAnswers();
            response = Multicast.receive(requester, 1);
        }
        return response;
    }

    /** Runs the receiver and the agent until done, for at most 10 s: the class's timeout cannot stop this loop. */
    private void pumpUntil(final MoldReceiver receiver, final BooleanSupplier done) throws IOException
    {
        final long deadlineNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!done.getAsBoolean())
        {
            assertThat(System.nanoTime() - deadlineNs).as("not done within 10 s").isNegative();
            receiver.poll();
            nextRequestPoll();
            agent.doWork();
            runFileAnswers();
        }
    }

    /**
     * Publishes three Add Orders to sell AAPL and sends them: the session's messages 1 to 10 (its opening's 7, then
     * these), sent to the group.
     *
     * @return a requester's socket, open.
     */
    private DatagramChannel sendThreeSellsAndOpenARequester() throws IOException
    {
        for (int orderId = 1; orderId <= 3; orderId++)
        {
            publish(sbe.addOrder(T, "AAPL", orderId, Side.SELL, 100, 1_000_000));
        }
        agent.doWork();
        return open(Multicast.unicast());
    }

    /** Runs a duty cycle of the session files' answering agent, as its thread does, when the feed has one. */
    private void runFileAnswers()
    {
        if (null != feed.fileAnswers())
        {
            feed.fileAnswers().doWork();
        }
    }

    /** Moves the clock on to the agent's next look at the request socket. */
    /** Sends the request a number of times from one requester, then once from another, and lets the next look come. */
    private void sendRequests(
        final byte[] request, final DatagramChannel flooder, final int floodCount, final DatagramChannel other)
        throws IOException
    {
        for (int i = 0; i < floodCount; i++)
        {
            flooder.send(ByteBuffer.wrap(request), requestAddress);
        }
        other.send(ByteBuffer.wrap(request), requestAddress);
        nextRequestPoll();
    }

    /**
     * Starts the feed, sends it this many Request Packets at once from one requester, and runs duty cycles until every
     * one is either read or counted as dropped by the kernel.
     *
     * @return the requests the kernel dropped.
     */
    private long sendBurstUntilReadOrDropped(final int burst) throws IOException
    {
        start(1400, 100);
        agent.doWork();
        final DatagramChannel requester = open(Multicast.unicast());
        final ByteBuffer request = ByteBuffer.wrap(hex(SESSION_HEX + " 0000000000000002 0001"));
        for (int i = 0; i < burst; i++)
        {
            requester.send(request.clear(), requestAddress);
        }
        awaitTrue(() ->
        {
            readAllRequests();
            return burst == counter("bourse_md_mold_requests", null) +
                counter("bourse_md_mold_request_socket_drops", null);
        });
        return counter("bourse_md_mold_request_socket_drops", null);
    }

    /** Runs duty cycles, one per request poll interval, until one reads no request. */
    private void readAllRequests()
    {
        do
        {
            nextRequestPoll();
        }
        while (agent.doWork() > 0);
    }

    private void nextRequestPoll()
    {
        nanoClock.advance(MoldFeedAgent.REQUEST_POLL_INTERVAL_NS);
    }

    private DatagramChannel listen() throws IOException
    {
        return open(Multicast.join(group));
    }

    private <T extends AutoCloseable> T open(final T closeable)
    {
        closeables.add(closeable);
        return closeable;
    }

    private long counter(final String name, final String type)
    {
        return Counters.value(registry, name, type);
    }

    /** The MoldUDP64 Downstream Packet header of a datagram, and the datagram's length. */
    private record Header(long sequenceNumber, int messageCount, int length)
    {
    }

    private static Header header(final byte[] datagram)
    {
        return header(datagram, SESSION);
    }

    /** The header of a datagram that names the session. */
    private static Header header(final byte[] datagram, final String session)
    {
        assertThat(datagram).isNotNull();
        final ByteBuffer buffer = ByteBuffer.wrap(datagram);
        assertThat(new String(datagram, 0, 10, StandardCharsets.US_ASCII).strip()).isEqualTo(session);
        return new Header(buffer.getLong(10), buffer.getShort(18) & 0xFFFF, datagram.length);
    }


    private static byte[] hex(final String spaced)
    {
        return HexFormat.of().parseHex(spaced.replace(" ", ""));
    }
}
