package io.bourse.engine;

import io.aeron.Subscription;
import io.aeron.logbuffer.ControlledFragmentHandler;
import io.aeron.logbuffer.FrameDescriptor;
import io.aeron.logbuffer.Header;
import io.bourse.common.EngineBlockLengths;
import io.bourse.common.config.Symbols;
import io.bourse.engine.match.CrossType;
import io.bourse.engine.match.Display;
import io.bourse.engine.match.MatchingEngine;
import io.bourse.engine.match.OrderBook;
import io.bourse.engine.match.SelfTradePrevention;
import io.bourse.engine.match.Side;
import io.bourse.engine.match.TradingState;
import io.bourse.ouch.Ouch42;
import io.bourse.sbe.engine.BreakTradeDecoder;
import io.bourse.sbe.engine.CancelOrderDecoder;
import io.bourse.sbe.engine.ClockTickDecoder;
import io.bourse.sbe.engine.CrossLockDecoder;
import io.bourse.sbe.engine.MessageHeaderDecoder;
import io.bourse.sbe.engine.NewOrderDecoder;
import io.bourse.sbe.engine.ReplaceOrderDecoder;
import io.bourse.sbe.engine.RunCrossDecoder;
import io.bourse.sbe.engine.SequencedCommandEncoder;
import io.bourse.sbe.engine.SetPriceBandDecoder;
import io.bourse.sbe.engine.SetSelfTradePreventionDecoder;
import io.bourse.sbe.engine.SetTradingStateDecoder;
import io.bourse.sbe.engine.StartNumberingDecoder;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.NanoClock;

/**
 * Decodes SBE commands (engine-schema.xml) from the shard's command stream and applies them to the
 * {@link MatchingEngine}, stamping the events with the command's timestamp. Before each command the engine's clock
 * moves to the command's timestamp ({@link MatchingEngine#advanceClock(long)}), so good-till-seconds orders expire on
 * the sequenced input's time, never the wall clock; ClockTick does only that, so that they expire without order flow.
 *
 * <ul>
 *   <li>NewOrder, CancelOrder, ReplaceOrder: OUCH 4.2 Enter, Cancel and Replace Order. NewOrder's firm is packed by
 *       {@link Firms} (blank: no firm), its display by {@link Display#fromCode(byte)} (an unsupported value reaches
 *       the engine as null, which rejects it with 'D'), its cross type by {@link CrossType#fromCode(byte)} (0, the
 *       null value a version 1 sender leaves, is no cross; an unsupported value reaches the engine as null, which
 *       rejects it with 'R').</li>
 *   <li>SetTradingState, SetPriceBand, SetSelfTradePrevention: admin commands. One the engine refuses (a symbol this
 *       shard does not trade, a band out of range, a value the schema does not define) changes nothing, publishes
 *       no event but its AdminResponse and is counted and logged once per kind ({@link AdminReject}); it never
 *       throws. Every admin command from the command stream, applied or refused, is answered with an
 *       AdminResponse after its other events ({@link EventProxy#adminResponse}), so that its sender learns what
 *       became of it; the shard's own settings, taken at its start, are not.</li>
 *   <li>BreakTrade: an operator breaks an execution of the day (OUCH 4.2 / ITCH 5.0 Broken Trade). When the match
 *       number names an execution of the shard's {@link Executions} in that symbol, of the engine clock's day (a day
 *       ends at its midnight), not broken yet, and the reason is
 *       E, C, S or X, TradeBroken is published; otherwise it is refused like another admin command. The book's
 *       orders are not changed: as on Nasdaq, a broken trade nullifies the execution for clearing but restores no
 *       order (the shares stay executed for the orders' open sizes); the execution is no longer the symbol's last
 *       trade, the closing cross's reference ({@link MatchingEngine#tradeBroken}).</li>
 *   <li>CrossLock, RunCross: the closing cross's late period and the cross itself
 *       ({@link MatchingEngine#crossLock(long)}, {@link MatchingEngine#runCross(long)}). Refused, like the other admin
 *       commands, for a symbol this shard does not trade, a CrossLock when the cross is already locked, a RunCross
 *       when it is not locked or, locked, when the symbol is not OPEN.</li>
 *   <li>StartNumbering: the shard's own setting, taken at each run's start ({@link StartConfiguration#startNumbering}):
 *       raises the counts of order reference numbers and match numbers ({@link MatchingEngine#startNumbering}) and,
 *       from schema version 9, publishes RunStarted with the earlier runs the run recovered
 *       ({@link EventProxy#runStarted}). Heard on the command stream it is counted as unknown and skipped,
 *       unsequenced: no sender may lower or move the numbering.</li>
 * </ul>
 *
 * A command is only taken when no event of an earlier one is still held back by the event stream; otherwise the poll
 * is aborted and the command stays on the input stream (back pressure reaches the gateways instead of events being
 * lost). Messages of another schema or an unknown template, and any longer than
 * {@link EventProxy#MAX_COMMAND_LENGTH} (1 KiB, far above every command of the schema), are counted and skipped; so
 * is a message longer than the stream's payload, whose fragments arrive one by one (counted once).
 *
 * <p>With the event archive on, each command of the schema is published as a SequencedCommand before its events
 * ({@link EventProxy#sequencedCommand}): the recorded event stream is then the shard's input log, which a restarted
 * shard replays through an adapter that publishes none ({@link EngineRecovery}). Each carries where on the command
 * stream the command was taken, so that a restarted shard skips a command its earlier runs took when it hears it again
 * ({@link TakenCommands}).
 *
 * <p>Each command taken is timed into {@code bourse_engine_service_time_seconds}: from where it was handed over to the
 * end of its events' publication, in ns of the service-time clock. Within one {@link #poll}, a command's time starts
 * where the previous command's ended, so a poll of n commands reads the clock n + 1 times (the fragments skipped
 * between two commands, duplicates and unknown ones, count in the later command's time); a command taken on its own
 * ({@link #take}) reads it twice.
 */
