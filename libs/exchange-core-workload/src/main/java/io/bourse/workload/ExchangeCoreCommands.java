package io.bourse.workload;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.zip.GZIPInputStream;

/**
 * exchange-core's benchmark command stream held in compact primitive arrays, one entry per command, so that a replay
 * or a benchmark walks it without allocating. Loaded from the {@code commands.csv(.gz)} that
 * {@code ../shared/data/exchange-core/README.md} describes, with columns
 * {@code seq,phase,cmd,order_id,uid,side,price,size,order_type,reserve_price}; {@code reserve_price} is ignored.
 *
 * <p>Prices are exchange-core ticks (tick = 1), sizes are lots; for a {@link #TYPE_FOK_BUDGET} order the price is the
 * total budget (size x per-unit limit). Rows must be in {@code seq} order starting at 0, SETUP rows before BENCH rows;
 * blank lines are skipped (an error's line number counts them).
 */
public final class ExchangeCoreCommands
{
    /** Command kind: place a new order (side, price, size, order type). */
    public static final byte PLACE = 0;
    /** Command kind: cancel an order entirely. */
    public static final byte CANCEL = 1;
    /** Command kind: move an order to a new price, losing its queue position; it can trade on arrival. */
    public static final byte MOVE = 2;
    /** Command kind: reduce an order by {@link #size(int)} lots, keeping its queue position. */
    public static final byte REDUCE = 3;

    /** Side value of a command without a side (CANCEL, MOVE, REDUCE). */
    public static final byte SIDE_NONE = -1;
    /** Side value: buy. */
    public static final byte SIDE_BUY = 0;
    /** Side value: sell. */
    public static final byte SIDE_SELL = 1;

    /** Order type value of a command that is not a PLACE. */
    public static final byte TYPE_NONE = -1;
    /** Order type: good till cancel, rests after matching. */
    public static final byte TYPE_GTC = 0;
    /** Order type: immediate or cancel, never rests. */
    public static final byte TYPE_IOC = 1;
    /** Order type: fill or kill within a total budget carried in the price column; never rests. */
    public static final byte TYPE_FOK_BUDGET = 2;

    private static final int COLUMNS = 10;
    private static final int MAX_FIELD_LENGTH = 32;
    private static final int BUFFER_SIZE = 1 << 16;
    private static final String HEADER = "seq,phase,cmd,order_id,uid,side,price,size,order_type,reserve_price";

    private final int count;
    private final int benchStart;
    private final byte[] kinds;
    private final long[] orderIds;
    private final int[] uids;
    private final byte[] sides;
    private final long[] prices;
    private final long[] sizes;
    private final byte[] orderTypes;

    private ExchangeCoreCommands(final Parser parser)
    {
        count = parser.count;
        benchStart = parser.benchStart < 0 ? parser.count : parser.benchStart;
        kinds = Arrays.copyOf(parser.kinds, count);
        orderIds = Arrays.copyOf(parser.orderIds, count);
        uids = Arrays.copyOf(parser.uids, count);
        sides = Arrays.copyOf(parser.sides, count);
        prices = Arrays.copyOf(parser.prices, count);
        sizes = Arrays.copyOf(parser.sizes, count);
        orderTypes = Arrays.copyOf(parser.orderTypes, count);
    }

    /**
     * Loads a command file, gunzipping it when its name ends in {@code .gz}.
     *
     * @param file {@code commands.csv} or {@code commands.csv.gz}.
     * @return the commands.
     * @throws UncheckedIOException     when the file cannot be read.
     * @throws IllegalArgumentException when the header or a row is malformed (the message names the line).
     */
    public static ExchangeCoreCommands load(final Path file)
    {
        try (InputStream in = open(file))
        {
            return read(in);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot read " + file, ex);
        }
    }

    /**
     * Reads commands from an uncompressed CSV stream, header line first.
     *
     * @param in the CSV bytes; not closed.
     * @return the commands.
     * @throws IOException              when reading fails.
     * @throws IllegalArgumentException when the header or a row is malformed (the message names the line).
     */
    public static ExchangeCoreCommands read(final InputStream in) throws IOException
    {
        final Parser parser = new Parser(in);
        parser.parse();
        return new ExchangeCoreCommands(parser);
    }

    private static InputStream open(final Path file) throws IOException
    {
        final InputStream raw = Files.newInputStream(file);
        return file.getFileName().toString().endsWith(".gz") ? new GZIPInputStream(raw, BUFFER_SIZE) : raw;
    }

