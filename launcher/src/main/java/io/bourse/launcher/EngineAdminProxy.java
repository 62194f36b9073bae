package io.bourse.launcher;

import io.aeron.Publication;
import io.bourse.common.aeron.BoundedOffer;
import io.bourse.engine.AdminCommandEncoder;
import io.bourse.engine.match.SelfTradePrevention;
import io.bourse.engine.match.TradingState;

/**
 * Offers the engine's admin commands, encoded by an {@link AdminCommandEncoder}, to a shard's command publication
 * through a {@link BoundedOffer}. Prices in 1/10000 dollars, timestamps in nanoseconds since midnight. Every method
 * returns the offer's result: the new position, or a negative {@link Publication} code when the command was not sent.
 */
final class EngineAdminProxy
{
    private final BoundedOffer boundedOffer;
    private final AdminCommandEncoder encoder = new AdminCommandEncoder();

    /**
     * @param boundedOffer how to retry through back pressure.
     */
    EngineAdminProxy(final BoundedOffer boundedOffer)
    {
        this.boundedOffer = boundedOffer;
    }

    /**
     * @param publication the command stream of the shard that owns the symbol.
     * @param timestampNs the sender's time.
     * @param symbol      packed symbol.
     * @param state       the new trading state.
     * @return the offer's result.
     */
    long tradingState(
        final Publication publication, final long timestampNs, final long symbol, final TradingState state)
    {
        return offer(publication, encoder.tradingState(timestampNs, symbol, state));
    }

    /**
     * @param publication     the command stream of the shard that owns the symbol.
     * @param timestampNs     the sender's time.
     * @param symbol          packed symbol.
     * @param referencePrice  band centre; 0 removes the band.
     * @param bandBasisPoints half-width in basis points of the reference price, 0 to 10000.
     * @return the offer's result.
     */
    long priceBand(
        final Publication publication, final long timestampNs, final long symbol, final long referencePrice,
        final int bandBasisPoints)
    {
        return offer(publication, encoder.priceBand(timestampNs, symbol, referencePrice, bandBasisPoints));
    }

    /**
     * @param publication a shard's command stream.
     * @param timestampNs the sender's time.
     * @param firm        1 to 4 ASCII characters (OUCH 4.2 Firm), or null for every firm without a mode of its own.
     * @param mode        the self-trade prevention mode.
     * @return the offer's result.
     */
    long selfTradePrevention(
        final Publication publication, final long timestampNs, final String firm, final SelfTradePrevention mode)
    {
        return offer(publication, encoder.selfTradePrevention(timestampNs, firm, mode));
    }

    /**
     * @param publication the command stream of the shard that owns the symbol.
     * @param timestampNs the sender's time.
     * @param symbol      packed symbol of the trade.
     * @param matchNumber the execution's match number.
     * @param reason      OUCH 4.2 Broken Trade reason: E erroneous, C consent, S supervisory, X external.
     * @return the offer's result.
     */
    long breakTrade(
        final Publication publication, final long timestampNs, final long symbol, final long matchNumber,
        final byte reason)
    {
        return offer(publication, encoder.breakTrade(timestampNs, symbol, matchNumber, reason));
    }

    /**
     * @param publication the command stream of the shard that owns the symbol.
     * @param timestampNs the sender's time.
     * @param symbol      packed symbol whose closing cross enters its late period.
     * @return the offer's result.
     */
    long crossLock(final Publication publication, final long timestampNs, final long symbol)
    {
        return offer(publication, encoder.crossLock(timestampNs, symbol));
    }

    /**
     * @param publication the command stream of the shard that owns the symbol.
     * @param timestampNs the sender's time.
     * @param symbol      packed symbol whose closing cross runs.
     * @return the offer's result.
     */
    long runCross(final Publication publication, final long timestampNs, final long symbol)
    {
        return offer(publication, encoder.runCross(timestampNs, symbol));
    }

    private long offer(final Publication publication, final int length)
    {
        return boundedOffer.offer(publication, encoder.buffer(), 0, length);
    }
}