final class CommandAdapter implements ControlledFragmentHandler
{
    /** Values of a uint8 field; the schema's enums are uint8, so a raw value indexes these tables directly. */
    private static final int UINT8_VALUES = 256;
    /** The schema's TradingState names the core's states; built once, failing at start if the two ever differ. */
    private static final TradingState[] TRADING_STATES = tradingStates();
    /** The schema's SelfTradePrevention names the core's modes, likewise. */
    private static final SelfTradePrevention[] SELF_TRADE_PREVENTIONS = selfTradePreventions();
    /** The symbol of the AdminResponse to SetSelfTradePrevention, which has none: spaces. */
    private static final long NO_SYMBOL = Symbols.pack("");
    /** {@link #timedUntilNs} when no command of the current poll has been timed yet. */
    private static final long NOT_TIMED = Long.MIN_VALUE;

    private final MatchingEngine engine;
    private final EventProxy eventProxy;
    private final Executions executions;
    private final EngineMetrics metrics;
    private final boolean sequenceCommands;
    private final TakenCommands takenBefore;
    private final NanoClock clock;
    /** Where the service time of the current poll's last timed command ended, or {@link #NOT_TIMED}. */
    private long timedUntilNs = NOT_TIMED;
    /** The command being taken came on the command stream: not one of the shard's settings. */
    private boolean fromCommandStream;
    private final MessageHeaderDecoder header = new MessageHeaderDecoder();
    private final NewOrderDecoder newOrder = new NewOrderDecoder();
    private final CancelOrderDecoder cancelOrder = new CancelOrderDecoder();
    private final ReplaceOrderDecoder replaceOrder = new ReplaceOrderDecoder();
    private final ClockTickDecoder clockTick = new ClockTickDecoder();
    private final SetTradingStateDecoder setTradingState = new SetTradingStateDecoder();
    private final SetPriceBandDecoder setPriceBand = new SetPriceBandDecoder();
    private final SetSelfTradePreventionDecoder setSelfTradePrevention = new SetSelfTradePreventionDecoder();
    private final BreakTradeDecoder breakTrade = new BreakTradeDecoder();
    private final CrossLockDecoder crossLock = new CrossLockDecoder();
    private final RunCrossDecoder runCross = new RunCrossDecoder();
    private final StartNumberingDecoder startNumbering = new StartNumberingDecoder();

