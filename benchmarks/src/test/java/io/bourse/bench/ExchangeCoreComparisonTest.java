package io.bourse.bench;

import io.bourse.engine.replay.ExchangeCoreReplay;
import io.bourse.engine.replay.TradeLog;
import io.bourse.workload.ExchangeCoreCommands;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.zip.GZIPInputStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

class ExchangeCoreComparisonTest
{
    private static final int PREFIX_COMMANDS = 20_000;

    @TempDir
    Path dir;

    @Test
    void shouldFindBothEnginesIdenticalWhenReplayingAPrefixOfExchangeCoresStream() throws IOException
    {
        final Path commandsFile = prefixOfExchangeCoreStream(PREFIX_COMMANDS);
        final ExchangeCoreCommands commands = ExchangeCoreCommands.load(commandsFile);
        final ReplayOutcome bourse = replayThroughBourse(commands);
        final ByteArrayOutputStream out = new ByteArrayOutputStream();

        final List<OutcomeComparison> comparisons =
            ExchangeCoreComparison.run(commandsFile, commands, bourse, new PrintStream(out, true));

        assertThat(commands.count()).isEqualTo(PREFIX_COMMANDS);
        assertThat(bourse.trades().count()).isGreaterThan(100);
        assertThat(bourse.book()).hasSizeGreaterThan(100);
        assertThat(comparisons).hasSize(1);
        final OutcomeComparison live = comparisons.get(0);
        assertThat(live.right().name()).isEqualTo(ExchangeCoreComparison.EXCHANGE_CORE);
        assertThat(live.trades()).isNull();
        assertThat(live.book()).isNull();
        assertThat(live.right().trades().count()).isEqualTo(bourse.trades().count());
        assertThat(lines(out)).contains(
            ExchangeCoreComparison.BOURSE + " vs " + ExchangeCoreComparison.EXCHANGE_CORE + ": identical",
            ExchangeCoreComparison.IDENTICAL);
    }

    @Test
    void shouldListBourseBookRowsExactlyAsTheReplayWritesThem() throws IOException
    {
        final ExchangeCoreCommands commands = ExchangeCoreCommands.load(prefixOfExchangeCoreStream(PREFIX_COMMANDS));
        final TradeLog trades = new TradeLog();
        final ExchangeCoreReplay replay = new ExchangeCoreReplay(trades);
        replay.replay(commands);
        final Path bookFile = dir.resolve("book.csv");

        replay.writeBookCsv(bookFile);

        final List<String> written = Files.readAllLines(bookFile, StandardCharsets.US_ASCII);
        assertThat(written.get(0)).isEqualTo(ExchangeCoreReplay.BOOK_CSV_HEADER);
        assertThat(ReplayOutcome.of(ExchangeCoreComparison.BOURSE, replay, trades).book())
            .isEqualTo(written.subList(1, written.size()));
    }

    @Test
    void shouldReportFirstDifferentTradeWhenTradeListsDiffer()
    {
        final List<String> book = List.of("7,SELL,101,4", "3,BUY,99,2");
        final ReplayOutcome left = new ReplayOutcome("left", trades(
            new long[][]{ { 10, 1, 100, 5 }, { 11, 2, 100, 3 }, { 12, 3, 99, 1 } }), book);
        final ReplayOutcome right = new ReplayOutcome("right", trades(
            new long[][]{ { 10, 1, 100, 5 }, { 11, 4, 100, 3 }, { 12, 3, 99, 1 } }), book);

        final OutcomeComparison comparison = OutcomeComparison.of(left, right);

        assertThat(comparison.identical()).isFalse();
        assertThat(comparison.trades())
            .isEqualTo(new OutcomeComparison.Divergence("trade", 1, "11,2,100,3", "11,4,100,3"));
        assertThat(comparison.book()).isNull();
        assertThat(comparison.describe().lines().toList()).containsExactly(
            "left vs right: DIFFERENT",
            "  first different trade: #1 (0-based)",
            "    left   11,2,100,3",
            "    right  11,4,100,3");
    }

    @Test
    void shouldReportFirstMissingRowWhenOneSideHasFewer()
    {
        final long[][] trades = { { 10, 1, 100, 5 }, { 11, 2, 100, 3 } };
        final ReplayOutcome left = new ReplayOutcome("left", trades(trades), List.of("7,SELL,101,4"));
        final ReplayOutcome right =
            new ReplayOutcome("right", trades(new long[][]{ trades[0] }), List.of("7,SELL,101,4", "3,BUY,99,2"));

        final OutcomeComparison comparison = OutcomeComparison.of(left, right);

        assertThat(comparison.trades())
            .isEqualTo(new OutcomeComparison.Divergence("trade", 1, "11,2,100,3", OutcomeComparison.NO_ROW));
        assertThat(comparison.book())
            .isEqualTo(new OutcomeComparison.Divergence("resting order", 1, OutcomeComparison.NO_ROW, "3,BUY,99,2"));
    }

