package io.bourse.simulator;

import com.paritytrading.nassau.MessageListener;
import com.paritytrading.nassau.moldudp64.MoldUDP64Client;
import com.paritytrading.nassau.moldudp64.MoldUDP64ClientState;
import com.paritytrading.nassau.moldudp64.MoldUDP64ClientStatusListener;
import com.paritytrading.nassau.moldudp64.MoldUDP64Exception;
import org.agrona.CloseHelper;
import org.agrona.concurrent.NanoClock;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.StandardProtocolFamily;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.util.concurrent.TimeUnit;

/**
 * One MoldUDP64 1.00 market-data session: nassau's {@link MoldUDP64Client} reading Downstream Packets from the
 * multicast group and sending Request Packets to the md-publisher's re-request server from a unicast socket of its
 * own, whose responses it reads too. The client delivers every message once and in Sequence Number order: a packet
 * whose Sequence Number is past the next expected one shows a gap, which the client fills by re-request before
 * delivering anything after it (MoldUDP64 §"Request Packet"); a session that joins late asks for everything from
 * Sequence Number 1. Counts, on the market-data thread: gaps detected (each entry into the client's backfill or
 * gap-fill state, {@link SimulatorCounter#MD_GAPS}), Request Packets sent ({@link SimulatorCounter#MD_GAP_REQUESTS})
 * and messages recovered from responses ({@link SimulatorCounter#MD_GAP_MESSAGES}). A truncated datagram is counted as
 * an error and skipped; a socket failure ends the session, and so does a packet of the md-publisher's next run (a new
 * MoldUDP64 session, numbered from 1 again, which a new {@link #join} reads; see {@link #message} and
 * {@link #downstream}), or its End of Session once the End of Session packets have stopped ({@link #endOfSession}).
 * A gap asked for again and again with no message recovered for {@link #FILL_TIMEOUT_NS} fails the session
 * ({@link #poll}): an md-publisher without its session file ({@code BOURSE_MD_MOLD_STORE_DIR}), or past its size
 * limit, keeps only its newest messages ({@code BOURSE_MD_MOLD_STORE_MESSAGES}), and MoldUDP64 has no answer for a
 * request of older ones, so a session that joins later than that would otherwise wait for them for ever.
 */
final class MoldSession implements MarketDataSession, MoldUDP64ClientStatusListener, MessageListener
{
    private static final Runnable NOTHING_BEFORE_READ = () ->
    {
    };
    /** Most datagrams read from each socket per poll, so one busy socket does not starve the other. */
    static final int DATAGRAMS_PER_POLL = 64;
    /**
     * Time without an End of Session packet after which a session whose End of Session came is over, in nanoseconds:
     * 500 ms. Bourse's md-publisher sends one every 100 ms while its session ends.
     */
    static final long END_OF_SESSION_QUIET_NS = TimeUnit.MILLISECONDS.toNanos(500);
    /**
     * Longest time from the first End of Session packet to the end of the session, in nanoseconds, should they never
     * stop: 5 s, beyond the md-publisher's longest end of session (4 s).
     */
    static final long END_OF_SESSION_MAX_NS = TimeUnit.SECONDS.toNanos(5);
    /**
     * Longest time a gap may go on with no message recovered from a response, in nanoseconds, once it has been asked
     * for at least {@link #FILL_TIMEOUT_REQUESTS} times: 10 s, ten of nassau's request timeouts.
     */
    static final long FILL_TIMEOUT_NS = TimeUnit.SECONDS.toNanos(10);
    /**
     * Request Packets a gap takes, with no message recovered, before {@link #FILL_TIMEOUT_NS} can fail it: nassau asks
     * again only when a packet past the gap comes 1 s or more after the last request, so one lost request or response
     * on a quiet feed with long heartbeat intervals does not fail the session.
     */
    static final int FILL_TIMEOUT_REQUESTS = 2;
    private static final int RECEIVE_BUFFER_BYTES = 8 * 1024 * 1024;
    /** MoldUDP64 1.00 Downstream Packet: Session, 10 alphanumeric bytes at offset 0. */
    private static final int SESSION_LENGTH = 10;

