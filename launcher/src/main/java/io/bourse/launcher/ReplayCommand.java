package io.bourse.launcher;

import io.bourse.bench.ExchangeCoreComparison;
import io.bourse.bench.ReplayOutcome;
import io.bourse.engine.replay.ExchangeCoreReplay;
import io.bourse.engine.replay.TradeLog;
import io.bourse.workload.ExchangeCoreCommands;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Callable;

/**
 * {@code bourse replay}: replays an exchange-core command stream through Bourse's matching core on one thread and
 * writes the trades and the final book in the column layout of exchange-core's own results, so that the two engines
 * can be compared with diff (see {@link ExchangeCoreReplay} for the mapping of exchange-core's semantics). With
 * {@code --compare} it also replays the stream through exchange-core's own order book and compares the two, and each
 * with exchange-core's recorded results when they lie beside the command file ({@link ExchangeCoreComparison}).
 */
@Command(name = "replay", mixinStandardHelpOptions = true,
    description = {
        "Replay exchange-core's command stream (commands.csv or .csv.gz) through Bourse's matching core, " +
            "single-threaded; write trades (taker_order_id,maker_order_id,price,size) and the final book " +
            "(order_id,side,price,remaining_size).",
        "With --compare, also replay it through exchange-core 0.5.3's OrderBookDirectImpl and compare trade by trade " +
            "and resting order by resting order, and both with the trades*.csv.gz and final_book*.csv exchange-core " +
            "recorded when they lie beside the command file; exit code 1 when any pair differs." })
final class ReplayCommand implements Callable<Integer>
{
    @Option(names = "--exchange-core-csv", paramLabel = "FILE", required = true,
        description = "exchange-core command stream: seq,phase,cmd,order_id,uid,side,price,size,order_type," +
            "reserve_price; gunzipped when the name ends in .gz.")
    Path commandsFile;

    @Option(names = "--trades-out", paramLabel = "FILE",
        description = "Trades CSV to write, in emission order (required without --compare).")
    Path tradesFile;

    @Option(names = "--book-out", paramLabel = "FILE",
        description = "Final book CSV to write: SELL orders lowest price first, then BUY highest first, " +
            "oldest first within a price (required without --compare).")
    Path bookFile;

    @Option(names = "--compare",
        description = "Also replay through exchange-core's order book and compare; print the first divergence.")
    boolean compare;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws IOException
    {
        if (!compare && (null == tradesFile || null == bookFile))
        {
            throw new CommandLine.ParameterException(
                spec.commandLine(), "--trades-out and --book-out are required without --compare");
        }
        final long loadStartNs = System.nanoTime();
        final ExchangeCoreCommands commands = ExchangeCoreCommands.load(commandsFile);
        final long loadNs = System.nanoTime() - loadStartNs;

        final TradeLog trades = new TradeLog();
        final ExchangeCoreReplay replay = new ExchangeCoreReplay(trades);
        final long replayStartNs = System.nanoTime();
        replay.replay(commands);
        final long replayNs = System.nanoTime() - replayStartNs;

        if (null != tradesFile)
        {
            trades.writeCsv(tradesFile);
        }
        if (null != bookFile)
        {
            replay.writeBookCsv(bookFile);
        }

        System.out.printf(Locale.ROOT, "commands        %,d (setup %,d, bench %,d) loaded in %.3f s%n",
            commands.count(), commands.benchStart(), commands.count() - commands.benchStart(), loadNs / 1e9);
        System.out.printf(Locale.ROOT, "replayed in     %.3f s (%.2f million commands/s, single thread, cold JVM)%n",
            replayNs / 1e9, commands.count() / (replayNs / 1e3));
        System.out.printf(Locale.ROOT, "trades          %,d (volume %,d)%s%n",
            trades.count(), trades.volume(), to(tradesFile));
        System.out.printf(Locale.ROOT, "resting orders  %,d%s%n", replay.engine().openOrderCount(), to(bookFile));
        System.out.printf(Locale.ROOT, "fill-or-kill    %,d killed; rejects %,d; commands on orders not open %,d%n",
            replay.killedCount(), replay.rejectCount(), replay.unknownOrderCount());
        if (!compare)
        {
            return 0;
        }
        return ExchangeCoreComparison.identical(ExchangeCoreComparison.run(commandsFile, commands,
            ReplayOutcome.of(ExchangeCoreComparison.BOURSE, replay, trades), System.out)) ? 0 : 1;
    }

    private static String to(final Path file)
    {
        return null == file ? "" : " -> " + file;
    }
}
