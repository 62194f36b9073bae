package io.bourse.launcher;

import io.aeron.Publication;
import io.bourse.sbe.engine.MessageHeaderEncoder;
import io.bourse.sbe.engine.NewOrderEncoder;
import io.bourse.sbe.engine.Side;
import org.agrona.concurrent.UnsafeBuffer;

/** Sends day limit orders straight to an engine shard's command stream, as the gateway would. */
final class EngineOrders
{
    private static final long DAY = 99_998;

    private final UnsafeBuffer buffer = new UnsafeBuffer(new byte[128]);
    private final Publication commands;
    private long nextClientOrderId = 1;

    /** @param commands the shard's command stream. */
    EngineOrders(final Publication commands)
    {
        this.commands = commands;
    }

    /**
     * Sends one displayed day order of AAPL, waiting through back pressure.
     *
     * @param side      {@code BUY} or {@code SELL}.
     * @param quantity  shares.
     * @param price     1/10000 dollars.
     * @param firm      the 4-character firm.
     * @param crossType {@code N} continuous, {@code C} closing cross.
     */
    void newOrder(final String side, final long quantity, final long price, final String firm, final char crossType)
    {
        newOrder("AAPL", side, quantity, price, firm, crossType);
    }

    /**
     * Sends one displayed day order, waiting through back pressure.
     *
     * @param symbol    up to 8 characters.
     * @param side      {@code BUY} or {@code SELL}.
     * @param quantity  shares.
     * @param price     1/10000 dollars.
     * @param firm      the 4-character firm.
     * @param crossType {@code N} continuous, {@code C} closing cross.
     */
    void newOrder(
        final String symbol, final String side, final long quantity, final long price, final String firm,
        final char crossType)
    {
        final NewOrderEncoder encoder = new NewOrderEncoder().wrapAndApplyHeader(buffer, 0, new MessageHeaderEncoder())
            .timestampNs(1)
            .clientOrderId(nextClientOrderId++)
            .symbol(String.format("%-8s", symbol))
            .side(Side.valueOf(side))
            .quantity(quantity)
            .price(price)
            .timeInForce(DAY)
            .firm(firm)
            .minimumQuantity(0)
            .display((byte)'Y')
            .crossType((byte)crossType);
        while (commands.offer(buffer, 0, MessageHeaderEncoder.ENCODED_LENGTH + encoder.encodedLength()) < 0)
        {
            Thread.yield();
        }
    }
}
