package io.bourse.simulator;

import com.paritytrading.juncture.nasdaq.itch50.ITCH50;
import com.paritytrading.nassau.soupbintcp.SoupBinTCP;
import com.paritytrading.nassau.soupbintcp.SoupBinTCPServer;
import io.bourse.common.config.Credentials;
import io.bourse.common.config.SymbolDirectory;
import io.bourse.common.config.Symbols;
import io.bourse.common.metrics.ReadyEndpoint;
import io.bourse.common.time.MidnightNanoClock;
import io.bourse.ouch.EnterOrder;
import io.bourse.ouch.OrderAccepted;
import io.bourse.ouch.OrderReplaced;
import io.bourse.ouch.ReplaceOrder;
import io.bourse.ouch.SystemEvent;
import io.bourse.ouch.Ouch42;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import static io.bourse.common.Await.awaitTrue;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

@Timeout(value = 10, unit = TimeUnit.SECONDS)
class SimulatorSocketTest
{
    private static final Credentials CREDENTIALS = Credentials.parse(List.of(
        "demo01,demo01pw,DEMO",
        "demo02,demo02pw,DEMO",
        "md01,md01pw,DEMO"));

    private final ByteArrayOutputStream progress = new ByteArrayOutputStream();

    @Test
    void shouldCountSendsAndAcceptsAndMeasureRoundTripsAgainstASoupBinTcpResponder(@TempDir final Path hgrmDir)
        throws Exception
    {
        final AcceptingGateway gateway = new AcceptingGateway();
        final SimulatorReport report;
        final String metrics;
        try (SoupTestServer gatewayServer = new SoupTestServer("test-gateway", gateway);
            SoupTestServer feedServer = new SoupTestServer("test-fanout", new ItchFeed(gateway.enterOrders)))
        {
            // This feed has no snapshot to offer a second session: the book check runs against the real fanout in
            // MarketDataFanoutTest.
            try (SimulatorService service = SimulatorService.launch(context(gatewayServer.port(), feedServer.port())
                .hgrmDir(hgrmDir)
                .bookCheckQuietMs(0)))
            {
                report = service.awaitReport();
                metrics = scrape(service.metricsPort());
            }
            assertThat(gatewayServer.logins()).containsExactlyInAnyOrder("demo01", "demo02");
            assertThat(feedServer.logins()).containsExactly("md01");
        }

        assertThat(report.ordersSent()).isEqualTo(1000);
        assertThat(report.daySent() + report.iocSent()).isEqualTo(gateway.enterOrders.get());
        assertThat(report.cancelSent() + report.replaceSent()).isEqualTo(gateway.otherOrders.get()).isPositive();
        assertThat(report.accepted()).isEqualTo(report.daySent() + report.iocSent());
        assertThat(report.roundTrip().count()).isEqualTo(report.accepted());
        assertThat(report.roundTrip().p50Ns()).isPositive().isLessThanOrEqualTo(report.roundTrip().maxNs());
        assertThat(List.of(report.rejected(), report.unanswered(), report.errors())).containsOnly(0L);
        // Paced: never above the rate; a stall at the end of the second of sending lowers it, so the lower bound is
        // loose (the window ends at the last send, or when the next order would have been due if that is later).
        assertThat(report.achievedRate()).isBetween(800.0, 1100.0);
        assertThat(report.mdMessagesByType()).isEqualTo(Map.of('S', 1L, 'A', 1L, 'E', 1L));
        // The Add Order and Order Executed come once the gateway has the first Enter Order, so within the sending; the
        // System Event of the login may come before.
        assertThat(report.mdMessagesSending()).isBetween(2L, 3L);
        assertThat(report.feedLatency().count()).isBetween(2L, 3L);
        assertThat(report.symbols()).containsExactly(
            new SimulatorReport.SymbolTrades("AAPL", 1, 100, 100, 99.0, 99.0),
            new SimulatorReport.SymbolTrades("MSFT", 0, 0, 0, Double.NaN, Double.NaN));
        assertThat(report.bookCheck()).isEqualTo(BookCheck.Result.NONE);
        assertThat(report.feedLatency().maxNs()).isLessThan(TimeUnit.SECONDS.toNanos(1));

        assertThat(progress.toString(StandardCharsets.US_ASCII)).contains("sent ", "round trip p99", "send lag p99");
        assertThat(report.sendLag().count()).isEqualTo(1000);
        // The drain waits for the answers to the replaces too: every one sent is timed.
        assertThat(report.replaceRoundTrip().count()).isPositive().isEqualTo(report.replaceSent());
        try (Stream<Path> files = Files.list(hgrmDir))
        {
            assertThat(files.map((file) -> file.getFileName().toString()))
                .anyMatch((name) -> name.startsWith("simulator-roundtrip-steady-1000ops-") && name.endsWith(".hgrm"))
                .anyMatch((name) -> name.startsWith("simulator-send-lag-steady-1000ops-") && name.endsWith(".hgrm"));
        }
        assertThat(metrics).contains(
            "bourse_simulator_orders_sent_total{type=\"day\"} " + report.daySent() + ".0",
            "bourse_simulator_orders_sent_total{type=\"ioc\"} " + report.iocSent() + ".0",
            "bourse_simulator_orders_sent_total{type=\"cancel\"} " + report.cancelSent() + ".0",
            "bourse_simulator_orders_sent_total{type=\"replace\"} " + report.replaceSent() + ".0",
            "bourse_simulator_orders_not_sent_total 0.0",
            "bourse_simulator_messages_in_total{type=\"accepted\"} " + report.accepted() + ".0",
            "bourse_simulator_md_messages_total{type=\"system_event\"} 1.0",
            "bourse_simulator_md_messages_total{type=\"add_order\"} 1.0",
            "bourse_simulator_md_messages_total{type=\"order_executed\"} 1.0",
            "bourse_simulator_md_messages_total{type=\"other\"} 0.0",
            "bourse_simulator_vwap{symbol=\"AAPL\",window=\"session\"} 99.0",
            "bourse_simulator_vwap{symbol=\"AAPL\",window=\"rolling\"} 99.0",
            "bourse_simulator_md_inconsistencies_total 0.0",
            "bourse_simulator_errors_total{kind=\"malformed_ouch\"} 0.0",
            "bourse_simulator_errors_total{kind=\"md_session_lost\"} 0.0",
            "bourse_simulator_errors_total{kind=\"agent_exception\"} 0.0",
            "bourse_simulator_order_roundtrip_seconds_count " + report.accepted(),
            "bourse_simulator_send_lag_seconds_count 1000",
            "bourse_simulator_replace_roundtrip_seconds_count " + report.replaceRoundTrip().count(),
            "bourse_simulator_md_latency_seconds_count");
    }

