package io.bourse.launcher;

import io.aeron.Aeron;
import io.aeron.Publication;
import io.aeron.Subscription;
import io.bourse.common.aeron.BoundedOffer;
import io.bourse.common.aeron.StreamLayout;
import io.bourse.common.config.Settings;
import io.bourse.common.config.SymbolDirectory;
import io.bourse.common.config.Symbols;
import io.bourse.common.time.MidnightNanoClock;
import io.bourse.engine.match.MatchingEngine;
import io.bourse.engine.match.SelfTradePrevention;
import io.bourse.engine.match.TradingState;
import io.bourse.ouch.Ouch42;
import io.bourse.sbe.engine.AdminResponseCode;
import io.bourse.sbe.engine.BreakTradeEncoder;
import io.bourse.sbe.engine.CrossLockEncoder;
import io.bourse.sbe.engine.RunCrossEncoder;
import io.bourse.sbe.engine.SetPriceBandEncoder;
import io.bourse.sbe.engine.SetSelfTradePreventionEncoder;
import io.bourse.sbe.engine.SetTradingStateEncoder;
import org.agrona.concurrent.SleepingMillisIdleStrategy;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.stream.IntStream;

/**
 * {@code bourse admin}: operator commands to the running matching-engine shards (engine-schema.xml SetTradingState,
 * SetPriceBand, SetSelfTradePrevention, BreakTrade, CrossLock, RunCross). Each connects an Aeron client to the media
 * driver the services use ({@code BOURSE_AERON_DIR}, {@code BOURSE_COMMAND_CHANNEL},
 * {@code BOURSE_COMMAND_STREAM_BASE}, {@code BOURSE_EVENT_CHANNEL}, {@code BOURSE_EVENT_STREAM_BASE}, as the services
 * read them), finds the shard that owns the symbol in {@code BOURSE_SYMBOLS}, waits a bounded time for that shard's
 * command stream to have a subscriber and its event stream a publisher, publishes the command, then waits on the event
 * stream for the shard's AdminResponse to it ({@link AdminResponses}, engine-schema.xml version 7: OK, or the reason
 * it refused the command, which it also counts in {@code bourse_engine_admin_rejects_total{reason}}). It prints "done"
 * per shard that applied the command, and per shard that refused it the reason, on the error stream. Exit codes: 0
 * applied by every shard, 1 not sent or no answer within {@code --timeout-ms} (e.g. an engine older than schema
 * version 7), 2 a bad option (checked here as far as it can be before sending), {@value #REFUSED} refused by a shard.
 */
@Command(
    name = "admin",
    mixinStandardHelpOptions = true,
    description = "Operator commands to the running matching engine: trading state, price band, self-trade " +
        "prevention, break trade, closing cross. Each waits for the engine shards' answers.",
    subcommands = {
        AdminCommand.TradingStateCommand.class,
        AdminCommand.PriceBandCommand.class,
        AdminCommand.SelfTradePreventionCommand.class,
        AdminCommand.BreakTradeCommand.class,
        AdminCommand.CrossCommand.class,
        CommandLine.HelpCommand.class })
public final class AdminCommand implements Runnable
{
    private static final int MAX_BAND_BASIS_POINTS = 10_000;
    private static final String BREAK_REASONS = "ECSX";
    /** Exit code when a shard refused the command. */
    static final int REFUSED = 3;

    @CommandLine.Spec
    private CommandLine.Model.CommandSpec spec;

    @Override
    public void run()
    {
        spec.commandLine().usage(System.out);
    }

    /** What every admin command does: find its shards, connect to them, send, report. */
    @Command(
        exitCodeListHeading = "Exit codes:%n",
        exitCodeList = {
            "0:applied by every shard",
            "1:not sent, or no answer within --timeout-ms",
            "2:bad option",
            "3:refused by a shard (the reason is printed)" })
    abstract static class ShardCommand implements Callable<Integer>
    {
        @CommandLine.Mixin
        RunningExchangeOption exchange = new RunningExchangeOption();

