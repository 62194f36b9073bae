package io.bourse.fanout;

import com.paritytrading.nassau.soupbintcp.SoupBinTCP;
import com.paritytrading.nassau.soupbintcp.SoupBinTCPClient;
import com.paritytrading.nassau.soupbintcp.SoupBinTCPClientStatusListener;
import io.bourse.itch.ItchTranslator;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.List;

/**
 * A subscriber's SoupBinTCP 4.0 client (nassau's) that keeps the type of every ITCH message it gets, the order
 * reference numbers of the Add Orders and the event codes and timestamps of the System Events; a Login Rejected fails
 * the test.
 */
final class TestSubscriber implements SoupBinTCPClientStatusListener, AutoCloseable
{
    /** ITCH 5.0 §4.3.1 Add Order: Order Reference Number offset. */
    static final int ORDER_REFERENCE_OFFSET = 11;
    /** ITCH 5.0 §4.1 System Event: Event Code offset. */
    static final int SYSTEM_EVENT_CODE_OFFSET = 11;

    final SocketChannel channel;
    final SoupBinTCPClient client;
    final List<Long> orders = new ArrayList<>();
    final List<Character> messageTypes = new ArrayList<>();
    final List<Character> eventCodes = new ArrayList<>();
    /** Of each System Event, nanoseconds since midnight. */
    final List<Long> eventTimestamps = new ArrayList<>();
    boolean accepted;
    /** SoupBinTCP 4.0 Login Accepted's Session, without its padding; null until one comes. */
    String session;
    /** SoupBinTCP 4.0 Login Rejected's Reject Reason Code; 0 until one comes. */
    char rejectReasonCode;
    boolean ended;

    TestSubscriber(final SocketChannel channel)
    {
        this.channel = channel;
        this.client = new SoupBinTCPClient(channel, this::onMessage, this);
    }

    private void onMessage(final ByteBuffer payload)
    {
        final char messageType = (char)payload.get(payload.position());
        messageTypes.add(messageType);
        if ('A' == messageType)
        {
            orders.add(payload.getLong(payload.position() + ORDER_REFERENCE_OFFSET));
        }
        else if ('S' == messageType)
        {
            eventCodes.add((char)payload.get(payload.position() + SYSTEM_EVENT_CODE_OFFSET));
            final int timestamp = payload.position() + ItchTranslator.TIMESTAMP_OFFSET;
            eventTimestamps.add(
                ItchTranslator.timeOfDayNs(payload.getShort(timestamp), payload.getInt(timestamp + Short.BYTES)));
        }
    }

    @Override
    public void loginAccepted(final SoupBinTCPClient session, final SoupBinTCP.LoginAccepted payload)
    {
        accepted = true;
        this.session = payload.getSession().trim();
    }

    @Override
    public void loginRejected(final SoupBinTCPClient session, final SoupBinTCP.LoginRejected payload)
    {
        rejectReasonCode = (char)payload.getRejectReasonCode();
    }

    @Override
    public void endOfSession(final SoupBinTCPClient session)
    {
        ended = true;
    }

    @Override
    public void heartbeatTimeout(final SoupBinTCPClient session)
    {
    }

    @Override
    public void close() throws IOException
    {
        client.close();
    }
}
