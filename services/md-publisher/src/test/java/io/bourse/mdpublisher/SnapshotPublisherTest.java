package io.bourse.mdpublisher;

import io.aeron.Aeron;
import io.aeron.Publication;
import io.aeron.Subscription;
import io.aeron.driver.MediaDriver;
import io.aeron.logbuffer.Header;
import io.bourse.common.aeron.EmbeddedMediaDriver;
import io.bourse.common.aeron.StreamLayout;
import io.bourse.common.config.SymbolDirectory;
import io.bourse.common.metrics.MetricsEndpoint;
import io.bourse.sbe.engine.BookUpdate;
import io.bourse.sbe.engine.TradingState;
import io.bourse.sbe.md.BookSnapshotDecoder;
import io.bourse.sbe.md.MessageHeaderDecoder;
import io.bourse.sbe.md.MessageHeaderEncoder;
import io.bourse.sbe.md.SnapshotCompleteDecoder;
import io.bourse.sbe.md.SnapshotRequestEncoder;
import org.agrona.CloseHelper;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static io.bourse.common.Await.awaitTrue;
import static io.bourse.sbe.engine.Side.BUY;
import static io.bourse.sbe.engine.Side.SELL;
import static org.assertj.core.api.Assertions.assertThat;

/** The md-publisher's answer to SnapshotRequest, read from the market-data stream of a running service. */
@Timeout(30)
class SnapshotPublisherTest
{
    private static final long T1 = 34_200_000_000_000L;

    private final EngineEventEncoder engine = new EngineEventEncoder();
    private final UnsafeBuffer requestBuffer = new UnsafeBuffer(ByteBuffer.allocateDirect(64));
    private final MessageHeaderDecoder header = new MessageHeaderDecoder();
    private final BookSnapshotDecoder bookSnapshot = new BookSnapshotDecoder();
    private final SnapshotCompleteDecoder snapshotComplete = new SnapshotCompleteDecoder();
    /** Sequence number of the last increment read. */
    private long lastIncrement;
    /** The snapshot messages read, one line each, and every order one line. */
    private final List<String> snapshot = new ArrayList<>();
    private MediaDriver driver;
    private MdPublisherService service;
    private Aeron aeron;
    private Publication shard0;
    private Publication requests;
    private Subscription marketData;

    @BeforeEach
    void setUp()
    {
        driver = EmbeddedMediaDriver.launch("md-snapshot-test");
        final StreamLayout layout = EmbeddedMediaDriver.defaultLayout(driver);
        service = MdPublisherService.launch(new MdPublisherContext()
            .layout(layout)
            .symbolDirectory(SymbolDirectory.parse("AAPL@0,MSFT@0"))
            .metricsPort(0)
            .jvmMetrics(false)
            .moldEnabled(false));
        aeron = Aeron.connect(new Aeron.Context().aeronDirectoryName(driver.aeronDirectoryName()));
        shard0 = aeron.addPublication(layout.eventChannel(), layout.eventStreamId(0));
        requests = aeron.addPublication(layout.snapshotRequestChannel(), layout.snapshotRequestStreamId());
        marketData = aeron.addSubscription(layout.marketDataChannel(), layout.marketDataStreamId());
        awaitTrue(() -> shard0.isConnected() && requests.isConnected() && marketData.isConnected());
    }

    @AfterEach
    void tearDown()
    {
        CloseHelper.closeAll(aeron, service, driver);
    }

