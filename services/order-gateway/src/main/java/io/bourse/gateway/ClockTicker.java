package io.bourse.gateway;

/**
 * Sends the engine's ClockTick (engine-schema.xml) to every shard once per interval (a second by default), timed by the
 * gateway agent's duty-cycle clock and stamped with its time since midnight, so that good-till-seconds orders expire
 * on the sequenced input's clock even when no order flows. Every gateway ticks; the engine's clock never moves
 * backwards, so ticks of gateways whose clocks lag do no harm, and it reads a time a day behind it (a gateway started
 * after a midnight another ran past, or restarted after it) as the next day's, so that such a gateway's ticks move it
 * on. A tick a shard does not take (not connected, back pressured) is counted and left to the next interval.
 */
final class ClockTicker
{
    private final long intervalNs;
    private final EngineProxy engine;
    private final int shardCount;
    private final DutyCycleClock clock;
    private final GatewayMetrics metrics;
    private long deadlineNs = Long.MIN_VALUE;

    /**
     * @param intervalNs time between two ticks to the shards, in nanoseconds.
     * @param engine     where the ticks go.
     * @param shardCount shards 0 to shardCount - 1 get a tick.
     * @param clock      the agent's duty-cycle clock.
     * @param metrics    counts ticks sent and not taken.
     */
    ClockTicker(
        final long intervalNs, final EngineProxy engine, final int shardCount, final DutyCycleClock clock,
        final GatewayMetrics metrics)
    {
        this.intervalNs = intervalNs;
        this.engine = engine;
        this.shardCount = shardCount;
        this.clock = clock;
        this.metrics = metrics;
    }

    /**
     * Sends a tick to every shard when the interval has passed since the last ones (at once on the first call).
     *
     * @return ticks offered, 0 when none was due.
     */
    int doWork()
    {
        final long nowNs = clock.nanoTime();
        if (nowNs < deadlineNs)
        {
            return 0;
        }
        deadlineNs = nowNs + intervalNs;
        final long timestampNs = clock.midnightNs();
        for (int shard = 0; shard < shardCount; shard++)
        {
            if (engine.clockTick(shard, timestampNs))
            {
                metrics.clockTicksSent.inc();
            }
            else
            {
                metrics.clockTicksFailed.inc();
            }
        }
        return shardCount;
    }
}
