package io.bourse.it;

import com.github.dockerjava.api.model.Capability;
import com.github.dockerjava.api.model.HostConfig;
import org.testcontainers.containers.Container;
import org.testcontainers.containers.GenericContainer;

import java.io.IOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Wireshark's {@code dumpcap} and {@code tshark} (Debian's package, built from {@code tests/src/test/docker/tshark})
 * in a container on the host's network: it captures the host's loopback traffic, then decodes the capture with
 * Wireshark's own dissectors, written from the NASDAQ specifications by others than Bourse: SoupBinTCP 4.0, OUCH 4.x
 * (as a heuristic sub-dissector of SoupBinTCP) and MoldUDP64. One capture at a time.
 */
final class Tshark implements AutoCloseable
{
    private static final String CAPTURE_FILE = "/tmp/capture.pcapng";
    private static final String DUMPCAP_LOG = "/tmp/dumpcap.log";
    /** Most that dumpcap takes to start capturing, or to write the capture out once stopped. */
    private static final Duration CAPTURE_TIMEOUT = Duration.ofSeconds(20);
    /** Separates the values of a field that occurs several times in a frame (several messages in a segment). */
    static final String AGGREGATOR = "|";

    private final GenericContainer<?> container;
    /** Where {@link #close} keeps the capture. */
    private final Path captureCopy;
    /** A UDP port of the capture filter that nothing listens on: see {@link #stopCapture}. */
    private int sentinelPort;

    private Tshark(final GenericContainer<?> container, final Path captureCopy)
    {
        this.container = container;
        this.captureCopy = captureCopy;
    }

    /**
     * Builds the image (a cache hit when nothing changed) and starts its container, idle, on the host's network with
     * the capabilities a capture needs.
     *
     * @param captureCopy where {@link #close} keeps the capture, a pcapng file, e.g. for Wireshark.
     * @return the running container.
     */
    static Tshark start(final Path captureCopy)
    {
        final GenericContainer<?> container = new GenericContainer<>(DecoderImage.of("tshark"))
            .withCreateContainerCmdModifier((cmd) ->
            {
                final HostConfig hostConfig = null == cmd.getHostConfig() ? new HostConfig() : cmd.getHostConfig();
                cmd.withHostConfig(hostConfig.withNetworkMode("host")
                    .withCapAdd(Capability.NET_RAW, Capability.NET_ADMIN));
            });
        container.start();
        return new Tshark(container, captureCopy);
    }

    /**
     * Starts {@code dumpcap} on the loopback interface and returns once it captures.
     *
     * @param captureFilter a pcap filter, e.g. {@code tcp port 15000 or udp port 17000}; the capture also takes a UDP
     *                      port of its own, which {@link #stopCapture} uses.
     * @throws IOException    when the container cannot be reached.
     * @throws AssertionError when dumpcap does not start capturing in time.
     */
    void startCapture(final String captureFilter) throws IOException, InterruptedException
    {
        try (DatagramSocket socket = new DatagramSocket(0, InetAddress.getLoopbackAddress()))
        {
            sentinelPort = socket.getLocalPort(); // free now, closed while the capture runs: nothing answers there
        }
        exec("sh", "-c", "dumpcap -q -i lo -f '(" + captureFilter + ") or udp port " + sentinelPort + "' -w " +
            CAPTURE_FILE + " > " + DUMPCAP_LOG + " 2>&1 &");
        awaitLog("Capturing on", "dumpcap did not start");
    }

    /**
     * Stops {@code dumpcap} once every packet sent before this call is in the capture, then waits until it has written
     * the capture out and printed its packet counts (SIGTERM: a background job of a shell ignores SIGINT; it stays a
     * zombie, as nothing in the container reaps it).
     *
     * @throws IOException    when the container cannot be reached.
     * @throws AssertionError when dumpcap does not finish in time.
     */
    void stopCapture() throws IOException, InterruptedException
    {
        // The kernel hands dumpcap its packets in blocks, so a stop right after the last one can lose them: a
        // datagram sent after them to the sentinel port, once in the file, shows that they are all there.
        final long deadlineNs = System.nanoTime() + CAPTURE_TIMEOUT.toNanos();
        try (DatagramSocket socket = new DatagramSocket(0, InetAddress.getLoopbackAddress()))
        {
            final DatagramPacket sentinel = new DatagramPacket(
                new byte[] {'e', 'n', 'd'}, 3, new InetSocketAddress(InetAddress.getLoopbackAddress(), sentinelPort));
            do
            {
                if (System.nanoTime() > deadlineNs)
                {
                    throw new AssertionError("the capture did not reach its end: " + exec("cat", DUMPCAP_LOG));
                }
                socket.send(sentinel);
                Thread.sleep(100);
            }
            while (container.execInContainer("sh", "-c", "tshark -n -r " + CAPTURE_FILE + " -Y 'udp.dstport == " +
                sentinelPort + "' 2> /dev/null").getStdout().isBlank()); // a file cut short mid-block: not yet
        }
        exec("pkill", "-TERM", "dumpcap");
        awaitLog("Packets captured", "dumpcap did not stop");
    }

    private void awaitLog(final String line, final String failure) throws IOException, InterruptedException
    {
        final long deadlineNs = System.nanoTime() + CAPTURE_TIMEOUT.toNanos();
        while (!exec("cat", DUMPCAP_LOG).contains(line))
        {
            if (System.nanoTime() > deadlineNs)
            {
                throw new AssertionError(failure + ": " + exec("cat", DUMPCAP_LOG));
            }
            Thread.sleep(100);
        }
    }

