package io.bourse.launcher;

import io.bourse.engine.replay.ExchangeCoreCommands;
import io.bourse.engine.replay.ExchangeCoreReplay;
import io.bourse.engine.replay.TradeLog;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.Callable;

/**
 * {@code bourse replay}: replays an exchange-core command stream through Bourse's matching core on one thread and
 * writes the trades and the final book in the column layout of exchange-core's own results, so that the two engines
 * can be compared with diff (see {@link ExchangeCoreReplay} for the mapping of exchange-core's semantics).
 */
@Command(name = "replay", mixinStandardHelpOptions = true,
    description = "Replay exchange-core's command stream (commands.csv or .csv.gz) through Bourse's matching core, " +
        "single-threaded; write trades (taker_order_id,maker_order_id,price,size) and the final book " +
        "(order_id,side,price,remaining_size).")
final class ReplayCommand implements Callable<Integer>
{
    @Option(names = "--exchange-core-csv", paramLabel = "FILE", required = true,
        description = "exchange-core command stream: seq,phase,cmd,order_id,uid,side,price,size,order_type," +
            "reserve_price; gunzipped when the name ends in .gz.")
    Path commandsFile;

    @Option(names = "--trades-out", paramLabel = "FILE", required = true,
        description = "Trades CSV to write, in emission order.")
    Path tradesFile;

    @Option(names = "--book-out", paramLabel = "FILE", required = true,
        description = "Final book CSV to write: SELL orders lowest price first, then BUY highest first, " +
            "oldest first within a price.")
    Path bookFile;

    @Override
    public Integer call() throws IOException
    {
        final long loadStartNs = System.nanoTime();
        final ExchangeCoreCommands commands = ExchangeCoreCommands.load(commandsFile);
        final long loadNs = System.nanoTime() - loadStartNs;

        final TradeLog trades = new TradeLog();
        final ExchangeCoreReplay replay = new ExchangeCoreReplay(trades);
        final long replayStartNs = System.nanoTime();
        replay.replay(commands);
        final long replayNs = System.nanoTime() - replayStartNs;

        trades.writeCsv(tradesFile);
        replay.writeBookCsv(bookFile);

        System.out.printf("commands        %,d (setup %,d, bench %,d) loaded in %.3f s%n",
            commands.count(), commands.benchStart(), commands.count() - commands.benchStart(), loadNs / 1e9);
        System.out.printf("replayed in     %.3f s (%.2f million commands/s, single thread, cold JVM)%n",
            replayNs / 1e9, commands.count() / (replayNs / 1e3));
        System.out.printf("trades          %,d (volume %,d) -> %s%n", trades.count(), trades.volume(), tradesFile);
        System.out.printf("resting orders  %,d -> %s%n", replay.engine().openOrderCount(), bookFile);
        System.out.printf("fill-or-kill    %,d killed; rejects %,d; commands on orders not open %,d%n",
            replay.killedCount(), replay.rejectCount(), replay.unknownOrderCount());
        return 0;
    }
}
