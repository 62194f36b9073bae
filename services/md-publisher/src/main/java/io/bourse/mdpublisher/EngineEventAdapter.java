package io.bourse.mdpublisher;

import io.aeron.logbuffer.FragmentHandler;
import io.aeron.logbuffer.Header;
import io.bourse.common.EngineBlockLengths;
import io.bourse.common.EngineEventTemplates;
import io.bourse.common.EngineNumbering;
import io.bourse.common.config.Symbols;
import io.bourse.common.metrics.ErrorKinds;
import io.bourse.itch.ItchTranslator;
import io.bourse.sbe.engine.BookUpdate;
import io.bourse.sbe.engine.CancelPendingDecoder;
import io.bourse.sbe.engine.CancelRejectedDecoder;
import io.bourse.sbe.engine.CrossCompletedDecoder;
import io.bourse.sbe.engine.MessageHeaderDecoder;
import io.bourse.sbe.engine.OrderAcceptedDecoder;
import io.bourse.sbe.engine.OrderAddedDecoder;
import io.bourse.sbe.engine.OrderCanceledDecoder;
import io.bourse.sbe.engine.OrderExecutedDecoder;
import io.bourse.sbe.engine.OrderPriorityUpdatedDecoder;
import io.bourse.sbe.engine.OrderRejectedDecoder;
import io.bourse.sbe.engine.OrderReplacedDecoder;
import io.bourse.sbe.engine.RunStartedDecoder;
import io.bourse.sbe.engine.TradeBrokenDecoder;
import io.bourse.sbe.engine.TradingState;
import io.bourse.sbe.engine.TradingStateChangedDecoder;
import org.agrona.DirectBuffer;

import java.nio.ByteOrder;

/**
 * Decodes engine events (schemas/engine-schema.xml, version 10 and the versions before it; an OrderReplaced with
 * BookUpdate 0, which engines no longer send, counts as malformed) from the shards' event streams and hands the book
 * changes, the end of each closing cross and each change of a symbol's trading state to an {@link EngineEventListener}.
 * Every event is counted by type; OrderAccepted, OrderRejected, CancelPending and CancelRejected stop there (the last
 * two leave the order as it was), and so do OrderPriorityUpdated (a midpoint peg, never displayed, works at a new price
 * under the same reference number), the OrderReplaced of a closing-cross order (in no market-data book) and the
 * RunStarted of a run that recovered earlier runs (it holds their orders). A RunStarted that recovered none takes their
 * orders off the books of its shard's symbols ({@link EngineEventListener#onEarlierRunsLost}); one of a shard the
 * md-publisher does not know is an error. An OrderExecuted with crossType C is a cross execution; N, or none from a
 * version 1 shard, a continuous one. A message of another schema, an unknown template, a short fragment, a block
 * shorter than the fields of its version ({@link EngineBlockLengths}: a RunStarted's recoveredRuns read as 0 would
 * delete orders) or an invalid side, book update, display, cross type (CrossCompleted: C only, the one cross Bourse
 * runs) or trading state is counted as an error and skipped. A SequencedCommand (the shard's input log, for its own
 * recovery), an AdminResponse (its answer to an operator's admin command) and a CommandStreamJoined (where a run joined
 * a gateway's command stream) are skipped uncounted ({@link EngineEventTemplates#isNumbered}). One preallocated decoder
 * per template; allocates nothing but the description of the first error of each kind, the one logged ({@link
 * MdPublisherError}).
 */
final class EngineEventAdapter implements FragmentHandler
{
    /** OUCH 4.2 Cross Type of the continuous market. */
    private static final byte CROSS_TYPE_CONTINUOUS = 'N';
    /** OUCH 4.2 Cross Type of the closing cross. */
    private static final byte CROSS_TYPE_CLOSING = 'C';
    /** The trading states a shard sends. */
    private static final TradingState[] TRADING_STATES = {TradingState.CLOSED, TradingState.OPEN, TradingState.HALTED};
    /** {@link EngineEventListener#onOrderAdded} attribution of an anonymous order. */
    private static final int NO_ATTRIBUTION = 0;

