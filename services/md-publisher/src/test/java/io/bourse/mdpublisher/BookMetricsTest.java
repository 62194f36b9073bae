package io.bourse.mdpublisher;

import io.bourse.common.metrics.ErrorKinds;
import io.bourse.common.config.SymbolDirectory;
import io.bourse.common.config.Symbols;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.DataPointSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class BookMetricsTest
{
    private static final long AAPL = Symbols.pack("AAPL");
    private static final long MSFT = Symbols.pack("MSFT");
    private static final long T1 = 34_200_000_000_000L;
    private static final long T2 = T1 + 1_000;
    private static final long TAKER = 1_001;

    private final PrometheusRegistry registry = new PrometheusRegistry();
    private final ErrorKinds<MdPublisherError> errors = new ErrorKinds<>("md-publisher", MdPublisherError.class);
    private final MarketDataBooks books = new MarketDataBooks(
        new long[]{AAPL, MSFT}, MarketDataBooks.FULL_DEPTH, new MarketDataEvents(), errors);

    BookMetricsTest()
    {
        BookMetrics.register(registry, SymbolDirectory.parse("AAPL@0,MSFT@1"), books);
    }

    @Test
    void shouldExportZeroDepthAndNoPricesForEverySymbolWhenBooksAreEmpty()
    {
        assertThat(scrape()).containsExactly(
            new Sample("bourse_md_book_levels", "AAPL", "bid", 0),
            new Sample("bourse_md_book_levels", "AAPL", "offer", 0),
            new Sample("bourse_md_book_levels", "MSFT", "bid", 0),
            new Sample("bourse_md_book_levels", "MSFT", "offer", 0),
            new Sample("bourse_md_book_orders", "AAPL", "bid", 0),
            new Sample("bourse_md_book_orders", "AAPL", "offer", 0),
            new Sample("bourse_md_book_orders", "MSFT", "bid", 0),
            new Sample("bourse_md_book_orders", "MSFT", "offer", 0),
            new Sample("bourse_md_book_shares", "AAPL", "bid", 0),
            new Sample("bourse_md_book_shares", "AAPL", "offer", 0),
            new Sample("bourse_md_book_shares", "MSFT", "bid", 0),
            new Sample("bourse_md_book_shares", "MSFT", "offer", 0),
            new Sample("bourse_md_traded_shares", "AAPL", null, 0),
            new Sample("bourse_md_traded_shares", "MSFT", null, 0),
            new Sample("bourse_md_trades", "AAPL", null, 0),
            new Sample("bourse_md_trades", "MSFT", null, 0));
    }

    @Test
    void shouldExportDepthBboAndSpreadInDollarsWhenBothSidesRest()
    {
        books.onOrderAdded(T1, 17, AAPL, Side.BUY, 100, 1_500_000, true, 0);
        books.onOrderAdded(T1, 33, AAPL, Side.BUY, 200, 1_500_000, true, 0);
        books.onOrderAdded(T1, 49, AAPL, Side.BUY, 300, 1_499_900, true, 0);
        books.onOrderAdded(T1, 65, AAPL, Side.SELL, 400, 1_500_300, true, 0);
        books.onOrderAdded(T1, 81, AAPL, Side.SELL, 500, 1_500_000, false, 0);
        books.onOrderAdded(T1, 97, MSFT, Side.SELL, 50, 4_200_000, true, 0);

        assertThat(scrape()).containsExactly(
            new Sample("bourse_md_best_bid_dollars", "AAPL", null, 150.0),
            new Sample("bourse_md_best_offer_dollars", "AAPL", null, 150.03),
            new Sample("bourse_md_best_offer_dollars", "MSFT", null, 420.0),
            new Sample("bourse_md_book_levels", "AAPL", "bid", 2),
            new Sample("bourse_md_book_levels", "AAPL", "offer", 1),
            new Sample("bourse_md_book_levels", "MSFT", "bid", 0),
            new Sample("bourse_md_book_levels", "MSFT", "offer", 1),
            new Sample("bourse_md_book_orders", "AAPL", "bid", 3),
            new Sample("bourse_md_book_orders", "AAPL", "offer", 1),
            new Sample("bourse_md_book_orders", "MSFT", "bid", 0),
            new Sample("bourse_md_book_orders", "MSFT", "offer", 1),
            new Sample("bourse_md_book_shares", "AAPL", "bid", 600),
            new Sample("bourse_md_book_shares", "AAPL", "offer", 400),
            new Sample("bourse_md_book_shares", "MSFT", "bid", 0),
            new Sample("bourse_md_book_shares", "MSFT", "offer", 50),
            new Sample("bourse_md_spread_dollars", "AAPL", null, 0.03),
            new Sample("bourse_md_traded_shares", "AAPL", null, 0),
            new Sample("bourse_md_traded_shares", "MSFT", null, 0),
            new Sample("bourse_md_trades", "AAPL", null, 0),
            new Sample("bourse_md_trades", "MSFT", null, 0));
        assertThat(errors.total()).isEqualTo(0);
    }

    @Test
    void shouldCountTradesAndSharesAndFollowTheDepthWhenOrdersExecuteAndACrossPrints()
    {
        books.onOrderAdded(T1, 17, AAPL, Side.BUY, 100, 1_500_000, true, 0);
        books.onOrderAdded(T1, 33, AAPL, Side.SELL, 300, 1_500_100, true, 0);
        books.onOrderAdded(T1, 49, AAPL, Side.SELL, 500, 1_500_200, false, 0);

        books.onOrderExecuted(T2, 5, AAPL, 120, 1_500_100, Side.BUY, TAKER, 0, 33, 180);
        books.onOrderExecuted(T2, 6, AAPL, 180, 1_500_100, Side.BUY, TAKER + 1, 0, 33, 0);
        books.onOrderExecuted(T2, 7, AAPL, 500, 1_500_200, Side.BUY, TAKER + 2, 0, 49, 0);
        books.onCrossCompleted(T2, MSFT, 0, 0, 8);
        books.onCrossCompleted(T2, MSFT, 700, 4_200_000, 9);
        books.onOrderCanceled(T2, 17, AAPL, 40, 60, true);

        assertThat(scrape()).containsExactly(
            new Sample("bourse_md_best_bid_dollars", "AAPL", null, 150.0),
            new Sample("bourse_md_book_levels", "AAPL", "bid", 1),
            new Sample("bourse_md_book_levels", "AAPL", "offer", 0),
            new Sample("bourse_md_book_levels", "MSFT", "bid", 0),
            new Sample("bourse_md_book_levels", "MSFT", "offer", 0),
            new Sample("bourse_md_book_orders", "AAPL", "bid", 1),
            new Sample("bourse_md_book_orders", "AAPL", "offer", 0),
            new Sample("bourse_md_book_orders", "MSFT", "bid", 0),
            new Sample("bourse_md_book_orders", "MSFT", "offer", 0),
            new Sample("bourse_md_book_shares", "AAPL", "bid", 60),
            new Sample("bourse_md_book_shares", "AAPL", "offer", 0),
            new Sample("bourse_md_book_shares", "MSFT", "bid", 0),
            new Sample("bourse_md_book_shares", "MSFT", "offer", 0),
            new Sample("bourse_md_traded_shares", "AAPL", null, 800),
            new Sample("bourse_md_traded_shares", "MSFT", null, 700),
            new Sample("bourse_md_trades", "AAPL", null, 3),
            new Sample("bourse_md_trades", "MSFT", null, 1));
        assertThat(errors.total()).isEqualTo(0);
    }

    @Test
    void shouldMoveDepthToTheNewPriceWhenAnOrderIsReplaced()
    {
        books.onOrderAdded(T1, 17, AAPL, Side.SELL, 100, 1_500_100, true, 0);
        books.onOrderAdded(T1, 33, AAPL, Side.SELL, 200, 1_500_100, true, 0);

        books.onOrderReplaced(T2, 17, 18, AAPL, Side.SELL, 150, 1_500_300, ReplaceKind.REPLACED);
        books.onOrderReplaced(T2, 33, 34, AAPL, Side.SELL, 120, 1_500_100, ReplaceKind.REPLACED);

        assertThat(scrape()).filteredOn((sample) -> "AAPL".equals(sample.symbol()) && "offer".equals(sample.side()))
            .containsExactly(
                new Sample("bourse_md_book_levels", "AAPL", "offer", 2),
                new Sample("bourse_md_book_orders", "AAPL", "offer", 2),
                new Sample("bourse_md_book_shares", "AAPL", "offer", 270));
        assertThat(errors.total()).isEqualTo(0);
    }

    @Test
    void shouldRefuseADirectorySymbolWithoutABook()
    {
        final SymbolDirectory directory = SymbolDirectory.parse("AAPL@0,GOOG@0");

        assertThatThrownBy(() -> BookMetrics.register(new PrometheusRegistry(), directory, books))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("GOOG");
    }

    /** One exported value; {@code side} is null for the metrics without that label. */
    private record Sample(String name, String symbol, String side, double value)
    {
    }

    /** @return every sample, by metric name (counters without {@code _total}), symbol, then side. */
    private List<Sample> scrape()
    {
        final List<Sample> samples = new ArrayList<>();
        registry.scrape().forEach((snapshot) -> addSamples(snapshot, samples));
        samples.sort(Comparator.comparing(Sample::name).thenComparing(Sample::symbol)
            .thenComparing(Sample::side, Comparator.nullsFirst(Comparator.naturalOrder())));
        return samples;
    }

    private static void addSamples(final MetricSnapshot snapshot, final List<Sample> samples)
    {
        for (final DataPointSnapshot point : snapshot.getDataPoints())
        {
            final double value = point instanceof GaugeSnapshot.GaugeDataPointSnapshot gauge ? gauge.getValue() :
                ((CounterSnapshot.CounterDataPointSnapshot)point).getValue();
            samples.add(new Sample(snapshot.getMetadata().getPrometheusName(), point.getLabels().get("symbol"),
                point.getLabels().get("side"), value));
        }
    }
}
