package io.bourse.it;

import com.paritytrading.nassau.MessageListener;
import com.paritytrading.nassau.moldudp64.MoldUDP64Client;
import com.paritytrading.nassau.moldudp64.MoldUDP64ClientState;
import com.paritytrading.nassau.moldudp64.MoldUDP64ClientStatusListener;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.StandardProtocolFamily;
import java.net.StandardSocketOptions;
import java.nio.channels.DatagramChannel;
import java.util.ArrayList;
import java.util.List;

/**
 * A MoldUDP64 1.00 receiver for the integration tests: nassau's {@link MoldUDP64Client} joined to the md-publisher's
 * multicast group on the loopback, sending Request Packets to its re-request port from a unicast socket of its own
 * and reading their responses; it starts from Sequence Number 1, so a late joiner asks for everything it missed. Every
 * message goes to the listener in Sequence Number order; the client's states and requests are recorded.
 */
final class MoldUdp64TestClient implements MoldUDP64ClientStatusListener, AutoCloseable
{
    /** The md-publisher's default group, port and interface (the compose file's). */
    static final InetSocketAddress GROUP = new InetSocketAddress("239.192.0.1", 17000);
    /** The md-publisher's default re-request server. */
    static final InetSocketAddress REQUEST_ADDRESS = new InetSocketAddress("127.0.0.1", 17001);

    /** A Request Packet the client sent. */
    record Request(long sequenceNumber, int messageCount)
    {
    }

    private final MoldUDP64Client client;
    private final List<MoldUDP64ClientState> states = new ArrayList<>();
    private final List<Request> requests = new ArrayList<>();
    private long nextSequenceNumber = 1;

    private MoldUdp64TestClient(
        final DatagramChannel downstream, final DatagramChannel requestChannel, final MessageListener listener)
    {
        client = new MoldUDP64Client(downstream, requestChannel, REQUEST_ADDRESS, listener, this);
    }

    /**
     * Joins {@link #GROUP} on the loopback.
     *
     * @param listener receives every message.
     * @return the client; it asks for the messages before the first packet it sees once that packet arrives.
     * @throws IOException when a socket cannot be opened or joined.
     */
    static MoldUdp64TestClient join(final MessageListener listener) throws IOException
    {
        final InetAddress loopback = InetAddress.getByName(REQUEST_ADDRESS.getHostString());
        final DatagramChannel downstream = DatagramChannel.open(StandardProtocolFamily.INET);
        final DatagramChannel requestChannel = DatagramChannel.open(StandardProtocolFamily.INET);
        try
        {
            downstream.setOption(StandardSocketOptions.SO_REUSEADDR, true);
            downstream.bind(GROUP);
            downstream.join(GROUP.getAddress(), NetworkInterface.getByInetAddress(loopback));
            downstream.configureBlocking(false);
            requestChannel.bind(new InetSocketAddress(loopback, 0));
            requestChannel.configureBlocking(false);
            return new MoldUdp64TestClient(downstream, requestChannel, listener);
        }
        catch (final IOException ex)
        {
            downstream.close();
            requestChannel.close();
            throw ex;
        }
    }

    /**
     * Reads every Downstream Packet and response that has arrived.
     *
     * @throws IOException when a socket fails or a packet is malformed.
     */
    void poll() throws IOException
    {
        boolean received;
        do
        {
            received = client.receive() | client.receiveResponse();
        }
        while (received);
    }

    /** @return the client's states in order: BACKFILL first for a late joiner, then SYNCHRONIZED. */
    List<MoldUDP64ClientState> states()
    {
        return states;
    }

    /** @return the Request Packets sent, in order. */
    List<Request> requests()
    {
        return requests;
    }

    /** @return the Sequence Number after the last message delivered. */
    long nextSequenceNumber()
    {
        return nextSequenceNumber;
    }

    @Override
    public void state(final MoldUDP64Client session, final MoldUDP64ClientState next)
    {
        states.add(next);
    }

    @Override
    public void downstream(final MoldUDP64Client session, final long sequenceNumber, final int messageCount)
    {
        nextSequenceNumber = Math.max(nextSequenceNumber, sequenceNumber + messageCount);
    }

    @Override
    public void request(final MoldUDP64Client session, final long sequenceNumber, final int requestedMessageCount)
    {
        requests.add(new Request(sequenceNumber, requestedMessageCount));
    }

    @Override
    public void endOfSession(final MoldUDP64Client session)
    {
        // The exchange stops after the test class: nothing to do.
    }

    @Override
    public void close() throws IOException
    {
        client.close();
    }
}