    /**
     * Decodes the capture: {@code tshark -T fields}, one row per frame that passes the display filter.
     *
     * @param decodeAs       {@code -d} rules, e.g. {@code tcp.port==15000,soupbintcp}.
     * @param ouchHeuristic  false to keep the OUCH dissector off the SoupBinTCP payloads (an ITCH 5.0 stream).
     * @param displayFilter  e.g. {@code soupbintcp}.
     * @param fields         the fields of each row, in order; a field that occurs several times in a frame gives its
     *                       values joined with {@link #AGGREGATOR}, an absent one the empty string.
     * @return the rows, in capture order.
     * @throws IOException    when the container cannot be reached.
     * @throws AssertionError when tshark fails.
     */
    List<String[]> fields(
        final Map<String, String> decodeAs,
        final boolean ouchHeuristic,
        final String displayFilter,
        final String... fields) throws IOException, InterruptedException
    {
        final List<String> command = readCommand("fields", decodeAs, displayFilter);
        command.addAll(List.of("-E", "separator=/t", "-E", "aggregator=" + AGGREGATOR, "-E", "occurrence=a"));
        if (!ouchHeuristic)
        {
            command.addAll(List.of("--disable-heuristic", "ouch_soupbintcp"));
        }
        for (final String field : fields)
        {
            command.addAll(List.of("-e", field));
        }
        final List<String[]> rows = new ArrayList<>();
        for (final String line : exec(command.toArray(String[]::new)).split("\n"))
        {
            if (!line.isEmpty())
            {
                rows.add(line.split("\t", -1));
            }
        }
        return rows;
    }

    /**
     * Decodes the capture: {@code tshark -T json}, the protocol layers of each frame that passes the display filter.
     *
     * @param decodeAs      {@code -d} rules, e.g. {@code tcp.port==15000,soupbintcp}.
     * @param displayFilter e.g. {@code ouch}.
     * @param protocols     the layers to keep, e.g. {@code tcp ouch}; null for every one.
     * @return each frame's layers by protocol, in capture order: a layer's fields by name, e.g. {@code ouch.shares},
     *         each as tshark prints it; a protocol that occurs several times in a frame (several OUCH messages in a
     *         segment) gives a list of such layers, in order.
     * @throws IOException    when the container cannot be reached.
     * @throws AssertionError when tshark fails.
     */
    List<Map<String, Object>> layers(
        final Map<String, String> decodeAs, final String displayFilter, final String protocols)
        throws IOException, InterruptedException
    {
        final List<String> command = readCommand("json", decodeAs, displayFilter);
        command.add("--no-duplicate-keys");
        if (null != protocols)
        {
            command.addAll(List.of("-J", protocols));
        }
        final List<Map<String, Object>> frames = new ArrayList<>();
        for (final Object frame : Json.array(Json.parse(exec(command.toArray(String[]::new)))))
        {
            frames.add(Json.object(Json.object(Json.object(frame).get("_source")).get("layers")));
        }
        return frames;
    }

    /**
     * @param format        tshark's output format ({@code -T}), e.g. {@code fields}.
     * @param decodeAs      {@code -d} rules, e.g. {@code tcp.port==15000,soupbintcp}.
     * @param displayFilter e.g. {@code ouch}.
     * @return the command that reads the capture without name resolution, its options to be added to.
     */
    private static List<String> readCommand(
        final String format, final Map<String, String> decodeAs, final String displayFilter)
    {
        final List<String> command =
            new ArrayList<>(List.of("tshark", "-n", "-r", CAPTURE_FILE, "-T", format, "-Y", displayFilter));
        decodeAs.forEach((selector, protocol) -> command.addAll(List.of("-d", selector + "," + protocol)));
        return command;
    }

    /**
     * @param value a field of type FT_CHAR as tshark prints it, quoted ({@code 'S'}), values joined with
     *              {@link #AGGREGATOR}.
     * @return the characters, in order; none for the empty string.
     */
    static List<Character> chars(final String value)
    {
        final List<Character> chars = new ArrayList<>();
        if (!value.isEmpty())
        {
            for (final String quoted : value.split("\\" + AGGREGATOR))
            {
                chars.add(3 == quoted.length() && '\'' == quoted.charAt(0) ? quoted.charAt(1) : '?');
            }
        }
        return chars;
    }

    private String exec(final String... command) throws IOException, InterruptedException
    {
        final Container.ExecResult result = container.execInContainer(command);
        if (0 != result.getExitCode())
        {
            throw new AssertionError(String.join(" ", command) + " exited " + result.getExitCode() + ": " +
                result.getStderr());
        }
        return result.getStdout();
    }

    /**
     * Keeps the capture, if one was started, in {@link #start}'s file (also one a failed test cut short: dumpcap is
     * stopped first, and whatever it wrote is kept), then stops the container. Keeping the capture is best effort: a
     * failure to is not the test's.
     */
    @Override
    public void close()
    {
        try
        {
            if (0 != sentinelPort)
            {
                container.execInContainer("pkill", "-TERM", "dumpcap"); // none left once stopCapture ran
                awaitLog("Packets captured", "dumpcap did not stop");
                container.copyFileFromContainer(CAPTURE_FILE, captureCopy.toString());
            }
        }
        catch (final IOException | RuntimeException | AssertionError ex)
        {
            System.err.println("tshark: the capture was not kept: " + ex);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
        finally
        {
            container.stop();
        }
    }
}
