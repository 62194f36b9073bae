package io.bourse.mdpublisher;

import org.agrona.concurrent.Agent;
import org.agrona.concurrent.OneToOneConcurrentArrayQueue;

import java.io.IOException;
import java.net.SocketAddress;
import java.nio.ByteBuffer;

/**
 * Answers the MoldUDP64 Request Packets (MoldUDP64 Protocol Specification 1.00) that the session file answers, those
 * older than the {@link MoldMessageStore}'s memory holds, on a thread of its own: the file's reads are blocking I/O, a
 * disk access each once the page cache has let go of the messages, which on the feed's thread would hold back the live
 * packets of every receiver while late joiners backfill. The feed's thread hands each such request over
 * ({@link #offer}) with the session's file, its messages asked for written out first; this agent reads them with the
 * file's {@link MoldSessionFile#answerReader()} and sends the Downstream Packet on the request socket
 * ({@link MoldAnswerSender}), as the feed would have: the request's Session and Sequence Number, the Message Count,
 * then as many of the requested Message Blocks as fit in {@code maxPayloadLength} bytes.
 * <p>
 * At most {@value #MAX_WAITING} requests wait; past that, a request is dropped unanswered
 * ({@code bourse_md_mold_requests_unanswered_total{reason="file_busy"}}) and its requester asks again later, as a
 * MoldUDP64 receiver does for a request that got no answer. The requests still waiting when the agent stops are
 * answered then ({@link #onClose}). A request whose file was closed meanwhile (its session's
 * end is over) or failed gets no answer ({@code reason="outside_store"}); a read that fails is counted in
 * {@code bourse_md_mold_errors_total}, the first one logged, and the file is no longer used. Handing over and answering
 * allocate nothing: the requests' slots are preallocated and go back and forth between the two threads' queues.
 */
final class MoldFileAnswers implements Agent
{
    /** Most requests waiting for an answer from the session file. */
    static final int MAX_WAITING = 256;
    /** Most requests answered per duty cycle. */
    static final int ANSWERS_PER_DUTY_CYCLE = 16;

    private final OneToOneConcurrentArrayQueue<Request> waiting = new OneToOneConcurrentArrayQueue<>(MAX_WAITING);
    private final OneToOneConcurrentArrayQueue<Request> free = new OneToOneConcurrentArrayQueue<>(MAX_WAITING);
    private final MoldAnswerSender sender;
    private final int maxPayloadLength;
    private final MoldMetrics metrics;
    private final ByteBuffer response;
    private boolean readFailedLogged;

    /**
     * @param sender           sends the answers on the request socket.
     * @param maxPayloadLength most bytes of Message Blocks in one response, as in one Downstream Packet of the feed.
     * @param metrics          counts the requests answered, those left unanswered and the failed reads.
     */
    MoldFileAnswers(final MoldAnswerSender sender, final int maxPayloadLength, final MoldMetrics metrics)
    {
        this.sender = sender;
        this.maxPayloadLength = maxPayloadLength;
        this.metrics = metrics;
        this.response = ByteBuffer.allocateDirect(MoldRequestServer.REQUEST_LENGTH + maxPayloadLength);
        for (int i = 0; i < MAX_WAITING; i++)
        {
            free.offer(new Request());
        }
    }

    /**
     * Hands a request over to be answered on this agent's thread; on the feed's thread.
     *
     * @param request               the Request Packet's 20 bytes from index 0: Session, Sequence Number and
     *                              Requested Message Count.
     * @param requester             where the request came from.
     * @param file                  the session's file, the messages asked for written out
     *                              ({@link MoldMessageStore#sessionFile}).
     * @param sequenceNumber        of the first message requested, in the file.
     * @param requestedMessageCount most messages wanted, 1 or more.
     * @return false when {@value #MAX_WAITING} requests wait already: the request is dropped, counted.
     */
    boolean offer(
        final ByteBuffer request, final SocketAddress requester, final MoldSessionFile file, final long sequenceNumber,
        final int requestedMessageCount)
    {
        final Request slot = free.poll();
        if (null == slot)
        {
            metrics.onFileBusyRequest();
            return false;
        }
        slot.packet.put(0, request, 0, MoldRequestServer.REQUEST_LENGTH);
        slot.requester = requester;
        slot.file = file;
        slot.sequenceNumber = sequenceNumber;
        slot.requestedMessageCount = requestedMessageCount;
        waiting.offer(slot); // never full: as many slots as it holds
        return true;
    }

    /**
     * Answers the requests waiting, {@value #ANSWERS_PER_DUTY_CYCLE} at most.
     *
     * @return requests answered or left unanswered.
     */
    @Override
    public int doWork()
    {
        int answered = 0;
        Request request;
        while (answered < ANSWERS_PER_DUTY_CYCLE && null != (request = waiting.poll()))
        {
            try
            {
                answer(request);
            }
            finally
            {
                request.requester = null;
                request.file = null;
                free.offer(request);
            }
            answered++;
        }
        return answered;
    }

    /**
     * Answers the requests still waiting, on this agent's thread as it stops: its runner is closed after the feed's
     * (which hands over no more, its session's end over) and before the request socket and the session files close.
     */
    @Override
    public void onClose()
    {
        int answered;
        do
        {
            answered = doWork();
        }
        while (0 != answered);
    }

    @Override
    public String roleName()
    {
        return "md-mold-file";
    }

    private void answer(final Request request)
    {
        response.clear();
        response.put(request.packet.clear());
        int messageCount = 0;
        try
        {
            messageCount = request.file.answerReader().get(
                response, request.sequenceNumber, request.requestedMessageCount, maxPayloadLength);
        }
        catch (final IOException ex)
        {
            metrics.onError();
            if (!readFailedLogged)
            {
                readFailedLogged = true;
                System.err.println("[" + roleName() + "] MoldUDP64 session file " + request.file.path() + " failed, " +
                    "no longer used: requests older than the memory's messages go unanswered (logged once, counted " +
                    "in bourse_md_mold_errors_total): " + ex);
            }
        }
        metrics.onRequest(messageCount);
        sender.send(response, messageCount, request.requester);
    }

    /** A request waiting for its answer, or a free slot for one. */
    private static final class Request
    {
        private final ByteBuffer packet = ByteBuffer.allocate(MoldRequestServer.REQUEST_LENGTH);
        private SocketAddress requester;
        private MoldSessionFile file;
        private long sequenceNumber;
        private int requestedMessageCount;
    }
}
