package io.bourse.gateway;

import io.bourse.common.config.Symbols;
import io.bourse.ouch.AiqCanceled;
import io.bourse.ouch.BrokenTrade;
import io.bourse.ouch.CancelPending;
import io.bourse.ouch.CancelReject;
import io.bourse.ouch.OrderAccepted;
import io.bourse.ouch.OrderCanceled;
import io.bourse.ouch.OrderExecuted;
import io.bourse.ouch.OrderModified;
import io.bourse.ouch.OrderPriorityUpdate;
import io.bourse.ouch.OrderRejected;
import io.bourse.ouch.OrderReplaced;
import io.bourse.ouch.SystemEvent;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/** OUCH 4.2 outbound messages decoded into values, so tests compare whole lists. */
final class OuchMessages
{
    record SystemEventMessage(long timestamp, char eventCode)
    {
    }

    record Accepted(
        long timestamp, String token, char side, long shares, String stock, long price, long timeInForce, String firm,
        char display, long orderReferenceNumber, char capacity, char intermarketSweepEligibility,
        long minimumQuantity, char crossType, char orderState, char bboWeightIndicator)
    {
    }

    record Replaced(
        long timestamp, String token, char side, long shares, String stock, long price, long timeInForce, String firm,
        char display, long orderReferenceNumber, char capacity, char intermarketSweepEligibility,
        long minimumQuantity, char crossType, char orderState, String previousToken, char bboWeightIndicator)
    {
    }

    record Canceled(long timestamp, String token, long decrementShares, char reason)
    {
    }

    record Executed(long timestamp, String token, long shares, long price, char liquidityFlag, long matchNumber)
    {
    }

    record Rejected(long timestamp, String token, char reason)
    {
    }

    record Modified(long timestamp, String token, char side, long shares)
    {
    }

    record Broken(long timestamp, String token, long matchNumber, char reason)
    {
    }

    record AiqCanceledMessage(
        long timestamp, String token, long decrementShares, char reason, long quantityPreventedFromTrading,
        long executionPrice, char liquidityFlag)
    {
    }

    record CancelPendingMessage(long timestamp, String token)
    {
    }

    record CancelRejectMessage(long timestamp, String token)
    {
    }

    record PriorityUpdate(long timestamp, String token, long price, char display, long orderReferenceNumber)
    {
    }

    private OuchMessages()
    {
    }

