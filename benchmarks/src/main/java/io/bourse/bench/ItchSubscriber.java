package io.bourse.bench;

import com.paritytrading.nassau.MessageListener;
import com.paritytrading.nassau.soupbintcp.SoupBinTCP;
import com.paritytrading.nassau.soupbintcp.SoupBinTCPClient;
import com.paritytrading.nassau.soupbintcp.SoupBinTCPClientStatusListener;
import io.bourse.common.config.Credentials;
import io.bourse.common.time.MidnightNanoClock;
import io.bourse.itch.ItchTranslator;
import org.HdrHistogram.Histogram;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;

/**
 * One subscriber of the fanout benchmark: a nassau SoupBinTCP 4.0 client on a non-blocking socket, logged in for every
 * symbol from sequence number 1, that counts the live ITCH 5.0 messages it receives (Add Order, Order Executed, Order
 * Delete) and records, for those whose Timestamp falls in the measured window, receipt time minus Timestamp into its
 * reader's histogram. The Timestamp is the message's intended send time on the input schedule, so the latency includes
 * any wait of the input behind its schedule (coordinated-omission corrected); the receipt time is read from the same
 * {@link MidnightNanoClock} once per read call, after the read, and the Timestamp (the time of day) is taken on that
 * clock to the day nearest the receipt. A run across midnight UTC does not measure the same: the fanout ends its
 * sessions' trading day then (System Event End of Messages, End of Session), which the run counts as connections the
 * fanout closed, and so fails; run it away from midnight. An observer may see every ITCH
 * message first (the end-to-end benchmark's {@link EndToEndLatency}). Read by one thread; its counts may be read by
 * others.
 */
final class ItchSubscriber implements MessageListener, SoupBinTCPClientStatusListener, AutoCloseable
{
    private final SoupBinTCPClient client;
    private final MidnightNanoClock clock;
    private final MessageListener observer;
    private long windowStartNs;
    private long windowEndNs;
    private Histogram histogram;
    private StallRecorder stallRecorder;
    private long receiptNs;
    private long lastWindowReceiptNs;
    private volatile long received;
    private volatile long receivedInWindow;
    private volatile int sessionStart;
    private volatile boolean loginAccepted;
    private volatile boolean endOfSession;

    private ItchSubscriber(final SocketChannel channel, final MidnightNanoClock clock, final MessageListener observer)
    {
        this.clock = clock;
        this.observer = observer;
        this.client = new SoupBinTCPClient(channel, this, this);
    }

    /**
     * Connects and sends the Login Request (SoupBinTCP 4.0 Login Request, sequence number 1: the book then live).
     *
     * @param port          the fanout's port on 127.0.0.1.
     * @param user          the credentials.
     * @param clock         receipt times, ns since midnight; the clock the input's timestamps come from.
     * @param receiveBuffer SO_RCVBUF in bytes, or 0 for the system's default.
     * @return the subscriber, login sent.
     * @throws IOException when the connection fails.
     */
    static ItchSubscriber login(
        final int port, final Credentials.User user, final MidnightNanoClock clock, final int receiveBuffer)
        throws IOException
    {
        return login(port, user, clock, receiveBuffer, (payload) ->
        {
        });
    }

    /**
     * As {@link #login(int, Credentials.User, MidnightNanoClock, int)}, with an observer.
     *
     * @param port          the fanout's port on 127.0.0.1.
     * @param user          the credentials.
     * @param clock         receipt times, ns since midnight.
     * @param receiveBuffer SO_RCVBUF in bytes, or 0 for the system's default.
     * @param observer      sees every ITCH message (SoupBinTCP Sequenced Data payload) before this subscriber; it
     *                      must leave the buffer's position where it found it.
     * @return the subscriber, login sent.
     * @throws IOException when the connection fails.
     */
    static ItchSubscriber login(
        final int port, final Credentials.User user, final MidnightNanoClock clock, final int receiveBuffer,
        final MessageListener observer) throws IOException
    {
        final SocketChannel channel = SocketChannel.open();
        if (receiveBuffer > 0)
        {
            channel.setOption(StandardSocketOptions.SO_RCVBUF, receiveBuffer);
        }
        channel.connect(new InetSocketAddress("127.0.0.1", port));
        channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
        channel.configureBlocking(false);
        final ItchSubscriber subscriber = new ItchSubscriber(channel, clock, observer);
        final SoupBinTCP.LoginRequest request = new SoupBinTCP.LoginRequest();
        request.setUsername(user.username());
        request.setPassword(user.password());
        request.setRequestedSession("");
        request.setRequestedSequenceNumber(1);
        subscriber.client.login(request);
        return subscriber;
    }

