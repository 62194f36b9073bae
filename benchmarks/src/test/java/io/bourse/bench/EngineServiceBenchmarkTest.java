package io.bourse.bench;

import io.aeron.driver.ThreadingMode;
import io.bourse.engine.replay.ExchangeCoreCommands;
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

import static org.assertj.core.api.Assertions.assertThat;

/** A few hundred exchange-core commands through a real embedded media driver and a real engine service. */
@Timeout(30)
class EngineServiceBenchmarkTest
{
    private static final int SETUP_ORDERS = 20;
    private static final int BENCH_COMMANDS = 400;

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
        assertThat(report.toString(StandardCharsets.UTF_8)).contains(0 == rate ?
            "ratio service over Aeron / core alone, same commands, throughput medians, same run: " :
            "ratio service over Aeron / core alone: not measured at a fixed rate");
    }

    private static ExchangeCoreCommands read(final String rows) throws IOException
    {
        final String csv = "seq,phase,cmd,order_id,uid,side,price,size,order_type,reserve_price\n" + rows;
        return ExchangeCoreCommands.read(new ByteArrayInputStream(csv.getBytes(StandardCharsets.US_ASCII)));
    }

    /** SETUP: a book around 1,000; BENCH: random places, moves, reductions and cancels of earlier orders. */
    private static String randomStream(final long seed)
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
