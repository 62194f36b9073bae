package io.bourse.bench;

import io.bourse.workload.ExchangeCoreCommands;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

class EnginesAgreeTest
{
    /**
     * Two SETUP asks, then BENCH: a buy crossing both asks (2 trades), a move of a bid into the remaining ask
     * (1 trade), a reduce, an IOC sweeping the bids (2 trades), a cancel and a FOK_BUDGET that fills (1 trade).
     */
    private static final String STREAM = """
        seq,phase,cmd,order_id,uid,side,price,size,order_type,reserve_price
        0,SETUP,PLACE,1,1,SELL,100,5,GTC,100
        1,SETUP,PLACE,2,2,SELL,101,5,GTC,101
        2,BENCH,PLACE,3,3,BUY,101,7,GTC,101
        3,BENCH,PLACE,4,4,BUY,99,4,GTC,99
        4,BENCH,PLACE,5,5,BUY,98,6,GTC,98
        5,BENCH,MOVE,4,4,,101,,,
        6,BENCH,REDUCE,5,5,,,2,,
        7,BENCH,PLACE,6,6,SELL,97,10,IOC,97
        8,BENCH,PLACE,7,7,SELL,110,3,GTC,110
        9,BENCH,PLACE,8,8,SELL,111,3,GTC,111
        10,BENCH,CANCEL,8,8,,,,,
        11,BENCH,PLACE,9,9,BUY,330,3,FOK_BUDGET,330
        """;

    @Test
    void shouldMakeSameTradesWhenBothBooksReplayTheSameStream() throws IOException
    {
        final ExchangeCoreCommands commands =
            ExchangeCoreCommands.read(new ByteArrayInputStream(STREAM.getBytes(StandardCharsets.US_ASCII)));

        try (EngineUnderTest bourse = new BourseEngine(commands);
            EngineUnderTest book = new ExchangeCoreBookEngine(commands))
        {
            bourse.reset();
            bourse.runBench();
            book.reset();
            book.runBench();

            assertThat(bourse.trades()).isEqualTo(6);
            assertThat(book.trades()).isEqualTo(bourse.trades());
            assertThat(bourse.failures()).isZero();
            assertThat(book.failures()).isZero();
        }
    }

    @Test
    void shouldRecordOneServiceTimePerBenchCommandWhenTimed() throws IOException
    {
        final ExchangeCoreCommands commands =
            ExchangeCoreCommands.read(new ByteArrayInputStream(STREAM.getBytes(StandardCharsets.US_ASCII)));
        final Histogram histogram = new Histogram(1_000_000_000L, 3);

        try (EngineUnderTest book = new ExchangeCoreBookEngine(commands))
        {
            book.reset();
            book.runBenchTimed(histogram);

            assertThat(histogram.getTotalCount()).isEqualTo(commands.count() - commands.benchStart());
            assertThat(book.trades()).isEqualTo(6);
        }
    }
}
