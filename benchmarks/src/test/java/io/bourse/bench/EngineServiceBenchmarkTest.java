package io.bourse.bench;

import io.aeron.Aeron;
import io.aeron.ExclusivePublication;
import io.aeron.Subscription;
import io.aeron.driver.MediaDriver;
import io.aeron.driver.ThreadingMode;
import io.bourse.common.aeron.StreamLayout;
import io.bourse.engine.EngineService;
import io.bourse.sbe.engine.MessageHeaderDecoder;
import io.bourse.sbe.engine.MessageHeaderEncoder;
import io.bourse.sbe.engine.OrderExecutedDecoder;
import io.bourse.sbe.engine.OrderExecutedEncoder;
import io.bourse.workload.ExchangeCoreCommands;
import org.HdrHistogram.Histogram;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.BiConsumer;

import static org.assertj.core.api.Assertions.assertThat;

/** A few hundred exchange-core commands through a real embedded media driver and a real engine service. */
@Timeout(30)
class EngineServiceBenchmarkTest
{
    static final int SETUP_ORDERS = 20;
    static final int BENCH_COMMANDS = 400;

    @Test
    void shouldTranslateExchangeCoreCommandsWhenOrdersAreOpen() throws IOException
    {
        final SbeCommandStream stream = SbeCommandStream.translate(read(
            "0,SETUP,PLACE,1,1,BUY,100,10,GTC,0\n" +
            "1,BENCH,PLACE,2,2,SELL,100,4,GTC,0\n" +
            "2,BENCH,MOVE,1,1,,101,,,\n" +
            "3,BENCH,REDUCE,1,1,,,2,,\n" +
            "4,BENCH,CANCEL,9,1,,,,,\n" +
            "5,BENCH,CANCEL,1,1,,,,,\n"));

        assertThat(stream.benchStart()).isEqualTo(1);
        assertThat(stream.count()).isEqualTo(5);
        assertThat(stream.skipped()).isEqualTo(1);
        assertThat(stream.expectedBenchTrades()).isEqualTo(1);
        // accepted + added; accepted + executed; replaced; canceled (reduced); canceled
        final List<Integer> events = new ArrayList<>();
        for (int i = 0; i < stream.count(); i++)
        {
            events.add(stream.expectedEvents(i));
        }
        assertThat(events).containsExactly(2, 2, 1, 1, 1);
    }

    @Test
    void shouldDeliverEveryEventOfTheReferenceCoreWhenRunAsFastAsPossible() throws IOException
    {
        shouldDeliverEveryEvent(0);
    }

    @Test
    void shouldDeliverEveryEventOfTheReferenceCoreWhenRunAtAFixedRate() throws IOException
    {
        shouldDeliverEveryEvent(50_000);
    }

    private static void shouldDeliverEveryEvent(final long rate) throws IOException
    {
        final ExchangeCoreCommands commands = read(randomStream(42));
        final SbeCommandStream stream = SbeCommandStream.translate(commands);
        final ByteArrayOutputStream report = new ByteArrayOutputStream();

        final EngineServiceBenchmark.ServicePass pass = EngineServiceBenchmark.run(
            new ServiceBenchOptions(Path.of("unused"), 0, 1, rate, "backoff", ThreadingMode.SHARED),
            commands, new PrintStream(report, true, StandardCharsets.UTF_8));

        assertThat(pass.commands()).isEqualTo(stream.count() - stream.benchStart());
        assertThat(pass.events()).isEqualTo(pass.expectedEvents())
            .isEqualTo(stream.expectedEvents(stream.benchStart(), stream.count()));
        assertThat(pass.trades()).isEqualTo(stream.expectedBenchTrades()).isPositive();
        assertThat(pass.checksum()).isEqualTo(pass.expectedChecksum()).isEqualTo(stream.checksum());
        assertThat(pass.engineAllocatedBytes()).isNotNegative();
        assertThat(report.toString(StandardCharsets.UTF_8)).contains(0 == rate ?
            "ratio service over Aeron / core alone, same commands, throughput medians, same run: " :
            "ratio service over Aeron / core alone: not measured at a fixed rate");
    }

    @Test
    void shouldMatchTheReferenceChecksumWhenTheServicesEventsAreUnalteredAndDifferWhenOneIsAltered() throws IOException
    {
        final SbeCommandStream stream = SbeCommandStream.translate(read(randomStream(7)));
        final List<byte[]> events = serviceEvents(stream);

        assertThat(checksum(stream, events)).isEqualTo(stream.checksum());

        final int trade = indexOfFirstTrade(events);
        final List<byte[]> restamped = new ArrayList<>(events);
        restamped.set(trade, alterTrade(events.get(trade), (encoder, decoder) -> encoder
            .sequenceNumber(decoder.sequenceNumber() + 1_000).timestampNs(decoder.timestampNs() + 1)));
        assertThat(checksum(stream, restamped)).isEqualTo(stream.checksum());

        final List<byte[]> repriced = new ArrayList<>(events);
        repriced.set(trade, alterTrade(events.get(trade), (encoder, decoder) -> encoder.price(decoder.price() + 1)));
        assertThat(checksum(stream, repriced)).isNotEqualTo(stream.checksum());

        final List<byte[]> reordered = new ArrayList<>(events);
        reordered.set(trade, events.get(trade + 1));
        reordered.set(trade + 1, events.get(trade));
        assertThat(checksum(stream, reordered)).isNotEqualTo(stream.checksum());
    }

