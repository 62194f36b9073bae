package io.bourse.ouch;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * OUCH 4.2 System Event ('S', outbound): signals a market-wide event such as the start or end of the day.
 * <pre>
 * +--------+--------+-----------------------+
 * | Offset | Length | Field                 |
 * +--------+--------+-----------------------+
 * |      0 |      1 | Message Type 'S'      |
 * |      1 |      8 | Timestamp (integer)   |
 * |      9 |      1 | Event Code (alpha)    |
 * +--------+--------+-----------------------+
 * Total: 10 bytes; integers big-endian, unsigned; alphas ASCII, space padded on the right.
 * </pre>
 */
public final class SystemEvent extends OuchFlyweight
{
    /** Message Type. */
    public static final byte TYPE = Ouch42.SYSTEM_EVENT;
    /** Length of the message in bytes, Message Type included. */
    public static final int LENGTH = 10;

    /** Offset of Message Type. */
    public static final int MESSAGE_TYPE_OFFSET = 0;
    /** Offset of Timestamp (integer 8). */
    public static final int TIMESTAMP_OFFSET = 1;
    /** Offset of Event Code (alpha 1). */
    public static final int EVENT_CODE_OFFSET = 9;

    /**
     * Wraps a message for reading, or for writing when the buffer is a {@link MutableDirectBuffer}.
     *
     * @param buffer holding the message.
     * @param offset of the Message Type byte.
     * @return this.
     */
    public SystemEvent wrap(final DirectBuffer buffer, final int offset)
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
    public SystemEvent wrapAndApplyType(final MutableDirectBuffer buffer, final int offset)
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
    public SystemEvent timestamp(final long value)
    {
        putInt64(TIMESTAMP_OFFSET, value);
        return this;
    }

    /** @return Event Code: 'S' start of day, 'E' end of day. */
    public byte eventCode()
    {
        return getChar(EVENT_CODE_OFFSET);
    }

    /**
     * @param value Event Code code.
     * @return this.
     */
    public SystemEvent eventCode(final byte value)
    {
        putChar(EVENT_CODE_OFFSET, value);
        return this;
    }
}
