package io.bourse.bench;

import io.bourse.ouch.Ouch42;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * A client connection of the floor: sends {@link PingPongServer} request frames (the size of a framed Enter Order) and
 * records the round trip of each answer frame (the size of a framed Accepted). Owned by the client thread.
 */
final class PingPongConnection extends RoundTripConnection
{
    private final ByteBuffer receiveBuffer = ByteBuffer.allocateDirect(RECEIVE_BUFFER_BYTES);
    private final UnsafeBuffer receive = new UnsafeBuffer(receiveBuffer);

    /**
     * @param index which connection, for messages.
     * @param port  the echo server's loopback port.
     * @throws IOException when the connection fails.
     */
    PingPongConnection(final int index, final int port) throws IOException
    {
        super("TCP floor connection " + index, connect(port), PingPongServer.REQUEST_FRAME_LENGTH);
    }

    @Override
    void encodeRequest(final UnsafeBuffer buffer, final int offset, final long counter, final long index)
    {
        PingPongServer.encodeRequest(buffer, offset, counter);
    }

    @Override
    int poll() throws IOException
    {
        final long receivedNs = System.nanoTime();
        final int bytes = channel().read(receiveBuffer);
        if (bytes < 0)
        {
            throw new EOFException(name() + ": closed by the echo server");
        }
        final int end = receiveBuffer.position();
        int offset = 0;
        while (end - offset >= PingPongServer.ANSWER_FRAME_LENGTH)
        {
            if ((receive.getShort(offset, PingPongServer.BYTE_ORDER) & 0xFFFF) !=
                PingPongServer.ANSWER_FRAME_LENGTH - 2 ||
                receive.getByte(offset + 2) != PingPongServer.SEQUENCED_DATA ||
                receive.getByte(offset + PingPongServer.HEADER_LENGTH) != Ouch42.ACCEPTED)
            {
                throw new IOException(name() + ": malformed answer frame");
            }
            onAnswer(receive.getLong(offset + PingPongServer.COUNTER_OFFSET, PingPongServer.BYTE_ORDER), receivedNs);
            offset += PingPongServer.ANSWER_FRAME_LENGTH;
        }
        if (offset > 0)
        {
            receiveBuffer.limit(end).position(offset);
            receiveBuffer.compact();
        }
        return bytes;
    }

    @Override
    long outstanding()
    {
        return 0;
    }
}