    /**
     * Sets the measured window; called before the reading thread starts.
     *
     * @param histogram      where the measured latencies go, ns; null to record none (the stalled subscriber).
     * @param stallRecorder  where those of the messages in the stall period also go; null without a stall.
     * @param windowStartNs  first Timestamp of the measured window, ns since midnight.
     * @param windowEndNs    Timestamps from this one on are after the window.
     */
    void measure(
        final Histogram histogram, final StallRecorder stallRecorder, final long windowStartNs,
        final long windowEndNs)
    {
        this.histogram = histogram;
        this.stallRecorder = null == histogram ? null : stallRecorder;
        this.windowStartNs = windowStartNs;
        this.windowEndNs = windowEndNs;
    }

    /**
     * Reads what has come and handles it.
     *
     * @return bytes read, or -1 when the fanout closed the connection.
     * @throws IOException when the socket fails.
     */
    int receive() throws IOException
    {
        receiptNs = 0;
        return client.receive();
    }

    /**
     * Sends a heartbeat after 1 s of silence and checks the fanout's (SoupBinTCP 4.0 Client Heartbeat).
     *
     * @throws IOException when the socket fails or the fanout has been silent for 15 s.
     */
    void keepAlive() throws IOException
    {
        client.keepAlive();
    }

    /** @return the non-blocking socket, to register with a selector. */
    SocketChannel channel()
    {
        return client.getChannel();
    }

    /** SoupBinTCP 4.0 Sequenced Data: one ITCH 5.0 message. */
    @Override
    public void message(final ByteBuffer payload) throws IOException
    {
        observer.message(payload);
        final int position = payload.position();
        switch (payload.get(position))
        {
            case 'A', 'E', 'D' -> onLive(payload, position);
            case 'S', 'R' -> sessionStart++;
            default ->
            {
            }
        }
    }

    private void onLive(final ByteBuffer payload, final int position)
    {
        received++;
        if (0 == receiptNs)
        {
            receiptNs = clock.nanosSinceMidnight();
        }
        final int timestamp = position + ItchTranslator.TIMESTAMP_OFFSET;
        final long timeOfDayNs =
            ItchTranslator.timeOfDayNs(payload.getShort(timestamp), payload.getInt(timestamp + Short.BYTES));
        final long timestampNs = receiptNs - MidnightNanoClock.withinADay(receiptNs - timeOfDayNs);
        if (timestampNs >= windowStartNs && timestampNs < windowEndNs)
        {
            receivedInWindow++;
            lastWindowReceiptNs = receiptNs;
            if (null != histogram)
            {
                final long latencyNs = Math.min(receiptNs - timestampNs, histogram.getHighestTrackableValue());
                histogram.recordValue(latencyNs);
                if (null != stallRecorder)
                {
                    stallRecorder.record(timestampNs, latencyNs);
                }
            }
        }
    }

    /** @return live messages received. */
    long received()
    {
        return received;
    }

    /** @return live messages received whose Timestamp is in the measured window. */
    long receivedInWindow()
    {
        return receivedInWindow;
    }

    /** @return receipt time of the last message of the window received, ns since midnight, 0 if none; reader only. */
    long lastWindowReceiptNs()
    {
        return lastWindowReceiptNs;
    }

    /**
     * @param symbols the fanout's symbol count.
     * @return true once Login Accepted, the System Events 'O', 'S' and 'Q' and every Stock Directory have come.
     */
    boolean isStarted(final int symbols)
    {
        return loginAccepted && sessionStart >= 3 + symbols;
    }

    /** @return true when the fanout sent End of Session. */
    boolean endOfSessionReceived()
    {
        return endOfSession;
    }

    @Override
    public void loginAccepted(final SoupBinTCPClient session, final SoupBinTCP.LoginAccepted payload)
    {
        loginAccepted = true;
    }

    @Override
    public void loginRejected(final SoupBinTCPClient session, final SoupBinTCP.LoginRejected payload)
        throws IOException
    {
        throw new IOException("login rejected: " + (char)payload.getRejectReasonCode());
    }

    @Override
    public void endOfSession(final SoupBinTCPClient session)
    {
        endOfSession = true;
    }

    @Override
    public void heartbeatTimeout(final SoupBinTCPClient session) throws IOException
    {
        throw new IOException("no heartbeat from the fanout");
    }

    @Override
    public void close() throws IOException
    {
        client.close();
    }
}