    @Test
    void shouldRunUntilStoppedWhenTheDurationIsZero() throws Exception
    {
        final AcceptingGateway gateway = new AcceptingGateway();
        final SimulatorReport report;
        try (SoupTestServer gatewayServer = new SoupTestServer("test-gateway", gateway);
            SimulatorService service = SimulatorService.launch(
                context(gatewayServer.port(), 1).mdSessions(0).durationSeconds(0)))
        {
            // The run's time starts at the order agent's first duty cycle, before its first Enter Order.
            awaitTrue(() -> gateway.enterOrders.get() > 0);
            Thread.sleep(300);
            service.requestStop();
            report = service.awaitReport();
        }

        assertThat(report.durationSeconds()).isZero();
        // 250 ms: the agent reads its time at the top of a duty cycle, and may be preempted before it sees the stop.
        assertThat(report.elapsedNs()).isBetween(TimeUnit.MILLISECONDS.toNanos(250), TimeUnit.SECONDS.toNanos(2));
        assertThat(report.ordersSent()).isEqualTo(gateway.enterOrders.get() + gateway.otherOrders.get()).isPositive();
        assertThat(report.accepted()).isEqualTo(report.daySent() + report.iocSent());
        assertThat(report.mdMessages()).isZero();
    }

    @Test
    void shouldResumeAnOuchSessionTheGatewayEndsFromTheMessageAfterItsLastAndGoOnSending() throws Exception
    {
        final EndingAtTheTenthOrder gateway = new EndingAtTheTenthOrder(0);
        try (SoupTestServer gatewayServer = new SoupTestServer("test-gateway", gateway);
            SimulatorService service = SimulatorService.launch(
                context(gatewayServer.port(), 1).sessions(1).mdSessions(0).durationSeconds(0)))
        {
            awaitLostAndResumed(service);
            final long resumedAt = gateway.enterOrders.get();
            final long deadlineNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (gateway.enterOrders.get() <= resumedAt + 10)
            {
                assertThat(System.nanoTime() - deadlineNs).as("ten more Enter Orders after the resume").isNegative();
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
            }
            service.requestStop();
            final SimulatorReport report = service.awaitReport();

            // Login Accepted with Sequence Number 1, then the answers 1 to n (nine Accepted, and Replaced): the session
            // resumes from n + 1 of session "1".
            assertThat(gateway.answeredBeforeTheEnd.get()).isGreaterThanOrEqualTo(9);
            assertThat(gateway.loginRequests).containsExactly("/0", "1/" + (gateway.answeredBeforeTheEnd.get() + 1));
            assertThat(report.accepted()).isEqualTo(gateway.enterOrders.get())
                .isEqualTo(report.daySent() + report.iocSent() - gateway.dropped.get());
            assertThat(report.unanswered()).isEqualTo(gateway.dropped.get());
            assertThat(report.errors()).as("the session lost").isEqualTo(1);
        }
    }

