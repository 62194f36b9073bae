package io.bourse.engine;

import io.aeron.Aeron;
import io.aeron.Publication;
import io.aeron.Subscription;
import io.aeron.driver.MediaDriver;
import io.aeron.driver.ThreadingMode;
import io.bourse.common.aeron.StreamLayout;
import io.bourse.common.config.SymbolDirectory;
import io.bourse.common.config.Symbols;
import io.bourse.sbe.engine.MessageHeaderDecoder;
import io.bourse.sbe.engine.MessageHeaderEncoder;
import io.bourse.sbe.engine.NewOrderEncoder;
import io.bourse.sbe.engine.OrderAcceptedDecoder;
import io.bourse.sbe.engine.OrderAddedDecoder;
import io.bourse.sbe.engine.OrderExecutedDecoder;
import io.bourse.sbe.engine.OrderRejectedDecoder;
import io.bourse.sbe.engine.Side;
import org.agrona.CloseHelper;
import org.agrona.concurrent.SleepingMillisIdleStrategy;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Drives a real shard through a real embedded media driver: SBE commands in, SBE events out. */
@Timeout(30)
class EngineServiceTest
{
    private static final long PRICE = 1_000_000;

    private MediaDriver driver;
    private EngineService engine;
    private Aeron aeron;
    private StreamLayout layout;

    private record Event(long sequenceNumber, String text)
    {
    }

    @BeforeEach
    void setUp()
    {
        launch("aeron:ipc");
    }

    private void launch(final String eventChannel)
    {
        CloseHelper.closeAll(aeron, engine, driver);
        final String dir = System.getProperty("java.io.tmpdir") + "/aeron-engine-test-" + System.nanoTime();
        driver = MediaDriver.launchEmbedded(new MediaDriver.Context()
            .aeronDirectoryName(dir)
            .threadingMode(ThreadingMode.SHARED)
            .dirDeleteOnStart(true)
            .dirDeleteOnShutdown(true));
        layout = new StreamLayout(
            driver.aeronDirectoryName(), "aeron:ipc", 1000, eventChannel, 2000, "aeron:ipc", 3000);
        engine = EngineService.launch(new EngineContext()
            .shardId(1)
            .metricsPort(0)
            .jvmMetrics(false)
            .streamLayout(layout)
            .symbolDirectory(SymbolDirectory.parse("AAPL@1,MSFT@0"))
            .idleStrategy(new SleepingMillisIdleStrategy(1)));
        aeron = Aeron.connect(new Aeron.Context().aeronDirectoryName(driver.aeronDirectoryName()));
    }

    @AfterEach
    void tearDown()
    {
        CloseHelper.closeAll(aeron, engine, driver);
    }

    @Test
    void shouldPublishSequencedEventsWhenOrdersCross()
    {
        final Subscription events = aeron.addSubscription(layout.eventChannel(), layout.eventStreamId(1));
        final Publication commands = aeron.addExclusivePublication(layout.commandChannel(), layout.commandStreamId(1));
        while (!commands.isConnected() || !events.isConnected())
        {
            Thread.onSpinWait();
        }

        send(commands, 11, "AAPL", Side.BUY, 100, 777);
        send(commands, 12, "AAPL", Side.SELL, 60, 778);
        send(commands, 13, "MSFT", Side.SELL, 60, 779);

        final List<Event> received = new ArrayList<>();
        final MessageHeaderDecoder header = new MessageHeaderDecoder();
        final OrderAcceptedDecoder accepted = new OrderAcceptedDecoder();
        final OrderAddedDecoder added = new OrderAddedDecoder();
        final OrderExecutedDecoder executed = new OrderExecutedDecoder();
        final OrderRejectedDecoder rejected = new OrderRejectedDecoder();
        final long deadlineNs = System.nanoTime() + 10_000_000_000L;
        while (received.size() < 5 && System.nanoTime() < deadlineNs)
        {
            events.poll((buffer, offset, length, frameHeader) ->
            {
                header.wrap(buffer, offset);
                assertThat(header.schemaId()).isEqualTo(MessageHeaderDecoder.SCHEMA_ID);
                final int body = offset + MessageHeaderDecoder.ENCODED_LENGTH;
                switch (header.templateId())
                {
                    case OrderAcceptedDecoder.TEMPLATE_ID ->
                    {
                        accepted.wrap(buffer, body, header.blockLength(), header.version());
                        received.add(new Event(accepted.sequenceNumber(), "accepted " + accepted.clientOrderId() +
                            " " + accepted.symbol().trim() + " " + accepted.side() + " " + accepted.quantity() +
                            "@" + accepted.price() + " t=" + accepted.timestampNs()));
                    }
                    case OrderAddedDecoder.TEMPLATE_ID ->
                    {
                        added.wrap(buffer, body, header.blockLength(), header.version());
                        received.add(new Event(added.sequenceNumber(), "added " + added.side() + " " +
                            added.quantity() + "@" + added.price()));
                    }
                    case OrderExecutedDecoder.TEMPLATE_ID ->
                    {
                        executed.wrap(buffer, body, header.blockLength(), header.version());
                        received.add(new Event(executed.sequenceNumber(), "executed " + executed.quantity() + "@" +
                            executed.price() + " taker " + executed.takerClientOrderId() + " maker " +
                            executed.makerClientOrderId() + " match " + executed.matchNumber() + " t=" +
                            executed.timestampNs()));
                    }
                    case OrderRejectedDecoder.TEMPLATE_ID ->
                    {
                        rejected.wrap(buffer, body, header.blockLength(), header.version());
                        received.add(new Event(rejected.sequenceNumber(), "rejected " + rejected.clientOrderId() +
                            " " + (char)rejected.reason()));
                    }
                    default -> received.add(new Event(-1, "unexpected template " + header.templateId()));
                }
            }, 10);
            Thread.onSpinWait();
        }

        assertThat(received).containsExactly(
            new Event(1, "accepted 11 AAPL BUY 100@" + PRICE + " t=777"),
            new Event(2, "added BUY 100@" + PRICE),
            new Event(3, "accepted 12 AAPL SELL 60@" + PRICE + " t=778"),
            new Event(4, "executed 60@" + PRICE + " taker 12 maker 11 match " + ((1 << 4) | 1) + " t=778"),
            new Event(5, "rejected 13 S"));
    }

