package io.bourse.ouch;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * Builds a message byte by byte from an OUCH 4.2 specification table, independently of the flyweights: integers
 * big-endian through {@link DataOutputStream}, alphas ASCII padded with spaces.
 */
final class SpecBytes
{
    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    private final DataOutputStream out = new DataOutputStream(bytes);

    SpecBytes alpha(final String value, final int length)
    {
        try
        {
            out.write(String.format("%-" + length + "s", value).getBytes(StandardCharsets.US_ASCII));
            return this;
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }

    SpecBytes alpha(final char value)
    {
        return alpha(String.valueOf(value), 1);
    }

    SpecBytes integer4(final long value)
    {
        try
        {
            out.writeInt((int)value);
            return this;
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }

    SpecBytes integer8(final long value)
    {
        try
        {
            out.writeLong(value);
            return this;
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }

    byte[] toByteArray()
    {
        return bytes.toByteArray();
    }
}
