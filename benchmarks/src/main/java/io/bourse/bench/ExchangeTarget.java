package io.bourse.bench;

import io.bourse.common.config.Credentials;
import org.agrona.CloseHelper;

import java.io.PrintStream;

import java.util.List;

/**
 * A running exchange that {@code bourse bench e2e} sends orders to and reads market data from, on this host: the whole
 * pipeline, order gateway, matching-engine shards, md-publisher and fanout, embedded in this JVM or in containers.
 *
 * @param name            the run mode, for the report: {@code embedded} or {@code compose}.
 * @param layout          its threads and processes, for the report.
 * @param gatewayPort     the order gateway's OUCH 4.2 / SoupBinTCP port on 127.0.0.1.
 * @param fanoutPort      the fanout's ITCH 5.0 / SoupBinTCP port on 127.0.0.1.
 * @param orderEntryUsers OUCH users, one per session, at least as many as the benchmark's sessions.
 * @param marketDataUser  the fanout subscriber's user.
 * @param symbols         the symbols to trade, one per engine shard so that every shard has work.
 */
public record ExchangeTarget(
    String name,
    String layout,
    int gatewayPort,
    int fanoutPort,
    List<Credentials.User> orderEntryUsers,
    Credentials.User marketDataUser,
    List<String> symbols)
{
    /**
     * Starts an exchange for the benchmark and stops it on close.
     */
    @FunctionalInterface
    public interface Launcher
    {
        /**
         * @param progress where start-up messages go.
         * @return the running exchange; close it to stop it.
         * @throws RuntimeException when it cannot start, naming the cause.
         */
        Running launch(PrintStream progress);
    }

    /**
     * An exchange started for the benchmark.
     *
     * @param target  where to reach it.
     * @param stopper stops it.
     */
    public record Running(ExchangeTarget target, AutoCloseable stopper) implements AutoCloseable
    {
        /**
         * Stops the exchange.
         *
         * @throws RuntimeException what stopping it threw, checked exceptions rethrown unchecked (Agrona's
         *                          {@link CloseHelper#close(AutoCloseable)}).
         */
        @Override
        public void close()
        {
            CloseHelper.close(stopper);
        }
    }
}
