package io.bourse.mdpublisher;

import io.bourse.common.time.TokenBucket;
import org.agrona.collections.Object2ObjectHashMap;

import java.io.IOException;
import java.net.SocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.util.function.Predicate;

/**
 * The MoldUDP64 1.00 re-request server on the feed's unicast request socket. It reads one Request Packet at a time:
 * Session (Alpha, 10 bytes), Sequence Number (unsigned, 8 bytes, big-endian) and Requested Message Count (unsigned,
 * 2 bytes): 20 bytes. It answers the sender with a Downstream Packet: the request's Session and Sequence Number, the
 * Message Count the store wrote, then their Message Blocks. When the store writes none, there is no answer.
 * <p>
 * A datagram of another length, for Sequence Number 0 (or past 2^63 - 1), or for no message is malformed: counted in
 * {@code bourse_md_mold_requests_unanswered_total{reason="malformed"}}, the first one logged, and left unanswered.
 * The next request is then read as any other. This class stands in for nassau's MoldUDP64RequestServer, which returns
 * from a short or Sequence Number 0 datagram exactly as from an empty socket, so that the caller can neither count it
 * nor tell that more requests may wait, and reads a longer datagram as its first 20 bytes.
 * <p>
 * Each requester (IP address and UDP port) has a token bucket of requests per second, one second's worth at once: a
 * request past it is dropped unanswered ({@code reason="rate_limited"}, the first one logged), and its requester asks
 * again later, as a MoldUDP64 receiver does for a request that got no answer. Dropped requests cost a read, not a store
 * lookup or an answer, and the feed counts only the requests served against its budget per look ({@link #SERVED}), so
 * one requester cannot take the answers from the others; a forged source gets at most its bucket's answers per
 * address and port (many forged ports of one host still add up). The buckets of up to {@value #MAX_REQUESTERS}
 * requesters are kept; past that, those full again are forgotten, and while none is, a new requester's requests are
 * dropped likewise, the table looked through again at most once a millisecond. An answer the socket refuses is
 * counted ({@link MoldAnswerSender}) and the next request read as any other.
 * <p>
 * Single-threaded, on the MoldUDP64 feed agent's thread; the answers the session file gives are sent on another
 * ({@link MoldFileAnswers}). Per request, only the JDK's sender address is allocated, and a new requester's bucket.
 */
final class MoldRequestServer
{
    /** Length of a Request Packet, in bytes. */
    static final int REQUEST_LENGTH = 20;
    private static final int SEQUENCE_NUMBER_OFFSET = 10;
    /** Offset of a request's Requested Message Count, and of its answer's Message Count. */
    static final int MESSAGE_COUNT_OFFSET = 18;
    /** Most requesters whose token buckets are kept. */
    static final int MAX_REQUESTERS = 1024;
    /** {@link #serve}: no datagram waited. */
    static final int NO_REQUEST = 0;
    /** {@link #serve}: a datagram was read and dropped, malformed or past its requester's rate: no store lookup. */
    static final int DROPPED = 1;
    /** {@link #serve}: a request was looked up in the store, and answered when it held any of its messages. */
    static final int SERVED = 2;
    /** How long a full table of requesters, none of them full again, is not looked through again: 1 ms. */
    private static final long EVICTION_RETRY_NS = 1_000_000L;

    private final DatagramChannel channel;
    private final MoldAnswerSender sender;
    private final MoldMetrics metrics;
    /** One byte more than a request, so that a longer datagram shows. */
    private final ByteBuffer request = ByteBuffer.allocateDirect(REQUEST_LENGTH + 1);
    private final ByteBuffer response;
    private final int requestsPerSecond;
    private final Object2ObjectHashMap<SocketAddress, TokenBucket> requesters = new Object2ObjectHashMap<>();
    private long evictionNowNs;
    private final Predicate<TokenBucket> refilled = (bucket) -> bucket.isFull(evictionNowNs);
    private long nextEvictionNs;
    private boolean evictionDue = true;
    private boolean malformedLogged;
    private boolean rateLimitedLogged;

    /**
     * @param channel           the bound, non-blocking request socket; its owner closes it.
     * @param sender            sends the answers on that socket.
     * @param maxPayloadLength  most bytes of Message Blocks in one response, as in one Downstream Packet of the feed.
     * @param requestsPerSecond most requests answered per second to one requester, 0 for no limit.
     * @param metrics           counts the requests left unanswered.
     */
    MoldRequestServer(
        final DatagramChannel channel, final MoldAnswerSender sender, final int maxPayloadLength,
        final int requestsPerSecond, final MoldMetrics metrics)
    {
        this.channel = channel;
        this.sender = sender;
        this.metrics = metrics;
        this.requestsPerSecond = requestsPerSecond;
        this.response = ByteBuffer.allocateDirect(REQUEST_LENGTH + maxPayloadLength);
    }