    private final String name;
    private final MoldUDP64Client client;
    private final MessageListener listener;
    private final MoldReplay replay;
    private final SimulatorCounters counters;
    private final NanoClock nanoClock;
    private volatile boolean active = true;
    private boolean ending;
    private long firstEndOfSessionNs;
    private long lastEndOfSessionNs;
    /** When the gap being filled last made progress: it showed, or a response delivered a message. */
    private long lastFillProgressNs;
    /** Request Packets sent since then. */
    private int requestsSinceFillProgress;
    private volatile MoldUDP64ClientState state = MoldUDP64ClientState.UNKNOWN;
    private volatile long nextExpectedSequenceNumber = 1;
    private volatile long heartbeats;
    private boolean readingResponse;
    /** The MoldUDP64 Session of the messages this join delivered, as sent; set by the first. */
    private final byte[] joinedSession = new byte[SESSION_LENGTH];
    private boolean sessionKnown;

    /**
     * @param name           for messages.
     * @param downstream     where the Downstream Packets arrive, non-blocking.
     * @param requests       sends Request Packets and receives their responses, non-blocking.
     * @param requestAddress the md-publisher's re-request server.
     * @param listener       receives every ITCH 5.0 message, in Sequence Number order.
     * @param replay         told of each message first, to tell those an earlier join of the same session delivered;
     *                       this join is a new one to it.
     * @param counters       where gaps, requests, recovered messages and errors are counted.
     * @param nanoClock      monotonic time of the End of Session packets and of the gaps' fill.
     */
    MoldSession(
        final String name,
        final DatagramChannel downstream,
        final DatagramChannel requests,
        final InetSocketAddress requestAddress,
        final MessageListener listener,
        final MoldReplay replay,
        final SimulatorCounters counters,
        final NanoClock nanoClock)
    {
        this.name = name;
        this.listener = listener;
        this.replay = replay;
        replay.joined();
        this.counters = counters;
        this.nanoClock = nanoClock;
        this.client = new MoldUDP64Client(downstream, requests, requestAddress, this, this);
    }

    /**
     * Joins the group and opens the request socket.
     *
     * @param name           for messages, e.g. {@code "MoldUDP64 session 0 (239.192.0.1:17000)"}.
     * @param group          multicast group and port of the Downstream Packets.
     * @param localInterface address of the interface on which to join the group and from which to send requests.
     * @param requestAddress the md-publisher's re-request server.
     * @param listener       receives every ITCH 5.0 message, in Sequence Number order.
     * @param replay         told of each message first ({@link MoldReplay}), kept across the joins of one index.
     * @param counters       where gaps, requests, recovered messages and errors are counted.
     * @param nanoClock      monotonic time of the End of Session packets and of the gaps' fill.
     * @return the session; it asks for the messages it missed when the first packet arrives.
     * @throws IOException naming the session when a socket cannot be opened, bound or joined.
     */
    static MoldSession join(
        final String name,
        final InetSocketAddress group,
        final InetAddress localInterface,
        final InetSocketAddress requestAddress,
        final MessageListener listener,
        final MoldReplay replay,
        final SimulatorCounters counters,
        final NanoClock nanoClock) throws IOException
    {
        DatagramChannel downstream = null;
        DatagramChannel requests = null;
        try
        {
            final NetworkInterface networkInterface = NetworkInterface.getByInetAddress(localInterface);
            if (null == networkInterface)
            {
                throw new IOException("no local interface has the address " + localInterface.getHostAddress());
            }
            downstream = DatagramChannel.open(StandardProtocolFamily.INET);
            downstream.setOption(StandardSocketOptions.SO_REUSEADDR, true);
            downstream.setOption(StandardSocketOptions.SO_RCVBUF, RECEIVE_BUFFER_BYTES);
            // Bound to the group, not the wildcard, so that other groups on the same port are not heard (Linux).
            downstream.bind(group);
            downstream.join(group.getAddress(), networkInterface);
            downstream.configureBlocking(false);
            requests = DatagramChannel.open(StandardProtocolFamily.INET);
            requests.bind(new InetSocketAddress(localInterface, 0));
            requests.configureBlocking(false);
            return new MoldSession(
                name, downstream, requests, requestAddress, listener, replay, counters, nanoClock);
        }
        catch (final IOException ex)
        {
            CloseHelper.quietCloseAll(downstream, requests);
            throw new IOException(name + ": cannot join " + group + " on " + localInterface.getHostAddress() +
                ": " + ex.getMessage(), ex);
        }
    }