        @Option(names = "--timeout-ms", paramLabel = "MS", defaultValue = "5000",
            description = "How long to wait for the engine shards to be subscribed, to send through back " +
                "pressure, and for their answers (default: ${DEFAULT-VALUE}).")
        long timeoutMs;

        @CommandLine.Mixin
        BourseMain.SymbolsOption symbolsOption = new BourseMain.SymbolsOption();

        @CommandLine.Spec
        CommandLine.Model.CommandSpec spec;

        /**
         * @param directory the symbols and their shards.
         * @return the shards the command goes to.
         * @throws CommandLine.ParameterException for an option value the engine would refuse.
         */
        abstract int[] shards(SymbolDirectory directory);

        /**
         * @return the command and its values, as printed.
         */
        abstract String describe();

        /**
         * @return the command's template id in engine-schema.xml, which the shard's AdminResponse names.
         */
        abstract int templateId();

        /**
         * @return the packed symbol the shard's AdminResponse names: the command's, or spaces for a command without
         *         one.
         */
        long symbol()
        {
            return Symbols.pack("");
        }

        /**
         * @param proxy       the encoder.
         * @param publication a shard's command stream, connected.
         * @param timestampNs the command's time, ns since midnight.
         * @return the offer's result.
         */
        abstract long send(EngineAdminProxy proxy, Publication publication, long timestampNs);

        @Override
        public Integer call()
        {
            if (timeoutMs <= 0)
            {
                throw new CommandLine.ParameterException(spec.commandLine(), "--timeout-ms must be positive: " +
                    timeoutMs);
            }
            final Map<String, String> options = new HashMap<>();
            symbolsOption.putInto(options);
            exchange.putInto(options);
            final Settings settings = new Settings(options, System.getenv());
            final StreamLayout layout = StreamLayout.fromSettings(settings);
            final int[] shards = shards(SymbolDirectory.fromSettings(settings));
            try (Aeron aeron = RunningExchangeOption.connect(layout))
            {
                final String eventChannel = StreamLayout.untethered(layout.eventChannel());
                final Publication[] publications = new Publication[shards.length];
                final Subscription[] events = new Subscription[shards.length];
                for (int i = 0; i < shards.length; i++)
                {
                    publications[i] = aeron.addExclusivePublication(
                        layout.commandChannel(), layout.commandStreamId(shards[i]));
                    events[i] = aeron.addSubscription(eventChannel, layout.eventStreamId(shards[i]));
                }
                final AdminResponses responses = new AdminResponses(events);
                awaitConnected(publications, events, shards, layout, responses);
                final EngineAdminProxy proxy = new EngineAdminProxy(
                    new BoundedOffer(new SleepingMillisIdleStrategy(1), timeoutMs));
                final long timestampNs = new MidnightNanoClock().nanosSinceMidnight();
                for (int i = 0; i < shards.length; i++)
                {
                    final long result = send(proxy, publications[i], timestampNs);
                    if (result < 0)
                    {
                        throw new IllegalStateException(describe() + " not sent to shard " + shards[i] +
                            (i > 0 ? " (sent to shards before it)" : "") + ": offer returned " +
                            Publication.errorString(result));
                    }
                }
                responses.await(templateId(), timestampNs, symbol(), System.nanoTime() + timeoutMs * 1_000_000L,
                    new SleepingMillisIdleStrategy(1));
                return report(responses, shards, layout);
            }
        }

