package io.bourse.mdpublisher;

import com.paritytrading.nassau.moldudp64.MoldUDP64Client;
import com.paritytrading.nassau.moldudp64.MoldUDP64ClientState;
import com.paritytrading.nassau.moldudp64.MoldUDP64ClientStatusListener;
import io.bourse.itch.ItchEvents;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.channels.DatagramChannel;
import java.util.ArrayList;
import java.util.List;

/**
 * A real MoldUDP64 receiver: nassau's {@link MoldUDP64Client} reading Downstream Packets from one channel (joined to
 * the group, or fed by a test relay) and sending Request Packets from a channel of its own, whose responses it reads
 * too; every ITCH 5.0 message it delivers is parsed into {@link ItchEvents}.
 */
final class MoldReceiver implements MoldUDP64ClientStatusListener, AutoCloseable
{
    /** A Request Packet the client sent. */
    record Request(long sequenceNumber, int messageCount)
    {
    }

    final ItchEvents itch = new ItchEvents();
    final List<MoldUDP64ClientState> states = new ArrayList<>();
    final List<Request> requests = new ArrayList<>();
    boolean endOfSession;
    /** Heartbeats (and End of Session packets) received from the group. */
    int heartbeats;
    private final MoldUDP64Client client;

    /**
     * @param downstream     where Downstream Packets arrive, non-blocking.
     * @param requestAddress the re-request server.
     */
    MoldReceiver(final DatagramChannel downstream, final InetSocketAddress requestAddress) throws IOException
    {
        client = new MoldUDP64Client(downstream, Multicast.unicast(), requestAddress, itch.parser(), this);
    }

    /**
     * The messages a session of the tests' symbol directory (AAPL@0,MSFT@1) opens with (ITCH 5.0 &sect;4.1-4.2.2):
     * Start of Messages, the Stock Directory, the Trading Action spin, Start of System and Start of Market Hours.
     *
     * @param msftState  MSFT's Trading State in the spin ('T' trading, 'H' halted, ...); AAPL's is 'T'.
     * @param msftReason its Reason, 4 characters.
     * @return a new modifiable list of them, in order.
     */
    static List<ItchEvents.Message> sessionOpening(final char msftState, final String msftReason)
    {
        return new ArrayList<>(List.of(
            new ItchEvents.SystemEvent(0, 'O'),
            new ItchEvents.StockDirectory(1, "AAPL", 'Q', 'N', 100, 'C', 'T'),
            new ItchEvents.StockDirectory(2, "MSFT", 'Q', 'N', 100, 'C', 'T'),
            new ItchEvents.StockTradingAction(1, "AAPL", 'T', "    "),
            new ItchEvents.StockTradingAction(2, "MSFT", msftState, msftReason),
            new ItchEvents.SystemEvent(0, 'S'),
            new ItchEvents.SystemEvent(0, 'Q')));
    }

    /** Reads every packet and response that has arrived. */
    void poll() throws IOException
    {
        boolean received;
        do
        {
            received = client.receive() | client.receiveResponse();
        }
        while (received);
    }

    /**
     * {@link #poll()} for a wait's condition.
     *
     * @return true.
     * @throws UncheckedIOException when reading fails.
     */
    boolean polled()
    {
        try
        {
            poll();
            return true;
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }

    @Override
    public void state(final MoldUDP64Client session, final MoldUDP64ClientState next)
    {
        states.add(next);
    }

    @Override
    public void downstream(final MoldUDP64Client session, final long sequenceNumber, final int messageCount)
    {
        if (0 == messageCount)
        {
            heartbeats++;
        }
    }

    @Override
    public void request(final MoldUDP64Client session, final long sequenceNumber, final int requestedMessageCount)
    {
        requests.add(new Request(sequenceNumber, requestedMessageCount));
    }

    @Override
    public void endOfSession(final MoldUDP64Client session)
    {
        endOfSession = true;
    }

    @Override
    public void close() throws IOException
    {
        client.close();
    }
}
