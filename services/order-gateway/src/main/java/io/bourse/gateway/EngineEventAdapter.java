package io.bourse.gateway;

import io.aeron.logbuffer.FragmentHandler;
import io.aeron.logbuffer.Header;
import io.bourse.common.EngineBlockLengths;
import io.bourse.common.config.Symbols;
import io.bourse.sbe.engine.AdminResponseDecoder;
import io.bourse.sbe.engine.CancelPendingDecoder;
import io.bourse.sbe.engine.CancelRejectedDecoder;
import io.bourse.sbe.engine.CommandStreamJoinedDecoder;
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
import io.bourse.sbe.engine.SequencedCommandDecoder;
import io.bourse.sbe.engine.TradeBrokenDecoder;
import io.bourse.sbe.engine.TradingStateChangedDecoder;
import org.agrona.DirectBuffer;

/**
 * Decodes the SBE events of the engine shards' event streams (engine-schema.xml) and hands those of this gateway's
 * orders to the {@link OrderEntry}; OrderAdded, CrossCompleted and TradingStateChanged are market data only (the owners
 * of the orders in a cross hear of it through their executions and cancels, a trading state reaches order entry as
 * the Rejected reason of the orders it refuses) and are skipped, as are SequencedCommand (the shard's input log) and
 * AdminResponse (its answer to an operator). RunStarted (a shard's new run) goes to the {@link OrderEntry} too, which
 * cancels the shard's orders a run that recovered nothing no longer holds, and so does CommandStreamJoined (where a
 * run joined a gateway's command publication), which rejects the orders an earlier run took and never answered. A
 * message of another schema, an unknown template, a fragment shorter than its header and block, or a block shorter
 * than the fields of its version ({@link EngineBlockLengths}: a RunStarted's recoveredRuns read as 0 would cancel
 * orders) is counted as an error and skipped.
 */
final class EngineEventAdapter implements FragmentHandler
{
    private final MessageHeaderDecoder header = new MessageHeaderDecoder();
    private final OrderAcceptedDecoder accepted = new OrderAcceptedDecoder();
    private final OrderRejectedDecoder rejected = new OrderRejectedDecoder();
    private final OrderExecutedDecoder executed = new OrderExecutedDecoder();
    private final OrderCanceledDecoder canceled = new OrderCanceledDecoder();
    private final OrderReplacedDecoder replaced = new OrderReplacedDecoder();
    private final TradeBrokenDecoder tradeBroken = new TradeBrokenDecoder();
    private final CancelPendingDecoder cancelPending = new CancelPendingDecoder();
    private final OrderPriorityUpdatedDecoder priorityUpdated = new OrderPriorityUpdatedDecoder();
    private final CancelRejectedDecoder cancelRejected = new CancelRejectedDecoder();
    private final RunStartedDecoder runStarted = new RunStartedDecoder();
    private final CommandStreamJoinedDecoder commandStreamJoined = new CommandStreamJoinedDecoder();
    private final GatewayMetrics metrics;
    private OrderEntry orderEntry;

    /**
     * @param metrics counts unknown messages.
     */
    EngineEventAdapter(final GatewayMetrics metrics)
    {
        this.metrics = metrics;
    }

    /**
     * @param orderEntry the trading day's order logic, which receives the events from now on; set before the first.
     */
    void orderEntry(final OrderEntry orderEntry)
    {
        this.orderEntry = orderEntry;
    }

    /** A live event: the stream is the fragment's own Aeron session. */
    @Override
    public void onFragment(final DirectBuffer buffer, final int offset, final int length, final Header frameHeader)
    {
        onEvent(frameHeader.sessionId(), false, buffer, offset, length);
    }

