package io.bourse.bench;

import io.bourse.engine.match.MatchingEngine;
import io.bourse.engine.replay.ExchangeCoreReplay;
import io.bourse.workload.ExchangeCoreCommands;
import org.HdrHistogram.Histogram;

/**
 * Bourse's matching core, {@link MatchingEngine}, on the calling thread: each command read from the primitive arrays of
 * {@link ExchangeCoreCommands} and applied through {@link ExchangeCoreReplay}, whose listener consumes every event by
 * counting it, without allocating. Trades go to a listener that discards them.
 */
final class BourseEngine implements EngineUnderTest
{
    private static final ExchangeCoreReplay.TradeListener DISCARD_TRADES = (taker, maker, price, size) ->
    {
    };

    private final ExchangeCoreCommands commands;
    private final int benchStart;
    private ExchangeCoreReplay replay;

    /**
     * @param commands exchange-core's command stream.
     */
    BourseEngine(final ExchangeCoreCommands commands)
    {
        this.commands = commands;
        this.benchStart = commands.benchStart();
    }

    @Override
    public String name()
    {
        return "Bourse MatchingEngine";
    }

    @Override
    public void reset()
    {
        replay = new ExchangeCoreReplay(DISCARD_TRADES);
        replay.replay(commands, 0, benchStart);
    }

    @Override
    public long runBench()
    {
        final ExchangeCoreReplay replay = this.replay;
        final ExchangeCoreCommands commands = this.commands;
        final int end = commands.count();
        final long startNs = System.nanoTime();
        for (int i = benchStart; i < end; i++)
        {
            replay.apply(commands, i);
        }
        return System.nanoTime() - startNs;
    }

    @Override
    public long runBenchTimed(final Histogram histogram)
    {
        final ExchangeCoreReplay replay = this.replay;
        final ExchangeCoreCommands commands = this.commands;
        final int end = commands.count();
        final long startNs = System.nanoTime();
        for (int i = benchStart; i < end; i++)
        {
            final long beforeNs = System.nanoTime();
            replay.apply(commands, i);
            histogram.recordValue(System.nanoTime() - beforeNs);
        }
        return System.nanoTime() - startNs;
    }

    @Override
    public long trades()
    {
        return replay.tradeCount();
    }

    @Override
    public long failures()
    {
        return replay.rejectCount() + replay.unknownOrderCount();
    }

    @Override
    public void close()
    {
        replay = null;
    }
}