    private final MessageHeaderDecoder headerDecoder = new MessageHeaderDecoder();
    private final OrderAddedDecoder orderAdded = new OrderAddedDecoder();
    private final OrderExecutedDecoder orderExecuted = new OrderExecutedDecoder();
    private final OrderCanceledDecoder orderCanceled = new OrderCanceledDecoder();
    private final OrderReplacedDecoder orderReplaced = new OrderReplacedDecoder();
    private final TradeBrokenDecoder tradeBroken = new TradeBrokenDecoder();
    private final CrossCompletedDecoder crossCompleted = new CrossCompletedDecoder();
    private final TradingStateChangedDecoder tradingStateChanged = new TradingStateChangedDecoder();
    private final RunStartedDecoder runStarted = new RunStartedDecoder();
    private final EngineEventListener listener;
    private final long[][] shardSymbols;
    private final MdPublisherMetrics metrics;
    private final ErrorKinds<MdPublisherError> errors;

    /**
     * @param listener     receives the book changes.
     * @param shardSymbols per engine shard, its packed symbols: the books a RunStarted that recovered no earlier run
     *                     clears.
     * @param metrics      counts events by type.
     * @param errors       counts every message that cannot be processed.
     */
    EngineEventAdapter(
        final EngineEventListener listener, final long[][] shardSymbols, final MdPublisherMetrics metrics,
        final ErrorKinds<MdPublisherError> errors)
    {
        this.listener = listener;
        this.shardSymbols = shardSymbols;
        this.metrics = metrics;
        this.errors = errors;
    }

    /** Decodes one engine event. */
    @Override
    public void onFragment(final DirectBuffer buffer, final int offset, final int length, final Header header)
    {
        if (length < MessageHeaderDecoder.ENCODED_LENGTH)
        {
            errors.error(MdPublisherError.UNREADABLE_EVENT, "event stream", "fragment length", length);
            return;
        }
        headerDecoder.wrap(buffer, offset);
        final int templateId = headerDecoder.templateId();
        if (headerDecoder.schemaId() != MessageHeaderDecoder.SCHEMA_ID ||
            !EngineBlockLengths.isWhole(headerDecoder, length))
        {
            if (errors.errorToLog(MdPublisherError.UNREADABLE_EVENT))
            {
                errors.log(MdPublisherError.UNREADABLE_EVENT, "event stream",
                    EngineBlockLengths.describe(headerDecoder, length));
            }
            return;
        }
        if (!EngineEventTemplates.isNumbered(templateId))
        {
            return; // the shard's input log, its answers to admin commands, its runs' joins: no market data
        }
        final int bodyOffset = offset + MessageHeaderDecoder.ENCODED_LENGTH;
        final int blockLength = headerDecoder.blockLength();
        final int version = headerDecoder.version();
        final boolean decoded = switch (templateId)
        {
            case OrderAcceptedDecoder.TEMPLATE_ID, OrderRejectedDecoder.TEMPLATE_ID,
                CancelPendingDecoder.TEMPLATE_ID, CancelRejectedDecoder.TEMPLATE_ID,
                OrderPriorityUpdatedDecoder.TEMPLATE_ID -> true;
            case RunStartedDecoder.TEMPLATE_ID -> onRunStarted(buffer, bodyOffset, blockLength, version);
            case OrderAddedDecoder.TEMPLATE_ID -> onOrderAdded(buffer, bodyOffset, blockLength, version);
            case OrderExecutedDecoder.TEMPLATE_ID -> onOrderExecuted(buffer, bodyOffset, blockLength, version);
            case OrderCanceledDecoder.TEMPLATE_ID -> onOrderCanceled(buffer, bodyOffset, blockLength, version);
            case OrderReplacedDecoder.TEMPLATE_ID -> onOrderReplaced(buffer, bodyOffset, blockLength, version);
            case TradeBrokenDecoder.TEMPLATE_ID -> onTradeBroken(buffer, bodyOffset, blockLength, version);
            case CrossCompletedDecoder.TEMPLATE_ID -> onCrossCompleted(buffer, bodyOffset, blockLength, version);
            case TradingStateChangedDecoder.TEMPLATE_ID ->
                onTradingStateChanged(buffer, bodyOffset, blockLength, version);
            default -> false;
        };
        if (decoded)
        {
            metrics.onEventIn(templateId);
        }
        else if (errors.errorToLog(MdPublisherError.INVALID_EVENT))
        {
            errors.log(MdPublisherError.INVALID_EVENT, "event stream",
                EngineBlockLengths.describe(headerDecoder, length) + (blockLength < Long.BYTES ? "" :
                " sequence number " + buffer.getLong(bodyOffset, ByteOrder.LITTLE_ENDIAN)));
        }
    }