    /**
     * The answer a resumed session missed comes with its Login Accepted, which this gateway sends 300 ms after the
     * Login Request: its round trip counts to when the login reads it, not to the start of the duty cycle that began
     * the login.
     */
    @Test
    void shouldTimeTheAnswerAResumedSessionMissedToWhenItsLoginReadsIt() throws Exception
    {
        final EndingAtTheTenthOrder gateway = new EndingAtTheTenthOrder(300);
        final SimulatorReport report;
        try (SoupTestServer gatewayServer = new SoupTestServer("test-gateway", gateway);
            SimulatorService service = SimulatorService.launch(
                context(gatewayServer.port(), 1).sessions(1).mdSessions(0).durationSeconds(0)))
        {
            awaitLostAndResumed(service);
            service.requestStop();
            report = service.awaitReport();
        }

        // The tenth Enter Order was sent before the gateway read it, and its Accepted read after the gateway sent it.
        assertThat(gateway.answeredNs.get()).isPositive();
        assertThat(report.roundTrip().maxNs()).isGreaterThanOrEqualTo(
            gateway.answeredNs.get() - gateway.endedNs.get() - TimeUnit.MILLISECONDS.toNanos(1));
    }

    /**
     * A gateway that closes day "1" (System Event End of Day, then End of Session) at the tenth Enter Order, and opens
     * day "2" at the third login: the second login finds day "1" still (accepted, then ended at once), the third gets
     * day "2" with its Start of Day. Meanwhile readiness says why the simulator waits; the end of the day and the probe
     * are no errors, and the run goes on in the new day. Day "1" ends with its orders still open, as when the close's
     * drain runs out: day "2" never cancels nor replaces them, since their tokens are day "1"'s.
     */
    @Test
    void shouldLogInToTheNextDaysSessionOnceTheGatewayOpensIt() throws Exception
    {
        final AtomicLong logins = new AtomicLong();
        final AtomicLong enterOrders = new AtomicLong();
        final Set<String> dayOneTokens = ConcurrentHashMap.newKeySet();
        final AtomicLong dayTwoCancelsAndReplaces = new AtomicLong();
        final AtomicLong ofDayOneOrders = new AtomicLong();
        final AcceptingGateway accepting = new AcceptingGateway();
        final ByteBuffer systemEvent = ByteBuffer.allocate(SystemEvent.LENGTH);
        final SystemEvent event = new SystemEvent().wrapAndApplyType(new UnsafeBuffer(systemEvent), 0);
        final SoupTestServer.Handler closingAtTheTenthOrder = new SoupTestServer.Handler()
        {
            @Override
            public void onLogin(final SoupBinTCPServer session, final SoupBinTCP.LoginRequest request)
                throws IOException
            {
                final long login = logins.incrementAndGet();
                final SoupBinTCP.LoginAccepted accepted = new SoupBinTCP.LoginAccepted();
                accepted.setSession(login < 3 ? "1" : "2");
                accepted.setSequenceNumber(1);
                session.accept(accepted);
                if (2 == login)
                {
                    session.endSession(); // day "1" is over: nothing new to send
                }
                else if (3 == login)
                {
                    event.eventCode(Ouch42.EVENT_START_OF_DAY);
                    session.send(systemEvent.clear());
                }
            }

            @Override
            public void onMessage(final SoupBinTCPServer session, final ByteBuffer message) throws IOException
            {
                final String orderToken = orderToken(message);
                if (logins.get() < 3)
                {
                    dayOneTokens.add(orderToken);
                }
                else if (message.get(message.position()) != EnterOrder.TYPE)
                {
                    dayTwoCancelsAndReplaces.incrementAndGet();
                    if (dayOneTokens.contains(orderToken))
                    {
                        ofDayOneOrders.incrementAndGet();
                    }
                }
                accepting.onMessage(session, message);
                if (message.get(message.position()) == EnterOrder.TYPE && 10 == enterOrders.incrementAndGet())
                {
                    event.eventCode(Ouch42.EVENT_END_OF_DAY);
                    session.send(systemEvent.clear());
                    session.endSession();
                }
            }
        };
        try (SoupTestServer gatewayServer = new SoupTestServer("test-gateway", closingAtTheTenthOrder);
            SimulatorService service = SimulatorService.launch(
                context(gatewayServer.port(), 1).sessions(1).mdSessions(0).durationSeconds(0)))
        {
            ReadyEndpoint.awaitAnswer(service.metricsPort(), "503 not ready: the exchange closed the trading day: " +
                "1 OUCH session ended after End of Day, waiting for the next day's session\n");
            ReadyEndpoint.awaitAnswer(service.metricsPort(), "200 ready\n");
            final long deadlineNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(3);
            while ((enterOrders.get() < 20 || dayTwoCancelsAndReplaces.get() < 20) && System.nanoTime() < deadlineNs)
            {
                Thread.sleep(1);
            }
            final String metrics = scrape(service.metricsPort());
            service.requestStop();
            final SimulatorReport report = service.awaitReport();

            assertThat(metrics).containsPattern("\nbourse_simulator_orders_not_sent_total [1-9][0-9]*\\.0\n")
                .containsPattern("\nbourse_simulator_orders_unanswered_total [0-9]+\\.0\n");
            assertThat(logins.get()).as("the first day, a probe of the closed day, the next day").isEqualTo(3);
            assertThat(enterOrders.get()).as("orders of the next day").isGreaterThanOrEqualTo(20);
            assertThat(dayTwoCancelsAndReplaces.get()).isGreaterThanOrEqualTo(20);
            assertThat(ofDayOneOrders.get()).as("cancels and replaces of the closed day's orders").isZero();
            assertThat(report.errors()).isZero();
            assertThat(report.notSent()).as("orders due while the day was closed").isPositive();
        }
    }

