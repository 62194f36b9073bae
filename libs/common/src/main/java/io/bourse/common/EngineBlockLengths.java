package io.bourse.common;

import io.bourse.sbe.engine.AdminResponseDecoder;
import io.bourse.sbe.engine.BreakTradeDecoder;
import io.bourse.sbe.engine.CancelOrderDecoder;
import io.bourse.sbe.engine.CancelPendingDecoder;
import io.bourse.sbe.engine.CancelRejectedDecoder;
import io.bourse.sbe.engine.ClockTickDecoder;
import io.bourse.sbe.engine.CommandStreamJoinedDecoder;
import io.bourse.sbe.engine.CrossCompletedDecoder;
import io.bourse.sbe.engine.CrossLockDecoder;
import io.bourse.sbe.engine.MessageHeaderDecoder;
import io.bourse.sbe.engine.NewOrderDecoder;
import io.bourse.sbe.engine.OrderAcceptedDecoder;
import io.bourse.sbe.engine.OrderAddedDecoder;
import io.bourse.sbe.engine.OrderCanceledDecoder;
import io.bourse.sbe.engine.OrderExecutedDecoder;
import io.bourse.sbe.engine.OrderPriorityUpdatedDecoder;
import io.bourse.sbe.engine.OrderRejectedDecoder;
import io.bourse.sbe.engine.OrderReplacedDecoder;
import io.bourse.sbe.engine.ReplaceOrderDecoder;
import io.bourse.sbe.engine.RunCrossDecoder;
import io.bourse.sbe.engine.RunStartedDecoder;
import io.bourse.sbe.engine.SequencedCommandDecoder;
import io.bourse.sbe.engine.SetPriceBandDecoder;
import io.bourse.sbe.engine.SetSelfTradePreventionDecoder;
import io.bourse.sbe.engine.SetTradingStateDecoder;
import io.bourse.sbe.engine.StartNumberingDecoder;
import io.bourse.sbe.engine.TradeBrokenDecoder;
import io.bourse.sbe.engine.TradingStateChangedDecoder;

/**
 * The block length each message of the engine schema (schemas/engine-schema.xml, versions 0 to 10) needs at the
 * version it was encoded at: the bytes of every field that version has. SBE adds a field only at the end of its
 * message's block and reads a field newer than the acting version as its null value, so a block of a later version
 * may be longer (its new fields are skipped) and one of an earlier version shorter. But the generated decoders read
 * each field at its fixed offset whatever block length the header gives, so a block shorter than its version's
 * fields, which no engine of this schema encodes, would have its last fields read past its end: in a live term, from
 * the message after it; in a replay, which wraps each message to its length, out of bounds. The engine checks its
 * commands with {@link #isWhole}, the order gateway and the md-publisher their events; each counts and skips a
 * message that is not.
 */
public final class EngineBlockLengths
{
    private EngineBlockLengths()
    {
    }

    /**
     * Whether a message can be read whole: its fragment holds the block its header gives, and that block holds every
     * field its template has at its version ({@link #requiredBlockLength}).
     *
     * @param header the message's header, wrapped on a fragment at least {@link MessageHeaderDecoder#ENCODED_LENGTH}
     *               bytes long.
     * @param length the fragment's length in bytes, the header's included.
     * @return false for a message that would be read past its fragment or its block.
     */
    public static boolean isWhole(final MessageHeaderDecoder header, final int length)
    {
        final int blockLength = header.blockLength();
        return length >= MessageHeaderDecoder.ENCODED_LENGTH + blockLength &&
            blockLength >= requiredBlockLength(header.templateId(), header.version());
    }

    /**
     * Describes a message {@link #isWhole} refused, for the log line of the first such error.
     *
     * @param header the message's header, wrapped.
     * @param length the fragment's length in bytes, the header's included.
     * @return its header's schema id, template id, version and block length (bytes), and the fragment's length.
     */
    public static String describe(final MessageHeaderDecoder header, final int length)
    {
        return "schema " + header.schemaId() + " template " + header.templateId() + " version " + header.version() +
            " block length " + header.blockLength() + " fragment length " + length;
    }

