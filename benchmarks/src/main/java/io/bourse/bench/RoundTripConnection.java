package io.bourse.bench;

import io.bourse.simulator.InFlightOrders;
import org.agrona.CloseHelper;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;

/**
 * The client side of one TCP connection of {@code bourse bench gateway}: requests are encoded into a send buffer as
 * the open-loop schedule makes them due and written without blocking once per duty cycle (what the socket does not
 * take stays for the next), each awaits its answer in an {@link InFlightOrders} ring under a counter of its own, and
 * answers are read without blocking and recorded by a {@link RoundTripRecorder}. The floor and the gateway path differ
 * only in the encoding of the request and the decoding of the answer (the subclasses). Owned by the client thread.
 */
abstract class RoundTripConnection implements AutoCloseable
{
    /** Requests a connection keeps in flight at most; past it the schedule waits (and the wait is measured). */
    static final int MAX_IN_FLIGHT = 4_096;
    /** Send buffer: bytes of requests not yet taken by the socket. */
    static final int SEND_BUFFER_BYTES = 64 * 1024;
    /** Receive buffer: one read takes up to this many bytes of answers. */
    static final int RECEIVE_BUFFER_BYTES = 64 * 1024;

    private final String name;
    private final SocketChannel channel;
    private final ByteBuffer sendBuffer = ByteBuffer.allocateDirect(SEND_BUFFER_BYTES);
    private final UnsafeBuffer send = new UnsafeBuffer(sendBuffer);
    private final InFlightOrders inFlight = new InFlightOrders(MAX_IN_FLIGHT);
    private final int requestLength;
    private RoundTripRecorder recorder;
    private long nextCounter = 1;
    private long requests;
    private long writes;
    private long errors;

    /**
     * @param name          for messages.
     * @param channel       connected; made non-blocking here.
     * @param requestLength bytes of one framed request.
     * @throws IOException when the channel cannot be made non-blocking.
     */
    RoundTripConnection(final String name, final SocketChannel channel, final int requestLength) throws IOException
    {
        this.name = name;
        this.channel = channel;
        this.requestLength = requestLength;
        channel.configureBlocking(false);
    }

    /**
     * Opens a blocking loopback connection with Nagle's algorithm off, as every Bourse client and server has it.
     *
     * @param port on 127.0.0.1.
     * @return the connected channel.
     * @throws IOException when the connection fails.
     */
    static SocketChannel connect(final int port) throws IOException
    {
        final SocketChannel channel = SocketChannel.open();
        try
        {
            channel.connect(new InetSocketAddress("127.0.0.1", port));
            channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
            return channel;
        }
        catch (final IOException ex)
        {
            CloseHelper.quietClose(channel);
            throw ex;
        }
    }

    /**
     * Starts a rate step: answers from now on are recorded here.
     *
     * @param recorder the step's recorder.
     */
    final void recorder(final RoundTripRecorder recorder)
    {
        this.recorder = recorder;
    }

    /** @return true when the send buffer has room for a request and its counter's in-flight slot is free. */
    final boolean canSend()
    {
        return sendBuffer.remaining() >= requestLength && inFlight.isFree(nextCounter);
    }

    /**
     * Encodes the next request into the send buffer; {@link #flush()} writes it.
     *
     * @param index      the request's number in the rate step's schedule, from 0 (the subclass may use it to choose
     *                   what to send).
     * @param intendedNs its intended send time, {@link System#nanoTime()} scale.
     */
    final void send(final long index, final long intendedNs)
    {
        final long counter = nextCounter++;
        inFlight.add(counter, intendedNs);
        final int position = sendBuffer.position();
        encodeRequest(send, position, counter, index);
        sendBuffer.position(position + requestLength);
        requests++;
    }

    /**
     * Writes what the socket takes of the send buffer, without blocking.
     *
     * @return bytes written.
     * @throws IOException when the connection fails.
     */
    final int flush() throws IOException
    {
        if (0 == sendBuffer.position())
        {
            return 0;
        }
        sendBuffer.flip();
        final int bytes = channel.write(sendBuffer);
        sendBuffer.compact();
        if (bytes > 0)
        {
            writes++;
        }
        return bytes;
    }

    /** @return true when requests wait in the send buffer. */
    final boolean hasUnsentBytes()
    {
        return sendBuffer.position() > 0;
    }

    /**
     * Reads the answers that have arrived and records their round trips.
     *
     * @return bytes read.
     * @throws IOException when the connection fails or ends.
     */
    abstract int poll() throws IOException;

    /**
     * @param buffer  the send buffer.
     * @param offset  where the framed request starts.
     * @param counter the request's counter, to come back in its answer.
     * @param index   the request's number in the schedule.
     */
    abstract void encodeRequest(UnsafeBuffer buffer, int offset, long counter, long index);

    /**
     * @return work this connection still expects from the server beyond the answers in flight (0 for a bare echo);
     * a rate step drains until every connection's {@link #unsettled()} is 0.
     */
    abstract long outstanding();

    /**
     * Records the round trip of an answer.
     *
     * @param counter    the counter the answer carries.
     * @param receivedNs when the read that brought it started.
     * @return the request's intended send time, {@link System#nanoTime()} scale, or
     * {@link InFlightOrders#NOT_IN_FLIGHT} when no request awaited this answer (counted as an error).
     */
    final long onAnswer(final long counter, final long receivedNs)
    {
        final long intendedNs = inFlight.remove(counter);
        if (InFlightOrders.NOT_IN_FLIGHT == intendedNs)
        {
            errors++;
            return intendedNs;
        }
        recorder.record(intendedNs, receivedNs);
        return intendedNs;
    }

    /**
     * Ends a request whose answer says it failed (a reject): no round trip is recorded and it counts as an error.
     *
     * @param counter the counter the answer carries.
     */
    final void onFailedAnswer(final long counter)
    {
        inFlight.remove(counter);
        errors++;
    }

    /** Counts something the server should not have sent: an unknown or malformed message. */
    final void onError()
    {
        errors++;
    }

    /** @return answers still awaited plus {@link #outstanding()}. */
    final long unsettled()
    {
        return inFlight.size() + outstanding();
    }

    /** @return the channel, for the subclass's reads. */
    final SocketChannel channel()
    {
        return channel;
    }

    /** @return name for messages. */
    final String name()
    {
        return name;
    }

    /** @return requests encoded since the connection opened. */
    final long requests()
    {
        return requests;
    }

    /** @return writes that took at least one byte since the connection opened. */
    final long writes()
    {
        return writes;
    }

    /** @return unknown answers, rejects and malformed messages since the connection opened. */
    final long errors()
    {
        return errors;
    }

    @Override
    public void close() throws IOException
    {
        channel.close();
    }
}
