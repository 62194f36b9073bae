package io.bourse.engine;

import io.aeron.Publication;
import io.bourse.common.EngineEventTemplates;
import io.bourse.common.EngineNumbering;
import io.bourse.common.aeron.BoundedOffer;
import io.bourse.common.config.Symbols;
import io.bourse.common.time.MidnightNanoClock;
import io.bourse.engine.match.BookUpdate;
import io.bourse.engine.match.CrossType;
import io.bourse.engine.match.Display;
import io.bourse.engine.match.MatchingEngineListener;
import io.bourse.engine.match.Side;
import io.bourse.engine.match.TradingState;
import io.bourse.sbe.engine.AdminResponseCode;
import io.bourse.sbe.engine.AdminResponseEncoder;
import io.bourse.sbe.engine.CancelPendingEncoder;
import io.bourse.sbe.engine.CancelRejectedEncoder;
import io.bourse.sbe.engine.CommandStreamJoinedEncoder;
import io.bourse.sbe.engine.CrossCompletedEncoder;
import io.bourse.sbe.engine.MessageHeaderDecoder;
import io.bourse.sbe.engine.MessageHeaderEncoder;
import io.bourse.sbe.engine.OrderAcceptedEncoder;
import io.bourse.sbe.engine.OrderAddedEncoder;
import io.bourse.sbe.engine.OrderCanceledEncoder;
import io.bourse.sbe.engine.OrderExecutedEncoder;
import io.bourse.sbe.engine.OrderPriorityUpdatedEncoder;
import io.bourse.sbe.engine.OrderRejectedEncoder;
import io.bourse.sbe.engine.OrderReplacedEncoder;
import io.bourse.sbe.engine.RunStartedEncoder;
import io.bourse.sbe.engine.SequencedCommandEncoder;
import io.bourse.sbe.engine.TradeBrokenEncoder;
import io.bourse.sbe.engine.TradingStateChangedEncoder;
import org.agrona.DirectBuffer;
import org.agrona.ExpandableDirectByteBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Encodes every outcome of the matching core as an SBE event (engine-schema.xml) on the shard's event stream,
 * stamped with the next shard sequence number (from 1) and the timestamp of the command being processed (for an
 * expiry, of the command or clock tick that moved the clock past it). OrderAccepted, OrderAdded and OrderReplaced
 * carry the order's OUCH 4.2 Display code, so that market data can leave out the orders that are not displayed.
 * OrderExecuted and OrderReplaced carry the OUCH 4.2 Cross Type, N for the continuous market and C for the closing
 * cross (whose orders are in no market data book); the closing cross's CancelPending, CancelRejected and
 * CrossCompleted have events of their own. A midpoint peg's new working price is OrderPriorityUpdated (OUCH 4.2 Order
 * Priority Update downstream), a symbol's new trading state TradingStateChanged, a run's start RunStarted
 * ({@link #runStarted}), where a run joined a gateway's command publication CommandStreamJoined
 * ({@link #commandStreamJoined}). Each admin command is answered, after
 * its other events, with an AdminResponse: OK or why it was refused ({@link #adminResponse}). Every execution is
 * also recorded in the shard's {@link Executions}, for an operator's BreakTrade; a broken trade is published as
 * TradeBroken ({@link #tradeBroken(int, byte)}).
 *
 * <p>No event is ever dropped. An event the stream refuses (back pressure, no subscriber yet) is kept, in order, with
 * the rest of its command's events in a held buffer (a term rotation is not a refusal: the offer is made again at once,
 * {@link BoundedOffer#offerAcrossRotation}); the engine agent retries them every duty cycle
 * ({@link #publishHeld()}) and takes no new command while any is held ({@link #canPublish()}), so back pressure
 * reaches the command stream and the gateways instead of events being lost. The held buffer holds one command's
 * events, but at a start, where the events the earlier runs never published are followed by the SequencedCommands of
 * the settings ({@link StartConfiguration}).
 *
 * <p>With the event archive on, each command goes out first, as a SequencedCommand
 * ({@link #sequencedCommand(DirectBuffer, int, int, int, long)}), so that the recording of the stream is the shard's
 * input log.
 * A restarted shard recovers from it ({@link EngineRecovery}): in recovery the proxy publishes nothing; the events the
 * replayed commands produce are held and each must equal the next event recorded
 * ({@link #matchRecorded(DirectBuffer, int, int)}), and so must the answers to the admin commands of a run whose
 * engine answered them (schema version 7 and later, {@link #replayAnswers(boolean)}), held with them, unnumbered.
 * Those left when a run's recording ends were never published (the run stopped between a command and its events or
 * its answer, or while they were held): each later run starts by publishing them, the events renumbered from 1
 * ({@link #startRun()}), before it takes a command, so that an operator's tool hears the answer to a command whose run
 * died before giving it.
 */
final class EventProxy implements MatchingEngineListener
{
    /** Initial size of the held-events buffer: room for several hundred events, so that growth is rare. */
    private static final int HELD_INITIAL_CAPACITY = 64 * 1024;
    /** Length of the longest command a SequencedCommand carries, message header included, in bytes. */
    static final int MAX_COMMAND_LENGTH = 1024;
    /** Offset of every event's sequence number: each event's first field. */
    private static final int SEQUENCE_NUMBER_OFFSET =
        MessageHeaderEncoder.ENCODED_LENGTH + OrderAcceptedEncoder.sequenceNumberEncodingOffset();
    /** The schema version that added AdminResponse: an engine of an earlier one answered no admin command. */
    static final int ADMIN_RESPONSE_SINCE_VERSION = 7;

    private Publication publication;
    private EngineMetrics metrics;
    private EngineMetrics liveMetrics;
    private boolean recovering;
    /** In recovery: the run being replayed answered its admin commands, so the replay holds the answers to match. */
    private boolean replayAnswers;
    private final ExpandableDirectByteBuffer held = new ExpandableDirectByteBuffer(HELD_INITIAL_CAPACITY);
    private int heldLimit;
    private int heldPosition;
    private final UnsafeBuffer buffer = new UnsafeBuffer(ByteBuffer.allocateDirect(
        MessageHeaderEncoder.ENCODED_LENGTH + SequencedCommandEncoder.BLOCK_LENGTH +
        SequencedCommandEncoder.commandHeaderLength() + MAX_COMMAND_LENGTH));
    private final MessageHeaderEncoder header = new MessageHeaderEncoder();
    private final MessageHeaderDecoder recordedHeader = new MessageHeaderDecoder();
    private final OrderAcceptedEncoder accepted = new OrderAcceptedEncoder();
    private final OrderRejectedEncoder rejected = new OrderRejectedEncoder();
    private final OrderAddedEncoder added = new OrderAddedEncoder();
    private final OrderExecutedEncoder executed = new OrderExecutedEncoder();
    private final OrderCanceledEncoder canceled = new OrderCanceledEncoder();
    private final OrderReplacedEncoder replaced = new OrderReplacedEncoder();
    private final TradeBrokenEncoder tradeBroken = new TradeBrokenEncoder();
    private final CancelPendingEncoder cancelPending = new CancelPendingEncoder();
    private final CancelRejectedEncoder cancelRejected = new CancelRejectedEncoder();
    private final CrossCompletedEncoder crossCompleted = new CrossCompletedEncoder();
    private final OrderPriorityUpdatedEncoder priorityUpdated = new OrderPriorityUpdatedEncoder();
    private final TradingStateChangedEncoder tradingStateChanged = new TradingStateChangedEncoder();
    private final SequencedCommandEncoder sequencedCommand = new SequencedCommandEncoder();
    private final AdminResponseEncoder adminResponse = new AdminResponseEncoder();
    private final RunStartedEncoder runStarted = new RunStartedEncoder();
    private final CommandStreamJoinedEncoder commandStreamJoined = new CommandStreamJoinedEncoder();
    private final Executions executions;
    private long sequenceNumber;
    private long timestampNs;

    /**
     * A proxy with no stream yet: {@link #start(Publication)} gives it one, after any recovery.
     *
     * @param metrics    counts the events.
     * @param executions records every execution, for BreakTrade.
     */
    EventProxy(final EngineMetrics metrics, final Executions executions)
    {
        this.metrics = metrics;
        this.executions = executions;
    }

    /**
     * Sets the timestamp stamped on the events of the command about to be processed.
     *
     * @param timestampNs the command's gateway receive time, ns since midnight.
     */
    void commandTimestamp(final long timestampNs)
    {
        this.timestampNs = timestampNs;
    }

    /**
     * Publishes a command before its events, as a SequencedCommand, so that the recorded stream is the shard's input
     * log; held like an event when the stream refuses it.
     *
     * @param command   the command's buffer.
     * @param offset    where its SBE message header starts.
     * @param length    its length in bytes, header included, at most {@link #MAX_COMMAND_LENGTH}.
     * @param sessionId Aeron session id of the command stream's image it came on.
     * @param position  position of that stream just after the command, in bytes.
     */
    void sequencedCommand(
        final DirectBuffer command, final int offset, final int length, final int sessionId, final long position)
    {
        sequencedCommand.wrapAndApplyHeader(buffer, 0, header)
            .commandSessionId(sessionId)
            .commandPosition(position)
            .putCommand(command, offset, length);
        // Not an event: bourse_engine_events_held_total counts only the events held.
        offerOrHold(MessageHeaderEncoder.ENCODED_LENGTH + sequencedCommand.encodedLength());
    }

    /**
     * Enters recovery: nothing is published; the events the engine produces are held until matched against the
     * recorded ones.
     *
     * @param recoveryMetrics counts the replayed commands' events apart from the live ones (not exported).
     */
    void startRecovery(final EngineMetrics recoveryMetrics)
    {
        liveMetrics = metrics;
        metrics = recoveryMetrics;
        recovering = true;
    }

    /**
     * In recovery, before each replayed command: whether the engine that took it answered admin commands (its
     * SequencedCommand's schema version is {@link #ADMIN_RESPONSE_SINCE_VERSION} or later). If so, the replay holds
     * the command's answer like an event, to be matched against the recorded one or, when its run died before
     * publishing it, published first by the next run; an older engine's run has no answer to match, and its
     * commands' senders are long gone.
     *
     * @param answered true when the replayed command's run published an AdminResponse for each admin command.
     */
    void replayAnswers(final boolean answered)
    {
        replayAnswers = answered;
    }

    /**
     * Starts a run of the shard's event stream, in recovery the next recording read, else the live one: the messages
     * held are those no earlier run published, which this run publishes first; the events among them are renumbered
     * from 1, as each run's sequence numbers are, and the answers to admin commands, which carry no sequence number,
     * are left as they are. Not the duty cycle's: walks what is held.
     *
     * @return the messages held (events and answers), this run's first.
     */
    int startRun()
    {
        held.putBytes(0, held, heldPosition, heldLimit - heldPosition);
        heldLimit -= heldPosition;
        heldPosition = 0;
        sequenceNumber = 0;
        int count = 0;
        for (int position = 0; position < heldLimit; position += Integer.BYTES + held.getInt(position))
        {
            count++;
            if (isNumbered(held, position + Integer.BYTES))
            {
                held.putLong(position + Integer.BYTES + SEQUENCE_NUMBER_OFFSET, ++sequenceNumber);
            }
        }
        return count;
    }

    /**
     * In recovery, at a recorded command while messages are still held: drops them when they are all answers to admin
     * commands. The recorded run then took its command without publishing them: its engine, of schema version 7 but
     * from before the answers an earlier run left were published, recovered without them. Dropping them keeps the
     * replay equal to what was published; an event held is a divergence, which the caller reports.
     *
     * @return true when nothing is held any more; false when an event is held (nothing dropped).
     */
    boolean dropUnpublishedAnswers()
    {
        for (int position = heldPosition; position < heldLimit; position += Integer.BYTES + held.getInt(position))
        {
            if (isNumbered(held, position + Integer.BYTES))
            {
                return false;
            }
        }
        heldPosition = 0;
        heldLimit = 0;
        return true;
    }

    /**
     * Takes the next recorded event, or answer to an admin command, of the run being recovered: it must equal, byte for
     * byte, the oldest message held, but for the schema version in its message header (an engine of schema version 5
     * or 6, whose run an upgraded shard recovers, wrote every event as this one does; a version that changed an event
     * changes its length too).
     *
     * @param event  the recorded event's buffer.
     * @param offset where its SBE message header starts.
     * @param length its length in bytes.
     * @throws IllegalStateException when nothing is held (the replay produced fewer events than the run published)
     *                               or the held message differs: the recorded run was not produced by this engine's
     *                               version and configuration from these commands.
     */
    void matchRecorded(final DirectBuffer event, final int offset, final int length)
    {
        if (heldPosition == heldLimit)
        {
            throw new IllegalStateException("recovery diverged: the run published an event the replay did not " +
                "produce (template " + templateId(event, offset) + ")");
        }
        final int heldLength = held.getInt(heldPosition);
        final int heldOffset = heldPosition + Integer.BYTES;
        if (heldLength != length || !equalButVersion(held, heldOffset, event, offset, length))
        {
            throw new IllegalStateException("recovery diverged: the run published an event (template " +
                templateId(event, offset) + ", " + length + " bytes) other than the replay's (template " +
                templateId(held, heldOffset) + ", " + heldLength + " bytes" + (isNumbered(held, heldOffset) ?
                ", sequence number " + held.getLong(heldOffset + SEQUENCE_NUMBER_OFFSET) : "") + ")");
        }
        heldPosition += Integer.BYTES + length;
        if (heldPosition == heldLimit)
        {
            heldPosition = 0;
            heldLimit = 0;
        }
    }

    /**
     * Starts the live run on the shard's event stream, ending any recovery ({@link #startRun()}, with the live
     * metrics); the events held, which no earlier run published, go out first, with the next {@link #publishHeld()}.
     *
     * @param events the shard's event publication, nothing published on it yet.
     * @return the events held.
     */
    int start(final Publication events)
    {
        publication = events;
        if (recovering)
        {
            recovering = false;
            metrics = liveMetrics;
        }
        return startRun();
    }

    /**
     * @return true when no event is held back, so that the next command's events can follow in order.
     */
    boolean canPublish()
    {
        return heldPosition == heldLimit;
    }

    /**
     * @return how many messages (events and SequencedCommands) are held, 0 when {@link #canPublish()}; walks the held
     *         buffer, for a stop's log, not the duty cycle.
     */
    int heldCount()
    {
        int count = 0;
        for (int position = heldPosition; position < heldLimit; position += Integer.BYTES + held.getInt(position))
        {
            count++;
        }
        return count;
    }

    /**
     * @return true when a subscriber, the event archive's recording included, can take the held events: false while
     *         the stream has none (at a stop, once every subscriber has gone).
     */
    boolean isConnected()
    {
        return publication.isConnected();
    }

    /**
     * Offers the held events, oldest first, stopping at the first the stream still refuses (retried next duty
     * cycle).
     *
     * @return number of events published.
     * @throws IllegalStateException when the publication is closed or has reached its maximum position: the events
     *                               stay held and the engine takes no command, so the agent's error handler must
     *                               make the stall visible (counted every duty cycle, logged once).
     */
    int publishHeld()
    {
        int published = 0;
        while (heldPosition < heldLimit)
        {
            final int length = held.getInt(heldPosition);
            final long result =
                BoundedOffer.offerAcrossRotation(publication, held, heldPosition + Integer.BYTES, length);
            if (Publication.CLOSED == result || Publication.MAX_POSITION_EXCEEDED == result)
            {
                throw new IllegalStateException("event publication " +
                    (Publication.CLOSED == result ? "closed" : "at its maximum position") +
                    ": events are held and the shard takes no more commands");
            }
            if (result < 0)
            {
                return published;
            }
            heldPosition += Integer.BYTES + length;
            published++;
        }
        heldPosition = 0;
        heldLimit = 0;
        return published;
    }

    @Override
    public void onOrderAccepted(
        final long clientOrderId, final long orderId, final long symbol, final Side side, final long quantity,
        final long price, final int timeInForce, final Display display)
    {
        accepted.wrapAndApplyHeader(buffer, 0, header)
            .sequenceNumber(++sequenceNumber)
            .timestampNs(timestampNs)
            .clientOrderId(clientOrderId)
            .orderId(orderId);
        Symbols.unpack(
            symbol, buffer, MessageHeaderEncoder.ENCODED_LENGTH + OrderAcceptedEncoder.symbolEncodingOffset());
        accepted.side(side(side)).quantity(quantity).price(price).timeInForce(timeInForce).display(display.code());
        publish(MessageHeaderEncoder.ENCODED_LENGTH + accepted.encodedLength());
        metrics.accepted.inc();
    }

    @Override
    public void onOrderRejected(final long clientOrderId, final long symbol, final byte reason)
    {
        rejected.wrapAndApplyHeader(buffer, 0, header)
            .sequenceNumber(++sequenceNumber)
            .timestampNs(timestampNs)
            .clientOrderId(clientOrderId);
        Symbols.unpack(
            symbol, buffer, MessageHeaderEncoder.ENCODED_LENGTH + OrderRejectedEncoder.symbolEncodingOffset());
        rejected.reason(reason);
        publish(MessageHeaderEncoder.ENCODED_LENGTH + rejected.encodedLength());
        metrics.rejected(reason);
    }

    @Override
    public void onOrderAdded(
        final long orderId, final long symbol, final Side side, final long quantity, final long price,
        final Display display, final int firm)
    {
        added.wrapAndApplyHeader(buffer, 0, header)
            .sequenceNumber(++sequenceNumber)
            .timestampNs(timestampNs)
            .orderId(orderId);
        Symbols.unpack(symbol, buffer, MessageHeaderEncoder.ENCODED_LENGTH + OrderAddedEncoder.symbolEncodingOffset());
        added.side(side(side)).quantity(quantity).price(price).display(display.code());
        buffer.putInt(added.offset() + OrderAddedEncoder.firmEncodingOffset(), firm, ByteOrder.BIG_ENDIAN);
        publish(MessageHeaderEncoder.ENCODED_LENGTH + added.encodedLength());
        metrics.added.inc();
    }

    @Override
    public void onOrderExecuted(
        final long matchNumber, final long symbol, final long quantity, final long price,
        final long takerClientOrderId, final long takerOrderId, final Side takerSide,
        final long makerClientOrderId, final long makerOrderId, final long makerLeaves, final long takerLeaves)
    {
        executed(matchNumber, symbol, quantity, price, takerClientOrderId, takerOrderId, takerSide,
            makerClientOrderId, makerOrderId, makerLeaves, takerLeaves, CrossType.NONE);
    }

    @Override
    public void onCrossExecuted(
        final long matchNumber, final long symbol, final long quantity, final long price,
        final long takerClientOrderId, final long takerOrderId, final Side takerSide,
        final long makerClientOrderId, final long makerOrderId, final long makerLeaves, final long takerLeaves)
    {
        executed(matchNumber, symbol, quantity, price, takerClientOrderId, takerOrderId, takerSide,
            makerClientOrderId, makerOrderId, makerLeaves, takerLeaves, CrossType.CLOSING);
    }

    private void executed(
        final long matchNumber, final long symbol, final long quantity, final long price,
        final long takerClientOrderId, final long takerOrderId, final Side takerSide,
        final long makerClientOrderId, final long makerOrderId, final long makerLeaves, final long takerLeaves,
        final CrossType crossType)
    {
        executed.wrapAndApplyHeader(buffer, 0, header)
            .sequenceNumber(++sequenceNumber)
            .timestampNs(timestampNs)
            .matchNumber(matchNumber);
        Symbols.unpack(
            symbol, buffer, MessageHeaderEncoder.ENCODED_LENGTH + OrderExecutedEncoder.symbolEncodingOffset());
        executed.quantity(quantity)
            .price(price)
            .takerClientOrderId(takerClientOrderId)
            .takerOrderId(takerOrderId)
            .takerSide(side(takerSide))
            .makerClientOrderId(makerClientOrderId)
            .makerOrderId(makerOrderId)
            .makerLeavesQuantity(makerLeaves)
            .takerLeavesQuantity(takerLeaves)
            .crossType(crossType.code());
        publish(MessageHeaderEncoder.ENCODED_LENGTH + executed.encodedLength());
        metrics.executed.inc();
        executions.record(
            matchNumber, symbol, quantity, price, takerClientOrderId, takerOrderId, makerClientOrderId, makerOrderId,
            CrossType.CLOSING == crossType);
    }

    /**
     * Publishes TradeBroken for a recorded execution (OUCH 4.2 and ITCH 5.0 Broken Trade downstream).
     *
     * @param index  the broken execution's index in the shard's {@link Executions}.
     * @param reason OUCH 4.2 Broken Trade reason: E erroneous, C consent, S supervisory, X external.
     */
    void tradeBroken(final int index, final byte reason)
    {
        tradeBroken.wrapAndApplyHeader(buffer, 0, header)
            .sequenceNumber(++sequenceNumber)
            .timestampNs(timestampNs)
            .matchNumber(executions.matchNumber(index));
        Symbols.unpack(executions.symbol(index), buffer,
            MessageHeaderEncoder.ENCODED_LENGTH + TradeBrokenEncoder.symbolEncodingOffset());
        tradeBroken.quantity(executions.quantity(index))
            .price(executions.price(index))
            .takerClientOrderId(executions.takerClientOrderId(index))
            .makerClientOrderId(executions.makerClientOrderId(index))
            .takerOrderId(executions.takerOrderId(index))
            .makerOrderId(executions.makerOrderId(index))
            .reason(reason);
        publish(MessageHeaderEncoder.ENCODED_LENGTH + tradeBroken.encodedLength());
        metrics.tradeBroken.inc();
    }

    @Override
    public void onOrderCanceled(
        final long clientOrderId, final long orderId, final long symbol, final long canceledQuantity,
        final long leaves, final byte reason, final boolean wasResting)
    {
        canceled.wrapAndApplyHeader(buffer, 0, header)
            .sequenceNumber(++sequenceNumber)
            .timestampNs(timestampNs)
            .clientOrderId(clientOrderId)
            .orderId(orderId);
        Symbols.unpack(
            symbol, buffer, MessageHeaderEncoder.ENCODED_LENGTH + OrderCanceledEncoder.symbolEncodingOffset());
        canceled.canceledQuantity(canceledQuantity)
            .leavesQuantity(leaves)
            .reason(reason)
            .wasResting((short)(wasResting ? 1 : 0));
        publish(MessageHeaderEncoder.ENCODED_LENGTH + canceled.encodedLength());
        metrics.canceled.inc();
    }

    @Override
    public void onOrderReplaced(
        final long clientOrderId, final long newClientOrderId, final long orderId, final long newOrderId,
        final long symbol, final Side side, final long quantity, final long price, final BookUpdate bookUpdate,
        final Display display)
    {
        replaced(clientOrderId, newClientOrderId, orderId, newOrderId, symbol, side, quantity, price, bookUpdate,
            display, CrossType.NONE);
    }

    @Override
    public void onCrossOrderReplaced(
        final long clientOrderId, final long newClientOrderId, final long orderId, final long newOrderId,
        final long symbol, final Side side, final long quantity, final long price, final Display display)
    {
        replaced(clientOrderId, newClientOrderId, orderId, newOrderId, symbol, side, quantity, price,
            BookUpdate.REPLACED, display, CrossType.CLOSING);
    }

    private void replaced(
        final long clientOrderId, final long newClientOrderId, final long orderId, final long newOrderId,
        final long symbol, final Side side, final long quantity, final long price, final BookUpdate bookUpdate,
        final Display display, final CrossType crossType)
    {
        replaced.wrapAndApplyHeader(buffer, 0, header)
            .sequenceNumber(++sequenceNumber)
            .timestampNs(timestampNs)
            .clientOrderId(clientOrderId)
            .newClientOrderId(newClientOrderId)
            .orderId(orderId)
            .newOrderId(newOrderId);
        Symbols.unpack(
            symbol, buffer, MessageHeaderEncoder.ENCODED_LENGTH + OrderReplacedEncoder.symbolEncodingOffset());
        replaced.side(side(side))
            .quantity(quantity)
            .price(price)
            .bookUpdate(bookUpdate(bookUpdate))
            .display(display.code())
            .crossType(crossType.code());
        publish(MessageHeaderEncoder.ENCODED_LENGTH + replaced.encodedLength());
        metrics.replaced.inc();
    }

    @Override
    public void onCancelPending(final long clientOrderId, final long orderId, final long symbol)
    {
        cancelPending.wrapAndApplyHeader(buffer, 0, header)
            .sequenceNumber(++sequenceNumber)
            .timestampNs(timestampNs)
            .clientOrderId(clientOrderId)
            .orderId(orderId);
        Symbols.unpack(
            symbol, buffer, MessageHeaderEncoder.ENCODED_LENGTH + CancelPendingEncoder.symbolEncodingOffset());
        publish(MessageHeaderEncoder.ENCODED_LENGTH + cancelPending.encodedLength());
        metrics.cancelPending.inc();
    }

    @Override
    public void onCancelRejected(final long clientOrderId, final long orderId, final long symbol)
    {
        cancelRejected.wrapAndApplyHeader(buffer, 0, header)
            .sequenceNumber(++sequenceNumber)
            .timestampNs(timestampNs)
            .clientOrderId(clientOrderId)
            .orderId(orderId);
        Symbols.unpack(
            symbol, buffer, MessageHeaderEncoder.ENCODED_LENGTH + CancelRejectedEncoder.symbolEncodingOffset());
        publish(MessageHeaderEncoder.ENCODED_LENGTH + cancelRejected.encodedLength());
        metrics.cancelRejected.inc();
    }

    @Override
    public void onCrossCompleted(
        final long symbol, final long price, final long shares, final long matchNumber, final CrossType crossType)
    {
        crossCompleted.wrapAndApplyHeader(buffer, 0, header)
            .sequenceNumber(++sequenceNumber)
            .timestampNs(timestampNs);
        Symbols.unpack(
            symbol, buffer, MessageHeaderEncoder.ENCODED_LENGTH + CrossCompletedEncoder.symbolEncodingOffset());
        crossCompleted.price(price).shares(shares).matchNumber(matchNumber).crossType(crossType.code());
        publish(MessageHeaderEncoder.ENCODED_LENGTH + crossCompleted.encodedLength());
        metrics.crossCompleted.inc();
    }

    @Override
    public void onOrderPriorityUpdated(
        final long clientOrderId, final long orderId, final long symbol, final Side side, final long price,
        final Display display)
    {
        priorityUpdated.wrapAndApplyHeader(buffer, 0, header)
            .sequenceNumber(++sequenceNumber)
            .timestampNs(timestampNs)
            .clientOrderId(clientOrderId)
            .orderId(orderId);
        Symbols.unpack(
            symbol, buffer, MessageHeaderEncoder.ENCODED_LENGTH + OrderPriorityUpdatedEncoder.symbolEncodingOffset());
        priorityUpdated.side(side(side)).price(price).display(display.code());
        publish(MessageHeaderEncoder.ENCODED_LENGTH + priorityUpdated.encodedLength());
        metrics.priorityUpdated.inc();
    }

    @Override
    public void onTradingStateChanged(final long symbol, final TradingState state)
    {
        tradingStateChanged.wrapAndApplyHeader(buffer, 0, header)
            .sequenceNumber(++sequenceNumber)
            .timestampNs(timestampNs);
        Symbols.unpack(
            symbol, buffer, MessageHeaderEncoder.ENCODED_LENGTH + TradingStateChangedEncoder.symbolEncodingOffset());
        tradingStateChanged.state(tradingState(state));
        publish(MessageHeaderEncoder.ENCODED_LENGTH + tradingStateChanged.encodedLength());
        metrics.tradingStateChanged.inc();
    }

    /**
     * Publishes the shard's answer to an admin command, after the command's other events, stamped with the command's
     * timestamp. It carries no sequence number. In recovery it is held, to be matched against the one the replayed
     * run recorded or, when that run died before publishing it, published by the next run with the events it left
     * ({@link #startRun()} leaves it unnumbered); nothing for a run recorded before schema version 7, which answered
     * no admin command ({@link #replayAnswers(boolean)}).
     *
     * @param commandTemplateId the admin command's template id.
     * @param symbol            the command's packed symbol, {@code Symbols.pack("")} (spaces) for one without.
     * @param reject            why the shard refused it, null when applied (OK).
     */
    void adminResponse(final int commandTemplateId, final long symbol, final AdminReject reject)
    {
        if (recovering && !replayAnswers)
        {
            return;
        }
        adminResponse.wrapAndApplyHeader(buffer, 0, header)
            .timestampNs(timestampNs)
            .commandTemplateId(commandTemplateId);
        Symbols.unpack(
            symbol, buffer, MessageHeaderEncoder.ENCODED_LENGTH + AdminResponseEncoder.symbolEncodingOffset());
        adminResponse.code(null == reject ? AdminResponseCode.OK : reject.code());
        publish(MessageHeaderEncoder.ENCODED_LENGTH + adminResponse.encodedLength());
        metrics.adminResponse.inc();
    }

    /**
     * Publishes that a run of the shard started (RunStarted), stamped with the run's start time of day: the run's first
     * event, after those its earlier runs left unpublished. Deterministic (from its StartNumbering), so a recovery
     * replays it like any event.
     *
     * @param shardId       the shard, 0 to 15.
     * @param recoveredRuns earlier runs whose input logs the run replayed; 0 when its books hold no earlier order.
     * @param numberBase    the run's start time in units of {@value EngineNumbering#NANOS_PER_NUMBER} ns since the
     *                      Unix epoch, as its StartNumbering gave it.
     */
    void runStarted(final int shardId, final long recoveredRuns, final long numberBase)
    {
        runStarted.wrapAndApplyHeader(buffer, 0, header)
            .sequenceNumber(++sequenceNumber)
            .timestampNs(EngineNumbering.startEpochNs(numberBase) % MidnightNanoClock.NANOS_PER_DAY)
            .shard((short)shardId)
            .recoveredRuns(recoveredRuns)
            .numberBase(numberBase);
        publish(MessageHeaderEncoder.ENCODED_LENGTH + runStarted.encodedLength());
        metrics.runStarted.inc();
    }

    /**
     * Publishes where the run joined an image of its command stream (CommandStreamJoined), before it polls the image
     * ({@link EngineAgent}): the sending gateway rejects the orders it sent on that publication up to the position
     * and holds unanswered, which a run that died took and no run will answer. Carries no sequence number; held like
     * an event when the stream refuses it, so it stays before the events of the image's commands. Never in recovery:
     * not a command's outcome, a recovery skips it ({@link EngineRecovery}).
     *
     * @param shardId      the shard, 0 to 15.
     * @param sessionId    Aeron session id of the image (the gateway's command publication).
     * @param joinPosition position of the command stream where the run joined, in bytes.
     */
    void commandStreamJoined(final int shardId, final int sessionId, final long joinPosition)
    {
        commandStreamJoined.wrapAndApplyHeader(buffer, 0, header)
            .shard((short)shardId)
            .commandSessionId(sessionId)
            .joinPosition(joinPosition);
        publish(MessageHeaderEncoder.ENCODED_LENGTH + commandStreamJoined.encodedLength());
        metrics.commandStreamJoined.inc();
    }

    private void publish(final int length)
    {
        if (!offerOrHold(length))
        {
            metrics.eventsHeld.inc();
        }
    }

    /**
     * @return true when the message was published at once; false when it was held: in recovery, behind messages held
     * before, or refused by the stream.
     */
    private boolean offerOrHold(final int length)
    {
        if (!recovering && heldPosition == heldLimit &&
            BoundedOffer.offerAcrossRotation(publication, buffer, 0, length) > 0)
        {
            return true;
        }
        held.putInt(heldLimit, length);
        held.putBytes(heldLimit + Integer.BYTES, buffer, 0, length);
        heldLimit += Integer.BYTES + length;
        return false;
    }

    /** @return whether two messages of the same length are equal, byte for byte, but for their header's version. */
    private static boolean equalButVersion(
        final DirectBuffer one, final int oneOffset, final DirectBuffer other, final int otherOffset, final int length)
    {
        final int versionOffset = MessageHeaderEncoder.versionEncodingOffset();
        final int versionEnd = versionOffset + MessageHeaderEncoder.versionEncodingLength();
        return length >= versionEnd && equal(one, oneOffset, other, otherOffset, versionOffset) &&
            equal(one, oneOffset + versionEnd, other, otherOffset + versionEnd, length - versionEnd);
    }

    private static boolean equal(
        final DirectBuffer one, final int oneOffset, final DirectBuffer other, final int otherOffset, final int length)
    {
        int i = 0;
        for (; i <= length - Long.BYTES; i += Long.BYTES)
        {
            if (one.getLong(oneOffset + i) != other.getLong(otherOffset + i))
            {
                return false;
            }
        }
        for (; i < length; i++)
        {
            if (one.getByte(oneOffset + i) != other.getByte(otherOffset + i))
            {
                return false;
            }
        }
        return true;
    }

    private int templateId(final DirectBuffer message, final int offset)
    {
        return recordedHeader.wrap(message, offset).templateId();
    }

    /**
     * @return true for an event, which carries a sequence number; false for an AdminResponse, a SequencedCommand or a
     *         CommandStreamJoined, which carry none ({@link EngineEventTemplates#isNumbered}).
     */
    private boolean isNumbered(final DirectBuffer message, final int offset)
    {
        return EngineEventTemplates.isNumbered(templateId(message, offset));
    }

    private static io.bourse.sbe.engine.Side side(final Side side)
    {
        return side == Side.BUY ? io.bourse.sbe.engine.Side.BUY : io.bourse.sbe.engine.Side.SELL;
    }

    private static io.bourse.sbe.engine.TradingState tradingState(final TradingState state)
    {
        return switch (state)
        {
            case CLOSED -> io.bourse.sbe.engine.TradingState.CLOSED;
            case OPEN -> io.bourse.sbe.engine.TradingState.OPEN;
            case HALTED -> io.bourse.sbe.engine.TradingState.HALTED;
        };
    }

    private static io.bourse.sbe.engine.BookUpdate bookUpdate(final BookUpdate bookUpdate)
    {
        return switch (bookUpdate)
        {
            case REPLACED -> io.bourse.sbe.engine.BookUpdate.REPLACED;
            case REMOVED -> io.bourse.sbe.engine.BookUpdate.REMOVED;
        };
    }
}
