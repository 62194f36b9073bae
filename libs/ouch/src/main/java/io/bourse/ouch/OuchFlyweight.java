package io.bourse.ouch;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

import java.nio.ByteOrder;

/**
 * What every OUCH 4.2 message flyweight shares: the wrapped buffer and offset, the Message Type and fixed length, and
 * the field encodings of OUCH 4.2 §1.2 "Data Types" — integers big-endian and unsigned, alphas ASCII, left-justified
 * and padded on the right with spaces. Each message class names its fields as the spec does and delegates to the
 * helpers here with the field's offset; the setters return the message itself so that they chain. Reading needs any
 * {@link DirectBuffer}; the setters need the wrapped buffer to be a {@link MutableDirectBuffer} and throw
 * {@link IllegalStateException} otherwise. Field lengths are not checked against the buffer's capacity here: the
 * caller checks the message length (e.g. {@code length == LENGTH}) before wrapping, as the spec's fixed layouts allow.
 *
 * @param <F> the message class, returned by the setters.
 */
public abstract class OuchFlyweight<F extends OuchFlyweight<F>>
{
    private static final ByteOrder BYTE_ORDER = ByteOrder.BIG_ENDIAN;
    private static final long UINT32_MASK = 0xFFFF_FFFFL;

    private final byte type;
    private final int length;
    private DirectBuffer buffer;
    private MutableDirectBuffer mutableBuffer;
    private int offset;

    OuchFlyweight(final byte type, final int length)
    {
        this.type = type;
        this.length = length;
    }

    /**
     * Wraps a message for reading, or for writing when the buffer is a {@link MutableDirectBuffer}.
     *
     * @param buffer holding the message.
     * @param offset of the Message Type byte.
     * @return this.
     */
    public final F wrap(final DirectBuffer buffer, final int offset)
    {
        this.buffer = buffer;
        this.mutableBuffer = buffer instanceof MutableDirectBuffer mutable ? mutable : null;
        this.offset = offset;
        return self();
    }

    /**
     * Wraps a buffer for writing and puts the Message Type; the other fields are left for the setters.
     *
     * @param buffer to write to, with at least {@link #encodedLength()} bytes from offset.
     * @param offset of the Message Type byte.
     * @return this.
     */
    public final F wrapAndApplyType(final MutableDirectBuffer buffer, final int offset)
    {
        wrap(buffer, offset);
        return putChar(0, type);
    }

    /** @return the wrapped buffer. */
    public final DirectBuffer buffer()
    {
        return buffer;
    }

    /** @return offset of the message's first byte (the Message Type) in the wrapped buffer. */
    public final int offset()
    {
        return offset;
    }

    /** @return length of the message in bytes, Message Type included (the class's {@code LENGTH}). */
    public final int encodedLength()
    {
        return length;
    }

    /** @return the Message Type byte as it stands in the buffer. */
    public final byte messageType()
    {
        return buffer.getByte(offset);
    }

    /**
     * @param fieldOffset of an alpha 1 field from the Message Type byte.
     * @return the field's byte.
     */
    protected final byte getChar(final int fieldOffset)
    {
        return buffer.getByte(offset + fieldOffset);
    }

    /**
     * @param fieldOffset of an alpha 1 field from the Message Type byte.
     * @param value       the field's byte.
     * @return this.
     */
    protected final F putChar(final int fieldOffset, final byte value)
    {
        mutableBuffer().putByte(offset + fieldOffset, value);
        return self();
    }

    /**
     * @param fieldOffset of an integer 4 (or price 4) field from the Message Type byte.
     * @return the field, unsigned.
     */
    protected final long getUInt32(final int fieldOffset)
    {
        return buffer.getInt(offset + fieldOffset, BYTE_ORDER) & UINT32_MASK;
    }

    /**
     * @param fieldOffset of an integer 4 (or price 4) field from the Message Type byte.
     * @param value       the field; the low 32 bits are written.
     * @return this.
     */
    protected final F putUInt32(final int fieldOffset, final long value)
    {
        mutableBuffer().putInt(offset + fieldOffset, (int)value, BYTE_ORDER);
        return self();
    }

    /**
     * @param fieldOffset of a 4-byte field from the Message Type byte.
     * @return the 4 bytes as a big-endian int.
     */
    protected final int getInt32(final int fieldOffset)
    {
        return buffer.getInt(offset + fieldOffset, BYTE_ORDER);
    }

    /**
     * @param fieldOffset of a 4-byte field from the Message Type byte.
     * @param value       the 4 bytes as a big-endian int.
     * @return this.
     */
    protected final F putInt32(final int fieldOffset, final int value)
    {
        mutableBuffer().putInt(offset + fieldOffset, value, BYTE_ORDER);
        return self();
    }