    /**
     * @param engine           the shard's matching engine.
     * @param eventProxy       publishes its events.
     * @param executions       the shard's executions, for BreakTrade.
     * @param metrics          counts the commands.
     * @param sequenceCommands true to publish each command as a SequencedCommand before its events (the event archive
     *                         is on); false without the archive, and when replaying a recorded input log.
     * @param takenBefore      the commands the shard's earlier runs took, skipped when heard again (counted in
     *                         {@code bourse_engine_duplicate_commands_total}); empty without the archive, and when
     *                         replaying.
     * @param clock            monotonic ns the commands' service time is read from.
     */
    CommandAdapter(
        final MatchingEngine engine, final EventProxy eventProxy, final Executions executions,
        final EngineMetrics metrics, final boolean sequenceCommands, final TakenCommands takenBefore,
        final NanoClock clock)
    {
        this.engine = engine;
        this.eventProxy = eventProxy;
        this.executions = executions;
        this.metrics = metrics;
        this.sequenceCommands = sequenceCommands;
        this.takenBefore = takenBefore;
        this.clock = clock;
    }

    /**
     * Polls the command stream, taking each command it hands over ({@link #onFragment}); the commands of one poll are
     * timed one after the other, with one clock read each and one more at the poll's first command.
     *
     * @param commands      the shard's command stream.
     * @param fragmentLimit most fragments to take.
     * @return fragments taken, skipped ones included.
     */
    int poll(final Subscription commands, final int fragmentLimit)
    {
        timedUntilNs = NOT_TIMED;
        return commands.controlledPoll(this, fragmentLimit);
    }

    @Override
    public Action onFragment(final DirectBuffer buffer, final int offset, final int length, final Header frameHeader)
    {
        if (!eventProxy.canPublish())
        {
            return Action.ABORT;
        }
        final byte flags = frameHeader.flags();
        if ((flags & FrameDescriptor.UNFRAGMENTED) != FrameDescriptor.UNFRAGMENTED)
        {
            // A fragment of a message longer than the stream's payload, far longer than any command: the message is
            // counted once, at its first fragment, and no fragment is taken for a command.
            if ((flags & FrameDescriptor.BEGIN_FRAG_FLAG) != 0)
            {
                metrics.unknownCommands.inc();
            }
            return Action.CONTINUE;
        }
        final int sessionId = frameHeader.sessionId();
        final long position = frameHeader.position();
        if (!takenBefore.isEmpty() && takenBefore.wasTaken(sessionId, position))
        {
            metrics.duplicateCommands.inc();
            return Action.CONTINUE;
        }
        final long startNs = NOT_TIMED == timedUntilNs ? clock.nanoTime() : timedUntilNs;
        if (apply(buffer, offset, length, sessionId, position))
        {
            final long endNs = clock.nanoTime();
            metrics.serviceTime.recordNs(endNs - startNs);
            timedUntilNs = endNs;
        }
        return Action.CONTINUE;
    }

