package io.bourse.mdpublisher;

import java.io.IOException;
import java.net.Inet4Address;
import java.net.InetSocketAddress;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The kernel's count of datagrams it dropped at one bound IPv4 UDP socket, most of them because the socket's receive
 * buffer was full: the last column, {@code drops}, of the socket's line in Linux's {@code /proc/net/udp} (see the
 * kernel's Documentation/networking/proc_net_tcp.rst for the layout, which UDP shares). A line is found by its
 * {@code local_address}, {@code HHHHHHHH:PPPP}: the IPv4 address as the host stores it (little-endian on x86), then
 * the port, both in hexadecimal. The file lists the sockets of the reader's network namespace, so a service on host
 * networking reads its own. Read on the metrics thread at each scrape, never on the feed's.
 */
final class UdpSocketDrops
{
    /** {@link #drops()}: no line for the socket, or no such file (not Linux). */
    static final long UNKNOWN = -1;
    /** Linux's table of the IPv4 UDP sockets of this network namespace. */
    static final Path PROC_NET_UDP = Path.of("/proc/net/udp");
    private static final int LOCAL_ADDRESS_FIELD = 1;

    private final Path table;
    private final String localAddress;

    /**
     * @param table        the table to read, {@link #PROC_NET_UDP}.
     * @param localAddress the socket's bound IPv4 address and port.
     * @throws IllegalArgumentException when the address is not IPv4.
     */
    UdpSocketDrops(final Path table, final InetSocketAddress localAddress)
    {
        if (!(localAddress.getAddress() instanceof final Inet4Address address))
        {
            throw new IllegalArgumentException("not an IPv4 socket address: " + localAddress);
        }
        this.table = table;
        this.localAddress = localAddressField(address, localAddress.getPort());
    }

    /**
     * @return datagrams the kernel dropped at the socket since it was opened, or {@link #UNKNOWN} when the table has
     * no line for it, cannot be read, or has no number in the line's last column (so that a scrape never fails here).
     */
    long drops()
    {
        final List<String> lines;
        try
        {
            lines = Files.readAllLines(table);
        }
        catch (final IOException ex)
        {
            return UNKNOWN;
        }
        for (int i = 1; i < lines.size(); i++)
        {
            final String[] fields = lines.get(i).trim().split("\\s+");
            if (fields.length > LOCAL_ADDRESS_FIELD + 1 && localAddress.equals(fields[LOCAL_ADDRESS_FIELD]))
            {
                try
                {
                    return Long.parseLong(fields[fields.length - 1]);
                }
                catch (final NumberFormatException ex)
                {
                    return UNKNOWN;
                }
            }
        }
        return UNKNOWN;
    }

    /** @return the socket's {@code local_address} as the table writes it, e.g. {@code 0100007F:4269}. */
    static String localAddressField(final Inet4Address address, final int port)
    {
        final byte[] bytes = address.getAddress();
        int value = 0;
        for (int i = 0; i < bytes.length; i++)
        {
            final int shift = ByteOrder.LITTLE_ENDIAN == ByteOrder.nativeOrder() ? 8 * i : 8 * (3 - i);
            value |= (bytes[i] & 0xFF) << shift;
        }
        return String.format("%08X:%04X", value, port);
    }
}