    private boolean onRunStarted(final DirectBuffer buffer, final int offset, final int blockLength, final int version)
    {
        final RunStartedDecoder decoder = runStarted.wrap(buffer, offset, blockLength, version);
        final int shard = decoder.shard();
        if (shard >= shardSymbols.length)
        {
            return false;
        }
        if (0 == decoder.recoveredRuns())
        {
            listener.onEarlierRunsLost(
                decoder.timestampNs(), shardSymbols[shard], EngineNumbering.firstOfRun(decoder.numberBase()));
        }
        return true;
    }

    private boolean onTradeBroken(final DirectBuffer buffer, final int offset, final int blockLength, final int version)
    {
        final TradeBrokenDecoder decoder = tradeBroken.wrap(buffer, offset, blockLength, version);
        listener.onTradeBroken(
            decoder.timestampNs(),
            decoder.matchNumber(),
            Symbols.pack(buffer, offset + TradeBrokenDecoder.symbolEncodingOffset()));
        return true;
    }

    private boolean onCrossCompleted(
        final DirectBuffer buffer, final int offset, final int blockLength, final int version)
    {
        final CrossCompletedDecoder decoder = crossCompleted.wrap(buffer, offset, blockLength, version);
        if (CROSS_TYPE_CLOSING != decoder.crossType())
        {
            return false;
        }
        listener.onCrossCompleted(
            decoder.timestampNs(),
            Symbols.pack(buffer, offset + CrossCompletedDecoder.symbolEncodingOffset()),
            decoder.shares(),
            decoder.price(),
            decoder.matchNumber());
        return true;
    }

    private boolean onTradingStateChanged(
        final DirectBuffer buffer, final int offset, final int blockLength, final int version)
    {
        final TradingStateChangedDecoder decoder = tradingStateChanged.wrap(buffer, offset, blockLength, version);
        final TradingState state = tradingState(decoder.stateRaw());
        if (null == state)
        {
            return false;
        }
        listener.onTradingStateChanged(decoder.timestampNs(),
            Symbols.pack(buffer, offset + TradingStateChangedDecoder.symbolEncodingOffset()), state);
        return true;
    }

    private boolean onOrderAdded(final DirectBuffer buffer, final int offset, final int blockLength, final int version)
    {
        final OrderAddedDecoder decoder = orderAdded.wrap(buffer, offset, blockLength, version);
        final Side side = side(decoder.sideRaw());
        final byte display = decoder.display();
        if (null == side || !isDisplayCode(display))
        {
            return false;
        }
        listener.onOrderAdded(
            decoder.timestampNs(),
            decoder.orderId(),
            Symbols.pack(buffer, offset + OrderAddedDecoder.symbolEncodingOffset()),
            side,
            decoder.quantity(),
            decoder.price(),
            isDisplayed(display),
            'A' == display ? firm(buffer, offset, version) : NO_ATTRIBUTION);
        return true;
    }

    /** @return the OrderAdded's firm packed big-endian; 0 when blank or from a sender before schema version 3. */
    private static int firm(final DirectBuffer buffer, final int offset, final int version)
    {
        if (version < OrderAddedDecoder.firmSinceVersion())
        {
            return NO_ATTRIBUTION;
        }
        final int firm = buffer.getInt(offset + OrderAddedDecoder.firmEncodingOffset(), ByteOrder.BIG_ENDIAN);
        // Four spaces, like an anonymous Attribution, are no firm too.
        return ItchTranslator.ANONYMOUS_ATTRIBUTION == firm ? NO_ATTRIBUTION : firm;
    }

