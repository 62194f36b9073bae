package io.bourse.ouch;

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
public final class SystemEvent extends OuchFlyweight<SystemEvent>
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

    /** Creates an unwrapped flyweight: call {@link #wrap} or {@link #wrapAndApplyType} before the accessors. */
    public SystemEvent()
    {
        super(TYPE, LENGTH);
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
        return putInt64(TIMESTAMP_OFFSET, value);
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
        return putChar(EVENT_CODE_OFFSET, value);
    }
}
