package io.bourse.ouch;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

import java.nio.ByteOrder;

/**
 * What every OUCH 4.2 message flyweight shares: the wrapped buffer and offset, and the field encodings of OUCH 4.2
 * §2 "Data Types" — integers big-endian and unsigned, alphas ASCII, left-justified and padded on the right with
 * spaces. Reading needs any {@link DirectBuffer}; the setters need the wrapped buffer to be a
 * {@link MutableDirectBuffer} and throw {@link IllegalStateException} otherwise. Field lengths are not checked
 * against the buffer's capacity here: the caller checks the message length (e.g. {@code length == LENGTH}) before
 * wrapping, as the spec's fixed layouts allow.
 */
public abstract class OuchFlyweight
{
    private static final ByteOrder BYTE_ORDER = ByteOrder.BIG_ENDIAN;
    private static final long UINT32_MASK = 0xFFFF_FFFFL;

    private DirectBuffer buffer;
    private MutableDirectBuffer mutableBuffer;
    private int offset;

    OuchFlyweight()
    {
    }

    final void wrapBuffer(final DirectBuffer buffer, final int offset)
    {
        this.buffer = buffer;
        this.mutableBuffer = buffer instanceof MutableDirectBuffer mutable ? mutable : null;
        this.offset = offset;
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
    public abstract int encodedLength();

    /** @return the Message Type byte as it stands in the buffer. */
    public final byte messageType()
    {
        return buffer.getByte(offset);
    }

    final MutableDirectBuffer mutableBuffer()
    {
        if (null == mutableBuffer)
        {
            throw new IllegalStateException("wrapped buffer is read-only: " + buffer.getClass().getName());
        }
        return mutableBuffer;
    }

    final byte getChar(final int fieldOffset)
    {
        return buffer.getByte(offset + fieldOffset);
    }

    final void putChar(final int fieldOffset, final byte value)
    {
        mutableBuffer().putByte(offset + fieldOffset, value);
    }

    final long getUInt32(final int fieldOffset)
    {
        return buffer.getInt(offset + fieldOffset, BYTE_ORDER) & UINT32_MASK;
    }

    final void putUInt32(final int fieldOffset, final long value)
    {
        mutableBuffer().putInt(offset + fieldOffset, (int)value, BYTE_ORDER);
    }

    final int getInt32(final int fieldOffset)
    {
        return buffer.getInt(offset + fieldOffset, BYTE_ORDER);
    }

    final void putInt32(final int fieldOffset, final int value)
    {
        mutableBuffer().putInt(offset + fieldOffset, value, BYTE_ORDER);
    }

    final long getInt64(final int fieldOffset)
    {
        return buffer.getLong(offset + fieldOffset, BYTE_ORDER);
    }

    final void putInt64(final int fieldOffset, final long value)
    {
        mutableBuffer().putLong(offset + fieldOffset, value, BYTE_ORDER);
    }

    final void getAlpha(final int fieldOffset, final int length, final byte[] dst, final int dstOffset)
    {
        buffer.getBytes(offset + fieldOffset, dst, dstOffset, length);
    }

    final void putAlpha(final int fieldOffset, final int length, final byte[] src, final int srcOffset)
    {
        mutableBuffer().putBytes(offset + fieldOffset, src, srcOffset, length);
    }

    final void putAlpha(final int fieldOffset, final int length, final DirectBuffer src, final int srcOffset)
    {
        mutableBuffer().putBytes(offset + fieldOffset, src, srcOffset, length);
    }

    final void putAlpha(final int fieldOffset, final int length, final CharSequence value)
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
    }

    final String getAlphaAsString(final int fieldOffset, final int length)
    {
        final int start = offset + fieldOffset;
        int end = length;
        while (end > 0 && buffer.getByte(start + end - 1) == ' ')
        {
            end--;
        }
        return buffer.getStringWithoutLengthAscii(start, end);
    }
}
