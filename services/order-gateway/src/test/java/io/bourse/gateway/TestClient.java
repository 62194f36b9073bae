package io.bourse.gateway;

import com.paritytrading.nassau.soupbintcp.SoupBinTCP;
import com.paritytrading.nassau.soupbintcp.SoupBinTCPClient;
import com.paritytrading.nassau.soupbintcp.SoupBinTCPClientStatusListener;
import io.bourse.common.config.Symbols;
import io.bourse.ouch.CancelOrder;
import io.bourse.ouch.EnterOrder;
import io.bourse.ouch.ModifyOrder;
import io.bourse.ouch.Ouch42;
import io.bourse.ouch.ReplaceOrder;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A SoupBinTCP client (nassau) that records what the gateway sends as values: session events as records, sequenced
 * messages decoded by {@link OuchMessages}, and {@link Closed} when the gateway closes the connection. Sends OUCH 4.2
 * requests with the usual defaults (anonymous, agency, blank firm, no minimum quantity, no cross unless asked).
 */
final class TestClient implements AutoCloseable
{
    record LoginAccepted(String session, long sequenceNumber)
    {
    }

    record LoginRejected(char reason)
    {
    }

    record EndOfSession()
    {
    }

    record Closed()
    {
    }

    private static final long WAIT_NS = TimeUnit.SECONDS.toNanos(3);

    private final SocketChannel channel;
    private final SoupBinTCPClient client;
    private final List<Object> received = new ArrayList<>();
    private final List<byte[]> sequencedBytes = new ArrayList<>();
    private final ByteBuffer sendBuffer = ByteBuffer.allocate(1024);
    private final UnsafeBuffer request = new UnsafeBuffer(new byte[64]);
    private boolean closed;

    TestClient(final int port) throws IOException
    {
        this(port, 0);
    }

    /**
     * @param port               the gateway's.
     * @param receiveBufferBytes SO_RCVBUF of the client's socket, set before it connects, or 0 for the kernel's.
     */
    TestClient(final int port, final int receiveBufferBytes) throws IOException
    {
        channel = SocketChannel.open();
        if (receiveBufferBytes > 0)
        {
            channel.setOption(StandardSocketOptions.SO_RCVBUF, receiveBufferBytes);
        }
        channel.connect(new InetSocketAddress("127.0.0.1", port));
        channel.configureBlocking(false);
        client = new SoupBinTCPClient(channel, 1024,
            (payload) ->
            {
                final byte[] bytes = new byte[payload.remaining()];
                payload.get(bytes);
                sequencedBytes.add(bytes);
                received.add(OuchMessages.decode(bytes));
            },
            new SoupBinTCPClientStatusListener()
            {
                public void heartbeatTimeout(final SoupBinTCPClient session)
                {
                    throw new AssertionError("heartbeat timeout");
                }

                public void loginAccepted(final SoupBinTCPClient session, final SoupBinTCP.LoginAccepted payload)
                {
                    received.add(new LoginAccepted(payload.getSession().trim(), payload.getSequenceNumber()));
                }

                public void loginRejected(final SoupBinTCPClient session, final SoupBinTCP.LoginRejected payload)
                {
                    received.add(new LoginRejected((char)payload.getRejectReasonCode()));
                }

                public void endOfSession(final SoupBinTCPClient session)
                {
                    received.add(new EndOfSession());
                }
            });
    }

    void login(final String username, final String password, final String session, final long sequenceNumber)
        throws IOException
    {
        final SoupBinTCP.LoginRequest request = new SoupBinTCP.LoginRequest();
        request.setUsername(username);
        request.setPassword(password);
        request.setRequestedSession(session);
        request.setRequestedSequenceNumber(sequenceNumber);
        client.login(request);
    }

    /**
     * Connects and logs in with password {@code <username>pw}, trying again while the gateway has not yet seen the
     * user's previous connection close (Login Rejected 'S'), for up to 5 seconds.
     *
     * @return the client, its Login Accepted received.
     */
    static TestClient login(final int port, final String username, final long sequenceNumber) throws Exception
    {
        final long deadlineNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (true)
        {
            final TestClient client = new TestClient(port);
            client.login(username, username + "pw", "", sequenceNumber);
            final Object answer = client.await(1).get(0);
            if (answer instanceof LoginAccepted)
            {
                return client;
            }
            client.close();
            assertThat(answer).isEqualTo(new LoginRejected('S'));
            assertThat(System.nanoTime()).isLessThan(deadlineNs);
            Thread.sleep(10);
        }
    }

    void logout() throws IOException
    {
        client.logout();
    }

