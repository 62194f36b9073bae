package io.bourse.engine.replay;

import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * Trades of a replay in emission order, kept in growing primitive arrays so that recording one costs no allocation
 * once the arrays are large enough, and written out as CSV after the timed part. Prices in exchange-core ticks, sizes
 * in lots.
 */
public final class TradeLog implements ExchangeCoreReplay.TradeListener
{
    /** Header of the CSV that {@link #writeCsv(Path)} writes: the first four trade columns of exchange-core's dump. */
    public static final String CSV_HEADER = "taker_order_id,maker_order_id,price,size";

    private long[] takerOrderIds = new long[1024];
    private long[] makerOrderIds = new long[1024];
    private long[] prices = new long[1024];
    private long[] sizes = new long[1024];
    private int count;

    @Override
    public void onTrade(final long takerOrderId, final long makerOrderId, final long price, final long size)
    {
        if (count == sizes.length)
        {
            final int capacity = count * 2;
            takerOrderIds = Arrays.copyOf(takerOrderIds, capacity);
            makerOrderIds = Arrays.copyOf(makerOrderIds, capacity);
            prices = Arrays.copyOf(prices, capacity);
            sizes = Arrays.copyOf(sizes, capacity);
        }
        takerOrderIds[count] = takerOrderId;
        makerOrderIds[count] = makerOrderId;
        prices[count] = price;
        sizes[count] = size;
        count++;
    }

    /** @return number of trades recorded. */
    public int count()
    {
        return count;
    }

    /** @return total traded lots. */
    public long volume()
    {
        long volume = 0;
        for (int i = 0; i < count; i++)
        {
            volume += sizes[i];
        }
        return volume;
    }

    /**
     * @param index 0-based trade index, in emission order.
     * @return the trade as a CSV row {@code taker_order_id,maker_order_id,price,size}, without a line end.
     */
    public String csvRow(final int index)
    {
        return takerOrderIds[index] + "," + makerOrderIds[index] + "," + prices[index] + "," + sizes[index];
    }

    /**
     * Writes {@link #CSV_HEADER} and one row per trade, in emission order.
     *
     * @param file the CSV file, replaced if present.
     * @throws IOException when writing fails.
     */
    public void writeCsv(final Path file) throws IOException
    {
        try (BufferedWriter writer = Files.newBufferedWriter(file, StandardCharsets.US_ASCII))
        {
            writer.write(CSV_HEADER);
            writer.newLine();
            for (int i = 0; i < count; i++)
            {
                writer.write(csvRow(i));
                writer.newLine();
            }
        }
    }
}
