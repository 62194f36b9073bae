package io.bourse.mdpublisher;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

class UdpSocketDropsTest
{
    /**
     * Two lines of a /proc/net/udp taken from Linux 6.18 on x86 (little-endian addresses), the second made to have
     * dropped 12,345 datagrams.
     */
    private static final String TABLE = String.join("\n",
        "   sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode ref " +
            "pointer drops            ",
        " 3842: 0100007F:B603 0100C0EF:6270 01 00000000:00000000 00:00000000 00000000     0        0 2608805 2 " +
            "0000000038f940e3 0       ",
        "15216: 0100007F:4269 00000000:0000 07 00000000:00000000 00:00000000 00000000     0        0 2608806 2 " +
            "00000000664bbb93 12345   ",
        "");

    @TempDir
    private Path dir;

    @Test
    void shouldWriteTheLocalAddressAsTheKernelDoes() throws IOException
    {
        assumeLittleEndian();
        assertThat(UdpSocketDrops.localAddressField((Inet4Address)InetAddress.getByName("127.0.0.1"), 17001))
            .isEqualTo("0100007F:4269");
        assertThat(UdpSocketDrops.localAddressField((Inet4Address)InetAddress.getByName("10.1.2.3"), 80))
            .isEqualTo("0302010A:0050");
        assertThat(UdpSocketDrops.localAddressField((Inet4Address)InetAddress.getByName("1.2.3.200"), 65535))
            .as("the top byte's sign bit set").isEqualTo("C8030201:FFFF");
    }

    @Test
    void shouldReadTheDropsOfTheSocketsLine() throws IOException
    {
        assumeLittleEndian();
        assertThat(drops(17001)).isEqualTo(12_345);
        assertThat(drops(0xB603)).isZero();
    }

    @Test
    void shouldAnswerUnknownForASocketNotInTheTableOrWithoutACountOrNoTable() throws IOException
    {
        assumeLittleEndian();
        assertThat(drops(17002)).isEqualTo(UdpSocketDrops.UNKNOWN);
        final Path noDrops = Files.writeString(dir.resolve("old"), TABLE.replace("12345", "-"));
        assertThat(new UdpSocketDrops(noDrops, new InetSocketAddress("127.0.0.1", 17001)).drops())
            .isEqualTo(UdpSocketDrops.UNKNOWN);
        assertThat(new UdpSocketDrops(dir.resolve("none"), new InetSocketAddress("127.0.0.1", 17001)).drops())
            .isEqualTo(UdpSocketDrops.UNKNOWN);
    }

    @Test
    void shouldRefuseAnIpv6Address()
    {
        assertThatIllegalArgumentException()
            .isThrownBy(() -> new UdpSocketDrops(UdpSocketDrops.PROC_NET_UDP, new InetSocketAddress("::1", 17001)));
    }

    private static void assumeLittleEndian()
    {
        assumeTrue(ByteOrder.LITTLE_ENDIAN == ByteOrder.nativeOrder(), "the table's addresses are little-endian");
    }

    private long drops(final int port) throws IOException
    {
        final Path table = Files.writeString(dir.resolve("udp"), TABLE);
        return new UdpSocketDrops(table, new InetSocketAddress("127.0.0.1", port)).drops();
    }
}
