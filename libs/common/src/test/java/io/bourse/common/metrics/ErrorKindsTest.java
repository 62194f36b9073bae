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
        UNKNOWN_SYMBOL,
        SLOW_CONSUMER
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
            errors.error(Kind.UNKNOWN_SYMBOL, "TradeBroken", ErrorKindsTest::unexpected, 5);
            for (int i = 0; i < 3; i++)
            {
                if (errors.errorToLog(Kind.SLOW_CONSUMER))
                {
                    errors.log(Kind.SLOW_CONSUMER, "subscriber " + i, "send buffer full");
                }
            }
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
            System.lineSeparator() +
            "[test-service] SLOW_CONSUMER (subscriber 0): send buffer full" +
            " (further errors of this kind are only counted)" +
            System.lineSeparator());
        assertThat(errors.count(Kind.BAD_PACKET)).isEqualTo(2);
        assertThat(errors.count(Kind.UNKNOWN_SYMBOL)).isEqualTo(4);
        assertThat(errors.count(Kind.SLOW_CONSUMER)).isEqualTo(3);
        assertThat(errors.total()).isEqualTo(10);
        final ByteArrayOutputStream scrape = new ByteArrayOutputStream();
        PrometheusTextFormatWriter.create().write(scrape, registry.scrape());
        assertThat(scrape.toString(StandardCharsets.UTF_8))
            .contains("test_errors_total{kind=\"bad_packet\"} 2.0\n")
            .contains("test_errors_total{kind=\"unknown_symbol\"} 4.0\n")
            .contains("test_errors_total{kind=\"slow_consumer\"} 3.0\n")
            .contains("test_errors_total{kind=\"agent_exception\"} 1.0\n");
    }

    @Test
    void shouldFormatTheValueOfOnlyTheFirstErrorOfItsKind()
    {
        final ErrorKinds<Kind> errors = new ErrorKinds<>("test-service", Kind.class);
        final ByteArrayOutputStream log = new ByteArrayOutputStream();
        final PrintStream stderr = System.err;
        System.setErr(new PrintStream(log, true, StandardCharsets.UTF_8));
        try
        {
            errors.error(Kind.UNKNOWN_SYMBOL, "OrderAdded", Long::toHexString, 255);
            errors.error(Kind.UNKNOWN_SYMBOL, "OrderAdded", ErrorKindsTest::unexpected, 256);
        }
        finally
        {
            System.setErr(stderr);
        }

        assertThat(log.toString(StandardCharsets.UTF_8)).isEqualTo(
            "[test-service] UNKNOWN_SYMBOL (OrderAdded): ff (further errors of this kind are only counted)" +
            System.lineSeparator());
        assertThat(errors.count(Kind.UNKNOWN_SYMBOL)).isEqualTo(2);
    }

    /** A format that must not be called: the error it would describe is not the first of its kind. */
    private static String unexpected(final long value)
    {
        throw new AssertionError("formatted " + value + ", not the first error of its kind");
    }
}
