package io.bourse.common;

/**
 * How a matching-engine shard numbers its orders and executions, for the shard and the services that read its events:
 * an Order Reference Number or Match Number (OUCH 4.2, ITCH 5.0) is {@code (count << SHARD_BITS) | shard}, unique
 * across up to 16 shards. Each run raises its counts at its start to its number base (engine StartNumbering: the run's
 * start in units of {@value #NANOS_PER_NUMBER} ns since the Unix epoch) and counts up from there. A run that recovered
 * no earlier run therefore gives numbers from {@link #firstOfRun} up, and its earlier runs, which started before it and
 * gave fewer numbers than the units of 100 ns they lived, gave numbers below it (the host's wall clock not set back
 * between two runs).
 */
public final class EngineNumbering
{
    /** Low bits of every number that hold the shard. */
    public static final int SHARD_BITS = 4;

    /**
     * The wall-clock time per number of a run's numbering, in ns: its number base is its start time in these units,
     * so an earlier run's numbers stay below it unless that run gave more than 10 a µs of its life.
     */
    public static final long NANOS_PER_NUMBER = 100;

    /**
     * Highest number base: 2^58, so that the next 2^58 - 1 counts shifted past the {@value #SHARD_BITS} shard bits
     * still fit a positive int64 (the base of a run started before the year 2883).
     */
    public static final long MAX_NUMBER_BASE = 1L << 58;

    private EngineNumbering()
    {
    }

    /**
     * @param startEpochNs a run's start time in ns since the Unix epoch.
     * @return its number base, in units of {@value #NANOS_PER_NUMBER} ns (not checked against
     * {@link #MAX_NUMBER_BASE}).
     */
    public static long numberBase(final long startEpochNs)
    {
        return startEpochNs / NANOS_PER_NUMBER;
    }

    /**
     * @param numberBase a run's number base (engine StartNumbering and RunStarted).
     * @return the run's start time it stands for, in ns since the Unix epoch, to {@value #NANOS_PER_NUMBER} ns.
     */
    public static long startEpochNs(final long numberBase)
    {
        return numberBase * NANOS_PER_NUMBER;
    }

    /**
     * @param numberBase a run's number base, 0 to {@link #MAX_NUMBER_BASE} (engine StartNumbering and RunStarted).
     * @return the lowest Order Reference Number or Match Number a run with that base that recovered no earlier run
     * gives, that of shard 0: every number of its earlier runs is below it.
     */
    public static long firstOfRun(final long numberBase)
    {
        return (numberBase + 1) << SHARD_BITS;
    }
}