    /**
     * Takes one command: counts it, publishes it as a SequencedCommand when commands are sequenced, and applies it to
     * the engine. Besides the command stream's, the shard's own start configuration ({@link StartConfiguration}) and
     * the commands a recovery replays come this way. Throws nothing for bad input: a message of another schema, one
     * longer than {@link EventProxy#MAX_COMMAND_LENGTH}, shorter than its header and block length, whose block is
     * shorter than the fields its template has at its version ({@link EngineBlockLengths}, an event's template too),
     * or a StartNumbering from the command stream is counted and skipped before it is sequenced; one of another
     * template than a command's, or a NewOrder with a side other than buy or sell, is sequenced, then counted and
     * skipped, the same way at every replay.
     *
     * @param buffer    holds the command.
     * @param offset    where its SBE message header starts.
     * @param length    its length in bytes, header included.
     * @param sessionId Aeron session id of the command stream's image it came on; SequencedCommand's null value for
     *                  one the shard gives itself.
     * @param position  that stream's position just after the command, in bytes; SequencedCommand's null value for
     *                  one the shard gives itself.
     * @throws IllegalArgumentException for a StartNumbering whose base is out of range, which only the shard itself
     *                                  (or a corrupt recording of its input log) can give.
     */
    void take(final DirectBuffer buffer, final int offset, final int length, final int sessionId, final long position)
    {
        final long startNs = clock.nanoTime();
        if (apply(buffer, offset, length, sessionId, position))
        {
            metrics.serviceTime.recordNs(clock.nanoTime() - startNs);
        }
    }

    /**
     * Applies one command as {@link #take} describes, untimed.
     *
     * @return true when the command was taken, false when it was counted and skipped as unknown.
     */
    private boolean apply(
        final DirectBuffer buffer, final int offset, final int length, final int sessionId, final long position)
    {
        if (length < MessageHeaderDecoder.ENCODED_LENGTH)
        {
            metrics.unknownCommands.inc();
            return false;
        }
        header.wrap(buffer, offset);
        if (header.schemaId() != MessageHeaderDecoder.SCHEMA_ID || length > EventProxy.MAX_COMMAND_LENGTH ||
            !EngineBlockLengths.isWhole(header, length) ||
            (StartNumberingDecoder.TEMPLATE_ID == header.templateId() &&
            SequencedCommandEncoder.commandSessionIdNullValue() != sessionId))
        {
            metrics.unknownCommands.inc();
            return false;
        }
        if (sequenceCommands)
        {
            eventProxy.sequencedCommand(buffer, offset, length, sessionId, position);
        }
        fromCommandStream = SequencedCommandEncoder.commandSessionIdNullValue() != sessionId;
        final int bodyOffset = offset + MessageHeaderDecoder.ENCODED_LENGTH;
        final int blockLength = header.blockLength();
        final int version = header.version();
        switch (header.templateId())
        {
            case NewOrderDecoder.TEMPLATE_ID ->
            {
                newOrder.wrap(buffer, bodyOffset, blockLength, version);
                final byte side = newOrder.sideRaw();
                if (io.bourse.sbe.engine.Side.BUY.value() != side && io.bourse.sbe.engine.Side.SELL.value() != side)
                {
                    // read raw: the generated enum getter throws on another value, and the poll would offer the
                    // command again every duty cycle (and the replay of its SequencedCommand fail at every start)
                    metrics.unknownCommands.inc();
                    return false;
                }
                metrics.newOrders.inc();
                advanceClock(newOrder.timestampNs());
                engine.newOrder(
                    newOrder.clientOrderId(),
                    Symbols.pack(buffer, bodyOffset + NewOrderDecoder.symbolEncodingOffset()),
                    io.bourse.sbe.engine.Side.BUY.value() == side ? Side.BUY : Side.SELL,
                    newOrder.quantity(),
                    newOrder.price(),
                    (int)newOrder.timeInForce(),
                    newOrder.minimumQuantity(),
                    Firms.pack(buffer, bodyOffset + NewOrderDecoder.firmEncodingOffset()),
                    Display.fromCode(newOrder.display()),
                    crossType(newOrder.crossType()));
            }
            case CancelOrderDecoder.TEMPLATE_ID ->
            {
                cancelOrder.wrap(buffer, bodyOffset, blockLength, version);
                metrics.cancels.inc();
                advanceClock(cancelOrder.timestampNs());
                engine.cancelOrder(cancelOrder.clientOrderId(), cancelOrder.quantity());
            }
            case ReplaceOrderDecoder.TEMPLATE_ID ->
            {
                replaceOrder.wrap(buffer, bodyOffset, blockLength, version);
                metrics.replaces.inc();
                advanceClock(replaceOrder.timestampNs());
                final long timeInForce = replaceOrder.timeInForce();
                engine.replaceOrder(
                    replaceOrder.clientOrderId(),
                    replaceOrder.newClientOrderId(),
                    replaceOrder.quantity(),
                    replaceOrder.price(),
                    ReplaceOrderDecoder.timeInForceNullValue() == timeInForce ?
                        MatchingEngine.TIME_IN_FORCE_UNCHANGED : (int)timeInForce);
            }
            case ClockTickDecoder.TEMPLATE_ID ->
            {
                clockTick.wrap(buffer, bodyOffset, blockLength, version);
                metrics.clockTicks.inc();
                advanceClock(clockTick.timestampNs());
            }
            case SetTradingStateDecoder.TEMPLATE_ID -> onSetTradingState(buffer, bodyOffset, blockLength, version);
            case SetPriceBandDecoder.TEMPLATE_ID -> onSetPriceBand(buffer, bodyOffset, blockLength, version);
            case SetSelfTradePreventionDecoder.TEMPLATE_ID ->
                onSetSelfTradePrevention(buffer, bodyOffset, blockLength, version);
            case BreakTradeDecoder.TEMPLATE_ID -> onBreakTrade(buffer, bodyOffset, blockLength, version);
            case CrossLockDecoder.TEMPLATE_ID -> onCrossLock(buffer, bodyOffset, blockLength, version);
            case RunCrossDecoder.TEMPLATE_ID -> onRunCross(buffer, bodyOffset, blockLength, version);
            case StartNumberingDecoder.TEMPLATE_ID ->
            {
                startNumbering.wrap(buffer, bodyOffset, blockLength, version);
                engine.startNumbering(startNumbering.numberBase());
                final long recoveredRuns = startNumbering.recoveredRuns();
                if (StartNumberingDecoder.recoveredRunsNullValue() != recoveredRuns)
                {
                    eventProxy.runStarted(engine.shardId(), recoveredRuns, startNumbering.numberBase());
                }
            }
            default ->
            {
                metrics.unknownCommands.inc();
                return false;
            }
        }
        return true;
    }

