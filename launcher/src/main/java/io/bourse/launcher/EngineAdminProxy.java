package io.bourse.launcher;

import io.aeron.Publication;
import io.bourse.common.aeron.BoundedOffer;
import io.bourse.common.config.Symbols;
import io.bourse.engine.match.SelfTradePrevention;
import io.bourse.engine.match.TradingState;
import io.bourse.sbe.engine.BreakTradeEncoder;
import io.bourse.sbe.engine.CrossLockEncoder;
import io.bourse.sbe.engine.MessageHeaderEncoder;
import io.bourse.sbe.engine.RunCrossEncoder;
import io.bourse.sbe.engine.SetPriceBandEncoder;
import io.bourse.sbe.engine.SetSelfTradePreventionEncoder;
import io.bourse.sbe.engine.SetTradingStateEncoder;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * Encodes the engine's admin commands (engine-schema.xml SetTradingState, SetPriceBand, SetSelfTradePrevention,
 * BreakTrade, CrossLock, RunCross) into one buffer and offers each to a shard's command publication through a
 * {@link BoundedOffer}. Prices in 1/10000 dollars, timestamps in nanoseconds since midnight. The schema's enums carry
 * the matching core's names, so the core's values map onto them by name. Every method returns the offer's result: the
 * new position, or a negative {@link Publication} code when the command was not sent.
 */
final class EngineAdminProxy
{
    private static final String BLANK_FIRM = "    ";

    private final BoundedOffer boundedOffer;
    private final UnsafeBuffer buffer = new UnsafeBuffer(new byte[64]);
    private final MessageHeaderEncoder header = new MessageHeaderEncoder();
    private final SetTradingStateEncoder tradingState = new SetTradingStateEncoder();
    private final SetPriceBandEncoder priceBand = new SetPriceBandEncoder();
    private final SetSelfTradePreventionEncoder selfTradePrevention = new SetSelfTradePreventionEncoder();
    private final BreakTradeEncoder breakTrade = new BreakTradeEncoder();
    private final CrossLockEncoder crossLock = new CrossLockEncoder();
    private final RunCrossEncoder runCross = new RunCrossEncoder();

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
        tradingState.wrapAndApplyHeader(buffer, 0, header).timestampNs(timestampNs);
        Symbols.unpack(symbol, buffer, tradingState.offset() + SetTradingStateEncoder.symbolEncodingOffset());
        tradingState.state(io.bourse.sbe.engine.TradingState.valueOf(state.name()));
        return offer(publication, tradingState.encodedLength());
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
        priceBand.wrapAndApplyHeader(buffer, 0, header).timestampNs(timestampNs);
        Symbols.unpack(symbol, buffer, priceBand.offset() + SetPriceBandEncoder.symbolEncodingOffset());
        priceBand.referencePrice(referencePrice).bandBasisPoints(bandBasisPoints);
        return offer(publication, priceBand.encodedLength());
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
        selfTradePrevention.wrapAndApplyHeader(buffer, 0, header)
            .timestampNs(timestampNs)
            .firm(null == firm ? BLANK_FIRM : String.format("%-4s", firm))
            .mode(io.bourse.sbe.engine.SelfTradePrevention.valueOf(mode.name()));
        return offer(publication, selfTradePrevention.encodedLength());
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
        breakTrade.wrapAndApplyHeader(buffer, 0, header).timestampNs(timestampNs);
        Symbols.unpack(symbol, buffer, breakTrade.offset() + BreakTradeEncoder.symbolEncodingOffset());
        breakTrade.matchNumber(matchNumber).reason(reason);
        return offer(publication, breakTrade.encodedLength());
    }

    /**
     * @param publication the command stream of the shard that owns the symbol.
     * @param timestampNs the sender's time.
     * @param symbol      packed symbol whose closing cross enters its late period.
     * @return the offer's result.
     */
    long crossLock(final Publication publication, final long timestampNs, final long symbol)
    {
        crossLock.wrapAndApplyHeader(buffer, 0, header).timestampNs(timestampNs);
        Symbols.unpack(symbol, buffer, crossLock.offset() + CrossLockEncoder.symbolEncodingOffset());
        return offer(publication, crossLock.encodedLength());
    }

    /**
     * @param publication the command stream of the shard that owns the symbol.
     * @param timestampNs the sender's time.
     * @param symbol      packed symbol whose closing cross runs.
     * @return the offer's result.
     */
    long runCross(final Publication publication, final long timestampNs, final long symbol)
    {
        runCross.wrapAndApplyHeader(buffer, 0, header).timestampNs(timestampNs);
        Symbols.unpack(symbol, buffer, runCross.offset() + RunCrossEncoder.symbolEncodingOffset());
        return offer(publication, runCross.encodedLength());
    }

    private long offer(final Publication publication, final int bodyLength)
    {
        return boundedOffer.offer(publication, buffer, 0, MessageHeaderEncoder.ENCODED_LENGTH + bodyLength);
    }
}