    /** Sends every command of the stream to a real engine service and returns a copy of each event it publishes. */
    private static List<byte[]> serviceEvents(final SbeCommandStream stream)
    {
        final List<byte[]> events = new ArrayList<>();
        final EventCounter counter = new EventCounter(stream, new Histogram(3));
        final long expectedEvents = stream.expectedEvents(0, stream.count());
        try (MediaDriver driver = MediaDriver.launchEmbedded(new MediaDriver.Context()
                .aeronDirectoryName(EngineServiceBenchmark.aeronDirectory())
                .threadingMode(ThreadingMode.SHARED)
                .dirDeleteOnStart(true)
                .dirDeleteOnShutdown(true));
            Aeron aeron = Aeron.connect(new Aeron.Context().aeronDirectoryName(driver.aeronDirectoryName())))
        {
            final StreamLayout layout = EngineServiceBenchmark.streamLayout(driver.aeronDirectoryName(), 0);
            try (EngineService ignored = EngineService.launch(
                    EngineServiceBenchmark.engineContext(layout, new BackoffIdleStrategy()));
                ExclusivePublication commands =
                    aeron.addExclusivePublication(layout.commandChannel(), layout.commandStreamId(0));
                Subscription subscription = aeron.addSubscription(layout.eventChannel(), layout.eventStreamId(0)))
            {
                EngineServiceBenchmark.awaitConnected(commands, subscription);
                new CommandPublisher(stream, commands, 0, stream.count(), 0, System.nanoTime(),
                    new BackoffIdleStrategy()).run();
                while (counter.events() < expectedEvents)
                {
                    subscription.poll((buffer, offset, length, header) ->
                    {
                        final byte[] event = new byte[length];
                        buffer.getBytes(offset, event);
                        events.add(event);
                        counter.onFragment(buffer, offset, length, header);
                    }, 64);
                }
            }
        }
        assertThat(counter.sequenceGaps()).isZero();
        assertThat(counter.checksum()).isEqualTo(stream.checksum());
        return events;
    }

    private static long checksum(final SbeCommandStream stream, final List<byte[]> events)
    {
        final EventCounter counter = new EventCounter(stream, new Histogram(3));
        for (final byte[] event : events)
        {
            counter.onFragment(new UnsafeBuffer(event), 0, event.length, null);
        }
        return counter.checksum();
    }

    private static int indexOfFirstTrade(final List<byte[]> events)
    {
        final MessageHeaderDecoder header = new MessageHeaderDecoder();
        for (int i = 0; i < events.size() - 1; i++)
        {
            if (OrderExecutedDecoder.TEMPLATE_ID == header.wrap(new UnsafeBuffer(events.get(i)), 0).templateId())
            {
                return i;
            }
        }
        throw new AssertionError("no trade before the last event");
    }

    private static byte[] alterTrade(
        final byte[] event, final BiConsumer<OrderExecutedEncoder, OrderExecutedDecoder> alteration)
    {
        final UnsafeBuffer altered = new UnsafeBuffer(event.clone());
        alteration.accept(new OrderExecutedEncoder().wrap(altered, MessageHeaderEncoder.ENCODED_LENGTH),
            new OrderExecutedDecoder().wrap(altered, MessageHeaderDecoder.ENCODED_LENGTH,
            OrderExecutedDecoder.BLOCK_LENGTH, OrderExecutedDecoder.SCHEMA_VERSION));
        return altered.byteArray();
    }

    private static ExchangeCoreCommands read(final String rows) throws IOException
    {
        return ExchangeCoreCommands.read(new ByteArrayInputStream(csv(rows).getBytes(StandardCharsets.US_ASCII)));
    }

    /** @return exchange-core's commands.csv: its header, then the rows. */
    static String csv(final String rows)
    {
        return "seq,phase,cmd,order_id,uid,side,price,size,order_type,reserve_price\n" + rows;
    }

    /**
     * @return rows of {@value #SETUP_ORDERS} SETUP orders, a book around 1,000, then {@value #BENCH_COMMANDS} BENCH
     * commands: random places, moves, reductions and cancels of earlier orders.
     */
    static String randomStream(final long seed)
    {
        final Random random = new Random(seed);
        final StringBuilder sb = new StringBuilder();
        int seq = 0;
        for (int i = 1; i <= SETUP_ORDERS; i++)
        {
            final boolean buy = 0 == (i & 1);
            sb.append(seq++).append(",SETUP,PLACE,").append(i).append(",1,").append(buy ? "BUY," : "SELL,")
                .append(buy ? 999 - random.nextInt(10) : 1_001 + random.nextInt(10)).append(',')
                .append(1 + random.nextInt(20)).append(",GTC,0\n");
        }
        long nextId = SETUP_ORDERS + 1;
        for (int i = 0; i < BENCH_COMMANDS; i++)
        {
            final int pick = random.nextInt(100);
            final long target = 1 + random.nextInt((int)nextId - 1);
            sb.append(seq++).append(",BENCH,");
            if (pick < 40)
            {
                final boolean buy = random.nextBoolean();
                final int size = 1 + random.nextInt(20);
                final String type = pick < 30 ? "GTC" : pick < 37 ? "IOC" : "FOK_BUDGET";
                final long price = "GTC".equals(type) ? 995 + random.nextInt(11) : buy ? 1_010 : 990;
                sb.append("PLACE,").append(nextId++).append(",1,").append(buy ? "BUY," : "SELL,")
                    .append("FOK_BUDGET".equals(type) ? price * size : price).append(',').append(size).append(',')
                    .append(type).append(",0\n");
            }
            else if (pick < 80)
            {
                sb.append("MOVE,").append(target).append(",1,,").append(995 + random.nextInt(11)).append(",,,\n");
            }
            else if (pick < 90)
            {
                sb.append("REDUCE,").append(target).append(",1,,,").append(1 + random.nextInt(5)).append(",,\n");
            }
            else
            {
                sb.append("CANCEL,").append(target).append(",1,,,,,\n");
            }
        }
        return sb.toString();
    }
}