    @Test
    void shouldAnswerWithEveryBookInPriorityOrderStandingAfterTheLastIncrement() throws Exception
    {
        // Orders 1 and 3 attributable (shown with their firm), order 4 anonymous whatever its firm.
        offer(engine.orderAdded(T1, "AAPL", 1, BUY, 100, 1_000_000, 'A', "ABCD"));
        offer(engine.orderAdded(T1 + 1, "AAPL", 2, BUY, 200, 1_000_000, 'Y'));
        offer(engine.orderAdded(T1 + 2, "AAPL", 3, BUY, 300, 1_010_000, 'A', "GSCO"));
        offer(engine.orderAdded(T1 + 3, "AAPL", 4, SELL, 100, 1_030_000, 'Y', "GSCO"));
        offer(engine.orderAdded(T1 + 4, "AAPL", 5, SELL, 50, 1_020_000, 'Y'));
        offer(engine.orderAdded(T1 + 5, "AAPL", 7, SELL, 500, 1_020_000, 'N'));
        // Order 1 loses its priority to order 2; order 2 keeps its own through a partial cancel.
        offer(engine.orderReplaced(T1 + 6, "AAPL", 1, 6, BUY, 150, 1_000_000, BookUpdate.REPLACED));
        offer(engine.orderCanceled(T1 + 7, "AAPL", 2, 50, 150));
        offer(engine.tradingStateChanged(T1 + 8, "MSFT", TradingState.HALTED));

        requestSnapshot(42);

        awaitSnapshot(2);
        assertThat(lastIncrement).isEqualTo(20);
        assertThat(snapshot.get(0)).matches("BookSnapshot 42 #0 AAPL after 20 at \\d+: T '    ' since 0");
        assertThat(snapshot.subList(1, 6)).containsExactly(
            "  3 B 300 @ 1010000 t " + (T1 + 2) + " by 'GSCO'",
            "  2 B 150 @ 1000000 t " + (T1 + 1) + " by '    '",
            "  6 B 150 @ 1000000 t " + (T1 + 6) + " by 'ABCD'",
            "  5 S 50 @ 1020000 t " + (T1 + 4) + " by '    '",
            "  4 S 100 @ 1030000 t " + (T1 + 3) + " by '    '");
        assertThat(snapshot.get(6)).matches("BookSnapshot 42 #1 MSFT after 20 at \\d+: H 'O1  ' since " + (T1 + 8));
        assertThat(snapshot.get(7)).isEqualTo("SnapshotComplete 42 after 20: 2 messages");
        assertThat(scrapeMetrics())
            .contains("bourse_md_snapshots_total 1.0\n")
            .contains("bourse_md_errors_total 0.0\n");
    }

    @Test
    void shouldSplitALargeBookAcrossMessagesThatEachFitOneFrame()
    {
        final int orderCount = 100;
        for (int orderId = 1; orderId <= orderCount; orderId++)
        {
            offer(engine.orderAdded(T1 + orderId, "AAPL", orderId, SELL, orderId, 1_000_000, 'Y'));
        }

        requestSnapshot(7);

        awaitTrue(() ->
        {
            marketData.poll(this::onFragment, 100);
            return !snapshot.isEmpty() && snapshot.getLast().startsWith("SnapshotComplete");
        });
        final List<String> headers = snapshot.stream().filter((line) -> line.startsWith("BookSnapshot")).toList();
        final int aaplMessages = (orderCount + ordersPerFrame() - 1) / ordersPerFrame();
        assertThat(headers).hasSize(aaplMessages + 1);
        for (int i = 0; i < aaplMessages; i++)
        {
            assertThat(headers.get(i)).startsWith("BookSnapshot 7 #" + i + " AAPL after " + 3 * orderCount);
        }
        assertThat(headers.getLast()).startsWith("BookSnapshot 7 #" + aaplMessages + " MSFT");
        final List<String> expectedOrders = new ArrayList<>();
        for (int orderId = 1; orderId <= orderCount; orderId++)
        {
            expectedOrders.add("  " + orderId + " S " + orderId + " @ 1000000 t " + (T1 + orderId) + " by '    '");
        }
        assertThat(snapshot.stream().filter((line) -> line.startsWith("  ")).toList())
            .containsExactlyElementsOf(expectedOrders);
        assertThat(snapshot.getLast()).isEqualTo(
            "SnapshotComplete 7 after " + 3 * orderCount + ": " + (aaplMessages + 1) + " messages");
    }