    /**
     * Answers an admin command heard on the command stream with an AdminResponse, after its other events; the shard's
     * own settings, taken at its start, have no sender to answer.
     */
    private void adminResponse(final int commandTemplateId, final long symbol, final AdminReject reject)
    {
        if (fromCommandStream)
        {
            eventProxy.adminResponse(commandTemplateId, symbol, reject);
        }
    }

    /**
     * Stamps the command's events with its timestamp, then expires what is due at that time; past a midnight, the
     * earlier day's executions can no longer be broken, from before the expiries on (a peg an expiry lets trade
     * executes on the new day).
     */
    private void advanceClock(final long timestampNs)
    {
        eventProxy.commandTimestamp(timestampNs);
        executions.onClock(engine.clockAt(timestampNs));
        engine.advanceClock(timestampNs);
    }

    private void onSetTradingState(
        final DirectBuffer buffer, final int offset, final int blockLength, final int version)
    {
        setTradingState.wrap(buffer, offset, blockLength, version);
        metrics.tradingStates.inc();
        advanceClock(setTradingState.timestampNs());
        final long symbol = Symbols.pack(buffer, offset + SetTradingStateDecoder.symbolEncodingOffset());
        final TradingState state = TRADING_STATES[setTradingState.stateRaw()];
        final AdminReject reject = null == state ? AdminReject.INVALID_TRADING_STATE :
            !engine.tradingState(symbol, state) ? AdminReject.UNKNOWN_SYMBOL : null;
        if (null != reject)
        {
            metrics.adminRejected(reject, "SetTradingState " + Symbols.toString(symbol) + " " +
                (null == state ? "state " + setTradingState.stateRaw() : state));
        }
        adminResponse(SetTradingStateDecoder.TEMPLATE_ID, symbol, reject);
    }