    /**
     * @param session a session.
     * @return every sequenced message it has, decoded.
     */
    static List<Object> of(final UserSession session)
    {
        final SessionJournal journal = session.journal();
        final List<Object> messages = new ArrayList<>();
        try
        {
            for (long sequenceNumber = 1; sequenceNumber <= journal.count(); sequenceNumber++)
            {
                final ByteBuffer message = journal.message(sequenceNumber);
                final byte[] bytes = new byte[message.remaining()];
                message.get(bytes);
                messages.add(decode(bytes));
            }
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
        return messages;
    }

    /**
     * @param bytes SoupBinTCP 4.0 packets as a client reads them; a packet cut off at the end is left out.
     * @return the OUCH 4.2 messages of their Sequenced Data packets, decoded.
     */
    static List<Object> sequencedData(final byte[] bytes)
    {
        final ByteBuffer packets = ByteBuffer.wrap(bytes);
        final List<Object> messages = new ArrayList<>();
        while (packets.remaining() >= 2 && packets.remaining() >= 2 + (packets.getShort(packets.position()) & 0xFFFF))
        {
            final int length = packets.getShort() & 0xFFFF;
            final byte type = packets.get();
            final byte[] payload = new byte[length - 1];
            packets.get(payload);
            if ('S' == type)
            {
                messages.add(decode(payload));
            }
        }
        return messages;
    }

    /**
     * @param bytes one message.
     * @return it decoded.
     */
    static Object decode(final byte[] bytes)
    {
        return decode(new UnsafeBuffer(bytes), 0, bytes.length);
    }

    static Object decode(final DirectBuffer buffer, final int offset, final int length)
    {
        final byte type = buffer.getByte(offset);
        if (SystemEvent.TYPE == type && SystemEvent.LENGTH == length)
        {
            final SystemEvent m = new SystemEvent().wrap(buffer, offset);
            return new SystemEventMessage(m.timestamp(), (char)m.eventCode());
        }
        if (OrderAccepted.TYPE == type && OrderAccepted.LENGTH == length)
        {
            final OrderAccepted m = new OrderAccepted().wrap(buffer, offset);
            return new Accepted(m.timestamp(), m.orderTokenAsString(), (char)m.buySellIndicator(), m.shares(),
                Symbols.toString(m.stock()), m.price(), m.timeInForce(), m.firmAsString(), (char)m.display(),
                m.orderReferenceNumber(), (char)m.capacity(), (char)m.intermarketSweepEligibility(),
                m.minimumQuantity(), (char)m.crossType(), (char)m.orderState(), (char)m.bboWeightIndicator());
        }
        if (OrderReplaced.TYPE == type && OrderReplaced.LENGTH == length)
        {
            final OrderReplaced m = new OrderReplaced().wrap(buffer, offset);
            return new Replaced(m.timestamp(), m.replacementOrderTokenAsString(), (char)m.buySellIndicator(),
                m.shares(), Symbols.toString(m.stock()), m.price(), m.timeInForce(), m.firmAsString(),
                (char)m.display(), m.orderReferenceNumber(), (char)m.capacity(),
                (char)m.intermarketSweepEligibility(), m.minimumQuantity(), (char)m.crossType(),
                (char)m.orderState(), m.previousOrderTokenAsString(), (char)m.bboWeightIndicator());
        }
        if (OrderCanceled.TYPE == type && OrderCanceled.LENGTH == length)
        {
            final OrderCanceled m = new OrderCanceled().wrap(buffer, offset);
            return new Canceled(m.timestamp(), m.orderTokenAsString(), m.decrementShares(), (char)m.reason());
        }
        if (OrderExecuted.TYPE == type && OrderExecuted.LENGTH == length)
        {
            final OrderExecuted m = new OrderExecuted().wrap(buffer, offset);
            return new Executed(m.timestamp(), m.orderTokenAsString(), m.executedShares(), m.executionPrice(),
                (char)m.liquidityFlag(), m.matchNumber());
        }
        if (OrderRejected.TYPE == type && OrderRejected.LENGTH == length)
        {
            final OrderRejected m = new OrderRejected().wrap(buffer, offset);
            return new Rejected(m.timestamp(), m.orderTokenAsString(), (char)m.reason());
        }
        if (OrderModified.TYPE == type && OrderModified.LENGTH == length)
        {
            final OrderModified m = new OrderModified().wrap(buffer, offset);
            return new Modified(m.timestamp(), m.orderTokenAsString(), (char)m.buySellIndicator(), m.shares());
        }
        if (AiqCanceled.TYPE == type && AiqCanceled.LENGTH == length)
        {
            final AiqCanceled m = new AiqCanceled().wrap(buffer, offset);
            return new AiqCanceledMessage(m.timestamp(), m.orderTokenAsString(), m.decrementShares(),
                (char)m.reason(), m.quantityPreventedFromTrading(), m.executionPrice(), (char)m.liquidityFlag());
        }
        if (BrokenTrade.TYPE == type && BrokenTrade.LENGTH == length)
        {
            final BrokenTrade m = new BrokenTrade().wrap(buffer, offset);
            return new Broken(m.timestamp(), m.orderTokenAsString(), m.matchNumber(), (char)m.reason());
        }
        if (CancelPending.TYPE == type && CancelPending.LENGTH == length)
        {
            final CancelPending m = new CancelPending().wrap(buffer, offset);
            return new CancelPendingMessage(m.timestamp(), m.orderTokenAsString());
        }
        if (CancelReject.TYPE == type && CancelReject.LENGTH == length)
        {
            final CancelReject m = new CancelReject().wrap(buffer, offset);
            return new CancelRejectMessage(m.timestamp(), m.orderTokenAsString());
        }
        if (OrderPriorityUpdate.TYPE == type && OrderPriorityUpdate.LENGTH == length)
        {
            final OrderPriorityUpdate m = new OrderPriorityUpdate().wrap(buffer, offset);
            return new PriorityUpdate(m.timestamp(), m.orderTokenAsString(), m.price(), (char)m.display(),
                m.orderReferenceNumber());
        }
        throw new AssertionError("not an OUCH 4.2 outbound message: type " + (char)type + " length " + length);
    }
}
