package io.bourse.mdpublisher;

import io.aeron.Aeron;
import io.aeron.CommonContext;
import io.aeron.Publication;
import io.aeron.Subscription;
import io.aeron.driver.MediaDriver;
import io.aeron.driver.ThreadingMode;
import io.bourse.common.aeron.StreamLayout;
import io.bourse.common.config.Settings;
import io.bourse.common.config.SymbolDirectory;
import io.bourse.common.config.Symbols;
import io.bourse.sbe.engine.MessageHeaderEncoder;
import io.bourse.sbe.engine.OrderAcceptedEncoder;
import io.bourse.sbe.engine.OrderAddedEncoder;
import io.bourse.sbe.engine.OrderExecutedEncoder;
import io.bourse.sbe.engine.TradeBrokenEncoder;
import org.agrona.CloseHelper;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.util.Map;
import java.util.UUID;
import java.util.function.BooleanSupplier;

import static io.bourse.mdpublisher.MarketDataCapture.Sequenced;
import static io.bourse.mdpublisher.MarketDataEvents.AddOrder;
import static io.bourse.mdpublisher.MarketDataEvents.Bbo;
import static io.bourse.mdpublisher.MarketDataEvents.Broken;
import static io.bourse.mdpublisher.MarketDataEvents.Executed;
import static io.bourse.mdpublisher.MarketDataEvents.Level;
import static io.bourse.mdpublisher.MarketDataEvents.Trade;
import static org.assertj.core.api.Assertions.assertThat;

@Timeout(30)
class MdPublisherServiceTest
{
    private static final long T1 = 34_200_000_000_000L;

    private final UnsafeBuffer buffer = new UnsafeBuffer(ByteBuffer.allocateDirect(256));
    private final MessageHeaderEncoder header = new MessageHeaderEncoder();
    private final MarketDataCapture capture = new MarketDataCapture();
    private MediaDriver driver;
    private MdPublisherService service;
    private Aeron aeron;
    private Publication shard0;
    private Publication shard1;
    private Subscription marketData;

    @BeforeEach
    void setUp()
    {
        final String aeronDir = CommonContext.getAeronDirectoryName() + "-md-test-" + UUID.randomUUID();
        driver = MediaDriver.launchEmbedded(new MediaDriver.Context()
            .aeronDirectoryName(aeronDir)
            .threadingMode(ThreadingMode.SHARED)
            .dirDeleteOnStart(true)
            .dirDeleteOnShutdown(true));
        final StreamLayout layout = StreamLayout.fromSettings(new Settings(Map.of())).withAeronDirectory(aeronDir);
        service = MdPublisherService.launch(new MdPublisherContext()
            .layout(layout)
            .symbolDirectory(SymbolDirectory.parse("AAPL@0,MSFT@1"))
            .metricsPort(0)
            .jvmMetrics(false));

        aeron = Aeron.connect(new Aeron.Context().aeronDirectoryName(aeronDir));
        shard0 = aeron.addPublication(layout.eventChannel(), layout.eventStreamId(0));
        shard1 = aeron.addPublication(layout.eventChannel(), layout.eventStreamId(1));
        marketData = aeron.addSubscription(layout.marketDataChannel(), layout.marketDataStreamId());
        awaitTrue(() -> shard0.isConnected() && shard1.isConnected() && marketData.isConnected());
    }

    @AfterEach
    void tearDown()
    {
        CloseHelper.closeAll(aeron, service, driver);
    }

    @Test
    void shouldPublishMarketDataOfEveryShardWithOneFeedSequence() throws Exception
    {
        accepted(shard0, T1, 17, "AAPL");
        added(shard0, T1, 17, "AAPL", io.bourse.sbe.engine.Side.SELL, 300, 1_500_100, (byte)'Y');
        awaitMessages(3);
        added(shard1, T1 + 10, 18, "MSFT", io.bourse.sbe.engine.Side.BUY, 100, 4_000_000, (byte)'A');
        awaitMessages(6);
        executed(shard0, T1 + 20, 33, "AAPL", 100, 1_500_100, io.bourse.sbe.engine.Side.BUY, 17, 200);
        awaitMessages(10);
        added(shard1, T1 + 30, 34, "MSFT", io.bourse.sbe.engine.Side.SELL, 100, 4_000_100, (byte)'N');
        executed(shard1, T1 + 40, 50, "MSFT", 100, 4_000_100, io.bourse.sbe.engine.Side.BUY, 34, 0);
        awaitMessages(11);
        tradeBroken(shard0, T1 + 50, 33, "AAPL");
        awaitMessages(12);

        assertThat(capture.messages).containsExactly(
            new Sequenced(1, new AddOrder(T1, "AAPL", 17, Side.SELL, 300, 1_500_100)),
            new Sequenced(2, new Level(T1, "AAPL", Side.SELL, 1_500_100, 300, 1)),
            new Sequenced(3, new Bbo(T1, "AAPL", 0, 0, 1_500_100, 300)),
            new Sequenced(4, new AddOrder(T1 + 10, "MSFT", 18, Side.BUY, 100, 4_000_000)),
            new Sequenced(5, new Level(T1 + 10, "MSFT", Side.BUY, 4_000_000, 100, 1)),
            new Sequenced(6, new Bbo(T1 + 10, "MSFT", 4_000_000, 100, 0, 0)),
            new Sequenced(7, new Executed(T1 + 20, "AAPL", 17, 100, 33, 1_500_100)),
            new Sequenced(8, new Trade(T1 + 20, "AAPL", 33, Side.BUY, 100, 1_500_100, true)),
            new Sequenced(9, new Level(T1 + 20, "AAPL", Side.SELL, 1_500_100, 200, 1)),
            new Sequenced(10, new Bbo(T1 + 20, "AAPL", 0, 0, 1_500_100, 200)),
            new Sequenced(11, new Trade(T1 + 40, "MSFT", 50, Side.BUY, 100, 4_000_100, false)),
            new Sequenced(12, new Broken(T1 + 50, "AAPL", 33)));

        final String metrics = HttpClient.newHttpClient().send(
            HttpRequest.newBuilder(URI.create("http://localhost:" + service.metricsPort() + "/metrics")).build(),
            HttpResponse.BodyHandlers.ofString()).body();
        assertThat(metrics)
            .contains("bourse_md_events_in_total{type=\"accepted\"} 1.0\n")
            .contains("bourse_md_events_in_total{type=\"added\"} 3.0\n")
            .contains("bourse_md_events_in_total{type=\"executed\"} 2.0\n")
            .contains("bourse_md_messages_out_total{type=\"best_bid_offer\"} 3.0\n")
            .contains("bourse_md_errors_total 0.0\n")
            .contains("bourse_md_events_in_total{type=\"trade_broken\"} 1.0\n")
            .contains("bourse_md_messages_out_total{type=\"broken_trade\"} 1.0\n")
            .contains("bourse_md_publish_latency_seconds_count 12\n");
    }