    private void onSetPriceBand(final DirectBuffer buffer, final int offset, final int blockLength, final int version)
    {
        setPriceBand.wrap(buffer, offset, blockLength, version);
        metrics.priceBands.inc();
        advanceClock(setPriceBand.timestampNs());
        final long symbol = Symbols.pack(buffer, offset + SetPriceBandDecoder.symbolEncodingOffset());
        final long referencePrice = setPriceBand.referencePrice();
        final int bandBasisPoints = setPriceBand.bandBasisPoints();
        AdminReject reject = null;
        if (!engine.priceBand(symbol, referencePrice, bandBasisPoints))
        {
            reject = null == engine.book(symbol) ? AdminReject.UNKNOWN_SYMBOL : AdminReject.INVALID_PRICE_BAND;
            metrics.adminRejected(reject,
                "SetPriceBand " + Symbols.toString(symbol) + " " + referencePrice + " " + bandBasisPoints + "bp");
        }
        adminResponse(SetPriceBandDecoder.TEMPLATE_ID, symbol, reject);
    }

    private void onSetSelfTradePrevention(
        final DirectBuffer buffer, final int offset, final int blockLength, final int version)
    {
        setSelfTradePrevention.wrap(buffer, offset, blockLength, version);
        metrics.selfTradePreventions.inc();
        advanceClock(setSelfTradePrevention.timestampNs());
        final int firm = Firms.pack(buffer, offset + SetSelfTradePreventionDecoder.firmEncodingOffset());
        final SelfTradePrevention mode = selfTradePrevention(setSelfTradePrevention.modeRaw());
        AdminReject reject = null;
        if (null == mode)
        {
            reject = AdminReject.INVALID_SELF_TRADE_PREVENTION;
            metrics.adminRejected(reject, "SetSelfTradePrevention mode " + setSelfTradePrevention.modeRaw());
        }
        else if (Firms.NONE == firm)
        {
            engine.selfTradePrevention(mode);
        }
        else
        {
            engine.selfTradePrevention(firm, mode);
        }
        adminResponse(SetSelfTradePreventionDecoder.TEMPLATE_ID, NO_SYMBOL, reject);
    }

    private void onBreakTrade(final DirectBuffer buffer, final int offset, final int blockLength, final int version)
    {
        breakTrade.wrap(buffer, offset, blockLength, version);
        metrics.breakTrades.inc();
        advanceClock(breakTrade.timestampNs());
        final long symbol = Symbols.pack(buffer, offset + BreakTradeDecoder.symbolEncodingOffset());
        final long matchNumber = breakTrade.matchNumber();
        final byte reason = breakTrade.reason();
        final int index = executions.find(matchNumber);
        final AdminReject reject;
        if (Executions.MISSING == index || executions.symbol(index) != symbol)
        {
            reject = AdminReject.UNKNOWN_MATCH_NUMBER;
        }
        else if (executions.isCross(index))
        {
            reject = AdminReject.CROSS_EXECUTION;
        }
        else if (executions.isBroken(index))
        {
            reject = AdminReject.TRADE_ALREADY_BROKEN;
        }
        else if (!isBreakReason(reason))
        {
            reject = AdminReject.INVALID_BREAK_REASON;
        }
        else
        {
            reject = null;
            executions.markBroken(index);
            engine.tradeBroken(symbol, matchNumber);
            eventProxy.tradeBroken(index, reason);
        }
        if (null != reject)
        {
            metrics.adminRejected(reject, "BreakTrade " + Symbols.toString(symbol) + " match number " +
                matchNumber + " reason " + (char)reason);
        }
        adminResponse(BreakTradeDecoder.TEMPLATE_ID, symbol, reject);
    }