    /**
     * A gateway that drops the connection at the tenth Enter Order (no End of Day) and then serves day "2" only: the
     * resume of day "1" is Login Rejected 'S', and the session goes on in day "2" from the blank login that follows in
     * the same attempt. The loss is the one error.
     */
    @Test
    void shouldGoOnInTheGatewaysNextDayWhenTheLostSessionsDayEndedMeanwhile() throws Exception
    {
        final AtomicLong logins = new AtomicLong();
        final AtomicLong enterOrders = new AtomicLong();
        final AcceptingGateway accepting = new AcceptingGateway();
        final SoupTestServer.Handler droppingAtTheTenthOrder = new SoupTestServer.Handler()
        {
            @Override
            public void onLogin(final SoupBinTCPServer session, final SoupBinTCP.LoginRequest request)
                throws IOException
            {
                final long login = logins.incrementAndGet();
                if (1 == login)
                {
                    acceptLogin(session);
                    return;
                }
                if ("1".equals(request.getRequestedSession().trim()))
                {
                    final SoupBinTCP.LoginRejected rejected = new SoupBinTCP.LoginRejected();
                    rejected.setRejectReasonCode(SoupBinTCP.LOGIN_REJECT_CODE_SESSION_NOT_AVAILABLE);
                    session.reject(rejected);
                    return;
                }
                final SoupBinTCP.LoginAccepted accepted = new SoupBinTCP.LoginAccepted();
                accepted.setSession("2");
                accepted.setSequenceNumber(1);
                session.accept(accepted);
            }

            @Override
            public void onMessage(final SoupBinTCPServer session, final ByteBuffer message) throws IOException
            {
                accepting.onMessage(session, message);
                if (message.get(message.position()) == EnterOrder.TYPE && 10 == enterOrders.incrementAndGet())
                {
                    session.close();
                }
            }
        };
        try (SoupTestServer gatewayServer = new SoupTestServer("test-gateway", droppingAtTheTenthOrder);
            SimulatorService service = SimulatorService.launch(
                context(gatewayServer.port(), 1).sessions(1).mdSessions(0).durationSeconds(0)))
        {
            final long deadlineNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
            while (enterOrders.get() < 20 && System.nanoTime() < deadlineNs)
            {
                Thread.sleep(1);
            }
            ReadyEndpoint.awaitAnswer(service.metricsPort(), "200 ready\n");
            service.requestStop();
            final SimulatorReport report = service.awaitReport();

            assertThat(logins.get()).as("day 1, its resume rejected, day 2").isEqualTo(3);
            assertThat(enterOrders.get()).as("orders of day 2").isGreaterThanOrEqualTo(20);
            assertThat(report.errors()).as("the loss").isEqualTo(1);
        }
    }

