package io.bourse.simulator;

import com.paritytrading.nassau.moldudp64.MoldUDP64ClientState;
import io.aeron.Aeron;
import io.aeron.Publication;
import io.aeron.driver.MediaDriver;
import io.bourse.common.aeron.EmbeddedMediaDriver;
import io.bourse.common.aeron.StreamLayout;
import io.bourse.common.config.SymbolDirectory;
import io.bourse.common.metrics.LatencySummary;
import io.bourse.common.time.MidnightNanoClock;
import io.bourse.mdpublisher.EngineEventEncoder;
import io.bourse.mdpublisher.MdPublisherContext;
import io.bourse.mdpublisher.MdPublisherService;
import io.bourse.sbe.engine.BookUpdate;
import io.bourse.sbe.engine.Side;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import org.agrona.CloseHelper;
import org.agrona.concurrent.CachedNanoClock;
import org.agrona.concurrent.SystemNanoClock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.StandardProtocolFamily;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.BooleanSupplier;

import static io.bourse.common.Await.awaitTrue;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The MoldUDP64 market-data session against a real md-publisher (real media driver, SBE engine events offered by the
 * test, ITCH 5.0 over MoldUDP64 on a loopback multicast group of the test's own): one session reads the group
 * directly, another through a {@link MoldRelay} that loses chosen packets; the second detects each gap, fills it by
 * re-request, and ends with the same books as the first and as the test's own account of the orders.
 */
@Timeout(30)
class MoldSessionTest
{
    private static final long T = 34_200_000_000_000L;
    /** The low four bytes of an ITCH 5.0 timestamp, 1 s after midnight. */
    private static final int T_SECONDS = 1_000_000_000;
    private static final SymbolDirectory SYMBOLS = SymbolDirectory.parse("AAPL@0,MSFT@1");
    private static final String[] SYMBOL_NAMES = {"AAPL", "MSFT"};
    /**
     * System Event 'O', one Stock Directory per symbol, one Stock Trading Action per symbol, then System Events 'S' and
     * 'Q' open the session.
     */
    private static final int OPENING_MESSAGES = 7;

    private final EngineEventEncoder engine = new EngineEventEncoder();
    private final List<TreeMap<Long, OrderBooks.Order>> expectedBooks = List.of(new TreeMap<>(), new TreeMap<>());
    private final List<AutoCloseable> closeables = new ArrayList<>();
    /** The time of the sessions that read packets the test sends ({@link #unicastFeed}). */
    private final CachedNanoClock clock = new CachedNanoClock();
    private MediaDriver driver;
    private StreamLayout layout;
    private MdPublisherService publisher;
    private Aeron aeron;
    private Publication[] shards;
    private InetSocketAddress group;
    private InetSocketAddress requestAddress;
    private Feed reference;
    private long messages = OPENING_MESSAGES;
    private long matchNumber;

    /** One session with its books and counters. */
    private record Feed(
        MoldSession session,
        OrderBooks books,
        SimulatorCounters counters,
        long[] messageCount,
        MarketDataAdapter adapter,
        MoldReplay replay)
    {
        public long received()
        {
            return messageCount[0];
        }
    }

    @BeforeEach
    void setUp() throws IOException
    {
        driver = EmbeddedMediaDriver.launch("simulator-mold-test");
        final String aeronDir = driver.aeronDirectoryName();
        layout = EmbeddedMediaDriver.defaultLayout(driver);
        group = MoldRelay.randomGroup();
        requestAddress = new InetSocketAddress(MoldRelay.LOOPBACK, MoldRelay.freePort());
        reference = open(join("reference session"));
    }

    /** Starts the md-publisher, whose session opens at once: the sessions open before it miss nothing. */
    private void launchPublisher()
    {
        launchPublisher("SIMTEST");
    }

    /** Starts the md-publisher with that MoldUDP64 Session. */
    private void launchPublisher(final String moldSession)
    {
        publisher = MdPublisherService.launch(new MdPublisherContext()
            .layout(layout)
            .symbolDirectory(SYMBOLS)
            .metricsPort(0)
            .jvmMetrics(false)
            .moldGroup(group.getAddress().getHostAddress())
            .moldPort(group.getPort())
            .moldRequestPort(requestAddress.getPort())
            .moldSession(moldSession)
            .moldHeartbeatIntervalMs(100));
        aeron = Aeron.connect(new Aeron.Context().aeronDirectoryName(layout.aeronDirectoryName()));
        shards = new Publication[]{
            aeron.addPublication(layout.eventChannel(), layout.eventStreamId(0)),
            aeron.addPublication(layout.eventChannel(), layout.eventStreamId(1))};
        awaitTrue(() -> shards[0].isConnected() && shards[1].isConnected());
    }

    @AfterEach
    void tearDown()
    {
        CloseHelper.closeAll(closeables);
        CloseHelper.closeAll(aeron, publisher, driver);
    }

    @Test
    void shouldDetectEachGapAndFillItByReRequestToTheSameBooksAsTheFullStream() throws IOException
    {
        final MoldRelay relay = open(new MoldRelay(group));
        final Feed lossy = open(feed("lossy session", (counters, adapter, replay) -> new MoldSession("lossy session",
            relay.receiver(), MoldRelay.unicast(), requestAddress, adapter, replay, counters,
            SystemNanoClock.INSTANCE)));
        // Two Add Orders, one Add Order, three Order Executed, and the last message, found by the next Heartbeat.
        relay.lose(14, 15, 24, 29, 30, 31, 40);
        launchPublisher();
        final Runnable step = () -> pumpUntil(
            () -> reference.received() == messages && relay.seenUntil() == messages + 1 &&
                lossy.session().isFilled() && lossy.session().nextExpectedSequenceNumber() == relay.forwardedUntil(),
            relay, reference, lossy);

        sendOrderFlow(step);
        relay.forwardHeartbeats(true);
        pumpUntil(() -> lossy.session().nextExpectedSequenceNumber() == messages + 1 && lossy.session().isFilled(),
            relay, lossy);

        assertThat(messages).isEqualTo(40);
        assertBooks(reference);
        assertBooks(lossy);
        assertThat(lossy.received()).isEqualTo(messages);
        assertThat(lossy.session().state()).isEqualTo(MoldUDP64ClientState.SYNCHRONIZED);
        // Each gap is asked for once, from the first lost message up to the end of the packet that showed it (which
        // the client set aside): 14..16, 24..25, 29..32, and 40 shown by a Heartbeat.
        assertThat(counts(lossy.counters())).isEqualTo(Map.of(
            SimulatorCounter.MD_GAPS, 4L, SimulatorCounter.MD_GAP_REQUESTS, 4L, SimulatorCounter.MD_GAP_MESSAGES, 10L,
            SimulatorCounter.MD_INCONSISTENCIES, 0L));
        assertThat(counts(reference.counters())).isEqualTo(Map.of(
            SimulatorCounter.MD_GAPS, 0L, SimulatorCounter.MD_GAP_REQUESTS, 0L, SimulatorCounter.MD_GAP_MESSAGES, 0L,
            SimulatorCounter.MD_INCONSISTENCIES, 0L));
        assertThat(lossy.counters().errors().total()).isZero();
        assertThat(reference.counters().errors().total()).isZero();
    }

    @Test
    void shouldBackfillALateJoinerFromSequenceNumberOneOnTheMarketDataThread() throws IOException
    {
        launchPublisher();
        sendOrderFlow(() -> pumpUntil(() -> reference.received() == messages, reference));
        final Feed late = open(join("late session"));
        final SimulatorCounters agentCounters = new SimulatorCounters();
        final MidnightNanoClock clock = new MidnightNanoClock();
        final MarketDataAgent agent = new MarketDataAgent(List.of(late.session()), null,
            (index) -> late.adapter().isEndOfMessages(), new FeedMeter(agentCounters,
            new LatencyTracker(LatencySummary.register(new PrometheusRegistry(), "test_md_latency_seconds", "test")),
            1, clock.nanosSinceMidnight()), agentCounters, clock, SystemNanoClock.INSTANCE);

        awaitTrue(() ->
        {
            agent.doWork();
            return late.received() == messages && late.session().isFilled();
        });

        assertBooks(late);
        assertThat(late.session().nextExpectedSequenceNumber()).isEqualTo(messages + 1);
        assertThat(late.counters().get(SimulatorCounter.MD_GAPS)).isEqualTo(1);
        assertThat(late.counters().get(SimulatorCounter.MD_GAP_MESSAGES)).isEqualTo(messages);
        assertThat(late.counters().get(SimulatorCounter.MD_GAP_REQUESTS)).isPositive();
        assertThat(agentCounters.errors().total()).isZero();
    }

    @Test
    void shouldJoinTheNextRunsSessionFromSequenceNumberOneAfterTheMdPublishersEndOfSession() throws IOException
    {
        launchPublisher();
        final Feed first = open(join("session"));
        final List<MoldSession> joined = new ArrayList<>(List.of(first.session()));
        final MarketDataAgent.Relogin rejoin = (index) ->
        {
            first.adapter().startSession();
            first.messageCount()[0] = 0;
            final MoldSession session = open(MoldSession.join(
                "session", group, MoldRelay.LOOPBACK, requestAddress, first.adapter(), first.replay(),
                first.counters(), SystemNanoClock.INSTANCE));
            joined.add(session);
            return session;
        };
        final SimulatorCounters agentCounters = new SimulatorCounters();
        final MidnightNanoClock clock = new MidnightNanoClock();
        final MarketDataAgent agent = new MarketDataAgent(List.of(first.session()), rejoin,
            (index) -> first.adapter().isEndOfMessages(), new FeedMeter(agentCounters,
            new LatencyTracker(LatencySummary.register(new PrometheusRegistry(), "test_md_latency_seconds", "test")),
            1, clock.nanosSinceMidnight()), agentCounters, clock, SystemNanoClock.INSTANCE);
        sendOrderFlow(() -> awaitTrue(() -> 0 <= agent.doWork() && first.received() == messages));
        assertBooks(first);

        // The md-publisher stops (End of Session), and its next run is a new session, numbered from 1 again.
        CloseHelper.closeAll(aeron, publisher);
        awaitTrue(() -> 0 <= agent.doWork() && agent.isReloginPending(0));
        launchPublisher("SIMTEST2");
        expectedBooks.forEach(TreeMap::clear);
        messages = OPENING_MESSAGES;
        add(21, Side.BUY, 500, 1_002_100);
        awaitTrue(() -> 0 <= agent.doWork() && agent.isActive(0) && first.received() == messages &&
            joined.getLast().isFilled());

        assertThat(joined).hasSize(2);
        assertThat(joined.getFirst().isActive()).as("the first session, ended by the md-publisher").isFalse();
        assertThat(joined.getLast().nextExpectedSequenceNumber()).isEqualTo(OPENING_MESSAGES + 2);
        assertBooks(first);
        assertThat(first.adapter().isEndOfMessages()).as("the new session's adapter has had none").isFalse();
        assertThat(agentCounters.errors().total())
            .as("the first session ended in order: End of Messages, then End of Session").isZero();
        assertThat(first.counters().get(SimulatorCounter.MD_INCONSISTENCIES)).isZero();
    }

    @Test
    void shouldStampTheReceiveTimeBeforeEachDatagramsRead() throws IOException
    {
        final DatagramChannel downstream = MoldRelay.unicast();
        final Feed feed = unicastFeed(downstream);
        final List<Long> receivedAtStamps = new ArrayList<>();
        try (DatagramChannel sender = MoldRelay.unicast())
        {
            receiveTheFirstTwoMessages(sender, downstream, feed);
            for (int sequenceNumber = 3; sequenceNumber <= 5; sequenceNumber++)
            {
                sender.send(packet("RUN1", sequenceNumber, 1), downstream.getLocalAddress());
            }

            feed.session().poll(() -> receivedAtStamps.add(feed.received()));
        }

        assertThat(feed.received()).isEqualTo(5);
        // One stamp before each datagram's read, and one before the read that found none.
        assertThat(receivedAtStamps).containsExactly(2L, 3L, 4L, 5L);
    }

    /** The md-publisher crashed and runs again (no End of Session): its Heartbeat after one message. */
    @Test
    void shouldEndWhenAHeartbeatOfTheNextRunComesBelowTheNextExpectedMessage() throws IOException
    {
        assertEndsAtTheNextRun(packet("RUN2", 2, 0));
    }

    /**
     * The md-publisher crashed and runs again, and its packet of message 1 is lost: its second, below the next expected
     * message, shows the new run. Before, only a Heartbeat or a packet from Sequence Number 1 did, so its third
     * packet's second message (Sequence Number 4, the next expected one) went into the old run's books.
     */
    @Test
    void shouldEndWhenAPacketOfTheNextRunComesBelowTheNextExpectedMessage() throws IOException
    {
        assertEndsAtTheNextRun(packet("RUN2", 2, 1), packet("RUN2", 3, 2));
    }

    /**
     * The md-publisher crashed early and runs again: its first packet reaches past the next expected message. nassau's
     * client delivers the messages past it before it tells of the packet; before, messages 4 and 5 of the next run went
     * into the old run's books.
     */
    @Test
    void shouldEndWithoutDeliveringAPacketOfTheNextRunThatReachesPastTheNextExpectedMessage() throws IOException
    {
        assertEndsAtTheNextRun(packet("RUN2", 1, 5));
    }

    /**
     * The md-publisher crashed and runs again, and its first packets are lost: the next one shows a gap, which nassau's
     * client asks for under the next run's Session, and the re-request server, the next run's, answers. Before, its
     * messages filled the gap in the old run's books.
     */
    @Test
    void shouldEndWithoutDeliveringAGapFillOfTheNextRun() throws IOException
    {
        try (DatagramChannel requestServer = DatagramChannel.open(StandardProtocolFamily.INET))
        {
            requestServer.bind(requestAddress);
            requestServer.configureBlocking(false);
            final boolean[] answered = new boolean[1];
            assertEndsAtTheNextRun(() ->
            {
                final ByteBuffer request = ByteBuffer.allocate(64);
                final SocketAddress requester = requestServer.receive(request);
                if (null != requester && !answered[0])
                {
                    answered[0] = true;
                    assertThat(request.getLong(10)).as("Request Packet: the first missing message").isEqualTo(4);
                    requestServer.send(packet("RUN2", 4, 2), requester);
                }
            }, packet("RUN2", 6, 1));
        }
    }

    private void assertEndsAtTheNextRun(final ByteBuffer... nextRunPackets) throws IOException
    {
        assertEndsAtTheNextRun(() ->
        {
        }, nextRunPackets);
    }

    /** What the test does at each poll, e.g. answering the session's requests. */
    @FunctionalInterface
    private interface Step
    {
        void run() throws IOException;
    }

    /**
     * Delivers messages 1 to 3 of a run, a Heartbeat of that run among them, then sends packets of the md-publisher's
     * next run: the session must end at them, having delivered none of their messages.
     */
    private void assertEndsAtTheNextRun(final Step step, final ByteBuffer... nextRunPackets) throws IOException
    {
        final DatagramChannel downstream = MoldRelay.unicast();
        final Feed feed = unicastFeed(downstream);
        try (DatagramChannel sender = MoldRelay.unicast())
        {
            receiveTheFirstTwoMessages(sender, downstream, feed);
            sender.send(packet("RUN1", 3, 0), downstream.getLocalAddress());
            sender.send(packet("RUN1", 3, 1), downstream.getLocalAddress());
            pumpUntil(() -> feed.session().nextExpectedSequenceNumber() == 4, feed);
            assertThat(feed.session().isActive()).as("a Heartbeat of its own run").isTrue();

            for (final ByteBuffer packet : nextRunPackets)
            {
                sender.send(packet, downstream.getLocalAddress());
            }
            pumpUntil(() ->
            {
                try
                {
                    step.run();
                }
                catch (final IOException ex)
                {
                    throw new AssertionError(ex);
                }
                return !feed.session().isActive();
            }, feed);
        }

        assertThat(feed.received()).isEqualTo(3);
        assertThat(feed.counters().errors().total()).isZero();
    }

    /**
     * The md-publisher's End of Session comes for a while (MoldUDP64 1.00: "for a short while in place of
     * Heartbeats"). The session reads on until the End of Session packets have stopped for
     * {@link MoldSession#END_OF_SESSION_QUIET_NS}: a join made while the old session still ends would take one of its
     * End of Session packets for a gap of its own and backfill the old session's messages from its request server.
     */
    @Test
    void shouldEndOnceTheEndOfSessionPacketsHaveStopped() throws IOException
    {
        final DatagramChannel downstream = MoldRelay.unicast();
        final Feed feed = unicastFeed(downstream);
        try (DatagramChannel sender = MoldRelay.unicast())
        {
            receiveTheFirstTwoMessages(sender, downstream, feed);
            for (int i = 1; i <= 5; i++)
            {
                sender.send(endOfSession("RUN1", 3), downstream.getLocalAddress());
                final int endOfSessionPackets = i;
                pumpUntil(() -> feed.session().heartbeats() == endOfSessionPackets, feed);
                clock.advance(MoldSession.END_OF_SESSION_QUIET_NS - 1);
                feed.session().poll();
                assertThat(feed.session().isActive()).as("End of Session packet %d still coming", i).isTrue();
            }
            clock.advance(1);
            feed.session().poll();
            assertThat(feed.session().isActive()).as("the End of Session packets stopped").isFalse();
        }

        assertThat(feed.received()).isEqualTo(2);
        assertThat(feed.counters().errors().total()).isZero();
    }

    @Test
    void shouldEndAtTheLatestAFewSecondsAfterTheFirstEndOfSessionShouldThePacketsNeverStop() throws IOException
    {
        final DatagramChannel downstream = MoldRelay.unicast();
        final Feed feed = unicastFeed(downstream);
        try (DatagramChannel sender = MoldRelay.unicast())
        {
            receiveTheFirstTwoMessages(sender, downstream, feed);
            final long step = MoldSession.END_OF_SESSION_QUIET_NS / 2;
            for (long elapsed = 0; elapsed < MoldSession.END_OF_SESSION_MAX_NS; elapsed += step)
            {
                final long endOfSessionPackets = feed.session().heartbeats() + 1;
                sender.send(endOfSession("RUN1", 3), downstream.getLocalAddress());
                pumpUntil(() -> feed.session().heartbeats() == endOfSessionPackets, feed);
                assertThat(feed.session().isActive()).as("%d ns after the first End of Session", elapsed).isTrue();
                clock.advance(step);
            }
            feed.session().poll();
            assertThat(feed.session().isActive()).isFalse();
        }
    }

    /**
     * A session that joins a feed whose first messages the md-publisher no longer keeps asks for them in vain:
     * MoldUDP64 has no answer for that. Once asked for twice, after {@link MoldSession#FILL_TIMEOUT_NS} without a
     * message recovered, the session fails with a reason that says so, rather than wait for ever; one request alone (it
     * or its response may have been lost, and nassau asks again only at the next packet a second later) fails nothing.
     */
    @Test
    void shouldFailAGapAskedForTwiceThatNoResponseFillsForTheFillTimeout() throws Exception
    {
        final DatagramChannel downstream = MoldRelay.unicast();
        final Feed feed = unicastFeed(downstream);
        try (DatagramChannel sender = MoldRelay.unicast())
        {
            sender.send(packet("RUN1", 1_000_001, 1), downstream.getLocalAddress());
            pumpUntil(() -> MoldUDP64ClientState.BACKFILL == feed.session().state(), feed);
            clock.advance(MoldSession.FILL_TIMEOUT_NS);
            feed.session().poll();
            assertThat(feed.session().isActive()).as("asked for once").isTrue();

            Thread.sleep(1_100); // nassau's request timeout, on the wall clock
            sender.send(packet("RUN1", 1_000_002, 1), downstream.getLocalAddress());
            assertThatThrownBy(() -> pumpUntil(() -> false, feed))
                .hasRootCauseInstanceOf(IOException.class)
                .rootCause()
                .hasMessageStartingWith("no message recovered for 10 s of requests from sequence number 1 on");
            assertThat(feed.session().isActive()).isFalse();
        }

        assertThat(feed.received()).isZero();
        assertThat(feed.counters().get(SimulatorCounter.MD_GAP_REQUESTS)).isEqualTo(2);
    }

    /** Sends a packet of Session RUN1 with messages 1 and 2 to the feed's socket, and reads it. */
    private static void receiveTheFirstTwoMessages(
        final DatagramChannel sender, final DatagramChannel downstream, final Feed feed) throws IOException
    {
        sender.send(packet("RUN1", 1, 2), downstream.getLocalAddress());
        pumpUntil(() -> feed.session().nextExpectedSequenceNumber() == 3, feed);
    }

    /** @return a MoldUDP64 End of Session packet of that Session: Message Count 0xFFFF, the next Sequence Number. */
    private static ByteBuffer endOfSession(final String session, final long nextSequenceNumber)
    {
        return ByteBuffer.allocate(20)
            .put(String.format("%-10s", session).getBytes(StandardCharsets.US_ASCII))
            .putLong(nextSequenceNumber)
            .putShort((short)0xFFFF)
            .flip();
    }

    /**
     * @return a MoldUDP64 Downstream Packet of that Session from that Sequence Number, with that many ITCH 5.0 System
     * Events 'O' (a Heartbeat for none).
     */
    private static ByteBuffer packet(final String session, final long sequenceNumber, final int messageCount)
    {
        final ByteBuffer packet = ByteBuffer.allocate(20 + messageCount * 14);
        packet.put(String.format("%-10s", session).getBytes(StandardCharsets.US_ASCII))
            .putLong(sequenceNumber)
            .putShort((short)messageCount);
        for (int i = 0; i < messageCount; i++)
        {
            packet.putShort((short)12).put((byte)'S').putShort((short)0).putShort((short)0)
                .putShort((short)0).putInt(T_SECONDS).put((byte)'O');
        }
        return packet.flip();
    }

    @Test
    void shouldCountATruncatedDatagramAsAnErrorAndKeepReading() throws IOException
    {
        final DatagramChannel downstream = MoldRelay.unicast();
        final Feed feed = unicastFeed(downstream);
        try (DatagramChannel sender = MoldRelay.unicast())
        {
            sender.send(ByteBuffer.wrap(new byte[]{'S', 'I', 'M'}), downstream.getLocalAddress());
        }

        pumpUntil(() -> feed.counters().errors().count(SimulatorError.MALFORMED_MOLD) == 1, feed);

        assertThat(feed.session().isActive()).isTrue();
        assertThat(feed.session().state()).isEqualTo(MoldUDP64ClientState.UNKNOWN);
    }

    /**
     * Adds, executes, cancels and replaces orders on both symbols, one ITCH 5.0 message each, running the step after
     * each so that every message goes out in a packet of its own.
     */
    private void sendOrderFlow(final Runnable step)
    {
        for (int i = 1; i <= 20; i++)
        {
            add(i, 0 == (i / 2) % 2 ? Side.BUY : Side.SELL, 100L * i, 1_000_000 + 100L * i);
            step.run();
        }
        for (int i = 1; i <= 5; i++)
        {
            execute(i, 50);
            step.run();
        }
        for (int i = 6; i <= 10; i++)
        {
            cancel(i, i <= 8 ? 100L * i : 30);
            step.run();
        }
        for (int i = 11; i <= 13; i++)
        {
            replace(i, 100 + i, 40, 1_000_000 + 100L * i + 1);
            step.run();
        }
    }

    private void add(final long orderId, final Side side, final long shares, final long price)
    {
        final int shard = shardOf(orderId);
        offer(shard, engine.orderAdded(T + messages, SYMBOL_NAMES[shard], orderId, side, shares, price, 'Y'));
        expectedBooks.get(shard).put(orderId,
            new OrderBooks.Order(orderId, Side.BUY == side ? 'B' : 'S', shares, price));
    }

    private void execute(final long orderId, final long shares)
    {
        final int shard = shardOf(orderId);
        final OrderBooks.Order order = expectedBooks.get(shard).get(orderId);
        final Side takerSide = 'B' == order.side() ? Side.SELL : Side.BUY;
        offer(shard, engine.orderExecuted(T + messages, SYMBOL_NAMES[shard], ++matchNumber, shares, order.price(),
            takerSide, 1_000 + orderId, orderId, order.shares() - shares));
        leave(shard, order, order.shares() - shares);
    }

    private void cancel(final long orderId, final long shares)
    {
        final int shard = shardOf(orderId);
        final OrderBooks.Order order = expectedBooks.get(shard).get(orderId);
        offer(shard, engine.orderCanceled(T + messages, SYMBOL_NAMES[shard], orderId, shares, order.shares() - shares));
        leave(shard, order, order.shares() - shares);
    }

    private void replace(final long orderId, final long newOrderId, final long shares, final long price)
    {
        final int shard = shardOf(orderId);
        final OrderBooks.Order order = expectedBooks.get(shard).remove(orderId);
        final Side side = 'B' == order.side() ? Side.BUY : Side.SELL;
        offer(shard, engine.orderReplaced(T + messages, SYMBOL_NAMES[shard], orderId, newOrderId, side, shares, price,
            BookUpdate.REPLACED));
        expectedBooks.get(shard).put(newOrderId, new OrderBooks.Order(newOrderId, order.side(), shares, price));
    }

    private void leave(final int shard, final OrderBooks.Order order, final long shares)
    {
        if (0 == shares)
        {
            expectedBooks.get(shard).remove(order.orderReferenceNumber());
        }
        else
        {
            expectedBooks.get(shard).put(order.orderReferenceNumber(),
                new OrderBooks.Order(order.orderReferenceNumber(), order.side(), shares, order.price()));
        }
    }

    private static int shardOf(final long orderId)
    {
        return (int)(orderId % 2 == 1 ? 0 : 1);
    }

    private void offer(final int shard, final int length)
    {
        awaitTrue(() -> shards[shard].offer(engine.buffer, 0, length) > 0);
        messages++;
    }

    private void assertBooks(final Feed feed)
    {
        for (final SymbolDirectory.Entry entry : SYMBOLS.entries())
        {
            assertThat(feed.books().orders(entry.locate()))
                .as(entry.symbol())
                .isEqualTo(List.copyOf(expectedBooks.get(entry.shardId()).values()));
        }
    }

    /** A session reading the Downstream Packets sent to that socket, which it closes. */
    private Feed unicastFeed(final DatagramChannel downstream) throws IOException
    {
        return open(feed("session", (counters, adapter, replay) ->
            new MoldSession("session", downstream, MoldRelay.unicast(), requestAddress, adapter, replay, counters,
                clock)));
    }

    private Feed join(final String name) throws IOException
    {
        return feed(name, (counters, adapter, replay) ->
            MoldSession.join(name, group, MoldRelay.LOOPBACK, requestAddress, adapter, replay, counters,
                SystemNanoClock.INSTANCE));
    }

    /** Opens a session delivering to books of its own, counting into counters of its own. */
    private interface SessionFactory
    {
        MoldSession open(SimulatorCounters counters, MarketDataAdapter adapter, MoldReplay replay) throws IOException;
    }

    private static Feed feed(final String name, final SessionFactory factory) throws IOException
    {
        final SimulatorCounters counters = new SimulatorCounters();
        final FeedAnalytics analytics =
            new FeedAnalytics(SYMBOLS.entries().size(), 60_000_000_000L, 60, counters, new MidnightNanoClock());
        final MoldReplay replay = new MoldReplay(analytics, counters, true);
        final OrderBooks books = new OrderBooks(SYMBOLS.entries().size(), 64, replay);
        final long[] received = new long[1];
        final MarketDataAdapter adapter = new MarketDataAdapter(
            "MoldUDP64 session", SYMBOLS, counters, books, replay, (messageType, timestampNs) -> received[0]++);
        return new Feed(factory.open(counters, adapter, replay), books, counters, received, adapter, replay);
    }

    private static Map<SimulatorCounter, Long> counts(final SimulatorCounters counters)
    {
        return Map.of(
            SimulatorCounter.MD_GAPS, counters.get(SimulatorCounter.MD_GAPS),
            SimulatorCounter.MD_GAP_REQUESTS, counters.get(SimulatorCounter.MD_GAP_REQUESTS),
            SimulatorCounter.MD_GAP_MESSAGES, counters.get(SimulatorCounter.MD_GAP_MESSAGES),
            SimulatorCounter.MD_INCONSISTENCIES, counters.get(SimulatorCounter.MD_INCONSISTENCIES));
    }

    private static void pumpUntil(final BooleanSupplier done, final MoldRelay relay, final Feed... feeds)
    {
        awaitTrue(() ->
        {
            try
            {
                relay.relay();
            }
            catch (final IOException ex)
            {
                throw new AssertionError(ex);
            }
            return poll(feeds) && done.getAsBoolean();
        });
    }

    private static void pumpUntil(final BooleanSupplier done, final Feed... feeds)
    {
        awaitTrue(() -> poll(feeds) && done.getAsBoolean());
    }

    private static boolean poll(final Feed... feeds)
    {
        try
        {
            for (final Feed feed : feeds)
            {
                feed.session().poll();
            }
            return true;
        }
        catch (final IOException ex)
        {
            throw new AssertionError(ex);
        }
    }

    private <C extends AutoCloseable> C open(final C closeable)
    {
        closeables.add(closeable);
        return closeable;
    }

    private Feed open(final Feed feed)
    {
        open(feed.session());
        return feed;
    }
}
