package io.bourse.gateway;

import io.bourse.common.config.Symbols;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Records the engine commands as values, clock ticks apart from the others; a NewOrder, CancelOrder or ReplaceOrder
 * handed over ends at {@link #COMMAND_LENGTH} times the commands recorded on command publication
 * {@link #COMMAND_SESSION_ID}; {@link #available} false makes every command fail to be handed over,
 * {@link #roomForCommands} false tells the gateway the command streams are full, and {@link #downShard} tells it that
 * one shard cannot take a command.
 */
final class RecordingEngineProxy implements EngineProxy
{
    record NewOrder(
        int shardId, long timestampNs, long clientOrderId, String symbol, boolean buy, long quantity, long price,
        long timeInForce, long minimumQuantity, String firm, char display, char crossType)
    {
    }

    record Cancel(int shardId, long timestampNs, long clientOrderId, long quantity)
    {
    }

    record Replace(
        int shardId, long timestampNs, long clientOrderId, long newClientOrderId, long quantity, long price,
        long timeInForce)
    {
    }

    record ClockTick(int shardId, long timestampNs)
    {
    }

    /** The Aeron session id of the gateway's command publication to every shard. */
    static final int COMMAND_SESSION_ID = 7;
    /** Bytes each command takes on the command stream. */
    static final long COMMAND_LENGTH = 64;

    private final List<Object> commands = new ArrayList<>();
    private final List<ClockTick> clockTicks = new ArrayList<>();
    volatile boolean available = true;
    volatile boolean roomForCommands = true;
    volatile int downShard = -1;

    synchronized List<Object> commands()
    {
        return List.copyOf(commands);
    }

    synchronized List<ClockTick> clockTicks()
    {
        return List.copyOf(clockTicks);
    }

    static String firm(final int packed)
    {
        return new String(new byte[]{(byte)(packed >>> 24), (byte)(packed >>> 16), (byte)(packed >>> 8),
            (byte)packed}, StandardCharsets.US_ASCII);
    }

    @Override
    public synchronized long newOrder(
        final int shardId, final long timestampNs, final long clientOrderId, final long symbol, final boolean buy,
        final long quantity, final long price, final long timeInForce, final long minimumQuantity, final int firm,
        final byte display, final byte crossType)
    {
        commands.add(new NewOrder(shardId, timestampNs, clientOrderId, Symbols.toString(symbol), buy, quantity, price,
            timeInForce, minimumQuantity, firm(firm), (char)display, (char)crossType));
        return position();
    }

    @Override
    public synchronized long cancelOrder(
        final int shardId, final long timestampNs, final long clientOrderId, final long quantity)
    {
        commands.add(new Cancel(shardId, timestampNs, clientOrderId, quantity));
        return position();
    }

    @Override
    public synchronized long replaceOrder(
        final int shardId, final long timestampNs, final long clientOrderId, final long newClientOrderId,
        final long quantity, final long price, final long timeInForce)
    {
        commands.add(new Replace(shardId, timestampNs, clientOrderId, newClientOrderId, quantity, price, timeInForce));
        return position();
    }

    /** @return where the command just recorded ends on the stream, 0 when not available. */
    private long position()
    {
        return available ? commandStreamPosition() : 0;
    }

    /** @return where the commands recorded so far end on the command stream, in bytes: a run joining there. */
    synchronized long commandStreamPosition()
    {
        return commands.size() * COMMAND_LENGTH;
    }

    @Override
    public int commandSessionId(final int shardId)
    {
        return COMMAND_SESSION_ID;
    }

    @Override
    public synchronized boolean clockTick(final int shardId, final long timestampNs)
    {
        clockTicks.add(new ClockTick(shardId, timestampNs));
        return available;
    }

    @Override
    public boolean hasRoomFor(final int commands)
    {
        return roomForCommands;
    }

    @Override
    public boolean canTake(final int shardId)
    {
        return available && roomForCommands && shardId != downShard;
    }
}