    private void accepted(
        final Publication publication, final long timestampNs, final long orderId, final String symbol)
    {
        final OrderAcceptedEncoder encoder = new OrderAcceptedEncoder().wrapAndApplyHeader(buffer, 0, header)
            .sequenceNumber(1)
            .timestampNs(timestampNs)
            .clientOrderId(1)
            .orderId(orderId)
            .side(io.bourse.sbe.engine.Side.SELL)
            .quantity(300)
            .price(1_500_100)
            .timeInForce(99_998)
            .display((byte)'Y');
        Symbols.unpack(Symbols.pack(symbol), buffer, MessageHeaderEncoder.ENCODED_LENGTH +
            OrderAcceptedEncoder.symbolEncodingOffset());
        offer(publication, encoder.encodedLength());
    }

    private void added(
        final Publication publication, final long timestampNs, final long orderId, final String symbol,
        final io.bourse.sbe.engine.Side side, final long quantity, final long price, final byte display)
    {
        final OrderAddedEncoder encoder = new OrderAddedEncoder().wrapAndApplyHeader(buffer, 0, header)
            .sequenceNumber(2)
            .timestampNs(timestampNs)
            .orderId(orderId)
            .side(side)
            .quantity(quantity)
            .price(price)
            .display(display);
        Symbols.unpack(Symbols.pack(symbol), buffer, MessageHeaderEncoder.ENCODED_LENGTH +
            OrderAddedEncoder.symbolEncodingOffset());
        offer(publication, encoder.encodedLength());
    }

    private void executed(
        final Publication publication, final long timestampNs, final long matchNumber, final String symbol,
        final long quantity, final long price, final io.bourse.sbe.engine.Side takerSide, final long makerOrderId,
        final long makerLeaves)
    {
        final OrderExecutedEncoder encoder = new OrderExecutedEncoder().wrapAndApplyHeader(buffer, 0, header)
            .sequenceNumber(3)
            .timestampNs(timestampNs)
            .matchNumber(matchNumber)
            .quantity(quantity)
            .price(price)
            .takerClientOrderId(2)
            .takerOrderId(49)
            .takerSide(takerSide)
            .makerClientOrderId(1)
            .makerOrderId(makerOrderId)
            .makerLeavesQuantity(makerLeaves)
            .takerLeavesQuantity(0);
        Symbols.unpack(Symbols.pack(symbol), buffer, MessageHeaderEncoder.ENCODED_LENGTH +
            OrderExecutedEncoder.symbolEncodingOffset());
        offer(publication, encoder.encodedLength());
    }

    private void tradeBroken(
        final Publication publication, final long timestampNs, final long matchNumber, final String symbol)
    {
        final TradeBrokenEncoder encoder = new TradeBrokenEncoder().wrapAndApplyHeader(buffer, 0, header)
            .sequenceNumber(4)
            .timestampNs(timestampNs)
            .matchNumber(matchNumber)
            .quantity(100)
            .price(1_500_100)
            .takerClientOrderId(2)
            .makerClientOrderId(1)
            .takerOrderId(49)
            .makerOrderId(17)
            .reason((byte)'S');
        Symbols.unpack(Symbols.pack(symbol), buffer, MessageHeaderEncoder.ENCODED_LENGTH +
            TradeBrokenEncoder.symbolEncodingOffset());
        offer(publication, encoder.encodedLength());
    }

    private void offer(final Publication publication, final int bodyLength)
    {
        final int length = MessageHeaderEncoder.ENCODED_LENGTH + bodyLength;
        awaitTrue(() -> publication.offer(buffer, 0, length) > 0);
    }

    private void awaitMessages(final int count)
    {
        awaitTrue(() ->
        {
            marketData.poll(capture, 10);
            return capture.messages.size() >= count;
        });
    }

    private static void awaitTrue(final BooleanSupplier condition)
    {
        while (!condition.getAsBoolean())
        {
            Thread.onSpinWait();
            Thread.yield();
        }
    }
}