    @Test
    void shouldRaiseTheRampRateStepByStepUpToTheMaximumAndWriteEachStepsHistograms(@TempDir final Path hgrmDir)
        throws Exception
    {
        final AcceptingGateway gateway = new AcceptingGateway();
        final SimulatorReport report;
        try (SoupTestServer gatewayServer = new SoupTestServer("test-gateway", gateway))
        {
            report = Simulator.run(context(gatewayServer.port(), 1).mdSessions(0).progressIntervalMs(0)
                .scenario(Scenario.RAMP).rate(200).rampStep(200).rampMax(600).rampIntervalMs(300)
                .rampP99LimitUs(1_000_000).hgrmDir(hgrmDir));
        }

        // A step breaks when under 90% of its 60 to 180 Enter Orders are answered within its 0.3 s, so a stall of
        // some 30 ms at its end breaks it on a loaded host (RampTest tests that rule): the ramp is checked to go up
        // step by step and stop at its first broken step, or after the one at 600 orders/s.
        final List<String> stepHistograms;
        try (Stream<Path> files = Files.list(hgrmDir))
        {
            stepHistograms = files.map((file) -> file.getFileName().toString()).filter((name) -> name.contains("-step"))
                .map((name) -> name.substring(0, name.indexOf("ops-"))).sorted().toList();
        }
        final int steps = stepHistograms.size() / 2;
        assertThat(steps).isBetween(1, 3);
        assertThat(stepHistograms).isEqualTo(Stream.of("feed", "roundtrip").flatMap((histogram) ->
            IntStream.range(0, steps).mapToObj((step) ->
                "simulator-" + histogram + "-ramp-step0" + step + "-" + 200 * (step + 1))).toList());
        final String out = progress.toString(StandardCharsets.US_ASCII);
        assertThat(out).contains("=== Ramp: +200 orders/s every 0.3 s up to 600");
        final List<String> broken = out.lines().filter((line) -> line.endsWith("<- broke")).toList();
        if (broken.isEmpty())
        {
            assertThat(steps).isEqualTo(3);
            assertThat(out).contains("ramp: p99 stayed within the limit up to 600 orders/s");
        }
        else
        {
            assertThat(broken).singleElement().asString().startsWith("%5d ".formatted(steps - 1));
            // Broken by the answers within the step: a p99 over the 1 s limit would be a fault, not the host's load.
            assertThat(out)
                .contains("ramp: broke at " + 200 * steps + " orders/s", "Enter Orders answered within the step");
        }
        final long intended = 60L * steps * (steps + 1) / 2;
        assertThat(report.ordersSent()).isEqualTo(gateway.enterOrders.get() + gateway.otherOrders.get())
            .isBetween(intended * 3 / 4, intended + 40L * steps);
        // The throughput over the whole ramp is judged against the mean of its steps' rates, not the last one's.
        assertThat(report.targetRate()).isEqualTo(100L * (steps + 1));
        assertThat(report.scenario()).startsWith("ramp from 200 to " + 200 * steps + ": the mean of its steps' rates");
        assertThat(report.roundTrip().count()).isEqualTo(report.accepted()).isPositive();
    }

    @Test
    void shouldStopTheRampAtTheFirstStepOverThePercentileLimit() throws Exception
    {
        final AcceptingGateway gateway = new AcceptingGateway();
        final SimulatorReport report;
        try (SoupTestServer gatewayServer = new SoupTestServer("test-gateway", gateway))
        {
            report = Simulator.run(context(gatewayServer.port(), 1).mdSessions(0).progressIntervalMs(0)
                .scenario(Scenario.RAMP).rate(200).rampIntervalMs(300).rampP99LimitUs(1));
        }

        // Over a 1 us p99 at once; a loaded host may also leave 10% of the step's orders unanswered within it, which
        // the line then names first (RampTest tests each rule).
        assertThat(progress.toString(StandardCharsets.US_ASCII)).containsPattern(
            "ramp: broke at 200 orders/s \\((p99 |[0-9]+ of [0-9]+ Enter Orders answered within the step)");
        assertThat(report.ordersSent()).isBetween(45L, 100L);
    }