    /**
     * Reads the next Request Packet, if one waits, and answers it.
     *
     * @param answers writes the requested Message Blocks, or hands the request on ({@link Answers#write}).
     * @param nowNs   monotonic time in nanoseconds, for the requesters' token buckets.
     * @return {@link #NO_REQUEST}, {@link #DROPPED} or {@link #SERVED}.
     * @throws IOException when the socket cannot receive.
     */
    int serve(final Answers answers, final long nowNs) throws IOException
    {
        request.clear();
        final SocketAddress requester = channel.receive(request);
        if (null == requester)
        {
            return NO_REQUEST;
        }
        request.flip();
        final int length = request.remaining();
        final boolean whole = REQUEST_LENGTH == length;
        final long sequenceNumber = whole ? request.getLong(SEQUENCE_NUMBER_OFFSET) : 0;
        final int requestedMessageCount = whole ? request.getShort(MESSAGE_COUNT_OFFSET) & 0xFFFF : 0;
        if (sequenceNumber < 1 || 0 == requestedMessageCount)
        {
            onMalformed(requester, length);
            return DROPPED;
        }
        if (!admit(requester, nowNs))
        {
            onRateLimited(requester);
            return DROPPED;
        }
        response.clear();
        response.put(request);
        sender.send(response, answers.write(response, sequenceNumber, requestedMessageCount, requester), requester);
        return SERVED;
    }

    /** Where a Request Packet's answer comes from: the feed's store of the session the request names. */
    @FunctionalInterface
    interface Answers
    {
        /**
         * Writes the requested Message Blocks, as {@link com.paritytrading.nassau.moldudp64.MoldUDP64MessageStore#get},
         * or hands the request on to be answered elsewhere.
         *
         * @param response              the request's 20 bytes (Session first), then room for the Message Blocks at its
         *                              position, which advances past those written.
         * @param sequenceNumber        of the first message requested.
         * @param requestedMessageCount most messages wanted, 1 or more.
         * @param requester             where the request came from.
         * @return the number of messages written; 0 for no answer from here (none kept, or handed on).
         */
        int write(ByteBuffer response, long sequenceNumber, int requestedMessageCount, SocketAddress requester);
    }

    /** Takes a token from the requester's bucket, made on its first request: false when it has none left. */
    private boolean admit(final SocketAddress requester, final long nowNs)
    {
        if (0 == requestsPerSecond)
        {
            return true;
        }
        TokenBucket bucket = requesters.get(requester);
        if (null == bucket)
        {
            if (requesters.size() >= MAX_REQUESTERS && !evict(nowNs))
            {
                return false;
            }
            bucket = new TokenBucket(requestsPerSecond);
            requesters.put(requester, bucket);
        }
        return bucket.tryTake(nowNs);
    }

    /** @return true when requesters whose buckets are full again were forgotten, leaving room for another. */
    private boolean evict(final long nowNs)
    {
        if (!evictionDue && nowNs < nextEvictionNs)
        {
            return false;
        }
        evictionNowNs = nowNs;
        requesters.values().removeIf(refilled);
        evictionDue = requesters.size() < MAX_REQUESTERS;
        nextEvictionNs = nowNs + EVICTION_RETRY_NS;
        return evictionDue;
    }

    private void onRateLimited(final SocketAddress requester)
    {
        metrics.onRateLimitedRequest();
        if (!rateLimitedLogged)
        {
            rateLimitedLogged = true;
            System.err.println("[md-mold] MoldUDP64 Request Packet from " + requester + " dropped: past " +
                requestsPerSecond + " requests a second from one requester (bourse.md.mold.requests.per.second); " +
                "logged once, counted in bourse_md_mold_requests_unanswered_total{reason=\"rate_limited\"}");
        }
    }

    private void onMalformed(final SocketAddress requester, final int length)
    {
        metrics.onMalformedRequest();
        if (!malformedLogged)
        {
            malformedLogged = true;
            System.err.println("[md-mold] malformed MoldUDP64 Request Packet from " + requester + " dropped: " +
                (length > REQUEST_LENGTH ? "more than " + REQUEST_LENGTH : length) + " bytes (a request is " +
                REQUEST_LENGTH + ", for Sequence Number 1 or more and at least one message); logged once, counted " +
                "in bourse_md_mold_requests_unanswered_total{reason=\"malformed\"}");
        }
    }
}
