package io.bourse.common;

/**
 * How a matching-engine shard numbers its orders and executions, for the services that read its events: an Order
 * Reference Number or Match Number (OUCH 4.2, ITCH 5.0) is {@code (count << SHARD_BITS) | shard}, unique across up to
 * 16 shards. Each run raises its counts at its start to its number base (engine StartNumbering: the run's start in
 * units of 100 ns since the Unix epoch) and counts up from there. A run that recovered no earlier run therefore gives
 * numbers from {@link #firstOfRun} up, and its earlier runs, which started before it and gave fewer numbers than the
 * units of 100 ns they lived, gave numbers below it (the host's wall clock not set back between two runs).
 */
public final class EngineNumbering
{
    /** Low bits of every number that hold the shard. */
    public static final int SHARD_BITS = 4;

    private EngineNumbering()
    {
    }

    /**
     * @param numberBase a run's number base, 0 to 2^58 (engine StartNumbering and RunStarted).
     * @return the lowest Order Reference Number or Match Number a run with that base that recovered no earlier run
     * gives, that of shard 0: every number of its earlier runs is below it.
     */
    public static long firstOfRun(final long numberBase)
    {
        return (numberBase + 1) << SHARD_BITS;
    }
}
