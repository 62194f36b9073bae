package io.bourse.bench;

import io.bourse.engine.replay.ExchangeCoreReplay;
import io.bourse.engine.replay.TradeLog;
import io.bourse.workload.ExchangeCoreCommands;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * {@code bourse replay --compare}: given Bourse's outcome of an exchange-core command stream, replays the same stream
 * through exchange-core 0.5.3's own order book ({@link ExchangeCoreBookEngine}: {@code OrderBookDirectImpl} on the
 * calling thread), reads the trades and final book exchange-core recorded for the stream when they lie beside the
 * command file ({@link ReplayOutcome#recordedBeside}), and compares every pair trade by trade and resting order by
 * resting order. It prints the commands, trades, shares and resting orders of each source, then each pairing as
 * "identical" or its first divergence ({@link OutcomeComparison#describe()}), then the verdict.
 */
public final class ExchangeCoreComparison
{
    /** Name printed for Bourse's outcome. */
    public static final String BOURSE = "Bourse MatchingEngine";
    /** Name printed for exchange-core's order book replayed in this run. */
    public static final String EXCHANGE_CORE = "exchange-core OrderBookDirectImpl";
    /** Name printed for the files exchange-core recorded. */
    public static final String RECORDED = "exchange-core recorded";
    /** Last line printed when every pairing is identical. */
    public static final String IDENTICAL = "identical";
    /** Last line printed when a pairing differs. */
    public static final String DIFFERENT = "DIFFERENT";

    private static final String ROW_FORMAT = "%-36s%12s%12s%12s%16s%n";

    private ExchangeCoreComparison()
    {
    }

    /**
     * Runs the comparison and prints its summary.
     *
     * @param commandsFile the file the commands were loaded from, beside which the recorded results are looked for.
     * @param commands     the stream, SETUP and BENCH.
     * @param bourse       Bourse's outcome of replaying every command of {@code commands} through
     *                     {@link ExchangeCoreReplay}, named {@link #BOURSE} or as it should be printed.
     * @param out          where the summary goes.
     * @return the comparisons, Bourse against exchange-core live first, then each against the recording if found.
     * @throws IOException              when a recorded file cannot be read.
     * @throws IllegalArgumentException when a recorded file is malformed.
     */
    public static List<OutcomeComparison> run(
        final Path commandsFile, final ExchangeCoreCommands commands, final ReplayOutcome bourse, final PrintStream out)
        throws IOException
    {
        final ReplayOutcome live = replayExchangeCore(commands, out);
        final ReplayOutcome recorded = ReplayOutcome.recordedBeside(RECORDED, commandsFile);
        final Path dir = null == commandsFile.getParent() ? Path.of(".") : commandsFile.getParent();
        out.println(null == recorded ?
            "recorded        none: no trades and final_book files beside the commands in " + dir :
            "recorded        exchange-core's own trades and final book, beside the commands in " + dir);

        final List<ReplayOutcome> outcomes = new ArrayList<>(List.of(bourse, live));
        if (null != recorded)
        {
            outcomes.add(recorded);
        }
        out.println();
        out.printf(Locale.ROOT, ROW_FORMAT, "", "commands", "trades", "shares", "resting orders");
        for (final ReplayOutcome outcome : outcomes)
        {
            out.printf(Locale.ROOT, ROW_FORMAT, outcome.name(),
                recorded == outcome ? "-" : String.format(Locale.ROOT, "%,d", commands.count()),
                String.format(Locale.ROOT, "%,d", outcome.trades().count()),
                String.format(Locale.ROOT, "%,d", outcome.volume()),
                String.format(Locale.ROOT, "%,d", outcome.book().size()));
        }

        final List<OutcomeComparison> comparisons = new ArrayList<>();
        comparisons.add(OutcomeComparison.of(bourse, live));
        if (null != recorded)
        {
            comparisons.add(OutcomeComparison.of(bourse, recorded));
            comparisons.add(OutcomeComparison.of(live, recorded));
        }
        out.println();
        boolean identical = true;
        for (final OutcomeComparison comparison : comparisons)
        {
            out.println(comparison.describe());
            identical &= comparison.identical();
        }
        out.println(identical ? IDENTICAL : DIFFERENT);
        return comparisons;
    }

    /**
     * @param comparisons what {@link #run} returned.
     * @return true when every pairing is identical.
     */
    public static boolean identical(final List<OutcomeComparison> comparisons)
    {
        return comparisons.stream().allMatch(OutcomeComparison::identical);
    }

    private static ReplayOutcome replayExchangeCore(final ExchangeCoreCommands commands, final PrintStream out)
    {
        final TradeLog trades = new TradeLog();
        try (ExchangeCoreBookEngine engine = new ExchangeCoreBookEngine(commands, trades))
        {
            final long replayStartNs = System.nanoTime();
            engine.reset();
            engine.runBench();
            final long replayNs = System.nanoTime() - replayStartNs;
            out.printf(Locale.ROOT, "exchange-core   replayed in %.3f s (%.2f million commands/s, single thread, " +
                "cold JVM); refused or without effect %,d%n", replayNs / 1e9, commands.count() / (replayNs / 1e3),
                engine.failures());
            return ReplayOutcome.of(EXCHANGE_CORE, engine, trades);
        }
    }
}
