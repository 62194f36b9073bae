package io.bourse.mdpublisher;

import java.io.IOException;
import java.net.SocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Sends the Downstream Packets that answer MoldUDP64 Request Packets (MoldUDP64 Protocol Specification 1.00) to their
 * requesters, from the feed's unicast request socket, the one the requests came to: on the feed's thread, for the
 * requests the memory answers ({@link MoldRequestServer}), and on the {@link MoldFileAnswers}' thread, for those the
 * session file answers (a datagram channel takes one send at a time, in whichever thread's order). An answer the socket
 * refuses (a source the host cannot send to, port 0 among them) is counted
 * ({@code bourse_md_mold_requests_unanswered_total{reason="send_failed"}} and as an error), the first one logged.
 */
final class MoldAnswerSender
{
    private final DatagramChannel channel;
    private final MoldMetrics metrics;
    private final AtomicBoolean sendFailedLogged = new AtomicBoolean();

    /**
     * @param channel the bound, non-blocking request socket; its owner closes it.
     * @param metrics counts the answers the socket refused.
     */
    MoldAnswerSender(final DatagramChannel channel, final MoldMetrics metrics)
    {
        this.channel = channel;
        this.metrics = metrics;
    }

    /**
     * Sends an answer, waiting while the socket's buffer is full: the kernel drains it at wire speed.
     *
     * @param answer       the request's 20 bytes from index 0 (Session, Sequence Number, Requested Message Count),
     *                     then the Message Blocks written for it, up to its position; its Requested Message Count
     *                     becomes the answer's Message Count, and it is sent from index 0 to its position.
     * @param messageCount the Message Blocks written, 0 for no answer: then nothing is sent.
     * @param requester    where the Request Packet came from.
     */
    void send(final ByteBuffer answer, final int messageCount, final SocketAddress requester)
    {
        if (0 == messageCount)
        {
            return;
        }
        answer.putShort(MoldRequestServer.MESSAGE_COUNT_OFFSET, (short)messageCount).flip();
        try
        {
            while (0 == channel.send(answer, requester))
            {
                Thread.onSpinWait();
            }
        }
        catch (final IOException ex)
        {
            metrics.onFailedAnswer();
            if (sendFailedLogged.compareAndSet(false, true))
            {
                System.err.println("[md-mold] answer to the MoldUDP64 Request Packet from " + requester + " not " +
                    "sent: " + ex + "; logged once, counted in " +
                    "bourse_md_mold_requests_unanswered_total{reason=\"send_failed\"}");
            }
        }
    }
}
