package io.bourse.it;

import io.bourse.common.config.Symbols;
import io.bourse.ouch.CancelOrder;
import io.bourse.ouch.EnterOrder;
import io.bourse.ouch.ModifyOrder;
import io.bourse.ouch.Ouch42;
import io.bourse.ouch.ReplaceOrder;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteBuffer;

/**
 * OUCH 4.2 inbound messages the integration tests send, each in a buffer of its own ready for
 * {@link SoupBinTcpTestClient#send}.
 */
final class OuchMessages
{
    private OuchMessages()
    {
    }

    /**
     * OUCH 4.2 Enter Order: displayed anonymously, agency, not sweep eligible, no minimum quantity, no cross, the
     * user's firm (blank Firm).
     *
     * @param token       Order Token, at most 14 characters.
     * @param side        Buy/Sell Indicator, e.g. {@link Ouch42#SIDE_BUY}.
     * @param shares      shares.
     * @param stock       symbol, e.g. "AAPL".
     * @param price       limit price in 1/10000 dollars.
     * @param timeInForce 0 immediate-or-cancel, seconds, or {@link Ouch42#TIME_IN_FORCE_SYSTEM_HOURS}.
     * @return the 49-byte message.
     */
    static ByteBuffer enterOrder(
        final String token,
        final byte side,
        final long shares,
        final String stock,
        final long price,
        final long timeInForce)
    {
        return enterOrder(token, side, shares, stock, price, timeInForce, Ouch42.DISPLAY_ANONYMOUS);
    }

    /**
     * OUCH 4.2 Enter Order as {@link #enterOrder(String, byte, long, String, long, long)}, with a Display.
     *
     * @param display e.g. {@link Ouch42#DISPLAY_ATTRIBUTABLE}, shown with the user's firm as MPID on ITCH 5.0.
     * @return the 49-byte message.
     */
    static ByteBuffer enterOrder(
        final String token,
        final byte side,
        final long shares,
        final String stock,
        final long price,
        final long timeInForce,
        final byte display)
    {
        return enterOrder(token, side, shares, stock, price, timeInForce, display, Ouch42.CROSS_TYPE_NO_CROSS);
    }

    /**
     * OUCH 4.2 Enter Order as {@link #enterOrder(String, byte, long, String, long, long, byte)}, with a Cross Type.
     *
     * @param crossType e.g. {@link Ouch42#CROSS_TYPE_CLOSING}: an order for the closing cross.
     * @return the 49-byte message.
     */
    static ByteBuffer enterOrder(
        final String token, final byte side, final long shares, final String stock, final long price,
        final long timeInForce, final byte display, final byte crossType)
    {
        final ByteBuffer message = ByteBuffer.allocate(EnterOrder.LENGTH);
        new EnterOrder()
            .wrapAndApplyType(new UnsafeBuffer(message), 0)
            .orderToken(token)
            .buySellIndicator(side)
            .shares(shares)
            .stock(Symbols.pack(stock))
            .price(price)
            .timeInForce(timeInForce)
            .firm("")
            .display(display)
            .capacity(Ouch42.CAPACITY_AGENCY)
            .intermarketSweepEligibility(Ouch42.ISE_NOT_ELIGIBLE)
            .minimumQuantity(0)
            .crossType(crossType)
            .customerType(Ouch42.CUSTOMER_TYPE_DEFAULT);
        return message;
    }

    /**
     * OUCH 4.2 Cancel Order.
     *
     * @param token  Order Token of the order.
     * @param shares the order's new intended size; 0 cancels it entirely.
     * @return the 19-byte message.
     */
    static ByteBuffer cancelOrder(final String token, final long shares)
    {
        final ByteBuffer message = ByteBuffer.allocate(CancelOrder.LENGTH);
        new CancelOrder()
            .wrapAndApplyType(new UnsafeBuffer(message), 0)
            .orderToken(token)
            .shares(shares);
        return message;
    }

    /**
     * OUCH 4.2 Modify Order.
     *
     * @param token  Order Token of the order.
     * @param side   the order's side, or another of the sell family.
     * @param shares the order's new open size, at most the one it has.
     * @return the 20-byte message.
     */
    static ByteBuffer modifyOrder(final String token, final byte side, final long shares)
    {
        final ByteBuffer message = ByteBuffer.allocate(ModifyOrder.LENGTH);
        new ModifyOrder()
            .wrapAndApplyType(new UnsafeBuffer(message), 0)
            .orderToken(token)
            .buySellIndicator(side)
            .shares(shares);
        return message;
    }

    /**
     * OUCH 4.2 Replace Order: a day order, displayed anonymously, not sweep eligible, no minimum quantity.
     *
     * @param existingToken    Order Token of the order to replace.
     * @param replacementToken Order Token of the replacement.
     * @param shares           the replacement's shares.
     * @param price            the replacement's limit price in 1/10000 dollars.
     * @return the 47-byte message.
     */
    static ByteBuffer replaceOrder(
        final String existingToken, final String replacementToken, final long shares, final long price)
    {
        return replaceOrder(existingToken, replacementToken, shares, price, Ouch42.DISPLAY_ANONYMOUS);
    }

    /**
     * OUCH 4.2 Replace Order as {@link #replaceOrder(String, String, long, long)}, with a Display: the order's own, as
     * Bourse keeps an order's display for life (another one cancels the order, OUCH 4.2 §2.2).
     *
     * @param display e.g. {@link Ouch42#DISPLAY_ATTRIBUTABLE}.
     * @return the 47-byte message.
     */
    static ByteBuffer replaceOrder(
        final String existingToken, final String replacementToken, final long shares, final long price,
        final byte display)
    {
        final ByteBuffer message = ByteBuffer.allocate(ReplaceOrder.LENGTH);
        new ReplaceOrder()
            .wrapAndApplyType(new UnsafeBuffer(message), 0)
            .existingOrderToken(existingToken)
            .replacementOrderToken(replacementToken)
            .shares(shares)
            .price(price)
            .timeInForce(Ouch42.TIME_IN_FORCE_SYSTEM_HOURS)
            .display(display)
            .intermarketSweepEligibility(Ouch42.ISE_NOT_ELIGIBLE)
            .minimumQuantity(0);
        return message;
    }
}