    /**
     * @param fieldOffset of an 8-byte field (integer 8, or an alpha 8 read whole) from the Message Type byte.
     * @return the 8 bytes as a big-endian long.
     */
    protected final long getInt64(final int fieldOffset)
    {
        return buffer.getLong(offset + fieldOffset, BYTE_ORDER);
    }

    /**
     * @param fieldOffset of an 8-byte field (integer 8, or an alpha 8 written whole) from the Message Type byte.
     * @param value       the 8 bytes as a big-endian long.
     * @return this.
     */
    protected final F putInt64(final int fieldOffset, final long value)
    {
        mutableBuffer().putLong(offset + fieldOffset, value, BYTE_ORDER);
        return self();
    }

    /**
     * Copies an Order Token (alpha 14) as it stands, padding included.
     *
     * @param fieldOffset of the token from the Message Type byte.
     * @param dst         receives the 14 bytes from index 0.
     */
    protected final void getToken(final int fieldOffset, final byte[] dst)
    {
        buffer.getBytes(offset + fieldOffset, dst, 0, Ouch42.TOKEN_LENGTH);
    }

    /**
     * @param fieldOffset of an Order Token (alpha 14) from the Message Type byte.
     * @param src         the 14 bytes of the token, already space padded, from index 0.
     * @return this.
     */
    protected final F putToken(final int fieldOffset, final byte[] src)
    {
        mutableBuffer().putBytes(offset + fieldOffset, src, 0, Ouch42.TOKEN_LENGTH);
        return self();
    }

    /**
     * @param fieldOffset of an Order Token (alpha 14) from the Message Type byte.
     * @param src         buffer holding the 14 bytes of the token, already space padded.
     * @param srcOffset   of the first byte.
     * @return this.
     */
    protected final F putToken(final int fieldOffset, final DirectBuffer src, final int srcOffset)
    {
        mutableBuffer().putBytes(offset + fieldOffset, src, srcOffset, Ouch42.TOKEN_LENGTH);
        return self();
    }

    /**
     * @param fieldOffset of an Order Token (alpha 14) from the Message Type byte.
     * @param token       at most 14 ASCII characters; space padded on the right.
     * @return this.
     * @throws IllegalArgumentException when longer than 14 characters or not ASCII.
     */
    protected final F putToken(final int fieldOffset, final CharSequence token)
    {
        return putAlpha(fieldOffset, Ouch42.TOKEN_LENGTH, token);
    }

    /**
     * @param fieldOffset of an Order Token (alpha 14) from the Message Type byte.
     * @return the token without its padding (allocates).
     */
    protected final String getTokenAsString(final int fieldOffset)
    {
        return getAlphaAsString(fieldOffset, Ouch42.TOKEN_LENGTH);
    }

    /**
     * Writes an alpha field, left-justified and padded on the right with spaces (OUCH 4.2 §1.2).
     *
     * @param fieldOffset of the field from the Message Type byte.
     * @param length      of the field in bytes.
     * @param value       at most {@code length} ASCII characters.
     * @return this.
     * @throws IllegalArgumentException when longer than the field or not ASCII.
     */
    protected final F putAlpha(final int fieldOffset, final int length, final CharSequence value)
    {
        final int valueLength = value.length();
        if (valueLength > length)
        {
            throw new IllegalArgumentException("longer than " + length + " characters: " + value);
        }
        final MutableDirectBuffer dst = mutableBuffer();
        final int start = offset + fieldOffset;
        for (int i = 0; i < length; i++)
        {
            final char c = i < valueLength ? value.charAt(i) : ' ';
            if (c > 0x7F)
            {
                throw new IllegalArgumentException("not ASCII: " + value);
            }
            dst.putByte(start + i, (byte)c);
        }
        return self();
    }

    /**
     * @param fieldOffset of an alpha field from the Message Type byte.
     * @param length      of the field in bytes.
     * @return the field without its right padding (allocates).
     */
    protected final String getAlphaAsString(final int fieldOffset, final int length)
    {
        final int start = offset + fieldOffset;
        int end = length;
        while (end > 0 && buffer.getByte(start + end - 1) == ' ')
        {
            end--;
        }
        return buffer.getStringWithoutLengthAscii(start, end);
    }

    private MutableDirectBuffer mutableBuffer()
    {
        if (null == mutableBuffer)
        {
            throw new IllegalStateException("wrapped buffer is read-only: " + buffer.getClass().getName());
        }
        return mutableBuffer;
    }

    @SuppressWarnings("unchecked")
    private F self()
    {
        // Safe: each message class extends OuchFlyweight with itself as F.
        return (F)this;
    }
}
