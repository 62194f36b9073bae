package io.bourse.launcher;

import io.aeron.Publication;
import io.bourse.common.aeron.StreamLayout;
import io.bourse.common.config.SymbolDirectory;
import io.bourse.engine.EngineContext;
import io.bourse.engine.EngineService;
import io.bourse.sbe.engine.MessageHeaderEncoder;
import io.bourse.sbe.engine.NewOrderEncoder;
import io.bourse.sbe.engine.Side;
import org.agrona.concurrent.SleepingMillisIdleStrategy;
import org.agrona.concurrent.UnsafeBuffer;

/** Launches engine shard 0 and sends it day limit orders straight on its command stream, as the gateway would. */
final class EngineOrders
{
    private static final long DAY = 99_998;

    private final UnsafeBuffer buffer = new UnsafeBuffer(new byte[128]);
    private final Publication commands;
    private long nextClientOrderId = 1;

    /**
     * @param layout  the streams, on a running media driver.
     * @param symbols the symbol directory, e.g. {@code AAPL@0,MSFT@1}.
     * @return shard 0 of the symbols, running, its metrics on an ephemeral port.
     */
    static EngineService launchShard0(final StreamLayout layout, final String symbols)
    {
        return EngineService.launch(new EngineContext()
            .shardId(0)
            .metricsPort(0)
            .jvmMetrics(false)
            .streamLayout(layout)
            .symbolDirectory(SymbolDirectory.parse(symbols))
            .idleStrategy(new SleepingMillisIdleStrategy(1)));
    }

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
