package io.bourse.mdpublisher;

import io.prometheus.metrics.model.registry.PrometheusRegistry;
import org.agrona.CloseHelper;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.DatagramChannel;
import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

/** The answers to MoldUDP64 Request Packets as they leave the request socket, over real loopback datagrams. */
@Timeout(30)
class MoldAnswerSenderTest
{
    private final PrometheusRegistry registry = new PrometheusRegistry();
    private final MoldMetrics metrics = new MoldMetrics(registry);
    private DatagramChannel serverChannel;
    private DatagramChannel requester;

    @AfterEach
    void tearDown()
    {
        CloseHelper.closeAll(serverChannel, requester);
    }

    /**
     * An answer the socket refuses (here, to port 0) is counted as unanswered and as an error, and the next answer is
     * sent as any other: the request's Session and Sequence Number, the Message Count in place of the Requested
     * Message Count, then the Message Blocks. An answer of no message is not sent.
     */
    @Test
    void shouldCountAnAnswerTheSocketRefusesAndSendTheNextWithItsMessageCount() throws IOException
    {
        serverChannel = Multicast.unicast();
        requester = Multicast.unicast();
        final MoldAnswerSender sender = new MoldAnswerSender(serverChannel, metrics);

        sender.send(answer(), 1, new InetSocketAddress("127.0.0.1", 0));
        assertThat(Counters.value(registry, "bourse_md_mold_requests_unanswered", "send_failed")).isOne();
        assertThat(Counters.value(registry, "bourse_md_mold_errors", null)).isOne();

        sender.send(answer(), 0, requester.getLocalAddress());
        assertThat(Multicast.receive(requester, 50)).as("no message, no answer").isNull();

        sender.send(answer(), 1, requester.getLocalAddress());
        final ByteBuffer received = ByteBuffer.wrap(Multicast.receive(requester, 1000)).order(ByteOrder.BIG_ENDIAN);
        assertThat(received.remaining()).isEqualTo(MoldRequestServer.REQUEST_LENGTH + 3);
        assertThat(StandardCharsets.US_ASCII.decode(received.slice(0, 10)).toString()).isEqualTo("BOURSETEST");
        assertThat(received.getLong(10)).as("Sequence Number").isEqualTo(5);
        assertThat(received.getShort(MoldRequestServer.MESSAGE_COUNT_OFFSET)).as("Message Count").isEqualTo((short)1);
        assertThat(received.getShort(20)).as("Message Length").isEqualTo((short)1);
        assertThat(received.get(22)).isEqualTo((byte)'A');
        assertThat(Counters.value(registry, "bourse_md_mold_requests_unanswered", "send_failed")).isOne();
    }

    /** @return a request for 16 messages from Sequence Number 5, then one Message Block of 1 byte, up to position. */
    private static ByteBuffer answer()
    {
        return ByteBuffer.allocate(MoldRequestServer.REQUEST_LENGTH + 3)
            .put("BOURSETEST".getBytes(StandardCharsets.US_ASCII)).putLong(5).putShort((short)16)
            .putShort((short)1).put((byte)'A');
    }
}
