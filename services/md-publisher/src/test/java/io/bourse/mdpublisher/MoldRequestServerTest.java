package io.bourse.mdpublisher;

import io.prometheus.metrics.model.registry.PrometheusRegistry;
import org.agrona.CloseHelper;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.net.SocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The re-request server's table of requesters, over real loopback datagrams: one token bucket per requester (IP
 * address and UDP port), at most {@link MoldRequestServer#MAX_REQUESTERS} kept.
 */
@Timeout(30)
class MoldRequestServerTest
{
    /** Of every request, one 1-byte message: a Message Block of 3 bytes. */
    private static final MoldRequestServer.Answers STORE = (buffer, sequenceNumber, requestedMessageCount, requester) ->
    {
        buffer.putShort((short)1).put((byte)'A');
        return 1;
    };
    private static final long T0 = TimeUnit.SECONDS.toNanos(100);

    private final PrometheusRegistry registry = new PrometheusRegistry();
    private final List<DatagramChannel> channels = new ArrayList<>();

    @AfterEach
    void tearDown()
    {
        CloseHelper.closeAll(channels);
    }

    /**
     * With the table full of requesters that have used up their one request a second, a new requester is dropped as
     * rate-limited; once their buckets are full again they are forgotten, and the new requester is answered.
     */
    @Test
    void shouldDropANewRequesterWhileTheTableIsFullOfRequestersWithinTheirRateThenForgetThoseFullAgain()
        throws IOException
    {
        final DatagramChannel serverChannel = open(Multicast.unicast());
        final MoldMetrics metrics = new MoldMetrics(registry);
        final MoldRequestServer server = new MoldRequestServer(
            serverChannel, new MoldAnswerSender(serverChannel, metrics), 1400, 1, metrics);
        final SocketAddress address = serverChannel.getLocalAddress();
        for (int i = 0; i < MoldRequestServer.MAX_REQUESTERS; i++)
        {
            final DatagramChannel requester = open(Multicast.unicast());
            requester.send(request(), address);
            assertThat(serveNext(server, T0)).isEqualTo(MoldRequestServer.SERVED);
            assertThat(Multicast.receive(requester, 1000)).as("answer %d", i).hasSize(20 + 3);
        }
        final DatagramChannel latecomer = open(Multicast.unicast());

        latecomer.send(request(), address);
        assertThat(serveNext(server, T0 + TimeUnit.MILLISECONDS.toNanos(500))).isEqualTo(MoldRequestServer.DROPPED);
        assertThat(rateLimited()).isEqualTo(1);
        assertThat(Multicast.receive(latecomer, 50)).isNull();

        // A second on, every bucket is full again: those requesters are forgotten, and the latecomer answered.
        latecomer.send(request(), address);
        assertThat(serveNext(server, T0 + TimeUnit.SECONDS.toNanos(1))).isEqualTo(MoldRequestServer.SERVED);
        assertThat(Multicast.receive(latecomer, 1000)).hasSize(20 + 3);
        assertThat(rateLimited()).isEqualTo(1);
    }

    /** Serves the next request, waiting up to 1 s for its datagram. */
    private static int serveNext(final MoldRequestServer server, final long nowNs) throws IOException
    {
        final long deadlineNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(1);
        int outcome;
        while (MoldRequestServer.NO_REQUEST == (outcome = server.serve(STORE, nowNs)) &&
            System.nanoTime() - deadlineNs < 0)
        {
            Thread.yield();
        }
        return outcome;
    }

    /** @return a Request Packet of Session {@code BOURSETEST} for one message from Sequence Number 1. */
    private static ByteBuffer request()
    {
        return ByteBuffer.allocate(MoldRequestServer.REQUEST_LENGTH)
            .put("BOURSETEST".getBytes(StandardCharsets.US_ASCII)).putLong(1).putShort((short)1).flip();
    }

    private long rateLimited()
    {
        return Counters.value(registry, "bourse_md_mold_requests_unanswered", "rate_limited");
    }

    private DatagramChannel open(final DatagramChannel channel)
    {
        channels.add(channel);
        return channel;
    }
}
