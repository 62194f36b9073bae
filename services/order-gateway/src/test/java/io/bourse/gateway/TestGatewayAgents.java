package io.bourse.gateway;

import io.aeron.Subscription;

import java.io.IOException;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;

/** The gateway agent as {@link GatewayService} builds it, for tests that drive it without the engine's events. */
final class TestGatewayAgents
{
    private TestGatewayAgents()
    {
    }

    /**
     * @param ctx           the concluded configuration.
     * @param serverChannel where clients connect: a real or in-memory ({@link MemoryNetwork}) listening channel.
     * @param selector      the agent's selector over it.
     * @param engine        receives the order entry's commands (a {@link RecordingEngineProxy}).
     * @param journals      the session journals.
     * @param metrics       the gateway's metrics.
     * @param clock         the duty-cycle clock.
     * @return the agent, not yet started, its sessions restored from the journals, subscribed to no engine event
     * stream, its media driver not known (no order is rejected as lost with an earlier one).
     * @throws IOException when the server channel cannot be registered.
     */
    static GatewayAgent newAgent(
        final GatewayContext ctx,
        final ServerSocketChannel serverChannel,
        final Selector selector,
        final EngineProxy engine,
        final JournalStore journals,
        final GatewayMetrics metrics,
        final DutyCycleClock clock) throws IOException
    {
        return GatewayService.newAgent(
            ctx, serverChannel, selector, engine, journals, null, new Subscription[0], metrics, clock, 0);
    }
}
