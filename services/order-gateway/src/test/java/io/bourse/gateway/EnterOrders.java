package io.bourse.gateway;

import io.bourse.common.config.Symbols;
import io.bourse.ouch.EnterOrder;
import io.bourse.ouch.Ouch42;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteBuffer;

/** OUCH 4.2 Enter Orders as a client writes them, for tests that write raw bytes. */
final class EnterOrders
{
    private EnterOrders()
    {
    }

    /**
     * Encodes a day order to buy 100 shares at $150.00: time in force market hours, anonymous, agency, no cross.
     *
     * @param buffer where the message goes, from index 0, {@link EnterOrder#LENGTH} bytes.
     * @param token  the Order Token, at most 14 characters.
     * @param stock  the symbol, at most 8 characters.
     * @return the message's flyweight, to change a field before it is sent.
     */
    static EnterOrder encode(final MutableDirectBuffer buffer, final String token, final String stock)
    {
        return new EnterOrder().wrapAndApplyType(buffer, 0)
            .orderToken(token)
            .buySellIndicator(Ouch42.SIDE_BUY)
            .shares(100)
            .stock(Symbols.pack(stock))
            .price(1_500_000)
            .timeInForce(Ouch42.TIME_IN_FORCE_MARKET_HOURS)
            .firm("")
            .display(Ouch42.DISPLAY_ANONYMOUS)
            .capacity(Ouch42.CAPACITY_AGENCY)
            .intermarketSweepEligibility(Ouch42.ISE_NOT_ELIGIBLE)
            .minimumQuantity(0)
            .crossType(Ouch42.CROSS_TYPE_NO_CROSS)
            .customerType(Ouch42.CUSTOMER_TYPE_DEFAULT);
    }

    /**
     * @param token the Order Token, at most 14 characters.
     * @param stock the symbol, at most 8 characters.
     * @return a SoupBinTCP 4.0 Unsequenced Data packet holding the {@link #encode} day order, position to limit.
     */
    static ByteBuffer packet(final String token, final String stock)
    {
        final ByteBuffer packet = ByteBuffer.allocate(3 + EnterOrder.LENGTH);
        packet.putShort((short)(1 + EnterOrder.LENGTH)).put((byte)'U');
        encode(new UnsafeBuffer(packet, 3, EnterOrder.LENGTH), token, stock);
        return packet.clear();
    }
}