    /**
     * Reads the Downstream Packets and the responses that have arrived, at most {@value #DATAGRAMS_PER_POLL} of
     * each; the client sends a Request Packet when one shows a gap. Ends the session once its End of Session packets
     * have stopped for {@link #END_OF_SESSION_QUIET_NS}, or {@link #END_OF_SESSION_MAX_NS} after the first.
     *
     * @return datagrams read.
     * @throws IOException when a socket fails, or when a gap has been asked for {@link #FILL_TIMEOUT_REQUESTS} times
     *                     or more and {@link #FILL_TIMEOUT_NS} has passed with no message recovered (naming the first
     *                     missing message); the session is then no longer active.
     */
    @Override
    public int poll() throws IOException
    {
        return poll(NOTHING_BEFORE_READ);
    }

    /**
     * {@link #poll()}, running {@code beforeRead} before each datagram's read.
     *
     * @param beforeRead stamps the receive time of the messages the next datagram delivers.
     * @return datagrams read.
     * @throws IOException as {@link #poll()}.
     */
    @Override
    public int poll(final Runnable beforeRead) throws IOException
    {
        int datagrams = 0;
        try
        {
            beforeRead.run();
            while (active && datagrams < DATAGRAMS_PER_POLL && client.receive())
            {
                datagrams++;
                beforeRead.run();
            }
            readingResponse = true;
            final int limit = datagrams + DATAGRAMS_PER_POLL;
            while (active && datagrams < limit && client.receiveResponse())
            {
                datagrams++;
                beforeRead.run();
            }
        }
        catch (final MoldUDP64Exception ex)
        {
            counters.errors().error(SimulatorError.MALFORMED_MOLD, name, ex);
            datagrams++;
        }
        catch (final IOException ex)
        {
            active = false;
            throw ex;
        }
        finally
        {
            readingResponse = false;
        }
        if (ending)
        {
            final long nowNs = nanoClock.nanoTime();
            if (nowNs - lastEndOfSessionNs >= END_OF_SESSION_QUIET_NS ||
                nowNs - firstEndOfSessionNs >= END_OF_SESSION_MAX_NS)
            {
                active = false;
            }
        }
        else if (active && !isFilled() && requestsSinceFillProgress >= FILL_TIMEOUT_REQUESTS &&
            nanoClock.nanoTime() - lastFillProgressNs >= FILL_TIMEOUT_NS)
        {
            active = false;
            throw new IOException("no message recovered for " + TimeUnit.NANOSECONDS.toSeconds(FILL_TIMEOUT_NS) +
                " s of requests from sequence number " + nextExpectedSequenceNumber + " on: the md-publisher no " +
                "longer keeps them (without its session file, BOURSE_MD_MOLD_STORE_DIR, or past its size, it keeps " +
                "its newest BOURSE_MD_MOLD_STORE_MESSAGES), stopped, or its re-request " +
                "port is out of reach; a subscriber that joins a long-running feed late needs the fanout's snapshot " +
                "(BOURSE_SIMULATOR_MD_FEED=soupbintcp)");
        }
        return datagrams;
    }

    /**
     * Delivers a message of the joined MoldUDP64 session. A message of another session (the md-publisher's next run)
     * ends this one undelivered, and so do the rest of its packet: nassau's client neither checks a packet's Session
     * nor calls {@link #downstream} before it has delivered the packet's messages, and asks for a gap under the
     * Session of the packet that showed it. Before, a next run's first packet that reached past the next expected
     * message had those messages delivered into the old run's books, and one past a gap had its gap filled from the
     * next run's request server. nassau 1.0.0 hands its receive buffer here, the whole datagram from index 0, so the
     * packet's Session is read there. A Heartbeat delivers no message, so its Session is not checked: one of the next
     * run below the next expected message ends the session ({@link #downstream}), one above it shows a gap whose fill
     * then does; one at it passes for the joined run's.
     *
     * @param buffer the ITCH 5.0 message from its position to its limit, within the datagram.
     * @throws IOException as the listener's.
     */
    @Override
    public void message(final ByteBuffer buffer) throws IOException
    {
        if (!active || !isOfJoinedSession(buffer))
        {
            active = false;
            return;
        }
        if (readingResponse)
        {
            counters.increment(SimulatorCounter.MD_GAP_MESSAGES);
            lastFillProgressNs = nanoClock.nanoTime();
            requestsSinceFillProgress = 0;
        }
        replay.onMessage(buffer);
        listener.message(buffer);
    }

    private boolean isOfJoinedSession(final ByteBuffer datagram)
    {
        if (!sessionKnown)
        {
            datagram.get(0, joinedSession);
            sessionKnown = true;
            return true;
        }
        for (int i = 0; i < SESSION_LENGTH; i++)
        {
            if (datagram.get(i) != joinedSession[i])
            {
                return false;
            }
        }
        return true;
    }