    @Test
    void shouldCountARequestOfAnotherTemplateAsAnErrorAndStillAnswerTheNext() throws Exception
    {
        new MessageHeaderEncoder().wrap(requestBuffer, 0).blockLength(8).templateId(99)
            .schemaId(SnapshotRequestEncoder.SCHEMA_ID).version(SnapshotRequestEncoder.SCHEMA_VERSION);
        awaitTrue(() -> requests.offer(requestBuffer, 0, MessageHeaderEncoder.ENCODED_LENGTH + 8) > 0);
        requestSnapshot(8);

        awaitSnapshot(2);
        assertThat(snapshot.getLast()).isEqualTo("SnapshotComplete 8 after 0: 2 messages");
        assertThat(scrapeMetrics()).contains("bourse_md_errors_total 1.0\n");
    }

    /** @return orders in one BookSnapshot that fills a frame of the market-data publication. */
    private int ordersPerFrame()
    {
        final int frame = aeron.addExclusivePublication(
            EmbeddedMediaDriver.defaultLayout(driver).marketDataChannel(), 1).maxPayloadLength();
        return (frame - MessageHeaderDecoder.ENCODED_LENGTH - BookSnapshotDecoder.BLOCK_LENGTH - 4) /
            BookSnapshotDecoder.OrdersDecoder.sbeBlockLength();
    }

    private void requestSnapshot(final long requestId)
    {
        final int length = MessageHeaderEncoder.ENCODED_LENGTH + new SnapshotRequestEncoder()
            .wrapAndApplyHeader(requestBuffer, 0, new MessageHeaderEncoder())
            .requestId(requestId)
            .encodedLength();
        awaitTrue(() -> requests.offer(requestBuffer, 0, length) > 0);
    }

    private void awaitSnapshot(final int messageCount)
    {
        awaitTrue(() ->
        {
            marketData.poll(this::onFragment, 100);
            return snapshot.stream().filter((line) -> line.startsWith("BookSnapshot")).count() == messageCount &&
                snapshot.getLast().startsWith("SnapshotComplete");
        });
    }

    private void onFragment(final DirectBuffer buffer, final int offset, final int length, final Header aeronHeader)
    {
        header.wrap(buffer, offset);
        switch (header.templateId())
        {
            case BookSnapshotDecoder.TEMPLATE_ID ->
            {
                bookSnapshot.wrapAndApplyHeader(buffer, offset, header);
                final String reason = new String(new byte[]{
                    bookSnapshot.reason(0), bookSnapshot.reason(1), bookSnapshot.reason(2), bookSnapshot.reason(3)},
                    StandardCharsets.US_ASCII);
                snapshot.add("BookSnapshot " + bookSnapshot.snapshotId() + " #" + bookSnapshot.messageIndex() + " " +
                    bookSnapshot.symbol().trim() + " after " + bookSnapshot.sequenceNumber() + " at " +
                    bookSnapshot.timestampNs() + ": " + (char)bookSnapshot.tradingStateRaw() + " '" + reason +
                    "' since " + bookSnapshot.tradingStateTimestampNs());
                for (final BookSnapshotDecoder.OrdersDecoder order : bookSnapshot.orders())
                {
                    snapshot.add("  " + order.orderId() + " " + (char)order.sideRaw() + " " + order.quantity() +
                        " @ " + order.price() + " t " + order.timestampNs() + " by '" + order.attribution() + "'");
                }
            }
            case SnapshotCompleteDecoder.TEMPLATE_ID ->
            {
                snapshotComplete.wrapAndApplyHeader(buffer, offset, header);
                snapshot.add("SnapshotComplete " + snapshotComplete.snapshotId() + " after " +
                    snapshotComplete.sequenceNumber() + ": " + snapshotComplete.messageCount() + " messages");
            }
            default -> lastIncrement = buffer.getLong(
                offset + MessageHeaderDecoder.ENCODED_LENGTH, ByteOrder.LITTLE_ENDIAN);
        }
    }

    private void offer(final int length)
    {
        awaitTrue(() -> shard0.offer(engine.buffer, 0, length) > 0);
    }

    private String scrapeMetrics() throws Exception
    {
        return MetricsEndpoint.scrape(service.metricsPort());
    }
}