    @Test
    void shouldReportIdenticalWhenBothOutcomesAreEqual()
    {
        final long[][] trades = { { 10, 1, 100, 5 } };
        final OutcomeComparison comparison = OutcomeComparison.of(
            new ReplayOutcome("left", trades(trades), List.of("7,SELL,101,4")),
            new ReplayOutcome("right", trades(trades), List.of("7,SELL,101,4")));

        assertThat(comparison.identical()).isTrue();
        assertThat(comparison.describe()).isEqualTo("left vs right: identical");
    }

    @Test
    void shouldPrintDifferentWhenBourseOutcomeLacksExchangeCoresLastTrade() throws IOException
    {
        final Path commandsFile = prefixOfExchangeCoreStream(PREFIX_COMMANDS);
        final ExchangeCoreCommands commands = ExchangeCoreCommands.load(commandsFile);
        final ReplayOutcome bourse = replayThroughBourse(commands);
        final TradeLog allButLast = new TradeLog();
        final int last = bourse.trades().count() - 1;
        for (int i = 0; i < last; i++)
        {
            final String[] row = bourse.trades().csvRow(i).split(",");
            allButLast.onTrade(
                Long.parseLong(row[0]), Long.parseLong(row[1]), Long.parseLong(row[2]), Long.parseLong(row[3]));
        }
        final ByteArrayOutputStream out = new ByteArrayOutputStream();

        final List<OutcomeComparison> comparisons = ExchangeCoreComparison.run(commandsFile, commands,
            new ReplayOutcome(ExchangeCoreComparison.BOURSE, allButLast, bourse.book()), new PrintStream(out, true));

        assertThat(ExchangeCoreComparison.identical(comparisons)).isFalse();
        assertThat(comparisons.get(0).trades()).isEqualTo(new OutcomeComparison.Divergence(
            "trade", last, OutcomeComparison.NO_ROW, bourse.trades().csvRow(last)));
        assertThat(lines(out)).contains(
            String.format("  first different trade: #%,d (0-based)", last), ExchangeCoreComparison.DIFFERENT);
    }

    @Test
    void shouldMatchExchangeCoresRecordingWhenItLiesBesideTheCommands() throws IOException
    {
        final Path data = exchangeCoreData();
        assumeTrue(null != data, "exchange-core data not found: no ../shared/data/exchange-core next to the repo");
        final Path commandsFile = data.resolve("commands_1m.csv.gz");
        final ExchangeCoreCommands commands = ExchangeCoreCommands.load(commandsFile);
        final ReplayOutcome recorded = ReplayOutcome.recordedBeside("recorded", commandsFile);

        final List<OutcomeComparison> comparisons = ExchangeCoreComparison.run(
            commandsFile, commands, replayThroughBourse(commands), new PrintStream(new ByteArrayOutputStream()));

        assertThat(recorded.trades().count()).isEqualTo(40_278);
        assertThat(recorded.book()).hasSize(973);
        assertThat(comparisons).hasSize(3);
        assertThat(comparisons.get(2).right().name()).isEqualTo(ExchangeCoreComparison.RECORDED);
        assertThat(comparisons).allSatisfy(comparison -> assertThat(comparison.describe()).endsWith(": identical"));
    }

    private static ReplayOutcome replayThroughBourse(final ExchangeCoreCommands commands)
    {
        final TradeLog trades = new TradeLog();
        final ExchangeCoreReplay replay = new ExchangeCoreReplay(trades);
        replay.replay(commands);
        return ReplayOutcome.of(ExchangeCoreComparison.BOURSE, replay, trades);
    }

    private static TradeLog trades(final long[][] rows)
    {
        final TradeLog trades = new TradeLog();
        for (final long[] row : rows)
        {
            trades.onTrade(row[0], row[1], row[2], row[3]);
        }
        return trades;
    }

    private static List<String> lines(final ByteArrayOutputStream out)
    {
        return out.toString(StandardCharsets.US_ASCII).lines().toList();
    }

    /** The header and the first n commands of exchange-core's stream, as commands.csv in the temporary directory. */
    private Path prefixOfExchangeCoreStream(final int n) throws IOException
    {
        final Path data = exchangeCoreData();
        assumeTrue(null != data, "exchange-core data not found: no ../shared/data/exchange-core next to the repo");
        final Path prefix = dir.resolve("commands.csv");
        try (BufferedReader reader = new BufferedReader(new InputStreamReader(
            new GZIPInputStream(Files.newInputStream(data.resolve("commands.csv.gz"))), StandardCharsets.US_ASCII));
            BufferedWriter writer = Files.newBufferedWriter(prefix, StandardCharsets.US_ASCII))
        {
            for (int i = 0; i <= n; i++)
            {
                writer.write(reader.readLine());
                writer.newLine();
            }
        }
        return prefix;
    }

    /**
     * @return {@code ../shared/data/exchange-core} relative to the repository root (the first directory above the
     * working directory that holds {@code mvnw}), or null when absent.
     */
    private static Path exchangeCoreData()
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
