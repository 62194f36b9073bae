package io.bourse.bench;

import io.bourse.engine.match.Side;
import io.bourse.engine.replay.ExchangeCoreReplay;
import io.bourse.engine.replay.TradeLog;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.GZIPInputStream;

/**
 * What one source made of an exchange-core command stream: its trades in emission order and its final book, as rows
 * of {@link ExchangeCoreReplay#BOOK_CSV_HEADER} ({@code order_id,side,price,remaining_size}: asks lowest price first,
 * then bids highest first, oldest first within a price), exactly as {@link ExchangeCoreReplay#writeBookCsv} writes
 * them. The source is a live engine or the files exchange-core recorded for the stream
 * ({@code ../shared/data/exchange-core/README.md}). Prices in exchange-core ticks, sizes in lots.
 *
 * @param name   the source as printed.
 * @param trades the trades: taker order id, maker order id, maker's price, lots.
 * @param book   the resting orders, one CSV row each, without the header.
 */
public record ReplayOutcome(String name, TradeLog trades, List<String> book)
{
    private static final String TRADES_HEADER = "seq," + TradeLog.CSV_HEADER;
    private static final String COMMANDS_PREFIX = "commands";
    private static final String CSV = ".csv";
    private static final String GZ = ".gz";

    /**
     * @param name   the source as printed.
     * @param replay Bourse's replay, after its commands.
     * @param trades the trades the replay handed to its listener.
     * @return Bourse's outcome.
     */
    public static ReplayOutcome of(final String name, final ExchangeCoreReplay replay, final TradeLog trades)
    {
        final List<String> book = new ArrayList<>();
        replay.forEachRestingOrder((clientOrderId, orderId, side, price, remaining, display) ->
            book.add(bookRow(clientOrderId, side, price, remaining)));
        return new ReplayOutcome(name, trades, book);
    }

    /**
     * @param name   the source as printed.
     * @param engine exchange-core's order book, after its commands.
     * @param trades the trades the engine handed to its listener.
     * @return exchange-core's outcome.
     */
    static ReplayOutcome of(final String name, final ExchangeCoreBookEngine engine, final TradeLog trades)
    {
        final List<String> book = new ArrayList<>();
        engine.forEachRestingOrder((orderId, side, price, remaining) ->
            book.add(bookRow(orderId, side, price, remaining)));
        return new ReplayOutcome(name, trades, book);
    }

    /**
     * The files exchange-core recorded for a command file, when they lie beside it: for
     * {@code commands<suffix>.csv(.gz)}, {@code trades<suffix>.csv.gz} (or {@code .csv}) with columns
     * {@code seq,taker_order_id,maker_order_id,price,size,...} and {@code final_book<suffix>.csv} (or {@code .csv.gz})
     * with columns {@code order_id,side,price,remaining_size,...}.
     *
     * @param name         the source as printed.
     * @param commandsFile the command file the recording was made from.
     * @return the recorded outcome, or null when the command file is not named {@code commands*.csv(.gz)} or either
     * recorded file is missing.
     * @throws IOException              when a recorded file cannot be read.
     * @throws IllegalArgumentException when a recorded file's header or a row is malformed.
     */
    public static ReplayOutcome recordedBeside(final String name, final Path commandsFile) throws IOException
    {
        final String fileName = commandsFile.getFileName().toString();
        final String base = fileName.endsWith(GZ) ? fileName.substring(0, fileName.length() - GZ.length()) : fileName;
        if (!base.startsWith(COMMANDS_PREFIX) || !base.endsWith(CSV))
        {
            return null;
        }
        final String suffix = base.substring(COMMANDS_PREFIX.length(), base.length() - CSV.length());
        final Path dir = commandsFile.toAbsolutePath().getParent();
        final Path tradesFile =
            existing(dir.resolve("trades" + suffix + CSV + GZ), dir.resolve("trades" + suffix + CSV));
        final Path bookFile =
            existing(dir.resolve("final_book" + suffix + CSV), dir.resolve("final_book" + suffix + CSV + GZ));
        return null == tradesFile || null == bookFile ? null : recorded(name, tradesFile, bookFile);
    }

    /**
     * Reads the trades and final book exchange-core recorded, keeping the columns that {@link TradeLog#CSV_HEADER}
     * and {@link ExchangeCoreReplay#BOOK_CSV_HEADER} name.
     *
     * @param name       the source as printed.
     * @param tradesFile {@code seq,taker_order_id,maker_order_id,price,size,...}, gunzipped when named {@code .gz}.
     * @param bookFile   {@code order_id,side,price,remaining_size,...}, gunzipped when named {@code .gz}.
     * @return the recorded outcome.
     * @throws IOException              when a file cannot be read.
     * @throws IllegalArgumentException when a header or a row is malformed (the message names the file and line).
     */
    public static ReplayOutcome recorded(final String name, final Path tradesFile, final Path bookFile)
        throws IOException
    {
        final TradeLog trades = new TradeLog();
        final List<String[]> tradeRows = rows(tradesFile, TRADES_HEADER, 5);
        for (int i = 0; i < tradeRows.size(); i++)
        {
            final String[] row = tradeRows.get(i);
            try
            {
                trades.onTrade(Long.parseLong(row[1]), Long.parseLong(row[2]), Long.parseLong(row[3]),
                    Long.parseLong(row[4]));
            }
            catch (final NumberFormatException ex)
            {
                throw new IllegalArgumentException(tradesFile + " line " + (i + 2) + ": " + ex.getMessage(), ex);
            }
        }
        final List<String> book = new ArrayList<>();
        for (final String[] row : rows(bookFile, ExchangeCoreReplay.BOOK_CSV_HEADER, 4))
        {
            book.add(String.join(",", row[0], row[1], row[2], row[3]));
        }
        return new ReplayOutcome(name, trades, book);
    }

    /**
     * @param orderId   exchange-core order id.
     * @param side      side.
     * @param price     limit price in ticks.
     * @param remaining resting lots.
     * @return the row {@code order_id,side,price,remaining_size}, without a line end.
     */
    static String bookRow(final long orderId, final Side side, final long price, final long remaining)
    {
        return orderId + "," + side + "," + price + "," + remaining;
    }

    /** @return total lots traded. */
    public long volume()
    {
        return trades.volume();
    }

    private static Path existing(final Path first, final Path second)
    {
        return Files.isRegularFile(first) ? first : Files.isRegularFile(second) ? second : null;
    }

    /** The data rows of a CSV file whose header starts with {@code headerPrefix}, each with at least n columns. */
    private static List<String[]> rows(final Path file, final String headerPrefix, final int columns)
        throws IOException
    {
        try (InputStream raw = Files.newInputStream(file);
            BufferedReader reader = new BufferedReader(new InputStreamReader(
                file.getFileName().toString().endsWith(GZ) ? new GZIPInputStream(raw) : raw,
                StandardCharsets.US_ASCII)))
        {
            final String header = reader.readLine();
            if (null == header || !header.startsWith(headerPrefix))
            {
                throw new IllegalArgumentException(file + " line 1: expected a header starting " + headerPrefix +
                    " but was " + header);
            }
            final List<String[]> rows = new ArrayList<>();
            int line = 1;
            for (String text = reader.readLine(); null != text; text = reader.readLine())
            {
                line++;
                final String[] row = text.split(",", -1);
                if (row.length < columns)
                {
                    throw new IllegalArgumentException(
                        file + " line " + line + ": expected at least " + columns + " columns: " + text);
                }
                rows.add(row);
            }
            return rows;
        }
    }
}
