package io.bourse.bench;

import io.bourse.common.aeron.AgentLaunch;
import org.agrona.CloseHelper;
import org.agrona.concurrent.AgentRunner;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

/** The open-loop client's schedule over real loopback connections: a real echo, and a server that never answers. */
@Timeout(value = 30, threadMode = Timeout.ThreadMode.SEPARATE_THREAD) // the schedule's loop does not look at interrupts
class OpenLoopClientTest
{
    private static final long RATE = 10_000;

    private final AtomicLong echoErrors = new AtomicLong();
    private AgentRunner echoRunner;
    private ServerSocketChannel silentServer;
    private Thread silentReader;
    private PingPongConnection answered;
    private PingPongConnection unanswered;

    @AfterEach
    void close() throws InterruptedException
    {
        CloseHelper.closeAll(answered, unanswered, silentServer, echoRunner);
        if (null != silentReader)
        {
            silentReader.join(TimeUnit.SECONDS.toMillis(5));
        }
    }

    @Test
    void shouldEndTheStepWhenTheSecondRequestOfAPairWaitsOnAConnectionThatGetsNoAnswers() throws IOException
    {
        final PingPongServer echo = new PingPongServer(echoErrors);
        echoRunner = AgentLaunch.start(echo, new BackoffIdleStrategy(), echoErrors);
        silentServer = ServerSocketChannel.open().bind(new InetSocketAddress("127.0.0.1", 0));
        answered = new PingPongConnection(0, echo.port());
        unanswered = new PingPongConnection(1, ((InetSocketAddress)silentServer.getLocalAddress()).getPort());
        silentReader = Thread.ofVirtual().start(this::readAndNeverAnswer);
        final OpenLoopClient client = new OpenLoopClient("floor", List.of(answered, unanswered), List.of(), List.of(),
            OpenLoopClient.Feed.NONE);

        final RateStep step = client.run(RATE, 0, TimeUnit.SECONDS.toNanos(1));

        // The second connection takes the odd requests; the 4,097th of them (request 8,193) finds its ring full.
        final long blockedAt = 2L * RoundTripConnection.MAX_IN_FLIGHT + 1;
        assertThat(step.notSent()).isEqualTo(RATE - blockedAt);
        assertThat(step.unsettled()).isEqualTo(RoundTripConnection.MAX_IN_FLIGHT);
        assertThat(step.histogram().getTotalCount()).isEqualTo(blockedAt - RoundTripConnection.MAX_IN_FLIGHT);
        assertThat(echoErrors).hasValue(0);
    }

    private void readAndNeverAnswer()
    {
        try (SocketChannel channel = silentServer.accept())
        {
            final ByteBuffer buffer = ByteBuffer.allocate(64 * 1024);
            while (channel.read(buffer.clear()) >= 0)
            {
                // read and dropped: no answer ever comes back
            }
        }
        catch (final IOException ignored)
        {
            // the test closed the server or the connection
        }
    }
}