    @Override
    public void state(final MoldUDP64Client session, final MoldUDP64ClientState next)
    {
        if (MoldUDP64ClientState.BACKFILL == next || MoldUDP64ClientState.GAP_FILL == next)
        {
            counters.increment(SimulatorCounter.MD_GAPS);
            lastFillProgressNs = nanoClock.nanoTime();
            requestsSinceFillProgress = 0;
        }
        state = next;
    }

    /**
     * A Downstream Packet or response at or before the next expected message. On the multicast group, a packet below
     * it (a Heartbeat, or messages nassau's client has skipped as already delivered) comes from the md-publisher's next
     * run (a new session, numbered from 1 again): within one session a Heartbeat carries the next Sequence Number and
     * no packet is sent twice (responses may be: a request sent again is answered again), and a gap's request asks
     * only for messages before a packet already read, so no response passes a packet still to come. nassau's client
     * does not look at the Session, so that is how a run that ended without End of Session (it crashed), or whose End
     * of Session went by while this one filled a gap, shows; this session then ends. Before, only a Heartbeat or a
     * packet from Sequence Number 1 did: with that packet lost, the next run's messages past the old next expected one
     * went into the old run's books. A packet the network duplicated, or overtaken by the packet after it, would end
     * a session too (not on one host), which the re-join then reads again from 1.
     */
    @Override
    public void downstream(final MoldUDP64Client session, final long sequenceNumber, final int messageCount)
    {
        if (!active)
        {
            return;
        }
        if (!readingResponse && sequenceNumber < nextExpectedSequenceNumber)
        {
            active = false;
            return;
        }
        nextExpectedSequenceNumber = Math.max(nextExpectedSequenceNumber, sequenceNumber + messageCount);
        if (!readingResponse && 0 == messageCount)
        {
            heartbeats++; // one writer, this thread
        }
    }

    /**
     * @return Heartbeats from the group at or before the next expected message: each says that every message sent
     * before it was delivered (a lost last packet shows only at the next Heartbeat, as a gap). Any thread.
     */
    long heartbeats()
    {
        return heartbeats;
    }

    @Override
    public void request(final MoldUDP64Client session, final long sequenceNumber, final int requestedMessageCount)
    {
        counters.increment(SimulatorCounter.MD_GAP_REQUESTS);
        requestsSinceFillProgress++;
    }

    /**
     * The md-publisher ends the session (it stops), and every message of it has been delivered: nothing more will come
     * of it. MoldUDP64 1.00 sends End of Session packets "for a short while in place of Heartbeats", Bourse's for
     * {@code BOURSE_MD_MOLD_END_OF_SESSION_MS}; this session ends once they have stopped for
     * {@link #END_OF_SESSION_QUIET_NS} (at the latest {@link #END_OF_SESSION_MAX_NS} after the first), so that a new
     * {@link #join} does not take one for a gap in a new session and backfill the old session's messages from its
     * request server, still answering.
     */
    @Override
    public void endOfSession(final MoldUDP64Client session)
    {
        lastEndOfSessionNs = nanoClock.nanoTime();
        if (!ending)
        {
            ending = true;
            firstEndOfSessionNs = lastEndOfSessionNs;
        }
    }

    /**
     * @return true when every message up to the end of the newest packet seen has been delivered: the client is
     * synchronized, or has seen no packet yet. Any thread.
     */
    boolean isFilled()
    {
        final MoldUDP64ClientState current = state;
        return MoldUDP64ClientState.SYNCHRONIZED == current || MoldUDP64ClientState.UNKNOWN == current;
    }

    /** @return the client's state: UNKNOWN before the first packet, then as nassau reports it. Any thread. */
    MoldUDP64ClientState state()
    {
        return state;
    }

    /** @return the Sequence Number after the last message delivered (1 before any). Any thread. */
    long nextExpectedSequenceNumber()
    {
        return nextExpectedSequenceNumber;
    }

    @Override
    public boolean isActive()
    {
        return active;
    }

    @Override
    public String name()
    {
        return name;
    }

    @Override
    public void abort()
    {
        active = false;
        CloseHelper.quietCloseAll(client.getChannel(), client.getRequestChannel());
    }

    @Override
    public void close() throws IOException
    {
        active = false;
        client.close();
    }
}