    private void onCrossLock(final DirectBuffer buffer, final int offset, final int blockLength, final int version)
    {
        crossLock.wrap(buffer, offset, blockLength, version);
        metrics.crossLocks.inc();
        advanceClock(crossLock.timestampNs());
        final long symbol = Symbols.pack(buffer, offset + CrossLockDecoder.symbolEncodingOffset());
        AdminReject reject = null;
        if (!engine.crossLock(symbol))
        {
            reject = null == engine.book(symbol) ? AdminReject.UNKNOWN_SYMBOL : AdminReject.CROSS_ALREADY_LOCKED;
            metrics.adminRejected(reject, "CrossLock " + Symbols.toString(symbol));
        }
        adminResponse(CrossLockDecoder.TEMPLATE_ID, symbol, reject);
    }

    private void onRunCross(final DirectBuffer buffer, final int offset, final int blockLength, final int version)
    {
        runCross.wrap(buffer, offset, blockLength, version);
        metrics.runCrosses.inc();
        advanceClock(runCross.timestampNs());
        final long symbol = Symbols.pack(buffer, offset + RunCrossDecoder.symbolEncodingOffset());
        AdminReject reject = null;
        if (!engine.runCross(symbol))
        {
            final OrderBook book = engine.book(symbol);
            reject = null == book ? AdminReject.UNKNOWN_SYMBOL :
                !book.crossLocked() ? AdminReject.CROSS_NOT_LOCKED : AdminReject.SYMBOL_NOT_OPEN;
            metrics.adminRejected(reject,
                "RunCross " + Symbols.toString(symbol) + (null == book ? "" : " " + book.tradingState()));
        }
        adminResponse(RunCrossDecoder.TEMPLATE_ID, symbol, reject);
    }

    /**
     * @param raw a SelfTradePrevention value of the schema (uint8), as the field's raw getter returns it.
     * @return the core's mode, null where the schema defines none (a refused command).
     */
    static SelfTradePrevention selfTradePrevention(final short raw)
    {
        return SELF_TRADE_PREVENTIONS[raw];
    }

    /** @return the core's cross type for a NewOrder's crossType: the null value (version 1) is no cross. */
    private static CrossType crossType(final byte code)
    {
        return NewOrderDecoder.crossTypeNullValue() == code ? CrossType.NONE : CrossType.fromCode(code);
    }

    private static boolean isBreakReason(final byte reason)
    {
        return Ouch42.BROKEN_TRADE_ERRONEOUS == reason || Ouch42.BROKEN_TRADE_CONSENT == reason ||
            Ouch42.BROKEN_TRADE_SUPERVISORY == reason || Ouch42.BROKEN_TRADE_EXTERNAL == reason;
    }

    /** @return the core's states indexed by every uint8 value, null where the schema's TradingState has none. */
    private static TradingState[] tradingStates()
    {
        final TradingState[] states = new TradingState[UINT8_VALUES];
        for (final io.bourse.sbe.engine.TradingState state : io.bourse.sbe.engine.TradingState.values())
        {
            if (io.bourse.sbe.engine.TradingState.NULL_VAL != state)
            {
                states[state.value()] = TradingState.valueOf(state.name());
            }
        }
        return states;
    }

    /** @return the core's modes indexed by every uint8 value, null where the schema's SelfTradePrevention has none. */
    private static SelfTradePrevention[] selfTradePreventions()
    {
        final SelfTradePrevention[] modes = new SelfTradePrevention[UINT8_VALUES];
        for (final io.bourse.sbe.engine.SelfTradePrevention mode : io.bourse.sbe.engine.SelfTradePrevention.values())
        {
            if (io.bourse.sbe.engine.SelfTradePrevention.NULL_VAL != mode)
            {
                modes[mode.value()] = SelfTradePrevention.valueOf(mode.name());
            }
        }
        return modes;
    }
}
