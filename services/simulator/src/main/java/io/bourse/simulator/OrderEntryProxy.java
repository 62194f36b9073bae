package io.bourse.simulator;

import io.bourse.ouch.CancelOrder;
import io.bourse.ouch.EnterOrder;
import io.bourse.ouch.Ouch42;
import io.bourse.ouch.ReplaceOrder;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * Encodes the OUCH 4.2 inbound messages (Enter Order, Cancel Order, Replace Order) into one preallocated buffer and
 * sends each as a SoupBinTCP Unsequenced Data packet. Orders are anonymous-price-to-display, agency, not intermarket
 * sweep eligible, without minimum quantity, continuous market. Owned by the order-entry thread; no allocation.
 */
final class OrderEntryProxy
{
    private final ByteBuffer txBuffer = ByteBuffer.allocateDirect(EnterOrder.LENGTH);
    private final UnsafeBuffer tx = new UnsafeBuffer(txBuffer);
    private final EnterOrder enterOrder = new EnterOrder();
    private final CancelOrder cancelOrder = new CancelOrder();
    private final ReplaceOrder replaceOrder = new ReplaceOrder();

    /**
     * OUCH 4.2 Enter Order.
     *
     * @param session     where to send.
     * @param token       the 14-byte Order Token.
     * @param side        'B' or 'S'.
     * @param shares      order size.
     * @param stock       packed symbol.
     * @param price       limit price, 1/10000 $.
     * @param timeInForce seconds: 0 immediate or cancel, {@link Ouch42#TIME_IN_FORCE_MARKET_HOURS} day.
     * @param firm        the Firm as a packed big-endian int.
     * @throws IOException when the connection fails.
     */
    void enterOrder(
        final SoupClient session,
        final byte[] token,
        final byte side,
        final long shares,
        final long stock,
        final long price,
        final long timeInForce,
        final int firm) throws IOException
    {
        enterOrder.wrapAndApplyType(tx, 0).limitOrder(token, side, shares, stock, price, timeInForce, firm);
        send(session, EnterOrder.LENGTH);
    }

    /**
     * OUCH 4.2 Cancel Order.
     *
     * @param session where to send.
     * @param token   the 14-byte Order Token of the order.
     * @param shares  the new intended size; 0 cancels the whole order.
     * @throws IOException when the connection fails.
     */
    void cancelOrder(final SoupClient session, final byte[] token, final long shares) throws IOException
    {
        cancelOrder.wrapAndApplyType(tx, 0)
            .orderToken(token)
            .shares(shares);
        send(session, CancelOrder.LENGTH);
    }

    /**
     * OUCH 4.2 Replace Order.
     *
     * @param session          where to send.
     * @param existingToken    the 14-byte Order Token of the order to replace.
     * @param replacementToken the 14-byte Order Token of the new order.
     * @param shares           new size.
     * @param price            new limit price, 1/10000 $.
     * @param timeInForce      seconds, as for Enter Order.
     * @throws IOException when the connection fails.
     */
    void replaceOrder(
        final SoupClient session,
        final byte[] existingToken,
        final byte[] replacementToken,
        final long shares,
        final long price,
        final long timeInForce) throws IOException
    {
        replaceOrder.wrapAndApplyType(tx, 0)
            .existingOrderToken(existingToken)
            .replacementOrderToken(replacementToken)
            .shares(shares)
            .price(price)
            .timeInForce(timeInForce)
            .display(Ouch42.DISPLAY_ANONYMOUS)
            .intermarketSweepEligibility(Ouch42.ISE_NOT_ELIGIBLE)
            .minimumQuantity(0);
        send(session, ReplaceOrder.LENGTH);
    }

    private void send(final SoupClient session, final int length) throws IOException
    {
        txBuffer.clear().limit(length);
        session.send(txBuffer);
    }
}