    /** @return number of commands, SETUP and BENCH. */
    public int count()
    {
        return count;
    }

    /** @return index of the first BENCH command (the number of SETUP commands); {@link #count()} when none. */
    public int benchStart()
    {
        return benchStart;
    }

    /**
     * @param index 0-based command index (the {@code seq} column).
     * @return {@link #PLACE}, {@link #CANCEL}, {@link #MOVE} or {@link #REDUCE}.
     */
    public byte kind(final int index)
    {
        return kinds[index];
    }

    /**
     * @param index 0-based command index.
     * @return exchange-core order id the command creates or acts on.
     */
    public long orderId(final int index)
    {
        return orderIds[index];
    }

    /**
     * @param index 0-based command index.
     * @return exchange-core user id (owner of the order).
     */
    public int uid(final int index)
    {
        return uids[index];
    }

    /**
     * @param index 0-based command index.
     * @return {@link #SIDE_BUY}, {@link #SIDE_SELL}, or {@link #SIDE_NONE} for commands other than PLACE.
     */
    public byte side(final int index)
    {
        return sides[index];
    }

    /**
     * @param index 0-based command index.
     * @return PLACE: limit price in ticks (the total budget for FOK_BUDGET); MOVE: the new price; otherwise 0.
     */
    public long price(final int index)
    {
        return prices[index];
    }

    /**
     * @param index 0-based command index.
     * @return PLACE: order size in lots; REDUCE: the amount to reduce by; otherwise 0.
     */
    public long size(final int index)
    {
        return sizes[index];
    }

    /**
     * @param index 0-based command index.
     * @return {@link #TYPE_GTC}, {@link #TYPE_IOC}, {@link #TYPE_FOK_BUDGET}, or {@link #TYPE_NONE} for commands
     * other than PLACE.
     */
    public byte orderType(final int index)
    {
        return orderTypes[index];
    }

    /** A byte-level CSV reader into growing arrays: 3 million rows without a String per field. */
    private static final class Parser
    {
        private final InputStream in;
        private final byte[] buffer = new byte[BUFFER_SIZE];
        private int position;
        private int limit;
        private final int[] fieldLengths = new int[COLUMNS];
        private final byte[][] fields = new byte[COLUMNS][MAX_FIELD_LENGTH];
        private int line = 1;
        private int count;
        private int benchStart = -1;
        private byte[] kinds = new byte[1024];
        private long[] orderIds = new long[1024];
        private int[] uids = new int[1024];
        private byte[] sides = new byte[1024];
        private long[] prices = new long[1024];
        private long[] sizes = new long[1024];
        private byte[] orderTypes = new byte[1024];

        Parser(final InputStream in)
        {
            this.in = in;
        }

        void parse() throws IOException
        {
            final String header = readHeader();
            if (!HEADER.equals(header))
            {
                throw new IllegalArgumentException("line 1: expected header " + HEADER + " but was " + header);
            }
            while (readRow())
            {
                addRow();
            }
        }

        private String readHeader() throws IOException
        {
            final StringBuilder sb = new StringBuilder();
            int b;
            while ((b = next()) != -1 && b != '\n')
            {
                if (b != '\r')
                {
                    sb.append((char)b);
                }
            }
            return sb.toString();
        }

        /** @return the next byte, or -1 at end of input. */
        private int next() throws IOException
        {
            if (position == limit)
            {
                limit = in.readNBytes(buffer, 0, BUFFER_SIZE);
                position = 0;
                if (0 == limit)
                {
                    return -1;
                }
            }
            return buffer[position++];
        }

        /** Splits the next line that is not blank into {@link #fields}; false at end of input. */
        private boolean readRow() throws IOException
        {
            int b = next();
            while (b == '\n' || b == '\r')
            {
                if (b == '\n')
                {
                    line++;
                }
                b = next();
            }
            if (b == -1)
            {
                return false;
            }
            line++;
            int column = 0;
            int length = 0;
            while (b != -1 && b != '\n')
            {
                if (b == ',')
                {
                    fieldLengths[column++] = length;
                    length = 0;
                    if (column == COLUMNS)
                    {
                        throw error("more than " + COLUMNS + " columns");
                    }
                }
                else if (b != '\r')
                {
                    if (length == MAX_FIELD_LENGTH)
                    {
                        throw error("field " + (column + 1) + " longer than " + MAX_FIELD_LENGTH + " bytes");
                    }
                    fields[column][length++] = (byte)b;
                }
                b = next();
            }
            fieldLengths[column] = length;
            if (column != COLUMNS - 1)
            {
                throw error("expected " + COLUMNS + " columns but found " + (column + 1));
            }
            return true;
        }

