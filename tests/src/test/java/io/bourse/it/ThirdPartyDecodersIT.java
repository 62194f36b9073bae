package io.bourse.it;

import com.paritytrading.nassau.soupbintcp.SoupBinTCP;
import io.bourse.common.config.EmbeddedTestSettings;
import io.bourse.common.config.Settings;
import io.bourse.launcher.AdminCommand;
import io.bourse.launcher.EmbeddedExchange;
import io.bourse.ouch.Ouch42;
import org.agrona.CloseHelper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.stream.LongStream;

import static io.bourse.it.SoupBinTcpTestClient.pollUntil;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Bourse's wire protocols as independent decoders read them: a session that makes the exchange send every OUCH 4.2
 * outbound message type, captured on the loopback interface and decoded by Wireshark's own SoupBinTCP 4.0, OUCH 4.x
 * and MoldUDP64 dissectors ({@link Tshark}), and the ITCH 5.0 market data the same session causes, on the fanout's
 * SoupBinTCP stream and on the md-publisher's MoldUDP64 feed (downstream and re-request answers), parsed by juncture's
 * ITCH 5.0 parser ({@link ItchRecorder}, which refuses a message juncture does not read to its last byte) and by
 * itchfeed's ({@link Itchfeed}). Bourse writes ITCH 5.0 with juncture's message classes (Cross Trade aside), so
 * juncture's reading alone checks its values but not its layouts; itchfeed, by another author, checks those. The
 * exchange is the embedded one (DESIGN.md run mode 1) on the test host; the decoders are not Bourse's code.
 */
@Timeout(value = 600, unit = TimeUnit.SECONDS) // the two decoders' image builds included, on a machine new to them
final class ThirdPartyDecodersIT
{
    private static final Duration RESPONSE_TIMEOUT = Duration.ofSeconds(20);
    private static final String SYMBOLS = "AAPL@0,MSFT@0,GOOG@0";
    private static final long PRICE = 100_0000;
    private static final long SYSTEM_HOURS = Ouch42.TIME_IN_FORCE_SYSTEM_HOURS;
    /**
     * Every OUCH 4.2 outbound type: System Event, Accepted, Replaced, Canceled, AIQ Canceled, Executed, Broken Trade,
     * Rejected, Cancel Pending, Cancel Reject, Order Priority Update, Order Modified.
     */
    private static final String OUCH_OUTBOUND_TYPES = "SAUCDEBJPITM";
    /** ITCH 5.0 types the session causes: System Event, Stock Directory, Trading Action, the order messages, ... */
    private static final String ITCH_TYPES = "SRHAFEXDUQB";

    /**
     * What Wireshark finds wrong by name: a malformed packet, an unknown OUCH message, a MoldUDP64 message length or
     * count that does not fit, a SoupBinTCP sequence number that is not a number ({@link #assertNoProblems} also takes
     * every other warning or error of a dissector).
     */
    private static final String PROBLEMS = "_ws.malformed || ouch.unknown_message || moldudp64.msglen.invalid || " +
        "moldudp64.count.invalid || moldudp64.end_of_session_extra || soupbintcp.req_seq_num.invalid || " +
        "soupbintcp.next_seq_num.invalid";
    /** Wireshark's expert severity Warning (PI_WARN); Error (PI_ERROR) is above it. */
    private static final long EXPERT_WARNING = 0x00600000;

    /** The fields every ITCH 5.0 message begins with, after its type, by {@link JunctureFields#name}. */
    private static final Set<String> ITCH_HEADER_FIELDS = Set.of("stocklocate", "trackingnumber", "timestamp");
    /**
     * Add Order, Order Replace, Order Executed and Broken Trade messages the session causes on each feed (3 Add Orders,
     * 2 replaces, 1 execution, 1 break), twice: on the fanout and on the MoldUDP64 feed.
     */
    private static final int ITCH_ORDER_MESSAGES = 2 * 7;
    /** MoldUDP64 Message Count of an End of Session packet. */
    private static final int END_OF_SESSION = 0xFFFF;
    /** Of the Match Number in ITCH 5.0 Broken Trade 'B' (after type, Stock Locate, Tracking Number, Timestamp). */
    private static final int ITCH_BROKEN_TRADE_MATCH_OFFSET = 11;
    /** The capture, kept for Wireshark after the test, also a failed one (the module's build directory). */
    private static final Path CAPTURE_COPY = Path.of("target", "third-party-decoders.pcapng");

