package io.bourse.gateway;

import io.bourse.gateway.RecordingEngineProxy.Cancel;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The closed days' cancels: kept while their shard cannot take them, sent once it can, each counted by its kind; their
 * days marked done with once every one was taken.
 */
class ClosedDayCancelsTest
{
    private static final long T = 36_000_000_000_000L;

    private final PrometheusRegistry registry = new PrometheusRegistry();
    private final GatewayMetrics metrics = new GatewayMetrics(registry);
    private final DutyCycleClock clock = new DutyCycleClock(null);
    private final RecordingEngineProxy engine = new RecordingEngineProxy();
    private final ClosedDayCancels cancels = new ClosedDayCancels(engine, metrics, clock, 2);

    @TempDir
    private Path dir;

    @Test
    void shouldKeepTheCancelsWhileTheShardIsDownAndSendEachOnceItIsBack()
    {
        clock.set(1_000, T);
        engine.available = false;
        cancels.add(11, 0, true);
        cancels.add(12, 1, false);

        assertThat(cancels.retry()).isZero();
        assertThat(cancels.size()).isEqualTo(2);
        assertThat(engine.commands()).isEmpty();

        engine.available = true;
        engine.downShard = 1;
        clock.set(2_000, T + 5);
        assertThat(cancels.retry()).as("in the first cycle its shard takes commands").isOne();
        assertThat(cancels.retry()).as("shard 1 still down").isZero();
        engine.downShard = -1;
        clock.set(3_000, T + 6);
        assertThat(cancels.retry()).isOne();
        assertThat(cancels.retry()).as("each sent once").isZero();

        assertThat(cancels.size()).isZero();
        assertThat(engine.commands()).containsExactly(new Cancel(0, T + 5, 11, 0), new Cancel(1, T + 6, 12, 0));
        assertThat(Metrics.sum(registry, "bourse_gateway_close_cancels_total")).isOne();
        assertThat(Metrics.sum(registry, "bourse_gateway_cancel_on_disconnect_total")).isOne();
    }

    @Test
    void shouldOfferTheCancelsLeftOnceMoreAtAStopAndCountThoseRefused() throws IOException
    {
        final Path day = keepADaysCancelWhileTheEngineIsDown();

        cancels.sendAtStop();

        assertThat(cancels.size()).isZero();
        assertThat(engine.commands()).containsExactly(new Cancel(0, T, 11, 0));
        assertThat(Metrics.counter(registry, "bourse_gateway_rejects_total", "engine_unavailable")).isOne();
        assertThat(day.resolve(JournalStore.ORDERS_CANCELED_FILE)).as("left for the next start").doesNotExist();
    }

    @Test
    void shouldMarkTheDaysOnceEveryCancelKeptIsTaken() throws IOException
    {
        final Path none = Files.createDirectories(dir.resolve("20250101"));
        final Path first = Files.createDirectories(dir.resolve("20250102"));
        final Path second = Files.createDirectories(dir.resolve("20250103"));
        clock.set(1_000, T);
        cancels.markWhenSent(none);
        assertThat(none.resolve(JournalStore.ORDERS_CANCELED_FILE)).as("no cancel kept: at once").exists();

        engine.available = false;
        cancels.add(11, 0, true);
        cancels.markWhenSent(first);
        cancels.add(21, 1, true);
        cancels.markWhenSent(second);
        engine.available = true;
        engine.downShard = 1;
        assertThat(cancels.retry()).isOne();
        assertThat(first.resolve(JournalStore.ORDERS_CANCELED_FILE)).as("another day's cancel still kept")
            .doesNotExist();

        engine.downShard = -1;
        assertThat(cancels.retry()).isOne();
        assertThat(first.resolve(JournalStore.ORDERS_CANCELED_FILE)).exists();
        assertThat(second.resolve(JournalStore.ORDERS_CANCELED_FILE)).exists();
    }

    @Test
    void shouldMarkTheDaysAtAStopThatSentEveryCancel() throws IOException
    {
        final Path day = keepADaysCancelWhileTheEngineIsDown();
        engine.available = true;

        cancels.sendAtStop();

        assertThat(engine.commands()).containsExactly(new Cancel(0, T, 11, 0));
        assertThat(day.resolve(JournalStore.ORDERS_CANCELED_FILE)).exists();
    }

    /** @return the directory of the day whose cancel, of order 11 on shard 0, is kept while the engine is down. */
    private Path keepADaysCancelWhileTheEngineIsDown() throws IOException
    {
        final Path day = Files.createDirectories(dir.resolve("20250102"));
        clock.set(1_000, T);
        engine.available = false;
        cancels.add(11, 0, true);
        cancels.markWhenSent(day);
        return day;
    }
}
