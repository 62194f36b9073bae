package io.bourse.gateway;

import io.bourse.common.aeron.StreamLayout;
import io.bourse.common.config.Credentials;
import io.bourse.common.config.Settings;
import io.bourse.common.config.SymbolDirectory;
import org.agrona.concurrent.SleepingMillisIdleStrategy;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;

/**
 * The real gateway agent over a {@link MemoryNetwork}, for tests that run its duty cycles on their own thread: one
 * user, demo01 (password demo01pw, firm DEMO), symbols AAPL on shard 0 and MSFT on shard 1, the session's journals
 * in a directory of the test's. Closing it closes the clients' ends first (else the agent's stop would wait for their
 * linger), then stops the agent and closes the journals.
 */
final class MemoryGateway implements AutoCloseable
{
    /** Bytes a client's end takes in before the gateway's writes stop: far more than a test sends. */
    private static final int WINDOW_BYTES = 1 << 16;

    private final JournalStore journals;
    private final MemoryNetwork.Server network;
    private final GatewayAgent agent;
    private final List<MemoryNetwork.Endpoint> clients = new ArrayList<>();
    private boolean stopped;

    private MemoryGateway(final JournalStore journals, final MemoryNetwork.Server network, final GatewayAgent agent)
    {
        this.journals = journals;
        this.network = network;
        this.agent = agent;
    }

    /**
     * @param journalRoot the journal directory.
     * @param session     the SoupBinTCP session, which names the journals' directory.
     * @param configure   the test's own settings on top of the common ones (close time, linger, ...).
     * @param engine      where the agent's commands go.
     * @param metrics     the agent's metrics.
     * @param clock       the agent's clock.
     * @return the gateway, no client connected yet.
     * @throws IOException when the journals cannot be opened.
     */
    static MemoryGateway start(
        final Path journalRoot, final String session, final UnaryOperator<GatewayContext> configure,
        final EngineProxy engine, final GatewayMetrics metrics, final DutyCycleClock clock) throws IOException
    {
        final GatewayContext ctx = configure.apply(new GatewayContext()
            .sessionName(session)
            .journalDir(journalRoot.toString())
            .credentials(Credentials.parse(List.of("demo01,demo01pw,DEMO")))
            .streamLayout(StreamLayout.fromSettings(new Settings(Map.of())))
            .symbolDirectory(SymbolDirectory.parse("AAPL@0,MSFT@1"))
            .idleStrategy(new SleepingMillisIdleStrategy(1)))
            .conclude();
        final JournalStore journals = JournalStore.open(journalRoot, session, JournalSync.NONE, 0, metrics);
        final MemoryNetwork.Server network = new MemoryNetwork.Server();
        network.configureBlocking(false);
        return new MemoryGateway(journals, network, TestGatewayAgents.newAgent(
            ctx, network, new MemoryNetwork.MemorySelector(), engine, journals, metrics, clock));
    }

    /** @return the agent, whose duty cycles the test runs. */
    GatewayAgent agent()
    {
        return agent;
    }

    /**
     * @return a new client's end of a connection to the gateway, which the agent accepts in its next duty cycle.
     * @throws IOException when the network is closed.
     */
    MemoryNetwork.Endpoint connect() throws IOException
    {
        final MemoryNetwork.Endpoint client = network.connect(Integer.MAX_VALUE, WINDOW_BYTES);
        clients.add(client);
        return client;
    }

    /**
     * @param windowBytes how many bytes the client's end holds unread before the gateway's writes stop.
     * @return a new client's end of a connection to the gateway, which the agent accepts in its next duty cycle.
     * @throws IOException when the network is closed.
     */
    MemoryNetwork.Endpoint connect(final int windowBytes) throws IOException
    {
        final MemoryNetwork.Endpoint client = network.connect(Integer.MAX_VALUE, windowBytes);
        clients.add(client);
        return client;
    }

    /** Stops the agent, as the service does at its stop (waiting for connections that linger); once. */
    void stop()
    {
        if (!stopped)
        {
            stopped = true;
            agent.onClose();
        }
    }

    @Override
    public void close() throws IOException
    {
        for (final MemoryNetwork.Endpoint client : clients)
        {
            client.close();
        }
        stop();
        journals.close();
    }
}