    /**
     * An OUCH session of the test: its client, and the messages it received and those it sent, in order.
     */
    private record Trader(SoupBinTcpTestClient session, OuchRecorder recorder, List<byte[]> sent)
    {
    }

    @TempDir
    private Path journalDir;

    private final Map<SoupBinTcpTestClient, Trader> traders = new LinkedHashMap<>();
    private final List<SoupBinTcpTestClient> sessions = new ArrayList<>();
    private String aeronDir;
    /** md01 on the fanout: stays logged in until the exchange stops. */
    private SoupBinTcpTestClient subscriber;
    /** trdr01: stays logged in until the exchange stops. */
    private SoupBinTcpTestClient lastTrader;

    /**
     * Three traders (demo01 and demo02 of firm DEMO, trdr01 of FIRM) go through entry, execution, replace, modify,
     * partial cancel, a reject, a self-match prevention cancel, a midpoint peg repriced, a closing cross's late period
     * (Cancel Pending, Cancel Reject) and a broken trade, while md01 reads the fanout and a MoldUDP64 receiver joins
     * late and fills the gap with re-requests, and a login with a wrong password is rejected; then the exchange stops,
     * ending md01's session and the MoldUDP64 session, and closing trdr01's connection without End of Session (its
     * gateway session goes on at a restart the same day). Wireshark must find no malformed packet and no
     * warning in the capture, no SoupBinTCP packet type outside the spec's, and must see, session by session, the OUCH
     * messages each client sent and received, in order, with the tokens and match numbers the client read and every
     * field as Bourse's OUCH flyweights read it; the fanout's ITCH messages in the capture must be those md01 parsed,
     * byte for byte, and the MoldUDP64 messages, by sequence number, those the receiver parsed, downstream packets
     * numbered without a gap up to End of Session. itchfeed must read each of those ITCH messages as juncture does,
     * field by field (the Cross Trade as the session's cross), and the orders, executions and broken trade in them as
     * the OUCH answers tell them.
     */
    @Test
    void shouldBeReadByWiresharkJunctureAndItchfeedAsTheClientsReadIt() throws Exception
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
        try (Tshark tshark = Tshark.start(CAPTURE_COPY); Itchfeed itchfeed = Itchfeed.start())
        {
            final EmbeddedExchange exchange = EmbeddedExchange.launch(new Settings(settings));
            final int gatewayPort = exchange.gatewayPort();
            final int fanoutPort = exchange.fanoutPort();
            final int mdPort;
            final Map<Integer, Trader> tradersByPort = new TreeMap<>();
            try
            {
                tshark.startCapture("tcp port " + gatewayPort + " or tcp port " + fanoutPort + " or udp port " +
                    moldPort + " or udp port " + moldRequestPort);
                runSession(exchange, fanoutRecorder, moldRecorder);
                mdPort = subscriber.localPort();
                for (final Trader trader : traders.values())
                {
                    tradersByPort.put(trader.session().localPort(), trader);
                }
                for (final SoupBinTcpTestClient session : sessions)
                {
                    if (session != subscriber && session != lastTrader)
                    {
                        session.logoutAndAwaitClose(RESPONSE_TIMEOUT);
                    }
                }
            }
            finally
            {
                exchange.close(); // ends the sessions still logged in, and the MoldUDP64 session
            }
            try
            {
                subscriber.awaitCloseWithoutSending(RESPONSE_TIMEOUT);
                assertThat(subscriber.endOfSessionPacket()).as("the fanout's End of Session at the exchange's stop")
                    .isTrue();
                lastTrader.awaitCloseWithoutSending(RESPONSE_TIMEOUT);
                assertThat(lastTrader.endOfSessionPacket()).as("the gateway's stop before the day's end: no End of " +
                    "Session").isFalse();
            }
            finally
            {
                CloseHelper.quietCloseAll(sessions);
            }
            tshark.stopCapture();

            final Map<String, String> decodeAs = Map.of(
                "tcp.port==" + gatewayPort, "soupbintcp",
                "tcp.port==" + fanoutPort, "soupbintcp",
                "udp.port==" + moldPort, "moldudp64",
                "udp.port==" + moldRequestPort, "moldudp64");
            assertNoProblems(tshark, decodeAs);
            assertSoupBinTcpPacketTypes(tshark, decodeAs, gatewayPort, fanoutPort);
            assertOuchAnswers(assertOuchFieldsAsBourseReadsThem(tshark, decodeAs, gatewayPort, tradersByPort),
                tradersByPort.keySet(), fanoutRecorder.messages().stream().filter((m) -> 'B' == m[0])
                    .map((m) -> Long.toUnsignedString(ByteBuffer.wrap(m).getLong(ITCH_BROKEN_TRADE_MATCH_OFFSET)))
                    .toList());
            final List<String> itch = new ArrayList<>(
                assertFanoutAsReceived(tshark, decodeAs, fanoutPort, mdPort, fanoutRecorder));
            itch.addAll(assertMoldAsReceived(tshark, decodeAs, moldPort, moldRequestPort, moldRecorder));
            final List<Itchfeed.Message> decoded = itchfeed.decode(itch);
            assertItchfeedReadsAsJuncture(decoded);
            assertItchfeedOrdersAsOuch(decoded);
        }
    }

    /**
     * The session: md01 on the fanout ({@link #subscriber}), a login with a wrong password, the three traders' orders
     * (trdr01's session the {@link #lastTrader}) and the operator's commands, each step awaited, then a MoldUDP64
     * receiver joining late.
     */
    private void runSession(
        final EmbeddedExchange exchange, final ItchRecorder fanoutRecorder, final ItchRecorder moldRecorder)
        throws IOException
    {
        subscriber = open(SoupBinTcpTestClient.login(exchange.fanoutPort(), "md01", "md01pw", 0, fanoutRecorder));
        try (SoupBinTcpTestClient intruder =
            SoupBinTcpTestClient.login(exchange.gatewayPort(), "demo01", "wrongpw", 0, new OuchRecorder()))
        {
            intruder.awaitLoginAnswer(RESPONSE_TIMEOUT);
            assertThat(intruder.loginRejectReason()).as("Login Rejected, not authorized")
                .isEqualTo(SoupBinTCP.LOGIN_REJECT_CODE_NOT_AUTHORIZED);
        }
        final SoupBinTcpTestClient a = trader(exchange, "demo01");
        final SoupBinTcpTestClient b = trader(exchange, "demo02");
        final SoupBinTcpTestClient c = trader(exchange, "trdr01");
        lastTrader = c;

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
            "--match-number=" + traders.get(c).recorder().executed().getFirst().matchNumber());
        pollUntil(RESPONSE_TIMEOUT, "Broken Trade to both sides", () -> has(a, 'B', 1) && has(c, 'B', 1), sessions);
        pollUntil(RESPONSE_TIMEOUT, "Broken Trade on the fanout", () -> hasType(fanoutRecorder, 'B'), sessions);

        try (MoldUdp64TestClient mold = MoldUdp64TestClient.join(moldRecorder))
        {
            pollUntil(RESPONSE_TIMEOUT, "the MoldUDP64 receiver to fill its gap up to the Broken Trade",
                () -> poll(mold) && hasType(moldRecorder, 'B'), sessions);
            assertThat(mold.requests()).as("re-requests").isNotEmpty();
        }
    }

    /**
     * Wireshark finds no frame malformed, no unknown OUCH message, no MoldUDP64 length or count that does not fit, no
     * SoupBinTCP sequence number that is not a number ({@link #PROBLEMS}), and no other warning or error of a dissector
     * but TCP's (a frame TCP's analysis flags, e.g. a retransmission or a duplicate SACK, is loopback's business, not
     * Bourse's; each expert item sits in the layer of the protocol that raised it).
     */
    private static void assertNoProblems(final Tshark tshark, final Map<String, String> decodeAs)
        throws IOException, InterruptedException
    {
        assertThat(tshark.fields(decodeAs, true, PROBLEMS, "frame.number", "_ws.expert.message"))
            .as("frames Wireshark finds malformed or holding an unknown OUCH message").isEmpty();
        final List<String> warnings = new ArrayList<>();
        for (final Map<String, Object> frame : tshark.layers(decodeAs, "_ws.expert.severity >= warning", null))
        {
            frame.forEach((protocol, layer) ->
            {
                if (!"tcp".equals(protocol))
                {
                    warnings(layer, warnings);
                }
            });
        }
        assertThat(warnings).as("warnings and errors of dissectors other than TCP's").isEmpty();
    }

    /** Adds the message of every expert item of Warning severity or above in a JSON layer tree to found. */
    private static void warnings(final Object node, final List<String> found)
    {
        if (node instanceof Map<?, ?> fields)
        {
            fields.forEach((name, value) ->
            {
                if ("_ws.expert".equals(name))
                {
                    for (final Object item : value instanceof List<?> items ? items : List.of(value))
                    {
                        final Map<String, Object> expert = Json.object(item);
                        if (Long.parseLong(String.valueOf(expert.get("_ws.expert.severity"))) >= EXPERT_WARNING)
                        {
                            found.add(String.valueOf(expert.get("_ws.expert.message")));
                        }
                    }
                }
                else
                {
                    warnings(value, found);
                }
            });
        }
        else if (node instanceof List<?> items)
        {
            items.forEach((item) -> warnings(item, found));
        }
    }

    /**
     * Every SoupBinTCP 4.0 packet Wireshark reads has a type of its direction: the server's Debug, Login Accepted,
     * Login Rejected, Sequenced Data, Server Heartbeat and End of Session, the client's Login Request, Unsequenced
     * Data, Client Heartbeat and Logout Request (SoupBinTCP raises no warning at an unknown type); the gateway's
     * include a Login Rejected and no End of Session (the day does not end), the fanout's an End of Session (at the
     * exchange's stop), the clients' a Logout Request.
     */
    private static void assertSoupBinTcpPacketTypes(
        final Tshark tshark, final Map<String, String> decodeAs, final int gatewayPort, final int fanoutPort)
        throws IOException, InterruptedException
    {
        final StringBuilder fromServers = new StringBuilder();
        final StringBuilder fromClients = new StringBuilder();
        final StringBuilder fromGateway = new StringBuilder();
        final StringBuilder fromFanout = new StringBuilder();
        for (final String[] row :
            tshark.fields(decodeAs, false, "soupbintcp", "tcp.srcport", "soupbintcp.packet_type"))
        {
            final int source = Integer.parseInt(row[0]);
            final boolean fromServer = source == gatewayPort || source == fanoutPort;
            Tshark.chars(row[1]).forEach((type) ->
            {
                (fromServer ? fromServers : fromClients).append(type);
                if (source == gatewayPort)
                {
                    fromGateway.append(type);
                }
                else if (source == fanoutPort)
                {
                    fromFanout.append(type);
                }
            });
        }
        assertThat(distinct(fromServers.toString())).as("SoupBinTCP server packet types")
            .isSubsetOf(distinct("+AJSHZ"));
        assertThat(distinct(fromClients.toString())).as("SoupBinTCP client packet types")
            .isSubsetOf(distinct("LURO")).contains('L', 'U', 'O');
        assertThat(distinct(fromGateway.toString())).as("the gateway's SoupBinTCP packet types")
            .contains('A', 'J', 'S').doesNotContain('Z');
        assertThat(distinct(fromFanout.toString())).as("the fanout's SoupBinTCP packet types").contains('A', 'S', 'Z');
    }

    /**
     * Wireshark reads every field of every OUCH 4.2 message, both ways, as Bourse's flyweights do ({@link OuchFields}):
     * each message a client sent and each the gateway sent, in order, read with the flyweights the gateway decodes and
     * encodes them with. The gateway and the test client share those flyweights, so only a reader by others can tell a
     * field at the wrong place.
     *
     * @return the messages as Wireshark reads them, by client port and direction ({@code 52872 in}, {@code 52872 out}):
     *         each message's fields by Wireshark's name without {@code ouch.}, e.g. {@code packet_type} {@code 'A'}.
     */
    private static Map<String, List<Map<String, String>>> assertOuchFieldsAsBourseReadsThem(
        final Tshark tshark, final Map<String, String> decodeAs, final int gatewayPort,
        final Map<Integer, Trader> tradersByPort) throws IOException, InterruptedException
    {
        final Map<String, List<Map<String, String>>> byWireshark = new TreeMap<>();
        for (final Map<String, Object> frame : tshark.layers(decodeAs, "ouch && tcp.port == " + gatewayPort,
            "tcp ouch"))
        {
            final Map<String, Object> tcp = Json.object(frame.get("tcp"));
            final boolean out = gatewayPort == Integer.parseInt(String.valueOf(tcp.get("tcp.srcport")));
            final String direction = tcp.get(out ? "tcp.dstport" : "tcp.srcport") + (out ? " out" : " in");
            final Object layer = frame.get("ouch");
            for (final Object message : layer instanceof List<?> messages ? messages : List.of(layer))
            {
                final Map<String, String> fields = new TreeMap<>();
                Json.object(message).forEach((name, value) ->
                    fields.put(name.substring("ouch.".length()), String.valueOf(value).stripTrailing()));
                byWireshark.computeIfAbsent(direction, (k) -> new ArrayList<>()).add(fields);
            }
        }
        final Map<String, List<Map<String, String>>> byBourse = new TreeMap<>();
        tradersByPort.forEach((port, trader) ->
        {
            for (final boolean inbound : new boolean[] {true, false})
            {
                final List<byte[]> messages = inbound ? trader.sent() : trader.recorder().messages();
                if (!messages.isEmpty()) // Wireshark has no key for a direction without a message
                {
                    byBourse.put(port + (inbound ? " in" : " out"),
                        messages.stream().map((m) -> OuchFields.read(m, inbound)).toList());
                }
            }
        });
        assertThat(byWireshark).as("OUCH 4.2 fields as Wireshark reads them, by client port and direction")
            .isEqualTo(byBourse);
        return byWireshark;
    }

    /**
     * The OUCH answers, as Wireshark reads them, are every outbound type; their Order Tokens (Replaced: also the
     * previous one) are among those the session sent (Replace Order: both); and the Broken Trade's Match Number is the
     * one juncture reads in the fanout's ITCH Broken Trade.
     *
     * @param ouch                   {@link #assertOuchFieldsAsBourseReadsThem}'s messages, by client port and
     *                               direction.
     * @param itchBrokenMatchNumbers the Match Numbers of the fanout's ITCH Broken Trades, in decimal.
     */
    private static void assertOuchAnswers(
        final Map<String, List<Map<String, String>>> ouch, final Set<Integer> clientPorts,
        final List<String> itchBrokenMatchNumbers)
    {
        final List<Map<String, String>> answers = new ArrayList<>();
        for (final int port : clientPorts)
        {
            final List<Map<String, String>> sessionAnswers = ouch.getOrDefault(port + " out", List.of());
            answers.addAll(sessionAnswers);
            assertThat(orderTokens(sessionAnswers))
                .as("Order Tokens of the answers to client port " + port + ", all of its own")
                .isSubsetOf(orderTokens(ouch.getOrDefault(port + " in", List.of())));
        }
        assertThat(answers.stream().filter((fields) -> "'B'".equals(fields.get("packet_type")))
            .map((fields) -> fields.get("match_number")).distinct().toList())
            .as("OUCH Broken Trade's Match Number, as ITCH Broken Trade's")
            .containsExactlyElementsOf(itchBrokenMatchNumbers);
        assertThat(answers.stream().map((fields) -> fields.get("packet_type").charAt(1)).distinct().toList())
            .as("every OUCH 4.2 outbound type").containsExactlyInAnyOrderElementsOf(distinct(OUCH_OUTBOUND_TYPES));
    }

    /** @return every Order Token of the messages (Order Token, Existing, Replacement and Previous Order Token). */
    private static List<String> orderTokens(final List<Map<String, String>> messages)
    {
        return messages.stream().flatMap((fields) -> fields.entrySet().stream())
            .filter((field) -> field.getKey().endsWith("order_token")).map(Map.Entry::getValue).distinct().toList();
    }

    /**
     * The ITCH 5.0 messages in the fanout's SoupBinTCP Sequenced Data to md01 are those md01 parsed, in order.
     *
     * @return those messages, in hex, as Wireshark's SoupBinTCP dissector gives them.
     */
    private static List<String> assertFanoutAsReceived(
        final Tshark tshark, final Map<String, String> decodeAs, final int fanoutPort, final int mdPort,
        final ItchRecorder recorder) throws IOException, InterruptedException
    {
        final List<String> captured = new ArrayList<>();
        for (final String[] row : tshark.fields(decodeAs, false,
            "soupbintcp.message && tcp.srcport == " + fanoutPort + " && tcp.dstport == " + mdPort,
            "soupbintcp.packet_type", "soupbintcp.message"))
        {
            final List<Character> packetTypes = Tshark.chars(row[0]);
            final List<String> messages = values(row[1]);
            assertThat(packetTypes.stream().filter((type) -> type == 'S').count())
                .as("Sequenced Data packets of a frame, one per message").isEqualTo(messages.size());
            captured.addAll(messages);
        }
        assertThat(captured).as("ITCH 5.0 from the fanout").isEqualTo(hex(recorder.messages()));
        assertThat(distinct(types(recorder.messages())))
            .as("the fanout's ITCH 5.0 types").containsAll(distinct(ITCH_TYPES));
        return captured;
    }

    /**
     * The MoldUDP64 downstream packets are numbered without a gap and end with End of Session, the re-request server
     * answered, and every message of the downstream and answer packets is, by sequence number from 1, the one the
     * receiver parsed.
     *
     * @return every message of the session by sequence number, in hex, as Wireshark's MoldUDP64 dissector gives them.
     */
    private static List<String> assertMoldAsReceived(
        final Tshark tshark, final Map<String, String> decodeAs, final int moldPort, final int requestPort,
        final ItchRecorder recorder) throws IOException, InterruptedException
    {
        final Map<Long, String> bySequence = new TreeMap<>();
        long nextDownstream = -1;
        int answers = 0;
        int endsOfSession = 0;
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
                nextDownstream = sequence + (count == END_OF_SESSION ? 0 : count);
                endsOfSession += count == END_OF_SESSION ? 1 : 0;
            }
            answers += answer ? 1 : 0;
            if ((downstream || answer) && count > 0 && count < END_OF_SESSION)
            {
                final List<String> messages = values(row[4]);
                assertThat(messages).as("messages of packet " + sequence).hasSize(count);
                for (int i = 0; i < count; i++)
                {
                    final String earlier = bySequence.put(sequence + i, messages.get(i));
                    assertThat(null == earlier || earlier.equals(messages.get(i)))
                        .as("message " + (sequence + i) + " sent twice, differently").isTrue();
                }
            }
        }
        assertThat(nextDownstream).as("downstream packets captured").isPositive();
        assertThat(answers).as("re-request answers").isPositive();
        assertThat(endsOfSession).as("End of Session packets at the md-publisher's stop").isPositive();
        final List<String> received = hex(recorder.messages());
        assertThat(bySequence.keySet()).as("MoldUDP64 sequence numbers, from 1 without a gap")
            .containsExactlyElementsOf(LongStream.rangeClosed(1, bySequence.size()).boxed().toList());
        assertThat(bySequence.size()).as("messages captured, at least those received").isGreaterThanOrEqualTo(
            received.size());
        assertThat(new ArrayList<>(bySequence.values()).subList(0, received.size()))
            .as("ITCH 5.0 over MoldUDP64, by sequence number").isEqualTo(received);
        return new ArrayList<>(bySequence.values());
    }

    /**
     * itchfeed reads every message of the fanout's stream and of the MoldUDP64 session, each to the same field values
     * as juncture, with every Timestamp within a day; in Cross Trade 'Q', whose fields after the Timestamp juncture
     * 1.0.0 misreads ({@link ItchRecorder}), to those of the session's closing cross instead: GOOG, 50 shares (the
     * sell side's) at $100.00, Cross Type 'C'; and no Match Number 0.
     */
    private static void assertItchfeedReadsAsJuncture(final List<Itchfeed.Message> decoded) throws IOException
    {
        assertThat(decoded.stream().filter((message) -> null != message.refusal())
            .map((message) -> message.hex() + ": " + message.refusal()).toList())
            .as("ITCH 5.0 messages itchfeed refuses").isEmpty();
        final List<String> disagreements = new ArrayList<>();
        for (final Itchfeed.Message message : decoded)
        {
            final Map<String, String> byItchfeed = new TreeMap<>();
            message.fields().forEach((name, value) -> byItchfeed.put(JunctureFields.name(name), value));
            final Map<String, String> expected = new TreeMap<>();
            JunctureFields.read(HexFormat.of().parseHex(message.hex())).forEach((name, value) ->
                expected.put(name, value.like(byItchfeed.getOrDefault(name, ""))));
            if ('Q' == message.type())
            {
                expected.keySet().retainAll(ITCH_HEADER_FIELDS);
                expected.putAll(Map.of("stock", "x" + HexFormat.of().formatHex("GOOG    ".getBytes(
                    StandardCharsets.US_ASCII)), "shares", "50", "crossprice", Long.toString(PRICE), "crosstype",
                    "x43", "matchnumber", byItchfeed.getOrDefault("matchnumber", "")));
            }
            if (!byItchfeed.equals(expected) ||
                Long.parseLong(byItchfeed.getOrDefault("timestamp", "0")) >= TimeUnit.DAYS.toNanos(1) ||
                "0".equals(byItchfeed.get("matchnumber")))
            {
                disagreements.add(message.hex() + ": itchfeed " + byItchfeed + ", expected " + expected);
            }
        }
        assertThat(disagreements)
            .as("ITCH 5.0 fields itchfeed reads otherwise than juncture (Cross Trade: than the session's cross)")
            .isEmpty();
        assertThat(decoded.stream().map((message) -> String.valueOf(message.type())).distinct().toList())
            .as("ITCH 5.0 types itchfeed read").containsAll(
                distinct(ITCH_TYPES).stream().map(String::valueOf).toList());
    }

    /**
     * The orders in the ITCH 5.0 messages, as itchfeed reads them, are those the OUCH 4.2 sessions were answered
     * about: each Add Order 'A' or 'F' an OUCH Accepted order (Order Reference Number, side, shares, stock, price),
     * each Order Replace 'U' an OUCH Replaced (the new Order Reference Number, shares, price), each Order Executed 'E'
     * (and Order Executed With Price 'C' and Trade 'P', which this session does not cause) an OUCH Executed (Match
     * Number, shares), and each Broken Trade 'B' the Match Number of an OUCH Executed. Not Cross Trade 'Q': Bourse
     * gives a cross a Match Number of its own, which no OUCH message carries.
     */
    private void assertItchfeedOrdersAsOuch(final List<Itchfeed.Message> decoded)
    {
        final Set<String> answered = new TreeSet<>();
        for (final Trader trader : traders.values())
        {
            final OuchRecorder ouch = trader.recorder();
            ouch.accepted().forEach((accepted) -> answered.add(String.join(" ", "A",
                Long.toUnsignedString(accepted.orderReference()), "x" + HexFormat.of().toHexDigits(accepted.side()),
                Long.toString(accepted.shares()), "x" + HexFormat.of().toHexDigits(accepted.stock()),
                Long.toString(accepted.price()))));
            ouch.replaced().forEach((replaced) -> answered.add(String.join(" ", "U",
                Long.toUnsignedString(replaced.orderReference()), Long.toString(replaced.shares()),
                Long.toString(replaced.price()))));
            ouch.executed().forEach((executed) ->
            {
                answered.add("E " + Long.toUnsignedString(executed.matchNumber()) + " " + executed.shares());
                answered.add("match " + Long.toUnsignedString(executed.matchNumber()));
            });
        }
        final List<String> told = new ArrayList<>();
        for (final Itchfeed.Message message : decoded)
        {
            final Map<String, String> field = message.fields();
            switch (message.type())
            {
                case 'A', 'F' -> told.add(String.join(" ", "A", field.get("order_reference_number"),
                    field.get("buy_sell_indicator"), field.get("shares"), field.get("stock"), field.get("price")));
                case 'U' -> told.add(String.join(" ", "U", field.get("new_order_reference_number"),
                    field.get("shares"), field.get("price")));
                case 'E', 'C' -> told.add("E " + field.get("match_number") + " " + field.get("executed_shares"));
                case 'P' -> told.add("E " + field.get("match_number") + " " + field.get("shares"));
                case 'B' -> told.add("match " + field.get("match_number"));
                default ->
                {
                }
            }
        }
        assertThat(told).as("ITCH 5.0 orders, executions and broken trades, as itchfeed reads them")
            .hasSize(ITCH_ORDER_MESSAGES);
        assertThat(answered).as("the OUCH 4.2 answers that tell of them").containsAll(told);
    }

    /** @return a tshark field's values in a frame, in order; none for the empty string. */
    private static List<String> values(final String field)
    {
        return field.isEmpty() ? List.of() : List.of(field.split("\\" + Tshark.AGGREGATOR));
    }

    /** @return the user's OUCH session, logged in (password: the user name and "pw"), its messages recorded. */
    private SoupBinTcpTestClient trader(final EmbeddedExchange exchange, final String user) throws IOException
    {
        final OuchRecorder recorder = new OuchRecorder();
        final SoupBinTcpTestClient session =
            open(SoupBinTcpTestClient.login(exchange.gatewayPort(), user, user + "pw", 0, recorder));
        session.awaitLoginAnswer(RESPONSE_TIMEOUT);
        assertThat(session.loginAccepted()).as(user + " logged in").isTrue();
        traders.put(session, new Trader(session, recorder, new ArrayList<>()));
        return session;
    }

    /** @return the session, kept to be polled, logged out and closed with the others. */
    private SoupBinTcpTestClient open(final SoupBinTcpTestClient session)
    {
        sessions.add(session);
        return session;
    }

    /**
     * Sends an OUCH 4.2 message, keeping its bytes, and polls every session until it is answered.
     */
    private void send(final SoupBinTcpTestClient session, final ByteBuffer message, final BooleanSupplier answered)
        throws IOException
    {
        final Trader trader = traders.get(session);
        final byte[] bytes = new byte[message.remaining()];
        message.duplicate().get(bytes);
        trader.sent().add(bytes);
        session.send(message);
        pollUntil(RESPONSE_TIMEOUT, "the answer to OUCH '" + (char)message.get(0) + "'", answered, sessions);
    }

    /** @return true once the session has received at least count OUCH messages of the type. */
    private boolean has(final SoupBinTcpTestClient session, final char type, final int count)
    {
        return types(traders.get(session).recorder().messages()).chars().filter((t) -> t == type).count() >= count;
    }

    /** Runs {@code bourse admin} in this JVM against the embedded exchange; it must succeed. */
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
}
