package io.bourse.gateway;

import com.paritytrading.nassau.soupbintcp.SoupBinTCP;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Locale;

/**
 * SoupBinTCP 4.0 Login Request, Requested Sequence Number: a Numeric field of 20 bytes, ASCII digits padded with
 * spaces (right-justified by the spec; left-justified is taken too). Read strictly here: nassau 1.0.0's
 * {@code LoginRequest.getRequestedSequenceNumber()} takes any byte as a digit ("x3" reads as 723, "3x" as 102), wraps
 * past 2^63 and reads "-3" as -3: a malformed field got a replay from an arbitrary message, or silently none.
 * nassau keeps the field's bytes private, so they are read through a {@link VarHandle}; a nassau without that field
 * fails this class's initialisation ({@link #ensureReadable()}, at the gateway's start), which its tests show.
 */
final class RequestedSequenceNumber
{
    /** {@link #parse} of a field that is not a number: blank, a sign, a byte other than a digit or a space. */
    static final long MALFORMED = -1;

    private static final VarHandle FIELD = fieldHandle();

    private RequestedSequenceNumber()
    {
    }

    /**
     * Initialises this class, so that a nassau whose Login Request has no such field fails the gateway's start rather
     * than each login.
     *
     * @throws ExceptionInInitializerError when nassau's Login Request has no {@code byte[] requestedSequenceNumber}.
     */
    static void ensureReadable()
    {
        // Calling a static method initialises the class: FIELD is looked up.
    }

    /**
     * @param request a Login Request nassau has read.
     * @return its Requested Sequence Number, 0 and up ({@link Long#MAX_VALUE} for a number past it, which is past any
     * session's next message), or {@link #MALFORMED}.
     */
    static long read(final SoupBinTCP.LoginRequest request)
    {
        return parse((byte[])FIELD.get(request));
    }

    /**
     * @param field the field's bytes, ASCII.
     * @return the number its digits give, 0 and up ({@link Long#MAX_VALUE} for a number past it); {@link #MALFORMED}
     * unless the field is spaces, then one or more digits, then spaces.
     */
    static long parse(final byte[] field)
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
    static String text(final SoupBinTCP.LoginRequest request)
    {
        final StringBuilder text = new StringBuilder("'");
        for (final byte b : (byte[])FIELD.get(request))
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

    private static VarHandle fieldHandle()
    {
        try
        {
            return MethodHandles.privateLookupIn(SoupBinTCP.LoginRequest.class, MethodHandles.lookup())
                .findVarHandle(SoupBinTCP.LoginRequest.class, "requestedSequenceNumber", byte[].class);
        }
        catch (final ReflectiveOperationException ex)
        {
            throw new ExceptionInInitializerError(ex);
        }
    }
}
