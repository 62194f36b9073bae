package io.bourse.ouch;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * OUCH 4.2 Canceled ('C', outbound): the order was reduced or canceled, on request or by the exchange.
 * <pre>
 * +--------+--------+------------------------------+
 * | Offset | Length | Field                        |
 * +--------+--------+------------------------------+
 * |      0 |      1 | Message Type 'C'             |
 * |      1 |      8 | Timestamp (integer)          |
 * |      9 |     14 | Order Token (alpha)          |
 * |     23 |      4 | Decrement Shares (integer)   |
 * |     27 |      1 | Reason (alpha)               |
 * +--------+--------+------------------------------+
 * Total: 28 bytes; integers big-endian, unsigned; alphas ASCII, space padded on the right.
 * </pre>
 * The {@code String} forms of the alpha fields allocate: they are for tests and tools, not for hot paths.
 */
public final class OrderCanceled extends OuchFlyweight
{
    /** Message Type. */
    public static final byte TYPE = Ouch42.CANCELED;
    /** Length of the message in bytes, Message Type included. */
    public static final int LENGTH = 28;

    /** Offset of Message Type. */
    public static final int MESSAGE_TYPE_OFFSET = 0;
    /** Offset of Timestamp (integer 8). */
    public static final int TIMESTAMP_OFFSET = 1;
    /** Offset of Order Token (alpha 14). */
    public static final int ORDER_TOKEN_OFFSET = 9;
    /** Offset of Decrement Shares (integer 4). */
    public static final int DECREMENT_SHARES_OFFSET = 23;
    /** Offset of Reason (alpha 1). */
    public static final int REASON_OFFSET = 27;

    /**
     * Wraps a message for reading, or for writing when the buffer is a {@link MutableDirectBuffer}.
     *
     * @param buffer holding the message.
     * @param offset of the Message Type byte.
     * @return this.
     */
    public OrderCanceled wrap(final DirectBuffer buffer, final int offset)
    {
        wrapBuffer(buffer, offset);
        return this;
    }

    /**
     * Wraps a buffer for writing and puts the Message Type; the other fields are left for the setters.
     *
     * @param buffer to write to, with at least {@link #LENGTH} bytes from offset.
     * @param offset of the Message Type byte.
     * @return this.
     */
    public OrderCanceled wrapAndApplyType(final MutableDirectBuffer buffer, final int offset)
    {
        wrapBuffer(buffer, offset);
        putChar(MESSAGE_TYPE_OFFSET, TYPE);
        return this;
    }

    /** {@inheritDoc} */
    @Override
    public int encodedLength()
    {
        return LENGTH;
    }

    /** @return Timestamp in nanoseconds since midnight. */
    public long timestamp()
    {
        return getInt64(TIMESTAMP_OFFSET);
    }

    /**
     * @param value Timestamp.
     * @return this.
     */
    public OrderCanceled timestamp(final long value)
    {
        putInt64(TIMESTAMP_OFFSET, value);
        return this;
    }

    /**
     * Copies the Order Token.
     *
     * @param dst receives the 14 bytes as they stand, padding included, from index 0.
     */
    public void getOrderToken(final byte[] dst)
    {
        getAlpha(ORDER_TOKEN_OFFSET, Ouch42.TOKEN_LENGTH, dst, 0);
    }

    /**
     * @param src the 14 bytes of the Order Token, already space padded, from index 0.
     * @return this.
     */
    public OrderCanceled orderToken(final byte[] src)
    {
        putAlpha(ORDER_TOKEN_OFFSET, Ouch42.TOKEN_LENGTH, src, 0);
        return this;
    }

    /**
     * @param src buffer holding the 14 bytes of the Order Token, already space padded.
     * @param srcOffset of the first byte.
     * @return this.
     */
    public OrderCanceled orderToken(final DirectBuffer src, final int srcOffset)
    {
        putAlpha(ORDER_TOKEN_OFFSET, Ouch42.TOKEN_LENGTH, src, srcOffset);
        return this;
    }

    /**
     * @param token at most 14 ASCII characters; space padded on the right (allocation free, but meant for tools).
     * @return this.
     * @throws IllegalArgumentException when longer than 14 characters or not ASCII.
     */
    public OrderCanceled orderToken(final String token)
    {
        putAlpha(ORDER_TOKEN_OFFSET, Ouch42.TOKEN_LENGTH, token);
        return this;
    }

    /** @return the Order Token without its padding (allocates). */
    public String orderTokenAsString()
    {
        return getAlphaAsString(ORDER_TOKEN_OFFSET, Ouch42.TOKEN_LENGTH);
    }

    /** @return Decrement Shares: shares taken off the order by this cancel, unsigned. */
    public long decrementShares()
    {
        return getUInt32(DECREMENT_SHARES_OFFSET);
    }

    /**
     * @param value Decrement Shares; the low 32 bits are written.
     * @return this.
     */
    public OrderCanceled decrementShares(final long value)
    {
        putUInt32(DECREMENT_SHARES_OFFSET, value);
        return this;
    }

    /** @return Reason: why the order was canceled, a {@code CANCEL_*} code of {@link Ouch42}. */
    public byte reason()
    {
        return getChar(REASON_OFFSET);
    }

    /**
     * @param value Reason code.
     * @return this.
     */
    public OrderCanceled reason(final byte value)
    {
        putChar(REASON_OFFSET, value);
        return this;
    }
}
