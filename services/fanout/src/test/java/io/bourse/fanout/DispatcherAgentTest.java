package io.bourse.fanout;

import io.bourse.common.config.SymbolDirectory;
import io.bourse.itch.ItchReferenceData;
import io.bourse.itch.ItchTranslator;
import io.bourse.itch.MarketDataEncoder;
import io.bourse.sbe.md.Side;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import org.agrona.concurrent.ManyToOneConcurrentArrayQueue;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.ringbuffer.OneToOneRingBuffer;
import org.agrona.concurrent.ringbuffer.RingBuffer;
import org.agrona.concurrent.ringbuffer.RingBufferDescriptor;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

class DispatcherAgentTest
{
    private static final int RING_CAPACITY = 1024;
    private static final SymbolDirectory SYMBOLS = SymbolDirectory.parse("AAPL@0");

    private final MarketDataEncoder encoder = new MarketDataEncoder();
    private final RingBuffer slowWorker = ring();
    private final RingBuffer fastWorker = ring();
    private final DispatcherAgent dispatcher = new DispatcherAgent(
        null, new ItchTranslator(SYMBOLS), new ItchBook(new ItchReferenceData(SYMBOLS), 0),
        new RingBuffer[]{slowWorker, fastWorker},
        new ManyToOneConcurrentArrayQueue<>(4), 16, 10, new FanoutMetrics(new PrometheusRegistry(), new AtomicLong()),
        new AtomicLong());

    private static RingBuffer ring()
    {
        return new OneToOneRingBuffer(
            new UnsafeBuffer(ByteBuffer.allocateDirect(RING_CAPACITY + RingBufferDescriptor.TRAILER_LENGTH)));
    }

    private void publishAddOrder(final long orderId)
    {
        final int length = encoder.addOrder(orderId, 1_000, "AAPL", orderId, Side.BUY, 100, 1_000_000);
        dispatcher.onFragment(encoder.buffer, 0, length, null);
    }

    private static List<String> drain(final RingBuffer ring)
    {
        final List<String> records = new ArrayList<>();
        int read;
        do
        {
            // One read stops at the end of the buffer; a wrapped ring needs a second.
            read = ring.read((msgTypeId, buffer, index, length) -> records.add(
                msgTypeId == DispatcherAgent.DATA_LOST_MSG_TYPE_ID ? "data-lost" :
                "itch " + (char)buffer.getByte(index + DispatcherAgent.ITCH_OFFSET)), Integer.MAX_VALUE);
        }
        while (read > 0);
        return records;
    }

    @Test
    void shouldMarkTheGapBeforeTheNextMessageWhenAWorkerRingOverflowed()
    {
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
}
