package io.bourse.common.net;

import com.paritytrading.nassau.soupbintcp.SoupBinTCP;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Locale;

/**
 * SoupBinTCP 4.0 Login Request, Requested Sequence Number: a Numeric field of 20 bytes, ASCII digits padded with
 * spaces (right-justified by the spec; left-justified is taken too). Read strictly here: nassau 1.0.0's
 * {@code LoginRequest.getRequestedSequenceNumber()} takes any byte as a digit ("x3" reads as 723, "3x" as 102), wraps
 * past 2^63 and reads "-3" as -3: a malformed field got a replay from an arbitrary message, or silently none.
 * nassau keeps the field's bytes private, so they are read through a {@link VarHandle}, looked up when the reader is
 * made (once per service, at its start: the order gateway's session registry, the fanout's workers), so that a nassau
 * without that field fails the start rather than each login.
 */
public final class RequestedSequenceNumber
{
    /** {@link #parse} of a field that is not a number: blank, a sign, a byte other than a digit or a space. */
    public static final long MALFORMED = -1;

    private final VarHandle field;

    /**
     * @throws IllegalStateException when nassau's Login Request has no {@code byte[] requestedSequenceNumber} field.
     */
    public RequestedSequenceNumber()
    {
        try
        {
            field = MethodHandles.privateLookupIn(SoupBinTCP.LoginRequest.class, MethodHandles.lookup())
                .findVarHandle(SoupBinTCP.LoginRequest.class, "requestedSequenceNumber", byte[].class);
        }
        catch (final ReflectiveOperationException ex)
        {
            throw new IllegalStateException("nassau's SoupBinTCP.LoginRequest has no byte[] requestedSequenceNumber " +
                "field to read the Requested Sequence Number from", ex);
        }
    }

    /**
     * @param request a Login Request nassau has read.
     * @return its Requested Sequence Number, 0 and up ({@link Long#MAX_VALUE} for a number past it, which is past any
     * session's next message), or {@link #MALFORMED}.
     */
    public long read(final SoupBinTCP.LoginRequest request)
    {
        return parse((byte[])field.get(request));
    }

    /**
     * @param field the field's bytes, ASCII.
     * @return the number its digits give, 0 and up ({@link Long#MAX_VALUE} for a number past it); {@link #MALFORMED}
     * unless the field is spaces, then one or more digits, then spaces.
     */
    public static long parse(final byte[] field)
    {
        int i = 0;
        while (i < field.length && ' ' == field[i])
        {
            i++;
        }
        final int firstDigit = i;
        long value = 0;
        while (i < field.length && field[i] >= '0' && field[i] <= '9')
        {
            final int digit = field[i] - '0';
            value = value > (Long.MAX_VALUE - digit) / 10 ? Long.MAX_VALUE : value * 10 + digit;
            i++;
        }
        if (i == firstDigit)
        {
            return MALFORMED;
        }
        while (i < field.length && ' ' == field[i])
        {
            i++;
        }
        return i == field.length ? value : MALFORMED;
    }

    /** @return the field's text for a log, in quotes: its printable ASCII bytes as they are, any other as \xNN. */
    public String text(final SoupBinTCP.LoginRequest request)
    {
        final StringBuilder text = new StringBuilder("'");
        for (final byte b : (byte[])field.get(request))
        {
            if (b >= ' ' && b <= '~')
            {
                text.append((char)b);
            }
            else
            {
                text.append(String.format(Locale.ROOT, "\\x%02X", b & 0xFF));
            }
        }
        return text.append('\'').toString();
    }
}
