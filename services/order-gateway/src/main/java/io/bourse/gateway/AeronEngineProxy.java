package io.bourse.gateway;

import io.aeron.Publication;
import io.aeron.logbuffer.FrameDescriptor;
import io.aeron.protocol.DataHeaderFlyweight;
import io.bourse.common.aeron.BoundedOffer;
import io.bourse.common.config.Symbols;
import io.bourse.sbe.engine.CancelOrderEncoder;
import io.bourse.sbe.engine.ClockTickEncoder;
import io.bourse.sbe.engine.MessageHeaderEncoder;
import io.bourse.sbe.engine.NewOrderEncoder;
import io.bourse.sbe.engine.ReplaceOrderEncoder;
import io.bourse.sbe.engine.Side;
import org.agrona.BitUtil;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Encodes engine commands as SBE into one preallocated buffer and offers them on the command stream of the shard
 * ({@code StreamLayout.commandStreamId(shard)}): order commands through a {@link BoundedOffer}, clock ticks in one
 * attempt.
 */
final class AeronEngineProxy implements EngineProxy
{
    /** Longest command on a stream: Aeron's data header and the longest SBE command, to Aeron's frame alignment. */
    static final int MAX_COMMAND_FRAME_LENGTH = BitUtil.align(DataHeaderFlyweight.HEADER_LENGTH +
        MessageHeaderEncoder.ENCODED_LENGTH + Math.max(NewOrderEncoder.BLOCK_LENGTH,
        Math.max(CancelOrderEncoder.BLOCK_LENGTH, ReplaceOrderEncoder.BLOCK_LENGTH)), FrameDescriptor.FRAME_ALIGNMENT);

    private final Publication[] publications;
    private final BoundedOffer boundedOffer;
    private final UnsafeBuffer buffer = new UnsafeBuffer(ByteBuffer.allocateDirect(256));
    private final MessageHeaderEncoder header = new MessageHeaderEncoder();
    private final NewOrderEncoder newOrder = new NewOrderEncoder();
    private final CancelOrderEncoder cancelOrder = new CancelOrderEncoder();
    private final ReplaceOrderEncoder replaceOrder = new ReplaceOrderEncoder();
    private final ClockTickEncoder clockTick = new ClockTickEncoder();

    /**
     * @param publications one command publication per shard, indexed by shard id.
     * @param boundedOffer how to retry through back pressure.
     */
    AeronEngineProxy(final Publication[] publications, final BoundedOffer boundedOffer)
    {
        this.publications = publications;
        this.boundedOffer = boundedOffer;
    }

    @Override
    public long newOrder(
        final int shardId, final long timestampNs, final long clientOrderId, final long symbol, final boolean buy,
        final long quantity, final long price, final long timeInForce, final long minimumQuantity, final int firm,
        final byte display, final byte crossType)
    {
        newOrder.wrapAndApplyHeader(buffer, 0, header)
            .timestampNs(timestampNs)
            .clientOrderId(clientOrderId);
        Symbols.unpack(symbol, buffer, newOrder.offset() + NewOrderEncoder.symbolEncodingOffset());
        newOrder.side(buy ? Side.BUY : Side.SELL)
            .quantity(quantity)
            .price(price)
            .timeInForce(timeInForce);
        buffer.putInt(newOrder.offset() + NewOrderEncoder.firmEncodingOffset(), firm, ByteOrder.BIG_ENDIAN);
        newOrder.minimumQuantity(minimumQuantity).display(display).crossType(crossType);
        return offer(shardId, MessageHeaderEncoder.ENCODED_LENGTH + newOrder.encodedLength());
    }

    @Override
    public long cancelOrder(
        final int shardId, final long timestampNs, final long clientOrderId, final long quantity)
    {
        cancelOrder.wrapAndApplyHeader(buffer, 0, header)
            .timestampNs(timestampNs)
            .clientOrderId(clientOrderId)
            .quantity(quantity);
        return offer(shardId, MessageHeaderEncoder.ENCODED_LENGTH + cancelOrder.encodedLength());
    }

    @Override
    public long replaceOrder(
        final int shardId, final long timestampNs, final long clientOrderId, final long newClientOrderId,
        final long quantity, final long price, final long timeInForce)
    {
        replaceOrder.wrapAndApplyHeader(buffer, 0, header)
            .timestampNs(timestampNs)
            .clientOrderId(clientOrderId)
            .newClientOrderId(newClientOrderId)
            .quantity(quantity)
            .price(price)
            .timeInForce(timeInForce);
        return offer(shardId, MessageHeaderEncoder.ENCODED_LENGTH + replaceOrder.encodedLength());
    }

    @Override
    public int commandSessionId(final int shardId)
    {
        return publications[shardId].sessionId();
    }

    @Override
    public boolean clockTick(final int shardId, final long timestampNs)
    {
        clockTick.wrapAndApplyHeader(buffer, 0, header).timestampNs(timestampNs);
        final int length = MessageHeaderEncoder.ENCODED_LENGTH + clockTick.encodedLength();
        return BoundedOffer.offerAcrossRotation(publications[shardId], buffer, 0, length) > 0;
    }

    @Override
    public boolean hasRoomFor(final int commands)
    {
        final long length = (long)commands * MAX_COMMAND_FRAME_LENGTH;
        for (final Publication publication : publications)
        {
            if (publication.isConnected() && publication.availableWindow() < length)
            {
                return false;
            }
        }
        return true;
    }

    @Override
    public boolean canTake(final int shardId)
    {
        final Publication publication = publications[shardId];
        return publication.isConnected() && publication.availableWindow() >= MAX_COMMAND_FRAME_LENGTH;
    }

    /** @return the new position of the stream (greater than 0), or 0 when not handed over (the caller's contract). */
    private long offer(final int shardId, final int length)
    {
        return Math.max(boundedOffer.offer(publications[shardId], buffer, 0, length), 0);
    }
}
