package io.bourse.simulator;

import java.nio.charset.StandardCharsets;

/**
 * OUCH 4.2 Order Tokens of one session: 14 ASCII bytes, a 6-character prefix (4 base-36 digits of a run id, then 2
 * base-36 digits of the session index) followed by a per-session counter in base 36, space padded on the right.
 * Tokens are unique per session per day as long as two runs do not share a run id; the default run id
 * ({@link #runIdAt(long)}) tells apart any two runs started at least 100 ms and less than 46 hours apart, a gateway
 * that never closes its day included. Encoding and decoding work on caller-supplied arrays and never allocate.
 *
 * <pre>
 *   0   1   2   3   4   5   6 ...                      13
 * +---------------+-------+------------------------------+
 * |  run id (4)   |sess(2)| counter, base 36, then spaces|
 * +---------------+-------+------------------------------+
 * </pre>
 */
public final class OrderTokens
{
    /** OUCH 4.2 Order Token length in bytes. */
    public static final int LENGTH = 14;
    /** Highest run id: four base-36 digits. */
    public static final int MAX_RUN_ID = 36 * 36 * 36 * 36 - 1;
    /** Highest session index: two base-36 digits. */
    public static final int MAX_SESSION_INDEX = 36 * 36 - 1;
    /** Highest counter: eight base-36 digits. */
    public static final long MAX_COUNTER = 2_821_109_907_455L;

    /** Time the default run id stays the same, in milliseconds: a tenth of a second. */
    public static final long RUN_ID_STEP_MS = 100;

    private static final int PREFIX_LENGTH = 6;
    private static final int RADIX = 36;
    private static final byte[] DIGITS = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ".getBytes(StandardCharsets.US_ASCII);

    private final byte[] prefix = new byte[PREFIX_LENGTH];
    private final byte[] scratch = new byte[LENGTH];

    /**
     * The default run id of a run started at a time: the tenths of a second since the epoch, modulo
     * {@value #MAX_RUN_ID} + 1, so that it repeats only every 1,679,616 tenths of a second (46.7 hours).
     *
     * @param epochMs the run's start, in milliseconds since the epoch.
     * @return 0..{@value #MAX_RUN_ID}.
     */
    public static int runIdAt(final long epochMs)
    {
        return (int)Math.floorMod(Math.floorDiv(epochMs, RUN_ID_STEP_MS), MAX_RUN_ID + 1L);
    }

    /**
     * @param runId        0..{@value #MAX_RUN_ID}, distinguishes runs on the same day.
     * @param sessionIndex 0..{@value #MAX_SESSION_INDEX}, distinguishes sessions of one run.
     * @throws IllegalArgumentException when either is out of range.
     */
    public OrderTokens(final int runId, final int sessionIndex)
    {
        if (runId < 0 || runId > MAX_RUN_ID)
        {
            throw new IllegalArgumentException("runId out of range 0.." + MAX_RUN_ID + ": " + runId);
        }
        if (sessionIndex < 0 || sessionIndex > MAX_SESSION_INDEX)
        {
            throw new IllegalArgumentException(
                "sessionIndex out of range 0.." + MAX_SESSION_INDEX + ": " + sessionIndex);
        }
        putFixed(runId, prefix, 0, 4);
        putFixed(sessionIndex, prefix, 4, 2);
    }

    /**
     * Writes the token of a counter.
     *
     * @param counter 1..{@value #MAX_COUNTER}.
     * @param token   destination, at least {@value #LENGTH} bytes.
     * @throws IllegalArgumentException when the counter is out of range.
     */
    public void encode(final long counter, final byte[] token)
    {
        if (counter < 1 || counter > MAX_COUNTER)
        {
            throw new IllegalArgumentException("token counter out of range: " + counter);
        }
        System.arraycopy(prefix, 0, token, 0, PREFIX_LENGTH);
        int digits = 0;
        for (long value = counter; value != 0; value /= RADIX)
        {
            scratch[digits++] = DIGITS[(int)(value % RADIX)];
        }
        int i = PREFIX_LENGTH;
        while (digits > 0)
        {
            token[i++] = scratch[--digits];
        }
        while (i < LENGTH)
        {
            token[i++] = ' ';
        }
    }

    /**
     * @param token {@value #LENGTH} bytes as received.
     * @return the counter, or -1 when the token is not one of this session's (other prefix, bad digit).
     */
    public long decode(final byte[] token)
    {
        for (int i = 0; i < PREFIX_LENGTH; i++)
        {
            if (token[i] != prefix[i])
            {
                return -1;
            }
        }
        long counter = 0;
        int i = PREFIX_LENGTH;
        for (; i < LENGTH && token[i] != ' '; i++)
        {
            final int digit = digit(token[i]);
            if (digit < 0)
            {
                return -1;
            }
            counter = counter * RADIX + digit;
        }
        for (; i < LENGTH; i++)
        {
            if (token[i] != ' ')
            {
                return -1;
            }
        }
        return counter > 0 ? counter : -1;
    }

    private static int digit(final byte b)
    {
        if (b >= '0' && b <= '9')
        {
            return b - '0';
        }
        if (b >= 'A' && b <= 'Z')
        {
            return b - 'A' + 10;
        }
        return -1;
    }

    private static void putFixed(final int value, final byte[] dst, final int offset, final int width)
    {
        int remaining = value;
        for (int i = offset + width - 1; i >= offset; i--)
        {
            dst[i] = DIGITS[remaining % RADIX];
            remaining /= RADIX;
        }
    }
}