        private void addRow()
        {
            if (number(0) != count)
            {
                throw error("seq " + number(0) + " where " + count + " was expected");
            }
            final boolean bench = is(1, "BENCH");
            if (!bench && !is(1, "SETUP"))
            {
                throw error("unknown phase " + text(1));
            }
            if (bench && benchStart < 0)
            {
                benchStart = count;
            }
            else if (!bench && benchStart >= 0)
            {
                throw error("SETUP row after the first BENCH row");
            }
            ensureCapacity();
            final byte kind = kind();
            kinds[count] = kind;
            orderIds[count] = number(3);
            uids[count] = (int)number(4);
            sides[count] = side();
            prices[count] = 0 == fieldLengths[6] ? 0 : number(6);
            sizes[count] = 0 == fieldLengths[7] ? 0 : number(7);
            orderTypes[count] = orderType();
            if (PLACE == kind && (SIDE_NONE == sides[count] || TYPE_NONE == orderTypes[count]))
            {
                throw error("PLACE without side or order type");
            }
            count++;
        }

        private byte kind()
        {
            if (is(2, "PLACE"))
            {
                return PLACE;
            }
            if (is(2, "MOVE"))
            {
                return MOVE;
            }
            if (is(2, "REDUCE"))
            {
                return REDUCE;
            }
            if (is(2, "CANCEL"))
            {
                return CANCEL;
            }
            throw error("unknown cmd " + text(2));
        }

        private byte side()
        {
            if (0 == fieldLengths[5])
            {
                return SIDE_NONE;
            }
            if (is(5, "BUY"))
            {
                return SIDE_BUY;
            }
            if (is(5, "SELL"))
            {
                return SIDE_SELL;
            }
            throw error("unknown side " + text(5));
        }

        private byte orderType()
        {
            if (0 == fieldLengths[8])
            {
                return TYPE_NONE;
            }
            if (is(8, "GTC"))
            {
                return TYPE_GTC;
            }
            if (is(8, "IOC"))
            {
                return TYPE_IOC;
            }
            if (is(8, "FOK_BUDGET"))
            {
                return TYPE_FOK_BUDGET;
            }
            throw error("unknown order_type " + text(8));
        }

        private boolean is(final int column, final String value)
        {
            final int length = fieldLengths[column];
            if (length != value.length())
            {
                return false;
            }
            final byte[] bytes = fields[column];
            for (int i = 0; i < length; i++)
            {
                if (bytes[i] != value.charAt(i))
                {
                    return false;
                }
            }
            return true;
        }

        private long number(final int column)
        {
            final int length = fieldLengths[column];
            final byte[] bytes = fields[column];
            if (0 == length || length > 18)
            {
                throw error("bad number in column " + (column + 1) + ": '" + text(column) + "'");
            }
            final boolean negative = bytes[0] == '-';
            long value = 0;
            for (int i = negative ? 1 : 0; i < length; i++)
            {
                final int digit = bytes[i] - '0';
                if (digit < 0 || digit > 9)
                {
                    throw error("bad number in column " + (column + 1) + ": '" + text(column) + "'");
                }
                value = value * 10 + digit;
            }
            return negative ? -value : value;
        }

        private String text(final int column)
        {
            return new String(fields[column], 0, fieldLengths[column], StandardCharsets.US_ASCII);
        }

        private IllegalArgumentException error(final String message)
        {
            return new IllegalArgumentException("line " + line + ": " + message);
        }

        private void ensureCapacity()
        {
            if (count == kinds.length)
            {
                final int capacity = count * 2;
                kinds = Arrays.copyOf(kinds, capacity);
                orderIds = Arrays.copyOf(orderIds, capacity);
                uids = Arrays.copyOf(uids, capacity);
                sides = Arrays.copyOf(sides, capacity);
                prices = Arrays.copyOf(prices, capacity);
                sizes = Arrays.copyOf(sizes, capacity);
                orderTypes = Arrays.copyOf(orderTypes, capacity);
            }
        }
    }
}