    private boolean onOrderExecuted(
        final DirectBuffer buffer, final int offset, final int blockLength, final int version)
    {
        final OrderExecutedDecoder decoder = orderExecuted.wrap(buffer, offset, blockLength, version);
        final byte crossType = decoder.crossType();
        final long symbol = Symbols.pack(buffer, offset + OrderExecutedDecoder.symbolEncodingOffset());
        if (CROSS_TYPE_CLOSING == crossType)
        {
            listener.onCrossExecuted(
                decoder.timestampNs(),
                decoder.matchNumber(),
                symbol,
                decoder.quantity(),
                decoder.price(),
                decoder.makerOrderId(),
                decoder.makerLeavesQuantity());
            return true;
        }
        final Side takerSide = side(decoder.takerSideRaw());
        if (null == takerSide || !isContinuous(crossType))
        {
            return false;
        }
        listener.onOrderExecuted(
            decoder.timestampNs(),
            decoder.matchNumber(),
            symbol,
            decoder.quantity(),
            decoder.price(),
            takerSide,
            decoder.takerOrderId(),
            decoder.takerLeavesQuantity(),
            decoder.makerOrderId(),
            decoder.makerLeavesQuantity());
        return true;
    }

    private boolean onOrderCanceled(
        final DirectBuffer buffer, final int offset, final int blockLength, final int version)
    {
        final OrderCanceledDecoder decoder = orderCanceled.wrap(buffer, offset, blockLength, version);
        listener.onOrderCanceled(
            decoder.timestampNs(),
            decoder.orderId(),
            Symbols.pack(buffer, offset + OrderCanceledDecoder.symbolEncodingOffset()),
            decoder.canceledQuantity(),
            decoder.leavesQuantity(),
            1 == decoder.wasResting());
        return true;
    }

    private boolean onOrderReplaced(
        final DirectBuffer buffer, final int offset, final int blockLength, final int version)
    {
        final OrderReplacedDecoder decoder = orderReplaced.wrap(buffer, offset, blockLength, version);
        final byte crossType = decoder.crossType();
        if (CROSS_TYPE_CLOSING == crossType)
        {
            return true;
        }
        final Side side = side(decoder.sideRaw());
        final ReplaceKind kind = replaceKind(decoder.bookUpdateRaw());
        if (null == side || null == kind || !isContinuous(crossType))
        {
            return false;
        }
        listener.onOrderReplaced(
            decoder.timestampNs(),
            decoder.orderId(),
            decoder.newOrderId(),
            Symbols.pack(buffer, offset + OrderReplacedDecoder.symbolEncodingOffset()),
            side,
            decoder.quantity(),
            decoder.price(),
            kind);
        return true;
    }

    /**
     * @param crossType an event's OUCH 4.2 Cross Type.
     * @return true for N, the continuous market, and for the null value that a version 1 shard's event reads as.
     */
    private static boolean isContinuous(final byte crossType)
    {
        return CROSS_TYPE_CONTINUOUS == crossType || OrderExecutedDecoder.crossTypeNullValue() == crossType;
    }

    /** @return true for the OUCH 4.2 Display codes the engine produces: A, Y, P displayed; N, M not displayed. */
    private static boolean isDisplayCode(final byte display)
    {
        return isDisplayed(display) || 'N' == display || 'M' == display;
    }

    /** @return true for attributable, anonymous and post-only orders, which show in market data. */
    private static boolean isDisplayed(final byte display)
    {
        return 'A' == display || 'Y' == display || 'P' == display;
    }

    private static TradingState tradingState(final short raw)
    {
        for (final TradingState state : TRADING_STATES)
        {
            if (raw == state.value())
            {
                return state;
            }
        }
        return null;
    }

    private static Side side(final byte raw)
    {
        if (raw == io.bourse.sbe.engine.Side.BUY.value())
        {
            return Side.BUY;
        }
        if (raw == io.bourse.sbe.engine.Side.SELL.value())
        {
            return Side.SELL;
        }
        return null;
    }

    private static ReplaceKind replaceKind(final short raw)
    {
        if (raw == BookUpdate.REPLACED.value())
        {
            return ReplaceKind.REPLACED;
        }
        if (raw == BookUpdate.REMOVED.value())
        {
            return ReplaceKind.REMOVED;
        }
        return null;
    }
}