    @Test
    void shouldHoldEventsAndStopTakingCommandsWhenTheEventStreamIsFullThenLoseNothing()
    {
        launch("aeron:ipc?term-length=65536");
        final Subscription events = aeron.addSubscription(layout.eventChannel(), layout.eventStreamId(1));
        final Publication commands = aeron.addExclusivePublication(layout.commandChannel(), layout.commandStreamId(1));
        while (!commands.isConnected() || !events.isConnected())
        {
            Thread.onSpinWait();
        }

        // 3,000 resting orders make 6,000 events, several times the 32 KiB window of a 64 KiB term: the engine
        // must hold what the stream refuses and stop taking commands until the subscriber reads again.
        final int orders = 3_000;
        for (int i = 1; i <= orders; i++)
        {
            send(commands, i, "AAPL", i % 2 == 0 ? Side.BUY : Side.SELL, 1, PRICE + (i % 2 == 0 ? -i : i), i);
        }

        final long[] expectedSequence = {1};
        final int[] received = {0};
        final long deadlineNs = System.nanoTime() + 20_000_000_000L;
        while (received[0] < 2 * orders && System.nanoTime() < deadlineNs)
        {
            if (0 == events.poll((buffer, offset, length, frameHeader) ->
            {
                // every engine event starts with its sequence number, right after the SBE header
                assertThat(buffer.getLong(offset + MessageHeaderDecoder.ENCODED_LENGTH, ByteOrder.LITTLE_ENDIAN))
                    .isEqualTo(expectedSequence[0]++);
                received[0]++;
            }, 100))
            {
                Thread.onSpinWait();
            }
        }

        assertThat(received[0]).isEqualTo(2 * orders);
    }

    private static void send(
        final Publication publication, final long clientOrderId, final String symbol, final Side side,
        final long quantity, final long timestampNs)
    {
        send(publication, clientOrderId, symbol, side, quantity, PRICE, timestampNs);
    }

    private static void send(
        final Publication publication, final long clientOrderId, final String symbol, final Side side,
        final long quantity, final long price, final long timestampNs)
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(ByteBuffer.allocate(128));
        final NewOrderEncoder encoder = new NewOrderEncoder().wrapAndApplyHeader(buffer, 0, new MessageHeaderEncoder())
            .timestampNs(timestampNs)
            .clientOrderId(clientOrderId)
            .symbol(String.format("%-8s", symbol))
            .side(side)
            .quantity(quantity)
            .price(price)
            .timeInForce(99_998)
            .firm("DEMO");
        while (publication.offer(buffer, 0, MessageHeaderEncoder.ENCODED_LENGTH + encoder.encodedLength()) < 0)
        {
            Thread.yield();
        }
    }
}
