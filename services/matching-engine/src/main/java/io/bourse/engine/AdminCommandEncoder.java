package io.bourse.engine;

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
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * Encodes the engine's admin commands (engine-schema.xml SetTradingState, SetPriceBand, SetSelfTradePrevention,
 * BreakTrade, CrossLock, RunCross), message header first, at the start of a buffer of its own: for the operator's
 * {@code ./bourse admin}, which offers them on a shard's command stream, and for a shard's start, which takes its
 * changed settings as commands ({@link StartConfiguration}). Prices in 1/10000 dollars, timestamps in nanoseconds
 * since midnight. The schema's enums carry the matching core's names, so the core's values map onto them by name.
 * Each method returns the command's length in bytes, header included; the command stays in {@link #buffer()} until
 * the next one. Not thread safe; allocates nothing per command but a SetSelfTradePrevention for one firm (its
 * padded firm).
 */
public final class AdminCommandEncoder
{
    /** The firm field of SetSelfTradePrevention for every firm without a mode of its own. */
    private static final String EVERY_FIRM = "    ";
    private static final int MAX_LENGTH = MessageHeaderEncoder.ENCODED_LENGTH + Math.max(
        Math.max(SetTradingStateEncoder.BLOCK_LENGTH, SetPriceBandEncoder.BLOCK_LENGTH),
        Math.max(Math.max(SetSelfTradePreventionEncoder.BLOCK_LENGTH, BreakTradeEncoder.BLOCK_LENGTH),
            Math.max(CrossLockEncoder.BLOCK_LENGTH, RunCrossEncoder.BLOCK_LENGTH)));

    private final UnsafeBuffer buffer = new UnsafeBuffer(new byte[MAX_LENGTH]);
    private final MessageHeaderEncoder header = new MessageHeaderEncoder();
    private final SetTradingStateEncoder tradingState = new SetTradingStateEncoder();
    private final SetPriceBandEncoder priceBand = new SetPriceBandEncoder();
    private final SetSelfTradePreventionEncoder selfTradePrevention = new SetSelfTradePreventionEncoder();
    private final BreakTradeEncoder breakTrade = new BreakTradeEncoder();
    private final CrossLockEncoder crossLock = new CrossLockEncoder();
    private final RunCrossEncoder runCross = new RunCrossEncoder();

    /** @return the buffer that holds the last command encoded, from offset 0. */
    public DirectBuffer buffer()
    {
        return buffer;
    }

    /**
     * @param timestampNs the sender's time.
     * @param symbol      packed symbol.
     * @param state       the new trading state.
     * @return the command's length.
     */
    public int tradingState(final long timestampNs, final long symbol, final TradingState state)
    {
        tradingState.wrapAndApplyHeader(buffer, 0, header).timestampNs(timestampNs);
        Symbols.unpack(symbol, buffer, tradingState.offset() + SetTradingStateEncoder.symbolEncodingOffset());
        tradingState.state(io.bourse.sbe.engine.TradingState.valueOf(state.name()));
        return MessageHeaderEncoder.ENCODED_LENGTH + tradingState.encodedLength();
    }

    /**
     * @param timestampNs     the sender's time.
     * @param symbol          packed symbol.
     * @param referencePrice  band centre; 0 removes the band.
     * @param bandBasisPoints half-width in basis points of the reference price, 0 to 10000.
     * @return the command's length.
     */
    public int priceBand(
        final long timestampNs, final long symbol, final long referencePrice, final int bandBasisPoints)
    {
        priceBand.wrapAndApplyHeader(buffer, 0, header).timestampNs(timestampNs);
        Symbols.unpack(symbol, buffer, priceBand.offset() + SetPriceBandEncoder.symbolEncodingOffset());
        priceBand.referencePrice(referencePrice).bandBasisPoints(bandBasisPoints);
        return MessageHeaderEncoder.ENCODED_LENGTH + priceBand.encodedLength();
    }

    /**
     * @param timestampNs the sender's time.
     * @param firm        1 to 4 ASCII characters (OUCH 4.2 Firm), or null for every firm without a mode of its own.
     * @param mode        the self-trade prevention mode.
     * @return the command's length.
     */
    public int selfTradePrevention(final long timestampNs, final String firm, final SelfTradePrevention mode)
    {
        selfTradePrevention.wrapAndApplyHeader(buffer, 0, header)
            .timestampNs(timestampNs)
            .firm(null == firm ? EVERY_FIRM : String.format("%-4s", firm))
            .mode(io.bourse.sbe.engine.SelfTradePrevention.valueOf(mode.name()));
        return MessageHeaderEncoder.ENCODED_LENGTH + selfTradePrevention.encodedLength();
    }

    /**
     * @param timestampNs the sender's time.
     * @param symbol      packed symbol of the trade.
     * @param matchNumber the execution's match number.
     * @param reason      OUCH 4.2 Broken Trade reason: E erroneous, C consent, S supervisory, X external.
     * @return the command's length.
     */
    public int breakTrade(final long timestampNs, final long symbol, final long matchNumber, final byte reason)
    {
        breakTrade.wrapAndApplyHeader(buffer, 0, header).timestampNs(timestampNs);
        Symbols.unpack(symbol, buffer, breakTrade.offset() + BreakTradeEncoder.symbolEncodingOffset());
        breakTrade.matchNumber(matchNumber).reason(reason);
        return MessageHeaderEncoder.ENCODED_LENGTH + breakTrade.encodedLength();
    }

    /**
     * @param timestampNs the sender's time.
     * @param symbol      packed symbol whose closing cross enters its late period.
     * @return the command's length.
     */
    public int crossLock(final long timestampNs, final long symbol)
    {
        crossLock.wrapAndApplyHeader(buffer, 0, header).timestampNs(timestampNs);
        Symbols.unpack(symbol, buffer, crossLock.offset() + CrossLockEncoder.symbolEncodingOffset());
        return MessageHeaderEncoder.ENCODED_LENGTH + crossLock.encodedLength();
    }

    /**
     * @param timestampNs the sender's time.
     * @param symbol      packed symbol whose closing cross runs.
     * @return the command's length.
     */
    public int runCross(final long timestampNs, final long symbol)
    {
        runCross.wrapAndApplyHeader(buffer, 0, header).timestampNs(timestampNs);
        Symbols.unpack(symbol, buffer, runCross.offset() + RunCrossEncoder.symbolEncodingOffset());
        return MessageHeaderEncoder.ENCODED_LENGTH + runCross.encodedLength();
    }
}