    /**
     * Decodes one event and hands it on.
     *
     * @param engineStream the Aeron session id of the shard's event stream the event was published on (for a replay,
     *                     the recorded stream's, not the replay's).
     * @param replayed     true for an event replayed from the event archive.
     * @param buffer       the event's buffer.
     * @param offset       where its SBE message header starts.
     * @param length       the event's length in bytes, header included.
     */
    void onEvent(
        final int engineStream, final boolean replayed, final DirectBuffer buffer, final int offset, final int length)
    {
        orderEntry.onEngineStream(engineStream, replayed);
        if (length < MessageHeaderDecoder.ENCODED_LENGTH)
        {
            metrics.errors().error(GatewayError.UNKNOWN_EVENT, "event stream", "fragment length", length);
            return;
        }
        header.wrap(buffer, offset);
        if (header.schemaId() != MessageHeaderDecoder.SCHEMA_ID)
        {
            metrics.errors().error(GatewayError.UNKNOWN_EVENT, "event stream", "schema id", header.schemaId());
            return;
        }
        if (!EngineBlockLengths.isWhole(header, length))
        {
            if (metrics.errors().errorToLog(GatewayError.UNKNOWN_EVENT))
            {
                metrics.errors().log(
                    GatewayError.UNKNOWN_EVENT, "event stream", EngineBlockLengths.describe(header, length));
            }
            return;
        }
        final int templateId = header.templateId();
        final int blockLength = header.blockLength();
        final int version = header.version();
        final int bodyOffset = offset + MessageHeaderDecoder.ENCODED_LENGTH;
        switch (templateId)
        {
            case OrderAcceptedDecoder.TEMPLATE_ID ->
            {
                accepted.wrap(buffer, bodyOffset, blockLength, version);
                orderEntry.onOrderAccepted(accepted.timestampNs(), accepted.sequenceNumber(), accepted.clientOrderId(),
                    accepted.orderId(), accepted.quantity(), accepted.price(), accepted.display());
            }
            case OrderRejectedDecoder.TEMPLATE_ID ->
            {
                rejected.wrap(buffer, bodyOffset, blockLength, version);
                orderEntry.onOrderRejected(rejected.timestampNs(), rejected.sequenceNumber(), rejected.clientOrderId(),
                    rejected.reason());
            }
            case OrderExecutedDecoder.TEMPLATE_ID ->
            {
                executed.wrap(buffer, bodyOffset, blockLength, version);
                orderEntry.onOrderExecuted(executed.timestampNs(), executed.sequenceNumber(), executed.matchNumber(),
                    Symbols.pack(buffer, executed.offset() + OrderExecutedDecoder.symbolEncodingOffset()),
                    executed.quantity(), executed.price(), executed.takerClientOrderId(),
                    executed.takerLeavesQuantity(), executed.makerClientOrderId(), executed.makerLeavesQuantity(),
                    executed.crossType());
            }
            case OrderCanceledDecoder.TEMPLATE_ID ->
            {
                canceled.wrap(buffer, bodyOffset, blockLength, version);
                orderEntry.onOrderCanceled(canceled.timestampNs(), canceled.sequenceNumber(),
                    canceled.clientOrderId(), canceled.canceledQuantity(), canceled.leavesQuantity(),
                    canceled.reason(), 0 != canceled.wasResting());
            }
            case OrderReplacedDecoder.TEMPLATE_ID ->
            {
                replaced.wrap(buffer, bodyOffset, blockLength, version);
                orderEntry.onOrderReplaced(replaced.timestampNs(), replaced.sequenceNumber(), replaced.clientOrderId(),
                    replaced.newClientOrderId(), replaced.newOrderId(), replaced.quantity(), replaced.price());
            }
            case TradeBrokenDecoder.TEMPLATE_ID ->
            {
                tradeBroken.wrap(buffer, bodyOffset, blockLength, version);
                orderEntry.onTradeBroken(tradeBroken.timestampNs(), tradeBroken.sequenceNumber(),
                    tradeBroken.matchNumber(),
                    Symbols.pack(buffer, tradeBroken.offset() + TradeBrokenDecoder.symbolEncodingOffset()),
                    tradeBroken.takerClientOrderId(), tradeBroken.makerClientOrderId(), tradeBroken.reason());
            }
            case CancelPendingDecoder.TEMPLATE_ID ->
            {
                cancelPending.wrap(buffer, bodyOffset, blockLength, version);
                orderEntry.onCancelPending(cancelPending.timestampNs(), cancelPending.sequenceNumber(),
                    cancelPending.clientOrderId());
            }
            case OrderPriorityUpdatedDecoder.TEMPLATE_ID ->
            {
                priorityUpdated.wrap(buffer, bodyOffset, blockLength, version);
                orderEntry.onOrderPriorityUpdated(priorityUpdated.timestampNs(), priorityUpdated.sequenceNumber(),
                    priorityUpdated.clientOrderId(), priorityUpdated.price(), priorityUpdated.display());
            }
            case CancelRejectedDecoder.TEMPLATE_ID ->
            {
                cancelRejected.wrap(buffer, bodyOffset, blockLength, version);
                orderEntry.onCancelRejected(cancelRejected.timestampNs(), cancelRejected.sequenceNumber(),
                    cancelRejected.clientOrderId());
            }
            case RunStartedDecoder.TEMPLATE_ID ->
            {
                runStarted.wrap(buffer, bodyOffset, blockLength, version);
                orderEntry.onRunStarted(runStarted.timestampNs(), runStarted.sequenceNumber(), runStarted.shard(),
                    runStarted.recoveredRuns(), runStarted.numberBase());
            }
            case CommandStreamJoinedDecoder.TEMPLATE_ID ->
            {
                commandStreamJoined.wrap(buffer, bodyOffset, blockLength, version);
                orderEntry.onCommandStreamJoined(commandStreamJoined.shard(), commandStreamJoined.commandSessionId(),
                    commandStreamJoined.joinPosition());
            }
            case OrderAddedDecoder.TEMPLATE_ID, CrossCompletedDecoder.TEMPLATE_ID,
                TradingStateChangedDecoder.TEMPLATE_ID ->
            {
                // Market data: the owner already had Accepted (or Replaced), or its cross executions and cancels; a
                // symbol's trading state reaches order entry as the Rejected reason of each order it refuses.
            }
            case SequencedCommandDecoder.TEMPLATE_ID ->
            {
                // The shard's input log, for its own recovery: the gateway hears the command's outcome in its events.
            }
            case AdminResponseDecoder.TEMPLATE_ID ->
            {
                // The shard's answer to an operator's admin command (bourse admin), not to an order.
            }
            default -> metrics.errors().error(GatewayError.UNKNOWN_EVENT, "event stream", "template id", templateId);
        }
    }
}
