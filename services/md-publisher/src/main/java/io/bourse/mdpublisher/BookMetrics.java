package io.bourse.mdpublisher;

import io.bourse.common.config.SymbolDirectory;
import io.prometheus.metrics.core.metrics.CounterWithCallback;
import io.prometheus.metrics.core.metrics.GaugeWithCallback;
import io.prometheus.metrics.model.registry.PrometheusRegistry;

import java.util.List;

/**
 * The per-symbol market metrics of the md-publisher's books, read at scrape time (label {@code symbol}):
 * <ul>
 *     <li>{@code bourse_md_book_levels{symbol,side}}, {@code bourse_md_book_orders{symbol,side}} and
 *     {@code bourse_md_book_shares{symbol,side}}: displayed depth per side ({@code bid}, {@code offer}), present for
 *     every symbol, 0 for an empty side;</li>
 *     <li>{@code bourse_md_best_bid_dollars}, {@code bourse_md_best_offer_dollars} and
 *     {@code bourse_md_spread_dollars}: the BBO last published, in dollars; a series is absent while its side (for the
 *     spread, either side) is empty, so that Prometheus marks it stale and Grafana leaves a gap rather than drawing a
 *     price of 0 or a NaN that spoils every aggregation;</li>
 *     <li>{@code bourse_md_trades_total} and {@code bourse_md_traded_shares_total}: trades printed (Trade, and Cross
 *     Trade with shares; a broken trade is not taken back) and their shares.</li>
 * </ul>
 * The label values and the books are resolved once here; the publisher thread only writes the books' fields, and the
 * scrape reads them as {@link SymbolBook} describes.
 */
final class BookMetrics
{
    private static final double PRICE_UNITS_PER_DOLLAR = 10_000.0;
    private static final String BID = "bid";
    private static final String OFFER = "offer";

    private final SymbolBook[] books;
    private final String[] symbols;

    private BookMetrics(final SymbolBook[] books, final String[] symbols)
    {
        this.books = books;
        this.symbols = symbols;
    }

    /**
     * Registers the metrics of every symbol of the directory; call before the publisher thread starts.
     *
     * @param registry  where to register.
     * @param directory the symbols, each with a book in {@code books}.
     * @param books     the books the publisher thread keeps.
     * @throws IllegalArgumentException when a symbol of the directory has no book.
     */
    static void register(
        final PrometheusRegistry registry, final SymbolDirectory directory, final MarketDataBooks books)
    {
        final List<SymbolDirectory.Entry> entries = directory.entries();
        final SymbolBook[] symbolBooks = new SymbolBook[entries.size()];
        final String[] symbols = new String[entries.size()];
        for (int i = 0; i < symbolBooks.length; i++)
        {
            final SymbolDirectory.Entry entry = entries.get(i);
            symbolBooks[i] = books.book(entry.packed());
            symbols[i] = entry.symbol();
            if (null == symbolBooks[i])
            {
                throw new IllegalArgumentException("no market-data book for symbol " + entry.symbol());
            }
        }
        new BookMetrics(symbolBooks, symbols).register(registry);
    }

    private void register(final PrometheusRegistry registry)
    {
        GaugeWithCallback.builder()
            .name("bourse_md_book_levels")
            .help("Displayed price levels, by symbol and side")
            .labelNames("symbol", "side")
            .callback((callback) -> forEachSide((side, symbol, sideName) ->
                callback.call(side.levelCount(), symbol, sideName)))
            .register(registry);
        GaugeWithCallback.builder()
            .name("bourse_md_book_orders")
            .help("Displayed resting orders, by symbol and side")
            .labelNames("symbol", "side")
            .callback((callback) -> forEachSide((side, symbol, sideName) ->
                callback.call(side.orderCount(), symbol, sideName)))
            .register(registry);
        GaugeWithCallback.builder()
            .name("bourse_md_book_shares")
            .help("Displayed open shares, by symbol and side")
            .labelNames("symbol", "side")
            .callback((callback) -> forEachSide((side, symbol, sideName) ->
                callback.call(side.totalShares(), symbol, sideName)))
            .register(registry);

        GaugeWithCallback.builder()
            .name("bourse_md_best_bid_dollars")
            .help("Best bid price last published in dollars, by symbol; absent while there is no bid")
            .labelNames("symbol")
            .callback((callback) -> forEachPresent(
                (book) -> book.bidPrice, 0, (price, symbol) -> callback.call(dollars(price), symbol)))
            .register(registry);
        GaugeWithCallback.builder()
            .name("bourse_md_best_offer_dollars")
            .help("Best offer price last published in dollars, by symbol; absent while there is no offer")
            .labelNames("symbol")
            .callback((callback) -> forEachPresent(
                (book) -> book.askPrice, 0, (price, symbol) -> callback.call(dollars(price), symbol)))
            .register(registry);
        GaugeWithCallback.builder()
            .name("bourse_md_spread_dollars")
            .help("Best offer minus best bid last published in dollars, by symbol; absent while a side is empty")
            .labelNames("symbol")
            .callback((callback) -> forEachPresent((book) -> book.spread, SymbolBook.NO_SPREAD,
                (spread, symbol) -> callback.call(dollars(spread), symbol)))
            .register(registry);

        CounterWithCallback.builder()
            .name("bourse_md_trades_total")
            .help("Trades printed (Trade, and Cross Trade with shares), by symbol")
            .labelNames("symbol")
            .callback((callback) -> forEachSymbol(
                (book) -> book.trades.getOpaque(), (trades, symbol) -> callback.call(trades, symbol)))
            .register(registry);
        CounterWithCallback.builder()
            .name("bourse_md_traded_shares_total")
            .help("Shares of the trades printed, by symbol")
            .labelNames("symbol")
            .callback((callback) -> forEachSymbol(
                (book) -> book.tradedShares.getOpaque(), (shares, symbol) -> callback.call(shares, symbol)))
            .register(registry);
    }

    private void forEachSide(final SideConsumer consumer)
    {
        for (int i = 0; i < books.length; i++)
        {
            consumer.accept(books[i].bids, symbols[i], BID);
            consumer.accept(books[i].asks, symbols[i], OFFER);
        }
    }

    private void forEachSymbol(final BookValue value, final SymbolValueConsumer consumer)
    {
        for (int i = 0; i < books.length; i++)
        {
            consumer.accept(value.of(books[i]), symbols[i]);
        }
    }

    /** Like {@link #forEachSymbol} but skips the symbols whose value is {@code absent}: no series for them. */
    private void forEachPresent(final BookValue value, final long absent, final SymbolValueConsumer consumer)
    {
        forEachSymbol(value, (snapshot, symbol) ->
        {
            if (absent != snapshot)
            {
                consumer.accept(snapshot, symbol);
            }
        });
    }

    private static double dollars(final long price)
    {
        return price / PRICE_UNITS_PER_DOLLAR;
    }

    @FunctionalInterface
    private interface SideConsumer
    {
        void accept(BookLevels side, String symbol, String sideName);
    }

    @FunctionalInterface
    private interface BookValue
    {
        long of(SymbolBook book);
    }

    @FunctionalInterface
    private interface SymbolValueConsumer
    {
        void accept(long value, String symbol);
    }
}
