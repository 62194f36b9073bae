package io.bourse.it;

import io.bourse.common.config.EmbeddedTestSettings;
import io.bourse.common.config.Settings;
import io.bourse.launcher.AdminCommand;
import io.bourse.launcher.EmbeddedExchange;
import io.bourse.ouch.Ouch42;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import static io.bourse.it.SoupBinTcpTestClient.pollUntil;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Bourse's wire protocols as independent decoders read them: a session that makes the exchange send every OUCH 4.2
 * outbound message type, captured on the loopback interface and decoded by Wireshark's own SoupBinTCP 4.0, OUCH 4.x
 * and MoldUDP64 dissectors ({@link Tshark}), and the ITCH 5.0 market data the same session causes, on the fanout's
 * SoupBinTCP stream and on the md-publisher's MoldUDP64 feed (downstream and re-request answers), parsed by juncture's
 * ITCH 5.0 parser ({@link ItchRecorder}, which refuses a message longer than juncture's layout of its type). The
 * exchange is the embedded one (DESIGN.md run mode 1) on the test host; the decoders are not Bourse's code.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
final class ThirdPartyDecodersIT
{
    private static final Duration RESPONSE_TIMEOUT = Duration.ofSeconds(20);
    private static final String SYMBOLS = "AAPL@0,MSFT@0,GOOG@0";
    private static final long PRICE = 100_0000;
    private static final long SYSTEM_HOURS = Ouch42.TIME_IN_FORCE_SYSTEM_HOURS;
    /** Every OUCH 4.2 outbound type but none: System Event, Accepted, Replaced, Canceled, AIQ Canceled, ... */
    private static final String OUCH_OUTBOUND_TYPES = "SAUCDEBJPITM";
    /** ITCH 5.0 types the session causes: System Event, Stock Directory, Trading Action, the order messages, ... */
    private static final String ITCH_TYPES = "SRHAFEXDUQB";

    /**
     * What Wireshark finds wrong: a malformed packet, an unknown OUCH message, a MoldUDP64 message length or count that
     * does not fit, a SoupBinTCP sequence number that is not a number, or any other warning or error of a dissector
     * (TCP's own analysis aside: a frame it flags, e.g. a retransmission, is loopback's business, not Bourse's).
     */
    private static final String PROBLEMS = "_ws.malformed || ouch.unknown_message || moldudp64.msglen.invalid || " +
        "moldudp64.count.invalid || moldudp64.end_of_session_extra || soupbintcp.req_seq_num.invalid || " +
        "soupbintcp.next_seq_num.invalid || (_ws.expert.severity >= warning && !tcp.analysis.flags)";

    /** The capture, kept for Wireshark after the test (the module's build directory). */
    private static final Path CAPTURE_COPY = Path.of("target", "third-party-decoders.pcapng");

    @TempDir
    private Path journalDir;

    private final Map<SoupBinTcpTestClient, OuchRecorder> traders = new LinkedHashMap<>();
    private final Map<SoupBinTcpTestClient, StringBuilder> sent = new LinkedHashMap<>();
    private final List<SoupBinTcpTestClient> sessions = new ArrayList<>();
    private String aeronDir;

    /**
     * Three traders (demo01 and demo02 of firm DEMO, trdr01 of FIRM) go through entry, execution, replace, modify,
     * partial cancel, a reject, a self-match prevention cancel, a midpoint peg repriced, a closing cross's late period
     * (Cancel Pending, Cancel Reject) and a broken trade, while md01 reads the fanout and a MoldUDP64 receiver joins
     * late and fills the gap with re-requests. Wireshark must find no malformed packet and no warning in the capture
     * and must see, session by session, the OUCH messages each client sent and received, in order; the fanout's ITCH
     * messages in the capture must be those md01 parsed, byte for byte, and the MoldUDP64 messages, by sequence
     * number, those the receiver parsed, downstream packets numbered without a gap.
     */
    @Test
    void shouldBeReadByWiresharkAndJunctureAsTheClientsReadIt() throws Exception
    {
        final Map<String, String> settings = EmbeddedTestSettings.onFreePorts();
        settings.put("BOURSE_GATEWAY_JOURNAL_DIR", journalDir.toString());
        settings.put("BOURSE_SYMBOLS", SYMBOLS);
        settings.put("BOURSE_MD_MOLD_ENABLED", "true"); // the default group, port and interface: 239.192.0.1:17000
        aeronDir = settings.get("BOURSE_AERON_DIR");
        final int moldPort = MoldUdp64TestClient.GROUP.getPort();
        final int moldRequestPort = MoldUdp64TestClient.REQUEST_ADDRESS.getPort();

        final ItchRecorder fanoutRecorder = new ItchRecorder();
        final ItchRecorder moldRecorder = new ItchRecorder();
        try (EmbeddedExchange exchange = EmbeddedExchange.launch(new Settings(settings));
            Tshark tshark = Tshark.start())
        {
            tshark.startCapture("tcp port " + exchange.gatewayPort() + " or tcp port " + exchange.fanoutPort() +
                " or udp port " + moldPort + " or udp port " + moldRequestPort);
            final SoupBinTcpTestClient md = open(
                SoupBinTcpTestClient.login(exchange.fanoutPort(), "md01", "md01pw", 0, fanoutRecorder));
            final SoupBinTcpTestClient a = trader(exchange, "demo01");
            final SoupBinTcpTestClient b = trader(exchange, "demo02");
            final SoupBinTcpTestClient c = trader(exchange, "trdr01");

            send(a, enter("A1", Ouch42.SIDE_BUY, 100, "AAPL", PRICE), () -> has(a, 'A', 1));
            send(c, enter("C1", Ouch42.SIDE_SELL, 40, "AAPL", PRICE), () -> has(c, 'E', 1) && has(a, 'E', 1));
            send(a, OuchMessages.replaceOrder("A1", "A2", 100, PRICE + 100, Ouch42.DISPLAY_ATTRIBUTABLE),
                () -> has(a, 'U', 1));
            send(a, OuchMessages.modifyOrder("A2", Ouch42.SIDE_BUY, 30), () -> has(a, 'M', 1));
            send(a, OuchMessages.cancelOrder("A2", 10), () -> has(a, 'C', 1));
            send(a, enter("A3", Ouch42.SIDE_BUY, 0, "AAPL", PRICE), () -> has(a, 'J', 1));
            admin("stp", "--firm=DEMO", "--mode=CANCEL_NEWEST");
            send(b, enter("B1", Ouch42.SIDE_SELL, 10, "AAPL", PRICE + 100), () -> has(b, 'D', 1));

            // A midpoint peg, repriced when the bid moves: Order Priority Update.
            send(c, OuchMessages.enterOrder("C2", Ouch42.SIDE_BUY, 10, "MSFT", PRICE - 1_0000, SYSTEM_HOURS),
                () -> has(c, 'A', 2));
            send(c, OuchMessages.enterOrder("C3", Ouch42.SIDE_SELL, 10, "MSFT", PRICE + 1_0000, SYSTEM_HOURS),
                () -> has(c, 'A', 3));
            send(a, OuchMessages.enterOrder("A5", Ouch42.SIDE_BUY, 100, "MSFT", PRICE + 1_0000, SYSTEM_HOURS,
                Ouch42.DISPLAY_MID_POINT_PEG), () -> has(a, 'A', 2));
            send(c, OuchMessages.replaceOrder("C2", "C4", 10, PRICE - 5000), () -> has(a, 'T', 1));
            send(c, OuchMessages.cancelOrder("C3", 0), () -> has(c, 'C', 1));

            // The closing cross's late period: Cancel Pending for a full cancel, Cancel Reject for a partial one.
            send(c, closingCross("C5", Ouch42.SIDE_BUY, 100), () -> has(c, 'A', 4));
            send(c, closingCross("C6", Ouch42.SIDE_BUY, 100), () -> has(c, 'A', 5));
            send(a, closingCross("A6", Ouch42.SIDE_SELL, 50), () -> has(a, 'A', 3));
            admin("cross", "--symbol=GOOG", "--lock");
            send(c, OuchMessages.cancelOrder("C5", 0), () -> has(c, 'P', 1));
            send(c, OuchMessages.cancelOrder("C6", 50), () -> has(c, 'I', 1));
            admin("cross", "--symbol=GOOG", "--run");
            pollUntil(RESPONSE_TIMEOUT, "the cross's executions", () -> has(a, 'E', 2), sessions);

            admin("break-trade", "--symbol=AAPL", "--reason=E",
                "--match-number=" + traders.get(c).executed().getFirst().matchNumber());
            pollUntil(RESPONSE_TIMEOUT, "Broken Trade to both sides", () -> has(a, 'B', 1) && has(c, 'B', 1),
                sessions);
            pollUntil(RESPONSE_TIMEOUT, "Broken Trade on the fanout", () -> hasType(fanoutRecorder, 'B'), sessions);

            try (MoldUdp64TestClient mold = MoldUdp64TestClient.join(moldRecorder))
            {
                pollUntil(RESPONSE_TIMEOUT, "the MoldUDP64 receiver to fill its gap up to the Broken Trade",
                    () -> poll(mold) && hasType(moldRecorder, 'B'), sessions);
                assertThat(mold.requests()).as("re-requests").isNotEmpty();
            }
            final Map<Integer, String> sentByPort = new TreeMap<>();
            final Map<Integer, List<byte[]>> receivedByPort = new TreeMap<>();
            for (final SoupBinTcpTestClient trader : traders.keySet())
            {
                sentByPort.put(trader.localPort(), sent.get(trader).toString());
                receivedByPort.put(trader.localPort(), traders.get(trader).messages());
            }
            final int mdPort = md.localPort();
            for (final SoupBinTcpTestClient session : sessions)
            {
                session.logoutAndAwaitClose(RESPONSE_TIMEOUT);
            }
            tshark.stopCapture();
            tshark.copyCaptureTo(CAPTURE_COPY);

            final Map<String, String> decodeAs = Map.of(
                "tcp.port==" + exchange.gatewayPort(), "soupbintcp",
                "tcp.port==" + exchange.fanoutPort(), "soupbintcp",
                "udp.port==" + moldPort, "moldudp64",
                "udp.port==" + moldRequestPort, "moldudp64");
            assertThat(tshark.fields(decodeAs, true,
                PROBLEMS, "frame.number", "_ws.expert.message"))
                .as("frames Wireshark finds malformed, warns of, or holding an unknown OUCH message").isEmpty();
            assertOuchAsSentAndReceived(tshark, decodeAs, exchange.gatewayPort(), sentByPort, receivedByPort);
            assertFanoutAsReceived(tshark, decodeAs, exchange.fanoutPort(), mdPort, fanoutRecorder);
            assertMoldAsReceived(tshark, decodeAs, moldPort, moldRequestPort, moldRecorder);
        }
        finally
        {
            for (final SoupBinTcpTestClient session : sessions)
            {
                session.close();
            }
        }
    }

    /**
     * Wireshark's OUCH messages of each session, in capture order, are the types the client sent and those it
     * received, and together they are every outbound type.
     */
    private static void assertOuchAsSentAndReceived(
        final Tshark tshark, final Map<String, String> decodeAs, final int gatewayPort,
        final Map<Integer, String> sentByPort, final Map<Integer, List<byte[]>> receivedByPort)
        throws IOException, InterruptedException
    {
        final Map<Integer, StringBuilder> inbound = new TreeMap<>();
        final Map<Integer, StringBuilder> outbound = new TreeMap<>();
        for (final String[] row : tshark.fields(decodeAs, true, "ouch && tcp.port == " + gatewayPort,
            "tcp.srcport", "tcp.dstport", "ouch.packet_type"))
        {
            final boolean out = Integer.parseInt(row[0]) == gatewayPort;
            final int client = Integer.parseInt(out ? row[1] : row[0]);
            final StringBuilder types = (out ? outbound : inbound).computeIfAbsent(client, (k) -> new StringBuilder());
            Tshark.chars(row[2]).forEach(types::append);
        }
        final Map<Integer, String> received = new TreeMap<>();
        receivedByPort.forEach((port, messages) -> received.put(port, types(messages)));
        assertThat(asStrings(inbound)).as("OUCH 4.2 inbound, by client port").isEqualTo(sentByPort);
        assertThat(asStrings(outbound)).as("OUCH 4.2 outbound, by client port").isEqualTo(received);
        assertThat(distinct(String.join("", received.values())))
            .as("every OUCH 4.2 outbound type").containsExactlyInAnyOrderElementsOf(distinct(OUCH_OUTBOUND_TYPES));
    }

    /** The ITCH 5.0 messages in the fanout's SoupBinTCP Sequenced Data to md01 are those md01 parsed, in order. */
    private static void assertFanoutAsReceived(
        final Tshark tshark, final Map<String, String> decodeAs, final int fanoutPort, final int mdPort,
        final ItchRecorder recorder) throws IOException, InterruptedException
    {
        final List<String> captured = new ArrayList<>();
        for (final String[] row : tshark.fields(decodeAs, false,
            "soupbintcp.message && tcp.srcport == " + fanoutPort + " && tcp.dstport == " + mdPort,
            "soupbintcp.packet_type", "soupbintcp.message"))
        {
            final List<Character> packetTypes = Tshark.chars(row[0]);
            final List<String> messages = List.of(row[1].split("\\" + Tshark.AGGREGATOR));
            assertThat(packetTypes.stream().filter((type) -> type == 'S').count())
                .as("Sequenced Data packets of a frame, one per message").isEqualTo(messages.size());
            captured.addAll(messages);
        }
        assertThat(captured).as("ITCH 5.0 from the fanout").isEqualTo(hex(recorder.messages()));
        assertThat(distinct(types(recorder.messages())))
            .as("the fanout's ITCH 5.0 types").containsAll(distinct(ITCH_TYPES));
    }

    /**
     * The MoldUDP64 downstream packets are numbered without a gap, the re-request server answered, and every message
     * of the downstream and answer packets is, by sequence number, the one the receiver parsed.
     */
    private static void assertMoldAsReceived(
        final Tshark tshark, final Map<String, String> decodeAs, final int moldPort, final int requestPort,
        final ItchRecorder recorder) throws IOException, InterruptedException
    {
        final Map<Long, String> bySequence = new TreeMap<>();
        long nextDownstream = -1;
        int answers = 0;
        for (final String[] row : tshark.fields(decodeAs, true, "moldudp64",
            "udp.srcport", "udp.dstport", "moldudp64.sequence", "moldudp64.count", "moldudp64.msgdata"))
        {
            final long sequence = Long.parseLong(row[2]);
            final int count = Integer.parseInt(row[3]);
            final boolean downstream = Integer.parseInt(row[1]) == moldPort;
            final boolean answer = Integer.parseInt(row[0]) == requestPort;
            if (downstream)
            {
                assertThat(nextDownstream < 0 || sequence == nextDownstream)
                    .as("downstream packet " + sequence + ", expected " + nextDownstream).isTrue();
                nextDownstream = sequence + (count == 0xFFFF ? 0 : count);
            }
            answers += answer ? 1 : 0;
            if ((downstream || answer) && count > 0 && count < 0xFFFF)
            {
                final String[] messages = row[4].split("\\" + Tshark.AGGREGATOR);
                assertThat(messages).as("messages of packet " + sequence).hasSize(count);
                for (int i = 0; i < count; i++)
                {
                    final String earlier = bySequence.put(sequence + i, messages[i]);
                    assertThat(null == earlier || earlier.equals(messages[i]))
                        .as("message " + (sequence + i) + " sent twice, differently").isTrue();
                }
            }
        }
        assertThat(answers).as("re-request answers").isPositive();
        final List<String> received = hex(recorder.messages());
        assertThat(bySequence.keySet()).as("MoldUDP64 sequence numbers").startsWith(1L);
        assertThat(new ArrayList<>(bySequence.values()).subList(0, received.size()))
            .as("ITCH 5.0 over MoldUDP64, by sequence number").isEqualTo(received);
    }

    private SoupBinTcpTestClient trader(final EmbeddedExchange exchange, final String user) throws IOException
    {
        final OuchRecorder recorder = new OuchRecorder();
        final SoupBinTcpTestClient session =
            open(SoupBinTcpTestClient.login(exchange.gatewayPort(), user, user + "pw", 0, recorder));
        session.awaitLoginAnswer(RESPONSE_TIMEOUT);
        assertThat(session.loginAccepted()).as(user + " logged in").isTrue();
        traders.put(session, recorder);
        sent.put(session, new StringBuilder());
        return session;
    }

    private SoupBinTcpTestClient open(final SoupBinTcpTestClient session)
    {
        sessions.add(session);
        return session;
    }

    private void send(final SoupBinTcpTestClient session, final ByteBuffer message, final BooleanSupplier answered)
        throws IOException
    {
        sent.get(session).append((char)message.get(0));
        session.send(message);
        pollUntil(RESPONSE_TIMEOUT, "the answer to OUCH '" + (char)message.get(0) + "'", answered, sessions);
    }

    private boolean has(final SoupBinTcpTestClient session, final char type, final int count)
    {
        return types(traders.get(session).messages()).chars().filter((t) -> t == type).count() >= count;
    }

    private void admin(final String... args)
    {
        final List<String> command = new ArrayList<>(List.of(args));
        command.add("--aeron-dir=" + aeronDir);
        command.add("--symbols=" + SYMBOLS);
        assertThat(new CommandLine(new AdminCommand()).execute(command.toArray(String[]::new)))
            .as("bourse admin " + String.join(" ", args)).isZero();
    }

    private static ByteBuffer enter(
        final String token, final byte side, final long shares, final String stock, final long price)
    {
        return OuchMessages.enterOrder(token, side, shares, stock, price, SYSTEM_HOURS, Ouch42.DISPLAY_ATTRIBUTABLE);
    }

    private static ByteBuffer closingCross(final String token, final byte side, final long shares)
    {
        return OuchMessages.enterOrder(token, side, shares, "GOOG", PRICE, SYSTEM_HOURS, Ouch42.DISPLAY_ATTRIBUTABLE,
            Ouch42.CROSS_TYPE_CLOSING);
    }

    private static boolean hasType(final ItchRecorder recorder, final char type)
    {
        return types(recorder.messages()).indexOf(type) >= 0;
    }

    private static boolean poll(final MoldUdp64TestClient mold)
    {
        try
        {
            mold.poll();
            return true;
        }
        catch (final IOException ex)
        {
            throw new AssertionError("MoldUDP64 receiver failed", ex);
        }
    }

    private static String types(final List<byte[]> messages)
    {
        final StringBuilder types = new StringBuilder();
        messages.forEach((message) -> types.append((char)message[0]));
        return types.toString();
    }

    private static List<Character> distinct(final String types)
    {
        return types.chars().distinct().mapToObj((type) -> (char)type).toList();
    }

    private static List<String> hex(final List<byte[]> messages)
    {
        return messages.stream().map(HexFormat.of()::formatHex).toList();
    }

    private static Map<Integer, String> asStrings(final Map<Integer, StringBuilder> types)
    {
        final Map<Integer, String> strings = new TreeMap<>();
        types.forEach((port, builder) -> strings.put(port, builder.toString()));
        return strings;
    }
}