    @Test
    void shouldSendHawkesArrivalsAtTheMeanRateOfTheScenario() throws Exception
    {
        final AcceptingGateway gateway = new AcceptingGateway();
        final SimulatorReport report;
        try (SoupTestServer gatewayServer = new SoupTestServer("test-gateway", gateway))
        {
            report = Simulator.run(context(gatewayServer.port(), 1).mdSessions(0).progressIntervalMs(0)
                .scenario(Scenario.HAWKES).rate(500));
        }

        assertThat(report.scenario()).isEqualTo("hawkes");
        assertThat(report.ordersSent()).isEqualTo(500).isEqualTo(gateway.enterOrders.get() + gateway.otherOrders.get());
        assertThat(report.roundTrip().count()).isEqualTo(report.accepted()).isPositive();
        assertThat(report.errors()).isZero();
    }

    @Test
    void shouldRunToCompletionWithoutMarketDataSessions() throws Exception
    {
        final AcceptingGateway gateway = new AcceptingGateway();
        final SimulatorReport report;
        try (SoupTestServer gatewayServer = new SoupTestServer("test-gateway", gateway))
        {
            report = Simulator.run(context(gatewayServer.port(), 1).mdSessions(0).sessions(1).rate(300)
                .progressIntervalMs(0));
        }

        assertThat(report.ordersSent()).isEqualTo(300);
        assertThat(report.roundTrip().count()).isEqualTo(report.accepted()).isEqualTo(gateway.enterOrders.get());
        assertThat(List.of(report.mdMessages(), report.feedLatency().count(), report.errors())).containsOnly(0L);
        assertThat(progress.size()).isZero();
    }

    @Test
    void shouldFailTheLaunchNamingTheUserWhenTheLoginIsRejected() throws Exception
    {
        try (SoupTestServer gatewayServer = new SoupTestServer("test-gateway", new RejectingGateway()))
        {
            assertThatThrownBy(() -> SimulatorService.launch(context(gatewayServer.port(), 1).mdSessions(0)))
                .isInstanceOf(UncheckedIOException.class)
                .hasMessageContaining("Login Rejected for demo01");
        }
    }

    private SimulatorContext context(final int gatewayPort, final int fanoutPort)
    {
        return new SimulatorContext()
            .gatewayPort(gatewayPort)
            .fanoutPort(fanoutPort)
            .sessions(2)
            .mdSessions(1)
            .credentials(CREDENTIALS)
            .symbolDirectory(SymbolDirectory.parse("AAPL@0,MSFT@1"))
            .rate(1000)
            .durationSeconds(1)
            .drainMs(500)
            .connectTimeoutMs(2000)
            .progressIntervalMs(250)
            .metricsPort(0)
            .jvmMetrics(false)
            .runId(1)
            .out(new PrintStream(progress, true, StandardCharsets.US_ASCII));
    }