    /** Sends an OUCH 4.2 Enter Order for the continuous market. */
    void enterOrder(
        final String token, final String stock, final byte side, final long shares, final long price,
        final long timeInForce) throws IOException
    {
        enterOrder(token, stock, side, shares, price, timeInForce, Ouch42.CROSS_TYPE_NO_CROSS);
    }

    /** Sends an OUCH 4.2 Enter Order with a Cross Type: N the continuous market, C the closing cross. */
    void enterOrder(
        final String token, final String stock, final byte side, final long shares, final long price,
        final long timeInForce, final byte crossType) throws IOException
    {
        enterOrder(token, stock, side, shares, price, timeInForce, crossType, Ouch42.DISPLAY_ANONYMOUS);
    }

    /** Sends an OUCH 4.2 Midpoint Peg (Display M) day order for the continuous market, priced at its limit. */
    void enterMidpointPeg(final String token, final String stock, final byte side, final long shares, final long limit)
        throws IOException
    {
        enterOrder(token, stock, side, shares, limit, Ouch42.TIME_IN_FORCE_MARKET_HOURS, Ouch42.CROSS_TYPE_NO_CROSS,
            Ouch42.DISPLAY_MID_POINT_PEG);
    }

    private void enterOrder(
        final String token, final String stock, final byte side, final long shares, final long price,
        final long timeInForce, final byte crossType, final byte display) throws IOException
    {
        new EnterOrder().wrapAndApplyType(request, 0)
            .orderToken(token)
            .buySellIndicator(side)
            .shares(shares)
            .stock(Symbols.pack(stock))
            .price(price)
            .timeInForce(timeInForce)
            .firm("")
            .display(display)
            .capacity(Ouch42.CAPACITY_AGENCY)
            .intermarketSweepEligibility(Ouch42.ISE_NOT_ELIGIBLE)
            .minimumQuantity(0)
            .crossType(crossType)
            .customerType(Ouch42.CUSTOMER_TYPE_DEFAULT);
        send(request, EnterOrder.LENGTH);
    }

    /** Sends an OUCH 4.2 Replace Order. */
    void replaceOrder(
        final String existing, final String replacement, final long shares, final long price, final long timeInForce)
        throws IOException
    {
        new ReplaceOrder().wrapAndApplyType(request, 0)
            .existingOrderToken(existing)
            .replacementOrderToken(replacement)
            .shares(shares)
            .price(price)
            .timeInForce(timeInForce)
            .display(Ouch42.DISPLAY_ANONYMOUS)
            .intermarketSweepEligibility(Ouch42.ISE_NOT_ELIGIBLE)
            .minimumQuantity(0);
        send(request, ReplaceOrder.LENGTH);
    }

    /** Sends an OUCH 4.2 Cancel Order. */
    void cancelOrder(final String token, final long shares) throws IOException
    {
        new CancelOrder().wrapAndApplyType(request, 0).orderToken(token).shares(shares);
        send(request, CancelOrder.LENGTH);
    }

    /** Sends an OUCH 4.2 Modify Order. */
    void modifyOrder(final String token, final byte side, final long shares) throws IOException
    {
        new ModifyOrder().wrapAndApplyType(request, 0).orderToken(token).buySellIndicator(side).shares(shares);
        send(request, ModifyOrder.LENGTH);
    }

    /**
     * Sends one OUCH message as Unsequenced Data.
     */
    /** Sends a Client Heartbeat when one is due, as a live client does while it waits (nassau's keep-alive). */
    void keepAlive() throws IOException
    {
        client.keepAlive();
    }

    void send(final UnsafeBuffer buffer, final int length) throws IOException
    {
        sendBuffer.clear();
        sendBuffer.put(buffer.byteArray(), 0, length).flip();
        client.send(sendBuffer);
    }

    /**
     * Reads until at least {@code count} things were received in all, or 3 seconds passed.
     *
     * @return everything received so far.
     */
    List<Object> await(final int count) throws IOException, InterruptedException
    {
        final long deadline = System.nanoTime() + WAIT_NS;
        while (received.size() < count && !closed && System.nanoTime() < deadline)
        {
            if (client.receive() < 0)
            {
                closed = true;
                received.add(new Closed());
            }
            else
            {
                Thread.sleep(1);
            }
        }
        return List.copyOf(received);
    }

    /** @return the payloads of the Sequenced Data packets received, as sent. */
    List<byte[]> sequencedBytes()
    {
        return List.copyOf(sequencedBytes);
    }

    @Override
    public void close() throws IOException
    {
        channel.close();
    }
}
