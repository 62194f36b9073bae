package io.bourse.engine;

import io.bourse.common.EngineNumbering;
import io.bourse.common.config.SymbolDirectory;
import io.bourse.common.config.Symbols;
import io.bourse.engine.match.MatchingEngine;
import io.bourse.engine.match.SelfTradePrevention;
import io.bourse.sbe.engine.MessageHeaderDecoder;
import io.bourse.sbe.engine.MessageHeaderEncoder;
import io.bourse.sbe.engine.SequencedCommandEncoder;
import io.bourse.sbe.engine.SetPriceBandDecoder;
import io.bourse.sbe.engine.SetSelfTradePreventionDecoder;
import io.bourse.sbe.engine.StartNumberingEncoder;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A shard's settings as the admin commands that set them (engine-schema.xml SetSelfTradePrevention, SetPriceBand,
 * encoded by the {@link AdminCommandEncoder} the operator's {@code ./bourse admin} uses too):
 * the self-trade prevention mode of every firm without its own, each firm's own mode, then the price bands of the
 * shard's own symbols, in the order of the settings. A run takes, before its first command from the command stream
 * and through its live {@link CommandAdapter}, those whose value differs from what the day's earlier settings gave it
 * (the engine's defaults before the first run: no mode, no band), so that with the event archive on they are in the
 * run's input log as SequencedCommands, with the null command-stream session and position (nobody sent them), and the
 * next recovery replays each run's settings where that run applied them ({@link #recovered}).
 *
 * <p>A run started with other settings than the day's earlier runs (a band moved, a mode changed) thus recovers
 * those runs as they ran, then applies its changed settings on top. A setting it leaves unchanged does not undo what
 * an operator's admin command changed meanwhile; a setting it leaves out stays as it was (an admin command changes or
 * removes it, a band with reference price 0). The commands carry the engine's clock, the latest timestamp it took, so
 * they expire no order; they publish no event and are counted with the admin commands.
 *
 * <p>Before them, every run takes a StartNumbering ({@link #startNumbering}), in its input log too, which raises the
 * counts of its order reference numbers and match numbers to its start time in units of
 * {@value EngineNumbering#NANOS_PER_NUMBER} ns since the Unix epoch. Runs on the launching thread; allocates.
 */
final class StartConfiguration
{
    /** A band as the settings give it. */
    private record Band(long referencePrice, int bandBasisPoints)
    {
    }

    private final AdminCommandEncoder encoder = new AdminCommandEncoder();
    private final UnsafeBuffer numberingBuffer =
        new UnsafeBuffer(new byte[MessageHeaderEncoder.ENCODED_LENGTH + StartNumberingEncoder.BLOCK_LENGTH]);
    private final StartNumberingEncoder numbering = new StartNumberingEncoder();
    private final MessageHeaderDecoder recordedHeader = new MessageHeaderDecoder();
    private final SetSelfTradePreventionDecoder recordedSelfTradePrevention = new SetSelfTradePreventionDecoder();
    private final SetPriceBandDecoder recordedPriceBand = new SetPriceBandDecoder();
    private SelfTradePrevention defaultMode = SelfTradePrevention.NONE;
    private final Map<Integer, SelfTradePrevention> firmModes = new HashMap<>();
    private final Map<Long, Band> bands = new HashMap<>();

    /**
     * A command of an earlier run's settings, in recovery: it is what the settings give from then on.
     *
     * @param command holds the command taken from a SequencedCommand with the null command-stream position (also
     *                every command of a version 5 run, which recorded no position).
     * @param offset  where its SBE message header starts.
     */
    void recovered(final DirectBuffer command, final int offset)
    {
        recordedHeader.wrap(command, offset);
        final int body = offset + MessageHeaderDecoder.ENCODED_LENGTH;
        if (SetSelfTradePreventionDecoder.TEMPLATE_ID == recordedHeader.templateId())
        {
            recordedSelfTradePrevention.wrap(command, body, recordedHeader.blockLength(), recordedHeader.version());
            final SelfTradePrevention mode = CommandAdapter.selfTradePrevention(recordedSelfTradePrevention.modeRaw());
            if (null == mode)
            {
                return; // an operator's refused command of a version 5 run
            }
            final int firm = Firms.pack(command, body + SetSelfTradePreventionDecoder.firmEncodingOffset());
            if (Firms.NONE == firm)
            {
                defaultMode = mode;
            }
            else
            {
                firmModes.put(firm, mode);
            }
        }
        else if (SetPriceBandDecoder.TEMPLATE_ID == recordedHeader.templateId())
        {
            recordedPriceBand.wrap(command, body, recordedHeader.blockLength(), recordedHeader.version());
            bands.put(Symbols.pack(command, body + SetPriceBandDecoder.symbolEncodingOffset()),
                new Band(recordedPriceBand.referencePrice(), recordedPriceBand.bandBasisPoints()));
        }
    }

    /**
     * Takes a StartNumbering (engine-schema.xml): the shard's order reference numbers and match numbers then continue
     * from at least the run's start time, in units of {@value EngineNumbering#NANOS_PER_NUMBER} ns. A run that
     * recovered its earlier runs already numbers above theirs, and one that recovered nothing (the event archive off,
     * or deleted with its media driver) numbered from 0 before stop 64, the numbers its earlier runs of the day had
     * given: a gateway that outlived it (its session journals on disk) then replayed OUCH Accepted and Executed
     * messages with the same order reference and match numbers as the new run's. Based on the start time, the numbers
     * stay unique as long as no earlier run gave more than ten numbers per µs of its life (10,000,000 orders and trades
     * a second, sustained: the engine service's fastest measured is about 3,000,000 commands a second) and the wall
     * clock did not step back between two runs (a host's clock set back). The command also carries how many earlier
     * runs the run recovered, which the shard publishes in a RunStarted: with 0, the gateways know that the orders of
     * the shard they still hold open are gone.
     *
     * @param commandAdapter the run's live adapter, which sequences the command when the archive is on.
     * @param startEpochNs   the run's start time in ns since the Unix epoch.
     * @param recoveredRuns  earlier runs of the shard the run replayed ({@link EngineRecovery}), 0 without the archive.
     * @return the numbering's base: that time in units of {@value EngineNumbering#NANOS_PER_NUMBER} ns, 0 to
     *         {@link EngineNumbering#MAX_NUMBER_BASE}.
     * @throws IllegalArgumentException for a base out of that range.
     */
    long startNumbering(final CommandAdapter commandAdapter, final long startEpochNs, final int recoveredRuns)
    {
        // refused before it is sequenced: in the input log it would stop every later recovery
        final long numberBase = MatchingEngine.requireNumberingStart(EngineNumbering.numberBase(startEpochNs));
        numbering.wrapAndApplyHeader(numberingBuffer, 0, new MessageHeaderEncoder())
            .numberBase(numberBase)
            .recoveredRuns(recoveredRuns);
        take(commandAdapter, numberingBuffer, numberingBuffer.capacity());
        return numberBase;
    }

    /**
     * Takes the commands of the settings that differ from the day's earlier settings, which they then are.
     *
     * @param ctx            the shard's settings, concluded: every firm and band in them is valid.
     * @param commandAdapter the run's live adapter, which sequences the commands when the archive is on.
     * @param timestampNs    the engine's clock, ns since midnight ({@code MatchingEngine.clockNs()}).
     * @return the commands taken.
     */
    int apply(final EngineContext ctx, final CommandAdapter commandAdapter, final long timestampNs)
    {
        int commands = 0;
        if (ctx.selfTradePrevention() != defaultMode)
        {
            defaultMode = ctx.selfTradePrevention();
            take(commandAdapter, encoder.selfTradePrevention(timestampNs, null, defaultMode));
            commands++;
        }
        for (final Map.Entry<String, SelfTradePrevention> firm : ctx.firmSelfTradePrevention().entrySet())
        {
            if (firm.getValue() != firmModes.put(Firms.pack(firm.getKey()), firm.getValue()))
            {
                take(commandAdapter, encoder.selfTradePrevention(timestampNs, firm.getKey(), firm.getValue()));
                commands++;
            }
        }
        // The shard's own symbols' bands, a symbol given twice taking its later item, so that unchanged settings
        // take nothing: compared item by item, each of its items would differ from the other at every start.
        final Map<Long, Band> shardBands = new LinkedHashMap<>();
        for (final EngineContext.PriceBand band : ctx.priceBands())
        {
            final SymbolDirectory.Entry entry = ctx.symbolDirectory().find(Symbols.pack(band.symbol()));
            if (entry.shardId() == ctx.shardId())
            {
                shardBands.put(entry.packed(), new Band(band.referencePrice(), band.bandBasisPoints()));
            }
        }
        for (final Map.Entry<Long, Band> band : shardBands.entrySet())
        {
            if (!band.getValue().equals(bands.put(band.getKey(), band.getValue())))
            {
                take(commandAdapter, encoder.priceBand(timestampNs, band.getKey(), band.getValue().referencePrice(),
                    band.getValue().bandBasisPoints()));
                commands++;
            }
        }
        return commands;
    }

    /** Takes the command the encoder holds, with the null command-stream session and position: nobody sent it. */
    private void take(final CommandAdapter commandAdapter, final int length)
    {
        take(commandAdapter, encoder.buffer(), length);
    }

    /** Takes a command at offset 0 of the buffer, with the null command-stream session and position. */
    private static void take(final CommandAdapter commandAdapter, final DirectBuffer command, final int length)
    {
        commandAdapter.take(command, 0, length, SequencedCommandEncoder.commandSessionIdNullValue(),
            SequencedCommandEncoder.commandPositionNullValue());
    }
}