    /**
     * @param templateId the message header's template id.
     * @param version    the message header's version (the schema version the message was encoded at).
     * @return the smallest block length, in bytes, that holds every field of the template at that version; 0 for a
     * template the schema does not have (the reader's own check refuses it).
     */
    public static int requiredBlockLength(final int templateId, final int version)
    {
        return switch (templateId)
        {
            case NewOrderDecoder.TEMPLATE_ID -> version >= NewOrderDecoder.crossTypeSinceVersion() ?
                NewOrderDecoder.BLOCK_LENGTH : version >= NewOrderDecoder.minimumQuantitySinceVersion() ?
                NewOrderDecoder.crossTypeEncodingOffset() : NewOrderDecoder.minimumQuantityEncodingOffset();
            case ReplaceOrderDecoder.TEMPLATE_ID -> version >= ReplaceOrderDecoder.timeInForceSinceVersion() ?
                ReplaceOrderDecoder.BLOCK_LENGTH : ReplaceOrderDecoder.timeInForceEncodingOffset();
            case StartNumberingDecoder.TEMPLATE_ID -> version >= StartNumberingDecoder.recoveredRunsSinceVersion() ?
                StartNumberingDecoder.BLOCK_LENGTH : StartNumberingDecoder.recoveredRunsEncodingOffset();
            case OrderAcceptedDecoder.TEMPLATE_ID -> version >= OrderAcceptedDecoder.displaySinceVersion() ?
                OrderAcceptedDecoder.BLOCK_LENGTH : OrderAcceptedDecoder.displayEncodingOffset();
            case OrderAddedDecoder.TEMPLATE_ID -> version >= OrderAddedDecoder.firmSinceVersion() ?
                OrderAddedDecoder.BLOCK_LENGTH : version >= OrderAddedDecoder.displaySinceVersion() ?
                OrderAddedDecoder.firmEncodingOffset() : OrderAddedDecoder.displayEncodingOffset();
            case OrderExecutedDecoder.TEMPLATE_ID -> version >= OrderExecutedDecoder.crossTypeSinceVersion() ?
                OrderExecutedDecoder.BLOCK_LENGTH : OrderExecutedDecoder.crossTypeEncodingOffset();
            case OrderReplacedDecoder.TEMPLATE_ID -> version >= OrderReplacedDecoder.crossTypeSinceVersion() ?
                OrderReplacedDecoder.BLOCK_LENGTH : version >= OrderReplacedDecoder.displaySinceVersion() ?
                OrderReplacedDecoder.crossTypeEncodingOffset() : OrderReplacedDecoder.displayEncodingOffset();
            case SequencedCommandDecoder.TEMPLATE_ID ->
                version >= SequencedCommandDecoder.commandSessionIdSinceVersion() ?
                SequencedCommandDecoder.BLOCK_LENGTH : SequencedCommandDecoder.commandSessionIdEncodingOffset();
            case CancelOrderDecoder.TEMPLATE_ID -> CancelOrderDecoder.BLOCK_LENGTH;
            case ClockTickDecoder.TEMPLATE_ID -> ClockTickDecoder.BLOCK_LENGTH;
            case SetTradingStateDecoder.TEMPLATE_ID -> SetTradingStateDecoder.BLOCK_LENGTH;
            case SetPriceBandDecoder.TEMPLATE_ID -> SetPriceBandDecoder.BLOCK_LENGTH;
            case SetSelfTradePreventionDecoder.TEMPLATE_ID -> SetSelfTradePreventionDecoder.BLOCK_LENGTH;
            case BreakTradeDecoder.TEMPLATE_ID -> BreakTradeDecoder.BLOCK_LENGTH;
            case CrossLockDecoder.TEMPLATE_ID -> CrossLockDecoder.BLOCK_LENGTH;
            case RunCrossDecoder.TEMPLATE_ID -> RunCrossDecoder.BLOCK_LENGTH;
            case OrderRejectedDecoder.TEMPLATE_ID -> OrderRejectedDecoder.BLOCK_LENGTH;
            case OrderCanceledDecoder.TEMPLATE_ID -> OrderCanceledDecoder.BLOCK_LENGTH;
            case TradeBrokenDecoder.TEMPLATE_ID -> TradeBrokenDecoder.BLOCK_LENGTH;
            case CancelPendingDecoder.TEMPLATE_ID -> CancelPendingDecoder.BLOCK_LENGTH;
            case CancelRejectedDecoder.TEMPLATE_ID -> CancelRejectedDecoder.BLOCK_LENGTH;
            case CrossCompletedDecoder.TEMPLATE_ID -> CrossCompletedDecoder.BLOCK_LENGTH;
            case OrderPriorityUpdatedDecoder.TEMPLATE_ID -> OrderPriorityUpdatedDecoder.BLOCK_LENGTH;
            case TradingStateChangedDecoder.TEMPLATE_ID -> TradingStateChangedDecoder.BLOCK_LENGTH;
            case RunStartedDecoder.TEMPLATE_ID -> RunStartedDecoder.BLOCK_LENGTH;
            case AdminResponseDecoder.TEMPLATE_ID -> AdminResponseDecoder.BLOCK_LENGTH;
            case CommandStreamJoinedDecoder.TEMPLATE_ID -> CommandStreamJoinedDecoder.BLOCK_LENGTH;
            default -> 0;
        };
    }
}
