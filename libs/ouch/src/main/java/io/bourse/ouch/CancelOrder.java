package io.bourse.ouch;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * OUCH 4.2 Cancel Order ('X', inbound): reduce an order to a new intended size; Shares 0 cancels it entirely.
 * <pre>
 * +--------+--------+-----------------------+
 * | Offset | Length | Field                 |
 * +--------+--------+-----------------------+
 * |      0 |      1 | Message Type 'X'      |
 * |      1 |     14 | Order Token (alpha)   |
 * |     15 |      4 | Shares (integer)      |
 * +--------+--------+-----------------------+
 * Total: 19 bytes; integers big-endian, unsigned; alphas ASCII, space padded on the right.
 * </pre>
 * The {@code String} forms of the alpha fields allocate: they are for tests and tools, not for hot paths.
 */
public final class CancelOrder extends OuchFlyweight
{
    /** Message Type. */
    public static final byte TYPE = Ouch42.CANCEL_ORDER;
    /** Length of the message in bytes, Message Type included. */
    public static final int LENGTH = 19;

    /** Offset of Message Type. */
    public static final int MESSAGE_TYPE_OFFSET = 0;
    /** Offset of Order Token (alpha 14). */
    public static final int ORDER_TOKEN_OFFSET = 1;
    /** Offset of Shares (integer 4). */
    public static final int SHARES_OFFSET = 15;

    /**
     * Wraps a message for reading, or for writing when the buffer is a {@link MutableDirectBuffer}.
     *
     * @param buffer holding the message.
     * @param offset of the Message Type byte.
     * @return this.
     */
    public CancelOrder wrap(final DirectBuffer buffer, final int offset)
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
    public CancelOrder wrapAndApplyType(final MutableDirectBuffer buffer, final int offset)
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
    public CancelOrder orderToken(final byte[] src)
    {
        putAlpha(ORDER_TOKEN_OFFSET, Ouch42.TOKEN_LENGTH, src, 0);
        return this;
    }

    /**
     * @param src buffer holding the 14 bytes of the Order Token, already space padded.
     * @param srcOffset of the first byte.
     * @return this.
     */
    public CancelOrder orderToken(final DirectBuffer src, final int srcOffset)
    {
        putAlpha(ORDER_TOKEN_OFFSET, Ouch42.TOKEN_LENGTH, src, srcOffset);
        return this;
    }

    /**
     * @param token at most 14 ASCII characters; space padded on the right (allocation free, but meant for tools).
     * @return this.
     * @throws IllegalArgumentException when longer than 14 characters or not ASCII.
     */
    public CancelOrder orderToken(final String token)
    {
        putAlpha(ORDER_TOKEN_OFFSET, Ouch42.TOKEN_LENGTH, token);
        return this;
    }

    /** @return the Order Token without its padding (allocates). */
    public String orderTokenAsString()
    {
        return getAlphaAsString(ORDER_TOKEN_OFFSET, Ouch42.TOKEN_LENGTH);
    }

    /** @return Shares: the new intended order size, unsigned (0 cancels the whole order). */
    public long shares()
    {
        return getUInt32(SHARES_OFFSET);
    }

    /**
     * @param value Shares; the low 32 bits are written.
     * @return this.
     */
    public CancelOrder shares(final long value)
    {
        putUInt32(SHARES_OFFSET, value);
        return this;
    }
}