    private static String scrape(final int port) throws IOException
    {
        try (InputStream in = URI.create("http://localhost:" + port + "/metrics").toURL().openStream())
        {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    /**
     * @param message an OUCH 4.2 Enter, Replace or Cancel Order.
     * @return its Order Token (a Replace Order's Existing Order Token), which follows the message type in all three.
     */
    private static String orderToken(final ByteBuffer message)
    {
        final byte[] token = new byte[Ouch42.TOKEN_LENGTH];
        message.get(message.position() + 1, token);
        return new String(token, StandardCharsets.US_ASCII);
    }

    /** Waits for readiness to say that the one OUCH session is lost, then that it is logged in again. */
    private static void awaitLostAndResumed(final SimulatorService service) throws Exception
    {
        ReadyEndpoint.awaitAnswer(
            service.metricsPort(), "503 not ready: 1 OUCH session lost, not logged in again yet\n");
        ReadyEndpoint.awaitAnswer(service.metricsPort(), "200 ready\n");
    }

    private static void acceptLogin(final SoupBinTCPServer session) throws IOException
    {
        final SoupBinTCP.LoginAccepted accepted = new SoupBinTCP.LoginAccepted();
        accepted.setSession("1");
        accepted.setSequenceNumber(1);
        session.accept(accepted);
    }

    /**
     * Ends the session at the tenth Enter Order, unanswered; answers it first when the session resumes (after the Login
     * Accepted, which comes after a delay), as the gateway sends a session's missed messages from its journal. Drops
     * the Enter Orders that come after its End of Session, as the gateway does not read them: they stay unanswered.
     */
    private static final class EndingAtTheTenthOrder implements SoupTestServer.Handler
    {
        private final long loginDelayMs;
        private final AcceptingGateway accepting = new AcceptingGateway();
        private final AtomicLong enterOrders = new AtomicLong();
        private final List<String> loginRequests = new CopyOnWriteArrayList<>();
        private final AtomicReference<ByteBuffer> unanswered = new AtomicReference<>();
        private final AtomicReference<SoupBinTCPServer> ended = new AtomicReference<>();
        private final AtomicLong dropped = new AtomicLong();
        private final AtomicLong answeredBeforeTheEnd = new AtomicLong();
        private final AtomicLong endedNs = new AtomicLong();
        private final AtomicLong answeredNs = new AtomicLong();

        /** @param loginDelayMs how long the Login Accepted of the resumed session waits. */
        EndingAtTheTenthOrder(final long loginDelayMs)
        {
            this.loginDelayMs = loginDelayMs;
        }

        @Override
        public void onLogin(final SoupBinTCPServer session, final SoupBinTCP.LoginRequest request) throws IOException
        {
            loginRequests.add(request.getRequestedSession().trim() + "/" + request.getRequestedSequenceNumber());
            final ByteBuffer missed = unanswered.getAndSet(null);
            if (null != missed)
            {
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(loginDelayMs));
            }
            accepting.onLogin(session, request);
            if (null != missed)
            {
                answeredNs.set(System.nanoTime());
                accepting.onMessage(session, missed);
            }
        }

        @Override
        public void onMessage(final SoupBinTCPServer session, final ByteBuffer message) throws IOException
        {
            final boolean enterOrder = message.get(message.position()) == EnterOrder.TYPE;
            if (session == ended.get())
            {
                dropped.addAndGet(enterOrder ? 1 : 0);
                return;
            }
            if (enterOrder && 10 == enterOrders.incrementAndGet())
            {
                endedNs.set(System.nanoTime());
                final ByteBuffer copy = ByteBuffer.allocate(message.remaining());
                unanswered.set(copy.put(message).flip());
                ended.set(session);
                session.endSession();
                return;
            }
            if (null == ended.get() && (enterOrder || message.get(message.position()) == ReplaceOrder.TYPE))
            {
                answeredBeforeTheEnd.incrementAndGet(); // an Accepted or a Replaced, Sequenced Data
            }
            accepting.onMessage(session, message);
        }
    }

    /** Answers every Enter Order with an Accepted (order state Live) and ignores cancels and replaces. */
    private static final class AcceptingGateway implements SoupTestServer.Handler
    {
        private final AtomicLong enterOrders = new AtomicLong();
        private final AtomicLong otherOrders = new AtomicLong();
        private final UnsafeBuffer rx = new UnsafeBuffer(0, 0);
        private final EnterOrder enterOrder = new EnterOrder();
        private final ByteBuffer txBuffer = ByteBuffer.allocateDirect(OrderAccepted.LENGTH);
        private final OrderAccepted accepted = new OrderAccepted().wrapAndApplyType(new UnsafeBuffer(txBuffer), 0);
        private final ReplaceOrder replaceOrder = new ReplaceOrder();
        private final ByteBuffer replacedBuffer = ByteBuffer.allocateDirect(OrderReplaced.LENGTH);
        private final OrderReplaced replaced =
            new OrderReplaced().wrapAndApplyType(new UnsafeBuffer(replacedBuffer), 0);
        private final byte[] token = new byte[Ouch42.TOKEN_LENGTH];
        private final byte[] previousToken = new byte[Ouch42.TOKEN_LENGTH];

        @Override
        public void onLogin(final SoupBinTCPServer session, final SoupBinTCP.LoginRequest request) throws IOException
        {
            acceptLogin(session);
        }

        @Override
        public void onMessage(final SoupBinTCPServer session, final ByteBuffer message) throws IOException
        {
            if (message.get(message.position()) == ReplaceOrder.TYPE)
            {
                // Replaced with the replacement dead, as for one that left the book at once: nothing to track.
                otherOrders.incrementAndGet();
                rx.wrap(message, message.position(), message.remaining());
                replaceOrder.wrap(rx, 0).getReplacementOrderToken(token);
                replaceOrder.getExistingOrderToken(previousToken);
                replaced.replacementOrderToken(token).previousOrderToken(previousToken)
                    .shares(replaceOrder.shares()).price(replaceOrder.price()).timeInForce(replaceOrder.timeInForce())
                    .orderState(Ouch42.ORDER_STATE_DEAD);
                replacedBuffer.clear();
                session.send(replacedBuffer);
                return;
            }
            if (message.get(message.position()) != EnterOrder.TYPE)
            {
                otherOrders.incrementAndGet();
                return;
            }
            rx.wrap(message, message.position(), message.remaining());
            enterOrder.wrap(rx, 0).getOrderToken(token);
            accepted.orderToken(token)
                .buySellIndicator(enterOrder.buySellIndicator())
                .shares(enterOrder.shares())
                .stock(enterOrder.stock())
                .price(enterOrder.price())
                .timeInForce(enterOrder.timeInForce())
                .firm(enterOrder.firm())
                .display(enterOrder.display())
                .orderReferenceNumber(enterOrders.incrementAndGet())
                .capacity(enterOrder.capacity())
                .intermarketSweepEligibility(enterOrder.intermarketSweepEligibility())
                .minimumQuantity(enterOrder.minimumQuantity())
                .crossType(enterOrder.crossType())
                .orderState(Ouch42.ORDER_STATE_LIVE)
                .bboWeightIndicator(Ouch42.BBO_WEIGHT_UNSPECIFIED);
            txBuffer.clear();
            session.send(txBuffer);
        }
    }

    /** Rejects every login as not authorized. */
    private static final class RejectingGateway implements SoupTestServer.Handler
    {
        @Override
        public void onLogin(final SoupBinTCPServer session, final SoupBinTCP.LoginRequest request) throws IOException
        {
            final SoupBinTCP.LoginRejected rejected = new SoupBinTCP.LoginRejected();
            rejected.setRejectReasonCode(SoupBinTCP.LOGIN_REJECT_CODE_NOT_AUTHORIZED);
            session.reject(rejected);
        }

        @Override
        public void onMessage(final SoupBinTCPServer session, final ByteBuffer message)
        {
        }
    }

    /**
     * A fanout's side of one ITCH session: a System Event at the login, then an Add Order and its Order Executed once
     * the gateway has an Enter Order (the simulator is then sending), stamped with the time.
     */
    private static final class ItchFeed implements SoupTestServer.Handler
    {
        private final MidnightNanoClock clock = new MidnightNanoClock();
        private final ByteBuffer txBuffer = ByteBuffer.allocate(64);
        private final AtomicLong enterOrders;
        private boolean sent;

        ItchFeed(final AtomicLong enterOrders)
        {
            this.enterOrders = enterOrders;
        }

        @Override
        public void onLogin(final SoupBinTCPServer session, final SoupBinTCP.LoginRequest request) throws IOException
        {
            acceptLogin(session);
            final ITCH50.SystemEvent systemEvent = new ITCH50.SystemEvent();
            stamp(systemEvent);
            systemEvent.eventCode = ITCH50.EVENT_CODE_START_OF_MESSAGES;
            send(session, systemEvent);
        }

        @Override
        public void onMessage(final SoupBinTCPServer session, final ByteBuffer message)
        {
        }

        @Override
        public void onIdle(final SoupBinTCPServer session) throws IOException
        {
            if (!sent && enterOrders.get() > 0)
            {
                sent = true;
                final ITCH50.AddOrder addOrder = new ITCH50.AddOrder();
                addOrder.stockLocate = 1;
                addOrder.orderReferenceNumber = 1;
                addOrder.buySellIndicator = ITCH50.BUY;
                addOrder.shares = 100;
                addOrder.stock = Symbols.pack("AAPL");
                addOrder.price = 990_000;
                final long ns = clock.nanosSinceMidnight();
                addOrder.timestampHigh = (int)(ns >>> 32);
                addOrder.timestampLow = ns & 0xFFFF_FFFFL;
                send(session, addOrder);
                final ITCH50.OrderExecuted executed = new ITCH50.OrderExecuted();
                executed.stockLocate = 1;
                executed.orderReferenceNumber = 1;
                executed.executedShares = 100;
                executed.matchNumber = 1;
                executed.timestampHigh = addOrder.timestampHigh;
                executed.timestampLow = addOrder.timestampLow;
                send(session, executed);
            }
        }

        private void stamp(final ITCH50.SystemEvent message)
        {
            final long ns = clock.nanosSinceMidnight();
            message.timestampHigh = (int)(ns >>> 32);
            message.timestampLow = ns & 0xFFFF_FFFFL;
        }

        private void send(final SoupBinTCPServer session, final ITCH50.Message message) throws IOException
        {
            txBuffer.clear();
            message.put(txBuffer);
            txBuffer.flip();
            session.send(txBuffer);
        }
    }
}