        /**
         * Prints each shard's answer: "done" on the output, a refusal with its reason on the error stream.
         *
         * @return 0 when every shard applied the command, {@value #REFUSED} when one refused it.
         * @throws IllegalStateException naming the shards that did not answer, after printing the others' answers.
         */
        private int report(final AdminResponses responses, final int[] shards, final StreamLayout layout)
        {
            int refused = 0;
            final StringBuilder silent = new StringBuilder();
            for (int i = 0; i < shards.length; i++)
            {
                final short code = responses.code(i);
                final String shard = "shard " + shards[i] + " (" + layout.commandChannel() + " stream " +
                    layout.commandStreamId(shards[i]) + ")";
                if (AdminResponses.NO_ANSWER == code)
                {
                    silent.append(silent.isEmpty() ? "" : ", ").append(shard);
                }
                else if (AdminResponseCode.OK.value() == code)
                {
                    spec.commandLine().getOut().println(describe() + ": done by " + shard);
                }
                else
                {
                    refused++;
                    spec.commandLine().getErr().println(
                        describe() + ": refused by " + shard + ", " + AdminResponses.name(code));
                }
            }
            if (!silent.isEmpty())
            {
                throw new IllegalStateException("sent " + describe() + " to " + silent + ", no answer within " +
                    timeoutMs + " ms: is the shard stalled, or older than engine-schema version 7, which answers " +
                    "admin commands?");
            }
            return 0 == refused ? 0 : REFUSED;
        }

        /**
         * Waits until every shard's command stream has a subscriber and its event stream a publisher, reading the event
         * streams meanwhile.
         *
         * @throws IllegalStateException naming the first shard, and which of its streams, not connected in time.
         */
        private void awaitConnected(
            final Publication[] publications, final Subscription[] events, final int[] shards,
            final StreamLayout layout, final AdminResponses responses)
        {
            final long deadlineNs = System.nanoTime() + timeoutMs * 1_000_000L;
            final SleepingMillisIdleStrategy idle = new SleepingMillisIdleStrategy(1);
            for (int i = 0; i < shards.length; i++)
            {
                while (!publications[i].isConnected() || !events[i].isConnected())
                {
                    if (System.nanoTime() - deadlineNs >= 0)
                    {
                        final boolean commands = !publications[i].isConnected();
                        throw new IllegalStateException("no matching-engine shard " + shards[i] + " on " +
                            (commands ? layout.commandChannel() : layout.eventChannel()) + " stream " +
                            (commands ? layout.commandStreamId(shards[i]) : layout.eventStreamId(shards[i])) +
                            " of " + layout.aeronDirectoryName() + " after " + timeoutMs + " ms: is it running? " +
                            "Nothing sent");
                    }
                    idle.idle(responses.poll());
                }
            }
        }
    }

    /** An admin command to the shard that owns one symbol: {@code --symbol}, checked against the symbol directory. */
    abstract static class SymbolCommand extends ShardCommand
    {
        @Option(names = "--symbol", paramLabel = "SYMBOL", required = true, description = "e.g. AAPL.")
        String symbol;

        /** The symbol, packed, once {@link #shards} has checked it. */
        long packed;

        /**
         * Checks the command's other options, before the symbol.
         *
         * @throws CommandLine.ParameterException for an option value the engine would refuse.
         */
        void checkOptions()
        {
        }

        @Override
        final int[] shards(final SymbolDirectory directory)
        {
            checkOptions();
            final String upper = symbol.toUpperCase(Locale.ROOT);
            if (upper.isEmpty() || upper.length() > Symbols.LENGTH || null == directory.find(Symbols.pack(upper)))
            {
                throw new CommandLine.ParameterException(spec.commandLine(), "--symbol: " + symbol + " is not in " +
                    SymbolDirectory.SYMBOLS_PROP_NAME + "=" + directory + " (--symbols or BOURSE_SYMBOLS)");
            }
            packed = Symbols.pack(upper);
            return new int[]{ directory.find(packed).shardId() };
        }

        @Override
        final long symbol()
        {
            return packed;
        }
    }

    /** {@code bourse admin trading-state}: SetTradingState to the symbol's shard. */
    @Command(name = "trading-state", mixinStandardHelpOptions = true,
        description = {
            "Set a symbol's trading state. CLOSED rejects entries with C and cancels its market-hours orders " +
                "(time in force 99998) with reason E; HALTED rejects entries with H and keeps resting orders; " +
                "OPEN trades again. Cancels work in every state. A change of state reaches ITCH subscribers as " +
                "Stock Trading Action H: halted (reason O1) for HALTED and CLOSED, trading for OPEN." })
    static final class TradingStateCommand extends SymbolCommand
    {
        @Option(names = "--state", paramLabel = "STATE", required = true,
            description = "${COMPLETION-CANDIDATES}.")
        TradingState state;

