package io.bourse.engine;

import io.bourse.common.config.SymbolDirectory;
import io.bourse.common.config.Symbols;
import io.bourse.engine.match.SelfTradePrevention;
import io.bourse.sbe.engine.MessageHeaderEncoder;
import io.bourse.sbe.engine.SequencedCommandEncoder;
import io.bourse.sbe.engine.SetPriceBandEncoder;
import io.bourse.sbe.engine.SetSelfTradePreventionEncoder;
import org.agrona.concurrent.UnsafeBuffer;

import java.util.Map;

/**
 * A shard's settings as the admin commands that set them (engine-schema.xml SetSelfTradePrevention, SetPriceBand):
 * the self-trade prevention mode of every firm without its own, each firm's own mode, then the price bands of the
 * shard's own symbols, in the order of the settings. A new run takes them before its first command from the command
 * stream, through its live {@link CommandAdapter}, so that with the event archive on they are in the run's input log
 * as SequencedCommands (with the null command-stream session and position: nobody sent them) and the next recovery
 * replays each run's settings where that run applied them. A run started with other settings than the day's earlier
 * runs (a band moved, a mode changed) thus recovers those runs as they ran, then applies its own on top: what its
 * settings leave out (a firm's mode, a band) stays as the earlier runs and the admin commands left it; an admin
 * command removes a band (reference price 0). The commands carry the engine's clock, the latest timestamp it took, so
 * they expire no order; they publish no event and are counted with the admin commands.
 */
final class StartConfiguration
{
    private static final String BLANK_FIRM = "    ";

    private final UnsafeBuffer buffer = new UnsafeBuffer(new byte[MessageHeaderEncoder.ENCODED_LENGTH +
        Math.max(SetSelfTradePreventionEncoder.BLOCK_LENGTH, SetPriceBandEncoder.BLOCK_LENGTH)]);
    private final MessageHeaderEncoder header = new MessageHeaderEncoder();
    private final SetSelfTradePreventionEncoder selfTradePrevention = new SetSelfTradePreventionEncoder();
    private final SetPriceBandEncoder priceBand = new SetPriceBandEncoder();
    private final CommandAdapter commandAdapter;
    private final long timestampNs;

    /**
     * @param commandAdapter the run's live adapter, which sequences the commands when the archive is on.
     * @param timestampNs    the engine's clock, ns since midnight ({@code MatchingEngine.clockNs()}).
     */
    StartConfiguration(final CommandAdapter commandAdapter, final long timestampNs)
    {
        this.commandAdapter = commandAdapter;
        this.timestampNs = timestampNs;
    }

    /**
     * Takes the settings' commands.
     *
     * @param ctx the shard's settings, concluded: every firm and band in them is valid.
     * @return the commands taken.
     */
    int apply(final EngineContext ctx)
    {
        int commands = 0;
        selfTradePrevention(BLANK_FIRM, ctx.selfTradePrevention());
        commands++;
        for (final Map.Entry<String, SelfTradePrevention> firm : ctx.firmSelfTradePrevention().entrySet())
        {
            selfTradePrevention(String.format("%-4s", firm.getKey()), firm.getValue());
            commands++;
        }
        for (final EngineContext.PriceBand band : ctx.priceBands())
        {
            final SymbolDirectory.Entry entry = ctx.symbolDirectory().find(Symbols.pack(band.symbol()));
            if (entry.shardId() == ctx.shardId())
            {
                priceBand.wrapAndApplyHeader(buffer, 0, header).timestampNs(timestampNs);
                Symbols.unpack(entry.packed(), buffer, priceBand.offset() + SetPriceBandEncoder.symbolEncodingOffset());
                priceBand.referencePrice(band.referencePrice()).bandBasisPoints(band.bandBasisPoints());
                take(priceBand.encodedLength());
                commands++;
            }
        }
        return commands;
    }

    private void selfTradePrevention(final String firm, final SelfTradePrevention mode)
    {
        selfTradePrevention.wrapAndApplyHeader(buffer, 0, header)
            .timestampNs(timestampNs)
            .firm(firm)
            .mode(io.bourse.sbe.engine.SelfTradePrevention.valueOf(mode.name()));
        take(selfTradePrevention.encodedLength());
    }

    private void take(final int bodyLength)
    {
        commandAdapter.take(buffer, 0, MessageHeaderEncoder.ENCODED_LENGTH + bodyLength,
            SequencedCommandEncoder.commandSessionIdNullValue(), SequencedCommandEncoder.commandPositionNullValue());
    }
}
