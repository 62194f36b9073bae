package io.bourse.gateway;

import io.bourse.ouch.Ouch42;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * Encodes the gateway-private {@link OrderRecords} in place in a session's {@link SessionJournal}, between its OUCH
 * messages: no allocation, and no system call of their own (they are written with the session's next message). Prices
 * in 1/10000 dollars, quantities in shares.
 */
final class OrderRecordProxy
{
    private final long mediaDriverStartMs;

    /**
     * @param mediaDriverStartMs start time of the media driver the gateway's commands go through, ms since the epoch
     *                           ({@link MediaDriverStart}); 0 when not known (tests without Aeron): no Media Driver
     *                           record is written.
     */
    OrderRecordProxy(final long mediaDriverStartMs)
    {
        this.mediaDriverStartMs = mediaDriverStartMs;
    }

    /**
     * Order Sent: an Enter Order was handed to the engine; the session's Media Driver record first, once per gateway
     * process.
     *
     * @param order the new order, every entered field set.
     */
    void orderSent(final OrderState order)
    {
        mediaDriver(order.session);
        order(OrderRecords.ORDER_SENT, order);
    }

    /**
     * Replacement Sent: a Replace Order was handed to the engine; the session's Media Driver record first, once per
     * gateway process.
     *
     * @param replacement the replacement, with its previous token and every field set.
     */
    void replacementSent(final OrderState replacement)
    {
        mediaDriver(replacement.session);
        order(OrderRecords.REPLACEMENT_SENT, replacement);
    }

    /**
     * Order Rejected: the engine refused an order or replacement the gateway tracked, or the gateway rejected one lost
     * with its media driver.
     *
     * @param order the refused order.
     */
    void orderRejected(final OrderState order)
    {
        longFieldRecord(order.session, OrderRecords.ORDER_REJECTED, OrderRecords.ORDER_REJECTED_LENGTH,
            OrderRecords.CLIENT_ORDER_ID_OFFSET, order.clientOrderId);
    }

    /**
     * Token Used: a Replace Order of 0 shares went to the engine as a cancel of the existing order; its replacement
     * token is used all the same.
     *
     * @param session     the sender.
     * @param tokenBuffer holds the 14 bytes of the replacement token.
     * @param tokenOffset of the token.
     */
    void tokenUsed(final UserSession session, final DirectBuffer tokenBuffer, final int tokenOffset)
    {
        final SessionJournal journal = session.journal();
        final int offset = journal.claim(OrderRecords.TOKEN_USED_LENGTH);
        final MutableDirectBuffer buffer = journal.buffer();
        buffer.putByte(offset + OrderRecords.RECORD_TYPE_OFFSET, OrderRecords.TOKEN_USED);
        buffer.putBytes(offset + OrderRecords.USED_TOKEN_OFFSET, tokenBuffer, tokenOffset, Ouch42.TOKEN_LENGTH);
        session.commitPrivate(OrderRecords.TOKEN_USED_LENGTH);
    }

    private void mediaDriver(final UserSession session)
    {
        if (session.hasMediaDriverJournaled() || 0 == mediaDriverStartMs)
        {
            return;
        }
        longFieldRecord(session, OrderRecords.MEDIA_DRIVER, OrderRecords.MEDIA_DRIVER_LENGTH,
            OrderRecords.DRIVER_START_OFFSET, mediaDriverStartMs);
        session.mediaDriverJournaled();
    }

    /**
     * Writes a record of a Record Type, reserved bytes (0) and one 8-byte field: Order Rejected, Media Driver.
     *
     * @param session     whose journal takes it.
     * @param recordType  the Record Type.
     * @param length      the record's length in bytes.
     * @param fieldOffset the field's offset, the reserved bytes before it.
     * @param value       the field.
     */
    private static void longFieldRecord(
        final UserSession session, final byte recordType, final int length, final int fieldOffset, final long value)
    {
        final SessionJournal journal = session.journal();
        final int offset = journal.claim(length);
        final MutableDirectBuffer buffer = journal.buffer();
        buffer.setMemory(offset, fieldOffset, (byte)0);
        buffer.putByte(offset + OrderRecords.RECORD_TYPE_OFFSET, recordType);
        buffer.putLong(offset + fieldOffset, value, OrderRecords.ORDER);
        session.commitPrivate(length);
    }

    private static void order(final byte recordType, final OrderState order)
    {
        final SessionJournal journal = order.session.journal();
        final int offset = journal.claim(OrderRecords.ORDER_LENGTH);
        final MutableDirectBuffer buffer = journal.buffer();
        buffer.putByte(offset + OrderRecords.RECORD_TYPE_OFFSET, recordType);
        buffer.putByte(offset + OrderRecords.SIDE_OFFSET, order.side);
        buffer.putByte(offset + OrderRecords.DISPLAY_OFFSET, order.display);
        buffer.putByte(offset + OrderRecords.CAPACITY_OFFSET, order.capacity);
        buffer.putByte(offset + OrderRecords.INTERMARKET_SWEEP_ELIGIBILITY_OFFSET, order.intermarketSweepEligibility);
        buffer.putByte(offset + OrderRecords.CROSS_TYPE_OFFSET, order.crossType);
        buffer.putShort(offset + OrderRecords.SHARD_ID_OFFSET, (short)order.shardId, OrderRecords.ORDER);
        buffer.putLong(offset + OrderRecords.CLIENT_ORDER_ID_OFFSET, order.clientOrderId, OrderRecords.ORDER);
        buffer.putLong(offset + OrderRecords.STOCK_OFFSET, order.stock, OrderRecords.ORDER);
        buffer.putInt(offset + OrderRecords.SHARES_OFFSET, (int)order.openShares, OrderRecords.ORDER);
        buffer.putInt(offset + OrderRecords.PRICE_OFFSET, (int)order.price, OrderRecords.ORDER);
        buffer.putInt(offset + OrderRecords.TIME_IN_FORCE_OFFSET, (int)order.timeInForce, OrderRecords.ORDER);
        buffer.putInt(offset + OrderRecords.MINIMUM_QUANTITY_OFFSET, (int)order.minimumQuantity, OrderRecords.ORDER);
        buffer.putInt(offset + OrderRecords.FIRM_OFFSET, order.firm, OrderRecords.ORDER);
        buffer.putBytes(offset + OrderRecords.ORDER_TOKEN_OFFSET, order.token);
        if (OrderRecords.REPLACEMENT_SENT == recordType)
        {
            buffer.putBytes(offset + OrderRecords.PREVIOUS_ORDER_TOKEN_OFFSET, order.previousToken);
        }
        else
        {
            buffer.setMemory(offset + OrderRecords.PREVIOUS_ORDER_TOKEN_OFFSET, Ouch42.TOKEN_LENGTH, (byte)' ');
        }
        order.session.commitPrivate(OrderRecords.ORDER_LENGTH);
    }
}