        @Override
        String describe()
        {
            return "SetTradingState " + Symbols.toString(packed) + " " + state;
        }

        @Override
        int templateId()
        {
            return SetTradingStateEncoder.TEMPLATE_ID;
        }

        @Override
        long send(final EngineAdminProxy proxy, final Publication publication, final long timestampNs)
        {
            return proxy.tradingState(publication, timestampNs, packed, state);
        }
    }

    /** {@code bourse admin price-band}: SetPriceBand to the symbol's shard. */
    @Command(name = "price-band", mixinStandardHelpOptions = true,
        description = {
            "Set a symbol's price band: new orders, and replaces that change the price or raise the size, priced " +
                "outside reference x (1 +- band / 10000) are rejected with X. Resting orders stay." })
    static final class PriceBandCommand extends SymbolCommand
    {
        @Option(names = "--reference-price", paramLabel = "PRICE", required = true,
            description = "Band centre in 1/10000 dollars (1500000 = $150.00); 0 removes the band.")
        long referencePrice;

        @Option(names = "--band-bp", paramLabel = "BASIS_POINTS", required = true,
            description = "Half-width in basis points of the reference price, 0 to 10000 (1000 = 10%%).")
        int bandBasisPoints;

        @Override
        void checkOptions()
        {
            if (referencePrice < 0 || referencePrice > MatchingEngine.MAX_PRICE)
            {
                throw new CommandLine.ParameterException(spec.commandLine(),
                    "--reference-price must be 0 to " + MatchingEngine.MAX_PRICE + ": " + referencePrice);
            }
            if (bandBasisPoints < 0 || bandBasisPoints > MAX_BAND_BASIS_POINTS)
            {
                throw new CommandLine.ParameterException(spec.commandLine(),
                    "--band-bp must be 0 to " + MAX_BAND_BASIS_POINTS + ": " + bandBasisPoints);
            }
        }

        @Override
        String describe()
        {
            return "SetPriceBand " + Symbols.toString(packed) + " reference " + referencePrice + " band " +
                bandBasisPoints + " bp";
        }

        @Override
        int templateId()
        {
            return SetPriceBandEncoder.TEMPLATE_ID;
        }

        @Override
        long send(final EngineAdminProxy proxy, final Publication publication, final long timestampNs)
        {
            return proxy.priceBand(publication, timestampNs, packed, referencePrice, bandBasisPoints);
        }
    }

    /** {@code bourse admin break-trade}: BreakTrade to the symbol's shard. */
    @Command(name = "break-trade", mixinStandardHelpOptions = true,
        description = {
            "Break an execution of the day: both OUCH parties get Broken Trade and ITCH subscribers Broken Trade, " +
                "with its match number. The book is not changed (a broken trade restores no order). A match number " +
                "the shard does not know, or a trade already broken, is refused by the shard and counted in " +
                "bourse_engine_admin_rejects_total." })
    static final class BreakTradeCommand extends SymbolCommand
    {
        @Option(names = "--match-number", paramLabel = "N", required = true,
            description = "The execution's match number (OUCH Executed, ITCH Order Executed or Trade).")
        long matchNumber;

        @Option(names = "--reason", paramLabel = "REASON", defaultValue = "S",
            description = "OUCH 4.2 Broken Trade reason: E erroneous, C consent, S supervisory, X external " +
                "(default: ${DEFAULT-VALUE}).")
        char reason;

        @Override
        void checkOptions()
        {
            if (matchNumber <= 0)
            {
                throw new CommandLine.ParameterException(spec.commandLine(),
                    "--match-number must be positive: " + matchNumber);
            }
            if (BREAK_REASONS.indexOf(reason) < 0)
            {
                throw new CommandLine.ParameterException(spec.commandLine(),
                    "--reason must be one of E, C, S, X: " + reason);
            }
        }

