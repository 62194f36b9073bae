package io.bourse.engine;

import io.aeron.logbuffer.ControlledFragmentHandler;
import io.aeron.logbuffer.Header;
import io.bourse.common.config.Symbols;
import io.bourse.engine.match.MatchingEngine;
import io.bourse.engine.match.Side;
import io.bourse.sbe.engine.CancelOrderDecoder;
import io.bourse.sbe.engine.MessageHeaderDecoder;
import io.bourse.sbe.engine.NewOrderDecoder;
import io.bourse.sbe.engine.ReplaceOrderDecoder;
import org.agrona.DirectBuffer;

/**
 * Decodes SBE commands (engine-schema.xml NewOrder, CancelOrder, ReplaceOrder) from the shard's command stream and
 * applies them to the {@link MatchingEngine}, stamping the events with the command's timestamp. A command is only
 * taken when no event of an earlier one is still held back by the event stream; otherwise the poll is aborted and
 * the command stays on the input stream (back pressure reaches the gateways instead of events being lost). Messages
 * of another schema or an
 * unknown template are counted and skipped.
 */
final class CommandAdapter implements ControlledFragmentHandler
{
    private final MatchingEngine engine;
    private final EventProxy eventProxy;
    private final EngineMetrics metrics;
    private final MessageHeaderDecoder header = new MessageHeaderDecoder();
    private final NewOrderDecoder newOrder = new NewOrderDecoder();
    private final CancelOrderDecoder cancelOrder = new CancelOrderDecoder();
    private final ReplaceOrderDecoder replaceOrder = new ReplaceOrderDecoder();

    CommandAdapter(final MatchingEngine engine, final EventProxy eventProxy, final EngineMetrics metrics)
    {
        this.engine = engine;
        this.eventProxy = eventProxy;
        this.metrics = metrics;
    }

    @Override
    public Action onFragment(final DirectBuffer buffer, final int offset, final int length, final Header frameHeader)
    {
        if (!eventProxy.canPublish())
        {
            return Action.ABORT;
        }
        final long startNs = System.nanoTime();
        header.wrap(buffer, offset);
        if (header.schemaId() != MessageHeaderDecoder.SCHEMA_ID)
        {
            metrics.unknownCommands.inc();
            return Action.CONTINUE;
        }
        final int bodyOffset = offset + MessageHeaderDecoder.ENCODED_LENGTH;
        final int blockLength = header.blockLength();
        final int version = header.version();
        switch (header.templateId())
        {
            case NewOrderDecoder.TEMPLATE_ID ->
            {
                newOrder.wrap(buffer, bodyOffset, blockLength, version);
                metrics.newOrders.inc();
                eventProxy.commandTimestamp(newOrder.timestampNs());
                engine.newOrder(
                    newOrder.clientOrderId(),
                    Symbols.pack(buffer, bodyOffset + NewOrderDecoder.symbolEncodingOffset()),
                    newOrder.side() == io.bourse.sbe.engine.Side.BUY ? Side.BUY : Side.SELL,
                    newOrder.quantity(),
                    newOrder.price(),
                    (int)newOrder.timeInForce());
            }
            case CancelOrderDecoder.TEMPLATE_ID ->
            {
                cancelOrder.wrap(buffer, bodyOffset, blockLength, version);
                metrics.cancels.inc();
                eventProxy.commandTimestamp(cancelOrder.timestampNs());
                engine.cancelOrder(cancelOrder.clientOrderId(), cancelOrder.quantity());
            }
            case ReplaceOrderDecoder.TEMPLATE_ID ->
            {
                replaceOrder.wrap(buffer, bodyOffset, blockLength, version);
                metrics.replaces.inc();
                eventProxy.commandTimestamp(replaceOrder.timestampNs());
                engine.replaceOrder(
                    replaceOrder.clientOrderId(),
                    replaceOrder.newClientOrderId(),
                    replaceOrder.quantity(),
                    replaceOrder.price());
            }
            default ->
            {
                metrics.unknownCommands.inc();
                return Action.CONTINUE;
            }
        }
        metrics.serviceTime.recordNs(System.nanoTime() - startNs);
        return Action.CONTINUE;
    }
}
