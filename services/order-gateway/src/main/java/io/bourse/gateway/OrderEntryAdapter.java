package io.bourse.gateway;

import io.bourse.ouch.CancelOrder;
import io.bourse.ouch.EnterOrder;
import io.bourse.ouch.ModifyOrder;
import io.bourse.ouch.ReplaceOrder;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteBuffer;

/**
 * Decodes the OUCH 4.2 inbound messages of a logged-in session (the payloads of SoupBinTCP Unsequenced Data: Enter
 * Order, Replace Order, Cancel Order, Modify Order) and hands them to the {@link OrderEntry}, with the end of each
 * session. Checks the exact length of each message type before reading it; an unknown type or a wrong length is
 * counted and reported to the caller, which closes the connection.
 */
final class OrderEntryAdapter
{
    /** Outcome of {@link #onMessage}: the message was handled. */
    static final int OK = 0;
    /** Outcome of {@link #onMessage}: the message type is not an OUCH 4.2 inbound type. */
    static final int UNKNOWN_TYPE = 1;
    /** Outcome of {@link #onMessage}: the length does not match the message type. */
    static final int WRONG_LENGTH = 2;

    private final UnsafeBuffer payloadBuffer = new UnsafeBuffer(0, 0);
    private final EnterOrder enterOrder = new EnterOrder();
    private final ReplaceOrder replaceOrder = new ReplaceOrder();
    private final CancelOrder cancelOrder = new CancelOrder();
    private final ModifyOrder modifyOrder = new ModifyOrder();
    private final OrderEntry orderEntry;
    private final GatewayMetrics metrics;

    /**
     * @param orderEntry receives the decoded requests.
     * @param metrics    counts messages in by type.
     */
    OrderEntryAdapter(final OrderEntry orderEntry, final GatewayMetrics metrics)
    {
        this.orderEntry = orderEntry;
        this.metrics = metrics;
    }

    /**
     * A user's session ended (logout, dropped connection, heartbeat timeout, protocol error or gateway stop).
     *
     * @param session the session whose connection just closed.
     */
    void onSessionEnd(final UserSession session)
    {
        orderEntry.onSessionEnd(session);
    }

    /**
     * @param session the logged-in sender.
     * @param payload the message, position to limit (a direct buffer, as nassau delivers it).
     * @return {@link #OK}, {@link #UNKNOWN_TYPE} or {@link #WRONG_LENGTH}.
     */
    int onMessage(final UserSession session, final ByteBuffer payload)
    {
        final int length = payload.remaining();
        if (0 == length)
        {
            metrics.unknownIn.inc();
            return WRONG_LENGTH;
        }
        payloadBuffer.wrap(payload, payload.position(), length);
        return onMessage(session, payloadBuffer, 0, length);
    }

    /**
     * @param session the logged-in sender.
     * @param buffer  holds the message.
     * @param offset  of the message type byte.
     * @param length  of the message, at least 1.
     * @return {@link #OK}, {@link #UNKNOWN_TYPE} or {@link #WRONG_LENGTH}.
     */
    int onMessage(final UserSession session, final DirectBuffer buffer, final int offset, final int length)
    {
        switch (buffer.getByte(offset))
        {
            case EnterOrder.TYPE ->
            {
                metrics.enterOrderIn.inc();
                if (EnterOrder.LENGTH != length)
                {
                    return WRONG_LENGTH;
                }
                orderEntry.onEnterOrder(session, enterOrder.wrap(buffer, offset));
            }
            case ReplaceOrder.TYPE ->
            {
                metrics.replaceOrderIn.inc();
                if (ReplaceOrder.LENGTH != length)
                {
                    return WRONG_LENGTH;
                }
                orderEntry.onReplaceOrder(session, replaceOrder.wrap(buffer, offset));
            }
            case CancelOrder.TYPE ->
            {
                metrics.cancelOrderIn.inc();
                if (CancelOrder.LENGTH != length)
                {
                    return WRONG_LENGTH;
                }
                orderEntry.onCancelOrder(session, cancelOrder.wrap(buffer, offset));
            }
            case ModifyOrder.TYPE ->
            {
                metrics.modifyOrderIn.inc();
                if (ModifyOrder.LENGTH != length)
                {
                    return WRONG_LENGTH;
                }
                orderEntry.onModifyOrder(session, modifyOrder.wrap(buffer, offset));
            }
            default ->
            {
                metrics.unknownIn.inc();
                return UNKNOWN_TYPE;
            }
        }
        return OK;
    }
}
