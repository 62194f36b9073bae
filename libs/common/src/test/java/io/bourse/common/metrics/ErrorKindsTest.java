package io.bourse.common.metrics;

import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

class ErrorKindsTest
{
    private enum Kind
    {
        BAD_PACKET,
        UNKNOWN_SYMBOL
    }

    @Test
    void shouldCountEachKindUnderItsLabelAndLogOnlyTheFirstOfEachKind() throws IOException
    {
        final PrometheusRegistry registry = new PrometheusRegistry();
        final ErrorKinds<Kind> errors = new ErrorKinds<>("test-service", Kind.class);
        errors.register(registry, "test_errors_total", "Errors by kind");
        final ByteArrayOutputStream log = new ByteArrayOutputStream();
        final PrintStream stderr = System.err;
        System.setErr(new PrintStream(log, true, StandardCharsets.UTF_8));
        try
        {
            errors.error(Kind.BAD_PACKET, "10.0.0.1:4000", "length 3");
            errors.error(Kind.BAD_PACKET, "10.0.0.2:4000", "length 4");
            errors.error(Kind.UNKNOWN_SYMBOL, "OrderAdded", "order", 17);
            errors.error(Kind.UNKNOWN_SYMBOL, "OrderAdded", "order", 33);
            errors.increment(Kind.UNKNOWN_SYMBOL);
        }
        finally
        {
            System.setErr(stderr);
        }
        errors.agentExceptions().incrementAndGet();

        assertThat(log.toString(StandardCharsets.UTF_8)).isEqualTo(
            "[test-service] BAD_PACKET (10.0.0.1:4000): length 3 (further errors of this kind are only counted)" +
            System.lineSeparator() +
            "[test-service] UNKNOWN_SYMBOL (OrderAdded): order 17 (further errors of this kind are only counted)" +
            System.lineSeparator());
        assertThat(errors.count(Kind.BAD_PACKET)).isEqualTo(2);
        assertThat(errors.count(Kind.UNKNOWN_SYMBOL)).isEqualTo(3);
        assertThat(errors.total()).isEqualTo(6);
        final ByteArrayOutputStream scrape = new ByteArrayOutputStream();
        PrometheusTextFormatWriter.create().write(scrape, registry.scrape());
        assertThat(scrape.toString(StandardCharsets.UTF_8))
            .contains("test_errors_total{kind=\"bad_packet\"} 2.0\n")
            .contains("test_errors_total{kind=\"unknown_symbol\"} 3.0\n")
            .contains("test_errors_total{kind=\"agent_exception\"} 1.0\n");
    }
}
