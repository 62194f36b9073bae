package io.bourse.bench;

import org.HdrHistogram.Histogram;

/**
 * One engine driven over exchange-core's command stream: the SETUP commands untimed, then the BENCH commands timed.
 * The benchmark calls {@link #reset()} before each pass, so every pass starts from the same state.
 */
interface EngineUnderTest extends AutoCloseable
{
    /** @return engine name as printed. */
    String name();

    /** Fresh engine state, then the SETUP commands, untimed; zeroes the trade and failure counts. */
    void reset();

    /**
     * Processes every BENCH command as fast as it can.
     *
     * @return elapsed nanoseconds.
     */
    long runBench();

    /**
     * Processes every BENCH command, each timed with {@link System#nanoTime()} around its call.
     *
     * @param histogram receives one service time in nanoseconds per command.
     * @return elapsed nanoseconds of the whole pass.
     */
    long runBenchTimed(Histogram histogram);

    /** @return trades (fills) since the last {@link #reset()}, SETUP included. */
    long trades();

    /** @return commands since the last {@link #reset()} that the engine refused or that had no effect. */
    long failures();

    /** Stops the engine's threads, if any. */
    @Override
    void close();
}
