package io.bourse.engine.replay;

import io.bourse.workload.ExchangeCoreCommands;
import org.junit.jupiter.api.Test;

import java.io.BufferedReader;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.zip.GZIPInputStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

class ExchangeCoreReplayTest
{
    private static final String HEADER = "seq,phase,cmd,order_id,uid,side,price,size,order_type,reserve_price\n";

    @Test
    void shouldMapEveryExchangeCoreCommandOntoTheEngine() throws IOException
    {
        final ExchangeCoreCommands commands = ExchangeCoreCommands.read(new ByteArrayInputStream((HEADER + """
            0,SETUP,PLACE,1,10,SELL,100,5,GTC,0
            1,SETUP,PLACE,2,11,SELL,100,5,GTC,0
            2,SETUP,PLACE,3,12,BUY,98,10,GTC,120
            3,BENCH,MOVE,1,10,,100,,,
            4,BENCH,PLACE,4,13,BUY,120,3,IOC,120
            5,BENCH,PLACE,5,14,SELL,980,10,FOK_BUDGET,0
            6,BENCH,PLACE,6,14,SELL,981,10,FOK_BUDGET,0
            7,BENCH,REDUCE,3,12,,,4,,
            8,BENCH,MOVE,3,12,,101,,,
            9,BENCH,PLACE,7,15,BUY,1200,4,FOK_BUDGET,120
            10,BENCH,CANCEL,2,11,,,,,
            11,BENCH,REDUCE,7,15,,,1,,
            12,BENCH,PLACE,8,16,BUY,99,4,GTC,120
            """).getBytes(StandardCharsets.US_ASCII)));
        final List<String> trades = new ArrayList<>();
        final ExchangeCoreReplay replay = new ExchangeCoreReplay(
            (taker, maker, price, size) -> trades.add(taker + "," + maker + "," + price + "," + size));

        replay.replay(commands);

        // MOVE of 1 at an unchanged price sends it behind 2; the IOC buy then takes 3 from 2. FOK sell 5 (budget 980
        // = 10 x 98) fills 10 from 3; FOK 6 (981, more than the 980 the book pays) is killed. REDUCE and MOVE of the
        // filled 3, CANCEL of the filled 2 and REDUCE of the FOK 7 have no effect; FOK buy 7 (4 x 300) takes 2 then 1.
        assertThat(trades).containsExactly("4,2,100,3", "5,3,98,10", "7,2,100,2", "7,1,100,2");
        assertThat(replay.killedCount()).isEqualTo(1);
        assertThat(replay.unknownOrderCount()).isEqualTo(4);
        assertThat(replay.rejectCount()).isZero();
        assertThat(book(replay)).containsExactly("1,SELL,100,3", "8,BUY,99,4");
    }

    @Test
    void shouldProduceExchangeCoresTradesAndFinalBookWhenReplayingItsBenchmarkPrefix() throws IOException
    {
        final Path data = exchangeCoreData();
        assumeTrue(null != data, "exchange-core data not found: no ../shared/data/exchange-core next to the repo");
        final ExchangeCoreCommands commands = ExchangeCoreCommands.load(data.resolve("commands_1m.csv.gz"));
        final TradeLog trades = new TradeLog();
        final ExchangeCoreReplay replay = new ExchangeCoreReplay(trades);

        replay.replay(commands);

        final List<String> expectedTrades = firstColumns(readLines(data.resolve("trades_1m.csv.gz")), 1, 5);
        final List<String> actualTrades = new ArrayList<>();
        for (int i = 0; i < trades.count(); i++)
        {
            actualTrades.add(trades.csvRow(i));
        }
        assertSameRows("trade", actualTrades, expectedTrades);
        assertSameRows("resting order", book(replay), firstColumns(readLines(data.resolve("final_book_1m.csv")), 0, 4));
        assertThat(replay.rejectCount()).isZero();
        assertThat(replay.unknownOrderCount()).isZero();
    }

    private static List<String> book(final ExchangeCoreReplay replay)
    {
        final List<String> rows = new ArrayList<>();
        replay.forEachRestingOrder((clientOrderId, orderId, side, price, remaining, display) ->
            rows.add(clientOrderId + "," + side + "," + price + "," + remaining));
        return rows;
    }

    /** Compares row by row so that a failure names the first differing row instead of printing 40,000. */
    private static void assertSameRows(final String what, final List<String> actual, final List<String> expected)
    {
        for (int i = 0, n = Math.min(actual.size(), expected.size()); i < n; i++)
        {
            assertThat(actual.get(i)).as("%s %d (0-based)", what, i).isEqualTo(expected.get(i));
        }
        assertThat(actual.size()).as("%s count", what).isEqualTo(expected.size());
    }

    /** The data rows (header dropped) cut to columns [from, to) as a comma-joined string. */
    private static List<String> firstColumns(final List<String> lines, final int from, final int to)
    {
        final List<String> rows = new ArrayList<>(lines.size());
        for (final String line : lines.subList(1, lines.size()))
        {
            final String[] columns = line.split(",", -1);
            rows.add(String.join(",", Arrays.copyOfRange(columns, from, to)));
        }
        return rows;
    }

    private static List<String> readLines(final Path file) throws IOException
    {
        if (!file.getFileName().toString().endsWith(".gz"))
        {
            return Files.readAllLines(file, StandardCharsets.US_ASCII);
        }
        try (BufferedReader reader = new BufferedReader(new InputStreamReader(
            new GZIPInputStream(Files.newInputStream(file)), StandardCharsets.US_ASCII)))
        {
            return reader.lines().toList();
        }
    }

    /**
     * @return {@code ../shared/data/exchange-core} relative to the repository root (the first directory above the
     * working directory that holds {@code mvnw}), or null when absent.
     */
    static Path exchangeCoreData()
    {
        for (Path dir = Path.of("").toAbsolutePath(); null != dir; dir = dir.getParent())
        {
            if (Files.isRegularFile(dir.resolve("mvnw")) && null != dir.getParent())
            {
                final Path data = dir.getParent().resolve("shared").resolve("data").resolve("exchange-core");
                return Files.isDirectory(data) ? data : null;
            }
        }
        return null;
    }
}
