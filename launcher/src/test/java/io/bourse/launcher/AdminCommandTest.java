package io.bourse.launcher;

import io.aeron.Aeron;
import io.aeron.Publication;
import io.aeron.Subscription;
import io.aeron.driver.MediaDriver;
import io.aeron.logbuffer.FragmentHandler;
import io.bourse.common.aeron.EmbeddedMediaDriver;
import io.bourse.common.aeron.StreamLayout;
import io.bourse.engine.EngineService;
import io.bourse.sbe.engine.AdminResponseCode;
import io.bourse.sbe.engine.AdminResponseEncoder;
import io.bourse.sbe.engine.CrossCompletedDecoder;
import io.bourse.sbe.engine.MessageHeaderDecoder;
import io.bourse.sbe.engine.MessageHeaderEncoder;
import io.bourse.sbe.engine.OrderCanceledDecoder;
import io.bourse.sbe.engine.OrderExecutedDecoder;
import io.bourse.sbe.engine.OrderRejectedDecoder;
import io.bourse.sbe.engine.TradeBrokenDecoder;
import org.agrona.CloseHelper;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.AgentRunner;
import org.agrona.concurrent.SleepingMillisIdleStrategy;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import picocli.CommandLine;

import java.io.File;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code bourse admin} against a real shard (shard 0 of {@value #SYMBOLS}; shard 1 is not running) on a real embedded
 * media driver: the command is sent, the shard's AdminResponse is waited for and reported, and the shard's answers
 * to later orders show that the command took effect.
 */
@Timeout(20)
class AdminCommandTest
{
    private static final String SYMBOLS = "AAPL@0,MSFT@1";
    private static final long PRICE = 1_500_000;

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();
    private MediaDriver driver;
    private EngineService engine;
    private Aeron aeron;
    private Publication commands;
    private Subscription events;
    private EngineOrders orders;
    private long lastMatchNumber;

    @BeforeEach
    void setUp()
    {
        driver = EmbeddedMediaDriver.launch("admin-test");
        final StreamLayout layout = EmbeddedMediaDriver.defaultLayout(driver);
        engine = EngineOrders.launchShard0(layout, SYMBOLS);
        aeron = Aeron.connect(new Aeron.Context().aeronDirectoryName(driver.aeronDirectoryName()));
        commands = aeron.addExclusivePublication(layout.commandChannel(), layout.commandStreamId(0));
        orders = new EngineOrders(commands);
        events = aeron.addSubscription(layout.eventChannel(), layout.eventStreamId(0));
        while (!commands.isConnected() || !events.isConnected())
        {
            Thread.onSpinWait();
        }
    }

    @AfterEach
    void tearDown()
    {
        CloseHelper.closeAll(aeron, engine, driver);
    }

    @Test
    void shouldHaltTheSymbolOnItsShardWhenTradingStateIsSent()
    {
        assertThat(admin("trading-state", "--symbol", "aapl", "--state", "HALTED", "--symbols", SYMBOLS)).isZero();
        assertThat(out.toString()).isEqualTo(
            "SetTradingState AAPL HALTED: done by shard 0 (aeron:ipc stream 1000)" + System.lineSeparator());

        orders.newOrder("BUY", 100, PRICE, "    ", 'N');

        assertThat(awaitAnswers(1)).containsExactly("rejected 1 H");
    }

    @Test
    void shouldRejectOrdersOutsideTheBandWhenPriceBandIsSent()
    {
        assertThat(admin("price-band", "--symbol", "AAPL", "--reference-price", "1500000", "--band-bp", "1000",
            "--symbols", SYMBOLS)).isZero();
        assertThat(out.toString()).isEqualTo("SetPriceBand AAPL reference 1500000 band 1000 bp: done by shard 0 " +
            "(aeron:ipc stream 1000)" + System.lineSeparator());

        orders.newOrder("BUY", 100, 1_650_001, "    ", 'N');
        orders.newOrder("BUY", 100, 1_349_999, "    ", 'N');

        assertThat(awaitAnswers(2)).containsExactly("rejected 1 X", "rejected 2 X");
    }

    @Test
    void shouldPreventTradesWithinTheFirmWhenStpIsSent()
    {
        assertThat(admin("stp", "--firm", "ABCD", "--mode", "CANCEL_NEWEST", "--symbols", "AAPL@0")).isZero();
        assertThat(out.toString()).isEqualTo("SetSelfTradePrevention firm ABCD CANCEL_NEWEST: done by shard 0 " +
            "(aeron:ipc stream 1000)" + System.lineSeparator());

        orders.newOrder("SELL", 100, PRICE, "ABCD", 'N');
        orders.newOrder("BUY", 100, PRICE, "ABCD", 'N');

        assertThat(awaitAnswers(1)).containsExactly("canceled 2 100 Q");
    }

    @Test
    void shouldBreakTheTradeWithSupervisoryReasonWhenBreakTradeIsSent()
    {
        orders.newOrder("SELL", 100, PRICE, "    ", 'N');
        orders.newOrder("BUY", 100, PRICE, "    ", 'N');
        assertThat(awaitAnswers(1)).containsExactly("executed 100 taker 2 maker 1");

        assertThat(admin("break-trade", "--symbol", "AAPL", "--match-number", Long.toString(lastMatchNumber),
            "--symbols", SYMBOLS)).isZero();

        assertThat(out.toString()).isEqualTo("BreakTrade AAPL match number " + lastMatchNumber +
            " reason S: done by shard 0 (aeron:ipc stream 1000)" + System.lineSeparator());
        assertThat(awaitAnswers(1)).containsExactly(
            "broken " + lastMatchNumber + " 100@" + PRICE + " taker 2 maker 1 S");
    }

    @Test
    void shouldLockThenRunTheClosingCrossWhenCrossIsSent()
    {
        orders.newOrder("BUY", 100, PRICE, "    ", 'C');
        orders.newOrder("SELL", 60, PRICE, "    ", 'C');

        assertThat(admin("cross", "--symbol", "AAPL", "--lock", "--symbols", SYMBOLS)).isZero();
        orders.newOrder("SELL", 40, PRICE, "    ", 'C');
        assertThat(awaitAnswers(1)).containsExactly("rejected 3 M");

        assertThat(admin("cross", "--symbol", "AAPL", "--run", "--symbols", SYMBOLS)).isZero();

        assertThat(out.toString()).isEqualTo(
            "CrossLock AAPL: done by shard 0 (aeron:ipc stream 1000)" + System.lineSeparator() +
            "RunCross AAPL: done by shard 0 (aeron:ipc stream 1000)" + System.lineSeparator());
        assertThat(awaitAnswers(3)).containsExactly(
            "executed C 60 taker 1 maker 2",
            "canceled 1 40 C",
            "cross AAPL 60@" + PRICE + " match " + (lastMatchNumber + 16) + " C"); // the shard's next match number
    }

    @Test
    void shouldSayWhyAndExitWithRefusedWhenTheShardRefusesTheCommand()
    {
        assertThat(admin("break-trade", "--symbol", "AAPL", "--match-number", "999", "--symbols", SYMBOLS))
            .isEqualTo(AdminCommand.REFUSED);
        assertThat(admin("cross", "--symbol", "AAPL", "--run", "--symbols", SYMBOLS)).isEqualTo(AdminCommand.REFUSED);

        assertThat(err.toString()).isEqualTo(
            "BreakTrade AAPL match number 999 reason S: refused by shard 0 (aeron:ipc stream 1000), " +
            "UNKNOWN_MATCH_NUMBER" + System.lineSeparator() +
            "RunCross AAPL: refused by shard 0 (aeron:ipc stream 1000), CROSS_NOT_LOCKED" +
            System.lineSeparator());
        assertThat(out.toString()).isEmpty();
    }

    @Test
    void shouldFailSayingSoWhenTheShardAnswersNoneButOtherCommands()
    {
        // Shard 1 answers another command of the same time and symbol, and this command of another time and of another
        // symbol (as to another sender's command in the same nanosecond), never this one.
        try (ScriptedShard ignored = new ScriptedShard(1, (templateId, timestampNs, answer) ->
        {
            answer.accept(templateId + 1, timestampNs, "MSFT", AdminResponseCode.OK.value());
            answer.accept(templateId, timestampNs - 1, "MSFT", AdminResponseCode.OK.value());
            answer.accept(templateId, timestampNs, "AMZN", AdminResponseCode.OK.value());
        }))
        {
            assertThat(admin("trading-state", "--symbol", "MSFT", "--state", "HALTED", "--symbols", SYMBOLS,
                "--timeout-ms", "500")).isEqualTo(1);
        }

        assertThat(err.toString()).isEqualTo("bourse trading-state: sent SetTradingState MSFT HALTED to shard 1 " +
            "(aeron:ipc stream 1001), no answer within 500 ms: is the shard stalled, or older than engine-schema " +
            "version 7, which answers admin commands?" + System.lineSeparator());
        assertThat(out.toString()).isEmpty();
    }

    @Test
    void shouldReportEveryShardsAnswerWhenTheCommandGoesToSeveral()
    {
        try (ScriptedShard ignored = new ScriptedShard(1, (templateId, timestampNs, answer) ->
            answer.accept(templateId, timestampNs, "", AdminResponseCode.OK.value())))
        {
            assertThat(admin("stp", "--mode", "CANCEL_BOTH", "--symbols", SYMBOLS)).isZero();
        }

        assertThat(out.toString()).isEqualTo(
            "SetSelfTradePrevention default CANCEL_BOTH: done by shard 0 (aeron:ipc stream 1000)" +
            System.lineSeparator() +
            "SetSelfTradePrevention default CANCEL_BOTH: done by shard 1 (aeron:ipc stream 1001)" +
            System.lineSeparator());
        assertThat(err.toString()).isEmpty();
    }

    @Test
    void shouldExitWithRefusedNamingACodeItDoesNotKnowWhenOneShardOfSeveralRefuses()
    {
        // A code a newer engine might send.
        try (ScriptedShard ignored = new ScriptedShard(1, (templateId, timestampNs, answer) ->
            answer.accept(templateId, timestampNs, "", (short)42)))
        {
            assertThat(admin("stp", "--firm", "ABCD", "--mode", "NONE", "--symbols", SYMBOLS))
                .isEqualTo(AdminCommand.REFUSED);
        }

        assertThat(out.toString()).isEqualTo(
            "SetSelfTradePrevention firm ABCD NONE: done by shard 0 (aeron:ipc stream 1000)" + System.lineSeparator());
        assertThat(err.toString()).isEqualTo(
            "SetSelfTradePrevention firm ABCD NONE: refused by shard 1 (aeron:ipc stream 1001), code 42" +
            System.lineSeparator());
    }

    @Test
    void shouldSendNothingAndSayWhichShardIsMissingWhenOneIsNotRunning()
    {
        assertThat(admin("stp", "--mode", "CANCEL_BOTH", "--symbols", SYMBOLS, "--timeout-ms", "1000")).isEqualTo(1);
        assertThat(err.toString()).startsWith("bourse stp: no matching-engine shard 1 on aeron:ipc stream 1001 of " +
            driver.aeronDirectoryName() + " after 1000 ms: is it running? Nothing sent");
        assertThat(out.toString()).isEmpty();

        orders.newOrder("SELL", 100, PRICE, "ABCD", 'N');
        orders.newOrder("BUY", 100, PRICE, "ABCD", 'N');

        assertThat(awaitAnswers(1)).containsExactly("executed 100 taker 2 maker 1");
    }

    @Test
    void shouldRefuseAsUsageErrorWhenSymbolIsNotTradedOrBandIsOutOfRange()
    {
        assertThat(admin("trading-state", "--symbol", "IBM", "--state", "OPEN", "--symbols", SYMBOLS))
            .isEqualTo(CommandLine.ExitCode.USAGE);
        assertThat(admin("price-band", "--symbol", "AAPL", "--reference-price", "1", "--band-bp", "10001"))
            .isEqualTo(CommandLine.ExitCode.USAGE);
        assertThat(admin("stp", "--firm", "TOOLONG", "--mode", "NONE")).isEqualTo(CommandLine.ExitCode.USAGE);
        assertThat(admin("break-trade", "--symbol", "AAPL", "--match-number", "16", "--reason", "Q"))
            .isEqualTo(CommandLine.ExitCode.USAGE);
        assertThat(admin("break-trade", "--symbol", "AAPL", "--match-number", "0"))
            .isEqualTo(CommandLine.ExitCode.USAGE);
        assertThat(admin("cross", "--symbol", "AAPL")).isEqualTo(CommandLine.ExitCode.USAGE);
        assertThat(admin("cross", "--symbol", "AAPL", "--lock", "--run")).isEqualTo(CommandLine.ExitCode.USAGE);
        assertThat(admin("trading-state", "--symbol", "AAPL", "--state", "OPEN", "--timeout-ms", "-5"))
            .isEqualTo(CommandLine.ExitCode.USAGE);
        assertThat(admin("trading-state", "--symbol", "AAPL", "--state", "OPEN", "--symbols", "AAPL@x"))
            .isEqualTo(CommandLine.ExitCode.USAGE);

        assertThat(err.toString())
            .contains("--symbol: IBM is not in bourse.symbols=AAPL@0,MSFT@1")
            .contains("--band-bp must be 0 to 10000: 10001")
            .contains("--firm must be 1 to 4 printable ASCII characters without spaces: 'TOOLONG'")
            .contains("--reason must be one of E, C, S, X: Q")
            .contains("--match-number must be positive: 0")
            .contains("Missing required argument (specify one of these): (--lock | --run)")
            .contains("--lock, --run are mutually exclusive (specify only one)")
            .contains("--timeout-ms must be positive: -5")
            .contains("--symbols: bad shard in 'AAPL@x'");
        assertThat(out.toString()).isEmpty();
    }

    @Test
    void shouldListTheExitCodesInTheHelpOfEveryCommand()
    {
        for (final String command : List.of("trading-state", "price-band", "stp", "break-trade", "cross"))
        {
            out.getBuffer().setLength(0);
            assertThat(admin(command, "--help")).isZero();
            assertThat(out.toString()).as(command).contains("Exit codes:", "refused by a shard");
        }
    }

    @Test
    void shouldSayThereIsNoMediaDriverWhenTheDirectoryHasNone()
    {
        final String missing = new File(System.getProperty("java.io.tmpdir"), "bourse-no-driver-" + UUID.randomUUID())
            .getAbsolutePath();

        assertThat(admin("trading-state", "--symbol", "AAPL", "--state", "OPEN", "--aeron-dir", missing))
            .isEqualTo(1);
        assertThat(err.toString()).isEqualTo(
            "bourse trading-state: no media driver at " + missing + " (--aeron-dir or BOURSE_AERON_DIR): " +
            "is the exchange running?" + System.lineSeparator());
    }

    private int admin(final String... args)
    {
        final List<String> all = new ArrayList<>(List.of("admin"));
        all.addAll(List.of(args));
        if (!all.contains("--aeron-dir"))
        {
            all.addAll(List.of("--aeron-dir", driver.aeronDirectoryName()));
        }
        return BourseMain.commandLine()
            .setOut(new PrintWriter(out, true))
            .setErr(new PrintWriter(err, true))
            .execute(all.toArray(String[]::new));
    }

    /**
     * @return the first {@code count} rejects, cancels, executions, broken trades and crosses the shard publishes (10 s
     *         at most), as text.
     */
    private List<String> awaitAnswers(final int count)
    {
        final List<String> answers = new ArrayList<>();
        final MessageHeaderDecoder header = new MessageHeaderDecoder();
        final OrderRejectedDecoder rejected = new OrderRejectedDecoder();
        final OrderCanceledDecoder canceled = new OrderCanceledDecoder();
        final OrderExecutedDecoder executed = new OrderExecutedDecoder();
        final TradeBrokenDecoder broken = new TradeBrokenDecoder();
        final CrossCompletedDecoder cross = new CrossCompletedDecoder();
        final long deadlineNs = System.nanoTime() + 10_000_000_000L;
        while (answers.size() < count && System.nanoTime() - deadlineNs < 0)
        {
            events.poll((buffer, offset, length, frameHeader) ->
            {
                header.wrap(buffer, offset);
                final int body = offset + MessageHeaderDecoder.ENCODED_LENGTH;
                switch (header.templateId())
                {
                    case OrderRejectedDecoder.TEMPLATE_ID ->
                    {
                        rejected.wrap(buffer, body, header.blockLength(), header.version());
                        answers.add("rejected " + rejected.clientOrderId() + " " + (char)rejected.reason());
                    }
                    case OrderCanceledDecoder.TEMPLATE_ID ->
                    {
                        canceled.wrap(buffer, body, header.blockLength(), header.version());
                        answers.add("canceled " + canceled.clientOrderId() + " " + canceled.canceledQuantity() + " " +
                            (char)canceled.reason());
                    }
                    case OrderExecutedDecoder.TEMPLATE_ID ->
                    {
                        executed.wrap(buffer, body, header.blockLength(), header.version());
                        answers.add("executed " + ('C' == executed.crossType() ? "C " : "") + executed.quantity() +
                            " taker " + executed.takerClientOrderId() + " maker " + executed.makerClientOrderId());
                        lastMatchNumber = executed.matchNumber();
                    }
                    case TradeBrokenDecoder.TEMPLATE_ID ->
                    {
                        broken.wrap(buffer, body, header.blockLength(), header.version());
                        answers.add("broken " + broken.matchNumber() + " " + broken.quantity() + "@" +
                            broken.price() + " taker " + broken.takerClientOrderId() + " maker " +
                            broken.makerClientOrderId() + " " + (char)broken.reason());
                    }
                    case CrossCompletedDecoder.TEMPLATE_ID ->
                    {
                        cross.wrap(buffer, body, header.blockLength(), header.version());
                        answers.add("cross " + cross.symbol().trim() + " " + cross.shares() + "@" + cross.price() +
                            " match " + cross.matchNumber() + " " + (char)cross.crossType());
                    }
                    default ->
                    {
                        // Accepted and Added: the answers that show an admin command's effect are the others.
                    }
                }
            }, 10);
            Thread.onSpinWait();
        }
        return answers;
    }

    /** How a {@link ScriptedShard} answers an admin command. */
    @FunctionalInterface
    private interface Script
    {
        /**
         * @param templateId  the command's template id.
         * @param timestampNs the command's timestamp.
         * @param answer      publishes an AdminResponse: command template id, timestamp, raw code.
         */
        void onCommand(int templateId, long timestampNs, Answer answer);
    }

    @FunctionalInterface
    private interface Answer
    {
        void accept(int commandTemplateId, long timestampNs, String symbol, short code);
    }

    /**
     * A shard that is not an engine, on the real media driver: it takes admin commands on its command stream and
     * answers each as its script says on its event stream, as an agent on a thread of its own until closed.
     */
    private final class ScriptedShard implements AutoCloseable
    {
        private final Subscription commandStream;
        private final Publication eventStream;
        private final AgentRunner runner;

        ScriptedShard(final int shard, final Script script)
        {
            final StreamLayout layout = EmbeddedMediaDriver.defaultLayout(driver);
            commandStream = aeron.addSubscription(layout.commandChannel(), layout.commandStreamId(shard));
            eventStream = aeron.addExclusivePublication(layout.eventChannel(), layout.eventStreamId(shard));
            final UnsafeBuffer buffer = new UnsafeBuffer(new byte[64]);
            final MessageHeaderEncoder header = new MessageHeaderEncoder();
            final AdminResponseEncoder response = new AdminResponseEncoder();
            final Answer answer = (commandTemplateId, timestampNs, symbol, code) ->
            {
                response.wrapAndApplyHeader(buffer, 0, header)
                    .timestampNs(timestampNs)
                    .commandTemplateId(commandTemplateId)
                    .symbol(String.format("%-8s", symbol));
                buffer.putByte(MessageHeaderEncoder.ENCODED_LENGTH + AdminResponseEncoder.codeEncodingOffset(),
                    (byte)code);
                while (eventStream.offer(buffer, 0, MessageHeaderEncoder.ENCODED_LENGTH + response.encodedLength()) < 0)
                {
                    Thread.onSpinWait();
                }
            };
            final MessageHeaderDecoder commandHeader = new MessageHeaderDecoder();
            final FragmentHandler onCommand = (commandBuffer, offset, length, frameHeader) ->
            {
                commandHeader.wrap(commandBuffer, offset);
                final int firstField = offset + MessageHeaderDecoder.ENCODED_LENGTH;
                // every admin command's first field is its timestamp
                script.onCommand(
                    commandHeader.templateId(), commandBuffer.getLong(firstField, ByteOrder.LITTLE_ENDIAN), answer);
            };
            runner = new AgentRunner(new SleepingMillisIdleStrategy(1), Throwable::printStackTrace, null, new Agent()
            {
                @Override
                public int doWork()
                {
                    return commandStream.poll(onCommand, 10);
                }

                @Override
                public String roleName()
                {
                    return "scripted-shard-" + shard;
                }
            });
            AgentRunner.startOnThread(runner);
        }

        @Override
        public void close()
        {
            CloseHelper.closeAll(runner, commandStream, eventStream);
        }
    }
}
