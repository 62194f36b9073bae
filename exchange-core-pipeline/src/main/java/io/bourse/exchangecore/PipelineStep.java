package io.bourse.exchangecore;

import org.HdrHistogram.Histogram;

import java.nio.ByteBuffer;
import java.util.Base64;
import java.util.zip.DataFormatException;

/**
 * One rate step of exchange-core's pipeline ramp ({@link ExchangeCorePipelineRamp}), and the line that carries it
 * from the JDK 17 child process to the benchmark that started it:
 * {@code STEP <rate> <commands> <elapsedNs> <failures> <trades> <histogram>}, the histogram in HdrHistogram's
 * compressed encoding, Base64.
 *
 * @param rate      commands per second offered.
 * @param commands  BENCH commands sent.
 * @param elapsedNs from the first command's intended send time to the last command's result, ns.
 * @param failures  commands whose result was not SUCCESS (none in exchange-core's stream: every command succeeds).
 * @param trades    trade events of the step's commands.
 * @param histogram latency of every BENCH command, ns, from its intended send time to its result at exchange-core's
 *                  results consumer.
 */
public record PipelineStep(long rate, int commands, long elapsedNs, long failures, long trades, Histogram histogram)
{
    /** First word of a step line. */
    public static final String PREFIX = "STEP ";

    /**
     * @return the line, without a line separator.
     */
    public String toLine()
    {
        final ByteBuffer buffer = ByteBuffer.allocate(histogram.getNeededByteBufferCapacity());
        final int length = histogram.encodeIntoCompressedByteBuffer(buffer);
        final byte[] encoded = new byte[length];
        buffer.flip();
        buffer.get(encoded);
        return PREFIX + rate + ' ' + commands + ' ' + elapsedNs + ' ' + failures + ' ' + trades + ' ' +
            Base64.getEncoder().encodeToString(encoded);
    }

    /**
     * @return BENCH commands per second, over {@link #elapsedNs()}.
     */
    public double achievedRate()
    {
        return commands * 1e9 / elapsedNs;
    }

    /**
     * @param line a line of {@link #toLine()}.
     * @return the step it carries.
     * @throws IllegalArgumentException when the line is not a step line or its histogram does not decode.
     */
    public static PipelineStep parse(final String line)
    {
        final String[] fields = line.split(" ");
        if (!line.startsWith(PREFIX) || fields.length != 7)
        {
            throw new IllegalArgumentException("not a step line: " + line);
        }
        try
        {
            final Histogram histogram = Histogram.decodeFromCompressedByteBuffer(
                ByteBuffer.wrap(Base64.getDecoder().decode(fields[6])), 0);
            return new PipelineStep(Long.parseLong(fields[1]), Integer.parseInt(fields[2]), Long.parseLong(fields[3]),
                Long.parseLong(fields[4]), Long.parseLong(fields[5]), histogram);
        }
        catch (final DataFormatException | RuntimeException ex)
        {
            throw new IllegalArgumentException("bad step line: " + ex.getMessage() + ": " + line, ex);
        }
    }
}