        @Override
        String describe()
        {
            return "BreakTrade " + Symbols.toString(packed) + " match number " + matchNumber + " reason " + reason;
        }

        @Override
        int templateId()
        {
            return BreakTradeEncoder.TEMPLATE_ID;
        }

        @Override
        long send(final EngineAdminProxy proxy, final Publication publication, final long timestampNs)
        {
            return proxy.breakTrade(publication, timestampNs, packed, matchNumber, (byte)reason);
        }
    }

    /** {@code bourse admin cross}: CrossLock or RunCross to the symbol's shard. */
    @Command(name = "cross", mixinStandardHelpOptions = true,
        description = {
            "Run a symbol's closing cross in two steps. --lock starts the late period: new closing-cross orders " +
                "(OUCH Cross Type C) and replaces of them are rejected with M, a full cancel of one answers Cancel " +
                "Pending and a partial cancel Cancel Reject. --run executes the cross at the single price that " +
                "maximises the executed shares (closing-cross orders and the continuous book's limit orders), " +
                "cancels the closing-cross orders left and unlocks. The shard refuses (and counts in " +
                "bourse_engine_admin_rejects_total) --lock when already locked, --run when not locked or while the " +
                "symbol is halted or closed." })
    static final class CrossCommand extends SymbolCommand
    {
        @CommandLine.ArgGroup(exclusive = true, multiplicity = "1")
        Step step;

        /** Which step of the cross: exactly one. */
        static final class Step
        {
            @Option(names = "--lock", required = true, description = "Start the late period (CrossLock).")
            boolean lock;

            @Option(names = "--run", required = true, description = "Run the cross (RunCross).")
            boolean run;
        }

        @Override
        String describe()
        {
            return (step.lock ? "CrossLock " : "RunCross ") + Symbols.toString(packed);
        }

        @Override
        int templateId()
        {
            return step.lock ? CrossLockEncoder.TEMPLATE_ID : RunCrossEncoder.TEMPLATE_ID;
        }

        @Override
        long send(final EngineAdminProxy proxy, final Publication publication, final long timestampNs)
        {
            return step.lock ? proxy.crossLock(publication, timestampNs, packed) :
                proxy.runCross(publication, timestampNs, packed);
        }
    }

    /** {@code bourse admin stp}: SetSelfTradePrevention to every shard. */
    @Command(name = "stp", mixinStandardHelpOptions = true,
        description = {
            "Set the self-trade prevention mode of one firm, or without --firm of every firm without a mode of its " +
                "own, on every shard. Prevented trades are canceled with reason Q." })
    static final class SelfTradePreventionCommand extends ShardCommand
    {
        @Option(names = "--firm", paramLabel = "FIRM",
            description = "OUCH 4.2 Firm, 1 to 4 characters (default: the engine default for every firm).")
        String firm;

        @Option(names = "--mode", paramLabel = "MODE", required = true,
            description = "${COMPLETION-CANDIDATES}.")
        SelfTradePrevention mode;

        @Override
        int[] shards(final SymbolDirectory directory)
        {
            if (null != firm && (firm.isEmpty() || firm.length() > Ouch42.FIRM_LENGTH ||
                !firm.chars().allMatch((c) -> c > ' ' && c <= '~')))
            {
                throw new CommandLine.ParameterException(spec.commandLine(),
                    "--firm must be 1 to 4 printable ASCII characters without spaces: '" + firm + "'");
            }
            return IntStream.range(0, directory.shardCount()).toArray();
        }

        @Override
        String describe()
        {
            return "SetSelfTradePrevention " + (null == firm ? "default" : "firm " + firm) + " " + mode;
        }

        @Override
        int templateId()
        {
            return SetSelfTradePreventionEncoder.TEMPLATE_ID;
        }

        @Override
        long send(final EngineAdminProxy proxy, final Publication publication, final long timestampNs)
        {
            return proxy.selfTradePrevention(publication, timestampNs, firm, mode);
        }
    }
}
