package io.bourse.gateway;

import java.nio.charset.StandardCharsets;

/** SoupBinTCP 4.0 Login Request packets as a client writes them, for tests that write raw bytes. */
final class LoginRequests
{
    private LoginRequests()
    {
    }

    /**
     * @param username          at most 6 characters.
     * @param password          at most 10 characters.
     * @param requestedSequence the Requested Sequence Number, 0 for the next new message.
     * @return the packet: Packet Length (2 bytes, big-endian), 'L', Username, Password, Requested Session (blank, so
     * the server's current one) and Requested Sequence Number, space-padded alphanumeric fields.
     */
    static byte[] packet(final String username, final String password, final long requestedSequence)
    {
        final String payload = "L" + String.format("%-6s%-10s%-10s%20d", username, password, "", requestedSequence);
        final byte[] ascii = payload.getBytes(StandardCharsets.US_ASCII);
        final byte[] packet = new byte[2 + ascii.length];
        packet[1] = (byte)ascii.length;
        System.arraycopy(ascii, 0, packet, 2, ascii.length);
        return packet;
    }
}
