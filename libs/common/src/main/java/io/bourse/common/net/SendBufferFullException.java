package io.bourse.common.net;

import java.io.IOException;

/**
 * A packet did not fit in what is left of a connection's send buffer, even once the socket took what it takes now:
 * the client reads more slowly than its session produces messages (a slow consumer), and its session is ended
 * ({@link SessionSendChannel}).
 */
public final class SendBufferFullException extends IOException
{
    /**
     * @param capacity     the buffer's capacity in bytes.
     * @param pending      bytes in it not yet taken by the socket.
     * @param packetLength bytes of the packet that did not fit.
     */
    public SendBufferFullException(final int capacity, final int pending, final long packetLength)
    {
        super("send buffer full: " + pending + " of " + capacity + " bytes not yet taken by the client, packet of " +
            packetLength + " bytes");
    }
}
